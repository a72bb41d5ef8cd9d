/*
 * Every integrator through cloth_set_integrator(): the facts all of them share.
 *
 *  A. Free fall. A 16 x 15 cloth, unpinned, every spring stiffness 0 and no
 *     velocity damping, falls for t = 0.5 s. Its centre of mass must follow
 *     y0 - g t^2 / 2 to first order in the substep h: the documented updates
 *     give x_n = x0 - g h^2 n (n + 1) / 2 for the first-order schemes
 *     (symplectic Euler, Verlet, and the predictions of PBD and SEMIRIGID),
 *     which leads the continuous answer by g h t / 2, and the exact answer for
 *     the trapezoid rule. PBD keeps its constraints (default constraint
 *     stiffness) and SEMIRIGID its rigid links: a cloth at rest length that
 *     translates rigidly keeps every length, so neither may change the fall.
 *  B. A cloth pinned at two corners settles, stays finite and is symmetric
 *     about its middle column.
 *  C. Switching integrators mid-simulation keeps positions and velocities
 *     bit for bit, and the step after the switch continues the motion.
 *  D. Determinism: two identical runs (pins, a moving pin, a sphere, and wind
 *     if the library has it) give bitwise identical positions, for every
 *     integrator including RELAXATION.
 *  E. cloth_get_integrator() reports the kind; bad kinds are refused;
 *     SEMIRIGID on a mesh cloth is CLOTH_ERR_UNSUPPORTED and the previous
 *     integrator stays.
 *
 * RELAXATION is quasi-static (no velocity), so it is exempt from A, B and the
 * motion part of C, as issue 3 says.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ROWS 16u
#define COLS 15u /* odd, so that there is a middle column (see B) */
#define NP (ROWS * COLS)
#define SPACING 0.05f
#define MASS 0.01f
#define GRAV 9.81f

#define N_DYNAMIC 5
static const cloth_integrator k_dynamic[N_DYNAMIC] = {
    CLOTH_INTEGRATOR_EXPLICIT_EULER, CLOTH_INTEGRATOR_TRAPEZOID, CLOTH_INTEGRATOR_VERLET,
    CLOTH_INTEGRATOR_PBD, CLOTH_INTEGRATOR_SEMIRIGID};
#define N_ALL 6
static const cloth_integrator k_all[N_ALL] = {
    CLOTH_INTEGRATOR_EXPLICIT_EULER, CLOTH_INTEGRATOR_TRAPEZOID, CLOTH_INTEGRATOR_VERLET,
    CLOTH_INTEGRATOR_PBD, CLOTH_INTEGRATOR_SEMIRIGID, CLOTH_INTEGRATOR_RELAXATION};

static const char *kind_name(cloth_integrator k)
{
    switch (k) {
    case CLOTH_INTEGRATOR_EXPLICIT_EULER:
        return "explicit_euler";
    case CLOTH_INTEGRATOR_TRAPEZOID:
        return "trapezoid";
    case CLOTH_INTEGRATOR_VERLET:
        return "verlet";
    case CLOTH_INTEGRATOR_PBD:
        return "pbd";
    case CLOTH_INTEGRATOR_SEMIRIGID:
        return "semirigid";
    case CLOTH_INTEGRATOR_RELAXATION:
        return "relaxation";
    default:
        return "?";
    }
}

/* A horizontal 16 x 15 grid (u = +x, v = +z) at height 1 m. */
static cloth_t *make_grid(void)
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
    CHECK_OK(test_create_grid(&desc, &cloth));
    return cloth;
}

static int all_finite(const float *a, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) {
        if (!isfinite(a[i])) {
            return 0;
        }
    }
    return 1;
}

static double max_speed(const float *v, uint32_t count)
{
    double m = 0.0;
    for (uint32_t i = 0; i < count; ++i) {
        double s = sqrt((double)v[3 * i] * (double)v[3 * i] + (double)v[3 * i + 1] * (double)v[3 * i + 1] +
                        (double)v[3 * i + 2] * (double)v[3 * i + 2]);
        if (s > m) {
            m = s;
        }
    }
    return m;
}

/* ---- A. free fall ------------------------------------------------------- */

static void free_fall(cloth_integrator kind)
{
    static float pos[3 * NP];
    const float dt = 1.0f / 60.0f;
    const uint32_t frames = 30u, substeps = 16u;
    const double h = (double)dt / (double)substeps, t = (double)frames * (double)dt;
    double y0 = 0.0, x0 = 0.0, z0 = 0.0;
    cloth_t *cloth = make_grid();
    if (cloth == NULL) {
        return;
    }
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 0.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_SHEAR, 0.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_BEND, 0.0f));
    CHECK_OK(cloth_set_damping(cloth, 0.0f));
    CHECK_OK(cloth_set_substeps(cloth, substeps));
    CHECK_OK(cloth_set_integrator(cloth, kind));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    for (uint32_t i = 0; i < NP; ++i) {
        x0 += (double)pos[3 * i];
        y0 += (double)pos[3 * i + 1];
        z0 += (double)pos[3 * i + 2];
    }
    x0 /= NP;
    y0 /= NP;
    z0 /= NP;
    for (uint32_t f = 0; f < frames; ++f) {
        CHECK_OK(cloth_step(cloth, dt));
    }
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK(all_finite(pos, 3 * NP));
    double cx = 0.0, cy = 0.0, cz = 0.0;
    for (uint32_t i = 0; i < NP; ++i) {
        cx += (double)pos[3 * i];
        cy += (double)pos[3 * i + 1];
        cz += (double)pos[3 * i + 2];
    }
    cx /= NP;
    cy /= NP;
    cz /= NP;
    const double exact = y0 - 0.5 * (double)GRAV * t * t;
    const double first_order = 0.5 * (double)GRAV * h * t; /* g h t / 2 = 2.55 mm */
    /*
     * Float rounding for the force-based updates (velocity kept as state):
     * |y| <= 1 m and |v| <= 4.9 m/s over n = 480 substeps; each substep
     * rounds y by <= ulp(1)/2 = 6e-8 m and v by <= ulp(4)/2 = 2.4e-7 m/s,
     * which moves y by at most 480 * 2.4e-7 * h ~ 1.2e-7 m per later
     * substep: worst case 480 * 6e-8 + 480 * 240 * 1.2e-10 ~ 4.3e-5 m.
     * Allow 1e-4 m.
     */
    const double float_tol = 1e-4;
    /*
     * PBD derives the velocity from the positions, v = (x' - x) / h
     * (clothsim.h), so the rounding of x' (<= u / 2, u = ulp(y) = 6e-8 m for
     * 0.5 <= y < 1) becomes a velocity error u / (2 h) that is kept: it can
     * add up over n substeps to n u / (2 h) in velocity and
     * sum_k k u / 2 = n (n + 1) u / 4 = 3.4e-3 m in position when the
     * roundings keep one sign, which they do in free fall (g h^2 is the same
     * fraction of an ulp every substep).
     */
    const double n = (double)frames * (double)substeps;
    const double quantisation = n * (n + 1.0) * 5.9604645e-8 / 4.0;
    /* SEMIRIGID keeps its velocity as state like symplectic Euler: a rigidly
     * falling cloth has no relative velocity along any link, so the velocity
     * projection changes nothing, and its position passes only re-round
     * lengths that are already at rest */
    const int position_based = kind == CLOTH_INTEGRATOR_PBD;
    printf("free fall %-14s centre of mass y %.7f m, 0.5 g t^2 gives %.7f m: lead %.3e m "
           "(first-order term g h t / 2 = %.3e m); drift x %.2e z %.2e m\n",
           kind_name(kind), cy, exact, exact - cy, first_order, cx - x0, cz - z0);
    if (position_based) {
        CHECK_NEAR(cy, exact, first_order + quantisation + float_tol);
    } else {
        CHECK_NEAR(cy, exact, first_order + float_tol);
    }
    if (kind == CLOTH_INTEGRATOR_TRAPEZOID) {
        CHECK_NEAR(cy, exact, float_tol); /* exact for constant acceleration */
    } else if (!position_based) {
        /* symplectic Euler and Verlet lead by exactly g h t / 2 */
        CHECK_NEAR(exact - cy, first_order, float_tol);
    }
    /*
     * Gravity is vertical and a rigidly falling cloth has no internal force:
     * the documented updates leave x and z exactly where they are (zero
     * velocity, zero correction). Allow 1e-5 m for roundings of the
     * position-based solves, which have no preferred sign sideways.
     */
    CHECK_NEAR(cx, x0, 1e-5);
    CHECK_NEAR(cz, z0, 1e-5);
    cloth_destroy(cloth);
}

/* ---- B. pinned at two corners: settles, finite, symmetric ---------------- */

static void two_corners(cloth_integrator kind)
{
    static float pos[3 * NP], vel[3 * NP];
    const float dt = 1.0f / 60.0f;
    const uint32_t frames = 600u; /* 10 s */
    cloth_t *cloth = make_grid();
    int finite = 1;
    if (cloth == NULL) {
        return;
    }
    /*
     * Velocity damping 3 /s: a swing decays at least as exp(-c t / 2), so the
     * ~2 m/s of the first fall is down to 2 * exp(-7.5) ~ 1.1e-3 m/s after
     * 5 s. "Settled" is a residual speed below 1e-2 m/s.
     */
    CHECK_OK(cloth_set_damping(cloth, 3.0f));
    CHECK_OK(cloth_set_integrator(cloth, kind));
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_pin(cloth, COLS - 1u, NULL));
    static float earlier[3 * NP];
    for (uint32_t f = 0; f < frames; ++f) {
        cloth_status s = cloth_step(cloth, dt);
        if (s != CLOTH_OK) {
            CHECK_OK(s);
            break;
        }
        if (f + 31u == frames) {
            CHECK_OK(cloth_get_positions(cloth, earlier, 0));
        }
    }
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    CHECK_OK(cloth_get_velocities(cloth, vel, 0));
    finite = all_finite(pos, 3 * NP) && all_finite(vel, 3 * NP);
    CHECK(finite);
    const double speed = max_speed(vel, NP);
    /* mirror image of (r, c) is (r, COLS - 1 - c) about x = (COLS - 1) s / 2 */
    const double mid2 = (double)((float)(COLS - 1u) * SPACING);
    double asym = 0.0, lowest = 1.0;
    for (uint32_t r = 0; r < ROWS; ++r) {
        for (uint32_t c = 0; c < COLS; ++c) {
            uint32_t i = r * COLS + c, j = r * COLS + (COLS - 1u - c);
            double ex = fabs((double)pos[3 * i] + (double)pos[3 * j] - mid2);
            double ey = fabs((double)pos[3 * i + 1] - (double)pos[3 * j + 1]);
            double ez = fabs((double)pos[3 * i + 2] - (double)pos[3 * j + 2]);
            double e = fmax(ex, fmax(ey, ez));
            if (e > asym) {
                asym = e;
            }
            if ((double)pos[3 * i + 1] < lowest) {
                lowest = (double)pos[3 * i + 1];
            }
        }
    }
    printf("two corners %-14s after 5 s: max speed %.3e m/s, asymmetry %.3e m, lowest point y %.4f m\n",
           kind_name(kind), speed, asym, lowest);
    /* settled: nothing moved more than 1 mm in the last half second */
    double moved = 0.0;
    for (uint32_t i = 0; i < 3u * NP; ++i) {
        moved = fmax(moved, fabs((double)pos[i] - (double)earlier[i]));
    }
    printf("two corners %-14s moved %.3e m in the last 0.5 s\n", kind_name(kind), moved);
    CHECK(moved < 1e-3);
    CHECK(speed < 1e-2);
    /*
     * Symmetry: the problem is mirror symmetric; only the float summation
     * order differs between a particle and its mirror image (springs are
     * visited in index order), a few ulp (6e-8 m at |x| < 1 m) per substep,
     * and the settled state is a stable equilibrium that damps such
     * differences instead of growing them. Allow 1e-4 m (0.2 % of a spacing);
     * a lopsided solve (e.g. a Gauss-Seidel sweep in one direction) leans by
     * millimetres.
     */
    CHECK(asym < 1e-4);
    /* it hangs: something is well below the pins (cloth is 0.75 m across) */
    CHECK(lowest < 1.0 - 0.2);
    /* and no lower than a cloth of 0.75 m diagonal can reach, stretch allowed */
    CHECK(lowest > 1.0 - 2.0);
    /* the pins hold exactly */
    CHECK(pos[0] == 0.0f && pos[1] == 1.0f && pos[2] == 0.0f);
    cloth_destroy(cloth);
}

/* ---- C. switching keeps the state, no jump ------------------------------- */

/*
 * A curtain (v = -y) of 16 x 15 with its top row pinned, which every
 * integrator can hold, swinging under a sideways gravity component. The
 * springs are stiff (k = 300 N structural, 64 substeps) so that the
 * force-based equilibrium stretch (about 2 mm at the hem) is small compared
 * with the motion in a frame (about 2 cm at the hem after 0.3 s of swinging):
 * the position-based integrators, which take the links to rest length, then
 * see nearly the same state.
 */
static cloth_t *make_swinging_curtain(void)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    const float g[3] = {0.0f, -GRAV, 4.0f}; /* out of the curtain's plane */
    cloth_grid_desc_init(&desc);
    desc.rows = ROWS;
    desc.cols = COLS;
    desc.spacing = SPACING;
    desc.particle_mass = MASS;
    desc.v_axis[0] = 0.0f;
    desc.v_axis[1] = -1.0f;
    desc.v_axis[2] = 0.0f;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth == NULL) {
        return NULL;
    }
    /* stability (clothsim.h): w_max^2 <= 8/(m s) (300 + 100/sqrt2 + 5/2) = 4.9e6,
     * h = 1/3840 s, beta = 1 ms: w^2 h (h + 2 beta) = 2.9 <= 4 */
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 300.0f));
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_SHEAR, 100.0f));
    CHECK_OK(cloth_set_substeps(cloth, 64u));
    CHECK_OK(cloth_set_gravity(cloth, g));
    for (uint32_t c = 0; c < COLS; ++c) {
        CHECK_OK(cloth_pin(cloth, c, NULL));
    }
    return cloth;
}

static double max_diff3(const float *a, const float *b, uint32_t count)
{
    double m = 0.0;
    for (uint32_t i = 0; i < count; ++i) {
        double dx = (double)a[3 * i] - (double)b[3 * i], dy = (double)a[3 * i + 1] - (double)b[3 * i + 1],
               dz = (double)a[3 * i + 2] - (double)b[3 * i + 2];
        double d = sqrt(dx * dx + dy * dy + dz * dz);
        if (d > m) {
            m = d;
        }
    }
    return m;
}

static void switch_pair(cloth_integrator from, cloth_integrator to)
{
    static float p0[3 * NP], p1[3 * NP], p2[3 * NP], v1[3 * NP], pa[3 * NP], va[3 * NP];
    static float d_before[3 * NP], d_after[3 * NP];
    const float dt = 1.0f / 60.0f;
    cloth_t *cloth = make_swinging_curtain();
    cloth_integrator got = CLOTH_INTEGRATOR_CUSTOM;
    if (cloth == NULL) {
        return;
    }
    CHECK_OK(cloth_set_integrator(cloth, from));
    for (uint32_t f = 0; f < 17u; ++f) { /* 0.28 s: swinging out, hem at ~1 m/s */
        CHECK_OK(cloth_step(cloth, dt));
    }
    CHECK_OK(cloth_get_positions(cloth, p0, 0));
    CHECK_OK(cloth_step(cloth, dt));
    CHECK_OK(cloth_get_positions(cloth, p1, 0));
    CHECK_OK(cloth_get_velocities(cloth, v1, 0));

    CHECK_OK(cloth_set_integrator(cloth, to));
    CHECK_OK(cloth_get_integrator(cloth, &got));
    CHECK(got == to);
    CHECK_OK(cloth_get_positions(cloth, pa, 0));
    CHECK_OK(cloth_get_velocities(cloth, va, 0));
    /* the switch itself changes nothing, bit for bit */
    CHECK(memcmp(pa, p1, sizeof p1) == 0);
    CHECK(memcmp(va, v1, sizeof v1) == 0);

    if (to != CLOTH_INTEGRATOR_RELAXATION && from != CLOTH_INTEGRATOR_RELAXATION) {
        CHECK_OK(cloth_step(cloth, dt));
        CHECK_OK(cloth_get_positions(cloth, p2, 0));
        double before = 0.0;
        for (uint32_t k = 0; k < 3 * NP; ++k) {
            d_before[k] = p1[k] - p0[k];
            d_after[k] = p2[k] - p1[k];
        }
        before = max_diff3(p1, p0, NP);
        const double change = max_diff3(d_after, d_before, NP);
        /*
         * No jump: the displacement over the frame after the switch differs
         * from the one before by what the motion itself changes in a frame
         * (acceleration * dt^2: 13 m/s^2 gives 3.6 mm at most for the
         * swinging hem) plus the difference between the force-based stretch
         * and rest length (about 2 mm at the hem). Allow half the frame's
         * displacement; a switch that lost the velocities would change the
         * displacement by all of it (ratio ~1), one that doubled them by as
         * much again.
         */
        printf("switch %-14s -> %-14s frame displacement before %.4f m, change after switch %.4f m "
               "(ratio %.3f)\n",
               kind_name(from), kind_name(to), before, change, change / before);
        CHECK(before > 5e-3); /* the cloth really moves */
        CHECK(change < 0.5 * before);
    }
    cloth_destroy(cloth);
}

/* ---- D. determinism ----------------------------------------------------- */

/* A breeze that changes in space and time (used only if the library has wind). */
static void breeze(void *user, float time, uint32_t count, const float *positions, float *wind)
{
    (void)user;
    for (uint32_t i = 0; i < count; ++i) {
        wind[3 * i] = 0.5f * sinf(2.0f * time + 3.0f * positions[3 * i + 2]);
        wind[3 * i + 1] = 0.0f;
        wind[3 * i + 2] = 2.0f + sinf(3.0f * time + 5.0f * positions[3 * i]);
    }
}

static void run_scene(cloth_integrator kind, float *out)
{
    const float centre[3] = {0.35f, 0.6f, 0.4f};
    cloth_collider_id id = 0;
    cloth_t *cloth = make_grid();
    if (cloth == NULL) {
        return;
    }
    CHECK_OK(cloth_set_integrator(cloth, kind));
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_pin(cloth, COLS - 1u, NULL));
    CHECK_OK(cloth_add_sphere(cloth, centre, 0.2f, &id));
    cloth_status ws = cloth_set_wind(cloth, breeze, NULL);
    CHECK(ws == CLOTH_OK || ws == CLOTH_ERR_UNSUPPORTED);
    for (uint32_t f = 0; f < 60u; ++f) {
        if (f == 30u) {
            const float target[3] = {0.1f, 1.05f, 0.0f};
            CHECK_OK(cloth_pin(cloth, 0, target)); /* a moving pin */
        }
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    }
    CHECK_OK(cloth_get_positions(cloth, out, 0));
    cloth_destroy(cloth);
}

static void determinism(cloth_integrator kind)
{
    static float a[3 * NP], b[3 * NP];
    memset(a, 0, sizeof a);
    memset(b, 0xff, sizeof b);
    run_scene(kind, a);
    run_scene(kind, b);
    int same = memcmp(a, b, sizeof a) == 0;
    printf("determinism %-14s two runs bitwise identical: %s\n", kind_name(kind), same ? "yes" : "NO");
    CHECK(same);
    CHECK(all_finite(a, 3 * NP));
}

/* ---- E. the kind, bad kinds, SEMIRIGID on a mesh ------------------------ */

static void kinds_and_mesh(void)
{
    cloth_integrator got = CLOTH_INTEGRATOR_CUSTOM;
    cloth_t *cloth = make_grid();
    if (cloth == NULL) {
        return;
    }
    CHECK_OK(cloth_get_integrator(cloth, &got));
    CHECK(got == CLOTH_INTEGRATOR_EXPLICIT_EULER); /* the documented default */
    for (int k = 0; k < N_ALL; ++k) {
        CHECK_OK(cloth_set_integrator(cloth, k_all[k]));
        CHECK_OK(cloth_get_integrator(cloth, &got));
        CHECK(got == k_all[k]);
    }
    /* refused kinds change nothing */
    CHECK_STATUS(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_CUSTOM), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_integrator(cloth, (cloth_integrator)77), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_integrator(cloth, (cloth_integrator)-1), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_integrator(NULL, CLOTH_INTEGRATOR_PBD), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_integrator(NULL, &got), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_integrator(cloth, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_get_integrator(cloth, &got));
    CHECK(got == CLOTH_INTEGRATOR_RELAXATION);
    cloth_destroy(cloth);

    /* a mesh cloth: two triangles of a unit square */
    static const float verts[12] = {0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1};
    static const uint32_t tris[6] = {0, 1, 2, 2, 1, 3};
    cloth_mesh_desc md;
    cloth_t *mesh = NULL;
    cloth_mesh_desc_init(&md);
    md.positions = verts;
    md.vertex_count = 4;
    md.triangles = tris;
    md.triangle_count = 2;
    CHECK_OK(test_create_mesh(&md, &mesh));
    if (mesh == NULL) {
        return;
    }
    CHECK_OK(cloth_set_integrator(mesh, CLOTH_INTEGRATOR_PBD));
    CHECK_STATUS(cloth_set_integrator(mesh, CLOTH_INTEGRATOR_SEMIRIGID), CLOTH_ERR_UNSUPPORTED);
    CHECK_OK(cloth_get_integrator(mesh, &got));
    CHECK(got == CLOTH_INTEGRATOR_PBD); /* the previous integrator stays */
    CHECK_OK(cloth_step(mesh, 1.0f / 60.0f)); /* and still runs */
    for (int k = 0; k < N_ALL; ++k) {
        if (k_all[k] != CLOTH_INTEGRATOR_SEMIRIGID) {
            CHECK_OK(cloth_set_integrator(mesh, k_all[k]));
            CHECK_OK(cloth_step(mesh, 1.0f / 60.0f));
        }
    }
    cloth_destroy(mesh);
}

int main(void)
{
    for (int k = 0; k < N_DYNAMIC; ++k) {
        free_fall(k_dynamic[k]);
    }
    for (int k = 0; k < N_DYNAMIC; ++k) {
        two_corners(k_dynamic[k]);
    }
    for (int a = 0; a < N_ALL; ++a) {
        for (int b = 0; b < N_ALL; ++b) {
            if (a != b) {
                switch_pair(k_all[a], k_all[b]);
            }
        }
    }
    for (int k = 0; k < N_ALL; ++k) {
        determinism(k_all[k]);
    }
    kinds_and_mesh();
    return test_finish("test_integrator_switch");
}
