/*
 * Triangle-mesh collider: a closed or open mesh (a body, a prop, terrain)
 * that the cloth stays in front of, front being the side its triangles
 * face (counter-clockwise corners). The mesh is copied; the host may hand
 * new vertex positions every frame with the same triangles (a skinned
 * body), which the vertices reach at the end of the next step, moving in
 * a straight line over its substeps like every collider's pose. The mesh
 * is described in the collider's frame, whose reference point starts at
 * the world's origin, so cloth_set_collider_transform() moves it rigidly
 * on top of that.
 *
 * The query finds the nearest point of the surface among the triangles
 * within reach (the grid, mesh_grid.c; a per-particle hint of the triangle
 * found last time and each triangle's ball and plane pass most of them
 * over) and tells inside from outside by the angle-weighted pseudo-normal
 * of the feature it lies on (face, edge or corner), which is exact for a
 * closed mesh (Baerentzen and Aanaes, "Signed distance computation using
 * the angle weighted pseudonormal", 2005). A particle in front and closer
 * than the thickness, or behind the surface but less than `depth` from it,
 * goes to the nearest surface point moved out by the thickness: along the
 * face's own normal over a face, straight away from an edge or corner, so
 * those are rounded by the thickness. `depth` is half the mesh's mean edge
 * length: a particle that gets deeper than that behind the surface between
 * two collision passes is not seen. The mesh is not convex, so the
 * response asks again after friction's take-back (collide.c) unless the
 * take-back stayed over the contact's own face.
 */
#include "mesh_collider.h"
#include "shapes.h"

#include "platform/stride.h"

#include <stdlib.h>

/* At most this many vertices or triangles: every array size stays far
 * from overflowing. */
#define MAX_ELEMENTS (1u << 24)

static void sub3(const float a[3], const float b[3], float out[3])
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

static void cross3(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Whether a triangle is too thin to have a normal: twice its area, in
 * double, against the squares of its sides. */
static bool degenerate(const float *v, const uint32_t *t)
{
    const float *a = v + 3u * t[0], *b = v + 3u * t[1], *c = v + 3u * t[2];
    double ab[3], ac[3];
    for (int k = 0; k < 3; ++k) {
        ab[k] = (double)b[k] - (double)a[k];
        ac[k] = (double)c[k] - (double)a[k];
    }
    const double x = ab[1] * ac[2] - ab[2] * ac[1], y = ab[2] * ac[0] - ab[0] * ac[2];
    const double z = ab[0] * ac[1] - ab[1] * ac[0];
    const double side2 = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2] + ac[0] * ac[0] + ac[1] * ac[1] + ac[2] * ac[2];
    return !(x * x + y * y + z * z > 1e-12 * side2 * side2) || !isfinite(side2);
}

/* Unit face normals and angle-weighted vertex normals of vertices v. */
static void normals(cloth_collider_mesh *m, const float *v)
{
    for (uint32_t i = 0; i < 3u * m->vertex_count; ++i) {
        m->vertex_n[i] = 0.0f;
    }
    for (uint32_t t = 0; t < m->triangle_count; ++t) {
        const uint32_t *tri = m->tri + 3u * t;
        float e[3][3], n[3];
        for (int k = 0; k < 3; ++k) {
            sub3(v + 3u * tri[(k + 1) % 3], v + 3u * tri[k], e[k]);
        }
        cross3(e[0], e[1], n);
        const float len = sqrtf(cloth_dot3(n, n));
        const float inv = len > 0.0f ? 1.0f / len : 0.0f;
        for (int k = 0; k < 3; ++k) {
            n[k] *= inv;
            m->face_n[3u * t + (uint32_t)k] = n[k];
        }
        for (int k = 0; k < 3; ++k) {
            /* the corner's angle between its two sides, out and back in */
            const float *out = e[k], *in = e[(k + 2) % 3];
            float c[3];
            cross3(out, in, c);
            const float angle = atan2f(sqrtf(cloth_dot3(c, c)), -cloth_dot3(out, in));
            for (int r = 0; r < 3; ++r) {
                m->vertex_n[3u * tri[k] + (uint32_t)r] += angle * n[r];
            }
        }
    }
}

typedef struct edge_rec {
    uint32_t lo, hi, slot; /* slot = 3 t + k */
} edge_rec;

static int edge_order(const void *pa, const void *pb)
{
    const edge_rec *a = pa, *b = pb;
    if (a->lo != b->lo) {
        return a->lo < b->lo ? -1 : 1;
    }
    if (a->hi != b->hi) {
        return a->hi < b->hi ? -1 : 1;
    }
    return a->slot < b->slot ? -1 : (a->slot > b->slot ? 1 : 0);
}

/* The triangle across each edge: an edge shared by exactly two triangles
 * links them; a border edge or one shared by more links none. */
static bool link_edges(const cloth_allocator *alloc, cloth_collider_mesh *m)
{
    const size_t n = 3u * (size_t)m->triangle_count;
    edge_rec *e = cloth_mem_alloc(alloc, n * sizeof *e);
    if (e == NULL) {
        return false;
    }
    for (uint32_t s = 0; s < n; ++s) {
        const uint32_t a = m->tri[s], b = m->tri[s - s % 3u + (s % 3u + 1u) % 3u];
        e[s].lo = a < b ? a : b;
        e[s].hi = a < b ? b : a;
        e[s].slot = s;
        m->across[s] = CLOTH_MESH_NONE;
    }
    qsort(e, n, sizeof *e, edge_order);
    for (size_t s = 0; s < n;) {
        size_t run = 1u;
        while (s + run < n && e[s + run].lo == e[s].lo && e[s + run].hi == e[s].hi) {
            ++run;
        }
        if (run == 2u) {
            m->across[e[s].slot] = e[s + 1u].slot / 3u;
            m->across[e[s + 1u].slot] = e[s].slot / 3u;
        }
        s += run;
    }
    cloth_mem_free(alloc, e, n * sizeof *e);
    return true;
}

/* The largest distance from the frame's origin of a vertex of a or b. */
static float reach_of(const cloth_collider_mesh *m, const float *a, const float *b)
{
    float r2 = 0.0f;
    for (uint32_t i = 0; i < m->vertex_count; ++i) {
        r2 = fmaxf(r2, fmaxf(cloth_dot3(a + 3u * i, a + 3u * i), cloth_dot3(b + 3u * i, b + 3u * i)));
    }
    return sqrtf(r2) * 1.0001f;
}

/* Each triangle's ball: about its corners' mean, through the farthest
 * (grown by a part in 1e5 so that rounding never passes over a triangle
 * that is nearer). */
static void balls(cloth_collider_mesh *m)
{
    for (uint32_t t = 0; t < m->triangle_count; ++t) {
        const float *v[3] = {m->at + 3u * m->tri[3u * t], m->at + 3u * m->tri[3u * t + 1u],
                             m->at + 3u * m->tri[3u * t + 2u]};
        float c[3], r2 = 0.0f;
        for (int k = 0; k < 3; ++k) {
            c[k] = (v[0][k] + v[1][k] + v[2][k]) * (1.0f / 3.0f);
        }
        for (int j = 0; j < 3; ++j) {
            float d[3];
            sub3(v[j], c, d);
            r2 = fmaxf(r2, cloth_dot3(d, d));
        }
        float *ball = m->ball + 4u * t;
        ball[0] = c[0];
        ball[1] = c[1];
        ball[2] = c[2];
        ball[3] = sqrtf(r2) * 1.00001f + 1e-7f * (fabsf(c[0]) + fabsf(c[1]) + fabsf(c[2]));
    }
}

/* The host's vertices into `out` (3 floats each), or false if one is not
 * finite or makes a triangle degenerate. */
static bool read_vertices(const cloth_collider_mesh *m, const float *src, size_t stride, float *out)
{
    for (uint32_t i = 0; i < m->vertex_count; ++i) {
        float v[3];
        memcpy(v, (const unsigned char *)src + (size_t)i * stride, sizeof v);
        if (!cloth_finite3(v)) {
            return false;
        }
        /* squares of the coordinates must stay finite too (the queries square them) */
        if (!isfinite(cloth_dot3(v, v))) {
            return false;
        }
        out[3u * i] = v[0];
        out[3u * i + 1u] = v[1];
        out[3u * i + 2u] = v[2];
    }
    for (uint32_t t = 0; t < m->triangle_count; ++t) {
        if (degenerate(out, m->tri + 3u * t)) {
            return false;
        }
    }
    return true;
}

/* The spare vertex array: the one of the four slots that none of from, to
 * and at is now. */
static float *spare_of(cloth_collider_mesh *m)
{
    for (size_t k = 0; k < 4u; ++k) {
        float *cand = m->slots + k * 3u * m->vertex_count;
        if (cand != m->from && cand != m->to && cand != m->at) {
            return cand;
        }
    }
    return NULL; /* unreachable: four slots, three in use */
}

cloth_status cloth_add_triangle_mesh(cloth_t *cloth, const float *vertices, size_t stride_bytes, uint32_t vertex_count,
                                     const uint32_t *indices, uint32_t triangle_count, cloth_collider_id *out)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || vertices == NULL || indices == NULL || out == NULL || vertex_count < 3u ||
        triangle_count < 1u || vertex_count > MAX_ELEMENTS || triangle_count > MAX_ELEMENTS ||
        !cloth_stride_ok(&stride_bytes, vertex_count, 3u * sizeof(float))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    for (size_t s = 0; s < 3u * (size_t)triangle_count; ++s) {
        if (indices[s] >= vertex_count) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
    }
    cloth_collider_mesh *m = cloth_mesh_collider_alloc(&cloth->alloc, vertex_count, triangle_count, cloth->count);
    if (m == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memcpy(m->tri, indices, 3u * (size_t)triangle_count * sizeof *indices);
    if (!read_vertices(m, vertices, stride_bytes, m->to)) {
        cloth_mesh_collider_free(&cloth->alloc, m);
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    memcpy(m->from, m->to, 3u * (size_t)vertex_count * sizeof(float));
    memcpy(m->at, m->to, 3u * (size_t)vertex_count * sizeof(float));
    double edges = 0.0;
    for (size_t s = 0; s < 3u * (size_t)triangle_count; ++s) {
        float d[3];
        sub3(m->to + 3u * m->tri[s], m->to + 3u * m->tri[s - s % 3u + (s % 3u + 1u) % 3u], d);
        edges += sqrt((double)cloth_dot3(d, d));
    }
    m->depth = (float)(0.5 * edges / (3.0 * triangle_count));
    normals(m, m->to);
    balls(m);
    if (!link_edges(&cloth->alloc, m) || !cloth_mesh_grid_build(&cloth->alloc, m, m->at, m->to, cloth->particle_radius + m->depth)) {
        cloth_mesh_collider_free(&cloth->alloc, m);
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    cloth_collider shape = {0};
    shape.kind = CLOTH_COLLIDER_TRIANGLE_MESH;
    shape.size[0] = reach_of(m, m->at, m->to);
    shape.mesh = m;
    (void)cloth_quat_accept(NULL, shape.to.q);
    const cloth_status st = cloth_collider_add(cloth, &shape, out);
    if (st != CLOTH_OK) {
        cloth_mesh_collider_free(&cloth->alloc, m);
    }
    return st;
}

cloth_status cloth_set_triangle_mesh_vertices(cloth_t *cloth, cloth_collider_id id, const float *vertices,
                                              size_t stride_bytes)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || vertices == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_collider *c = cloth_collider_find(cloth, id);
    if (c == NULL) {
        return CLOTH_ERR_OUT_OF_RANGE;
    }
    cloth_collider_mesh *m = c->mesh;
    if (m == NULL || !cloth_stride_ok(&stride_bytes, m->vertex_count, 3u * sizeof(float))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    float *next = spare_of(m);
    if (!read_vertices(m, vertices, stride_bytes, next)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (!cloth_mesh_grid_build(&cloth->alloc, m, m->at, next, c->grown + m->depth)) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    m->to = next;
    m->moving = true;
    normals(m, m->to);
    c->size[0] = reach_of(m, m->at, m->to);
    return CLOTH_OK;
}

cloth_status cloth_get_triangle_mesh_vertices(const cloth_t *cloth, cloth_collider_id id, float *vertices,
                                              size_t stride_bytes)
{
    if (cloth == NULL || vertices == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const cloth_collider *c = cloth_collider_find(cloth, id);
    if (c == NULL) {
        return CLOTH_ERR_OUT_OF_RANGE;
    }
    const cloth_collider_mesh *m = c->mesh;
    if (m == NULL || !cloth_stride_ok(&stride_bytes, m->vertex_count, 3u * sizeof(float))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; i < m->vertex_count; ++i) {
        memcpy((unsigned char *)vertices + (size_t)i * stride_bytes, m->to + 3u * i, 3u * sizeof(float));
    }
    return CLOTH_OK;
}

void cloth_mesh_collider_place(cloth_collider_mesh *m, uint32_t substep, uint32_t substeps, float dt)
{
    if (!m->moving) {
        return;
    }
    const size_t n = 3u * (size_t)m->vertex_count;
    if (substep <= 1u) {
        /* a step starts where the last one got to, as the poses do */
        memcpy(m->from, m->at, n * sizeof(float));
        if (memcmp(m->from, m->to, n * sizeof(float)) == 0) {
            m->moving = false;
            m->inv_dt = 0.0f;
            return;
        }
        m->inv_dt = dt > 0.0f ? 1.0f / dt : 0.0f;
    }
    if (substep >= substeps) {
        memcpy(m->at, m->to, n * sizeof(float));
    } else {
        const float s = (float)substep / (float)substeps;
        for (size_t i = 0; i < n; ++i) {
            m->at[i] = m->from[i] + (m->to[i] - m->from[i]) * s;
        }
    }
    balls(m);
}

bool cloth_mesh_collider_vertices_ok(const cloth_collider_mesh *m, const float *v)
{
    for (uint32_t i = 0; i < m->vertex_count; ++i) {
        if (!cloth_finite3(v + 3u * i) || !isfinite(cloth_dot3(v + 3u * i, v + 3u * i))) {
            return false;
        }
    }
    for (uint32_t t = 0; t < m->triangle_count; ++t) {
        if (degenerate(v, m->tri + 3u * t)) {
            return false;
        }
    }
    return true;
}

void cloth_mesh_collider_refresh(cloth_collider_mesh *m)
{
    normals(m, m->to);
    balls(m);
}

void cloth_mesh_collider_rewind(cloth_collider_mesh *m)
{
    if (m->moving) {
        memcpy(m->at, m->from, 3u * (size_t)m->vertex_count * sizeof(float));
        balls(m);
    }
}

/* The nearest point of triangle t to p (Ericson, Real-Time Collision
 * Detection, 5.1.5), which feature it lies on and its weights on the
 * corners. */
typedef struct near_point {
    const float *p;
    float d2, dist, q[3], bary[3]; /* dist: sqrt(d2), rounded up */
    uint32_t t;
    int feature; /* 0 the face; 1 + k corner k; 4 + k the edge from corner k to k + 1 */
} near_point;

static float nearest_on(const cloth_collider_mesh *m, uint32_t t, near_point *out)
{
    const uint32_t *tri = m->tri + 3u * t;
    const float *a = m->at + 3u * tri[0], *b = m->at + 3u * tri[1], *c = m->at + 3u * tri[2], *p = out->p;
    float ab[3], ac[3], ap[3], bp[3], cp[3];
    sub3(b, a, ab);
    sub3(c, a, ac);
    sub3(p, a, ap);
    float u = 1.0f, v = 0.0f, w = 0.0f; /* weights on a, b, c */
    int feature = 1;
    const float d1 = cloth_dot3(ab, ap), d2 = cloth_dot3(ac, ap);
    sub3(p, b, bp);
    const float d3 = cloth_dot3(ab, bp), d4 = cloth_dot3(ac, bp);
    sub3(p, c, cp);
    const float d5 = cloth_dot3(ab, cp), d6 = cloth_dot3(ac, cp);
    const float vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    if (d1 <= 0.0f && d2 <= 0.0f) {
        /* corner a */
    } else if (d3 >= 0.0f && d4 <= d3) {
        u = 0.0f;
        v = 1.0f;
        feature = 2;
    } else if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
        v = d1 / (d1 - d3);
        u = 1.0f - v;
        feature = 4;
    } else if (d6 >= 0.0f && d5 <= d6) {
        u = 0.0f;
        w = 1.0f;
        feature = 3;
    } else if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
        w = d2 / (d2 - d6);
        u = 1.0f - w;
        feature = 6;
    } else if (va <= 0.0f && d4 - d3 >= 0.0f && d5 - d6 >= 0.0f) {
        w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        v = 1.0f - w;
        u = 0.0f;
        feature = 5;
    } else {
        const float inv = 1.0f / (va + vb + vc);
        v = vb * inv;
        w = vc * inv;
        u = 1.0f - v - w;
        feature = 0;
    }
    float q[3], d[3];
    for (int k = 0; k < 3; ++k) {
        q[k] = a[k] * u + b[k] * v + c[k] * w;
    }
    sub3(p, q, d);
    const float d2q = cloth_dot3(d, d);
    /* the nearest, the lowest index among equals: the answer does not
     * depend on the order triangles come in (nor on the hint) */
    if (d2q < out->d2 || (d2q == out->d2 && out->t != CLOTH_MESH_NONE && t < out->t)) {
        out->d2 = d2q;
        out->dist = sqrtf(d2q) * 1.000001f;
        out->t = t;
        out->feature = feature;
        for (int k = 0; k < 3; ++k) {
            out->q[k] = q[k];
        }
        out->bary[0] = u;
        out->bary[1] = v;
        out->bary[2] = w;
    }
    return sqrtf(d2q);
}

/* Triangle t, unless a cheap bound shows it is farther than the nearest
 * so far: its ball, and for a still mesh its plane. `slack` covers the
 * rounding of the bounds against nearest_on()'s own arithmetic. */
static void consider(const cloth_collider_mesh *m, uint32_t t, near_point *np, float slack)
{
    const float *ball = m->ball + 4u * t, *p = np->p;
    const float d[3] = {p[0] - ball[0], p[1] - ball[1], p[2] - ball[2]};
    const float far = ball[3] + np->dist + slack;
    if (cloth_dot3(d, d) > far * far) {
        return;
    }
    if (!m->moving) {
        const float *n = m->face_n + 3u * t, *a = m->at + 3u * m->tri[3u * t];
        const float e[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
        if (fabsf(cloth_dot3(e, n)) > np->dist + slack) {
            return;
        }
    }
    (void)nearest_on(m, t, np);
}

/* The nearest triangle within np->dist, starting from the one nearest
 * last time (the hint; any triangle gives the same answer, a near one
 * passes over most of the rest at the first bound). */
static void search(const cloth_collider_mesh *m, near_point *np, uint32_t hint, float slack)
{
    uint32_t lo[3], hi[3];
    if (!cloth_mesh_grid_cells(&m->grid, np->p, np->dist, lo, hi)) {
        return;
    }
    if (hint < m->triangle_count) {
        (void)nearest_on(m, hint, np);
    }
    const cloth_mesh_grid *g = &m->grid;
    for (uint32_t z = lo[2]; z <= hi[2]; ++z) {
        for (uint32_t y = lo[1]; y <= hi[1]; ++y) {
            const size_t row = ((size_t)z * g->dims[1] + y) * g->dims[0];
            for (size_t cell = row + lo[0]; cell <= row + hi[0]; ++cell) {
                for (uint32_t e = g->start[cell]; e < g->start[cell + 1u]; ++e) {
                    consider(m, g->tris[e], np, slack);
                }
            }
        }
    }
}

/* The pseudo-normal of the feature the nearest point lies on (not unit). */
static void pseudo_normal(const cloth_collider_mesh *m, const near_point *np, float n[3])
{
    const float *f = m->face_n + 3u * np->t;
    if (np->feature >= 1 && np->feature <= 3) {
        const float *vn = m->vertex_n + 3u * m->tri[3u * np->t + (uint32_t)(np->feature - 1)];
        for (int k = 0; k < 3; ++k) {
            n[k] = vn[k];
        }
        return;
    }
    for (int k = 0; k < 3; ++k) {
        n[k] = f[k];
    }
    if (np->feature >= 4) {
        const uint32_t other = m->across[3u * np->t + (uint32_t)(np->feature - 4)];
        if (other != CLOTH_MESH_NONE) {
            const float *g = m->face_n + 3u * other;
            for (int k = 0; k < 3; ++k) {
                n[k] += g[k];
            }
        }
    }
}

/* The velocity of the surface point with weights `bary` on triangle t's
 * corners, in the frame: the mesh's own deformation. */
static void surface_velocity(const cloth_collider_mesh *m, uint32_t t, const float bary[3], float vel[3])
{
    vel[0] = vel[1] = vel[2] = 0.0f;
    if (!(m->inv_dt > 0.0f)) {
        return;
    }
    for (int corner = 0; corner < 3; ++corner) {
        const uint32_t v = m->tri[3u * t + (uint32_t)corner];
        for (int k = 0; k < 3; ++k) {
            const uint32_t e = 3u * v + (uint32_t)k;
            vel[k] += bary[corner] * (m->to[e] - m->from[e]) * m->inv_dt;
        }
    }
}

/* The nearest point inside a face: the particle moves along the face's own
 * normal, as off a plane, and keeps its place along the face exactly (a
 * point rebuilt from the corners' weights would carry their rounding,
 * which makes resting cloth creep). */
static bool on_face(const cloth_collider *c, const near_point *np, float out[3], float n[3], cloth_mesh_extra *extra)
{
    const cloth_collider_mesh *m = c->mesh;
    const uint32_t *tri = m->tri + 3u * np->t;
    const float *a = m->at + 3u * tri[0], *b = m->at + 3u * tri[1], *cc = m->at + 3u * tri[2];
    float ab[3], ac[3], f[3], ap[3];
    sub3(b, a, ab);
    sub3(cc, a, ac);
    cross3(ab, ac, f);
    const float len = sqrtf(cloth_dot3(f, f));
    if (!(len > 0.0f)) {
        return false;
    }
    for (int k = 0; k < 3; ++k) {
        f[k] /= len;
    }
    sub3(np->p, a, ap);
    const float gap = cloth_dot3(ap, f);
    if (!(gap < c->grown)) {
        return false;
    }
    const float push = c->grown - gap;
    for (int k = 0; k < 3; ++k) {
        n[k] = f[k];
        out[k] = np->p[k] + push * f[k];
    }
    surface_velocity(m, np->t, np->bary, extra->vel);
    /* the distance to the nearest side: corner k's weight times its height
     * over the opposite side (twice the area over that side's length) */
    float bc[3];
    sub3(cc, b, bc);
    const float to_side[3] = {np->bary[0] * len / sqrtf(cloth_dot3(bc, bc)), np->bary[1] * len / sqrtf(cloth_dot3(ac, ac)),
                              np->bary[2] * len / sqrtf(cloth_dot3(ab, ab))};
    extra->flat = fmaxf(0.0f, fminf(to_side[0], fminf(to_side[1], to_side[2])) * 0.999f);
    return true;
}

bool cloth_shape_triangle_mesh(const cloth_collider *c, uint32_t particle, const float p[3], float out[3], float n[3],
                               cloth_mesh_extra *extra)
{
    cloth_collider_mesh *m = c->mesh;
    const float reach = c->grown + m->depth;
    /* a part in 1e5 of the coordinates: far more than the rounding of the
     * bounds that pass triangles over */
    const float slack = 1e-5f * (fabsf(p[0]) + fabsf(p[1]) + fabsf(p[2]) + reach);
    near_point np = {.p = p, .d2 = reach * reach, .dist = reach, .t = CLOTH_MESH_NONE, .feature = 0};
    search(m, &np, m->hint[particle], slack);
    m->hint[particle] = np.t;
    if (np.t == CLOTH_MESH_NONE) {
        return false;
    }
    if (np.feature == 0) {
        return on_face(c, &np, out, n, extra);
    }
    float pn[3], d[3];
    pseudo_normal(m, &np, pn);
    sub3(p, np.q, d);
    const bool inside = cloth_dot3(d, pn) < 0.0f;
    const float dist = sqrtf(np.d2);
    if (!inside && !(dist < c->grown)) {
        return false;
    }
    /* straight away from the edge or corner; within a micrometre of it,
     * where that direction is rounding, along the pseudo-normal */
    if (dist > 1e-6f) {
        const float s = (inside ? -1.0f : 1.0f) / dist;
        for (int k = 0; k < 3; ++k) {
            n[k] = d[k] * s;
        }
    } else {
        const float len = sqrtf(cloth_dot3(pn, pn));
        if (!(len > 0.0f)) {
            return false; /* edges whose faces cancel: no side to push to */
        }
        for (int k = 0; k < 3; ++k) {
            n[k] = pn[k] / len;
        }
    }
    for (int k = 0; k < 3; ++k) {
        out[k] = np.q[k] + n[k] * c->grown;
    }
    surface_velocity(m, np.t, np.bary, extra->vel);
    extra->flat = 0.0f;
    return true;
}
