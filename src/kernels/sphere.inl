/*
 * The sphere's contacts, over the vector layer (platform/wide.h; included
 * by wide.inl once per width, after kernels/contact.inl, whose responses
 * they feed). A sphere looks the same in every orientation, so the frame
 * change drops out: only the spin (for the surface's velocity) and the
 * "which way is out at the very centre" rule keep the rotation.
 */

/* Fills `k`; false (and `k` half filled) when no lane touches, so that a
 * chunk away from the ball skips the square roots and divisions. */
WIDE_INLINE bool WIDE(sphere_contact_at)(const cloth_contact_args *a, uint32_t i, uint32_t n, contact_lanes *k)
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
    const wf d = wf_sqrt(wf_sel(inside, d2, zero));
    k->push = wf_sub(reach, d); /* touching lanes: d < reach */
    const wm centre = wm_ngt(d, zero);
    const wf safe_d = wf_sel(centre, one, d);
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
    WIDE(contact_relative)(a, i, n, k);
    return true;
}

CONTACT_PASS(sphere, WIDE(sphere_contact_at))
