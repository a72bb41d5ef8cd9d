/*
 * drape-N, the scene every performance figure of clothsim is measured on:
 * an N x N cloth, 2 m square, horizontal at y = 0 and centred on the origin,
 * its two corners at z = -1 pinned, over a static sphere of radius 0.6 m at
 * (0, -1.1, 0); gravity 9.81, dt = 1/60, 600 frames.
 *
 * Quality is checked at the end of every run and a configuration that fails
 * it gets no time: no non-finite value; over structural and shear links mean
 * length / rest <= 1.03 and max <= 1.10; no particle inside the sphere; the
 * cloth resting on it (its closest particle within 5 mm of the surface).
 *
 * Prints one JSON object per line per configuration. Not a test: timings
 * depend on the machine.
 *
 * Usage: drape [--sizes 32,64,128] [--frames 600] [--runs 3]
 *              [--integrators euler,trapezoid,verlet,pbd,...] [--threads 1,2]
 *              [--substeps S] [--iterations I] [--tethers SCALE]
 *              [--tether-schedule every|last]
 *              [--stiffness K] [--bend-stiffness K]
 *              [--strain-limit MAX_STRAIN --limit-passes P [--level-sweeps L]]
 *
 * Defaults are the library's (16 substeps, 8 iterations, springs of 50, 20
 * and 5 N, no tethers, no strain limit, coarse levels in every limit pass);
 * --stiffness sets the structural and shear springs, --level-sweeps how many
 * of the limit passes start with the coarse levels.
 *
 * Besides the end state, every run checks the max stretch after each step of
 * its last second, with the clocks stopped: a strain limit (or luck) that
 * held only at the last frame does not pass.
 */
#define _POSIX_C_SOURCE 199309L
#include "drape_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the whole process (all its threads): on a shared machine the
 * single-thread figure that other processes disturb least. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct named_integrator {
    const char *name;
    cloth_integrator kind;
} named_integrator;

static const named_integrator k_integrators[] = {
    {"euler", CLOTH_INTEGRATOR_EXPLICIT_EULER}, {"trapezoid", CLOTH_INTEGRATOR_TRAPEZOID},
    {"verlet", CLOTH_INTEGRATOR_VERLET},        {"pbd", CLOTH_INTEGRATOR_PBD},
    {"semirigid", CLOTH_INTEGRATOR_SEMIRIGID},  {"relaxation", CLOTH_INTEGRATOR_RELAXATION},
    {"xpbd", (cloth_integrator)6},              {"implicit", (cloth_integrator)7},
};
enum { INTEGRATOR_COUNT = sizeof k_integrators / sizeof k_integrators[0] };

/* Whether `name` is one of the comma-separated words of `list`. */
static int in_list(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += len) {
        int starts = p == list || p[-1] == ',';
        int ends = p[len] == '\0' || p[len] == ',';
        if (starts && ends) {
            return 1;
        }
    }
    return 0;
}

static int parse_list(const char *text, uint32_t *out, int max)
{
    int n = 0;
    while (*text && n < max) {
        out[n++] = (uint32_t)strtoul(text, (char **)&text, 10);
        if (*text == ',') {
            ++text;
        }
    }
    return n;
}

static void run_config(const named_integrator *integ, uint32_t n, uint32_t frames, uint32_t runs,
                       drape_config config)
{
    config.kind = integ->kind;
    const uint32_t substeps = config.substeps;
    double times[16], cpu_times[16];
    drape_quality q = {0};
    uint32_t done = 0;
    for (uint32_t r = 0; r < runs && r < 16u; ++r) {
        drape_scene scene;
        cloth_status s = drape_scene_create(&scene, n, &config);
        if (s != CLOTH_OK) {
            printf("{\"scene\":\"drape\",\"n\":%u,\"integrator\":\"%s\",\"error\":\"%s\"}\n", n, integ->name,
                   cloth_status_string(s));
            return;
        }
        const uint32_t tail = frames < 60u ? frames : 60u; /* the last second */
        double wall = 0.0, cpu = 0.0, tail_worst = 0.0;
        double t0 = now_seconds(), c0 = cpu_seconds();
        for (uint32_t f = 0; f < frames && s == CLOTH_OK; ++f) {
            s = cloth_step(scene.cloth, DRAPE_DT);
            if (f + tail >= frames) {
                wall += now_seconds() - t0;
                cpu += cpu_seconds() - c0;
                drape_quality step_q;
                drape_scene_quality(&scene, s, &step_q);
                tail_worst = fmax(tail_worst, step_q.max_stretch);
                t0 = now_seconds();
                c0 = cpu_seconds();
            }
        }
        cpu_times[done] = cpu + cpu_seconds() - c0;
        times[done++] = wall + now_seconds() - t0;
        drape_scene_quality(&scene, s, &q);
        q.max_stretch_last_s = tail_worst;
        if (q.ok && tail_worst > 1.10) {
            q.ok = false;
            q.why = "max stretch > 1.10 in the last second";
        }
        drape_scene_destroy(&scene);
        if (!q.ok) {
            break; /* a failing configuration gets no time */
        }
    }
    qsort(times, done, sizeof times[0], compare_doubles);
    qsort(cpu_times, done, sizeof cpu_times[0], compare_doubles);
    const double ms = 1e3 * times[done / 2u] / (double)frames;
    const double cpu_ms = 1e3 * cpu_times[done / 2u] / (double)frames;
    const uint32_t used_substeps = substeps ? substeps : 16u;
    const uint32_t used_iterations = config.iterations ? config.iterations : 8u;
    const double particle_substeps = q.ok ? (double)n * n * used_substeps * frames / times[done / 2u] : 0.0;
    /* the limit passes that start with the coarse levels */
    const bool some = config.level_sweeps > 0u && config.level_sweeps < config.limit_passes;
    const uint32_t sweeps = some ? config.level_sweeps : config.limit_passes;
    printf("{\"scene\":\"drape\",\"n\":%u,\"integrator\":\"%s\",\"threads\":%u,\"substeps\":%u,"
           "\"iterations\":%u,\"tethers\":%g,\"tether_schedule\":\"%s\",\"strain_limit\":%g,"
           "\"limit_passes\":%u,\"level_sweeps\":%u,\"stiffness\":%g,"
           "\"frames\":%u,\"runs\":%u,"
           "\"quality_ok\":%s,\"ms_per_frame\":%.4f,\"cpu_ms_per_frame\":%.4f,"
           "\"particle_substeps_per_s\":%.4g,\"mean_stretch\":%.4f,\"max_stretch\":%.4f,"
           "\"max_stretch_last_s\":%.4f,"
           "\"max_penetration_m\":%.3g,\"closest_to_sphere_m\":%.4f,\"finite\":%s,"
           "\"bytes_per_particle\":%.1f,\"why\":\"%s\"}\n",
           n, integ->name, config.threads > 1u ? config.threads : 1u, used_substeps, used_iterations,
           (double)config.tethers, config.tethers_last ? "last" : "every", (double)config.max_strain,
           config.limit_passes, sweeps, (double)config.stiffness,
           frames, done, q.ok ? "true" : "false", q.ok ? ms : -1.0,
           q.ok ? cpu_ms : -1.0, particle_substeps, q.mean_stretch, q.max_stretch, q.max_stretch_last_s,
           q.max_penetration, q.closest,
           q.finite ? "true" : "false", q.bytes_per_particle, q.why);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    uint32_t sizes[16] = {32, 64, 128};
    int size_count = 3;
    uint32_t frames = DRAPE_FRAMES, runs = 3;
    drape_config config = {0};
    uint32_t threads[16] = {1};
    int thread_count = 1;
    const char *only = NULL;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (strcmp(argv[a], "--sizes") == 0) {
            size_count = parse_list(argv[a + 1], sizes, 16);
        } else if (strcmp(argv[a], "--frames") == 0) {
            frames = (uint32_t)strtoul(argv[a + 1], NULL, 10);
        } else if (strcmp(argv[a], "--runs") == 0) {
            runs = (uint32_t)strtoul(argv[a + 1], NULL, 10);
        } else if (strcmp(argv[a], "--integrators") == 0) {
            only = argv[a + 1];
        } else if (strcmp(argv[a], "--substeps") == 0) {
            config.substeps = (uint32_t)strtoul(argv[a + 1], NULL, 10);
        } else if (strcmp(argv[a], "--iterations") == 0) {
            config.iterations = (uint32_t)strtoul(argv[a + 1], NULL, 10);
        } else if (strcmp(argv[a], "--tethers") == 0) {
            config.tethers = strtof(argv[a + 1], NULL);
        } else if (strcmp(argv[a], "--tether-schedule") == 0) {
            if (strcmp(argv[a + 1], "last") != 0 && strcmp(argv[a + 1], "every") != 0) {
                fprintf(stderr, "--tether-schedule takes every or last\n");
                return 2;
            }
            config.tethers_last = strcmp(argv[a + 1], "last") == 0;
        } else if (strcmp(argv[a], "--stiffness") == 0) {
            config.stiffness = strtof(argv[a + 1], NULL);
        } else if (strcmp(argv[a], "--threads") == 0) {
            thread_count = parse_list(argv[a + 1], threads, 16);
        } else if (strcmp(argv[a], "--strain-limit") == 0) {
            config.max_strain = strtof(argv[a + 1], NULL);
        } else if (strcmp(argv[a], "--limit-passes") == 0) {
            config.limit_passes = (uint32_t)strtoul(argv[a + 1], NULL, 10);
        } else if (strcmp(argv[a], "--level-sweeps") == 0) {
            config.level_sweeps = (uint32_t)strtoul(argv[a + 1], NULL, 10);
        } else if (strcmp(argv[a], "--bend-stiffness") == 0) {
            config.bend_stiffness = strtof(argv[a + 1], NULL);
        } else {
            fprintf(stderr, "unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if (frames == 0 || runs == 0) {
        fprintf(stderr, "frames and runs must be positive\n");
        return 2;
    }
    for (int k = 0; k < size_count; ++k) {
        for (int i = 0; i < INTEGRATOR_COUNT; ++i) {
            if (only != NULL && !in_list(only, k_integrators[i].name)) {
                continue;
            }
            for (int t = 0; t < thread_count; ++t) {
                config.threads = threads[t];
                run_config(&k_integrators[i], sizes[k], frames, runs, config);
            }
        }
    }
    return 0;
}
