/*
 * clothsim: colliders, the shapes a cloth rests on and is pushed by.
 */
#ifndef CLOTHSIM_COLLIDERS_H
#define CLOTHSIM_COLLIDERS_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup colliders Colliders
 * @brief Shapes that push particles out at the end of every substep.
 *
 * A particle found inside a collider's surface grown by its thickness is moved
 * to the nearest point of that grown surface, the part of its velocity that
 * points into the surface is removed, and Coulomb friction slows its tangential
 * velocity by at most `mu` times the normal velocity removed (stopping it when
 * that is enough). Collisions run after the integrator and the pins in every
 * substep, for every integrator; pinned particles are not moved by colliders.
 *
 * Ids are small integers that stay valid until cloth_remove_collider(); a
 * removed id is refused with ::CLOTH_ERR_OUT_OF_RANGE and never reused by the
 * same cloth. At most 65535 colliders can be added over a cloth's life.
 * @{
 */

/**
 * Add a sphere of `radius` metres (> 0) at `center`, with thickness 0 and
 * friction 0, and store its id in `*out`.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers, a non-finite centre
 *         or a radius that is not finite and positive;
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the collider table cannot grow.
 */
CLOTH_API cloth_status cloth_add_sphere(cloth_t *cloth, const float center[3], float radius,
                                        cloth_collider_id *out);

/**
 * Add an ellipsoid with semi-axes `radii` (each > 0) along the axes of the
 * rotation `rotation` (a unit quaternion x, y, z, w; NULL for none).
 * Not yet available: returns ::CLOTH_ERR_UNSUPPORTED after validating its
 * arguments.
 */
CLOTH_API cloth_status cloth_add_ellipsoid(cloth_t *cloth, const float center[3], const float radii[3],
                                           const float rotation[4], cloth_collider_id *out);

/**
 * Add an infinite plane through `point` whose solid side is behind `normal`
 * (any non-zero length; it is normalised). A floor at height y0 is
 * `point = (0, y0, 0)`, `normal = (0, 1, 0)`.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers, non-finite values or
 *         a zero normal; ::CLOTH_ERR_OUT_OF_MEMORY if the table cannot grow.
 */
CLOTH_API cloth_status cloth_add_plane(cloth_t *cloth, const float point[3], const float normal[3],
                                       cloth_collider_id *out);

/**
 * Coulomb friction coefficient `mu` (>= 0, finite) of a collider. Default 0.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a bad `mu`;
 *         ::CLOTH_ERR_OUT_OF_RANGE for an unknown or removed id.
 */
CLOTH_API cloth_status cloth_set_collider_friction(cloth_t *cloth, cloth_collider_id id, float mu);

/**
 * Thickness in metres (>= 0, finite): particles are kept this far outside the
 * surface. Seed 000's sphere uses 8 % of its radius. Default 0.
 * @return as cloth_set_collider_friction().
 */
CLOTH_API cloth_status cloth_set_collider_thickness(cloth_t *cloth, cloth_collider_id id, float offset);

/**
 * Remove a collider; its id becomes invalid.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth;
 *         ::CLOTH_ERR_OUT_OF_RANGE for an unknown or already removed id.
 */
CLOTH_API cloth_status cloth_remove_collider(cloth_t *cloth, cloth_collider_id id);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_COLLIDERS_H */
