/*
 * Self-collision (self_collision.c; the API in include/clothsim/constraints.h):
 * particle against particle within the cloth's thickness.
 */
#ifndef CLOTHSIM_SRC_SELF_COLLISION_H
#define CLOTHSIM_SRC_SELF_COLLISION_H

#include "cloth_internal.h"

/* Push apart every pair of particles closer than the thickness that are
 * not rest neighbours, and take away their approach; returns the
 * particles touched. Nothing while the thickness is 0. The calling thread
 * only; reads and writes every particle. */
uint32_t cloth_self_collide(cloth_t *cloth);
void cloth_self_free(cloth_t *cloth);

#endif /* CLOTHSIM_SRC_SELF_COLLISION_H */
