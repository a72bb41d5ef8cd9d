/*
 * test_masses: masses painted per particle (cloth_set_inverse_masses()) and
 * the cloth's particle radius (cloth_set_particle_radius()).
 *
 * A: momentum. Without gravity, damping, pins or colliders, springs only
 *    exchange momentum between particles, so sum m v stays what it was,
 *    whatever the masses, if and only if every solver uses the painted
 *    masses. A 9 x 9 cloth with masses varying 16-fold and random
 *    velocities, 60 steps: the total momentum holds to 1e-4 of its size
 *    (float rounding over 60 steps of ~10^3 updates each), for XPBD,
 *    explicit Euler and Verlet, and to 1e-3 for implicit Euler. The same sum with the masses the cloth had before
 *    painting drifts by far more: the check can fail. (PBD's Jacobi
 *    averaging, seed 004, divides each particle's corrections by their
 *    count, which does not conserve momentum by design: not tested here.)
 * B: a pinned particle keeps inverse mass 0 and gets the painted value on
 *    release; the getter reports that value throughout.
 * C: refused input changes nothing.
 * D: particle radius r: a sheet dropped on a floor of thickness t rests at
 *    height t + r, and on a ball of radius R its top particle at R + r; a
 *    radius that would close a torus's hole is refused.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DT (1.0f / 60.0f)
enum { SIDE = 9, N = SIDE * SIDE };

static cloth_t *sheet(float y)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = SIDE;
    d.cols = SIDE;
    d.spacing = 0.1f;
    d.origin[0] = -0.4f;
    d.origin[1] = y;
    d.origin[2] = -0.4f;
    d.particle_mass = 0.01f;
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_grid(&d, &c));
    return c;
}

static void momentum(const float *w, const float *v, double out[3])
{
    out[0] = out[1] = out[2] = 0.0;
    for (uint32_t i = 0; i < N; ++i) {
        for (int k = 0; k < 3; ++k) {
            out[k] += (double)v[3 * i + (uint32_t)k] / (double)w[i];
        }
    }
}

static double norm3(const double a[3])
{
    return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

static void test_momentum(cloth_integrator kind, const char *name, double tolerance)
{
    cloth_t *c = sheet(0.0f);
    if (c == NULL) {
        return;
    }
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    CHECK_OK(cloth_set_integrator(c, kind));
    CHECK_OK(cloth_set_gravity(c, zero));
    CHECK_OK(cloth_set_damping(c, 0.0f));
    CHECK_OK(cloth_set_tethers(c, 0.0f));
    CHECK_OK(cloth_set_strain_limit(c, 0.0f, 0u));
    float w[N], w_before[N], v[3 * N];
    CHECK_OK(cloth_get_inverse_masses(c, w_before, 0));
    srand(7);
    for (uint32_t i = 0; i < N; ++i) {
        w[i] = 100.0f / (1.0f + 15.0f * (float)((i * 37u) % N) / (float)(N - 1u)); /* 1 to 16 times heavier */
        for (int k = 0; k < 3; ++k) {
            v[3 * i + (uint32_t)k] = (float)(rand() % 2001 - 1000) / 1000.0f; /* up to 1 m/s each way */
        }
    }
    CHECK_OK(cloth_set_inverse_masses(c, w, 0));
    CHECK_OK(cloth_set_velocities(c, v, 0));
    double p0[3], p1[3], wrong0[3], wrong1[3];
    momentum(w, v, p0);
    momentum(w_before, v, wrong0);
    double scale = 0.0; /* the momentum's size: sum of |m v| */
    for (uint32_t i = 0; i < N; ++i) {
        scale += sqrt((double)(v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2])) /
                 (double)w[i];
    }
    for (int f = 0; f < 60; ++f) {
        CHECK_OK(cloth_step(c, DT));
    }
    CHECK_OK(cloth_get_velocities(c, v, 0));
    momentum(w, v, p1);
    momentum(w_before, v, wrong1);
    const double drift[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
    const double wrong[3] = {wrong1[0] - wrong0[0], wrong1[1] - wrong0[1], wrong1[2] - wrong0[2]};
    printf("A: %-14s momentum drift %.2e of %.3g kg m/s; with the old masses %.2e\n", name, norm3(drift) / scale,
           scale, norm3(wrong) / scale);
    CHECK(norm3(drift) <= tolerance * scale);
    CHECK(norm3(wrong) > 1e-2 * scale); /* the springs did move momentum between unequal masses */
    cloth_destroy(c);
}

static void test_pins_and_getter(void)
{
    cloth_t *c = sheet(0.0f);
    if (c == NULL) {
        return;
    }
    float w[N], got[2 * N];
    for (uint32_t i = 0; i < N; ++i) {
        w[i] = 50.0f + (float)i;
    }
    CHECK_OK(cloth_pin(c, 0u, NULL));
    CHECK_OK(cloth_set_inverse_masses(c, w, 0));
    CHECK_OK(cloth_get_inverse_masses(c, got, 8)); /* every other float */
    int same = 0;
    for (uint32_t i = 0; i < N; ++i) {
        same += got[2 * i] == w[i];
    }
    CHECK(same == N); /* the pinned one too: what it gets on release */
    float pos0[3 * N], pos[3 * N];
    CHECK_OK(cloth_get_positions(c, pos0, 0));
    for (int f = 0; f < 20; ++f) {
        CHECK_OK(cloth_step(c, DT));
    }
    CHECK_OK(cloth_get_positions(c, pos, 0));
    CHECK(pos[0] == pos0[0] && pos[1] == pos0[1] && pos[2] == pos0[2]); /* still held: its mass stays infinite */
    CHECK_OK(cloth_unpin(c, 0u));
    CHECK_OK(cloth_get_inverse_masses(c, got, 0));
    CHECK(got[0] == w[0]);
    for (int f = 0; f < 20; ++f) {
        CHECK_OK(cloth_step(c, DT));
    }
    CHECK_OK(cloth_get_positions(c, pos, 0));
    CHECK(pos[1] < pos0[1] - 0.2f); /* released with its painted mass: it falls */

    /* C: refusals */
    const uint64_t h = cloth_state_hash(c);
    const float bad[3] = {-1.0f, NAN, INFINITY};
    for (int k = 0; k < 3; ++k) {
        w[40] = bad[k];
        CHECK_STATUS(cloth_set_inverse_masses(c, w, 0), CLOTH_ERR_INVALID_ARGUMENT);
    }
    w[40] = 1.0f;
    CHECK_STATUS(cloth_set_inverse_masses(NULL, w, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_inverse_masses(c, NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_inverse_masses(c, w, 6), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_inverse_masses(c, NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_inverse_masses(c, got, 2), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_get_inverse_masses(c, got, 0));
    CHECK(got[40] == 90.0f); /* unchanged by the refusals */
    CHECK(cloth_state_hash(c) == h);
    cloth_destroy(c);
}

/* The sheet's lowest and highest particle after it settles. */
static void settle(cloth_t *c, float *low, float *high)
{
    for (int f = 0; f < 180; ++f) {
        CHECK_OK(cloth_step(c, DT));
    }
    float pos[3 * N];
    CHECK_OK(cloth_get_positions(c, pos, 0));
    *low = INFINITY;
    *high = -INFINITY;
    for (uint32_t i = 0; i < N; ++i) {
        *low = fminf(*low, pos[3 * i + 1]);
        *high = fmaxf(*high, pos[3 * i + 1]);
    }
}

static void test_particle_radius(void)
{
    const float r = 0.015f, t = 0.01f, up[3] = {0.0f, 1.0f, 0.0f}, origin[3] = {0.0f, 0.0f, 0.0f};
    /* on a floor: every particle at t + r */
    cloth_t *c = sheet(0.2f);
    if (c == NULL) {
        return;
    }
    cloth_collider_id floor_id, ring;
    CHECK_OK(cloth_set_particle_radius(c, r));
    CHECK_OK(cloth_add_plane(c, origin, up, &floor_id));
    CHECK_OK(cloth_set_collider_thickness(c, floor_id, t));
    float got = 0.0f, low, high;
    CHECK_OK(cloth_get_particle_radius(c, &got));
    CHECK(got == r);
    settle(c, &low, &high);
    printf("D: on a floor of thickness %.3f m with particle radius %.3f m: particles at %.6f to %.6f m\n",
           (double)t, (double)r, (double)low, (double)high);
    CHECK_NEAR(low, t + r, 1e-6);
    CHECK_NEAR(high, t + r, 1e-6);
    /* a torus whose hole the radius would close is refused, now and later */
    const float centre[3] = {0.0f, -1.0f, 0.0f};
    CHECK_STATUS(cloth_add_torus(c, centre, up, 0.1f, 0.09f, &ring), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_add_torus(c, centre, up, 0.2f, 0.09f, &ring));
    CHECK_STATUS(cloth_set_particle_radius(c, 0.2f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_collider_thickness(c, ring, 0.1f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_particle_radius(c, -0.01f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_particle_radius(c, NAN), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_particle_radius(NULL, 0.01f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_particle_radius(c, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_get_particle_radius(c, &got));
    CHECK(got == r);
    cloth_destroy(c);

    /* on a ball of radius 0.25 m about the origin: the top at 0.25 + r */
    c = sheet(0.3f);
    if (c == NULL) {
        return;
    }
    cloth_collider_id ball;
    CHECK_OK(cloth_add_sphere(c, origin, 0.25f, &ball));
    CHECK_OK(cloth_set_collider_friction(c, ball, 1.0f));
    CHECK_OK(cloth_set_particle_radius(c, r)); /* after the collider: it grows too */
    settle(c, &low, &high);
    printf("D: on a ball of 0.25 m: the top particle at %.6f m (0.25 + %.3f)\n", (double)high, (double)r);
    CHECK_NEAR(high, 0.25 + (double)r, 1e-5);
    cloth_destroy(c);
}

int main(void)
{
    test_momentum(CLOTH_INTEGRATOR_XPBD, "XPBD", 1e-4);
    test_momentum(CLOTH_INTEGRATOR_EXPLICIT_EULER, "explicit Euler", 1e-4);
    test_momentum(CLOTH_INTEGRATOR_VERLET, "Verlet", 1e-4);
    /* its CG stops at a residual of 1e-4 of the right-hand side each
     * substep (implicit.c), which moves momentum by about as much */
    test_momentum(CLOTH_INTEGRATOR_IMPLICIT_EULER, "implicit Euler", 1e-3);
    test_pins_and_getter();
    test_particle_radius();
    return test_finish("test_masses");
}
