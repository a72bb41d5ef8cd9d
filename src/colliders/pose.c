/*
 * Poses of colliders: unit quaternions (x, y, z, w), their rotation matrices,
 * and the straight-line motion of a collider over the substeps of a step
 * (the way pins travel to their targets, pins.c).
 */
#include "shapes.h"
#include "colliders/colliders.h"

bool cloth_quat_accept(const float in[4], float out[4])
{
    if (in == NULL) {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return true;
    }
    if (!cloth_finite3(in) || !isfinite(in[3])) {
        return false;
    }
    /* double: the squares of finite floats can overflow a float */
    double x = (double)in[0], y = (double)in[1], z = (double)in[2], w = (double)in[3];
    double n2 = x * x + y * y + z * z + w * w;
    if (!(fabs(n2 - 1.0) <= (double)CLOTH_QUAT_TOLERANCE)) {
        return false;
    }
    double inv = 1.0 / sqrt(n2);
    out[0] = (float)(x * inv);
    out[1] = (float)(y * inv);
    out[2] = (float)(z * inv);
    out[3] = (float)(w * inv);
    return true;
}

static void quat_mul(const float a[4], const float b[4], float out[4])
{
    float x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    float y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    float z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    float w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

/* Row-major: world = m * frame. The identity quaternion gives exactly the
 * identity matrix, so a collider that was never rotated costs no rounding. */
static void quat_matrix(const float q[4], float m[9])
{
    const float x = q[0], y = q[1], z = q[2], w = q[3];
    m[0] = 1.0f - 2.0f * (y * y + z * z);
    m[1] = 2.0f * (x * y - z * w);
    m[2] = 2.0f * (x * z + y * w);
    m[3] = 2.0f * (x * y + z * w);
    m[4] = 1.0f - 2.0f * (x * x + z * z);
    m[5] = 2.0f * (y * z - x * w);
    m[6] = 2.0f * (x * z - y * w);
    m[7] = 2.0f * (y * z + x * w);
    m[8] = 1.0f - 2.0f * (x * x + y * y);
}

static bool quat_same(const float a[4], const float b[4])
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
}

/* The rotation from `from` to `to` turns at a constant rate about one axis
 * (the shortest way), so the collider's angular velocity is the same in
 * every substep and the substeps see a slerp of the two orientations. */
static void place_rotation(cloth_collider *c, float t, bool last, float inv_dt)
{
    c->w[0] = c->w[1] = c->w[2] = 0.0f;
    if (quat_same(c->from.q, c->to.q)) {
        for (int k = 0; k < 4; ++k) {
            c->at.q[k] = c->to.q[k];
        }
        return;
    }
    const float inv_from[4] = {-c->from.q[0], -c->from.q[1], -c->from.q[2], c->from.q[3]};
    float dq[4];
    quat_mul(c->to.q, inv_from, dq);
    if (dq[3] < 0.0f) {
        for (int k = 0; k < 4; ++k) {
            dq[k] = -dq[k];
        }
    }
    const float s = sqrtf(dq[0] * dq[0] + dq[1] * dq[1] + dq[2] * dq[2]);
    const float angle = 2.0f * atan2f(s, dq[3]);
    float axis[3] = {0.0f, 0.0f, 0.0f};
    if (s > 0.0f) {
        for (int k = 0; k < 3; ++k) {
            axis[k] = dq[k] / s;
            c->w[k] = axis[k] * angle * inv_dt;
            if (!isfinite(c->w[k])) {
                c->w[k] = 0.0f; /* a dt too short to divide by: a teleport */
            }
        }
    }
    if (last) {
        for (int k = 0; k < 4; ++k) {
            c->at.q[k] = c->to.q[k];
        }
        return;
    }
    const float half = 0.5f * angle * t, sh = sinf(half);
    const float part[4] = {axis[0] * sh, axis[1] * sh, axis[2] * sh, cosf(half)};
    float q[4];
    quat_mul(part, c->from.q, q);
    float inv = 1.0f / sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; ++k) {
        c->at.q[k] = q[k] * inv;
    }
}

void cloth_collider_place(cloth_collider *c, uint32_t substep, uint32_t substeps, float dt)
{
    const bool last = substep >= substeps;
    const float t = last ? 1.0f : (float)substep / (float)substeps;
    /* dt 0 means the step length is not known yet: no velocity rather than
     * a guess */
    const float inv_dt = dt > 0.0f ? 1.0f / dt : 0.0f;
    for (int k = 0; k < 3; ++k) {
        const float d = c->to.p[k] - c->from.p[k];
        /* from + t d, not a weighted mean: a collider that does not move
         * stays bit for bit where it is, and the target is hit exactly */
        c->at.p[k] = last ? c->to.p[k] : c->from.p[k] + t * d;
        c->v[k] = d * inv_dt;
        /* a jump too far for a float (or a dt too short to divide by) is a
         * teleport: no velocity, and a path that stays finite */
        if (!isfinite(c->v[k])) {
            c->v[k] = 0.0f;
            c->at.p[k] = last ? c->to.p[k] : (1.0f - t) * c->from.p[k] + t * c->to.p[k];
        }
    }
    place_rotation(c, t, last, inv_dt);
    quat_matrix(c->at.q, c->m);
}

void cloth_perpendicular(const float e[3], float out[3])
{
    /* cross e with the coordinate axis it is least aligned with */
    const float ax = fabsf(e[0]), ay = fabsf(e[1]), az = fabsf(e[2]);
    float c[3];
    if (ax <= ay && ax <= az) { /* e x (1,0,0) */
        c[0] = 0.0f;
        c[1] = e[2];
        c[2] = -e[1];
    } else if (ay <= az) { /* e x (0,1,0) */
        c[0] = -e[2];
        c[1] = 0.0f;
        c[2] = e[0];
    } else { /* e x (0,0,1) */
        c[0] = e[1];
        c[1] = -e[0];
        c[2] = 0.0f;
    }
    const float inv = 1.0f / sqrtf(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    out[0] = c[0] * inv;
    out[1] = c[1] * inv;
    out[2] = c[2] * inv;
}

static void move_pose(cloth_pose *pose, const float m[9], const float turn[4], const float from[3], const float to[3])
{
    const float d[3] = {pose->p[0] - from[0], pose->p[1] - from[1], pose->p[2] - from[2]};
    for (int r = 0; r < 3; ++r) {
        pose->p[r] = to[r] + (m[3 * r] * d[0] + m[3 * r + 1] * d[1] + m[3 * r + 2] * d[2]);
    }
    float q[4];
    quat_mul(turn, pose->q, q);
    const float inv = 1.0f / sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; ++k) {
        pose->q[k] = q[k] * inv;
    }
}

void cloth_colliders_move_rigidly(cloth_t *cloth, const float m[9], const float turn[4], const float from[3],
                                  const float to[3])
{
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        cloth_collider *c = &cloth->colliders[k];
        move_pose(&c->from, m, turn, from, to);
        move_pose(&c->to, m, turn, from, to);
        move_pose(&c->at, m, turn, from, to);
        quat_matrix(c->at.q, c->m);
        const float v[3] = {c->v[0], c->v[1], c->v[2]}, w[3] = {c->w[0], c->w[1], c->w[2]};
        for (int r = 0; r < 3; ++r) {
            c->v[r] = m[3 * r] * v[0] + m[3 * r + 1] * v[1] + m[3 * r + 2] * v[2];
            c->w[r] = m[3 * r] * w[0] + m[3 * r + 1] * w[1] + m[3 * r + 2] * w[2];
        }
    }
}
