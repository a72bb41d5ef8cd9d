/*
 * cape: a worn cape against a body of colliders, the scene of issue 25's
 * "small cloths cheap" figures. A rows x rows cloth, 1 m square, 0.25 kg,
 * hanging in the plane z = -0.15 with its top row pinned; the fast setup
 * (XPBD 6 substeps x 1 iteration, tethers 1.03 in the last substep, the
 * strain limit 0.05 with 2 passes); and capsules (radius 0.06 m), spheres
 * (0.08 m), cylinders (0.06 m), ellipsoids (0.1 x 0.16 x 0.07 m, turned
 * 30 degrees) and tapered capsules (0.07 m to 0.04 m) placed along it so that each presses into the cape, friction
 * 0.3. dt = 1/60 s; 120 steps to settle, then `runs`
 * timed runs of `steps` steps.
 *
 * --defaults: nothing set but the pins and the body (a new cloth's XPBD,
 * automatic substeps and limit passes, tethers); the line then says what
 * the library chose.
 *
 * Usage: cape [--rows 24] [--capsules 0] [--spheres 0] [--cylinders 0]
 *             [--ellipsoids 0] [--tapered 0] [--defaults] [--runs 5]
 *             [--steps 600]
 *
 * Prints one JSON line: the median and best time a step (wall clock, one
 * thread), the contacts of the last substep, and over 60 more steps the
 * worst link the host read and the mean substeps and limit passes. Not a
 * test.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include "bench_clock.h"

#include <clothsim/clothsim.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cape_config {
    uint32_t rows, capsules, spheres, cylinders, ellipsoids, tapered, runs, steps;
    bool defaults; /* nothing set but the pins and the body */
} cape_config;

/* The colliders, k-th of each kind a little further along the cape. */
static cloth_status add_body(cloth_t *c, const cape_config *cf)
{
    cloth_status s = CLOTH_OK;
    cloth_collider_id id;
    for (uint32_t k = 0; k < cf->capsules && s == CLOTH_OK; ++k) {
        const float a[3] = {-0.4f + 0.05f * (float)k, 1.5f - 0.03f * (float)k, -0.10f};
        const float b[3] = {a[0] + 0.05f, a[1] - 0.4f, -0.09f};
        s = cloth_add_capsule(c, a, b, 0.06f, &id);
        if (s == CLOTH_OK) {
            s = cloth_set_collider_friction(c, id, 0.3f);
        }
    }
    for (uint32_t k = 0; k < cf->spheres && s == CLOTH_OK; ++k) {
        const float p[3] = {-0.35f + 0.05f * (float)k, 1.2f - 0.05f * (float)k, -0.05f};
        s = cloth_add_sphere(c, p, 0.08f, &id);
        if (s == CLOTH_OK) {
            s = cloth_set_collider_friction(c, id, 0.3f);
        }
    }
    for (uint32_t k = 0; k < cf->cylinders && s == CLOTH_OK; ++k) {
        const float a[3] = {-0.4f + 0.05f * (float)k, 1.5f - 0.03f * (float)k, -0.10f};
        const float b[3] = {a[0] + 0.05f, a[1] - 0.4f, -0.09f};
        s = cloth_add_cylinder(c, a, b, 0.06f, &id);
        if (s == CLOTH_OK) {
            s = cloth_set_collider_friction(c, id, 0.3f);
        }
    }
    for (uint32_t k = 0; k < cf->tapered && s == CLOTH_OK; ++k) {
        const float a[3] = {-0.4f + 0.05f * (float)k, 1.5f - 0.03f * (float)k, -0.10f};
        const float b[3] = {a[0] + 0.05f, a[1] - 0.4f, -0.09f};
        s = cloth_add_tapered_capsule(c, a, b, 0.07f, 0.04f, &id);
        if (s == CLOTH_OK) {
            s = cloth_set_collider_friction(c, id, 0.3f);
        }
    }
    for (uint32_t k = 0; k < cf->ellipsoids && s == CLOTH_OK; ++k) {
        const float p[3] = {-0.35f + 0.05f * (float)k, 1.3f - 0.04f * (float)k, -0.1f};
        const float radii[3] = {0.1f, 0.16f, 0.07f}, turn[4] = {0.0f, 0.0f, 0.2588f, 0.9659f};
        s = cloth_add_ellipsoid(c, p, radii, turn, &id);
        if (s == CLOTH_OK) {
            s = cloth_set_collider_friction(c, id, 0.3f);
        }
    }
    return s;
}

static cloth_status make_cape(const cape_config *cf, cloth_t **out)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = cf->rows;
    d.cols = cf->rows;
    d.spacing = 1.0f / (float)(cf->rows - 1u);
    d.origin[0] = -0.5f;
    d.origin[1] = 1.6f;
    d.origin[2] = -0.15f;
    d.u_axis[0] = 1.0f;
    d.u_axis[1] = 0.0f;
    d.u_axis[2] = 0.0f;
    d.v_axis[0] = 0.0f;
    d.v_axis[1] = -1.0f;
    d.v_axis[2] = 0.0f;
    d.particle_mass = 0.25f / (float)(cf->rows * cf->rows);
    cloth_t *c = NULL;
    cloth_status s = cloth_create_grid(&d, &c);
    if (s != CLOTH_OK) {
        return s;
    }
    for (uint32_t k = 0; k < cf->rows && s == CLOTH_OK; ++k) {
        s = cloth_pin(c, k, NULL);
    }
    if (!cf->defaults) {
        if (s == CLOTH_OK) {
            s = cloth_set_integrator(c, CLOTH_INTEGRATOR_XPBD);
        }
        if (s == CLOTH_OK) {
            s = cloth_set_substeps(c, 6u);
        }
        if (s == CLOTH_OK) {
            s = cloth_set_iterations(c, 1u);
        }
        if (s == CLOTH_OK) {
            s = cloth_set_tethers(c, 1.03f);
        }
        if (s == CLOTH_OK) {
            s = cloth_set_tether_schedule(c, CLOTH_TETHERS_LAST_SUBSTEP);
        }
        if (s == CLOTH_OK) {
            s = cloth_set_strain_limit(c, 0.05f, 2u);
        }
    }
    if (s == CLOTH_OK) {
        s = add_body(c, cf);
    }
    if (s != CLOTH_OK) {
        cloth_destroy(c);
        return s;
    }
    *out = c;
    return CLOTH_OK;
}

static uint32_t option(int argc, char **argv, int *a)
{
    if (*a + 1 >= argc) {
        fprintf(stderr, "cape: %s needs a value\n", argv[*a]);
        exit(2);
    }
    ++*a;
    return (uint32_t)strtoul(argv[*a], NULL, 10);
}

int main(int argc, char **argv)
{
    cape_config cf = {24u, 0u, 0u, 0u, 0u, 0u, 5u, 600u, false};
    for (int a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--rows") == 0) {
            cf.rows = option(argc, argv, &a);
        } else if (strcmp(argv[a], "--capsules") == 0) {
            cf.capsules = option(argc, argv, &a);
        } else if (strcmp(argv[a], "--spheres") == 0) {
            cf.spheres = option(argc, argv, &a);
        } else if (strcmp(argv[a], "--cylinders") == 0) {
            cf.cylinders = option(argc, argv, &a);
        } else if (strcmp(argv[a], "--tapered") == 0) {
            cf.tapered = option(argc, argv, &a);
        } else if (strcmp(argv[a], "--ellipsoids") == 0) {
            cf.ellipsoids = option(argc, argv, &a);
        } else if (strcmp(argv[a], "--defaults") == 0) {
            cf.defaults = true;
        } else if (strcmp(argv[a], "--runs") == 0) {
            cf.runs = option(argc, argv, &a);
        } else if (strcmp(argv[a], "--steps") == 0) {
            cf.steps = option(argc, argv, &a);
        } else {
            fprintf(stderr, "cape: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if (cf.rows < 2u || cf.rows > 1024u || cf.runs < 1u || cf.runs > 99u || cf.steps < 1u) {
        fprintf(stderr, "cape: rows 2 to 1024, runs 1 to 99, steps at least 1\n");
        return 2;
    }
    cloth_t *c = NULL;
    cloth_status s = make_cape(&cf, &c);
    if (s != CLOTH_OK) {
        fprintf(stderr, "cape: %s\n", cloth_status_string(s));
        return 1;
    }
    const float dt = 1.0f / 60.0f;
    for (int f = 0; f < 120 && s == CLOTH_OK; ++f) {
        s = cloth_step(c, dt);
    }
    double us[99];
    for (uint32_t r = 0; r < cf.runs && s == CLOTH_OK; ++r) {
        const double t0 = now_seconds();
        for (uint32_t f = 0; f < cf.steps && s == CLOTH_OK; ++f) {
            s = cloth_step(c, dt);
        }
        us[r] = (now_seconds() - t0) / (double)cf.steps * 1e6;
    }
    if (s != CLOTH_OK) {
        fprintf(stderr, "cape: a step returned %s\n", cloth_status_string(s));
        cloth_destroy(c);
        return 1;
    }
    /* after the timing, 60 more steps for what the cloth did: the worst
     * link the host read and the mean automatic choices */
    cloth_stats st;
    cloth_stats_init(&st);
    float worst = 0.0f;
    double substeps = 0.0, passes = 0.0;
    for (int f = 0; f < 60 && s == CLOTH_OK; ++f) {
        s = cloth_step(c, dt);
        (void)cloth_get_stats(c, &st);
        worst = st.step_max_strain > worst ? st.step_max_strain : worst;
        substeps += st.substeps_used / 60.0;
        passes += st.limit_passes_used / 60.0;
    }
    qsort(us, cf.runs, sizeof us[0], compare_doubles);
    printf("{\"bench\":\"cape\",\"setup\":\"%s\",\"rows\":%u,\"capsules\":%u,\"spheres\":%u,\"cylinders\":%u,"
           "\"ellipsoids\":%u,\"tapered\":%u,\"runs\":%u,\"steps\":%u,\"us_per_step\":%.2f,\"best_us_per_step\":%.2f,\"contacts\":%u,"
           "\"max_strain\":%.4f,\"substeps\":%.2f,\"limit_passes\":%.2f}\n",
           cf.defaults ? "defaults" : "fast", cf.rows, cf.capsules, cf.spheres, cf.cylinders, cf.ellipsoids, cf.tapered,
           cf.runs,
           cf.steps, us[cf.runs / 2u], us[0], st.contacts, (double)worst, substeps, passes);
    cloth_destroy(c);
    return 0;
}
