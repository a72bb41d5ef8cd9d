/*
 * threads: one big cloth stepped on several threads, first on the library's
 * own pool, then on a host "job system" through the task hooks.
 *
 * A 192 x 192 XPBD cloth (37,000 particles) with tethers and a strain limit
 * falls over a sphere, the recommended fast setup of docs/integrators.md
 * (7 substeps of 1 sweep, tethers at 1.03 in the last substep only, springs
 * limited to 5 % over rest by 2 passes per frame: it meets the drape bench's
 * stretch bar at this size). The program
 * runs the same 2 seconds three ways (1 thread, the pool, the host's
 * workers), prints the time per frame of each and checks that all three end
 * in exactly the same state: the library promises the same bits at any
 * thread count.
 *
 * Usage: threads [threads]   (default 2)
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include <clothsim/clothsim.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SIDE 192u
#define FRAMES 60
#define MAX_WORKERS 16u

#define CHECK(call)                                                                  \
    do {                                                                             \
        cloth_status s_ = (call);                                                    \
        if (s_ != CLOTH_OK) {                                                        \
            fprintf(stderr, "%s failed: %s\n", #call, cloth_status_string(s_));      \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

/* ---- a minimal job system: one thread per range, joined in finish ----
 * (an engine would push the ranges to the workers it already has) */
typedef struct job {
    cloth_task_fn *task;
    void *context;
    uint32_t begin, end, worker;
    pthread_t thread;
} job;

typedef struct job_system {
    uint32_t workers;
    job jobs[MAX_WORKERS];
    uint32_t running;
} job_system;

static void *job_main(void *arg)
{
    job *j = arg;
    j->task(j->begin, j->end, j->worker, j->context);
    return NULL;
}

static void *enqueue(cloth_task_fn *task, uint32_t count, uint32_t min_range, void *task_context, void *user)
{
    job_system *sys = user;
    uint32_t ranges = count / min_range;
    ranges = ranges < 1u ? 1u : ranges > sys->workers ? sys->workers : ranges;
    sys->running = 0;
    for (uint32_t k = 0; k < ranges; ++k) {
        job *j = &sys->jobs[k];
        j->task = task;
        j->context = task_context;
        j->begin = (uint32_t)((uint64_t)count * k / ranges);
        j->end = (uint32_t)((uint64_t)count * (k + 1u) / ranges);
        j->worker = k;
        if (k == 0u || pthread_create(&j->thread, NULL, job_main, j) != 0) {
            continue; /* range 0, or one no thread could take: run in finish */
        }
        sys->running |= 1u << k;
    }
    return sys;
}

static void finish(void *handle, void *user)
{
    (void)user;
    job_system *sys = handle;
    for (uint32_t k = 0; k < sys->workers; ++k) {
        if (sys->running & (1u << k)) {
            pthread_join(sys->jobs[k].thread, NULL);
        } else if (sys->jobs[k].task != NULL) {
            job_main(&sys->jobs[k]);
        }
        sys->jobs[k].task = NULL;
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static cloth_t *make_cloth(void)
{
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = desc.cols = SIDE;
    desc.spacing = 2.0f / (float)(SIDE - 1u);
    desc.origin[0] = -1.0f;
    desc.origin[2] = -1.0f;
    desc.particle_mass = 0.8f / (float)(SIDE * SIDE);
    cloth_t *cloth = NULL;
    CHECK(cloth_create_grid(&desc, &cloth));
    CHECK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_XPBD));
    CHECK(cloth_set_substeps(cloth, 7u));
    CHECK(cloth_set_iterations(cloth, 1u));
    CHECK(cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 1e4f));
    CHECK(cloth_set_stiffness(cloth, CLOTH_SPRING_SHEAR, 1e4f));
    const float centre[3] = {0.0f, -1.1f, 0.0f};
    cloth_collider_id ball;
    CHECK(cloth_add_sphere(cloth, centre, 0.6f, &ball));
    CHECK(cloth_set_collider_friction(cloth, ball, 0.5f));
    CHECK(cloth_pin(cloth, 0u, NULL));
    CHECK(cloth_pin(cloth, SIDE - 1u, NULL));
    CHECK(cloth_set_tethers(cloth, 1.03f));
    CHECK(cloth_set_tether_schedule(cloth, CLOTH_TETHERS_LAST_SUBSTEP));
    CHECK(cloth_set_strain_limit(cloth, 0.05f, 2u));
    /* A sweep of the coarse levels in both passes, which is the default:
     * from about 192 x 192 up each pass wants its sweep. Smaller cloths can
     * spare some: 128 x 128 meets the drape bench's bar with 6 substeps and
     * 2 passes of which only the first sweeps, 64 x 64 with 3 and 2. */
    CHECK(cloth_set_strain_level_sweeps(cloth, 2u));
    return cloth;
}

/* Steps a fresh cloth FRAMES times; returns ms per frame and the state hash. */
static double run(uint32_t threads, job_system *host, uint64_t *hash)
{
    cloth_t *cloth = make_cloth();
    if (host != NULL) {
        CHECK(cloth_set_task_hooks(cloth, enqueue, finish, host->workers, host));
    } else {
        CHECK(cloth_set_threads(cloth, threads));
    }
    const double t0 = now();
    for (int f = 0; f < FRAMES; ++f) {
        CHECK(cloth_step(cloth, 1.0f / 60.0f));
    }
    const double ms = 1e3 * (now() - t0) / FRAMES;
    *hash = cloth_state_hash(cloth);
    cloth_destroy(cloth);
    return ms;
}

int main(int argc, char **argv)
{
    uint32_t threads = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 2u;
    if (threads < 1u || threads > MAX_WORKERS) {
        fprintf(stderr, "threads must be 1 to %u\n", MAX_WORKERS);
        return 2;
    }
    job_system host = {threads, {{0}}, 0u};
    uint64_t h1, hp, hh;
    const double one = run(1u, NULL, &h1);
    const double pool = run(threads, NULL, &hp);
    const double hooks = run(1u, &host, &hh);
    printf("%u x %u cloth, XPBD, %d frames of 1/60 s:\n", SIDE, SIDE, FRAMES);
    printf("  1 thread            %7.2f ms/frame  state %016llx\n", one, (unsigned long long)h1);
    printf("  pool, %2u threads    %7.2f ms/frame  state %016llx\n", threads, pool, (unsigned long long)hp);
    printf("  host hooks, %2u      %7.2f ms/frame  state %016llx\n", threads, hooks, (unsigned long long)hh);
    const int same = h1 == hp && h1 == hh;
    printf("%s\n", same ? "the same state on every run" : "STATES DIFFER");
    return same ? 0 : 1;
}
