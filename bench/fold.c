/*
 * fold: issue 27's speed figure. An N x N cotton cloth, 1 m square, with
 * nothing tuned (the defaults and cloth_set_material), dropped nearly
 * upright onto a rough floor (friction 0.8) so that it crumples onto itself
 * in a heap; `frames` frames at 60 Hz from the drop. Each run steps the
 * whole drop twice, once without self-collision and once with a thickness
 * of `--ratio` times the spacing (default 1), interleaved.
 *
 * Usage: fold [--n 64] [--threads 1] [--ratio 1] [--frames 240] [--runs 3]
 *
 * Prints one JSON line: the median ms a frame over the whole drop (CPU
 * time on one thread, wall time on more) of each, their ratio, the mean substeps and limit passes a frame
 * of each, and at the end of the last run the closest two particles that
 * are not rest neighbours (more than two rows or columns apart), over the
 * thickness. Not a test.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include "bench_clock.h"

#include <clothsim/clothsim.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT (1.0f / 60.0f)

#define CALL(call)                                                              \
    do {                                                                        \
        const cloth_status s_ = (call);                                         \
        if (s_ != CLOTH_OK) {                                                   \
            fprintf(stderr, "fold: %s: %s\n", #call, cloth_status_string(s_));  \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

typedef struct drop {
    double ms, substeps, passes;
} drop;

static cloth_t *make(uint32_t n, uint32_t threads, float thickness)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = d.cols = n;
    d.spacing = 1.0f / (float)(n - 1u);
    /* tilted 78 degrees about x, its low edge 5 cm above the floor */
    d.origin[0] = -0.5f;
    d.origin[1] = 0.05f;
    d.origin[2] = 0.0f;
    d.u_axis[0] = 1.0f, d.u_axis[1] = 0.0f, d.u_axis[2] = 0.0f;
    d.v_axis[0] = 0.0f, d.v_axis[1] = 0.9797959f, d.v_axis[2] = 0.2f;
    cloth_t *c = NULL;
    CALL(cloth_create_grid(&d, &c));
    cloth_material cotton;
    cloth_material_init(&cotton, CLOTH_MATERIAL_COTTON);
    CALL(cloth_set_material(c, &cotton));
    CALL(cloth_set_threads(c, threads));
    const float at[3] = {0, 0, 0}, up[3] = {0, 1, 0};
    cloth_collider_id floor_id;
    CALL(cloth_add_plane(c, at, up, &floor_id));
    CALL(cloth_set_collider_friction(c, floor_id, 0.8f));
    CALL(cloth_set_self_collision(c, thickness));
    return c;
}

/* CPU time on one thread (least disturbed by other processes), wall time
 * on more (the pool's waiting would count as CPU time). */
static double clock_for(uint32_t threads)
{
    return threads == 1u ? cpu_seconds() : now_seconds();
}

static drop run(cloth_t *c, uint32_t frames, uint32_t threads)
{
    drop r = {0.0, 0.0, 0.0};
    cloth_stats st;
    cloth_stats_init(&st);
    const double t0 = clock_for(threads);
    for (uint32_t f = 0; f < frames; ++f) {
        CALL(cloth_step(c, DT));
        CALL(cloth_get_stats(c, &st));
        r.substeps += st.substeps_used;
        r.passes += st.limit_passes_used;
    }
    r.ms = 1e3 * (clock_for(threads) - t0) / frames;
    r.substeps /= frames;
    r.passes /= frames;
    return r;
}

/* The closest two particles more than two rows or columns apart. */
static double closest(const cloth_t *c, uint32_t n)
{
    const uint32_t count = n * n;
    float *x = malloc(sizeof(float) * 3u * count);
    if (x == NULL || cloth_get_positions(c, x, 0) != CLOTH_OK) {
        free(x);
        return -1.0;
    }
    double best = HUGE_VAL;
    for (uint32_t i = 0; i < count; ++i) {
        for (uint32_t j = i + 1u; j < count; ++j) {
            const uint32_t ri = i / n, ci = i % n, rj = j / n, cj = j % n;
            if (rj - ri <= 2u && (ci > cj ? ci - cj : cj - ci) <= 2u) {
                continue;
            }
            const double dx = (double)x[3 * i] - (double)x[3 * j], dy = (double)x[3 * i + 1] - (double)x[3 * j + 1],
                         dz = (double)x[3 * i + 2] - (double)x[3 * j + 2];
            best = fmin(best, dx * dx + dy * dy + dz * dz);
        }
    }
    free(x);
    return sqrt(best);
}

static uint32_t option(int argc, char **argv, int *a)
{
    if (*a + 1 >= argc) {
        fprintf(stderr, "fold: %s needs a value\n", argv[*a]);
        exit(2);
    }
    ++*a;
    return (uint32_t)strtoul(argv[*a], NULL, 10);
}

static int by_ms(const void *a, const void *b)
{
    return compare_doubles(&((const drop *)a)->ms, &((const drop *)b)->ms);
}

int main(int argc, char **argv)
{
    uint32_t n = 64u, threads = 1u, frames = 240u, runs = 3u;
    float ratio = 1.0f;
    for (int a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--n") == 0) {
            n = option(argc, argv, &a);
        } else if (strcmp(argv[a], "--threads") == 0) {
            threads = option(argc, argv, &a);
        } else if (strcmp(argv[a], "--frames") == 0) {
            frames = option(argc, argv, &a);
        } else if (strcmp(argv[a], "--runs") == 0) {
            runs = option(argc, argv, &a);
        } else if (strcmp(argv[a], "--ratio") == 0 && a + 1 < argc) {
            ratio = strtof(argv[++a], NULL);
        } else {
            fprintf(stderr, "fold: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if (n < 8u || n > 512u || threads < 1u || frames < 1u || runs < 1u || runs > 99u || !(ratio > 0.0f) ||
        ratio > 4.0f) {
        fprintf(stderr, "fold: n 8 to 512, threads and frames at least 1, runs 1 to 99, ratio in (0, 4]\n");
        return 2;
    }
    const float thickness = ratio / (float)(n - 1u);
    drop off[99], on[99];
    double gap = 0.0;
    for (uint32_t r = 0; r < runs; ++r) {
        cloth_t *c = make(n, threads, 0.0f);
        off[r] = run(c, frames, threads);
        cloth_destroy(c);
        c = make(n, threads, thickness);
        on[r] = run(c, frames, threads);
        if (r + 1u == runs) {
            gap = closest(c, n) / (double)thickness;
        }
        cloth_destroy(c);
    }
    qsort(off, runs, sizeof off[0], by_ms);
    qsort(on, runs, sizeof on[0], by_ms);
    const drop a = off[runs / 2u], b = on[runs / 2u];
    printf("{\"bench\":\"fold\",\"n\":%u,\"threads\":%u,\"frames\":%u,\"thickness_m\":%.5f,"
           "\"ms_without\":%.3f,\"ms_with\":%.3f,\"ratio\":%.2f,\"substeps_without\":%.2f,\"passes_without\":%.2f,"
           "\"substeps_with\":%.2f,\"passes_with\":%.2f,\"closest_over_thickness\":%.3f}\n",
           n, threads, frames, (double)thickness, a.ms, b.ms, b.ms / a.ms, a.substeps, a.passes, b.substeps,
           b.passes, gap);
    return 0;
}
