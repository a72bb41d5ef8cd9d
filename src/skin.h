/*
 * Skinned attachment (skin.c; the API in include/clothsim/skin.h): each
 * particle's target at the start and end of the step and its max distance.
 */
#ifndef CLOTHSIM_SRC_SKIN_H
#define CLOTHSIM_SRC_SKIN_H

#include "cloth_internal.h"

/* Keep the free particles of [first, last) with a positive finite max
 * distance within it of their targets at fraction `t` of the step
 * (cloth->skin.t, set by step.c). Reads and writes only those particles. */
void cloth_skin_project_range(cloth_t *cloth, uint32_t first, uint32_t last);
/* Particle i's target where the step has got to (fraction skin.t). */
void cloth_skin_target_at(const cloth_t *cloth, uint32_t i, float out[3]);
/* Take from particle i's velocity, relative to its target's (and to the
 * frame's carry, if any), its part along unit n when that part has the
 * sign of `sign`: +1 removes a part leaving along n, -1 one coming in. */
void cloth_skin_stop(cloth_t *cloth, uint32_t i, const float n[3], float sign);
/* After a step that returned CLOTH_OK: the next one starts where the
 * targets were at its end. */
void cloth_skin_end_step(cloth_t *cloth);
void cloth_skin_free(cloth_t *cloth);
/* The block, made if the cloth has none: targets and starts where the
 * particles are, every distance +inf. OUT_OF_MEMORY changes nothing. */
cloth_status cloth_skin_reserve(cloth_t *cloth);
/* bounded, again from the distances (after a snapshot wrote them). */
void cloth_skin_recount(cloth_t *cloth);

#endif /* CLOTHSIM_SRC_SKIN_H */
