/*
 * The sphere's response, over the vector layer (platform/wide.h; included
 * by wide.inl once per width). It is resolve()'s in colliders/collide.c,
 * term for term: push out to radius + thickness, take the surface's normal
 * velocity when moving into it, Coulomb friction on the relative tangential
 * velocity, and take back the slide friction cancelled. A sphere looks the
 * same in every orientation, so the frame change drops out: only the spin
 * (for the surface's velocity) and the "which way is out at the very
 * centre" rule keep the rotation.
 */

/* Particles i .. i + n - 1 (n <= WIDE_LANES; a constant WIDE_LANES where
 * inlined in the loop). A lane without a contact is written back as read:
 * the range is this worker's alone. */
WIDE_INLINE uint32_t WIDE(sphere_lanes)(const cloth_sphere_args *a, uint32_t i, uint32_t n)
{
    const wf zero = wf_set1(0.0f), one = wf_set1(1.0f);
    const wf reach = wf_set1(a->reach), reach2 = wf_set1(a->reach2);
    const wf mu = wf_set1(a->mu), lag = wf_set1(a->lag);
    const wf cx = wf_set1(a->c[0]), cy = wf_set1(a->c[1]), cz = wf_set1(a->c[2]);
    const wf px = wf_load_n(a->x + i, n), py = wf_load_n(a->y + i, n), pz = wf_load_n(a->z + i, n);
    const wf w = wf_load_n(a->w + i, n);
    const wf dx = wf_sub(px, cx), dy = wf_sub(py, cy), dz = wf_sub(pz, cz);
    const wf d2 = wf_add(wf_add(wf_mul(dx, dx), wf_mul(dy, dy)), wf_mul(dz, dz));
    const wm inside = wm_lt(d2, reach2);
    /* lanes past n read 0: w = 0 is not a hit */
    const wm hit = wm_and(inside, wm_gt(w, zero));
    if (!wm_any(hit)) {
        return 0u; /* nothing to write: skip the square roots and divisions */
    }
    const wf pvx = wf_load_n(a->vx + i, n), pvy = wf_load_n(a->vy + i, n), pvz = wf_load_n(a->vz + i, n);
    const wf d = wf_sqrt(wf_sel(inside, d2, zero));
    const wm centre = wm_ngt(d, zero);
    const wf safe_d = wf_sel(centre, one, d);
    const wf nx = wf_sel(centre, wf_set1(a->up[0]), wf_div(dx, safe_d));
    const wf ny = wf_sel(centre, wf_set1(a->up[1]), wf_div(dy, safe_d));
    const wf nz = wf_sel(centre, wf_set1(a->up[2]), wf_div(dz, safe_d));
    const wf ax = wf_mul(nx, reach), ay = wf_mul(ny, reach), az = wf_mul(nz, reach);
    /* velocity of the surface point: the centre's plus the spin's */
    const wf cwx = wf_set1(a->spin[0]), cwy = wf_set1(a->spin[1]), cwz = wf_set1(a->spin[2]);
    const wf sx = wf_add(wf_set1(a->v[0]), wf_sub(wf_mul(cwy, az), wf_mul(cwz, ay)));
    const wf sy = wf_add(wf_set1(a->v[1]), wf_sub(wf_mul(cwz, ax), wf_mul(cwx, az)));
    const wf sz = wf_add(wf_set1(a->v[2]), wf_sub(wf_mul(cwx, ay), wf_mul(cwy, ax)));
    const wf rx = wf_sub(pvx, sx), ry = wf_sub(pvy, sy), rz = wf_sub(pvz, sz);
    const wf vn = wf_add(wf_add(wf_mul(rx, nx), wf_mul(ry, ny)), wf_mul(rz, nz));
    const wm into = wm_lt(vn, zero);
    const wf tx = wf_sub(rx, wf_mul(vn, nx)), ty = wf_sub(ry, wf_mul(vn, ny)), tz = wf_sub(rz, wf_mul(vn, nz));
    const wf vt = wf_sqrt(wf_add(wf_add(wf_mul(tx, tx), wf_mul(ty, ty)), wf_mul(tz, tz)));
    /* Coulomb: the tangential speed drops by at most mu times the normal
     * speed removed, and stops (static friction) when that is enough */
    const wf drop = wf_mul(wf_neg(vn), mu);
    const wf safe_vt = wf_sel(wm_gt(vt, zero), vt, one);
    const wf slip = wf_sub(one, wf_div(drop, safe_vt));
    const wf stick = wf_sel(wm_gt(vt, drop), slip, zero);
    const wf keep = a->mu > 0.0f ? stick : one;
    /* the slide friction cancelled, taken back (collide.c, resolve()) */
    const wf back = wf_sel(into, wf_mul(wf_sub(one, keep), lag), zero);
    const wf ox = wf_sub(wf_add(cx, ax), wf_mul(tx, back));
    const wf oy = wf_sub(wf_add(cy, ay), wf_mul(ty, back));
    const wf oz = wf_sub(wf_add(cz, az), wf_mul(tz, back));
    const wf nvx = wf_sel(into, wf_add(sx, wf_mul(tx, keep)), pvx);
    const wf nvy = wf_sel(into, wf_add(sy, wf_mul(ty, keep)), pvy);
    const wf nvz = wf_sel(into, wf_add(sz, wf_mul(tz, keep)), pvz);
    wf_store_n(a->x + i, n, wf_sel(hit, ox, px));
    wf_store_n(a->y + i, n, wf_sel(hit, oy, py));
    wf_store_n(a->z + i, n, wf_sel(hit, oz, pz));
    wf_store_n(a->vx + i, n, wf_sel(hit, nvx, pvx));
    wf_store_n(a->vy + i, n, wf_sel(hit, nvy, pvy));
    wf_store_n(a->vz + i, n, wf_sel(hit, nvz, pvz));
    return wm_count(hit);
}

/* The same in the strain limit's held passes: resolve_held()'s response
 * (colliders/collide.c), term for term. Friction acts on the slide along
 * the surface since the limit began, taking back up to mu (g_n dt^2 + the
 * push out of the ball) of it, and the velocity the limit gave that part. */
WIDE_INLINE uint32_t WIDE(sphere_held_lanes)(const cloth_sphere_args *a, uint32_t i, uint32_t n)
{
    const wf zero = wf_set1(0.0f), one = wf_set1(1.0f);
    const wf reach = wf_set1(a->reach), reach2 = wf_set1(a->reach2);
    const wf cx = wf_set1(a->c[0]), cy = wf_set1(a->c[1]), cz = wf_set1(a->c[2]);
    const wf px = wf_load_n(a->x + i, n), py = wf_load_n(a->y + i, n), pz = wf_load_n(a->z + i, n);
    const wf w = wf_load_n(a->w + i, n);
    const wf dx = wf_sub(px, cx), dy = wf_sub(py, cy), dz = wf_sub(pz, cz);
    const wf d2 = wf_add(wf_add(wf_mul(dx, dx), wf_mul(dy, dy)), wf_mul(dz, dz));
    const wm inside = wm_lt(d2, reach2);
    const wm hit = wm_and(inside, wm_gt(w, zero));
    if (!wm_any(hit)) {
        return 0u;
    }
    const wf pvx = wf_load_n(a->vx + i, n), pvy = wf_load_n(a->vy + i, n), pvz = wf_load_n(a->vz + i, n);
    const wf d = wf_sqrt(wf_sel(inside, d2, zero));
    const wm centre = wm_ngt(d, zero);
    const wf safe_d = wf_sel(centre, one, d);
    const wf nx = wf_sel(centre, wf_set1(a->up[0]), wf_div(dx, safe_d));
    const wf ny = wf_sel(centre, wf_set1(a->up[1]), wf_div(dy, safe_d));
    const wf nz = wf_sel(centre, wf_set1(a->up[2]), wf_div(dz, safe_d));
    const wf ax = wf_mul(nx, reach), ay = wf_mul(ny, reach), az = wf_mul(nz, reach);
    const wf cwx = wf_set1(a->spin[0]), cwy = wf_set1(a->spin[1]), cwz = wf_set1(a->spin[2]);
    const wf sx = wf_add(wf_set1(a->v[0]), wf_sub(wf_mul(cwy, az), wf_mul(cwz, ay)));
    const wf sy = wf_add(wf_set1(a->v[1]), wf_sub(wf_mul(cwz, ax), wf_mul(cwx, az)));
    const wf sz = wf_add(wf_set1(a->v[2]), wf_sub(wf_mul(cwx, ay), wf_mul(cwy, ax)));
    const wf rx = wf_sub(pvx, sx), ry = wf_sub(pvy, sy), rz = wf_sub(pvz, sz);
    const wf vn = wf_add(wf_add(wf_mul(rx, nx), wf_mul(ry, ny)), wf_mul(rz, nz));
    const wm into = wm_lt(vn, zero);
    wf ox = wf_add(cx, ax), oy = wf_add(cy, ay), oz = wf_add(cz, az);
    wf nvx = wf_sel(into, wf_sub(pvx, wf_mul(vn, nx)), pvx);
    wf nvy = wf_sel(into, wf_sub(pvy, wf_mul(vn, ny)), pvy);
    wf nvz = wf_sel(into, wf_sub(pvz, wf_mul(vn, nz)), pvz);
    if (a->mu > 0.0f) {
        const wf dt = wf_set1(a->hold_dt);
        const wf qx = wf_sub(ox, wf_load_n(a->lx + i, n));
        const wf qy = wf_sub(oy, wf_load_n(a->ly + i, n));
        const wf qz = wf_sub(oz, wf_load_n(a->lz + i, n));
        const wf qn = wf_add(wf_add(wf_mul(qx, nx), wf_mul(qy, ny)), wf_mul(qz, nz));
        const wf tx = wf_sub(qx, wf_mul(qn, nx)), ty = wf_sub(qy, wf_mul(qn, ny)), tz = wf_sub(qz, wf_mul(qn, nz));
        const wf slide = wf_sqrt(wf_add(wf_add(wf_mul(tx, tx), wf_mul(ty, ty)), wf_mul(tz, tz)));
        const wf gdotn = wf_add(wf_add(wf_mul(wf_set1(a->g[0]), nx), wf_mul(wf_set1(a->g[1]), ny)),
                                wf_mul(wf_set1(a->g[2]), nz));
        const wf gn = wf_neg(gdotn);
        const wf load = wf_sel(wm_gt(gn, zero), gn, zero);
        const wf push = wf_sub(reach, d); /* inside lanes: d < reach */
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
    wf_store_n(a->x + i, n, wf_sel(hit, ox, px));
    wf_store_n(a->y + i, n, wf_sel(hit, oy, py));
    wf_store_n(a->z + i, n, wf_sel(hit, oz, pz));
    wf_store_n(a->vx + i, n, wf_sel(hit, nvx, pvx));
    wf_store_n(a->vy + i, n, wf_sel(hit, nvy, pvy));
    wf_store_n(a->vz + i, n, wf_sel(hit, nvz, pvz));
    return wm_count(hit);
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
