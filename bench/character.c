/*
 * character: a skinned cape on a running figure of 16 body shapes, the
 * scene of issue 26's speed figure. A rows x rows cape (32: 1,024
 * particles), 0.6 m square, worn on a figure that runs a 3 m
 * circle at 6 m/s and turns to face where it goes; the figure is 12 tapered
 * capsules (torso, neck, hips, upper and lower arms and legs) and 4 spheres
 * (head, shoulders, belly), moved with it every frame. The host skins the
 * cape's rest shape with the figure each frame (skin targets), the collar
 * row has max distance 0 and the distance grows to 0.3 m at the hem; the
 * frame is the figure's root with the given inertia. Cotton, the defaults
 * otherwise (XPBD, automatic substeps and limit passes, tethers). 60 Hz;
 * 120 frames to settle, then `runs` timed runs of `frames` frames, host
 * work (skinning, moving the body) included.
 *
 * Usage: character [--rows 32] [--inertia 1] [--runs 5] [--frames 600]
 *
 * Prints one JSON line: the median and best time a frame (wall clock, one
 * thread), the mean substeps and limit passes, the worst link and the
 * contacts. Not a test.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include "bench_clock.h"

#include <clothsim/clothsim.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SHAPES = 16, MAX_ROWS = 128 };
#define RADIUS 3.0f
#define SPEED 6.0f
#define DT (1.0f / 60.0f)

typedef struct pose {
    float at[3], turn;
} pose;

static pose pose_at(float t)
{
    const float w = SPEED / RADIUS;
    pose p = {{RADIUS * cosf(w * t), 0.0f, RADIUS * sinf(w * t)}, -w * t};
    return p;
}

static void to_world(const pose *p, const float l[3], float out[3])
{
    const float c = cosf(p->turn), s = sinf(p->turn);
    out[0] = p->at[0] + c * l[0] + s * l[2];
    out[1] = p->at[1] + l[1];
    out[2] = p->at[2] - s * l[0] + c * l[2];
}

/* The figure in its own frame: a, b, radius at a, at b (b unused and the
 * radii equal for a sphere). */
typedef struct part {
    float a[3], b[3], ra, rb;
    int sphere;
} part;

static const part k_body[SHAPES] = {
    {{0.0f, 0.95f, 0.0f}, {0.0f, 1.35f, 0.0f}, 0.15f, 0.17f, 0},     /* torso */
    {{0.0f, 1.42f, 0.0f}, {0.0f, 1.52f, 0.0f}, 0.05f, 0.05f, 0},     /* neck */
    {{-0.1f, 0.9f, 0.0f}, {0.1f, 0.9f, 0.0f}, 0.14f, 0.14f, 0},      /* hips */
    {{-0.2f, 1.38f, 0.0f}, {-0.25f, 1.1f, 0.0f}, 0.055f, 0.045f, 0}, /* upper arms */
    {{0.2f, 1.38f, 0.0f}, {0.25f, 1.1f, 0.0f}, 0.055f, 0.045f, 0},
    {{-0.25f, 1.1f, 0.0f}, {-0.27f, 0.85f, 0.05f}, 0.045f, 0.035f, 0}, /* forearms */
    {{0.25f, 1.1f, 0.0f}, {0.27f, 0.85f, 0.05f}, 0.045f, 0.035f, 0},
    {{-0.1f, 0.85f, 0.0f}, {-0.11f, 0.48f, 0.0f}, 0.08f, 0.06f, 0}, /* thighs */
    {{0.1f, 0.85f, 0.0f}, {0.11f, 0.48f, 0.0f}, 0.08f, 0.06f, 0},
    {{-0.11f, 0.48f, 0.0f}, {-0.11f, 0.08f, 0.0f}, 0.055f, 0.04f, 0}, /* shins */
    {{0.11f, 0.48f, 0.0f}, {0.11f, 0.08f, 0.0f}, 0.055f, 0.04f, 0},
    {{-0.2f, 1.4f, 0.0f}, {0.2f, 1.4f, 0.0f}, 0.07f, 0.07f, 0},      /* shoulders */
    {{0.0f, 1.65f, 0.0f}, {0.0f, 0.0f, 0.0f}, 0.11f, 0.11f, 1},      /* head */
    {{-0.2f, 1.4f, 0.0f}, {0.0f, 0.0f, 0.0f}, 0.075f, 0.075f, 1},    /* shoulder balls */
    {{0.2f, 1.4f, 0.0f}, {0.0f, 0.0f, 0.0f}, 0.075f, 0.075f, 1},
    {{0.0f, 1.05f, 0.06f}, {0.0f, 0.0f, 0.0f}, 0.16f, 0.16f, 1},     /* belly */
};

static uint32_t g_rows = 32u;

/* The cape's rest shape on the figure: its collar across the shoulders,
 * hanging 8 cm behind the back. */
static void rest(uint32_t i, float l[3])
{
    const float s = 0.6f / (float)(g_rows - 1u); /* the grid's spacing: the rest shape is the grid's */
    l[0] = -0.3f + s * (float)(i % g_rows);
    l[1] = 1.45f - s * (float)(i / g_rows);
    l[2] = -0.25f;
}

static uint32_t option(int argc, char **argv, int *a)
{
    if (*a + 1 >= argc) {
        fprintf(stderr, "character: %s needs a value\n", argv[*a]);
        exit(2);
    }
    ++*a;
    return (uint32_t)strtoul(argv[*a], NULL, 10);
}

#define CALL(call)                                                                   \
    do {                                                                             \
        const cloth_status s_ = (call);                                              \
        if (s_ != CLOTH_OK) {                                                        \
            fprintf(stderr, "character: %s: %s\n", #call, cloth_status_string(s_));  \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

int main(int argc, char **argv)
{
    uint32_t runs = 5u, frames = 600u;
    float inertia = 1.0f;
    for (int a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--rows") == 0) {
            g_rows = option(argc, argv, &a);
        } else if (strcmp(argv[a], "--inertia") == 0) {
            if (a + 1 >= argc) {
                return 2;
            }
            inertia = strtof(argv[++a], NULL);
        } else if (strcmp(argv[a], "--runs") == 0) {
            runs = option(argc, argv, &a);
        } else if (strcmp(argv[a], "--frames") == 0) {
            frames = option(argc, argv, &a);
        } else {
            fprintf(stderr, "character: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if (g_rows < 4u || g_rows > MAX_ROWS || runs < 1u || runs > 99u || frames < 1u || !(inertia >= 0.0f) ||
        inertia > 1.0f) {
        fprintf(stderr, "character: rows 4 to %d, runs 1 to 99, frames at least 1, inertia 0 to 1\n", MAX_ROWS);
        return 2;
    }
    const uint32_t n = g_rows * g_rows;
    /* made about the frame's first pose (the origin), then teleported */
    const pose origin = {{0.0f, 0.0f, 0.0f}, 0.0f};
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = g_rows;
    d.cols = g_rows;
    d.spacing = 0.6f / (float)(g_rows - 1u);
    float l[3];
    rest(0u, l);
    to_world(&origin, l, d.origin);
    d.v_axis[0] = 0.0f;
    d.v_axis[1] = -1.0f;
    d.v_axis[2] = 0.0f;
    cloth_t *c = NULL;
    CALL(cloth_create_grid(&d, &c));
    cloth_material cotton;
    cloth_material_init(&cotton, CLOTH_MATERIAL_COTTON);
    CALL(cloth_set_material(c, &cotton));
    cloth_collider_id id[SHAPES];
    for (int k = 0; k < SHAPES; ++k) {
        const part *b = &k_body[k];
        CALL(b->sphere ? cloth_add_sphere(c, b->a, b->ra, &id[k])
                       : cloth_add_tapered_capsule(c, b->a, b->b, b->ra, b->rb, &id[k]));
        CALL(cloth_set_collider_friction(c, id[k], 0.3f));
    }
    float *targets = malloc(3u * sizeof(float) * n), *reach = malloc(sizeof(float) * n);
    if (targets == NULL || reach == NULL) {
        return 1;
    }
    for (uint32_t i = 0; i < n; ++i) {
        rest(i, targets + 3u * i);
        reach[i] = 0.3f * (float)(i / g_rows) / (float)(g_rows - 1u);
    }
    CALL(cloth_set_skin_targets(c, targets, 0));
    CALL(cloth_set_max_distances(c, reach, 0));
    pose p = pose_at(0.0f);
    float q[4] = {0.0f, sinf(0.5f * p.turn), 0.0f, cosf(0.5f * p.turn)};
    CALL(cloth_teleport(c, p.at, q));
    CALL(cloth_set_inertia(c, inertia, inertia));

    double ms[99];
    double substeps = 0.0, passes = 0.0;
    float worst = 0.0f;
    uint32_t contacts = 0u, counted = 0u;
    uint32_t frame = 0u;
    for (uint32_t r = 0; r <= runs; ++r) {
        const uint32_t count = r == 0u ? 120u : frames; /* run 0 settles */
        const double t0 = now_seconds();
        for (uint32_t f = 0; f < count; ++f) {
            ++frame;
            p = pose_at((float)frame * DT);
            q[1] = sinf(0.5f * p.turn);
            q[3] = cosf(0.5f * p.turn);
            for (uint32_t i = 0; i < n; ++i) {
                rest(i, l);
                to_world(&p, l, targets + 3u * i);
            }
            CALL(cloth_set_skin_targets(c, targets, 0));
            CALL(cloth_set_frame(c, p.at, q));
            for (int k = 0; k < SHAPES; ++k) {
                float at[3];
                to_world(&p, k_body[k].a, at);
                CALL(cloth_set_collider_transform(c, id[k], at, q));
            }
            CALL(cloth_step(c, DT));
        }
        if (r > 0u) {
            ms[r - 1u] = (now_seconds() - t0) / (double)count * 1e3;
            cloth_stats st;
            cloth_stats_init(&st);
            CALL(cloth_get_stats(c, &st));
            substeps += st.substeps_used;
            passes += st.limit_passes_used;
            worst = st.step_max_strain > worst ? st.step_max_strain : worst;
            contacts += st.contacts;
            ++counted;
        }
    }
    qsort(ms, runs, sizeof ms[0], compare_doubles);
    printf("{\"bench\":\"character\",\"particles\":%u,\"shapes\":%d,\"inertia\":%.2f,\"runs\":%u,\"frames\":%u,"
           "\"ms_per_frame\":%.4f,\"best_ms_per_frame\":%.4f,\"substeps\":%.2f,\"limit_passes\":%.2f,"
           "\"max_strain\":%.4f,\"contacts\":%.1f}\n",
           n, SHAPES, (double)inertia, runs, frames, ms[runs / 2u], ms[0], substeps / counted, passes / counted,
           (double)worst, (double)contacts / counted);
    free(targets);
    free(reach);
    cloth_destroy(c);
    return 0;
}
