/*
 * Ellipsoid (seed 002) with semi-axes size[0..2] along the frame's x, y, z.
 *
 * Seed 002 projects a point onto the ellipsoid along the ray from the centre.
 * That is not the nearest surface point (off the axes it is wrong by up to a
 * good fraction of the depth, and the push then has a sideways part that
 * makes cloth slide off a resting spot), so the nearest point is found
 * instead: q_i = a_i^2 p_i / (a_i^2 + t), where t is the root of
 *     F(t) = sum_i (a_i p_i / (a_i^2 + t))^2 - 1.
 * F is convex and decreasing right of its last pole, so Newton's method
 * started left of the root climbs to it without ever overshooting. Two
 * starting points are known to lie left of the root: one Newton step from
 * t = 0 (tangents of a convex function lie below it), and for each axis
 * a_i |p_i| - a_i^2 (there that axis's term alone is 1); the larger is
 * used, which for the particles that matter (within the thickness of the
 * surface) is already within rounding of the root.
 *
 * Whatever the iteration returns is put back on the surface by scaling from
 * the centre, and the particle goes to q + thickness * normal(q). Since q is
 * on the surface and the offset is along its normal, the particle ends
 * exactly `thickness` from the ellipsoid even if q were not quite nearest:
 * it never ends inside.
 */
#include "shapes.h"

cloth_status cloth_add_ellipsoid(cloth_t *cloth, const float center[3], const float radii[3],
                                 const float rotation[4], cloth_collider_id *out)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    cloth_collider shape = {0};
    if (cloth == NULL || center == NULL || radii == NULL || out == NULL || !cloth_finite3(center) ||
        !cloth_finite3(radii) || !(radii[0] > 0.0f) || !(radii[1] > 0.0f) || !(radii[2] > 0.0f) ||
        !cloth_quat_accept(rotation, shape.to.q)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    shape.kind = CLOTH_COLLIDER_ELLIPSOID;
    for (int k = 0; k < 3; ++k) {
        shape.to.p[k] = center[k];
        shape.size[k] = radii[k];
    }
    return cloth_collider_add(cloth, &shape, out);
}

enum { NEWTON_MAX = 16 };

/* Nearest point q of the ellipsoid with semi-axes a to the point p, both
 * with non-negative coordinates (the caller restores the signs). */
static void nearest(const double a[3], const double p[3], double q[3])
{
    double a2[3], t = 0.0, s = 0.0, f = -1.0;
    for (int i = 0; i < 3; ++i) {
        a2[i] = a[i] * a[i];
        f += p[i] * p[i] / a2[i];
        s += p[i] * p[i] / (a2[i] * a2[i]);
    }
    if (!(s > 0.0)) { /* the centre: the ends of the shortest axis are nearest */
        int m = a[0] <= a[1] ? (a[0] <= a[2] ? 0 : 2) : (a[1] <= a[2] ? 1 : 2);
        q[0] = q[1] = q[2] = 0.0;
        q[m] = a[m];
        return;
    }
    t = f / (2.0 * s); /* Newton from t = 0: F(0) = f, F'(0) = -2 s */
    for (int i = 0; i < 3; ++i) {
        t = fmax(t, a[i] * p[i] - a2[i]);
    }
    for (int it = 0; it < NEWTON_MAX; ++it) {
        double F = -1.0, dF = 0.0;
        for (int i = 0; i < 3; ++i) {
            if (p[i] > 0.0) { /* an axis the point is on adds nothing, and may sit on its pole */
                double den = a2[i] + t, g = a[i] * p[i] / den;
                F += g * g;
                dF -= 2.0 * g * g / den;
            }
        }
        if (!(F > 0.0) || !(dF < 0.0)) {
            break; /* at the root, to rounding */
        }
        double step = -F / dF;
        t += step;
        if (step <= 1e-14 * (fabs(t) + a2[0] + a2[1] + a2[2])) {
            break;
        }
    }
    for (int i = 0; i < 3; ++i) {
        double den = a2[i] + t;
        q[i] = p[i] > 0.0 && den > 0.0 ? a2[i] * p[i] / den : 0.0;
    }
}

bool cloth_shape_ellipsoid(const cloth_collider *c, const float p[3], float out[3], float n[3])
{
    const double a[3] = {(double)c->size[0], (double)c->size[1], (double)c->size[2]};
    const double th = (double)c->thickness;
    double ap[3], f = 0.0;
    for (int i = 0; i < 3; ++i) {
        ap[i] = fabs((double)p[i]);
        f += ap[i] * ap[i] / (a[i] * a[i]);
    }
    /* A point on the ellipsoid scaled by s >= 1 is at least (s - 1) a_min
     * from it: cheap rejection of everything farther than the thickness. */
    const double grow = 1.0 + th / fmin(a[0], fmin(a[1], a[2]));
    if (!(f < grow * grow)) {
        return false;
    }
    double q[3];
    nearest(a, ap, q);
    double g = 0.0;
    for (int i = 0; i < 3; ++i) {
        g += q[i] * q[i] / (a[i] * a[i]);
    }
    const double back = 1.0 / sqrt(g);
    double nn[3], len = 0.0;
    for (int i = 0; i < 3; ++i) {
        q[i] = copysign(q[i] * back, (double)p[i]);
        nn[i] = q[i] / (a[i] * a[i]);
        len += nn[i] * nn[i];
    }
    len = sqrt(len);
    double depth = 0.0; /* signed distance of p from the surface along the normal */
    for (int i = 0; i < 3; ++i) {
        nn[i] /= len;
        depth += ((double)p[i] - q[i]) * nn[i];
    }
    if (!(depth < th)) {
        return false;
    }
    for (int i = 0; i < 3; ++i) {
        out[i] = (float)(q[i] + th * nn[i]);
        n[i] = (float)nn[i];
    }
    return true;
}
