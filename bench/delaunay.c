/* Bowyer-Watson (delaunay.h): insert the points one at a time into a
 * triangle that encloses them all; every triangle whose circumcircle holds
 * the new point goes, and the hole is fanned from the point. */
#include "delaunay.h"

#include <stdlib.h>

typedef struct tri {
    uint32_t a, b, c;
    double cu, cv, r2; /* circumcircle */
} tri;

static void circle(tri *t, const double *u, const double *v)
{
    const double ax = u[t->a], ay = v[t->a], bx = u[t->b], by = v[t->b], cx = u[t->c], cy = v[t->c];
    const double d = 2.0 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
    const double a2 = ax * ax + ay * ay, b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
    t->cu = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d;
    t->cv = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d;
    t->r2 = (ax - t->cu) * (ax - t->cu) + (ay - t->cv) * (ay - t->cv);
}

/* (a, b, c) counter-clockwise */
static tri make(uint32_t a, uint32_t b, uint32_t c, const double *u, const double *v)
{
    const double cross = (u[b] - u[a]) * (v[c] - v[a]) - (v[b] - v[a]) * (u[c] - u[a]);
    tri t = {a, cross > 0.0 ? b : c, cross > 0.0 ? c : b, 0.0, 0.0, 0.0};
    circle(&t, u, v);
    return t;
}

uint32_t delaunay_triangulate(const double *pu, const double *pv, uint32_t n, uint32_t *out)
{
    /* the points and three more for the enclosing triangle */
    double *u = malloc(sizeof(double) * (n + 3u)), *v = malloc(sizeof(double) * (n + 3u));
    const size_t cap = 2u * (size_t)n + 16u;
    tri *t = malloc(sizeof(tri) * cap);
    uint32_t *edge = malloc(sizeof(uint32_t) * 6u * cap); /* a cavity has at most 3 edges per triangle */
    if (u == NULL || v == NULL || t == NULL || edge == NULL) {
        free(u), free(v), free(t), free(edge);
        return 0;
    }
    double lo_u = pu[0], hi_u = pu[0], lo_v = pv[0], hi_v = pv[0];
    for (uint32_t k = 0; k < n; ++k) {
        u[k] = pu[k];
        v[k] = pv[k];
        lo_u = u[k] < lo_u ? u[k] : lo_u;
        hi_u = u[k] > hi_u ? u[k] : hi_u;
        lo_v = v[k] < lo_v ? v[k] : lo_v;
        hi_v = v[k] > hi_v ? v[k] : hi_v;
    }
    const double span = (hi_u - lo_u > hi_v - lo_v ? hi_u - lo_u : hi_v - lo_v) + 1.0;
    const double mu = 0.5 * (lo_u + hi_u), mv = 0.5 * (lo_v + hi_v);
    u[n] = mu - 20.0 * span, v[n] = mv - span;
    u[n + 1u] = mu + 20.0 * span, v[n + 1u] = mv - span;
    u[n + 2u] = mu, v[n + 2u] = mv + 20.0 * span;
    size_t count = 0;
    t[count++] = make(n, n + 1u, n + 2u, u, v);
    for (uint32_t p = 0; p < n; ++p) {
        /* the cavity: drop the triangles whose circle holds p, keeping
         * their edges; an edge two of them share is inside and goes */
        size_t edges = 0, keep = 0;
        for (size_t k = 0; k < count; ++k) {
            const double du = u[p] - t[k].cu, dv = v[p] - t[k].cv;
            if (du * du + dv * dv < t[k].r2) {
                const uint32_t e[6] = {t[k].a, t[k].b, t[k].b, t[k].c, t[k].c, t[k].a};
                for (int m = 0; m < 3; ++m) {
                    size_t f = 0;
                    while (f < edges && !(edge[2u * f] == e[2 * m + 1] && edge[2u * f + 1u] == e[2 * m])) {
                        ++f;
                    }
                    if (f < edges) {
                        edge[2u * f] = edge[2u * (edges - 1u)];
                        edge[2u * f + 1u] = edge[2u * (edges - 1u) + 1u];
                        --edges;
                    } else {
                        edge[2u * edges] = e[2 * m];
                        edge[2u * edges + 1u] = e[2 * m + 1];
                        ++edges;
                    }
                }
            } else {
                t[keep++] = t[k];
            }
        }
        count = keep;
        for (size_t f = 0; f < edges && count < cap; ++f) {
            t[count++] = make(edge[2u * f], edge[2u * f + 1u], p, u, v);
        }
    }
    uint32_t made = 0;
    for (size_t k = 0; k < count; ++k) {
        if (t[k].a < n && t[k].b < n && t[k].c < n) {
            out[3u * made] = t[k].a;
            out[3u * made + 1u] = t[k].b;
            out[3u * made + 2u] = t[k].c;
            ++made;
        }
    }
    free(u), free(v), free(t), free(edge);
    return made;
}
