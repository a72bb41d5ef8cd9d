/*
 * test_hostile_input: inputs a hostile or careless host can pass, each once a
 * hole, each now refused or handled:
 *
 *  - strides: a stride that wraps around size_t ((size_t)-12 walks backwards
 *    through memory) or implies a buffer larger than PTRDIFF_MAX bytes is
 *    refused by every strided call (positions, velocities, normals, the
 *    smooth surface, a mesh desc's positions) and nothing is read or written;
 *    the one validator behind them accepts exactly up to that edge;
 *  - grid placement: a grid whose far corner lies beyond the float range
 *    (the u and v offsets add) is refused;
 *  - rest lengths: every spring a builder would make (grid stencil families
 *    including the wide ones, mesh edges and bend springs) must be between
 *    1e-15 m and 1e16 m, or the cloth is refused; grids at both ends of that
 *    range step with every built-in integrator like the same cloth at 5 cm
 *    scaled to them, to 1e-3 spacings;
 *  - the smooth surface of a flat, finite cloth at x = FLT_MAX is finite,
 *    and so is that of any finite cloth;
 *  - host buffers at any byte address: every read-back and the mesh desc's
 *    arrays work through a buffer 2 bytes off alignment and give the same
 *    bytes as through an aligned one.
 *
 * Before the fixes: the stride section overflowed buffers (ASan
 * heap-buffer-overflow in write3; a segfault without ASan), the grid and
 * rest sections saw cloths accepted (CLOTH_OK, or OUT_OF_MEMORY from the
 * capped allocator, where INVALID_ARGUMENT is checked) and a bend spring
 * made between vertices 1e-20 m apart, the smooth section read NaN, and the
 * alignment section stopped under UBSan (misaligned load in normals.c; the
 * smooth index buffer was stored the same way). grid_range_steps and the
 * validator's own checks are what must keep working. Run one section with
 * its name as the argument.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

/* The validator itself, a leaf header of the library (it includes only
 * <stddef.h>, <stdint.h> and <stdbool.h>): its edge, a buffer of
 * PTRDIFF_MAX bytes, cannot be reached through the API with real memory. */
#include "../src/platform/stride.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SENTINEL 0xA7u

static void report_oom(void)
{
    ++test_checks;
    ++test_failures;
    fprintf(stderr, "test_hostile_input: out of memory\n");
}

static cloth_t *make_grid(uint32_t rows, uint32_t cols, float spacing)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = rows;
    d.cols = cols;
    d.spacing = spacing;
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_grid(&d, &c));
    return c;
}

static int all_bytes(const unsigned char *p, size_t n, unsigned char value)
{
    for (size_t i = 0; i < n; ++i) {
        if (p[i] != value) {
            return 0;
        }
    }
    return 1;
}

static int all_finite(const float *p, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (!isfinite(p[i])) {
            return 0;
        }
    }
    return 1;
}

/* ---- 1. strides ---------------------------------------------------------- */

/* Non-zero strides that are multiples of 4 and at least 12, so the old check
 * passed them: two that wrap around size_t, and the first that does not
 * wrap but implies a buffer past PTRDIFF_MAX bytes for `count` records. */
static size_t bad_stride(int k, uint32_t count)
{
    switch (k) {
    case 0:
        return (size_t)-12;
    case 1:
        return (size_t)-4;
    default:
        return ((size_t)PTRDIFF_MAX - 12u) / (count - 1u) / 4u * 4u + 4u;
    }
}
#define BAD_STRIDES 3

static void test_stride_validator(void)
{
    size_t s = 0u;
    CHECK(cloth_stride_ok(&s, 16u, 12u) && s == 12u); /* 0 is packed */
    s = 16u;
    CHECK(cloth_stride_ok(&s, 16u, 12u) && s == 16u);
    s = 13u;
    CHECK(!cloth_stride_ok(&s, 16u, 12u)); /* not a multiple of 4 */
    s = 8u;
    CHECK(!cloth_stride_ok(&s, 16u, 12u)); /* shorter than a record */
    for (int k = 0; k < BAD_STRIDES; ++k) {
        s = bad_stride(k, 16u);
        CHECK(!cloth_stride_ok(&s, 16u, 12u) && s == bad_stride(k, 16u));
        s = bad_stride(k, 16u) - 4u; /* the last accepted, for the third */
        CHECK(cloth_stride_ok(&s, 16u, 12u) == (k == 2));
    }
    /* the edge for 3 records: 2 stride + 12 <= PTRDIFF_MAX */
    const size_t edge = ((size_t)PTRDIFF_MAX - 12u) / 2u / 4u * 4u;
    s = edge;
    CHECK(cloth_stride_ok(&s, 3u, 12u) && s == edge);
    s = edge + 4u;
    CHECK(!cloth_stride_ok(&s, 3u, 12u));
    /* one record: the stride is never multiplied, only its form matters */
    s = (size_t)-4;
    CHECK(cloth_stride_ok(&s, 1u, 12u));
    s = 64u;
    CHECK(cloth_stride_ok(&s, UINT32_MAX, 12u) == (64.0 * (double)(UINT32_MAX - 1u) + 12.0 <= (double)PTRDIFF_MAX));
}

typedef cloth_status (*getter_fn)(const cloth_t *, float *, size_t);
static cloth_status get_pos(const cloth_t *c, float *d, size_t s) { return cloth_get_positions(c, d, s); }
static cloth_status get_vel(const cloth_t *c, float *d, size_t s) { return cloth_get_velocities(c, d, s); }
static cloth_status get_nrm(const cloth_t *c, float *d, size_t s) { return cloth_get_normals(c, d, s); }

static void test_api_strides(void)
{
    cloth_t *c = make_grid(4u, 4u, 0.05f);
    if (c == NULL) {
        return;
    }
    const size_t bytes = 16u * 12u;
    unsigned char *buf = malloc(bytes); /* on the heap, where ASan sees an overflow */
    float *state = malloc(bytes), *after = malloc(bytes);
    if (buf == NULL || state == NULL || after == NULL) {
        report_oom();
    } else {
        const getter_fn getters[3] = {get_pos, get_vel, get_nrm};
        for (int g = 0; g < 3; ++g) {
            for (int k = 0; k < BAD_STRIDES; ++k) {
                memset(buf, SENTINEL, bytes);
                CHECK_STATUS(getters[g](c, (float *)(void *)buf, bad_stride(k, 16u)), CLOTH_ERR_INVALID_ARGUMENT);
                CHECK(all_bytes(buf, bytes, SENTINEL));
            }
        }
        /* setters: refused, the state unchanged */
        CHECK_OK(cloth_get_positions(c, state, 0));
        for (size_t i = 0; i < 48u; ++i) {
            after[i] = state[i] + 1.0f;
        }
        memcpy(buf, after, bytes);
        for (int k = 0; k < BAD_STRIDES; ++k) {
            CHECK_STATUS(cloth_set_positions(c, (const float *)(const void *)buf, bad_stride(k, 16u)),
                         CLOTH_ERR_INVALID_ARGUMENT);
            CHECK_STATUS(cloth_set_velocities(c, (const float *)(const void *)buf, bad_stride(k, 16u)),
                         CLOTH_ERR_INVALID_ARGUMENT);
        }
        CHECK_OK(cloth_get_positions(c, after, 0));
        CHECK(memcmp(after, state, bytes) == 0);
        CHECK_OK(cloth_get_velocities(c, after, 0));
        CHECK(all_bytes((const unsigned char *)after, bytes, 0u)); /* still at rest: +0.0f */
    }
    free(buf);
    free(state);
    free(after);

    /* the smooth surface: both strides, the normals' also when they are skipped */
    uint32_t nv = 0u, nt = 0u;
    CHECK_OK(cloth_smooth_counts(c, 2u, &nv, &nt));
    const size_t sbytes = (size_t)nv * 12u;
    unsigned char *pos = malloc(sbytes), *nrm = malloc(sbytes);
    if (pos == NULL || nrm == NULL) {
        report_oom();
    } else {
        for (int k = 0; k < BAD_STRIDES; ++k) {
            memset(pos, SENTINEL, sbytes);
            memset(nrm, SENTINEL, sbytes);
            float *p = (float *)(void *)pos, *n = (float *)(void *)nrm;
            const size_t bad = bad_stride(k, nv);
            CHECK_STATUS(cloth_get_smooth(c, 2u, p, bad, n, 0u, NULL), CLOTH_ERR_INVALID_ARGUMENT);
            CHECK_STATUS(cloth_get_smooth(c, 2u, p, 0u, n, bad, NULL), CLOTH_ERR_INVALID_ARGUMENT);
            CHECK_STATUS(cloth_get_smooth(c, 2u, p, 0u, NULL, bad, NULL), CLOTH_ERR_INVALID_ARGUMENT);
            CHECK(all_bytes(pos, sbytes, SENTINEL) && all_bytes(nrm, sbytes, SENTINEL));
        }
    }
    free(pos);
    free(nrm);
    cloth_destroy(c);

    /* a mesh desc's positions: three vertices on the stack */
    const float tri_pos[9] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f};
    const uint32_t tri[3] = {0u, 2u, 1u};
    for (int k = 0; k < BAD_STRIDES; ++k) {
        cloth_mesh_desc md;
        cloth_mesh_desc_init(&md);
        md.positions = tri_pos;
        md.position_stride = bad_stride(k, 3u);
        md.vertex_count = 3u;
        md.triangles = tri;
        md.triangle_count = 1u;
        cloth_t *m = (cloth_t *)(uintptr_t)0x1;
        CHECK_STATUS(cloth_create_mesh(&md, &m), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK(m == NULL);
    }
}

/* ---- 2. grid placement --------------------------------------------------- */

/* An allocator that refuses blocks over 1 MiB: a grid that passes
 * validation but is too big to build shows as OUT_OF_MEMORY, cheaply. */
static void *capped_alloc(void *user, size_t size, size_t alignment)
{
    (void)user;
    if (size > ((size_t)1 << 20)) {
        return NULL;
    }
    return aligned_alloc(alignment, (size + alignment - 1u) / alignment * alignment);
}

static void capped_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

static cloth_status try_grid(const cloth_grid_desc *d, cloth_t **out)
{
    *out = (cloth_t *)(uintptr_t)0x1;
    cloth_status s = cloth_create_grid(d, out);
    if (s != CLOTH_OK) {
        CHECK(*out == NULL);
        *out = NULL;
    }
    return s;
}

static void test_grid_placement(void)
{
    cloth_grid_desc d;
    cloth_t *c = NULL;
    /* The report: spacing * max(rows, cols) is finite, but particle 15 sits
     * at 3 spacings along u plus 3 along v, (3 + 3 / sqrt 2) 8e37 > FLT_MAX
     * in x. v_axis is not unit length: the builder normalises it. */
    cloth_grid_desc_init(&d);
    d.rows = 4u;
    d.cols = 4u;
    d.spacing = 8e37f;
    d.v_axis[0] = 1.0f;
    d.v_axis[1] = 0.0f;
    d.v_axis[2] = 1.0f;
    CHECK_STATUS(try_grid(&d, &c), CLOTH_ERR_INVALID_ARGUMENT);
    cloth_destroy(c);

    /* With rest lengths of at most 1e16 m, a corner can leave the float
     * range only in a grid of millions of particles laid from near
     * FLT_MAX: 2^26 - 1 spacings of 4e15 m from x = FLT_MAX is 2.7e23 m
     * past it. Refused before anything is allocated; the allocator refuses
     * blocks over 1 MiB, so the same grid laid towards the origin, which is
     * valid, comes back OUT_OF_MEMORY instead of taking 3.5 GB. */
    cloth_allocator capped = {capped_alloc, capped_free, NULL};
    cloth_grid_desc_init(&d);
    d.rows = 1u;
    d.cols = 1u << 26;
    d.spacing = 4e15f;
    d.origin[0] = FLT_MAX;
    d.allocator = &capped;
    CHECK_STATUS(try_grid(&d, &c), CLOTH_ERR_INVALID_ARGUMENT);
    cloth_destroy(c);
    d.u_axis[0] = -1.0f;
    CHECK_STATUS(try_grid(&d, &c), CLOTH_ERR_OUT_OF_MEMORY);
    cloth_destroy(c);
    /* the same along v from the other end of the range */
    cloth_grid_desc_init(&d);
    d.rows = 1u << 26;
    d.cols = 1u;
    d.spacing = 4e15f;
    d.origin[2] = -FLT_MAX;
    d.v_axis[2] = -1.0f;
    d.allocator = &capped;
    CHECK_STATUS(try_grid(&d, &c), CLOTH_ERR_INVALID_ARGUMENT);
    cloth_destroy(c);
    /* a small grid at FLT_MAX, laid inwards: accepted, every particle finite */
    cloth_grid_desc_init(&d);
    d.rows = 2u;
    d.cols = 3u;
    d.spacing = 1e15f;
    d.origin[0] = FLT_MAX;
    d.u_axis[0] = -1.0f;
    CHECK_OK(try_grid(&d, &c));
    if (c != NULL) {
        float p[18];
        CHECK_OK(cloth_get_positions(c, p, 0));
        CHECK(all_finite(p, 18u));
        cloth_destroy(c);
    }
}

/* ---- 3. rest lengths ----------------------------------------------------- */

#define SC_ROWS 8u
#define SC_COLS 8u
#define SC_N (SC_ROWS * SC_COLS)
#define REF_SPACING 0.05

/* A curtain hanging from its pinned top row, slightly tilted so it swings;
 * gravity and stiffness scale with the spacing, so that in units of the
 * spacing every grid is the same cloth (x = s X: s X'' = k e / m + s g).
 * Steps it 10 times at 60 Hz; positions in spacings into `out`. */
static cloth_status run_scaled(float spacing, uint32_t neighbours, cloth_integrator kind, double out[3 * SC_N])
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = SC_ROWS;
    d.cols = SC_COLS;
    d.spacing = spacing;
    d.neighbours = neighbours;
    d.v_axis[1] = -1.0f;
    d.v_axis[2] = 0.3f;
    cloth_t *c = NULL;
    cloth_status s = cloth_create_grid(&d, &c);
    const float scale = (float)((double)spacing / REF_SPACING);
    const float g[3] = {0.0f, -9.81f * scale, 0.0f};
    const float k[3] = {50.0f * scale, 20.0f * scale, 5.0f * scale};
    if (s == CLOTH_OK) {
        s = cloth_set_integrator(c, kind);
    }
    for (uint32_t i = 0; s == CLOTH_OK && i < SC_COLS; ++i) {
        s = cloth_pin(c, i, NULL);
    }
    if (s == CLOTH_OK) {
        s = cloth_set_gravity(c, g);
    }
    for (int t = 0; s == CLOTH_OK && t < 3; ++t) {
        s = cloth_set_stiffness(c, (cloth_spring_type)t, k[t]);
    }
    for (int i = 0; s == CLOTH_OK && i < 10; ++i) {
        s = cloth_step(c, 1.0f / 60.0f);
    }
    float p[3 * SC_N];
    if (s == CLOTH_OK) {
        s = cloth_get_positions(c, p, 0);
    }
    for (uint32_t i = 0; s == CLOTH_OK && i < 3u * SC_N; ++i) {
        out[i] = (double)p[i] / (double)spacing;
    }
    cloth_destroy(c);
    return s;
}

/* Grids at the edges of the accepted range step with every built-in
 * integrator like the 5 cm cloth, to 1e-3 spacings (float rounding alone
 * leaves about 1e-5 after 10 steps). */
static void test_grid_range_steps(void)
{
    const cloth_integrator kinds[] = {CLOTH_INTEGRATOR_EXPLICIT_EULER, CLOTH_INTEGRATOR_TRAPEZOID,
                                      CLOTH_INTEGRATOR_VERLET,         CLOTH_INTEGRATOR_PBD,
                                      CLOTH_INTEGRATOR_SEMIRIGID,      CLOTH_INTEGRATOR_RELAXATION,
                                      CLOTH_INTEGRATOR_XPBD,           CLOTH_INTEGRATOR_IMPLICIT_EULER};
    /* (spacing, neighbours): the shortest spring is the spacing, the
     * longest 2 spacings (bend) or 2 sqrt 2 (the wide bend) */
    const float spacings[4] = {2e-15f, 4e15f, 2e-15f, 3e15f};
    const uint32_t neighbours[4] = {12u, 12u, 24u, 24u};
    static double ref[3 * SC_N], got[3 * SC_N];
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
        for (int n = 0; n < 4; ++n) {
            CHECK_OK(run_scaled((float)REF_SPACING, neighbours[n], kinds[k], ref));
            cloth_status s = run_scaled(spacings[n], neighbours[n], kinds[k], got);
            CHECK_OK(s);
            double worst = 0.0;
            for (uint32_t i = 0; s == CLOTH_OK && i < 3u * SC_N; ++i) {
                worst = fmax(worst, fabs(got[i] - ref[i]));
            }
            if (!(worst <= 1e-3)) {
                fprintf(stderr, "integrator %d, spacing %g, %u neighbours: %g spacings off\n", (int)kinds[k],
                        (double)spacings[n], neighbours[n], worst);
            }
            CHECK(s == CLOTH_OK && worst <= 1e-3);
        }
    }
}

static void test_grid_rest_lengths(void)
{
    cloth_grid_desc d;
    cloth_t *c = NULL;
    /* spacing: structural, shear, bend and the wide families all count */
    const float refused[] = {2e19f, 1e17f, 6e15f, 1e-16f, 1e-20f, 1e-40f};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; ++k) {
        cloth_grid_desc_init(&d);
        d.rows = 4u;
        d.cols = 4u;
        d.spacing = refused[k];
        CHECK_STATUS(try_grid(&d, &c), CLOTH_ERR_INVALID_ARGUMENT);
        cloth_destroy(c);
    }
    /* 4e15 m: bend springs 8e15 m; with 24 neighbours the (2, 2) bend is
     * 1.13e16 m, too long */
    cloth_grid_desc_init(&d);
    d.rows = 4u;
    d.cols = 4u;
    d.spacing = 4e15f;
    CHECK_OK(try_grid(&d, &c));
    cloth_destroy(c);
    d.neighbours = 24u;
    CHECK_STATUS(try_grid(&d, &c), CLOTH_ERR_INVALID_ARGUMENT);
    cloth_destroy(c);
    /* a family that has no spring in this grid does not count: a single
     * row has neither bend nor shear springs along v */
    d.neighbours = 12u;
    d.spacing = 8e15f; /* bend along u: 1.6e16 m, but 2 columns have none */
    d.rows = 1u;
    d.cols = 2u;
    CHECK_OK(try_grid(&d, &c));
    cloth_destroy(c);
    d.cols = 3u;
    CHECK_STATUS(try_grid(&d, &c), CLOTH_ERR_INVALID_ARGUMENT);
    cloth_destroy(c);
    /* nearly parallel axes (2e-4 rad apart): the (1, -1) shear spring is
     * 2e-4 spacings long, 2e-16 m at a spacing of 1e-12 m */
    cloth_grid_desc_init(&d);
    d.rows = 4u;
    d.cols = 4u;
    d.spacing = 1e-12f;
    CHECK_OK(try_grid(&d, &c));
    cloth_destroy(c);
    d.v_axis[0] = 1.0f;
    d.v_axis[1] = 2e-4f;
    d.v_axis[2] = 0.0f;
    CHECK_STATUS(try_grid(&d, &c), CLOTH_ERR_INVALID_ARGUMENT);
    cloth_destroy(c);
    d.spacing = 1e-9f; /* 2e-13 m: fine */
    CHECK_OK(try_grid(&d, &c));
    cloth_destroy(c);
}

static cloth_status try_mesh(const float *pos, uint32_t nv, const uint32_t *tris, uint32_t nt, cloth_t **out)
{
    cloth_mesh_desc md;
    cloth_mesh_desc_init(&md);
    md.positions = pos;
    md.vertex_count = nv;
    md.triangles = tris;
    md.triangle_count = nt;
    *out = (cloth_t *)(uintptr_t)0x1;
    cloth_status s = cloth_create_mesh(&md, out);
    if (s != CLOTH_OK) {
        CHECK(*out == NULL);
        *out = NULL;
    }
    return s;
}

/* A right triangle with legs `leg` in the y = 0 plane. */
static cloth_status try_triangle(float leg, cloth_t **out)
{
    const float pos[9] = {0.0f, 0.0f, 0.0f, leg, 0.0f, 0.0f, 0.0f, 0.0f, leg};
    const uint32_t tri[3] = {0u, 2u, 1u};
    return try_mesh(pos, 3u, tri, 1u, out);
}

static void test_mesh_rest_lengths(void)
{
    cloth_t *c = NULL;
    /* 1e20: rest lengths were inf (the square overflowed a float);
     * 1e-24: they were 0 (it underflowed), springs that never act */
    const float refused[] = {1e20f, 1e17f, 8e15f, 1e-16f, 1e-24f};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; ++k) {
        CHECK_STATUS(try_triangle(refused[k], &c), CLOTH_ERR_INVALID_ARGUMENT);
        cloth_destroy(c);
    }
    /* the edges: hypotenuse 7.07e15, legs 1e-15 */
    const float accepted[] = {5e15f, 1.01e-15f};
    for (size_t k = 0; k < sizeof accepted / sizeof accepted[0]; ++k) {
        CHECK_OK(try_triangle(accepted[k], &c));
        if (c != NULL) {
            float rest[3];
            CHECK(cloth_spring_count(c) == 3u);
            CHECK_OK(cloth_get_springs(c, NULL, rest, NULL));
            for (int s = 0; s < 3; ++s) {
                const double want = (double)accepted[k] * ((rest[s] > accepted[k] * 1.2f) ? sqrt(2.0) : 1.0);
                CHECK_NEAR(rest[s], want, want * 1e-6);
            }
            /* and it steps */
            CHECK_OK(cloth_step(c, 1.0f / 60.0f));
            cloth_destroy(c);
        }
    }
    /* coincident vertices: a zero-length edge */
    const float twin[9] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f};
    const uint32_t twin_tri[3] = {0u, 2u, 1u};
    CHECK_STATUS(try_mesh(twin, 3u, twin_tri, 1u, &c), CLOTH_ERR_INVALID_ARGUMENT);
    cloth_destroy(c);

    /* A rhombus split along its short diagonal: edges 9.6e15 m, but the
     * bend spring across the diagonal joins the far corners, 1.9e16 m. */
    const float w = 0.95e16f, h = 0.15e16f;
    const float rhombus[12] = {-w, 0.0f, 0.0f, 0.0f, 0.0f, -h, w, 0.0f, 0.0f, 0.0f, 0.0f, h};
    const uint32_t rhombus_tris[6] = {0u, 3u, 1u, 1u, 3u, 2u};
    CHECK_STATUS(try_mesh(rhombus, 4u, rhombus_tris, 2u, &c), CLOTH_ERR_INVALID_ARGUMENT);
    cloth_destroy(c);

    /* Two triangles folded onto each other across edge (0, 1): the vertices
     * opposite it are 1e-20 m apart, too close for a spring to have a
     * direction in float. As when they coincide, there is no bend spring;
     * the cloth is accepted with its 5 edges. */
    const float folded[12] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.5f, 0.0f, 1.0f, 0.5f, 1e-20f, 1.0f};
    const uint32_t folded_tris[6] = {0u, 2u, 1u, 0u, 1u, 3u};
    CHECK_OK(try_mesh(folded, 4u, folded_tris, 2u, &c));
    if (c != NULL) {
        CHECK(cloth_spring_count(c) == 5u);
        cloth_destroy(c);
    }
}

/* ---- 4. the smooth surface at the end of the float range ----------------- */

/* Level-4 surface of a 4 x 4 grid whose particle i is at xyz[i]; checks
 * every output is finite, normals unit, corners the particles bit for bit. */
static void check_smooth_finite(cloth_t *c, const float *xyz, const char *what)
{
    enum { L = 4, NV = (3 * L + 1) * (3 * L + 1) };
    static float pos[3 * NV], nrm[3 * NV];
    CHECK_OK(cloth_set_positions(c, xyz, 0));
    CHECK_OK(cloth_get_smooth(c, L, pos, 0, nrm, 0, NULL));
    int finite = all_finite(pos, 3u * NV) && all_finite(nrm, 3u * NV);
    double worst_unit = 0.0;
    int corners = 1;
    for (uint32_t i = 0; i < NV; ++i) {
        const double x = (double)nrm[3 * i], y = (double)nrm[3 * i + 1], z = (double)nrm[3 * i + 2];
        worst_unit = fmax(worst_unit, fabs(sqrt(x * x + y * y + z * z) - 1.0));
    }
    for (uint32_t r = 0; r < 4u; ++r) {
        for (uint32_t q = 0; q < 4u; ++q) {
            corners &= memcmp(pos + 3u * ((L * r) * (3u * L + 1u) + L * q), xyz + 3u * (4u * r + q), 12u) == 0;
        }
    }
    if (!finite || !(worst_unit < 1e-6) || !corners) {
        fprintf(stderr, "smooth surface of %s: finite %d, worst |n| - 1 %g, corners exact %d\n", what, finite,
                worst_unit, corners);
    }
    CHECK(finite);
    CHECK(worst_unit < 1e-6);
    CHECK(corners);
}

static void test_smooth_extremes(void)
{
    cloth_t *c = make_grid(4u, 4u, 0.05f);
    if (c == NULL) {
        return;
    }
    float xyz[48];
    /* flat, in the plane x = FLT_MAX: the report (NaN), and its mirror */
    for (int sign = -1; sign <= 1; sign += 2) {
        for (uint32_t i = 0; i < 16u; ++i) {
            xyz[3 * i] = (float)sign * FLT_MAX;
            xyz[3 * i + 1] = -0.05f * (float)(i / 4u);
            xyz[3 * i + 2] = 0.05f * (float)(i % 4u);
        }
        check_smooth_finite(c, xyz, sign > 0 ? "a flat grid at x = FLT_MAX" : "a flat grid at x = -FLT_MAX");
        /* flat stays flat: every vertex on the plane, normals along x */
        static float pos[3 * 169], nrm[3 * 169];
        CHECK_OK(cloth_get_smooth(c, 4u, pos, 0, nrm, 0, NULL));
        int on_plane = 1;
        double worst_n = 0.0;
        for (uint32_t i = 0; i < 169u; ++i) {
            on_plane &= pos[3 * i] == xyz[0];
            worst_n = fmax(worst_n, 1.0 - fabs((double)nrm[3 * i]));
        }
        CHECK(on_plane);
        CHECK(worst_n < 1e-6);
    }
    /* a finite cloth spanning the whole float range: a checkerboard of
     * +-FLT_MAX in x, rows and columns in y and z; Catmull-Rom overshoots,
     * so the surface is clamped to the float range */
    for (uint32_t i = 0; i < 16u; ++i) {
        xyz[3 * i] = ((i / 4u + i % 4u) % 2u == 0u) ? FLT_MAX : -FLT_MAX;
        xyz[3 * i + 1] = FLT_MAX / 3.0f * (float)(i / 4u);
        xyz[3 * i + 2] = -FLT_MAX / 3.0f * (float)(i % 4u);
    }
    check_smooth_finite(c, xyz, "a checkerboard of +-FLT_MAX");
    /* near the top of the range, one ulp apart */
    for (uint32_t i = 0; i < 16u; ++i) {
        xyz[3 * i] = (i % 3u == 0u) ? FLT_MAX : nextafterf(FLT_MAX, 0.0f);
        xyz[3 * i + 1] = 1e-30f * (float)(i / 4u);
        xyz[3 * i + 2] = 1e-30f * (float)(i % 4u);
    }
    check_smooth_finite(c, xyz, "a grid 1e-30 m apart at x ~ FLT_MAX");
    /* neighbours 30 orders of magnitude apart: corners stay exact */
    for (uint32_t i = 0; i < 16u; ++i) {
        xyz[3 * i] = (i % 2u == 0u) ? 1e30f : 1.0f;
        xyz[3 * i + 1] = (i % 3u == 0u) ? -1e-30f : 3e20f;
        xyz[3 * i + 2] = 0.05f * (float)(i % 4u) + (float)(i / 4u);
    }
    check_smooth_finite(c, xyz, "neighbours 1e30 apart");
    cloth_destroy(c);
}

/* ---- 5. host buffers at any address -------------------------------------- */

/* A pointer 2 bytes past a 16-aligned block: an FFI host hands such
 * addresses over as float *; the library must not load or store through
 * them as floats. */
#define MIS 2u

static void test_misaligned(void)
{
    cloth_t *c = make_grid(5u, 4u, 0.05f);
    if (c == NULL) {
        return;
    }
    const uint32_t n = 20u, nt = cloth_triangle_count(c);
    CHECK_OK(cloth_pin(c, 0u, NULL));
    CHECK_OK(cloth_pin(c, 3u, NULL));
    for (int i = 0; i < 5; ++i) {
        CHECK_OK(cloth_step(c, 1.0f / 60.0f));
    }
    uint32_t nv = 0u, nst = 0u;
    CHECK_OK(cloth_smooth_counts(c, 3u, &nv, &nst));
    const size_t big = 24u * (size_t)nv + 64u;
    unsigned char *raw = malloc(big + 16u), *ref = malloc(big), *ref2 = malloc(big);
    if (raw == NULL || ref == NULL || ref2 == NULL) {
        report_oom();
        free(raw);
        free(ref);
        free(ref2);
        cloth_destroy(c);
        return;
    }
    unsigned char *mis = raw + MIS; /* malloc's block is aligned for any type */
    float *fmis = (float *)(void *)mis;
    const getter_fn getters[3] = {get_pos, get_vel, get_nrm};
    const size_t strides[2] = {0u, 16u};
    for (int g = 0; g < 3; ++g) {
        for (int k = 0; k < 2; ++k) {
            const size_t bytes = strides[k] == 0u ? 12u * n : 16u * n;
            memset(ref, SENTINEL, bytes);
            memset(mis, SENTINEL, bytes);
            CHECK_OK(getters[g](c, (float *)(void *)ref, strides[k]));
            CHECK_OK(getters[g](c, fmis, strides[k]));
            CHECK(memcmp(ref, mis, bytes) == 0);
        }
    }
    /* positions in from a misaligned buffer round-trip */
    memset(ref, SENTINEL, 16u * n);
    memset(ref2, SENTINEL, 16u * n);
    CHECK_OK(cloth_get_positions(c, (float *)(void *)ref, 16u));
    memcpy(mis, ref, 16u * n);
    CHECK_OK(cloth_set_positions(c, fmis, 16u));
    CHECK_OK(cloth_set_velocities(c, fmis, 16u));
    CHECK_OK(cloth_get_positions(c, (float *)(void *)ref2, 16u));
    CHECK(memcmp(ref, ref2, 16u * n) == 0);
    /* the index buffer */
    memset(ref, SENTINEL, 12u * nt);
    memset(mis, SENTINEL, 12u * nt);
    CHECK_OK(cloth_get_triangles(c, (uint32_t *)(void *)ref));
    CHECK_OK(cloth_get_triangles(c, (uint32_t *)(void *)mis));
    CHECK(memcmp(ref, mis, 12u * nt) == 0);
    /* the smooth surface: interleaved position + normal records, 24 bytes
     * apart, and its index buffer, all off alignment */
    unsigned char *ref_tri = malloc(12u * (size_t)nst), *raw_tri = malloc(12u * (size_t)nst + 16u);
    if (ref_tri == NULL || raw_tri == NULL) {
        report_oom();
    } else {
        memset(ref, SENTINEL, 24u * nv);
        memset(mis, SENTINEL, 24u * nv);
        CHECK_OK(cloth_get_smooth(c, 3u, (float *)(void *)ref, 24u, (float *)(void *)(ref + 12), 24u,
                                  (uint32_t *)(void *)ref_tri));
        CHECK_OK(cloth_get_smooth(c, 3u, fmis, 24u, (float *)(void *)(mis + 12), 24u,
                                  (uint32_t *)(void *)(raw_tri + MIS)));
        CHECK(memcmp(ref, mis, 24u * nv) == 0);
        CHECK(memcmp(ref_tri, raw_tri + MIS, 12u * nst) == 0);
    }
    free(ref_tri);
    free(raw_tri);
    cloth_destroy(c);

    /* a mesh desc whose positions, triangles and masses are off alignment */
    float pos[27];
    uint32_t tris[24];
    const uint32_t mt = test_flat_mesh(3u, 3u, 0.1f, pos, tris);
    const float masses[9] = {0.01f, 0.02f, 0.01f, 0.02f, 0.03f, 0.02f, 0.01f, 0.02f, 0.01f};
    unsigned char *mpos = raw + MIS, *mtri = mpos + sizeof pos + 4u, *mmass = mtri + 4u * 3u * mt + 4u;
    memcpy(mpos, pos, sizeof pos);
    memcpy(mtri, tris, 4u * 3u * mt);
    memcpy(mmass, masses, sizeof masses);
    cloth_mesh_desc md;
    cloth_mesh_desc_init(&md);
    md.positions = (const float *)(const void *)mpos;
    md.vertex_count = 9u;
    md.triangles = (const uint32_t *)(const void *)mtri;
    md.triangle_count = mt;
    md.masses = (const float *)(const void *)mmass;
    cloth_t *a = NULL, *b = NULL;
    CHECK_OK(cloth_create_mesh(&md, &a));
    md.positions = pos;
    md.triangles = tris;
    md.masses = masses;
    CHECK_OK(cloth_create_mesh(&md, &b));
    if (a != NULL && b != NULL) {
        CHECK(cloth_spring_count(a) == cloth_spring_count(b));
        for (int i = 0; i < 3; ++i) {
            CHECK_OK(cloth_step(a, 1.0f / 60.0f));
            CHECK_OK(cloth_step(b, 1.0f / 60.0f));
        }
        CHECK(cloth_state_hash(a) == cloth_state_hash(b));
        CHECK_OK(cloth_get_normals(a, (float *)(void *)ref, 0));
        CHECK_OK(cloth_get_normals(b, fmis, 0));
        CHECK(memcmp(ref, mis, sizeof pos) == 0);
    }
    cloth_destroy(a);
    cloth_destroy(b);
    free(raw);
    free(ref);
    free(ref2);
}

/* ---- main ---------------------------------------------------------------- */

typedef struct section {
    const char *name;
    void (*run)(void);
} section;

int main(int argc, char **argv)
{
    const section sections[] = {
        {"stride_validator", test_stride_validator}, {"strides", test_api_strides},
        {"grid_placement", test_grid_placement},     {"grid_rest", test_grid_rest_lengths},
        {"grid_range_steps", test_grid_range_steps}, {"mesh_rest", test_mesh_rest_lengths},
        {"smooth", test_smooth_extremes},            {"misaligned", test_misaligned},
    };
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; ++i) {
        if (argc < 2 || strcmp(argv[1], sections[i].name) == 0) {
            sections[i].run();
        }
    }
    return test_finish("test_hostile_input");
}
