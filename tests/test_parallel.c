/*
 * One cloth on several threads (threads.h): the promise is the same bits at
 * every thread count, on the built-in pool and on a host's task hooks, and
 * on every SIMD path of the XPBD grid kernel.
 *
 * A: XPBD grid cloths of awkward shapes (row counts that are not a multiple
 *    of the sweep's block, rows shorter than a vector, one wide stencil),
 *    big enough that the work is really split (a range holds at least 2048
 *    particles)
 *    with tethers, a strain limit, a moving sphere, a floor and wind, stepped on the pool at
 *    1, 2, 3 and 4 threads and on three kinds of host hooks: all positions
 *    and velocities and the state hash must match the one-thread run
 *    exactly.
 * B: the same scene with CLOTHSIM_SIMD forcing each kernel ("scalar",
 *    "sse2", "avx2", "avx512"; a level the CPU lacks is skipped, since it
 *    would fall back to one already run).
 * C: other integrators and a mesh: the tether and collider pass is split
 *    over threads for every integrator, and PBD's grid proposals and the
 *    grid spring forces by rows.
 * D: the API's refusals.
 * E: a mesh big enough that XPBD's colours are split over threads (a
 *    colour's batches go to two ranges from 4096 springs) and so are the
 *    strain limit's blocks, with two iterations (lambdas), the limit's
 *    coarse levels, tethers and the colliders: every thread count, every
 *    host hook and every SIMD path gives the one-thread scalar bits.
 *
 * scripts/test also runs this test under ThreadSanitizer.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "test_util.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define FRAMES 12

/* Under ThreadSanitizer (scripts/test's tsan stage) the runs that use one
 * thread at a time (the other vector levels, the hooks that run ranges on
 * the caller) are left out: they have no race to find, and the native
 * builds check their bits. What stays runs on 3 threads, and through the
 * host's pthreads hooks. */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#ifndef UNDER_TSAN
#define UNDER_TSAN 0
#endif

typedef struct shape {
    uint32_t rows, cols;
    uint32_t neighbours;
    uint32_t iterations;
} shape;

static const shape k_shapes[] = {
    {37, 29, 12u, 2u},   /* too small to split: the pool must not change it either */
    {100, 90, 12u, 1u},  /* sweep ranges and per-particle items split */
    {200, 37, 12u, 2u},  /* rows not a multiple of the block; lambdas */
    {1400, 7, 24u, 3u},  /* rows shorter than a vector; the wide stencil */
    {50, 3, 12u, 2u},    /* one (0, 2) spring per row, and one of each (0, 1) colour */
    {40, 35, 12u, 2u},   /* a row's colours take two steps of 32 floats, the second a stub */
    /* the strain limit's finest level (66 x 131 nodes) splits its passes; the
     * collider pass (34 items) is cut fine enough for the pool's threads to
     * take each other's pieces */
    {130, 260, 12u, 1u},
};
enum { SHAPES = sizeof k_shapes / sizeof k_shapes[0] };

/* ----- host task hooks ----- */

typedef enum hook_kind {
    HOOK_INLINE_REVERSE, /* runs the ranges on the caller, last range first, returns NULL */
    HOOK_DEFERRED,       /* runs nothing in enqueue; finish runs single items in a scrambled order */
    HOOK_PTHREADS        /* one pthread per range, joined in finish */
} hook_kind;

#define HOOK_WORKERS 3u

typedef struct hook_job {
    cloth_task_fn *task;
    void *context;
    uint32_t count, min_range;
    pthread_t threads[HOOK_WORKERS];
    uint32_t begin[HOOK_WORKERS], end[HOOK_WORKERS];
    uint32_t started;
} hook_job;

typedef struct hook_host {
    hook_kind kind;
    hook_job job; /* the library finishes each task before the next */
    uint32_t enqueues, finishes;
} hook_host;

typedef struct range_arg {
    hook_job *job;
    uint32_t k;
} range_arg;

static range_arg g_args[HOOK_WORKERS];

static void *run_range(void *p)
{
    const range_arg *a = p;
    a->job->task(a->job->begin[a->k], a->job->end[a->k], a->k, a->job->context);
    return NULL;
}

static void *hook_enqueue(cloth_task_fn *task, uint32_t count, uint32_t min_range, void *task_context, void *user)
{
    hook_host *host = user;
    hook_job *job = &host->job;
    ++host->enqueues;
    job->task = task;
    job->context = task_context;
    job->count = count;
    job->min_range = min_range;
    job->started = 0;
    const uint32_t ranges = count / min_range < HOOK_WORKERS ? (count / min_range ? count / min_range : 1u)
                                                             : HOOK_WORKERS;
    for (uint32_t k = 0; k < ranges; ++k) {
        job->begin[k] = count * k / ranges;
        job->end[k] = count * (k + 1u) / ranges;
    }
    switch (host->kind) {
    case HOOK_INLINE_REVERSE:
        for (uint32_t k = ranges; k-- > 0u;) {
            task(job->begin[k], job->end[k], k, task_context);
        }
        return NULL;
    case HOOK_DEFERRED:
        return job;
    case HOOK_PTHREADS:
        for (uint32_t k = 0; k < ranges; ++k) {
            g_args[k].job = job;
            g_args[k].k = k;
            if (pthread_create(&job->threads[k], NULL, run_range, &g_args[k]) != 0) {
                run_range(&g_args[k]); /* no thread: run it here */
                continue;
            }
            job->started |= 1u << k;
        }
        return job;
    }
    return NULL;
}

static void hook_finish(void *handle, void *user)
{
    hook_host *host = user;
    hook_job *job = handle;
    ++host->finishes;
    if (host->kind == HOOK_DEFERRED) {
        /* every item on its own, odd ones backwards then even ones forwards */
        for (uint32_t i = job->count; i-- > 0u;) {
            if (i & 1u) {
                job->task(i, i + 1u, 1u, job->context);
            }
        }
        for (uint32_t i = 0; i < job->count; i += 2u) {
            job->task(i, i + 1u, 0u, job->context);
        }
        return;
    }
    for (uint32_t k = 0; k < HOOK_WORKERS; ++k) {
        if (job->started & (1u << k)) {
            pthread_join(job->threads[k], NULL);
        }
    }
}

/* ----- the scene ----- */

typedef struct run {
    uint32_t count;
    uint64_t hash;
    float *x, *v;
    cloth_status status;
} run;

static void gust(void *user, float time, uint32_t count, const float *positions, float *out)
{
    (void)user;
    for (uint32_t i = 0; i < count; ++i) {
        out[3u * i] = 2.0f + 0.5f * sinf(3.0f * time + positions[3u * i + 1u]);
        out[3u * i + 1u] = 0.0f;
        out[3u * i + 2u] = 1.0f;
    }
}

/* How a run spreads its work: pool threads (hooks NULL) or a host. */
typedef struct spread {
    uint32_t threads;
    hook_host *host;
} spread;

static cloth_t *make_grid(const shape *sh, cloth_integrator kind)
{
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = sh->rows;
    desc.cols = sh->cols;
    desc.spacing = 0.03f;
    desc.neighbours = sh->neighbours;
    cloth_t *cloth = NULL;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth == NULL) {
        return NULL;
    }
    CHECK_OK(cloth_set_integrator(cloth, kind));
    CHECK_OK(cloth_set_iterations(cloth, sh->iterations));
    CHECK_OK(cloth_set_substeps(cloth, 8u));
    if (kind == CLOTH_INTEGRATOR_XPBD) {
        /* stiff, as the fast setup runs it; the explicit methods keep the
         * default 50 N they are stable with at 8 substeps */
        CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 2000.0f));
    }
    CHECK_OK(cloth_pin(cloth, 0u, NULL));
    CHECK_OK(cloth_pin(cloth, sh->cols - 1u, NULL));
    return cloth;
}

static void run_scene(cloth_t *cloth, const spread *how, run *out)
{
    out->status = CLOTH_OK;
    out->count = cloth_particle_count(cloth);
    if (how->host != NULL) {
        CHECK_OK(cloth_set_task_hooks(cloth, hook_enqueue, hook_finish, HOOK_WORKERS, how->host));
    } else {
        CHECK_OK(cloth_set_threads(cloth, how->threads));
    }
    CHECK_OK(cloth_set_tethers(cloth, 1.02f));
    /* tight, so that the passes shorten springs on every path, tails included */
    CHECK_OK(cloth_set_strain_limit(cloth, 0.005f, 2u));
    const float centre[3] = {0.4f, -0.3f, 0.5f}, floor_point[3] = {0.0f, -0.9f, 0.0f}, up[3] = {0.0f, 1.0f, 0.0f};
    cloth_collider_id ball, floor_id;
    CHECK_OK(cloth_add_sphere(cloth, centre, 0.25f, &ball));
    CHECK_OK(cloth_set_collider_friction(cloth, ball, 0.4f));
    CHECK_OK(cloth_add_plane(cloth, floor_point, up, &floor_id));
    CHECK_OK(cloth_set_wind(cloth, gust, NULL));
    for (int f = 0; f < FRAMES && out->status == CLOTH_OK; ++f) {
        const float at[3] = {0.4f - 0.01f * (float)f, -0.3f, 0.5f};
        CHECK_OK(cloth_set_collider_transform(cloth, ball, at, NULL));
        out->status = cloth_step(cloth, 1.0f / 60.0f);
    }
    CHECK_OK(out->status);
    out->x = malloc(sizeof(float) * 3u * out->count);
    out->v = malloc(sizeof(float) * 3u * out->count);
    CHECK(out->x != NULL && out->v != NULL);
    if (out->x != NULL && out->v != NULL) {
        CHECK_OK(cloth_get_positions(cloth, out->x, 0));
        CHECK_OK(cloth_get_velocities(cloth, out->v, 0));
    }
    out->hash = cloth_state_hash(cloth);
}

static void free_run(run *r)
{
    free(r->x);
    free(r->v);
    r->x = r->v = NULL;
}

static bool same_bits(const run *a, const run *b)
{
    if (a->count != b->count || a->hash != b->hash || a->x == NULL || b->x == NULL) {
        return false;
    }
    const size_t bytes = sizeof(float) * 3u * a->count;
    return memcmp(a->x, b->x, bytes) == 0 && memcmp(a->v, b->v, bytes) == 0;
}

/* Worst |a - b| over positions, to say how far apart a mismatch is. */
static double worst_gap(const run *a, const run *b)
{
    double worst = 0.0;
    for (uint32_t i = 0; a->x != NULL && b->x != NULL && i < 3u * a->count; ++i) {
        const double d = fabs((double)a->x[i] - (double)b->x[i]);
        worst = d > worst ? d : worst;
    }
    return worst;
}

static void run_grid(const shape *sh, cloth_integrator kind, const spread *how, run *out)
{
    memset(out, 0, sizeof *out);
    cloth_t *cloth = make_grid(sh, kind);
    if (cloth != NULL) {
        run_scene(cloth, how, out);
        cloth_destroy(cloth);
    }
}

/* A scene run with its work spread `how`, into *out. */
typedef void scene_fn(const void *arg, const spread *how, run *out);

/* The scene on the pool at 2, 3 and 4 threads and on the three host hooks
 * (under ThreadSanitizer: 3 threads and the pthreads hooks) against `base`:
 * every run must give its bits. `tasks` says the scene is big enough that
 * the hooks must be called. */
static void compare_spreads(const char *label, scene_fn *scene, const void *arg, const run *base, bool tasks)
{
    static const uint32_t threads[] = {2u, 3u, 4u};
    static const char *hook_names[] = {"inline, reversed", "deferred, item by item", "pthreads"};
    for (size_t t = UNDER_TSAN ? 1u : 0u; t < (UNDER_TSAN ? 2u : sizeof threads / sizeof threads[0]); ++t) {
        const spread how = {threads[t], NULL};
        run r;
        scene(arg, &how, &r);
        const bool same = same_bits(base, &r);
        printf("%s: pool of %u threads %s the base run's bits (worst gap %.3g m)\n", label, threads[t],
               same ? "gives" : "DIFFERS FROM", worst_gap(base, &r));
        CHECK(same);
        free_run(&r);
    }
    for (int k = UNDER_TSAN ? HOOK_PTHREADS : 0; k < 3; ++k) {
        hook_host host;
        memset(&host, 0, sizeof host);
        host.kind = (hook_kind)k;
        const spread how = {1u, &host};
        run r;
        scene(arg, &how, &r);
        const bool same = same_bits(base, &r);
        printf("%s: host hooks (%s): %u tasks, %s\n", label, hook_names[k], host.enqueues,
               same ? "same bits" : "DIFFERENT");
        CHECK(same);
        /* a cloth of one block per colour and one item per pass has
         * nothing to split, and the hooks are then never called */
        CHECK(host.enqueues > 0u || !tasks);
        /* finish is called exactly for the tasks enqueue returned a handle for */
        CHECK(host.finishes == (k == HOOK_INLINE_REVERSE ? 0u : host.enqueues));
        free_run(&r);
    }
}

static void grid_scene(const void *arg, const spread *how, run *out)
{
    run_grid(arg, CLOTH_INTEGRATOR_XPBD, how, out);
}

static void test_threads_and_hooks(void)
{
    for (int s = 0; s < SHAPES; ++s) {
        const shape *sh = &k_shapes[s];
        const spread one = {1u, NULL};
        run base;
        run_grid(sh, CLOTH_INTEGRATOR_XPBD, &one, &base);
        char label[96];
        snprintf(label, sizeof label, "A %ux%u, %u neighbours, %u iteration(s)", sh->rows, sh->cols, sh->neighbours,
                 sh->iterations);
        compare_spreads(label, grid_scene, sh, &base, sh->rows * sh->cols >= 4096u);
        free_run(&base);
    }
}

/* Whether this CPU runs vector level `level`: a level it lacks falls back
 * to the best it has, which another pass of the loop below already runs. */
static bool cpu_runs(cloth_simd_level level)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = d.cols = 2u;
    cloth_t *c = NULL;
    if (cloth_create_grid(&d, &c) != CLOTH_OK) {
        return false;
    }
    const bool ok = cloth_set_simd_level(c, level) == CLOTH_OK;
    cloth_destroy(c);
    return ok;
}

/* CLOTHSIM_SIMD back to what it was (NULL: unset). */
static void restore_simd(const char *was)
{
    if (was != NULL) {
        setenv("CLOTHSIM_SIMD", was, 1);
    } else {
        unsetenv("CLOTHSIM_SIMD");
    }
}

static void test_simd_paths(void)
{
    static const char *levels[] = {"scalar", "sse2", "avx2", "avx512"};
    static const cloth_simd_level kinds[] = {CLOTH_SIMD_LEVEL_SCALAR, CLOTH_SIMD_LEVEL_LANES4, CLOTH_SIMD_LEVEL_AVX2,
                                             CLOTH_SIMD_LEVEL_AVX512};
    const char *was = getenv("CLOTHSIM_SIMD");
    for (int s = 0; s < SHAPES; ++s) {
        const spread one = {1u, NULL};
        run base, r;
        setenv("CLOTHSIM_SIMD", levels[0], 1);
        run_grid(&k_shapes[s], CLOTH_INTEGRATOR_XPBD, &one, &base);
        for (int l = 1; l < 4; ++l) {
            if (!cpu_runs(kinds[l])) {
                printf("B %ux%u: CLOTHSIM_SIMD=%s skipped: this CPU lacks it\n", k_shapes[s].rows, k_shapes[s].cols,
                       levels[l]);
                continue;
            }
            setenv("CLOTHSIM_SIMD", levels[l], 1);
            run_grid(&k_shapes[s], CLOTH_INTEGRATOR_XPBD, &one, &r);
            const bool same = same_bits(&base, &r);
            printf("B %ux%u: CLOTHSIM_SIMD=%s %s scalar (worst gap %.3g m)\n", k_shapes[s].rows, k_shapes[s].cols,
                   levels[l], same ? "gives the same bits as" : "DIFFERS FROM", worst_gap(&base, &r));
            CHECK(same);
            free_run(&r);
        }
        free_run(&base);
    }
    restore_simd(was);
}

static void test_other_integrators(void)
{
    static const cloth_integrator kinds[] = {CLOTH_INTEGRATOR_VERLET, CLOTH_INTEGRATOR_PBD,
                                             CLOTH_INTEGRATOR_IMPLICIT_EULER};
    const shape sh = {24, 20, 12u, 4u};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
        const spread one = {1u, NULL}, three = {3u, NULL};
        run a, b;
        run_grid(&sh, kinds[k], &one, &a);
        run_grid(&sh, kinds[k], &three, &b);
        const bool same = same_bits(&a, &b);
        printf("C integrator %d: 3 threads %s\n", (int)kinds[k], same ? "same bits" : "DIFFERENT");
        CHECK(same);
        free_run(&a);
        free_run(&b);
    }
    /* PBD's grid proposals and the spring forces are gathered by rows, split
     * when a range holds 2048 particles (120 x 60 gives three ranges), and
     * implicit Euler's matrix products go by blocks of rows (two ranges) */
    static const cloth_integrator gathered[] = {CLOTH_INTEGRATOR_PBD, CLOTH_INTEGRATOR_IMPLICIT_EULER};
    for (size_t k = 0; k < sizeof gathered / sizeof gathered[0]; ++k) {
        const shape big = {120, 60, 12u, 3u};
        const spread one = {1u, NULL}, three = {3u, NULL};
        run a, b;
        run_grid(&big, gathered[k], &one, &a);
        run_grid(&big, gathered[k], &three, &b);
        const bool same = same_bits(&a, &b);
        printf("C integrator %d on 120x60 (rows split): 3 threads %s\n", (int)gathered[k],
               same ? "same bits" : "DIFFERENT");
        CHECK(same);
        free_run(&a);
        free_run(&b);
    }
    /* a mesh (two triangles per cell of a 20 x 20 grid) with XPBD */
    enum { M = 20 };
    static float pos[M * M * 3];
    static uint32_t tris[(M - 1) * (M - 1) * 6];
    run a, b;
    for (int pass = 0; pass < 2; ++pass) {
        cloth_t *cloth = NULL;
        CHECK_OK(test_flat_mesh_cloth(M, M, 0.03f, pos, tris, &cloth));
        if (cloth == NULL) {
            return;
        }
        CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_XPBD));
        CHECK_OK(cloth_pin(cloth, 0u, NULL));
        CHECK_OK(cloth_pin(cloth, M - 1u, NULL));
        const spread how = {pass == 0 ? 1u : 2u, NULL};
        run_scene(cloth, &how, pass == 0 ? &a : &b);
        cloth_destroy(cloth);
    }
    const bool same = same_bits(&a, &b);
    printf("C mesh, XPBD: 2 threads %s\n", same ? "same bits" : "DIFFERENT");
    CHECK(same);
    free_run(&a);
    free_run(&b);
}

static void test_refusals(void)
{
    const shape sh = {6, 6, 12u, 1u};
    cloth_t *cloth = make_grid(&sh, CLOTH_INTEGRATOR_XPBD);
    if (cloth == NULL) {
        return;
    }
    uint32_t n = 0;
    hook_host host;
    memset(&host, 0, sizeof host);
    CHECK_STATUS(cloth_set_threads(NULL, 2u), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_threads(cloth, 0u), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_threads(cloth, CLOTH_MAX_THREADS + 1u), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_threads(cloth, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_threads(NULL, &n), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_get_threads(cloth, &n));
    CHECK(n == 1u);
    CHECK_OK(cloth_set_threads(cloth, 4u));
    CHECK_OK(cloth_get_threads(cloth, &n));
    CHECK(n == 4u);
    CHECK_OK(cloth_set_threads(cloth, 2u)); /* a pool replaced by a smaller one */
    CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    CHECK_OK(cloth_set_threads(cloth, 1u));
    CHECK_OK(cloth_get_threads(cloth, &n));
    CHECK(n == 1u);
    CHECK_STATUS(cloth_set_task_hooks(NULL, hook_enqueue, hook_finish, 2u, &host), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_task_hooks(cloth, hook_enqueue, NULL, 2u, &host), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_task_hooks(cloth, NULL, hook_finish, 2u, &host), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_task_hooks(cloth, hook_enqueue, hook_finish, 0u, &host), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_task_hooks(cloth, hook_enqueue, hook_finish, CLOTH_MAX_THREADS + 1u, &host),
                 CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_set_task_hooks(cloth, hook_enqueue, hook_finish, 2u, &host));
    CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    CHECK(host.enqueues == 0u); /* a 36-particle cloth is one item per pass: nothing to split */
    CHECK_OK(cloth_set_task_hooks(cloth, NULL, NULL, 0u, NULL));
    CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    cloth_destroy(cloth);
    /* a pool left running is stopped by cloth_destroy (LeakSanitizer, TSan) */
    cloth = make_grid(&sh, CLOTH_INTEGRATOR_XPBD);
    if (cloth != NULL) {
        CHECK_OK(cloth_set_threads(cloth, 3u));
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
        cloth_destroy(cloth);
    }
}

/* E: a 104 x 104 mesh (some 64,000 springs in about 14 colours: most
 * colours hold more than the 4096 springs that make two ranges). */
static void run_big_mesh(const spread *how, run *out)
{
    enum { M = 104 };
    static float pos[M * M * 3];
    static uint32_t tris[(M - 1) * (M - 1) * 6];
    memset(out, 0, sizeof *out);
    cloth_t *cloth = NULL;
    CHECK_OK(test_flat_mesh_cloth(M, M, 0.02f, pos, tris, &cloth));
    if (cloth == NULL) {
        return;
    }
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_XPBD));
    CHECK_OK(cloth_set_substeps(cloth, 2u));
    CHECK_OK(cloth_set_iterations(cloth, 2u));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 2000.0f));
    CHECK_OK(cloth_pin(cloth, 0u, NULL));
    CHECK_OK(cloth_pin(cloth, M - 1u, NULL));
    run_scene(cloth, how, out);
    cloth_destroy(cloth);
}

static void mesh_scene(const void *arg, const spread *how, run *out)
{
    (void)arg;
    run_big_mesh(how, out);
}

static void test_big_mesh(void)
{
    const char *was = getenv("CLOTHSIM_SIMD");
    const spread one = {1u, NULL};
    run base;
    if (!UNDER_TSAN) {
        setenv("CLOTHSIM_SIMD", "scalar", 1);
    }
    run_big_mesh(&one, &base);
    restore_simd(was);
    compare_spreads("E mesh 104x104, against the scalar single thread", mesh_scene, NULL, &base, true);
    if (!UNDER_TSAN) {
        static const char *levels[] = {"sse2", "avx2", "avx512"};
        static const cloth_simd_level kinds[] = {CLOTH_SIMD_LEVEL_LANES4, CLOTH_SIMD_LEVEL_AVX2,
                                                 CLOTH_SIMD_LEVEL_AVX512};
        for (int l = 0; l < 3; ++l) {
            if (!cpu_runs(kinds[l])) {
                printf("E mesh 104x104: CLOTHSIM_SIMD=%s skipped: this CPU lacks it\n", levels[l]);
                continue;
            }
            setenv("CLOTHSIM_SIMD", levels[l], 1);
            run r;
            run_big_mesh(&one, &r);
            const bool same = same_bits(&base, &r);
            printf("E mesh 104x104: CLOTHSIM_SIMD=%s %s scalar\n", levels[l],
                   same ? "gives the same bits as" : "DIFFERS FROM");
            CHECK(same);
            free_run(&r);
        }
        restore_simd(was);
    }
    free_run(&base);
}

int main(void)
{
    test_threads_and_hooks();
    if (!UNDER_TSAN) {
        test_simd_paths();
    }
    test_other_integrators();
    test_big_mesh();
    test_refusals();
    return test_finish("test_parallel");
}
