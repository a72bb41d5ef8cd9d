/* The kernel table for a vector level (kernels/kernels.h). */
#include "kernels/kernels.h"

#if defined(__SSE2__) || defined(__aarch64__) /* as wide_4.c */
#define HAVE_WIDE4 1
#endif
/* CLOTHSIM_WIDE_X86: wide_8.c and wide_16.c are built (CMakeLists.txt) */

const cloth_kernels *cloth_kernels_at(cloth_simd level)
{
    switch (level) {
    case CLOTH_SIMD_AVX512:
#if defined(CLOTHSIM_WIDE_X86)
        return &cloth_kernels_w16;
#endif
    case CLOTH_SIMD_AVX2:
#if defined(CLOTHSIM_WIDE_X86)
        return &cloth_kernels_w8;
#endif
    case CLOTH_SIMD_LANES4:
#if defined(HAVE_WIDE4)
        return &cloth_kernels_w4;
#endif
    case CLOTH_SIMD_SCALAR:
        break;
    }
    return &cloth_kernels_w1;
}
