/*
 * What the window and the headless renderer share (app.h): stepping, keys,
 * the camera, the status lines and the final outputs.
 */
#include "app.h"

#include "output.h"
#include "vmath.h"

#include <stdio.h>
#include <string.h>

void app_camera_reset(app *a)
{
    a->yaw = a->sc.cam_yaw;
    a->pitch = a->sc.cam_pitch;
    a->dist = a->sc.cam_dist;
    memcpy(a->target, a->sc.cam_target, sizeof a->target);
}

void app_advance(app *a, double seconds, int scripted)
{
    a->accumulator += seconds;
    /* half a step of slack so that a frame time that is a whole number of
     * steps in exact arithmetic does not lose one to rounding */
    while (a->accumulator >= (double)APP_PHYSICS_DT * 0.5) {
        if (scripted) {
            scene_schedule(&a->sc);
        }
        scene_step(&a->sc, APP_PHYSICS_DT);
        a->accumulator -= (double)APP_PHYSICS_DT;
    }
    scene_sync(&a->sc);
}

void app_key(app *a, int key)
{
    scene *s = &a->sc;
    switch (key) {
    case '1':
    case '2':
    case '3':
    case '4':
        scene_release_corner(s, key - '1');
        break;
    case 'W':
        scene_toggle_wind(s);
        break;
    case 'I':
        scene_next_integrator(s);
        break;
    case 'O':
        scene_toggle_open(s);
        break;
    case 'T':
        scene_teleport(s);
        break;
    case 'G':
        scene_toggle_gait(s);
        break;
    case 'U':
        scene_toggle_turn(s);
        break;
    case 'L':
        scene_toggle_lift(s);
        break;
    case 'C':
        s->draw.show_colliders = !s->draw.show_colliders;
        break;
    case 'S':
        if (s->draw.smooth_level > 0u) {
            a->smooth_last = s->draw.smooth_level;
            s->draw.smooth_level = 0u;
        } else {
            s->draw.smooth_level = a->smooth_last > 0u ? a->smooth_last : 4u;
        }
        break;
    case '+':
    case '-': {
        uint32_t level = s->draw.smooth_level > 0u ? s->draw.smooth_level : a->smooth_last;
        level = key == '+' ? level + 1u : (level > 1u ? level - 1u : 1u);
        s->draw.smooth_level = level > CLOTH_SMOOTH_MAX_LEVEL ? CLOTH_SMOOTH_MAX_LEVEL : level;
        a->smooth_last = s->draw.smooth_level;
        break;
    }
    case 'R':
        if (scene_reset(s) != 0) {
            fprintf(stderr, "viewer: the scene could not be built again\n");
        }
        a->accumulator = 0.0;
        break;
    case ' ':
        a->paused = !a->paused;
        break;
    default:
        break;
    }
}

static void status_lines(app *a)
{
    const scene *s = &a->sc;
    char smooth[32];
    if (s->draw.smooth_level > 0u) {
        snprintf(smooth, sizeof smooth, "smooth x%u", (unsigned)s->draw.smooth_level);
    } else {
        snprintf(smooth, sizeof smooth, "particles");
    }
    const char *state = a->paused ? "  paused" : (s->last == CLOTH_ERR_UNSTABLE ? "  UNSTABLE: state kept" : "");
    snprintf(a->hud_status, sizeof a->hud_status, "%s | %s | %u particles | step %.2f ms | %s | wind %s | t %.1f s%s",
             scene_name(s->kind), scene_integrator_name(s->integrator), (unsigned)cloth_particle_count(s->cloth),
             (double)s->step_ms, smooth, s->wind_on ? "on" : "off", s->time, state);
    const char *first = s->kind == SCENE_DRAPE       ? "1-4 release  "
                        : s->kind == SCENE_CURTAIN   ? "O open  "
                        : s->kind == SCENE_CHARACTER ? "T teleport  G walk/run  U turn  "
                        : s->kind == SCENE_FOLD      ? "L lift/let go  "
                                                     : "";
    snprintf(a->hud_keys, sizeof a->hud_keys,
             "%sW wind  I integrator  C colliders  S smooth  R reset  space pause", first);
}

int app_render(app *a, int width, int height, float hud_scale, int show_keys)
{
    status_lines(a);
    render_view v;
    memset(&v, 0, sizeof v);
    v.width = width;
    v.height = height;
    v.fovy = 0.70f;
    memcpy(v.target, a->target, sizeof v.target);
    float yaw = a->yaw;
    if (a->sc.cam_follow) { /* the orbit is about the figure, and turns with it */
        v3_set(v.target, v.target[0] + a->sc.follow_at[0], v.target[1] + a->sc.follow_at[1],
               v.target[2] + a->sc.follow_at[2]);
        yaw += a->sc.follow_yaw;
    }
    const float cp = cosf(a->pitch);
    v3_set(v.eye, v.target[0] + a->dist * cp * sinf(yaw), v.target[1] + a->dist * sinf(a->pitch),
           v.target[2] + a->dist * cp * cosf(yaw));
    v.hud_scale = a->opt.hud ? hud_scale : 0.0f;
    v.hud[0] = a->hud_status;
    v.hud[1] = a->sc.note[0] != '\0' ? a->sc.note : NULL;
    v.hud[2] = show_keys ? a->hud_keys : NULL;
    return render_draw(&a->r, &a->sc.draw, &v);
}

int app_write_final(app *a, const unsigned char *rgb, int width, int height)
{
    char png[600], obj[600], comment[160];
    snprintf(png, sizeof png, "%s/final.png", a->opt.out);
    snprintf(obj, sizeof obj, "%s/cloth.obj", a->opt.out);
    snprintf(comment, sizeof comment, "clothsim viewer: the %s scene after %.2f s (%s)", scene_name(a->sc.kind),
             a->sc.time, scene_integrator_name(a->sc.integrator));
    if (output_mkdirs(a->opt.out) != 0 || output_png(png, rgb, width, height, 9) != 0 ||
        output_obj(obj, a->sc.cloth, comment) != 0) {
        return -1;
    }
    printf("viewer: final picture  %s (%d x %d)\n", png, width, height);
    printf("viewer: final cloth    %s (%u vertices with normals, %u triangles; Blender: File > Import > "
           "Wavefront (.obj))\n",
           obj, (unsigned)cloth_particle_count(a->sc.cloth), (unsigned)cloth_triangle_count(a->sc.cloth));
    return 0;
}
