/*
 * The mesh builder (seed 001): particles are the mesh's vertices, springs its
 * unique edges, plus a bend spring across every edge two triangles share.
 *
 * Edges are found by sorting the triangles' half-edges by their endpoints:
 * O(T log T), no hash table, and the order (hence every later result) depends
 * only on the input.
 */
#include "cloth_internal.h"
#include "platform/stride.h"
#include "builders.h"

#include <stdlib.h>
#include <string.h>

typedef struct half_edge {
    uint32_t a, b;     /* endpoints, a < b */
    uint32_t opposite; /* the triangle's third vertex */
    uint32_t tri;
} half_edge;

static int compare_half_edges(const void *pa, const void *pb)
{
    const half_edge *x = pa, *y = pb;
    if (x->a != y->a) {
        return x->a < y->a ? -1 : 1;
    }
    if (x->b != y->b) {
        return x->b < y->b ? -1 : 1;
    }
    return x->tri < y->tri ? -1 : (x->tri > y->tri ? 1 : 0);
}

/* The desc's arrays are the host's and may sit at any byte address: every
 * read is a memcpy, which the compiler makes a plain load. */
static void load_position(const cloth_mesh_desc *d, size_t stride, uint32_t i, float out[3])
{
    memcpy(out, (const unsigned char *)d->positions + (size_t)i * stride, 3u * sizeof(float));
}

static void load_triangle(const cloth_mesh_desc *d, uint32_t t, uint32_t out[3])
{
    memcpy(out, (const unsigned char *)d->triangles + (size_t)t * 3u * sizeof(uint32_t), 3u * sizeof(uint32_t));
}

static float load_float(const float *array, uint32_t i)
{
    float v;
    memcpy(&v, (const unsigned char *)array + (size_t)i * sizeof(float), sizeof v);
    return v;
}

/* |b - a| in double, where squaring float coordinates neither overflows
 * nor underflows (in float a length of 1e20 m squares to inf and one of
 * 1e-23 m to 0). */
static double dist3(const float a[3], const float b[3])
{
    const double dx = (double)b[0] - (double)a[0], dy = (double)b[1] - (double)a[1],
                 dz = (double)b[2] - (double)a[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static double dist_d(const cloth_particles *p, uint32_t i, uint32_t j)
{
    const float a[3] = {p->x[i], p->y[i], p->z[i]}, b[3] = {p->x[j], p->y[j], p->z[j]};
    return dist3(a, b);
}

/* A spring's rest length: the length the solvers measure, with their float
 * operations, so that a mesh at rest exerts no force at all. Used only on
 * lengths dist3() has found within [CLOTH_REST_MIN, CLOTH_REST_MAX], where the float
 * squares neither overflow nor underflow. */
static float dist(const cloth_particles *p, uint32_t i, uint32_t j)
{
    float dx = p->x[j] - p->x[i], dy = p->y[j] - p->y[i], dz = p->z[j] - p->z[i];
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

static bool rest_ok(double rest)
{
    return rest >= CLOTH_REST_MIN && rest <= CLOTH_REST_MAX;
}

static cloth_status validate(const cloth_mesh_desc *d, size_t *stride)
{
    if (d->positions == NULL || d->triangles == NULL || d->vertex_count < 3u || d->triangle_count < 1u ||
        d->vertex_count > CLOTH_MAX_PARTICLES || d->triangle_count > (1u << 28)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *stride = d->position_stride;
    if (!cloth_stride_ok(stride, d->vertex_count, 3u * sizeof(float))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (d->masses != NULL && d->inverse_masses != NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (d->masses == NULL && d->inverse_masses == NULL &&
        !cloth_mass_ok(d->particle_mass)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; i < d->vertex_count; ++i) {
        float v[3];
        load_position(d, *stride, i, v);
        if (!cloth_finite3(v)) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
        if (d->masses != NULL && !cloth_mass_ok(load_float(d->masses, i))) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
        if (d->inverse_masses != NULL) {
            const float w = load_float(d->inverse_masses, i);
            if (!(w >= 0.0f && isfinite(w))) {
                return CLOTH_ERR_INVALID_ARGUMENT;
            }
        }
    }
    for (uint32_t t = 0; t < d->triangle_count; ++t) {
        uint32_t v[3];
        load_triangle(d, t, v);
        if (v[0] >= d->vertex_count || v[1] >= d->vertex_count || v[2] >= d->vertex_count || v[0] == v[1] ||
            v[1] == v[2] || v[0] == v[2]) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
        float p0[3], p1[3], p2[3];
        load_position(d, *stride, v[0], p0);
        load_position(d, *stride, v[1], p1);
        load_position(d, *stride, v[2], p2);
        /* every edge is a spring: its rest length must be one the solvers
         * can work with (coincident vertices give 0 and are refused here) */
        if (!rest_ok(dist3(p0, p1)) || !rest_ok(dist3(p1, p2)) || !rest_ok(dist3(p2, p0))) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
        double e1[3], e2[3];
        for (int k = 0; k < 3; ++k) {
            e1[k] = (double)p1[k] - (double)p0[k];
            e2[k] = (double)p2[k] - (double)p0[k];
        }
        double cx = e1[1] * e2[2] - e1[2] * e2[1], cy = e1[2] * e2[0] - e1[0] * e2[2],
               cz = e1[0] * e2[1] - e1[1] * e2[0];
        double area2 = cx * cx + cy * cy + cz * cz;
        double scale = (e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]) * (e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]);
        if (!(area2 > 1e-12 * scale)) { /* collinear to float precision */
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
    }
    return CLOTH_OK;
}

/* The diagonal of a quad split in two: the longest side of its triangle,
 * facing an angle of at least 80 degrees. */
static bool is_quad_diagonal(const cloth_particles *p, const half_edge *e)
{
    float ab = dist(p, e->a, e->b), ao = dist(p, e->a, e->opposite), bo = dist(p, e->b, e->opposite);
    if (ab < ao || ab < bo) {
        return false;
    }
    /* law of cosines at the opposite vertex */
    float cos_angle = (ao * ao + bo * bo - ab * ab) / (2.0f * ao * bo);
    return cos_angle <= 0.17364818f; /* cos 80 deg */
}

typedef struct spring_rec {
    uint32_t i, j;
    float rest;
    cloth_spring_type type;
} spring_rec;

/* Walk the sorted half-edges once: one spring per unique edge, one bend
 * spring per edge with exactly two triangles. The edges' lengths were
 * checked by validate(); a bend spring joins two vertices no triangle
 * joins, so its length is checked here: none is made where they are closer
 * than CLOTH_REST_MIN (folded onto each other, no direction to pull along, as
 * when they coincide), and one longer than CLOTH_REST_MAX refuses the mesh. */
static cloth_status collect_springs(const cloth_particles *p, const half_edge *he, uint32_t n, spring_rec *out,
                                    uint32_t *out_count)
{
    uint32_t count = 0;
    for (uint32_t k = 0; k < n;) {
        uint32_t end = k + 1u;
        bool diagonal = is_quad_diagonal(p, &he[k]);
        while (end < n && he[end].a == he[k].a && he[end].b == he[k].b) {
            diagonal = diagonal && is_quad_diagonal(p, &he[end]);
            ++end;
        }
        out[count++] = (spring_rec){he[k].a, he[k].b, dist(p, he[k].a, he[k].b),
                                    diagonal ? CLOTH_SPRING_SHEAR : CLOTH_SPRING_STRUCTURAL};
        if (end - k == 2u && he[k].opposite != he[k + 1u].opposite) {
            uint32_t i = he[k].opposite, j = he[k + 1u].opposite;
            const double length = dist_d(p, i, j);
            if (length > CLOTH_REST_MAX) {
                return CLOTH_ERR_INVALID_ARGUMENT;
            }
            if (length >= CLOTH_REST_MIN) {
                out[count++] = (spring_rec){i < j ? i : j, i < j ? j : i, dist(p, i, j), CLOTH_SPRING_BEND};
            }
        }
        k = end;
    }
    *out_count = count;
    return CLOTH_OK;
}

static cloth_status store_springs(cloth_t *cloth, const spring_rec *recs, uint32_t n)
{
    cloth->spring_count = n; /* first, so that cloth_mesh_free() frees the right sizes */
    cloth->spring_ij = cloth_mem_alloc(&cloth->alloc, (size_t)n * 2u * sizeof(uint32_t));
    cloth->spring_rest = cloth_mem_alloc(&cloth->alloc, (size_t)n * sizeof(float));
    if (cloth->spring_ij == NULL || cloth->spring_rest == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    uint32_t s = 0;
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        cloth->type_begin[t] = s;
        for (uint32_t k = 0; k < n; ++k) {
            if ((int)recs[k].type == t) {
                cloth->spring_ij[2u * s] = recs[k].i;
                cloth->spring_ij[2u * s + 1u] = recs[k].j;
                cloth->spring_rest[s] = recs[k].rest;
                ++s;
            }
        }
    }
    cloth->type_begin[CLOTH_SPRING_TYPES] = s;
    return CLOTH_OK;
}

static cloth_status build_springs(cloth_t *cloth, const cloth_mesh_desc *d)
{
    const uint32_t n_he = 3u * d->triangle_count;
    const size_t he_bytes = (size_t)n_he * sizeof(half_edge);
    const size_t rec_bytes = (size_t)n_he * 2u * sizeof(spring_rec); /* edges + bends <= 2 per half-edge */
    half_edge *he = cloth_mem_alloc(&cloth->alloc, he_bytes);
    spring_rec *recs = cloth_mem_alloc(&cloth->alloc, rec_bytes);
    cloth_status s = CLOTH_ERR_OUT_OF_MEMORY;
    if (he != NULL && recs != NULL) {
        for (uint32_t t = 0; t < d->triangle_count; ++t) {
            uint32_t v[3];
            load_triangle(d, t, v);
            for (uint32_t k = 0; k < 3u; ++k) {
                uint32_t a = v[k], b = v[(k + 1u) % 3u];
                he[3u * t + k] = (half_edge){a < b ? a : b, a < b ? b : a, v[(k + 2u) % 3u], t};
            }
        }
        qsort(he, n_he, sizeof *he, compare_half_edges);
        uint32_t n_springs = 0u;
        s = collect_springs(&cloth->p, he, n_he, recs, &n_springs);
        if (s == CLOTH_OK) {
            s = store_springs(cloth, recs, n_springs);
        }
    }
    cloth_mem_free(&cloth->alloc, he, he_bytes);
    cloth_mem_free(&cloth->alloc, recs, rec_bytes);
    return s;
}

cloth_status cloth_build_mesh(cloth_t *cloth, const cloth_mesh_desc *d)
{
    size_t stride = 0;
    cloth_status s = validate(d, &stride);
    if (s != CLOTH_OK) {
        return s;
    }
    s = cloth_alloc_particles(cloth, d->vertex_count);
    if (s != CLOTH_OK) {
        return s;
    }
    for (uint32_t i = 0; i < d->vertex_count; ++i) {
        float v[3];
        load_position(d, stride, i, v);
        cloth->p.x[i] = v[0];
        cloth->p.y[i] = v[1];
        cloth->p.z[i] = v[2];
        if (d->inverse_masses != NULL) {
            cloth->p.w[i] = load_float(d->inverse_masses, i);
        } else {
            cloth->p.w[i] = 1.0f / (d->masses != NULL ? load_float(d->masses, i) : d->particle_mass);
        }
    }
    const size_t tri_bytes = (size_t)d->triangle_count * 3u * sizeof(uint32_t);
    cloth->tris = cloth_mem_alloc(&cloth->alloc, tri_bytes);
    if (cloth->tris == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memcpy(cloth->tris, d->triangles, tri_bytes);
    cloth->tri_count = d->triangle_count;
    cloth->fallback_normal[1] = 1.0f;
    s = build_springs(cloth, d);
    /* Inverse mass 0 means "held where it is": a pin, so that the step keeps
     * it in place whatever velocity the host gives it. */
    for (uint32_t i = 0; s == CLOTH_OK && i < d->vertex_count; ++i) {
        if (cloth->p.w[i] == 0.0f) {
            s = cloth_do_pin(cloth, i, NULL);
        }
    }
    return s;
}

void cloth_mesh_free(cloth_t *cloth)
{
    cloth_mem_free(&cloth->alloc, cloth->tris, (size_t)cloth->tri_count * 3u * sizeof(uint32_t));
    cloth_mem_free(&cloth->alloc, cloth->spring_ij, (size_t)cloth->spring_count * 2u * sizeof(uint32_t));
    cloth_mem_free(&cloth->alloc, cloth->spring_rest, (size_t)cloth->spring_count * sizeof(float));
    cloth->tris = NULL;
    cloth->spring_ij = NULL;
    cloth->spring_rest = NULL;
}
