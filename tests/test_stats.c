/*
 * Statistics and the watchdog (state.h): strain `(l - L0) / L0` per spring
 * type, kinetic energy `sum 1/2 m |v|^2` over free particles, contacts of the
 * last substep, steps and wall time; a watchdog that reports (the step
 * stands, CLOTH_OK) or restores (the state before the step, time included,
 * and CLOTH_ERR_UNSTABLE). memory_bytes equals, at every point of a cloth's
 * life, what a counting allocator installed through the desc holds for it.
 * The force accumulators exist only while something uses them: XPBD on a
 * grid without wind or a force hook holds none (at most 64 bytes per
 * particle in the bench's drape-128 scene) and steps bit for bit as with
 * them.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const float k_dt = 1.0f / 60.0f;

/* A horizontal grid whose coordinates are exact in binary: spacing 0.5, so
 * positions are multiples of 0.5 and the structural and bend rest lengths
 * (0.5, 1) are exact; only the shear rest length 0.5 sqrt(2) is rounded. */
static cloth_t *exact_grid(uint32_t rows, uint32_t cols)
{
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = rows;
    desc.cols = cols;
    desc.spacing = 0.5f;
    cloth_t *cloth = NULL;
    CHECK_OK(test_create_grid(&desc, &cloth));
    return cloth;
}

static cloth_stats get(const cloth_t *cloth)
{
    cloth_stats s;
    cloth_stats_init(&s);
    CHECK_OK(cloth_get_stats(cloth, &s));
    return s;
}

/* Scale x by sx and z by sz about the origin (particle 0). */
static void stretch(cloth_t *cloth, float sx, float sz)
{
    const uint32_t n = cloth_particle_count(cloth);
    float *p = malloc(sizeof(float) * 3u * n);
    if (p == NULL) {
        CHECK(0);
        return;
    }
    CHECK_OK(cloth_get_positions(cloth, p, 0));
    for (uint32_t i = 0; i < n; ++i) {
        p[3u * i] *= sx;
        p[3u * i + 2u] *= sz;
    }
    CHECK_OK(cloth_set_positions(cloth, p, 0));
    free(p);
}

static void strain(void)
{
    const uint32_t rows = 4, cols = 5;
    cloth_t *cloth = exact_grid(rows, cols);
    if (cloth == NULL) {
        return;
    }
    /* seed 000's stencil: structural right and down, shear both diagonals,
     * bend next-but-one right and down */
    const uint32_t along_x = rows * (cols - 1u), along_z = (rows - 1u) * cols;
    const uint32_t expect[3] = {along_x + along_z, 2u * (rows - 1u) * (cols - 1u),
                                rows * (cols - 2u) + (rows - 2u) * cols};
    cloth_stats s = get(cloth);
    CHECK(s.struct_size == sizeof s);
    for (int t = 0; t < 3; ++t) {
        CHECK(s.spring_count[t] == expect[t]);
    }
    CHECK(s.spring_count[0] + s.spring_count[1] + s.spring_count[2] == cloth_spring_count(cloth));
    /* at rest: structural and bend exactly 0; shear within the rounding of
     * its rest length, 2^-24 relative */
    printf("at rest: strain max %.3g %.3g %.3g, min %.3g %.3g %.3g\n", (double)s.max_strain[0],
           (double)s.max_strain[1], (double)s.max_strain[2], (double)s.min_strain[0], (double)s.min_strain[1],
           (double)s.min_strain[2]);
    CHECK(s.max_strain[0] == 0.0f && s.min_strain[0] == 0.0f && s.mean_strain[0] == 0.0f);
    CHECK(s.max_strain[2] == 0.0f && s.min_strain[2] == 0.0f);
    CHECK_NEAR(s.max_strain[1], 0.0, 1.2e-7);
    CHECK_NEAR(s.min_strain[1], 0.0, 1.2e-7);

    /* uniform stretch by 1.5: positions stay exact (x 1.5 of multiples of
     * 0.5), every strain is 0.5 up to the shear rest length's rounding and
     * the float the result is returned in (1e-6 covers a few ulps of 0.5) */
    stretch(cloth, 1.5f, 1.5f);
    s = get(cloth);
    for (int t = 0; t < 3; ++t) {
        printf("stretched x1.5, type %d: max %.9f min %.9f mean %.9f\n", t, (double)s.max_strain[t],
               (double)s.min_strain[t], (double)s.mean_strain[t]);
        CHECK_NEAR(s.max_strain[t], 0.5, 1e-6);
        CHECK_NEAR(s.min_strain[t], 0.5, 1e-6);
        CHECK_NEAR(s.mean_strain[t], 0.5, 1e-6);
    }
    cloth_destroy(cloth);

    /* stretch along x only by 1.25: springs along x at 0.25, along z at 0,
     * so structural max 0.25, min 0, mean 0.25 * along_x / (along_x + along_z);
     * shear diagonals at sqrt(1.25^2 + 1) / sqrt(2) - 1 */
    cloth = exact_grid(rows, cols);
    if (cloth == NULL) {
        return;
    }
    stretch(cloth, 1.25f, 1.0f);
    s = get(cloth);
    const double mean = 0.25 * (double)along_x / (double)(along_x + along_z);
    const double shear = sqrt(1.25 * 1.25 + 1.0) / sqrt(2.0) - 1.0;
    printf("stretched x1.25 along x: structural max %.9f min %.9f mean %.9f (expected %.9f), shear %.9f (%.9f)\n",
           (double)s.max_strain[0], (double)s.min_strain[0], (double)s.mean_strain[0], mean,
           (double)s.max_strain[1], shear);
    CHECK_NEAR(s.max_strain[0], 0.25, 1e-6);
    CHECK(s.min_strain[0] == 0.0f);
    CHECK_NEAR(s.mean_strain[0], mean, 1e-6);
    CHECK_NEAR(s.max_strain[1], shear, 1e-6);
    CHECK_NEAR(s.min_strain[1], shear, 1e-6);
    CHECK_NEAR(s.max_strain[2], 0.25, 1e-6);
    CHECK(s.min_strain[2] == 0.0f);
    cloth_destroy(cloth);
}

static void kinetic_energy(void)
{
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = 8;
    desc.cols = 9;
    desc.particle_mass = 0.02f;
    cloth_t *cloth = NULL;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth == NULL) {
        return;
    }
    const uint32_t n = cloth_particle_count(cloth);
    float *v = malloc(sizeof(float) * 3u * n);
    if (v == NULL) {
        CHECK(0);
        cloth_destroy(cloth);
        return;
    }
    CHECK(get(cloth).kinetic_energy == 0.0f);
    const float u[3] = {1.0f, -2.0f, 0.5f};
    for (uint32_t i = 0; i < n; ++i) {
        memcpy(&v[3u * i], u, sizeof u);
    }
    CHECK_OK(cloth_set_velocities(cloth, v, 0));
    const double v2 = 1.0 + 4.0 + 0.25, m = (double)desc.particle_mass;
    /* 1/2 M v^2; the library holds 1/m in float and sums in double, so a
     * relative 1e-6 covers the two float roundings of m */
    const double expect = 0.5 * (double)n * m * v2;
    cloth_stats s = get(cloth);
    printf("kinetic energy of %u particles of %.2f kg at |v|^2 = %.2f: %.9g J (1/2 M v^2 = %.9g J)\n",
           (unsigned)n, m, v2, (double)s.kinetic_energy, expect);
    CHECK_NEAR(s.kinetic_energy, expect, 1e-6 * expect);
    /* a pinned particle has no mass the cloth knows: left out */
    CHECK_OK(cloth_pin(cloth, 0u, NULL));
    s = get(cloth);
    CHECK_NEAR(s.kinetic_energy, expect * (double)(n - 1u) / (double)n, 1e-6 * expect);

    /* a finite state can measure beyond the float range: 1e20 m/s squared,
     * and particles 6e38 m apart; documented to read as FLT_MAX */
    for (uint32_t i = 0; i < 3u * n; ++i) {
        v[i] = 1e20f;
    }
    CHECK_OK(cloth_set_velocities(cloth, v, 0));
    CHECK_OK(cloth_get_positions(cloth, v, 0));
    for (uint32_t i = 0; i < n; ++i) {
        v[3u * i] = (i % 2u) ? 3e38f : -3e38f;
    }
    CHECK_OK(cloth_set_positions(cloth, v, 0));
    s = get(cloth);
    printf("exploded but finite state: kinetic energy %g J, structural strain max %g min %g\n",
           (double)s.kinetic_energy, (double)s.max_strain[0], (double)s.min_strain[0]);
    CHECK(s.kinetic_energy == FLT_MAX);
    CHECK(s.max_strain[0] == FLT_MAX);
    CHECK(isfinite(s.mean_strain[0]) && isfinite(s.min_strain[0]));
    free(v);
    cloth_destroy(cloth);
}

/* A horizontal 8 x 8 cloth at y = 0 falls onto a plane at y = 0: in the
 * last substep every free particle falls g h^2 below it and is pushed out,
 * so each is one contact; a pinned particle is never pushed (the host places
 * it), and a collider out of reach adds none. */
static void contacts(void)
{
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = 8;
    desc.cols = 8;
    const float origin[3] = {0.0f, 0.0f, 0.0f}, up[3] = {0.0f, 1.0f, 0.0f}, far[3] = {10.0f, 10.0f, 10.0f};
    for (int variant = 0; variant < 4; ++variant) {
        cloth_t *cloth = NULL;
        CHECK_OK(test_create_grid(&desc, &cloth));
        if (cloth == NULL) {
            return;
        }
        cloth_collider_id id;
        uint32_t expect = 64u;
        CHECK(get(cloth).contacts == 0u);
        if (variant == 0) {
            expect = 0u; /* no collider */
        } else {
            CHECK_OK(cloth_add_plane(cloth, origin, up, &id));
        }
        if (variant == 2) {
            CHECK_OK(cloth_add_sphere(cloth, far, 0.5f, &id));
        }
        if (variant == 3) {
            CHECK_OK(cloth_pin(cloth, 0u, NULL));
            expect = 63u;
        }
        CHECK_OK(cloth_step(cloth, k_dt));
        const cloth_stats s = get(cloth);
        printf("contacts, variant %d: %u (expected %u)\n", variant, (unsigned)s.contacts, (unsigned)expect);
        CHECK(s.contacts == expect);
        cloth_destroy(cloth);
    }
}

static void counters_and_sizes(void)
{
    cloth_t *cloth = exact_grid(3, 3);
    if (cloth == NULL) {
        return;
    }
    cloth_stats s = get(cloth);
    CHECK(s.steps == 0u && s.step_seconds == 0.0 && s.watchdog_trips == 0u && s.watchdog_tripped == 0u);
    for (int f = 0; f < 5; ++f) {
        CHECK_OK(cloth_step(cloth, k_dt));
    }
    CHECK_STATUS(cloth_step(cloth, 0.0f), CLOTH_ERR_INVALID_ARGUMENT); /* refused: not counted */
    s = get(cloth);
    printf("after 5 steps: steps %llu, last step %.3g s wall\n", (unsigned long long)s.steps, s.step_seconds);
    CHECK(s.steps == 5u);
    /* a 9-particle step takes microseconds; 1 s would mean a broken clock */
    CHECK(s.step_seconds >= 0.0 && s.step_seconds < 1.0);

    cloth_stats bad;
    cloth_stats_init(&bad);
    CHECK(bad.struct_size == sizeof bad);
    cloth_stats_init(NULL);
    CHECK_STATUS(cloth_get_stats(NULL, &bad), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_stats(cloth, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    memset(&bad, 0x5a, sizeof bad);
    bad.struct_size = 0u;
    CHECK_STATUS(cloth_get_stats(cloth, &bad), CLOTH_ERR_INVALID_ARGUMENT);
    bad.struct_size = (uint32_t)sizeof bad + 8u;
    CHECK_STATUS(cloth_get_stats(cloth, &bad), CLOTH_ERR_UNSUPPORTED);
    CHECK(bad.steps == 0x5a5a5a5a5a5a5a5au); /* refused: not written */
    cloth_destroy(cloth);
}

/* memory_bytes: what the cloth holds through its allocator. A counting
 * allocator installed through the desc sees every block; the figure must
 * equal its live bytes exactly, at every point of a cloth's life. */
typedef struct mem_counter {
    long long live; /* bytes handed out and not yet returned */
    long blocks;
} mem_counter;

static void *mem_alloc(void *user, size_t size, size_t alignment)
{
    mem_counter *c = user;
    void *p = aligned_alloc(alignment, (size + alignment - 1u) / alignment * alignment);
    if (p != NULL) {
        c->live += (long long)size;
        ++c->blocks;
    }
    return p;
}

static void mem_free(void *user, void *ptr, size_t size)
{
    mem_counter *c = user;
    c->live -= (long long)size;
    --c->blocks;
    free(ptr);
}

static long long memory_of(const cloth_t *cloth)
{
    return (long long)get(cloth).memory_bytes;
}

static void wind_none(void *user, float time, uint32_t count, const float *positions, float *wind_velocity)
{
    (void)user;
    (void)time;
    (void)positions;
    memset(wind_velocity, 0, 3u * sizeof(float) * count);
}

/* Every kind of allocation the API can cause, the figure checked after each. */
static void memory_matches_allocator(cloth_t *cloth, const mem_counter *cnt, const char *what, bool grid)
{
    int mismatches = 0;
#define SAME_AS_HOOKS()                                                                                            \
    do {                                                                                                           \
        mismatches += memory_of(cloth) != cnt->live;                                                               \
        CHECK(memory_of(cloth) == cnt->live);                                                                      \
    } while (0)
    SAME_AS_HOOKS();
    CHECK(memory_of(cloth) > 0);
    for (int kind = 0; kind < 16; ++kind) { /* every integrator this cloth takes, each state */
        (void)cloth_set_integrator(cloth, (cloth_integrator)kind);
        SAME_AS_HOOKS();
        CHECK_OK(cloth_step(cloth, k_dt));
        SAME_AS_HOOKS();
    }
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_EXPLICIT_EULER));
    const float centre[3] = {0.0f, -1.0f, 0.0f}, normal[3] = {0.0f, 1.0f, 0.0f};
    cloth_collider_id ids[12];
    for (int k = 0; k < 12; ++k) { /* past the colliders' first capacity */
        CHECK_OK(cloth_add_sphere(cloth, centre, 0.1f, &ids[k]));
        SAME_AS_HOOKS();
    }
    CHECK_OK(cloth_add_plane(cloth, centre, normal, &ids[0]));
    SAME_AS_HOOKS();
    const uint32_t n = cloth_particle_count(cloth);
    for (uint32_t i = 0; i < n && i < 9u; ++i) { /* 1 to 9 pins: the grid's tethers change kind at 5 */
        const long long before_pin = memory_of(cloth);
        CHECK_OK(cloth_pin(cloth, i, NULL));
        SAME_AS_HOOKS();
        if (grid && i == 4u) { /* a fifth pin: the grid's tethers now keep a table, 32 bytes per particle */
            CHECK(memory_of(cloth) - before_pin >= 32 * (long long)n);
        }
        if (i == 1u) {
            CHECK_OK(cloth_set_tethers(cloth, 1.1f));
            SAME_AS_HOOKS();
        }
        const long long before_step = memory_of(cloth);
        CHECK_OK(cloth_step(cloth, k_dt));
        SAME_AS_HOOKS();
        CHECK(memory_of(cloth) == before_step); /* the step never allocates */
    }
    const long long with_table = memory_of(cloth);
    for (uint32_t i = 2; i < n && i < 9u; ++i) {
        CHECK_OK(cloth_unpin(cloth, i));
        CHECK_OK(cloth_step(cloth, k_dt));
        SAME_AS_HOOKS();
    }
    /* back to 2 pins: the table stays (unused) until the tethers go */
    CHECK(memory_of(cloth) == with_table);
    CHECK_OK(cloth_set_wind(cloth, wind_none, NULL));
    CHECK_OK(cloth_step(cloth, k_dt));
    SAME_AS_HOOKS();
    CHECK_OK(cloth_set_bending_stiffness(cloth, 0.01f));
    CHECK_OK(cloth_step(cloth, k_dt));
    SAME_AS_HOOKS();
    size_t size = 0;
    CHECK_OK(cloth_state_size(cloth, &size));
    unsigned char *snap = malloc(size);
    if (snap != NULL) {
        CHECK_OK(cloth_save_state(cloth, snap, size));
        CHECK_OK(cloth_load_state(cloth, snap, size));
        SAME_AS_HOOKS();
        free(snap);
    }
    CHECK_OK(cloth_set_tethers(cloth, 0.0f));
    SAME_AS_HOOKS();
    for (int k = 0; k < 12; ++k) {
        (void)cloth_remove_collider(cloth, ids[k]);
    }
    SAME_AS_HOOKS();
    printf("memory: %s, %u particles: %lld bytes, %ld blocks, every figure equal to the hooks' (%d mismatches)\n",
           what, (unsigned)n, memory_of(cloth), cnt->blocks, mismatches);
#undef SAME_AS_HOOKS
}

static void memory(void)
{
    mem_counter cnt = {0, 0};
    cloth_allocator hooks = {mem_alloc, mem_free, &cnt};
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = 16u;
    desc.cols = 20u;
    desc.allocator = &hooks;
    cloth_t *grid = NULL;
    CHECK_OK(test_create_grid(&desc, &grid));
    if (grid != NULL) {
        memory_matches_allocator(grid, &cnt, "grid", true);
        cloth_destroy(grid);
    }
    CHECK(cnt.live == 0 && cnt.blocks == 0);

    /* a mesh: the grid's shape as triangles */
    cloth_grid_desc_init(&desc);
    desc.rows = 8u;
    desc.cols = 9u;
    CHECK_OK(test_create_grid(&desc, &grid));
    if (grid == NULL) {
        return;
    }
    const uint32_t n = cloth_particle_count(grid), tris = cloth_triangle_count(grid);
    float *pos = malloc(3u * sizeof(float) * n);
    uint32_t *idx = malloc(3u * sizeof(uint32_t) * tris);
    if (pos != NULL && idx != NULL) {
        CHECK_OK(cloth_get_positions(grid, pos, 0));
        CHECK_OK(cloth_get_triangles(grid, idx));
        cloth_mesh_desc md;
        cloth_mesh_desc_init(&md);
        md.positions = pos;
        md.vertex_count = n;
        md.triangles = idx;
        md.triangle_count = tris;
        md.allocator = &hooks;
        cloth_t *mesh = NULL;
        CHECK_OK(test_create_mesh(&md, &mesh));
        if (mesh != NULL) {
            /* a mesh's tethers keep a table: 32 bytes per particle more, and
             * 4 for the particle's piece */
            const long long before = memory_of(mesh);
            CHECK_OK(cloth_set_tethers(mesh, 1.0f));
            const long long grown = memory_of(mesh) - before;
            printf("memory: mesh tethers on: +%lld bytes for %u particles\n", grown, (unsigned)n);
            CHECK(grown >= 36 * (long long)n && grown <= 36 * (long long)n + 256);
            CHECK_OK(cloth_set_tethers(mesh, 0.0f));
            CHECK(memory_of(mesh) == before);
            memory_matches_allocator(mesh, &cnt, "mesh", false);
            cloth_destroy(mesh);
        }
        CHECK(cnt.live == 0 && cnt.blocks == 0);
    }
    free(pos);
    free(idx);

    /* The default allocator is counted the same way, without hooks; a grid's
     * tethers with at most 4 pins cost no bytes per particle. */
    const long long before = memory_of(grid);
    CHECK(before >= 64 * (long long)n);
    CHECK_OK(cloth_pin(grid, 0u, NULL));
    CHECK_OK(cloth_pin(grid, 8u, NULL));
    const long long pinned = memory_of(grid);
    CHECK_OK(cloth_set_tethers(grid, 1.0f));
    CHECK_OK(cloth_step(grid, k_dt));
    printf("memory: default 8 x 9 grid %lld bytes; 2 pins +%lld; tethers +%lld\n", before, pinned - before,
           memory_of(grid) - pinned);
    CHECK(memory_of(grid) - pinned < 64);
    /* the reserved words the field came out of stay zero */
    const cloth_stats s = get(grid);
    for (size_t k = 0; k < sizeof s.reserved / sizeof s.reserved[0]; ++k) {
        CHECK(s.reserved[k] == 0u);
    }
    cloth_destroy(grid);
}

/* An 8 x 8 default cloth stretched by sx and held there by pinning its
 * whole boundary (sx > 1), so its largest strain stays about sx - 1 step
 * after step; or moving at a uniform `speed` along x. */
static cloth_t *tripping_cloth(float sx, float speed)
{
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = 8;
    desc.cols = 8;
    cloth_t *cloth = NULL;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth == NULL) {
        return NULL;
    }
    stretch(cloth, sx, sx);
    for (uint32_t i = 0; sx > 1.0f && i < 64u; ++i) {
        if (i < 8u || i >= 56u || i % 8u == 0u || i % 8u == 7u) {
            CHECK_OK(cloth_pin(cloth, i, NULL));
        }
    }
    float v[3 * 64];
    for (int i = 0; i < 64; ++i) {
        v[3 * i] = speed;
        v[3 * i + 1] = 0.0f;
        v[3 * i + 2] = 0.0f;
    }
    CHECK_OK(cloth_set_velocities(cloth, v, 0));
    return cloth;
}

static void watchdog(void)
{
    cloth_t *cloth = tripping_cloth(1.5f, 0.0f);
    if (cloth == NULL) {
        return;
    }
    CHECK_STATUS(cloth_set_watchdog(NULL, 0.2f, 0.0f, CLOTH_WATCHDOG_REPORT), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_watchdog(cloth, -0.2f, 0.0f, CLOTH_WATCHDOG_REPORT), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_watchdog(cloth, NAN, 0.0f, CLOTH_WATCHDOG_REPORT), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_watchdog(cloth, 0.2f, INFINITY, CLOTH_WATCHDOG_REPORT), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_watchdog(cloth, 0.2f, 0.0f, (cloth_watchdog_action)2), CLOTH_ERR_INVALID_ARGUMENT);

    /* off by default: nothing measured, nothing tripped */
    CHECK_OK(cloth_step(cloth, k_dt));
    cloth_stats s = get(cloth);
    CHECK(s.watchdog_tripped == 0u && s.watchdog_max_strain == 0.0f && s.watchdog_kinetic_energy == 0.0f);
    const float after_one = s.max_strain[0];

    /* report: the step stands */
    CHECK_OK(cloth_set_watchdog(cloth, 0.2f, 0.0f, CLOTH_WATCHDOG_REPORT));
    uint64_t before = cloth_state_hash(cloth);
    CHECK_OK(cloth_step(cloth, k_dt));
    s = get(cloth);
    printf("report: strain %.4f after the step (bound 0.2), tripped %u, trips %llu\n",
           (double)s.watchdog_max_strain, (unsigned)s.watchdog_tripped, (unsigned long long)s.watchdog_trips);
    CHECK(cloth_state_hash(cloth) != before);
    CHECK(s.watchdog_tripped == CLOTH_WATCHDOG_TRIPPED_STRAIN);
    CHECK(s.watchdog_trips == 1u);
    CHECK(after_one > 0.4f); /* held at about 0.5 */
    CHECK(s.watchdog_max_strain > 0.4f);
    /* the measured value is the state's: the largest of the three types */
    const float largest = fmaxf(s.max_strain[0], fmaxf(s.max_strain[1], s.max_strain[2]));
    CHECK(s.watchdog_max_strain == largest);
    CHECK(s.steps == 2u);

    /* restore: the state before the step, time included (the hash holds it) */
    CHECK_OK(cloth_set_watchdog(cloth, 0.2f, 0.0f, CLOTH_WATCHDOG_RESTORE));
    before = cloth_state_hash(cloth);
    CHECK_STATUS(cloth_step(cloth, k_dt), CLOTH_ERR_UNSTABLE);
    s = get(cloth);
    CHECK(cloth_state_hash(cloth) == before);
    CHECK(s.watchdog_tripped == CLOTH_WATCHDOG_TRIPPED_STRAIN);
    CHECK(s.watchdog_trips == 2u);
    CHECK(s.steps == 2u);
    /* a bound the cloth stays under: the step goes through */
    CHECK_OK(cloth_set_watchdog(cloth, 5.0f, 0.0f, CLOTH_WATCHDOG_RESTORE));
    CHECK_OK(cloth_step(cloth, k_dt));
    s = get(cloth);
    CHECK(s.watchdog_tripped == 0u && s.watchdog_max_strain > 0.4f && s.watchdog_max_strain <= 5.0f);
    /* both bounds 0: off again */
    CHECK_OK(cloth_set_watchdog(cloth, 0.0f, 0.0f, CLOTH_WATCHDOG_RESTORE));
    CHECK_OK(cloth_step(cloth, k_dt));
    CHECK(get(cloth).watchdog_tripped == 0u);
    cloth_destroy(cloth);

    /* energy: 32 J moving sideways. In one 1/60 s step the damping of
     * 0.2 /s takes 1 - exp(-0.4 / 60) of it (0.21 J) and gravity, across the
     * motion, adds 1/2 M (g dt)^2 < 0.01 J: bounds of 1 J and 1000 J sit on
     * either side, and the energy after the step is 32 J within 1 J */
    cloth = tripping_cloth(1.0f, 10.0f);
    if (cloth == NULL) {
        return;
    }
    CHECK_NEAR(get(cloth).kinetic_energy, 32.0, 32.0 * 1e-6);
    CHECK_OK(cloth_set_watchdog(cloth, 0.0f, 1000.0f, CLOTH_WATCHDOG_RESTORE));
    CHECK_OK(cloth_step(cloth, k_dt));
    s = get(cloth);
    CHECK(s.watchdog_tripped == 0u);
    CHECK(s.watchdog_kinetic_energy == s.kinetic_energy);
    printf("energy after a step at 10 m/s: %.4f J (1/2 M v^2 = 32 J before it)\n", (double)s.kinetic_energy);
    CHECK_NEAR(s.kinetic_energy, 32.0, 1.0);
    CHECK_OK(cloth_set_watchdog(cloth, 0.0f, 1.0f, CLOTH_WATCHDOG_RESTORE));
    before = cloth_state_hash(cloth);
    CHECK_STATUS(cloth_step(cloth, k_dt), CLOTH_ERR_UNSTABLE);
    s = get(cloth);
    CHECK(cloth_state_hash(cloth) == before);
    CHECK(s.watchdog_tripped == CLOTH_WATCHDOG_TRIPPED_ENERGY);
    CHECK(s.watchdog_kinetic_energy > 1.0f);
    CHECK(s.watchdog_max_strain == 0.0f); /* its bound is off */
    CHECK_OK(cloth_set_watchdog(cloth, 0.0f, 1.0f, CLOTH_WATCHDOG_REPORT));
    CHECK_OK(cloth_step(cloth, k_dt));
    CHECK(get(cloth).watchdog_tripped == CLOTH_WATCHDOG_TRIPPED_ENERGY);
    cloth_destroy(cloth);
}

/* The force accumulators (12 bytes a particle) exist only while something
 * uses them: XPBD on a grid without wind or a force hook keeps none. */
static cloth_t *drape_cloth(uint32_t n, cloth_allocator *hooks)
{
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = n;
    desc.cols = n;
    desc.spacing = 2.0f / (float)(n - 1u);
    desc.origin[0] = -1.0f;
    desc.origin[2] = -1.0f;
    desc.particle_mass = 0.8f / (float)(n * n);
    desc.allocator = hooks;
    cloth_t *cloth = NULL;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth == NULL) {
        return NULL;
    }
    const float centre[3] = {0.0f, -1.1f, 0.0f};
    cloth_collider_id sphere;
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_XPBD));
    CHECK_OK(cloth_set_iterations(cloth, 1u));
    CHECK_OK(cloth_add_sphere(cloth, centre, 0.6f, &sphere));
    CHECK_OK(cloth_pin(cloth, 0u, NULL));
    CHECK_OK(cloth_pin(cloth, n - 1u, NULL));
    CHECK_OK(cloth_set_tethers(cloth, 1.0f));
    return cloth;
}

static void zero_force(void *user, float time, uint32_t count, const float *positions, const float *velocities,
                       float *forces)
{
    (void)user;
    (void)time;
    (void)count;
    (void)positions;
    (void)velocities;
    (void)forces; /* zeroed before the call: adds nothing */
}

/* A host integrator (symplectic Euler) that records whether its view had forces. */
typedef struct view_probe {
    int steps, without_forces;
} view_probe;

static cloth_status probe_step(void *user, void *state, const cloth_step_view *v)
{
    (void)state;
    view_probe *probe = user;
    ++probe->steps;
    if (v->fx == NULL || v->fy == NULL || v->fz == NULL) {
        ++probe->without_forces;
        return CLOTH_OK;
    }
    for (uint32_t i = 0; i < v->count; ++i) {
        const float w = v->inv_mass[i], m = w > 0.0f ? 1.0f : 0.0f;
        v->vx[i] = (v->vx[i] + (v->gravity[0] * m + w * v->fx[i]) * v->h) * v->velocity_decay;
        v->vy[i] = (v->vy[i] + (v->gravity[1] * m + w * v->fy[i]) * v->h) * v->velocity_decay;
        v->vz[i] = (v->vz[i] + (v->gravity[2] * m + w * v->fz[i]) * v->h) * v->velocity_decay;
        v->x[i] += v->vx[i] * v->h;
        v->y[i] += v->vy[i] * v->h;
        v->z[i] += v->vz[i] * v->h;
    }
    return CLOTH_OK;
}

/* Bytes of the three force arrays: each padded to whole 32-byte lanes. */
static long long force_bytes(uint32_t n)
{
    return 12 * (((long long)n + 7) / 8 * 8);
}

static void force_arrays_memory(void)
{
    mem_counter cnt = {0, 0};
    cloth_allocator hooks = {mem_alloc, mem_free, &cnt};
    const uint32_t side = 128u;
    cloth_t *cloth = drape_cloth(side, &hooks);
    if (cloth == NULL) {
        return;
    }
    const uint32_t n = cloth_particle_count(cloth);
    CHECK_OK(cloth_step(cloth, k_dt));
    const long long xpbd = memory_of(cloth);
    CHECK(xpbd == cnt.live);
    printf("memory: drape-%u XPBD (1 iteration, 2 pins, tethers 1.0, a sphere): %lld bytes, %.2f bytes per "
           "particle\n",
           (unsigned)side, xpbd, (double)xpbd / (double)n);
    CHECK(xpbd <= 64 * (long long)n);
    /* 13 particle arrays and a fixed part under 4 KiB: no forces */
    CHECK(xpbd - 52 * (long long)n < 4096);

    /* wind, even still air with no density, needs the arrays */
    const float still[3] = {0.0f, 0.0f, 0.0f};
    CHECK_OK(cloth_set_air_density(cloth, 0.0f));
    CHECK_OK(cloth_set_constant_wind(cloth, still));
    CHECK(memory_of(cloth) - xpbd == force_bytes(n));
    CHECK_OK(cloth_step(cloth, k_dt));
    CHECK_OK(cloth_set_wind(cloth, NULL, NULL));
    CHECK(memory_of(cloth) == xpbd);

    /* the force hook: the arrays, and its buffers, which stay (forces.h) */
    CHECK_OK(cloth_set_external_force(cloth, zero_force, NULL));
    const long long hook_buffers = 48 * (long long)n;
    CHECK(memory_of(cloth) - xpbd == force_bytes(n) + hook_buffers);
    CHECK_OK(cloth_set_constant_wind(cloth, still)); /* the arrays are there already */
    CHECK(memory_of(cloth) - xpbd == force_bytes(n) + hook_buffers);
    CHECK_OK(cloth_set_wind(cloth, NULL, NULL));
    CHECK(memory_of(cloth) - xpbd == force_bytes(n) + hook_buffers);
    CHECK_OK(cloth_set_external_force(cloth, NULL, NULL));
    const long long base = memory_of(cloth); /* XPBD again, with the hooks' buffers */
    CHECK(base - xpbd == hook_buffers);

    /* every other integrator reads forces; XPBD's small state goes */
    for (int kind = 0; kind <= (int)CLOTH_INTEGRATOR_IMPLICIT_EULER; ++kind) {
        if (kind == (int)CLOTH_INTEGRATOR_XPBD) {
            continue;
        }
        CHECK_OK(cloth_set_integrator(cloth, (cloth_integrator)kind));
        const long long grown = memory_of(cloth) - base;
        CHECK(grown >= force_bytes(n) - 1024);
        CHECK(memory_of(cloth) == cnt.live);
    }
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_XPBD));
    CHECK(memory_of(cloth) == base);

    /* a host's integrator always gets them, on XPBD's grid too */
    view_probe probe = {0, 0};
    const cloth_integrator_vtable vt = {"probe", 0u, NULL, NULL, probe_step, NULL};
    CHECK_OK(cloth_set_custom_integrator(cloth, &vt, &probe));
    const long long custom = memory_of(cloth) - base;
    printf("memory: XPBD -> a host's integrator: +%lld bytes (forces %lld)\n", custom, force_bytes(n));
    CHECK(custom <= force_bytes(n) && custom >= force_bytes(n) - 1024);
    CHECK_OK(cloth_step(cloth, k_dt));
    CHECK(probe.steps > 0 && probe.without_forces == 0);
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_XPBD));
    CHECK(memory_of(cloth) == base && base == cnt.live);
    cloth_destroy(cloth);
    CHECK(cnt.live == 0 && cnt.blocks == 0);
}

/* An allocator that refuses everything while `fail` is set. */
typedef struct failing_alloc {
    mem_counter cnt;
    bool fail;
} failing_alloc;

static void *failing_alloc_fn(void *user, size_t size, size_t alignment)
{
    failing_alloc *f = user;
    return f->fail ? NULL : mem_alloc(&f->cnt, size, alignment);
}

static void failing_free_fn(void *user, void *ptr, size_t size)
{
    failing_alloc *f = user;
    mem_free(&f->cnt, ptr, size);
}

/* Every setter that would need the arrays refuses with OUT_OF_MEMORY when
 * they cannot be had, and changes nothing: not the state, not the memory,
 * not how the cloth steps on. */
static void force_arrays_out_of_memory(void)
{
    failing_alloc fa = {{0, 0}, false};
    cloth_allocator hooks = {failing_alloc_fn, failing_free_fn, &fa};
    cloth_t *a = drape_cloth(16u, &hooks);
    cloth_t *b = drape_cloth(16u, NULL);
    if (a == NULL || b == NULL) {
        cloth_destroy(a);
        cloth_destroy(b);
        return;
    }
    const float wind[3] = {1.0f, 0.0f, 0.5f};
    const cloth_integrator_vtable vt = {"probe", 0u, NULL, NULL, probe_step, NULL};
    view_probe probe = {0, 0};
    CHECK_OK(cloth_step(a, k_dt));
    CHECK_OK(cloth_step(b, k_dt));
    const long long held = memory_of(a);
    fa.fail = true;
    CHECK_STATUS(cloth_set_constant_wind(a, wind), CLOTH_ERR_OUT_OF_MEMORY);
    CHECK_STATUS(cloth_set_wind(a, wind_none, NULL), CLOTH_ERR_OUT_OF_MEMORY);
    CHECK_STATUS(cloth_set_external_force(a, zero_force, NULL), CLOTH_ERR_OUT_OF_MEMORY);
    CHECK_STATUS(cloth_set_integrator(a, CLOTH_INTEGRATOR_EXPLICIT_EULER), CLOTH_ERR_OUT_OF_MEMORY);
    CHECK_STATUS(cloth_set_custom_integrator(a, &vt, &probe), CLOTH_ERR_OUT_OF_MEMORY);
    cloth_integrator kind = CLOTH_INTEGRATOR_CUSTOM;
    CHECK_OK(cloth_get_integrator(a, &kind));
    CHECK(kind == CLOTH_INTEGRATOR_XPBD);
    CHECK(memory_of(a) == held && held == fa.cnt.live);
    /* removing what is not there, and XPBD again, need nothing */
    CHECK_OK(cloth_set_wind(a, NULL, NULL));
    CHECK_OK(cloth_set_external_force(a, NULL, NULL));
    CHECK(memory_of(a) == held);
    for (int s = 0; s < 5; ++s) {
        CHECK_OK(cloth_step(a, k_dt));
        CHECK_OK(cloth_step(b, k_dt));
    }
    CHECK(cloth_state_hash(a) == cloth_state_hash(b));
    CHECK(probe.steps == 0);

    /* with memory back: wind on, and a failed switch keeps the arrays */
    fa.fail = false;
    CHECK_OK(cloth_set_constant_wind(a, wind));
    CHECK_OK(cloth_set_constant_wind(b, wind));
    const long long windy = memory_of(a);
    CHECK(windy - held == force_bytes(cloth_particle_count(a)));
    fa.fail = true;
    CHECK_STATUS(cloth_set_integrator(a, CLOTH_INTEGRATOR_PBD), CLOTH_ERR_OUT_OF_MEMORY);
    CHECK(memory_of(a) == windy);
    for (int s = 0; s < 5; ++s) {
        CHECK_OK(cloth_step(a, k_dt));
        CHECK_OK(cloth_step(b, k_dt));
    }
    CHECK(cloth_state_hash(a) == cloth_state_hash(b));
    fa.fail = false;
    cloth_destroy(a);
    cloth_destroy(b);
    CHECK(fa.cnt.live == 0 && fa.cnt.blocks == 0);
}

/* XPBD on a grid steps bit for bit the same with the arrays (all zero
 * forces) as without them: a zero force hook, still air with no density,
 * and arrays made and dropped between steps, against none at all. Moving
 * pins, a gravity with -0 components and velocities of -0 reach the signs
 * of zeros, which survive to the state where no spring acts (`springs`
 * false: every stiffness 0). Returns the steps at which all four agree. */
static int force_arrays_bitwise_run(bool springs)
{
    enum { RUNS = 4, STEPS = 40 };
    const float gravity[3] = {-0.0f, -9.81f, -0.0f};
    const float still[3] = {0.0f, 0.0f, 0.0f};
    cloth_t *c[RUNS];
    bool ok = true;
    for (int r = 0; r < RUNS; ++r) {
        c[r] = drape_cloth(24u, NULL);
        ok = ok && c[r] != NULL;
    }
    const uint32_t n = ok ? cloth_particle_count(c[0]) : 0u;
    float *minus_zero = malloc(3u * sizeof(float) * n);
    ok = ok && minus_zero != NULL;
    for (uint32_t i = 0; ok && i < 3u * n; ++i) {
        minus_zero[i] = -0.0f;
    }
    for (int r = 0; ok && r < RUNS; ++r) {
        CHECK_OK(cloth_set_gravity(c[r], gravity));
        CHECK_OK(cloth_set_velocities(c[r], minus_zero, 0));
        CHECK_OK(cloth_set_iterations(c[r], 3u));
        for (int t = 0; !springs && t < 3; ++t) {
            CHECK_OK(cloth_set_stiffness(c[r], (cloth_spring_type)t, 0.0f));
        }
    }
    if (ok) {
        CHECK_OK(cloth_set_external_force(c[1], zero_force, NULL));
        CHECK_OK(cloth_set_air_density(c[2], 0.0f));
        CHECK_OK(cloth_set_constant_wind(c[2], still));
        CHECK_OK(cloth_set_air_density(c[3], 0.0f));
    }
    int same = 0;
    for (int step = 0; ok && step < STEPS; ++step) {
        /* the pins travel, one of them back and forth */
        const float t = (float)step / (float)STEPS;
        const float left[3] = {-1.0f + 0.2f * t, 0.1f * t, -1.0f};
        const float right[3] = {1.0f, 0.0f, -1.0f + 0.05f * (float)(step % 3)};
        /* run 3 goes through Euler and back, with still air on every other step */
        CHECK_OK(cloth_set_integrator(c[3], CLOTH_INTEGRATOR_EXPLICIT_EULER));
        CHECK_OK(cloth_set_integrator(c[3], CLOTH_INTEGRATOR_XPBD));
        if (step % 2 == 0) {
            CHECK_OK(cloth_set_constant_wind(c[3], still));
        } else {
            CHECK_OK(cloth_set_wind(c[3], NULL, NULL));
        }
        for (int r = 0; r < RUNS; ++r) {
            CHECK_OK(cloth_pin(c[r], 0u, left));
            CHECK_OK(cloth_pin(c[r], 23u, right));
            CHECK_OK(cloth_step(c[r], k_dt));
        }
        const uint64_t h = cloth_state_hash(c[0]);
        same += cloth_state_hash(c[1]) == h && cloth_state_hash(c[2]) == h && cloth_state_hash(c[3]) == h;
    }
    printf("XPBD grid %s springs, with zero force arrays vs without: %d of %d steps bitwise the same\n",
           springs ? "with" : "without", same, (int)STEPS);
    CHECK(same == STEPS);
    free(minus_zero);
    for (int r = 0; r < RUNS; ++r) {
        cloth_destroy(c[r]);
    }
    return same;
}

static void force_arrays_bitwise(void)
{
    (void)force_arrays_bitwise_run(true);
    (void)force_arrays_bitwise_run(false);
}

int main(void)
{
    strain();
    kinetic_energy();
    contacts();
    counters_and_sizes();
    watchdog();
    memory();
    force_arrays_memory();
    force_arrays_out_of_memory();
    force_arrays_bitwise();
    return test_finish("test_stats");
}
