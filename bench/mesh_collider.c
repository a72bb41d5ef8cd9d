/*
 * mesh_collider: issue 26's triangle-mesh figure. Drape-N (a 2 m cloth,
 * 0.2 kg/m^2, two corners pinned, the fast setup: XPBD 6 substeps x 1
 * iteration, tethers 1.03 in the last substep, the strain limit 0.05 with
 * 2 passes, friction 0.5) over the drape's ball given three ways in one
 * run: no collider, the analytic sphere, and a UV sphere of `--segments`
 * (default 45: 3,960 triangles) as a triangle-mesh collider. With --deform
 * the mesh breathes (every vertex scaled by 1 +- 3 % at 1 Hz, handed to the
 * library every frame). 300 frames to settle, then `runs` timed runs of
 * 120 frames, interleaved between the three.
 *
 * Usage: mesh_collider [--n 64] [--segments 45] [--deform] [--runs 5]
 *
 * Prints one JSON line: the median ms a frame (one thread) of each, the
 * mesh's cost over no collider, the contacts in the last substep, and how
 * deep the deepest particle lies inside the mesh at the end (by a brute
 * force distance over every triangle). Not a test.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include "bench_clock.h"

#include <clothsim/clothsim.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define RADIUS 0.6f
#define CENTRE_Y (-1.1f)
#define DT (1.0f / 60.0f)

typedef struct uv_sphere {
    float *v;
    uint32_t *t;
    uint32_t vertices, triangles;
} uv_sphere;

/* Poles and `rings - 1` rings of `segments` vertices; triangles wound
 * counter-clockwise seen from outside. */
static bool uv_sphere_make(uv_sphere *s, uint32_t segments)
{
    const uint32_t rings = segments;
    s->vertices = 2u + (rings - 1u) * segments;
    s->triangles = 2u * segments * (rings - 1u);
    s->v = malloc(sizeof(float) * 3u * s->vertices);
    s->t = malloc(sizeof(uint32_t) * 3u * s->triangles);
    if (s->v == NULL || s->t == NULL) {
        return false;
    }
    float *v = s->v;
    v[0] = 0.0f, v[1] = RADIUS, v[2] = 0.0f;
    for (uint32_t r = 1; r < rings; ++r) {
        const double th = PI * r / rings;
        for (uint32_t k = 0; k < segments; ++k) {
            const double ph = 2.0 * PI * k / segments;
            float *p = v + 3u * (1u + (r - 1u) * segments + k);
            p[0] = (float)((double)RADIUS * sin(th) * cos(ph));
            p[1] = (float)((double)RADIUS * cos(th));
            p[2] = (float)((double)RADIUS * sin(th) * sin(ph));
        }
    }
    const uint32_t south = s->vertices - 1u;
    v[3u * south] = 0.0f, v[3u * south + 1u] = -RADIUS, v[3u * south + 2u] = 0.0f;
    uint32_t *t = s->t;
    for (uint32_t k = 0; k < segments; ++k) {
        const uint32_t a = 1u + k, b = 1u + (k + 1u) % segments;
        *t++ = 0u, *t++ = b, *t++ = a;
        const uint32_t base = 1u + (rings - 2u) * segments;
        *t++ = south, *t++ = base + k, *t++ = base + (k + 1u) % segments;
    }
    for (uint32_t r = 1; r + 1u < rings; ++r) {
        for (uint32_t k = 0; k < segments; ++k) {
            const uint32_t a = 1u + (r - 1u) * segments + k, b = 1u + (r - 1u) * segments + (k + 1u) % segments;
            const uint32_t c = a + segments, d = b + segments;
            *t++ = a, *t++ = b, *t++ = d;
            *t++ = a, *t++ = d, *t++ = c;
        }
    }
    return true;
}

static cloth_t *drape(uint32_t n)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = d.cols = n;
    d.spacing = 2.0f / (float)(n - 1u);
    d.origin[0] = -1.0f;
    d.origin[2] = -1.0f;
    d.particle_mass = 0.2f * 4.0f / (float)(n * n);
    cloth_t *c = NULL;
    if (cloth_create_grid(&d, &c) != CLOTH_OK) {
        return NULL;
    }
    cloth_status s = cloth_set_integrator(c, CLOTH_INTEGRATOR_XPBD);
    s = s == CLOTH_OK ? cloth_set_substeps(c, 6u) : s;
    s = s == CLOTH_OK ? cloth_set_iterations(c, 1u) : s;
    s = s == CLOTH_OK ? cloth_pin(c, 0u, NULL) : s;
    s = s == CLOTH_OK ? cloth_pin(c, n - 1u, NULL) : s;
    s = s == CLOTH_OK ? cloth_set_tethers(c, 1.03f) : s;
    s = s == CLOTH_OK ? cloth_set_tether_schedule(c, CLOTH_TETHERS_LAST_SUBSTEP) : s;
    s = s == CLOTH_OK ? cloth_set_strain_limit(c, 0.05f, 2u) : s;
    if (s != CLOTH_OK) {
        cloth_destroy(c);
        return NULL;
    }
    return c;
}

/* The sphere scaled by `scale` about its centre into `out`. */
static void breathe(const uv_sphere *s, float scale, float *out)
{
    for (uint32_t i = 0; i < 3u * s->vertices; ++i) {
        out[i] = s->v[i] * scale;
    }
}

static double point_triangle_distance(const float *p, const float *a, const float *b, const float *c)
{
    /* barycentric clamp by sampling the region tests, in double */
    double ab[3], ac[3], ap[3];
    for (int k = 0; k < 3; ++k) {
        ab[k] = (double)b[k] - (double)a[k];
        ac[k] = (double)c[k] - (double)a[k];
        ap[k] = (double)p[k] - (double)a[k];
    }
    const double d1 = ab[0] * ap[0] + ab[1] * ap[1] + ab[2] * ap[2], d2 = ac[0] * ap[0] + ac[1] * ap[1] + ac[2] * ap[2];
    const double aa = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2], cc = ac[0] * ac[0] + ac[1] * ac[1] + ac[2] * ac[2];
    const double bc = ab[0] * ac[0] + ab[1] * ac[1] + ab[2] * ac[2], det = aa * cc - bc * bc;
    double u = (cc * d1 - bc * d2) / det, v = (aa * d2 - bc * d1) / det;
    if (u < 0 || v < 0 || u + v > 1) {
        /* outside the face: the nearest of the three edges */
        double best = HUGE_VAL;
        const float *e[3][2] = {{a, b}, {b, c}, {c, a}};
        for (int k = 0; k < 3; ++k) {
            double d[3], q[3], dd = 0, t = 0;
            for (int j = 0; j < 3; ++j) {
                d[j] = (double)e[k][1][j] - (double)e[k][0][j];
                q[j] = (double)p[j] - (double)e[k][0][j];
                t += d[j] * q[j];
                dd += d[j] * d[j];
            }
            t = fmin(fmax(t / dd, 0), 1);
            double r2 = 0;
            for (int j = 0; j < 3; ++j) {
                r2 += (q[j] - t * d[j]) * (q[j] - t * d[j]);
            }
            best = fmin(best, sqrt(r2));
        }
        return best;
    }
    double r2 = 0;
    for (int k = 0; k < 3; ++k) {
        const double q = ap[k] - u * ab[k] - v * ac[k];
        r2 += q * q;
    }
    return sqrt(r2);
}

/* How deep the deepest particle is inside the convex mesh (0 if none):
 * inside means behind every face's plane. */
static double deepest(const float *pos, uint32_t count, const uv_sphere *s, float scale)
{
    double worst = 0.0;
    for (uint32_t i = 0; i < count; ++i) {
        float p[3] = {pos[3 * i], pos[3 * i + 1] - CENTRE_Y, pos[3 * i + 2]};
        if (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] > RADIUS * scale * RADIUS * scale) {
            continue;
        }
        bool inside = true;
        double dist = HUGE_VAL;
        for (uint32_t t = 0; t < s->triangles && inside; ++t) {
            float a[3], b[3], c[3];
            for (int k = 0; k < 3; ++k) {
                a[k] = s->v[3u * s->t[3u * t] + (uint32_t)k] * scale;
                b[k] = s->v[3u * s->t[3u * t + 1u] + (uint32_t)k] * scale;
                c[k] = s->v[3u * s->t[3u * t + 2u] + (uint32_t)k] * scale;
            }
            double e1[3], e2[3], q[3];
            for (int k = 0; k < 3; ++k) {
                e1[k] = (double)b[k] - (double)a[k];
                e2[k] = (double)c[k] - (double)a[k];
                q[k] = (double)p[k] - (double)a[k];
            }
            const double nn[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                                  e1[0] * e2[1] - e1[1] * e2[0]};
            inside = nn[0] * q[0] + nn[1] * q[1] + nn[2] * q[2] < 0;
            dist = fmin(dist, point_triangle_distance(p, a, b, c));
        }
        if (inside) {
            worst = fmax(worst, dist);
        }
    }
    return worst;
}

int main(int argc, char **argv)
{
    uint32_t n = 64u, segments = 45u, runs = 5u;
    bool deform = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
            n = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--segments") == 0 && i + 1 < argc) {
            segments = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--deform") == 0) {
            deform = true;
        } else {
            fprintf(stderr, "usage: mesh_collider [--n 64] [--segments 45] [--deform] [--runs 5]\n");
            return 2;
        }
    }
    if (n < 4u || segments < 3u || runs < 1u || runs > 99u) {
        fprintf(stderr, "mesh_collider: n >= 4, segments >= 3, 1 <= runs <= 99\n");
        return 2;
    }
    uv_sphere ball = {0};
    float *moved = NULL, *pos = malloc(sizeof(float) * 3u * n * n);
    cloth_t *c[3] = {drape(n), drape(n), drape(n)};
    cloth_collider_id mesh_id = 0, id = 0;
    int rc = 1;
    if (!uv_sphere_make(&ball, segments) || pos == NULL || c[0] == NULL || c[1] == NULL || c[2] == NULL ||
        (moved = malloc(sizeof(float) * 3u * ball.vertices)) == NULL) {
        fprintf(stderr, "mesh_collider: out of memory\n");
        goto done;
    }
    const float centre[3] = {0.0f, CENTRE_Y, 0.0f};
    if (cloth_add_sphere(c[1], centre, RADIUS, &id) != CLOTH_OK || cloth_set_collider_friction(c[1], id, 0.5f) != CLOTH_OK ||
        cloth_add_triangle_mesh(c[2], ball.v, 0, ball.vertices, ball.t, ball.triangles, &mesh_id) != CLOTH_OK ||
        cloth_set_collider_friction(c[2], mesh_id, 0.5f) != CLOTH_OK ||
        cloth_set_collider_transform(c[2], mesh_id, centre, NULL) != CLOTH_OK) {
        fprintf(stderr, "mesh_collider: the colliders were refused\n");
        goto done;
    }
    double ms[3][99];
    int frame = 0;
    float scale = 1.0f;
    for (int f = 0; f < 300; ++f, ++frame) {
        for (int k = 0; k < 3; ++k) {
            if (k == 2 && deform) {
                scale = 1.0f + 0.03f * (float)sin(2.0 * PI * frame / 60.0);
                breathe(&ball, scale, moved);
                cloth_set_triangle_mesh_vertices(c[2], mesh_id, moved, 0);
            }
            if (cloth_step(c[k], DT) != CLOTH_OK) {
                fprintf(stderr, "mesh_collider: a step failed\n");
                goto done;
            }
        }
    }
    for (uint32_t r = 0; r < runs; ++r) {
        for (int k = 0; k < 3; ++k) {
            const double t0 = now_seconds();
            for (int f = 0; f < 120; ++f) {
                if (k == 2 && deform) {
                    scale = 1.0f + 0.03f * (float)sin(2.0 * PI * (frame + f) / 60.0);
                    breathe(&ball, scale, moved);
                    cloth_set_triangle_mesh_vertices(c[2], mesh_id, moved, 0);
                }
                cloth_step(c[k], DT);
            }
            ms[k][r] = (now_seconds() - t0) * 1e3 / 120.0;
        }
        frame += 120;
    }
    double med[3];
    for (int k = 0; k < 3; ++k) {
        qsort(ms[k], runs, sizeof ms[k][0], compare_doubles);
        med[k] = ms[k][runs / 2u];
    }
    cloth_stats st;
    cloth_stats_init(&st);
    cloth_get_stats(c[2], &st);
    cloth_get_positions(c[2], pos, 0);
    const double depth = deepest(pos, n * n, &ball, scale);
    printf("{\"scene\": \"mesh-collider\", \"n\": %u, \"triangles\": %u, \"deform\": %s, \"runs\": %u, "
           "\"ms_no_collider\": %.4f, \"ms_sphere\": %.4f, \"ms_mesh\": %.4f, \"mesh_cost_ms\": %.4f, "
           "\"contacts\": %u, \"deepest_inside_mesh_m\": %.3g}\n",
           n, ball.triangles, deform ? "true" : "false", runs, med[0], med[1], med[2], med[2] - med[0], st.contacts,
           depth);
    rc = 0;
done:
    for (int k = 0; k < 3; ++k) {
        cloth_destroy(c[k]);
    }
    free(ball.v);
    free(ball.t);
    free(moved);
    free(pos);
    return rc;
}
