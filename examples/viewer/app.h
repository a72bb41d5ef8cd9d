/*
 * The viewer application: options, the scene, the camera and the keys,
 * shared by the window (window_glfw.c) and the headless renderer
 * (headless_osmesa.c).
 */
#ifndef VIEWER_APP_H
#define VIEWER_APP_H

#include "render.h"
#include "scenes.h"

/* Physics runs at a fixed step whatever the frame rate. */
#define APP_PHYSICS_DT (1.0f / 60.0f)

typedef struct app_options {
    scene_kind scene;
    int integrator;     /* -1: the scene's default */
    int wind;           /* -1: the scene's default (on for all but the drape and the fold) */
    int headless;       /* forced with --headless */
    int width, height;  /* output pixels */
    int frames;         /* headless: frames to render; window: quit after this many (0: never) */
    int fps;            /* headless frames per simulated second */
    int every;          /* headless: write every n-th frame (0: only the final picture) */
    int supersample;    /* headless: render at this multiple and average down */
    uint32_t smooth;    /* smooth-surface level, 0 for the particles' own triangles */
    int hud;
    char out[512];      /* output directory */
} app_options;

typedef struct app {
    app_options opt;
    scene sc;
    renderer r;
    int paused;
    uint32_t smooth_last; /* the level S switches back to */
    float yaw, pitch, dist, target[3];
    double accumulator;   /* simulated time owed to the physics */
    char hud_status[192], hud_keys[192];
} app;

/* Camera and state from the scene's defaults. */
void app_camera_reset(app *a);

/* Run the physics for `seconds` of simulated time in fixed steps (the
 * headless script's events included when `scripted`). */
void app_advance(app *a, double seconds, int scripted);

/* A key, as its character: 1-4 W I C S R O T G U L + - and space. */
void app_key(app *a, int key);

/* Draw a frame into the current context's framebuffer of width x height,
 * with the status line (and the keys, in a window) `hud_scale` pixels per
 * font pixel. */
int app_render(app *a, int width, int height, float hud_scale, int show_keys);

/* Write the final picture (packed RGB, top row first) and the cloth's OBJ
 * under the output directory, and print where. Returns 0 or -1. */
int app_write_final(app *a, const unsigned char *rgb, int width, int height);

/* The two ways to run. app_run_window() returns 2 when no window can be
 * opened (the caller may then fall back to headless). */
int app_run_window(app *a);
int app_run_headless(app *a);

#endif /* VIEWER_APP_H */
