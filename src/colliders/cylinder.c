/*
 * Cylinder with flat end caps: the solid within `radius` of the axis between
 * the frame's origin (the centre of the first cap) and `axis` (the centre of
 * the second). Finite, because a table top or a post ends somewhere; its
 * rims are sharp, and the thickness rounds them (the grown surface is every
 * point at that distance from the solid).
 *
 * A particle inside leaves through the nearest of the side and the two caps;
 * one outside but within the thickness goes straight away from the nearest
 * point of the solid.
 */
#include "shapes.h"

cloth_status cloth_add_cylinder(cloth_t *cloth, const float a[3], const float b[3], float radius,
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
    float e[3];
    if (!cloth_normalise3(shape.axis, e)) {
        return CLOTH_ERR_INVALID_ARGUMENT; /* no height, or an overflowing one */
    }
    shape.kind = CLOTH_COLLIDER_CYLINDER;
    shape.size[0] = radius;
    (void)cloth_quat_accept(NULL, shape.to.q);
    return cloth_collider_add(cloth, &shape, out);
}

bool cloth_shape_cylinder(const cloth_collider *c, const float p[3], float out[3], float n[3])
{
    const float len = sqrtf(cloth_dot3(c->axis, c->axis));
    const float e[3] = {c->axis[0] / len, c->axis[1] / len, c->axis[2] / len};
    const float r = c->size[0], th = c->grown;
    const float h = cloth_dot3(p, e);
    const float radial[3] = {p[0] - h * e[0], p[1] - h * e[1], p[2] - h * e[2]};
    const float rho = sqrtf(cloth_dot3(radial, radial));
    float u[3];
    if (rho > 0.0f) {
        u[0] = radial[0] / rho;
        u[1] = radial[1] / rho;
        u[2] = radial[2] / rho;
    } else {
        cloth_perpendicular(e, u);
    }
    if (h >= 0.0f && h <= len && rho <= r) {
        const float side = r - rho, bottom = h, top = len - h;
        if (side <= bottom && side <= top) {
            for (int k = 0; k < 3; ++k) {
                n[k] = u[k];
                out[k] = h * e[k] + (r + th) * u[k];
            }
        } else {
            const float sign = bottom < top ? -1.0f : 1.0f;
            const float level = bottom < top ? -th : len + th;
            for (int k = 0; k < 3; ++k) {
                n[k] = sign * e[k];
                out[k] = radial[k] + level * e[k];
            }
        }
        return true;
    }
    /* Outside: the nearest point of the solid, (hc, rc) in the (e, u)
     * plane, is on a cap's disc, on the side or on a rim. The offset from it
     * is taken in that plane, (rho - rc, h - hc), not as p minus the point in
     * space: off the rims one of its parts is exactly 0, so a cap's normal
     * is exactly -e or e and the side's u. A particle that got deep into the
     * thickness can be 1e-5 m or less from a cap, where the rounding of a
     * subtraction in space (1e-8 m) would tilt the normal by 1e-3 rad or
     * more, and friction's take-back along the tilted tangent plane would
     * end inside the grown cap. */
    /* clamped by comparisons, as the vector pass (kernels/shapes.inl)
     * does: C leaves fmaxf's choice between -0 and +0 open */
    float hc = h > 0.0f ? h : 0.0f;
    hc = hc < len ? hc : len;
    const float rc = rho < r ? rho : r;
    const float dr = rho - rc, dh = h - hc;
    const float d2 = dr * dr + dh * dh;
    if (!(d2 < th * th)) {
        return false;
    }
    const float dist = sqrtf(d2);
    if (!(dist > 0.0f)) {
        return false; /* on the surface to rounding; the inside branch owns it */
    }
    const float nu = dr / dist, ne = dh / dist;
    for (int k = 0; k < 3; ++k) {
        n[k] = nu * u[k] + ne * e[k];
        out[k] = hc * e[k] + rc * u[k] + th * n[k];
    }
    return true;
}
