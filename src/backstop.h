/*
 * Backstops (backstop.c; the API in include/clothsim/skin.h): a ball behind
 * each skinned particle, along the skin's normal, that the particle stays
 * out of.
 */
#ifndef CLOTHSIM_SRC_BACKSTOP_H
#define CLOTHSIM_SRC_BACKSTOP_H

#include "cloth_internal.h"

/* Keep the free particles of [first, last) out of their balls at fraction
 * cloth->skin.t of the step. Reads and writes only those particles. */
void cloth_backstop_project_range(cloth_t *cloth, uint32_t first, uint32_t last);
/* After a step that returned CLOTH_OK: the next one starts from the
 * normals it ended with. */
void cloth_backstop_end_step(cloth_t *cloth);
void cloth_backstop_free(cloth_t *cloth);
/* The block, made if the cloth has none: normals 0 (no direction, so no
 * ball acts) and no balls. OUT_OF_MEMORY changes nothing. */
cloth_status cloth_backstop_reserve(cloth_t *cloth);
/* active, again from the radii (after a snapshot wrote them). */
void cloth_backstop_recount(cloth_t *cloth);

#endif /* CLOTHSIM_SRC_BACKSTOP_H */
