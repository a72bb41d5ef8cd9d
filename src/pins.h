/*
 * Pins (pins.c): their table and hash, and their motion over a step.
 */
#ifndef CLOTHSIM_SRC_PINS_H
#define CLOTHSIM_SRC_PINS_H

#include "cloth_internal.h"

/* pins.c: room for `pins` records and their hash (nothing changes on
 * OUT_OF_MEMORY); the hash made again from the table, after a snapshot
 * replaced it; the step's pin motion; the memory. */
cloth_status cloth_pins_reserve(cloth_t *cloth, uint32_t pins);
void cloth_pins_index(cloth_t *cloth);
void cloth_pins_begin_step(cloth_t *cloth);
void cloth_pins_apply(cloth_t *cloth, uint32_t substep, uint32_t substeps, float dt);
void cloth_pins_free(cloth_t *cloth);
/* The pin of particle `index`, or NULL; releasing one as cloth_unpin() does
 * (index in range). */
cloth_pin_rec *cloth_pin_find(cloth_t *cloth, uint32_t index);
void cloth_do_unpin(cloth_t *cloth, uint32_t index);
/* Every pin takes its particle's inverse mass as the one to restore on
 * release and holds the particle at 0 again (after masses were rewritten). */
void cloth_pins_set_free_mass(cloth_t *cloth);

#endif /* CLOTHSIM_SRC_PINS_H */
