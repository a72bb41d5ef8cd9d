/*
 * clothsim: skinned attachment, a cloth worn on an animated body.
 */
#ifndef CLOTHSIM_SKIN_H
#define CLOTHSIM_SKIN_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup skin Skinned attachment
 * @brief Keeping a worn cloth where, or near where, the animation puts it.
 *
 * A game skins the garment's rest mesh with the character's skeleton every
 * frame. clothsim takes those positions as *skin targets*, one per
 * particle, and a *max distance* per particle:
 * - 0: the particle is pinned to its target and follows the animation
 *   exactly (a cape's collar, a skirt's waistband);
 * - a positive distance: the particle moves freely within that distance of
 *   its target and no further (a sphere about the target: NvCloth's motion
 *   constraints, Jolt's skinned constraints' max distance, Chaos's max
 *   distance maps). Growing it down a cape lets the hem swing while the
 *   shoulders stay close;
 * - `+INFINITY` (every particle's until set): free.
 *
 * **Per frame**, before cloth_step(): cloth_set_skin_targets() with where
 * the animation puts the particles at the end of the coming step. Over the
 * step's substeps each target moves in a straight line from where it was at
 * the end of the last step (at the first call: where that call puts it).
 * Targets not set again stay where they are. Units are metres, in the same
 * space as the cloth's positions (world space, or the frame the host
 * simulates in).
 *
 * **Zero distance is a pin.** A particle given max distance 0 is pinned as
 * by cloth_pin() to its skin target, and cloth_set_skin_targets() moves
 * that pin: it reaches its target exactly at the end of every step, has
 * infinite mass, and anchors the tethers (cloth_set_tethers()) like any
 * pin. Giving it a non-zero distance releases the pin as cloth_unpin()
 * would. cloth_pin() and cloth_unpin() by the host act on such a particle
 * as on any other; the next cloth_set_max_distances() pins the particles
 * whose distance is 0 again.
 *
 * **Positive distances** are kept after every substep and after every pass
 * of the strain limit, before tethers and colliders: a free particle
 * farther than its distance from its target (at that moment of the step)
 * goes straight back onto the sphere about the target, and loses the part
 * of its velocity, relative to the target's, that points away from it.
 * Colliders act after, so where a collider and a sphere disagree the
 * collider wins. Pinned particles are where their pins put them. The same
 * bits on any thread count and SIMD level.
 *
 * Both setters allocate on their first call 28 bytes per particle (the
 * targets at the start and end of the step, and the distances), and
 * cloth_set_max_distances() may grow the pin table; neither allocates
 * again after that unless more particles are given distance 0. Until the
 * first call of either, nothing is allocated and a step costs nothing
 * more; before cloth_set_skin_targets() is called, the targets are the
 * particles' positions when the first of the two calls was made.
 * @{
 */

/**
 * Set every particle's skin target, read from `positions` as for
 * cloth_set_positions() (xyz floats, `stride_bytes` apart; 0 = packed):
 * where the animation puts each particle at the end of the next step.
 * May allocate (see above).
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `positions`, a
 *         stride that is not 0 or a multiple of 4 of at least 12, or a
 *         non-finite value; ::CLOTH_ERR_OUT_OF_MEMORY if the first call
 *         cannot allocate; ::CLOTH_ERR_BUSY inside the cloth's own step.
 *         On failure nothing changes.
 */
CLOTH_API cloth_status cloth_set_skin_targets(cloth_t *cloth, const float *positions, size_t stride_bytes);

/**
 * Set every particle's max distance from its skin target (metres), one
 * float per particle `stride_bytes` apart (0 = packed): 0 pins it to the
 * target, `+INFINITY` frees it, a positive value keeps it within that
 * distance. May allocate (see above).
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `distances`, a
 *         stride that is not 0 or a multiple of 4, or a distance that is
 *         negative or NaN; ::CLOTH_ERR_OUT_OF_MEMORY if the first call
 *         cannot allocate or the pin table (or the tether table that many
 *         pins need) cannot grow; ::CLOTH_ERR_BUSY inside the cloth's own
 *         step. On failure nothing changes.
 */
CLOTH_API cloth_status cloth_set_max_distances(cloth_t *cloth, const float *distances, size_t stride_bytes);

/**
 * Set the skin's outward normal at every particle's skin target (xyz
 * floats, `stride_bytes` apart; 0 = packed), as the animation has it at the
 * end of the next step: the direction away from the body, toward where the
 * cloth may go. Each must be of unit length (squared length within 1e-3 of
 * 1; it is normalised as it is used) or (0, 0, 0) exactly for none. Over the step
 * the pass uses the normalised blend of the last normals and these, as the
 * targets move. Used only by the backstops (cloth_set_backstops()). May
 * allocate: on the first call of it or of cloth_set_backstops(), 32 bytes
 * per particle (and the skin's block, if the cloth has none yet).
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `normals`, a bad
 *         stride, a non-finite value or a normal neither unit nor 0;
 *         ::CLOTH_ERR_OUT_OF_MEMORY; ::CLOTH_ERR_BUSY inside the cloth's own
 *         step. On failure nothing changes.
 */
CLOTH_API cloth_status cloth_set_skin_normals(cloth_t *cloth, const float *normals, size_t stride_bytes);

/**
 * Set every particle's backstop: two floats per particle, `stride_bytes`
 * apart (0 = packed), the distance `d` (metres, any sign) and the radius
 * `r` (metres, >= 0; 0 for none) of a ball whose surface lies `d` behind
 * the particle's skin target along the skin normal `n`: centre
 * `target - n (d + r)`. The particle is kept out of the ball: a cape given
 * backstops a centimetre behind its skin does not sink into the back,
 * whatever its max distance allows. A large radius makes the ball a plane
 * `d` behind the skin, a small one a bump (Jolt's backstop; NvCloth's
 * separation constraints).
 *
 * Kept with the max distances after every substep and every pass of the
 * strain limit, before tethers and colliders: a free particle inside its
 * ball goes straight out to its surface and loses the part of its velocity,
 * relative to its target's, that runs into the ball. A particle whose
 * normal is 0 has no ball. Pinned particles are where their pins put them.
 * The same bits on any thread count and SIMD level. May allocate, as
 * cloth_set_skin_normals().
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `backstops`, a
 *         stride that is not 0 or a multiple of 4 of at least 8, a
 *         non-finite distance, or a radius negative or not finite;
 *         ::CLOTH_ERR_OUT_OF_MEMORY; ::CLOTH_ERR_BUSY. On failure nothing
 *         changes.
 */
CLOTH_API cloth_status cloth_set_backstops(cloth_t *cloth, const float *backstops, size_t stride_bytes);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_SKIN_H */
