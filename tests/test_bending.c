/*
 * Dihedral bending (bending.h): a hinge on every interior edge with energy
 * k (theta - theta0)^2 / 2 and the force its negative gradient.
 *
 *  A. Cantilever. A plate clamped along one edge (rows 0 and 1 pinned: one
 *     pinned row alone is a hinge line the plate would swing about), no bend
 *     springs, sags less the stiffer the hinges, monotonically; at a small
 *     deflection it matches the discrete beam: the hinges along row j carry
 *     the moment of every row below, theta_j = M_j / k per hinge, and the tip
 *     drop is s times the sum of the accumulated slopes. Implicit Euler, which
 *     treats the hinges explicitly, rests in the same place.
 *  B. A mesh built folded (a V of two flat wings, 60 degrees) keeps its fold
 *     in zero gravity: the fold, kicked open, returns to its rest angle with
 *     bending, and stays open without it; bending switched on only once the
 *     fold has opened still brings it back to the creation angle.
 *  A'. One hinge at a large angle: k phi = m g s cos phi (phi = cos phi).
 *  C. At the rest shape the hinges do nothing: a resting cloth in zero
 *     gravity does not move by a single bit (grid and folded mesh).
 *  D. Momentum: the hinge forces of a deformed cloth sum to zero and exert
 *     no torque (one symplectic Euler step from rest, springs off).
 *  E. Energy: undamped symplectic Euler on a cloth with springs and hinges
 *     keeps the total energy (kinetic + springs + hinges, computed here from
 *     the public state) within the method's bound, with no drift.
 *  F. API: refused values and a failed allocation change nothing.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const float k_dt = 1.0f / 60.0f;
static const double k_pi = 3.14159265358979323846;

/* ---- hinges seen from outside: interior edges of cloth_get_triangles() ---- */

typedef struct hinge {
    uint32_t a, b, p, q; /* a -> b as the first triangle winds it; p its third corner, q the other's */
    double rest;
} hinge;

/* O(T^2) search: the test meshes have at most a few hundred triangles. An
 * edge belongs to a hinge when exactly two triangles share it. */
static uint32_t find_hinges(const uint32_t *tris, uint32_t nt, hinge *out, uint32_t cap)
{
    uint32_t n = 0;
    for (uint32_t t = 0; t < nt; ++t) {
        for (uint32_t c = 0; c < 3u; ++c) {
            const uint32_t a = tris[3 * t + c], b = tris[3 * t + (c + 1u) % 3u], p = tris[3 * t + (c + 2u) % 3u];
            uint32_t shared = 0, q = 0;
            bool earlier = false;
            for (uint32_t u = 0; u < nt; ++u) {
                if (u == t) {
                    continue;
                }
                for (uint32_t d = 0; d < 3u; ++d) {
                    const uint32_t x = tris[3 * u + d], y = tris[3 * u + (d + 1u) % 3u];
                    if ((x == a && y == b) || (x == b && y == a)) {
                        ++shared;
                        q = tris[3 * u + (d + 2u) % 3u];
                        earlier = earlier || u < t;
                    }
                }
            }
            if (shared == 1u && !earlier && n < cap) {
                out[n++] = (hinge){a, b, p, q, 0.0};
            }
        }
    }
    return n;
}

static double dihedral(const float *x, const hinge *h)
{
    double e[3], pa[3], qa[3], n1[3], n2[3], c[3];
    for (int k = 0; k < 3; ++k) {
        e[k] = (double)x[3 * h->b + (uint32_t)k] - (double)x[3 * h->a + (uint32_t)k];
        pa[k] = (double)x[3 * h->p + (uint32_t)k] - (double)x[3 * h->a + (uint32_t)k];
        qa[k] = (double)x[3 * h->q + (uint32_t)k] - (double)x[3 * h->a + (uint32_t)k];
    }
    /* N1 = e x (p - a), N2 = (q - a) x e: the same direction when flat */
    n1[0] = e[1] * pa[2] - e[2] * pa[1];
    n1[1] = e[2] * pa[0] - e[0] * pa[2];
    n1[2] = e[0] * pa[1] - e[1] * pa[0];
    n2[0] = qa[1] * e[2] - qa[2] * e[1];
    n2[1] = qa[2] * e[0] - qa[0] * e[2];
    n2[2] = qa[0] * e[1] - qa[1] * e[0];
    c[0] = n1[1] * n2[2] - n1[2] * n2[1];
    c[1] = n1[2] * n2[0] - n1[0] * n2[2];
    c[2] = n1[0] * n2[1] - n1[1] * n2[0];
    const double elen = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    return atan2(c[0] * e[0] + c[1] * e[1] + c[2] * e[2], elen * (n1[0] * n2[0] + n1[1] * n2[1] + n1[2] * n2[2]));
}

static double wrap(double d)
{
    return d > k_pi ? d - 2.0 * k_pi : (d < -k_pi ? d + 2.0 * k_pi : d);
}

/* ---- builders ---- */

static cloth_t *make_grid(uint32_t rows, uint32_t cols, float spacing, float mass)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    cloth_grid_desc_init(&desc);
    desc.rows = rows;
    desc.cols = cols;
    desc.spacing = spacing;
    desc.particle_mass = mass;
    CHECK_OK(test_create_grid(&desc, &cloth));
    return cloth;
}

/* A V-shaped mesh: FR rows along z, FC columns across; columns up to FOLD_C
 * lie in y = 0, the rest rise at FOLD_ANGLE from the fold line x = FOLD_C s.
 * Triangulated as a grid is. */
#define FR 5u
#define FC 7u
#define FOLD_C 3u
#define FOLD_S 0.05f
#define FOLD_NT (2u * (FR - 1u) * (FC - 1u))
static const double k_fold_angle = 60.0 * 3.14159265358979323846 / 180.0;

static float g_fold_pos[3 * FR * FC];
static uint32_t g_fold_tris[3 * FOLD_NT];

static cloth_t *make_fold(void)
{
    for (uint32_t r = 0; r < FR; ++r) {
        for (uint32_t c = 0; c < FC; ++c) {
            float *v = g_fold_pos + 3u * (r * FC + c);
            double along = c <= FOLD_C ? 0.0 : (double)(c - FOLD_C) * (double)FOLD_S;
            double x0 = (double)(c <= FOLD_C ? c : FOLD_C) * (double)FOLD_S;
            v[0] = (float)(x0 + along * cos(k_fold_angle));
            v[1] = (float)(along * sin(k_fold_angle));
            v[2] = (float)r * FOLD_S;
        }
    }
    uint32_t t = 0;
    for (uint32_t r = 0; r + 1u < FR; ++r) {
        for (uint32_t c = 0; c + 1u < FC; ++c) {
            const uint32_t i = r * FC + c;
            const uint32_t tri[6] = {i, i + FC, i + 1u, i + 1u, i + FC, i + FC + 1u};
            memcpy(g_fold_tris + 6u * t, tri, sizeof tri);
            ++t;
        }
    }
    cloth_mesh_desc desc;
    cloth_t *cloth = NULL;
    cloth_mesh_desc_init(&desc);
    desc.positions = g_fold_pos;
    desc.vertex_count = FR * FC;
    desc.triangles = g_fold_tris;
    desc.triangle_count = FOLD_NT;
    CHECK_OK(test_create_mesh(&desc, &cloth));
    return cloth;
}

static bool run(cloth_t *cloth, uint32_t frames)
{
    for (uint32_t f = 0; f < frames; ++f) {
        cloth_status s = cloth_step(cloth, k_dt);
        if (s != CLOTH_OK) {
            CHECK_OK(s);
            return false;
        }
    }
    return true;
}

/* ---- A. cantilever ---- */

#define CR 8u /* rows: 0 and 1 clamped, 2..7 free */
#define CC 6u
#define CS 0.05f
#define CM 0.01f

static float g_cant_pos[3 * CR * CC];

/* Mean drop of the last row below the clamp after 6 s, settled; the final
 * positions are left in g_cant_pos. */
static double cantilever_drop(float k_bend, cloth_integrator kind)
{
    cloth_t *cloth = make_grid(CR, CC, CS, CM);
    if (cloth == NULL) {
        return (double)NAN;
    }
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_BEND, 0.0f));
    CHECK_OK(cloth_set_bending_stiffness(cloth, k_bend));
    /*
     * Hinge stability (bending.h): w^2 ~ 37 k / (m s^2) = 4.4e6 /s^2 at
     * k = 3, so h = 1/7680 s (128 substeps) gives w h = 0.27, and the
     * springs' w_max h = 0.13. Damping 5 /s: every mode faster than
     * 2.5 rad/s (all here; the slowest, the k = 0.03 plate's, ~3.4 rad/s)
     * decays as exp(-2.5 t), by e^-15 in 6 s.
     */
    CHECK_OK(cloth_set_substeps(cloth, 128u));
    CHECK_OK(cloth_set_damping(cloth, 5.0f));
    CHECK_OK(cloth_set_integrator(cloth, kind));
    for (uint32_t i = 0; i < 2u * CC; ++i) {
        CHECK_OK(cloth_pin(cloth, i, NULL));
    }
    double drop = (double)NAN;
    if (run(cloth, 360u)) {
        float *p = g_cant_pos;
        CHECK_OK(cloth_get_positions(cloth, p, 0));
        double y = 0.0;
        for (uint32_t c = 0; c < CC; ++c) {
            y += (double)p[3u * ((CR - 1u) * CC + c) + 1u];
        }
        drop = -y / (double)CC;
    }
    cloth_destroy(cloth);
    return drop;
}

/* The moment balance of every hinge row of the settled k_bend plate. */
static void check_row_moments(float k_bend)
{
    cloth_t *shape = make_grid(CR, CC, CS, CM);
    if (shape == NULL) {
        return;
    }
    static uint32_t tris[3 * 2 * (CR - 1u) * (CC - 1u)];
    static hinge hs[3 * 2 * (CR - 1u) * (CC - 1u)];
    const uint32_t nt = cloth_triangle_count(shape);
    CHECK_OK(cloth_get_triangles(shape, tris));
    cloth_destroy(shape);
    const uint32_t nh = find_hinges(tris, nt, hs, 3u * nt);
    const float *p = g_cant_pos;
    double worst = 0.0;
    for (uint32_t j = 1; j + 1u < CR; ++j) {
        double sum_theta = 0.0, z_axis = 0.0, moment = 0.0;
        uint32_t count = 0;
        for (uint32_t h = 0; h < nh; ++h) {
            if (hs[h].a / CC == j && hs[h].b / CC == j) {
                sum_theta += dihedral(p, &hs[h]); /* rest angle 0: the plate was built flat */
                ++count;
            }
        }
        for (uint32_t c = 0; c < CC; ++c) {
            z_axis += (double)p[3u * (j * CC + c) + 2u] / (double)CC;
        }
        for (uint32_t i = j + 1u; i < CR; ++i) {
            for (uint32_t c = 0; c < CC; ++c) {
                moment += (double)CM * 9.81 * ((double)p[3u * (i * CC + c) + 2u] - z_axis);
            }
        }
        CHECK(count == CC - 1u);
        const double carried = (double)k_bend * fabs(sum_theta);
        /*
         * 1 %: the identity is exact for a straight row line; row j bows by
         * ~1 mm over 0.25 m under the twist, tilting the hinge edges by ~4e-3
         * rad (a cos error of 1e-5), and the in-plane springs stretch by
         * ~1e-4 under these loads; settled to ~1e-8 m.
         */
        CHECK_NEAR(carried, moment, 0.01 * moment);
        const double rel = fabs(carried - moment) / moment;
        worst = rel > worst ? rel : worst;
        if (j == 1u) {
            printf("cantilever k_bend = %g: hinge row 1 carries %.6f N m, the weight beyond it pulls %.6f N m\n",
                   (double)k_bend, carried, moment);
        }
    }
    printf("cantilever k_bend = %g: worst relative moment imbalance over the %u hinge rows %.3g\n", (double)k_bend,
           (unsigned)(CR - 2u), worst);
}

static void test_cantilever(void)
{
    const float ks[4] = {0.0f, 0.03f, 0.3f, 3.0f};
    double drops[4];
    for (int i = 0; i < 4; ++i) {
        drops[i] = cantilever_drop(ks[i], CLOTH_INTEGRATOR_EXPLICIT_EULER);
        printf("cantilever %u x %u, k_bend = %g N m/rad: tip drop %.6f m\n", (unsigned)CR, (unsigned)CC,
               (double)ks[i], drops[i]);
    }
    /* without hinges or bend springs the plate hangs from the clamp: the free
     * length is 6 spacings = 0.3 m, and it drops nearly all of it */
    CHECK(drops[0] > 0.25);
    for (int i = 1; i < 4; ++i) {
        CHECK(drops[i] < drops[i - 1]);
    }
    /*
     * Statics, exact for any shape: turn everything beyond hinge row j
     * (rows j + 1 ...) rigidly about row j's line by a small angle. Only the
     * hinges on row j's edges change, each by that angle (no bend springs;
     * every spring across the line ends on it). Virtual work: the row's
     * hinges together carry the weight's moment about the line,
     *     sum_c k theta_{j,c} = sum_{i>j} sum_c m g (z_{i,c} - z_j),
     * whatever the twist the one-way diagonals of the triangulation give the
     * plate (which is why a beam formula would not do: measured, the drop is
     * 24 % above the beam's and the corners differ by 29 %).
     */
    check_row_moments(3.0f);
    /* statics do not depend on the integrator (implicit treats hinges explicitly) */
    const double drop_implicit = cantilever_drop(ks[3], CLOTH_INTEGRATOR_IMPLICIT_EULER);
    /* both settled to ~1e-8 m; the solve's tolerance leaves ~1e-4 relative */
    CHECK_NEAR(drop_implicit, drops[3], 1e-3 * drops[3]);
    printf("cantilever k_bend = 3 with implicit Euler: tip drop %.6f m\n", drop_implicit);
}

/* ---- A'. one hinge at a large angle ---- */

/*
 * Two triangles sharing the edge a b along z: (a, b, p) held flat and
 * pinned, q free at distance s from the edge line, beside it in the same
 * plane. Gravity turns q's triangle down by phi; the springs q-a and q-b
 * pass through the hinge line and exert no torque about it, so at rest
 *     k phi = m g x_q = m g s cos phi.
 * With k = m g s, phi solves phi = cos phi: 0.7390851 rad (42.3 degrees),
 * far outside any small-angle regime.
 */
static void test_single_hinge(void)
{
    const float s = 0.05f, m = 0.01f;
    const float pos[12] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, s, -s, 0.0f, 0.5f * s, s, 0.0f, 0.5f * s};
    const uint32_t tris[6] = {0u, 1u, 2u, 1u, 0u, 3u};
    cloth_mesh_desc desc;
    cloth_t *cloth = NULL;
    cloth_mesh_desc_init(&desc);
    desc.positions = pos;
    desc.vertex_count = 4u;
    desc.triangles = tris;
    desc.triangle_count = 2u;
    desc.particle_mass = m;
    CHECK_OK(test_create_mesh(&desc, &cloth));
    if (cloth == NULL) {
        return;
    }
    const double k = (double)m * 9.81 * (double)s;
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 200.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_BEND, 0.0f));
    CHECK_OK(cloth_set_bending_stiffness(cloth, (float)k));
    CHECK_OK(cloth_set_damping(cloth, 4.0f));
    for (uint32_t i = 0; i < 3u; ++i) {
        CHECK_OK(cloth_pin(cloth, i, NULL));
    }
    if (run(cloth, 600u)) {
        float p[12];
        CHECK_OK(cloth_get_positions(cloth, p, 0));
        const hinge h = {0u, 1u, 2u, 3u, 0.0};
        const double phi = fabs(dihedral(p, &h));
        const double torque = k * phi, weight_moment = (double)m * 9.81 * (double)p[9];
        /* torque balance: exact but for settling (e^-20) and float rounding */
        CHECK_NEAR(torque, weight_moment, 1e-5 * weight_moment);
        /* the angle: the springs (K ~ 3600 N/m each) stretch by ~1e-5 m
         * under q's weight, moving the lever by 2e-4 of s: 1e-4 rad */
        CHECK_NEAR(phi, 0.7390851332, 1e-3);
        printf("single hinge, k = m g s: rests at %.7f rad (phi = cos phi: 0.7390851), torque %.6g N m vs "
               "weight moment %.6g N m\n",
               phi, torque, weight_moment);
    }
    cloth_destroy(cloth);
}

/* ---- B. the folded mesh keeps its fold ---- */

/* Mean rest-angle error over the fold's hinges, and the largest over all. */
static void fold_error(const float *p, const hinge *hs, uint32_t n, double *fold_mean, double *worst)
{
    double sum = 0.0;
    uint32_t count = 0;
    *worst = 0.0;
    for (uint32_t h = 0; h < n; ++h) {
        double d = wrap(dihedral(p, &hs[h]) - hs[h].rest);
        *worst = fabs(d) > *worst ? fabs(d) : *worst;
        if (fabs(hs[h].rest) > 0.5) {
            sum += d;
            ++count;
        }
    }
    *fold_mean = count ? sum / (double)count : 0.0;
}

static void test_fold(void)
{
    hinge hs[3 * FOLD_NT];
    /* with: 0 bending off, 1 on from the start, 2 switched on only after
     * 2 s of the kick, when the fold has opened: the rest angles still come
     * from the creation shape */
    for (int with = 0; with < 3; ++with) {
        cloth_t *cloth = make_fold();
        if (cloth == NULL) {
            return;
        }
        const uint32_t n = find_hinges(g_fold_tris, FOLD_NT, hs, 3u * FOLD_NT);
        uint32_t fold_hinges = 0;
        for (uint32_t h = 0; h < n; ++h) {
            hs[h].rest = dihedral(g_fold_pos, &hs[h]);
            fold_hinges += fabs(hs[h].rest) > 0.5 ? 1u : 0u;
        }
        /* the fold line has FR - 1 edges, each at +-60 degrees; every other hinge is flat */
        CHECK(fold_hinges == FR - 1u);
        const float zero[3] = {0.0f, 0.0f, 0.0f};
        CHECK_OK(cloth_set_gravity(cloth, zero));
        CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_BEND, 0.0f));
        CHECK_OK(cloth_set_damping(cloth, 4.0f));
        CHECK_OK(cloth_set_bending_stiffness(cloth, with == 1 ? 0.05f : 0.0f));
        /* kick: the raised wing turns about the fold line at 2 rad/s */
        float v[3 * FR * FC];
        memset(v, 0, sizeof v);
        const float w0 = 2.0f, axis_x = (float)FOLD_C * FOLD_S;
        for (uint32_t r = 0; r < FR; ++r) {
            for (uint32_t c = FOLD_C + 1u; c < FC; ++c) {
                const float *x = g_fold_pos + 3u * (r * FC + c);
                v[3u * (r * FC + c)] = -w0 * x[1];
                v[3u * (r * FC + c) + 1u] = w0 * (x[0] - axis_x);
            }
        }
        CHECK_OK(cloth_set_velocities(cloth, v, 0));
        bool ok = true;
        if (with == 2) {
            ok = run(cloth, 120u);
            CHECK_OK(cloth_set_bending_stiffness(cloth, 0.05f));
        }
        if (ok && run(cloth, 300u)) {
            float p[3 * FR * FC];
            CHECK_OK(cloth_get_positions(cloth, p, 0));
            double mean, worst;
            fold_error(p, hs, n, &mean, &worst);
            if (with) {
                /*
                 * Four hinges of 0.05 N m/rad against the wing's 1.75e-3 kg m^2
                 * about the fold: ~11 rad/s, damped at 2 /s (half of 4 /s), so
                 * the 0.19 rad swing is down to 1e-5 rad after 5 s; the flat
                 * hinges likewise (switched on late: a 0.27 rad start,
                 * the same decay). Allow 1e-3 rad everywhere.
                 */
                CHECK(worst < 1e-3);
            } else {
                /* nothing brings it back: a rigid wing would turn by
                 * w0 / c = 0.5 rad before damping stops it; without hinges the
                 * wing also flops about its own edges, which takes part of the
                 * kick (measured 0.27 rad). 0.1 rad is 1e5 times the error
                 * with bending. */
                CHECK(fabs(mean) > 0.1);
            }
            static const char *const what[3] = {"off", "0.05 N m/rad", "0.05 N m/rad from t = 2 s"};
            printf("folded mesh (60 deg), kicked open at 2 rad/s, %s s: bending %s: fold off its rest angle by "
                   "%.3g rad (worst hinge %.3g rad)\n",
                   with == 2 ? "7" : "5", what[with], mean, worst);
        }
        cloth_destroy(cloth);
    }
}

/* ---- C. nothing moves at rest ---- */

static void test_rest_is_rest(void)
{
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    /* a flat grid, springs off (its rest lengths come from the axes and may
     * differ from the positions by rounding; that is the springs' business) */
    cloth_t *grid = make_grid(8u, 9u, 0.05f, 0.01f);
    cloth_t *fold = make_fold();
    if (grid == NULL || fold == NULL) {
        cloth_destroy(grid);
        cloth_destroy(fold);
        return;
    }
    for (int t = 0; t < 3; ++t) {
        CHECK_OK(cloth_set_stiffness(grid, (cloth_spring_type)t, 0.0f));
    }
    cloth_t *both[2] = {grid, fold};
    const uint32_t counts[2] = {72u, FR * FC};
    for (int c = 0; c < 2; ++c) {
        float before[3 * 72], after[3 * 72], vel[3 * 72];
        CHECK_OK(cloth_set_gravity(both[c], zero));
        CHECK_OK(cloth_set_bending_stiffness(both[c], 1.0f));
        CHECK_OK(cloth_get_positions(both[c], before, 0));
        run(both[c], 100u);
        CHECK_OK(cloth_get_positions(both[c], after, 0));
        CHECK_OK(cloth_get_velocities(both[c], vel, 0));
        bool still = memcmp(before, after, sizeof(float) * 3u * counts[c]) == 0;
        bool zero_v = true;
        for (uint32_t i = 0; i < 3u * counts[c]; ++i) {
            zero_v = zero_v && vel[i] == 0.0f;
        }
        CHECK(still);
        CHECK(zero_v);
        printf("%s at rest, zero gravity, k_bend = 1, 100 steps: positions %s, velocities %s\n",
               c == 0 ? "flat grid (springs off)" : "folded mesh (springs on)", still ? "bitwise unchanged" : "MOVED",
               zero_v ? "all exactly 0" : "NOT 0");
    }
    cloth_destroy(grid);
    cloth_destroy(fold);
}

/* ---- D. momentum ---- */

static uint32_t g_rng = 12345u;
static float rnd(void)
{
    g_rng = g_rng * 1664525u + 1013904223u;
    return (float)(g_rng >> 8) / 16777216.0f - 0.5f; /* [-0.5, 0.5) */
}

static void test_momentum(void)
{
    cloth_t *cloth = make_fold();
    if (cloth == NULL) {
        return;
    }
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    const uint32_t n = FR * FC;
    const float m = 0.01f;
    CHECK_OK(cloth_set_gravity(cloth, zero));
    CHECK_OK(cloth_set_damping(cloth, 0.0f));
    for (int t = 0; t < 3; ++t) {
        CHECK_OK(cloth_set_stiffness(cloth, (cloth_spring_type)t, 0.0f));
    }
    CHECK_OK(cloth_set_substeps(cloth, 1u));
    CHECK_OK(cloth_set_bending_stiffness(cloth, 0.5f));
    /* bend every hinge away from its rest angle: shift each particle by up to 1 cm */
    float p[3 * FR * FC], v[3 * FR * FC];
    memcpy(p, g_fold_pos, sizeof p);
    for (uint32_t i = 0; i < 3u * n; ++i) {
        p[i] += 0.02f * rnd();
    }
    CHECK_OK(cloth_set_positions(cloth, p, 0));
    CHECK_OK(cloth_step(cloth, k_dt)); /* from rest: v = h f / m */
    CHECK_OK(cloth_get_velocities(cloth, v, 0));
    /* positions at which the forces acted (about the centroid, so that the
     * torque is not swamped by the lever of the origin) */
    double cx[3] = {0.0, 0.0, 0.0};
    for (uint32_t i = 0; i < n; ++i) {
        for (int k = 0; k < 3; ++k) {
            cx[k] += (double)p[3u * i + (uint32_t)k] / (double)n;
        }
    }
    double P[3] = {0.0, 0.0, 0.0}, L[3] = {0.0, 0.0, 0.0}, P_abs = 0.0, L_abs = 0.0;
    for (uint32_t i = 0; i < n; ++i) {
        double mv[3], r[3];
        for (int k = 0; k < 3; ++k) {
            mv[k] = (double)m * (double)v[3u * i + (uint32_t)k];
            r[k] = (double)p[3u * i + (uint32_t)k] - cx[k];
            P[k] += mv[k];
        }
        const double lx = r[1] * mv[2] - r[2] * mv[1], ly = r[2] * mv[0] - r[0] * mv[2],
                     lz = r[0] * mv[1] - r[1] * mv[0];
        L[0] += lx;
        L[1] += ly;
        L[2] += lz;
        P_abs += sqrt(mv[0] * mv[0] + mv[1] * mv[1] + mv[2] * mv[2]);
        L_abs += sqrt(lx * lx + ly * ly + lz * lz);
    }
    const double p_net = sqrt(P[0] * P[0] + P[1] * P[1] + P[2] * P[2]);
    const double l_net = sqrt(L[0] * L[0] + L[1] * L[1] + L[2] * L[2]);
    /*
     * Exact sums are zero. Each hinge's four forces are built so that they
     * cancel to ~1 ulp, each velocity is h f / m rounded three times, and
     * ~100 hinges add into each sum: a few 1e-7 of the sum of magnitudes.
     * Allow 1e-5. Angular momentum has the same budget (the levers are
     * exact doubles of the float positions).
     */
    CHECK(P_abs > 0.0);
    CHECK(p_net <= 1e-5 * P_abs);
    CHECK(l_net <= 1e-5 * L_abs);
    printf("momentum after one step of hinge forces: |sum m v| = %.3g of sum |m v| = %.3g (ratio %.3g); "
           "|sum r x m v| = %.3g of %.3g (ratio %.3g)\n",
           p_net, P_abs, p_net / P_abs, l_net, L_abs, l_net / L_abs);
    cloth_destroy(cloth);
}

/* ---- E. energy ---- */

#define ER 10u
#define EC 10u
#define EN (ER * EC)
#define ENT (2u * (ER - 1u) * (EC - 1u))

static double energy(const cloth_t *cloth, const float *k_type, float k_bend, float m, const hinge *hs, uint32_t nh,
                     const uint32_t *pairs, const float *rest, const cloth_spring_type *types, uint32_t ns)
{
    float p[3 * EN], v[3 * EN];
    CHECK_OK(cloth_get_positions(cloth, p, 0));
    CHECK_OK(cloth_get_velocities(cloth, v, 0));
    double e = 0.0;
    for (uint32_t i = 0; i < 3u * EN; ++i) {
        e += 0.5 * (double)m * (double)v[i] * (double)v[i];
    }
    for (uint32_t s = 0; s < ns; ++s) {
        const uint32_t i = pairs[2 * s], j = pairs[2 * s + 1];
        double d2 = 0.0;
        for (uint32_t k = 0; k < 3u; ++k) {
            const double d = (double)p[3 * j + k] - (double)p[3 * i + k];
            d2 += d * d;
        }
        const double l0 = (double)rest[s], dl = sqrt(d2) - l0;
        e += (double)k_type[types[s]] * dl * dl / (2.0 * l0); /* T = k (l - L0) / L0 integrated */
    }
    for (uint32_t h = 0; h < nh; ++h) {
        const double d = wrap(dihedral(p, &hs[h]) - hs[h].rest);
        e += 0.5 * (double)k_bend * d * d;
    }
    return e;
}

static void test_energy(void)
{
    const float m = 0.01f, s = 0.05f, k_bend = 0.05f;
    const float k_type[3] = {5.0f, 2.0f, 0.5f};
    cloth_t *cloth = make_grid(ER, EC, s, m);
    if (cloth == NULL) {
        return;
    }
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    CHECK_OK(cloth_set_gravity(cloth, zero));
    CHECK_OK(cloth_set_damping(cloth, 0.0f));
    for (int t = 0; t < 3; ++t) {
        CHECK_OK(cloth_set_stiffness(cloth, (cloth_spring_type)t, k_type[t]));
        CHECK_OK(cloth_set_spring_damping(cloth, (cloth_spring_type)t, 0.0f));
    }
    const uint32_t substeps = 64u;
    CHECK_OK(cloth_set_substeps(cloth, substeps));
    CHECK_OK(cloth_set_bending_stiffness(cloth, k_bend));

    static uint32_t tris[3 * ENT], pairs[2 * 1024];
    static float rest[1024];
    static cloth_spring_type types[1024];
    static hinge hs[3 * ENT];
    float p[3 * EN], v[3 * EN];
    CHECK_OK(cloth_get_triangles(cloth, tris));
    CHECK_OK(cloth_get_positions(cloth, p, 0));
    const uint32_t nh = find_hinges(tris, ENT, hs, 3u * ENT);
    /* interior edges of an R x C grid: (R-2)(C-1) + (R-1)(C-2) + (R-1)(C-1) */
    CHECK(nh == (ER - 2u) * (EC - 1u) + (ER - 1u) * (EC - 2u) + (ER - 1u) * (EC - 1u));
    for (uint32_t h = 0; h < nh; ++h) {
        hs[h].rest = dihedral(p, &hs[h]);
    }
    const uint32_t ns = cloth_spring_count(cloth);
    CHECK(ns <= 1024u);
    if (ns > 1024u) {
        cloth_destroy(cloth);
        return;
    }
    CHECK_OK(cloth_get_springs(cloth, pairs, rest, types));
    /* an out-of-plane kick, a smooth bump: what the hinges resist */
    for (uint32_t r = 0; r < ER; ++r) {
        for (uint32_t c = 0; c < EC; ++c) {
            const double u = (double)r / (ER - 1u), w = (double)c / (EC - 1u);
            v[3 * (r * EC + c)] = 0.0f;
            v[3 * (r * EC + c) + 1] = (float)(0.3 * sin(k_pi * u) * sin(2.0 * k_pi * w));
            v[3 * (r * EC + c) + 2] = 0.0f;
        }
    }
    CHECK_OK(cloth_set_velocities(cloth, v, 0));

    const uint32_t frames = 600u;
    double e0 = energy(cloth, k_type, k_bend, m, hs, nh, pairs, rest, types, ns);
    double worst = 0.0, first = 0.0, last = 0.0, bend_max = 0.0;
    const uint32_t window = frames / 5u;
    for (uint32_t f = 0; f < frames; ++f) {
        if (cloth_step(cloth, k_dt) != CLOTH_OK) {
            CHECK(0);
            break;
        }
        const double e = energy(cloth, k_type, k_bend, m, hs, nh, pairs, rest, types, ns);
        const double eb = energy(cloth, zero, k_bend, 0.0f, hs, nh, pairs, rest, types, 0u);
        bend_max = eb > bend_max ? eb : bend_max;
        worst = fabs(e - e0) / e0 > worst ? fabs(e - e0) / e0 : worst;
        if (f < window) {
            first += e / window;
        } else if (f >= frames - window) {
            last += e / window;
        }
    }
    /*
     * Symplectic Euler conserves, for a mode of frequency w, the modified
     * energy E - (h/2) w^2 m x v, so E itself stays within a factor
     * 1 / (1 -+ w h / 2) of it: |E - E0| / E0 <= w h / (2 - w h) with w the
     * highest frequency. Here w^2 <= (8 / (m s)) (k_s + k_sh / sqrt 2 +
     * k_b / 2) for the springs plus 37 k_bend / (m s^2) for the hinges
     * (bending.h; the largest eigenvalues add at most), h = 1/3840 s.
     */
    const double h = (double)k_dt / substeps;
    const double w2 = 8.0 / ((double)m * (double)s) * ((double)k_type[0] + (double)k_type[1] / sqrt(2.0) +
                                                       (double)k_type[2] / 2.0) +
                      37.0 * (double)k_bend / ((double)m * (double)s * (double)s);
    const double wh = sqrt(w2) * h, bound = wh / (2.0 - wh);
    CHECK(worst <= bound);
    /* no drift: the mean over the last 2 s against the first 2 s. Rounding
     * over 38,400 substeps walks the energy by ~1e-5; allow 1e-3. */
    CHECK_NEAR(last, first, 1e-3 * first);
    /* and the hinges took part: their energy rose to a sizeable share */
    CHECK(bend_max > 0.1 * e0);
    printf("energy, undamped symplectic Euler, 10 s at h = 1/3840 s: E0 = %.6g J, worst |E - E0| / E0 = %.3g "
           "(bound w h / (2 - w h) = %.3g), mean last 2 s / first 2 s = %.7f, peak hinge energy %.3g J\n",
           e0, worst, bound, last / first, bend_max);
    cloth_destroy(cloth);
}

/* ---- F. API ---- */

static int g_fail_alloc;
static void *test_alloc(void *user, size_t size, size_t alignment)
{
    (void)user;
    if (g_fail_alloc) {
        return NULL;
    }
    size_t rounded = (size + alignment - 1u) / alignment * alignment;
    return aligned_alloc(alignment, rounded);
}
static void test_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

static void test_api(void)
{
    CHECK_STATUS(cloth_set_bending_stiffness(NULL, 1.0f), CLOTH_ERR_INVALID_ARGUMENT);
    const cloth_allocator hooks = {test_alloc, test_free, NULL};
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = 6u;
    desc.cols = 6u;
    desc.allocator = &hooks;
    cloth_t *a = NULL, *ref = NULL;
    CHECK_OK(test_create_grid(&desc, &a));
    CHECK_OK(test_create_grid(&desc, &ref));
    if (a == NULL || ref == NULL) {
        cloth_destroy(a);
        cloth_destroy(ref);
        return;
    }
    CHECK_STATUS(cloth_set_bending_stiffness(a, -1.0f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_bending_stiffness(a, NAN), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_bending_stiffness(a, INFINITY), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_bending_stiffness(a, -0.0f), CLOTH_OK); /* zero: off, nothing to allocate */
    g_fail_alloc = 1;
    CHECK_STATUS(cloth_set_bending_stiffness(a, 1.0f), CLOTH_ERR_OUT_OF_MEMORY);
    CHECK_OK(cloth_set_bending_stiffness(a, 0.0f)); /* off needs no memory */
    g_fail_alloc = 0;
    /* after the refusals the cloth behaves as one never asked: bit for bit */
    CHECK_OK(cloth_pin(a, 0u, NULL));
    CHECK_OK(cloth_pin(ref, 0u, NULL));
    run(a, 30u);
    run(ref, 30u);
    float pa[3 * 36], pr[3 * 36];
    CHECK_OK(cloth_get_positions(a, pa, 0));
    CHECK_OK(cloth_get_positions(ref, pr, 0));
    CHECK(memcmp(pa, pr, sizeof pa) == 0);
    /* now on; then refused values keep the stiffness that was set */
    CHECK_OK(cloth_set_bending_stiffness(a, 0.01f));
    CHECK_OK(cloth_set_bending_stiffness(ref, 0.01f));
    CHECK_STATUS(cloth_set_bending_stiffness(a, -2.0f), CLOTH_ERR_INVALID_ARGUMENT);
    run(a, 30u);
    run(ref, 30u);
    CHECK_OK(cloth_get_positions(a, pa, 0));
    CHECK_OK(cloth_get_positions(ref, pr, 0));
    CHECK(memcmp(pa, pr, sizeof pa) == 0);
    /* a cloth with no interior edge (a single row) accepts bending and is unchanged by it */
    cloth_grid_desc_init(&desc);
    desc.rows = 1u;
    desc.cols = 5u;
    cloth_t *row = NULL;
    CHECK_OK(test_create_grid(&desc, &row));
    CHECK_OK(cloth_set_bending_stiffness(row, 1.0f));
    CHECK_OK(cloth_step(row, k_dt));
    cloth_destroy(row);
    cloth_destroy(a);
    cloth_destroy(ref);
}

int main(void)
{
    test_cantilever();
    test_single_hinge();
    test_fold();
    test_rest_is_rest();
    test_momentum();
    test_energy();
    test_api();
    return test_finish("test_bending");
}
