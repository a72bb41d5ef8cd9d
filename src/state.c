/*
 * Strided copies between the particle arrays and the host's vertex buffers.
 */
#include "cloth_internal.h"

#include <string.h>

/* 0 means packed; otherwise a multiple of 4 bytes of at least one xyz. */
static bool stride_ok(size_t *stride_bytes)
{
    if (*stride_bytes == 0u) {
        *stride_bytes = 3u * sizeof(float);
        return true;
    }
    return *stride_bytes >= 3u * sizeof(float) && *stride_bytes % sizeof(float) == 0u;
}

/* Copying through memcpy keeps an unaligned or aliasing-unfriendly host
 * buffer legal; the compiler turns each into a plain store. */
static void write3(const cloth_t *cloth, const float *ax, const float *ay, const float *az,
                   float *dst, size_t stride_bytes)
{
    unsigned char *out = (unsigned char *)dst;
    for (uint32_t i = 0; i < cloth->count; ++i, out += stride_bytes) {
        float v[3] = {ax[i], ay[i], az[i]};
        memcpy(out, v, sizeof v);
    }
}

static bool read3_finite(const cloth_t *cloth, const float *src, size_t stride_bytes)
{
    const unsigned char *in = (const unsigned char *)src;
    for (uint32_t i = 0; i < cloth->count; ++i, in += stride_bytes) {
        float v[3];
        memcpy(v, in, sizeof v);
        if (!cloth_finite3(v)) {
            return false;
        }
    }
    return true;
}

static void read3(const cloth_t *cloth, float *ax, float *ay, float *az, const float *src,
                  size_t stride_bytes)
{
    const unsigned char *in = (const unsigned char *)src;
    for (uint32_t i = 0; i < cloth->count; ++i, in += stride_bytes) {
        float v[3];
        memcpy(v, in, sizeof v);
        ax[i] = v[0];
        ay[i] = v[1];
        az[i] = v[2];
    }
}

uint32_t cloth_particle_count(const cloth_t *cloth)
{
    return cloth == NULL ? 0u : cloth->count;
}

cloth_status cloth_get_positions(const cloth_t *cloth, float *dst, size_t stride_bytes)
{
    if (cloth == NULL || dst == NULL || !stride_ok(&stride_bytes)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    write3(cloth, cloth->p.x, cloth->p.y, cloth->p.z, dst, stride_bytes);
    return CLOTH_OK;
}

cloth_status cloth_get_velocities(const cloth_t *cloth, float *dst, size_t stride_bytes)
{
    if (cloth == NULL || dst == NULL || !stride_ok(&stride_bytes)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    write3(cloth, cloth->p.vx, cloth->p.vy, cloth->p.vz, dst, stride_bytes);
    return CLOTH_OK;
}

cloth_status cloth_set_positions(cloth_t *cloth, const float *src, size_t stride_bytes)
{
    if (cloth == NULL || src == NULL || !stride_ok(&stride_bytes) ||
        !read3_finite(cloth, src, stride_bytes)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    read3(cloth, cloth->p.x, cloth->p.y, cloth->p.z, src, stride_bytes);
    return CLOTH_OK;
}

cloth_status cloth_set_velocities(cloth_t *cloth, const float *src, size_t stride_bytes)
{
    if (cloth == NULL || src == NULL || !stride_ok(&stride_bytes) ||
        !read3_finite(cloth, src, stride_bytes)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    read3(cloth, cloth->p.vx, cloth->p.vy, cloth->p.vz, src, stride_bytes);
    return CLOTH_OK;
}
