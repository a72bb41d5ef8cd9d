/*
 * Stiffness painted per particle (cloth_set_stiffness_scales()): each
 * spring's stiffness is its family's times the mean of its two ends'
 * scales, so a stiff collar or a soft panel is painted on the vertices and
 * every spring between two regions takes the average. Every integrator
 * that uses spring stiffness reads the scales through cloth_spring_k()
 * (cloth_internal.h) or, in XPBD's kernels, as alpha~ (alpha~ + alpha~) /
 * (si + sj); until the first call the array does not exist and every path
 * runs as before, bit for bit.
 */
#include "cloth_internal.h"
#include "platform/stride.h"

#include <string.h>

cloth_status cloth_set_stiffness_scales(cloth_t *cloth, const float *scales, size_t stride_bytes)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || scales == NULL || !cloth_stride_ok(&stride_bytes, cloth->count, sizeof(float))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    float top = 0.0f;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        const float s = cloth_stride_float(scales, stride_bytes, i);
        /* positive: a spring of two zero ends would have no compliance */
        if (!(s > 0.0f) || !isfinite(s) || !(s <= 1e6f)) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
        top = s > top ? s : top;
    }
    if (cloth->kscale == NULL) {
        cloth->kscale = cloth_mem_alloc(&cloth->alloc, (size_t)cloth->count * sizeof(float));
        if (cloth->kscale == NULL) {
            return CLOTH_ERR_OUT_OF_MEMORY;
        }
    }
    for (uint32_t i = 0; i < cloth->count; ++i) {
        cloth->kscale[i] = cloth_stride_float(scales, stride_bytes, i);
    }
    cloth->kscale_max = top;
    return CLOTH_OK;
}

cloth_status cloth_get_stiffness_scales(const cloth_t *cloth, float *scales, size_t stride_bytes)
{
    if (cloth == NULL || scales == NULL || !cloth_stride_ok(&stride_bytes, cloth->count, sizeof(float))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; i < cloth->count; ++i) {
        const float s = cloth->kscale != NULL ? cloth->kscale[i] : 1.0f;
        memcpy((unsigned char *)scales + (size_t)i * stride_bytes, &s, sizeof s);
    }
    return CLOTH_OK;
}

void cloth_stiffness_scales_free(cloth_t *cloth)
{
    cloth_mem_free(&cloth->alloc, cloth->kscale, (size_t)cloth->count * sizeof(float));
    cloth->kscale = NULL;
    cloth->kscale_max = 0.0f;
}
