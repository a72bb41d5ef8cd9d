/*
 * The fold scene's state and its part of the scene interface (scenes.h):
 * a cotton cloth dropped nearly upright onto a rough floor crumples onto
 * itself, with self-collision on, and is then lifted by a corner
 * (scene_fold.c).
 */
#ifndef VIEWER_SCENE_FOLD_H
#define VIEWER_SCENE_FOLD_H

#include <clothsim/clothsim.h>

#define FOLD_N 48u /* particles along each side */

typedef struct fold_state {
    uint32_t corner;      /* the particle the scene lifts by: a corner of the top edge */
    int held;             /* 1 while that corner is pinned (rising, or hanging from it) */
    int lifts;            /* lifts begun; the first comes by itself at 3 s */
    float rise;           /* 0..1: how far through the lift */
    float from[3];        /* where the corner lay when the lift began */
    float at[3];          /* the pin's target at the end of the last step */
    uint32_t first_shape; /* the clip on the corner; the cord above it follows */
    float positions[3u * FOLD_N * FOLD_N]; /* read back to find the corner */
} fold_state;

struct scene;

/* Make the cloth, the floor and self-collision (scenes.c's build()), and the
 * clip and cord for render_draw(). Returns 0, or -1 after printing why. */
int fold_build(struct scene *s);
void fold_describe(struct scene *s);

/* Before each cloth_step(): the first lift at 3 s, and the pin moved up
 * toward where it is going by the end of the step. */
void fold_animate(struct scene *s, float dt);

/* The clip and the cord follow the lifted corner. */
void fold_sync(struct scene *s);

#endif /* VIEWER_SCENE_FOLD_H */
