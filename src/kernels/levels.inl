/*
 * The strain limit's coarse levels' loops (constraints/strain_levels.c),
 * over the vector layer; included by wide.inl once per width. Each is the
 * plain loop its comment gives, element by element, with the last vector
 * masked (a coarse level's rows are short).
 */

/* out[2 i] = row[i], out[2 i + 1] = 0.5 (row[i] + row[i + 1]), i < pairs. */
static void WIDE(level_halve)(const float *row, float *out, uint32_t pairs)
{
    const wf half = wf_set1(0.5f);
    for (uint32_t i = 0; i < pairs; i += WIDE_LANES) {
        const uint32_t n = pairs - i < WIDE_LANES ? pairs - i : WIDE_LANES;
        const wf a = wf_load_n(row + i, n), b = wf_load_n(row + i + 1u, n);
        wf lo, hi;
        wf_interleave(a, wf_mul(half, wf_add(a, b)), &lo, &hi);
        wf_store_n(out + 2u * i, 2u * n < WIDE_LANES ? 2u * n : WIDE_LANES, lo);
        if (2u * n > WIDE_LANES) {
            wf_store_n(out + 2u * i + WIDE_LANES, 2u * n - WIDE_LANES, hi);
        }
    }
}

/* x += m, v += m inv_dt with m = move where w != 0 (pins stay), 0 elsewhere. */
static void WIDE(level_add)(float *x, float *v, const float *w, const float *move, float inv_dt, uint32_t n)
{
    const wf zero = wf_set1(0.0f), k = wf_set1(inv_dt);
    for (uint32_t i = 0; i < n; i += WIDE_LANES) {
        const uint32_t c = n - i < WIDE_LANES ? n - i : WIDE_LANES;
        const wf m = wf_sel(wm_ne(wf_load_n(w + i, c), zero), wf_load_n(move + i, c), zero);
        wf_store_n(x + i, c, wf_add(wf_load_n(x + i, c), m));
        wf_store_n(v + i, c, wf_add(wf_load_n(v + i, c), wf_mul(m, k)));
    }
}

/* out[i] = (1 - t) top[i] + t bottom[i]. */
static void WIDE(level_mix)(const float *top, const float *bottom, float *out, float t, uint32_t n)
{
    const wf a = wf_set1(1.0f - t), b = wf_set1(t);
    for (uint32_t i = 0; i < n; i += WIDE_LANES) {
        const uint32_t c = n - i < WIDE_LANES ? n - i : WIDE_LANES;
        wf_store_n(out + i, c, wf_add(wf_mul(a, wf_load_n(top + i, c)), wf_mul(b, wf_load_n(bottom + i, c))));
    }
}

/* n nodes of a row, node l over fine[l << shift]: made (CLOTH_NODES_AT: the
 * fine position plus d[l], the coarser level's move, or plus 0 where there
 * is none, as a zero move would add) or turned into moves
 * (CLOTH_NODES_MOVES: less the fine position). The finest level (shift 1)
 * takes the even floats of the fine row; coarser ones are short and go one
 * node at a time. */
/* Nodes l .. l + c - 1 of the finest level, from the first `floats` of
 * fine[2 l ..] (constants where inlined in the loop: plain loads). */
WIDE_INLINE void WIDE(level_nodes_at)(float *node, const float *fine, const float *d, uint32_t l, uint32_t c,
                                      uint32_t floats, int what)
{
    const wf f = wf_even(wf_load_n(fine + 2u * l, floats < WIDE_LANES ? floats : WIDE_LANES),
                         wf_load_n(fine + 2u * l + WIDE_LANES, floats > WIDE_LANES ? floats - WIDE_LANES : 0u));
    wf v;
    if (what == CLOTH_NODES_MOVES) {
        v = wf_sub(wf_load_n(node + l, c), f);
    } else {
        v = wf_add(f, d != NULL ? wf_load_n(d + l, c) : wf_set1(0.0f));
    }
    wf_store_n(node + l, c, v);
}

static void WIDE(level_nodes)(float *node, const float *fine, const float *d, uint32_t n, uint32_t shift, int what)
{
    if (shift != 1u) {
        for (uint32_t l = 0; l < n; ++l) {
            const float f = fine[l << shift];
            node[l] = what == CLOTH_NODES_MOVES ? node[l] - f : f + (d != NULL ? d[l] : 0.0f);
        }
        return;
    }
    uint32_t l = 0;
    /* whole vectors read fine[2 l] .. fine[2 l + 2 WIDE_LANES - 1], all in
     * the row while node l + WIDE_LANES exists */
    for (; n - l > WIDE_LANES; l += WIDE_LANES) {
        WIDE(level_nodes_at)(node, fine, d, l, WIDE_LANES, 2u * WIDE_LANES, what);
    }
    if (l < n) {
        WIDE(level_nodes_at)(node, fine, d, l, n - l, 2u * (n - l) - 1u, what); /* to fine[2 (n - 1)] */
    }
}
