/*
 * Loads and stores of 8 floats for the AVX2 paths, where the last vector of
 * a run may reach past its end. vmaskmovps is slow on AMD (a store most of
 * all), so a vector wholly inside the run (`full`) takes the plain
 * instruction and only the last one the masked form.
 */
#ifndef CLOTHSIM_PLATFORM_MASK256_H
#define CLOTHSIM_PLATFORM_MASK256_H

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
#endif

#endif /* CLOTHSIM_PLATFORM_MASK256_H */
