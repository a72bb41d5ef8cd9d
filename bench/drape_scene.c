/* The drape-N scene and its quality bar. */
#include "drape_scene.h"

#include <math.h>
#include <stdlib.h>

void drape_rest_position(uint32_t n, uint32_t r, uint32_t c, float out[3])
{
    const float step = DRAPE_SIZE / (float)(n - 1u);
    out[0] = -0.5f * DRAPE_SIZE + step * (float)c;
    out[1] = 0.0f;
    out[2] = -0.5f * DRAPE_SIZE + step * (float)r;
}

/* The configuration set before the scene: integrator, counts, springs. */
static cloth_status configure_solver(cloth_t *cloth, const drape_config *config)
{
    cloth_status s = cloth_set_integrator(cloth, config->kind);
    if (s == CLOTH_OK && config->substeps != 0u) {
        s = cloth_set_substeps(cloth, config->substeps);
    }
    if (s == CLOTH_OK && config->iterations != 0u) {
        s = cloth_set_iterations(cloth, config->iterations);
    }
    if (s == CLOTH_OK && config->stiffness > 0.0f) {
        s = cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, config->stiffness);
        if (s == CLOTH_OK) {
            s = cloth_set_stiffness(cloth, CLOTH_SPRING_SHEAR, config->stiffness);
        }
    }
    if (s == CLOTH_OK && config->bend_stiffness > 0.0f) {
        s = cloth_set_stiffness(cloth, CLOTH_SPRING_BEND, config->bend_stiffness);
    }
    return s;
}

/* The scene itself: the ball with its friction, the two pinned corners,
 * and the threads. */
static cloth_status add_scene(cloth_t *cloth, uint32_t n, uint32_t threads)
{
    const float center[3] = {0.0f, DRAPE_SPHERE_Y, 0.0f};
    cloth_collider_id sphere;
    cloth_status s = cloth_add_sphere(cloth, center, DRAPE_SPHERE_RADIUS, &sphere);
    if (s == CLOTH_OK) {
        s = cloth_set_collider_friction(cloth, sphere, DRAPE_FRICTION);
    }
    if (s == CLOTH_OK) {
        s = cloth_pin(cloth, 0, NULL);
    }
    if (s == CLOTH_OK) {
        s = cloth_pin(cloth, n - 1u, NULL);
    }
    if (s == CLOTH_OK && threads > 1u) {
        s = cloth_set_threads(cloth, threads);
    }
    return s;
}

/* The configuration set after the pins: tethers and the strain limit. */
static cloth_status configure_constraints(cloth_t *cloth, const drape_config *config)
{
    cloth_status s = CLOTH_OK;
    if (config->tethers > 0.0f) {
        s = cloth_set_tethers(cloth, config->tethers);
    }
    if (s == CLOTH_OK && config->tethers_last) {
        s = cloth_set_tether_schedule(cloth, CLOTH_TETHERS_LAST_SUBSTEP);
    }
    if (s == CLOTH_OK && config->limit_passes > 0u) {
        s = cloth_set_strain_limit(cloth, config->max_strain, config->limit_passes);
    }
    if (s == CLOTH_OK && config->level_sweeps > 0u) {
        s = cloth_set_strain_level_sweeps(cloth, config->level_sweeps);
    }
    return s;
}

cloth_status drape_scene_create(drape_scene *scene, uint32_t n, const drape_config *config)
{
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = n;
    desc.cols = n;
    desc.spacing = DRAPE_SIZE / (float)(n - 1u);
    drape_rest_position(n, 0, 0, desc.origin);
    /* the same areal density at every N: 0.2 kg/m^2, a light cotton */
    desc.particle_mass = 0.2f * DRAPE_SIZE * DRAPE_SIZE / (float)(n * n);
    scene->n = n;
    scene->cloth = NULL;
    cloth_status s = cloth_create_grid(&desc, &scene->cloth);
    if (s == CLOTH_OK && !config->defaults) {
        s = configure_solver(scene->cloth, config);
    }
    if (s == CLOTH_OK) {
        s = add_scene(scene->cloth, n, config->threads);
    }
    if (s == CLOTH_OK && !config->defaults) {
        s = configure_constraints(scene->cloth, config);
    }
    if (s != CLOTH_OK) {
        drape_scene_destroy(scene);
    }
    return s;
}

void drape_scene_destroy(drape_scene *scene)
{
    cloth_destroy(scene->cloth);
    scene->cloth = NULL;
}

static double link_ratio(const float *p, uint32_t i, uint32_t j, double rest)
{
    double dx = (double)p[3 * j] - (double)p[3 * i], dy = (double)p[3 * j + 1] - (double)p[3 * i + 1],
           dz = (double)p[3 * j + 2] - (double)p[3 * i + 2];
    return sqrt(dx * dx + dy * dy + dz * dz) / rest;
}

void drape_quality_of(const float *p, uint32_t n, bool stepped_ok, drape_quality *q)
{
    const double s = (double)DRAPE_SIZE / (double)(n - 1u);
    double sum = 0.0, worst = 0.0;
    uint32_t links = 0;
    q->finite = stepped_ok;
    for (uint32_t i = 0; i < 3u * n * n; ++i) {
        q->finite = q->finite && isfinite(p[i]);
    }
    /* structural (right, down) and shear (both diagonals) */
    for (uint32_t r = 0; r < n; ++r) {
        for (uint32_t c = 0; c < n; ++c) {
            uint32_t i = r * n + c;
            double ratios[4];
            int k = 0;
            if (c + 1u < n) {
                ratios[k++] = link_ratio(p, i, i + 1u, s);
            }
            if (r + 1u < n) {
                ratios[k++] = link_ratio(p, i, i + n, s);
            }
            if (r + 1u < n && c + 1u < n) {
                ratios[k++] = link_ratio(p, i, i + n + 1u, s * sqrt(2.0));
            }
            if (r + 1u < n && c > 0u) {
                ratios[k++] = link_ratio(p, i, i + n - 1u, s * sqrt(2.0));
            }
            for (int m = 0; m < k; ++m) {
                sum += ratios[m];
                worst = fmax(worst, ratios[m]);
                ++links;
            }
        }
    }
    q->mean_stretch = sum / (double)links;
    q->max_stretch = worst;
    double pen = 0.0, closest = (double)INFINITY;
    for (uint32_t i = 0; i < n * n; ++i) {
        double dx = (double)p[3 * i], dy = (double)p[3 * i + 1] - (double)DRAPE_SPHERE_Y, dz = (double)p[3 * i + 2];
        double d = sqrt(dx * dx + dy * dy + dz * dz) - (double)DRAPE_SPHERE_RADIUS;
        pen = fmax(pen, -d);
        closest = fmin(closest, fabs(d));
    }
    q->max_penetration = pen;
    q->closest = closest;
    q->why = "";
    if (!q->finite) {
        q->why = "non-finite or unstable";
    } else if (q->mean_stretch > 1.03) {
        q->why = "mean stretch > 1.03";
    } else if (q->max_stretch > 1.10) {
        q->why = "max stretch > 1.10";
    } else if (pen > 1e-4) { /* "inside": deeper than a tenth of a millimetre */
        q->why = "particle inside the sphere";
    } else if (closest > 5e-3) {
        q->why = "not resting on the sphere";
    }
    q->ok = q->why[0] == '\0';
}

void drape_scene_quality(const drape_scene *scene, cloth_status status, drape_quality *q)
{
    const uint32_t n = scene->n;
    float *p = malloc(sizeof(float) * 3u * n * n);
    if (p == NULL || cloth_get_positions(scene->cloth, p, 0) != CLOTH_OK) {
        free(p);
        q->ok = q->finite = false;
        q->why = "readback failed";
        return;
    }
    drape_quality_of(p, n, status == CLOTH_OK, q);
    free(p);
    cloth_stats stats; /* everything the cloth holds through its allocator, per particle */
    cloth_stats_init(&stats);
    q->bytes_per_particle =
        cloth_get_stats(scene->cloth, &stats) == CLOTH_OK ? (double)stats.memory_bytes / ((double)n * n) : 0.0;
}
