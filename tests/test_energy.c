/*
 * Energy behaviour of the integrators on a single-spring oscillator.
 *
 * Same setup as test_oscillation: 1 x 2 grid, particle 0 pinned, no gravity,
 * particle 1 moving along the spring axis with u = l - L0, K = k / L0,
 * w^2 = K / m, energy E = m v^2 / 2 + K u^2 / 2. One substep per step
 * (dt = h, w h = 0.02), 10,000 substeps (~32 periods).
 *
 * Every documented update (clothsim.h, cloth_set_integrator) is a linear map
 * M of the state (u, v); with complex eigenvalues r exp(+-i theta), r^2 =
 * det M, any quadratic form of the state, E included, is exactly
 *   E_n = det^n (A + B cos(2 n theta + phi)).
 * So the ratio of E averaged over one discrete period (N_w = round(2 pi /
 * theta) samples) at the end and at the start is det^D (D the gap between
 * the windows), up to the window residual: in double precision on the same
 * maps it is <= 1.6e-4 for every case here (largest with velocity damping,
 * where det^n varies 17 % across a window). Float rounding of the state is
 * ~1e-7 relative per substep for Euler and trapezoid, a random walk of ~1e-5
 * over 10,000 substeps. Verlet may rebuild v' = (x' - x) / h every substep,
 * turning a position rounding of ulp(5 mm) / 2 = 2.3e-10 m into a velocity
 * error of 1.2e-6 m/s against an amplitude w A = 0.5 m/s: relative energy
 * kicks of <= 4.7e-6 of random sign, a random walk of ~2e-4 (rms) over
 * 10,000 substeps. Tolerance on the ratio: 1e-3 relative (5 sigma of that).
 *
 * det for each case (e = exp(-c h), b = w^2 h beta):
 *   symplectic Euler:            e (1 - b)          -> 1 undamped
 *   Verlet (velocity form):      e - b              -> 1 undamped
 *   trapezoid:                   e (1 - b + q / 2)  -> 1 + (w h)^2 / 2 undamped,
 *                                                      as the header documents
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N_SUBSTEPS 10000u

static const double k_pi = 3.14159265358979323846;

typedef struct osc_case {
    cloth_integrator kind;
    const char *name;
    float c;    /* velocity damping, 1/s */
    float beta; /* structural spring damping, s */
} osc_case;

typedef struct osc_params {
    float L0, m, k, dt;
    double K, w, h;
} osc_params;

static void params_init(osc_params *p)
{
    p->L0 = 0.05f;
    p->m = 0.01f;
    p->k = 5.0f;
    p->K = (double)p->k / (double)p->L0; /* 100 N/m */
    p->w = sqrt(p->K / (double)p->m);    /* 100 rad/s */
    p->dt = (float)(0.02 / p->w);        /* w h = 0.02 */
    p->h = (double)p->dt;
}

/* The documented update as a matrix on (u, v); returns det and theta. */
static void case_map(const osc_case *oc, const osc_params *p, double *det, double *theta)
{
    double h = p->h, w2 = p->w * p->w;
    double e = exp(-(double)oc->c * h), b = w2 * h * (double)oc->beta;
    double m00, m01, m10, m11, tr;
    switch (oc->kind) {
    case CLOTH_INTEGRATOR_TRAPEZOID:
        /* v' = e (v + h a), a = -w^2 (u + beta v); u' = u + (v + v') h / 2 */
        m10 = -w2 * h * e;
        m11 = e * (1.0 - b);
        m00 = 1.0 + h / 2.0 * m10;
        m01 = h / 2.0 * (1.0 + m11);
        break;
    case CLOTH_INTEGRATOR_VERLET:
        /* v' = e v + h a; u' = u + v' h */
        m10 = -w2 * h;
        m11 = e - b;
        m00 = 1.0 + h * m10;
        m01 = h * m11;
        break;
    default:
        /* symplectic Euler: v' = e (v + h a); u' = u + v' h */
        m10 = -w2 * h * e;
        m11 = e * (1.0 - b);
        m00 = 1.0 + h * m10;
        m01 = h * m11;
        break;
    }
    tr = m00 + m11;
    *det = m00 * m11 - m01 * m10;
    *theta = acos(tr / (2.0 * sqrt(*det)));
}

/* Run one case, storing E_0..E_N (and u, v) into the arrays. Returns 0 on failure. */
static int run_case(const osc_case *oc, const osc_params *p, double *E, double *U, double *V)
{
    const float zero_g[3] = {0.0f, 0.0f, 0.0f};
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    float pos[6], vel[6];
    uint32_t n;
    int ok = 1;

    cloth_grid_desc_init(&desc);
    desc.rows = 1;
    desc.cols = 2;
    desc.spacing = p->L0;
    desc.particle_mass = p->m;
    desc.origin[0] = -p->L0; /* the moving particle oscillates about 0 */
    desc.origin[1] = 0.0f;
    desc.origin[2] = 0.0f;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (!cloth)
        return 0;
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, p->k));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_SHEAR, 0.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_BEND, 0.0f));
    CHECK_OK(cloth_set_spring_damping(cloth, CLOTH_SPRING_STRUCTURAL, oc->beta));
    CHECK_OK(cloth_set_damping(cloth, oc->c));
    CHECK_OK(cloth_set_gravity(cloth, zero_g));
    CHECK_OK(cloth_set_substeps(cloth, 1));
    CHECK_OK(cloth_set_integrator(cloth, oc->kind));
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    pos[3] = 0.1f * p->L0; /* 5 mm stretch, at rest */
    CHECK_OK(cloth_set_positions(cloth, pos, 0));

    for (n = 0; n <= N_SUBSTEPS; ++n) {
        double dx, u, v;
        if (n > 0) {
            cloth_status s = cloth_step(cloth, p->dt);
            if (s != CLOTH_OK) {
                CHECK_OK(s);
                ok = 0;
                break;
            }
        }
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        CHECK_OK(cloth_get_velocities(cloth, vel, 0));
        dx = (double)pos[3] - (double)pos[0];
        u = fabs(dx) - (double)p->L0;
        v = (double)vel[3] - (double)vel[0];
        U[n] = u;
        V[n] = v;
        E[n] = 0.5 * (double)p->m * v * v + 0.5 * p->K * u * u;
    }
    cloth_destroy(cloth);
    return ok;
}

/* Average of E over [from, from + len). */
static double window_mean(const double *E, uint32_t from, uint32_t len)
{
    double s = 0.0;
    uint32_t i;
    for (i = 0; i < len; ++i)
        s += E[from + i];
    return s / (double)len;
}

/* Runs a case and returns end/start window ratio; also fills the prediction. */
static double ratio_case(const osc_case *oc, const osc_params *p, double *E, double *U, double *V,
                         double *predicted, uint32_t *nw_out)
{
    double det, theta, ratio;
    uint32_t nw, gap;
    case_map(oc, p, &det, &theta);
    nw = (uint32_t)floor(2.0 * k_pi / theta + 0.5);
    gap = N_SUBSTEPS + 1u - nw;
    *nw_out = nw;
    *predicted = pow(det, (double)gap);
    if (!run_case(oc, p, E, U, V))
        return -1.0;
    ratio = window_mean(E, gap, nw) / window_mean(E, 0, nw);
    return ratio;
}

int main(void)
{
    osc_params p;
    double *E = malloc(sizeof(double) * (N_SUBSTEPS + 1u));
    double *U = malloc(sizeof(double) * (N_SUBSTEPS + 1u));
    double *V = malloc(sizeof(double) * (N_SUBSTEPS + 1u));
    uint32_t i, n, nw;
    double ratio, pred;

    if (!E || !U || !V) {
        CHECK(0);
        free(E);
        free(U);
        free(V);
        return test_finish("test_energy");
    }
    params_init(&p);

    /* --- 1. symplectic Euler and Verlet, undamped: no drift ----------------- */
    {
        const osc_case cases[2] = {{CLOTH_INTEGRATOR_EXPLICIT_EULER, "explicit_euler", 0.0f, 0.0f},
                                   {CLOTH_INTEGRATOR_VERLET, "verlet", 0.0f, 0.0f}};
        for (i = 0; i < 2; ++i) {
            double wh = p.w * p.h, lo = 1e300, hi = 0.0, qdev = 0.0, q0;
            ratio = ratio_case(&cases[i], &p, E, U, V, &pred, &nw);
            if (ratio < 0.0)
                continue;
            /*
             * Both are the map v' = v - w^2 h u, u' = u + h v', which keeps
             * Q = v^2 + w^2 u^2 - h w^2 u v exactly constant. Since
             * |h w^2 u v| <= (w h / 2)(v^2 + w^2 u^2), E_n / E_0 stays in
             * [1 / (1 + w h / 2), 1 / (1 - w h / 2)] = [0.990, 1.010] for a
             * start at rest; allow 1e-3 more for float rounding (the Verlet
             * noise budget above).
             */
            q0 = V[0] * V[0] + p.w * p.w * U[0] * U[0] - p.h * p.w * p.w * U[0] * V[0];
            for (n = 0; n <= N_SUBSTEPS; ++n) {
                double r = E[n] / E[0];
                double q = V[n] * V[n] + p.w * p.w * U[n] * U[n] - p.h * p.w * p.w * U[n] * V[n];
                if (r < lo)
                    lo = r;
                if (r > hi)
                    hi = r;
                if (fabs(q / q0 - 1.0) > qdev)
                    qdev = fabs(q / q0 - 1.0);
            }
            CHECK(lo >= 1.0 / (1.0 + wh / 2.0) - 1e-3);
            CHECK(hi <= 1.0 / (1.0 - wh / 2.0) + 1e-3);
            /* the modified energy Q: only float rounding (see top) */
            CHECK(qdev < 1e-3);
            /* period-averaged energy: no drift */
            CHECK_NEAR(ratio, 1.0, 1e-3);
            printf("%-14s undamped: E/E0 in [%.6f, %.6f] (bound [%.6f, %.6f]), modified energy "
                   "drift %.2g, period-avg ratio end/start %.7f over %u substeps\n",
                   cases[i].name, lo, hi, 1.0 / (1.0 + wh / 2.0), 1.0 / (1.0 - wh / 2.0), qdev,
                   ratio, (unsigned)N_SUBSTEPS);
        }
    }

    /* --- 2. trapezoid, undamped: grows by 1 + (w h)^2 / 2 per substep -------- */
    {
        const osc_case oc = {CLOTH_INTEGRATOR_TRAPEZOID, "trapezoid", 0.0f, 0.0f};
        double factor = 1.0 + (p.w * p.h) * (p.w * p.h) / 2.0;
        ratio = ratio_case(&oc, &p, E, U, V, &pred, &nw);
        if (ratio >= 0.0) {
            uint32_t gap = N_SUBSTEPS + 1u - nw;
            /* the header's factor, raised to the gap (~e^1.94 = 6.94) */
            CHECK_NEAR(pred, pow(factor, (double)gap), 1e-12 * pred);
            CHECK_NEAR(ratio / pow(factor, (double)gap), 1.0, 1e-3);
            CHECK(ratio > 5.0);
            printf("trapezoid      undamped: period-avg energy ratio %.6f, (1 + (wh)^2/2)^%u = "
                   "%.6f (rel %+.3g), per-substep factor measured %.9f vs %.9f\n",
                   ratio, (unsigned)gap, pow(factor, (double)gap),
                   ratio / pow(factor, (double)gap) - 1.0, pow(ratio, 1.0 / (double)gap), factor);
        }
    }

    /* --- 3. trapezoid with spring damping beta >= h / 2: no growth ----------- */
    {
        const osc_case cases[2] = {
            {CLOTH_INTEGRATOR_TRAPEZOID, "trapezoid", 0.0f, 0.0f},
            {CLOTH_INTEGRATOR_TRAPEZOID, "trapezoid", 0.0f, 0.0f}};
        osc_case c2[2];
        c2[0] = cases[0];
        c2[1] = cases[1];
        c2[0].beta = p.dt / 2.0f; /* the limit: det = 1 exactly */
        c2[1].beta = p.dt * 2.0f; /* det = 1 - 3 (w h)^2 / 2 */
        for (i = 0; i < 2; ++i) {
            double maxr = 0.0;
            ratio = ratio_case(&c2[i], &p, E, U, V, &pred, &nw);
            if (ratio < 0.0)
                continue;
            for (n = 0; n <= N_SUBSTEPS; ++n)
                if (E[n] / E[0] > maxr)
                    maxr = E[n] / E[0];
            CHECK(ratio <= 1.0 + 1e-3);
            CHECK_NEAR(ratio / pred, 1.0, 1e-3);
            /* never above the start by more than the oscillating part B/A ~ w h */
            CHECK(maxr <= 1.0 + p.w * p.h);
            printf("trapezoid      beta = %.3g h: period-avg energy ratio %.6g, predicted %.6g "
                   "(rel %+.3g), max E/E0 %.6f\n",
                   (double)c2[i].beta / p.h, ratio, pred, ratio / pred - 1.0, maxr);
        }
    }

    /* --- 4. velocity damping: every integrator loses energy ----------------- */
    {
        /*
         * c = 3 /s is above the trapezoid's threshold ln(1 + (w h)^2 / 2) / h
         * = 1.0 /s, so all three lose energy: the per-substep factor is
         * exp(-c h) for Euler and Verlet and exp(-c h) (1 + (w h)^2 / 2) for
         * the trapezoid.
         */
        const osc_case cases[3] = {{CLOTH_INTEGRATOR_EXPLICIT_EULER, "explicit_euler", 3.0f, 0.0f},
                                   {CLOTH_INTEGRATOR_TRAPEZOID, "trapezoid", 3.0f, 0.0f},
                                   {CLOTH_INTEGRATOR_VERLET, "verlet", 3.0f, 0.0f}};
        for (i = 0; i < 3; ++i) {
            uint32_t w0;
            int monotone = 1;
            double prev;
            ratio = ratio_case(&cases[i], &p, E, U, V, &pred, &nw);
            if (ratio < 0.0)
                continue;
            CHECK(ratio < 1.0);
            CHECK_NEAR(ratio / pred, 1.0, 1e-3);
            /* each period's mean energy is below the previous one's */
            prev = window_mean(E, 0, nw);
            for (w0 = nw; w0 + nw <= N_SUBSTEPS + 1u; w0 += nw) {
                double cur = window_mean(E, w0, nw);
                if (!(cur < prev))
                    monotone = 0;
                prev = cur;
            }
            CHECK(monotone);
            printf("%-14s c = 3/s: period-avg energy ratio %.6g, predicted %.6g (rel %+.3g), "
                   "exp(-c t) = %.6g\n",
                   cases[i].name, ratio, pred, ratio / pred - 1.0,
                   exp(-3.0 * p.h * (double)(N_SUBSTEPS + 1u - nw)));
        }
    }

    free(E);
    free(U);
    free(V);
    return test_finish("test_energy");
}
