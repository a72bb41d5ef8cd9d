/*
 * clothsim: constraints that work with every integrator: long-range tethers.
 */
#ifndef CLOTHSIM_CONSTRAINTS_H
#define CLOTHSIM_CONSTRAINTS_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup constraints Constraints: long-range tethers
 * @brief Limits applied by cloth_step() on top of whatever integrator runs.
 * @{
 */

/** Most pins a particle is tethered to: the nearest ones in the rest shape. */
#define CLOTH_TETHERS_PER_PARTICLE 4

/**
 * Long-range attachments (Kim, Chentanez and Mueller-Fischer 2012): no free
 * particle may be farther from a pin than `scale` times its distance from
 * that pin in the rest shape. It takes the rubbery stretch out of a cloth
 * hanging from pins, at any stiffness, substep or iteration count, for a few
 * operations per particle.
 *
 * In every substep, after the integrator and the pins, before the colliders
 * (see cloth_step()): for each free particle i and each of its tethered pins
 * p with rest distance d0, if `|x_i - x_p| > scale d0` then x_i is moved
 * straight toward x_p onto the distance `scale d0`, and the part of its
 * velocity relative to the pin that points away from the pin,
 * `max(0, (v_i - v_p) . n)` with `n = (x_i - x_p) / |x_i - x_p|`, is removed:
 * the particle is stopped at the end of its tether as by an inextensible
 * string, and keeps its sideways motion. (With one tether; for several see
 * below.)
 *
 * - Rest distance: the Euclidean distance in the creation shape (a grid's
 *   axes and spacing; a mesh's positions as given to cloth_create_mesh()),
 *   whatever cloth_set_positions() did since. On a mesh whose rest shape is
 *   curved (a sleeve, a skirt) the straight distance is shorter than the
 *   one along the cloth, so keep `scale` above 1 there.
 * - Which pins: each free particle is tethered to the
 *   ::CLOTH_TETHERS_PER_PARTICLE pins nearest to it in the rest shape (ties
 *   go to the lower particle index). The table is rebuilt at the next step
 *   after a pin is added (cloth_pin() on a free particle) or released
 *   (cloth_unpin()), in O(particles x pins); moving a pin's target does not
 *   rebuild it.
 * - Several pins: a particle outside any of its tethers is moved to the
 *   nearest point that is within all of them (the intersection of up to 4
 *   balls, found exactly), and loses its outward velocity along each tether
 *   it is then taut on. If the balls do not overlap (pins pulled apart by
 *   more than their tethers allow) it is projected onto each in turn, four
 *   rounds, and the last one wins.
 * - Works with every integrator, the host's included. The colliders run
 *   after the tethers, so a collider may push a particle past its limit:
 *   contact wins. So does an integrator's `finish` pass (integrators.h):
 *   ::CLOTH_INTEGRATOR_SEMIRIGID's keeps its warp links exact, which on a
 *   cloth hung from two corners leaves particles up to 0.3 % past their
 *   tethers (a curtain pinned along its top row is not affected).
 * - Memory: 32 bytes per particle while tethers are on (4 pins and rest
 *   distances); a mesh cloth keeps its creation positions (12 bytes per
 *   particle) from creation on, for this.
 *
 * @param cloth the cloth
 * @param scale 0 switches tethers off (the default) and frees their table;
 *        otherwise in [1, 10]: 1 allows no stretch at all away from the pins,
 *        1.1 allows 10 %.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a `scale` that is
 *         neither 0 nor in [1, 10] (NaN included);
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the table cannot be allocated. On
 *         failure the tethers stay as they were.
 */
CLOTH_API cloth_status cloth_set_tethers(cloth_t *cloth, float scale);

/**
 * The tether scale in use, 0 when tethers are off.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers.
 */
CLOTH_API cloth_status cloth_get_tethers(const cloth_t *cloth, float *scale);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_CONSTRAINTS_H */
