/*
 * Render topology and vertex normals (seed 000): two triangles per grid quad,
 * and per particle the area-weighted sum of its triangles' normals, which is
 * the plain sum of their cross products (each is twice the area long).
 */
#include "cloth_internal.h"

#include <string.h>

uint32_t cloth_triangle_count(const cloth_t *cloth)
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

cloth_status cloth_get_triangles(const cloth_t *cloth, uint32_t *dst)
{
    if (cloth == NULL || dst == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const uint32_t n = cloth_triangle_count(cloth);
    for (uint32_t t = 0; t < n; ++t) {
        cloth_triangle(cloth, t, dst + 3u * t);
    }
    return CLOTH_OK;
}

/* Add the cross product (b - a) x (c - a) of triangle (a, b, c) to the
 * normals of its three corners; `stride` is in floats. */
static void add_triangle(const cloth_t *cloth, float *n, size_t stride, const uint32_t v[3])
{
    const uint32_t a = v[0], b = v[1], c = v[2];
    const float *x = cloth->p.x, *y = cloth->p.y, *z = cloth->p.z;
    float e1x = x[b] - x[a], e1y = y[b] - y[a], e1z = z[b] - z[a];
    float e2x = x[c] - x[a], e2y = y[c] - y[a], e2z = z[c] - z[a];
    float cx = e1y * e2z - e1z * e2y;
    float cy = e1z * e2x - e1x * e2z;
    float cz = e1x * e2y - e1y * e2x;
    for (int k = 0; k < 3; ++k) {
        float *o = n + stride * v[k];
        o[0] += cx;
        o[1] += cy;
        o[2] += cz;
    }
}

/* Scale by the largest component first so tiny triangles, whose squared
 * length would underflow, still give a unit normal. */
static void normalise_or(float *o, const float fallback[3])
{
    float m = fmaxf(fabsf(o[0]), fmaxf(fabsf(o[1]), fabsf(o[2])));
    /* fmaxf skips a NaN, so check every component: the cross products of a
     * blown-up cloth's huge (finite) triangles can give inf - inf */
    if (m > 0.0f && cloth_finite3(o)) {
        float a = o[0] / m, b = o[1] / m, c = o[2] / m;
        float inv = 1.0f / sqrtf(a * a + b * b + c * c);
        o[0] = a * inv;
        o[1] = b * inv;
        o[2] = c * inv;
    } else {
        o[0] = fallback[0];
        o[1] = fallback[1];
        o[2] = fallback[2];
    }
}

cloth_status cloth_get_normals(const cloth_t *cloth, float *dst, size_t stride_bytes)
{
    if (cloth == NULL || dst == NULL ||
        (stride_bytes != 0u && (stride_bytes < 12u || stride_bytes % sizeof(float) != 0u))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    /* Accumulate straight into the host's buffer: no scratch memory, and the
     * padding between records is never touched. */
    const size_t stride = stride_bytes == 0u ? 3u : stride_bytes / sizeof(float);
    for (uint32_t i = 0; i < cloth->count; ++i) {
        memset(dst + stride * i, 0, 3u * sizeof(float));
    }
    const uint32_t n = cloth_triangle_count(cloth);
    for (uint32_t t = 0; t < n; ++t) {
        uint32_t v[3];
        cloth_triangle(cloth, t, v);
        add_triangle(cloth, dst, stride, v);
    }
    for (uint32_t i = 0; i < cloth->count; ++i) {
        normalise_or(dst + stride * i, cloth->fallback_normal);
    }
    return CLOTH_OK;
}
