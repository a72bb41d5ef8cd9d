/*
 * cloth_set_simd_level() and cloth_get_simd_level() (threads.h): the public
 * face of the cloth's vector level (platform/simd.h), which the kernels
 * read at every step.
 */
#include "cloth_internal.h"

cloth_status cloth_set_simd_level(cloth_t *cloth, cloth_simd_level level)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_simd want;
    switch (level) {
    case CLOTH_SIMD_LEVEL_BEST:
        want = cloth_simd_best();
        break;
    case CLOTH_SIMD_LEVEL_SCALAR:
        want = CLOTH_SIMD_SCALAR;
        break;
    case CLOTH_SIMD_LEVEL_LANES4:
        want = CLOTH_SIMD_LANES4;
        break;
    case CLOTH_SIMD_LEVEL_AVX2:
        want = CLOTH_SIMD_AVX2;
        break;
    case CLOTH_SIMD_LEVEL_AVX512:
        want = CLOTH_SIMD_AVX512;
        break;
    case CLOTH_SIMD_LEVEL_FORCE32:
    default:
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (want > cloth_simd_best()) {
        return CLOTH_ERR_UNSUPPORTED;
    }
    cloth->simd = want;
    return CLOTH_OK;
}

cloth_status cloth_get_simd_level(const cloth_t *cloth, cloth_simd_level *level)
{
    if (cloth == NULL || level == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    static const cloth_simd_level names[] = {CLOTH_SIMD_LEVEL_SCALAR, CLOTH_SIMD_LEVEL_LANES4, CLOTH_SIMD_LEVEL_AVX2,
                                             CLOTH_SIMD_LEVEL_AVX512};
    *level = names[cloth->simd];
    return CLOTH_OK;
}
