/*
 * Free flight of a cloth whose springs are all switched off: every particle is
 * a point mass under constant gravity, so each integrator's documented update
 * (clothsim.h, cloth_set_integrator) has a closed-form solution after n
 * substeps of h (t = n h):
 *
 *   velocity, all three:          v_n = v0 + g t
 *   trapezoid (exact for const a): x_n = x0 + v0 t + g t^2 / 2
 *   symplectic Euler and Verlet:   x_n = x0 + v0 t + g h^2 n (n + 1) / 2
 *                                      = x0 + v0 t + g t^2 / 2 + g h t / 2
 *
 * i.e. the two first-order schemes lead the continuous answer by g h t / 2.
 *
 * Part A uses numbers that are all short dyadic rationals (g = -9.8125 =
 * -157/16, h = 2^-8 or 2^-9, m = 0.5, spacing 0.5, v0 = (1, 2, 0)), so that
 * every intermediate value of any evaluation order of the documented updates
 * is exactly representable in float: the results must then equal the closed
 * form bit for bit (tolerance 0). The test asserts that representability of
 * its own references.
 * Part B uses everyday numbers (g = -9.81, m = 0.01, 60 Hz, 16 substeps) with
 * a rigorous worst-case float rounding bound.
 * Part C checks the velocity damping law v(t) = v0 exp(-c t) for 1 and 16
 * substeps.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdio.h>

static const cloth_integrator k_integrators[3] = {
    CLOTH_INTEGRATOR_EXPLICIT_EULER, CLOTH_INTEGRATOR_TRAPEZOID, CLOTH_INTEGRATOR_VERLET};
static const char *const k_names[3] = {"explicit_euler", "trapezoid", "verlet"};

/* A 1 x 2 cloth along +x with every spring force and all damping off. */
static cloth_t *make_free_pair(float spacing, float mass)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    cloth_grid_desc_init(&desc);
    desc.rows = 1;
    desc.cols = 2;
    desc.spacing = spacing;
    desc.particle_mass = mass;
    desc.origin[0] = 0.0f;
    desc.origin[1] = 0.0f;
    desc.origin[2] = 0.0f;
    CHECK_OK(cloth_create_grid(&desc, &cloth));
    if (!cloth)
        return NULL;
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 0.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_SHEAR, 0.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_BEND, 0.0f));
    CHECK_OK(cloth_set_spring_damping(cloth, CLOTH_SPRING_STRUCTURAL, 0.0f));
    CHECK_OK(cloth_set_spring_damping(cloth, CLOTH_SPRING_SHEAR, 0.0f));
    CHECK_OK(cloth_set_spring_damping(cloth, CLOTH_SPRING_BEND, 0.0f));
    CHECK_OK(cloth_set_damping(cloth, 0.0f));
    return cloth;
}

/* ulp of a float whose magnitude is below `mag` (an upper bound). */
static double ulp_below(double mag)
{
    int e;
    if (mag <= 0.0)
        return ldexp(1.0, -149);
    (void)frexp(mag, &e); /* mag = f * 2^e, 0.5 <= f < 1 */
    return ldexp(1.0, e - 24);
}

static int representable(double x)
{
    return (double)(float)x == x;
}

/* ---- Part A: exact dyadic free fall ------------------------------------- */

static void part_a_case(int which, uint32_t substeps, uint32_t frames, double *euler_dev)
{
    const float g_y = -9.8125f; /* -157/16, exact in float */
    const float dt = 0.015625f; /* 1/64 s */
    const float g[3] = {0.0f, g_y, 0.0f};
    const float v0[6] = {1.0f, 2.0f, 0.0f, 1.0f, 2.0f, 0.0f};
    float pos0[6], pos[6], vel[6];
    cloth_t *cloth = make_free_pair(0.5f, 0.5f);
    uint32_t f;
    int i, bad_repr = 0, max_mismatch = 0;
    const double h = (double)dt / (double)substeps;
    if (!cloth)
        return;
    CHECK_OK(cloth_set_gravity(cloth, g));
    CHECK_OK(cloth_set_substeps(cloth, substeps));
    CHECK_OK(cloth_set_integrator(cloth, k_integrators[which]));
    CHECK_OK(cloth_set_velocities(cloth, v0, 0));
    CHECK_OK(cloth_get_positions(cloth, pos0, 0));
    CHECK(pos0[0] == 0.0f && pos0[3] == 0.5f); /* grid placement, spacing 0.5 along +x */

    for (f = 1; f <= frames; ++f) {
        double n, t;
        CHECK_OK(cloth_step(cloth, dt));
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        CHECK_OK(cloth_get_velocities(cloth, vel, 0));
        n = (double)f * (double)substeps;
        t = n * h;
        for (i = 0; i < 6; ++i) {
            int axis = i % 3;
            double gi = axis == 1 ? (double)g_y : 0.0;
            double xr, vr;
            if (k_integrators[which] == CLOTH_INTEGRATOR_TRAPEZOID)
                xr = (double)pos0[i] + (double)v0[i] * t + gi * t * t / 2.0;
            else
                xr = (double)pos0[i] + (double)v0[i] * t + gi * h * h * n * (n + 1.0) / 2.0;
            vr = (double)v0[i] + gi * t;
            if (!representable(xr) || !representable(vr))
                bad_repr = 1;
            /* Tolerance 0: all operands and results are exact in float (see top). */
            if ((double)pos[i] != xr || (double)vel[i] != vr) {
                if (!max_mismatch)
                    fprintf(stderr,
                            "part A %s substeps %u frame %u comp %d: x %.9g (want %.9g), v %.9g (want %.9g)\n",
                            k_names[which], (unsigned)substeps, (unsigned)f, i, (double)pos[i], xr,
                            (double)vel[i], vr);
                max_mismatch = 1;
            }
        }
    }
    /* the references must themselves be float-exact, or tolerance 0 would be unfair */
    CHECK(!bad_repr);
    CHECK(!max_mismatch);

    /* deviation from the continuous parabola, particle 0, y */
    {
        double t = (double)frames * (double)dt;
        double cont = (double)pos0[1] + (double)v0[1] * t + (double)g_y * t * t / 2.0;
        double dev = (double)pos[1] - cont;
        if (k_integrators[which] == CLOTH_INTEGRATOR_TRAPEZOID) {
            CHECK_NEAR(dev, 0.0, 0.0); /* exact for constant acceleration */
        } else {
            /* first order: leads by exactly g h t / 2 (all exact dyadics) */
            CHECK_NEAR(dev, (double)g_y * h * t / 2.0, 0.0);
            if (euler_dev)
                *euler_dev = dev;
        }
        printf("A %-14s substeps %2u t %.4f s: y %.9g, continuous %.9g, deviation %.6g (g h t/2 = %.6g)\n",
               k_names[which], (unsigned)substeps, t, (double)pos[1], cont, dev,
               (double)g_y * h * t / 2.0);
    }
    cloth_destroy(cloth);
}

static void part_a(void)
{
    /* t = 0.75 s keeps |x| < 2 so that multiples of 2^-23 stay exact. */
    int which;
    for (which = 0; which < 3; ++which) {
        double dev4 = 0.0, dev8 = 0.0;
        part_a_case(which, 4, 48, &dev4); /* h = 2^-8 */
        part_a_case(which, 8, 48, &dev8); /* h = 2^-9 */
        if (k_integrators[which] != CLOTH_INTEGRATOR_TRAPEZOID) {
            /* first order in h: halving h halves the error (exactly, here) */
            CHECK(dev8 != 0.0);
            if (dev8 != 0.0)
                CHECK_NEAR(dev4 / dev8, 2.0, 1e-12);
        }
    }
}

/* ---- Part B: everyday numbers with a worst-case rounding bound ----------- */

static void part_b_case(int which)
{
    const float g[3] = {0.0f, -9.81f, 0.0f};
    const float dt = 1.0f / 60.0f;
    const uint32_t substeps = 16, frames = 60;
    const float v0[6] = {1.0f, 2.0f, 0.0f, 1.0f, 2.0f, 0.0f};
    float pos0[6], pos[6], vel[6];
    cloth_t *cloth = make_free_pair(0.05f, 0.01f);
    const double h = (double)(dt / (float)substeps);
    const double n = (double)substeps * (double)frames;
    const double t = n * h;
    const double gy = (double)g[1];
    double vmax, xmax, tol_v, tol_x, worst_x = 0.0, worst_v = 0.0;
    uint32_t f;
    int i;
    if (!cloth)
        return;
    CHECK_OK(cloth_set_gravity(cloth, g));
    CHECK_OK(cloth_set_substeps(cloth, substeps));
    CHECK_OK(cloth_set_integrator(cloth, k_integrators[which]));
    CHECK_OK(cloth_set_velocities(cloth, v0, 0));
    CHECK_OK(cloth_get_positions(cloth, pos0, 0));
    for (f = 0; f < frames; ++f)
        CHECK_OK(cloth_step(cloth, dt));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK_OK(cloth_get_velocities(cloth, vel, 0));

    /*
     * Worst-case float rounding, per substep: the velocity add rounds by at
     * most ulp(vmax)/2 and a h (a possibly formed as (m g) (1/m)) carries a
     * relative error of a few 2^-24, systematic, so over the run
     *   tol_v = n ulp(vmax)/2 + 8 2^-24 |g| t.
     * The position add rounds by ulp(xmax)/2, the increment (v h, or
     * (v + v') h / 2) by about 2 ulp(2 vmax h); velocity errors integrate to at
     * most t tol_v; h itself may differ by 2^-24 relative (float vs exact
     * 1/960), moving x by up to 2^-23 vmax t:
     *   tol_x = n (ulp(xmax)/2 + 2 ulp(2 vmax h)) + t tol_v + 2^-23 vmax t.
     * This is ~4e-4 m, an order of magnitude below the first-order schemes'
     * lead g h t / 2 = 5.1e-3 m, so the two formulas are told apart.
     */
    vmax = sqrt(1.0 + 4.0) + fabs(gy) * t;
    xmax = 0.05 + vmax * t;
    tol_v = n * 0.5 * ulp_below(vmax) + 8.0 * ldexp(1.0, -24) * fabs(gy) * t;
    tol_x = n * (0.5 * ulp_below(xmax) + 2.0 * ulp_below(2.0 * vmax * h)) + t * tol_v +
            ldexp(1.0, -23) * vmax * t;

    for (i = 0; i < 6; ++i) {
        double gi = (i % 3) == 1 ? gy : 0.0;
        double x_cont = (double)pos0[i] + (double)v0[i] * t + gi * t * t / 2.0;
        double x_ref = k_integrators[which] == CLOTH_INTEGRATOR_TRAPEZOID
                           ? x_cont
                           : x_cont + gi * h * t / 2.0;
        double v_ref = (double)v0[i] + gi * t;
        CHECK_NEAR(pos[i], x_ref, tol_x);
        CHECK_NEAR(vel[i], v_ref, tol_v);
        if (fabs((double)pos[i] - x_ref) > worst_x)
            worst_x = fabs((double)pos[i] - x_ref);
        if (fabs((double)vel[i] - v_ref) > worst_v)
            worst_v = fabs((double)vel[i] - v_ref);
    }
    {
        double cont = (double)pos0[1] + (double)v0[1] * t + gy * t * t / 2.0;
        double dev = (double)pos[1] - cont;
        if (k_integrators[which] != CLOTH_INTEGRATOR_TRAPEZOID)
            /* the lead is far outside the rounding budget, so the check above
             * really tells the first-order formula from the exact one */
            CHECK(fabs(dev) > 4.0 * tol_x);
        printf("B %-14s t %.4f s: y %.9g, continuous %.9g, deviation %.4g (g h t/2 = %.4g); "
               "worst |x - ref| %.3g (tol %.3g), |v - ref| %.3g (tol %.3g)\n",
               k_names[which], t, (double)pos[1], cont, dev, gy * h * t / 2.0, worst_x, tol_x,
               worst_v, tol_v);
    }
    cloth_destroy(cloth);
}

/* ---- Part C: velocity damping is exp(-c t) whatever the substeps --------- */

static void damped_run(int which, uint32_t substeps, float rate, float dt, uint32_t frames,
                       float vel_out[6], float pos_out[6], float pos0_out[6])
{
    const float zero_g[3] = {0.0f, 0.0f, 0.0f};
    const float v0[6] = {1.0f, 2.0f, 0.0f, 1.0f, 2.0f, 0.0f};
    cloth_t *cloth = make_free_pair(0.05f, 0.01f);
    uint32_t f;
    int i;
    for (i = 0; i < 6; ++i)
        vel_out[i] = pos_out[i] = pos0_out[i] = 0.0f;
    if (!cloth)
        return;
    CHECK_OK(cloth_set_gravity(cloth, zero_g));
    CHECK_OK(cloth_set_damping(cloth, rate));
    CHECK_OK(cloth_set_substeps(cloth, substeps));
    CHECK_OK(cloth_set_integrator(cloth, k_integrators[which]));
    CHECK_OK(cloth_set_velocities(cloth, v0, 0));
    CHECK_OK(cloth_get_positions(cloth, pos0_out, 0));
    for (f = 0; f < frames; ++f)
        CHECK_OK(cloth_step(cloth, dt));
    CHECK_OK(cloth_get_velocities(cloth, vel_out, 0));
    CHECK_OK(cloth_get_positions(cloth, pos_out, 0));
    cloth_destroy(cloth);
}

static void part_c(void)
{
    const float rate = 3.0f, dt = 1.0f / 60.0f;
    const uint32_t frames = 30; /* t = 0.5 s, exp(-c t) = 0.223 */
    const uint32_t sub_counts[2] = {1, 16};
    int which, s, i;
    for (which = 0; which < 3; ++which) {
        double speed[2];
        for (s = 0; s < 2; ++s) {
            float vel[6], pos[6], pos0[6];
            uint32_t S = sub_counts[s];
            double h = (double)(dt / (float)S), n = (double)S * (double)frames, t = n * h;
            double e = exp(-(double)rate * h), expect = exp(-(double)rate * t);
            double tol_rel, disp_rel_tol, sum = 0.0, disp_ref_factor;
            uint32_t k;
            damped_run(which, S, rate, dt, frames, vel, pos, pos0);
            /*
             * Euler and trapezoid multiply the velocity by fl(exp(-c h)) once
             * per substep: a systematic relative error of <= 2^-24 (a
             * correctly rounded or 1-ulp exp) plus <= 2^-24 per multiply, so
             * <= 2 n 2^-24 ~ 6e-5 for n = 480; 2e-4 leaves margin. Verlet
             * rebuilds v from (x' - x) / h each substep, so position rounding
             * (ulp(|x| < 1) / 2 <= 3e-8 m, random sign) enters v as noise of
             * up to 3e-8 / h per substep; its random walk over 480 substeps
             * is about 6e-4 m/s rms at |v| ~ 0.5 m/s (1e-3 relative), so
             * Verlet gets 3e-3 (3 sigma). A substep-dependent law such as
             * v *= 1 - c h would be 3.8 % off at 1 substep.
             */
            tol_rel = k_integrators[which] == CLOTH_INTEGRATOR_VERLET ? 3e-3 : 2e-4;
            for (i = 0; i < 6; ++i)
                CHECK_NEAR(vel[i], (i % 3 == 0 ? 1.0 : i % 3 == 1 ? 2.0 : 0.0) * expect,
                           tol_rel * 2.0 * expect + 1e-7);
            speed[s] = sqrt((double)vel[0] * (double)vel[0] + (double)vel[1] * (double)vel[1] +
                            (double)vel[2] * (double)vel[2]);
            /*
             * The distance travelled follows from the documented updates:
             * Euler and Verlet: x_n - x_0 = h v0 sum_{k=1..n} e^k,
             * trapezoid:        x_n - x_0 = h v0 (1 + e)/2 sum_{k=0..n-1} e^k.
             * Same rounding budget as above (relative to the distance).
             */
            for (k = 0; k < (uint32_t)n; ++k)
                sum += pow(e, (double)k);
            disp_ref_factor = k_integrators[which] == CLOTH_INTEGRATOR_TRAPEZOID
                                  ? h * (1.0 + e) / 2.0 * sum
                                  : h * e * sum;
            disp_rel_tol = k_integrators[which] == CLOTH_INTEGRATOR_VERLET ? 3e-3 : 2e-4;
            for (i = 0; i < 6; ++i) {
                double v0i = i % 3 == 0 ? 1.0 : i % 3 == 1 ? 2.0 : 0.0;
                CHECK_NEAR((double)pos[i] - (double)pos0[i], v0i * disp_ref_factor,
                           disp_rel_tol * 2.0 * disp_ref_factor + 1e-6);
            }
            printf("C %-14s substeps %2u: |v|/|v0| = %.7f, exp(-c t) = %.7f (rel err %.2g); "
                   "distance/|v0| %.7f, predicted %.7f\n",
                   k_names[which], (unsigned)S, speed[s] / sqrt(5.0), expect,
                   speed[s] / sqrt(5.0) / expect - 1.0,
                   ((double)pos[1] - (double)pos0[1]) / 2.0, disp_ref_factor);
        }
        /* independent of the substep count */
        CHECK_NEAR(speed[0] / speed[1], 1.0,
                   k_integrators[which] == CLOTH_INTEGRATOR_VERLET ? 6e-3 : 4e-4);
    }
}

int main(void)
{
    part_a();
    /*
     * Part B runs Euler and trapezoid only. Verlet keeps its state in velocity
     * form and may rebuild v' = (x' - x) / h each substep, which turns the
     * position rounding (ulp(3 m) / 2 = 1.2e-7 m) into velocity noise of up to
     * 1.2e-7 / h = 1.2e-4 m/s per substep at h = 1/960 s; its worst case over
     * 960 substeps is larger than the g h t / 2 signal. Part A checks Verlet's
     * free fall exactly instead, where no rounding happens.
     */
    part_b_case(0);
    part_b_case(1);
    part_c();
    return test_finish("test_freefall");
}
