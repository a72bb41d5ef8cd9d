/*
 * The viewer's five scenes:
 *
 *  drape      seed 002's reference demo: a cotton cloth hanging by its four
 *             corners above a sphere above a floor; keys 1-4 release a corner.
 *  curtain    seed 003: a denim curtain on a rod with the semi-rigid
 *             integrator; its rings (the pinned top row) slide along the rod
 *             to open it.
 *  flag       a silk flag on a pole in a turbulent, gusting wind field given
 *             through the wind hook.
 *  character  a figure of tapered capsules and spheres walking or running
 *             round a circle in a cotton cape skinned to it (the collar
 *             pinned to the shoulders, the hem free within 1.15 m of its
 *             skinned place), worn in the figure's frame at half inertia;
 *             T teleports the figure far off with a quarter turn
 *             (scene_character.c).
 *  fold       a cotton cloth dropped nearly upright onto a rough floor
 *             crumples onto itself with self-collision on; at 3 s it is
 *             lifted by a corner to hang from it; L lets go or lifts it
 *             again (scene_fold.c).
 *
 * Each cloth is made of its fabric (cloth_set_material()) and steps with
 * automatic substeps and iterations; all but the curtain use XPBD.
 * A scene owns its cloth and describes itself for render_draw().
 */
#ifndef VIEWER_SCENES_H
#define VIEWER_SCENES_H

#include <clothsim/clothsim.h>

#include "render.h"
#include "scene_character.h"
#include "scene_fold.h"

#include <stdio.h>

/* In the scene builders: a call that must succeed, or the builder says which
 * failed and returns -1. */
#define CHECKED(call)                                                                     \
    do {                                                                                  \
        cloth_status st_ = (call);                                                        \
        if (st_ != CLOTH_OK) {                                                            \
            fprintf(stderr, "viewer: %s: %s\n", #call, cloth_status_string(st_));         \
            return -1;                                                                    \
        }                                                                                 \
    } while (0)

typedef enum scene_kind {
    SCENE_DRAPE,
    SCENE_CURTAIN,
    SCENE_FLAG,
    SCENE_CHARACTER,
    SCENE_FOLD,
    SCENE_COUNT
} scene_kind;

/* An eddy: a travelling wave of sideways and vertical air motion. */
typedef struct scene_eddy {
    float wavenumber; /* 1/m along the wind */
    float frequency;  /* rad/s of its own pulsing */
    float amplitude;  /* m/s */
    float phase;
} scene_eddy;

/* A gusting wind along `dir` with eddies drifting downwind with it. */
typedef struct scene_wind {
    float dir[3];  /* horizontal unit vector */
    float mean;    /* m/s */
    float gust[2]; /* relative amplitudes of two slow swells */
    scene_eddy eddies[4];
} scene_wind;

typedef struct scene {
    scene_kind kind;
    cloth_t *cloth;
    uint32_t rows, cols;
    cloth_integrator integrator;
    int wind_on;
    scene_wind wind;
    double time;          /* simulated seconds since the last reset */
    float step_ms;        /* wall time of one cloth_step(), smoothed */
    cloth_status last;    /* what the last cloth_step() returned */
    char note[96];        /* a passing message for the status line */
    double note_until;    /* simulated time at which it goes */
    unsigned schedule;    /* bit k: scheduled event k done (headless script) */
    /* drape */
    uint32_t corners[4];
    int corner_pinned[4];
    /* curtain: 0 closed, 1 open; the rings travel toward the target */
    float open_target, open_pos;
    character_state character;
    fold_state fold;
    /* the camera a scene starts with; with cam_follow, its target and yaw
     * are taken from follow_at and follow_yaw, which the scene moves */
    float cam_target[3], cam_yaw, cam_pitch, cam_dist;
    int cam_follow;
    float follow_at[3], follow_yaw;
    render_scene draw;
} scene;

const char *scene_name(scene_kind kind);
int scene_parse(const char *name, scene_kind *out);

/* The integrators cloth_set_integrator() accepts, in the order I cycles them. */
#define SCENE_INTEGRATORS 8
extern const cloth_integrator scene_integrators[SCENE_INTEGRATORS];
const char *scene_integrator_name(cloth_integrator kind);
int scene_integrator_parse(const char *name, cloth_integrator *out);

/* Build the scene with its cloth. integrator < 0: the scene's own default
 * (XPBD; semi-rigid for the curtain).
 * Returns 0, or -1 after printing why (the scene is then empty). */
int scene_init(scene *s, scene_kind kind, int integrator, int wind_on);
void scene_free(scene *s);
/* Build the cloth again as it started, keeping integrator and wind. */
int scene_reset(scene *s);

/* Advance by dt seconds: the scene's own motion (moving pins, the character's
 * pose, frame and skin), then cloth_step(). */
void scene_step(scene *s, float dt);

/* Keys: release a corner (k = 0..3), wind on/off, next integrator, open or
 * close the curtain. Each leaves a note for the status line. */
void scene_release_corner(scene *s, int k);
void scene_toggle_wind(scene *s);
void scene_next_integrator(scene *s);
void scene_toggle_open(scene *s);
/* The character's keys: teleport the figure far off with a quarter turn;
 * walk or run; round the circle or straight on (scene_character.c). */
void scene_teleport(scene *s);
void scene_toggle_gait(scene *s);
void scene_toggle_turn(scene *s);
/* The fold's key: let the cloth go, or lift it by its corner again
 * (scene_fold.c). */
void scene_toggle_lift(scene *s);

/* For the scene files: leave `text` on the status line for three simulated
 * seconds; add a shape to `draw` (NULL when it is full), casting a shadow. */
void scene_note(scene *s, const char *text);
render_shape *scene_add_shape(scene *s, render_shape_kind kind, const float color[3]);
/* The headless script: what a viewer would do by hand, at fixed times
 * (drape: its four corners released at 1 s; curtain: opened from 1 s;
 * character: runs from 1 s, teleported at 2.5 s, walks from 6 s). The
 * fold's lift at 3 s is not in it: the scene does that by itself, in a
 * window too. */
void scene_schedule(scene *s);

/* Bring `draw` up to date (pins and rings follow the cloth, the figure
 * its colliders, the fold's clip its lifted corner). */
void scene_sync(scene *s);

#endif /* VIEWER_SCENES_H */
