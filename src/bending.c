/*
 * Dihedral bending: a hinge on every interior edge of the render triangles,
 * with energy E = k (theta - theta0)^2 / 2 in the angle theta between the two
 * triangles' normals, and the force its exact negative gradient.
 *
 * Why the gradient of that energy rather than Bridson et al.'s
 * sin(theta / 2) form: it is conservative, so symplectic Euler keeps the
 * energy bounded and the force is exactly zero at the rest angle; the two
 * share the same direction vectors and differ only in the scalar magnitude.
 * theta comes from atan2 of the sine and cosine, so it is accurate at every
 * angle (acos of a clamped dot product loses half the digits near 0 and pi).
 *
 * Hinge (a, b, p, q): a -> b is the shared edge as the first triangle winds
 * it, p that triangle's third corner, q the other's. With e = b - a,
 *     N1 = e x (p - a),   N2 = (q - a) x e,
 * the two normals agree on a flat cloth whatever the second triangle's
 * winding, and theta = atan2((N1 x N2) . e, |e| N1 . N2) is 0 there.
 * Gradient (h1, h2 the heights of p and q above the edge line,
 * t_p = (p - a) . e / |e|^2 where p projects onto it):
 *     dtheta/dp = -|e| N1 / |N1|^2  (= -n1 / h1),  dtheta/dq = -|e| N2 / |N2|^2,
 *     dtheta/da = -((1 - t_p) dtheta/dp + (1 - t_q) dtheta/dq),
 *     dtheta/db = -(t_p dtheta/dp + t_q dtheta/dq);
 * the four sum to zero (momentum) and the torque about any point is zero
 * (angular momentum), as for any function of the shape alone.
 *
 * The hinges are found once, by sorting the triangles' half-edges (no hash
 * table; the order depends only on the triangles), when bending is first
 * switched on; until then a cloth pays nothing for it. Their rest angles come
 * from the creation shape, so switching bending on late does not bake a
 * sagged shape in.
 */
#include "cloth_internal.h"
#include "bending.h"

#include <stdlib.h>
#include <string.h>

struct cloth_bending {
    float k;          /* N m / rad, every hinge (cloth_set_bending_stiffness()) */
    float rigidity;   /* N m, a material's D: hinge h adds D weight[h] */
    uint32_t count;   /* hinges */
    uint32_t *hinge;  /* a, b, p, q per hinge */
    float *rest;      /* theta0 per hinge, rad */
    float *weight;    /* |e|^2 / A_e per hinge in the creation shape (A_e: both triangles' area) */
    size_t bytes;     /* the one block holding this struct and both arrays */
};

typedef struct edge_rec {
    uint32_t lo, hi; /* endpoints, lo < hi */
    uint32_t tri;
    uint32_t corner; /* the edge runs from corner to corner + 1 of tri */
} edge_rec;

static int compare_edges(const void *pa, const void *pb)
{
    const edge_rec *x = pa, *y = pb;
    if (x->lo != y->lo) {
        return x->lo < y->lo ? -1 : 1;
    }
    if (x->hi != y->hi) {
        return x->hi < y->hi ? -1 : 1;
    }
    return x->tri < y->tri ? -1 : (x->tri > y->tri ? 1 : 0);
}

/* The gradient's shared pieces for one hinge; false when a triangle or the
 * edge is degenerate (no plane, so no angle and no force). */
typedef struct hinge_geom {
    float theta;
    float n1[3], n2[3]; /* |e| N / |N|^2: the gradient at p and q, negated */
    float tp, tq;
} hinge_geom;

/* Below this |N|^2 / |e|^4, i.e. a height under 1e-4 of the edge, the
 * triangle is a sliver whose normal is mostly rounding: no force. */
static const float sliver = 1e-8f;

static bool hinge_measure(const float *x, const float *y, const float *z, const uint32_t h[4], hinge_geom *g)
{
    const uint32_t a = h[0], b = h[1], p = h[2], q = h[3];
    const float ex = x[b] - x[a], ey = y[b] - y[a], ez = z[b] - z[a];
    const float px = x[p] - x[a], py = y[p] - y[a], pz = z[p] - z[a];
    const float qx = x[q] - x[a], qy = y[q] - y[a], qz = z[q] - z[a];
    const float e2 = ex * ex + ey * ey + ez * ez;
    /* N1 = e x (p - a), N2 = (q - a) x e */
    const float ax = ey * pz - ez * py, ay = ez * px - ex * pz, az = ex * py - ey * px;
    const float bx = qy * ez - qz * ey, by = qz * ex - qx * ez, bz = qx * ey - qy * ex;
    const float a2 = ax * ax + ay * ay + az * az, b2 = bx * bx + by * by + bz * bz;
    const float floor2 = sliver * e2 * e2;
    if (!(e2 > 0.0f) || !(a2 > floor2) || !(b2 > floor2)) {
        return false;
    }
    const float elen = sqrtf(e2);
    const float cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    g->theta = atan2f(cx * ex + cy * ey + cz * ez, elen * (ax * bx + ay * by + az * bz));
    const float sa = elen / a2, sb = elen / b2;
    g->n1[0] = ax * sa;
    g->n1[1] = ay * sa;
    g->n1[2] = az * sa;
    g->n2[0] = bx * sb;
    g->n2[1] = by * sb;
    g->n2[2] = bz * sb;
    g->tp = (px * ex + py * ey + pz * ez) / e2;
    g->tq = (qx * ex + qy * ey + qz * ez) / e2;
    return true;
}

/* |e|^2 / A_e of hinge v in the shape (x, y, z), in double. */
static float hinge_weight(const float *x, const float *y, const float *z, const uint32_t v[4])
{
    double e[3], n1 = 0.0, n2 = 0.0, e2 = 0.0;
    const float *c[3] = {x, y, z};
    for (int k = 0; k < 3; ++k) {
        e[k] = (double)c[k][v[1]] - (double)c[k][v[0]];
        e2 += e[k] * e[k];
    }
    double p[3], q[3];
    for (int k = 0; k < 3; ++k) {
        p[k] = (double)c[k][v[2]] - (double)c[k][v[0]];
        q[k] = (double)c[k][v[3]] - (double)c[k][v[0]];
    }
    const double a[3] = {e[1] * p[2] - e[2] * p[1], e[2] * p[0] - e[0] * p[2], e[0] * p[1] - e[1] * p[0]};
    const double b[3] = {e[1] * q[2] - e[2] * q[1], e[2] * q[0] - e[0] * q[2], e[0] * q[1] - e[1] * q[0]};
    n1 = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    n2 = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    const double area = (n1 + n2) / 2.0;
    return area > 0.0 ? (float)(e2 / area) : 0.0f;
}

/* Collect the hinges: edges with exactly two triangles and two different
 * third corners. An edge of three or more triangles (non-manifold) gets none. */
static uint32_t collect_hinges(const cloth_t *cloth, const edge_rec *e, uint32_t n, uint32_t *out)
{
    uint32_t count = 0;
    for (uint32_t k = 0; k < n;) {
        uint32_t end = k + 1u;
        while (end < n && e[end].lo == e[k].lo && e[end].hi == e[k].hi) {
            ++end;
        }
        if (end - k == 2u) {
            uint32_t t1[3], t2[3];
            cloth_triangle(cloth, e[k].tri, t1);
            cloth_triangle(cloth, e[k + 1u].tri, t2);
            const uint32_t c1 = e[k].corner, c2 = e[k + 1u].corner;
            const uint32_t p = t1[(c1 + 2u) % 3u], q = t2[(c2 + 2u) % 3u];
            if (p != q) {
                if (out != NULL) {
                    out[4u * count] = t1[c1];
                    out[4u * count + 1u] = t1[(c1 + 1u) % 3u];
                    out[4u * count + 2u] = p;
                    out[4u * count + 3u] = q;
                }
                ++count;
            }
        }
        k = end;
    }
    return count;
}

static cloth_status build(cloth_t *cloth)
{
    const uint32_t tris = cloth_do_triangle_count(cloth);
    const size_t n_edges = (size_t)tris * 3u;
    const size_t edge_bytes = n_edges * sizeof(edge_rec);
    edge_rec *edges = cloth_mem_alloc(&cloth->alloc, edge_bytes);
    if (edges == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t t = 0; t < tris; ++t) {
        uint32_t v[3];
        cloth_triangle(cloth, t, v);
        for (uint32_t c = 0; c < 3u; ++c) {
            const uint32_t a = v[c], b = v[(c + 1u) % 3u];
            edges[3u * t + c] = (edge_rec){a < b ? a : b, a < b ? b : a, t, c};
        }
    }
    /* (lo, hi, tri) is unique per half-edge, so the unstable qsort still
     * gives one order for one input */
    qsort(edges, n_edges, sizeof *edges, compare_edges);
    const uint32_t count = collect_hinges(cloth, edges, (uint32_t)n_edges, NULL);

    const size_t head = (sizeof(struct cloth_bending) + CLOTH_ALIGN - 1u) / CLOTH_ALIGN * CLOTH_ALIGN;
    const size_t idx_bytes = ((size_t)count * 4u * sizeof(uint32_t) + CLOTH_ALIGN - 1u) / CLOTH_ALIGN * CLOTH_ALIGN;
    const size_t bytes = head + idx_bytes + 2u * (size_t)count * sizeof(float);
    unsigned char *mem = cloth_mem_alloc(&cloth->alloc, bytes);
    if (mem == NULL) {
        cloth_mem_free(&cloth->alloc, edges, edge_bytes);
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    struct cloth_bending *bend = (struct cloth_bending *)(void *)mem;
    bend->k = 0.0f;
    bend->rigidity = 0.0f;
    bend->count = count;
    bend->hinge = (uint32_t *)(void *)(mem + head);
    bend->rest = (float *)(void *)(mem + head + idx_bytes);
    bend->weight = bend->rest + count;
    bend->bytes = bytes;
    collect_hinges(cloth, edges, (uint32_t)n_edges, bend->hinge);
    cloth_mem_free(&cloth->alloc, edges, edge_bytes);

    /* Rest angles from the creation shape: a grid is built flat (0, exactly,
     * whatever its axes); a mesh's input positions are kept for the tethers
     * (constraints/tethers.c), or, should they be missing, the shape now. A
     * hinge with a sliver triangle in that shape has no angle there; it
     * gets 0 (flat). */
    const float *rx = cloth->p.x, *ry = cloth->p.y, *rz = cloth->p.z;
    if (cloth->rest_shape != NULL) {
        rx = cloth->rest_shape;
        ry = rx + cloth->count;
        rz = ry + cloth->count;
    }
    const bool flat = cloth->tris == NULL;
    for (uint32_t h = 0; h < count; ++h) {
        hinge_geom g;
        const uint32_t *v = bend->hinge + 4u * h;
        const bool ok = hinge_measure(rx, ry, rz, v, &g);
        bend->rest[h] = !flat && ok ? g.theta : 0.0f;
        /* |e|^2 / A_e = 2 |e|^4 / (|N1| + |N2|) with |N| = |e| h the
         * doubled triangle areas; 1 / |n1| = |N1| / |e| */
        bend->weight[h] = ok ? hinge_weight(rx, ry, rz, v) : 0.0f;
    }
    cloth->bending = bend;
    return CLOTH_OK;
}

cloth_status cloth_set_bending_stiffness(cloth_t *cloth, float k_bend)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !(k_bend >= 0.0f) || !isfinite(k_bend)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (k_bend > 0.0f) {
        cloth_status s = cloth_bending_reserve(cloth);
        if (s != CLOTH_OK) {
            return s;
        }
    }
    if (cloth->bending != NULL) {
        cloth->bending->k = k_bend;
    }
    return CLOTH_OK;
}

cloth_status cloth_bending_reserve(cloth_t *cloth)
{
    return cloth->bending != NULL ? CLOTH_OK : build(cloth);
}

void cloth_bending_set_rigidity(cloth_t *cloth, float rigidity)
{
    if (cloth->bending != NULL) {
        cloth->bending->rigidity = rigidity;
    }
}

/* The turn of a hinge away from its rest angle, the shorter way round: a
 * hinge turned past pi from its rest is closer to it the other way. */
static float hinge_turn(float theta, float rest)
{
    const float pi = 3.14159265f, two_pi = 6.28318531f;
    float d = theta - rest;
    if (d > pi) {
        d -= two_pi;
    } else if (d < -pi) {
        d += two_pi;
    }
    return d;
}

/* XPBD on C = theta - theta0 with compliance 1 / k_h, lambda from 0 (one
 * pass per substep): dl = -C / (sum w |grad|^2 + 1 / (k_h h^2)), each
 * corner moves by w grad dl, and its velocity by that over h. In hinge
 * order, on the calling thread. */
void cloth_bending_project(cloth_t *cloth, float h)
{
    const struct cloth_bending *bend = cloth->bending;
    if (bend == NULL || (bend->k == 0.0f && bend->rigidity == 0.0f)) {
        return;
    }
    cloth_particles *P = &cloth->p;
    const float inv_h = 1.0f / h, inv_h2 = inv_h * inv_h;
    for (uint32_t n = 0; n < bend->count; ++n) {
        const uint32_t *v = bend->hinge + 4u * n;
        const float k = bend->k + bend->rigidity * bend->weight[n];
        hinge_geom g;
        if (!(k > 0.0f) || !hinge_measure(P->x, P->y, P->z, v, &g)) {
            continue;
        }
        const float d = hinge_turn(g.theta, bend->rest[n]);
        float grad[4][3];
        for (int c = 0; c < 3; ++c) {
            grad[2][c] = -g.n1[c];
            grad[3][c] = -g.n2[c];
            grad[1][c] = -(g.tp * grad[2][c] + g.tq * grad[3][c]);
            grad[0][c] = -(grad[2][c] + grad[3][c]) - grad[1][c];
        }
        float den = inv_h2 / k;
        for (int m = 0; m < 4; ++m) {
            den += P->w[v[m]] * (grad[m][0] * grad[m][0] + grad[m][1] * grad[m][1] + grad[m][2] * grad[m][2]);
        }
        const float dl = -d / den;
        if (!(dl != 0.0f) || !isfinite(dl)) {
            continue;
        }
        for (int m = 0; m < 4; ++m) {
            const uint32_t i = v[m];
            const float s = P->w[i] * dl;
            const float mx = s * grad[m][0], my = s * grad[m][1], mz = s * grad[m][2];
            P->x[i] += mx;
            P->y[i] += my;
            P->z[i] += mz;
            P->vx[i] += mx * inv_h;
            P->vy[i] += my * inv_h;
            P->vz[i] += mz * inv_h;
        }
    }
}

void cloth_bending_accumulate(cloth_t *cloth)
{
    const struct cloth_bending *bend = cloth->bending;
    if (bend == NULL || (bend->k == 0.0f && bend->rigidity == 0.0f)) {
        return;
    }
    cloth_particles *P = &cloth->p;
    for (uint32_t h = 0; h < bend->count; ++h) {
        const uint32_t *v = bend->hinge + 4u * h;
        hinge_geom g;
        if (!hinge_measure(P->x, P->y, P->z, v, &g)) {
            continue;
        }
        const float d = hinge_turn(g.theta, bend->rest[h]);
        if (d == 0.0f) {
            continue; /* at rest: no force, bit for bit */
        }
        /* F = -k d dtheta/dx: +k d n1 on p, +k d n2 on q, and the edge's
         * share so that the four forces sum to zero */
        const float s = (bend->k + bend->rigidity * bend->weight[h]) * d;
        float fp[3], fq[3], fb[3], fa[3];
        for (int c = 0; c < 3; ++c) {
            fp[c] = s * g.n1[c];
            fq[c] = s * g.n2[c];
            fb[c] = -(g.tp * fp[c] + g.tq * fq[c]);
            fa[c] = -(fp[c] + fq[c]) - fb[c];
        }
        const uint32_t a = v[0], b = v[1], p = v[2], q = v[3];
        P->fx[a] += fa[0];
        P->fy[a] += fa[1];
        P->fz[a] += fa[2];
        P->fx[b] += fb[0];
        P->fy[b] += fb[1];
        P->fz[b] += fb[2];
        P->fx[p] += fp[0];
        P->fy[p] += fp[1];
        P->fz[p] += fp[2];
        P->fx[q] += fq[0];
        P->fy[q] += fq[1];
        P->fz[q] += fq[2];
    }
}

void cloth_bending_free(cloth_t *cloth)
{
    if (cloth->bending != NULL) {
        cloth_mem_free(&cloth->alloc, cloth->bending, cloth->bending->bytes);
        cloth->bending = NULL;
    }
}

float cloth_bending_k_max(const cloth_t *cloth)
{
    const struct cloth_bending *bend = cloth->bending;
    float top = 0.0f;
    for (uint32_t h = 0; bend != NULL && h < bend->count; ++h) {
        const float k = bend->k + bend->rigidity * bend->weight[h];
        top = k > top ? k : top;
    }
    return top;
}
