/*
 * Torus (the ring seed 002 drapes cloth over): every point within the minor
 * radius r (size[1]) of the circle of major radius R (size[0]) about the
 * frame's origin, in the plane normal to the unit `axis`.
 *
 * The nearest surface point of any point off the axis lies on the line from
 * it to the nearest point of that circle, so the push is exact. A torus is
 * not convex: this holds only while r + thickness < R, which the add and
 * thickness setters enforce (the ring keeps a hole).
 */
#include "shapes.h"

cloth_status cloth_add_torus(cloth_t *cloth, const float center[3], const float axis[3], float major_radius,
                             float minor_radius, cloth_collider_id *out)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    cloth_collider shape = {0};
    if (cloth == NULL || center == NULL || axis == NULL || out == NULL || !cloth_finite3(center) ||
        !cloth_normalise3(axis, shape.axis) || !isfinite(major_radius) || !(minor_radius > 0.0f) ||
        !(minor_radius < major_radius) || !(minor_radius + cloth->particle_radius < major_radius)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    shape.kind = CLOTH_COLLIDER_TORUS;
    shape.size[0] = major_radius;
    shape.size[1] = minor_radius;
    for (int k = 0; k < 3; ++k) {
        shape.to.p[k] = center[k];
    }
    (void)cloth_quat_accept(NULL, shape.to.q);
    return cloth_collider_add(cloth, &shape, out);
}

bool cloth_shape_torus(const cloth_collider *c, const float p[3], float out[3], float n[3])
{
    const float *e = c->axis;
    const float h = cloth_dot3(p, e);
    const float radial[3] = {p[0] - h * e[0], p[1] - h * e[1], p[2] - h * e[2]};
    const float rho = sqrtf(cloth_dot3(radial, radial));
    if (!(rho > 0.0f)) {
        return false; /* on the axis: R > r + thickness away from the ring */
    }
    const float big = c->size[0], reach = c->size[1] + c->grown;
    float ring[3], d[3];
    for (int k = 0; k < 3; ++k) {
        ring[k] = big * radial[k] / rho;
        d[k] = p[k] - ring[k];
    }
    const float d2 = cloth_dot3(d, d);
    if (!(d2 < reach * reach)) {
        return false;
    }
    const float dist = sqrtf(d2);
    for (int k = 0; k < 3; ++k) {
        /* on the circle itself: leave outward, away from the axis */
        n[k] = dist > 0.0f ? d[k] / dist : radial[k] / rho;
        out[k] = ring[k] + n[k] * reach;
    }
    return true;
}
