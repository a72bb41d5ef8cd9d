/*
 * XPBD's springs of a mesh (the arguments: kernels.h, xpbd_links), over the
 * vector layer; included by wide.inl once per width, after xpbd_span.inl,
 * whose spring (span_spring) it solves: the same operations per lane as a
 * grid's run, so the same bits at every width.
 *
 * The springs come in slots, and no two springs of a run share a particle
 * (integrators/xpbd.c colours them). Lane l of a vector is slot at + l: its
 * ends' records (x, y, z, w) and (ux, uy, uz, -) are gathered, the spring
 * is solved in every lane, and the ends' displacements are scattered back.
 * With no two lanes on one particle the lanes are independent, which is
 * what makes a run a vector loop whatever the width. A run's last vector
 * may reach past its end into spare slots (the storage is whole batches),
 * which join a spare record that nothing writes to itself: those lanes
 * are computed and not written.
 */

WIDE_INLINE void WIDE(links_run)(const xpbd_links *s, bool with_lambda, bool scaled)
{
    span_consts k;
    k.zero = wf_set1(0.0f);
    k.one = wf_set1(1.0f);
    k.gamma = wf_set1(s->gamma);
    k.opg = wf_set1(s->one_plus_gamma);
    const wf inv_kh2 = wf_set1(s->inv_kh2);
    const wm all = wm_first(WIDE_LANES);
    for (uint32_t at = s->begin; at < s->end; at += WIDE_LANES) {
        const uint32_t n = s->end - at < WIDE_LANES ? s->end - at : WIDE_LANES;
        wf ra[4], ua[4], rb[4], ub[4];
        wf_gather4(s->x4, s->i + at, ra);
        wf_gather4(s->u4, s->i + at, ua);
        wf_gather4(s->x4, s->j + at, rb);
        wf_gather4(s->u4, s->j + at, ub);
        span_ends a = {ra[0], ra[1], ra[2], ra[3], ua[0], ua[1], ua[2], k.one};
        span_ends b = {rb[0], rb[1], rb[2], rb[3], ub[0], ub[1], ub[2], k.one};
        /* alpha~ = L0 / (k h^2), per lane; with stiffness scales (in the
         * records' spare float) over the mean of the ends' */
        k.rest = wf_load(s->rest + at);
        k.at = wf_mul(k.rest, inv_kh2);
        a.s = ua[3];
        b.s = ub[3];
        wf lam = with_lambda ? wf_load(s->lambda + at) : k.zero;
        WIDE(span_spring)(&k, WIDE(span_alpha)(&k, &a, &b, scaled), &a, &b, &lam, all, with_lambda);
        if (with_lambda) {
            wf_store_n(s->lambda + at, n, lam);
        }
        ua[0] = a.ux;
        ua[1] = a.uy;
        ua[2] = a.uz;
        ub[0] = b.ux;
        ub[1] = b.uy;
        ub[2] = b.uz;
        wf_scatter4_n(s->u4, s->i + at, ua, n);
        wf_scatter4_n(s->u4, s->j + at, ub, n);
    }
}

static void WIDE(xpbd_links)(const xpbd_links *run)
{
    /* a copy whose address never leaves (see xpbd_span) */
    const xpbd_links copy = *run;
    if (copy.scaled) {
        if (copy.lambda != NULL) {
            WIDE(links_run)(&copy, true, true);
        } else {
            WIDE(links_run)(&copy, false, true);
        }
    } else if (copy.lambda != NULL) {
        WIDE(links_run)(&copy, true, false);
    } else {
        WIDE(links_run)(&copy, false, false);
    }
}
