/*
 * Which vector instructions the hand-written and target-compiled loops use
 * (the XPBD grid kernel, the sphere pass, the tether batches, PBD's grid
 * gather): the best the CPU has, or a lower level named by the environment
 * variable CLOTHSIM_SIMD ("scalar", "avx2", "avx512") for tests and
 * comparisons. A level the CPU lacks, or an unknown name, leaves the best.
 * Every path gives the plain C path's bits, so the choice changes speed only.
 */
#include "cloth_internal.h"
#include "platform/target.h"

#include <stdlib.h>
#include <string.h>

cloth_simd cloth_simd_level(void)
{
    cloth_simd best = CLOTH_SIMD_SCALAR;
#if CLOTH_TARGET_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        best = CLOTH_SIMD_AVX512;
    } else if (__builtin_cpu_supports("avx2")) {
        best = CLOTH_SIMD_AVX2;
    }
#endif
    const char *want = getenv("CLOTHSIM_SIMD");
    if (want == NULL) {
        return best;
    }
    cloth_simd asked = best;
    if (strcmp(want, "scalar") == 0) {
        asked = CLOTH_SIMD_SCALAR;
    } else if (strcmp(want, "avx2") == 0) {
        asked = CLOTH_SIMD_AVX2;
    } else if (strcmp(want, "avx512") == 0) {
        asked = CLOTH_SIMD_AVX512;
    }
    return asked < best ? asked : best;
}
