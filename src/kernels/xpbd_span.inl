/*
 * XPBD's spring run on a grid (the arguments: kernels.h, xpbd_span), over
 * the vector layer; included by wide.inl once per width. Each spring, with
 * e = xi - xj at the current displacement u and m = ui - uj:
 *
 *   l = |e|,  num = (L0 - l) l - (alpha~ lambda) l - gamma (e.m)
 *   f = num / (((1 + gamma)(wi + wj) + alpha~) l^2)
 *   lambda += f l,  ui += wi f e,  uj -= wj f e
 *
 * which is dl = (-C - alpha~ lambda - gamma n.m) / ((1 + gamma) w + alpha~)
 * along n = e / l with one division for all of it. With stiffness scales
 * (cloth_set_stiffness_scales()) a spring's alpha~ is (alpha~ + alpha~) /
 * (si + sj): its stiffness times the mean of its ends' scales. A spring with both ends
 * held or coincident ends is left alone. Every lane is computed and the
 * result kept only in the lanes in play, so a spring left out changes
 * nothing, as in the plain loop; that and the same operation order per
 * lane give the same bits at every width.
 *
 * Runs between rows (dr > 0) are contiguous: lane k is spring i + k. A
 * row's own families (0, 1) and (0, 2) are solved one colour at a time,
 * and one colour is every other spring (dc = 1) or every other pair
 * (dc = 2): the row is read two vectors at a time and dealt into first and
 * second ends (wf_unzip), so that every lane holds a spring of the colour
 * instead of half of them being masked off, and dealt back (wf_zip) for the
 * store. Within a row no other thread runs (blocks of rows belong to one
 * thread at a time, integrators/xpbd_grid.c), so the floats of the row that
 * no spring moved are written back unchanged.
 */

/* One end of WIDE_LANES springs; `s` its stiffness scale, when scaled. */
typedef struct span_ends {
    wf x, y, z, w, ux, uy, uz, s;
} span_ends;

typedef struct span_consts {
    wf zero, one, rest, at, gamma, opg;
} span_consts;

WIDE_INLINE void WIDE(span_consts_of)(const xpbd_span *s, span_consts *k)
{
    k->zero = wf_set1(0.0f);
    k->one = wf_set1(1.0f);
    k->rest = wf_set1(s->rest);
    k->at = wf_set1(s->alpha_tilde);
    k->gamma = wf_set1(s->gamma);
    k->opg = wf_set1(s->one_plus_gamma);
}

/* alpha~ of the lanes' springs: the family's, or scaled by their ends. */
WIDE_INLINE wf WIDE(span_alpha)(const span_consts *k, const span_ends *a, const span_ends *b, bool scaled)
{
    return scaled ? wf_div(wf_add(k->at, k->at), wf_add(a->s, b->s)) : k->at;
}

/* Solves the lanes in `live` that are in play; the new u and lambda go
 * into those lanes only. `at` is their alpha~. */
WIDE_INLINE void WIDE(span_spring)(const span_consts *k, wf at, span_ends *a, span_ends *b, wf *lam, wm live,
                                   bool with_lambda)
{
    const wf mx = wf_sub(a->ux, b->ux), my = wf_sub(a->uy, b->uy), mz = wf_sub(a->uz, b->uz);
    const wf ex = wf_add(wf_sub(a->x, b->x), mx);
    const wf ey = wf_add(wf_sub(a->y, b->y), my);
    const wf ez = wf_add(wf_sub(a->z, b->z), mz);
    const wf len2 = wf_add(wf_add(wf_mul(ex, ex), wf_mul(ey, ey)), wf_mul(ez, ez));
    const wf wsum = wf_add(a->w, b->w);
    const wm on = wm_and(live, wm_and(wm_gt(wsum, k->zero), wm_gt(len2, k->zero)));
    const wf l = wf_sqrt(len2);
    const wf dot = wf_add(wf_add(wf_mul(ex, mx), wf_mul(ey, my)), wf_mul(ez, mz));
    /* Without lambdas (one iteration) lambda is 0, so (alpha~ lambda) l is
     * +0 and subtracting it changes no bit: it is left out. */
    wf c = wf_mul(wf_sub(k->rest, l), l);
    if (with_lambda) {
        c = wf_sub(c, wf_mul(wf_mul(at, *lam), l));
    }
    const wf num = wf_sub(c, wf_mul(k->gamma, dot));
    const wf den = wf_sel(on, wf_mul(wf_add(wf_mul(k->opg, wsum), at), len2), k->one);
    const wf f = wf_div(num, den);
    if (with_lambda) {
        *lam = wf_sel(on, wf_add(*lam, wf_mul(f, l)), *lam);
    }
    const wf pi = wf_mul(a->w, f), pj = wf_mul(b->w, f);
    const wf nax = wf_add(a->ux, wf_mul(pi, ex)), nay = wf_add(a->uy, wf_mul(pi, ey));
    const wf naz = wf_add(a->uz, wf_mul(pi, ez)), nbx = wf_sub(b->ux, wf_mul(pj, ex));
    const wf nby = wf_sub(b->uy, wf_mul(pj, ey)), nbz = wf_sub(b->uz, wf_mul(pj, ez));
    /* every lane in play, the usual case away from pins and run ends: the
     * selects would keep every new value */
    if (wm_all(on)) {
        a->ux = nax;
        a->uy = nay;
        a->uz = naz;
        b->ux = nbx;
        b->uy = nby;
        b->uz = nbz;
        return;
    }
    a->ux = wf_sel(on, nax, a->ux);
    a->uy = wf_sel(on, nay, a->uy);
    a->uz = wf_sel(on, naz, a->uz);
    b->ux = wf_sel(on, nbx, b->ux);
    b->uy = wf_sel(on, nby, b->uy);
    b->uz = wf_sel(on, nbz, b->uz);
}

#if WIDE_LANES == 1

static bool span_in_colour(const xpbd_span *s, uint32_t i)
{
    return s->mask_shift == XPBD_SPAN_ALL || (((i - s->row_start) >> s->mask_shift) & 1u) == s->parity;
}

/* One lane: the plain loop, each spring in turn. */
static void WIDE(xpbd_span)(const xpbd_span *s)
{
    const float *x = s->x, *y = s->y, *z = s->z, *w = s->w;
    float *ux = s->ux, *uy = s->uy, *uz = s->uz;
    const float rest = s->rest, at = s->alpha_tilde, gamma = s->gamma, opg = s->one_plus_gamma;
    for (uint32_t i = s->begin; i < s->end; ++i) {
        if (!span_in_colour(s, i)) {
            continue;
        }
        const uint32_t j = i + s->di;
        const float mx = ux[i] - ux[j], my = uy[i] - uy[j], mz = uz[i] - uz[j];
        const float ex = (x[i] - x[j]) + mx, ey = (y[i] - y[j]) + my, ez = (z[i] - z[j]) + mz;
        const float len2 = (ex * ex + ey * ey) + ez * ez;
        const float wsum = w[i] + w[j];
        if (!(wsum > 0.0f) || !(len2 > 0.0f)) {
            continue;
        }
        const float l = sqrtf(len2);
        const float dot = (ex * mx + ey * my) + ez * mz;
        const float lam = s->lambda != NULL ? s->lambda[i] : 0.0f;
        const float ats = s->scale != NULL ? (at + at) / (s->scale[i] + s->scale[j]) : at;
        const float num = ((rest - l) * l - (ats * lam) * l) - gamma * dot;
        const float f = num / ((opg * wsum + ats) * len2);
        if (s->lambda != NULL) {
            s->lambda[i] = lam + f * l;
        }
        const float pi = w[i] * f, pj = w[j] * f;
        ux[i] = ux[i] + pi * ex;
        uy[i] = uy[i] + pi * ey;
        uz[i] = uz[i] + pi * ez;
        ux[j] = ux[j] - pj * ex;
        uy[j] = uy[j] - pj * ey;
        uz[j] = uz[j] - pj * ez;
    }
}

#else

WIDE_INLINE void WIDE(span_load)(const xpbd_span *s, uint32_t at, uint32_t n, span_ends *e, bool scaled)
{
    e->s = scaled ? wf_load_n(s->scale + at, n) : wf_set1(1.0f);
    e->x = wf_load_n(s->x + at, n);
    e->y = wf_load_n(s->y + at, n);
    e->z = wf_load_n(s->z + at, n);
    e->w = wf_load_n(s->w + at, n);
    e->ux = wf_load_n(s->ux + at, n);
    e->uy = wf_load_n(s->uy + at, n);
    e->uz = wf_load_n(s->uz + at, n);
}

/* The springs i .. i + n - 1 of a run between rows (n a constant
 * WIDE_LANES where inlined in the loop: plain loads and stores). */
WIDE_INLINE void WIDE(span_run_at)(const xpbd_span *s, const span_consts *k, uint32_t i, uint32_t n,
                                   bool with_lambda, bool scaled)
{
    const uint32_t j = i + s->di;
    span_ends a, b;
    WIDE(span_load)(s, i, n, &a, scaled);
    WIDE(span_load)(s, j, n, &b, scaled);
    wf lam = with_lambda ? wf_load_n(s->lambda + i, n) : k->zero;
    WIDE(span_spring)(k, WIDE(span_alpha)(k, &a, &b, scaled), &a, &b, &lam, wm_first(n), with_lambda);
    if (with_lambda) {
        wf_store_n(s->lambda + i, n, lam);
    }
    wf_store_n(s->ux + i, n, a.ux);
    wf_store_n(s->uy + i, n, a.uy);
    wf_store_n(s->uz + i, n, a.uz);
    wf_store_n(s->ux + j, n, b.ux);
    wf_store_n(s->uy + j, n, b.uy);
    wf_store_n(s->uz + j, n, b.uz);
}

WIDE_INLINE void WIDE(span_run)(const xpbd_span *s, bool with_lambda, bool scaled)
{
    span_consts k;
    WIDE(span_consts_of)(s, &k);
    uint32_t i = s->begin;
    for (; i < s->end && s->end - i >= WIDE_LANES; i += WIDE_LANES) {
        WIDE(span_run_at)(s, &k, i, WIDE_LANES, with_lambda, scaled);
    }
    if (i < s->end) {
        WIDE(span_run_at)(s, &k, i, s->end - i, with_lambda, scaled);
    }
}

/* The floats p .. p + n - 1 of a row (n = 2 WIDE_LANES, a constant where
 * inlined in the loop) as WIDE_LANES springs of one colour, those in
 * `live`. */
WIDE_INLINE void WIDE(span_row_at)(const xpbd_span *s, const span_consts *k, bool pairs, uint32_t p, uint32_t n,
                                   wm live, bool with_lambda, bool scaled)
{
    span_ends a, b;
    if (scaled) {
        wf_unzip_load_n(pairs, s->scale + p, n, &a.s, &b.s);
    } else {
        a.s = b.s = k->one;
    }
    wf_unzip_load_n(pairs, s->x + p, n, &a.x, &b.x);
    wf_unzip_load_n(pairs, s->y + p, n, &a.y, &b.y);
    wf_unzip_load_n(pairs, s->z + p, n, &a.z, &b.z);
    wf_unzip_load_n(pairs, s->w + p, n, &a.w, &b.w);
    wf_unzip_load_n(pairs, s->ux + p, n, &a.ux, &b.ux);
    wf_unzip_load_n(pairs, s->uy + p, n, &a.uy, &b.uy);
    wf_unzip_load_n(pairs, s->uz + p, n, &a.uz, &b.uz);
    wf lam = k->zero, lam_j = k->zero;
    if (with_lambda) {
        wf_unzip_load_n(pairs, s->lambda + p, n, &lam, &lam_j);
    }
    WIDE(span_spring)(k, WIDE(span_alpha)(k, &a, &b, scaled), &a, &b, &lam, live, with_lambda);
    if (with_lambda) {
        wf_zip_store_n(pairs, s->lambda + p, n, lam, lam_j);
    }
    wf_zip_store_n(pairs, s->ux + p, n, a.ux, b.ux);
    wf_zip_store_n(pairs, s->uy + p, n, a.uy, b.uy);
    wf_zip_store_n(pairs, s->uz + p, n, a.uz, b.uz);
}

WIDE_INLINE void WIDE(span_row)(const xpbd_span *s, bool pairs, bool with_lambda, bool scaled)
{
    span_consts k;
    WIDE(span_consts_of)(s, &k);
    /* the colour's first spring, then 2 WIDE_LANES floats (WIDE_LANES
     * springs) per step */
    const uint32_t start = s->row_start + (pairs ? 2u * s->parity : s->parity);
    const uint32_t stop = s->end + s->di; /* one past the last second end */
    uint32_t p = start;
    for (; p < s->end && stop - p >= 2u * WIDE_LANES; p += 2u * WIDE_LANES) {
        WIDE(span_row_at)(s, &k, pairs, p, 2u * WIDE_LANES, wm_first(WIDE_LANES), with_lambda, scaled);
    }
    if (p < s->end) {
        const wm live = wm_lt(wf_unzip_first(pairs), wf_set1((float)(s->end - p))); /* p + first < end */
        WIDE(span_row_at)(s, &k, pairs, p, stop - p, live, with_lambda, scaled);
    }
}

#endif /* WIDE_LANES == 1 */

#if WIDE_LANES > 1
/* The three kinds of run (between rows, and a row's two colourings), with
 * and without lambdas, with and without stiffness scales: each built on
 * its own, so that the tests are made once per run rather than per vector. */
#define SPAN_KINDS(scaled)                                                                                           \
    do {                                                                                                             \
        if (s->mask_shift == XPBD_SPAN_ALL) {                                                                        \
            if (lambda) {                                                                                            \
                WIDE(span_run)(s, true, scaled);                                                                     \
            } else {                                                                                                 \
                WIDE(span_run)(s, false, scaled);                                                                    \
            }                                                                                                        \
        } else if (s->mask_shift == 1u) { /* pairs: (0, 2) */                                                       \
            if (lambda) {                                                                                            \
                WIDE(span_row)(s, true, true, scaled);                                                               \
            } else {                                                                                                 \
                WIDE(span_row)(s, true, false, scaled);                                                              \
            }                                                                                                        \
        } else if (lambda) {                                                                                         \
            WIDE(span_row)(s, false, true, scaled);                                                                  \
        } else {                                                                                                     \
            WIDE(span_row)(s, false, false, scaled);                                                                 \
        }                                                                                                            \
    } while (0)

static void WIDE(xpbd_span)(const xpbd_span *run)
{
    /* A copy whose address never leaves: the kernel's float stores cannot
     * reach it, so its pointers stay in registers instead of being read
     * again after every store. */
    const xpbd_span copy = *run;
    const xpbd_span *s = &copy;
    const bool lambda = s->lambda != NULL;
    if (s->scale != NULL) {
        SPAN_KINDS(true);
    } else {
        SPAN_KINDS(false);
    }
}
#undef SPAN_KINDS
#endif
