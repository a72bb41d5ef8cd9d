/*
 * test_frame: the frame a cloth is worn in, inertia and teleports (frame.h).
 *
 * The scene: a 12 x 12 cloth, 0.55 m, level in the frame at 1.5 m with its
 * first row pinned in the frame (the host moves the pins' targets with it
 * each step), falling onto a ball that moves with the frame, friction 0.3,
 * and swinging down past it. The frame runs a circle of 3 m at 6 m/s and
 * turns about +y to face where it goes, so gravity is the same in the
 * frame all along. (Pinned by two corners only, the top edge between them
 * would be slack: its flat shape is a neutral equilibrium that rounding
 * tips either way, which no comparison of shapes survives.)
 *
 * A: inertia 1, with the frame set every step: the same bits as a cloth
 *    whose frame was never set.
 * B: inertia 0: the cloth's shape in the frame's coordinates is that of the
 *    same cloth in a frame at rest, to 1e-3 m after 2 s (measured 3e-4).
 *    The carry rotates and translates coordinates of ~3 m every substep,
 *    each rounding by ~2e-7 m, 720 times, and the contact with friction
 *    amplifies such differences; 1e-3 m is 2 % of the spacing. With
 *    inertia 1 the same run ends over 0.1 m off the rest frame's shape
 *    (measured 0.5 m), and 0.5 in between: the check can fail.
 * C: teleport by 100 m and a quarter turn mid-run (the ball frictionless,
 *    whose stick or slip would amplify rounding the most): for the next 40
 *    steps the worst link is that of the run without it to 1e-3 of strain,
 *    the shape to 5e-4 m and the speeds in the frame to 0.05 m/s. At 100 m
 *    a coordinate rounds to 7.6e-6 m, which over a substep of 1/360 s is
 *    2.7e-3 m/s of velocity, a few of which add up; the cloth swings at
 *    about 1 m/s, so a teleport that left one velocity unturned, or
 *    stretched a link, would miss these by far.
 * D: refused input changes nothing.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#define DT (1.0f / 60.0f)
enum { SIDE = 12, N = SIDE * SIDE, STEPS = 120 };
#define SPACING 0.05f
#define RADIUS 3.0
#define OMEGA 2.0

typedef struct pose {
    double p[3];
    double yaw; /* about +y */
} pose;

static pose running(double t, bool moving)
{
    pose f = {{RADIUS, 0.0, 0.0}, 0.0};
    if (moving) {
        f.p[0] = RADIUS * cos(OMEGA * t);
        f.p[2] = RADIUS * sin(OMEGA * t);
        f.yaw = -OMEGA * t;
    }
    return f;
}

static void to_world(const pose *f, const double l[3], float w[3])
{
    const double c = cos(f->yaw), s = sin(f->yaw);
    w[0] = (float)(f->p[0] + c * l[0] + s * l[2]);
    w[1] = (float)(f->p[1] + l[1]);
    w[2] = (float)(f->p[2] - s * l[0] + c * l[2]);
}

static void to_local(const pose *f, const float w[3], double l[3])
{
    const double c = cos(f->yaw), s = sin(f->yaw);
    const double d[3] = {(double)w[0] - f->p[0], (double)w[1] - f->p[1], (double)w[2] - f->p[2]};
    l[0] = c * d[0] - s * d[2];
    l[1] = d[1];
    l[2] = s * d[0] + c * d[2];
}

static void quat_of(const pose *f, float q[4])
{
    q[0] = 0.0f;
    q[1] = (float)sin(0.5 * f->yaw);
    q[2] = 0.0f;
    q[3] = (float)cos(0.5 * f->yaw);
}

static const double k_ball[3] = {0.05, 1.2, 0.3};

/* Pinned particle k of the first row, in the frame. */
static void pin_local(uint32_t k, double l[3])
{
    l[0] = -0.275 + (double)SPACING * (double)k;
    l[1] = 1.5;
    l[2] = 0.0;
}

typedef struct rig {
    cloth_t *cloth;
    cloth_collider_id ball;
} rig;

static rig make(const pose *f, float mu)
{
    rig r = {NULL, 0u};
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = SIDE;
    d.cols = SIDE;
    d.spacing = SPACING;
    double first[3];
    pin_local(0u, first);
    to_world(f, first, d.origin);
    /* level: rows along the frame's +z */
    const double u[3] = {cos(f->yaw), 0.0, -sin(f->yaw)}, v[3] = {sin(f->yaw), 0.0, cos(f->yaw)};
    for (int k = 0; k < 3; ++k) {
        d.u_axis[k] = (float)u[k];
        d.v_axis[k] = (float)v[k];
    }
    d.particle_mass = 0.2f / (float)N;
    CHECK_OK(cloth_create_grid(&d, &r.cloth));
    if (r.cloth == NULL) {
        return r;
    }
    float w[3];
    for (uint32_t k = 0; k < SIDE; ++k) {
        double l[3];
        pin_local(k, l);
        to_world(f, l, w);
        CHECK_OK(cloth_pin(r.cloth, k, w));
    }
    to_world(f, k_ball, w);
    CHECK_OK(cloth_add_sphere(r.cloth, w, 0.2f, &r.ball));
    CHECK_OK(cloth_set_collider_friction(r.cloth, r.ball, mu));
    return r;
}

/* Frame f: the pins, the ball and (if `tell`) the frame where the body is
 * at the end of the step, then the step. */
static void drive(rig *r, const pose *f, bool tell)
{
    float w[3], q[4];
    quat_of(f, q);
    for (uint32_t k = 0; k < SIDE; ++k) {
        double l[3];
        pin_local(k, l);
        to_world(f, l, w);
        CHECK_OK(cloth_pin(r->cloth, k, w));
    }
    to_world(f, k_ball, w);
    CHECK_OK(cloth_set_collider_transform(r->cloth, r->ball, w, q));
    if (tell) {
        const float at[3] = {(float)f->p[0], (float)f->p[1], (float)f->p[2]};
        CHECK_OK(cloth_set_frame(r->cloth, at, q));
    }
    CHECK_OK(cloth_step(r->cloth, DT));
}

/* Largest distance between the two cloths' particles in their frames. */
static double shape_gap(const rig *a, const pose *fa, const rig *b, const pose *fb)
{
    float pa[3 * N], pb[3 * N];
    CHECK_OK(cloth_get_positions(a->cloth, pa, 0));
    CHECK_OK(cloth_get_positions(b->cloth, pb, 0));
    double worst = 0.0;
    for (uint32_t i = 0; i < N; ++i) {
        double la[3], lb[3];
        to_local(fa, pa + 3u * i, la);
        to_local(fb, pb + 3u * i, lb);
        const double e[3] = {la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]};
        worst = fmax(worst, sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]));
    }
    return worst;
}

static void test_inertia_one_is_world_space(void)
{
    const pose f0 = running(0.0, true);
    rig a = make(&f0, 0.3f), b = make(&f0, 0.3f);
    if (a.cloth == NULL || b.cloth == NULL) {
        return;
    }
    for (int s = 1; s <= 60; ++s) {
        const pose f = running((double)s * (double)DT, true);
        drive(&a, &f, true);
        drive(&b, &f, false);
    }
    CHECK(cloth_state_hash(a.cloth) == cloth_state_hash(b.cloth));
    printf("A: inertia 1 with the frame set every step: %s\n",
           cloth_state_hash(a.cloth) == cloth_state_hash(b.cloth) ? "same bits as no frame" : "DIFFERENT");
    cloth_destroy(a.cloth);
    cloth_destroy(b.cloth);
}

/* The moving cloth at `inertia` against one in a frame at rest; returns
 * the shape gap after STEPS steps. */
static double carried(float inertia)
{
    const pose f0 = running(0.0, true), rest = running(0.0, false), origin = {{0.0, 0.0, 0.0}, 0.0};
    rig a = make(&origin, 0.3f), b = make(&rest, 0.3f);
    double gap = HUGE_VAL;
    if (a.cloth != NULL && b.cloth != NULL) {
        /* made about the frame's first pose (the origin), then taken with
         * its pins and ball to where the body starts */
        const float at[3] = {(float)f0.p[0], (float)f0.p[1], (float)f0.p[2]};
        float q[4];
        quat_of(&f0, q);
        CHECK_OK(cloth_teleport(a.cloth, at, q));
        CHECK_OK(cloth_set_inertia(a.cloth, inertia, inertia));
        for (int s = 1; s <= STEPS; ++s) {
            const pose f = running((double)s * (double)DT, true);
            drive(&a, &f, true);
            drive(&b, &rest, false);
        }
        const pose end = running((double)STEPS * (double)DT, true);
        gap = shape_gap(&a, &end, &b, &rest);
    }
    cloth_destroy(a.cloth);
    cloth_destroy(b.cloth);
    return gap;
}

static void test_inertia_zero_is_carried(void)
{
    const double zero = carried(0.0f), one = carried(1.0f), half = carried(0.5f);
    printf("B: shape in the frame against a frame at rest after %d steps: inertia 0 %.2e m, 0.5 %.3f m, "
           "1 %.3f m\n",
           STEPS, zero, half, one);
    CHECK(zero <= 1e-3);
    CHECK(one >= 0.1);
    CHECK(half > zero && half < one); /* in between */
}

static void stats_of(const rig *r, const pose *f, float *strain, double v_local[3 * N])
{
    cloth_stats st;
    cloth_stats_init(&st);
    CHECK_OK(cloth_get_stats(r->cloth, &st));
    *strain = st.max_strain[0] > st.max_strain[1] ? st.max_strain[0] : st.max_strain[1];
    float v[3 * N];
    CHECK_OK(cloth_get_velocities(r->cloth, v, 0));
    const double c = cos(f->yaw), s = sin(f->yaw);
    for (uint32_t i = 0; i < N; ++i) {
        v_local[3 * i] = c * (double)v[3 * i] - s * (double)v[3 * i + 2];
        v_local[3 * i + 1] = (double)v[3 * i + 1];
        v_local[3 * i + 2] = s * (double)v[3 * i] + c * (double)v[3 * i + 2];
    }
}

static void test_teleport(void)
{
    const pose here = {{0.0, 0.0, 0.0}, 0.0}; /* the frame's first pose */
    pose there = here;
    there.p[0] += 100.0;
    there.p[2] -= 40.0;
    there.yaw = 0.5 * 3.14159265358979323846; /* a quarter turn */
    rig a = make(&here, 0.0f), b = make(&here, 0.0f);
    if (a.cloth == NULL || b.cloth == NULL) {
        return;
    }
    for (int s = 0; s < 20; ++s) { /* both swing from their start */
        drive(&a, &here, false);
        drive(&b, &here, false);
    }
    float q[4];
    quat_of(&there, q);
    const float to[3] = {(float)there.p[0], (float)there.p[1], (float)there.p[2]};
    CHECK_OK(cloth_teleport(a.cloth, to, q));
    double worst_strain = 0.0, worst_speed = 0.0, va[3 * N], vb[3 * N];
    for (int s = 0; s < 40; ++s) {
        drive(&a, &there, false);
        drive(&b, &here, false);
        float sa, sb;
        stats_of(&a, &there, &sa, va);
        stats_of(&b, &here, &sb, vb);
        worst_strain = fmax(worst_strain, fabs((double)sa - (double)sb));
        for (uint32_t i = 0; i < 3u * N; ++i) {
            worst_speed = fmax(worst_speed, fabs(va[i] - vb[i]));
        }
    }
    const double gap = shape_gap(&a, &there, &b, &here);
    printf("C: teleported 100 m and a quarter turn: strain within %.1e, speeds within %.1e m/s, shape within "
           "%.1e m of the run without it\n",
           worst_strain, worst_speed, gap);
    CHECK(worst_strain <= 1e-3);
    CHECK(worst_speed <= 0.05);
    CHECK(gap <= 5e-4);
    cloth_destroy(a.cloth);
    cloth_destroy(b.cloth);
}

static void test_bad_input(void)
{
    const pose f0 = running(0.0, false);
    rig a = make(&f0, 0.3f);
    if (a.cloth == NULL) {
        return;
    }
    const uint64_t h = cloth_state_hash(a.cloth);
    const float p[3] = {1.0f, 2.0f, 3.0f}, bad_p[3] = {1.0f, NAN, 0.0f}, not_unit[4] = {0.0f, 0.0f, 0.0f, 2.0f};
    const float inf_q[4] = {INFINITY, 0.0f, 0.0f, 1.0f};
    CHECK_STATUS(cloth_set_frame(NULL, p, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_frame(a.cloth, NULL, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_frame(a.cloth, bad_p, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_frame(a.cloth, p, not_unit), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_teleport(a.cloth, p, inf_q), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_teleport(a.cloth, bad_p, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_inertia(a.cloth, -0.1f, 0.5f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_inertia(a.cloth, 0.5f, 1.5f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_inertia(a.cloth, NAN, 0.5f), CLOTH_ERR_INVALID_ARGUMENT);
    float l = 0.0f, an = 0.0f;
    CHECK_OK(cloth_get_inertia(a.cloth, &l, &an));
    CHECK(l == 1.0f && an == 1.0f);
    CHECK_STATUS(cloth_get_inertia(a.cloth, NULL, &an), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(cloth_state_hash(a.cloth) == h);
    cloth_destroy(a.cloth);
}

int main(void)
{
    test_inertia_one_is_world_space();
    test_inertia_zero_is_carried();
    test_teleport();
    test_bad_input();
    return test_finish("test_frame");
}
