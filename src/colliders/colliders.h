/*
 * What the step calls in colliders/: placing the colliders for a
 * substep, the pass over the particles, and their memory.
 */
#ifndef CLOTHSIM_SRC_COLLIDERS_COLLIDERS_H
#define CLOTHSIM_SRC_COLLIDERS_COLLIDERS_H

#include "cloth_internal.h"

/* colliders/ */
/* Place every collider for the end of substep `substep` (1-based) of
 * `substeps` in a step of dt seconds; the step calls it before each
 * substep's forces. */
void cloth_colliders_begin_substep(cloth_t *cloth, uint32_t substep, uint32_t substeps, float dt);
/* Put every collider back where the current step began (before the step is
 * run again from its kept state, step.c). */
void cloth_colliders_rewind(cloth_t *cloth);
/* Resolve particles [begin, end) against every collider and return the
 * contacts: ranges may run on different threads, since a particle's response
 * reads and writes only itself and the colliders. */
uint32_t cloth_colliders_apply_range(cloth_t *cloth, uint32_t begin, uint32_t end);
/* Resolve one particle against every collider, for integrators that
 * interleave contacts with their own constraints (cloth_step_view). */
void cloth_colliders_apply_one(cloth_t *cloth, uint32_t i);
void cloth_colliders_free(cloth_t *cloth);
/* A unit quaternion from the host (pose.c; colliders and the cloth's
 * frame): `in` NULL gives the identity; otherwise it must be finite with a
 * squared length within CLOTH_QUAT_TOLERANCE of 1, and is normalised into
 * `out`. */
#define CLOTH_QUAT_TOLERANCE 1e-3f
bool cloth_quat_accept(const float in[4], float out[4]);
/* Move every collider rigidly (a teleport, frame.c): each pose's point p
 * to `to + m (p - from)` and its orientation q to `turn q`; velocities turn
 * with m. */
void cloth_colliders_move_rigidly(cloth_t *cloth, const float m[9], const float turn[4], const float from[3],
                                  const float to[3]);

#endif /* CLOTHSIM_SRC_COLLIDERS_COLLIDERS_H */
