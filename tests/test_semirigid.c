/*
 * The semi-rigid curtain integrator (seed 003, CLOTH_INTEGRATOR_SEMIRIGID).
 *
 * A curtain is a grid whose rows run down (v_axis = (0, -1, 0)) with its top
 * row pinned. Warp links join (r, c) to (r + 1, c). clothsim.h promises that
 * warp links end every step at their rest length to float precision, with
 * wind, collisions and moving pins (issue 3: within 1e-4 of rest length after
 * each of hundreds of windy steps).
 *
 *  A. Wind: cloth_set_wind() if the library has it, else a stand-in that
 *     tests the same thing (an external acceleration that changes in time):
 *     gravity with a gusting sideways part. 300 steps, warp lengths after each.
 *  B. A curtain swinging down onto a sphere: warp lengths after each step,
 *     and no free particle inside the sphere beyond 1e-4 m.
 *  C. Moving pins: the top row slides sideways each frame (cloth_pin with
 *     targets); warp lengths after each step; pins on their targets.
 *  D. A curtain pinned along its top row hangs straight down at rest: after
 *     settling with damping, every particle's x and z are its pin's x and z.
 *  E. Energy: without damping, under constant gravity tilted by 22 degrees,
 *     the curtain is a conservative system (the links do no work), so its
 *     energy must not grow: a pendulum released at rest cannot swing higher
 *     than it started.
 *  F. Two corners: a horizontal cloth hung from the two ends of its row 0
 *     (a chain between two pins at exactly its length, the rest of the
 *     cloth hanging from it). Warp lengths after every step; the kinetic
 *     energy must drain with the damping (it used to keep swinging, fed by
 *     velocities that the row-then-column projection left pushing against
 *     the links) and the cloth must stay mirror symmetric.
 *  G. A moving sphere: a 16 x 16 curtain hanging from its top row, a sphere
 *     the host moves back and forth through it each frame. No free particle
 *     may end a step inside the sphere (colliders.h), while the warp links
 *     stay at their rest length.
 *
 * Tolerance for lengths: relative 1e-4 of the rest length (5e-6 m for the
 * 0.05 m spacing used here), stricter than issue 3's 1e-4 m. Each particle is
 * placed at `rest` from the one above in float: the length read back differs
 * from rest by a few ulp of the coordinates (ulp(1) = 1.2e-7 m, i.e. 2.4e-6
 * of 0.05 m), well inside it; a link left to the force-based springs stretches
 * by percent.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ROWS 16u
#define COLS 15u
#define NP (ROWS * COLS)
#define SPACING 0.05f
#define MASS 0.01f
#define REL_TOL 1e-4

static cloth_t *make_curtain(int horizontal)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    cloth_grid_desc_init(&desc);
    desc.rows = ROWS;
    desc.cols = COLS;
    desc.spacing = SPACING;
    desc.particle_mass = MASS;
    desc.origin[0] = 0.0f;
    desc.origin[1] = 1.0f;
    desc.origin[2] = 0.0f;
    if (!horizontal) { /* hanging: rows run down */
        desc.v_axis[0] = 0.0f;
        desc.v_axis[1] = -1.0f;
        desc.v_axis[2] = 0.0f;
    }
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth == NULL) {
        return NULL;
    }
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_SEMIRIGID));
    for (uint32_t c = 0; c < COLS; ++c) {
        CHECK_OK(cloth_pin(cloth, c, NULL));
    }
    return cloth;
}

static double dist3(const float *p, uint32_t i, uint32_t j)
{
    double dx = (double)p[3 * j] - (double)p[3 * i], dy = (double)p[3 * j + 1] - (double)p[3 * i + 1],
           dz = (double)p[3 * j + 2] - (double)p[3 * i + 2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* Largest |warp length - rest| / rest over the curtain. */
static double warp_error(const float *p)
{
    double worst = 0.0;
    for (uint32_t r = 0; r + 1u < ROWS; ++r) {
        for (uint32_t c = 0; c < COLS; ++c) {
            double e = fabs(dist3(p, r * COLS + c, (r + 1u) * COLS + c) - (double)SPACING) / (double)SPACING;
            if (e > worst || !(e == e)) {
                worst = e == e ? e : HUGE_VAL;
            }
        }
    }
    return worst;
}

static double max_speed(const float *v)
{
    double m = 0.0;
    for (uint32_t i = 0; i < NP; ++i) {
        double s = sqrt((double)v[3 * i] * (double)v[3 * i] + (double)v[3 * i + 1] * (double)v[3 * i + 1] +
                        (double)v[3 * i + 2] * (double)v[3 * i + 2]);
        if (s > m || !(s == s)) {
            m = s == s ? s : HUGE_VAL;
        }
    }
    return m;
}

/* ---- A. wind ------------------------------------------------------------ */

/* A gusting wind along +z, stronger lower down and changing in time. */
static void gust(void *user, float time, uint32_t count, const float *positions, float *wind)
{
    int *calls = user;
    ++*calls;
    for (uint32_t i = 0; i < count; ++i) {
        float depth = 1.0f - positions[3 * i + 1];
        wind[3 * i] = 0.5f * sinf(1.3f * time);
        wind[3 * i + 1] = 0.0f;
        wind[3 * i + 2] = (4.0f + 3.0f * sinf(2.0f * time + 3.0f * depth)) * (0.5f + depth);
    }
}

static void windy(void)
{
    static float pos[3 * NP], vel[3 * NP];
    const float dt = 1.0f / 60.0f;
    const uint32_t frames = 300u;
    int calls = 0, failed_steps = 0;
    double worst = 0.0, fastest = 0.0;
    cloth_t *cloth = make_curtain(0);
    if (cloth == NULL) {
        return;
    }
    cloth_status ws = cloth_set_wind(cloth, gust, &calls);
    CHECK(ws == CLOTH_OK || ws == CLOTH_ERR_UNSUPPORTED);
    const int have_wind = ws == CLOTH_OK;
    printf("A: wind %s\n", have_wind ? "through cloth_set_wind()"
                                     : "not available (CLOTH_ERR_UNSUPPORTED): gusting sideways gravity instead");
    for (uint32_t f = 0; f < frames; ++f) {
        const float t = (float)f * dt;
        if (!have_wind) {
            /* sideways part up to 4 m/s^2 (22 degrees), changing every frame */
            const float g[3] = {0.8f * sinf(1.3f * t), -9.81f, 2.0f + 2.0f * sinf(2.0f * t)};
            CHECK_OK(cloth_set_gravity(cloth, g));
        }
        cloth_status s = cloth_step(cloth, dt);
        if (s != CLOTH_OK) {
            ++failed_steps;
            continue;
        }
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        CHECK_OK(cloth_get_velocities(cloth, vel, 0));
        double e = warp_error(pos);
        CHECK(e <= REL_TOL);
        if (e > worst) {
            worst = e;
        }
        double sp = max_speed(vel);
        if (sp > fastest) {
            fastest = sp;
        }
    }
    CHECK(failed_steps == 0);
    /*
     * Plausible motion: a particle falling through the curtain's whole swing
     * height (2 * 0.75 m) under the strongest acceleration used (10.6 m/s^2)
     * reaches sqrt(2 * 10.6 * 1.5) = 5.6 m/s, and the gusts (<= 9 m/s) push
     * the cloth slower than themselves. Allow 15 m/s.
     */
    CHECK(fastest <= 15.0);
    if (have_wind) {
        CHECK(calls == (int)(frames * 16u)); /* once per substep, default 16 substeps */
    }
    printf("A: %u windy steps: worst warp length error %.3e of rest (%.3e m), fastest particle %.3g m/s\n",
           (unsigned)frames, worst, worst * (double)SPACING, fastest);
    cloth_destroy(cloth);
}

/* ---- B. falling onto a sphere ------------------------------------------- */

static void onto_sphere(void)
{
    static float pos[3 * NP];
    /* in the way of the swing, and touching the plane x-y in which the
     * curtain would hang: it comes to rest leaning on the sphere */
    const float centre[3] = {0.35f, 0.55f, 0.1f};
    const float radius = 0.2f;
    const float dt = 1.0f / 60.0f;
    const uint32_t frames = 300u;
    cloth_collider_id id = 0;
    double worst = 0.0, deepest = 0.0;
    uint32_t touching = 0;
    /* horizontal, top row (row 0, along x) pinned: it swings down like a
     * trap door and drapes over the sphere in its path */
    cloth_t *cloth = make_curtain(1);
    if (cloth == NULL) {
        return;
    }
    /* damping 2 /s: the swing is down to exp(-5) = 0.7 % after 5 s, so the
     * curtain rests against the sphere at the end (the explicit Euler
     * integrator, for comparison, leans on it with particles in contact) */
    CHECK_OK(cloth_set_damping(cloth, 2.0f));
    CHECK_OK(cloth_add_sphere(cloth, centre, radius, &id));
    for (uint32_t f = 0; f < frames; ++f) {
        CHECK_OK(cloth_step(cloth, dt));
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        double e = warp_error(pos);
        CHECK(e <= REL_TOL);
        if (e > worst) {
            worst = e;
        }
        for (uint32_t i = COLS; i < NP; ++i) { /* free particles */
            double dx = (double)pos[3 * i] - (double)centre[0], dy = (double)pos[3 * i + 1] - (double)centre[1],
                   dz = (double)pos[3 * i + 2] - (double)centre[2];
            double depth = (double)radius - sqrt(dx * dx + dy * dy + dz * dz);
            if (depth > deepest) {
                deepest = depth;
            }
            if (f + 1u == frames && depth > -2e-3) {
                ++touching;
            }
        }
    }
    /* no particle inside beyond 1e-4 m (the promise is "contacts nearly") */
    CHECK(deepest <= 1e-4);
    /* the curtain did land on the sphere */
    CHECK(touching > 0u);
    printf("B: curtain on a sphere, %u steps: worst warp length error %.3e of rest, deepest penetration "
           "%.3e m, %u particles in contact at the end\n",
           (unsigned)frames, worst, deepest, (unsigned)touching);
    cloth_destroy(cloth);
}

/* ---- C. moving pins ----------------------------------------------------- */

static void moving_pins(void)
{
    static float pos[3 * NP];
    const float dt = 1.0f / 60.0f;
    const uint32_t frames = 300u;
    double worst = 0.0, pin_err = 0.0;
    cloth_t *cloth = make_curtain(0);
    if (cloth == NULL) {
        return;
    }
    for (uint32_t f = 0; f < frames; ++f) {
        const float t = (float)(f + 1u) * dt;
        /* slide sideways along the rod (x) and sway back and forth (z):
         * up to 0.15 m amplitude, 0.5 Hz, about 0.5 m/s */
        const float ox = 0.15f * sinf(3.14159265f * t), oz = 0.05f * sinf(2.0f * 3.14159265f * t);
        for (uint32_t c = 0; c < COLS; ++c) {
            const float target[3] = {(float)c * SPACING + ox, 1.0f, oz};
            CHECK_OK(cloth_pin(cloth, c, target));
        }
        CHECK_OK(cloth_step(cloth, dt));
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        double e = warp_error(pos);
        CHECK(e <= REL_TOL);
        if (e > worst) {
            worst = e;
        }
        for (uint32_t c = 0; c < COLS; ++c) {
            double d = fabs((double)pos[3 * c] - (double)((float)c * SPACING + ox)) +
                       fabs((double)pos[3 * c + 1] - 1.0) + fabs((double)pos[3 * c + 2] - (double)oz);
            if (d > pin_err) {
                pin_err = d;
            }
        }
    }
    /* pins reach their targets exactly at the end of the step (clothsim.h) */
    CHECK(pin_err == 0.0);
    printf("C: moving pins, %u steps: worst warp length error %.3e of rest, pins off target by %.3e m\n",
           (unsigned)frames, worst, pin_err);
    cloth_destroy(cloth);
}

/* ---- D. hangs straight down at rest ------------------------------------- */

static void hangs_straight(void)
{
    static float pos[3 * NP], vel[3 * NP];
    const float dt = 1.0f / 60.0f;
    const uint32_t frames = 600u; /* 10 s */
    double off = 0.0, drop_err = 0.0;
    /* starts horizontal, swings down under gravity and settles */
    cloth_t *cloth = make_curtain(1);
    if (cloth == NULL) {
        return;
    }
    /*
     * Velocity damping 2 /s: the swing amplitude (about the curtain's length,
     * 0.75 m) decays at least as exp(-c t / 2) = exp(-10) = 4.5e-5 after
     * 10 s, i.e. 3.4e-5 m. Allow 1e-3 m for x and z.
     */
    CHECK_OK(cloth_set_damping(cloth, 2.0f));
    for (uint32_t f = 0; f < frames; ++f) {
        cloth_status s = cloth_step(cloth, dt);
        if (s != CLOTH_OK) {
            CHECK_OK(s);
            break;
        }
    }
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK_OK(cloth_get_velocities(cloth, vel, 0));
    for (uint32_t r = 0; r < ROWS; ++r) {
        for (uint32_t c = 0; c < COLS; ++c) {
            uint32_t i = r * COLS + c;
            double d = fmax(fabs((double)pos[3 * i] - (double)pos[3 * c]),
                            fabs((double)pos[3 * i + 2] - (double)pos[3 * c + 2]));
            if (d > off || !(d == d)) {
                off = d == d ? d : HUGE_VAL;
            }
            /* straight down: row r is r spacings below the rod */
            double e = fabs((double)pos[3 * i + 1] - (1.0 - (double)r * (double)SPACING));
            if (e > drop_err || !(e == e)) {
                drop_err = e == e ? e : HUGE_VAL;
            }
        }
    }
    const double speed = max_speed(vel);
    printf("D: after 10 s: largest x/z offset from the pin %.3e m, height error %.3e m, max speed %.3e m/s\n",
           off, drop_err, speed);
    CHECK(off <= 1e-3);
    CHECK(drop_err <= 1e-3);
    CHECK(speed <= 1e-2);
    cloth_destroy(cloth);
}

/* ---- E. energy of a conservative swing ---------------------------------- */

static void energy(void)
{
    static float pos[3 * NP], vel[3 * NP];
    const float g[3] = {0.0f, -9.81f, 4.0f};
    const double gmag = sqrt(9.81 * 9.81 + 16.0);
    const float dt = 1.0f / 60.0f;
    const uint32_t frames = 120u; /* 2 s, more than one swing */
    double e0 = 0.0, avail = 0.0, worst_gain = -HUGE_VAL, fastest = 0.0;
    cloth_t *cloth = make_curtain(0);
    if (cloth == NULL) {
        return;
    }
    /* nothing but gravity and the rigid links: no damping, no springs */
    CHECK_OK(cloth_set_damping(cloth, 0.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 0.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_SHEAR, 0.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_BEND, 0.0f));
    CHECK_OK(cloth_set_gravity(cloth, g));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    for (uint32_t i = COLS; i < NP; ++i) {
        /* potential -m g.x; the drop a particle at distance r below the rod
         * could make when the curtain swings to hang along g: r (|g| - 9.81) m */
        e0 -= (double)MASS * ((double)g[1] * (double)pos[3 * i + 1] + (double)g[2] * (double)pos[3 * i + 2]);
        avail += (double)MASS * (1.0 - (double)pos[3 * i + 1]) * (gmag - 9.81);
    }
    for (uint32_t f = 0; f < frames; ++f) {
        CHECK_OK(cloth_step(cloth, dt));
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        CHECK_OK(cloth_get_velocities(cloth, vel, 0));
        double e = 0.0;
        for (uint32_t i = COLS; i < NP; ++i) {
            double v2 = (double)vel[3 * i] * (double)vel[3 * i] + (double)vel[3 * i + 1] * (double)vel[3 * i + 1] +
                        (double)vel[3 * i + 2] * (double)vel[3 * i + 2];
            e += 0.5 * (double)MASS * v2 -
                 (double)MASS * ((double)g[1] * (double)pos[3 * i + 1] + (double)g[2] * (double)pos[3 * i + 2]);
        }
        if (e - e0 > worst_gain || !(e == e)) {
            worst_gain = e == e ? e - e0 : HUGE_VAL;
        }
        double sp = max_speed(vel);
        if (sp > fastest) {
            fastest = sp;
        }
    }
    /*
     * The exact motion conserves energy; the scheme's projections remove
     * velocity along the links, so a correct first-order solver loses energy.
     * Allow a gain of 10 % of the swing's energy (the potential drop to the
     * tilted equilibrium, `avail`) for the discretisation. Likewise no
     * particle can move faster than a fall through the curtain's whole swing
     * height, 2 * 0.75 m, under |g| = 10.6 m/s^2: sqrt(2 * 10.6 * 1.5) = 5.6 m/s.
     */
    printf("E: conservative swing, 2 s: swing energy %.4f J, largest energy gain %.4g J (%.3g of it), "
           "fastest particle %.3g m/s\n",
           avail, worst_gain, worst_gain / avail, fastest);
    CHECK(worst_gain <= 0.1 * avail);
    CHECK(fastest <= 5.6);
    cloth_destroy(cloth);
}

/* ---- F. hung from two corners ------------------------------------------ */

static void two_corners(void)
{
    static float pos[3 * NP], vel[3 * NP];
    const float dt = 1.0f / 60.0f;
    const uint32_t frames = 600u; /* 10 s */
    double worst = 0.0, peak_ke = 0.0, last_ke = 0.0, late_ke = 0.0;
    cloth_t *cloth = make_curtain(1);
    if (cloth == NULL) {
        return;
    }
    for (uint32_t c = 1; c + 1u < COLS; ++c) {
        CHECK_OK(cloth_unpin(cloth, c));
    }
    CHECK_OK(cloth_set_damping(cloth, 3.0f));
    for (uint32_t f = 0; f < frames; ++f) {
        cloth_status s = cloth_step(cloth, dt);
        if (s != CLOTH_OK) {
            CHECK_OK(s);
            break;
        }
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        CHECK_OK(cloth_get_velocities(cloth, vel, 0));
        double e = warp_error(pos);
        CHECK(e <= REL_TOL);
        worst = e > worst ? e : worst;
        double ke = 0.0;
        for (uint32_t i = 0; i < 3u * NP; ++i) {
            ke += 0.5 * (double)MASS * (double)vel[i] * (double)vel[i];
        }
        CHECK(ke == ke);
        peak_ke = ke > peak_ke ? ke : peak_ke;
        if (f + 60u >= frames) { /* the last second */
            late_ke = ke > late_ke ? ke : late_ke;
        }
        last_ke = ke;
    }
    double asym = 0.0;
    const double mid2 = (double)((float)(COLS - 1u) * SPACING);
    for (uint32_t r = 0; r < ROWS; ++r) {
        for (uint32_t c = 0; c < COLS; ++c) {
            const uint32_t i = r * COLS + c, j = r * COLS + (COLS - 1u - c);
            double d = fmax(fabs((double)pos[3 * i] + (double)pos[3 * j] - mid2),
                            fmax(fabs((double)pos[3 * i + 1] - (double)pos[3 * j + 1]),
                                 fabs((double)pos[3 * i + 2] - (double)pos[3 * j + 2])));
            asym = fmax(asym, d);
        }
    }
    printf("F: two corners, %u steps: worst warp length error %.3e of rest; kinetic energy peak %.3e J, "
           "largest in the last second %.3e J, at 10 s %.3e J; asymmetry %.3e m\n",
           (unsigned)frames, worst, peak_ke, late_ke, last_ke, asym);
    /*
     * Damping 3 /s scales every velocity by exp(-3 h) per substep and the
     * projection never adds kinetic energy, so a swing's energy falls as
     * exp(-3 t): from the peak (about 1 s in) to the last second that is
     * below exp(-24) = 4e-11 of it. What feeds the cloth afterwards is the
     * slow creep of the top row toward straight, millimetres over seconds:
     * allow 1e-6 of the peak (measured 5e-8; before the fix 0.4).
     */
    CHECK(late_ke <= 1e-6 * peak_ke);
    /* mirror symmetric up to float rounding, as in test_integrator_switch B */
    CHECK(asym < 1e-4);
    cloth_destroy(cloth);
}

/* ---- G. a moving sphere ------------------------------------------------ */

static void moving_sphere(void)
{
    enum { N = 16 };
    static float pos[3 * N * N];
    const float radius = 0.2f, dt = 1.0f / 60.0f;
    const uint32_t frames = 240u;
    float centre[3] = {0.4f, -0.6f, 0.15f};
    cloth_collider_id id = 0;
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    double deepest = 0.0, worst = 0.0;
    uint32_t deepest_frame = 0u, deepest_particle = 0u, touching = 0u;
    /* the defaults: spacing 0.05 m, origin at 0, rows along +x */
    cloth_grid_desc_init(&desc);
    desc.rows = N;
    desc.cols = N;
    desc.v_axis[0] = 0.0f;
    desc.v_axis[1] = -1.0f;
    desc.v_axis[2] = 0.0f;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth == NULL) {
        return;
    }
    for (uint32_t c = 0; c < N; ++c) {
        CHECK_OK(cloth_pin(cloth, c, NULL));
    }
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_SEMIRIGID));
    CHECK_OK(cloth_add_sphere(cloth, centre, radius, &id));
    for (uint32_t f = 0; f < frames; ++f) {
        /* through the curtain's plane and back, up to 0.25 m from where it
         * started, at most 0.75 m/s: 0.8 mm per substep */
        centre[2] = 0.15f - 0.25f * sinf(0.05f * (float)f);
        CHECK_OK(cloth_set_collider_transform(cloth, id, centre, NULL));
        CHECK_OK(cloth_step(cloth, dt));
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        /* the sphere ends the step where the host sent it */
        for (uint32_t i = N; i < (uint32_t)(N * N); ++i) {
            const double dx = (double)pos[3 * i] - (double)centre[0], dy = (double)pos[3 * i + 1] - (double)centre[1],
                         dz = (double)pos[3 * i + 2] - (double)centre[2];
            const double depth = (double)radius - sqrt(dx * dx + dy * dy + dz * dz); /* thickness 0 */
            if (depth > deepest || !(depth == depth)) {
                deepest = depth == depth ? depth : HUGE_VAL;
                deepest_frame = f;
                deepest_particle = i;
            }
            touching += depth > -1e-5 ? 1u : 0u;
            const double e = fabs(dist3(pos, i - N, i) - (double)desc.spacing) / (double)desc.spacing;
            if (e > worst || !(e == e)) {
                worst = e == e ? e : HUGE_VAL;
            }
        }
    }
    printf("G: moving sphere, %u steps: deepest penetration %.3e m (frame %u, particle %u), worst warp length "
           "error %.3e of rest, %u particle-steps in contact\n",
           (unsigned)frames, deepest, (unsigned)deepest_frame, (unsigned)deepest_particle, worst, (unsigned)touching);
    /*
     * Every other integrator ends these steps with particles inside by at
     * most 5e-8 m: the collider puts a particle at the radius from the
     * centre in float, and coordinates below 1 m are rounded to 6e-8 m.
     * Allow 1e-6 m, 5e-6 of the radius and some 16 such roundings: the
     * contact must hold up to rounding, not nearly. The hard case is a
     * corner folded over so that its warp link points almost straight into
     * the sphere, where pushing out and restoring the length undo each other.
     */
    CHECK(deepest <= 1e-6);
    /* and the warp links are kept as in A to F */
    CHECK(worst <= REL_TOL);
    /* the sphere did sweep through the cloth */
    CHECK(touching > 0u);
    cloth_destroy(cloth);
}

int main(void)
{
    windy();
    onto_sphere();
    moving_pins();
    hangs_straight();
    energy();
    two_corners();
    moving_sphere();
    return test_finish("test_semirigid");
}
