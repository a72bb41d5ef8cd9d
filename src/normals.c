/*
 * Render topology and vertex normals (seed 000): two triangles per grid quad,
 * and per particle the area-weighted sum of its triangles' normals, which is
 * the plain sum of their cross products (each is twice the area long).
 */
#include "cloth_internal.h"
#include "platform/stride.h"

#include <string.h>

uint32_t cloth_do_triangle_count(const cloth_t *cloth)
{
    if (cloth == NULL) {
        return 0u;
    }
    if (cloth->tris != NULL) {
        return cloth->tri_count;
    }
    if (cloth->rows < 2u || cloth->cols < 2u) {
        return 0u;
    }
    return 2u * (cloth->rows - 1u) * (cloth->cols - 1u);
}

uint32_t cloth_triangle_count(const cloth_t *cloth)
{
    return cloth_do_triangle_count(cloth);
}

cloth_status cloth_get_triangles(const cloth_t *cloth, uint32_t *dst)
{
    if (cloth == NULL || dst == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    /* through memcpy: the host's buffer may sit at any byte address */
    unsigned char *out = (unsigned char *)dst;
    const uint32_t n = cloth_do_triangle_count(cloth);
    for (uint32_t t = 0; t < n; ++t) {
        uint32_t v[3];
        cloth_triangle(cloth, t, v);
        memcpy(out + (size_t)t * sizeof v, v, sizeof v);
    }
    return CLOTH_OK;
}

/* The normals accumulate in the host's buffer, one xyz record every
 * `stride` bytes at any byte address: every access is a memcpy of one
 * float, which the compiler makes a plain scalar load or store. One float
 * at a time: a whole record copied through a local array compiles to
 * accesses of mixed widths, which defeat store-to-load forwarding. */
static float load1(const unsigned char *at)
{
    float f;
    memcpy(&f, at, sizeof f);
    return f;
}

static void store1(unsigned char *at, float f)
{
    memcpy(at, &f, sizeof f);
}

static void add1(unsigned char *at, float x)
{
    store1(at, load1(at) + x);
}

/* Add the cross product (b - a) x (c - a) of triangle (a, b, c) to the
 * normals of its three corners. */
static void add_triangle(const cloth_t *cloth, unsigned char *n, size_t stride, const uint32_t v[3])
{
    const uint32_t a = v[0], b = v[1], c = v[2];
    const float *x = cloth->p.x, *y = cloth->p.y, *z = cloth->p.z;
    float e1x = x[b] - x[a], e1y = y[b] - y[a], e1z = z[b] - z[a];
    float e2x = x[c] - x[a], e2y = y[c] - y[a], e2z = z[c] - z[a];
    float cx = e1y * e2z - e1z * e2y;
    float cy = e1z * e2x - e1x * e2z;
    float cz = e1x * e2y - e1y * e2x;
    for (int k = 0; k < 3; ++k) {
        unsigned char *rec = n + (size_t)v[k] * stride;
        add1(rec, cx);
        add1(rec + sizeof(float), cy);
        add1(rec + 2u * sizeof(float), cz);
    }
}

/* Normalise the record at `rec`, scaling by the largest component first so
 * tiny triangles, whose squared length would underflow, still give a unit
 * normal; `fallback` where there is no direction. */
static void normalise_or(unsigned char *rec, const float fallback[3])
{
    float x = load1(rec), y = load1(rec + sizeof(float)), z = load1(rec + 2u * sizeof(float));
    float m = fmaxf(fabsf(x), fmaxf(fabsf(y), fabsf(z)));
    /* fmaxf skips a NaN, so check every component: the cross products of a
     * blown-up cloth's huge (finite) triangles can give inf - inf */
    if (m > 0.0f && isfinite(x) && isfinite(y) && isfinite(z)) {
        float a = x / m, b = y / m, c = z / m;
        float inv = 1.0f / sqrtf(a * a + b * b + c * c);
        x = a * inv;
        y = b * inv;
        z = c * inv;
    } else {
        x = fallback[0];
        y = fallback[1];
        z = fallback[2];
    }
    store1(rec, x);
    store1(rec + sizeof(float), y);
    store1(rec + 2u * sizeof(float), z);
}

cloth_status cloth_get_normals(const cloth_t *cloth, float *dst, size_t stride_bytes)
{
    if (cloth == NULL || dst == NULL || !cloth_stride_ok(&stride_bytes, cloth->count, 3u * sizeof(float))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    /* Accumulate straight into the host's buffer: no scratch memory, and the
     * padding between records is never touched. */
    unsigned char *out = (unsigned char *)dst;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        memset(out + (size_t)i * stride_bytes, 0, 3u * sizeof(float));
    }
    const uint32_t n = cloth_do_triangle_count(cloth);
    for (uint32_t t = 0; t < n; ++t) {
        uint32_t v[3];
        cloth_triangle(cloth, t, v);
        add_triangle(cloth, out, stride_bytes, v);
    }
    for (uint32_t i = 0; i < cloth->count; ++i) {
        normalise_or(out + (size_t)i * stride_bytes, cloth->fallback_normal);
    }
    return CLOTH_OK;
}
