/*
 * Self-collision (self_collision.c, its settings in self_setup.c; the API in
 * include/clothsim/constraints.h):
 * particle against particle within the cloth's thickness.
 */
#ifndef CLOTHSIM_SRC_SELF_COLLISION_H
#define CLOTHSIM_SRC_SELF_COLLISION_H

#include "cloth_internal.h"

/* The thinnest self-collision the cloth takes, m: below it the cells
 * would number more than a 32-bit index holds for a cloth of metres. */
#define CLOTH_SELF_MIN_THICKNESS 1e-6f

/* Push apart every pair of particles closer than the thickness that are
 * not rest neighbours, and take away their approach. Nothing while the
 * thickness is 0. Called from the stepping thread; runs its sweeps on the
 * task hooks and reads and writes every particle. */
void cloth_self_collide(cloth_t *cloth);
void cloth_self_free(cloth_t *cloth);

#endif /* CLOTHSIM_SRC_SELF_COLLISION_H */
