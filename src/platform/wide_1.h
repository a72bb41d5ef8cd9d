/*
 * The vector layer at one lane, plain C: part of platform/wide.h, which says
 * what each operation does and includes this file for its width. Include
 * platform/wide.h, not this file.
 */
#ifndef CLOTHSIM_PLATFORM_WIDE_1_H
#define CLOTHSIM_PLATFORM_WIDE_1_H

#include <math.h>

typedef float wf;
typedef bool wm;

WIDE_INLINE wf wf_set1(float v) { return v; }
WIDE_INLINE wf wf_load(const float *p) { return *p; }
WIDE_INLINE void wf_store(float *p, wf v) { *p = v; }
WIDE_INLINE wf wf_add(wf a, wf b) { return a + b; }
WIDE_INLINE wf wf_sub(wf a, wf b) { return a - b; }
WIDE_INLINE wf wf_mul(wf a, wf b) { return a * b; }
WIDE_INLINE wf wf_div(wf a, wf b) { return a / b; }
WIDE_INLINE wf wf_sqrt(wf a) { return sqrtf(a); }
WIDE_INLINE wf wf_neg(wf a) { return -a; }
WIDE_INLINE wm wm_lt(wf a, wf b) { return a < b; }
WIDE_INLINE wm wm_gt(wf a, wf b) { return a > b; }
WIDE_INLINE wm wm_ngt(wf a, wf b) { return !(a > b); }
WIDE_INLINE wm wm_ne(wf a, wf b) { return a != b; }
WIDE_INLINE wm wm_le(wf a, wf b) { return a <= b; }
WIDE_INLINE wm wm_and(wm a, wm b) { return a && b; }
WIDE_INLINE wm wm_or(wm a, wm b) { return a || b; }
WIDE_INLINE wf wf_sel(wm m, wf a, wf b) { return m ? a : b; }
WIDE_INLINE wf wf_max(wf a, wf b) { return a > b ? a : b; }
WIDE_INLINE wf wf_min(wf a, wf b) { return a < b ? a : b; }
WIDE_INLINE float wf_hmax(wf a) { return a; }
WIDE_INLINE float wf_hmin(wf a) { return a; }
WIDE_INLINE bool wm_any(wm m) { return m; }
WIDE_INLINE bool wm_all(wm m) { return m; }
/* one lane holds one spring (x, x + 1); a pair of springs needs two */
WIDE_INLINE void wf_unzip(bool pairs, wf lo, wf hi, wf *i, wf *j)
{
    (void)pairs;
    *i = lo;
    *j = hi;
}
WIDE_INLINE void wf_zip(bool pairs, wf i, wf j, wf *lo, wf *hi)
{
    (void)pairs;
    *lo = i;
    *hi = j;
}
WIDE_INLINE wf wf_even(wf lo, wf hi)
{
    (void)hi;
    return lo;
}
WIDE_INLINE void wf_interleave(wf a, wf b, wf *lo, wf *hi)
{
    *lo = a;
    *hi = b;
}
WIDE_INLINE uint32_t wm_count(wm m) { return m ? 1u : 0u; }
/* lanes k < n (n >= 1): with one lane, the lane */
WIDE_INLINE wm wm_first(uint32_t n) { return n > 0u; }
/* n is 0 or 1: 0 reads nothing (and gives 0), as the wider masked loads */
WIDE_INLINE wf wf_load_n(const float *p, uint32_t n) { return n > 0u ? *p : 0.0f; }
WIDE_INLINE void wf_store_n(float *p, uint32_t n, wf v)
{
    if (n > 0u) {
        *p = v;
    }
}

/* records of 4 floats (x, y, z, w), record k at rec + 4 k */
WIDE_INLINE void wf_gather4(const float *rec, const uint32_t *idx, wf out[4])
{
    const float *r = rec + 4u * (size_t)idx[0];
    out[0] = r[0];
    out[1] = r[1];
    out[2] = r[2];
    out[3] = r[3];
}
WIDE_INLINE void wf_scatter4_n(float *rec, const uint32_t *idx, const wf in[4], uint32_t n)
{
    if (n == 0u) {
        return;
    }
    float *r = rec + 4u * (size_t)idx[0];
    r[0] = in[0];
    r[1] = in[1];
    r[2] = in[2];
    r[3] = in[3];
}

#endif /* CLOTHSIM_PLATFORM_WIDE_1_H */
