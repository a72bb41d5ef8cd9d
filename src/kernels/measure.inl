/*
 * The strain limit's measure (constraints/strain_limit.c): over the links
 * (i, i + di) for i in [begin, end) of one grid family, the largest squared
 * length times inv_rest2, and `top` if that is larger. Each lane computes
 * (dx dx + dy dy + dz dz) inv_rest2 as the plain C loop does, and a maximum
 * does not depend on the order it is taken in, so every width gives the
 * same value (a NaN length is passed over, as by the loop's `r > top`).
 */
WIDE_INLINE wf WIDE(link_ratio2)(const float *x, const float *y, const float *z, uint32_t i, uint32_t di, uint32_t n,
                                  wf k)
{
    const wf dx = wf_sub(wf_load_n(x + i + di, n), wf_load_n(x + i, n));
    const wf dy = wf_sub(wf_load_n(y + i + di, n), wf_load_n(y + i, n));
    const wf dz = wf_sub(wf_load_n(z + i + di, n), wf_load_n(z + i, n));
    return wf_mul(wf_add(wf_add(wf_mul(dx, dx), wf_mul(dy, dy)), wf_mul(dz, dz)), k);
}

static float WIDE(ratio2)(const float *x, const float *y, const float *z, uint32_t begin, uint32_t end,
                          uint32_t di, float inv_rest2, float top)
{
    const wf k = wf_set1(inv_rest2);
    wf best = wf_set1(top);
    uint32_t i = begin;
    for (; i < end && end - i >= WIDE_LANES; i += WIDE_LANES) {
        best = wf_max(WIDE(link_ratio2)(x, y, z, i, di, WIDE_LANES, k), best);
    }
    if (i < end) {
        /* the lanes past `end` keep what they had */
        const uint32_t n = end - i;
        best = wf_sel(wm_first(n), wf_max(WIDE(link_ratio2)(x, y, z, i, di, n, k), best), best);
    }
    return wf_hmax(best);
}

/* The box of points [begin, end) of x, y, z: out = lowest x, y, z, then
 * highest; NaN coordinates are passed over (v < lo ? v : lo keeps lo), and
 * an empty or all-NaN range gives +inf lows and -inf highs. A box does not
 * depend on the order its points are taken in, so every width gives the
 * same one (up to the sign of a zero). */
static void WIDE(box)(const float *x, const float *y, const float *z, uint32_t begin, uint32_t end, float out[6])
{
    const float *const axis[3] = {x, y, z};
    for (int a = 0; a < 3; ++a) {
        wf lo = wf_set1(INFINITY), hi = wf_set1(-INFINITY);
        uint32_t i = begin;
        for (; i < end && end - i >= WIDE_LANES; i += WIDE_LANES) {
            const wf v = wf_load(axis[a] + i);
            lo = wf_min(v, lo);
            hi = wf_max(v, hi);
        }
        if (i < end) {
            /* the lanes past `end` keep what they had */
            const uint32_t n = end - i;
            const wf v = wf_load_n(axis[a] + i, n);
            const wm live = wm_first(n);
            lo = wf_sel(live, wf_min(v, lo), lo);
            hi = wf_sel(live, wf_max(v, hi), hi);
        }
        out[a] = wf_hmin(lo);
        out[3 + a] = wf_hmax(hi);
    }
}
