/*
 * viewer: clothsim's demo. With a display it opens a window; without one
 * (DISPLAY and WAYLAND_DISPLAY unset, or --headless) it renders offscreen
 * through OSMesa and writes PNG frames, a final picture and the final cloth
 * as an OBJ file. See --help.
 */
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: viewer [options]\n"
            "  --scene NAME                 what to show: drape (default: seed 002's cloth over a ball),\n"
            "                               curtain, flag, character (a running figure in a cape), or fold\n"
            "                               (a cloth crumpling onto itself, then lifted by a corner)\n"
            "  --integrator NAME            euler, trapezoid, verlet, pbd, semirigid, relaxation, xpbd,\n"
            "                               implicit (default: xpbd; semirigid for the curtain)\n"
            "  --smooth N                   smooth-surface level 1-16, 0 for plain triangles (default 4)\n"
            "  --wind | --no-wind           start with the wind on or off (default: on but for the drape\n"
            "                               and the fold)\n"
            "  --headless                   render offscreen even with a display\n"
            "  --frames N                   headless: frames to render (default 300); window: quit after N\n"
            "  --fps N                      headless: frames per simulated second (default 30)\n"
            "  --every N                    headless: write every N-th frame, 0 for none (default 2)\n"
            "  --size WxH                   picture or window size (default 800x450 headless, 1280x720)\n"
            "  --supersample N              headless: render N times larger and average (default 2)\n"
            "  --no-hud                     no status text in the pictures\n"
            "  --out DIR                    where pictures and the OBJ go (default out/SCENE)\n"
            "Keys (window): 1-4 release a corner, W wind, I next integrator, C colliders, S smooth,\n"
            "  + - smooth level, O open/close the curtain, T teleport the character, G walk/run,\n"
            "  U turn round a circle or go straight, L lift the fold's cloth or let it go, R reset,\n"
            "  space pause, P screenshot, V view, Q quit;\n"
            "  drag to orbit, scroll to zoom.\n");
}

static int parse_int(const char *text, int lo, int hi, int *out)
{
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < lo || v > hi) {
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int parse_options(int argc, char **argv, app_options *o)
{
    memset(o, 0, sizeof *o);
    o->scene = SCENE_DRAPE;
    o->integrator = -1;
    o->wind = -1;
    o->fps = 30;
    o->every = 2;
    o->supersample = 2;
    o->smooth = 4u;
    o->hud = 1;
    int frames = -1, width = 0, height = 0;
    const char *out = NULL;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int n = 0;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(arg, "--headless") == 0) {
            o->headless = 1;
        } else if (strcmp(arg, "--wind") == 0) {
            o->wind = 1;
        } else if (strcmp(arg, "--no-wind") == 0) {
            o->wind = 0;
        } else if (strcmp(arg, "--no-hud") == 0) {
            o->hud = 0;
        } else if (val == NULL) {
            fprintf(stderr, "viewer: unknown option or missing value: %s\n", arg);
            return -1;
        } else if (strcmp(arg, "--scene") == 0) {
            if (scene_parse(val, &o->scene) != 0) {
                fprintf(stderr, "viewer: unknown scene '%s' (drape, curtain, flag, character, fold)\n", val);
                return -1;
            }
            ++i;
        } else if (strcmp(arg, "--integrator") == 0) {
            cloth_integrator kind;
            if (scene_integrator_parse(val, &kind) != 0) {
                fprintf(stderr, "viewer: unknown integrator '%s'\n", val);
                return -1;
            }
            o->integrator = (int)kind;
            ++i;
        } else if (strcmp(arg, "--smooth") == 0 && parse_int(val, 0, (int)CLOTH_SMOOTH_MAX_LEVEL, &n) == 0) {
            o->smooth = (uint32_t)n;
            ++i;
        } else if (strcmp(arg, "--frames") == 0 && parse_int(val, 1, 1000000, &frames) == 0) {
            ++i;
        } else if (strcmp(arg, "--fps") == 0 && parse_int(val, 1, 240, &o->fps) == 0) {
            ++i;
        } else if (strcmp(arg, "--every") == 0 && parse_int(val, 0, 1000000, &o->every) == 0) {
            ++i;
        } else if (strcmp(arg, "--supersample") == 0 && parse_int(val, 1, 4, &o->supersample) == 0) {
            ++i;
        } else if (strcmp(arg, "--size") == 0 && sscanf(val, "%dx%d", &width, &height) == 2 && width >= 16 &&
                   height >= 16 && width <= 4096 && height <= 4096) {
            ++i;
        } else if (strcmp(arg, "--out") == 0 && strlen(val) > 0u && strlen(val) < sizeof o->out) {
            out = val;
            ++i;
        } else {
            fprintf(stderr, "viewer: bad option or value: %s %s\n", arg, val);
            return -1;
        }
    }
    o->frames = frames > 0 ? frames : 0;
    o->width = width;
    o->height = height;
    if (out != NULL) {
        snprintf(o->out, sizeof o->out, "%s", out);
    } else {
        snprintf(o->out, sizeof o->out, "out/%s", scene_name(o->scene));
    }
    return 0;
}

int main(int argc, char **argv)
{
    static app a; /* large, and lives as long as the program */
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress shows up as it happens, also through a pipe */
    if (parse_options(argc, argv, &a.opt) != 0) {
        usage(stderr);
        return 2;
    }
    const int wind = a.opt.wind >= 0 ? a.opt.wind : a.opt.scene != SCENE_DRAPE && a.opt.scene != SCENE_FOLD;
    if (scene_init(&a.sc, a.opt.scene, a.opt.integrator, wind) != 0) {
        return 1;
    }
    a.sc.draw.smooth_level = a.opt.smooth;
    a.smooth_last = a.opt.smooth > 0u ? a.opt.smooth : 4u;
    app_camera_reset(&a);

    const char *display = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY");
    const int have_display = (display != NULL && display[0] != '\0') || (wayland != NULL && wayland[0] != '\0');
    int rc = 2;
    if (!a.opt.headless && have_display) {
#ifdef VIEWER_HAVE_GLFW
        app_options headless = a.opt;
        if (a.opt.width == 0) {
            a.opt.width = 1280;
            a.opt.height = 720;
        }
        rc = app_run_window(&a);
        if (rc == 2) {
            fprintf(stderr, "viewer: no window could be opened; rendering headless instead\n");
            a.opt = headless;
        }
#else
        fprintf(stderr, "viewer: built without GLFW; rendering headless\n");
#endif
    }
    if (rc == 2) {
#ifdef VIEWER_HAVE_OSMESA
        if (a.opt.width == 0) {
            a.opt.width = 800;
            a.opt.height = 450;
        }
        if (a.opt.frames == 0) {
            a.opt.frames = 300;
        }
        rc = app_run_headless(&a);
#else
        fprintf(stderr, "viewer: no display, and built without OSMesa for headless rendering\n");
        rc = 1;
#endif
    }
    scene_free(&a.sc);
    return rc;
}
