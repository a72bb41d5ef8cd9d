/*
 * The catenary: a closed-form check that needs no eye (issue 3).
 *
 * A one-particle-wide chain (a 1 x N grid, N = 41 particles, 40 links of
 * s = 0.025 m, length L = 1 m) hangs between two pins D = 0.6 m apart at the
 * same height. Solved with PBD at a high iteration count it is nearly
 * inextensible, and a perfectly flexible inextensible chain of length L
 * between two points at equal height D apart hangs as the catenary
 *
 *     y = a cosh(x / a) + const,   with 2 a sinh(D / (2 a)) = L,
 *
 * whose sag (depth of the lowest point below the ends) is
 *
 *     sag = a (cosh(D / (2 a)) - 1).
 *
 * The test solves the length equation for a by bisection, lets the chain
 * settle (velocity damping), and compares the measured sag, and the whole
 * shape, with it.
 *
 * The chain starts as a V with every link at rest length (cloth_set_positions),
 * pins at both ends. Bend constraints are switched off: the catenary is the
 * shape of a chain with no bending stiffness.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdio.h>

#define N 41u
#define LINKS (N - 1u)
#define SPACING 0.025f
#define SPAN 0.6

/* a with 2 a sinh(D / (2 a)) = L: the left side falls from +inf (a -> 0) to
 * D (a -> inf) as a grows, so bisection on [1e-3, 1e3] finds it. */
static double catenary_a(double span, double length)
{
    double lo = 1e-3, hi = 1e3;
    for (int k = 0; k < 200; ++k) {
        double mid = 0.5 * (lo + hi);
        if (2.0 * mid * sinh(span / (2.0 * mid)) > length) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return 0.5 * (lo + hi);
}

/*
 * The discrete chain's own equilibrium, to size the discretisation error: N
 * equal masses, equal links, pinned ends. The horizontal tension H is the
 * same in every link and the vertical component changes by m g at each free
 * particle, so by symmetry link k (0-based) has slope tan(theta_k) =
 * (LINKS / 2 - k - 1/2) m g / H, i.e. tan(theta_k) = (LINKS / 2 - k - 1/2) / c
 * for one unknown c, fixed by the span: sum_k s cos(theta_k) = D. Returns the sag.
 */
static double discrete_sag(double span)
{
    double lo = 1e-6, hi = 1e6, c = 1.0;
    for (int it = 0; it < 200; ++it) {
        c = 0.5 * (lo + hi);
        double width = 0.0;
        for (uint32_t k = 0; k < LINKS; ++k) {
            double t = ((double)LINKS / 2.0 - (double)k - 0.5) / c;
            width += (double)SPACING / sqrt(1.0 + t * t);
        }
        if (width > span) {
            hi = c; /* too flat: less horizontal tension */
        } else {
            lo = c;
        }
    }
    double sag = 0.0;
    for (uint32_t k = 0; k < LINKS / 2u; ++k) {
        double t = ((double)LINKS / 2.0 - (double)k - 0.5) / c;
        sag += (double)SPACING * t / sqrt(1.0 + t * t);
    }
    return sag;
}

int main(void)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    float pos[3 * N], vel[3 * N];
    const double L = (double)LINKS * (double)SPACING;
    const float dt = 1.0f / 60.0f;

    cloth_grid_desc_init(&desc);
    desc.rows = 1;
    desc.cols = N;
    desc.spacing = SPACING;
    CHECK_OK(cloth_create_grid(&desc, &cloth));
    if (cloth == NULL) {
        return test_finish("test_catenary");
    }
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_PBD));
    CHECK_OK(cloth_set_constraint_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 1.0f));
    CHECK_OK(cloth_set_constraint_stiffness(cloth, CLOTH_SPRING_BEND, 0.0f));
    CHECK_OK(cloth_set_iterations(cloth, 200u));
    CHECK_OK(cloth_set_substeps(cloth, 8u));
    CHECK_OK(cloth_set_damping(cloth, 2.0f));

    /* a V of rest-length links from (-D/2, 0) down to the middle and up to (D/2, 0) */
    const double cos_t = SPAN / L, sin_t = sqrt(1.0 - cos_t * cos_t);
    for (uint32_t i = 0; i < N; ++i) {
        double j = (double)(i <= LINKS / 2u ? i : LINKS - i); /* links from the nearer end */
        double x = i <= LINKS / 2u ? -SPAN / 2.0 + j * (double)SPACING * cos_t
                                   : SPAN / 2.0 - j * (double)SPACING * cos_t;
        pos[3 * i] = (float)x;
        pos[3 * i + 1] = (float)(-j * (double)SPACING * sin_t);
        pos[3 * i + 2] = 0.0f;
    }
    CHECK_OK(cloth_set_positions(cloth, pos, 0));
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_pin(cloth, N - 1u, NULL));

    /* 8 s: damping 2 /s takes the swing down by exp(-8) */
    for (uint32_t f = 0; f < 480u; ++f) {
        cloth_status s = cloth_step(cloth, dt);
        if (s != CLOTH_OK) {
            CHECK_OK(s);
            break;
        }
    }
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK_OK(cloth_get_velocities(cloth, vel, 0));

    double length = 0.0, lowest = 0.0, max_speed = 0.0, off_plane = 0.0;
    for (uint32_t i = 0; i < N; ++i) {
        if (i + 1u < N) {
            double dx = (double)pos[3 * (i + 1)] - (double)pos[3 * i];
            double dy = (double)pos[3 * (i + 1) + 1] - (double)pos[3 * i + 1];
            double dz = (double)pos[3 * (i + 1) + 2] - (double)pos[3 * i + 2];
            length += sqrt(dx * dx + dy * dy + dz * dz);
        }
        if ((double)pos[3 * i + 1] < lowest) {
            lowest = (double)pos[3 * i + 1];
        }
        double sp = sqrt((double)vel[3 * i] * (double)vel[3 * i] + (double)vel[3 * i + 1] * (double)vel[3 * i + 1] +
                         (double)vel[3 * i + 2] * (double)vel[3 * i + 2]);
        max_speed = sp > max_speed ? sp : max_speed;
        off_plane = fmax(off_plane, fabs((double)pos[3 * i + 2]));
    }
    const double a = catenary_a(SPAN, L);
    const double sag_exact = a * (cosh(SPAN / (2.0 * a)) - 1.0);
    const double sag_discrete = discrete_sag(SPAN);
    const double sag = -lowest; /* the ends are at y = 0 */
    const double a_measured = catenary_a(SPAN, length);
    const double sag_measured_length = a_measured * (cosh(SPAN / (2.0 * a_measured)) - 1.0);

    /* the whole shape: every particle against the catenary through the ends */
    double shape_err = 0.0;
    for (uint32_t i = 0; i < N; ++i) {
        double x = (double)pos[3 * i];
        double y = a * (cosh(x / a) - cosh(SPAN / (2.0 * a)));
        shape_err = fmax(shape_err, fabs((double)pos[3 * i + 1] - y));
    }

    printf("catenary: span %.3f m, chain length %.3f m (measured %.5f m, stretch %.3f %%), a = %.5f m\n", SPAN, L,
           length, 100.0 * (length / L - 1.0), a);
    printf("catenary: sag measured %.5f m, catenary %.5f m (%.3f %% off), discrete 40-link chain %.5f m "
           "(discretisation %.3f %%), catenary of the measured length %.5f m\n",
           sag, sag_exact, 100.0 * (sag / sag_exact - 1.0), sag_discrete, 100.0 * (sag_discrete / sag_exact - 1.0),
           sag_measured_length);
    printf("catenary: largest distance of a particle from the catenary %.3e m; residual speed %.3e m/s; "
           "off the plane %.2e m\n",
           shape_err, max_speed, off_plane);

    /* settled */
    CHECK(max_speed < 1e-2);
    /* nearly inextensible: 200 Jacobi passes per substep keep the stretch below 0.5 % */
    CHECK(length >= L * (1.0 - 1e-4));
    CHECK(length <= L * 1.005);
    /* the reference itself: the discrete chain's sag lies within 0.5 % of the
     * catenary's (the link slopes are the catenary's slopes at the links'
     * midpoints, a midpoint rule with 40 steps) */
    CHECK_NEAR(sag_discrete, sag_exact, 0.005 * sag_exact);
    /*
     * Tolerance 1.5 % of the sag: 0.5 % for the discretisation (above) and
     * 1 % for the residual stretch (sag grows with length: here
     * d(sag)/dL = 0.6, so a 0.5 % stretch, the most allowed above, deepens
     * the sag by 0.005 * 0.6 / 0.363 = 0.8 %) and for the last of the swing. A chain that stretched like a soft spring, or a bending
     * stiffness that held the chain straighter, is off by far more.
     */
    CHECK_NEAR(sag, sag_exact, 0.015 * sag_exact);
    /* the same bound on the shape, in metres: 1.5 % of the sag */
    CHECK(shape_err <= 0.015 * sag_exact);
    /* symmetric, and in its plane */
    CHECK(off_plane < 1e-6);
    CHECK_NEAR(pos[3 * (N / 2u)], 0.0, 1e-4);
    cloth_destroy(cloth);
    return test_finish("test_catenary");
}
