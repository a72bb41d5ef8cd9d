/*
 * Long-range tethers (cloth_set_tethers, constraints.h): no free particle
 * ends a step farther than scale * d0 from any of its tethered pins, d0 the
 * distance in the creation shape; a particle is tethered to its 4 nearest
 * pins (ties to the lower index).
 *
 *  A. Every built-in integrator (cloth_integrator values 0..254 that
 *     cloth_set_integrator() accepts for a grid): a heavy cloth under strong
 *     gravity, hung from two swaying corner pins, exceeds the limit without
 *     tethers and never after any step with them, whether they run in
 *     every substep or in the last one only. A curtain pinned along its
 *     whole top row keeps each particle within its rest distance of each of
 *     its 4 nearest pins, computed here from the documented rule.
 *  B. The table follows the pins: a pin added later is honoured; after pins
 *     are released the particles are held by the remaining ones.
 *  C. Rest distances come from the creation shape, not from
 *     cloth_set_positions(), for a grid and for a mesh.
 *  D. Velocity: a particle pulled back loses exactly its outward velocity
 *     relative to the pin and keeps its sideways velocity (closed form, one
 *     substep); one moving inward is left alone.
 *  E. API: refusals change nothing; scale 0 switches off; the table is
 *     allocated through the cloth's allocator, an allocation failure is
 *     reported and changes nothing, and everything is freed.
 *  F. A grid with at most 4 pins keeps no table: its particles end bitwise
 *     where a grid with the table puts them, given the same tethers. Past
 *     4 pins the table is reserved by cloth_pin(): refused with the
 *     allocator failing (and nothing changes), never allocated by a step.
 *  G. Two tethers (the library's float path for one or two): over random
 *     positions and velocities, one substep ends where a double-precision
 *     reference puts the particle (the nearest point of the two balls'
 *     intersection: a sphere's nearest point if it lies in the other ball,
 *     else the nearest point of the circle where the spheres meet) with the
 *     documented velocity, on a grid (no table) and on a mesh (table).
 *  H. The tether schedule: every substep by default, refusals change
 *     nothing, kept while tethers are off; with one substep the last-substep
 *     schedule gives the same bits, with four a different state.
 *  J. A mesh of two pieces, one pinned by a corner, the other free beside
 *     it: the free piece falls freely (no tether joins it to the other
 *     piece's pin), the pinned one hangs within its tethers.
 *  I. Vector levels: a 37 x 29 grid hung from two swaying corners, whose
 *     tether pass packs its particles into batches at the vector width
 *     (kernels/tether_pack.inl) and leaves some to the exact path, ends
 *     with the same bits with CLOTHSIM_SIMD=scalar, sse2, avx2 and avx512
 *     (neon on AArch64; those the CPU lacks fall back).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 12u
#define NP (N * N)
#define SPACING 0.05f

/* Float tolerance of "at most the limit" (m). The library's limits are
 * floats (rest distance times scale, 2 roundings of 6e-8 relative), pins
 * and particles float coordinates (ulp 6e-8 m below 1 m), and a point where
 * two or three spheres touch is accepted within 1e-6 of the radius
 * (constraints/tethers.h: INSIDE_EPS); on limits of at most 0.8 m that is 8e-7 m,
 * plus the roundings: 1e-6 m. */
#define LIMIT_TOL 1e-6

static cloth_t *make_sized(uint32_t rows, uint32_t cols)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    cloth_grid_desc_init(&desc);
    desc.rows = rows;
    desc.cols = cols;
    desc.spacing = SPACING;
    desc.particle_mass = 0.05f; /* heavy */
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth != NULL) {
        const float g[3] = {0.0f, -30.0f, 0.0f}; /* strong gravity */
        CHECK_OK(cloth_set_gravity(cloth, g));
    }
    return cloth;
}

static cloth_t *make_cloth(void)
{
    return make_sized(N, N);
}

/* Rest distance of grid particles a and b (orthogonal axes). */
static double rest_distance(uint32_t a, uint32_t b)
{
    double dr = (double)(a / N) - (double)(b / N), dc = (double)(a % N) - (double)(b % N);
    return (double)SPACING * sqrt(dr * dr + dc * dc);
}

/* Largest |x_i - x_p| - scale d0 (m) over particles i != p and the given
 * pins, and the largest ratio |x_i - x_p| / d0. */
static double excess(const float *pos, const uint32_t *pins, uint32_t n_pins, float scale, double *ratio)
{
    double worst = -1e9;
    for (uint32_t i = 0; i < NP; ++i) {
        for (uint32_t k = 0; k < n_pins; ++k) {
            const uint32_t p = pins[k];
            if (p == i) {
                continue;
            }
            double dx = (double)pos[3u * i] - (double)pos[3u * p], dy = (double)pos[3u * i + 1u] - (double)pos[3u * p + 1u];
            double dz = (double)pos[3u * i + 2u] - (double)pos[3u * p + 2u];
            double d = sqrt(dx * dx + dy * dy + dz * dz), d0 = rest_distance(i, p);
            double e = d - (double)scale * d0;
            worst = e > worst ? e : worst;
            if (ratio != NULL && d / d0 > *ratio) {
                *ratio = d / d0;
            }
        }
    }
    return worst;
}

/* ---------------------------------------------------------------- A */

/* 90 frames hung from two corners that sway together; returns the worst
 * excess over all steps, or 1e9 if a step failed. */
static double run_corners(cloth_integrator kind, float scale, cloth_tether_schedule schedule, double *ratio)
{
    const uint32_t pins[2] = {0u, N - 1u};
    cloth_t *cloth = make_cloth();
    double worst = -1e9;
    if (cloth == NULL) {
        return 1e9;
    }
    CHECK_OK(cloth_set_integrator(cloth, kind));
    CHECK_OK(cloth_set_tethers(cloth, scale));
    CHECK_OK(cloth_set_tether_schedule(cloth, schedule));
    CHECK_OK(cloth_pin(cloth, pins[0], NULL));
    CHECK_OK(cloth_pin(cloth, pins[1], NULL));
    *ratio = 0.0;
    for (int f = 1; f <= 90; ++f) {
        float pos[3 * NP];
        const float sway = 0.1f * sinf(0.1f * (float)f);
        const float a[3] = {sway, 0.0f, 0.0f}, b[3] = {sway + (float)(N - 1u) * SPACING, 0.0f, 0.0f};
        CHECK_OK(cloth_pin(cloth, pins[0], a));
        CHECK_OK(cloth_pin(cloth, pins[1], b));
        cloth_status s = cloth_step(cloth, 1.0f / 60.0f);
        if (s != CLOTH_OK) {
            CHECK_OK(s);
            worst = 1e9;
            break;
        }
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        double e = excess(pos, pins, 2u, scale == 0.0f ? 1.0f : scale, ratio);
        worst = e > worst ? e : worst;
    }
    cloth_destroy(cloth);
    return worst;
}

/* The documented table: the 4 pins nearest to i in the rest shape, ties to
 * the lower index. `pins` sorted by index. */
static uint32_t nearest_pins(uint32_t i, const uint32_t *pins, uint32_t n_pins, uint32_t out[4])
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < n_pins; ++k) {
        const uint32_t p = pins[k];
        const double d = rest_distance(i, p);
        uint32_t at = n;
        while (at > 0u && d < rest_distance(i, out[at - 1u])) { /* pins come in index order: ties stay behind */
            --at;
        }
        if (at >= 4u) {
            continue;
        }
        for (uint32_t m = (n < 4u ? n : 3u); m > at; --m) {
            out[m] = out[m - 1u];
        }
        out[at] = p;
        n = n < 4u ? n + 1u : 4u;
    }
    return n;
}

static double run_curtain(cloth_integrator kind, float scale)
{
    uint32_t pins[N];
    cloth_t *cloth = make_cloth();
    double worst = -1e9;
    if (cloth == NULL) {
        return 1e9;
    }
    CHECK_OK(cloth_set_integrator(cloth, kind));
    CHECK_OK(cloth_set_tethers(cloth, scale));
    for (uint32_t c = 0; c < N; ++c) {
        pins[c] = c;
        CHECK_OK(cloth_pin(cloth, c, NULL));
    }
    for (int f = 0; f < 60; ++f) {
        float pos[3 * NP];
        cloth_status s = cloth_step(cloth, 1.0f / 60.0f);
        if (s != CLOTH_OK) {
            CHECK_OK(s);
            worst = 1e9;
            break;
        }
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        for (uint32_t i = N; i < NP; ++i) {
            uint32_t mine[4];
            uint32_t n = nearest_pins(i, pins, N, mine);
            for (uint32_t k = 0; k < n; ++k) {
                double e = excess(pos, &mine[k], 1u, scale, NULL);
                worst = e > worst ? e : worst;
            }
        }
    }
    cloth_destroy(cloth);
    return worst;
}

static void test_every_integrator(void)
{
    int ran = 0;
    for (uint32_t k = 0; k < 255u; ++k) {
        cloth_t *probe = make_cloth();
        if (probe == NULL) {
            return;
        }
        cloth_status s = cloth_set_integrator(probe, (cloth_integrator)k);
        cloth_destroy(probe);
        if (s == CLOTH_ERR_INVALID_ARGUMENT || s == CLOTH_ERR_UNSUPPORTED) {
            continue; /* not an integrator, or not for this cloth */
        }
        CHECK_OK(s);
        ++ran;
        double ratio_off = 0.0, ratio_on = 0.0, ratio_last = 0.0;
        double off = run_corners((cloth_integrator)k, 0.0f, CLOTH_TETHERS_EVERY_SUBSTEP, &ratio_off);
        double on = run_corners((cloth_integrator)k, 1.0f, CLOTH_TETHERS_EVERY_SUBSTEP, &ratio_on);
        /* the bound is promised where the host reads the cloth, after the step */
        double last = run_corners((cloth_integrator)k, 1.0f, CLOTH_TETHERS_LAST_SUBSTEP, &ratio_last);
        double curtain = run_curtain((cloth_integrator)k, 1.05f);
        printf("A integrator %u: two swaying corners, worst |x - pin| / d0 without tethers %.4f (excess %+.3g m), "
               "with tethers at 1.0 %.7f (excess %+.3g m), in the last substep only %.7f (excess %+.3g m); "
               "curtain at 1.05, 4 nearest pins: excess %+.3g m\n",
               (unsigned)k, ratio_off, off, ratio_on, on, ratio_last, last, curtain);
        CHECK(curtain <= LIMIT_TOL);
        /* semi-rigid: as below, its warp pass wins; with the tethers in
         * one substep of 16 the warp chains drift further before it
         * (measured 4.7 %; constraints.h says about 5 %) */
        CHECK(k == (uint32_t)CLOTH_INTEGRATOR_SEMIRIGID ? ratio_last <= 1.06 : last <= LIMIT_TOL);
        if (k == (uint32_t)CLOTH_INTEGRATOR_SEMIRIGID) {
            /* Its finishing warp pass runs after the tethers and keeps the
             * warp links exact (constraints.h): hung from two corners, the
             * chains hanging from the free top row end past their tethers.
             * Measured 0.38 % (1.3 mm); it moves between 0.38 and 0.52 %
             * with the semi-rigid solver's CG tolerance, so the bound is 1 %. */
            CHECK(ratio_on <= 1.01);
        } else {
            CHECK(on <= LIMIT_TOL);
        }
        /* the force-based integrators stretch this cloth well past its
         * rest distances (strain of the corner links ~0.3) */
        if (k == (uint32_t)CLOTH_INTEGRATOR_EXPLICIT_EULER || k == (uint32_t)CLOTH_INTEGRATOR_VERLET ||
            k == (uint32_t)CLOTH_INTEGRATOR_XPBD) {
            CHECK(off > 0.01);
        }
    }
    printf("A %d integrators run\n", ran);
    CHECK(ran >= 7);
}

/* ---------------------------------------------------------------- B */

/* Largest |x_i - at| - scale d0(i, p) over the particles other than p. */
static double excess_from(const float *pos, const float at[3], uint32_t p, float scale)
{
    double worst = -1e9;
    for (uint32_t i = 0; i < NP; ++i) {
        if (i == p) {
            continue;
        }
        double dx = (double)pos[3u * i] - (double)at[0], dy = (double)pos[3u * i + 1u] - (double)at[1];
        double dz = (double)pos[3u * i + 2u] - (double)at[2];
        double e = sqrt(dx * dx + dy * dy + dz * dz) - (double)scale * rest_distance(i, p);
        worst = e > worst ? e : worst;
    }
    return worst;
}

static void test_pins_change(void)
{
    /* Added: hanging from one corner, then the other corner is pinned back
     * where it rests. It travels there during the next step, and from then
     * on both pins' limits hold. */
    const uint32_t corners[2] = {0u, N - 1u};
    const float other[3] = {(float)(N - 1u) * SPACING, 0.0f, 0.0f};
    float pos[3 * NP];
    double before, after = -1e9;
    cloth_t *cloth = make_cloth();
    if (cloth == NULL) {
        return;
    }
    CHECK_OK(cloth_set_tethers(cloth, 1.0f));
    CHECK_OK(cloth_pin(cloth, 0u, NULL));
    for (int f = 0; f < 60; ++f) {
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    }
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    before = excess_from(pos, other, N - 1u, 1.0f);
    CHECK_OK(cloth_pin(cloth, N - 1u, other));
    for (int f = 0; f < 60; ++f) {
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        double e = excess(pos, corners, 2u, 1.0f, NULL);
        after = e > after ? e : after;
    }
    printf("B pin added: excess over the new pin's limits before it was a pin %+.3g m, after, either pin, any step "
           "%+.3g m\n",
           before, after);
    CHECK(before > 0.1); /* hanging from one corner, far from the other */
    CHECK(after <= LIMIT_TOL);
    cloth_destroy(cloth);

    /* Released: a top row pinned, then all but its corners let go. The
     * particles that were tethered to the released pins must now keep to
     * the corners' limits. Scale 1.2: at 1 the corners alone would hold the
     * top row on the straight line between them. */
    const float scale = 1.2f;
    double worst = -1e9, fall;
    cloth = make_cloth();
    if (cloth == NULL) {
        return;
    }
    CHECK_OK(cloth_set_tethers(cloth, scale));
    for (uint32_t c = 0; c < N; ++c) {
        CHECK_OK(cloth_pin(cloth, c, NULL));
    }
    for (int f = 0; f < 30; ++f) {
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    }
    for (uint32_t c = 1; c + 1u < N; ++c) {
        CHECK_OK(cloth_unpin(cloth, c));
    }
    for (int f = 0; f < 60; ++f) {
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        double e = excess(pos, corners, 2u, scale, NULL);
        worst = e > worst ? e : worst;
    }
    fall = -(double)pos[3u * (N / 2u) + 1u];
    printf("B pins released: excess over the corners' limits %+.3g m; the released middle fell %.4f m\n", worst,
           fall);
    CHECK(worst <= LIMIT_TOL);
    CHECK(fall > 0.02); /* not held where its pin was */
    cloth_destroy(cloth);
}

/* ---------------------------------------------------------------- C */

/* Every particle moved 1.5 times as far from particle 0 as it rests, then
 * one step with particle 0 pinned and tethers at 1: every particle must end
 * within its creation distance. Gravity and springs off so that only the
 * tethers act. */
static double stretched_start(cloth_t *cloth, const float *rest_pos, uint32_t n)
{
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    float *pos = malloc(3u * n * sizeof *pos);
    double worst = -1e9;
    if (pos == NULL) {
        return 1e9;
    }
    for (uint32_t i = 0; i < 3u * n; ++i) {
        pos[i] = 1.5f * rest_pos[i];
    }
    CHECK_OK(cloth_set_gravity(cloth, zero));
    for (int k = 0; k < 3; ++k) {
        CHECK_OK(cloth_set_stiffness(cloth, (cloth_spring_type)k, 0.0f));
    }
    CHECK_OK(cloth_set_positions(cloth, pos, 0));
    CHECK_OK(cloth_set_tethers(cloth, 1.0f));
    CHECK_OK(cloth_pin(cloth, 0u, NULL));
    CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    for (uint32_t i = 1; i < n; ++i) {
        double d = sqrt((double)pos[3u * i] * (double)pos[3u * i] + (double)pos[3u * i + 1u] * (double)pos[3u * i + 1u] +
                        (double)pos[3u * i + 2u] * (double)pos[3u * i + 2u]);
        double d0 = sqrt((double)rest_pos[3u * i] * (double)rest_pos[3u * i] +
                         (double)rest_pos[3u * i + 1u] * (double)rest_pos[3u * i + 1u] +
                         (double)rest_pos[3u * i + 2u] * (double)rest_pos[3u * i + 2u]);
        worst = d - d0 > worst ? d - d0 : worst;
    }
    free(pos);
    return worst;
}

static void test_rest_shape(void)
{
    static float rest[3 * NP];
    static uint32_t tris[6 * (N - 1u) * (N - 1u)];
    uint32_t t = 0;
    cloth_t *grid = make_cloth();
    if (grid == NULL) {
        return;
    }
    CHECK_OK(cloth_get_positions(grid, rest, 0));
    double e_grid = stretched_start(grid, rest, NP);
    cloth_destroy(grid);

    /* the same particles as a mesh */
    for (uint32_t r = 0; r + 1u < N; ++r) {
        for (uint32_t c = 0; c + 1u < N; ++c) {
            uint32_t i = r * N + c;
            uint32_t q[6] = {i, i + N, i + 1u, i + 1u, i + N, i + N + 1u};
            memcpy(&tris[t], q, sizeof q);
            t += 6u;
        }
    }
    cloth_mesh_desc desc;
    cloth_t *mesh = NULL;
    cloth_mesh_desc_init(&desc);
    desc.positions = rest;
    desc.vertex_count = NP;
    desc.triangles = tris;
    desc.triangle_count = t / 3u;
    CHECK_OK(test_create_mesh(&desc, &mesh));
    if (mesh == NULL) {
        return;
    }
    double e_mesh = stretched_start(mesh, rest, NP);
    cloth_destroy(mesh);
    printf("C started 1.5x stretched: excess over creation distances after one step: grid %+.3g m, mesh %+.3g m\n",
           e_grid, e_mesh);
    CHECK(e_grid <= LIMIT_TOL);
    CHECK(e_mesh <= LIMIT_TOL);
}

/* ---------------------------------------------------------------- D */

static void test_velocity(cloth_integrator kind, const double v0[3])
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    cloth_grid_desc_init(&desc);
    desc.rows = 1u;
    desc.cols = 2u;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth == NULL) {
        return;
    }
    for (int k = 0; k < 3; ++k) {
        CHECK_OK(cloth_set_stiffness(cloth, (cloth_spring_type)k, 0.0f));
    }
    CHECK_OK(cloth_set_gravity(cloth, zero));
    CHECK_OK(cloth_set_damping(cloth, 0.0f));
    CHECK_OK(cloth_set_substeps(cloth, 1u));
    CHECK_OK(cloth_set_integrator(cloth, kind));
    CHECK_OK(cloth_set_tethers(cloth, 1.0f));
    CHECK_OK(cloth_pin(cloth, 0u, NULL));
    float vel[6] = {0.0f, 0.0f, 0.0f, (float)v0[0], (float)v0[1], (float)v0[2]}, pos[6];
    CHECK_OK(cloth_set_velocities(cloth, vel, 0));
    CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK_OK(cloth_get_velocities(cloth, vel, 0));

    /* closed form: free flight x' = x + v h from (0.05, 0, 0); if beyond
     * 0.05 m of the pin at the origin, back onto the sphere along the ray,
     * and v loses (v . n) n when v . n > 0 */
    const double h = 1.0 / 60.0, L = 0.05;
    double x[3] = {L + v0[0] * h, v0[1] * h, v0[2] * h}, v[3] = {v0[0], v0[1], v0[2]};
    double d = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    if (d > L) {
        double vn = (v[0] * x[0] + v[1] * x[1] + v[2] * x[2]) / d;
        for (int k = 0; k < 3; ++k) {
            x[k] *= L / d;
            if (vn > 0.0) {
                v[k] -= vn * x[k] / L;
            }
        }
    }
    double err_x = 0.0, err_v = 0.0;
    for (int k = 0; k < 3; ++k) {
        err_x = fmax(err_x, fabs((double)pos[3 + k] - x[k]));
        err_v = fmax(err_v, fabs((double)vel[3 + k] - v[k]));
    }
    printf("D integrator %d, v0 = (%.1f, %.1f, %.1f): position %.7f %.7f %.7f (closed form %.7f %.7f %.7f), velocity "
           "%.6f %.6f %.6f (closed form %.6f %.6f %.6f)\n",
           (int)kind, v0[0], v0[1], v0[2], (double)pos[3], (double)pos[4], (double)pos[5], x[0], x[1], x[2],
           (double)vel[3], (double)vel[4], (double)vel[5], v[0], v[1], v[2]);
    /* float arithmetic on values below 1: a few ulps (6e-8) each */
    CHECK(err_x < 1e-6);
    CHECK(err_v < 1e-5);
    cloth_destroy(cloth);
}

/* ---------------------------------------------------------------- E */

typedef struct counter {
    long live_blocks;
    long long live_bytes;
    int fail;   /* refuse every allocation while set */
    long calls; /* allocations asked for, refused ones included */
} counter;

static void *count_alloc(void *user, size_t size, size_t alignment)
{
    counter *c = user;
    ++c->calls;
    if (c->fail) {
        return NULL;
    }
    size_t rounded = (size + alignment - 1u) / alignment * alignment;
    void *p = aligned_alloc(alignment, rounded);
    if (p != NULL) {
        ++c->live_blocks;
        c->live_bytes += (long long)size;
    }
    return p;
}

static void count_free(void *user, void *ptr, size_t size)
{
    counter *c = user;
    --c->live_blocks;
    c->live_bytes -= (long long)size;
    free(ptr);
}

static void test_api(void)
{
    counter cnt = {0, 0, 0, 0};
    cloth_allocator hooks = {count_alloc, count_free, &cnt};
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    float scale = -1.0f;
    cloth_grid_desc_init(&desc);
    desc.allocator = &hooks;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth == NULL) {
        return;
    }
    CHECK_OK(cloth_get_tethers(cloth, &scale));
    CHECK(scale == 0.0f); /* off by default */
    CHECK_STATUS(cloth_set_tethers(NULL, 1.0f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_tethers(NULL, &scale), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_tethers(cloth, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_set_tethers(cloth, 1.25f));
    const float bad[] = {NAN, INFINITY, -INFINITY, -1.0f, 0.5f, 0.999f, 10.001f, 1e30f, -0.0001f};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        CHECK_STATUS(cloth_set_tethers(cloth, bad[k]), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_OK(cloth_get_tethers(cloth, &scale));
        CHECK(scale == 1.25f);
    }
    CHECK_OK(cloth_set_tethers(cloth, 1.0f));
    CHECK_OK(cloth_set_tethers(cloth, 10.0f));
    const long with_table = cnt.live_blocks;
    CHECK_OK(cloth_set_tethers(cloth, 0.0f));
    CHECK_OK(cloth_get_tethers(cloth, &scale));
    CHECK(scale == 0.0f);
    CHECK(cnt.live_blocks == with_table - 1); /* off frees the table */

    /* the table comes from the host's allocator; a failure changes nothing */
    const long long before = cnt.live_bytes;
    cnt.fail = 1;
    CHECK_STATUS(cloth_set_tethers(cloth, 2.0f), CLOTH_ERR_OUT_OF_MEMORY);
    cnt.fail = 0;
    CHECK_OK(cloth_get_tethers(cloth, &scale));
    CHECK(scale == 0.0f);
    CHECK(cnt.live_bytes == before);
    CHECK_OK(cloth_set_tethers(cloth, 2.0f));
    printf("E tether table: %lld bytes for %u particles (%.1f per particle)\n", cnt.live_bytes - before,
           (unsigned)cloth_particle_count(cloth), (double)(cnt.live_bytes - before) / (double)cloth_particle_count(cloth));
    CHECK(cnt.live_bytes - before <= 32 * (long long)cloth_particle_count(cloth) + 256);
    CHECK_OK(cloth_pin(cloth, 0u, NULL));
    CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    cloth_destroy(cloth);
    CHECK(cnt.live_blocks == 0 && cnt.live_bytes == 0); /* nothing leaked */
}

/* ---------------------------------------------------------------- F */

/* A grid with at most 4 pins keeps no table: every particle is tethered to
 * all pins, its rest distances computed from the grid's rows and columns
 * when needed. With a fifth pin the grid keeps the table. Springs and air
 * off, each particle moves under gravity and its own tethers alone, so the
 * two can be compared particle by particle: four pins near one corner, and
 * in the second cloth a fifth at the far corner. Every particle whose four
 * nearest pins of the five are the four (the documented rule, computed here)
 * has the same tethers both ways and must end bitwise where it ends in the
 * cloth without the fifth pin, from pins that sway together (so that their
 * balls keep overlapping and the particles stay taut on them). */
static cloth_t *free_particles_grid(void)
{
    cloth_t *cloth = make_cloth();
    if (cloth != NULL) {
        for (int t = 0; t < 3; ++t) {
            CHECK_OK(cloth_set_stiffness(cloth, (cloth_spring_type)t, 0.0f));
        }
        CHECK_OK(cloth_set_air_density(cloth, 0.0f));
    }
    return cloth;
}

static void sway(cloth_t *cloth, const uint32_t *pins, uint32_t n_pins, const float *rest_pos, int frame)
{
    for (uint32_t k = 0; k < n_pins; ++k) {
        const float *p = &rest_pos[3u * pins[k]];
        const float at[3] = {p[0] + 0.1f * sinf(0.2f * (float)frame), p[1], p[2] + 0.05f * cosf(0.3f * (float)frame)};
        CHECK_OK(cloth_pin(cloth, pins[k], at));
    }
}

static void test_grid_rule(float scale)
{
    static const uint32_t pins[5] = {0u, 3u, 2u * N + 1u, 3u * N + 4u, NP - 1u};
    float rest_pos[3 * NP], a[3 * NP], b[3 * NP];
    cloth_t *rule = free_particles_grid(), *table = free_particles_grid();
    if (rule == NULL || table == NULL) {
        cloth_destroy(rule);
        cloth_destroy(table);
        return;
    }
    CHECK_OK(cloth_get_positions(rule, rest_pos, 0));
    CHECK_OK(cloth_set_tethers(rule, scale));
    CHECK_OK(cloth_set_tethers(table, scale));
    bool same_tethers[NP];
    uint32_t compared = 0;
    for (uint32_t i = 0; i < NP; ++i) {
        uint32_t near[4];
        const uint32_t got = nearest_pins(i, pins, 5u, near);
        bool far = false;
        for (uint32_t k = 0; k < got; ++k) {
            far = far || near[k] == pins[4];
        }
        same_tethers[i] = !far && i != pins[4];
        compared += same_tethers[i];
    }
    double moved = 0.0;
    uint32_t differ = 0;
    for (int f = 0; f < 60; ++f) {
        sway(rule, pins, 4u, rest_pos, f);
        sway(table, pins, 5u, rest_pos, f);
        CHECK_OK(cloth_step(rule, 1.0f / 60.0f));
        CHECK_OK(cloth_step(table, 1.0f / 60.0f));
        CHECK_OK(cloth_get_positions(rule, a, 0));
        CHECK_OK(cloth_get_positions(table, b, 0));
        for (uint32_t i = 0; i < NP; ++i) {
            if (same_tethers[i]) {
                differ += memcmp(&a[3u * i], &b[3u * i], 3u * sizeof(float)) != 0;
                const double dm = fabs((double)a[3u * i + 1u] - (double)rest_pos[3u * i + 1u]);
                moved = dm > moved ? dm : moved;
            }
        }
    }
    double ratio = 0.0;
    const double ex = excess(a, pins, 4u, scale, &ratio);
    printf("F grid rule (4 pins, no table) vs table (a fifth pin far away), scale %.2f: %u of %u particles "
           "compared, %u particle-frames differ over 60 frames; fell up to %.3f m; excess %+.3g m\n",
           (double)scale, (unsigned)compared, (unsigned)NP, (unsigned)differ, moved, ex);
    CHECK(compared >= NP / 3u);
    CHECK(differ == 0u);
    CHECK(moved > 0.1);   /* the tethers had work to do */
    CHECK(ex <= LIMIT_TOL); /* and did it */
    cloth_destroy(rule);
    cloth_destroy(table);
}

/* A grid with more than 4 pins keeps a table, reserved by the cloth_pin()
 * that takes it past 4: with the allocator refusing, that pin is refused
 * and changes nothing; once it is in, the steps never call the allocator
 * (nor after the pins drop back to 4 and rise again), and the cloth ends
 * bitwise where one built without a custom allocator does. */
static void test_table_reserved(void)
{
    counter cnt = {0, 0, 0, 0};
    cloth_allocator hooks = {count_alloc, count_free, &cnt};
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = desc.cols = N;
    desc.spacing = SPACING;
    desc.particle_mass = 0.05f;
    cloth_t *plain = make_cloth(), *hooked = NULL;
    desc.allocator = &hooks;
    CHECK_OK(test_create_grid(&desc, &hooked));
    if (plain == NULL || hooked == NULL) {
        cloth_destroy(plain);
        cloth_destroy(hooked);
        return;
    }
    const float g[3] = {0.0f, -30.0f, 0.0f};
    CHECK_OK(cloth_set_gravity(hooked, g));
    cloth_t *both[2] = {plain, hooked};
    for (int m = 0; m < 2; ++m) {
        CHECK_OK(cloth_set_integrator(both[m], CLOTH_INTEGRATOR_XPBD));
        CHECK_OK(cloth_set_tethers(both[m], 1.05f));
        for (uint32_t c = 0; c < 8u; c += 2u) { /* 4 pins along the top row: no table */
            CHECK_OK(cloth_pin(both[m], c, NULL));
        }
    }
    cnt.fail = 1;
    const long long before = cnt.live_bytes;
    CHECK(cloth_pin(hooked, 8u, NULL) == CLOTH_ERR_OUT_OF_MEMORY);
    CHECK(cnt.live_bytes == before);
    CHECK_OK(cloth_step(hooked, 1.0f / 60.0f)); /* 4 pins: the refused one fell with the rest */
    float p[3 * NP];
    CHECK_OK(cloth_get_positions(hooked, p, 0));
    CHECK(p[3u * 8u + 1u] < 0.0f);
    cnt.fail = 0;
    cloth_destroy(hooked);
    hooked = NULL;
    desc.allocator = &hooks;
    CHECK_OK(test_create_grid(&desc, &hooked));
    if (hooked == NULL) {
        cloth_destroy(plain);
        return;
    }
    CHECK_OK(cloth_set_gravity(hooked, g));
    CHECK_OK(cloth_set_integrator(hooked, CLOTH_INTEGRATOR_XPBD));
    CHECK_OK(cloth_set_tethers(hooked, 1.05f));
    both[1] = hooked;
    for (int m = 0; m < 2; ++m) {
        for (uint32_t c = 0; c < N; c += 2u) { /* 6 pins: the table */
            CHECK_OK(cloth_pin(both[m], c, NULL));
        }
    }
    const long calls = cnt.calls;
    cnt.fail = 1; /* any allocation from here on would be seen, and refused */
    float a[3 * NP], b[3 * NP];
    for (int f = 0; f < 30; ++f) {
        if (f == 10 || f == 20) {
            /* down to 4 pins, then 6 again: the table stays and is refilled */
            for (int m = 0; m < 2; ++m) {
                if (f == 10) {
                    CHECK_OK(cloth_unpin(both[m], 10u));
                    CHECK_OK(cloth_unpin(both[m], 8u));
                } else {
                    CHECK_OK(cloth_pin(both[m], 10u, NULL));
                    CHECK_OK(cloth_pin(both[m], 8u, NULL));
                }
            }
        }
        for (int m = 0; m < 2; ++m) {
            CHECK_OK(cloth_step(both[m], 1.0f / 60.0f));
        }
    }
    cnt.fail = 0;
    CHECK(cnt.calls == calls); /* neither the steps nor the pins past 4 again allocated */
    CHECK_OK(cloth_get_positions(plain, a, 0));
    CHECK_OK(cloth_get_positions(hooked, b, 0));
    CHECK(cloth_state_hash(plain) == cloth_state_hash(hooked));
    CHECK(memcmp(a, b, sizeof a) == 0);
    printf("F 6 pins, table reserved by cloth_pin: %ld allocator calls in 30 steps, %s\n", cnt.calls - calls,
           memcmp(a, b, sizeof a) == 0 ? "bitwise equal to the default allocator's" : "DIFFERENT");
    cloth_destroy(plain);
    cloth_destroy(hooked);
    CHECK(cnt.live_blocks == 0 && cnt.live_bytes == 0);
}

/* ---------------------------------------------------------------- G */

typedef struct ball {
    double c[3], r;
} ball;

static double dist3(const double a[3], const double b[3])
{
    const double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* The nearest point of the intersection of balls a and b to y (they meet). */
static void nearest_of_two(const ball *a, const ball *b, const double y[3], double x[3])
{
    const ball *ab[2] = {a, b};
    if (dist3(y, a->c) <= a->r && dist3(y, b->c) <= b->r) {
        memcpy(x, y, 3 * sizeof(double));
        return;
    }
    for (int k = 0; k < 2; ++k) {
        const ball *s = ab[k], *o = ab[1 - k];
        const double l = dist3(y, s->c);
        if (l > s->r) {
            for (int m = 0; m < 3; ++m) {
                x[m] = s->c[m] + (y[m] - s->c[m]) * s->r / l;
            }
            if (dist3(x, o->c) <= o->r * (1.0 + 1e-9)) {
                return;
            }
        }
    }
    double u[3], q[3];
    const double d = dist3(b->c, a->c);
    for (int m = 0; m < 3; ++m) {
        u[m] = (b->c[m] - a->c[m]) / d;
    }
    const double t = (d * d + a->r * a->r - b->r * b->r) / (2.0 * d), rho = sqrt(fmax(a->r * a->r - t * t, 0.0));
    double along = 0.0;
    for (int m = 0; m < 3; ++m) {
        along += (y[m] - a->c[m]) * u[m];
    }
    for (int m = 0; m < 3; ++m) {
        q[m] = y[m] - a->c[m] - along * u[m];
    }
    const double ql = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    for (int m = 0; m < 3; ++m) {
        x[m] = a->c[m] + t * u[m] + rho * q[m] / ql;
    }
}

static uint32_t lcg(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static double uniform(uint32_t *state, double lo, double hi)
{
    return lo + (hi - lo) * (double)lcg(state) / 16777216.0;
}

/* A 2 x 2 cloth, spacing s, pinned at 0 and 1 (row 0); particles 2 and 3
 * each on two tethers. */
static cloth_t *two_tether_cloth(bool mesh, float scale)
{
    const float s = 0.1f;
    float pos[12] = {0.0f, 0.0f, 0.0f, s, 0.0f, 0.0f, 0.0f, 0.0f, s, s, 0.0f, s};
    static const uint32_t tris[6] = {0u, 2u, 1u, 1u, 2u, 3u};
    cloth_t *cloth = NULL;
    if (mesh) {
        cloth_mesh_desc desc;
        cloth_mesh_desc_init(&desc);
        desc.positions = pos;
        desc.vertex_count = 4u;
        desc.triangles = tris;
        desc.triangle_count = 2u;
        CHECK_OK(test_create_mesh(&desc, &cloth));
    } else {
        cloth_grid_desc desc;
        cloth_grid_desc_init(&desc);
        desc.rows = desc.cols = 2u;
        desc.spacing = s;
        CHECK_OK(test_create_grid(&desc, &cloth));
    }
    if (cloth == NULL) {
        return NULL;
    }
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    for (int k = 0; k < 3; ++k) {
        CHECK_OK(cloth_set_stiffness(cloth, (cloth_spring_type)k, 0.0f));
    }
    CHECK_OK(cloth_set_gravity(cloth, zero));
    CHECK_OK(cloth_set_damping(cloth, 0.0f));
    CHECK_OK(cloth_set_air_density(cloth, 0.0f));
    CHECK_OK(cloth_set_substeps(cloth, 1u));
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_EXPLICIT_EULER));
    CHECK_OK(cloth_set_tethers(cloth, scale));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK_OK(cloth_pin(cloth, 0u, NULL));
    CHECK_OK(cloth_pin(cloth, 1u, NULL));
    return cloth;
}

static void test_two_tethers(bool mesh, float scale)
{
    cloth_t *cloth = two_tether_cloth(mesh, scale);
    if (cloth == NULL) {
        return;
    }
    float rest[12];
    CHECK_OK(cloth_get_positions(cloth, rest, 0));
    const double h = 1.0 / 60.0;
    uint32_t seed = 12345u;
    double err_x = 0.0, err_v = 0.0;
    int outside = 0, on_both = 0;
    for (int trial = 0; trial < 400; ++trial) {
        float pos[12], vel[12] = {0.0f};
        memcpy(pos, rest, sizeof pos);
        for (uint32_t i = 2u; i < 4u; ++i) {
            for (int m = 0; m < 3; ++m) {
                pos[3u * i + (uint32_t)m] = rest[3u * i + (uint32_t)m] + (float)uniform(&seed, -0.08, 0.08);
                vel[3u * i + (uint32_t)m] = (float)uniform(&seed, -3.0, 3.0);
            }
        }
        CHECK_OK(cloth_set_positions(cloth, pos, 0));
        CHECK_OK(cloth_set_velocities(cloth, vel, 0));
        CHECK_OK(cloth_step(cloth, (float)h));
        float got_x[12], got_v[12];
        CHECK_OK(cloth_get_positions(cloth, got_x, 0));
        CHECK_OK(cloth_get_velocities(cloth, got_v, 0));
        for (uint32_t i = 2u; i < 4u; ++i) {
            ball a, b;
            for (int m = 0; m < 3; ++m) {
                a.c[m] = (double)rest[m];
                b.c[m] = (double)rest[3 + m];
            }
            double p[3], y[3], x[3], v[3];
            for (int m = 0; m < 3; ++m) {
                p[m] = (double)rest[3u * i + (uint32_t)m];
                v[m] = (double)vel[3u * i + (uint32_t)m];
                y[m] = (double)pos[3u * i + (uint32_t)m] + v[m] * h;
            }
            a.r = (double)scale * dist3(p, a.c);
            b.r = (double)scale * dist3(p, b.c);
            nearest_of_two(&a, &b, y, x);
            const bool moved = dist3(x, y) > 0.0;
            outside += moved;
            /* velocity: the outward part along each taut tether, two rounds
             * when taut on both (pins at rest) */
            const ball *ab[2] = {&a, &b};
            bool taut[2];
            for (int k = 0; k < 2; ++k) {
                taut[k] = moved && dist3(x, ab[k]->c) >= ab[k]->r * (1.0 - 1e-6);
            }
            on_both += taut[0] && taut[1];
            for (int round = 0; round < (taut[0] && taut[1] ? 2 : 1); ++round) {
                for (int k = 0; k < 2; ++k) {
                    if (!taut[k]) {
                        continue;
                    }
                    double n[3], out = 0.0;
                    const double l = dist3(x, ab[k]->c);
                    for (int m = 0; m < 3; ++m) {
                        n[m] = (x[m] - ab[k]->c[m]) / l;
                        out += v[m] * n[m];
                    }
                    for (int m = 0; m < 3 && out > 0.0; ++m) {
                        v[m] -= out * n[m];
                    }
                }
            }
            for (int m = 0; m < 3; ++m) {
                err_x = fmax(err_x, fabs((double)got_x[3u * i + (uint32_t)m] - x[m]));
                err_v = fmax(err_v, fabs((double)got_v[3u * i + (uint32_t)m] - v[m]));
            }
        }
    }
    printf("G two tethers, %s, scale %.2f: 800 particle-substeps, %d pulled back (%d taut on both); worst error "
           "position %.3g m, velocity %.3g m/s\n",
           mesh ? "mesh (table)" : "grid (no table)", (double)scale, outside, on_both, err_x, err_v);
    CHECK(outside > 200 && on_both > 20); /* every case was exercised (measured 510-640, 47-124) */
    /* float arithmetic on coordinates below 0.3 m and speeds below 6 m/s:
     * a few ulps (2e-8 m, 5e-7 m/s) each */
    CHECK(err_x < 1e-6);
    CHECK(err_v < 1e-5);
    cloth_destroy(cloth);
}

/* ---------------------------------------------------------------- H */

/* The corner-hung cloth after 30 frames with `substeps` substeps: state into
 * pos and vel (3 NP floats each). */
static void hang(cloth_tether_schedule schedule, uint32_t substeps, float *pos, float *vel)
{
    cloth_t *cloth = make_cloth();
    if (cloth == NULL) {
        return;
    }
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_XPBD));
    CHECK_OK(cloth_set_substeps(cloth, substeps));
    CHECK_OK(cloth_pin(cloth, 0u, NULL));
    CHECK_OK(cloth_pin(cloth, N - 1u, NULL));
    CHECK_OK(cloth_set_tethers(cloth, 1.0f));
    CHECK_OK(cloth_set_tether_schedule(cloth, schedule));
    for (int f = 0; f < 30; ++f) {
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    }
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK_OK(cloth_get_velocities(cloth, vel, 0));
    cloth_destroy(cloth);
}

static void test_schedule(void)
{
    cloth_t *cloth = make_cloth();
    if (cloth == NULL) {
        return;
    }
    cloth_tether_schedule got = CLOTH_TETHER_SCHEDULE_FORCE32;
    CHECK_OK(cloth_get_tether_schedule(cloth, &got));
    CHECK(got == CLOTH_TETHERS_EVERY_SUBSTEP); /* the default */
    CHECK_STATUS(cloth_set_tether_schedule(NULL, CLOTH_TETHERS_LAST_SUBSTEP), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_tether_schedule(NULL, &got), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_tether_schedule(cloth, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_set_tether_schedule(cloth, CLOTH_TETHERS_LAST_SUBSTEP));
    const int32_t bad[] = {2, -1, 0x7fffffff};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        CHECK_STATUS(cloth_set_tether_schedule(cloth, (cloth_tether_schedule)bad[k]), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_OK(cloth_get_tether_schedule(cloth, &got));
        CHECK(got == CLOTH_TETHERS_LAST_SUBSTEP); /* unchanged */
    }
    /* kept while the tethers are switched off and on */
    CHECK_OK(cloth_set_tethers(cloth, 1.1f));
    CHECK_OK(cloth_set_tethers(cloth, 0.0f));
    CHECK_OK(cloth_set_tethers(cloth, 1.1f));
    CHECK_OK(cloth_get_tether_schedule(cloth, &got));
    CHECK(got == CLOTH_TETHERS_LAST_SUBSTEP);
    cloth_destroy(cloth);

    /* With one substep the last substep is every substep: the same bits.
     * With four the three before the last run free, so the state differs,
     * and the bound still holds at the end of every step (test A). */
    static float pe[3 * NP], ve[3 * NP], pl[3 * NP], vl[3 * NP];
    hang(CLOTH_TETHERS_EVERY_SUBSTEP, 1u, pe, ve);
    hang(CLOTH_TETHERS_LAST_SUBSTEP, 1u, pl, vl);
    CHECK(memcmp(pe, pl, sizeof pe) == 0 && memcmp(ve, vl, sizeof ve) == 0);
    hang(CLOTH_TETHERS_EVERY_SUBSTEP, 4u, pe, ve);
    hang(CLOTH_TETHERS_LAST_SUBSTEP, 4u, pl, vl);
    double moved = 0.0;
    for (uint32_t k = 0; k < 3u * NP; ++k) {
        moved = fmax(moved, fabs((double)pe[k] - (double)pl[k]));
    }
    printf("H schedule: one substep, same bits; four substeps, largest difference %.3g m\n", moved);
    CHECK(moved > 1e-6);
}

/* ---------------------------------------------------------------- I */

/* The state hash of A's cloth, made ROWS x COLS, hung from two swaying
 * corners on tethers at 1.0, with CLOTHSIM_SIMD=level. */
static uint64_t swaying_hash(const char *level)
{
    enum { ROWS = 37, COLS = 29 };
    setenv("CLOTHSIM_SIMD", level, 1);
    cloth_t *cloth = make_sized(ROWS, COLS);
    if (cloth == NULL) {
        return 0u;
    }
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_XPBD));
    CHECK_OK(cloth_set_tethers(cloth, 1.0f));
    for (int f = 1; f <= 60; ++f) {
        const float sway = 0.1f * sinf(0.1f * (float)f);
        const float a[3] = {sway, 0.0f, 0.0f}, b[3] = {sway + (float)(COLS - 1) * SPACING, 0.0f, 0.0f};
        CHECK_OK(cloth_pin(cloth, 0u, a));
        CHECK_OK(cloth_pin(cloth, COLS - 1u, b));
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    }
    const uint64_t hash = cloth_state_hash(cloth);
    cloth_destroy(cloth);
    return hash;
}

static void test_vector_levels(void)
{
    const char *was = getenv("CLOTHSIM_SIMD");
    const uint64_t plain = swaying_hash("scalar");
#if defined(__aarch64__)
    static const char *const levels[] = {"neon"};
#else
    static const char *const levels[] = {"sse2", "avx2", "avx512"};
#endif
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; ++l) {
        const bool same = swaying_hash(levels[l]) == plain;
        printf("I swaying corners, 37 x 29: CLOTHSIM_SIMD=%s %s scalar\n", levels[l],
               same ? "gives the same bits as" : "DIFFERS FROM");
        CHECK(same);
    }
    if (was != NULL) {
        setenv("CLOTHSIM_SIMD", was, 1);
    } else {
        unsetenv("CLOTHSIM_SIMD");
    }
}

/* J: two 6 x 6 pieces of one mesh, 5 cm spacing, side by side 2 cm apart
 * at the same height; the first pinned by its corner next to the second.
 * Over 0.5 s the free piece falls exactly as it does when nothing in the
 * mesh is pinned (same bits: no tether joins it to the other piece's pin;
 * tethered to that pin 2 cm away, as before pieces were told apart, it
 * would hang), and the pinned one hangs within its tethers. */
static double piece_falls(bool pinned, double *lowest_pinned_piece)
{
    enum { SIDE = 6, PIECE = SIDE * SIDE };
    static float pos[3 * 2 * PIECE];
    static uint32_t tris[2 * 6 * (SIDE - 1) * (SIDE - 1)];
    uint32_t t = 0;
    for (uint32_t piece = 0; piece < 2u; ++piece) {
        for (uint32_t r = 0; r < SIDE; ++r) {
            for (uint32_t c = 0; c < SIDE; ++c) {
                const uint32_t i = piece * PIECE + r * SIDE + c;
                pos[3 * i] = (float)piece * (0.25f + 0.02f) + 0.05f * (float)c;
                pos[3 * i + 1] = 1.0f;
                pos[3 * i + 2] = 0.05f * (float)r;
                if (r + 1u < SIDE && c + 1u < SIDE) {
                    const uint32_t q[6] = {i, i + SIDE, i + 1u, i + 1u, i + SIDE, i + SIDE + 1u};
                    for (int k = 0; k < 6; ++k) {
                        tris[t++] = q[k];
                    }
                }
            }
        }
    }
    cloth_mesh_desc desc;
    cloth_mesh_desc_init(&desc);
    desc.positions = pos;
    desc.vertex_count = 2u * PIECE;
    desc.triangles = tris;
    desc.triangle_count = t / 3u;
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_mesh(&desc, &c)); /* the library's defaults: tethers on */
    if (c == NULL) {
        return -1.0;
    }
    if (pinned) {
        CHECK_OK(cloth_pin(c, SIDE - 1u, NULL)); /* the first piece's corner beside the second */
    }
    for (int f = 0; f < 30; ++f) {
        CHECK_OK(cloth_step(c, 1.0f / 60.0f));
    }
    CHECK_OK(cloth_get_positions(c, pos, 0));
    double fall = 0.0;
    *lowest_pinned_piece = HUGE_VAL;
    for (uint32_t i = 0; i < PIECE; ++i) {
        fall += 1.0 - (double)pos[3 * (PIECE + i) + 1];
        *lowest_pinned_piece = fmin(*lowest_pinned_piece, (double)pos[3 * i + 1]);
    }
    cloth_destroy(c);
    return fall / PIECE;
}

static void test_pieces(void)
{
    double lowest = 0.0, ignored = 0.0;
    const double fall = piece_falls(true, &lowest), alone = piece_falls(false, &ignored);
    printf("J: a free piece beside a pinned one falls %.4f m in 0.5 s, as with nothing pinned (%.4f); the pinned "
           "piece's lowest point %.3f m (1 m less its diagonal, 0.354 m, is 0.646)\n",
           fall, alone, lowest);
    CHECK(fall == alone);
    CHECK(lowest > 1.0 - 0.3536 * 1.1); /* within its tethers (the defaults' scale is at most 1.1) */
}

int main(void)
{
    static const double out_side[3] = {0.3, 0.0, 0.6}, in_side[3] = {-0.3, 0.2, 0.6};
    test_every_integrator();
    test_pins_change();
    test_rest_shape();
    test_velocity(CLOTH_INTEGRATOR_EXPLICIT_EULER, out_side);
    test_velocity(CLOTH_INTEGRATOR_XPBD, out_side);
    test_velocity(CLOTH_INTEGRATOR_EXPLICIT_EULER, in_side);
    test_api();
    test_schedule();
    test_grid_rule(1.0f);
    test_grid_rule(1.1f);
    test_table_reserved();
    test_two_tethers(false, 1.0f);
    test_two_tethers(true, 1.0f);
    test_two_tethers(false, 1.2f);
    test_two_tethers(true, 1.2f);
    test_vector_levels();
    test_pieces();
    return test_finish("test_tethers");
}
