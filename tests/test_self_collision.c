/*
 * test_self_collision: particle-against-particle self-collision
 * (cloth_set_self_collision).
 *
 * A: a 24 x 24 sheet (spacing 3 cm) dropped nearly upright onto a rough floor
 *    crumples onto itself in a heap 10 cm high. With a thickness of 3 cm (one
 *    spacing: particles alone) and of 2.1 cm (thinner than the spacing, where
 *    particles against triangles act too; the grid only), after every step
 *    no edge crosses a triangle it shares no particle with, and
 *    no two particles that are not rest neighbours (within two rows and two
 *    columns) are closer than half the thickness (the bar; the
 *    pass keeps them a whole thickness apart where it converges, and the
 *    Jacobi average leaves the rest to the next substeps). Without it, the
 *    same drop brings such particles to within 0.3 mm (layers through each other).
 * B: the same on a mesh cloth (rest neighbours: joined by a spring).
 * C: the same bits on 1 and 3 threads, with XPBD and with explicit Euler;
 *    on 1, 2 and 4 threads for a 64 x 64 sheet whose sweeps the pool
 *    splits (with friction between the layers), at one spacing of thickness
 *    and at 0.7 (with the triangles).
 * D: a snapshot loaded again, into the same cloth or a fresh one,
 *    continues with the same bits (the lists are only a cache), at one
 *    spacing and at 0.7 (with the triangles).
 * E: friction between layers: a patch of the cloth on a slope of the same
 *    cloth, against Coulomb's law (below).
 * F: a strip hung over a thin rod with wind blowing its halves together:
 *    they touch and never pass through each other over 10 s (below).
 * G: the viewer's curtain bunched on its rod and drawn again keeps its
 *    folds apart (below).
 * Refusals change nothing; 0 turns it off.
 */
#include <clothsim/clothsim.h>

#include "test_crossings.h"
#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define DT (1.0f / 60.0f)
#define SIDE 24u
#define N (SIDE * SIDE)
#define SPACING 0.03f
#define THICK 0.03f

static cloth_t *dropped(bool mesh, float thickness, uint32_t threads, cloth_integrator integ)
{
    cloth_t *c = NULL;
    static float pos[3 * N];
    static uint32_t tris[6 * (SIDE - 1) * (SIDE - 1)];
    if (mesh) {
        CHECK_OK(test_flat_mesh_cloth(SIDE, SIDE, SPACING, pos, tris, &c));
    } else {
        cloth_grid_desc d;
        cloth_grid_desc_init(&d);
        d.rows = d.cols = SIDE;
        d.spacing = SPACING;
        CHECK_OK(test_create_grid(&d, &c));
    }
    if (c == NULL) {
        return NULL;
    }
    /* tilted 78 degrees about x, its low edge 5 cm above the floor: it
     * lands on that edge, which the floor grips, and crumples onto it */
    float x[3 * N];
    CHECK_OK(cloth_get_positions(c, x, 0));
    const float cs = 0.2f, sn = 0.9797959f;
    for (uint32_t i = 0; i < N; ++i) {
        const float u = x[3 * i], v = x[3 * i + 2];
        x[3 * i] = u;
        x[3 * i + 1] = 0.05f + v * sn;
        x[3 * i + 2] = v * cs;
    }
    CHECK_OK(cloth_set_positions(c, x, 0));
    CHECK_OK(cloth_set_integrator(c, integ));
    CHECK_OK(cloth_set_threads(c, threads));
    const float at[3] = {0, 0, 0}, up[3] = {0, 1, 0};
    cloth_collider_id floor_id;
    CHECK_OK(cloth_add_plane(c, at, up, &floor_id));
    CHECK_OK(cloth_set_collider_friction(c, floor_id, 0.8f));
    CHECK_OK(cloth_set_self_collision(c, thickness));
    return c;
}

/* The closest two particles more than two rows or columns apart: never
 * rest neighbours, on the grid or on the mesh (test_flat_mesh_cloth's
 * springs join particles at most two rows and columns apart), so every
 * pair measured is one the pass keeps apart. */
static double closest(const float *x)
{
    double best = HUGE_VAL;
    for (uint32_t i = 0; i < N; ++i) {
        const uint32_t ri = i / SIDE, ci = i % SIDE;
        for (uint32_t j = i + 1u; j < N; ++j) {
            const uint32_t rj = j / SIDE, cj = j - rj * SIDE;
            if (rj - ri <= 2u && (ci > cj ? ci - cj : cj - ci) <= 2u) {
                continue;
            }
            const double dx = (double)x[3 * i] - (double)x[3 * j], dy = (double)x[3 * i + 1] - (double)x[3 * j + 1];
            const double dz = (double)x[3 * i + 2] - (double)x[3 * j + 2];
            const double d2 = dx * dx + dy * dy + dz * dz;
            best = d2 < best ? d2 : best;
        }
    }
    return sqrt(best);
}

static void test_fold(bool mesh)
{
    /* without; one spacing (particles alone); on the grid 0.7 spacing (and
     * triangles; on this mesh the layers still cross there, edge through
     * edge, in a few steps: see docs/integrators.md) */
    const float thickness[3] = {0.0f, THICK, 0.7f * THICK};
    const int runs = mesh ? 2 : 3;
    double worst[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
    long crossed[3] = {0, 0, 0};
    static float flat[3 * N];
    static uint32_t surface[6 * (SIDE - 1) * (SIDE - 1)];
    const uint32_t surface_tris = test_flat_mesh(SIDE, SIDE, SPACING, flat, surface); /* the grid's too */
    for (int run = 0; run < runs; ++run) {
        cloth_t *c = dropped(mesh, thickness[run], 1u, CLOTH_INTEGRATOR_XPBD);
        if (c == NULL) {
            return;
        }
        float x[3 * N];
        double top = 0.0;
        long steps_crossed = 0, most = 0;
        for (int f = 0; f < 150; ++f) {
            CHECK_OK(cloth_step(c, DT));
            CHECK_OK(cloth_get_positions(c, x, 0));
            worst[run] = fmin(worst[run], closest(x));
            const long k = test_count_crossings(x, surface, surface_tris);
            steps_crossed += k != 0 ? 1 : 0;
            most = k > most ? k : most;
        }
        crossed[run] = steps_crossed;
        for (uint32_t i = 0; i < N; ++i) {
            top = fmax(top, (double)x[3 * i + 1]);
        }
        printf("%s: thickness %.3f m: closest non-neighbours over 150 steps %.4f m; the pile %.3f m high; "
               "the surface crossed itself after %ld steps (at most %ld edge-triangle crossings)\n",
               mesh ? "B (mesh)" : "A (grid)", (double)thickness[run], worst[run], top, steps_crossed, most);
        cloth_destroy(c);
    }
    for (int run = 1; run < runs; ++run) {
        CHECK(worst[run] >= 0.5 * (double)thickness[run]);
        CHECK(crossed[run] == 0);
    }
    /* the drop does fold: without it, layers meet and cross */
    CHECK(worst[0] < 0.5 * (double)THICK);
    CHECK(crossed[0] > 0);
}

/* A 64 x 64 sheet (4,096 particles: enough for the pool to split the
 * sweeps) dropped as in A, with a thickness of one spacing. */
static cloth_t *dropped_large(uint32_t threads, float ratio)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = d.cols = 64u;
    d.spacing = 1.0f / 63.0f;
    d.origin[1] = 0.05f;
    d.v_axis[0] = 0.0f, d.v_axis[1] = 0.9797959f, d.v_axis[2] = 0.2f;
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_grid(&d, &c)); /* the library's defaults */
    if (c == NULL) {
        return NULL;
    }
    CHECK_OK(cloth_set_threads(c, threads));
    const float at[3] = {0, 0, 0}, up[3] = {0, 1, 0};
    cloth_collider_id floor_id;
    CHECK_OK(cloth_add_plane(c, at, up, &floor_id));
    CHECK_OK(cloth_set_collider_friction(c, floor_id, 0.8f));
    CHECK_OK(cloth_set_self_collision(c, ratio * d.spacing));
    CHECK_OK(cloth_set_self_friction(c, 0.4f));
    return c;
}

static void test_threads(void)
{
    const cloth_integrator integs[2] = {CLOTH_INTEGRATOR_XPBD, CLOTH_INTEGRATOR_EXPLICIT_EULER};
    for (int g = 0; g < 2; ++g) {
        uint64_t h[2];
        for (int t = 0; t < 2; ++t) {
            cloth_t *c = dropped(false, THICK, t == 0 ? 1u : 3u, integs[g]);
            if (c == NULL) {
                return;
            }
            for (int f = 0; f < 60; ++f) {
                CHECK_OK(cloth_step(c, DT));
            }
            h[t] = cloth_state_hash(c);
            cloth_destroy(c);
        }
        CHECK(h[0] == h[1]);
    }
    /* a cloth large enough that the pool splits the sweeps */
    const uint32_t threads[3] = {1u, 2u, 4u};
    const float ratios[2] = {1.0f, 0.7f}; /* particles alone; and the triangles */
    for (int r = 0; r < 2; ++r) {
        uint64_t h[3];
        for (int t = 0; t < 3; ++t) {
            cloth_t *c = dropped_large(threads[t], ratios[r]);
            if (c == NULL) {
                return;
            }
            for (int f = 0; f < 24; ++f) {
                CHECK_OK(cloth_step(c, DT));
            }
            h[t] = cloth_state_hash(c);
            cloth_destroy(c);
        }
        CHECK(h[0] == h[1] && h[0] == h[2]);
    }
    printf("C: 1 and 3 threads give the same bits (24 x 24, XPBD and explicit Euler); 1, 2 and 4 (64 x 64, XPBD, "
           "thickness 1 and 0.7 spacings)\n");
}

/* D: a snapshot taken mid-fall and loaded again continues with the same
 * bits: the lists are a cache, and what a pass does depends on the
 * positions alone, not on when the lists were last built. */
static void test_snapshot(float thick)
{
    cloth_t *c = dropped(false, thick, 1u, CLOTH_INTEGRATOR_XPBD);
    if (c == NULL) {
        return;
    }
    CHECK_OK(cloth_set_self_friction(c, 0.4f));
    for (int f = 0; f < 40; ++f) {
        CHECK_OK(cloth_step(c, DT));
    }
    size_t size = 0;
    CHECK_OK(cloth_state_size(c, &size));
    unsigned char *buf = malloc(size);
    CHECK(buf != NULL);
    if (buf == NULL) {
        cloth_destroy(c);
        return;
    }
    CHECK_OK(cloth_save_state(c, buf, size));
    for (int f = 0; f < 30; ++f) {
        CHECK_OK(cloth_step(c, DT));
    }
    const uint64_t first = cloth_state_hash(c);
    CHECK_OK(cloth_load_state(c, buf, size));
    for (int f = 0; f < 30; ++f) {
        CHECK_OK(cloth_step(c, DT));
    }
    CHECK(cloth_state_hash(c) == first);
    /* and in a fresh cloth of the same settings */
    cloth_t *d = dropped(false, thick, 1u, CLOTH_INTEGRATOR_XPBD);
    if (d != NULL) {
        CHECK_OK(cloth_set_self_friction(d, 0.4f));
        CHECK_OK(cloth_load_state(d, buf, size));
        for (int f = 0; f < 30; ++f) {
            CHECK_OK(cloth_step(d, DT));
        }
        CHECK(cloth_state_hash(d) == first);
        cloth_destroy(d);
    }
    printf("D: thickness %.3f m: a snapshot reloaded (same cloth, fresh cloth) continues with the same bits\n",
           (double)thick);
    free(buf);
    cloth_destroy(c);
}

/* E: friction between layers. One mesh cloth of two pieces: a floor sheet
 * of 40 x 20 particles (2 cm apart), pinned, and a 6 x 6 patch (1.73 cm
 * apart, so its particles do not all sit in the floor's hollows at once)
 * resting on it one thickness (4 cm) up. Gravity is tilted 20 degrees
 * along x: a slope whose critical coefficient is tan 20 = 0.364. Slides
 * over 0.4 s from rest:
 * - without friction the patch slides as a block on a slope, less the drag
 *   of the floor's bumps (a layer of balls: the approach speed taken away
 *   on each bump brakes it): between 60 % and 105 % of g sin 20 t^2 / 2;
 * - Coulomb friction adds a deceleration mu g cos 20 to that: at 0.2, the
 *   difference of the two slides' accelerations within 25 % of it;
 * - at 0.6, past the critical coefficient, the patch holds but for a slow
 *   creep (the Jacobi mean of the pushes): under a tenth of the
 *   frictionless slide. */
#define FLOOR_COLS 40u
#define FLOOR_ROWS 20u
#define PATCH 6u
#define SLOPE_PARTICLES (FLOOR_COLS * FLOOR_ROWS + PATCH * PATCH)

static double slide_on_slope(float mu)
{
    static float pos[3 * SLOPE_PARTICLES], w[SLOPE_PARTICLES];
    static uint32_t tris[6 * ((FLOOR_COLS - 1) * (FLOOR_ROWS - 1) + (PATCH - 1) * (PATCH - 1))];
    uint32_t t = 0;
    const float thick = 0.04f;
    for (int piece = 0; piece < 2; ++piece) {
        const uint32_t rows = piece ? PATCH : FLOOR_ROWS, cols = piece ? PATCH : FLOOR_COLS;
        const uint32_t base = piece ? FLOOR_COLS * FLOOR_ROWS : 0u;
        const float sp = piece ? 0.0173f : 0.02f;
        for (uint32_t r = 0; r < rows; ++r) {
            for (uint32_t c = 0; c < cols; ++c) {
                const uint32_t i = base + r * cols + c;
                pos[3 * i] = (piece ? 0.06f : 0.0f) + sp * (float)c;
                pos[3 * i + 1] = piece ? thick : 0.0f;
                pos[3 * i + 2] = (piece ? 0.15f : 0.0f) + sp * (float)r;
                w[i] = piece ? 1.0f / 0.001f : 0.0f;
                if (r + 1u < rows && c + 1u < cols) {
                    const uint32_t q[6] = {i, i + cols, i + 1u, i + 1u, i + cols, i + cols + 1u};
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
    desc.vertex_count = SLOPE_PARTICLES;
    desc.triangles = tris;
    desc.triangle_count = t / 3u;
    desc.inverse_masses = w;
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_mesh(&desc, &c)); /* the library's defaults */
    if (c == NULL) {
        return -1.0;
    }
    const float g[3] = {9.81f * 0.3420201f, -9.81f * 0.9396926f, 0.0f};
    CHECK_OK(cloth_set_gravity(c, g));
    CHECK_OK(cloth_set_self_collision(c, thick));
    CHECK_OK(cloth_set_self_friction(c, mu));
    /* settle onto the floor with the slope held off, then let go */
    const float down[3] = {0.0f, -9.81f, 0.0f};
    CHECK_OK(cloth_set_gravity(c, down));
    for (int f = 0; f < 30; ++f) {
        CHECK_OK(cloth_step(c, DT));
    }
    CHECK_OK(cloth_set_gravity(c, g));
    const uint32_t first = FLOOR_COLS * FLOOR_ROWS;
    double x0 = 0.0, x1 = 0.0;
    CHECK_OK(cloth_get_positions(c, pos, 0));
    for (uint32_t i = first; i < SLOPE_PARTICLES; ++i) {
        x0 += (double)pos[3 * i];
    }
    for (int f = 0; f < 24; ++f) { /* 0.4 s */
        CHECK_OK(cloth_step(c, DT));
    }
    CHECK_OK(cloth_get_positions(c, pos, 0));
    for (uint32_t i = first; i < SLOPE_PARTICLES; ++i) {
        x1 += (double)pos[3 * i];
    }
    cloth_destroy(c);
    return (x1 - x0) / (double)(PATCH * PATCH);
}

static void test_friction(void)
{
    const double t = 0.4, g = 9.81, sn = 0.3420201, cs = 0.9396926;
    const double free_slide = 0.5 * g * sn * t * t;
    const double s0 = slide_on_slope(0.0f), s2 = slide_on_slope(0.2f), s6 = slide_on_slope(0.6f);
    const double added = 2.0 * (s0 - s2) / (t * t), coulomb = 0.2 * g * cs;
    printf("E: a patch on a 20-degree slope of its own cloth slides %.4f m in 0.4 s without friction "
           "(a frictionless block %.4f); at mu 0.2, %.4f (friction's deceleration %.3f m/s^2, Coulomb %.3f); "
           "at mu 0.6, %.4f\n",
           s0, free_slide, s2, added, coulomb, s6);
    CHECK(s0 > 0.6 * free_slide && s0 < 1.05 * free_slide);
    CHECK(fabs(added - coulomb) < 0.25 * coulomb);
    CHECK(s6 < 0.1 * s0);
}

/* F: a cloth hung over a thin rod, its halves blown together. A 12 x 40
 * cotton strip (2.5 cm spacing, thickness one spacing, particle radius
 * half a spacing against the rod) laid across a rod 3 cm thick drapes in
 * two halves for 2 s; then a wind of 5 m/s along +z blows the upwind half
 * onto the other for 8 s. After every step: no edge crosses a triangle,
 * no two non-neighbours of the two halves are closer than half the
 * thickness, and the upwind half's free end stays upwind of the other's;
 * the halves do touch (within 1.1 thicknesses). Without self-collision
 * the same wind blows them through each other within 3 s. */
#define ROD_COLS 12u
#define ROD_ROWS 40u
#define ROD_N (ROD_COLS * ROD_ROWS)
#define ROD_SPACING 0.025f

static void rod_and_wind(bool on, uint32_t frames, long *crossed, double *closest_halves, bool *kept_order)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = ROD_ROWS;
    d.cols = ROD_COLS;
    d.spacing = ROD_SPACING;
    d.origin[0] = -0.5f * ROD_SPACING * (float)(ROD_COLS - 1u);
    d.origin[1] = 1.02f;
    d.origin[2] = -0.5f * ROD_SPACING * (float)(ROD_ROWS - 1u);
    d.v_axis[0] = 0.0f, d.v_axis[1] = 0.0f, d.v_axis[2] = 1.0f;
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_grid(&d, &c)); /* the library's defaults */
    if (c == NULL) {
        return;
    }
    cloth_material cotton;
    cloth_material_init(&cotton, CLOTH_MATERIAL_COTTON);
    CHECK_OK(cloth_set_material(c, &cotton));
    const float a[3] = {-0.4f, 1.0f, 0.0f}, b[3] = {0.4f, 1.0f, 0.0f};
    cloth_collider_id rod;
    CHECK_OK(cloth_add_capsule(c, a, b, 0.015f, &rod));
    CHECK_OK(cloth_set_collider_friction(c, rod, 0.5f));
    CHECK_OK(cloth_set_particle_radius(c, 0.5f * ROD_SPACING));
    CHECK_OK(cloth_set_self_collision(c, on ? ROD_SPACING : 0.0f));
    static float flat[3 * ROD_N], x[3 * ROD_N];
    static uint32_t tris[6 * (ROD_ROWS - 1) * (ROD_COLS - 1)];
    const uint32_t tri_count = test_flat_mesh(ROD_ROWS, ROD_COLS, ROD_SPACING, flat, tris);
    *crossed = 0;
    *closest_halves = HUGE_VAL;
    *kept_order = true;
    for (uint32_t f = 0; f < frames; ++f) {
        if (f == 120u) {
            const float wind[3] = {0.0f, 0.0f, 5.0f};
            CHECK_OK(cloth_set_constant_wind(c, wind));
        }
        CHECK_OK(cloth_step(c, DT));
        CHECK_OK(cloth_get_positions(c, x, 0));
        *crossed += test_count_crossings(x, tris, tri_count) != 0 ? 1 : 0;
        if (f < 120u) {
            continue;
        }
        /* the upwind half: rows 0 to 16; the other: rows 23 to 39 (the rod
         * holds rows 17 to 22, whose neighbours cross over it) */
        for (uint32_t i = 0; i < 17u * ROD_COLS; ++i) {
            for (uint32_t j = 23u * ROD_COLS; j < ROD_N; ++j) {
                const double dx = (double)x[3 * i] - (double)x[3 * j], dy = (double)x[3 * i + 1] - (double)x[3 * j + 1];
                const double dz = (double)x[3 * i + 2] - (double)x[3 * j + 2];
                *closest_halves = fmin(*closest_halves, sqrt(dx * dx + dy * dy + dz * dz));
            }
        }
        double upwind = 0.0, downwind = 0.0;
        for (uint32_t k = 0; k < ROD_COLS; ++k) {
            upwind += (double)x[3 * k + 2];
            downwind += (double)x[3 * ((ROD_ROWS - 1u) * ROD_COLS + k) + 2];
        }
        *kept_order = *kept_order && upwind < downwind;
    }
    cloth_destroy(c);
}

static void test_rod_and_wind(void)
{
    long crossed = 0;
    double closest = 0.0;
    bool order = false;
    rod_and_wind(true, 600u, &crossed, &closest, &order);
    printf("F: over a rod in a 5 m/s wind for 8 s, with self-collision: %ld steps with crossings, the halves' "
           "closest %.4f m (thickness %.3f), upwind end kept upwind: %s\n",
           crossed, closest, (double)ROD_SPACING, order ? "yes" : "no");
    CHECK(crossed == 0);
    CHECK(closest >= 0.5 * (double)ROD_SPACING && closest < 1.1 * (double)ROD_SPACING);
    CHECK(order);
    rod_and_wind(false, 300u, &crossed, &closest, &order);
    printf("F: without, in 3 s: %ld steps with crossings, the halves' closest %.4f m\n", crossed, closest);
    CHECK(crossed > 0);
}

/* G: the viewer's curtain bunched on its rod and drawn again. A 30 x 40
 * denim curtain, 5 cm spacing, hung by its top row of rings in front of a
 * wall; over 2 s the rings slide together to 0.75 cm apart (the viewer's
 * "open", key O), stay 1 s, and spread again over 2 s. The folds are zig-
 * zags whose every other panel lies 1.5 cm from the next, so the
 * thickness is 1.2 cm. After every step no two particles more than two
 * rows or columns apart come within half the thickness (without
 * self-collision, sampled every tenth step, the folds close to about a
 * millimetre), and every tenth step no edge crosses a triangle. */
#define CURTAIN_ROWS 40u
#define CURTAIN_COLS 30u
#define CURTAIN_N (CURTAIN_ROWS * CURTAIN_COLS)
#define CURTAIN_SPACING 0.05f

static float ring_x(uint32_t c, float open)
{
    const float bunched = 0.15f * CURTAIN_SPACING, e = open * open * (3.0f - 2.0f * open);
    return (float)c * (CURTAIN_SPACING + (bunched - CURTAIN_SPACING) * e);
}

static void bunched_curtain(float thickness, double *closest, long *crossed)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = CURTAIN_ROWS;
    d.cols = CURTAIN_COLS;
    d.spacing = CURTAIN_SPACING;
    d.origin[1] = 2.2f;
    d.v_axis[0] = 0.0f, d.v_axis[1] = -1.0f, d.v_axis[2] = 0.0f;
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_grid(&d, &c)); /* the library's defaults */
    if (c == NULL) {
        return;
    }
    cloth_material denim;
    cloth_material_init(&denim, CLOTH_MATERIAL_DENIM);
    CHECK_OK(cloth_set_material(c, &denim));
    for (uint32_t k = 0; k < CURTAIN_COLS; ++k) {
        CHECK_OK(cloth_pin(c, k, NULL));
    }
    const float wall_at[3] = {0.0f, 0.0f, -0.15f}, wall_normal[3] = {0.0f, 0.0f, 1.0f};
    cloth_collider_id wall;
    CHECK_OK(cloth_add_plane(c, wall_at, wall_normal, &wall));
    CHECK_OK(cloth_set_collider_thickness(c, wall, 0.01f));
    CHECK_OK(cloth_set_collider_friction(c, wall, 0.3f));
    CHECK_OK(cloth_set_self_collision(c, thickness));
    static float flat[3 * CURTAIN_N], x[3 * CURTAIN_N];
    static uint32_t tris[6 * (CURTAIN_ROWS - 1) * (CURTAIN_COLS - 1)];
    const uint32_t tri_count = test_flat_mesh(CURTAIN_ROWS, CURTAIN_COLS, CURTAIN_SPACING, flat, tris);
    *closest = HUGE_VAL;
    *crossed = 0;
    for (uint32_t f = 0; f < 300u; ++f) {
        /* 2 s to bunch, 1 s bunched, 2 s to spread */
        const float open = f < 120u ? (float)f / 120.0f : f < 180u ? 1.0f : 1.0f - (float)(f - 180u) / 120.0f;
        for (uint32_t k = 0; k < CURTAIN_COLS; ++k) {
            const float ring[3] = {ring_x(k, open), 2.2f, 0.0f};
            CHECK_OK(cloth_pin(c, k, ring));
        }
        CHECK_OK(cloth_step(c, DT));
        CHECK_OK(cloth_get_positions(c, x, 0));
        if (thickness == 0.0f && f % 10u != 9u) {
            continue; /* without: enough to see the folds close */
        }
        for (uint32_t i = 0; i < CURTAIN_N; ++i) {
            const uint32_t ri = i / CURTAIN_COLS, ci = i % CURTAIN_COLS;
            for (uint32_t rj = ri; rj < CURTAIN_ROWS; ++rj) {
                for (uint32_t cj = rj == ri ? ci + 1u : 0u; cj < CURTAIN_COLS; ++cj) {
                    if (rj - ri <= 2u && (ci > cj ? ci - cj : cj - ci) <= 2u) {
                        continue;
                    }
                    const uint32_t j = rj * CURTAIN_COLS + cj;
                    const double dx = (double)x[3 * i] - (double)x[3 * j];
                    const double dy = (double)x[3 * i + 1] - (double)x[3 * j + 1];
                    const double dz = (double)x[3 * i + 2] - (double)x[3 * j + 2];
                    *closest = fmin(*closest, dx * dx + dy * dy + dz * dz);
                }
            }
        }
        if (f % 10u == 9u) {
            *crossed += test_count_crossings(x, tris, tri_count) != 0 ? 1 : 0;
        }
    }
    *closest = sqrt(*closest);
    cloth_destroy(c);
}

static void test_curtain(void)
{
    const float thick = 0.012f;
    double closest[2];
    long crossed[2];
    bunched_curtain(thick, &closest[0], &crossed[0]);
    bunched_curtain(0.0f, &closest[1], &crossed[1]);
    printf("G: a curtain bunched on its rod and drawn again: closest folds %.4f m with a thickness of %.3f "
           "(%ld sampled steps with crossings), %.4f m without\n",
           closest[0], (double)thick, crossed[0], closest[1]);
    CHECK(closest[0] >= 0.5 * (double)thick);
    CHECK(crossed[0] == 0);
    CHECK(closest[1] < 0.5 * (double)thick);
}

static void test_refusals(void)
{
    cloth_t *c = dropped(false, THICK, 1u, CLOTH_INTEGRATOR_XPBD);
    if (c == NULL) {
        return;
    }
    float t = -1.0f;
    CHECK_OK(cloth_get_self_collision(c, &t));
    CHECK(t == THICK);
    CHECK_STATUS(cloth_set_self_collision(NULL, 0.01f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_self_collision(c, -0.01f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_self_collision(c, NAN), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_self_collision(c, INFINITY), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_self_collision(c, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_self_collision(NULL, &t), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_get_self_collision(c, &t));
    CHECK(t == THICK);
    float mu = -1.0f;
    CHECK_OK(cloth_get_self_friction(c, &mu));
    CHECK(mu == 0.0f); /* the default */
    CHECK_OK(cloth_set_self_friction(c, 0.4f));
    CHECK_STATUS(cloth_set_self_friction(NULL, 0.4f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_self_friction(c, -0.1f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_self_friction(c, NAN), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_self_friction(c, INFINITY), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_self_friction(c, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_self_friction(NULL, &mu), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_get_self_friction(c, &mu));
    CHECK(mu == 0.4f);
    CHECK_OK(cloth_set_self_friction(c, 0.0f));
    /* off: the same bits as a cloth that never had it */
    CHECK_OK(cloth_set_self_collision(c, 0.0f));
    cloth_t *plain = dropped(false, 0.0f, 1u, CLOTH_INTEGRATOR_XPBD);
    if (plain != NULL) {
        for (int f = 0; f < 30; ++f) {
            CHECK_OK(cloth_step(c, DT));
            CHECK_OK(cloth_step(plain, DT));
        }
        CHECK(cloth_state_hash(c) == cloth_state_hash(plain));
        cloth_destroy(plain);
    }
    cloth_destroy(c);
}

int main(void)
{
    test_refusals();
    test_fold(false);
    test_fold(true);
    test_threads();
    test_snapshot(THICK);
    test_snapshot(0.7f * THICK);
    test_friction();
    test_rod_and_wind();
    test_curtain();
    return test_finish("test_self_collision");
}
