/*
 * The fold scene (scene_fold.h), issue 27's self-collision on view: a
 * cotton cloth of 48 x 48 particles, 1 m square, dropped nearly upright
 * (tilted 78 degrees, its low edge 5 cm above the floor) onto a rough floor
 * (friction 0.8). Its foot sticks, and the rest buckles and comes down over
 * it in layers and folds; self-collision (cloth_set_self_collision(), a thickness of one
 * grid spacing) keeps the layers apart. Nothing else is tuned: the fabric
 * (cloth_set_material()) and the library's defaults, as bench/fold measures.
 *
 * - At 3 s the scene takes the heap up by a corner of the cloth's top edge:
 *   the corner is pinned where it lies and its target is moved up to
 *   1.2 m over 2 s (eased in and out; the library carries a pin in a
 *   straight line to its target over each step), so the heap unfolds and
 *   the cloth ends up hanging from the corner, its far side on the floor.
 * - L lets go (the cloth drops and crumples again) or takes it up again by
 *   the same corner, from wherever that lies.
 */
#include "scenes.h"

#include "vmath.h"

#include <stdio.h>
#include <string.h>

#define SIDE 1.0f                              /* m */
#define SPACING (SIDE / (float)(FOLD_N - 1u)) /* 2.1 cm */
#define TILT_DEG 78.0f                         /* from the floor */
#define LOW_EDGE 0.05f                         /* m above the floor */
#define FLOOR_FRICTION 0.8f
#define LIFT_AT 3.0                            /* s: the first lift */
#define LIFT_TOP 1.2f                          /* m: where the corner goes */
#define LIFT_TIME 2.0f                         /* s */
#define CLIP_RADIUS 0.016f
#define CORD_LENGTH 3.0f                       /* up out of the picture */

/* --- building -------------------------------------------------------------------------- */

int fold_build(scene *s)
{
    fold_state *f = &s->fold;
    memset(f, 0, sizeof *f);

    /* the low edge, row 0, lies along x; the rows go up the cloth, leaning
     * toward +z, the way it falls */
    const float tilt = TILT_DEG * VIEWER_PI / 180.0f;
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = d.cols = FOLD_N;
    d.spacing = SPACING;
    v3_set(d.origin, -0.5f * SIDE, LOW_EDGE, -0.5f * SIDE * cosf(tilt));
    v3_set(d.u_axis, 1.0f, 0.0f, 0.0f);
    v3_set(d.v_axis, 0.0f, sinf(tilt), cosf(tilt));
    CHECKED(cloth_create_grid(&d, &s->cloth));
    s->rows = d.rows;
    s->cols = d.cols;

    const float floor_point[3] = {0.0f, 0.0f, 0.0f}, up[3] = {0.0f, 1.0f, 0.0f};
    cloth_collider_id ground;
    CHECKED(cloth_add_plane(s->cloth, floor_point, up, &ground));
    CHECKED(cloth_set_collider_friction(s->cloth, ground, FLOOR_FRICTION));
    /* the layers keep a spacing apart: thinner, a particle can slip
     * between two of another layer (constraints.h) */
    CHECKED(cloth_set_self_collision(s->cloth, SPACING));

    f->corner = FOLD_N * FOLD_N - 1u; /* the top edge's +x corner: it lands at the heap's edge nearest the camera */
    return 0;
}

void fold_describe(scene *s)
{
    render_scene *r = &s->draw;
    /* a blue gingham: its checks show every fold, and the two sides of a
     * fold (the back is drawn a shade darker) apart */
    r->pattern = RENDER_GINGHAM;
    v3_set(r->cloth_a, 0.96f, 0.95f, 0.91f);
    v3_set(r->cloth_b, 0.10f, 0.30f, 0.66f);
    r->repeat[0] = r->repeat[1] = 8.0f;
    /* a pale wooden floor, drawn 3 mm under the plane the cloth lies on (its
     * collider has no thickness) so the cloth on it does not flicker */
    r->ground_y = -0.003f;
    r->ground_tile = 0.5f;
    v3_set(r->ground_a, 0.72f, 0.61f, 0.47f);
    v3_set(r->ground_b, 0.65f, 0.54f, 0.40f);

    /* the clip on the lifted corner and the cord it hangs from, hidden
     * (radius 0) until the corner is held; placed by fold_sync() */
    const float brass[3] = {0.80f, 0.64f, 0.30f}, cord[3] = {0.22f, 0.20f, 0.18f};
    fold_state *f = &s->fold;
    f->first_shape = s->draw.shape_count;
    render_shape *sh = scene_add_shape(s, RENDER_SPHERE, brass);
    if (sh != NULL) {
        sh->radius = 0.0f;
    }
    sh = scene_add_shape(s, RENDER_CYLINDER, cord);
    if (sh != NULL) {
        sh->radius = 0.0f;
        sh->shadow = 0; /* 3 m of it would streak across the floor */
    }

    /* from beyond the lifted corner's side, low: the heap lies behind the
     * corner, and as it rises the cloth's folds turn toward the camera;
     * the view is tall enough for the corner at 1.2 m */
    v3_set(s->cam_target, 0.1f, 0.38f, 0.1f);
    s->cam_yaw = 0.6f;
    s->cam_pitch = 0.3f;
    s->cam_dist = 1.9f;
    /* W: a light breeze, for the cloth hanging from its corner */
    s->wind = (scene_wind){{0.958f, 0.0f, 0.287f}, 0.8f, {0.5f, 0.3f},
                           {{2.1f, 1.7f, 0.5f, 0.0f}, {3.7f, 2.9f, 0.3f, 1.1f}, {5.3f, 4.1f, 0.2f, 2.3f},
                            {1.3f, 0.8f, 0.4f, 4.0f}}};
    fold_sync(s);
}

/* --- motion ------------------------------------------------------------------------------ */

/* Pin the corner where it lies and start it up. */
static cloth_status lift(scene *s)
{
    fold_state *f = &s->fold;
    cloth_status st = cloth_get_positions(s->cloth, f->positions, 0);
    if (st == CLOTH_OK) {
        st = cloth_pin(s->cloth, f->corner, NULL);
    }
    if (st == CLOTH_OK) {
        memcpy(f->from, f->positions + 3u * f->corner, sizeof f->from);
        memcpy(f->at, f->from, sizeof f->at);
        f->held = 1;
        f->rise = 0.0f;
        ++f->lifts;
    }
    return st;
}

void fold_animate(scene *s, float dt)
{
    fold_state *f = &s->fold;
    if (f->lifts == 0 && s->time >= LIFT_AT) {
        const cloth_status st = lift(s);
        if (st != CLOTH_OK) {
            char text[64];
            snprintf(text, sizeof text, "lifting: %s (L tries again)", cloth_status_string(st));
            scene_note(s, text);
            f->lifts = 1; /* said once */
            return;
        }
        scene_note(s, "lifting it by a corner (L lets go)");
    }
    if (!f->held || f->rise >= 1.0f) {
        return;
    }
    f->rise = fminf(1.0f, f->rise + dt / LIFT_TIME);
    const float e = f->rise * f->rise * (3.0f - 2.0f * f->rise);
    v3_set(f->at, f->from[0], f->from[1] + (LIFT_TOP - f->from[1]) * e, f->from[2]);
    const cloth_status st = cloth_pin(s->cloth, f->corner, f->at); /* re-pinning moves the target */
    if (st != CLOTH_OK) {
        s->last = st;
    }
}

void scene_toggle_lift(scene *s)
{
    if (s->kind != SCENE_FOLD) {
        scene_note(s, "L lifts the fold's cloth by a corner or lets it go");
        return;
    }
    fold_state *f = &s->fold;
    const int was_held = f->held;
    const cloth_status st = was_held ? cloth_unpin(s->cloth, f->corner) : lift(s);
    if (st != CLOTH_OK) {
        char text[64];
        snprintf(text, sizeof text, "%s: %s", was_held ? "cloth_unpin" : "lifting", cloth_status_string(st));
        scene_note(s, text);
        return;
    }
    if (was_held) {
        f->held = 0;
        scene_note(s, "let go: it falls in a heap (L lifts it)");
    } else {
        scene_note(s, "lifting it by a corner (L lets go)");
    }
    fold_sync(s);
}

/* --- drawing ----------------------------------------------------------------------------- */

void fold_sync(scene *s)
{
    fold_state *f = &s->fold;
    if (f->first_shape + 2u > s->draw.shape_count) {
        return; /* the shapes did not fit */
    }
    render_shape *clip = &s->draw.shapes[f->first_shape], *cord = clip + 1;
    /* where the pin's target is, the corner is at the end of the step */
    memcpy(clip->a, f->at, sizeof clip->a);
    clip->radius = f->held ? CLIP_RADIUS : 0.0f;
    v3_set(cord->a, f->at[0], f->at[1] + CLIP_RADIUS, f->at[2]);
    v3_set(cord->b, f->at[0], f->at[1] + CORD_LENGTH, f->at[2]);
    cord->radius = f->held ? 0.0025f : 0.0f;
}
