/*
 * A vertical hanging chain at rest: statics of the spring law.
 *
 * A 1 x N grid with u_axis = (0, -1, 0) is a chain hanging straight down from
 * particle 0, which is pinned. Only structural springs act (shear and bend
 * off). Spring law (clothsim.h, cloth_set_stiffness): T = k (l - L0) / L0.
 * At rest, link j (0-based from the top, between particles j and j + 1)
 * carries the weight of the N - 1 - j particles below it, so
 *
 *   l_j = L0 (1 + (N - 1 - j) m g / k).
 *
 * Neither damping changes that equilibrium (both act on velocities, zero at
 * rest), so the velocity damping is raised to settle quickly. Checked for the
 * three force-based integrators, each on its own fresh cloth.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdio.h>

#define CHAIN_N 8u

static const cloth_integrator k_integrators[3] = {
    CLOTH_INTEGRATOR_EXPLICIT_EULER, CLOTH_INTEGRATOR_TRAPEZOID, CLOTH_INTEGRATOR_VERLET};
static const char *const k_names[3] = {"explicit_euler", "trapezoid", "verlet"};

static void run_chain(int which)
{
    const float L0 = 0.05f, m = 0.01f, k = 4.0f, gmag = 9.81f;
    const float g[3] = {0.0f, -gmag, 0.0f};
    const float dt = 1.0f / 60.0f;
    const uint32_t frames = 60u * 30u; /* 30 simulated seconds */
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    float pos[3 * CHAIN_N], vel[3 * CHAIN_N];
    uint32_t f, j;
    double worst_rel = 0.0, max_speed = 0.0, max_lateral = 0.0;

    cloth_grid_desc_init(&desc);
    desc.rows = 1;
    desc.cols = CHAIN_N;
    desc.spacing = L0;
    desc.particle_mass = m;
    desc.origin[0] = 0.0f;
    desc.origin[1] = 0.0f;
    desc.origin[2] = 0.0f;
    desc.u_axis[0] = 0.0f;
    desc.u_axis[1] = -1.0f;
    desc.u_axis[2] = 0.0f;
    desc.v_axis[0] = 0.0f;
    desc.v_axis[1] = 0.0f;
    desc.v_axis[2] = 1.0f;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (!cloth)
        return;
    CHECK(cloth_particle_count(cloth) == CHAIN_N);
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, k));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_SHEAR, 0.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_BEND, 0.0f));
    CHECK_OK(cloth_set_gravity(cloth, g));
    /*
     * Velocity damping 2 /s: every mode's amplitude then decays at least as
     * exp(-t) (rate c / 2), so after 30 s the initial sag transient (~4 cm)
     * is below 1e-14 m. Spring damping stays at its default 1 ms, which the
     * trapezoid needs (h = 1/960 s <= 2 beta). Stability: w_max^2 <= (8 / (m s)) k
     * = 6.4e4 /s^2, so w_max^2 h (h + 2 beta) = 0.2 <= 4 and w_max^2 h beta = 0.07 <= 2.
     */
    CHECK_OK(cloth_set_damping(cloth, 2.0f));
    CHECK_OK(cloth_set_substeps(cloth, 16));
    CHECK_OK(cloth_set_integrator(cloth, k_integrators[which]));
    CHECK_OK(cloth_pin(cloth, 0, NULL));

    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    for (j = 0; j < CHAIN_N; ++j) /* starts straight down at spacing L0 */
        CHECK_NEAR(pos[3 * j + 1], -(double)j * (double)L0, 1e-6);

    for (f = 0; f < frames; ++f) {
        cloth_status s = cloth_step(cloth, dt);
        if (s != CLOTH_OK) {
            CHECK_OK(s);
            break;
        }
    }
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK_OK(cloth_get_velocities(cloth, vel, 0));

    /* the pin holds exactly */
    CHECK(pos[0] == 0.0f && pos[1] == 0.0f && pos[2] == 0.0f);

    for (j = 0; j < CHAIN_N; ++j) {
        double sp = sqrt((double)vel[3 * j] * (double)vel[3 * j] +
                         (double)vel[3 * j + 1] * (double)vel[3 * j + 1] +
                         (double)vel[3 * j + 2] * (double)vel[3 * j + 2]);
        double lat = fabs((double)pos[3 * j]) + fabs((double)pos[3 * j + 2]);
        if (sp > max_speed)
            max_speed = sp;
        if (lat > max_lateral)
            max_lateral = lat;
    }
    /*
     * Settled: the sag transient started at ~1 m/s and has decayed by e^-30.
     * What is left is float jitter: a velocity builds up until x moves by one
     * ulp (6e-8 m below 0.5 m) in a substep, i.e. up to ~ulp / h = 6e-5 m/s;
     * allow 4 ulp / h = 2.3e-4 m/s.
     */
    CHECK(max_speed < 4.0 * 5.9604645e-8 * 960.0);
    /* all forces lie along y, so the chain stays on the y axis (float noise only) */
    CHECK(max_lateral < 1e-6);

    for (j = 0; j + 1 < CHAIN_N; ++j) {
        double dx = (double)pos[3 * (j + 1)] - (double)pos[3 * j];
        double dy = (double)pos[3 * (j + 1) + 1] - (double)pos[3 * j + 1];
        double dz = (double)pos[3 * (j + 1) + 2] - (double)pos[3 * j + 2];
        double l = sqrt(dx * dx + dy * dy + dz * dz);
        double load = (double)(CHAIN_N - 1u - j) * (double)m * (double)gmag;
        double expect = (double)L0 * (1.0 + load / (double)k);
        double rel = fabs(l - expect) / expect;
        /*
         * Tolerance 1e-5 relative (5e-7 m on a 5-6 cm link): positions are
         * floats with |y| < 0.5 m, ulp 3e-8 m, so a link length read back
         * carries <= 6e-8 m (1.2e-6 relative) of rounding; the float force
         * balance shifts the rest point by ~ulp(T) L0 / k < 1e-9 m; the
         * remaining transient is < 1e-14 m. A wrong law (e.g. T = k (l - L0)
         * without / L0, or the load off by one particle) moves links by
         * >= 2.5 % of their strain, i.e. >= 2e-4 relative for the top link.
         */
        CHECK_NEAR(l, expect, 1e-5 * expect);
        if (rel > worst_rel)
            worst_rel = rel;
        if (j == 0 || j + 2 == CHAIN_N)
            printf("%-14s link %u: length %.7f m, closed form %.7f m (strain %.5f vs %.5f)\n",
                   k_names[which], (unsigned)j, l, expect, l / (double)L0 - 1.0,
                   expect / (double)L0 - 1.0);
    }
    printf("%-14s worst relative link error %.3g, max residual speed %.3g m/s\n", k_names[which],
           worst_rel, max_speed);
    cloth_destroy(cloth);
}

int main(void)
{
    int which;
    for (which = 0; which < 3; ++which)
        run_chain(which);
    return test_finish("test_chain");
}
