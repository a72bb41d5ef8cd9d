/*
 * The frame a cloth is worn in (frame.c; the API in include/clothsim/frame.h):
 * the part of the frame's motion the cloth is carried along with.
 */
#ifndef CLOTHSIM_SRC_FRAME_H
#define CLOTHSIM_SRC_FRAME_H

#include "cloth_internal.h"

/* A new cloth's frame: at the origin, unturned, inertia 1 (no carry). */
void cloth_frame_defaults(cloth_t *cloth);
/* Substep s (0-based) of n, of h seconds each: move every particle rigidly
 * by the part of the frame's motion over the substep that the inertia
 * takes away and turn the velocities with it (before the pins are placed).
 * Nothing when the inertia is 1 or the frame does not move. */
void cloth_frame_carry(cloth_t *cloth, uint32_t s, uint32_t n, float h);
/* The colliders' velocities, as just placed for the substep of a step of
 * dt seconds, made relative to the carry (nothing while not carrying). */
void cloth_frame_relative_colliders(cloth_t *cloth, float dt);
/* Where the whole step's carry takes the point p (p while not carrying):
 * a pin or skin target that goes from `start` to `target` over the step
 * moves at (target - C(start)) / dt relative to the carry. */
void cloth_frame_step_carry(const cloth_t *cloth, const float p[3], float out[3]);
/* After a step that returned CLOTH_OK: the frame is where it was heading. */
void cloth_frame_end_step(cloth_t *cloth);

#endif /* CLOTHSIM_SRC_FRAME_H */
