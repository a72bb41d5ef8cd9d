/*
 * Three-component dot products on vectors of floats, for the hand-written
 * SIMD paths. The sum is (a.x b.x + a.y b.y) + a.z b.z, the order the plain
 * C paths write, so a vector path keeps their bits.
 */
#ifndef CLOTHSIM_PLATFORM_VEC3_H
#define CLOTHSIM_PLATFORM_VEC3_H

#include "platform/target.h"

#if CLOTH_TARGET_X86

__attribute__((target("avx2"), always_inline)) static inline __m256 cloth_dot3_256(__m256 ax, __m256 ay, __m256 az,
                                                                                      __m256 bx, __m256 by, __m256 bz)
{
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(ax, bx), _mm256_mul_ps(ay, by)), _mm256_mul_ps(az, bz));
}

__attribute__((target("avx512f"), always_inline)) static inline __m512 cloth_dot3_512(__m512 ax, __m512 ay,
                                                                                         __m512 az, __m512 bx,
                                                                                         __m512 by, __m512 bz)
{
    return _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(ax, bx), _mm512_mul_ps(ay, by)), _mm512_mul_ps(az, bz));
}
#endif

#endif /* CLOTHSIM_PLATFORM_VEC3_H */
