/*
 * test_wind: the wind hook, the aerodynamic force it drives, the constant
 * wind and the external-force hook.
 *
 *  - The hooks see every particle, once per substep, with the time growing
 *    by h from call to call.
 *  - The force on a flat plate at rest is 1/2 rho A (C_d |u_n| + C_l u_t) u_n
 *    along its normal (momentum after a short step), with each coefficient
 *    and the density checked on its own; none along the plate.
 *  - Still air: a cloth at rest in zero wind, or in wind along its plane,
 *    does bit for bit what it does without a hook; a plate moving through
 *    still air is braked by the force of the opposite wind.
 *  - A banner pinned on its top edge streams downwind; reversing the wind
 *    mirrors it exactly; it settles to the same shape at 1 and at 8 substeps.
 *  - The external force hook accelerates a free cloth at F / m.
 *  - Bad values are refused and change nothing; a failed allocation leaves
 *    the cloth without wind.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define G 9.81
#define PI 3.14159265358979323846

static cloth_t *make_grid(uint32_t rows, uint32_t cols, float spacing, const float origin[3], const float u[3],
                          const float v[3], float mass, const cloth_allocator *alloc)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = rows;
    d.cols = cols;
    d.spacing = spacing;
    for (int k = 0; k < 3; ++k) {
        d.origin[k] = origin[k];
        d.u_axis[k] = u[k];
        d.v_axis[k] = v[k];
    }
    d.particle_mass = mass;
    d.allocator = alloc;
    cloth_t *c = NULL;
    CHECK_OK(test_create_grid(&d, &c));
    return c;
}

static const char *kind_name(int kind)
{
    static const char *const names[] = {"explicit Euler", "trapezoid", "Verlet", "PBD", "semi-rigid"};
    return kind >= 0 && kind < 5 ? names[kind] : "?";
}

/* ------------------------------------------------------------------------- */
/* The hooks' contract                                                       */
/* ------------------------------------------------------------------------- */

typedef struct recorder {
    int calls;
    uint32_t count;
    float times[64];
    float first_positions[3 * 30], first_velocities[3 * 30];
    int bad_count;
} recorder;

static void record_wind(void *user, float time, uint32_t count, const float *positions, float *wind)
{
    recorder *r = user;
    if (r->calls == 0 && count <= 30u) {
        memcpy(r->first_positions, positions, sizeof(float) * 3u * count);
    }
    if (r->calls < 64) {
        r->times[r->calls] = time;
    }
    r->bad_count += count != r->count;
    ++r->calls;
    for (uint32_t i = 0; i < 3u * count; ++i) {
        r->bad_count += wind[i] != 0.0f; /* handed over zeroed */
        wind[i] = 0.0f;
    }
}

static void record_force(void *user, float time, uint32_t count, const float *positions, const float *velocities,
                         float *forces)
{
    recorder *r = user;
    if (r->calls == 0 && count <= 30u) {
        memcpy(r->first_positions, positions, sizeof(float) * 3u * count);
        memcpy(r->first_velocities, velocities, sizeof(float) * 3u * count);
    }
    if (r->calls < 64) {
        r->times[r->calls] = time;
    }
    r->bad_count += count != r->count;
    ++r->calls;
    for (uint32_t i = 0; i < 3u * count; ++i) {
        r->bad_count += forces[i] != 0.0f;
    }
}

static void test_hook_contract(void)
{
    const float origin[3] = {0, 1, 0}, u[3] = {1, 0, 0}, v[3] = {0, 0, 1};
    cloth_t *c = make_grid(5, 6, 0.1f, origin, u, v, 0.01f, NULL);
    if (c == NULL) {
        return;
    }
    recorder wind = {0}, force = {0};
    wind.count = force.count = 30u;
    float before[90], vel[90];
    for (int i = 0; i < 90; ++i) {
        vel[i] = 0.01f * (float)i; /* distinct, so a mixed-up buffer shows */
    }
    CHECK_OK(cloth_set_velocities(c, vel, 0));
    CHECK_OK(cloth_get_positions(c, before, 0));
    CHECK_OK(cloth_set_substeps(c, 4));
    CHECK_OK(cloth_set_wind(c, record_wind, &wind));
    CHECK_OK(cloth_set_external_force(c, record_force, &force));
    const float dt = 1.0f / 60.0f;
    for (int s = 0; s < 3; ++s) {
        CHECK_OK(cloth_step(c, dt));
    }
    /* once per substep, every particle, zeroed output buffers */
    CHECK(wind.calls == 12);
    CHECK(force.calls == 12);
    CHECK(wind.bad_count == 0);
    CHECK(force.bad_count == 0);
    CHECK(memcmp(wind.first_positions, before, sizeof before) == 0);
    CHECK(memcmp(force.first_positions, before, sizeof before) == 0);
    CHECK(memcmp(force.first_velocities, vel, sizeof vel) == 0);
    /* the time at the start of each substep: k h */
    int increasing = 1;
    double worst = 0;
    for (int k = 0; k < 12; ++k) {
        worst = fmax(worst, fabs((double)wind.times[k] - k * (double)dt / 4.0));
        worst = fmax(worst, fabs((double)force.times[k] - k * (double)dt / 4.0));
        if (k > 0) {
            increasing &= wind.times[k] > wind.times[k - 1];
        }
    }
    CHECK(increasing);
    CHECK(worst <= 1e-7); /* float of a time below 0.05 s */
    printf("hooks: %d wind and %d force calls in 3 steps of 4 substeps, times within %.1e s of k h\n",
           wind.calls, force.calls, worst);
    /* removing stops the calls */
    CHECK_OK(cloth_set_wind(c, NULL, NULL));
    CHECK_OK(cloth_set_external_force(c, NULL, NULL));
    CHECK_OK(cloth_step(c, dt));
    CHECK(wind.calls == 12 && force.calls == 12);
    cloth_destroy(c);
}

/* ------------------------------------------------------------------------- */
/* The force on a flat plate                                                  */
/* ------------------------------------------------------------------------- */

/* Total momentum of a free 10 x 10 plate (1 kg, 0.45 m square, normal +y) at
 * rest in zero gravity after dt = 1e-4 s in a constant wind at `alpha` to its
 * plane. Short enough that the plate's own speed (about 1e-3 m/s) changes
 * the force by less than 1e-4 of itself. */
static void plate_momentum(double speed, double alpha, float density, float drag, float lift, float dt,
                           double p[3])
{
    const float origin[3] = {0, 0, 0}, u[3] = {1, 0, 0}, v[3] = {0, 0, 1}, zero[3] = {0, 0, 0};
    cloth_t *c = make_grid(10, 10, 0.05f, origin, u, v, 0.01f, NULL);
    p[0] = p[1] = p[2] = (double)NAN;
    if (c == NULL) {
        return;
    }
    const float wind[3] = {(float)(speed * cos(alpha)), (float)(speed * sin(alpha)), 0};
    CHECK_OK(cloth_set_gravity(c, zero));
    CHECK_OK(cloth_set_damping(c, 0.0f));
    CHECK_OK(cloth_set_constant_wind(c, wind));
    CHECK_OK(cloth_set_air_density(c, density));
    CHECK_OK(cloth_set_drag_coefficient(c, drag));
    CHECK_OK(cloth_set_lift_coefficient(c, lift));
    CHECK_OK(cloth_step(c, dt));
    float vel[300];
    CHECK_OK(cloth_get_velocities(c, vel, 0));
    p[0] = p[1] = p[2] = 0;
    for (int i = 0; i < 100; ++i) {
        for (int k = 0; k < 3; ++k) {
            p[k] += 0.01 * (double)vel[3 * i + k];
        }
    }
    cloth_destroy(c);
}

/* The same plate moving at `speed` along -y through still air (rho 1.2,
 * C_d 1.2, C_l 1): its momentum after dt. */
static void plate_momentum_moving(double speed, float dt, double p[3])
{
    const float origin[3] = {0, 0, 0}, u[3] = {1, 0, 0}, v[3] = {0, 0, 1}, zero[3] = {0, 0, 0};
    cloth_t *c = make_grid(10, 10, 0.05f, origin, u, v, 0.01f, NULL);
    p[0] = p[1] = p[2] = (double)NAN;
    if (c == NULL) {
        return;
    }
    float vel[300];
    for (int i = 0; i < 100; ++i) {
        vel[3 * i] = 0.0f;
        vel[3 * i + 1] = (float)-speed;
        vel[3 * i + 2] = 0.0f;
    }
    CHECK_OK(cloth_set_velocities(c, vel, 0));
    CHECK_OK(cloth_set_gravity(c, zero));
    CHECK_OK(cloth_set_damping(c, 0.0f));
    CHECK_OK(cloth_set_constant_wind(c, zero));
    CHECK_OK(cloth_step(c, dt));
    CHECK_OK(cloth_get_velocities(c, vel, 0));
    p[0] = p[1] = p[2] = 0;
    for (int i = 0; i < 100; ++i) {
        for (int k = 0; k < 3; ++k) {
            p[k] += 0.01 * (double)vel[3 * i + k];
        }
    }
    cloth_destroy(c);
}

static void test_plate_force(void)
{
    const double area = 0.45 * 0.45, speed = 10.0, alpha = 30.0 * PI / 180.0, dt = 1e-4;
    const double un = speed * sin(alpha), ut = speed * cos(alpha);
    const struct {
        float rho, cd, cl;
    } cases[4] = {{1.2f, 1.2f, 1.0f}, {1.2f, 2.0f, 0.0f}, {1.2f, 0.0f, 3.0f}, {2.5f, 1.2f, 1.0f}};
    for (int k = 0; k < 4; ++k) {
        double p[3];
        plate_momentum(speed, alpha, cases[k].rho, cases[k].cd, cases[k].cl, 1e-4f, p);
        const double rho = (double)cases[k].rho, cd = (double)cases[k].cd, cl = (double)cases[k].cl;
        const double want = 0.5 * rho * area * (cd * un + cl * ut) * un * dt;
        printf("plate in %.0f m/s at 30 deg, rho %.1f C_d %.1f C_l %.1f: impulse %.6e N s along the normal "
               "(expected %.6e), %.1e across\n",
               speed, (double)cases[k].rho, (double)cases[k].cd, (double)cases[k].cl, p[1], want,
               fmax(fabs(p[0]), fabs(p[2])));
        /* 1e-3: the plate's speed changes the force by < 1e-4; float sums
         * of 600 small forces add ~1e-5 */
        CHECK_NEAR(p[1], want, 1e-3 * want);
        /* along the normal only: springs cancel, and the air pushes nothing
         * along the plate */
        CHECK(fabs(p[0]) <= 1e-6 * want && fabs(p[2]) <= 1e-6 * want);
    }
    double none[3];
    plate_momentum(speed, alpha, 0.0f, 1.2f, 1.0f, 1e-4f, none);
    /* no air, no force: what is left is the rounding of the springs' rest
     * lengths, 1e-9 of the smallest impulse above */
    CHECK(fabs(none[0]) <= 1e-12 && fabs(none[1]) <= 1e-12 && fabs(none[2]) <= 1e-12);
}

/* ------------------------------------------------------------------------- */
/* Still air                                                                  */
/* ------------------------------------------------------------------------- */

static void zero_wind(void *user, float time, uint32_t count, const float *positions, float *wind)
{
    (void)user;
    (void)time;
    (void)positions;
    memset(wind, 0, sizeof(float) * 3u * count);
}

/* Wind along the cloth's own plane (x-z): pushes nothing. */
static void grazing_wind(void *user, float time, uint32_t count, const float *positions, float *wind)
{
    (void)user;
    (void)positions;
    for (uint32_t i = 0; i < count; ++i) {
        wind[3 * i] = 7.0f + sinf(time);
        wind[3 * i + 1] = 0.0f;
        wind[3 * i + 2] = -3.0f;
    }
}

/* A cloth at rest (zero gravity, a pinned corner) run with `fn` installed or
 * not: positions and velocities after 60 steps. */
static void run_at_rest(int kind, cloth_wind_fn fn, float out[2][3 * 64])
{
    const float origin[3] = {0, 1, 0}, u[3] = {1, 0, 0}, v[3] = {0, 0, 1}, zero[3] = {0, 0, 0};
    cloth_t *c = make_grid(8, 8, 0.05f, origin, u, v, 0.01f, NULL);
    if (c == NULL) {
        return;
    }
    CHECK_OK(cloth_set_integrator(c, (cloth_integrator)kind));
    CHECK_OK(cloth_set_gravity(c, zero));
    CHECK_OK(cloth_pin(c, 0, NULL));
    if (fn != NULL) {
        CHECK_OK(cloth_set_wind(c, fn, NULL));
    }
    for (int s = 0; s < 60; ++s) {
        CHECK_OK(cloth_step(c, 1.0f / 60.0f));
    }
    CHECK_OK(cloth_get_positions(c, out[0], 0));
    CHECK_OK(cloth_get_velocities(c, out[1], 0));
    cloth_destroy(c);
}

static void test_still_air(void)
{
    for (int kind = 0; kind < 3; ++kind) {
        static float plain[2][3 * 64], still[2][3 * 64], grazing[2][3 * 64];
        run_at_rest(kind, NULL, plain);
        run_at_rest(kind, zero_wind, still);
        run_at_rest(kind, grazing_wind, grazing);
        CHECK(memcmp(plain, still, sizeof plain) == 0);
        CHECK(memcmp(plain, grazing, sizeof plain) == 0);
    }
    printf("still air and grazing wind on a resting cloth: bit for bit as without a hook\n");

    /* a plate moving at V through still air feels what a plate at rest
     * feels in a wind of -V: 1/2 rho C_d A u^2 against the relative motion
     * u, so M du/dt = -k u^2 and u(t) = V / (1 + k V t / M) for both */
    const double speed = 4.0, area = 0.45 * 0.45, t = 0.01, mass = 1.0;
    const double k = 0.5 * 1.2 * 1.2 * area;
    double moving[3], blown[3];
    plate_momentum_moving(speed, (float)t, moving);
    plate_momentum(speed, PI / 2, 1.2f, 1.2f, 1.0f, (float)t, blown);
    const double want = mass * (speed - speed / (1 + k * speed * t / mass));
    const double brake = moving[1] + mass * speed;
    printf("plate moving down at %.0f m/s in still air: loses %.6e kg m/s in %.2f s (expected %.6e; at rest "
           "in a wind of %.0f m/s up it gains %.6e)\n",
           speed, brake, t, want, speed, blown[1]);
    /* 1e-3: float velocities near 4 m/s carry 5e-7 m/s, 2e-5 of the change */
    CHECK_NEAR(brake, want, 1e-3 * want);
    CHECK_NEAR(blown[1], want, 1e-3 * want);
}

/* ------------------------------------------------------------------------- */
/* A banner pinned along its top edge                                         */
/* ------------------------------------------------------------------------- */

#define FLAG_ROWS 12u
#define FLAG_COLS 12u
#define FLAG_N (FLAG_ROWS * FLAG_COLS)

/* The banner hangs in the x-y plane from its top row at y = 2; the wind
 * blows along z. Positions and the largest speed after `seconds`. */
static void banner(int kind, float wind_z, uint32_t substeps, float dt, float seconds, float pos[3 * FLAG_N],
                   double *max_speed)
{
    const float origin[3] = {0, 2, 0}, u[3] = {1, 0, 0}, v[3] = {0, -1, 0};
    cloth_t *c = make_grid(FLAG_ROWS, FLAG_COLS, 0.05f, origin, u, v, 0.01f, NULL);
    *max_speed = (double)NAN;
    if (c == NULL) {
        return;
    }
    CHECK_OK(cloth_set_integrator(c, (cloth_integrator)kind));
    CHECK_OK(cloth_set_substeps(c, substeps));
    CHECK_OK(cloth_set_damping(c, 1.0f)); /* settle in a few seconds */
    for (uint32_t col = 0; col < FLAG_COLS; ++col) {
        CHECK_OK(cloth_pin(c, col, NULL));
    }
    const float wind[3] = {0, 0, wind_z};
    CHECK_OK(cloth_set_constant_wind(c, wind));
    const int steps = (int)lroundf(seconds / dt);
    int failed = 0;
    for (int s = 0; s < steps; ++s) {
        failed += cloth_step(c, dt) != CLOTH_OK;
    }
    CHECK(failed == 0);
    float vel[3 * FLAG_N];
    CHECK_OK(cloth_get_positions(c, pos, 0));
    CHECK_OK(cloth_get_velocities(c, vel, 0));
    *max_speed = 0;
    for (uint32_t i = 0; i < FLAG_N; ++i) {
        double s2 = (double)vel[3 * i] * (double)vel[3 * i] + (double)vel[3 * i + 1] * (double)vel[3 * i + 1] +
                    (double)vel[3 * i + 2] * (double)vel[3 * i + 2];
        *max_speed = fmax(*max_speed, sqrt(s2));
    }
    cloth_destroy(c);
}

static double bottom_z(const float pos[3 * FLAG_N])
{
    double z = 0;
    for (uint32_t col = 0; col < FLAG_COLS; ++col) {
        z += (double)pos[3 * ((FLAG_ROWS - 1u) * FLAG_COLS + col) + 2] / FLAG_COLS;
    }
    return z;
}

static void test_banner(void)
{
    for (int kind = 0; kind < 3; ++kind) {
        static float with[3 * FLAG_N], against[3 * FLAG_N];
        double speed_a, speed_b;
        banner(kind, 8.0f, 16u, 1.0f / 60.0f, 4.0f, with, &speed_a);
        banner(kind, -8.0f, 16u, 1.0f / 60.0f, 4.0f, against, &speed_b);
        double mirror = 0;
        for (uint32_t i = 0; i < FLAG_N; ++i) {
            mirror = fmax(mirror, fabs((double)with[3 * i] - (double)against[3 * i]));
            mirror = fmax(mirror, fabs((double)with[3 * i + 1] - (double)against[3 * i + 1]));
            mirror = fmax(mirror, fabs((double)with[3 * i + 2] + (double)against[3 * i + 2]));
        }
        const double z = bottom_z(with), height = 2.0 - (double)with[3 * (FLAG_N - FLAG_COLS) + 1];
        printf("banner in 8 m/s, %-14s: bottom edge %.3f m downwind (%.1f deg from vertical), reversed "
               "wind: %.3f m; mirror error %.1e m\n",
               kind_name(kind), z, atan2(z, height) * 180.0 / PI, bottom_z(against), mirror);
        /* streams downwind: the free edge swings out well past a tenth of
         * the banner's 0.55 m length */
        CHECK(z > 0.1);
        CHECK(bottom_z(against) < -0.1);
        /* the mirrored setup computes the same numbers with z negated */
        CHECK(mirror <= 1e-6);
    }
}

/* The same banner in the same wind settles to the same shape whatever the
 * substep count: forces never see h. dt = 1 ms keeps one substep stable
 * (w_max^2 h (h + 2 beta) = 3.2 <= 4 with the default springs). Only the
 * force-based integrators: the PBD family's constraints are stiffer with
 * more substeps by design (seed 004), so their rest shape moves with h for
 * reasons of their own. */
static void test_substep_independence(void)
{
    for (int kind = 0; kind < 3; ++kind) {
        static float one[3 * FLAG_N], eight[3 * FLAG_N];
        double speed1, speed8;
        banner(kind, 6.0f, 1u, 1e-3f, 8.0f, one, &speed1);
        banner(kind, 6.0f, 8u, 1e-3f, 8.0f, eight, &speed8);
        double diff = 0;
        for (uint32_t i = 0; i < 3u * FLAG_N; ++i) {
            diff = fmax(diff, fabs((double)one[i] - (double)eight[i]));
        }
        printf("banner settled at 1 and 8 substeps, %-14s: shapes differ by %.2e m (bottom edge %.4f m "
               "downwind), still moving at %.1e / %.1e m/s\n",
               kind_name(kind), diff, bottom_z(one), speed1, speed8);
        CHECK(bottom_z(one) > 0.1);
        /* settled: what still moves is far below the tolerance per second */
        CHECK(speed1 <= 1e-3 && speed8 <= 1e-3);
        /* 1 mm on a 0.55 m banner */
        CHECK(diff <= 1e-3);
    }
}

/* ------------------------------------------------------------------------- */
/* The external force hook                                                    */
/* ------------------------------------------------------------------------- */

/* 0.03 N on each 0.01 kg particle along +x: 3 m/s^2. */
static void push_x(void *user, float time, uint32_t count, const float *positions, const float *velocities,
                   float *forces)
{
    (void)user;
    (void)time;
    (void)positions;
    (void)velocities;
    for (uint32_t i = 0; i < count; ++i) {
        forces[3 * i] = 0.03f;
    }
}

static void poison(void *user, float time, uint32_t count, const float *positions, const float *velocities,
                   float *forces)
{
    (void)user;
    (void)time;
    (void)positions;
    (void)velocities;
    forces[3 * (count - 1u)] = NAN;
}

static void test_external_force(void)
{
    const float origin[3] = {0, 0, 0}, u[3] = {1, 0, 0}, v[3] = {0, 0, 1}, zero[3] = {0, 0, 0};
    for (int kind = 0; kind < 3; ++kind) {
        cloth_t *c = make_grid(4, 4, 0.05f, origin, u, v, 0.01f, NULL);
        if (c == NULL) {
            return;
        }
        CHECK_OK(cloth_set_integrator(c, (cloth_integrator)kind));
        CHECK_OK(cloth_set_gravity(c, zero));
        CHECK_OK(cloth_set_damping(c, 0.0f));
        CHECK_OK(cloth_pin(c, 15, NULL));
        CHECK_OK(cloth_set_external_force(c, push_x, NULL));
        float before[48], after[48], vel[48];
        CHECK_OK(cloth_get_positions(c, before, 0));
        for (int s = 0; s < 60; ++s) {
            CHECK_OK(cloth_step(c, 1.0f / 60.0f));
        }
        CHECK_OK(cloth_get_positions(c, after, 0));
        CHECK_OK(cloth_get_velocities(c, vel, 0));
        /* a pinned particle has infinite mass: the force does not move it */
        CHECK(after[45] == before[45] && after[46] == before[46] && after[47] == before[47]);
        cloth_destroy(c);

        /* a free cloth: a = F / m = 3 m/s^2 for everything */
        c = make_grid(4, 4, 0.05f, origin, u, v, 0.01f, NULL);
        if (c == NULL) {
            return;
        }
        CHECK_OK(cloth_set_integrator(c, (cloth_integrator)kind));
        CHECK_OK(cloth_set_gravity(c, zero));
        CHECK_OK(cloth_set_damping(c, 0.0f));
        CHECK_OK(cloth_set_external_force(c, push_x, NULL));
        for (int s = 0; s < 60; ++s) {
            CHECK_OK(cloth_step(c, 1.0f / 60.0f));
        }
        CHECK_OK(cloth_get_positions(c, after, 0));
        CHECK_OK(cloth_get_velocities(c, vel, 0));
        double vx = 0, dx = 0;
        for (int i = 0; i < 16; ++i) {
            vx += (double)vel[3 * i] / 16;
            dx += ((double)after[3 * i] - (double)before[3 * i]) / 16;
        }
        printf("external force, %-14s: after 1 s v = %.5f m/s (a t = 3), x = %.5f m (a t^2 / 2 = 1.5)\n",
               kind_name(kind), vx, dx);
        CHECK_NEAR(vx, 3.0, 1e-4);
        /* first-order integrators trail a t^2 / 2 by a h t / 2 = 1.6e-3 m */
        CHECK_NEAR(dx, 1.5, 2e-3);

        /* a hook that writes NaN: the step is refused and the state kept */
        float kept[48], now[48];
        CHECK_OK(cloth_get_positions(c, kept, 0));
        CHECK_OK(cloth_set_external_force(c, poison, NULL));
        CHECK_STATUS(cloth_step(c, 1.0f / 60.0f), CLOTH_ERR_UNSTABLE);
        CHECK_OK(cloth_get_positions(c, now, 0));
        CHECK(memcmp(kept, now, sizeof kept) == 0);
        cloth_destroy(c);
    }
}

/* ------------------------------------------------------------------------- */
/* Refusals                                                                   */
/* ------------------------------------------------------------------------- */

typedef struct budget {
    int allocations_left;
} budget;

static void *tight_alloc(void *user, size_t size, size_t alignment)
{
    budget *b = user;
    if (b->allocations_left <= 0) {
        return NULL;
    }
    --b->allocations_left;
    size_t rounded = (size + alignment - 1u) / alignment * alignment;
    return aligned_alloc(alignment, rounded);
}

static void tight_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

static void test_refusals(void)
{
    const float origin[3] = {0, 0, 0}, u[3] = {1, 0, 0}, v[3] = {0, 0, 1};
    const float nan3[3] = {0, NAN, 0}, ok3[3] = {1, 0, 0};
    cloth_t *c = make_grid(3, 3, 0.05f, origin, u, v, 0.01f, NULL);
    if (c == NULL) {
        return;
    }
    CHECK_STATUS(cloth_set_wind(NULL, zero_wind, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_constant_wind(NULL, ok3), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_constant_wind(c, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_constant_wind(c, nan3), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_external_force(NULL, push_x, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_air_density(NULL, 1.0f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_air_density(c, -1.0f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_air_density(c, NAN), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_drag_coefficient(c, -0.5f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_drag_coefficient(c, INFINITY), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_lift_coefficient(c, -1.0f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_lift_coefficient(NULL, 1.0f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_set_wind(c, NULL, NULL)); /* removing nothing is fine */
    CHECK_OK(cloth_set_external_force(c, NULL, NULL));
    CHECK_OK(cloth_set_air_density(c, 0.0f));
    CHECK_OK(cloth_set_drag_coefficient(c, 0.0f));
    CHECK_OK(cloth_set_lift_coefficient(c, 0.0f));
    cloth_destroy(c);

    /* refused values leave the old ones: the plate feels density 2.5 */
    double p25[3], p_refused[3];
    plate_momentum(10.0, PI / 2, 2.5f, 1.2f, 1.0f, 1e-4f, p25);
    {
        const float zero[3] = {0, 0, 0}, wind[3] = {0, 10, 0};
        cloth_t *d = make_grid(10, 10, 0.05f, origin, u, v, 0.01f, NULL);
        if (d == NULL) {
            return;
        }
        CHECK_OK(cloth_set_gravity(d, zero));
        CHECK_OK(cloth_set_damping(d, 0.0f));
        CHECK_OK(cloth_set_constant_wind(d, wind));
        CHECK_OK(cloth_set_air_density(d, 2.5f));
        CHECK_STATUS(cloth_set_air_density(d, -2.0f), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(cloth_set_drag_coefficient(d, NAN), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(cloth_set_constant_wind(d, nan3), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_OK(cloth_step(d, 1e-4f));
        float vel[300];
        CHECK_OK(cloth_get_velocities(d, vel, 0));
        p_refused[1] = 0;
        for (int i = 0; i < 100; ++i) {
            p_refused[1] += 0.01 * (double)vel[3 * i + 1];
        }
        CHECK(p_refused[1] == p25[1]);
        cloth_destroy(d);
    }

    /* no memory for the hooks' buffers: refused, the cloth stays windless */
    budget b = {0};
    cloth_allocator tight = {tight_alloc, tight_free, &b};
    b.allocations_left = 1000;
    cloth_t *e = make_grid(3, 3, 0.05f, origin, u, v, 0.01f, &tight);
    if (e == NULL) {
        return;
    }
    recorder r = {0};
    r.count = 9u;
    b.allocations_left = 0;
    CHECK_STATUS(cloth_set_wind(e, record_wind, &r), CLOTH_ERR_OUT_OF_MEMORY);
    CHECK_STATUS(cloth_set_external_force(e, record_force, &r), CLOTH_ERR_OUT_OF_MEMORY);
    CHECK_OK(cloth_step(e, 1.0f / 60.0f));
    CHECK(r.calls == 0);
    b.allocations_left = 1;
    CHECK_OK(cloth_set_wind(e, record_wind, &r));
    CHECK_OK(cloth_set_external_force(e, record_force, &r)); /* shares the buffers: no allocation */
    CHECK_OK(cloth_step(e, 1.0f / 60.0f));
    CHECK(r.calls == 32); /* 16 substeps, two hooks */
    cloth_destroy(e);
}

int main(void)
{
    test_refusals();
    test_hook_contract();
    test_plate_force();
    test_still_air();
    test_external_force();
    test_banner();
    test_substep_independence();
    return test_finish("test_wind");
}
