/*
 * The contacts of the shapes described in their own frame (capsule,
 * cylinder, plane, torus, ellipsoid, tapered capsule, convex hull), over the vector layer, after kernels/contact.inl: each lane
 * goes through colliders/collide.c's collide() term for term (into the
 * frame, the shape's query, back to the world, the surface's velocity),
 * so the pass gives the general pass's bits at every width.
 */

/* Lanes i .. i + n - 1 into the collider's frame (collide.c, to_frame()). */
WIDE_INLINE void WIDE(to_frame)(const cloth_contact_args *a, const contact_lanes *k, wf *lx, wf *ly, wf *lz)
{
    const float *m = a->m;
    const wf dx = wf_sub(k->px, wf_set1(a->c[0])), dy = wf_sub(k->py, wf_set1(a->c[1]));
    const wf dz = wf_sub(k->pz, wf_set1(a->c[2]));
    *lx = wf_add(wf_add(wf_mul(wf_set1(m[0]), dx), wf_mul(wf_set1(m[3]), dy)), wf_mul(wf_set1(m[6]), dz));
    *ly = wf_add(wf_add(wf_mul(wf_set1(m[1]), dx), wf_mul(wf_set1(m[4]), dy)), wf_mul(wf_set1(m[7]), dz));
    *lz = wf_add(wf_add(wf_mul(wf_set1(m[2]), dx), wf_mul(wf_set1(m[5]), dy)), wf_mul(wf_set1(m[8]), dz));
}

/* Row r of the rotation times a frame vector (collide.c, from_frame() and
 * the normal's rotation). */
WIDE_INLINE wf WIDE(rotate_row)(const float *m, int r, wf x, wf y, wf z)
{
    return wf_add(wf_add(wf_mul(wf_set1(m[3 * r]), x), wf_mul(wf_set1(m[3 * r + 1]), y)),
                  wf_mul(wf_set1(m[3 * r + 2]), z));
}

/* The shape's answer (surface point `o` and normal `n`, in the frame) back
 * in the world, with the surface point's velocity, then what the
 * responses start from. */
WIDE_INLINE void WIDE(from_frame)(const cloth_contact_args *a, uint32_t i, uint32_t n, contact_lanes *k, wf ox, wf oy,
                                  wf oz, wf nx, wf ny, wf nz)
{
    const float *m = a->m;
    const wf arm0 = WIDE(rotate_row)(m, 0, ox, oy, oz), arm1 = WIDE(rotate_row)(m, 1, ox, oy, oz);
    const wf arm2 = WIDE(rotate_row)(m, 2, ox, oy, oz);
    k->ox = wf_add(wf_set1(a->c[0]), arm0);
    k->oy = wf_add(wf_set1(a->c[1]), arm1);
    k->oz = wf_add(wf_set1(a->c[2]), arm2);
    k->nx = WIDE(rotate_row)(m, 0, nx, ny, nz);
    k->ny = WIDE(rotate_row)(m, 1, nx, ny, nz);
    k->nz = WIDE(rotate_row)(m, 2, nx, ny, nz);
    const wf w0 = wf_set1(a->spin[0]), w1 = wf_set1(a->spin[1]), w2 = wf_set1(a->spin[2]);
    k->sx = wf_sub(wf_add(wf_set1(a->v[0]), wf_mul(w1, arm2)), wf_mul(w2, arm1));
    k->sy = wf_sub(wf_add(wf_set1(a->v[1]), wf_mul(w2, arm0)), wf_mul(w0, arm2));
    k->sz = wf_sub(wf_add(wf_set1(a->v[2]), wf_mul(w0, arm1)), wf_mul(w1, arm0));
    /* resolve_held()'s push: how far the surface point lies out along n */
    const wf in = wf_add(wf_add(wf_mul(wf_sub(k->ox, k->px), k->nx), wf_mul(wf_sub(k->oy, k->py), k->ny)),
                         wf_mul(wf_sub(k->oz, k->pz), k->nz));
    k->push = wf_max(in, wf_set1(0.0f));
    WIDE(contact_relative)(a, i, n, k);
}

WIDE_INLINE wm WIDE(free_lanes)(const cloth_contact_args *a, uint32_t i, uint32_t n, contact_lanes *k)
{
    k->px = wf_load_n(a->x + i, n);
    k->py = wf_load_n(a->y + i, n);
    k->pz = wf_load_n(a->z + i, n);
    /* lanes past n read 0: w = 0 is not a hit; pinned particles are where the host put them */
    return wm_gt(wf_load_n(a->w + i, n), wf_set1(0.0f));
}

/* Capsule (colliders/capsule.c, cloth_shape_capsule()): the nearest point
 * of the segment from the origin to `axis`, and out from it by radius +
 * thickness; a point on the segment takes `on_axis`. */
WIDE_INLINE bool WIDE(capsule_at)(const cloth_contact_args *a, uint32_t i, uint32_t n, contact_lanes *k)
{
    const wf zero = wf_set1(0.0f), one = wf_set1(1.0f);
    const wm free = WIDE(free_lanes)(a, i, n, k);
    wf px, py, pz;
    WIDE(to_frame)(a, k, &px, &py, &pz);
    const wf sx = wf_set1(a->axis[0]), sy = wf_set1(a->axis[1]), sz = wf_set1(a->axis[2]);
    wf t = zero;
    if (a->len2 > 0.0f) {
        t = wf_div(wf_add(wf_add(wf_mul(px, sx), wf_mul(py, sy)), wf_mul(pz, sz)), wf_set1(a->len2));
    }
    t = wf_max(t, zero);
    t = wf_sel(wm_lt(t, one), t, one);
    const wf cx = wf_mul(t, sx), cy = wf_mul(t, sy), cz = wf_mul(t, sz);
    const wf dx = wf_sub(px, cx), dy = wf_sub(py, cy), dz = wf_sub(pz, cz);
    const wf d2 = wf_add(wf_add(wf_mul(dx, dx), wf_mul(dy, dy)), wf_mul(dz, dz));
    k->hit = wm_and(wm_lt(d2, wf_set1(a->reach2)), free);
    if (!wm_any(k->hit)) {
        return false;
    }
    const wf dist = wf_sqrt(d2);
    const wm off = wm_gt(dist, zero);
    const wf safe = wf_sel(off, dist, one);
    const wf nx = wf_sel(off, wf_div(dx, safe), wf_set1(a->on_axis[0]));
    const wf ny = wf_sel(off, wf_div(dy, safe), wf_set1(a->on_axis[1]));
    const wf nz = wf_sel(off, wf_div(dz, safe), wf_set1(a->on_axis[2]));
    const wf reach = wf_set1(a->reach);
    WIDE(from_frame)(a, i, n, k, wf_add(cx, wf_mul(nx, reach)), wf_add(cy, wf_mul(ny, reach)),
                     wf_add(cz, wf_mul(nz, reach)), nx, ny, nz);
    return true;
}

/* Plane (colliders/plane.c, cloth_shape_plane()): through the origin with
 * unit normal `axis`, grown by the thickness. */
WIDE_INLINE bool WIDE(plane_at)(const cloth_contact_args *a, uint32_t i, uint32_t n, contact_lanes *k)
{
    const wm free = WIDE(free_lanes)(a, i, n, k);
    wf px, py, pz;
    WIDE(to_frame)(a, k, &px, &py, &pz);
    const wf ax = wf_set1(a->axis[0]), ay = wf_set1(a->axis[1]), az = wf_set1(a->axis[2]);
    const wf gap = wf_sub(wf_add(wf_add(wf_mul(px, ax), wf_mul(py, ay)), wf_mul(pz, az)), wf_set1(a->thickness));
    k->hit = wm_and(wm_lt(gap, wf_set1(0.0f)), free);
    if (!wm_any(k->hit)) {
        return false;
    }
    WIDE(from_frame)(a, i, n, k, wf_sub(px, wf_mul(gap, ax)), wf_sub(py, wf_mul(gap, ay)), wf_sub(pz, wf_mul(gap, az)),
                     ax, ay, az);
    return true;
}

/* Cylinder (colliders/cylinder.c, cloth_shape_cylinder()): inside, out
 * through the nearest of the side and the caps; outside within the
 * thickness, straight away from the nearest point of the solid, the
 * offset taken in the (e, u) plane. `e` is the unit axis, `len` its
 * length, `on_axis` the radial direction of a point on the axis. */
WIDE_INLINE bool WIDE(cylinder_at)(const cloth_contact_args *a, uint32_t i, uint32_t n, contact_lanes *k)
{
    const wf zero = wf_set1(0.0f), one = wf_set1(1.0f);
    const wm free = WIDE(free_lanes)(a, i, n, k);
    wf px, py, pz;
    WIDE(to_frame)(a, k, &px, &py, &pz);
    const wf ex = wf_set1(a->e[0]), ey = wf_set1(a->e[1]), ez = wf_set1(a->e[2]);
    const wf len = wf_set1(a->len), r = wf_set1(a->size), th = wf_set1(a->thickness);
    const wf h = wf_add(wf_add(wf_mul(px, ex), wf_mul(py, ey)), wf_mul(pz, ez));
    const wf qx = wf_sub(px, wf_mul(h, ex)), qy = wf_sub(py, wf_mul(h, ey)), qz = wf_sub(pz, wf_mul(h, ez));
    const wf rho = wf_sqrt(wf_add(wf_add(wf_mul(qx, qx), wf_mul(qy, qy)), wf_mul(qz, qz)));
    const wm radial = wm_gt(rho, zero);
    const wf safe_rho = wf_sel(radial, rho, one);
    const wf ux = wf_sel(radial, wf_div(qx, safe_rho), wf_set1(a->on_axis[0]));
    const wf uy = wf_sel(radial, wf_div(qy, safe_rho), wf_set1(a->on_axis[1]));
    const wf uz = wf_sel(radial, wf_div(qz, safe_rho), wf_set1(a->on_axis[2]));
    const wm inside = wm_and(wm_and(wm_le(zero, h), wm_le(h, len)), wm_le(rho, r));
    /* outside: the nearest point of the solid, (hc, rc) in the (e, u) plane */
    wf hc = wf_max(h, zero);
    hc = wf_sel(wm_lt(hc, len), hc, len);
    const wf rc = wf_sel(wm_lt(rho, r), rho, r);
    const wf dr = wf_sub(rho, rc), dh = wf_sub(h, hc);
    const wf d2 = wf_add(wf_mul(dr, dr), wf_mul(dh, dh));
    const wf dist = wf_sqrt(d2);
    const wm near = wm_and(wm_lt(d2, wf_mul(th, th)), wm_gt(dist, zero));
    k->hit = wm_and(wm_or(inside, near), free);
    if (!wm_any(k->hit)) {
        return false;
    }
    /* inside: out through the side, or through the nearer cap */
    const wf side = wf_sub(r, rho), top = wf_sub(len, h);
    const wm through_side = wm_and(wm_le(side, h), wm_le(side, top));
    const wm lower = wm_lt(h, top);
    const wf sign = wf_sel(lower, wf_set1(-1.0f), one);
    const wf level = wf_sel(lower, wf_neg(th), wf_set1(a->len_th));
    const wf reach = wf_set1(a->reach);
    wf nx = wf_sel(through_side, ux, wf_mul(sign, ex));
    wf ny = wf_sel(through_side, uy, wf_mul(sign, ey));
    wf nz = wf_sel(through_side, uz, wf_mul(sign, ez));
    wf ox = wf_sel(through_side, wf_add(wf_mul(h, ex), wf_mul(reach, ux)), wf_add(qx, wf_mul(level, ex)));
    wf oy = wf_sel(through_side, wf_add(wf_mul(h, ey), wf_mul(reach, uy)), wf_add(qy, wf_mul(level, ey)));
    wf oz = wf_sel(through_side, wf_add(wf_mul(h, ez), wf_mul(reach, uz)), wf_add(qz, wf_mul(level, ez)));
    /* outside */
    const wf safe_dist = wf_sel(near, dist, one);
    const wf nu = wf_div(dr, safe_dist), ne = wf_div(dh, safe_dist);
    const wf onx = wf_add(wf_mul(nu, ux), wf_mul(ne, ex)), ony = wf_add(wf_mul(nu, uy), wf_mul(ne, ey));
    const wf onz = wf_add(wf_mul(nu, uz), wf_mul(ne, ez));
    nx = wf_sel(inside, nx, onx);
    ny = wf_sel(inside, ny, ony);
    nz = wf_sel(inside, nz, onz);
    ox = wf_sel(inside, ox, wf_add(wf_add(wf_mul(hc, ex), wf_mul(rc, ux)), wf_mul(th, onx)));
    oy = wf_sel(inside, oy, wf_add(wf_add(wf_mul(hc, ey), wf_mul(rc, uy)), wf_mul(th, ony)));
    oz = wf_sel(inside, oz, wf_add(wf_add(wf_mul(hc, ez), wf_mul(rc, uz)), wf_mul(th, onz)));
    WIDE(from_frame)(a, i, n, k, ox, oy, oz, nx, ny, nz);
    return true;
}

/* Torus (colliders/torus.c, cloth_shape_torus()) at the frame positions
 * p: out along the line to the nearest point of the ring of radius `size`
 * about `axis` (unit), by `reach` (the minor radius + thickness). The
 * lanes on the axis touch nothing. */
WIDE_INLINE wm WIDE(torus_query)(const cloth_contact_args *a, wf px, wf py, wf pz, wf *ox, wf *oy, wf *oz, wf *nx,
                                 wf *ny, wf *nz)
{
    const wf zero = wf_set1(0.0f), one = wf_set1(1.0f);
    const wf ex = wf_set1(a->axis[0]), ey = wf_set1(a->axis[1]), ez = wf_set1(a->axis[2]);
    const wf h = wf_add(wf_add(wf_mul(px, ex), wf_mul(py, ey)), wf_mul(pz, ez));
    const wf qx = wf_sub(px, wf_mul(h, ex)), qy = wf_sub(py, wf_mul(h, ey)), qz = wf_sub(pz, wf_mul(h, ez));
    const wf rho = wf_sqrt(wf_add(wf_add(wf_mul(qx, qx), wf_mul(qy, qy)), wf_mul(qz, qz)));
    const wm off_axis = wm_gt(rho, zero);
    const wf safe_rho = wf_sel(off_axis, rho, one), big = wf_set1(a->size);
    const wf rx = wf_div(wf_mul(big, qx), safe_rho), ry = wf_div(wf_mul(big, qy), safe_rho);
    const wf rz = wf_div(wf_mul(big, qz), safe_rho);
    const wf dx = wf_sub(px, rx), dy = wf_sub(py, ry), dz = wf_sub(pz, rz);
    const wf d2 = wf_add(wf_add(wf_mul(dx, dx), wf_mul(dy, dy)), wf_mul(dz, dz));
    const wm hit = wm_and(off_axis, wm_lt(d2, wf_set1(a->reach2)));
    const wf dist = wf_sqrt(d2);
    /* on the circle itself: leave outward, away from the axis */
    const wm away = wm_gt(dist, zero);
    const wf safe_dist = wf_sel(away, dist, one), reach = wf_set1(a->reach);
    *nx = wf_sel(away, wf_div(dx, safe_dist), wf_div(qx, safe_rho));
    *ny = wf_sel(away, wf_div(dy, safe_dist), wf_div(qy, safe_rho));
    *nz = wf_sel(away, wf_div(dz, safe_dist), wf_div(qz, safe_rho));
    *ox = wf_add(rx, wf_mul(*nx, reach));
    *oy = wf_add(ry, wf_mul(*ny, reach));
    *oz = wf_add(rz, wf_mul(*nz, reach));
    return hit;
}

WIDE_INLINE bool WIDE(torus_at)(const cloth_contact_args *a, uint32_t i, uint32_t n, contact_lanes *k)
{
    const wm free = WIDE(free_lanes)(a, i, n, k);
    wf px, py, pz, ox, oy, oz, nx, ny, nz;
    WIDE(to_frame)(a, k, &px, &py, &pz);
    k->hit = wm_and(WIDE(torus_query)(a, px, py, pz, &ox, &oy, &oz, &nx, &ny, &nz), free);
    if (!wm_any(k->hit)) {
        return false;
    }
    WIDE(from_frame)(a, i, n, k, ox, oy, oz, nx, ny, nz);
    return true;
}

/* The torus's pass: collide()'s response, and then, where friction acted,
 * its second query. The torus is not convex (collide.c,
 * tangent_can_enter()): friction's take-back along the tangent plane can
 * end inside, and such a particle goes to the nearest point of the grown
 * surface; only its position moves. */
static uint32_t WIDE(torus)(const cloth_contact_args *args, uint32_t begin, uint32_t end)
{
    const cloth_contact_args copy = *args;
    uint32_t hits = 0u;
    contact_lanes k;
    for (uint32_t i = begin; i < end; i += WIDE_LANES) {
        const uint32_t n = end - i < WIDE_LANES ? end - i : WIDE_LANES;
        if (!WIDE(torus_at)(&copy, i, n, &k)) {
            continue;
        }
        hits += copy.hold_dt > 0.0f ? WIDE(contact_held)(&copy, i, n, &k) : WIDE(contact_respond)(&copy, i, n, &k);
        if (!(copy.mu > 0.0f)) {
            continue;
        }
        contact_lanes again;
        (void)WIDE(free_lanes)(&copy, i, n, &again);
        wf px, py, pz, ox, oy, oz, nx, ny, nz;
        WIDE(to_frame)(&copy, &again, &px, &py, &pz);
        /* resolve() lets friction act on a particle moving into the
         * surface, resolve_held() on every one it touches */
        const wm acted = copy.hold_dt > 0.0f ? k.hit : wm_and(k.hit, k.into);
        const wm inside = wm_and(WIDE(torus_query)(&copy, px, py, pz, &ox, &oy, &oz, &nx, &ny, &nz), acted);
        if (!wm_any(inside)) {
            continue;
        }
        const float *m = copy.m;
        const wf wx = wf_add(wf_set1(copy.c[0]), WIDE(rotate_row)(m, 0, ox, oy, oz));
        const wf wy = wf_add(wf_set1(copy.c[1]), WIDE(rotate_row)(m, 1, ox, oy, oz));
        const wf wz = wf_add(wf_set1(copy.c[2]), WIDE(rotate_row)(m, 2, ox, oy, oz));
        wf_store_n(copy.x + i, n, wf_sel(inside, wx, again.px));
        wf_store_n(copy.y + i, n, wf_sel(inside, wy, again.py));
        wf_store_n(copy.z + i, n, wf_sel(inside, wz, again.pz));
    }
    return hits;
}

/* Ellipsoid (colliders/ellipsoid.c says why this way): the nearest point
 * q of the surface to |p| is q_i = a_i^2 |p_i| / (a_i^2 + t), t the root
 * of F(t) = sum_i (a_i |p_i| / (a_i^2 + t))^2 - 1, reached by Newton's
 * method from the left; q is scaled back onto the surface, given p's
 * signs, and the answer is q + thickness n(q). Each lane iterates until
 * its own F stops being positive or its step falls below a part in 1e7 of
 * |t| + sum a_i^2 (at most ELLIPSOID_NEWTON steps), the others standing
 * still, so a lane's answer does not depend on its neighbours. */
enum { ELLIPSOID_NEWTON = 16 };

WIDE_INLINE wm WIDE(ellipsoid_query)(const cloth_ellipsoid_form *e, const wf p[3], wf o[3], wf nn[3])
{
    const wf zero = wf_set1(0.0f), one = wf_set1(1.0f), two = wf_set1(2.0f);
    wf ap[3], a[3], a2[3];
    wm on[3];
    wf f = zero, s = zero;
    for (int i = 0; i < 3; ++i) {
        ap[i] = wf_sel(wm_lt(p[i], zero), wf_neg(p[i]), p[i]);
        a[i] = wf_set1(e->a[i]);
        a2[i] = wf_set1(e->a2[i]);
        on[i] = wm_gt(ap[i], zero); /* an axis the point is on adds nothing, and may sit on its pole */
        const wf pp = wf_mul(ap[i], ap[i]);
        f = wf_add(f, wf_div(pp, a2[i]));
        s = wf_add(s, wf_div(pp, wf_mul(a2[i], a2[i])));
    }
    /* a point on the ellipsoid scaled by g >= 1 is at least (g - 1) a_min
     * from it: everything farther than the thickness stops here */
    wm hit = wm_lt(f, wf_set1(e->grow2));
    if (!wm_any(hit)) {
        for (int i = 0; i < 3; ++i) {
            o[i] = zero;
            nn[i] = zero;
        }
        return hit;
    }
    /* the larger of one Newton step from t = 0 (F(0) = f - 1, F'(0) = -2 s)
     * and each axis' a_i |p_i| - a_i^2, both left of the root */
    wf t = wf_div(wf_sub(f, one), wf_mul(two, s));
    for (int i = 0; i < 3; ++i) {
        const wf b = wf_sub(wf_mul(a[i], ap[i]), a2[i]);
        t = wf_sel(wm_gt(b, t), b, t);
    }
    const wf a2sum = wf_set1(e->a2sum), tol = wf_set1(1e-7f);
    wm live = hit;
    for (int it = 0; it < ELLIPSOID_NEWTON && wm_any(live); ++it) {
        wf F = wf_set1(-1.0f), dF = zero;
        for (int i = 0; i < 3; ++i) {
            const wf den = wf_add(a2[i], t);
            const wf g = wf_div(wf_mul(a[i], ap[i]), den);
            const wf gg = wf_mul(g, g);
            F = wf_add(F, wf_sel(on[i], gg, zero));
            dF = wf_sub(dF, wf_sel(on[i], wf_div(wf_mul(two, gg), den), zero));
        }
        live = wm_and(live, wm_and(wm_gt(F, zero), wm_lt(dF, zero))); /* else at the root, to rounding */
        const wf step = wf_div(wf_neg(F), dF);
        t = wf_sel(live, wf_add(t, step), t);
        const wf abs_t = wf_sel(wm_lt(t, zero), wf_neg(t), t);
        live = wm_and(live, wm_gt(step, wf_mul(tol, wf_add(abs_t, a2sum))));
    }
    /* the centre (s = 0): the ends of the shortest axis are nearest */
    const wm centre = wm_ngt(s, zero);
    wf q[3], g = zero;
    for (int i = 0; i < 3; ++i) {
        const wf den = wf_add(a2[i], t);
        q[i] = wf_sel(wm_and(on[i], wm_gt(den, zero)), wf_div(wf_mul(a2[i], ap[i]), den), zero);
        q[i] = wf_sel(centre, wf_set1(e->centre[i]), q[i]);
        g = wf_add(g, wf_div(wf_mul(q[i], q[i]), a2[i]));
    }
    /* back onto the surface along the ray from the centre, p's signs, and
     * the normal there */
    const wf back = wf_div(one, wf_sqrt(g));
    wf len2 = zero;
    for (int i = 0; i < 3; ++i) {
        const wf qi = wf_mul(q[i], back);
        q[i] = wf_sel(wm_lt(p[i], zero), wf_neg(qi), qi);
        nn[i] = wf_div(q[i], a2[i]);
        len2 = wf_add(len2, wf_mul(nn[i], nn[i]));
    }
    const wf len = wf_sqrt(len2), th = wf_set1(e->thickness);
    wf depth = zero; /* signed distance of p from the surface along the normal */
    for (int i = 0; i < 3; ++i) {
        nn[i] = wf_div(nn[i], len);
        depth = wf_add(depth, wf_mul(wf_sub(p[i], q[i]), nn[i]));
    }
    hit = wm_and(hit, wm_lt(depth, th));
    for (int i = 0; i < 3; ++i) {
        o[i] = wf_add(q[i], wf_mul(th, nn[i]));
    }
    return hit;
}

WIDE_INLINE bool WIDE(ellipsoid_at)(const cloth_contact_args *a, uint32_t i, uint32_t n, contact_lanes *k)
{
    const wm free = WIDE(free_lanes)(a, i, n, k);
    wf p[3], o[3], nn[3];
    WIDE(to_frame)(a, k, &p[0], &p[1], &p[2]);
    k->hit = wm_and(WIDE(ellipsoid_query)(&a->ellipsoid, p, o, nn), free);
    if (!wm_any(k->hit)) {
        return false;
    }
    WIDE(from_frame)(a, i, n, k, o[0], o[1], o[2], nn[0], nn[1], nn[2]);
    return true;
}

/* Tapered capsule (colliders/tapered_capsule.c): in the plane of the axis
 * and the point, (h, r) along and across the axis from the first ball's
 * centre, the side is the line tangent to both circles, whose outward
 * normal is (sin_t, cos_t). Where the point's projection along that line,
 * h cos_t - r sin_t, falls before the first tangent point (0) the first
 * ball is nearest, past the second (len cos_t) the second ball, else the
 * side; the signed distance is then exact inside and out. The answer is
 * the point moved along the normal to thickness from the surface. */
WIDE_INLINE wm WIDE(taper_query)(const cloth_taper_form *f, const wf p[3], wf o[3], wf nn[3])
{
    const wf zero = wf_set1(0.0f), one = wf_set1(1.0f);
    wf q[3], h = zero;
    for (int i = 0; i < 3; ++i) {
        q[i] = wf_sub(p[i], wf_set1(f->base[i]));
        h = wf_add(h, wf_mul(q[i], wf_set1(f->e[i])));
    }
    wf w[3], qb[3], r2 = zero, d2 = zero, db2 = zero;
    const wf len = wf_set1(f->len);
    for (int i = 0; i < 3; ++i) {
        const wf e = wf_set1(f->e[i]);
        w[i] = wf_sub(q[i], wf_mul(h, e));
        qb[i] = wf_sub(q[i], wf_mul(len, e));
        r2 = wf_add(r2, wf_mul(w[i], w[i]));
        d2 = wf_add(d2, wf_mul(q[i], q[i]));
        db2 = wf_add(db2, wf_mul(qb[i], qb[i]));
    }
    /* across the axis, away from it; `on_axis` for a point on it */
    const wf r = wf_sqrt(r2), da = wf_sqrt(d2), db = wf_sqrt(db2);
    const wm off = wm_gt(r, zero), off_a = wm_gt(da, zero), off_b = wm_gt(db, zero);
    const wf safe_r = wf_sel(off, r, one), safe_a = wf_sel(off_a, da, one), safe_b = wf_sel(off_b, db, one);
    const wf sin_t = wf_set1(f->sin_t), cos_t = wf_set1(f->cos_t);
    const wf along = wf_sub(wf_mul(h, cos_t), wf_mul(r, sin_t));
    wm first = wm_le(zero, zero), second = wm_lt(zero, zero); /* one ball: every lane on it */
    if (f->len > 0.0f) {
        first = wm_lt(along, zero);
        second = wm_gt(along, wf_set1(f->len_cos));
    }
    const wf dist = wf_sel(first, wf_sub(da, wf_set1(f->ra)),
                           wf_sel(second, wf_sub(db, wf_set1(f->rb)),
                                  wf_sub(wf_add(wf_mul(h, sin_t), wf_mul(r, cos_t)), wf_set1(f->ra))));
    const wf th = wf_set1(f->thickness);
    const wm hit = wm_lt(dist, th);
    if (!wm_any(hit)) {
        for (int i = 0; i < 3; ++i) {
            o[i] = zero;
            nn[i] = zero;
        }
        return hit;
    }
    const wf push = wf_sub(th, dist);
    for (int i = 0; i < 3; ++i) {
        const wf u = wf_sel(off, wf_div(w[i], safe_r), wf_set1(f->on_axis[i]));
        const wf na = wf_sel(off_a, wf_div(q[i], safe_a), u), nb = wf_sel(off_b, wf_div(qb[i], safe_b), u);
        const wf ns = wf_add(wf_mul(wf_set1(f->e[i]), sin_t), wf_mul(u, cos_t));
        nn[i] = wf_sel(first, na, wf_sel(second, nb, ns));
        o[i] = wf_add(p[i], wf_mul(push, nn[i]));
    }
    return hit;
}

WIDE_INLINE bool WIDE(tapered_at)(const cloth_contact_args *a, uint32_t i, uint32_t n, contact_lanes *k)
{
    const wm free = WIDE(free_lanes)(a, i, n, k);
    wf p[3], o[3], nn[3];
    WIDE(to_frame)(a, k, &p[0], &p[1], &p[2]);
    k->hit = wm_and(WIDE(taper_query)(&a->taper, p, o, nn), free);
    if (!wm_any(k->hit)) {
        return false;
    }
    WIDE(from_frame)(a, i, n, k, o[0], o[1], o[2], nn[0], nn[1], nn[2]);
    return true;
}

/* Convex hull (colliders/convex.c): the plane the point lies farthest out
 * of (the first of equals) decides; the point goes out along its normal to
 * the thickness. Inside, that plane holds the nearest surface point, so
 * the push is the shortest way out; outside near an edge it is along one
 * face's normal, which grows the hull by the thickness with sharp edges
 * and never leaves the point within the thickness of the solid, since the
 * solid lies wholly behind every one of its planes. */
WIDE_INLINE wm WIDE(convex_query)(const cloth_convex_form *h, const wf p[3], wf o[3], wf nn[3])
{
    wf best = wf_set1(-INFINITY), bx = wf_set1(0.0f), by = bx, bz = bx;
    for (uint32_t j = 0; j < h->count; ++j) {
        const float *pl = h->planes + 4u * j;
        const wf nx = wf_set1(pl[0]), ny = wf_set1(pl[1]), nz = wf_set1(pl[2]);
        const wf s = wf_add(wf_add(wf_add(wf_mul(p[0], nx), wf_mul(p[1], ny)), wf_mul(p[2], nz)), wf_set1(pl[3]));
        const wm out = wm_gt(s, best);
        best = wf_sel(out, s, best);
        bx = wf_sel(out, nx, bx);
        by = wf_sel(out, ny, by);
        bz = wf_sel(out, nz, bz);
    }
    const wf push = wf_sub(wf_set1(h->thickness), best);
    const wm hit = wm_gt(push, wf_set1(0.0f));
    nn[0] = bx;
    nn[1] = by;
    nn[2] = bz;
    for (int i = 0; i < 3; ++i) {
        o[i] = wf_add(p[i], wf_mul(push, nn[i]));
    }
    return hit;
}

WIDE_INLINE bool WIDE(convex_at)(const cloth_contact_args *a, uint32_t i, uint32_t n, contact_lanes *k)
{
    const wm free = WIDE(free_lanes)(a, i, n, k);
    wf p[3], o[3], nn[3];
    WIDE(to_frame)(a, k, &p[0], &p[1], &p[2]);
    k->hit = wm_and(WIDE(convex_query)(&a->convex, p, o, nn), free);
    if (!wm_any(k->hit)) {
        return false;
    }
    WIDE(from_frame)(a, i, n, k, o[0], o[1], o[2], nn[0], nn[1], nn[2]);
    return true;
}

#if WIDE_LANES == 1
bool cloth_convex_point(const cloth_convex_form *h, const float p[3], float out[3], float n[3])
{
    return WIDE(convex_query)(h, p, out, n);
}

bool cloth_ellipsoid_point(const cloth_ellipsoid_form *e, const float p[3], float out[3], float n[3])
{
    return WIDE(ellipsoid_query)(e, p, out, n);
}

bool cloth_taper_point(const cloth_taper_form *t, const float p[3], float out[3], float n[3])
{
    return WIDE(taper_query)(t, p, out, n);
}
#endif

CONTACT_PASS(capsule, WIDE(capsule_at))
CONTACT_PASS(cylinder, WIDE(cylinder_at))
CONTACT_PASS(plane, WIDE(plane_at))
CONTACT_PASS(ellipsoid, WIDE(ellipsoid_at))
CONTACT_PASS(tapered, WIDE(tapered_at))
CONTACT_PASS(convex, WIDE(convex_at))
