/*
 * The inner loop of XPBD on a grid: one run of springs (i, i + di) of one
 * stencil family, solved in place. Built three times, for AVX-512, AVX2 and
 * plain C, and chosen by the cloth's vector level (platform/simd.c: what
 * the CPU has, or lower by CLOTHSIM_SIMD for tests and comparisons).
 *
 * Every path does the same IEEE operations in the same order on each spring
 * (no FMA: the library is built with -ffp-contract=off; sqrt and division
 * are correctly rounded in every instruction set), and the springs of a run
 * share no particle, so every path gives the same bits.
 */
#ifndef CLOTHSIM_XPBD_SPAN_H
#define CLOTHSIM_XPBD_SPAN_H

#include "cloth_internal.h"

#include <stdint.h>

/* mask_shift value for a run whose springs are all in play */
#define XPBD_SPAN_ALL 0xffffffffu

typedef struct xpbd_span {
    const float *x, *y, *z; /* positions at the start of the substep, m */
    const float *w;         /* inverse masses, 1/kg */
    float *ux, *uy, *uz;    /* displacement since the start of the substep, m */
    float *lambda;          /* per first end i; NULL: every lambda is 0 and none is kept */
    uint32_t begin, end;    /* first ends i in [begin, end) */
    uint32_t di;            /* second end j = i + di */
    /* A row's own springs (dr = 0) share particles with their neighbours;
     * one colour of them is in play: i is skipped unless
     * ((i - row_start) >> mask_shift) & 1 == parity. XPBD_SPAN_ALL: none
     * is skipped. */
    uint32_t row_start, mask_shift, parity;
    float rest;             /* rest length, m */
    float alpha_tilde;      /* compliance / h^2 */
    float gamma;            /* damping, beta / h */
    float one_plus_gamma;   /* 1 + gamma, rounded once for every path */
} xpbd_span;

typedef void xpbd_span_fn(const xpbd_span *span);

/* The kernel of a vector level (platform/simd.c). */
xpbd_span_fn *cloth_xpbd_span_kernel(cloth_simd level);

#endif /* CLOTHSIM_XPBD_SPAN_H */
