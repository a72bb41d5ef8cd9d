/*
 * Tapered capsule: the convex hull of a ball of radius size[0] about the
 * frame's origin (the first end) and one of radius size[1] about `axis`
 * (the second end): a limb that is thicker at one end, as game characters'
 * arms and legs are built (NvCloth's and Jolt's tapered capsules). The query
 * is a kernel of the vector layer (kernels/shapes.inl, taper_query); the
 * general pass calls its one-lane build, so both give the same bits.
 */
#include "shapes.h"

cloth_status cloth_add_tapered_capsule(cloth_t *cloth, const float a[3], const float b[3], float radius_a,
                                       float radius_b, cloth_collider_id *out)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    cloth_collider shape = {0};
    if (cloth == NULL || a == NULL || b == NULL || out == NULL || !cloth_finite3(a) || !cloth_finite3(b) ||
        !(radius_a > 0.0f) || !isfinite(radius_a) || !(radius_b > 0.0f) || !isfinite(radius_b)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    for (int k = 0; k < 3; ++k) {
        shape.axis[k] = b[k] - a[k];
        shape.to.p[k] = a[k];
    }
    if (!cloth_finite3(shape.axis) || !isfinite(cloth_dot3(shape.axis, shape.axis))) {
        return CLOTH_ERR_INVALID_ARGUMENT; /* ends so far apart that their distance overflows */
    }
    shape.kind = CLOTH_COLLIDER_TAPERED_CAPSULE;
    shape.size[0] = radius_a;
    shape.size[1] = radius_b;
    (void)cloth_quat_accept(NULL, shape.to.q);
    return cloth_collider_add(cloth, &shape, out);
}

void cloth_taper_form_of(const cloth_collider *c, cloth_taper_form *f)
{
    const float *s = c->axis, ra = c->size[0], rb = c->size[1];
    const float len = sqrtf(cloth_dot3(s, s));
    for (int k = 0; k < 3; ++k) {
        f->e[k] = len > 0.0f ? s[k] / len : (k == 1 ? 1.0f : 0.0f);
        f->base[k] = 0.0f;
    }
    cloth_perpendicular(f->e, f->on_axis);
    f->thickness = c->grown;
    if (len > fabsf(ra - rb)) {
        f->len = len;
        f->sin_t = (ra - rb) / len;
        f->cos_t = sqrtf((1.0f - f->sin_t) * (1.0f + f->sin_t));
        f->len_cos = len * f->cos_t;
        f->ra = ra;
        f->rb = rb;
        return;
    }
    /* one ball holds the other (or the ends meet): the larger alone */
    f->len = 0.0f;
    f->sin_t = 0.0f;
    f->cos_t = 1.0f;
    f->len_cos = 0.0f;
    f->ra = ra >= rb ? ra : rb;
    f->rb = f->ra;
    if (rb > ra) {
        for (int k = 0; k < 3; ++k) {
            f->base[k] = s[k];
        }
    }
}

bool cloth_shape_tapered_capsule(const cloth_collider *c, const float p[3], float out[3], float n[3])
{
    cloth_taper_form f;
    cloth_taper_form_of(c, &f);
    return cloth_taper_point(&f, p, out, n);
}
