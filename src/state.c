/*
 * Strided copies between the particle arrays and the host's vertex buffers.
 */
#include "cloth_internal.h"
#include "pins.h"
#include "platform/stride.h"

#include <string.h>

/* One xyz record in the host's buffer, every access through memcpy: the
 * buffer may sit at any byte address (an FFI host's interleaved vertex
 * buffer), and the compiler makes each a plain load or store. */
static void write3(const cloth_t *cloth, const float *ax, const float *ay, const float *az,
                   float *dst, size_t stride_bytes)
{
    unsigned char *out = (unsigned char *)dst;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        const float v[3] = {ax[i], ay[i], az[i]};
        memcpy(out + (size_t)i * stride_bytes, v, sizeof v);
    }
}

bool cloth_read3_finite(const cloth_t *cloth, const float *src, size_t stride_bytes)
{
    const unsigned char *in = (const unsigned char *)src;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        float v[3];
        memcpy(v, in + (size_t)i * stride_bytes, sizeof v);
        if (!cloth_finite3(v)) {
            return false;
        }
    }
    return true;
}

void cloth_read3(const cloth_t *cloth, float *ax, float *ay, float *az, const float *src,
                  size_t stride_bytes)
{
    const unsigned char *in = (const unsigned char *)src;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        float v[3];
        memcpy(v, in + (size_t)i * stride_bytes, sizeof v);
        ax[i] = v[0];
        ay[i] = v[1];
        az[i] = v[2];
    }
}

/* The buffer check shared by the four copies (platform/stride.h): a NULL
 * cloth or buffer, or a stride whose buffer could not exist, is refused
 * before any byte is touched; 0 becomes the packed stride. */
static bool buffer_ok(const cloth_t *cloth, const void *buf, size_t *stride_bytes)
{
    return cloth != NULL && buf != NULL && cloth_stride_ok(stride_bytes, cloth->count, 3u * sizeof(float));
}

uint32_t cloth_particle_count(const cloth_t *cloth)
{
    return cloth == NULL ? 0u : cloth->count;
}

cloth_status cloth_get_positions(const cloth_t *cloth, float *dst, size_t stride_bytes)
{
    if (!buffer_ok(cloth, dst, &stride_bytes)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    write3(cloth, cloth->p.x, cloth->p.y, cloth->p.z, dst, stride_bytes);
    return CLOTH_OK;
}

cloth_status cloth_get_velocities(const cloth_t *cloth, float *dst, size_t stride_bytes)
{
    if (!buffer_ok(cloth, dst, &stride_bytes)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    write3(cloth, cloth->p.vx, cloth->p.vy, cloth->p.vz, dst, stride_bytes);
    return CLOTH_OK;
}

cloth_status cloth_set_positions(cloth_t *cloth, const float *src, size_t stride_bytes)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (!buffer_ok(cloth, src, &stride_bytes) || !cloth_read3_finite(cloth, src, stride_bytes)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_read3(cloth, cloth->p.x, cloth->p.y, cloth->p.z, src, stride_bytes);
    return CLOTH_OK;
}

cloth_status cloth_set_velocities(cloth_t *cloth, const float *src, size_t stride_bytes)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (!buffer_ok(cloth, src, &stride_bytes) || !cloth_read3_finite(cloth, src, stride_bytes)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_read3(cloth, cloth->p.vx, cloth->p.vy, cloth->p.vz, src, stride_bytes);
    return CLOTH_OK;
}

cloth_status cloth_set_inverse_masses(cloth_t *cloth, const float *inverse_masses, size_t stride_bytes)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || inverse_masses == NULL || !cloth_stride_ok(&stride_bytes, cloth->count, sizeof(float))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; i < cloth->count; ++i) {
        const float w = cloth_stride_float(inverse_masses, stride_bytes, i);
        if (!(w >= 0.0f) || !isfinite(w)) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
    }
    for (uint32_t i = 0; i < cloth->count; ++i) {
        cloth->p.w[i] = cloth_stride_float(inverse_masses, stride_bytes, i);
    }
    cloth_pins_set_free_mass(cloth); /* pinned ones keep 0 and get theirs on release */
    cloth_masses_changed(cloth);
    return CLOTH_OK;
}

cloth_status cloth_get_inverse_masses(const cloth_t *cloth, float *dst, size_t stride_bytes)
{
    if (cloth == NULL || dst == NULL || !cloth_stride_ok(&stride_bytes, cloth->count, sizeof(float))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    unsigned char *out = (unsigned char *)dst;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        memcpy(out + (size_t)i * stride_bytes, &cloth->p.w[i], sizeof(float));
    }
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        const cloth_pin_rec *pin = &cloth->pins[k];
        memcpy(out + (size_t)pin->index * stride_bytes, &pin->w_free, sizeof(float));
    }
    return CLOTH_OK;
}
