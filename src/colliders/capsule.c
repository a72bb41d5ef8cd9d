/* Capsule: every point within `radius` of the segment from the frame's
 * origin (the first end) to `axis` (the second end). The limbs of game
 * characters are made of these. */
#include "shapes.h"

cloth_status cloth_add_capsule(cloth_t *cloth, const float a[3], const float b[3], float radius,
                               cloth_collider_id *out)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    cloth_collider shape = {0};
    if (cloth == NULL || a == NULL || b == NULL || out == NULL || !cloth_finite3(a) || !cloth_finite3(b) ||
        !(radius > 0.0f) || !isfinite(radius)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    for (int k = 0; k < 3; ++k) {
        shape.axis[k] = b[k] - a[k];
        shape.to.p[k] = a[k];
    }
    if (!cloth_finite3(shape.axis)) {
        return CLOTH_ERR_INVALID_ARGUMENT; /* ends so far apart that their distance overflows */
    }
    shape.kind = CLOTH_COLLIDER_CAPSULE;
    shape.size[0] = radius;
    (void)cloth_quat_accept(NULL, shape.to.q);
    return cloth_collider_add(cloth, &shape, out);
}

bool cloth_shape_capsule(const cloth_collider *c, const float p[3], float out[3], float n[3])
{
    const float *s = c->axis;
    const float len2 = cloth_dot3(s, s);
    float t = len2 > 0.0f ? cloth_dot3(p, s) / len2 : 0.0f;
    /* clamped by comparisons, as the vector pass (kernels/shapes.inl)
     * does: C leaves fmaxf's choice between -0 and +0 open */
    t = t > 0.0f ? t : 0.0f;
    t = t < 1.0f ? t : 1.0f;
    const float core[3] = {t * s[0], t * s[1], t * s[2]};
    const float d[3] = {p[0] - core[0], p[1] - core[1], p[2] - core[2]};
    const float reach = c->size[0] + c->grown;
    const float d2 = cloth_dot3(d, d);
    if (!(d2 < reach * reach)) {
        return false;
    }
    const float dist = sqrtf(d2);
    if (dist > 0.0f) {
        for (int k = 0; k < 3; ++k) {
            n[k] = d[k] / dist;
        }
    } else if (len2 > 0.0f) { /* on the segment: any direction across it is nearest */
        const float inv = 1.0f / sqrtf(len2);
        const float e[3] = {s[0] * inv, s[1] * inv, s[2] * inv};
        cloth_perpendicular(e, n);
    } else {
        n[0] = 0.0f;
        n[1] = 1.0f;
        n[2] = 0.0f;
    }
    for (int k = 0; k < 3; ++k) {
        out[k] = core[k] + n[k] * reach;
    }
    return true;
}
