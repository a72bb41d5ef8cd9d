/*
 * Headless rendering through Mesa's OSMesa: an OpenGL context that draws
 * into a block of our memory, with the same drawing code as the window.
 *
 * The scene runs its script (scene_schedule(): the drape's corners let go
 * at 1 s, the curtain opens, the character runs and is teleported); every
 * `every`-th frame is written as a PNG, and at the end the final picture
 * and the cloth as an OBJ file.
 * Pictures are rendered `supersample` times larger and averaged down, which
 * is the antialiasing OSMesa's single-sampled framebuffer does not give.
 */
#include "app.h"

#include "output.h"

#include <GL/osmesa.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static viewer_glproc osmesa_proc(const char *name)
{
    return (viewer_glproc)OSMesaGetProcAddress(name);
}

/* Render a frame and leave it, averaged down, in `rgb` (width x height). */
static int capture(app *a, unsigned char *big, unsigned char *rgb)
{
    const int k = a->opt.supersample;
    const int w = a->opt.width * k, h = a->opt.height * k;
    /* the status text: one output pixel per font pixel per 640 pixels of
     * width; supersampling makes the fractions smooth */
    const float hud = (float)k * fmaxf(1.0f, (float)a->opt.width / 640.0f);
    if (app_render(a, w, h, hud, 0) != 0) {
        return -1;
    }
    render_read_rgb(w, h, big);
    output_downsample(big, rgb, a->opt.width, a->opt.height, k);
    return 0;
}

int app_run_headless(app *a)
{
    const int k = a->opt.supersample;
    const int w = a->opt.width * k, h = a->opt.height * k;
    OSMesaContext ctx = OSMesaCreateContextExt(OSMESA_RGBA, 24, 8, 0, NULL);
    if (ctx == NULL) {
        fprintf(stderr, "viewer: OSMesa cannot create a context\n");
        return 1;
    }
    const size_t pixels = (size_t)w * (size_t)h;
    unsigned char *colour = malloc(pixels * 4u); /* OSMesa's framebuffer */
    unsigned char *big = malloc(pixels * 3u);
    unsigned char *rgb = malloc((size_t)a->opt.width * (size_t)a->opt.height * 3u);
    int rc = 1, have_renderer = 0;
    if (colour == NULL || big == NULL || rgb == NULL) {
        fprintf(stderr, "viewer: out of memory\n");
        goto done;
    }
    if (!OSMesaMakeCurrent(ctx, colour, GL_UNSIGNED_BYTE, w, h)) {
        fprintf(stderr, "viewer: OSMesa cannot use a %d x %d framebuffer\n", w, h);
        goto done;
    }
    if (viewer_gl_load(osmesa_proc) != 0 || render_init(&a->r) != 0) {
        goto done;
    }
    have_renderer = 1;
    printf("viewer: headless (OSMesa, %s), the %s scene, %d frames at %d per second, %d x %d\n",
           (const char *)gl.GetString(GL_RENDERER), scene_name(a->sc.kind), a->opt.frames, a->opt.fps,
           a->opt.width, a->opt.height);
    if (output_mkdirs(a->opt.out) != 0) {
        goto done;
    }
    /* what a failed run leaves must not pass for this run's results */
    char stale[600];
    snprintf(stale, sizeof stale, "%s/final.png", a->opt.out);
    remove(stale);
    snprintf(stale, sizeof stale, "%s/cloth.obj", a->opt.out);
    remove(stale);

    int written = 0;
    double next_report = 1.0;
    char last_note[sizeof a->sc.note] = "";
    for (int frame = 1; frame <= a->opt.frames; ++frame) {
        app_advance(a, 1.0 / (double)a->opt.fps, 1);
        if (a->sc.note[0] != '\0' && strcmp(a->sc.note, last_note) != 0) {
            printf("  t %5.2f s  %s\n", a->sc.time, a->sc.note); /* the script's events */
        }
        memcpy(last_note, a->sc.note, sizeof last_note);
        if (a->sc.time >= next_report || frame == a->opt.frames) {
            printf("  t %5.2f s  step %6.3f ms  %s\n", a->sc.time, (double)a->sc.step_ms,
                   cloth_status_string(a->sc.last));
            next_report += 1.0;
        }
        if (a->opt.every > 0 && frame % a->opt.every == 0) {
            char path[600];
            snprintf(path, sizeof path, "%s/frame_%04d.png", a->opt.out, frame);
            if (capture(a, big, rgb) != 0 || output_png(path, rgb, a->opt.width, a->opt.height, 3) != 0) {
                goto done;
            }
            ++written;
        }
    }
    if (written > 0) {
        printf("viewer: %d frames      %s/frame_*.png (a video: ffmpeg -framerate %d -pattern_type glob "
               "-i '%s/frame_*.png' %s.mp4)\n",
               written, a->opt.out, a->opt.fps / a->opt.every > 0 ? a->opt.fps / a->opt.every : 1, a->opt.out,
               scene_name(a->sc.kind));
    }
    if (capture(a, big, rgb) != 0 || app_write_final(a, rgb, a->opt.width, a->opt.height) != 0) {
        goto done;
    }
    rc = a->sc.last == CLOTH_OK ? 0 : 1;
    if (rc != 0) {
        fprintf(stderr, "viewer: the last step returned %s\n", cloth_status_string(a->sc.last));
    }
done:
    if (have_renderer) {
        render_free(&a->r);
    }
    /* unbinding first lets OSMesa free the framebuffer it made for us */
    OSMesaMakeCurrent(NULL, NULL, GL_UNSIGNED_BYTE, 0, 0);
    OSMesaDestroyContext(ctx);
    free(colour);
    free(big);
    free(rgb);
    return rc;
}
