/*
 * The viewer's scenes (scenes.h).
 */
#include "scenes.h"

#include "vmath.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *const scene_names[SCENE_COUNT] = {"drape", "curtain", "flag", "character", "fold"};

const char *scene_name(scene_kind kind)
{
    return (unsigned)kind < SCENE_COUNT ? scene_names[kind] : "?";
}

int scene_parse(const char *name, scene_kind *out)
{
    for (int k = 0; k < SCENE_COUNT; ++k) {
        if (strcmp(name, scene_names[k]) == 0) {
            *out = (scene_kind)k;
            return 0;
        }
    }
    return -1;
}

const cloth_integrator scene_integrators[SCENE_INTEGRATORS] = {
    CLOTH_INTEGRATOR_EXPLICIT_EULER, CLOTH_INTEGRATOR_TRAPEZOID, CLOTH_INTEGRATOR_VERLET,
    CLOTH_INTEGRATOR_PBD,            CLOTH_INTEGRATOR_SEMIRIGID, CLOTH_INTEGRATOR_RELAXATION,
    CLOTH_INTEGRATOR_XPBD,           CLOTH_INTEGRATOR_IMPLICIT_EULER,
};

/* Command-line names and the status line's names, in scene_integrators' order. */
static const char *const integrator_args[SCENE_INTEGRATORS] = {
    "euler", "trapezoid", "verlet", "pbd", "semirigid", "relaxation", "xpbd", "implicit",
};
static const char *const integrator_titles[SCENE_INTEGRATORS] = {
    "explicit Euler", "trapezoid", "Verlet", "PBD", "semi-rigid", "relaxation", "XPBD", "implicit Euler",
};

const char *scene_integrator_name(cloth_integrator kind)
{
    for (int k = 0; k < SCENE_INTEGRATORS; ++k) {
        if (scene_integrators[k] == kind) {
            return integrator_titles[k];
        }
    }
    return "custom";
}

int scene_integrator_parse(const char *name, cloth_integrator *out)
{
    for (int k = 0; k < SCENE_INTEGRATORS; ++k) {
        if (strcmp(name, integrator_args[k]) == 0) {
            *out = scene_integrators[k];
            return 0;
        }
    }
    return -1;
}

void scene_note(scene *s, const char *text)
{
    snprintf(s->note, sizeof s->note, "%s", text);
    s->note_until = s->time + 3.0;
}

/* --- wind -------------------------------------------------------------------------- */

/* How strong the mean wind blows at time t: slow swells from two
 * incommensurate periods, so the pattern never repeats exactly. */
static float gust(const scene_wind *w, float t)
{
    return w->mean * (1.0f + w->gust[0] * sinf(0.9f * t) + w->gust[1] * sinf(2.3f * t + 1.0f));
}

/* The wind hook (cloth_wind_fn): called by the library once per substep with
 * every particle's position; writes the air's velocity there. The eddies
 * drift downwind with the mean flow (s - mean t) and push the air sideways
 * (horizontal, across the wind) and up and down. */
static void wind_hook(void *user, float time, uint32_t count, const float *positions, float *wind_velocity)
{
    const scene_wind *w = user;
    const float u = gust(w, time);
    const float side_dir[3] = {-w->dir[2], 0.0f, w->dir[0]};
    for (uint32_t i = 0; i < count; ++i) {
        const float *p = positions + 3u * i;
        const float s = p[0] * w->dir[0] + p[2] * w->dir[2], y = p[1];
        float side = 0.0f, lift = 0.0f;
        for (int e = 0; e < 4; ++e) {
            const scene_eddy *d = &w->eddies[e];
            const float x = d->wavenumber * (s - w->mean * time);
            side += d->amplitude * sinf(x + d->phase + d->frequency * time);
            lift += 0.5f * d->amplitude * cosf(x + 1.3f * d->phase + 0.7f * y);
        }
        float *o = wind_velocity + 3u * i;
        o[0] = u * w->dir[0] + side * side_dir[0];
        o[1] = lift;
        o[2] = u * w->dir[2] + side * side_dir[2];
    }
}

static void apply_wind(scene *s)
{
    cloth_status st = cloth_set_wind(s->cloth, s->wind_on ? wind_hook : NULL, &s->wind);
    if (st != CLOTH_OK) {
        fprintf(stderr, "viewer: cloth_set_wind: %s\n", cloth_status_string(st));
        s->wind_on = 0;
    }
}

/* --- building the scenes -------------------------------------------------------------- */

render_shape *scene_add_shape(scene *s, render_shape_kind kind, const float color[3])
{
    if (s->draw.shape_count == RENDER_MAX_SHAPES) {
        return NULL;
    }
    render_shape *sh = &s->draw.shapes[s->draw.shape_count++];
    memset(sh, 0, sizeof *sh);
    sh->kind = kind;
    memcpy(sh->color, color, sizeof sh->color);
    sh->shadow = 1;
    return sh;
}

/* The fabric of each scene (material.h): it sets the masses, stretch, shear,
 * bending, tethers, strain limit and damping for the scene's spacing. */
static const cloth_material_preset scene_fabrics[SCENE_COUNT] = {
    CLOTH_MATERIAL_COTTON, CLOTH_MATERIAL_DENIM, CLOTH_MATERIAL_SILK, CLOTH_MATERIAL_COTTON, CLOTH_MATERIAL_COTTON};
static const char *const scene_fabric_names[SCENE_COUNT] = {"cotton", "denim", "silk", "cotton", "cotton"};

/* Drape (seed 002): a cotton cloth of 32 x 32 particles 4 cm apart (a 1.24 m
 * square) hanging by its corners 1.2 m up, above a 0.4 m ball standing on
 * the floor. */
#define DRAPE_N 32u
#define DRAPE_SPACING 0.04f
static const float drape_ball[3] = {0.0f, 0.4f, 0.0f};
static const float drape_radius = 0.4f;
static const float drape_thickness = 0.032f; /* seed 000: the ball pushes out to 1.08 r */

static int build_drape(scene *s)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = d.cols = DRAPE_N;
    d.spacing = DRAPE_SPACING;
    const float half = 0.5f * DRAPE_SPACING * (float)(DRAPE_N - 1u);
    v3_set(d.origin, -half, 1.2f, -half);
    CHECKED(cloth_create_grid(&d, &s->cloth));
    s->rows = d.rows;
    s->cols = d.cols;

    const float floor_point[3] = {0.0f, 0.0f, 0.0f}, up[3] = {0.0f, 1.0f, 0.0f};
    cloth_collider_id ball, ground;
    CHECKED(cloth_add_sphere(s->cloth, drape_ball, drape_radius, &ball));
    CHECKED(cloth_set_collider_thickness(s->cloth, ball, drape_thickness));
    CHECKED(cloth_set_collider_friction(s->cloth, ball, 0.4f));
    CHECKED(cloth_add_plane(s->cloth, floor_point, up, &ground));
    CHECKED(cloth_set_collider_thickness(s->cloth, ground, 0.005f));
    CHECKED(cloth_set_collider_friction(s->cloth, ground, 0.6f));

    const uint32_t n = d.rows * d.cols;
    const uint32_t corners[4] = {0u, d.cols - 1u, n - d.cols, n - 1u};
    for (int k = 0; k < 4; ++k) {
        s->corners[k] = corners[k];
        s->corner_pinned[k] = 1;
        CHECKED(cloth_pin(s->cloth, corners[k], NULL));
    }
    return 0;
}

static void describe_drape(scene *s)
{
    render_scene *r = &s->draw;
    r->pattern = RENDER_GINGHAM;
    v3_set(r->cloth_a, 0.96f, 0.95f, 0.91f);
    v3_set(r->cloth_b, 0.78f, 0.09f, 0.12f);
    r->repeat[0] = r->repeat[1] = 7.5f;
    r->ground_tile = 0.5f;
    v3_set(r->ground_a, 0.62f, 0.64f, 0.68f);
    v3_set(r->ground_b, 0.50f, 0.52f, 0.57f);
    const float ivory[3] = {0.86f, 0.84f, 0.78f};
    render_shape *ball = scene_add_shape(s, RENDER_SPHERE, ivory);
    if (ball != NULL) {
        memcpy(ball->a, drape_ball, sizeof ball->a);
        /* The collider keeps particles `thickness` off the ball; drawing it
         * grown by most of that makes the cloth rest on it instead of
         * floating, while the flat triangles between particles (which cut
         * inside the true surface) still stay clear of it. */
        ball->radius = drape_radius + 0.75f * drape_thickness;
        ball->collider = 1;
    }
    /* a bead on each corner while it is held; scene_sync() hides released ones */
    const float pin_red[3] = {0.55f, 0.05f, 0.05f};
    const float half = 0.5f * DRAPE_SPACING * (float)(DRAPE_N - 1u);
    const float at[4][2] = {{-half, -half}, {half, -half}, {-half, half}, {half, half}};
    for (int k = 0; k < 4; ++k) {
        render_shape *bead = scene_add_shape(s, RENDER_SPHERE, pin_red);
        if (bead != NULL) {
            v3_set(bead->a, at[k][0], 1.2f + 0.012f, at[k][1]);
            bead->radius = 0.018f;
        }
    }
    v3_set(s->cam_target, 0.0f, 0.52f, 0.0f);
    s->cam_yaw = 0.62f;
    s->cam_pitch = 0.36f;
    s->cam_dist = 2.35f;
    /* cotton is light (0.15 kg/m^2): a breeze of 1 m/s lifts it */
    s->wind = (scene_wind){{0.958f, 0.0f, 0.287f}, 1.0f, {0.5f, 0.3f},
                           {{2.1f, 1.7f, 0.6f, 0.0f}, {3.7f, 2.9f, 0.4f, 1.1f}, {5.3f, 4.1f, 0.3f, 2.3f},
                            {1.3f, 0.8f, 0.5f, 4.0f}}};
}

/* Curtain (seed 003): 40 rows of 30 particles 5 cm apart (1.45 m wide,
 * 1.95 m long) of denim hanging from rings on a rod 2.2 m up, in front of a
 * wall with a window; a breeze blows in through the window. */
#define CURTAIN_ROWS 40u
#define CURTAIN_COLS 30u
#define CURTAIN_SPACING 0.05f
#define CURTAIN_TOP 2.2f
#define CURTAIN_WALL_Z (-0.15f)
#define CURTAIN_RING 0.03f

static int build_curtain(scene *s)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = CURTAIN_ROWS;
    d.cols = CURTAIN_COLS;
    d.spacing = CURTAIN_SPACING;
    v3_set(d.origin, 0.0f, CURTAIN_TOP, 0.0f);
    v3_set(d.u_axis, 1.0f, 0.0f, 0.0f); /* rings along the rod */
    v3_set(d.v_axis, 0.0f, -1.0f, 0.0f); /* warp threads hang down; the front faces +z */
    CHECKED(cloth_create_grid(&d, &s->cloth));
    s->rows = d.rows;
    s->cols = d.cols;
    for (uint32_t c = 0; c < d.cols; ++c) {
        CHECKED(cloth_pin(s->cloth, c, NULL));
    }
    const float wall_point[3] = {0.0f, 0.0f, CURTAIN_WALL_Z}, wall_normal[3] = {0.0f, 0.0f, 1.0f};
    cloth_collider_id wall;
    CHECKED(cloth_add_plane(s->cloth, wall_point, wall_normal, &wall));
    CHECKED(cloth_set_collider_thickness(s->cloth, wall, 0.01f));
    CHECKED(cloth_set_collider_friction(s->cloth, wall, 0.3f));
    /* bunched, the rings stand 7.5 mm apart and every other panel of the
     * folds 1.5 cm from the next: a thickness under that keeps them apart
     * (tests/test_self_collision.c G) */
    CHECKED(cloth_set_self_collision(s->cloth, 0.012f));
    return 0;
}

/* How far along the rod ring c stands, for an opening of `open` (0..1):
 * the ring spacing shrinks toward the left end, eased in and out. */
static float ring_x(uint32_t c, float open)
{
    const float bunched = 0.15f * CURTAIN_SPACING;
    const float e = open * open * (3.0f - 2.0f * open);
    return (float)c * (CURTAIN_SPACING + (bunched - CURTAIN_SPACING) * e);
}

static void describe_curtain(scene *s)
{
    render_scene *r = &s->draw;
    r->pattern = RENDER_STRIPES;
    v3_set(r->cloth_a, 0.62f, 0.10f, 0.16f);
    v3_set(r->cloth_b, 0.90f, 0.72f, 0.40f);
    r->repeat[0] = 6.0f;
    r->repeat[1] = 1.0f;
    r->ground_tile = 0.4f;
    v3_set(r->ground_a, 0.56f, 0.40f, 0.27f);
    v3_set(r->ground_b, 0.48f, 0.33f, 0.22f);

    const float plaster[3] = {0.90f, 0.88f, 0.83f}, frame[3] = {0.95f, 0.95f, 0.94f},
                sky[3] = {0.62f, 0.80f, 0.98f}, brass[3] = {0.78f, 0.62f, 0.30f};
    render_shape *sh = scene_add_shape(s, RENDER_PANEL, plaster); /* the wall: a collider */
    if (sh != NULL) {
        v3_set(sh->a, 0.7f, 1.6f, CURTAIN_WALL_Z);
        v3_set(sh->b, 0.0f, 0.0f, 1.0f);
        sh->radius = 8.0f;
        sh->radius2 = 1.6f;
        sh->collider = 1;
        sh->shadow = 0;
    }
    sh = scene_add_shape(s, RENDER_PANEL, frame); /* the window in it, frame and sky */
    if (sh != NULL) {
        v3_set(sh->a, 0.72f, 1.35f, CURTAIN_WALL_Z + 0.002f);
        v3_set(sh->b, 0.0f, 0.0f, 1.0f);
        sh->radius = 0.62f;
        sh->radius2 = 0.80f;
        sh->collider = 1;
        sh->shadow = 0;
    }
    sh = scene_add_shape(s, RENDER_PANEL, sky);
    if (sh != NULL) {
        v3_set(sh->a, 0.72f, 1.35f, CURTAIN_WALL_Z + 0.004f);
        v3_set(sh->b, 0.0f, 0.0f, 1.0f);
        sh->radius = 0.55f;
        sh->radius2 = 0.73f;
        sh->emissive = 1;
        sh->collider = 1;
        sh->shadow = 0;
    }
    const float rod_y = CURTAIN_TOP + CURTAIN_RING, rod_end = (float)(CURTAIN_COLS - 1u) * CURTAIN_SPACING + 0.1f;
    sh = scene_add_shape(s, RENDER_CYLINDER, brass); /* the rod and its finials */
    if (sh != NULL) {
        v3_set(sh->a, -0.1f, rod_y, 0.0f);
        v3_set(sh->b, rod_end, rod_y, 0.0f);
        sh->radius = 0.012f;
    }
    sh = scene_add_shape(s, RENDER_SPHERE, brass);
    if (sh != NULL) {
        v3_set(sh->a, -0.1f, rod_y, 0.0f);
        sh->radius = 0.03f;
    }
    sh = scene_add_shape(s, RENDER_SPHERE, brass);
    if (sh != NULL) {
        v3_set(sh->a, rod_end, rod_y, 0.0f);
        sh->radius = 0.03f;
    }
    for (uint32_t c = 0; c < CURTAIN_COLS; ++c) { /* rings, placed by scene_sync() */
        sh = scene_add_shape(s, RENDER_TORUS, brass);
        if (sh != NULL) {
            v3_set(sh->b, 1.0f, 0.0f, 0.0f);
            sh->radius = CURTAIN_RING;
        }
    }
    v3_set(s->cam_target, 0.62f, 1.25f, 0.1f);
    s->cam_yaw = 0.38f;
    s->cam_pitch = 0.12f;
    s->cam_dist = 3.4f;
    /* a breeze of 0.7 m/s stirs denim (0.4 kg/m^2) without lifting it */
    s->wind = (scene_wind){{0.0f, 0.0f, 1.0f}, 0.7f, {0.5f, 0.25f},
                           {{2.3f, 1.1f, 0.5f, 0.0f}, {4.1f, 2.3f, 0.3f, 1.7f}, {1.7f, 0.7f, 0.4f, 3.1f},
                            {5.9f, 3.3f, 0.2f, 4.4f}}};
}

/* Flag: 16 rows of 24 particles 5 cm apart (1.15 m x 0.75 m) of silk,
 * pinned along its hoist to a pole, in a turbulent wind of 6 m/s mean. */
#define FLAG_ROWS 16u
#define FLAG_COLS 24u
#define FLAG_TOP 2.0f
static const float flag_pole_x = -0.03f, flag_pole_r = 0.025f, flag_pole_top = 2.08f;

static int build_flag(scene *s)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = FLAG_ROWS;
    d.cols = FLAG_COLS;
    d.spacing = 0.05f;
    v3_set(d.origin, 0.0f, FLAG_TOP, 0.0f);
    v3_set(d.u_axis, 1.0f, 0.0f, 0.0f);
    v3_set(d.v_axis, 0.0f, -1.0f, 0.0f);
    CHECKED(cloth_create_grid(&d, &s->cloth));
    s->rows = d.rows;
    s->cols = d.cols;
    for (uint32_t r = 0; r < d.rows; ++r) {
        CHECKED(cloth_pin(s->cloth, r * d.cols, NULL)); /* the hoist, along the pole */
    }
    /* the pole is a collider too: with the wind down the flag wraps round it */
    const float a[3] = {flag_pole_x, 0.0f, 0.0f}, b[3] = {flag_pole_x, flag_pole_top, 0.0f};
    cloth_collider_id pole;
    CHECKED(cloth_add_capsule(s->cloth, a, b, flag_pole_r, &pole));
    CHECKED(cloth_set_collider_thickness(s->cloth, pole, 0.005f));
    const float floor_point[3] = {0.0f, 0.0f, 0.0f}, up[3] = {0.0f, 1.0f, 0.0f};
    cloth_collider_id ground;
    CHECKED(cloth_add_plane(s->cloth, floor_point, up, &ground));
    return 0;
}

static void describe_flag(scene *s)
{
    render_scene *r = &s->draw;
    r->pattern = RENDER_FLAG;
    v3_set(r->cloth_a, 0.74f, 0.10f, 0.12f);
    v3_set(r->cloth_b, 0.97f, 0.95f, 0.88f);
    v3_set(r->cloth_c, 0.10f, 0.17f, 0.42f);
    r->repeat[0] = r->repeat[1] = 1.0f;
    r->ground_tile = 1.0f;
    v3_set(r->ground_a, 0.36f, 0.55f, 0.26f);
    v3_set(r->ground_b, 0.31f, 0.49f, 0.22f);
    const float white[3] = {0.92f, 0.92f, 0.90f}, gold[3] = {0.85f, 0.68f, 0.25f};
    render_shape *sh = scene_add_shape(s, RENDER_CYLINDER, white);
    if (sh != NULL) {
        v3_set(sh->a, flag_pole_x, 0.0f, 0.0f);
        v3_set(sh->b, flag_pole_x, flag_pole_top, 0.0f);
        sh->radius = flag_pole_r;
        sh->collider = 1;
    }
    sh = scene_add_shape(s, RENDER_SPHERE, gold);
    if (sh != NULL) {
        v3_set(sh->a, flag_pole_x, flag_pole_top + 0.03f, 0.0f);
        sh->radius = 0.045f;
    }
    v3_set(s->cam_target, 0.5f, 1.6f, 0.0f);
    s->cam_yaw = 0.45f;
    s->cam_pitch = 0.10f;
    s->cam_dist = 2.6f;
    s->wind = (scene_wind){{1.0f, 0.0f, 0.0f}, 6.0f, {0.2f, 0.1f},
                           {{2.1f, 1.7f, 0.9f, 0.0f}, {3.7f, 2.9f, 0.6f, 1.1f}, {5.3f, 4.1f, 0.4f, 2.3f},
                            {1.3f, 0.8f, 0.7f, 4.0f}}};
}

/* The scene's fabric, for the integrator in use. On the curtain, hung from
 * its top row as it is made for, the semi-rigid integrator keeps every warp
 * link at its rest length and lets the cloth shear; the strain limit, which
 * runs after it at the end of a step and bounds the shear diagonals too,
 * would move the particles again (measured: warp links up to 4.5 mm, 9 %,
 * off their rest length). So the semi-rigid curtain gets its fabric without
 * the limit (`max_strain` 0). Everywhere else the preset stays as it is: the
 * drape, held by its corners, needs the limit under the semi-rigid
 * integrator (without it a step is refused within a third of a second). */
static cloth_status apply_fabric(scene *s)
{
    cloth_material fabric;
    cloth_material_init(&fabric, scene_fabrics[s->kind]);
    if (s->kind == SCENE_CURTAIN && s->integrator == CLOTH_INTEGRATOR_SEMIRIGID) {
        fabric.max_strain = 0.0f;
    }
    return cloth_set_material(s->cloth, &fabric);
}

static int build(scene *s)
{
    s->draw.shape_count = 0;
    s->time = 0.0;
    s->schedule = 0u;
    s->last = CLOTH_OK;
    s->open_target = s->open_pos = 0.0f;
    s->cam_follow = 0;
    s->draw.ground_y = 0.0f; /* a scene may draw its ground lower */
    int rc = -1;
    switch (s->kind) {
    case SCENE_DRAPE:
        rc = build_drape(s);
        describe_drape(s);
        break;
    case SCENE_CURTAIN:
        rc = build_curtain(s);
        describe_curtain(s);
        break;
    case SCENE_FLAG:
        rc = build_flag(s);
        describe_flag(s);
        break;
    case SCENE_CHARACTER:
        rc = character_build(s);
        character_describe(s);
        break;
    case SCENE_FOLD:
        rc = fold_build(s);
        fold_describe(s);
        break;
    case SCENE_COUNT:
        break;
    }
    if (rc != 0) {
        return -1;
    }
    /* The fabric gives everything physical; the library picks the substeps
     * and iterations each step (a new cloth's default) for the integrator in
     * use. */
    CHECKED(apply_fabric(s));
    cloth_status st = cloth_set_integrator(s->cloth, s->integrator);
    if (st != CLOTH_OK) {
        fprintf(stderr, "viewer: the %s integrator: %s\n", scene_integrator_name(s->integrator),
                cloth_status_string(st));
        return -1;
    }
    apply_wind(s);
    char text[64];
    snprintf(text, sizeof text, "fabric: %s", scene_fabric_names[s->kind]);
    scene_note(s, text);
    render_scene *r = &s->draw;
    r->cloth = s->cloth;
    r->rows = s->rows;
    r->cols = s->cols;
    v3_set(r->sky, 0.80f, 0.85f, 0.90f);
    v3_set(r->light_dir, -0.45f, 0.80f, 0.40f);
    v3_normalize(r->light_dir);
    scene_sync(s);
    return 0;
}

int scene_init(scene *s, scene_kind kind, int integrator, int wind_on)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->integrator = integrator >= 0                ? (cloth_integrator)integrator
                    : kind == SCENE_CURTAIN         ? CLOTH_INTEGRATOR_SEMIRIGID
                                                    : CLOTH_INTEGRATOR_XPBD;
    s->wind_on = wind_on;
    s->draw.show_colliders = 1;
    if (build(s) != 0) {
        scene_free(s);
        return -1;
    }
    return 0;
}

void scene_free(scene *s)
{
    cloth_destroy(s->cloth);
    s->cloth = NULL;
    s->draw.cloth = NULL;
}

int scene_reset(scene *s)
{
    cloth_destroy(s->cloth);
    s->cloth = NULL;
    const int show = s->draw.show_colliders;
    const uint32_t level = s->draw.smooth_level;
    if (build(s) != 0) {
        scene_free(s);
        return -1;
    }
    s->draw.show_colliders = show;
    s->draw.smooth_level = level;
    scene_note(s, "reset");
    return 0;
}

static double now_ms(void)
{
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) == 0) {
        return 0.0;
    }
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

void scene_step(scene *s, float dt)
{
    if (s->kind == SCENE_CURTAIN) {
        /* the rings slide at a third of the rod per second */
        const float speed = dt / 3.0f, d = s->open_target - s->open_pos;
        s->open_pos += fabsf(d) <= speed ? d : (d > 0.0f ? speed : -speed);
        for (uint32_t c = 0; c < s->cols; ++c) {
            const float target[3] = {ring_x(c, s->open_pos), CURTAIN_TOP, 0.0f};
            cloth_status st = cloth_pin(s->cloth, c, target); /* re-pinning moves the target */
            if (st != CLOTH_OK) {
                s->last = st;
            }
        }
    } else if (s->kind == SCENE_CHARACTER) {
        character_animate(s, dt);
    } else if (s->kind == SCENE_FOLD) {
        fold_animate(s, dt);
    }
    const double t0 = now_ms();
    s->last = cloth_step(s->cloth, dt);
    const float ms = (float)(now_ms() - t0);
    /* smoothed over about half a second at 60 Hz so the number can be read */
    s->step_ms = s->step_ms == 0.0f ? ms : 0.95f * s->step_ms + 0.05f * ms;
    if (s->last == CLOTH_OK) {
        s->time += (double)dt;
    }
}

void scene_release_corner(scene *s, int k)
{
    char text[64];
    if (s->kind != SCENE_DRAPE || k < 0 || k > 3) {
        scene_note(s, "keys 1-4 release the drape's corners");
        return;
    }
    if (!s->corner_pinned[k]) {
        snprintf(text, sizeof text, "corner %d is already free", k + 1);
        scene_note(s, text);
        return;
    }
    cloth_status st = cloth_unpin(s->cloth, s->corners[k]);
    if (st == CLOTH_OK) {
        s->corner_pinned[k] = 0;
        snprintf(text, sizeof text, "corner %d released", k + 1);
    } else {
        snprintf(text, sizeof text, "cloth_unpin: %s", cloth_status_string(st));
    }
    scene_note(s, text);
}

void scene_toggle_wind(scene *s)
{
    s->wind_on = !s->wind_on;
    apply_wind(s);
    scene_note(s, s->wind_on ? "wind on" : "wind off");
}

void scene_next_integrator(scene *s)
{
    int at = 0;
    for (int k = 0; k < SCENE_INTEGRATORS; ++k) {
        if (scene_integrators[k] == s->integrator) {
            at = k;
        }
    }
    char text[96];
    text[0] = '\0';
    /* Try each in turn: the semi-rigid one refuses mesh cloths, and a build
     * may lack one; say so and go on to the next. */
    for (int tries = 1; tries <= SCENE_INTEGRATORS; ++tries) {
        const cloth_integrator next = scene_integrators[(at + tries) % SCENE_INTEGRATORS];
        cloth_status st = cloth_set_integrator(s->cloth, next);
        if (st == CLOTH_OK) {
            const cloth_integrator was = s->integrator;
            s->integrator = next;
            s->last = CLOTH_OK;
            if (s->kind == SCENE_CURTAIN &&
                (was == CLOTH_INTEGRATOR_SEMIRIGID) != (next == CLOTH_INTEGRATOR_SEMIRIGID) &&
                (st = apply_fabric(s)) != CLOTH_OK) {
                snprintf(text, sizeof text, "cloth_set_material: %s", cloth_status_string(st));
            }
            if (text[0] == '\0') {
                snprintf(text, sizeof text, "integrator: %s", scene_integrator_name(next));
            }
            break;
        }
        snprintf(text, sizeof text, "%s refused: %s", scene_integrator_name(next), cloth_status_string(st));
    }
    scene_note(s, text);
}

void scene_toggle_open(scene *s)
{
    if (s->kind != SCENE_CURTAIN) {
        scene_note(s, "O opens the curtain");
        return;
    }
    s->open_target = s->open_target > 0.5f ? 0.0f : 1.0f;
    scene_note(s, s->open_target > 0.5f ? "opening" : "closing");
}

void scene_schedule(scene *s)
{
    if (s->kind == SCENE_DRAPE) {
        /* All four corners at once. Let go one a second, the cotton hangs
         * from the last corners off to one side and its overhang pulls it
         * off the ball (it slid off in every order tried); let go together,
         * it falls straight and drapes. */
        if (!(s->schedule & 1u) && s->time >= 1.0) {
            s->schedule |= 1u;
            for (int k = 0; k < 4; ++k) {
                if (s->corner_pinned[k]) {
                    scene_release_corner(s, k);
                }
            }
            scene_note(s, "the four corners let go");
        }
    } else if (s->kind == SCENE_CURTAIN) {
        if (!(s->schedule & 1u) && s->time >= 1.0) {
            s->schedule |= 1u;
            s->open_target = 0.55f; /* half way: folds, and the window half open */
            scene_note(s, "opening");
        }
    } else if (s->kind == SCENE_CHARACTER) {
        character_schedule(s);
    }
}

void scene_sync(scene *s)
{
    if (s->kind == SCENE_DRAPE) {
        /* shapes 1..4 are the corner beads (describe_drape()) */
        for (int k = 0; k < 4 && 1u + (uint32_t)k < s->draw.shape_count; ++k) {
            s->draw.shapes[1 + k].radius = s->corner_pinned[k] ? 0.018f : 0.0f;
        }
    }
    if (s->kind == SCENE_CURTAIN) {
        /* the rings follow the pinned top row (the library moves the pins
         * over a step; the targets are where they are going) */
        uint32_t ring = 0;
        for (uint32_t k = 0; k < s->draw.shape_count; ++k) {
            render_shape *sh = &s->draw.shapes[k];
            if (sh->kind == RENDER_TORUS) {
                v3_set(sh->a, ring_x(ring, s->open_pos), CURTAIN_TOP + CURTAIN_RING, 0.0f);
                ++ring;
            }
        }
    }
    if (s->kind == SCENE_CHARACTER) {
        character_sync(s);
    }
    if (s->kind == SCENE_FOLD) {
        fold_sync(s);
    }
    if (s->note[0] != '\0' && s->time > s->note_until) {
        s->note[0] = '\0';
    }
}
