/*
 * test_crossings.h: how many times a cloth's surface passes through
 * itself, as the self-collision tests count it: an edge of a triangle
 * crossing another triangle that shares no particle with it. Every (edge,
 * triangle) pair whose boxes meet, found by a sweep along x, tested in
 * double; for tests of a few thousand triangles.
 */
#ifndef CLOTHSIM_TEST_CROSSINGS_H
#define CLOTHSIM_TEST_CROSSINGS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

static inline void crossings_sub(const double *a, const double *b, double *out)
{
    out[0] = a[0] - b[0], out[1] = a[1] - b[1], out[2] = a[2] - b[2];
}

static inline void crossings_cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static inline double crossings_dot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Whether segment p-q passes through the inside of triangle v0 v1 v2
 * (Moller and Trumbore's test, ends and borders excluded). */
static inline bool crossings_segment_hits(const double *p, const double *q, const double *v0, const double *v1,
                                          const double *v2)
{
    double e1[3], e2[3], dir[3], h[3], s[3], qv[3];
    crossings_sub(v1, v0, e1);
    crossings_sub(v2, v0, e2);
    crossings_sub(q, p, dir);
    crossings_cross(dir, e2, h);
    const double a = crossings_dot(e1, h);
    if (fabs(a) < 1e-18) {
        return false; /* parallel */
    }
    const double f = 1.0 / a;
    crossings_sub(p, v0, s);
    const double u = f * crossings_dot(s, h);
    if (!(u > 0.0 && u < 1.0)) {
        return false;
    }
    crossings_cross(s, e1, qv);
    const double v = f * crossings_dot(dir, qv);
    if (!(v > 0.0 && u + v < 1.0)) {
        return false;
    }
    const double t = f * crossings_dot(e2, qv);
    return t > 0.0 && t < 1.0;
}

/* qsort's order of triangle boxes by their lowest x. */
static inline int crossings_by_min_x(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The (edge, triangle) crossings of the surface `tris` (3 indices each)
 * over positions `x` (xyz per particle), every triangle's three edges
 * tested (an edge of two triangles counts twice); -1 if out of memory.
 * The triangles' boxes sorted by their lowest x, an edge reads only those
 * that can reach it along x. */
static inline long test_count_crossings(const float *x, const uint32_t *tris, uint32_t tri_count)
{
    /* per triangle: min x, y, z, max x, y, z, index */
    double *box = malloc(sizeof(double) * 7u * tri_count);
    if (box == NULL) {
        return -1;
    }
    double widest = 0.0;
    for (uint32_t t = 0; t < tri_count; ++t) {
        double *b = box + 7u * t;
        for (int k = 0; k < 3; ++k) {
            b[k] = HUGE_VAL;
            b[3 + k] = -HUGE_VAL;
        }
        for (int c = 0; c < 3; ++c) {
            const float *v = x + 3u * tris[3u * t + (uint32_t)c];
            for (int k = 0; k < 3; ++k) {
                b[k] = fmin(b[k], (double)v[k]);
                b[3 + k] = fmax(b[3 + k], (double)v[k]);
            }
        }
        b[6] = (double)t;
        widest = fmax(widest, b[3] - b[0]);
    }
    qsort(box, tri_count, 7u * sizeof(double), crossings_by_min_x);
    long hits = 0;
    for (uint32_t e = 0; e < tri_count; ++e) {
        for (int side = 0; side < 3; ++side) {
            const uint32_t ia = tris[3u * e + (uint32_t)side], ib = tris[3u * e + (uint32_t)(side + 1) % 3u];
            double p[3], q[3], lo[3], hi[3];
            for (int k = 0; k < 3; ++k) {
                p[k] = (double)x[3u * ia + (uint32_t)k];
                q[k] = (double)x[3u * ib + (uint32_t)k];
                lo[k] = fmin(p[k], q[k]);
                hi[k] = fmax(p[k], q[k]);
            }
            /* the first box whose lowest x can reach the edge */
            uint32_t first = 0u, last = tri_count;
            while (first < last) {
                const uint32_t mid = first + (last - first) / 2u;
                if (box[7u * mid] < lo[0] - widest) {
                    first = mid + 1u;
                } else {
                    last = mid;
                }
            }
            for (uint32_t s = first; s < tri_count && box[7u * s] <= hi[0]; ++s) {
                const double *b = box + 7u * s;
                if (lo[0] > b[3] || hi[1] < b[1] || lo[1] > b[4] || hi[2] < b[2] || lo[2] > b[5]) {
                    continue;
                }
                const uint32_t *tv = tris + 3u * (uint32_t)b[6];
                if (tv[0] == ia || tv[1] == ia || tv[2] == ia || tv[0] == ib || tv[1] == ib || tv[2] == ib) {
                    continue; /* shares a particle */
                }
                double v[3][3];
                for (int c = 0; c < 3; ++c) {
                    for (int k = 0; k < 3; ++k) {
                        v[c][k] = (double)x[3u * tv[c] + (uint32_t)k];
                    }
                }
                hits += crossings_segment_hits(p, q, v[0], v[1], v[2]) ? 1 : 0;
            }
        }
    }
    free(box);
    return hits;
}

#endif /* CLOTHSIM_TEST_CROSSINGS_H */
