/*
 * The sphere's response, over the vector layer (platform/wide.h; included
 * by wide.inl once per width). It is resolve()'s in colliders/collide.c,
 * term for term: push out to radius + thickness, take the surface's normal
 * velocity when moving into it, Coulomb friction on the relative tangential
 * velocity, and take back the slide friction cancelled; in the strain
 * limit's held passes, resolve_held()'s. A sphere looks the same in every
 * orientation, so the frame change drops out: only the spin (for the
 * surface's velocity) and the "which way is out at the very centre" rule
 * keep the rotation.
 */

/* What both responses start from, for particles i .. i + n - 1. */
typedef struct sphere_contact {
    wm hit;                /* touching, and free */
    wf px, py, pz;         /* position as read */
    wf pvx, pvy, pvz;      /* velocity as read */
    wf nx, ny, nz;         /* outward normal */
    wf d;                  /* distance from the centre (0 outside reach) */
    wf ox, oy, oz;         /* the nearest point of the grown surface */
    wf sx, sy, sz;         /* that point's velocity: the centre's plus the spin's */
    wf rx, ry, rz, vn;     /* velocity relative to it, and its normal part */
    wm into;               /* moving into the surface */
} sphere_contact;

/* Fills `k`; false (and `k` half filled) when no lane touches, so that a
 * chunk away from the ball skips the square roots and divisions. */
WIDE_INLINE bool WIDE(sphere_contact_at)(const cloth_sphere_args *a, uint32_t i, uint32_t n, sphere_contact *k)
{
    const wf zero = wf_set1(0.0f), one = wf_set1(1.0f);
    const wf reach = wf_set1(a->reach), reach2 = wf_set1(a->reach2);
    const wf cx = wf_set1(a->c[0]), cy = wf_set1(a->c[1]), cz = wf_set1(a->c[2]);
    k->px = wf_load_n(a->x + i, n);
    k->py = wf_load_n(a->y + i, n);
    k->pz = wf_load_n(a->z + i, n);
    const wf w = wf_load_n(a->w + i, n);
    const wf dx = wf_sub(k->px, cx), dy = wf_sub(k->py, cy), dz = wf_sub(k->pz, cz);
    const wf d2 = wf_add(wf_add(wf_mul(dx, dx), wf_mul(dy, dy)), wf_mul(dz, dz));
    const wm inside = wm_lt(d2, reach2);
    /* lanes past n read 0: w = 0 is not a hit */
    k->hit = wm_and(inside, wm_gt(w, zero));
    if (!wm_any(k->hit)) {
        return false;
    }
    k->pvx = wf_load_n(a->vx + i, n);
    k->pvy = wf_load_n(a->vy + i, n);
    k->pvz = wf_load_n(a->vz + i, n);
    k->d = wf_sqrt(wf_sel(inside, d2, zero));
    const wm centre = wm_ngt(k->d, zero);
    const wf safe_d = wf_sel(centre, one, k->d);
    k->nx = wf_sel(centre, wf_set1(a->up[0]), wf_div(dx, safe_d));
    k->ny = wf_sel(centre, wf_set1(a->up[1]), wf_div(dy, safe_d));
    k->nz = wf_sel(centre, wf_set1(a->up[2]), wf_div(dz, safe_d));
    const wf ax = wf_mul(k->nx, reach), ay = wf_mul(k->ny, reach), az = wf_mul(k->nz, reach);
    k->ox = wf_add(cx, ax);
    k->oy = wf_add(cy, ay);
    k->oz = wf_add(cz, az);
    const wf cwx = wf_set1(a->spin[0]), cwy = wf_set1(a->spin[1]), cwz = wf_set1(a->spin[2]);
    k->sx = wf_add(wf_set1(a->v[0]), wf_sub(wf_mul(cwy, az), wf_mul(cwz, ay)));
    k->sy = wf_add(wf_set1(a->v[1]), wf_sub(wf_mul(cwz, ax), wf_mul(cwx, az)));
    k->sz = wf_add(wf_set1(a->v[2]), wf_sub(wf_mul(cwx, ay), wf_mul(cwy, ax)));
    k->rx = wf_sub(k->pvx, k->sx);
    k->ry = wf_sub(k->pvy, k->sy);
    k->rz = wf_sub(k->pvz, k->sz);
    k->vn = wf_add(wf_add(wf_mul(k->rx, k->nx), wf_mul(k->ry, k->ny)), wf_mul(k->rz, k->nz));
    k->into = wm_lt(k->vn, zero);
    return true;
}

/* The touching lanes get the new position and velocity; the others are
 * written back as read (the range is this worker's alone). */
WIDE_INLINE uint32_t WIDE(sphere_store)(const cloth_sphere_args *a, uint32_t i, uint32_t n, const sphere_contact *k,
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

/* Particles i .. i + n - 1 (n <= WIDE_LANES; a constant WIDE_LANES where
 * inlined in the loop): resolve()'s response. */
WIDE_INLINE uint32_t WIDE(sphere_lanes)(const cloth_sphere_args *a, uint32_t i, uint32_t n)
{
    sphere_contact k;
    if (!WIDE(sphere_contact_at)(a, i, n, &k)) {
        return 0u;
    }
    const wf zero = wf_set1(0.0f), one = wf_set1(1.0f);
    const wf tx = wf_sub(k.rx, wf_mul(k.vn, k.nx));
    const wf ty = wf_sub(k.ry, wf_mul(k.vn, k.ny));
    const wf tz = wf_sub(k.rz, wf_mul(k.vn, k.nz));
    const wf vt = wf_sqrt(wf_add(wf_add(wf_mul(tx, tx), wf_mul(ty, ty)), wf_mul(tz, tz)));
    /* Coulomb: the tangential speed drops by at most mu times the normal
     * speed removed, and stops (static friction) when that is enough */
    const wf drop = wf_mul(wf_neg(k.vn), wf_set1(a->mu));
    const wf safe_vt = wf_sel(wm_gt(vt, zero), vt, one);
    const wf slip = wf_sub(one, wf_div(drop, safe_vt));
    const wf stick = wf_sel(wm_gt(vt, drop), slip, zero);
    const wf keep = a->mu > 0.0f ? stick : one;
    /* the slide friction cancelled, taken back (collide.c, resolve()) */
    const wf back = wf_sel(k.into, wf_mul(wf_sub(one, keep), wf_set1(a->lag)), zero);
    return WIDE(sphere_store)(a, i, n, &k, wf_sub(k.ox, wf_mul(tx, back)), wf_sub(k.oy, wf_mul(ty, back)),
                              wf_sub(k.oz, wf_mul(tz, back)), wf_sel(k.into, wf_add(k.sx, wf_mul(tx, keep)), k.pvx),
                              wf_sel(k.into, wf_add(k.sy, wf_mul(ty, keep)), k.pvy),
                              wf_sel(k.into, wf_add(k.sz, wf_mul(tz, keep)), k.pvz));
}

/* The same in the strain limit's held passes: resolve_held()'s response
 * (colliders/collide.c), term for term. Friction acts on the slide along
 * the surface since the limit began, taking back up to mu (g_n dt^2 + the
 * push out of the ball) of it, and the velocity the limit gave that part. */
WIDE_INLINE uint32_t WIDE(sphere_held_lanes)(const cloth_sphere_args *a, uint32_t i, uint32_t n)
{
    sphere_contact k;
    if (!WIDE(sphere_contact_at)(a, i, n, &k)) {
        return 0u;
    }
    const wf zero = wf_set1(0.0f), one = wf_set1(1.0f);
    wf ox = k.ox, oy = k.oy, oz = k.oz;
    wf nvx = wf_sel(k.into, wf_sub(k.pvx, wf_mul(k.vn, k.nx)), k.pvx);
    wf nvy = wf_sel(k.into, wf_sub(k.pvy, wf_mul(k.vn, k.ny)), k.pvy);
    wf nvz = wf_sel(k.into, wf_sub(k.pvz, wf_mul(k.vn, k.nz)), k.pvz);
    if (a->mu > 0.0f) {
        const wf dt = wf_set1(a->hold_dt);
        const wf qx = wf_sub(ox, wf_load_n(a->lx + i, n));
        const wf qy = wf_sub(oy, wf_load_n(a->ly + i, n));
        const wf qz = wf_sub(oz, wf_load_n(a->lz + i, n));
        const wf qn = wf_add(wf_add(wf_mul(qx, k.nx), wf_mul(qy, k.ny)), wf_mul(qz, k.nz));
        const wf tx = wf_sub(qx, wf_mul(qn, k.nx)), ty = wf_sub(qy, wf_mul(qn, k.ny));
        const wf tz = wf_sub(qz, wf_mul(qn, k.nz));
        const wf slide = wf_sqrt(wf_add(wf_add(wf_mul(tx, tx), wf_mul(ty, ty)), wf_mul(tz, tz)));
        const wf gdotn = wf_add(wf_add(wf_mul(wf_set1(a->g[0]), k.nx), wf_mul(wf_set1(a->g[1]), k.ny)),
                                wf_mul(wf_set1(a->g[2]), k.nz));
        const wf gn = wf_neg(gdotn);
        const wf load = wf_sel(wm_gt(gn, zero), gn, zero);
        const wf push = wf_sub(wf_set1(a->reach), k.d); /* touching lanes: d < reach */
        const wf hold = wf_mul(wf_set1(a->mu), wf_add(wf_mul(load, wf_mul(dt, dt)), push));
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
    return WIDE(sphere_store)(a, i, n, &k, ox, oy, oz, nvx, nvy, nvz);
}

static uint32_t WIDE(sphere)(const cloth_sphere_args *args, uint32_t begin, uint32_t end)
{
    /* a copy whose address never leaves: the stores cannot reach it, so
     * its pointers stay in registers instead of being read after each store */
    const cloth_sphere_args copy = *args;
    uint32_t hits = 0u, i = begin;
    if (copy.hold_dt > 0.0f) {
        for (; i < end; i += WIDE_LANES) {
            hits += WIDE(sphere_held_lanes)(&copy, i, end - i < WIDE_LANES ? end - i : WIDE_LANES);
        }
        return hits;
    }
    for (; end - i >= WIDE_LANES; i += WIDE_LANES) {
        hits += WIDE(sphere_lanes)(&copy, i, WIDE_LANES);
    }
    if (i < end) {
        hits += WIDE(sphere_lanes)(&copy, i, end - i);
    }
    return hits;
}

/* The cheap test that lets a chunk be skipped: a plain loop the compiler
 * vectorises at this unit's width (the same float sums, so the same
 * answer at every width). */
static bool WIDE(sphere_near)(const cloth_sphere_args *a, uint32_t begin, uint32_t end)
{
    const float *restrict x = a->x, *restrict y = a->y, *restrict z = a->z;
    const float cx = a->c[0], cy = a->c[1], cz = a->c[2], reach2 = a->reach2;
    int32_t any = 0;
    for (uint32_t i = begin; i < end; ++i) {
        const float dx = x[i] - cx, dy = y[i] - cy, dz = z[i] - cz;
        any |= (int32_t)((dx * dx + dy * dy) + dz * dz < reach2);
    }
    return any != 0;
}
