/*
 * Pins (clothsim.h, cloth_pin / cloth_unpin): a pinned particle has infinite
 * mass, follows its target in a straight line during the next step, reaches
 * it exactly at the end of the step, and its velocity is that motion.
 * Re-pinning only changes the target; unpinning keeps position and velocity;
 * refused calls change nothing.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GRID_N 3u
#define COUNT (GRID_N * GRID_N)

static const cloth_integrator k_integrators[3] = {
    CLOTH_INTEGRATOR_EXPLICIT_EULER, CLOTH_INTEGRATOR_TRAPEZOID, CLOTH_INTEGRATOR_VERLET};
static const char *const k_names[3] = {"explicit_euler", "trapezoid", "verlet"};
static const float k_dt = 1.0f / 60.0f;

/* A 3 x 3 horizontal grid with default parameters (gravity, springs, 16 substeps). */
static cloth_t *make_grid(cloth_integrator kind)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    cloth_grid_desc_init(&desc);
    desc.rows = GRID_N;
    desc.cols = GRID_N;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth)
        CHECK_OK(cloth_set_integrator(cloth, kind));
    return cloth;
}

static int same3(const float *a, const float *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static int same_bits(const float *a, const float *b, size_t count)
{
    return memcmp(a, b, count * sizeof(float)) == 0;
}

/* ulp of floats of magnitude below `mag`. */
static double ulp_below(double mag)
{
    int e;
    (void)frexp(mag > 0.0 ? mag : 1e-30, &e);
    return ldexp(1.0, e - 24);
}

/* 1. Pinned particles hold their targets bitwise under gravity and springs. */
static void test_hold(int which)
{
    cloth_t *cloth = make_grid(k_integrators[which]);
    float pos0[3 * COUNT], pos[3 * COUNT], vel[3 * COUNT], target2[3];
    uint32_t f;
    int held = 1, still = 1;
    if (!cloth)
        return;
    CHECK_OK(cloth_get_positions(cloth, pos0, 0));
    CHECK_OK(cloth_pin(cloth, 0, NULL)); /* where it is */
    target2[0] = pos0[6];
    target2[1] = pos0[7];
    target2[2] = pos0[8];
    CHECK_OK(cloth_pin(cloth, 2, target2)); /* explicitly at its own position */
    for (f = 0; f < 120; ++f) {
        CHECK_OK(cloth_step(cloth, k_dt));
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        CHECK_OK(cloth_get_velocities(cloth, vel, 0));
        if (!same3(&pos[0], &pos0[0]) || !same3(&pos[6], target2))
            held = 0;
        /* a target that does not move gives velocity exactly 0 */
        if (vel[0] != 0.0f || vel[1] != 0.0f || vel[2] != 0.0f || vel[6] != 0.0f ||
            vel[7] != 0.0f || vel[8] != 0.0f)
            still = 0;
    }
    CHECK(held);
    CHECK(still);
    /* the rest fell and is hanging off the pins (springs pull on them) */
    CHECK(pos[3 * 8 + 1] < -0.01f);
    CHECK(pos[3 * 4 + 1] < -0.005f);
    printf("%-14s hold: pins at (%.3f %.3f %.3f) and (%.3f %.3f %.3f) bitwise after 2 s; "
           "particle 8 at y = %.4f\n",
           k_names[which], (double)pos[0], (double)pos[1], (double)pos[2], (double)pos[6],
           (double)pos[7], (double)pos[8], (double)pos[25]);
    cloth_destroy(cloth);
}

/* 2. Moving a target: exactly there after one step, velocity = displacement / dt.
 *    3. Re-pinning only changes the target; pin twice + unpin once frees it. */
static void test_move(int which)
{
    cloth_t *cloth = make_grid(k_integrators[which]);
    float pos[3 * COUNT], vel[3 * COUNT], before_pos[3 * COUNT], before_vel[3 * COUNT];
    float t1[3], t2[3], t3[3], start[3];
    uint32_t f;
    int i;
    if (!cloth)
        return;
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_pin(cloth, 2, NULL));
    for (f = 0; f < 30; ++f)
        CHECK_OK(cloth_step(cloth, k_dt));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    memcpy(start, &pos[0], sizeof start);

    t1[0] = start[0] + 0.1f;
    t1[1] = start[1] + 0.05f;
    t1[2] = start[2] - 0.02f;
    CHECK_OK(cloth_pin(cloth, 0, t1));
    /* re-pinning does not move anything by itself */
    CHECK_OK(cloth_get_positions(cloth, before_pos, 0));
    CHECK(same3(&before_pos[0], start));
    CHECK_OK(cloth_step(cloth, k_dt));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK_OK(cloth_get_velocities(cloth, vel, 0));
    CHECK(same3(&pos[0], t1)); /* exactly at the target after one step */
    {
        /*
         * Velocity = (t1 - start) / dt = (6, 3, -1.2) m/s. Whether the library
         * divides the whole displacement by dt or one substep's motion by h,
         * the float positions (|p| < 1 m, ulp 6e-8 m) bound the error by
         * 2 ulp / h = 2.3e-4 m/s, plus 2^-22 relative for the division.
         */
        double h = (double)k_dt / 16.0;
        double tol = 2.0 * ulp_below(1.0) / h;
        for (i = 0; i < 3; ++i) {
            double want = ((double)t1[i] - (double)start[i]) / (double)k_dt;
            CHECK_NEAR(vel[i], want, tol + ldexp(fabs(want), -22));
        }
        printf("%-14s move: pin at target bitwise; velocity (%.6f %.6f %.6f), displacement/dt "
               "(%.6f %.6f %.6f)\n",
               k_names[which], (double)vel[0], (double)vel[1], (double)vel[2],
               ((double)t1[0] - (double)start[0]) / (double)k_dt,
               ((double)t1[1] - (double)start[1]) / (double)k_dt,
               ((double)t1[2] - (double)start[2]) / (double)k_dt);
    }
    /* target unchanged: stays there, velocity back to exactly 0 */
    CHECK_OK(cloth_step(cloth, k_dt));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK_OK(cloth_get_velocities(cloth, vel, 0));
    CHECK(same3(&pos[0], t1));
    CHECK(vel[0] == 0.0f && vel[1] == 0.0f && vel[2] == 0.0f);

    /* pin again twice: only the target changes, the last one wins */
    t2[0] = t1[0] - 0.2f;
    t2[1] = t1[1];
    t2[2] = t1[2];
    t3[0] = t1[0];
    t3[1] = t1[1] + 0.03f;
    t3[2] = t1[2] + 0.04f;
    CHECK_OK(cloth_get_positions(cloth, before_pos, 0));
    CHECK_OK(cloth_get_velocities(cloth, before_vel, 0));
    CHECK_OK(cloth_pin(cloth, 0, t2));
    CHECK_OK(cloth_pin(cloth, 0, t3));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK_OK(cloth_get_velocities(cloth, vel, 0));
    CHECK(same_bits(pos, before_pos, 3 * COUNT));
    CHECK(same_bits(vel, before_vel, 3 * COUNT));
    CHECK_OK(cloth_step(cloth, k_dt));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK(same3(&pos[0], t3));

    /* pinned three times, unpinned once: it is free (one pin per particle) */
    CHECK_OK(cloth_unpin(cloth, 0));
    CHECK_OK(cloth_step(cloth, k_dt));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK(!same3(&pos[0], t3)); /* no longer held */
    cloth_destroy(cloth);
}

/* 3b. Re-pinning has no effect but the target: a cloth whose pin was set to
 *     an intermediate target first and one pinned straight to the final
 *     target stay bitwise identical, also after the pin is released (had the
 *     second call added a second pin record, one unpin would not free it). */
static void test_repin_twin(int which)
{
    cloth_t *a = make_grid(k_integrators[which]);
    cloth_t *b = make_grid(k_integrators[which]);
    float pa[3 * COUNT], pb[3 * COUNT], va[3 * COUNT], vb[3 * COUNT];
    float t_mid[3] = {-0.3f, 0.2f, 0.1f}, t_fin[3] = {0.02f, 0.05f, -0.01f};
    uint32_t f;
    if (!a || !b) {
        cloth_destroy(a);
        cloth_destroy(b);
        return;
    }
    CHECK_OK(cloth_pin(a, 0, NULL));
    CHECK_OK(cloth_pin(b, 0, NULL));
    CHECK_OK(cloth_pin(a, 2, NULL));
    CHECK_OK(cloth_pin(b, 2, NULL));
    for (f = 0; f < 20; ++f) {
        CHECK_OK(cloth_step(a, k_dt));
        CHECK_OK(cloth_step(b, k_dt));
    }
    CHECK_OK(cloth_pin(a, 0, t_mid));
    CHECK_OK(cloth_pin(a, 0, t_fin));
    CHECK_OK(cloth_pin(b, 0, t_fin));
    for (f = 0; f < 20; ++f) {
        CHECK_OK(cloth_step(a, k_dt));
        CHECK_OK(cloth_step(b, k_dt));
    }
    CHECK_OK(cloth_unpin(a, 0));
    CHECK_OK(cloth_unpin(b, 0));
    for (f = 0; f < 60; ++f) {
        CHECK_OK(cloth_step(a, k_dt));
        CHECK_OK(cloth_step(b, k_dt));
    }
    CHECK_OK(cloth_get_positions(a, pa, 0));
    CHECK_OK(cloth_get_positions(b, pb, 0));
    CHECK_OK(cloth_get_velocities(a, va, 0));
    CHECK_OK(cloth_get_velocities(b, vb, 0));
    CHECK(same_bits(pa, pb, 3 * COUNT));
    CHECK(same_bits(va, vb, 3 * COUNT));
    CHECK(!same3(&pa[0], t_fin)); /* released */
    cloth_destroy(a);
    cloth_destroy(b);
}

/* 4. Unpin keeps position and velocity, then free flight (trapezoid: exact). */
static void test_unpin_flight(void)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    const float g[3] = {0.0f, -9.81f, 0.0f};
    float pos[6], vel[6], p_pin[6], v_pin[6], target[3];
    uint32_t f, frames = 30;
    int i;
    cloth_grid_desc_init(&desc);
    desc.rows = 1;
    desc.cols = 2;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (!cloth)
        return;
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 0.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_SHEAR, 0.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_BEND, 0.0f));
    CHECK_OK(cloth_set_damping(cloth, 0.0f));
    CHECK_OK(cloth_set_gravity(cloth, g));
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_TRAPEZOID));
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_step(cloth, k_dt));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    target[0] = pos[0] + 0.06f;
    target[1] = pos[1] + 0.03f;
    target[2] = pos[2];
    CHECK_OK(cloth_pin(cloth, 0, target));
    CHECK_OK(cloth_step(cloth, k_dt)); /* moves at (3.6, 1.8, 0) m/s */
    CHECK_OK(cloth_get_positions(cloth, p_pin, 0));
    CHECK_OK(cloth_get_velocities(cloth, v_pin, 0));
    CHECK(same3(p_pin, target));
    /* unpinning a free particle does nothing */
    CHECK_OK(cloth_unpin(cloth, 1));
    CHECK_OK(cloth_unpin(cloth, 0));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK_OK(cloth_get_velocities(cloth, vel, 0));
    CHECK(same_bits(pos, p_pin, 6)); /* keeps its position ... */
    CHECK(same_bits(vel, v_pin, 6)); /* ... and its velocity */
    for (f = 0; f < frames; ++f)
        CHECK_OK(cloth_step(cloth, k_dt));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK_OK(cloth_get_velocities(cloth, vel, 0));
    {
        /*
         * Trapezoid free flight is exact for constant acceleration:
         * x = x_r + v_r t + g t^2 / 2 from the release state. Float rounding
         * over 480 substeps with |x| < 1 m, |v| < 5 m/s: <= 480 (ulp(1)/2 +
         * t ulp(8)/2) < 1e-4 m; 2e-4 leaves margin. Losing the release
         * velocity would be off by 1.8 m.
         */
        double t = (double)frames * (double)k_dt;
        for (i = 0; i < 3; ++i) {
            double gi = i == 1 ? (double)g[1] : 0.0;
            CHECK_NEAR(pos[i], (double)p_pin[i] + (double)v_pin[i] * t + gi * t * t / 2.0, 2e-4);
            CHECK_NEAR(vel[i], (double)v_pin[i] + gi * t, 2e-4);
        }
        printf("unpinned flight: y %.6f, closed form %.6f; x %.6f, closed form %.6f\n",
               (double)pos[1], (double)p_pin[1] + (double)v_pin[1] * t + (double)g[1] * t * t / 2.0,
               (double)pos[0], (double)p_pin[0] + (double)v_pin[0] * t);
    }
    cloth_destroy(cloth);
}

/* 5. set_positions moves a pinned particle; the next step brings it back. */
static void test_set_positions_pinned(void)
{
    cloth_t *cloth = make_grid(CLOTH_INTEGRATOR_EXPLICIT_EULER);
    float pos[3 * COUNT], target[3];
    if (!cloth)
        return;
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    memcpy(target, &pos[0], sizeof target);
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    pos[0] += 0.2f;
    pos[1] -= 0.1f;
    CHECK_OK(cloth_set_positions(cloth, pos, 0));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK(!same3(&pos[0], target));
    CHECK_OK(cloth_step(cloth, k_dt));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK(same3(&pos[0], target));
    cloth_destroy(cloth);
}

/* 6. Refused calls: status codes, and nothing changes (twin cloths stay bitwise equal). */
static void test_errors(void)
{
    cloth_t *a = make_grid(CLOTH_INTEGRATOR_EXPLICIT_EULER);
    cloth_t *b = make_grid(CLOTH_INTEGRATOR_EXPLICIT_EULER);
    float pa[3 * COUNT], pb[3 * COUNT], va[3 * COUNT], vb[3 * COUNT];
    float target[3] = {0.01f, 0.02f, 0.0f};
    float nan_t[3] = {0.0f, NAN, 0.0f};
    float inf_t[3] = {INFINITY, 0.0f, 0.0f};
    uint32_t f;
    if (!a || !b) {
        cloth_destroy(a);
        cloth_destroy(b);
        return;
    }
    CHECK_OK(cloth_pin(a, 0, target));
    CHECK_OK(cloth_pin(b, 0, target));

    CHECK_STATUS(cloth_pin(b, COUNT, target), CLOTH_ERR_OUT_OF_RANGE);
    CHECK_STATUS(cloth_pin(b, COUNT, NULL), CLOTH_ERR_OUT_OF_RANGE);
    CHECK_STATUS(cloth_pin(b, 0xffffffffu, target), CLOTH_ERR_OUT_OF_RANGE);
    CHECK_STATUS(cloth_unpin(b, COUNT), CLOTH_ERR_OUT_OF_RANGE);
    CHECK_STATUS(cloth_unpin(b, 0xffffffffu), CLOTH_ERR_OUT_OF_RANGE);
    CHECK_STATUS(cloth_pin(NULL, 0, target), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_unpin(NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
    /* NaN / Inf target: refused, for a pinned particle (target kept) and a free one (stays free) */
    CHECK_STATUS(cloth_pin(b, 0, nan_t), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_pin(b, 0, inf_t), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_pin(b, 4, nan_t), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_pin(b, 8, inf_t), CLOTH_ERR_INVALID_ARGUMENT);

    CHECK_OK(cloth_get_positions(a, pa, 0));
    CHECK_OK(cloth_get_positions(b, pb, 0));
    CHECK_OK(cloth_get_velocities(a, va, 0));
    CHECK_OK(cloth_get_velocities(b, vb, 0));
    CHECK(same_bits(pa, pb, 3 * COUNT));
    CHECK(same_bits(va, vb, 3 * COUNT));
    /* same inputs, same outputs: had anything changed in b, they would differ */
    for (f = 0; f < 60; ++f) {
        CHECK_OK(cloth_step(a, k_dt));
        CHECK_OK(cloth_step(b, k_dt));
    }
    CHECK_OK(cloth_get_positions(a, pa, 0));
    CHECK_OK(cloth_get_positions(b, pb, 0));
    CHECK_OK(cloth_get_velocities(a, va, 0));
    CHECK_OK(cloth_get_velocities(b, vb, 0));
    CHECK(same_bits(pa, pb, 3 * COUNT));
    CHECK(same_bits(va, vb, 3 * COUNT));
    CHECK(same3(&pb[0], target)); /* the old target still holds */
    CHECK(pb[3 * 4 + 1] < -0.01f); /* particle 4 stayed free and fell */
    CHECK(pb[3 * 8 + 1] < -0.01f);
    cloth_destroy(a);
    cloth_destroy(b);
}

int main(void)
{
    int which;
    for (which = 0; which < 3; ++which) {
        test_hold(which);
        test_move(which);
        test_repin_twin(which);
    }
    test_unpin_flight();
    test_set_positions_pinned();
    test_errors();
    return test_finish("test_pins");
}
