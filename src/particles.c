/*
 * The particle arrays of a new cloth, for the builders (builders.h): one
 * block through the cloth's allocator. Calls nothing above it, so creation
 * (cloth.c) calls the builders and the builders call this, without a loop.
 */
#include "cloth_internal.h"
#include "builders.h"

#include <string.h>

/* The particle arrays live in one block, each padded to whole SIMD lanes.
 * The force accumulators are not among them: they are allocated apart, and
 * only while something uses them (forces.c), so that XPBD on a grid without
 * wind or a force hook does not carry 12 bytes a particle it never reads. */
enum { ARRAYS_PER_PARTICLE = 13 };

cloth_status cloth_alloc_particles(cloth_t *cloth, uint32_t count)
{
    size_t lanes = CLOTH_ALIGN / sizeof(float);
    size_t stride = ((size_t)count + lanes - 1u) / lanes * lanes;
    size_t bytes = stride * sizeof(float) * ARRAYS_PER_PARTICLE;
    float *block = cloth_mem_alloc(&cloth->alloc, bytes);
    if (block == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memset(block, 0, bytes);
    cloth->block = block;
    cloth->block_bytes = bytes;
    cloth->count = count;
    float **arrays[ARRAYS_PER_PARTICLE] = {&cloth->p.x,   &cloth->p.y,   &cloth->p.z,  &cloth->p.vx, &cloth->p.vy,
                                           &cloth->p.vz,  &cloth->p.w,   &cloth->p.sx, &cloth->p.sy, &cloth->p.sz,
                                           &cloth->p.svx, &cloth->p.svy, &cloth->p.svz};
    for (size_t a = 0; a < ARRAYS_PER_PARTICLE; ++a) {
        *arrays[a] = block + a * stride;
    }
    return CLOTH_OK;
}
