/*
 * A collider's response, over the vector layer (platform/wide.h; included
 * by wide.inl once per width): colliders/collide.c's resolve() and
 * resolve_held(), term for term, for lanes whose contact a shape has
 * worked out (kernels/sphere.inl, kernels/shapes.inl). resolve(): push out
 * to the grown surface, take the surface's normal velocity when moving
 * into it, Coulomb friction on the relative tangential velocity, and take
 * back the slide friction cancelled. resolve_held(), in the strain limit's
 * held passes: friction acts on the slide along the surface since the
 * limit began.
 */

/* What both responses start from, for particles i .. i + n - 1. */
typedef struct contact_lanes {
    wm hit;                /* touching, and free */
    wf px, py, pz;         /* position as read */
    wf pvx, pvy, pvz;      /* velocity as read */
    wf nx, ny, nz;         /* outward normal */
    wf push;               /* how far the particle is pushed out along n */
    wf ox, oy, oz;         /* the nearest point of the grown surface */
    wf sx, sy, sz;         /* that point's velocity */
    wf rx, ry, rz, vn;     /* velocity relative to it, and its normal part */
    wm into;               /* moving into the surface */
} contact_lanes;

/* The velocity relative to the surface and its normal part, once the
 * shape has filled position, normal, surface point and its velocity. */
WIDE_INLINE void WIDE(contact_relative)(const cloth_contact_args *a, uint32_t i, uint32_t n, contact_lanes *k)
{
    k->pvx = wf_load_n(a->vx + i, n);
    k->pvy = wf_load_n(a->vy + i, n);
    k->pvz = wf_load_n(a->vz + i, n);
    k->rx = wf_sub(k->pvx, k->sx);
    k->ry = wf_sub(k->pvy, k->sy);
    k->rz = wf_sub(k->pvz, k->sz);
    k->vn = wf_add(wf_add(wf_mul(k->rx, k->nx), wf_mul(k->ry, k->ny)), wf_mul(k->rz, k->nz));
    k->into = wm_lt(k->vn, wf_set1(0.0f));
}

/* The touching lanes get the new position and velocity; the others are
 * written back as read (the range is this worker's alone). */
WIDE_INLINE uint32_t WIDE(contact_store)(const cloth_contact_args *a, uint32_t i, uint32_t n, const contact_lanes *k,
                                         wf ox, wf oy, wf oz, wf vx, wf vy, wf vz)
{
    wf_store_n(a->x + i, n, wf_sel(k->hit, ox, k->px));
    wf_store_n(a->y + i, n, wf_sel(k->hit, oy, k->py));
    wf_store_n(a->z + i, n, wf_sel(k->hit, oz, k->pz));
    wf_store_n(a->vx + i, n, wf_sel(k->hit, vx, k->pvx));
    wf_store_n(a->vy + i, n, wf_sel(k->hit, vy, k->pvy));
    wf_store_n(a->vz + i, n, wf_sel(k->hit, vz, k->pvz));
    return wm_count(k->hit);
}

/* resolve()'s response. */
WIDE_INLINE uint32_t WIDE(contact_respond)(const cloth_contact_args *a, uint32_t i, uint32_t n, const contact_lanes *k)
{
    const wf zero = wf_set1(0.0f), one = wf_set1(1.0f);
    const wf tx = wf_sub(k->rx, wf_mul(k->vn, k->nx));
    const wf ty = wf_sub(k->ry, wf_mul(k->vn, k->ny));
    const wf tz = wf_sub(k->rz, wf_mul(k->vn, k->nz));
    const wf vt = wf_sqrt(wf_add(wf_add(wf_mul(tx, tx), wf_mul(ty, ty)), wf_mul(tz, tz)));
    /* Coulomb: the tangential speed drops by at most mu times the normal
     * speed removed, and stops (static friction) when that is enough */
    const wf drop = wf_mul(wf_neg(k->vn), wf_set1(a->mu));
    const wf safe_vt = wf_sel(wm_gt(vt, zero), vt, one);
    const wf slip = wf_sub(one, wf_div(drop, safe_vt));
    const wf stick = wf_sel(wm_gt(vt, drop), slip, zero);
    const wf keep = a->mu > 0.0f ? stick : one;
    /* the slide friction cancelled, taken back (collide.c, resolve()) */
    const wf back = wf_sel(k->into, wf_mul(wf_sub(one, keep), wf_set1(a->lag)), zero);
    return WIDE(contact_store)(a, i, n, k, wf_sub(k->ox, wf_mul(tx, back)), wf_sub(k->oy, wf_mul(ty, back)),
                               wf_sub(k->oz, wf_mul(tz, back)), wf_sel(k->into, wf_add(k->sx, wf_mul(tx, keep)), k->pvx),
                               wf_sel(k->into, wf_add(k->sy, wf_mul(ty, keep)), k->pvy),
                               wf_sel(k->into, wf_add(k->sz, wf_mul(tz, keep)), k->pvz));
}

/* resolve_held()'s response: friction takes back up to mu (g_n dt^2 + the
 * push out of the shape) of the slide since the limit began, and the
 * velocity the limit gave that part. */
WIDE_INLINE uint32_t WIDE(contact_held)(const cloth_contact_args *a, uint32_t i, uint32_t n, const contact_lanes *k)
{
    const wf zero = wf_set1(0.0f), one = wf_set1(1.0f);
    wf ox = k->ox, oy = k->oy, oz = k->oz;
    wf nvx = wf_sel(k->into, wf_sub(k->pvx, wf_mul(k->vn, k->nx)), k->pvx);
    wf nvy = wf_sel(k->into, wf_sub(k->pvy, wf_mul(k->vn, k->ny)), k->pvy);
    wf nvz = wf_sel(k->into, wf_sub(k->pvz, wf_mul(k->vn, k->nz)), k->pvz);
    if (a->mu > 0.0f) {
        const wf dt = wf_set1(a->hold_dt);
        const wf qx = wf_sub(ox, wf_load_n(a->lx + i, n));
        const wf qy = wf_sub(oy, wf_load_n(a->ly + i, n));
        const wf qz = wf_sub(oz, wf_load_n(a->lz + i, n));
        const wf qn = wf_add(wf_add(wf_mul(qx, k->nx), wf_mul(qy, k->ny)), wf_mul(qz, k->nz));
        const wf tx = wf_sub(qx, wf_mul(qn, k->nx)), ty = wf_sub(qy, wf_mul(qn, k->ny));
        const wf tz = wf_sub(qz, wf_mul(qn, k->nz));
        const wf slide = wf_sqrt(wf_add(wf_add(wf_mul(tx, tx), wf_mul(ty, ty)), wf_mul(tz, tz)));
        const wf gdotn = wf_add(wf_add(wf_mul(wf_set1(a->g[0]), k->nx), wf_mul(wf_set1(a->g[1]), k->ny)),
                                wf_mul(wf_set1(a->g[2]), k->nz));
        const wf gn = wf_neg(gdotn);
        const wf load = wf_sel(wm_gt(gn, zero), gn, zero);
        const wf hold = wf_mul(wf_set1(a->mu), wf_add(wf_mul(load, wf_mul(dt, dt)), k->push));
        const wm slips = wm_gt(slide, hold);
        const wf back = wf_sel(slips, wf_div(hold, wf_sel(slips, slide, one)), one);
        const wf bx = wf_mul(tx, back), by = wf_mul(ty, back), bz = wf_mul(tz, back);
        ox = wf_sub(ox, bx);
        oy = wf_sub(oy, by);
        oz = wf_sub(oz, bz);
        nvx = wf_sub(nvx, wf_div(bx, dt));
        nvy = wf_sub(nvy, wf_div(by, dt));
        nvz = wf_sub(nvz, wf_div(bz, dt));
    }
    return WIDE(contact_store)(a, i, n, k, ox, oy, oz, nvx, nvy, nvz);
}

/* A shape's pass: `at` fills the lanes' contacts (false when none
 * touches, so that a chunk away from the shape skips the rest). */
#define CONTACT_PASS(name, at)                                                                                       \
    static uint32_t WIDE(name)(const cloth_contact_args *args, uint32_t begin, uint32_t end)                        \
    {                                                                                                                \
        /* a copy whose address never leaves: the stores cannot reach it, so                                         \
         * its pointers stay in registers instead of being read after each store */                                 \
        const cloth_contact_args copy = *args;                                                                       \
        uint32_t hits = 0u;                                                                                          \
        contact_lanes k;                                                                                             \
        for (uint32_t i = begin; i < end; i += WIDE_LANES) {                                                         \
            const uint32_t n = end - i < WIDE_LANES ? end - i : WIDE_LANES;                                          \
            if (at(&copy, i, n, &k)) {                                                                               \
                hits += copy.hold_dt > 0.0f ? WIDE(contact_held)(&copy, i, n, &k)                                    \
                                            : WIDE(contact_respond)(&copy, i, n, &k);                                \
            }                                                                                                        \
        }                                                                                                            \
        return hits;                                                                                                 \
    }
