/*
 * The one check every strided host buffer goes through (positions,
 * velocities, normals, the smooth surface, a mesh desc's positions).
 *
 * A leaf: it includes nothing from src/, so any file can use it and a test
 * can check its edges directly.
 */
#ifndef CLOTHSIM_PLATFORM_STRIDE_H
#define CLOTHSIM_PLATFORM_STRIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Whether `*stride_bytes` is a usable distance between `count` records of
 * `elem_bytes` bytes each in one host buffer; on success 0 is replaced by
 * `elem_bytes` (packed).
 *
 * A non-zero stride must be a multiple of 4 (a float's size, the documented
 * rule) and at least `elem_bytes`. The buffer it implies,
 * `stride * (count - 1) + elem_bytes` bytes, must fit in memory: no object
 * is larger than PTRDIFF_MAX bytes, and a stride beyond that would wrap
 * `base + i * stride` around the address space (a stride of (size_t)-12
 * "steps back" 12 bytes) or point past any object, which is undefined
 * behaviour before the first byte is touched. Checked once per call, so the
 * per-record offsets `(size_t)i * stride` of the copy that follows can
 * neither overflow nor leave the buffer.
 */
static inline bool cloth_stride_ok(size_t *stride_bytes, uint32_t count, size_t elem_bytes)
{
    const size_t limit = (size_t)PTRDIFF_MAX;
    const size_t stride = *stride_bytes == 0u ? elem_bytes : *stride_bytes;
    if (stride < elem_bytes || stride % sizeof(float) != 0u || elem_bytes > limit) {
        return false;
    }
    /* stride * (count - 1) + elem_bytes <= limit, without overflowing */
    if (count > 1u && stride > (limit - elem_bytes) / (count - 1u)) {
        return false;
    }
    *stride_bytes = stride;
    return true;
}

/* Float i of a host buffer of one float per record, `stride_bytes` apart
 * (checked by cloth_stride_ok()), read through memcpy: the buffer may sit
 * at any byte address. */
static inline float cloth_stride_float(const void *buf, size_t stride_bytes, uint32_t i)
{
    float v;
    memcpy(&v, (const unsigned char *)buf + (size_t)i * stride_bytes, sizeof v);
    return v;
}

#endif /* CLOTHSIM_PLATFORM_STRIDE_H */
