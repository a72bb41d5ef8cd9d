/*
 * The vector level of a cloth's kernels (platform/simd.c): the widest the
 * CPU runs, or a lower one named by the environment variable CLOTHSIM_SIMD
 * for tests and comparisons. Read once when a cloth is created
 * (cloth_t::simd), so a step never reads the environment. The levels are
 * ordered: a kernel with no path at a level takes the next one down.
 */
#ifndef CLOTHSIM_PLATFORM_SIMD_H
#define CLOTHSIM_PLATFORM_SIMD_H

typedef enum cloth_simd {
    CLOTH_SIMD_SCALAR, /* plain C */
    CLOTH_SIMD_LANES4, /* 4 lanes: SSE2 on x86-64, NEON on AArch64 */
    CLOTH_SIMD_AVX2,   /* 8 lanes */
    CLOTH_SIMD_AVX512  /* 16 lanes: AVX-512 F, VL, DQ and BW */
} cloth_simd;

/* The widest level this CPU and build run. */
cloth_simd cloth_simd_best(void);
/* cloth_simd_best(), lowered by CLOTHSIM_SIMD. */
cloth_simd cloth_simd_initial(void);

#endif /* CLOTHSIM_PLATFORM_SIMD_H */
