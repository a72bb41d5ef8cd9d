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
 *
 * The query is a kernel of the vector layer (kernels/shapes.inl), in float,
 * each lane iterating to its own end; the general pass calls its one-lane
 * build (cloth_ellipsoid_point()), the vector pass runs it at the cloth's
 * width, and both give the same bits. */
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

void cloth_ellipsoid_form_of(const cloth_collider *c, cloth_ellipsoid_form *e)
{
    const float *a = c->size;
    const int m = a[0] <= a[1] ? (a[0] <= a[2] ? 0 : 2) : (a[1] <= a[2] ? 1 : 2); /* the shortest axis */
    for (int i = 0; i < 3; ++i) {
        e->a[i] = a[i];
        e->a2[i] = a[i] * a[i];
        e->centre[i] = i == m ? a[i] : 0.0f;
    }
    e->a2sum = (e->a2[0] + e->a2[1]) + e->a2[2];
    e->thickness = c->grown;
    /* grown by a part in 1e4 so that rounding never turns away a point
     * within the thickness; the query's own depth test decides */
    const float grow = 1.0f + c->grown / a[m];
    e->grow2 = grow * grow * 1.0001f;
}

bool cloth_shape_ellipsoid(const cloth_collider *c, const float p[3], float out[3], float n[3])
{
    cloth_ellipsoid_form e;
    cloth_ellipsoid_form_of(c, &e);
    return cloth_ellipsoid_point(&e, p, out, n);
}
