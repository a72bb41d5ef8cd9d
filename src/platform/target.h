/*
 * Whether this build can target x86 vector levels (CLOTH_TARGET_X86, which
 * every SIMD path tests), and compiling a plain C loop again for a wider
 * vector level, picked at run time by cloth->simd (platform/simd.c). The loop's body is written once, as
 * an always-inline function, and wrapped by one function per level:
 *
 *     CLOTH_TARGET_AVX2 static void f_avx2(...) { f_body(...); }
 *
 * The compiler vectorises each copy for its level with the same IEEE
 * operations lane by lane (the library is built with -ffp-contract=off, so
 * no copy fuses a multiply and an add), so every copy gives the same bits.
 *
 * GCC keeps to 256-bit vectors in a function compiled for AVX-512 unless it
 * is told otherwise; Clang takes 512 bits without being told and rejects
 * the option, so it is asked for on GCC alone.
 */
#ifndef CLOTHSIM_PLATFORM_TARGET_H
#define CLOTHSIM_PLATFORM_TARGET_H

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define CLOTH_TARGET_X86 1
#include <immintrin.h> /* for the hand-written paths */
#define CLOTH_INLINE_ALWAYS inline __attribute__((always_inline))
#define CLOTH_TARGET_AVX2 __attribute__((target("avx2")))
#if defined(__clang__)
#define CLOTH_TARGET_AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw")))
#else
#define CLOTH_TARGET_AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw,prefer-vector-width=512")))
#endif
#else
#define CLOTH_TARGET_X86 0
#define CLOTH_INLINE_ALWAYS inline
#endif

#endif /* CLOTHSIM_PLATFORM_TARGET_H */
