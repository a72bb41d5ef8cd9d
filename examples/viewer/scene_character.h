/*
 * The character scene's state and its part of the scene interface
 * (scenes.h): a figure of tapered capsules and spheres that walks or runs
 * round a circle wearing a skinned cape (scene_character.c).
 */
#ifndef VIEWER_SCENE_CHARACTER_H
#define VIEWER_SCENE_CHARACTER_H

#include <clothsim/clothsim.h>

#define CHARACTER_PARTS 18 /* 14 tapered capsules and 4 spheres */
#define CHARACTER_ROWS 24u
#define CHARACTER_COLS 16u

typedef struct character_state {
    float root[3], heading; /* the frame, as cloth_set_frame() last had it; heading about +y, 0 faces +z */
    float phase;            /* of the stride, rad */
    float gait, gait_target; /* 0 walk, 1 run; gait eases toward its target */
    float turn, turn_target; /* 0 straight on, 1 round the circle */
    float jump;              /* +1 or -1: the way the next teleport goes, so that two come back */
    cloth_collider_id parts[CHARACTER_PARTS];
    uint32_t first_shape; /* the figure's first render shape; the cape's props follow it */
    float targets[3u * CHARACTER_ROWS * CHARACTER_COLS]; /* the skin targets last set */
} character_state;

struct scene;

/* Make the cloth, the figure and the skin (scene.c's build()), and the
 * figure's shapes for render_draw(). Returns 0, or -1 after printing why. */
int character_build(struct scene *s);
void character_describe(struct scene *s);

/* Before each cloth_step(): move the figure on by dt and hand the library
 * the frame, the skin targets and the limbs' poses for the end of the step. */
void character_animate(struct scene *s, float dt);

/* The headless script: run at 1 s, a teleport at 2.5 s, walk again at 6 s. */
void character_schedule(struct scene *s);

/* The shapes follow the colliders, and the camera the figure. */
void character_sync(struct scene *s);

#endif /* VIEWER_SCENE_CHARACTER_H */
