/*
 * The same bits everywhere, pinned down: a set of short scenes that together
 * run every kernel with a vector path (XPBD's grid sweeps, tethers, the
 * strain limit and its coarse levels, curvature bending, the sphere pass and
 * the other colliders, wind) and every built-in integrator, each hashed with
 * cloth_state_hash() after its last step and compared with the table in
 * golden_hashes.h.
 *
 * The table was written by this program (`test_golden --print`) before the
 * kernels were rewritten over the vector layer, so a rewrite that changes
 * one bit of one path fails here. Each scene runs at every vector level the
 * CPU has (CLOTHSIM_SIMD, read when a cloth is created) and on 1 and 3
 * threads; the AArch64 build runs the same table under qemu (scripts/test),
 * which is how "the same bits on every CPU" is checked.
 *
 * A change that is meant to change the physics regenerates the table with
 * `test_golden --print > tests/golden_hashes.h` and says why in its commit.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "test_box_mesh.h"
#include "test_util.h"

#include <clothsim/integrators.h>
#include <clothsim/material.h>

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define FRAMES 20

typedef struct scene {
    const char *name;
    void (*setup)(cloth_t *cloth);
    int kind; /* < 0: a mesh cloth, else a grid */
    cloth_integrator integrator;
    void (*frame)(cloth_t *cloth, int f); /* before step f, or NULL */
} scene;

static cloth_t *grid(uint32_t rows, uint32_t cols)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = rows;
    d.cols = cols;
    d.spacing = 1.0f / (float)(cols - 1u);
    d.origin[0] = -0.5f;
    d.origin[1] = 0.0f;
    d.origin[2] = -0.5f;
    d.particle_mass = 0.25f / (float)(rows * cols);
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_grid(&d, &c));
    return c;
}

static void gust(void *user, float time, uint32_t count, const float *positions, float *out)
{
    (void)user;
    for (uint32_t i = 0; i < count; ++i) {
        out[3u * i] = 2.0f + 0.5f * positions[3u * i + 2u];
        out[3u * i + 1u] = 0.0f;
        out[3u * i + 2u] = 1.0f + time;
    }
}

/* A ball under the middle, a floor, two pinned corners. */
static void ball_scene(cloth_t *c)
{
    const float centre[3] = {0.05f, -0.35f, 0.02f}, floor_point[3] = {0.0f, -0.9f, 0.0f}, up[3] = {0.0f, 1.0f, 0.0f};
    cloth_collider_id ball, floor_id;
    CHECK_OK(cloth_add_sphere(c, centre, 0.3f, &ball));
    CHECK_OK(cloth_set_collider_friction(c, ball, 0.5f));
    CHECK_OK(cloth_add_plane(c, floor_point, up, &floor_id));
    CHECK_OK(cloth_pin(c, 0u, NULL));
    const uint32_t n = cloth_particle_count(c);
    CHECK_OK(cloth_pin(c, n - 1u, NULL));
}

/* The defaults: XPBD, automatic substeps and limit passes, tethers. */
static void defaults(cloth_t *c)
{
    ball_scene(c);
}

/* A material (curvature bending on a grid, hinges on a mesh). */
static void cotton(cloth_t *c)
{
    cloth_material m;
    cloth_material_init(&m, CLOTH_MATERIAL_COTTON);
    CHECK_OK(cloth_set_material(c, &m));
    ball_scene(c);
    CHECK_OK(cloth_set_wind(c, gust, NULL));
}

/* Stiffness painted per particle (cloth_set_stiffness_scales()), scales
 * from 0.5 to 3 in a pattern that differs between neighbours, with a
 * material and with iterations enough that XPBD keeps its lambdas. */
static void painted(cloth_t *c)
{
    cloth_material m;
    cloth_material_init(&m, CLOTH_MATERIAL_JERSEY);
    CHECK_OK(cloth_set_material(c, &m));
    CHECK_OK(cloth_set_iterations(c, 2u));
    const uint32_t n = cloth_particle_count(c);
    float *scales = malloc(sizeof(float) * n);
    if (scales != NULL) {
        for (uint32_t i = 0; i < n; ++i) {
            scales[i] = 0.5f + 0.25f * (float)((i * 37u) % 11u);
        }
        CHECK_OK(cloth_set_stiffness_scales(c, scales, 0));
    }
    free(scales);
    ball_scene(c);
}

/* Self-collision a spacing thick, the cloth over the ball (folds where it
 * drapes), with the defaults. */
static void folding(cloth_t *c)
{
    const uint32_t n = cloth_particle_count(c);
    float *pos = malloc(sizeof(float) * 3u * n);
    if (pos != NULL) {
        CHECK_OK(cloth_get_positions(c, pos, 0)); /* the first two particles: one spacing apart */
        CHECK_OK(cloth_set_self_collision(c, fabsf(pos[3] - pos[0])));
    }
    free(pos);
    ball_scene(c);
}

/* The hand-tuned fast setup with the strain limit's coarse levels, every
 * collider shape, and more threads' worth of rows. */
static void fast_shapes(cloth_t *c)
{
    CHECK_OK(cloth_set_substeps(c, 6u));
    CHECK_OK(cloth_set_iterations(c, 1u));
    const float a[3] = {-0.3f, -0.5f, 0.0f}, b[3] = {0.3f, -0.5f, 0.1f}, e[3] = {0.1f, 0.15f, 0.2f};
    const float centre[3] = {0.2f, -0.45f, -0.2f}, axis[3] = {0.0f, 1.0f, 0.0f};
    cloth_collider_id id;
    CHECK_OK(cloth_add_capsule(c, a, b, 0.12f, &id));
    CHECK_OK(cloth_add_ellipsoid(c, centre, e, NULL, &id));
    const float ca[3] = {-0.3f, -0.7f, -0.3f}, cb[3] = {-0.3f, -0.4f, -0.3f};
    CHECK_OK(cloth_add_cylinder(c, ca, cb, 0.1f, &id));
    const float tc[3] = {0.3f, -0.6f, 0.3f};
    CHECK_OK(cloth_add_torus(c, tc, axis, 0.15f, 0.05f, &id));
    ball_scene(c);
    CHECK_OK(cloth_set_tethers(c, 1.03f));
    CHECK_OK(cloth_set_tether_schedule(c, CLOTH_TETHERS_LAST_SUBSTEP));
    CHECK_OK(cloth_set_strain_limit(c, 0.05f, 3u));
    CHECK_OK(cloth_set_strain_level_sweeps(c, 2u));
}

/* Body shapes: a capsule that rises and turns under the cloth, a tilted
 * plane that drifts up into it, a post whose cap and rim rise into it, a
 * lying cylinder and a turning ring, all with friction and thickness, with
 * the defaults (so the strain limit's held passes meet them too). */
static cloth_collider_id limb, ground, post, log_, ring; /* of the cloth being run */

static void body_shapes(cloth_t *c)
{
    const float a[3] = {-0.35f, -0.12f, -0.1f}, b[3] = {0.3f, -0.1f, 0.15f};
    const float p[3] = {0.0f, -0.06f, 0.0f}, n[3] = {0.25f, 1.0f, -0.15f};
    CHECK_OK(cloth_add_capsule(c, a, b, 0.08f, &limb));
    CHECK_OK(cloth_set_collider_friction(c, limb, 0.4f));
    CHECK_OK(cloth_set_collider_thickness(c, limb, 0.01f));
    CHECK_OK(cloth_add_plane(c, p, n, &ground));
    CHECK_OK(cloth_set_collider_friction(c, ground, 0.3f));
    CHECK_OK(cloth_set_collider_thickness(c, ground, 0.005f));
    const float pa[3] = {0.25f, -0.6f, -0.2f}, pb[3] = {0.25f, -0.15f, -0.2f};
    CHECK_OK(cloth_add_cylinder(c, pa, pb, 0.12f, &post));
    CHECK_OK(cloth_set_collider_friction(c, post, 0.5f));
    CHECK_OK(cloth_set_collider_thickness(c, post, 0.02f));
    const float la[3] = {0.05f, -0.08f, -0.42f}, lb[3] = {0.45f, -0.1f, -0.36f};
    CHECK_OK(cloth_add_cylinder(c, la, lb, 0.07f, &log_));
    CHECK_OK(cloth_set_collider_friction(c, log_, 0.2f));
    CHECK_OK(cloth_set_collider_thickness(c, log_, 0.0f)); /* every contact through the solid itself */
    const float rc[3] = {0.3f, -0.03f, 0.3f}, ra[3] = {0.2f, 1.0f, 0.1f};
    CHECK_OK(cloth_add_torus(c, rc, ra, 0.15f, 0.04f, &ring));
    CHECK_OK(cloth_set_collider_friction(c, ring, 0.6f)); /* friction's take-back, then the second query */
    CHECK_OK(cloth_set_collider_thickness(c, ring, 0.01f));
    CHECK_OK(cloth_pin(c, 0u, NULL));
}

static void body_shapes_frame(cloth_t *c, int f)
{
    const float t = (float)f / 60.0f, h = 0.5f * t, s = sinf(h), co = cosf(h);
    const float limb_at[3] = {-0.35f, -0.12f + 0.6f * t, -0.1f}, limb_turn[4] = {0.48f * s, 0.6f * s, 0.64f * s, co};
    const float ground_at[3] = {0.0f, -0.06f + 0.2f * t, 0.1f * t}, ground_turn[4] = {0.6f * s, 0.0f, 0.8f * s, co};
    CHECK_OK(cloth_set_collider_transform(c, limb, limb_at, limb_turn));
    CHECK_OK(cloth_set_collider_transform(c, ground, ground_at, ground_turn));
    const float post_at[3] = {0.25f, -0.6f + 0.9f * t, -0.2f}, log_at[3] = {0.05f, -0.08f + 0.3f * t, -0.42f};
    const float still[4] = {0.0f, 0.0f, 0.0f, 1.0f}, log_turn[4] = {0.0f, 0.0f, sinf(0.3f * h), cosf(0.3f * h)};
    CHECK_OK(cloth_set_collider_transform(c, post, post_at, still));
    CHECK_OK(cloth_set_collider_transform(c, log_, log_at, log_turn));
    const float ring_at[3] = {0.3f, -0.03f + 0.3f * t, 0.3f}, ring_turn[4] = {sinf(0.2f * h), 0.0f, 0.0f, cosf(0.2f * h)};
    CHECK_OK(cloth_set_collider_transform(c, ring, ring_at, ring_turn));
}

/* Ellipsoids: a long one turning and rising under the cloth with
 * friction, a flat one of thickness 0 drifting up into it (every contact
 * through the solid itself), and a round one the cloth slides over, with
 * the defaults (so the strain limit's held passes meet them too). */
static cloth_collider_id spindle, disc, bead; /* of the cloth being run */

static void ellipsoids(cloth_t *c)
{
    const float sc[3] = {-0.1f, -0.15f, -0.3f}, sr[3] = {0.35f, 0.07f, 0.12f}, sq[4] = {0.0f, 0.38f, 0.0f, 0.925f};
    CHECK_OK(cloth_add_ellipsoid(c, sc, sr, sq, &spindle));
    CHECK_OK(cloth_set_collider_friction(c, spindle, 0.5f));
    CHECK_OK(cloth_set_collider_thickness(c, spindle, 0.01f));
    const float dc[3] = {0.25f, -0.2f, -0.2f}, dr[3] = {0.25f, 0.02f, 0.2f};
    CHECK_OK(cloth_add_ellipsoid(c, dc, dr, NULL, &disc));
    CHECK_OK(cloth_set_collider_friction(c, disc, 0.3f));
    const float bc[3] = {-0.25f, -0.3f, -0.3f}, br[3] = {0.1f, 0.12f, 0.11f};
    CHECK_OK(cloth_add_ellipsoid(c, bc, br, NULL, &bead));
    CHECK_OK(cloth_set_collider_thickness(c, bead, 0.02f));
    CHECK_OK(cloth_pin(c, 0u, NULL));
}

static void ellipsoids_frame(cloth_t *c, int f)
{
    const float t = (float)f / 60.0f, h = 0.4f * t, s = sinf(h), co = cosf(h);
    const float spindle_at[3] = {-0.1f, -0.15f + 0.5f * t, -0.3f + 0.05f * t};
    const float spindle_turn[4] = {0.36f * s, 0.48f * s, 0.8f * s, co};
    CHECK_OK(cloth_set_collider_transform(c, spindle, spindle_at, spindle_turn));
    const float disc_at[3] = {0.25f, -0.2f + 0.4f * t, -0.2f}, disc_turn[4] = {sinf(0.3f * h), 0.0f, 0.0f, cosf(0.3f * h)};
    CHECK_OK(cloth_set_collider_transform(c, disc, disc_at, disc_turn));
}

/* Limbs: tapered capsules (a thigh rising and turning, a forearm with its
 * thin end up, and one whose larger ball holds the smaller), with friction
 * and thickness, with the defaults. */
static cloth_collider_id thigh, forearm, knuckle; /* of the cloth being run */

static void limbs(cloth_t *c)
{
    const float ta[3] = {-0.3f, -0.2f, -0.35f}, tb[3] = {0.25f, -0.1f, -0.3f};
    CHECK_OK(cloth_add_tapered_capsule(c, ta, tb, 0.12f, 0.06f, &thigh));
    CHECK_OK(cloth_set_collider_friction(c, thigh, 0.4f));
    CHECK_OK(cloth_set_collider_thickness(c, thigh, 0.01f));
    const float fa[3] = {0.2f, -0.45f, 0.1f}, fb[3] = {0.25f, -0.1f, 0.15f};
    CHECK_OK(cloth_add_tapered_capsule(c, fa, fb, 0.09f, 0.03f, &forearm));
    CHECK_OK(cloth_set_collider_friction(c, forearm, 0.6f));
    const float ka[3] = {-0.25f, -0.3f, 0.2f}, kb[3] = {-0.2f, -0.3f, 0.2f};
    CHECK_OK(cloth_add_tapered_capsule(c, ka, kb, 0.03f, 0.12f, &knuckle));
    CHECK_OK(cloth_set_collider_thickness(c, knuckle, 0.02f));
    CHECK_OK(cloth_pin(c, 0u, NULL));
}

static void limbs_frame(cloth_t *c, int f)
{
    const float t = (float)f / 60.0f, h = 0.5f * t, s = sinf(h), co = cosf(h);
    const float thigh_at[3] = {-0.3f, -0.2f + 0.5f * t, -0.35f}, thigh_turn[4] = {0.0f, 0.6f * s, 0.8f * s, co};
    CHECK_OK(cloth_set_collider_transform(c, thigh, thigh_at, thigh_turn));
    const float arm_at[3] = {0.2f, -0.45f + 0.6f * t, 0.1f}, arm_turn[4] = {sinf(0.4f * h), 0.0f, 0.0f, cosf(0.4f * h)};
    CHECK_OK(cloth_set_collider_transform(c, forearm, arm_at, arm_turn));
}

/* Hulls and meshes: a wedge of five planes rising and turning under the
 * cloth with friction, and a closed mesh box that grows (its vertices
 * moved every frame) and drifts up with thickness and friction, with the
 * defaults. */
static cloth_collider_id wedge, crate; /* of the cloth being run */
static box_mesh crate_mesh;

static void hulls(cloth_t *c)
{
    /* a roof ridge along z: two slopes, two ends, a floor */
    const float s = 0.7071068f;
    const float planes[20] = {s, s, 0, -0.1f, -s, s, 0, -0.1f, 0, 0, 1, -0.3f, 0, 0, -1, -0.3f, 0, -1, 0, -0.2f};
    CHECK_OK(cloth_add_convex(c, planes, 5u, &wedge));
    CHECK_OK(cloth_set_collider_friction(c, wedge, 0.4f));
    const float centre[3] = {0.25f, -0.3f, 0.2f}, half[3] = {0.12f, 0.1f, 0.15f};
    box_mesh_free(&crate_mesh);
    CHECK(box_mesh_make(&crate_mesh, 3u, centre, half));
    CHECK_OK(cloth_add_triangle_mesh(c, crate_mesh.vertices, 0, crate_mesh.vertex_count, crate_mesh.indices,
                                     crate_mesh.triangle_count, &crate));
    CHECK_OK(cloth_set_collider_friction(c, crate, 0.5f));
    CHECK_OK(cloth_set_collider_thickness(c, crate, 0.01f));
    CHECK_OK(cloth_pin(c, 0u, NULL));
}

static void hulls_frame(cloth_t *c, int f)
{
    const float t = (float)f / 60.0f, h = 0.5f * t;
    const float wedge_at[3] = {-0.2f, -0.25f + 0.4f * t, -0.1f};
    const float wedge_turn[4] = {0.0f, 0.6f * sinf(0.5f * h), 0.8f * sinf(0.5f * h), cosf(0.5f * h)};
    CHECK_OK(cloth_set_collider_transform(c, wedge, wedge_at, wedge_turn));
    /* the crate swells by a quarter about its own centre and rises */
    const uint32_t n = crate_mesh.vertex_count;
    float *v = malloc(sizeof(float) * 3u * n);
    if (v != NULL) {
        const float grow = 1.0f + 0.25f * t, centre[3] = {0.25f, -0.3f + 0.3f * t, 0.2f};
        for (uint32_t i = 0; i < n; ++i) {
            for (int k = 0; k < 3; ++k) {
                const float base = k == 1 ? -0.3f : (k == 0 ? 0.25f : 0.2f);
                v[3u * i + (uint32_t)k] = centre[k] + (crate_mesh.vertices[3u * i + (uint32_t)k] - base) * grow;
            }
        }
        CHECK_OK(cloth_set_triangle_mesh_vertices(c, crate, v, 0));
    }
    free(v);
}

/* The 0.2 settings (explicit integrators' closed forms) with a ball, at
 * the automatic substeps (the stability bound for explicit integrators). */
static void plain(cloth_t *c)
{
    cloth_integrator kind = CLOTH_INTEGRATOR_XPBD;
    CHECK_OK(cloth_get_integrator(c, &kind));
    test_plain(c);
    CHECK_OK(cloth_set_integrator(c, kind));
    CHECK_OK(cloth_set_substeps(c, 0u));
    CHECK_OK(cloth_set_iterations(c, 4u));
    ball_scene(c);
}

static const scene k_scenes[] = {
    {"defaults 33x33", defaults, 33, CLOTH_INTEGRATOR_XPBD, NULL},
    {"defaults 12x70", defaults, -70, CLOTH_INTEGRATOR_XPBD, NULL}, /* rows shorter than a vector */
    {"cotton 40x40", cotton, 40, CLOTH_INTEGRATOR_XPBD, NULL},
    {"cotton pbd 24x24", cotton, 24, CLOTH_INTEGRATOR_PBD, NULL},
    {"fast shapes 65x65", fast_shapes, 65, CLOTH_INTEGRATOR_XPBD, NULL},
    {"explicit 16x16", plain, 16, CLOTH_INTEGRATOR_EXPLICIT_EULER, NULL},
    {"trapezoid 16x16", plain, 16, CLOTH_INTEGRATOR_TRAPEZOID, NULL},
    {"verlet 16x16", plain, 16, CLOTH_INTEGRATOR_VERLET, NULL},
    {"pbd 20x20", plain, 20, CLOTH_INTEGRATOR_PBD, NULL},
    {"semirigid 20x20", plain, 20, CLOTH_INTEGRATOR_SEMIRIGID, NULL},
    {"relaxation 16x16", plain, 16, CLOTH_INTEGRATOR_RELAXATION, NULL},
    {"implicit 16x16", plain, 16, CLOTH_INTEGRATOR_IMPLICIT_EULER, NULL},
    {"mesh xpbd 17x17", defaults, 0, CLOTH_INTEGRATOR_XPBD, NULL},
    {"mesh cotton 17x17", cotton, 0, CLOTH_INTEGRATOR_XPBD, NULL},
    {"body shapes 30x30", body_shapes, 30, CLOTH_INTEGRATOR_XPBD, body_shapes_frame},
    {"body shapes 12x70", body_shapes, -70, CLOTH_INTEGRATOR_XPBD, body_shapes_frame},
    {"ellipsoids 30x30", ellipsoids, 30, CLOTH_INTEGRATOR_XPBD, ellipsoids_frame},
    {"ellipsoids 12x70", ellipsoids, -70, CLOTH_INTEGRATOR_XPBD, ellipsoids_frame},
    {"limbs 30x30", limbs, 30, CLOTH_INTEGRATOR_XPBD, limbs_frame},
    {"limbs 12x70", limbs, -70, CLOTH_INTEGRATOR_XPBD, limbs_frame},
    {"hulls and meshes 30x30", hulls, 30, CLOTH_INTEGRATOR_XPBD, hulls_frame},
    {"hulls and meshes 12x70", hulls, -70, CLOTH_INTEGRATOR_XPBD, hulls_frame},
    {"painted 30x30", painted, 30, CLOTH_INTEGRATOR_XPBD, NULL},
    {"painted 12x70", painted, -70, CLOTH_INTEGRATOR_XPBD, NULL},
    {"painted mesh 17x17", painted, 0, CLOTH_INTEGRATOR_XPBD, NULL},
    {"painted explicit 16x16", painted, 16, CLOTH_INTEGRATOR_EXPLICIT_EULER, NULL},
    {"self-collision 30x30", folding, 30, CLOTH_INTEGRATOR_XPBD, NULL},
};
enum { SCENES = sizeof k_scenes / sizeof k_scenes[0] };

/* golden_hashes.h: `static const uint64_t k_golden[SCENES]`, or nothing
 * when the table is being written */
#include "golden_hashes.h"

static uint64_t run_switching(const scene *s, uint32_t threads, bool switching);

static uint64_t run(const scene *s, uint32_t threads)
{
    return run_switching(s, threads, false);
}

/* The level the CPU runs best, as cloth_get_simd_level() reports it. */
static cloth_simd_level best_level(void)
{
    cloth_t *c = grid(3u, 3u);
    cloth_simd_level best = CLOTH_SIMD_LEVEL_SCALAR;
    if (c != NULL) {
        CHECK_OK(cloth_set_simd_level(c, CLOTH_SIMD_LEVEL_BEST));
        CHECK_OK(cloth_get_simd_level(c, &best));
        cloth_destroy(c);
    }
    return best;
}

static uint64_t run_switching(const scene *s, uint32_t threads, bool switching)
{
    cloth_t *c = NULL;
    if (s->kind == 0) {
        enum { N = 17 };
        float pos[3 * N * N];
        uint32_t tris[6 * (N - 1) * (N - 1)];
        CHECK_OK(test_flat_mesh_cloth(N, N, 1.0f / (N - 1), pos, tris, &c));
    } else if (s->kind < 0) {
        c = grid(12u, (uint32_t)-s->kind);
    } else {
        c = grid((uint32_t)s->kind, (uint32_t)s->kind);
    }
    if (c == NULL) {
        return 0u;
    }
    CHECK_OK(cloth_set_integrator(c, s->integrator));
    s->setup(c);
    CHECK_OK(cloth_set_threads(c, threads));
    const int best = (int)best_level();
    for (int f = 0; f < FRAMES; ++f) {
        if (switching) {
            /* a different level every step, through every one this CPU runs */
            CHECK_OK(cloth_set_simd_level(c, (cloth_simd_level)(CLOTH_SIMD_LEVEL_SCALAR + f % best)));
        }
        if (s->frame != NULL) {
            s->frame(c, f);
        }
        CHECK_OK(cloth_step(c, 1.0f / 60.0f));
    }
    const uint64_t h = cloth_state_hash(c);
    cloth_destroy(c);
    return h;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--print") == 0) {
        printf("/* Written by `test_golden --print` (tests/test_golden.c); regenerate only\n"
               " * for a change meant to change the physics, and say so in its commit. */\n"
               "#define GOLDEN_TABLE 1\nstatic const uint64_t k_golden[] = {\n");
        for (int i = 0; i < SCENES; ++i) {
            printf("    0x%016llxull, /* %s */\n", (unsigned long long)run(&k_scenes[i], 1u), k_scenes[i].name);
        }
        printf("};\n");
        box_mesh_free(&crate_mesh);
        return test_failures == 0 ? 0 : 1;
    }
#ifndef GOLDEN_TABLE
    fprintf(stderr, "golden_hashes.h holds no table\n");
    return 1;
#else
    CHECK(sizeof k_golden / sizeof k_golden[0] == SCENES);
#if defined(__aarch64__)
    static const char *const levels[] = {"scalar", "neon"};
#else
    static const char *const levels[] = {"scalar", "sse2", "avx2", "avx512"};
#endif
    const int level_count = (int)(sizeof levels / sizeof levels[0]);
    const char *was = getenv("CLOTHSIM_SIMD");
    for (int l = 0; l < level_count; ++l) {
        setenv("CLOTHSIM_SIMD", levels[l], 1); /* a level the CPU lacks runs its best */
        for (uint32_t threads = 1u; threads <= 3u; threads += 2u) {
            int same = 0;
            for (int i = 0; i < SCENES && (size_t)i < sizeof k_golden / sizeof k_golden[0]; ++i) {
                const uint64_t h = run(&k_scenes[i], threads);
                if (h != k_golden[i]) {
                    fprintf(stderr, "%s, %s, %u thread(s): hash %016llx, table %016llx\n", k_scenes[i].name,
                            levels[l], threads, (unsigned long long)h, (unsigned long long)k_golden[i]);
                }
                CHECK(h == k_golden[i]);
                same += h == k_golden[i];
            }
            printf("CLOTHSIM_SIMD=%s, %u thread(s): %d of %d scenes give the table's hash\n", levels[l], threads,
                   same, SCENES);
        }
    }
    /* cloth_set_simd_level(): switched between steps, the same bits */
    for (int i = 0; i < SCENES; ++i) {
        CHECK(run_switching(&k_scenes[i], 1u, true) == k_golden[i]);
    }
    printf("cloth_set_simd_level() every step, 1 thread: %d scenes checked\n", SCENES);
    /* refusals change nothing */
    cloth_t *c = grid(3u, 3u);
    if (c != NULL) {
        const cloth_simd_level best = best_level();
        cloth_simd_level now = CLOTH_SIMD_LEVEL_BEST;
        CHECK_OK(cloth_get_simd_level(c, &now));
        CHECK(now == best && now != CLOTH_SIMD_LEVEL_BEST);
        CHECK_OK(cloth_set_simd_level(c, CLOTH_SIMD_LEVEL_SCALAR));
        if (best < CLOTH_SIMD_LEVEL_AVX512) {
            CHECK_STATUS(cloth_set_simd_level(c, (cloth_simd_level)(best + 1)), CLOTH_ERR_UNSUPPORTED);
        }
        CHECK_STATUS(cloth_set_simd_level(c, (cloth_simd_level)5), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(cloth_set_simd_level(c, CLOTH_SIMD_LEVEL_FORCE32), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(cloth_set_simd_level(NULL, CLOTH_SIMD_LEVEL_SCALAR), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(cloth_get_simd_level(c, NULL), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(cloth_get_simd_level(NULL, &now), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_OK(cloth_get_simd_level(c, &now));
        CHECK(now == CLOTH_SIMD_LEVEL_SCALAR);
        cloth_destroy(c);
    }
    if (was != NULL) {
        setenv("CLOTHSIM_SIMD", was, 1);
    } else {
        unsetenv("CLOTHSIM_SIMD");
    }
    box_mesh_free(&crate_mesh);
    printf("%d checks, %d failed\n", test_checks, test_failures);
    return test_failures == 0 ? 0 : 1;
#endif
}
