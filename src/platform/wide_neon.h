/*
 * The vector layer at four lanes, NEON (AArch64): part of platform/wide.h,
 * which says what each operation does and includes this file for its width.
 * Include platform/wide.h, not this file.
 */
#ifndef CLOTHSIM_PLATFORM_WIDE_NEON_H
#define CLOTHSIM_PLATFORM_WIDE_NEON_H

#include <arm_neon.h>

typedef float32x4_t wf;
typedef uint32x4_t wm;

WIDE_INLINE wf wf_set1(float v) { return vdupq_n_f32(v); }
WIDE_INLINE wf wf_load(const float *p) { return vld1q_f32(p); }
WIDE_INLINE void wf_store(float *p, wf v) { vst1q_f32(p, v); }
WIDE_INLINE wf wf_add(wf a, wf b) { return vaddq_f32(a, b); }
WIDE_INLINE wf wf_sub(wf a, wf b) { return vsubq_f32(a, b); }
WIDE_INLINE wf wf_mul(wf a, wf b) { return vmulq_f32(a, b); }
WIDE_INLINE wf wf_div(wf a, wf b) { return vdivq_f32(a, b); }
WIDE_INLINE wf wf_sqrt(wf a) { return vsqrtq_f32(a); }
WIDE_INLINE wf wf_neg(wf a) { return vnegq_f32(a); }
WIDE_INLINE wm wm_lt(wf a, wf b) { return vcltq_f32(a, b); }
WIDE_INLINE wm wm_gt(wf a, wf b) { return vcgtq_f32(a, b); }
WIDE_INLINE wm wm_ngt(wf a, wf b) { return vmvnq_u32(vcgtq_f32(a, b)); }
WIDE_INLINE wm wm_ne(wf a, wf b) { return vmvnq_u32(vceqq_f32(a, b)); }
WIDE_INLINE wm wm_le(wf a, wf b) { return vcleq_f32(a, b); }
WIDE_INLINE wm wm_and(wm a, wm b) { return vandq_u32(a, b); }
WIDE_INLINE wm wm_or(wm a, wm b) { return vorrq_u32(a, b); }
WIDE_INLINE wf wf_sel(wm m, wf a, wf b) { return vbslq_f32(m, a, b); }
/* vmaxq_f32 answers NaN for a NaN and +0 for (-0, +0): not C's a > b ? a : b */
WIDE_INLINE wf wf_max(wf a, wf b) { return vbslq_f32(vcgtq_f32(a, b), a, b); }
WIDE_INLINE wf wf_min(wf a, wf b) { return vbslq_f32(vcltq_f32(a, b), a, b); }
WIDE_INLINE bool wm_any(wm m) { return vmaxvq_u32(m) != 0u; }
WIDE_INLINE bool wm_all(wm m) { return vminvq_u32(m) != 0u; }
WIDE_INLINE void wf_unzip(bool pairs, wf lo, wf hi, wf *i, wf *j)
{
    if (pairs) {
        *i = vcombine_f32(vget_low_f32(lo), vget_low_f32(hi));
        *j = vcombine_f32(vget_high_f32(lo), vget_high_f32(hi));
    } else {
        *i = vuzp1q_f32(lo, hi);
        *j = vuzp2q_f32(lo, hi);
    }
}
WIDE_INLINE void wf_zip(bool pairs, wf i, wf j, wf *lo, wf *hi)
{
    if (pairs) {
        *lo = vcombine_f32(vget_low_f32(i), vget_low_f32(j));
        *hi = vcombine_f32(vget_high_f32(i), vget_high_f32(j));
    } else {
        *lo = vzip1q_f32(i, j);
        *hi = vzip2q_f32(i, j);
    }
}
WIDE_INLINE wf wf_even(wf lo, wf hi) { return vuzp1q_f32(lo, hi); }
WIDE_INLINE void wf_interleave(wf a, wf b, wf *lo, wf *hi)
{
    *lo = vzip1q_f32(a, b);
    *hi = vzip2q_f32(a, b);
}
WIDE_INLINE uint32_t wm_count(wm m) { return vaddvq_u32(vshrq_n_u32(m, 31)); }
WIDE_INLINE wm wm_first(uint32_t n)
{
    static const uint32_t lane[4] = {0u, 1u, 2u, 3u};
    return vcgtq_u32(vdupq_n_u32(n < 4u ? n : 4u), vld1q_u32(lane));
}
WIDE_INLINE wf wf_load_n(const float *p, uint32_t n)
{
    if (n >= 4u) {
        return vld1q_f32(p);
    }
    float t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    memcpy(t, p, n * sizeof(float));
    return vld1q_f32(t);
}
WIDE_INLINE void wf_store_n(float *p, uint32_t n, wf v)
{
    if (n >= 4u) {
        vst1q_f32(p, v);
        return;
    }
    float t[4];
    vst1q_f32(t, v);
    memcpy(p, t, n * sizeof(float));
}

/* four rows of four floats to four columns */
WIDE_INLINE void wide_transpose4(wf r[4])
{
    const float32x4x2_t a = vtrnq_f32(r[0], r[1]), b = vtrnq_f32(r[2], r[3]);
    r[0] = vcombine_f32(vget_low_f32(a.val[0]), vget_low_f32(b.val[0]));
    r[1] = vcombine_f32(vget_low_f32(a.val[1]), vget_low_f32(b.val[1]));
    r[2] = vcombine_f32(vget_high_f32(a.val[0]), vget_high_f32(b.val[0]));
    r[3] = vcombine_f32(vget_high_f32(a.val[1]), vget_high_f32(b.val[1]));
}
WIDE_INLINE void wf_gather4(const float *rec, const uint32_t *idx, wf out[4])
{
    for (uint32_t l = 0; l < 4u; ++l) {
        out[l] = vld1q_f32(rec + 4u * (size_t)idx[l]);
    }
    wide_transpose4(out);
}
WIDE_INLINE void wf_scatter4_n(float *rec, const uint32_t *idx, const wf in[4], uint32_t n)
{
    wf r[4] = {in[0], in[1], in[2], in[3]};
    wide_transpose4(r);
    for (uint32_t l = 0; l < n && l < 4u; ++l) {
        vst1q_f32(rec + 4u * (size_t)idx[l], r[l]);
    }
}

#endif /* CLOTHSIM_PLATFORM_WIDE_NEON_H */
