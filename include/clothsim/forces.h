/*
 * clothsim: forces the host supplies, wind first.
 */
#ifndef CLOTHSIM_FORCES_H
#define CLOTHSIM_FORCES_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup forces Forces from the host
 * @brief Wind (turned into aerodynamic forces on the triangles) and any
 * per-particle force.
 *
 * Both hooks are called once per substep, before the integrator, on the
 * thread that called cloth_step(), with the simulated time in seconds at the
 * start of that substep (it grows by `dt / substeps` from one call to the
 * next) and the state at that moment. They must not call back into the
 * cloth: a call that would change it returns ::CLOTH_ERR_BUSY (clothsim.h,
 * Re-entry). The time is a float (the signature is fixed): it resolves one
 * substep of 1/960 s for the first 2^23 substeps (about 2.4 hours); a host
 * that runs longer and needs a finer clock should count time in `user`. What they return is a force or a velocity, never something scaled
 * by the substep, so results do not depend on the substep count. A hook
 * that writes NaN or infinity makes the step fail with ::CLOTH_ERR_UNSTABLE
 * (the state before it is kept).
 *
 * **Aerodynamics.** While wind is installed (a hook or a constant, even a
 * zero one), every triangle of area A and unit normal n feels the air. With
 * u the relative air velocity, the mean of the wind at its three corners
 * minus the mean velocity of its three particles, `u_n = u . n` and
 * `u_t = |u - u_n n|`, the force is along the normal (seed 001/002's
 * `normal * dot(normal, wind)`, made physical):
 *
 *     F = 1/2 rho A (C_d |u_n| + C_l u_t) u_n n
 *
 * split evenly over the three corners. The C_d term is the pressure of the
 * flow across the cloth (a flat plate broadside to the wind feels
 * `1/2 rho C_d A |u|^2`); the C_l term is the lift of air flowing along it at a
 * small angle of attack alpha (it grows like `sin alpha cos alpha`). So
 * the normal-force coefficient is `C_d sin^2 alpha + C_l sin alpha cos alpha`,
 * 1.1 at 45 degrees and 1.2 at 90 with the defaults, as for a flat plate.
 * Air moving along the cloth's plane pushes nothing, and a cloth at rest in
 * zero wind feels nothing at all (bit for bit: a hook that returns zeros
 * changes nothing). A cloth moving through still air is slowed by it (a
 * rigid plate of mass M falling broadside would settle at
 * `sqrt(2 M g / (rho C_d A))`; a cloth curls at its edges, which have less
 * cloth around them to catch air, and tumbles, as paper does). Without wind
 * installed there is no air: only cloth_set_damping() slows the cloth.
 * @{
 */

/**
 * Per-particle force hook, for any force the library does not model (a fan,
 * magnets, a character's hand). Called once per substep with the simulated
 * time (s), the particle count, the positions and velocities (xyz packed,
 * `3 * count` floats each) and `forces` (xyz packed, zeroed before the call):
 * write or add the force in newtons on each particle. The forces are added to
 * the springs' and the wind's; gravity is separate. Forces on pinned particles
 * have no effect. It runs after the wind hook.
 */
typedef void (*cloth_force_fn)(void *user, float time, uint32_t count, const float *positions,
                               const float *velocities, float *forces);

/**
 * Install the wind hook (see ::cloth_wind_fn), or remove all wind, hook or
 * constant, with `fn` NULL. The hook gets every particle's position and
 * writes the air velocity (m/s) at each into a buffer that is zeroed before
 * each call; the aerodynamic force above follows from it. Installing it
 * replaces a constant wind. The first hook installed allocates scratch
 * buffers (through the cloth's allocator) that live as long as the cloth.
 * With ::CLOTH_INTEGRATOR_XPBD on a grid, which otherwise keeps no force
 * arrays, wind (a hook or a constant) also allocates them (12 bytes per
 * particle); removing the wind, and the force hook if any, frees them.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth;
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the scratch buffers or the force
 *         arrays cannot be allocated (nothing changes).
 */
CLOTH_API cloth_status cloth_set_wind(cloth_t *cloth, cloth_wind_fn fn, void *user);

/**
 * The same wind velocity `velocity` (m/s, finite) everywhere and always, for
 * hosts that need no field. It replaces a wind hook; cloth_set_wind() with
 * `fn` NULL removes it. A zero velocity installs still air (see above).
 * Allocates nothing, except the force arrays of XPBD on a grid as
 * cloth_set_wind() does.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers or non-finite values;
 *         ::CLOTH_ERR_OUT_OF_MEMORY if those force arrays cannot be allocated
 *         (nothing changes).
 */
CLOTH_API cloth_status cloth_set_constant_wind(cloth_t *cloth, const float velocity[3]);

/**
 * Air density `rho` in kg/m^3 (>= 0, finite). Default 1.2 (air at sea level,
 * 20 degrees C). 0 turns the aerodynamic force off while keeping the hook.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a bad value.
 */
CLOTH_API cloth_status cloth_set_air_density(cloth_t *cloth, float kg_per_m3);

/**
 * Drag coefficient C_d of the cloth, dimensionless (>= 0, finite): the force
 * of air across it. Default 1.2 (a flat plate broadside to the flow).
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a bad value.
 */
CLOTH_API cloth_status cloth_set_drag_coefficient(cloth_t *cloth, float drag);

/**
 * Lift coefficient C_l of the cloth, dimensionless (>= 0, finite): the force
 * of air flowing along it at a small angle. Default 1.0; thin-plate theory
 * gives up to 2 pi for small angles, so raise it for livelier flags, or set
 * 0 for pure drag.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a bad value.
 */
CLOTH_API cloth_status cloth_set_lift_coefficient(cloth_t *cloth, float lift);

/**
 * Install the per-particle force hook (see ::cloth_force_fn), or remove it
 * with `fn` NULL. The first hook installed allocates scratch buffers, and
 * with XPBD on a grid the force arrays, as cloth_set_wind() does.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth;
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the scratch buffers or the force
 *         arrays cannot be allocated (nothing changes).
 */
CLOTH_API cloth_status cloth_set_external_force(cloth_t *cloth, cloth_force_fn fn, void *user);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_FORCES_H */
