/*
 * The frame a cloth is worn in, its inertia, and teleports
 * (include/clothsim/frame.h).
 *
 * The cloth stays in world space. With inertia below 1, each substep moves
 * every particle rigidly by the part of the frame's motion over that
 * substep that the inertia takes away: (1 - angular) of its turn about the
 * frame's origin, then (1 - linear) of its travel. Inertia 0 carries the
 * cloth along with the frame, so that in the frame's coordinates it moves
 * as a cloth in a frame at rest would. Velocities turn with the carry and
 * stay relative to it (what the particle does on top of being carried):
 * so the colliders' and the pins' velocities are made relative to the carry
 * too, and a body moving with the frame is at rest for the cloth's contact
 * response, as it must be. The frame moves as colliders do: its origin in
 * a straight line over the step, its turn at a constant rate about one axis.
 *
 * The arithmetic of the carry is in double, rounded once into the float
 * matrix and translation every particle takes.
 */
#include "frame.h"
#include "colliders/colliders.h"

#include <string.h>

void cloth_frame_defaults(cloth_t *cloth)
{
    cloth_frame *f = &cloth->frame;
    memset(f, 0, sizeof *f);
    f->q0[3] = 1.0f;
    f->q1[3] = 1.0f;
    f->linear = 1.0f;
    f->angular = 1.0f;
}

/* The rotation taking q0 to q1 (q1 q0^-1, the shorter way) as a unit axis
 * and an angle in [0, pi]. */
static void turn_between(const float q0[4], const float q1[4], double axis[3], double *angle)
{
    const double a[4] = {(double)q1[0], (double)q1[1], (double)q1[2], (double)q1[3]};
    const double b[4] = {-(double)q0[0], -(double)q0[1], -(double)q0[2], (double)q0[3]};
    double d[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                   a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                   a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                   a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    if (d[3] < 0.0) {
        for (int k = 0; k < 4; ++k) {
            d[k] = -d[k];
        }
    }
    const double s = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    *angle = 2.0 * atan2(s, d[3]);
    for (int k = 0; k < 3; ++k) {
        axis[k] = s > 0.0 ? d[k] / s : 0.0;
    }
    if (!(s > 0.0)) {
        *angle = 0.0;
    }
}

/* Row-major rotation by `angle` about unit `axis` (Rodrigues), and the
 * same rounded once to float. */
static void rotation(const double axis[3], double angle, double r[9])
{
    const double c = cos(angle), s = sin(angle), t = 1.0 - c;
    const double x = axis[0], y = axis[1], z = axis[2];
    const double m[9] = {t * x * x + c,     t * x * y - s * z, t * x * z + s * y,
                         t * x * y + s * z, t * y * y + c,     t * y * z - s * x,
                         t * x * z - s * y, t * y * z + s * x, t * z * z + c};
    memcpy(r, m, sizeof m);
}

static void rotation_f(const double axis[3], double angle, float m[9])
{
    double r[9];
    rotation(axis, angle, r);
    for (int k = 0; k < 9; ++k) {
        m[k] = (float)r[k];
    }
}

/* x = c + m (x - o) + t for every particle, and v = m v. */
static void move_particles(cloth_t *cloth, const float m[9], const float o[3], const float c[3], const float t[3])
{
    cloth_particles *p = &cloth->p;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        const float d[3] = {p->x[i] - o[0], p->y[i] - o[1], p->z[i] - o[2]};
        const float v[3] = {p->vx[i], p->vy[i], p->vz[i]};
        p->x[i] = c[0] + (m[0] * d[0] + m[1] * d[1] + m[2] * d[2]) + t[0];
        p->y[i] = c[1] + (m[3] * d[0] + m[4] * d[1] + m[5] * d[2]) + t[1];
        p->z[i] = c[2] + (m[6] * d[0] + m[7] * d[1] + m[8] * d[2]) + t[2];
        p->vx[i] = m[0] * v[0] + m[1] * v[1] + m[2] * v[2];
        p->vy[i] = m[3] * v[0] + m[4] * v[1] + m[5] * v[2];
        p->vz[i] = m[6] * v[0] + m[7] * v[1] + m[8] * v[2];
    }
}

/* The carry over substep s of n: rotation m about ps by the inertia's part
 * of the frame's turn, then translation t; in double. */
static void substep_carry(const cloth_frame *f, uint32_t s, uint32_t n, double m[9], double ps[3], double t[3],
                          double *part, double axis[3])
{
    double angle;
    turn_between(f->q0, f->q1, axis, &angle);
    *part = (1.0 - (double)f->angular) * angle / (double)n;
    for (int k = 0; k < 3; ++k) {
        const double d = (double)f->p1[k] - (double)f->p0[k];
        ps[k] = (double)f->p0[k] + d * (double)s / (double)n;
        t[k] = (1.0 - (double)f->linear) * d / (double)n;
    }
    rotation(axis, *part, m);
}

void cloth_frame_carry(cloth_t *cloth, uint32_t s, uint32_t n, float h)
{
    cloth_frame *f = &cloth->frame;
    f->carrying = false;
    const bool still = memcmp(f->p0, f->p1, sizeof f->p0) == 0 && memcmp(f->q0, f->q1, sizeof f->q0) == 0;
    if ((f->linear == 1.0f && f->angular == 1.0f) || still) {
        return;
    }
    double m[9], ps[3], t[3], part, axis[3];
    substep_carry(f, s, n, m, ps, t, &part, axis);
    if (s == 0u) {
        /* the whole step's carry, x -> A x + b, composed from its substeps:
         * what pins, skin targets and colliders, which move straight from
         * where they stood to where they are going, are measured against */
        double a[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, b[3] = {0, 0, 0};
        for (uint32_t k = 0; k < n; ++k) {
            double mk[9], pk[3], tk[3], pa, ax[3], na[9], nb[3];
            substep_carry(f, k, n, mk, pk, tk, &pa, ax);
            for (int r = 0; r < 3; ++r) {
                const double mp = mk[3 * r] * pk[0] + mk[3 * r + 1] * pk[1] + mk[3 * r + 2] * pk[2];
                nb[r] = mk[3 * r] * b[0] + mk[3 * r + 1] * b[1] + mk[3 * r + 2] * b[2] + pk[r] - mp + tk[r];
                for (int c = 0; c < 3; ++c) {
                    na[3 * r + c] = mk[3 * r] * a[c] + mk[3 * r + 1] * a[3 + c] + mk[3 * r + 2] * a[6 + c];
                }
            }
            memcpy(a, na, sizeof a);
            memcpy(b, nb, sizeof b);
        }
        for (int k = 0; k < 9; ++k) {
            f->step_m[k] = (float)a[k];
        }
        for (int k = 0; k < 3; ++k) {
            f->step_b[k] = (float)b[k];
        }
    }
    float mf[9], pf[3], tf[3];
    for (int k = 0; k < 9; ++k) {
        mf[k] = (float)m[k];
    }
    for (int k = 0; k < 3; ++k) {
        pf[k] = (float)ps[k];
        tf[k] = (float)t[k];
        f->cw[k] = (float)(axis[k] * part / (double)h);
    }
    move_particles(cloth, mf, pf, pf, tf);
    f->carrying = true;
}

void cloth_frame_relative_colliders(cloth_t *cloth, float dt)
{
    const cloth_frame *f = &cloth->frame;
    if (!f->carrying) {
        return;
    }
    /* a collider's reference point went from `from` to `to` over the step;
     * the carry would have taken `from` to C(from) */
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        cloth_collider *c = &cloth->colliders[k];
        float carried[3];
        cloth_frame_step_carry(cloth, c->from.p, carried);
        for (int q = 0; q < 3; ++q) {
            c->v[q] -= (carried[q] - c->from.p[q]) / dt;
            c->w[q] -= f->cw[q];
            /* a frame thrown too far for a float: no velocity, as a
             * collider's own jump (pose.c); the step then fails its
             * finite check, but the collider stays a valid state */
            c->v[q] = isfinite(c->v[q]) ? c->v[q] : 0.0f;
            c->w[q] = isfinite(c->w[q]) ? c->w[q] : 0.0f;
        }
    }
}

void cloth_frame_step_carry(const cloth_t *cloth, const float p[3], float out[3])
{
    const cloth_frame *f = &cloth->frame;
    if (!f->carrying) {
        memcpy(out, p, 3u * sizeof *out);
        return;
    }
    const float *m = f->step_m;
    for (int r = 0; r < 3; ++r) {
        out[r] = (m[3 * r] * p[0] + m[3 * r + 1] * p[1] + m[3 * r + 2] * p[2]) + f->step_b[r];
    }
}

void cloth_frame_end_step(cloth_t *cloth)
{
    cloth_frame *f = &cloth->frame;
    memcpy(f->p0, f->p1, sizeof f->p0);
    memcpy(f->q0, f->q1, sizeof f->q0);
    f->carrying = false;
}

cloth_status cloth_set_frame(cloth_t *cloth, const float position[3], const float rotation_q[4])
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    float q[4];
    if (cloth == NULL || position == NULL || !cloth_finite3(position) || !cloth_quat_accept(rotation_q, q)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    memcpy(cloth->frame.p1, position, sizeof cloth->frame.p1);
    memcpy(cloth->frame.q1, q, sizeof q);
    return CLOTH_OK;
}

cloth_status cloth_set_inertia(cloth_t *cloth, float linear, float angular)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !(linear >= 0.0f && linear <= 1.0f) || !(angular >= 0.0f && angular <= 1.0f)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->frame.linear = linear;
    cloth->frame.angular = angular;
    return CLOTH_OK;
}

cloth_status cloth_get_inertia(const cloth_t *cloth, float *linear, float *angular)
{
    if (cloth == NULL || linear == NULL || angular == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *linear = cloth->frame.linear;
    *angular = cloth->frame.angular;
    return CLOTH_OK;
}

/* Point p, moved as the cloth: c + m (p - o). */
static void move_point(const float m[9], const float o[3], const float c[3], float p[3])
{
    const float d[3] = {p[0] - o[0], p[1] - o[1], p[2] - o[2]};
    for (int r = 0; r < 3; ++r) {
        p[r] = c[r] + (m[3 * r] * d[0] + m[3 * r + 1] * d[1] + m[3 * r + 2] * d[2]);
    }
}

static bool moves_finite(const float m[9], const float o[3], const float c[3], float x, float y, float z)
{
    float p[3] = {x, y, z};
    move_point(m, o, c, p);
    return cloth_finite3(p);
}

/* Whether every point the teleport moves stays finite (a pose near the
 * float range's edge would turn the cloth into infinities). */
static bool teleport_finite(const cloth_t *cloth, const float m[9], const float o[3], const float c[3])
{
    const cloth_particles *p = &cloth->p;
    bool ok = true;
    for (uint32_t i = 0; i < cloth->count && ok; ++i) {
        ok = moves_finite(m, o, c, p->x[i], p->y[i], p->z[i]);
    }
    for (uint32_t k = 0; k < cloth->pin_count && ok; ++k) {
        const cloth_pin_rec *pin = &cloth->pins[k];
        ok = moves_finite(m, o, c, pin->start[0], pin->start[1], pin->start[2]) &&
             moves_finite(m, o, c, pin->target[0], pin->target[1], pin->target[2]);
    }
    const cloth_skin *s = &cloth->skin;
    for (uint32_t i = 0; s->block != NULL && i < cloth->count && ok; ++i) {
        ok = moves_finite(m, o, c, s->tx[i], s->ty[i], s->tz[i]) && moves_finite(m, o, c, s->sx[i], s->sy[i], s->sz[i]);
    }
    for (uint32_t k = 0; k < cloth->collider_count && ok; ++k) {
        const cloth_collider *col = &cloth->colliders[k];
        ok = moves_finite(m, o, c, col->from.p[0], col->from.p[1], col->from.p[2]) &&
             moves_finite(m, o, c, col->to.p[0], col->to.p[1], col->to.p[2]) &&
             moves_finite(m, o, c, col->at.p[0], col->at.p[1], col->at.p[2]);
    }
    return ok;
}

cloth_status cloth_teleport(cloth_t *cloth, const float position[3], const float rotation_q[4])
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    float q[4];
    if (cloth == NULL || position == NULL || !cloth_finite3(position) || !cloth_quat_accept(rotation_q, q)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_frame *f = &cloth->frame;
    double axis[3], angle;
    turn_between(f->q0, q, axis, &angle);
    float m[9];
    const float zero[3] = {0.0f, 0.0f, 0.0f}, o[3] = {f->p0[0], f->p0[1], f->p0[2]};
    rotation_f(axis, angle, m);
    if (!teleport_finite(cloth, m, o, position)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    move_particles(cloth, m, o, position, zero);
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        move_point(m, o, position, cloth->pins[k].start);
        move_point(m, o, position, cloth->pins[k].target);
    }
    cloth_skin *skin = &cloth->skin;
    if (skin->block != NULL) {
        for (uint32_t i = 0; i < cloth->count; ++i) {
            float t[3] = {skin->tx[i], skin->ty[i], skin->tz[i]}, s[3] = {skin->sx[i], skin->sy[i], skin->sz[i]};
            move_point(m, o, position, t);
            move_point(m, o, position, s);
            skin->tx[i] = t[0];
            skin->ty[i] = t[1];
            skin->tz[i] = t[2];
            skin->sx[i] = s[0];
            skin->sy[i] = s[1];
            skin->sz[i] = s[2];
        }
    }
    const double half = 0.5 * angle;
    const float turn[4] = {(float)(axis[0] * sin(half)), (float)(axis[1] * sin(half)), (float)(axis[2] * sin(half)),
                           (float)cos(half)};
    cloth_colliders_move_rigidly(cloth, m, turn, o, position);
    memcpy(f->p0, position, sizeof f->p0);
    memcpy(f->p1, position, sizeof f->p1);
    memcpy(f->q0, q, sizeof f->q0);
    memcpy(f->q1, q, sizeof f->q1);
    return CLOTH_OK;
}
