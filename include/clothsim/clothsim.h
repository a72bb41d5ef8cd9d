/*
 * clothsim: real-time cloth simulation in C.
 *
 * The umbrella header: include this one. It brings in every other public header.
 */
#ifndef CLOTHSIM_CLOTHSIM_H
#define CLOTHSIM_CLOTHSIM_H

#include "base.h"
#include "types.h"
#include "colliders.h"
#include "forces.h"
#include "integrators.h"
#include "mesh.h"
#include "state.h"
#include "bending.h"
#include "material.h"
#include "constraints.h"
#include "smooth.h"
#include "threads.h"
#include "skin.h"
#include "frame.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup lifecycle Lifecycle and status
 * @brief Making and freeing a cloth, naming status codes.
 *
 * Threading: a cloth is not internally locked. Calls on one cloth must not
 * overlap; distinct cloths may be used from distinct threads at once.
 *
 * Re-entry: while a cloth runs the host's code (its wind, force, task and
 * integrator hooks during cloth_step(), and a host integrator's `create`
 * and `destroy`), every function that changes that cloth, cloth_step()
 * included, returns ::CLOTH_ERR_BUSY and changes nothing, and
 * cloth_destroy() of it does nothing. Functions that take a `const cloth_t *`
 * only read, and work there: they see the state as it stands in the middle
 * of the step.
 * @{
 */

/**
 * A static English description of `status`, never NULL. Unknown values give
 * "unknown status".
 */
CLOTH_API const char *cloth_status_string(cloth_status status);

/**
 * Fill `desc` with working defaults: a 32 x 32 grid with spacing 0.05 m lying
 * in the horizontal plane (u = +x, v = +z) with particle (0, 0) at the origin,
 * 0.01 kg per particle, 12 neighbours, the default allocator, and
 * `struct_size` set. A NULL `desc` is ignored.
 */
CLOTH_API void cloth_grid_desc_init(cloth_grid_desc *desc);

/**
 * Build a grid cloth from `desc` and store the handle in `*out`.
 *
 * The new cloth is at rest, unpinned, with the defaults (since 0.3; before,
 * explicit Euler with 16 substeps, 8 iterations, damping 0.2 /s, no tethers,
 * no limit and the watchdog off): gravity (0, -9.81, 0) m/s^2, velocity
 * damping 1 /s, stiffness 50 N (structural), 20 N (shear), 5 N (bend),
 * spring damping 1 ms for every type, the XPBD integrator with automatic
 * substeps and iterations (0, see cloth_set_substeps()), tethers at 1.03
 * in the last substep, the automatic strain limit at 0.09 (the stretch
 * guarantee: no structural or shear link past 1.09 times its rest length
 * after a step, cloth_set_strain_limit()), and the watchdog restoring a
 * step that leaves any link
 * past 4 times its rest length (cloth_set_watchdog()). With these, grids of
 * 8 x 8 to 256 x 256, 0.3 to 4 m across and 0.05 to 1 kg/m^2, hung, pinned
 * along a row or dropped on a ball or a floor, step at 30 to 120 Hz with
 * nothing else set, keep every link within 10 % of its rest length and the
 * mean within 3 %, and come to rest (tests/test_defaults.c;
 * docs/getting-started.md says where that ends). A tighter guarantee is a
 * material's (cloth_set_material()) or cloth_set_strain_limit()'s.
 *
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL pointer, `rows` or `cols` of
 *         0, `rows * cols < 2` or more than 2^26 particles, a spacing or mass that
 *         is not finite and positive (or a mass so small that its inverse
 *         overflows), a zero, non-finite or parallel axis,
 *         `neighbours` other than 12 or 24, a
 *         `struct_size` smaller than the first version of the struct, or an
 *         allocator with only one hook; ::CLOTH_ERR_UNSUPPORTED for a
 *         `struct_size` larger than this library knows or a non-zero
 *         `reserved` word (a field this library does not have);
 *         ::CLOTH_ERR_OUT_OF_MEMORY if an allocation fails. On failure `*out`
 *         is set to NULL when `out` is not NULL.
 */
CLOTH_API cloth_status cloth_create_grid(const cloth_grid_desc *desc, cloth_t **out);

/**
 * Free the cloth and everything it owns. NULL is a no-op, and so is a call
 * from inside the cloth's own step or integrator hook (see Re-entry above),
 * where freeing it would pull the memory from under the step.
 */
CLOTH_API void cloth_destroy(cloth_t *cloth);

/** @} */

/**
 * @defgroup params Parameters
 * @brief Physical and numerical settings; each is validated and a refused
 * value leaves the old one in place.
 * @{
 */

/**
 * Stiffness `k` of one spring family, in newtons: a spring of rest length L0
 * stretched to length l pulls both ends toward each other with tension
 * `T = k (l - L0) / L0` (seed 000), so k is the force that doubles a spring's
 * length, whatever its rest length. `k` = 0 switches the family off.
 *
 * With the force-based integrators, stiffer springs need a smaller substep:
 * see cloth_set_integrator() for the limits.
 *
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth, an unknown type, or a
 *         `k` that is negative or not finite.
 */
CLOTH_API cloth_status cloth_set_stiffness(cloth_t *cloth, cloth_spring_type type, float k);

/**
 * Stiffness painted per particle: one scale per particle, `stride_bytes`
 * apart (0 = packed), each > 0, finite and at most 1e6. A spring's
 * stiffness becomes its family's (cloth_set_stiffness(), or what
 * cloth_set_material() set) times the mean of its two ends' scales, so a
 * stiff collar (scale 4 on its particles) or a soft, stretchy panel (0.25)
 * is painted on the vertices, and the springs between two regions take the
 * average. Acts on every integrator that uses spring stiffness: explicit
 * Euler, trapezoid, Verlet, relaxation, implicit Euler and XPBD (whose
 * compliance it divides); PBD's constraint stiffness and the semi-rigid
 * model take none. The bending of a material (its rigidity) is not scaled.
 * All scales 1 give the same bits as never calling it. The automatic
 * substep count of the force-based integrators allows for the largest
 * scale. Allocates 4 bytes per particle on the first call.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or buffer, a stride
 *         that is not 0 or a multiple of 4, or a scale that is not positive,
 *         not finite or above 1e6 (nothing changes);
 *         ::CLOTH_ERR_OUT_OF_MEMORY on the first call; ::CLOTH_ERR_BUSY.
 */
CLOTH_API cloth_status cloth_set_stiffness_scales(cloth_t *cloth, const float *scales, size_t stride_bytes);

/**
 * The scales of cloth_set_stiffness_scales() into `scales` (1 for every
 * particle if it was never called), strided as there.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or buffer or a bad
 *         stride.
 */
CLOTH_API cloth_status cloth_get_stiffness_scales(const cloth_t *cloth, float *scales, size_t stride_bytes);

/**
 * Spring damping of one family, as a time constant `beta` in seconds. It is
 * stiffness-proportional (Rayleigh) damping of the spring's tangent
 * stiffness: the tension along the spring becomes `T = k (e + beta de/dt)`
 * (`e = (l - L0) / L0` the strain), and a stretched spring also resists the
 * sideways relative velocity of its ends with `beta T / l` per m/s, as a taut
 * string's sideways stiffness is `T / l`. Every vibration of angular
 * frequency w then loses amplitude at the rate `beta w^2 / 2` per second:
 * the fast jitter of stiff springs is quieted and slow swinging left alone.
 * Default 0.001 s. It is what makes the trapezoid integrator stable (see
 * cloth_set_integrator()).
 *
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth, an unknown type, or a
 *         `beta` that is negative or not finite.
 */
CLOTH_API cloth_status cloth_set_spring_damping(cloth_t *cloth, cloth_spring_type type, float beta);

/**
 * Gravity as an acceleration vector in m/s^2. Default (0, -9.81, 0).
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers or non-finite components.
 */
CLOTH_API cloth_status cloth_set_gravity(cloth_t *cloth, const float g[3]);

/**
 * Velocity damping as a rate per second: without other forces a velocity
 * decays as `v(t) = v(0) exp(-rate t)`, whatever the substep count. Default 1
 * (0.2 before 0.3): a swing dies away within seconds, as in air.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a rate that is
 *         negative or not finite.
 */
CLOTH_API cloth_status cloth_set_damping(cloth_t *cloth, float rate_per_second);

/**
 * Number of substeps each cloth_step() divides its `dt` into, 1 to 1024, or
 * 0: chosen by each step (src/auto.c). XPBD, PBD and semi-rigid with an
 * automatic strain limit start at 360 substeps a second (at most 7680)
 * and trade substeps against limit passes: the rate rises by a quarter
 * after a step whose limit missed the guarantee or needed more than 3
 * passes and more than a quarter of the substeps, and falls by a fifth
 * after one that needed at most 2, or at most an eighth of the substeps
 * (never under the start); a step whose limit misses the guarantee is run
 * again with twice the rate (cloth_set_strain_limit()). Explicit
 * integrators take the stability bound of cloth_set_integrator() (with
 * w_max^2 bounded over the springs and bending, 10 % to spare); implicit
 * Euler 1; relaxation and host integrators 16. cloth_stats::substeps_used
 * reports the choice. Default 0 (16 before 0.3). More substeps cost
 * proportionally more and allow stiffer springs.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a count above 1024.
 */
CLOTH_API cloth_status cloth_set_substeps(cloth_t *cloth, uint32_t substeps);

/**
 * Jacobi iterations per substep for ::CLOTH_INTEGRATOR_PBD (Gauss-Seidel
 * sweeps for ::CLOTH_INTEGRATOR_XPBD), 1 to 1024, or 0: chosen (1 for
 * XPBD, whose accuracy comes from substeps, 4 for PBD;
 * cloth_stats::iterations_used).
 * Default 0 (8 before 0.3). The other built-in integrators ignore it; a host integrator sees
 * it in ::cloth_step_view. XPBD on a grid keeps one multiplier per spring
 * (24 bytes per particle with 12 neighbours, 48 with 24) while the count is
 * above 1, and frees them at 1.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a count above
 *         1024; ::CLOTH_ERR_OUT_OF_MEMORY if XPBD's multipliers cannot be
 *         allocated (the count stays as it was).
 */
CLOTH_API cloth_status cloth_set_iterations(cloth_t *cloth, uint32_t iterations);

/**
 * Choose the time integrator. Switching keeps positions and velocities, so the
 * motion goes on without a jump. In what follows h = dt / substeps, a is the
 * acceleration from gravity, springs (with their damping) and hooks, c the
 * velocity damping rate, beta the spring damping time and w_max the highest
 * angular frequency of the springs. For a grid cloth of spacing s and particle
 * mass m, `w_max^2 <= (8 / (m s)) (k_struct + k_shear / sqrt(2) + k_bend / 2)`
 * (the defaults give about 1.07e6 /s^2).
 *
 * - ::CLOTH_INTEGRATOR_EXPLICIT_EULER, symplectic Euler (seed 002):
 *   `v' = (v + a h) exp(-c h)`, `x' = x + v' h`. First order; without damping
 *   it neither gains nor loses energy on average. Stable when
 *   `w_max^2 h (h + 2 beta) <= 4`.
 * - ::CLOTH_INTEGRATOR_TRAPEZOID (seed 000): `v' = (v + a h) exp(-c h)`,
 *   `x' = x + (v + v') h / 2`. Exact for constant acceleration (free fall),
 *   but not symplectic: undamped, every vibration's energy grows by the factor
 *   `1 + (w h)^2 / 2` per substep, so it needs damping to be stable. With
 *   spring damping it is stable when `h <= 2 beta` and `w_max^2 h beta <= 2`;
 *   with velocity damping alone it needs `c >= ln(1 + (w_max h)^2 / 2) / h`,
 *   which damps everything, so keep beta >= h / 2.
 * - ::CLOTH_INTEGRATOR_VERLET, position Verlet with drag (seed 001):
 *   `x' = x + exp(-c h) (x - x_prev) + a h^2`. The state is kept in velocity
 *   form (`x_prev = x - v h`, `v' = (x' - x) / h`) so that dt may change between
 *   steps; it then differs from symplectic Euler only in where the drag acts,
 *   and has the same limit `w_max^2 h (h + 2 beta) <= 4`.
 * - ::CLOTH_INTEGRATOR_PBD, position-based dynamics with Jacobi strain
 *   limiting (seed 004): predict `v' = (v + a h) exp(-c h)`, `x* = x + v' h`
 *   (a without spring forces); then cloth_set_iterations() Jacobi passes in
 *   which every spring proposes moving its ends toward its rest length (split
 *   by inverse mass, scaled by cloth_set_constraint_stiffness()) and every
 *   particle moves to `(sum of proposals + a_J x) / (n + a_J)` with a_J the
 *   Jacobi weight; finally `v = (x_final - x) / h`. Unconditionally stable;
 *   stretch falls as iterations rise. The force stiffness k is not used.
 * - ::CLOTH_INTEGRATOR_SEMIRIGID, the curtain model (seed 003), grids only:
 *   `v' = (v + a h) exp(-c h)`; v' is projected so that no warp or weft link
 *   stretches at first order, all links at once (conjugate gradients
 *   preconditioned by exact tridiagonal solves along every row and column,
 *   typically 4 to 6 iterations); `x' = x + v' h`; a weft pass restores each
 *   row's links outward from its pins (or its middle); then one pass from
 *   row 0 down puts every particle at the warp rest length below the one
 *   above, exactly. After the colliders the warp pass runs again with each
 *   particle's contacts resolved in it, so warp links end every step at their
 *   rest length to float precision, with wind, collisions and moving pins.
 *   A particle a collider touches is put where it is both outside the
 *   collider and at the rest length; where both cannot hold (a pin inside a
 *   collider), contact wins and the link stretches. No iterative solve for positions, O(particles). Made for curtains: pin
 *   the top row (row 0). A column whose top is free is still a rigid chain,
 *   held up only by the weft links. A cloth hung from two corners comes to
 *   rest, but its top row, a chain between the pins at its full length,
 *   sags a little and the weft links at its middle take up the difference
 *   (measured: 1.2 cm and 0.6 % for a 15 x 16 cloth 0.7 m wide, weft links
 *   elsewhere exact). Springs are not used: the cloth bends and shears
 *   freely.
 * - ::CLOTH_INTEGRATOR_RELAXATION (seed 002's massless cloth): no inertia;
 *   each substep moves every free particle by `(f + m g) / (2 D)`, D the sum
 *   of `k / L0` over its springs, and sets velocities to zero. It converges to
 *   the static rest shape at any stiffness; use it to drape a cloth before a
 *   dynamic simulation.
 * - ::CLOTH_INTEGRATOR_XPBD, extended position-based dynamics in small steps
 *   (equations at ::CLOTH_INTEGRATOR_XPBD): every spring is a constraint of
 *   compliance `L0 / k`, solved by cloth_set_iterations() Gauss-Seidel sweeps
 *   (a grid: row after row in blocks of rows, vectorised and split across
 *   threads, see threads.h; a mesh: over a colouring of the springs), lambda
 *   starting at 0 every substep.
 *   Unconditionally stable at any stiffness, and the same k gives the same
 *   stretch as the force-based integrators once the sweeps converge. With
 *   few sweeps a stretched spring ends up more stretched, by up to about
 *   `2 k h^2 / (m L0)` of its strain, so substeps, not iterations, are its
 *   accuracy knob: 1 or 2 iterations and more substeps is the better buy.
 *   Spring damping acts along the springs only.
 * - ::CLOTH_INTEGRATOR_IMPLICIT_EULER (Baraff and Witkin 1998, seed 003's
 *   reference): `(M - h D - h^2 K) dv = h (f + h K v)`, `v' = (v + dv)
 *   exp(-c h)`, `x' = x + v' h`, with K the springs' tangent stiffness (the
 *   sideways `T / l` term clamped at 0 for compressed springs) and
 *   `D = beta K` their damping; solved by conjugate gradient, matrix-free,
 *   with a block-diagonal preconditioner, to a residual of 1e-4 of the
 *   right-hand side or 200 iterations, pinned particles filtered out. Stable
 *   at any spring stiffness with one substep at 60 Hz; first order, and it
 *   damps fast vibrations (the more the larger `w h`), so prefer it for stiff
 *   cloth at large steps. Cost: one CG iteration is about one spring-force
 *   pass; the default cloth needs ~50 per substep. Dihedral bending
 *   (bending.h) is added to f but not to K: it keeps its explicit limit.
 *
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or an unknown kind
 *         (::CLOTH_INTEGRATOR_CUSTOM included: use cloth_set_custom_integrator());
 *         ::CLOTH_ERR_UNSUPPORTED for SEMIRIGID on a mesh cloth;
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the integrator's scratch memory, or
 *         the force arrays (12 bytes per particle) that every integrator but
 *         XPBD on a grid without wind or force hook needs and a switch away
 *         from it allocates, cannot be allocated. On failure the previous
 *         integrator stays. Switching to XPBD on a grid without wind or
 *         force hook frees the force arrays.
 */
CLOTH_API cloth_status cloth_set_integrator(cloth_t *cloth, cloth_integrator kind);

/** @} */

/**
 * @defgroup stepping Stepping
 * @{
 */

/**
 * Advance the cloth by `dt` seconds in `substeps` equal substeps. Each
 * substep: pinned particles placed along their paths; wind, hooks and (for the
 * force-based integrators) springs; the integrator; pins again; tethers
 * (constraints.h); colliders; the integrator's finishing pass (see
 * integrators.h). After the last substep, the strain limit if it is on
 * (cloth_set_strain_limit()) and the colliders once more.
 *
 * If any position or velocity becomes NaN or infinite, or a wind or force
 * hook hands back NaN or infinity (on any particle, pinned ones included),
 * the state from before the call is restored (time included) and
 * ::CLOTH_ERR_UNSTABLE is returned: lower `dt`, raise the substeps or soften
 * the springs.
 *
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a `dt` that is not
 *         finite, not in (0, 1], or so small that the substep
 *         `dt / substeps` is below about 2.9e-39 s (1 / FLT_MAX: its
 *         reciprocal, which turns displacements into velocities, would
 *         overflow); ::CLOTH_ERR_UNSTABLE as above; ::CLOTH_ERR_BUSY when
 *         called from one of this cloth's own hooks;
 *         ::CLOTH_ERR_TASK_CONTRACT when the host's task hooks skipped,
 *         repeated or misplaced work (threads.h), with the state before the
 *         call kept; whatever a host integrator's `step` or `finish` returns.
 */
CLOTH_API cloth_status cloth_step(cloth_t *cloth, float dt);

/** @} */

/**
 * @defgroup state State access
 * @brief Sizes and strided copies in and out of the host's buffers.
 *
 * Vertex data is `float` xyz, one record every `stride_bytes` bytes; 0 means
 * packed (12). A non-zero stride must be a multiple of 4 and at least 12, and
 * the buffer it implies, `stride_bytes * (cloth_particle_count() - 1) + 12`
 * bytes, must fit in memory (at most PTRDIFF_MAX bytes): a stride that wraps
 * around `size_t`, such as `(size_t)-12`, is refused. Buffers may sit at any
 * byte address; every access is a byte copy. Only
 * the first 12 bytes of each record are read or written; padding is never
 * touched. Strided copies are refused with ::CLOTH_ERR_INVALID_ARGUMENT for a
 * NULL cloth or buffer or a bad stride.
 * @{
 */

/** Number of particles; 0 for a NULL cloth. */
CLOTH_API uint32_t cloth_particle_count(const cloth_t *cloth);

/**
 * Number of render triangles: `2 (rows - 1) (cols - 1)` for a grid (0 for a
 * single row or column). 0 for a NULL cloth.
 */
CLOTH_API uint32_t cloth_triangle_count(const cloth_t *cloth);

/** Copy every particle's position (metres) into `dst`. */
CLOTH_API cloth_status cloth_get_positions(const cloth_t *cloth, float *dst, size_t stride_bytes);

/**
 * Write a unit normal per particle into `dst`: the area-weighted sum of the
 * normals of the triangles around it, normalised. Triangles are wound
 * counter-clockwise seen from the side their normal points to, which for a
 * grid is the side `v_axis x u_axis` faces at creation (+y for the default
 * horizontal grid). A particle with no triangle of non-zero area around it gets
 * that creation-time direction.
 */
CLOTH_API cloth_status cloth_get_normals(const cloth_t *cloth, float *dst, size_t stride_bytes);

/**
 * Write the render index buffer, `3 * cloth_triangle_count()` indices. Grid
 * quad (r, c) gives the triangles (i, i + cols, i + 1) and
 * (i + 1, i + cols, i + cols + 1) with `i = r * cols + c`.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `dst`.
 */
CLOTH_API cloth_status cloth_get_triangles(const cloth_t *cloth, uint32_t *dst);

/**
 * Overwrite every particle's position from `src`. All values must be finite or
 * nothing is changed (::CLOTH_ERR_INVALID_ARGUMENT). Pinned particles move too,
 * and go back along their targets during the next step.
 */
CLOTH_API cloth_status cloth_set_positions(cloth_t *cloth, const float *src, size_t stride_bytes);

/** Copy every particle's velocity (m/s) into `dst`. */
CLOTH_API cloth_status cloth_get_velocities(const cloth_t *cloth, float *dst, size_t stride_bytes);

/**
 * Overwrite every particle's velocity from `src`. All values must be finite or
 * nothing is changed. A pinned particle's velocity is replaced by the motion of
 * its target at the next step.
 */
CLOTH_API cloth_status cloth_set_velocities(cloth_t *cloth, const float *src, size_t stride_bytes);

/**
 * Overwrite every particle's inverse mass (1/kg) from `inverse_masses`, one
 * float per particle `stride_bytes` apart (0 = packed): masses painted per
 * vertex after creation (a heavy hem, a light lining). Each must be finite
 * and >= 0; 0 makes the particle infinitely heavy (forces and springs do
 * not move it; it keeps its velocity: pin it to hold it still). A pinned
 * particle keeps inverse mass 0 while pinned and gets the new value when
 * released. This replaces the masses that the desc or cloth_set_material()
 * gave (cloth_get_material() still returns the material). Allocates
 * nothing.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or buffer, a stride
 *         that is not 0 or a multiple of 4, or a negative or non-finite
 *         value (nothing changes); ::CLOTH_ERR_BUSY inside the cloth's own
 *         step.
 */
CLOTH_API cloth_status cloth_set_inverse_masses(cloth_t *cloth, const float *inverse_masses, size_t stride_bytes);

/**
 * Copy every particle's inverse mass (1/kg) into `dst`, one float per
 * particle `stride_bytes` apart (0 = packed): for a pinned particle the one
 * it gets back when released.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `dst`, or a stride
 *         that is not 0 or a multiple of 4.
 */
CLOTH_API cloth_status cloth_get_inverse_masses(const cloth_t *cloth, float *dst, size_t stride_bytes);

/** @} */

/**
 * @defgroup pins Pins
 * @brief Particles held at (movable) targets.
 * @{
 */

/**
 * Pin particle `index` to `target` (metres), or where it is now if `target` is
 * NULL. A pinned particle has infinite mass: forces do not move it. During the
 * next step it travels in a straight line from where it is to the target,
 * reaching it exactly at the end of the step, and its velocity is that motion.
 * Pinning a pinned particle again only changes its target, so calling this
 * every frame moves a pin smoothly.
 *
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a non-finite target;
 *         ::CLOTH_ERR_OUT_OF_RANGE for an index >= cloth_particle_count();
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the pin table cannot grow, or if
 *         the tether table a grid needs past ::CLOTH_TETHERS_PER_PARTICLE
 *         pins (cloth_set_tethers()) cannot be allocated. On failure
 *         nothing changes.
 */
CLOTH_API cloth_status cloth_pin(cloth_t *cloth, uint32_t index, const float target[3]);

/**
 * Release particle `index`: it keeps its position and velocity and is moved by
 * forces again. Unpinning a free particle does nothing and returns ::CLOTH_OK.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth;
 *         ::CLOTH_ERR_OUT_OF_RANGE for an index >= cloth_particle_count().
 */
CLOTH_API cloth_status cloth_unpin(cloth_t *cloth, uint32_t index);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_CLOTHSIM_H */
