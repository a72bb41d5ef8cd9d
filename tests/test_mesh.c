/*
 * Cloth from a triangle mesh (mesh.h, seed 001).
 *
 *  A. Springs. A triangulated R x C grid (positions read from the grid
 *     builder's cloth, triangles from its cloth_get_triangles()) gives one
 *     spring per unique edge and one bend spring per interior edge. Its quad
 *     diagonals are SHEAR (the longest side of both triangles, facing 90
 *     degrees), the other edges STRUCTURAL: exactly the grid's structural
 *     springs. Bend springs join the two vertices opposite an interior edge:
 *     across a diagonal they are the other diagonal (sqrt 2 s), across a grid
 *     edge a knight's move (sqrt 5 s).
 *  B. Dynamics. With shear and bend stiffness 0 on both, the mesh and the grid
 *     have the same springs; hanging from two corners for 120 steps they
 *     follow the same trajectory up to float summation order, for every
 *     integrator that runs on a mesh.
 *  C. Normals follow the input winding: the mesh wound like the grid has the
 *     grid's normals; flipping every triangle flips every normal.
 *  D. Per-vertex masses and inverse masses: momentum is conserved with the
 *     given masses; inverse mass 0 holds a vertex where it is.
 *  E. Pins, a sphere collider and strided readback on a mesh cloth.
 *  F. Malformed meshes are refused with CLOTH_ERR_INVALID_ARGUMENT (or
 *     UNSUPPORTED for a newer struct), and *out is NULL.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 12u
#define COLS 11u
#define NP (ROWS * COLS)
#define NT (2u * (ROWS - 1u) * (COLS - 1u))
#define SPACING 0.05f

static float g_pos[3 * NP];
static uint32_t g_tris[3 * NT];

static cloth_t *make_grid(void)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    cloth_grid_desc_init(&desc);
    desc.rows = ROWS;
    desc.cols = COLS;
    desc.spacing = SPACING;
    desc.origin[1] = 1.0f;
    CHECK_OK(test_create_grid(&desc, &cloth));
    return cloth;
}

/* Positions and triangles of the matching grid, read back from a grid cloth. */
static void load_grid_geometry(void)
{
    cloth_t *grid = make_grid();
    if (grid == NULL) {
        return;
    }
    CHECK(cloth_triangle_count(grid) == NT);
    CHECK_OK(cloth_get_positions(grid, g_pos, 0));
    CHECK_OK(cloth_get_triangles(grid, g_tris));
    cloth_destroy(grid);
}

static cloth_t *make_mesh(const uint32_t *tris)
{
    cloth_mesh_desc md;
    cloth_t *mesh = NULL;
    cloth_mesh_desc_init(&md);
    md.positions = g_pos;
    md.vertex_count = NP;
    md.triangles = tris;
    md.triangle_count = NT;
    CHECK_OK(test_create_mesh(&md, &mesh));
    return mesh;
}

static int cmp_pair(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    if (x[0] != y[0]) {
        return x[0] < y[0] ? -1 : 1;
    }
    return x[1] < y[1] ? -1 : (x[1] > y[1] ? 1 : 0);
}

/* The springs of one type as sorted (lo, hi) pairs; returns the count. */
static uint32_t springs_of(const cloth_t *cloth, cloth_spring_type type, uint32_t *out, float *rest_out)
{
    const uint32_t n = cloth_spring_count(cloth);
    uint32_t *pairs = malloc((size_t)n * 2u * sizeof *pairs);
    float *rest = malloc((size_t)n * sizeof *rest);
    cloth_spring_type *types = malloc((size_t)n * sizeof *types);
    uint32_t m = 0;
    if (pairs == NULL || rest == NULL || types == NULL) {
        CHECK(0 /* out of memory */);
    } else {
        CHECK_OK(cloth_get_springs(cloth, pairs, rest, types));
        for (uint32_t s = 0; s < n; ++s) {
            if (types[s] == type) {
                uint32_t a = pairs[2 * s], b = pairs[2 * s + 1];
                out[2 * m] = a < b ? a : b;
                out[2 * m + 1] = a < b ? b : a;
                if (rest_out != NULL) {
                    rest_out[m] = rest[s];
                }
                ++m;
            }
        }
        /* sort pairs only when rests are not wanted (rests would lose their pairing) */
        if (rest_out == NULL) {
            qsort(out, m, 2u * sizeof *out, cmp_pair);
        }
    }
    free(pairs);
    free(rest);
    free(types);
    return m;
}

/* ---- A. springs ---------------------------------------------------------- */

static void springs(void)
{
    static uint32_t mp[8 * NP * 2], gp[8 * NP * 2];
    static float rest[8 * NP];
    const uint32_t n_struct = ROWS * (COLS - 1u) + COLS * (ROWS - 1u);
    const uint32_t n_diag = (ROWS - 1u) * (COLS - 1u);
    const uint32_t n_edges = n_struct + n_diag;
    const uint32_t n_boundary = 2u * (ROWS - 1u) + 2u * (COLS - 1u);
    const uint32_t n_bend = n_edges - n_boundary; /* one per interior edge */
    cloth_t *mesh = make_mesh(g_tris), *grid = make_grid();
    if (mesh == NULL || grid == NULL) {
        cloth_destroy(mesh);
        cloth_destroy(grid);
        return;
    }
    CHECK(cloth_particle_count(mesh) == NP);
    CHECK(cloth_triangle_count(mesh) == NT);
    printf("A: mesh springs %u (expected %u edges + %u bends), grid springs %u\n",
           (unsigned)cloth_spring_count(mesh), (unsigned)n_edges, (unsigned)n_bend,
           (unsigned)cloth_spring_count(grid));
    CHECK(cloth_spring_count(mesh) == n_edges + n_bend);

    /* structural: exactly the grid's structural springs, rest = spacing */
    uint32_t ms = springs_of(mesh, CLOTH_SPRING_STRUCTURAL, mp, NULL);
    uint32_t gs = springs_of(grid, CLOTH_SPRING_STRUCTURAL, gp, NULL);
    CHECK(ms == n_struct);
    CHECK(gs == n_struct);
    CHECK(ms == gs && memcmp(mp, gp, (size_t)ms * 2u * sizeof *mp) == 0);
    ms = springs_of(mesh, CLOTH_SPRING_STRUCTURAL, mp, rest);
    for (uint32_t s = 0; s < ms; ++s) {
        CHECK_NEAR(rest[s], SPACING, 1e-6);
    }

    /* shear: one diagonal per quad, the (i + 1, i + cols) one of the triangulation */
    uint32_t md = springs_of(mesh, CLOTH_SPRING_SHEAR, mp, rest);
    CHECK(md == n_diag);
    uint32_t diag_ok = 0;
    for (uint32_t s = 0; s < md; ++s) {
        uint32_t a = mp[2 * s], b = mp[2 * s + 1];
        diag_ok += (b == a + COLS - 1u && a % COLS != 0u) ? 1u : 0u;
        CHECK_NEAR(rest[s], sqrt(2.0) * (double)SPACING, 1e-6);
    }
    CHECK(diag_ok == n_diag);

    /* bend: across each interior edge, sqrt 2 s across a diagonal, sqrt 5 s across a grid edge */
    uint32_t mb = springs_of(mesh, CLOTH_SPRING_BEND, mp, rest);
    uint32_t across_diag = 0, across_edge = 0;
    CHECK(mb == n_bend);
    for (uint32_t s = 0; s < mb; ++s) {
        uint32_t a = mp[2 * s], b = mp[2 * s + 1];
        uint32_t ra = a / COLS, ca = a % COLS, rb = b / COLS, cb = b % COLS;
        uint32_t dr = ra > rb ? ra - rb : rb - ra, dc = ca > cb ? ca - cb : cb - ca;
        if (dr == 1u && dc == 1u && fabs((double)rest[s] - sqrt(2.0) * (double)SPACING) < 1e-6) {
            ++across_diag;
        } else if (((dr == 1u && dc == 2u) || (dr == 2u && dc == 1u)) &&
                   fabs((double)rest[s] - sqrt(5.0) * (double)SPACING) < 1e-6) {
            ++across_edge;
        }
    }
    printf("A: bends across diagonals %u (expected %u), across grid edges %u (expected %u)\n",
           (unsigned)across_diag, (unsigned)n_diag, (unsigned)across_edge, (unsigned)(n_bend - n_diag));
    CHECK(across_diag == n_diag);
    CHECK(across_edge == n_bend - n_diag);

    /* cloth_get_springs with some outputs NULL; all NULL refused */
    CHECK_OK(cloth_get_springs(mesh, NULL, rest, NULL));
    CHECK_STATUS(cloth_get_springs(mesh, NULL, NULL, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_springs(NULL, mp, NULL, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(cloth_spring_count(NULL) == 0u);
    cloth_destroy(mesh);
    cloth_destroy(grid);
}

/* ---- B. same trajectory as the grid ------------------------------------- */

static void setup_hang(cloth_t *cloth, cloth_integrator kind)
{
    /*
     * Damping 5 /s. Without shear springs a cloth hanging from two corners
     * is a mechanism that buckles where its middle is squeezed together;
     * with the default 0.2 /s that buckling is chaotic and a one-ulp nudge
     * grows to centimetres within 120 steps, so no two float summation
     * orders could be compared. Heavily damped, the hang is stable and
     * rounding differences stay at rounding size (the nudged reference
     * printed below shows it).
     */
    CHECK_OK(cloth_set_damping(cloth, 5.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_SHEAR, 0.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_BEND, 0.0f));
    CHECK_OK(cloth_set_constraint_stiffness(cloth, CLOTH_SPRING_SHEAR, 0.0f));
    CHECK_OK(cloth_set_constraint_stiffness(cloth, CLOTH_SPRING_BEND, 0.0f));
    CHECK_OK(cloth_set_integrator(cloth, kind));
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_pin(cloth, COLS - 1u, NULL));
}

static double max_diff(const float *a, const float *b, uint32_t n)
{
    double m = 0.0;
    for (uint32_t k = 0; k < n; ++k) {
        double d = fabs((double)a[k] - (double)b[k]);
        if (d > m || !(d == d)) {
            m = d == d ? d : HUGE_VAL;
        }
    }
    return m;
}

static void same_as_grid(cloth_integrator kind, const char *name)
{
    static float pm[3 * NP], pg[3 * NP], pp[3 * NP];
    cloth_t *mesh = make_mesh(g_tris), *grid = make_grid(), *nudged = make_grid();
    double worst = 0.0, worst_ref = 0.0;
    if (mesh == NULL || grid == NULL || nudged == NULL) {
        cloth_destroy(mesh);
        cloth_destroy(grid);
        cloth_destroy(nudged);
        return;
    }
    setup_hang(mesh, kind);
    setup_hang(grid, kind);
    setup_hang(nudged, kind);
    /* the float noise reference: the grid with every free coordinate moved by one ulp */
    CHECK_OK(cloth_get_positions(nudged, pp, 0));
    for (uint32_t k = 0; k < 3 * NP; ++k) {
        pp[k] = nextafterf(pp[k], 2.0f);
    }
    CHECK_OK(cloth_set_positions(nudged, pp, 0));
    for (uint32_t f = 0; f < 120u; ++f) {
        CHECK_OK(cloth_step(mesh, 1.0f / 60.0f));
        CHECK_OK(cloth_step(grid, 1.0f / 60.0f));
        CHECK_OK(cloth_step(nudged, 1.0f / 60.0f));
        CHECK_OK(cloth_get_positions(mesh, pm, 0));
        CHECK_OK(cloth_get_positions(grid, pg, 0));
        CHECK_OK(cloth_get_positions(nudged, pp, 0));
        double d = max_diff(pm, pg, 3 * NP), r = max_diff(pp, pg, 3 * NP);
        worst = d > worst ? d : worst;
        worst_ref = r > worst_ref ? r : worst_ref;
    }
    /*
     * The two cloths have the same particles, masses and spring set; only the
     * order in which the springs' forces are summed differs (grid: family by
     * family; mesh: sorted edges), a few ulp per substep. A grid cloth whose
     * coordinates were all moved by one ulp shows how far such noise carries
     * over these 120 steps (printed as the reference). Tolerance 1e-4 m
     * (0.2 % of a spacing): a missing or extra spring, a wrong rest length or
     * mass moves particles by millimetres within a second.
     */
    printf("B: %-14s mesh vs grid over 120 steps: largest difference %.3e m (one-ulp nudge of the grid: %.3e m)\n",
           name, worst, worst_ref);
    CHECK(worst <= 1e-4);
    cloth_destroy(mesh);
    cloth_destroy(grid);
    cloth_destroy(nudged);
}

/* ---- C. normals --------------------------------------------------------- */

static void normals(void)
{
    static uint32_t flipped[3 * NT];
    static float nm[3 * NP], nf[3 * NP], ng[3 * NP];
    for (uint32_t t = 0; t < NT; ++t) {
        flipped[3 * t] = g_tris[3 * t];
        flipped[3 * t + 1] = g_tris[3 * t + 2];
        flipped[3 * t + 2] = g_tris[3 * t + 1];
    }
    cloth_t *mesh = make_mesh(g_tris), *flip = make_mesh(flipped), *grid = make_grid();
    if (mesh == NULL || flip == NULL || grid == NULL) {
        cloth_destroy(mesh);
        cloth_destroy(flip);
        cloth_destroy(grid);
        return;
    }
    uint32_t back[3 * NT];
    CHECK_OK(cloth_get_triangles(flip, back));
    CHECK(memcmp(back, flipped, sizeof back) == 0); /* render triangles are the input's */
    /* flat, as built: the mesh wound like the grid has the grid's normals
     * (+y for a horizontal grid, clothsim.h), bit for bit (same positions,
     * same triangles in the same order), and the flipped mesh -y */
    CHECK_OK(cloth_get_normals(mesh, nm, 0));
    CHECK_OK(cloth_get_normals(flip, nf, 0));
    CHECK_OK(cloth_get_normals(grid, ng, 0));
    CHECK(memcmp(nm, ng, sizeof nm) == 0);
    uint32_t up = 0, down = 0;
    for (uint32_t i = 0; i < NP; ++i) {
        up += (nm[3 * i] == 0.0f && nm[3 * i + 1] == 1.0f && nm[3 * i + 2] == 0.0f) ? 1u : 0u;
        down += (nf[3 * i] == 0.0f && nf[3 * i + 1] == -1.0f && nf[3 * i + 2] == 0.0f) ? 1u : 0u;
    }
    printf("C: flat: %u of %u mesh normals are +y, %u of the flipped mesh's are -y\n", (unsigned)up,
           (unsigned)NP, (unsigned)down);
    CHECK(up == NP);
    CHECK(down == NP);
    /* let it sag from one corner so that the normals are not all equal */
    CHECK_OK(cloth_pin(mesh, 0, NULL));
    CHECK_OK(cloth_pin(flip, 0, NULL));
    for (uint32_t f = 0; f < 10u; ++f) {
        CHECK_OK(cloth_step(mesh, 1.0f / 60.0f));
        CHECK_OK(cloth_step(flip, 1.0f / 60.0f));
    }
    CHECK_OK(cloth_get_normals(mesh, nm, 0));
    CHECK_OK(cloth_get_normals(flip, nf, 0));
    double flip_err = 0.0, unit_err = 0.0, spread = 0.0;
    for (uint32_t i = 0; i < NP; ++i) {
        double len = 0.0;
        for (uint32_t k = 0; k < 3u; ++k) {
            flip_err = fmax(flip_err, fabs((double)nm[3 * i + k] + (double)nf[3 * i + k]));
            spread = fmax(spread, fabs((double)nm[3 * i + k] - (double)nm[k]));
            len += (double)nm[3 * i + k] * (double)nm[3 * i + k];
        }
        unit_err = fmax(unit_err, fabs(sqrt(len) - 1.0));
    }
    /*
     * The flipped mesh has the same springs (edges do not depend on the
     * winding), so it moves identically and each cross product is exactly
     * negated: the normals are opposite (1e-6 allows float rounding of the
     * normalisation).
     */
    printf("C: sagging: |n + n_flipped| <= %.3e, | |n| - 1 | <= %.3e, normals differ by up to %.3f; "
           "normal at vertex 0 (%.3f %.3f %.3f)\n",
           flip_err, unit_err, spread, (double)nm[0], (double)nm[1], (double)nm[2]);
    CHECK(spread > 0.1); /* the cloth is really bent */
    CHECK(flip_err <= 1e-6);
    CHECK(unit_err <= 1e-6);
    cloth_destroy(mesh);
    cloth_destroy(flip);
    cloth_destroy(grid);
}

/* ---- D. masses ---------------------------------------------------------- */

/* A quad of two triangles in the x-z plane, one edge stretched. */
static const float k_quad[12] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.1f, 0.1f, 0.0f, 0.0f, 0.13f, 0.0f, 0.1f};
static const uint32_t k_quad_tris[6] = {0, 1, 2, 2, 1, 3};

static void momentum(const float *masses, const float *inverse_masses, const char *label)
{
    cloth_mesh_desc md;
    cloth_t *mesh = NULL;
    float vel[12], pos[12];
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    cloth_mesh_desc_init(&md);
    md.positions = k_quad;
    md.vertex_count = 4;
    md.triangles = k_quad_tris;
    md.triangle_count = 2;
    md.masses = masses;
    md.inverse_masses = inverse_masses;
    CHECK_OK(test_create_mesh(&md, &mesh));
    if (mesh == NULL) {
        return;
    }
    /* rest lengths are the input lengths: move vertex 3 to stretch its springs */
    float moved[12];
    memcpy(moved, k_quad, sizeof moved);
    moved[9] = 0.16f;
    CHECK_OK(cloth_set_positions(mesh, moved, 0));
    CHECK_OK(cloth_set_gravity(mesh, zero));
    CHECK_OK(cloth_set_damping(mesh, 0.0f));
    for (uint32_t f = 0; f < 30u; ++f) {
        CHECK_OK(cloth_step(mesh, 1.0f / 60.0f));
    }
    CHECK_OK(cloth_get_velocities(mesh, vel, 0));
    CHECK_OK(cloth_get_positions(mesh, pos, 0));
    double p[3] = {0.0, 0.0, 0.0}, scale = 0.0;
    for (uint32_t i = 0; i < 4; ++i) {
        double m = masses != NULL ? (double)masses[i] : 1.0 / (double)inverse_masses[i];
        for (uint32_t k = 0; k < 3u; ++k) {
            p[k] += m * (double)vel[3 * i + k];
            scale += fabs(m * (double)vel[3 * i + k]);
        }
    }
    /*
     * Only internal forces act (no gravity, no pins): with the right masses
     * the momentum sum m_i v_i stays 0 (equal and opposite spring forces,
     * a = f / m). Tolerance 1e-5 of the summed |m v| for float rounding; the
     * wrong masses (e.g. the default 0.01 kg for all) give a net momentum of
     * tens of percent.
     */
    printf("D: %s: net momentum (%.2e %.2e %.2e) kg m/s against sum |m v| = %.3e\n", label, p[0], p[1], p[2],
           scale);
    CHECK(scale > 1e-4); /* the springs did move things */
    CHECK(fabs(p[0]) <= 1e-5 * scale && fabs(p[1]) <= 1e-5 * scale && fabs(p[2]) <= 1e-5 * scale);
    cloth_destroy(mesh);
}

static void immovable(void)
{
    static const float inv[4] = {0.0f, 50.0f, 100.0f, 0.0f};
    cloth_mesh_desc md;
    cloth_t *mesh = NULL;
    float pos[12], vel[12];
    cloth_mesh_desc_init(&md);
    md.positions = k_quad;
    md.vertex_count = 4;
    md.triangles = k_quad_tris;
    md.triangle_count = 2;
    md.inverse_masses = inv;
    CHECK_OK(test_create_mesh(&md, &mesh));
    if (mesh == NULL) {
        return;
    }
    const cloth_integrator kinds[5] = {CLOTH_INTEGRATOR_EXPLICIT_EULER, CLOTH_INTEGRATOR_TRAPEZOID,
                                       CLOTH_INTEGRATOR_VERLET, CLOTH_INTEGRATOR_PBD, CLOTH_INTEGRATOR_RELAXATION};
    for (int k = 0; k < 5; ++k) {
        CHECK_OK(cloth_set_integrator(mesh, kinds[k]));
        for (uint32_t f = 0; f < 30u; ++f) {
            CHECK_OK(cloth_step(mesh, 1.0f / 60.0f));
        }
    }
    CHECK_OK(cloth_get_positions(mesh, pos, 0));
    /* "0 pins the vertex where it is": vertices 0 and 3 have not moved; 1
     * and 2, on either side of the line 0-3, turn about that hinge like one
     * body (their lengths to 0, 3 and each other are springs), so their
     * centre of mass (20 g at 1, 10 g at 2) goes down */
    printf("D: inverse mass 0: vertex 0 at (%g %g %g), vertex 3 at (%g %g %g); vertices 1 and 2 fell to "
           "y = %.4f, %.4f\n",
           (double)pos[0], (double)pos[1], (double)pos[2], (double)pos[9], (double)pos[10], (double)pos[11],
           (double)pos[4], (double)pos[7]);
    CHECK(memcmp(pos, k_quad, 3 * sizeof(float)) == 0);
    CHECK(memcmp(pos + 9, k_quad + 9, 3 * sizeof(float)) == 0);
    CHECK((2.0 * (double)pos[4] + (double)pos[7]) / 3.0 < -0.01);

    /* a velocity written by the host does not move a pinned vertex either
     * (a pinned particle's velocity is replaced by its target's motion) */
    CHECK_OK(cloth_set_integrator(mesh, CLOTH_INTEGRATOR_EXPLICIT_EULER));
    CHECK_OK(cloth_get_positions(mesh, pos, 0));
    for (int k = 0; k < 12; ++k) {
        vel[k] = 0.5f;
    }
    CHECK_OK(cloth_set_velocities(mesh, vel, 0));
    float after[12];
    CHECK_OK(cloth_step(mesh, 1.0f / 60.0f));
    CHECK_OK(cloth_get_positions(mesh, after, 0));
    printf("D: after cloth_set_velocities(0.5 m/s) and a step, vertex 0 moved by (%.3g %.3g %.3g) m\n",
           (double)(after[0] - pos[0]), (double)(after[1] - pos[1]), (double)(after[2] - pos[2]));
    CHECK(memcmp(after, pos, 3 * sizeof(float)) == 0);
    CHECK(memcmp(after + 9, pos + 9, 3 * sizeof(float)) == 0);
    cloth_destroy(mesh);
}

/* ---- E. pins, collider, readback ---------------------------------------- */

static void pins_collider_readback(void)
{
    static float pos[3 * NP], strided[4 * NP], vel[3 * NP];
    /* the cloth hangs from two corners of its first row in the plane z = 0;
     * the sphere sticks out of that plane, so the cloth comes to lean on it */
    const float centre[3] = {0.25f, 0.7f, 0.1f};
    const float radius = 0.15f;
    const float target[3] = {0.05f, 1.1f, 0.0f};
    cloth_collider_id id = 0;
    cloth_t *mesh = make_mesh(g_tris);
    double deepest = 0.0;
    uint32_t touching = 0;
    if (mesh == NULL) {
        return;
    }
    CHECK_OK(cloth_set_damping(mesh, 1.0f));
    CHECK_OK(cloth_add_sphere(mesh, centre, radius, &id));
    CHECK_OK(cloth_pin(mesh, 0, target)); /* a moving pin: it travels there over the first step */
    CHECK_OK(cloth_pin(mesh, COLS - 1u, NULL));
    CHECK_STATUS(cloth_pin(mesh, NP, NULL), CLOTH_ERR_OUT_OF_RANGE);
    for (uint32_t f = 0; f < 90u; ++f) {
        CHECK_OK(cloth_step(mesh, 1.0f / 60.0f));
        CHECK_OK(cloth_get_positions(mesh, pos, 0));
        /* the pin reaches its target at the end of the step */
        CHECK(pos[0] == target[0] && pos[1] == target[1] && pos[2] == target[2]);
        for (uint32_t i = 1; i < NP; ++i) {
            if (i == COLS - 1u) {
                continue; /* pinned */
            }
            double dx = (double)pos[3 * i] - (double)centre[0], dy = (double)pos[3 * i + 1] - (double)centre[1],
                   dz = (double)pos[3 * i + 2] - (double)centre[2];
            double depth = (double)radius - sqrt(dx * dx + dy * dy + dz * dz);
            deepest = depth > deepest ? depth : deepest;
            if (f == 89u && depth > -1e-3) {
                ++touching;
            }
        }
    }
    /* pushed out to the surface every substep: float rounding only */
    printf("E: mesh on a sphere: deepest penetration %.3e m, %u vertices on the sphere at the end\n", deepest,
           (unsigned)touching);
    CHECK(deepest <= 1e-5);
    CHECK(touching > 0u);
    /* strided readback matches packed */
    CHECK_OK(cloth_get_positions(mesh, strided, 16));
    uint32_t mismatches = 0;
    for (uint32_t i = 0; i < NP; ++i) {
        mismatches += memcmp(strided + 4 * i, pos + 3 * i, 12) != 0 ? 1u : 0u;
    }
    CHECK(mismatches == 0u);
    CHECK_OK(cloth_get_velocities(mesh, vel, 0));
    CHECK_OK(cloth_get_normals(mesh, strided, 16));
    CHECK_STATUS(cloth_get_positions(mesh, pos, 13), CLOTH_ERR_INVALID_ARGUMENT);
    /* unpin: it falls */
    CHECK_OK(cloth_unpin(mesh, 0));
    CHECK_OK(cloth_step(mesh, 1.0f / 60.0f));
    CHECK_OK(cloth_get_positions(mesh, pos, 0));
    CHECK(pos[1] < target[1]);
    cloth_destroy(mesh);

    /* strided input positions: the same cloth as packed */
    static float padded[4 * NP];
    for (uint32_t i = 0; i < NP; ++i) {
        memcpy(padded + 4 * i, g_pos + 3 * i, 12);
        padded[4 * i + 3] = NAN; /* padding is never read */
    }
    cloth_mesh_desc md;
    cloth_t *a = NULL;
    cloth_mesh_desc_init(&md);
    md.positions = padded;
    md.position_stride = 16;
    md.vertex_count = NP;
    md.triangles = g_tris;
    md.triangle_count = NT;
    CHECK_OK(test_create_mesh(&md, &a));
    if (a != NULL) {
        CHECK_OK(cloth_get_positions(a, pos, 0));
        CHECK(memcmp(pos, g_pos, sizeof g_pos) == 0);
        CHECK(cloth_spring_count(a) == 3u * (ROWS - 1u) * (COLS - 1u) + (ROWS - 1u) + (COLS - 1u) +
                                           (3u * (ROWS - 1u) * (COLS - 1u) - (ROWS - 1u) - (COLS - 1u)));
        cloth_destroy(a);
    }
}

/* ---- F. malformed meshes ------------------------------------------------ */

static void refused(const cloth_mesh_desc *md, cloth_status expected, const char *what)
{
    cloth_t *out = (cloth_t *)(uintptr_t)0x1; /* must be overwritten with NULL */
    cloth_status s = test_create_mesh(md, &out);
    if (s != expected || out != NULL) {
        fprintf(stderr, "malformed mesh '%s': got %s, out %s\n", what, cloth_status_string(s),
                out == NULL ? "NULL" : "not NULL");
    }
    CHECK(s == expected);
    CHECK(out == NULL);
    if (s == CLOTH_OK) {
        cloth_destroy(out);
    }
}

static void malformed(void)
{
    /* a valid base: two triangles of a unit square */
    static const float v[12] = {0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1};
    static const uint32_t t[6] = {0, 1, 2, 2, 1, 3};
    static const uint32_t out_of_range[6] = {0, 1, 2, 2, 1, 4};
    static const uint32_t repeated[6] = {0, 1, 2, 2, 2, 3};
    static const float collinear[12] = {0, 0, 0, 0, 0, 1, 1, 0, 0, 2, 0, -1}; /* 2, 1, 3 on a line */
    static const float nan_pos[12] = {0, 0, 0, 0, 0, 1, 1, 0, 0, 1, NAN, 1};
    static const float inf_pos[12] = {0, 0, 0, 0, 0, 1, 1, 0, 0, 1, INFINITY, 1};
    static const float masses[4] = {0.01f, 0.01f, 0.01f, 0.01f};
    static const float bad_masses[4] = {0.01f, 0.0f, 0.01f, 0.01f};
    static const float bad_inverse[4] = {1.0f, -1.0f, 1.0f, 1.0f};
    static const float inverse[4] = {100.0f, 100.0f, 100.0f, 100.0f};
    cloth_mesh_desc md, d;
    cloth_t *ok = NULL;
    cloth_mesh_desc_init(&md);
    md.positions = v;
    md.vertex_count = 4;
    md.triangles = t;
    md.triangle_count = 2;
    CHECK_OK(test_create_mesh(&md, &ok)); /* the base is fine */
    cloth_destroy(ok);

    d = md; d.triangles = out_of_range; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "index out of range");
    d = md; d.triangles = repeated; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "repeated vertex");
    d = md; d.positions = collinear; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "zero-area triangle");
    d = md; d.positions = nan_pos; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "NaN position");
    d = md; d.positions = inf_pos; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "Inf position");
    d = md; d.masses = masses; d.inverse_masses = inverse; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "both masses");
    d = md; d.masses = bad_masses; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "zero mass");
    d = md; d.inverse_masses = bad_inverse; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "negative inverse mass");
    d = md; d.particle_mass = 0.0f; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "particle_mass 0");
    d = md; d.particle_mass = NAN; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "particle_mass NaN");
    d = md; d.position_stride = 8; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "stride 8");
    d = md; d.position_stride = 14; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "stride 14");
    d = md; d.positions = NULL; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "NULL positions");
    d = md; d.triangles = NULL; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "NULL triangles");
    d = md; d.triangle_count = 0; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "zero triangles");
    d = md; d.vertex_count = 2; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "two vertices");
    d = md; d.struct_size = (uint32_t)sizeof(cloth_mesh_desc) - 4u;
    refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "struct_size too small");
    d = md; d.struct_size = 0; refused(&d, CLOTH_ERR_INVALID_ARGUMENT, "struct_size 0");
    d = md; d.struct_size = (uint32_t)sizeof(cloth_mesh_desc) + 8u;
    refused(&d, CLOTH_ERR_UNSUPPORTED, "struct_size from a newer header");
    refused(NULL, CLOTH_ERR_INVALID_ARGUMENT, "NULL desc");
    CHECK_STATUS(test_create_mesh(&md, NULL), CLOTH_ERR_INVALID_ARGUMENT);

    /* masses and inverse masses, each alone, are fine; inverse mass 0 is allowed */
    static const float with_zero[4] = {0.0f, 100.0f, 100.0f, 100.0f};
    d = md; d.masses = masses; CHECK_OK(test_create_mesh(&d, &ok)); cloth_destroy(ok);
    d = md; d.inverse_masses = with_zero; CHECK_OK(test_create_mesh(&d, &ok)); cloth_destroy(ok);
    cloth_mesh_desc_init(NULL); /* ignored */
}

int main(void)
{
    load_grid_geometry();
    springs();
    same_as_grid(CLOTH_INTEGRATOR_EXPLICIT_EULER, "explicit_euler");
    same_as_grid(CLOTH_INTEGRATOR_TRAPEZOID, "trapezoid");
    same_as_grid(CLOTH_INTEGRATOR_VERLET, "verlet");
    same_as_grid(CLOTH_INTEGRATOR_PBD, "pbd");
    same_as_grid(CLOTH_INTEGRATOR_RELAXATION, "relaxation");
    normals();
    static const float m4[4] = {0.01f, 0.03f, 0.02f, 0.05f};
    static const float w4[4] = {100.0f, 20.0f, 50.0f, 40.0f};
    momentum(m4, NULL, "per-vertex masses 10/30/20/50 g");
    momentum(NULL, w4, "per-vertex inverse masses 100/20/50/40 per kg");
    immovable();
    pins_collider_readback();
    malformed();
    return test_finish("test_mesh");
}
