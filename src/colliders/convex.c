/*
 * Convex hull given as planes (nx, ny, nz, d), the solid where every
 * n.p + d <= 0: a box, a wedge, a chest piece of a game character (NvCloth's
 * convexes are built the same way). The planes are the shape in its own
 * frame, whose reference point starts at the world's origin, unturned, so
 * a hull given in world coordinates starts where it was given and one
 * given in a bone's coordinates follows that bone through
 * cloth_set_collider_transform(). The query is a kernel of the vector
 * layer (kernels/shapes.inl, convex_query); the general pass calls its
 * one-lane build.
 *
 * The hull is checked once, when it is added: it must be bounded (a
 * closed solid, so that the pass can skip the particles out of its reach)
 * and not empty. Bounded: no direction y leaves the solid unbounded, that
 * is none has n_i . y <= 0 for every plane. If such a direction exists,
 * one exists on the edge of the cone of those directions: along the line
 * where two of its planes meet (n_i x n_j, either way), or, when all the
 * normals are parallel, along -n or across it; so only those directions
 * need testing. Its vertices, the meeting points of three planes that lie
 * in every half-space, give the solid's radius about the frame's origin.
 */
#include "shapes.h"

#include <float.h>

/* NvCloth's bound too; vertex finding is cubic in it and runs once. */
#define MAX_PLANES 64u

static bool unit_normal(const float *pl)
{
    const float n2 = cloth_dot3(pl, pl);
    return isfinite(pl[3]) && isfinite(n2) && fabsf(n2 - 1.0f) <= CLOTH_QUAT_TOLERANCE;
}

static void cross(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Whether direction y (any length) runs out of the solid forever. */
static bool leaves(const float *planes, uint32_t count, const float y[3])
{
    const float len = sqrtf(cloth_dot3(y, y));
    if (!(len > 1e-6f)) {
        return false;
    }
    for (uint32_t k = 0; k < count; ++k) {
        if (cloth_dot3(planes + 4u * k, y) > 1e-6f * len) {
            return false;
        }
    }
    return true;
}

static bool bounded(const float *planes, uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i) {
        const float *ni = planes + 4u * i;
        float y[3], across[3];
        const float back[3] = {-ni[0], -ni[1], -ni[2]};
        cloth_perpendicular(ni, across);
        const float other[3] = {-across[0], -across[1], -across[2]};
        if (leaves(planes, count, back) || leaves(planes, count, across) || leaves(planes, count, other)) {
            return false;
        }
        for (uint32_t j = i + 1u; j < count; ++j) {
            cross(ni, planes + 4u * j, y);
            const float neg[3] = {-y[0], -y[1], -y[2]};
            if (leaves(planes, count, y) || leaves(planes, count, neg)) {
                return false;
            }
        }
    }
    return true;
}

/* The largest distance from the frame's origin of a vertex of the solid
 * (in double: the three-plane solve), or a negative value when it has
 * none, that is when it is empty. */
static double vertex_radius(const float *planes, uint32_t count)
{
    double best2 = -1.0;
    for (uint32_t i = 0; i < count; ++i) {
        for (uint32_t j = i + 1u; j < count; ++j) {
            for (uint32_t k = j + 1u; k < count; ++k) {
                const float *a = planes + 4u * i, *b = planes + 4u * j, *c = planes + 4u * k;
                float bc[3], ca[3], ab[3];
                cross(b, c, bc);
                cross(c, a, ca);
                cross(a, b, ab);
                const double det = (double)a[0] * (double)bc[0] + (double)a[1] * (double)bc[1] + (double)a[2] * (double)bc[2];
                if (fabs(det) < 1e-6) {
                    continue; /* two of them parallel, or all three through one line */
                }
                double v[3];
                for (int r = 0; r < 3; ++r) {
                    v[r] = -((double)a[3] * (double)bc[r] + (double)b[3] * (double)ca[r] + (double)c[3] * (double)ab[r]) / det;
                }
                bool inside = true;
                for (uint32_t m = 0; m < count && inside; ++m) {
                    const float *pl = planes + 4u * m;
                    const double s = (double)pl[0] * v[0] + (double)pl[1] * v[1] + (double)pl[2] * v[2] + (double)pl[3];
                    inside = s <= 1e-5 * (1.0 + fabs((double)pl[3]));
                }
                const double r2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
                if (inside && r2 > best2) {
                    best2 = r2;
                }
            }
        }
    }
    return best2 >= 0.0 ? sqrt(best2) : -1.0;
}

cloth_status cloth_add_convex(cloth_t *cloth, const float *planes, uint32_t plane_count, cloth_collider_id *out)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || planes == NULL || out == NULL || plane_count < 4u || plane_count > MAX_PLANES) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    for (uint32_t k = 0; k < plane_count; ++k) {
        if (!unit_normal(planes + 4u * k)) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
    }
    if (!bounded(planes, plane_count)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const double radius = vertex_radius(planes, plane_count);
    if (!(radius >= 0.0) || !(radius < (double)FLT_MAX / 4.0)) {
        return CLOTH_ERR_INVALID_ARGUMENT; /* empty, or too far out to bound in float */
    }
    const size_t bytes = (size_t)plane_count * 4u * sizeof(float);
    float *copy = cloth_mem_alloc(&cloth->alloc, bytes);
    if (copy == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t k = 0; k < plane_count; ++k) {
        /* normalised as the quaternions are, so the push is a true distance */
        const float *in = planes + 4u * k;
        const float inv = 1.0f / sqrtf(cloth_dot3(in, in));
        copy[4u * k] = in[0] * inv;
        copy[4u * k + 1u] = in[1] * inv;
        copy[4u * k + 2u] = in[2] * inv;
        copy[4u * k + 3u] = in[3] * inv;
    }
    cloth_collider shape = {0};
    shape.kind = CLOTH_COLLIDER_CONVEX;
    shape.size[0] = (float)radius * 1.0001f;
    shape.planes = copy;
    shape.plane_count = plane_count;
    (void)cloth_quat_accept(NULL, shape.to.q);
    const cloth_status st = cloth_collider_add(cloth, &shape, out);
    if (st != CLOTH_OK) {
        cloth_mem_free(&cloth->alloc, copy, bytes);
    }
    return st;
}

void cloth_convex_form_of(const cloth_collider *c, cloth_convex_form *h)
{
    h->planes = c->planes;
    h->count = c->plane_count;
    h->thickness = c->grown;
}

bool cloth_shape_convex(const cloth_collider *c, const float p[3], float out[3], float n[3])
{
    cloth_convex_form h;
    cloth_convex_form_of(c, &h);
    return cloth_convex_point(&h, p, out, n);
}
