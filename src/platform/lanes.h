/*
 * The lanes of a vector that lie inside a run, for the hand-written SIMD
 * paths, whose last vector may reach past the run's end: masks of the
 * first n lanes, and for AVX2 loads and stores of 8 floats. vmaskmovps is
 * slow on AMD (a store most of all), so an AVX2 vector wholly inside the
 * run (`full`) takes the plain instruction and only the last one the
 * masked form; AVX-512's masked forms cost nothing extra.
 */
#ifndef CLOTHSIM_PLATFORM_LANES_H
#define CLOTHSIM_PLATFORM_LANES_H

#include "platform/target.h"

#include <stdbool.h>
#include <stdint.h>

#if CLOTH_TARGET_X86

/* Lanes k < n of 8, as a mask. */
__attribute__((target("avx2"), always_inline)) static inline __m256i cloth_lanes8(uint32_t n)
{
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n < 8u ? (int)n : 8), lane);
}

/* The lanes of `live` (all 8 when full); the others read as 0. */
__attribute__((target("avx2"), always_inline)) static inline __m256 cloth_load8(const float *p, __m256i live,
                                                                                 bool full)
{
    return full ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, live);
}

/* The lanes of `live` (all 8 when full); the others are not written. */
__attribute__((target("avx2"), always_inline)) static inline void cloth_store8(float *p, __m256i live, bool full,
                                                                                __m256 v)
{
    if (full) {
        _mm256_storeu_ps(p, v);
    } else {
        _mm256_maskstore_ps(p, live, v);
    }
}

/* Lanes k < n of 16, as a mask (all 16 for n >= 16). */
static inline __mmask16 cloth_lanes16(uint32_t n)
{
    return (__mmask16)(n >= 16u ? 0xffffu : (1u << n) - 1u);
}
#endif

#endif /* CLOTHSIM_PLATFORM_LANES_H */
