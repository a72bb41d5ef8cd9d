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
 *        drape --defaults [--sizes ...] [--frames ...] [--runs ...] [--threads ...]
 *        either with --grid (the default), or --mesh: the same cloth built by cloth_create_mesh() from
 *        the grid's positions and triangles; or --delaunay: an irregular
 *        mesh of as many vertices (drape_scene.h). A mesh's stretch is
 *        measured over its own edges
 *
 * An option left out keeps the library's default (a new cloth's: XPBD with
 * automatic substeps and iterations, tethers at 1.03 in the last substep,
 * the automatic strain limit at 0.09, springs of 50, 20 and 5 N, coarse
 * levels in every limit pass; clothsim.h); --stiffness sets the structural
 * and shear springs, --level-sweeps how many of the limit passes start with
 * the coarse levels. --defaults sets nothing but the scene (the integrator
 * is not set either) and the threads: the cloth as a new user gets it.
 *
 * Each line reports what the steps chose: the mean substeps, iterations and
 * limit passes a frame, and the most substeps of one frame (with the
 * automatic settings these change from frame to frame).
 *
 * Besides the end state, every run checks the max stretch after each step of
 * its last second, with the clocks stopped: a strain limit (or luck) that
 * held only at the last frame does not pass.
 */
#define _POSIX_C_SOURCE 199309L
#include "bench_clock.h"
#include "drape_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    double times[16], cpu_times[16];
    double sum_substeps = 0.0, sum_passes = 0.0, sum_iterations = 0.0; /* of the last run, per frame */
    uint32_t most_substeps = 0u;
    drape_quality q = {0};
    uint32_t done = 0;
    for (uint32_t r = 0; r < runs && r < 16u; ++r) {
        drape_scene scene;
        cloth_status s = drape_scene_create(&scene, n, &config);
        if (s != CLOTH_OK) {
            printf("{\"scene\":\"%s\",\"n\":%u,\"integrator\":\"%s\",\"error\":\"%s\"}\n",
                   drape_scene_name(&config), n,
                   config.defaults ? "defaults" : integ->name, cloth_status_string(s));
            return;
        }
        if (config.defaults && r == 0u) {
            /* report what the library chose, not the unused fields */
            cloth_tether_schedule schedule = CLOTH_TETHERS_EVERY_SUBSTEP;
            (void)cloth_get_tethers(scene.cloth, &config.tethers);
            (void)cloth_get_tether_schedule(scene.cloth, &schedule);
            config.tethers_last = schedule == CLOTH_TETHERS_LAST_SUBSTEP;
            (void)cloth_get_strain_limit(scene.cloth, &config.max_strain, &config.limit_passes);
        }
        const uint32_t tail = frames < 60u ? frames : 60u; /* the last second */
        double wall = 0.0, cpu = 0.0, tail_worst = 0.0;
        sum_substeps = sum_passes = sum_iterations = 0.0;
        most_substeps = 0u;
        double t0 = now_seconds(), c0 = cpu_seconds();
        for (uint32_t f = 0; f < frames && s == CLOTH_OK; ++f) {
            s = cloth_step(scene.cloth, DRAPE_DT);
            /* what the step chose (the automatic settings' choices), with the clocks stopped */
            wall += now_seconds() - t0;
            cpu += cpu_seconds() - c0;
            cloth_stats st;
            cloth_stats_init(&st);
            if (cloth_get_stats(scene.cloth, &st) == CLOTH_OK) {
                sum_substeps += (double)st.substeps_used;
                sum_passes += (double)st.limit_passes_used;
                sum_iterations += (double)st.iterations_used;
                most_substeps = st.substeps_used > most_substeps ? st.substeps_used : most_substeps;
            }
            if (f + tail >= frames) {
                drape_quality step_q;
                drape_scene_quality(&scene, s, &step_q);
                tail_worst = fmax(tail_worst, step_q.max_stretch);
            }
            t0 = now_seconds();
            c0 = cpu_seconds();
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
    const double used_substeps = sum_substeps / (double)frames, used_iterations = sum_iterations / (double)frames;
    const double used_passes = sum_passes / (double)frames;
    const double particle_substeps = q.ok ? (double)n * n * sum_substeps / times[done / 2u] : 0.0;
    /* the limit passes that start with the coarse levels */
    const bool some = config.level_sweeps > 0u && config.level_sweeps < config.limit_passes;
    const uint32_t sweeps = some ? config.level_sweeps : config.limit_passes;
    printf("{\"scene\":\"%s\",\"n\":%u,\"integrator\":\"%s\",\"threads\":%u,\"substeps\":%.2f,"
           "\"substeps_max\":%u,\"iterations\":%.2f,\"limit_passes_used\":%.2f,"
           "\"tethers\":%g,\"tether_schedule\":\"%s\",\"strain_limit\":%g,"
           "\"limit_passes\":%u,\"level_sweeps\":%u,\"stiffness\":%g,"
           "\"frames\":%u,\"runs\":%u,"
           "\"quality_ok\":%s,\"ms_per_frame\":%.4f,\"cpu_ms_per_frame\":%.4f,"
           "\"particle_substeps_per_s\":%.4g,\"mean_stretch\":%.4f,\"max_stretch\":%.4f,"
           "\"max_stretch_last_s\":%.4f,"
           "\"max_penetration_m\":%.3g,\"closest_to_sphere_m\":%.4f,\"finite\":%s,"
           "\"bytes_per_particle\":%.1f,\"why\":\"%s\"}\n",
           drape_scene_name(&config), n, config.defaults ? "defaults" : integ->name, config.threads > 1u ? config.threads : 1u, used_substeps,
           most_substeps, used_iterations, used_passes, (double)config.tethers, config.tethers_last ? "last" : "every",
           (double)config.max_strain,
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
    for (int a = 1; a < argc; a += 2) {
        if (strcmp(argv[a], "--defaults") == 0 || strcmp(argv[a], "--grid") == 0 || strcmp(argv[a], "--mesh") == 0 ||
            strcmp(argv[a], "--delaunay") == 0) {
            config.defaults = config.defaults || strcmp(argv[a], "--defaults") == 0;
            config.mesh = strcmp(argv[a], "--grid") == 0       ? 0
                          : strcmp(argv[a], "--mesh") == 0     ? 1
                          : strcmp(argv[a], "--delaunay") == 0 ? 2
                                                               : config.mesh;
            --a; /* takes no value */
            continue;
        }
        if (a + 1 >= argc) {
            fprintf(stderr, "option %s needs a value\n", argv[a]);
            return 2;
        }
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
        if (config.defaults) {
            for (int t = 0; t < thread_count; ++t) {
                config.threads = threads[t];
                run_config(&k_integrators[6], sizes[k], frames, runs, config); /* the kind is not set */
            }
            continue;
        }
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
