/*
 * The strain limit's spring loops (constraints/strain_kernels.c), over the
 * vector layer; included by wide.inl once per width. Each lane does what
 * shorten() there does to spring (i, j), operation for operation: a spring
 * longer than `lim` (len^2 > lim^2) whose ends are not both held moves
 * by k = (len - lim) / (len (wi + wj)), i by + wi k d and j by - wj k d
 * (d = xj - xi), and with velocities each end's velocity by its move times
 * inv_dt. The springs of one vector share no particle (across rows a
 * spring's ends lie in two rows; along a row one colour is taken at a
 * time), so solving them at once is solving them in turn; lanes out of
 * play or within the limit are written back as they were.
 */

/* The moves of the lanes in `play` that are over the limit: the first
 * ends + ki d, the second - kj d, in the lanes `m`; false if none is
 * over. */
typedef struct limit_moves {
    wf ki, kj;
    wm m;
} limit_moves;

WIDE_INLINE bool WIDE(limit_moves_of)(wf len2, wf wi, wf wj, wm play, wf l, wf l2, limit_moves *mv)
{
    const wm over = wm_and(play, wm_gt(len2, l2));
    if (!wm_any(over)) {
        return false;
    }
    const wf wsum = wf_add(wi, wj);
    mv->m = wm_and(over, wm_ne(wsum, wf_set1(0.0f)));
    const wf len = wf_sqrt(len2);
    const wf k = wf_div(wf_sub(len, l), wf_mul(len, wsum));
    mv->ki = wf_mul(wi, k);
    mv->kj = wf_mul(wj, k);
    return true;
}

/* Springs (p + k, p + k + di), k < n (a constant WIDE_LANES where inlined
 * in the loop: plain loads and stores). */
WIDE_INLINE void WIDE(limit_across_at)(const limit_ctx *c, uint32_t p, uint32_t di, uint32_t n, wf l, wf l2,
                                       wf inv_dt)
{
    const uint32_t q = p + di;
    float *const pos[3] = {c->x, c->y, c->z}, *const vel[3] = {c->vx, c->vy, c->vz};
    wf xi[3], xj[3], d[3];
    for (int a = 0; a < 3; ++a) {
        xi[a] = wf_load_n(pos[a] + p, n);
        xj[a] = wf_load_n(pos[a] + q, n);
        d[a] = wf_sub(xj[a], xi[a]);
    }
    const wf len2 = wf_add(wf_add(wf_mul(d[0], d[0]), wf_mul(d[1], d[1])), wf_mul(d[2], d[2]));
    limit_moves mv;
    if (!WIDE(limit_moves_of)(len2, wf_load_n(c->w + p, n), wf_load_n(c->w + q, n), wm_first(n), l, l2, &mv)) {
        return;
    }
    for (int a = 0; a < 3; ++a) {
        const wf mi = wf_mul(mv.ki, d[a]), mj = wf_mul(mv.kj, d[a]);
        wf_store_n(pos[a] + p, n, wf_sel(mv.m, wf_add(xi[a], mi), xi[a]));
        wf_store_n(pos[a] + q, n, wf_sel(mv.m, wf_sub(xj[a], mj), xj[a]));
        if (vel[a] != NULL) {
            const wf vi = wf_load_n(vel[a] + p, n), vj = wf_load_n(vel[a] + q, n);
            wf_store_n(vel[a] + p, n, wf_sel(mv.m, wf_add(vi, wf_mul(mi, inv_dt)), vi));
            wf_store_n(vel[a] + q, n, wf_sel(mv.m, wf_sub(vj, wf_mul(mj, inv_dt)), vj));
        }
    }
}

/* Springs (p, p + di), p in [begin, end), that share no particle. */
static void WIDE(limit_across)(const limit_ctx *ctx, uint32_t begin, uint32_t end, uint32_t di, float lim,
                               float lim2)
{
    /* A copy whose address never leaves: the stores cannot reach it, so
     * its pointers stay in registers rather than being read again after
     * every store. */
    const limit_ctx copy = *ctx;
    const limit_ctx *c = &copy;
    const wf l = wf_set1(lim), l2 = wf_set1(lim2), inv_dt = wf_set1(c->inv_dt);
    uint32_t p = begin;
    for (; p < end && end - p >= WIDE_LANES; p += WIDE_LANES) {
        WIDE(limit_across_at)(c, p, di, WIDE_LANES, l, l2, inv_dt);
    }
    /* the last lanes masked (a coarse level's rows are short, so a plain
     * tail would be much of the run) */
    if (p < end) {
        WIDE(limit_across_at)(c, p, di, end - p, l, l2, inv_dt);
    }
}

/* The n floats from w (2 WIDE_LANES, a constant where inlined in the loop)
 * as springs (w + 2m, w + 2m + 1), those in `live`. Dealing a row into
 * ends, rather than masking every other lane of a stride-1 vector, does
 * twice the springs per vector, and no load reads what the store before
 * it wrote in part (which the CPU cannot forward and waits for). */
WIDE_INLINE void WIDE(limit_along_at)(const limit_ctx *c, uint32_t w, uint32_t n, wm live, wf l, wf l2, wf inv_dt)
{
    float *const pos[3] = {c->x, c->y, c->z}, *const vel[3] = {c->vx, c->vy, c->vz};
    wf xi[3], xj[3], d[3];
    for (int a = 0; a < 3; ++a) {
        wf_unzip_load_n(false, pos[a] + w, n, &xi[a], &xj[a]);
        d[a] = wf_sub(xj[a], xi[a]);
    }
    const wf len2 = wf_add(wf_add(wf_mul(d[0], d[0]), wf_mul(d[1], d[1])), wf_mul(d[2], d[2]));
    wf wi, wj;
    wf_unzip_load_n(false, c->w + w, n, &wi, &wj);
    limit_moves mv;
    if (!WIDE(limit_moves_of)(len2, wi, wj, live, l, l2, &mv)) {
        return;
    }
    for (int a = 0; a < 3; ++a) {
        const wf mi = wf_mul(mv.ki, d[a]), mj = wf_mul(mv.kj, d[a]);
        wf_zip_store_n(false, pos[a] + w, n, wf_sel(mv.m, wf_add(xi[a], mi), xi[a]),
                              wf_sel(mv.m, wf_sub(xj[a], mj), xj[a]));
        if (vel[a] == NULL) {
            continue;
        }
        wf vi, vj;
        wf_unzip_load_n(false, vel[a] + w, n, &vi, &vj);
        wf_zip_store_n(false, vel[a] + w, n, wf_sel(mv.m, wf_add(vi, wf_mul(mi, inv_dt)), vi),
                              wf_sel(mv.m, wf_sub(vj, wf_mul(mj, inv_dt)), vj));
    }
}

/* A row's own springs (p, p + 1), p in [begin, end), with p - begin of one
 * parity (`colour`). */
static void WIDE(limit_along)(const limit_ctx *ctx, uint32_t begin, uint32_t end, float lim, float lim2,
                              uint32_t colour)
{
    const limit_ctx copy = *ctx; /* as in limit_across */
    const limit_ctx *c = &copy;
    const wf l = wf_set1(lim), l2 = wf_set1(lim2), inv_dt = wf_set1(c->inv_dt);
    uint32_t w = begin + colour;
    /* 2 WIDE_LANES particles wholly in the run (w .. end belong to it) hold
     * WIDE_LANES springs */
    for (; w < end && end + 1u - w >= 2u * WIDE_LANES; w += 2u * WIDE_LANES) {
        WIDE(limit_along_at)(c, w, 2u * WIDE_LANES, wm_first(WIDE_LANES), l, l2, inv_dt);
    }
    if (w < end) {
        const wm live = wm_lt(wf_unzip_first(false), wf_set1((float)(end - w))); /* w + first < end */
        WIDE(limit_along_at)(c, w, end + 1u - w, live, l, l2, inv_dt);
    }
}
