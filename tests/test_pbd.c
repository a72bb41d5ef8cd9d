/*
 * Position-based dynamics with Jacobi strain limiting (seed 004,
 * CLOTH_INTEGRATOR_PBD). The documented update (clothsim.h):
 *
 *   predict   v' = (v + a h) exp(-c h),  x* = x + v' h   (a without springs)
 *   project   `iterations` Jacobi passes: every spring proposes moving its
 *             ends toward its rest length (split by inverse mass, scaled by
 *             the constraint stiffness); every particle moves to
 *             (sum of proposals + a_J x) / (n + a_J)
 *   velocity  v = (x_final - x) / h
 *
 *  A. More iterations, less stretch: the largest structural strain of a cloth
 *     hanging from two corners strictly decreases from 2 to 8 to 32
 *     iterations (issue 3).
 *  B. Constraint stiffness 0 for every family switches every constraint off:
 *     PBD is then a free fall. A cloth at rest without gravity stays where it
 *     is; with gravity its centre of mass falls as 0.5 g t^2.
 *  C. cloth_set_jacobi_weight(), cloth_set_constraint_stiffness() and
 *     cloth_set_iterations() validate and keep the old value on refusal; a
 *     larger Jacobi weight is more sluggish (more stretch); the force
 *     stiffness k is not used.
 *  D. Constraint stiffness 1 and many iterations: a pinned 2-particle
 *     pendulum keeps its length while it swings.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 16u
#define COLS 15u
#define NP (ROWS * COLS)
#define SPACING 0.05f

static cloth_t *make_grid(float ox, float oy, float oz)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    cloth_grid_desc_init(&desc);
    desc.rows = ROWS;
    desc.cols = COLS;
    desc.spacing = SPACING;
    desc.origin[0] = ox;
    desc.origin[1] = oy;
    desc.origin[2] = oz;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth != NULL) {
        CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_PBD));
    }
    return cloth;
}

/* Largest (l - L0) / L0 over the structural springs. */
static double max_structural_strain(const cloth_t *cloth)
{
    const uint32_t n = cloth_spring_count(cloth);
    uint32_t *pairs = malloc((size_t)n * 2u * sizeof *pairs);
    float *rest = malloc((size_t)n * sizeof *rest);
    cloth_spring_type *types = malloc((size_t)n * sizeof *types);
    float *pos = malloc((size_t)cloth_particle_count(cloth) * 3u * sizeof *pos);
    double worst = -HUGE_VAL;
    if (pairs == NULL || rest == NULL || types == NULL || pos == NULL) {
        CHECK(0 /* out of memory */);
    } else {
        CHECK_OK(cloth_get_springs(cloth, pairs, rest, types));
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        for (uint32_t s = 0; s < n; ++s) {
            if (types[s] != CLOTH_SPRING_STRUCTURAL) {
                continue;
            }
            const uint32_t i = pairs[2 * s], j = pairs[2 * s + 1];
            double dx = (double)pos[3 * j] - (double)pos[3 * i], dy = (double)pos[3 * j + 1] - (double)pos[3 * i + 1],
                   dz = (double)pos[3 * j + 2] - (double)pos[3 * i + 2];
            double strain = (sqrt(dx * dx + dy * dy + dz * dz) - (double)rest[s]) / (double)rest[s];
            if (strain > worst || !(strain == strain)) {
                worst = strain == strain ? strain : HUGE_VAL;
            }
        }
    }
    free(pairs);
    free(rest);
    free(types);
    free(pos);
    return worst;
}

/* A cloth hanging from two corners for 2 s with the given settings. */
static double hanging_strain(uint32_t iterations, float jacobi_weight)
{
    double strain = HUGE_VAL;
    cloth_t *cloth = make_grid(0.0f, 1.0f, 0.0f);
    if (cloth == NULL) {
        return strain;
    }
    CHECK_OK(cloth_set_iterations(cloth, iterations));
    CHECK_OK(cloth_set_jacobi_weight(cloth, jacobi_weight));
    CHECK_OK(cloth_set_damping(cloth, 1.0f));
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_pin(cloth, COLS - 1u, NULL));
    for (uint32_t f = 0; f < 120u; ++f) {
        cloth_status s = cloth_step(cloth, 1.0f / 60.0f);
        if (s != CLOTH_OK) {
            CHECK_OK(s);
            break;
        }
    }
    strain = max_structural_strain(cloth);
    cloth_destroy(cloth);
    return strain;
}

/* ---- A ------------------------------------------------------------------ */

static void strain_vs_iterations(void)
{
    const double s2 = hanging_strain(2u, 0.2f), s8 = hanging_strain(8u, 0.2f), s32 = hanging_strain(32u, 0.2f);
    printf("A: largest structural strain hanging from two corners: %.5f (2 iterations), %.5f (8), %.5f (32)\n",
           s2, s8, s32);
    CHECK(isfinite(s2) && isfinite(s8) && isfinite(s32));
    CHECK(s2 > s8);
    CHECK(s8 > s32);
    CHECK(s32 >= -1e-6); /* a hanging cloth is stretched, not compressed, at its worst link */
}

/* ---- B ------------------------------------------------------------------ */

static void constraints_off(cloth_t *cloth)
{
    for (int t = 0; t < 3; ++t) {
        CHECK_OK(cloth_set_constraint_stiffness(cloth, (cloth_spring_type)t, 0.0f));
    }
}

static void at_rest_stays(float ox, float oz)
{
    static float before[3 * NP], after[3 * NP];
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    double moved = 0.0;
    cloth_t *cloth = make_grid(ox, 1.0f, oz);
    if (cloth == NULL) {
        return;
    }
    constraints_off(cloth);
    CHECK_OK(cloth_set_gravity(cloth, zero));
    CHECK_OK(cloth_get_positions(cloth, before, 0));
    for (uint32_t f = 0; f < 30u; ++f) {
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    }
    CHECK_OK(cloth_get_positions(cloth, after, 0));
    for (uint32_t k = 0; k < 3 * NP; ++k) {
        double d = fabs((double)after[k] - (double)before[k]);
        if (d > moved || !(d == d)) {
            moved = d == d ? d : HUGE_VAL;
        }
    }
    /*
     * No gravity, no velocity, no constraint: the documented update gives
     * x* = x and x' = (0 + a_J x) / (0 + a_J) = x, so nothing moves. Allow
     * one ulp of the coordinates (9.5e-7 m below 16 m) for a division that
     * rounds; a rounding that is kept as a velocity (v = (x' - x) / h)
     * instead grows every substep.
     */
    printf("B: constraints off, no gravity, at rest near (%g, 1, %g) m: largest drift in 0.5 s %.3e m\n",
           (double)ox, (double)oz, moved);
    CHECK(moved <= 1e-6);
    cloth_destroy(cloth);
}

static void free_fall(void)
{
    static float pos[3 * NP];
    const uint32_t frames = 30u, substeps = 16u;
    const double h = 1.0 / 60.0 / (double)substeps, t = (double)frames / 60.0, n = (double)frames * (double)substeps;
    double x0 = 0.0, y0 = 0.0, z0 = 0.0, cx = 0.0, cy = 0.0, cz = 0.0;
    cloth_t *cloth = make_grid(0.0f, 1.0f, 0.0f);
    if (cloth == NULL) {
        return;
    }
    constraints_off(cloth);
    CHECK_OK(cloth_set_damping(cloth, 0.0f));
    CHECK_OK(cloth_set_substeps(cloth, substeps));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    for (uint32_t i = 0; i < NP; ++i) {
        x0 += (double)pos[3 * i] / NP;
        y0 += (double)pos[3 * i + 1] / NP;
        z0 += (double)pos[3 * i + 2] / NP;
    }
    for (uint32_t f = 0; f < frames; ++f) {
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    }
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    for (uint32_t i = 0; i < NP; ++i) {
        cx += (double)pos[3 * i] / NP;
        cy += (double)pos[3 * i + 1] / NP;
        cz += (double)pos[3 * i + 2] / NP;
    }
    const double exact = y0 - 0.5 * 9.81 * t * t;
    /*
     * The prediction is symplectic Euler, which leads 0.5 g t^2 by g h t / 2
     * (2.55 mm). v = (x' - x) / h keeps the rounding of x' (<= ulp(y) / 2 =
     * 3e-8 m for 0.5 <= y < 1) as a velocity error; when it keeps its sign,
     * as in a free fall, that adds up to n (n + 1) ulp / 4 = 3.4e-3 m after
     * n = 480 substeps (see test_integrator_switch). Tolerance: their sum
     * plus 1e-4 m.
     */
    const double tol = 0.5 * 9.81 * h * t + n * (n + 1.0) * 5.9604645e-8 / 4.0 + 1e-4;
    printf("B: constraints off, free fall 0.5 s: centre of mass y %.7f m, 0.5 g t^2 gives %.7f m "
           "(difference %.3e m, tolerance %.3e m); sideways drift x %.2e z %.2e m\n",
           cy, exact, cy - exact, tol, cx - x0, cz - z0);
    CHECK_NEAR(cy, exact, tol);
    CHECK_NEAR(cx, x0, 1e-6);
    CHECK_NEAR(cz, z0, 1e-6);
    cloth_destroy(cloth);
}

/* Far from the origin a position's ulp is large (7.6e-6 m at y = 100 m);
 * the velocity must come from the displacement, not from x' - x, or a free
 * fall loses speed (it lost 28 % at y = 100 m before the fix). The velocity
 * after n substeps is exactly n g h up to rounding of the sum: 1e-4 relative. */
static void free_fall_far(void)
{
    static float vel[3 * NP];
    const uint32_t frames = 30u;
    cloth_t *cloth = make_grid(0.0f, 100.0f, 0.0f);
    if (cloth == NULL) {
        return;
    }
    constraints_off(cloth);
    CHECK_OK(cloth_set_damping(cloth, 0.0f));
    for (uint32_t f = 0; f < frames; ++f) {
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    }
    CHECK_OK(cloth_get_velocities(cloth, vel, 0));
    double worst = 0.0;
    const double expected = -9.81 * (double)frames / 60.0;
    for (uint32_t i = 0; i < NP; ++i) {
        worst = fmax(worst, fabs((double)vel[3 * i + 1] / expected - 1.0));
    }
    printf("B2: free fall at y = 100 m, 0.5 s: worst relative speed error %.2e\n", worst);
    CHECK(worst < 1e-4);
    cloth_destroy(cloth);
}

/* ---- C ------------------------------------------------------------------ */

/* Positions after 20 frames of a two-corner hang, after `setup`. */
typedef void (*setup_fn)(cloth_t *cloth);

static void run_hang(setup_fn setup, float *out)
{
    cloth_t *cloth = make_grid(0.0f, 1.0f, 0.0f);
    if (cloth == NULL) {
        return;
    }
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_pin(cloth, COLS - 1u, NULL));
    setup(cloth);
    for (uint32_t f = 0; f < 20u; ++f) {
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    }
    CHECK_OK(cloth_get_positions(cloth, out, 0));
    cloth_destroy(cloth);
}

static void setup_weight_half(cloth_t *cloth)
{
    CHECK_OK(cloth_set_jacobi_weight(cloth, 0.5f));
}

static void setup_weight_half_then_refused(cloth_t *cloth)
{
    CHECK_OK(cloth_set_jacobi_weight(cloth, 0.5f));
    CHECK_STATUS(cloth_set_jacobi_weight(cloth, -0.1f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_jacobi_weight(cloth, 100.5f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_jacobi_weight(cloth, NAN), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_jacobi_weight(cloth, INFINITY), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_jacobi_weight(cloth, -INFINITY), CLOTH_ERR_INVALID_ARGUMENT);
}

static void setup_default(cloth_t *cloth)
{
    (void)cloth;
}

static void setup_bend_half(cloth_t *cloth)
{
    CHECK_OK(cloth_set_constraint_stiffness(cloth, CLOTH_SPRING_BEND, 0.5f));
}

static void setup_bend_half_then_refused(cloth_t *cloth)
{
    CHECK_OK(cloth_set_constraint_stiffness(cloth, CLOTH_SPRING_BEND, 0.5f));
    CHECK_STATUS(cloth_set_constraint_stiffness(cloth, CLOTH_SPRING_BEND, -0.01f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_constraint_stiffness(cloth, CLOTH_SPRING_BEND, 1.01f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_constraint_stiffness(cloth, CLOTH_SPRING_BEND, NAN), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_constraint_stiffness(cloth, (cloth_spring_type)3, 0.5f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_constraint_stiffness(cloth, (cloth_spring_type)-1, 0.5f), CLOTH_ERR_INVALID_ARGUMENT);
}

static void setup_iterations_12_then_refused(cloth_t *cloth)
{
    CHECK_OK(cloth_set_iterations(cloth, 12u));
    CHECK_STATUS(cloth_set_iterations(cloth, 1025u), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_iterations(cloth, UINT32_MAX), CLOTH_ERR_INVALID_ARGUMENT);
}

static void setup_iterations_12(cloth_t *cloth)
{
    CHECK_OK(cloth_set_iterations(cloth, 12u));
}

static void setup_other_k(cloth_t *cloth)
{
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 7.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_SHEAR, 0.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_BEND, 123.0f));
}

static void parameters(void)
{
    static float a[3 * NP], b[3 * NP], c[3 * NP];
    cloth_t *cloth = make_grid(0.0f, 1.0f, 0.0f);
    if (cloth == NULL) {
        return;
    }
    /* the documented ranges, ends included */
    CHECK_OK(cloth_set_jacobi_weight(cloth, 0.0f));
    CHECK_OK(cloth_set_jacobi_weight(cloth, 100.0f));
    CHECK_OK(cloth_set_constraint_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 0.0f));
    CHECK_OK(cloth_set_constraint_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 1.0f));
    CHECK_OK(cloth_set_iterations(cloth, 1u));
    CHECK_OK(cloth_set_iterations(cloth, 1024u));
    CHECK_STATUS(cloth_set_jacobi_weight(NULL, 0.2f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_constraint_stiffness(NULL, CLOTH_SPRING_SHEAR, 0.5f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_iterations(NULL, 8u), CLOTH_ERR_INVALID_ARGUMENT);
    cloth_destroy(cloth);

    /* a refused value leaves the old one in place: same bits as without the refused calls */
    run_hang(setup_weight_half, a);
    run_hang(setup_weight_half_then_refused, b);
    run_hang(setup_default, c);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(memcmp(a, c, sizeof a) != 0); /* and the weight matters */
    run_hang(setup_bend_half, a);
    run_hang(setup_bend_half_then_refused, b);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(memcmp(a, c, sizeof a) != 0);
    run_hang(setup_iterations_12, a);
    run_hang(setup_iterations_12_then_refused, b);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(memcmp(a, c, sizeof a) != 0);
    /* "The force stiffness k is not used" */
    run_hang(setup_other_k, a);
    CHECK(memcmp(a, c, sizeof a) == 0);

    /* a larger Jacobi weight is more sluggish: more stretch at 8 iterations */
    const double s_default = hanging_strain(8u, 0.2f), s_heavy = hanging_strain(8u, 5.0f);
    printf("C: largest strain at 8 iterations: %.5f with Jacobi weight 0.2, %.5f with 5\n", s_default, s_heavy);
    CHECK(s_heavy > s_default);
}

/* ---- D ------------------------------------------------------------------ */

static void pendulum(void)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    float pos[6];
    const float L = 0.5f, dt = 1.0f / 60.0f;
    double worst = 0.0, lowest = 0.0, t_bottom = -1.0;
    cloth_grid_desc_init(&desc);
    desc.rows = 1;
    desc.cols = 2;
    desc.spacing = L; /* horizontal along +x, released from rest */
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth == NULL) {
        return;
    }
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_PBD));
    CHECK_OK(cloth_set_constraint_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 1.0f));
    CHECK_OK(cloth_set_iterations(cloth, 64u));
    CHECK_OK(cloth_set_damping(cloth, 0.0f));
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    for (uint32_t f = 0; f < 120u; ++f) { /* 2 s, more than a period */
        CHECK_OK(cloth_step(cloth, dt));
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        double dx = (double)pos[3] - (double)pos[0], dy = (double)pos[4] - (double)pos[1],
               dz = (double)pos[5] - (double)pos[2];
        double e = fabs(sqrt(dx * dx + dy * dy + dz * dz) - (double)L);
        if (e > worst || !(e == e)) {
            worst = e == e ? e : HUGE_VAL;
        }
        if ((double)pos[4] < lowest) {
            lowest = (double)pos[4];
        }
        if (t_bottom < 0.0 && pos[3] <= 0.0f) { /* first crossing below the pin */
            t_bottom = (double)(f + 1u) * (double)dt;
        }
    }
    /*
     * One constraint with a pinned end: a Jacobi pass moves the bob all the
     * way to the rest length, and the weight a_J leaves a fraction
     * a_J / (1 + a_J) = 1/6 of the error per pass: (1/6)^64 is nothing. What
     * remains is float rounding of coordinates below 1 m (ulp 6e-8 m):
     * tolerance 1e-6 of the length (5e-7 m).
     */
    /* A 90-degree pendulum reaches the bottom after T/4 = sqrt(L/g) K(1/sqrt2) */
    const double quarter = sqrt((double)L / 9.81) * 1.8540747;
    printf("D: 2-particle PBD pendulum, L = %.2f m, 64 iterations: largest length error %.3e m over 2 s; "
           "lowest point %.5f m; first passes below the pin at %.4f s (exact T/4 = %.4f s)\n",
           (double)L, worst, lowest, t_bottom, quarter);
    CHECK(worst <= 1e-6 * (double)L);
    CHECK(lowest <= -0.99 * (double)L); /* it really swings through the bottom */
    /* within 2 frames (33 ms, 8 %) of T/4: first order in h plus frame
     * granularity; a wrong gravity or a pendulum stuck by the constraint
     * would miss by far more */
    CHECK(t_bottom > 0.0);
    CHECK_NEAR(t_bottom, quarter, 2.0 * (double)dt);
    cloth_destroy(cloth);
}

int main(void)
{
    strain_vs_iterations();
    at_rest_stays(0.0f, 0.0f);
    at_rest_stays(10.0f, 10.0f);
    free_fall();
    free_fall_far();
    parameters();
    pendulum();
    return test_finish("test_pbd");
}
