/*
 * Which vector width the kernels run at (platform/simd.h): the widest this
 * CPU runs, or a lower level named by the environment variable
 * CLOTHSIM_SIMD ("scalar", "sse2" or "neon" for 4 lanes, "avx2", "avx512")
 * for tests and comparisons. A level the CPU lacks, or an unknown name,
 * leaves the best. Every level gives the plain C level's bits, so the choice
 * changes speed only.
 *
 * The 16-lane kernels are compiled for AVX-512 F, VL, DQ and BW
 * (src/kernels/wide_16.c), so all four must be there: a CPU with F alone
 * (Knights Landing) would fault on the others' instructions.
 */
#include "platform/simd.h"
#include "platform/target.h"

#include <stdlib.h>
#include <string.h>

cloth_simd cloth_simd_best(void)
{
#if CLOTH_TARGET_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw")) {
        return CLOTH_SIMD_AVX512;
    }
    if (__builtin_cpu_supports("avx2")) {
        return CLOTH_SIMD_AVX2;
    }
#endif
#if defined(__SSE2__) || defined(__aarch64__)
    return CLOTH_SIMD_LANES4; /* the baseline of x86-64 and of AArch64 */
#else
    return CLOTH_SIMD_SCALAR;
#endif
}

cloth_simd cloth_simd_initial(void)
{
    const cloth_simd best = cloth_simd_best();
    const char *want = getenv("CLOTHSIM_SIMD");
    if (want == NULL) {
        return best;
    }
    cloth_simd asked = best;
    if (strcmp(want, "scalar") == 0) {
        asked = CLOTH_SIMD_SCALAR;
    } else if (strcmp(want, "sse2") == 0 || strcmp(want, "neon") == 0) {
        asked = CLOTH_SIMD_LANES4;
    } else if (strcmp(want, "avx2") == 0) {
        asked = CLOTH_SIMD_AVX2;
    } else if (strcmp(want, "avx512") == 0) {
        asked = CLOTH_SIMD_AVX512;
    }
    return asked < best ? asked : best;
}
