/*
 * clothsim: the frame a cloth is worn in, its inertia, and teleports.
 */
#ifndef CLOTHSIM_FRAME_H
#define CLOTHSIM_FRAME_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup frame Frame, inertia and teleport
 * @brief A worn cloth that does not feel all of its character's motion.
 *
 * A cape on a character that sprints, turns on the spot or rides a cart
 * swings far more in world space than players expect, and a character that
 * teleports drags its cloth across the map. The **frame** is the
 * character's root (a position and a unit quaternion x, y, z, w);
 * cloth_set_frame() says where it will be at the end of the next step, as
 * cloth_set_collider_transform() does for a collider. Over the step the
 * frame moves as a collider does: its origin in a straight line, its turn
 * at a constant rate about one axis.
 *
 * **Inertia** says how much of that motion the cloth feels, as NvCloth's
 * inertia scales and Unity's world velocity scale: 1 (the default, both)
 * is a plain world-space cloth, bit for bit as if no frame were set; 0 is
 * a cloth carried along rigidly with the frame, which in the frame's
 * coordinates moves as it would in a frame at rest (only gravity, wind and
 * colliders that do not move with the frame act on it). In between, each
 * substep carries every particle by (1 - angular) of the frame's turn over
 * that substep, about the frame's origin, and (1 - linear) of its travel.
 *
 * **Velocities** while a frame moves with inertia below 1 are relative to
 * that carry: cloth_get_velocities() then gives each particle's velocity on
 * top of being carried, pins and colliders are handled in the same terms
 * (a body that moves with the frame is at rest for the contacts), and the
 * kinetic energy of cloth_get_stats() is the relative one. Wind and air
 * act on the relative velocity too.
 *
 * **Teleport** moves the cloth, its pins, skin targets and colliders
 * rigidly from the frame's current pose to a new one at once, turning every
 * velocity with it: no stretch, no swing, the same collider ids. The frame
 * is then at the new pose. Before any cloth_set_frame() the frame is at the
 * origin, unturned.
 *
 * Nothing here allocates. Snapshots hold the frame and the inertia
 * (state.h, version 3).
 * @{
 */

/**
 * Where the frame (the character's root) will be at the end of the next
 * step: `position` (m) and `rotation` (a unit quaternion x, y, z, w; NULL
 * for unturned). Call it every frame before cloth_step(); a frame not set
 * again stays where it is.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `position`, a
 *         non-finite value, or a quaternion whose squared length is not
 *         within 1e-3 of 1; ::CLOTH_ERR_BUSY inside the cloth's own step.
 *         On failure nothing changes.
 */
CLOTH_API cloth_status cloth_set_frame(cloth_t *cloth, const float position[3], const float rotation[4]);

/**
 * How much of the frame's motion the cloth feels, each in [0, 1]: `linear`
 * of its travel, `angular` of its turn. 1 (the default) is a world-space
 * cloth, 0 one carried rigidly with the frame.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a value outside
 *         [0, 1] (NaN included); ::CLOTH_ERR_BUSY inside the cloth's own
 *         step. On failure nothing changes.
 */
CLOTH_API cloth_status cloth_set_inertia(cloth_t *cloth, float linear, float angular);

/**
 * The inertia set by cloth_set_inertia() into `*linear` and `*angular`.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL argument.
 */
CLOTH_API cloth_status cloth_get_inertia(const cloth_t *cloth, float *linear, float *angular);

/**
 * Move the cloth, its pins (their starts and targets), skin targets and
 * colliders (every pose and velocity) rigidly from the frame's current pose
 * to `position`, `rotation` (NULL: unturned) at once, turning velocities
 * with it; the frame is then there, at the start and at the end of the next
 * step. A cloth_set_frame() since the last step is overridden.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT as cloth_set_frame(), or for a pose
 *         so far out that a moved particle, pin, skin target or collider
 *         would not be finite; ::CLOTH_ERR_BUSY inside the cloth's own
 *         step. On failure nothing changes.
 */
CLOTH_API cloth_status cloth_teleport(cloth_t *cloth, const float position[3], const float rotation[4]);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_FRAME_H */
