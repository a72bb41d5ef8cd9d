/* The drape-N scene and its quality bar. */
#include "drape_scene.h"
#include "delaunay.h"

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

/* A mesh cloth of packed positions and triangles, with `masses` per
 * vertex or, if NULL, `particle_mass` each. */
static cloth_status create_mesh(const float *positions, uint32_t count, const uint32_t *tris, uint32_t tri_count,
                                float particle_mass, const float *masses, cloth_t **out)
{
    cloth_mesh_desc desc;
    cloth_mesh_desc_init(&desc);
    desc.positions = positions;
    desc.vertex_count = count;
    desc.triangles = tris;
    desc.triangle_count = tri_count;
    if (masses != NULL) {
        desc.masses = masses;
    } else {
        desc.particle_mass = particle_mass;
    }
    return cloth_create_mesh(&desc, out);
}

/* The grid cloth rebuilt as a mesh from its own positions and triangles,
 * with the same particle mass: the same particles in the same order, the
 * grid's quad diagonals as shear springs (mesh.h). */
static cloth_status grid_as_mesh(cloth_t **cloth, float particle_mass)
{
    const uint32_t count = cloth_particle_count(*cloth), tris = cloth_triangle_count(*cloth);
    float *positions = malloc(sizeof(float) * 3u * count);
    uint32_t *triangles = malloc(sizeof(uint32_t) * 3u * tris);
    cloth_status s = positions != NULL && triangles != NULL ? CLOTH_OK : CLOTH_ERR_OUT_OF_MEMORY;
    if (s == CLOTH_OK) {
        s = cloth_get_positions(*cloth, positions, 0);
    }
    if (s == CLOTH_OK) {
        s = cloth_get_triangles(*cloth, triangles);
    }
    cloth_t *mesh = NULL;
    if (s == CLOTH_OK) {
        s = create_mesh(positions, count, triangles, tris, particle_mass, NULL, &mesh);
    }
    free(positions);
    free(triangles);
    if (s == CLOTH_OK) {
        cloth_destroy(*cloth);
        *cloth = mesh;
    }
    return s;
}

/* The mesh's edges: its structural and shear springs. */
static cloth_status mesh_links(drape_scene *scene)
{
    const uint32_t springs = cloth_spring_count(scene->cloth);
    uint32_t *pairs = malloc(sizeof(uint32_t) * 2u * springs);
    float *rest = malloc(sizeof(float) * springs);
    cloth_spring_type *types = malloc(sizeof(cloth_spring_type) * springs);
    cloth_status s = pairs != NULL && rest != NULL && types != NULL ? CLOTH_OK : CLOTH_ERR_OUT_OF_MEMORY;
    if (s == CLOTH_OK) {
        s = cloth_get_springs(scene->cloth, pairs, rest, types);
    }
    uint32_t links = 0;
    for (uint32_t k = 0; s == CLOTH_OK && k < springs; ++k) {
        if (types[k] == CLOTH_SPRING_STRUCTURAL || types[k] == CLOTH_SPRING_SHEAR) {
            pairs[2u * links] = pairs[2u * k];
            pairs[2u * links + 1u] = pairs[2u * k + 1u];
            rest[links++] = rest[k];
        }
    }
    free(types);
    if (s != CLOTH_OK) {
        free(pairs);
        free(rest);
        return s;
    }
    scene->mesh_pairs = pairs;
    scene->mesh_rest = rest;
    scene->mesh_links = links;
    return CLOTH_OK;
}

const char *drape_scene_name(const drape_config *config)
{
    return config->mesh == 1 ? "drape-mesh" : config->mesh == 2 ? "drape-delaunay" : "drape";
}

/* The irregular cloth: vertex r * n + c one random point in cell (r, c) of
 * the grid's spacing s (a fixed LCG), within 0.4 s of the grid point; the
 * corners stay put and the edges' points move along their side only. */
static cloth_status delaunay_cloth(uint32_t n, cloth_t **out)
{
    const uint32_t count = n * n;
    const double s = (double)DRAPE_SIZE / (double)(n - 1u);
    double *u = malloc(sizeof(double) * count), *v = malloc(sizeof(double) * count);
    float *positions = malloc(sizeof(float) * 3u * count), *masses = malloc(sizeof(float) * count);
    uint32_t *tris = malloc(sizeof(uint32_t) * 6u * count);
    cloth_status st = CLOTH_ERR_OUT_OF_MEMORY;
    uint32_t state = 2024u;
    if (u != NULL && v != NULL && positions != NULL && masses != NULL && tris != NULL) {
        for (uint32_t r = 0; r < n; ++r) {
            for (uint32_t c = 0; c < n; ++c) {
                float at[3];
                drape_rest_position(n, r, c, at);
                double jitter[2];
                for (int k = 0; k < 2; ++k) {
                    state = state * 1664525u + 1013904223u;
                    jitter[k] = 0.8 * s * ((double)(state >> 8) / 16777216.0 - 0.5);
                }
                const uint32_t i = r * n + c;
                u[i] = (double)at[0] + (c > 0u && c + 1u < n ? jitter[0] : 0.0);
                v[i] = (double)at[2] + (r > 0u && r + 1u < n ? jitter[1] : 0.0);
            }
        }
        const uint32_t made = delaunay_triangulate(u, v, count, tris);
        for (uint32_t i = 0; i < count; ++i) {
            positions[3u * i] = (float)u[i];
            positions[3u * i + 1u] = 0.0f;
            positions[3u * i + 2u] = (float)v[i];
            masses[i] = 0.0f;
        }
        /* a third of each triangle's area to each of its vertices */
        for (uint32_t t = 0; t < made; ++t) {
            const uint32_t *k = tris + 3u * t;
            const double area = 0.5 * fabs((u[k[1]] - u[k[0]]) * (v[k[2]] - v[k[0]]) -
                                           (v[k[1]] - v[k[0]]) * (u[k[2]] - u[k[0]]));
            for (int m = 0; m < 3; ++m) {
                masses[k[m]] += (float)((double)DRAPE_DENSITY * area / 3.0);
            }
        }
        st = made > 0u ? create_mesh(positions, count, tris, made, 0.0f, masses, out) : CLOTH_ERR_OUT_OF_MEMORY;
    }
    free(u);
    free(v);
    free(positions);
    free(masses);
    free(tris);
    return st;
}

cloth_status drape_scene_create(drape_scene *scene, uint32_t n, const drape_config *config)
{
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = n;
    desc.cols = n;
    desc.spacing = DRAPE_SIZE / (float)(n - 1u);
    drape_rest_position(n, 0, 0, desc.origin);
    /* the same areal density at every N */
    desc.particle_mass = DRAPE_DENSITY * DRAPE_SIZE * DRAPE_SIZE / (float)(n * n);
    scene->n = n;
    scene->cloth = NULL;
    cloth_status s = config->mesh == 2 ? delaunay_cloth(n, &scene->cloth) : cloth_create_grid(&desc, &scene->cloth);
    scene->mesh_pairs = NULL;
    scene->mesh_rest = NULL;
    scene->mesh_links = 0;
    if (s == CLOTH_OK && config->mesh == 1) {
        s = grid_as_mesh(&scene->cloth, desc.particle_mass);
    }
    if (s == CLOTH_OK && config->mesh) {
        s = mesh_links(scene);
    }
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
    free(scene->mesh_pairs);
    free(scene->mesh_rest);
    scene->mesh_pairs = NULL;
    scene->mesh_rest = NULL;
}

static double link_ratio(const float *p, uint32_t i, uint32_t j, double rest)
{
    double dx = (double)p[3 * j] - (double)p[3 * i], dy = (double)p[3 * j + 1] - (double)p[3 * i + 1],
           dz = (double)p[3 * j + 2] - (double)p[3 * i + 2];
    return sqrt(dx * dx + dy * dy + dz * dz) / rest;
}

static void judge(drape_quality *q);

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
    judge(q);
}

/* The bar, on what q holds. */
static void judge(drape_quality *q)
{
    const double pen = q->max_penetration, closest = q->closest;
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
    if (scene->mesh_pairs != NULL) {
        double sum = 0.0, worst = 0.0;
        for (uint32_t k = 0; k < scene->mesh_links; ++k) {
            const double r = link_ratio(p, scene->mesh_pairs[2u * k], scene->mesh_pairs[2u * k + 1u],
                                        (double)scene->mesh_rest[k]);
            sum += r;
            worst = fmax(worst, r);
        }
        q->mean_stretch = sum / (double)scene->mesh_links;
        q->max_stretch = worst;
        judge(q);
    }
    free(p);
    cloth_stats stats; /* everything the cloth holds through its allocator, per particle */
    cloth_stats_init(&stats);
    q->bytes_per_particle =
        cloth_get_stats(scene->cloth, &stats) == CLOTH_OK ? (double)stats.memory_bytes / ((double)n * n) : 0.0;
}
