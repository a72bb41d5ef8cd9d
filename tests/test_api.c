/*
 * test_api: every refusal of SPEC section 4, for every public function.
 *
 * Bad input (NULL, NaN, Inf, zero or negative sizes, out-of-range indices,
 * unknown enums, absurd dt, bad strides, stale ids) must get the documented
 * status and change nothing. "Nothing changed" is checked two ways:
 *   - the state read back (positions, velocities) is bitwise identical, and
 *   - two identical cloths are built, the refused call is made on one only,
 *     both are stepped, and their states must still be bitwise identical
 *     (this catches a refused setter that half-applied a parameter), and the
 *     next collider id handed out must be the same on both.
 * Also: status strings, version, desc defaults, the allocator hooks (alignment,
 * sizes given back to free, every byte freed, allocation failure at every
 * point of test_create_grid()).
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* CHECK that reports the caller's line. */
#define CHECK_AT(cond, line, what)                                                          \
    do {                                                                                    \
        ++test_checks;                                                                      \
        if (!(cond)) {                                                                      \
            ++test_failures;                                                                \
            fprintf(stderr, "%s:%d: CHECK failed (%s): %s\n", __FILE__, (line), (what), #cond); \
        }                                                                                   \
    } while (0)

#define DT (1.0f / 60.0f)
#define ROWS 5u
#define COLS 4u
#define NP (ROWS * COLS)
#define NF (3u * NP)

static const float k_nonfinite[3] = {NAN, INFINITY, -INFINITY};

static void const_wind_hook(void *user, float time, uint32_t count, const float *positions, float *wind_velocity);
static void small_force(void *user, float time, uint32_t count, const float *positions, const float *velocities,
                        float *forces);

/* ------------------------------------------------------------------------- */
/* Counting allocator                                                         */
/* ------------------------------------------------------------------------- */

typedef struct alloc_rec {
    void *ptr;
    void *raw;
    size_t size;
} alloc_rec;

typedef struct counter {
    size_t allocs;      /* calls to alloc, failed ones included */
    size_t failed;      /* calls that returned NULL */
    size_t frees;       /* calls to free */
    size_t outstanding; /* bytes allocated and not yet freed */
    size_t fail_from;   /* 1-based alloc call number from which alloc fails; 0 never */
    size_t bad_alignment, bad_free, bad_size, null_free;
    size_t min_alignment, max_alignment;
    alloc_rec *live;
    size_t nlive, cap;
} counter;

static void counter_init(counter *c)
{
    memset(c, 0, sizeof *c);
    c->min_alignment = SIZE_MAX;
}

static void *counting_alloc(void *user, size_t size, size_t alignment)
{
    counter *c = (counter *)user;
    size_t a = alignment;
    void *raw, *p;
    c->allocs++;
    if (alignment < c->min_alignment) {
        c->min_alignment = alignment;
    }
    if (alignment > c->max_alignment) {
        c->max_alignment = alignment;
    }
    /* base.h: "a power of two, at most 64" */
    if (a == 0 || (a & (a - 1u)) != 0 || a > 64u) {
        c->bad_alignment++;
        a = 64u;
    }
    if (c->fail_from != 0 && c->allocs >= c->fail_from) {
        c->failed++;
        return NULL;
    }
    if (size > SIZE_MAX / 4u) {
        c->failed++;
        return NULL;
    }
    if (c->nlive == c->cap) {
        size_t ncap = c->cap ? 2u * c->cap : 64u;
        alloc_rec *n = (alloc_rec *)realloc(c->live, ncap * sizeof *n);
        if (!n) {
            c->failed++;
            return NULL;
        }
        c->live = n;
        c->cap = ncap;
    }
    raw = malloc(size + a);
    if (!raw) {
        c->failed++;
        return NULL;
    }
    p = (void *)(((uintptr_t)raw + (uintptr_t)(a - 1u)) & ~(uintptr_t)(a - 1u));
    if (((uintptr_t)p % (uintptr_t)a) != 0) {
        c->bad_alignment++;
    }
    memset(p, 0xCD, size); /* no reliance on zeroed memory */
    c->live[c->nlive].ptr = p;
    c->live[c->nlive].raw = raw;
    c->live[c->nlive].size = size;
    c->nlive++;
    c->outstanding += size;
    return p;
}

static void counting_free(void *user, void *ptr, size_t size)
{
    counter *c = (counter *)user;
    size_t i;
    c->frees++;
    if (!ptr) {
        c->null_free++;
        return;
    }
    for (i = 0; i < c->nlive; ++i) {
        if (c->live[i].ptr == ptr) {
            break;
        }
    }
    if (i == c->nlive) {
        c->bad_free++; /* never handed out, or freed twice */
        return;
    }
    if (c->live[i].size != size) {
        c->bad_size++;
    }
    c->outstanding -= c->live[i].size;
    free(c->live[i].raw);
    c->live[i] = c->live[c->nlive - 1u];
    c->nlive--;
}

/* Everything handed out was given back, correctly. */
static void check_counter_clean(const counter *c, int line, const char *what)
{
    CHECK_AT(c->outstanding == 0, line, what);
    CHECK_AT(c->nlive == 0, line, what);
    CHECK_AT(c->frees == c->allocs - c->failed, line, what);
    CHECK_AT(c->bad_alignment == 0, line, what);
    CHECK_AT(c->bad_free == 0, line, what);
    CHECK_AT(c->bad_size == 0, line, what);
    CHECK_AT(c->null_free == 0, line, what);
}

static void counter_release(counter *c)
{
    size_t i;
    for (i = 0; i < c->nlive; ++i) {
        free(c->live[i].raw);
    }
    free(c->live);
    c->live = NULL;
    c->nlive = c->cap = 0;
}

/* ------------------------------------------------------------------------- */
/* State helpers                                                              */
/* ------------------------------------------------------------------------- */

static int read_state(const cloth_t *c, float *pos, float *vel)
{
    return cloth_get_positions(c, pos, 0) == CLOTH_OK && cloth_get_velocities(c, vel, 0) == CLOTH_OK;
}

static int state_equals(const cloth_t *c, const float *pos, const float *vel)
{
    float p[NF], v[NF];
    if (cloth_particle_count(c) != NP || !read_state(c, p, v)) {
        return 0;
    }
    return memcmp(p, pos, sizeof p) == 0 && memcmp(v, vel, sizeof v) == 0;
}

static int same_state(const cloth_t *a, const cloth_t *b)
{
    float p[NF], v[NF];
    if (cloth_particle_count(a) != NP || !read_state(a, p, v)) {
        return 0;
    }
    return state_equals(b, p, v);
}

/* ------------------------------------------------------------------------- */
/* The twin cloths                                                            */
/* ------------------------------------------------------------------------- */

/* A small cloth that exercises every parameter in one step: strained springs,
 * moving particles, a pin with a target, a floor plane with friction, a sphere
 * with thickness and friction it is pushed by, and a removed collider id. */
typedef struct busy {
    cloth_t *c;
    cloth_collider_id plane, sphere, removed, torus;
} busy;

/* How make_busy() configures the twins: the integrator (PBD to make the
 * position-based parameters observable) and a constant wind (to make the air
 * parameters observable). */
static cloth_integrator busy_kind = CLOTH_INTEGRATOR_EXPLICIT_EULER;
static int busy_wind = 1;

static busy make_busy(const cloth_allocator *hooks)
{
    busy b;
    cloth_grid_desc d;
    float pos[NF], vel[NF];
    const float pin_target[3] = {0.01f, 0.02f, -0.005f};
    const float plane_p[3] = {0.0f, -0.0005f, 0.0f}, plane_n[3] = {0.0f, 1.0f, 0.0f};
    const float sph_c[3] = {0.075f, -0.05f, 0.1f};
    const float far_c[3] = {5.0f, 5.0f, 5.0f};
    const float torus_c[3] = {-5.0f, 5.0f, 5.0f}, torus_axis[3] = {0.0f, 1.0f, 0.0f};
    const float wind[3] = {1.0f, 0.2f, 0.5f};
    uint32_t i;
    int ok = 1;

    memset(&b, 0, sizeof b);
    cloth_grid_desc_init(&d);
    d.rows = ROWS;
    d.cols = COLS;
    d.allocator = hooks;
    if (test_create_grid(&d, &b.c) != CLOTH_OK || b.c == NULL) {
        CHECK(0 && "make_busy: cloth_create_grid failed");
        b.c = NULL;
        return b;
    }
    ok &= cloth_get_positions(b.c, pos, 0) == CLOTH_OK;
    for (i = 0; i < NP; ++i) {
        pos[3 * i + 0] += 0.001f * (float)(i % 7u);
        pos[3 * i + 1] += 0.0005f * (float)(i % 3u);
        pos[3 * i + 2] -= 0.0007f * (float)(i % 5u);
        vel[3 * i + 0] = 0.1f * (float)(i % 3u);
        vel[3 * i + 1] = -0.1f;
        vel[3 * i + 2] = 0.02f * (float)(i % 5u) - 0.04f;
    }
    ok &= cloth_set_positions(b.c, pos, 0) == CLOTH_OK;
    ok &= cloth_set_velocities(b.c, vel, 0) == CLOTH_OK;
    ok &= cloth_pin(b.c, 0, pin_target) == CLOTH_OK;
    ok &= cloth_add_plane(b.c, plane_p, plane_n, &b.plane) == CLOTH_OK;
    ok &= cloth_set_collider_friction(b.c, b.plane, 0.3f) == CLOTH_OK;
    ok &= cloth_add_sphere(b.c, sph_c, 0.055f, &b.sphere) == CLOTH_OK;
    ok &= cloth_set_collider_thickness(b.c, b.sphere, 0.002f) == CLOTH_OK;
    ok &= cloth_set_collider_friction(b.c, b.sphere, 0.2f) == CLOTH_OK;
    ok &= cloth_add_sphere(b.c, far_c, 0.1f, &b.removed) == CLOTH_OK;
    ok &= cloth_remove_collider(b.c, b.removed) == CLOTH_OK;
    ok &= cloth_add_torus(b.c, torus_c, torus_axis, 0.5f, 0.1f, &b.torus) == CLOTH_OK;
    ok &= cloth_set_collider_thickness(b.c, b.torus, 0.05f) == CLOTH_OK;
    if (busy_kind != CLOTH_INTEGRATOR_EXPLICIT_EULER) {
        ok &= cloth_set_integrator(b.c, busy_kind) == CLOTH_OK;
    }
    if (busy_wind) {
        ok &= cloth_set_constant_wind(b.c, wind) == CLOTH_OK;
    }
    CHECK(ok);
    return b;
}

static void busy_free(busy *b)
{
    cloth_destroy(b->c);
    b->c = NULL;
}

static busy TA, TB;
static int wind_calls;

static void twin_begin(void)
{
    TA = make_busy(NULL);
    TB = make_busy(NULL);
}

/* After the call on TA: same state as TB now, after two steps, and the same
 * next collider id. */
static void twin_end(int line)
{
    const float far_c[3] = {-7.0f, 7.0f, -7.0f};
    cloth_collider_id ida = 0, idb = 0;
    cloth_status sa, sb;
    int s;
    if (!TA.c || !TB.c) {
        CHECK_AT(0, line, "twin setup");
        busy_free(&TA);
        busy_free(&TB);
        return;
    }
    CHECK_AT(same_state(TA.c, TB.c), line, "state changed by the call");
    for (s = 0; s < 2; ++s) {
        sa = cloth_step(TA.c, DT);
        sb = cloth_step(TB.c, DT);
        CHECK_AT(sa == CLOTH_OK && sb == CLOTH_OK, line, "twin steps");
    }
    CHECK_AT(same_state(TA.c, TB.c), line, "state differs from the twin after stepping");
    sa = cloth_add_sphere(TA.c, far_c, 0.5f, &ida);
    sb = cloth_add_sphere(TB.c, far_c, 0.5f, &idb);
    CHECK_AT(sa == CLOTH_OK && sb == CLOTH_OK && ida == idb, line, "next collider id differs from the twin");
    CHECK_AT(wind_calls == 0, line, "wind hook called");
    busy_free(&TA);
    busy_free(&TB);
}

/* Make `call` (on TA.c) on a fresh twin pair; it must return `expected` and
 * leave TA indistinguishable from TB. */
#define TWIN(call, expected)             \
    do {                                 \
        twin_begin();                    \
        if (TA.c) {                      \
            CHECK_STATUS(call, expected); \
        }                                \
        twin_end(__LINE__);              \
    } while (0)

/* ------------------------------------------------------------------------- */
/* Status strings, version, desc defaults, destroy(NULL)                     */
/* ------------------------------------------------------------------------- */

static void test_status_strings(void)
{
    const cloth_status codes[] = {CLOTH_OK, CLOTH_ERR_INVALID_ARGUMENT, CLOTH_ERR_OUT_OF_MEMORY,
                                  CLOTH_ERR_OUT_OF_RANGE, CLOTH_ERR_UNSTABLE, CLOTH_ERR_UNSUPPORTED,
                                  CLOTH_ERR_BUSY,         CLOTH_ERR_TASK_CONTRACT};
    const size_t n = sizeof codes / sizeof codes[0];
    const char *s[sizeof codes / sizeof codes[0]];
    const char *u;
    size_t i, j;
    for (i = 0; i < n; ++i) {
        s[i] = cloth_status_string(codes[i]);
        CHECK(s[i] != NULL);
        if (s[i]) {
            CHECK(s[i][0] != '\0');
            CHECK(strcmp(s[i], "unknown status") != 0);
        }
    }
    for (i = 0; i < n; ++i) {
        for (j = i + 1; j < n; ++j) {
            if (s[i] && s[j]) {
                CHECK(strcmp(s[i], s[j]) != 0);
            }
        }
    }
    u = cloth_status_string((cloth_status)42);
    CHECK(u != NULL && strcmp(u, "unknown status") == 0);
    u = cloth_status_string((cloth_status)(CLOTH_ERR_TASK_CONTRACT + 1));
    CHECK(u != NULL && strcmp(u, "unknown status") == 0);
    u = cloth_status_string(CLOTH_STATUS_FORCE32);
    CHECK(u != NULL && strcmp(u, "unknown status") == 0);
    u = cloth_status_string((cloth_status)-1);
    CHECK(u != NULL && strcmp(u, "unknown status") == 0);
}

static void test_version_and_defaults(void)
{
    cloth_grid_desc d;
    cloth_t *c = NULL;
    CHECK(cloth_version() == (uint32_t)CLOTHSIM_VERSION_NUMBER);
    CHECK(CLOTHSIM_VERSION_NUMBER ==
          CLOTHSIM_VERSION_MAJOR * 10000 + CLOTHSIM_VERSION_MINOR * 100 + CLOTHSIM_VERSION_PATCH);

    memset(&d, 0x5A, sizeof d);
    cloth_grid_desc_init(&d);
    CHECK(d.rows == 32u);
    CHECK(d.cols == 32u);
    CHECK(d.spacing == 0.05f);
    CHECK(d.particle_mass == 0.01f);
    CHECK(d.origin[0] == 0.0f && d.origin[1] == 0.0f && d.origin[2] == 0.0f);
    CHECK(d.u_axis[0] == 1.0f && d.u_axis[1] == 0.0f && d.u_axis[2] == 0.0f);
    CHECK(d.v_axis[0] == 0.0f && d.v_axis[1] == 0.0f && d.v_axis[2] == 1.0f);
    CHECK(d.struct_size == (uint32_t)sizeof(cloth_grid_desc));
    CHECK(d.allocator == NULL);
    CHECK(d.neighbours == 12u);

    cloth_grid_desc_init(NULL); /* ignored, must not crash */
    cloth_destroy(NULL);        /* no-op */

    CHECK_OK(cloth_create_grid(&d, &c));
    CHECK(c != NULL);
    CHECK(cloth_particle_count(c) == 32u * 32u);
    CHECK(cloth_triangle_count(c) == 2u * 31u * 31u);
    if (c != NULL) {
        /* a new cloth steps with XPBD, automatic settings and the stretch
         * guarantee at 9 %, tethers at 3 % (clothsim.h, "Defaults") */
        cloth_integrator kind = CLOTH_INTEGRATOR_FORCE32;
        float strain = -1.0f, scale = -1.0f;
        uint32_t passes = 99u;
        cloth_tether_schedule schedule = CLOTH_TETHERS_EVERY_SUBSTEP;
        cloth_stats stats;
        const float corner[3] = {0.0f, 0.0f, 0.0f};
        CHECK_OK(cloth_get_integrator(c, &kind));
        CHECK(kind == CLOTH_INTEGRATOR_XPBD);
        CHECK_OK(cloth_get_strain_limit(c, &strain, &passes));
        CHECK(strain == 0.09f && passes == 0u);
        CHECK_OK(cloth_get_tethers(c, &scale));
        CHECK(scale == 1.03f);
        CHECK_OK(cloth_get_tether_schedule(c, &schedule));
        CHECK(schedule == CLOTH_TETHERS_LAST_SUBSTEP);
        CHECK_OK(cloth_pin(c, 0u, corner));
        CHECK_OK(cloth_step(c, 1.0f / 60.0f));
        cloth_stats_init(&stats);
        CHECK_OK(cloth_get_stats(c, &stats));
        CHECK(stats.substeps_used == 6u);   /* 360 substeps a second to start */
        CHECK(stats.iterations_used == 1u); /* XPBD's automatic iterations */
        CHECK(stats.limit_passes_used >= 1u);
        CHECK(stats.step_max_strain <= 0.09f * 1.01f + 1e-5f);
    }
    cloth_destroy(c);

    CHECK(cloth_particle_count(NULL) == 0u);
    CHECK(cloth_triangle_count(NULL) == 0u);
}

/* ------------------------------------------------------------------------- */
/* cloth_create_grid refusals                                                */
/* ------------------------------------------------------------------------- */

static void small_desc(cloth_grid_desc *d)
{
    cloth_grid_desc_init(d);
    d->rows = ROWS;
    d->cols = COLS;
}

/* `d` must be refused with `expected`; *out is set to NULL; with a counting
 * allocator attached (unless `d` brings its own), nothing leaks. */
static void create_refused_at(const cloth_grid_desc *d, cloth_status expected, int line, int attach)
{
    static int dummy_object;
    cloth_grid_desc copy = *d;
    counter cnt;
    cloth_allocator hooks;
    cloth_t *out = (cloth_t *)(void *)&dummy_object;
    cloth_status st;
    counter_init(&cnt);
    hooks.alloc = counting_alloc;
    hooks.free = counting_free;
    hooks.user = &cnt;
    if (attach) {
        copy.allocator = &hooks;
    }
    st = test_create_grid(&copy, &out);
    CHECK_AT(st == expected, line, cloth_status_string(st));
    CHECK_AT(out == NULL, line, "*out not set to NULL on failure");
    if (st == CLOTH_OK && out != NULL && out != (cloth_t *)(void *)&dummy_object) {
        cloth_destroy(out);
    }
    if (attach) {
        check_counter_clean(&cnt, line, "refused create leaked or misused the allocator");
    }
    counter_release(&cnt);
}
#define CREATE_REFUSED(d, expected) create_refused_at((d), (expected), __LINE__, 1)

/* Creates OK or is refused with INVALID_ARGUMENT; if created, the particles
 * are where the normalised axes put them. */
static void create_axis_robust_at(const float u[3], const float v[3], int strict, int line)
{
    cloth_grid_desc d;
    cloth_t *c = NULL;
    cloth_status st;
    double un[3], vn[3], lu, lv;
    float pos[NF];
    uint32_t r, k, cc;
    small_desc(&d);
    memcpy(d.u_axis, u, sizeof d.u_axis);
    memcpy(d.v_axis, v, sizeof d.v_axis);
    st = test_create_grid(&d, &c);
    if (strict) {
        CHECK_AT(st == CLOTH_OK, line, "finite non-zero axes must be accepted");
    } else {
        CHECK_AT(st == CLOTH_OK || st == CLOTH_ERR_INVALID_ARGUMENT, line, "axis");
    }
    if (st != CLOTH_OK || !c) {
        return;
    }
    lu = sqrt((double)u[0] * (double)u[0] + (double)u[1] * (double)u[1] + (double)u[2] * (double)u[2]);
    lv = sqrt((double)v[0] * (double)v[0] + (double)v[1] * (double)v[1] + (double)v[2] * (double)v[2]);
    for (k = 0; k < 3; ++k) {
        un[k] = (double)u[k] / lu;
        vn[k] = (double)v[k] / lv;
    }
    CHECK_AT(cloth_get_positions(c, pos, 0) == CLOTH_OK, line, "get_positions");
    for (r = 0; r < ROWS; ++r) {
        for (cc = 0; cc < COLS; ++cc) {
            for (k = 0; k < 3; ++k) {
                double e = (double)cc * 0.05 * un[k] + (double)r * 0.05 * vn[k];
                double g = (double)pos[3u * (r * COLS + cc) + k];
                if (!(fabs(g - e) <= 1e-6)) {
                    CHECK_AT(0, line, "placement with extreme axis length");
                    cloth_destroy(c);
                    return;
                }
            }
        }
    }
    CHECK_AT(1, line, "placement");
    cloth_destroy(c);
}

static void test_create_refusals(void)
{
    static int dummy_object;
    cloth_grid_desc d, base;
    cloth_t *out;
    counter cnt;
    cloth_allocator hooks, only_alloc, only_free, neither;
    size_t i, k;
    const float neg_or_zero[] = {0.0f, -0.0f, -0.05f, -FLT_MIN, -1e30f};

    small_desc(&base);

    /* NULL desc / NULL out */
    out = (cloth_t *)(void *)&dummy_object;
    CHECK_STATUS(test_create_grid(NULL, &out), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(out == NULL);
    CHECK_STATUS(test_create_grid(NULL, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    {
        counter_init(&cnt);
        hooks.alloc = counting_alloc;
        hooks.free = counting_free;
        hooks.user = &cnt;
        d = base;
        d.allocator = &hooks;
        CHECK_STATUS(test_create_grid(&d, NULL), CLOTH_ERR_INVALID_ARGUMENT);
        check_counter_clean(&cnt, __LINE__, "create with NULL out");
        counter_release(&cnt);
    }

    /* sizes */
    d = base; d.rows = 0; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.cols = 0; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.rows = 0; d.cols = 0; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.rows = 1; d.cols = 1; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.rows = 0; d.cols = 7; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    /* more than 2^26 particles, including products that overflow 32 bits */
    d = base; d.rows = (1u << 26) + 1u; d.cols = 1; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.rows = 1u << 13; d.cols = (1u << 13) + 1u; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.rows = 65536u; d.cols = 65536u; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.rows = 65536u; d.cols = 65537u; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.rows = UINT32_MAX; d.cols = 2; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.rows = 2; d.cols = UINT32_MAX; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.rows = UINT32_MAX; d.cols = UINT32_MAX; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);

    /* spacing and mass: not finite or not positive */
    for (i = 0; i < 3; ++i) {
        d = base; d.spacing = k_nonfinite[i]; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
        d = base; d.particle_mass = k_nonfinite[i]; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    }
    for (i = 0; i < sizeof neg_or_zero / sizeof neg_or_zero[0]; ++i) {
        d = base; d.spacing = neg_or_zero[i]; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
        d = base; d.particle_mass = neg_or_zero[i]; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    }

    /* origin and axes: every component NaN / +Inf / -Inf */
    for (k = 0; k < 3; ++k) {
        for (i = 0; i < 3; ++i) {
            d = base; d.origin[k] = k_nonfinite[i]; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
            d = base; d.u_axis[k] = k_nonfinite[i]; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
            d = base; d.v_axis[k] = k_nonfinite[i]; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
        }
    }
    /* zero axes */
    d = base; memset(d.u_axis, 0, sizeof d.u_axis); CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; memset(d.v_axis, 0, sizeof d.v_axis); CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.u_axis[0] = -0.0f; d.u_axis[1] = -0.0f; d.u_axis[2] = -0.0f;
    CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    /* parallel axes: equal, opposite, scaled */
    d = base; memcpy(d.v_axis, d.u_axis, sizeof d.v_axis); CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.v_axis[0] = -1.0f; d.v_axis[1] = 0.0f; d.v_axis[2] = 0.0f;
    CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.u_axis[0] = 0.3f; d.u_axis[1] = -0.6f; d.u_axis[2] = 0.9f;
    d.v_axis[0] = 3.0f; d.v_axis[1] = -6.0f; d.v_axis[2] = 9.0f;
    CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.u_axis[0] = 0.0f; d.u_axis[1] = 2.0f; d.u_axis[2] = 0.0f;
    d.v_axis[0] = 0.0f; d.v_axis[1] = -0.5f; d.v_axis[2] = 0.0f;
    CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);

    /* Axes that are finite and non-zero but whose squared length overflows or
     * underflows in float: accepted, and normalised correctly. */
    {
        const float huge_u[3] = {1e30f, 0.0f, 0.0f}, unit_v[3] = {0.0f, 0.0f, 1.0f};
        const float tiny_u[3] = {1e-30f, 0.0f, 0.0f};
        const float huge_v[3] = {0.0f, 3e30f, 4e30f}, unit_u[3] = {1.0f, 0.0f, 0.0f};
        create_axis_robust_at(huge_u, unit_v, 1, __LINE__);
        create_axis_robust_at(unit_u, huge_v, 1, __LINE__);
        create_axis_robust_at(tiny_u, unit_v, 1, __LINE__);
    }

    /* neighbours: 12 or 24 only */
    {
        const uint32_t bad_nb[] = {0u, 1u, 4u, 8u, 11u, 13u, 16u, 20u, 23u, 25u, 48u, UINT32_MAX};
        cloth_t *c = NULL;
        uint32_t count12, count24;
        CHECK(base.neighbours == 12u);
        for (i = 0; i < sizeof bad_nb / sizeof bad_nb[0]; ++i) {
            d = base; d.neighbours = bad_nb[i]; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
        }
        d = base;
        CHECK_OK(test_create_grid(&d, &c));
        count12 = cloth_spring_count(c);
        /* 5 x 4: structural 5*3 + 4*4, shear 2*4*3, bend 5*2 + 3*4 */
        CHECK(count12 == 31u + 24u + 22u);
        cloth_destroy(c);
        c = NULL;
        d = base; d.neighbours = 24u;
        CHECK_OK(test_create_grid(&d, &c));
        count24 = cloth_spring_count(c);
        CHECK(count24 > count12);
        cloth_destroy(c);
        /* A struct that ends before `neighbours` (a program built before the
         * field existed): accepted with the default 12 and the field never
         * read, or refused as too small. */
        c = NULL;
        d = base;
        d.neighbours = 7u; /* invalid if it were read */
        d.struct_size = (uint32_t)offsetof(cloth_grid_desc, neighbours);
        {
            cloth_status st = test_create_grid(&d, &c);
            CHECK(st == CLOTH_OK || st == CLOTH_ERR_INVALID_ARGUMENT);
            if (st == CLOTH_OK) {
                CHECK(cloth_spring_count(c) == count12);
                printf("note: struct_size = offsetof(neighbours) is accepted (neighbours defaulted)\n");
            } else {
                CHECK(c == NULL);
                printf("note: struct_size = offsetof(neighbours) is refused as too small\n");
            }
        }
        cloth_destroy(c);
    }

    /* struct_size: smaller than any version / larger than this library knows */
    d = base; d.struct_size = 0; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.struct_size = 4; CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.struct_size = (uint32_t)offsetof(cloth_grid_desc, struct_size);
    CREATE_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.struct_size = (uint32_t)sizeof(cloth_grid_desc) + 1u; CREATE_REFUSED(&d, CLOTH_ERR_UNSUPPORTED);
    d = base; d.struct_size = (uint32_t)sizeof(cloth_grid_desc) + 8u; CREATE_REFUSED(&d, CLOTH_ERR_UNSUPPORTED);
    d = base; d.struct_size = 4096u; CREATE_REFUSED(&d, CLOTH_ERR_UNSUPPORTED);
    d = base; d.struct_size = UINT32_MAX; CREATE_REFUSED(&d, CLOTH_ERR_UNSUPPORTED);
    /* A struct that ends before `allocator` (an older program, if this library
     * considers that a version): either refused as too small, or accepted with
     * the default allocator, never reading the field. */
    {
        cloth_t *c = NULL;
        cloth_status st;
        counter_init(&cnt);
        hooks.alloc = counting_alloc;
        hooks.free = counting_free;
        hooks.user = &cnt;
        d = base;
        d.allocator = &hooks;
        d.struct_size = (uint32_t)offsetof(cloth_grid_desc, allocator);
        st = test_create_grid(&d, &c);
        CHECK(st == CLOTH_OK || st == CLOTH_ERR_INVALID_ARGUMENT);
        CHECK(st == CLOTH_OK ? c != NULL : c == NULL);
        if (st == CLOTH_OK) {
            printf("note: struct_size = offsetof(allocator) is accepted (allocator field ignored)\n");
        } else {
            printf("note: struct_size = offsetof(allocator) is refused as too small\n");
        }
        cloth_destroy(c);
        CHECK(cnt.allocs == 0);
        counter_release(&cnt);
    }

    /* allocator with only one hook; none at all means the default */
    counter_init(&cnt);
    only_alloc.alloc = counting_alloc;
    only_alloc.free = NULL;
    only_alloc.user = &cnt;
    only_free.alloc = NULL;
    only_free.free = counting_free;
    only_free.user = &cnt;
    neither.alloc = NULL;
    neither.free = NULL;
    neither.user = &cnt;
    d = base; d.allocator = &only_alloc; create_refused_at(&d, CLOTH_ERR_INVALID_ARGUMENT, __LINE__, 0);
    d = base; d.allocator = &only_free; create_refused_at(&d, CLOTH_ERR_INVALID_ARGUMENT, __LINE__, 0);
    CHECK(cnt.allocs == 0 && cnt.frees == 0);
    {
        cloth_t *c = NULL;
        d = base;
        d.allocator = &neither;
        CHECK_OK(test_create_grid(&d, &c));
        CHECK(c != NULL);
        cloth_destroy(c);
    }
    counter_release(&cnt);

    /* the smallest valid grids */
    {
        cloth_t *c = NULL;
        d = base; d.rows = 1; d.cols = 2;
        CHECK_OK(test_create_grid(&d, &c));
        CHECK(cloth_particle_count(c) == 2u);
        CHECK(cloth_triangle_count(c) == 0u);
        cloth_destroy(c);
        c = NULL;
        d = base; d.rows = 2; d.cols = 1;
        CHECK_OK(test_create_grid(&d, &c));
        CHECK(cloth_particle_count(c) == 2u);
        CHECK(cloth_triangle_count(c) == 0u);
        cloth_destroy(c);
    }
}

/* ------------------------------------------------------------------------- */
/* Allocator                                                                  */
/* ------------------------------------------------------------------------- */

static void test_allocator(void)
{
    cloth_grid_desc d;
    counter cnt, poison;
    cloth_allocator hooks;
    cloth_t *c = NULL;
    const float ctr[3] = {0.05f, -0.2f, 0.05f}, pt[3] = {0.0f, -1.0f, 0.0f}, nrm[3] = {0.0f, 1.0f, 0.0f};
    cloth_collider_id id;
    uint32_t i;

    counter_init(&cnt);
    counter_init(&poison);
    hooks.alloc = counting_alloc;
    hooks.free = counting_free;
    hooks.user = &cnt;
    small_desc(&d);
    d.allocator = &hooks;
    CHECK_OK(test_create_grid(&d, &c));
    CHECK(c != NULL);
    CHECK(cnt.allocs >= 1u); /* it does go through the hooks */
    CHECK(cnt.outstanding > 0u);

    /* "copied at creation": the struct may change or die afterwards */
    hooks.user = &poison;

    /* grow every table: pins, colliders; step; then destroy */
    for (i = 0; i < NP; ++i) {
        CHECK_OK(cloth_pin(c, i, NULL));
    }
    for (i = 0; i < NP; i += 2) {
        CHECK_OK(cloth_unpin(c, i));
    }
    for (i = 0; i < 40; ++i) {
        CHECK_OK(cloth_add_sphere(c, ctr, 0.1f, &id));
        if (i % 3u == 0u) {
            CHECK_OK(cloth_remove_collider(c, id));
        }
    }
    CHECK_OK(cloth_add_plane(c, pt, nrm, &id));
    for (i = 0; i < 5; ++i) {
        CHECK_OK(cloth_step(c, DT));
    }
    cloth_destroy(c);
    CHECK(poison.allocs == 0 && poison.frees == 0);
    check_counter_clean(&cnt, __LINE__, "create/use/destroy with a counting allocator");
    printf("allocator: %zu allocations, alignments requested %zu..%zu\n", cnt.allocs,
           cnt.min_alignment, cnt.max_alignment);
    counter_release(&cnt);
    counter_release(&poison);
}

/* Fail the k-th allocation (and every later one) for k = 1, 2, ... until
 * test_create_grid() succeeds: every failure is OUT_OF_MEMORY with *out NULL
 * and nothing leaked. */
static void test_alloc_failures(void)
{
    static int dummy_object;
    cloth_grid_desc d;
    counter cnt;
    cloth_allocator hooks;
    size_t k;
    int succeeded = 0;
    for (k = 1; k <= 64 && !succeeded; ++k) {
        cloth_t *c = (cloth_t *)(void *)&dummy_object;
        cloth_status st;
        counter_init(&cnt);
        cnt.fail_from = k;
        hooks.alloc = counting_alloc;
        hooks.free = counting_free;
        hooks.user = &cnt;
        small_desc(&d);
        d.allocator = &hooks;
        st = cloth_create_grid(&d, &c);
        if (st == CLOTH_OK) {
            succeeded = 1;
            CHECK(c != NULL && c != (cloth_t *)(void *)&dummy_object);
            CHECK(cnt.failed == 0); /* it made fewer than k allocations */
            cloth_destroy(c);
        } else {
            CHECK_STATUS(st, CLOTH_ERR_OUT_OF_MEMORY);
            CHECK(c == NULL);
            CHECK(cnt.failed >= 1u);
        }
        check_counter_clean(&cnt, __LINE__, "allocation failure during create");
        counter_release(&cnt);
    }
    CHECK(succeeded);
    printf("alloc failures: create needs %zu allocation(s)\n", k - 2u);

    /* After creation, with every allocation failing: parameters, state access
     * and stepping never need memory (none of them documents OUT_OF_MEMORY);
     * pins and colliders either succeed or fail with OUT_OF_MEMORY having
     * changed nothing. Mirror every accepted call on a twin using malloc and
     * compare bitwise. */
    {
        cloth_t *a = NULL, *b = NULL;
        float pos[NF], vel[NF];
        const float g[3] = {0.5f, -9.0f, 0.1f};
        const float ctr[3] = {0.075f, -0.06f, 0.1f}, pt[3] = {0.0f, -0.01f, 0.0f}, nrm[3] = {0.0f, 1.0f, 0.0f};
        const float tgt[3] = {0.0f, 0.03f, 0.0f};
        cloth_collider_id ida, idb;
        cloth_status st;
        uint32_t i;
        int s;
        counter_init(&cnt);
        hooks.alloc = counting_alloc;
        hooks.free = counting_free;
        hooks.user = &cnt;
        small_desc(&d);
        d.allocator = &hooks;
        CHECK_OK(test_create_grid(&d, &a));
        small_desc(&d);
        CHECK_OK(test_create_grid(&d, &b));
        if (a && b) {
            cnt.fail_from = cnt.allocs + 1u;
            CHECK_OK(cloth_set_gravity(a, g));
            CHECK_OK(cloth_set_gravity(b, g));
            CHECK_OK(cloth_set_damping(a, 0.5f));
            CHECK_OK(cloth_set_damping(b, 0.5f));
            CHECK_OK(cloth_set_stiffness(a, CLOTH_SPRING_SHEAR, 30.0f));
            CHECK_OK(cloth_set_stiffness(b, CLOTH_SPRING_SHEAR, 30.0f));
            CHECK_OK(cloth_set_spring_damping(a, CLOTH_SPRING_BEND, 0.002f));
            CHECK_OK(cloth_set_spring_damping(b, CLOTH_SPRING_BEND, 0.002f));
            CHECK_OK(cloth_set_substeps(a, 20));
            CHECK_OK(cloth_set_substeps(b, 20));
            CHECK_OK(cloth_set_iterations(a, 3));
            CHECK_OK(cloth_set_iterations(b, 3));
            {
                const cloth_integrator kinds[5] = {CLOTH_INTEGRATOR_PBD, CLOTH_INTEGRATOR_SEMIRIGID,
                                                   CLOTH_INTEGRATOR_RELAXATION, CLOTH_INTEGRATOR_TRAPEZOID,
                                                   CLOTH_INTEGRATOR_VERLET};
                const float wind[3] = {0.5f, 0.0f, 1.0f};
                cloth_integrator before, after;
                for (i = 0; i < 5; ++i) {
                    CHECK_OK(cloth_get_integrator(a, &before));
                    st = cloth_set_integrator(a, kinds[i]);
                    CHECK(st == CLOTH_OK || st == CLOTH_ERR_OUT_OF_MEMORY);
                    if (st == CLOTH_OK) {
                        CHECK_OK(cloth_set_integrator(b, kinds[i]));
                    } else {
                        CHECK_OK(cloth_get_integrator(a, &after));
                        CHECK(after == before);
                    }
                }
                /* constant wind documents no OUT_OF_MEMORY */
                CHECK_OK(cloth_set_constant_wind(a, wind));
                CHECK_OK(cloth_set_constant_wind(b, wind));
                /* hooks may fail to get their scratch buffers; nothing changes then */
                st = cloth_set_wind(a, const_wind_hook, NULL);
                CHECK(st == CLOTH_OK || st == CLOTH_ERR_OUT_OF_MEMORY);
                if (st == CLOTH_OK) {
                    CHECK_OK(cloth_set_wind(b, const_wind_hook, NULL));
                }
                st = cloth_set_external_force(a, small_force, NULL);
                CHECK(st == CLOTH_OK || st == CLOTH_ERR_OUT_OF_MEMORY);
                if (st == CLOTH_OK) {
                    CHECK_OK(cloth_set_external_force(b, small_force, NULL));
                }
                CHECK(same_state(a, b));
            }
            CHECK_OK(cloth_get_positions(a, pos, 0));
            CHECK_OK(cloth_get_normals(a, vel, 12));
            for (i = 0; i < NF; ++i) {
                vel[i] = 0.01f * (float)(i % 4u);
            }
            CHECK_OK(cloth_set_velocities(a, vel, 0));
            CHECK_OK(cloth_set_velocities(b, vel, 0));
            for (i = 0; i < NP; ++i) {
                st = cloth_pin(a, i, (i == 0) ? tgt : NULL);
                CHECK(st == CLOTH_OK || st == CLOTH_ERR_OUT_OF_MEMORY);
                if (st == CLOTH_OK) {
                    CHECK_OK(cloth_pin(b, i, (i == 0) ? tgt : NULL));
                } else {
                    CHECK(same_state(a, b));
                }
                if (i % 2u == 1u) {
                    CHECK_OK(cloth_unpin(a, i));
                    CHECK_OK(cloth_unpin(b, i));
                }
            }
            for (i = 0; i < 20; ++i) {
                st = cloth_add_sphere(a, ctr, 0.05f + 0.001f * (float)i, &ida);
                CHECK(st == CLOTH_OK || st == CLOTH_ERR_OUT_OF_MEMORY);
                if (st == CLOTH_OK) {
                    CHECK_OK(cloth_add_sphere(b, ctr, 0.05f + 0.001f * (float)i, &idb));
                    CHECK(ida == idb);
                }
                st = cloth_add_plane(a, pt, nrm, &ida);
                CHECK(st == CLOTH_OK || st == CLOTH_ERR_OUT_OF_MEMORY);
                if (st == CLOTH_OK) {
                    CHECK_OK(cloth_add_plane(b, pt, nrm, &idb));
                    CHECK(ida == idb);
                }
                st = cloth_add_capsule(a, ctr, pt, 0.01f, &ida);
                CHECK(st == CLOTH_OK || st == CLOTH_ERR_OUT_OF_MEMORY);
                if (st == CLOTH_OK) {
                    CHECK_OK(cloth_add_capsule(b, ctr, pt, 0.01f, &idb));
                    CHECK(ida == idb);
                }
            }
            for (s = 0; s < 4; ++s) {
                CHECK_OK(cloth_step(a, DT));
                CHECK_OK(cloth_step(b, DT));
            }
            CHECK(same_state(a, b));
            printf("allocation failing after create: %zu call(s) attempted, %zu failed\n",
                   cnt.allocs - (cnt.fail_from - 1u), cnt.failed);
        }
        cloth_destroy(a);
        cloth_destroy(b);
        check_counter_clean(&cnt, __LINE__, "allocation failure after create");
        counter_release(&cnt);
    }
}

/* ------------------------------------------------------------------------- */
/* NULL cloth everywhere                                                      */
/* ------------------------------------------------------------------------- */

static void dummy_wind(void *user, float time, uint32_t count, const float *positions, float *wind_velocity)
{
    uint32_t i;
    (void)user;
    (void)time;
    (void)positions;
    ++wind_calls;
    for (i = 0; i < 3u * count; ++i) {
        wind_velocity[i] = 1.0f;
    }
}

static void test_null_cloth(void)
{
    float buf[NF + 16];
    float ref[NF + 16];
    uint32_t tri[64];
    const float v3[3] = {0.0f, -9.81f, 0.0f}, r3[3] = {0.1f, 0.1f, 0.1f}, q[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    const float n3[3] = {0.0f, 1.0f, 0.0f};
    cloth_collider_id id = 1234u;

    memset(buf, 0xAB, sizeof buf);
    memcpy(ref, buf, sizeof ref);
    CHECK_STATUS(cloth_set_stiffness(NULL, CLOTH_SPRING_STRUCTURAL, 10.0f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_spring_damping(NULL, CLOTH_SPRING_STRUCTURAL, 0.001f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_gravity(NULL, v3), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_gravity(NULL, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_damping(NULL, 0.1f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_substeps(NULL, 4), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_iterations(NULL, 4), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_integrator(NULL, CLOTH_INTEGRATOR_EXPLICIT_EULER), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_integrator(NULL, CLOTH_INTEGRATOR_PBD), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_step(NULL, DT), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_positions(NULL, buf, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_positions(NULL, buf, 16), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_normals(NULL, buf, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_velocities(NULL, buf, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(memcmp(buf, ref, sizeof buf) == 0);
    memset(tri, 0xAB, sizeof tri);
    CHECK_STATUS(cloth_get_triangles(NULL, tri), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(tri[0] == 0xABABABABu && tri[63] == 0xABABABABu);
    CHECK_STATUS(cloth_set_positions(NULL, buf, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_velocities(NULL, buf, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_pin(NULL, 0, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_pin(NULL, 0, v3), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_unpin(NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_add_sphere(NULL, v3, 0.1f, &id), CLOTH_ERR_INVALID_ARGUMENT);
    /* NULL cloth is INVALID_ARGUMENT, not UNSUPPORTED */
    CHECK_STATUS(cloth_add_ellipsoid(NULL, v3, r3, q, &id), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_add_ellipsoid(NULL, v3, r3, NULL, &id), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_add_plane(NULL, v3, n3, &id), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(id == 1234u);
    CHECK_STATUS(cloth_set_collider_friction(NULL, 0, 0.5f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_collider_thickness(NULL, 0, 0.01f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_remove_collider(NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_wind(NULL, NULL, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_wind(NULL, dummy_wind, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(wind_calls == 0);
}

/* ------------------------------------------------------------------------- */
/* Parameters                                                                 */
/* ------------------------------------------------------------------------- */

static void test_params(void)
{
    const cloth_spring_type types[3] = {CLOTH_SPRING_STRUCTURAL, CLOTH_SPRING_SHEAR, CLOTH_SPRING_BEND};
    const float negatives[] = {-1.0f, -FLT_MIN, -1e30f};
    size_t t, i, k;

    /* stiffness and spring damping: unknown type, negative / non-finite */
    TWIN(cloth_set_stiffness(TA.c, (cloth_spring_type)3, 10.0f), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_stiffness(TA.c, (cloth_spring_type)99, 10.0f), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_stiffness(TA.c, (cloth_spring_type)-1, 10.0f), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_stiffness(TA.c, CLOTH_SPRING_FORCE32, 10.0f), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_spring_damping(TA.c, (cloth_spring_type)3, 0.01f), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_spring_damping(TA.c, (cloth_spring_type)99, 0.01f), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_spring_damping(TA.c, CLOTH_SPRING_FORCE32, 0.01f), CLOTH_ERR_INVALID_ARGUMENT);
    for (t = 0; t < 3; ++t) {
        for (i = 0; i < 3; ++i) {
            TWIN(cloth_set_stiffness(TA.c, types[t], k_nonfinite[i]), CLOTH_ERR_INVALID_ARGUMENT);
            TWIN(cloth_set_spring_damping(TA.c, types[t], k_nonfinite[i]), CLOTH_ERR_INVALID_ARGUMENT);
        }
        for (i = 0; i < sizeof negatives / sizeof negatives[0]; ++i) {
            TWIN(cloth_set_stiffness(TA.c, types[t], negatives[i]), CLOTH_ERR_INVALID_ARGUMENT);
            TWIN(cloth_set_spring_damping(TA.c, types[t], negatives[i]), CLOTH_ERR_INVALID_ARGUMENT);
        }
    }

    /* gravity: NULL, every component non-finite */
    TWIN(cloth_set_gravity(TA.c, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    for (k = 0; k < 3; ++k) {
        for (i = 0; i < 3; ++i) {
            float g[3] = {1.0f, -5.0f, 2.0f};
            g[k] = k_nonfinite[i];
            TWIN(cloth_set_gravity(TA.c, g), CLOTH_ERR_INVALID_ARGUMENT);
        }
    }

    /* velocity damping */
    for (i = 0; i < 3; ++i) {
        TWIN(cloth_set_damping(TA.c, k_nonfinite[i]), CLOTH_ERR_INVALID_ARGUMENT);
    }
    for (i = 0; i < sizeof negatives / sizeof negatives[0]; ++i) {
        TWIN(cloth_set_damping(TA.c, negatives[i]), CLOTH_ERR_INVALID_ARGUMENT);
    }

    /* substeps and iterations: 1..1024 */
    TWIN(cloth_set_substeps(TA.c, 1025), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_substeps(TA.c, 65536), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_substeps(TA.c, UINT32_MAX), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_iterations(TA.c, 1025), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_iterations(TA.c, UINT32_MAX), CLOTH_ERR_INVALID_ARGUMENT);
    /* the bounds themselves are accepted */
    {
        cloth_t *c = NULL;
        cloth_grid_desc d;
        small_desc(&d);
        CHECK_OK(test_create_grid(&d, &c));
        CHECK_OK(cloth_set_substeps(c, 1));
        CHECK_OK(cloth_set_substeps(c, 1024));
        CHECK_OK(cloth_set_iterations(c, 1));
        CHECK_OK(cloth_set_iterations(c, 1024));
        CHECK_OK(cloth_set_damping(c, 0.0f));
        CHECK_OK(cloth_set_stiffness(c, CLOTH_SPRING_BEND, 0.0f));
        CHECK_OK(cloth_set_spring_damping(c, CLOTH_SPRING_BEND, 0.0f));
        CHECK_OK(cloth_set_integrator(c, CLOTH_INTEGRATOR_EXPLICIT_EULER));
        CHECK_OK(cloth_set_integrator(c, CLOTH_INTEGRATOR_TRAPEZOID));
        CHECK_OK(cloth_set_integrator(c, CLOTH_INTEGRATOR_VERLET));
        cloth_destroy(c);
    }

    /* the same accepted value on both twins keeps them identical */
    TWIN(cloth_set_iterations(TA.c, 8), CLOTH_OK);

    /* integrators: unknown kinds, and CUSTOM, which only
     * cloth_set_custom_integrator() installs */
    TWIN(cloth_set_integrator(TA.c, (cloth_integrator)64), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_integrator(TA.c, (cloth_integrator)99), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_integrator(TA.c, (cloth_integrator)254), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_integrator(TA.c, CLOTH_INTEGRATOR_CUSTOM), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_integrator(TA.c, (cloth_integrator)256), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_integrator(TA.c, (cloth_integrator)-1), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_integrator(TA.c, CLOTH_INTEGRATOR_FORCE32), CLOTH_ERR_INVALID_ARGUMENT);
    /* the same refusals with a PBD twin (the previous integrator stays) */
    busy_kind = CLOTH_INTEGRATOR_PBD;
    TWIN(cloth_set_integrator(TA.c, CLOTH_INTEGRATOR_CUSTOM), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_integrator(TA.c, (cloth_integrator)64), CLOTH_ERR_INVALID_ARGUMENT);
    busy_kind = CLOTH_INTEGRATOR_EXPLICIT_EULER;
}

/* ------------------------------------------------------------------------- */
/* Stepping                                                                   */
/* ------------------------------------------------------------------------- */

static void test_step(void)
{
    const float bad_dt[] = {0.0f, -0.0f, -DT, -1.0f, -FLT_MIN, 1.0000001f, 1.5f, 2.0f, 1e30f, FLT_MAX,
                            NAN, INFINITY, -INFINITY};
    size_t i;
    for (i = 0; i < sizeof bad_dt / sizeof bad_dt[0]; ++i) {
        TWIN(cloth_step(TA.c, bad_dt[i]), CLOTH_ERR_INVALID_ARGUMENT);
    }
    CHECK(1.0000001f > 1.0f);

    /* dt = 1 is in range: OK, or UNSTABLE with the state kept */
    {
        busy a = make_busy(NULL);
        float pos[NF], vel[NF];
        cloth_status st;
        if (a.c) {
            CHECK(read_state(a.c, pos, vel));
            st = cloth_step(a.c, 1.0f);
            CHECK(st == CLOTH_OK || st == CLOTH_ERR_UNSTABLE);
            if (st == CLOTH_ERR_UNSTABLE) {
                CHECK(state_equals(a.c, pos, vel));
            }
        }
        busy_free(&a);
    }

    /* A step that blows up returns UNSTABLE and restores everything: after
     * putting the stiffness back, TA steps exactly like its twin. */
    twin_begin();
    if (TA.c) {
        CHECK_OK(cloth_set_stiffness(TA.c, CLOTH_SPRING_STRUCTURAL, 1e30f));
        CHECK_STATUS(cloth_step(TA.c, DT), CLOTH_ERR_UNSTABLE);
        CHECK_OK(cloth_set_stiffness(TA.c, CLOTH_SPRING_STRUCTURAL, 50.0f)); /* the documented default */
    }
    twin_end(__LINE__);
    /* Huge (finite) velocities: the springs' forces overflow within the step.
     * The state with those velocities is kept; putting the old velocities back
     * makes TA the twin of TB again, after switching integrators both ways. */
    twin_begin();
    if (TA.c) {
        float pos[NF], vel[NF], big[NF];
        uint32_t j;
        CHECK(read_state(TA.c, pos, vel));
        memcpy(big, vel, sizeof big);
        for (j = 5; j < NP; j += 3) {
            big[3u * j] = FLT_MAX;
            big[3u * j + 1u] = -FLT_MAX;
        }
        CHECK_OK(cloth_set_integrator(TA.c, CLOTH_INTEGRATOR_VERLET));
        CHECK_OK(cloth_set_velocities(TA.c, big, 0));
        CHECK_STATUS(cloth_step(TA.c, DT), CLOTH_ERR_UNSTABLE);
        CHECK(state_equals(TA.c, pos, big));
        CHECK_STATUS(cloth_step(TA.c, DT), CLOTH_ERR_UNSTABLE);
        CHECK(state_equals(TA.c, pos, big));
        CHECK_OK(cloth_set_velocities(TA.c, vel, 0));
        CHECK_OK(cloth_set_integrator(TA.c, CLOTH_INTEGRATOR_EXPLICIT_EULER));
    }
    twin_end(__LINE__);
}

/* ------------------------------------------------------------------------- */
/* State access                                                               */
/* ------------------------------------------------------------------------- */

/* A getter refused for a bad stride or buffer leaves the buffer alone. */
static void getter_refused_at(cloth_status (*get)(const cloth_t *, float *, size_t), size_t stride, int line)
{
    busy a = make_busy(NULL);
    unsigned char buf[32 * NP + 64], ref[32 * NP + 64];
    float pos[NF], vel[NF];
    cloth_status st;
    if (!a.c) {
        return;
    }
    CHECK_AT(read_state(a.c, pos, vel), line, "read");
    memset(buf, 0xAB, sizeof buf);
    memcpy(ref, buf, sizeof ref);
    st = get(a.c, (float *)(void *)buf, stride);
    CHECK_AT(st == CLOTH_ERR_INVALID_ARGUMENT, line, cloth_status_string(st));
    CHECK_AT(memcmp(buf, ref, sizeof buf) == 0, line, "refused getter wrote into the buffer");
    CHECK_AT(state_equals(a.c, pos, vel), line, "refused getter changed the state");
    busy_free(&a);
}

static cloth_status get_pos_fn(const cloth_t *c, float *d, size_t s) { return cloth_get_positions(c, d, s); }
static cloth_status get_vel_fn(const cloth_t *c, float *d, size_t s) { return cloth_get_velocities(c, d, s); }
static cloth_status get_nrm_fn(const cloth_t *c, float *d, size_t s) { return cloth_get_normals(c, d, s); }

static void test_state_access(void)
{
    const size_t bad_strides[] = {1, 2, 3, 4, 8, 10, 11, 13, 14, 15, 17, 18, 19, 21, 33};
    size_t i, j, k;
    static float src[8 * NP + 64]; /* room for stride 32 */
    cloth_status (*const getters[3])(const cloth_t *, float *, size_t) = {get_pos_fn, get_vel_fn, get_nrm_fn};

    for (i = 0; i < sizeof bad_strides / sizeof bad_strides[0]; ++i) {
        for (j = 0; j < 3; ++j) {
            getter_refused_at(getters[j], bad_strides[i], __LINE__);
        }
        /* setters: valid data, bad stride */
        for (k = 0; k < sizeof src / sizeof src[0]; ++k) {
            src[k] = 0.01f * (float)(k % 13u);
        }
        TWIN(cloth_set_positions(TA.c, src, bad_strides[i]), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_set_velocities(TA.c, src, bad_strides[i]), CLOTH_ERR_INVALID_ARGUMENT);
    }
    /* NULL buffers */
    {
        busy a = make_busy(NULL);
        if (a.c) {
            CHECK_STATUS(cloth_get_positions(a.c, NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
            CHECK_STATUS(cloth_get_positions(a.c, NULL, 16), CLOTH_ERR_INVALID_ARGUMENT);
            CHECK_STATUS(cloth_get_velocities(a.c, NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
            CHECK_STATUS(cloth_get_normals(a.c, NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
            CHECK_STATUS(cloth_get_triangles(a.c, NULL), CLOTH_ERR_INVALID_ARGUMENT);
        }
        busy_free(&a);
    }
    /* get_triangles(NULL dst) is refused even when there are no triangles */
    {
        cloth_grid_desc d;
        cloth_t *c = NULL;
        uint32_t tri[4] = {7u, 7u, 7u, 7u};
        cloth_grid_desc_init(&d);
        d.rows = 1;
        d.cols = 6;
        CHECK_OK(test_create_grid(&d, &c));
        CHECK_STATUS(cloth_get_triangles(c, NULL), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_OK(cloth_get_triangles(c, tri));
        CHECK(tri[0] == 7u && tri[3] == 7u);
        cloth_destroy(c);
    }
    TWIN(cloth_set_positions(TA.c, NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_positions(TA.c, NULL, 16), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_velocities(TA.c, NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);

    /* non-finite values anywhere (first, middle, last float): nothing written */
    {
        const size_t where[] = {0, 1, 2, NF / 2u + 1u, NF - 2u, NF - 1u};
        for (i = 0; i < sizeof where / sizeof where[0]; ++i) {
            for (j = 0; j < 3; ++j) {
                float p[NF];
                for (k = 0; k < NF; ++k) {
                    p[k] = 0.02f * (float)(k % 11u) - 0.05f;
                }
                p[where[i]] = k_nonfinite[j];
                TWIN(cloth_set_positions(TA.c, p, 0), CLOTH_ERR_INVALID_ARGUMENT);
                TWIN(cloth_set_velocities(TA.c, p, 0), CLOTH_ERR_INVALID_ARGUMENT);
            }
        }
        /* same with a stride of 16: the bad value in the last record's xyz */
        for (j = 0; j < 3; ++j) {
            float p[4 * NP];
            for (k = 0; k < 4 * NP; ++k) {
                p[k] = 0.01f * (float)(k % 7u);
            }
            p[4 * (NP - 1u) + 2u] = k_nonfinite[j];
            TWIN(cloth_set_positions(TA.c, p, 16), CLOTH_ERR_INVALID_ARGUMENT);
            TWIN(cloth_set_velocities(TA.c, p, 16), CLOTH_ERR_INVALID_ARGUMENT);
        }
    }
}

/* ------------------------------------------------------------------------- */
/* Pins                                                                       */
/* ------------------------------------------------------------------------- */

static void test_pins(void)
{
    const float tgt[3] = {0.3f, 0.2f, 0.1f};
    size_t i, k;
    TWIN(cloth_pin(TA.c, NP, NULL), CLOTH_ERR_OUT_OF_RANGE);
    TWIN(cloth_pin(TA.c, NP, tgt), CLOTH_ERR_OUT_OF_RANGE);
    TWIN(cloth_pin(TA.c, NP + 1u, tgt), CLOTH_ERR_OUT_OF_RANGE);
    TWIN(cloth_pin(TA.c, 0x80000000u, tgt), CLOTH_ERR_OUT_OF_RANGE);
    TWIN(cloth_pin(TA.c, UINT32_MAX, tgt), CLOTH_ERR_OUT_OF_RANGE);
    TWIN(cloth_unpin(TA.c, NP), CLOTH_ERR_OUT_OF_RANGE);
    TWIN(cloth_unpin(TA.c, NP + 1u), CLOTH_ERR_OUT_OF_RANGE);
    TWIN(cloth_unpin(TA.c, UINT32_MAX), CLOTH_ERR_OUT_OF_RANGE);
    for (k = 0; k < 3; ++k) {
        for (i = 0; i < 3; ++i) {
            float t[3] = {0.1f, 0.2f, 0.3f};
            t[k] = k_nonfinite[i];
            TWIN(cloth_pin(TA.c, 5, t), CLOTH_ERR_INVALID_ARGUMENT); /* a free particle */
            TWIN(cloth_pin(TA.c, 0, t), CLOTH_ERR_INVALID_ARGUMENT); /* the pinned one: target kept */
        }
    }
    /* unpinning a free particle does nothing */
    TWIN(cloth_unpin(TA.c, 7), CLOTH_OK);
    TWIN(cloth_unpin(TA.c, NP - 1u), CLOTH_OK);
}

/* ------------------------------------------------------------------------- */
/* Colliders                                                                  */
/* ------------------------------------------------------------------------- */

static void test_colliders(void)
{
    /* valid arguments placed where they would matter if wrongly accepted */
    const float ctr[3] = {0.075f, 0.0f, 0.1f};
    const float radii[3] = {0.05f, 0.04f, 0.06f};
    const float quat_id[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    const float quat_45[4] = {0.0f, 0.38268343f, 0.0f, 0.92387953f};
    const float quat_zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const float ppt[3] = {0.0f, 0.01f, 0.0f}, pn[3] = {0.0f, 1.0f, 0.0f};
    const float bad_radius[] = {0.0f, -0.0f, -0.05f, -FLT_MIN, NAN, INFINITY, -INFINITY};
    const float bad_coeff[] = {-1.0f, -FLT_MIN, -1e30f, NAN, INFINITY, -INFINITY};
    cloth_collider_id id = 4321u;
    size_t i, k;

    /* sphere */
    TWIN(cloth_add_sphere(TA.c, NULL, 0.05f, &id), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_add_sphere(TA.c, ctr, 0.05f, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    for (i = 0; i < sizeof bad_radius / sizeof bad_radius[0]; ++i) {
        TWIN(cloth_add_sphere(TA.c, ctr, bad_radius[i], &id), CLOTH_ERR_INVALID_ARGUMENT);
    }
    for (k = 0; k < 3; ++k) {
        for (i = 0; i < 3; ++i) {
            float c[3];
            memcpy(c, ctr, sizeof c);
            c[k] = k_nonfinite[i];
            TWIN(cloth_add_sphere(TA.c, c, 0.05f, &id), CLOTH_ERR_INVALID_ARGUMENT);
        }
    }

    /* ellipsoid */
    TWIN(cloth_add_ellipsoid(TA.c, NULL, radii, NULL, &id), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_add_ellipsoid(TA.c, ctr, NULL, NULL, &id), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_add_ellipsoid(TA.c, ctr, radii, NULL, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_add_ellipsoid(TA.c, ctr, radii, quat_id, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    for (k = 0; k < 3; ++k) {
        for (i = 0; i < 3; ++i) {
            float c[3];
            memcpy(c, ctr, sizeof c);
            c[k] = k_nonfinite[i];
            TWIN(cloth_add_ellipsoid(TA.c, c, radii, NULL, &id), CLOTH_ERR_INVALID_ARGUMENT);
        }
        for (i = 0; i < sizeof bad_radius / sizeof bad_radius[0]; ++i) {
            float r[3];
            memcpy(r, radii, sizeof r);
            r[k] = bad_radius[i];
            TWIN(cloth_add_ellipsoid(TA.c, ctr, r, NULL, &id), CLOTH_ERR_INVALID_ARGUMENT);
        }
    }
    for (k = 0; k < 4; ++k) {
        for (i = 0; i < 3; ++i) {
            float q[4];
            memcpy(q, quat_45, sizeof q);
            q[k] = k_nonfinite[i];
            TWIN(cloth_add_ellipsoid(TA.c, ctr, radii, q, &id), CLOTH_ERR_INVALID_ARGUMENT);
        }
    }
    TWIN(cloth_add_ellipsoid(TA.c, ctr, radii, quat_zero, &id), CLOTH_ERR_INVALID_ARGUMENT);
    /* not unit: squared length more than 1e-3 away from 1 */
    {
        const float q_long[4] = {0.0f, 0.0f, 0.0f, 1.002f};   /* |q|^2 = 1.004 */
        const float q_short[4] = {0.0f, 0.0f, 0.0f, 0.998f};  /* |q|^2 = 0.996 */
        const float q_half[4] = {0.5f, 0.0f, 0.0f, 0.0f};
        const float q_ok[4] = {0.0f, 0.0f, 0.0f, 1.0002f};    /* |q|^2 = 1.0004: accepted */
        const float q_huge[4] = {0.0f, 3e38f, 0.0f, 3e38f};   /* squared length overflows */
        cloth_status st;
        TWIN(cloth_add_ellipsoid(TA.c, ctr, radii, q_long, &id), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_add_ellipsoid(TA.c, ctr, radii, q_short, &id), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_add_ellipsoid(TA.c, ctr, radii, q_half, &id), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_add_ellipsoid(TA.c, ctr, radii, q_huge, &id), CLOTH_ERR_INVALID_ARGUMENT);
        twin_begin();
        if (TA.c) {
            st = cloth_add_ellipsoid(TA.c, ctr, radii, q_ok, &id);
            CHECK_STATUS(st, CLOTH_OK);
            if (st == CLOTH_OK) {
                CHECK_OK(cloth_remove_collider(TA.c, id));
                CHECK_OK(cloth_add_ellipsoid(TB.c, ctr, radii, q_ok, &id));
                CHECK_OK(cloth_remove_collider(TB.c, id));
            }
        }
        twin_end(__LINE__);
    }
    /* valid ellipsoids are accepted now */
    {
        busy a = make_busy(NULL);
        if (a.c) {
            CHECK_OK(cloth_add_ellipsoid(a.c, ctr, radii, NULL, &id));
            CHECK_OK(cloth_add_ellipsoid(a.c, ctr, radii, quat_id, &id));
            CHECK_OK(cloth_add_ellipsoid(a.c, ctr, radii, quat_45, &id));
            CHECK_OK(cloth_step(a.c, DT));
        }
        busy_free(&a);
    }

    /* plane */
    TWIN(cloth_add_plane(TA.c, NULL, pn, &id), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_add_plane(TA.c, ppt, NULL, &id), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_add_plane(TA.c, ppt, pn, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    {
        const float zero[3] = {0.0f, 0.0f, 0.0f}, mzero[3] = {-0.0f, 0.0f, -0.0f};
        TWIN(cloth_add_plane(TA.c, ppt, zero, &id), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_add_plane(TA.c, ppt, mzero, &id), CLOTH_ERR_INVALID_ARGUMENT);
    }
    for (k = 0; k < 3; ++k) {
        for (i = 0; i < 3; ++i) {
            float p[3], n[3];
            memcpy(p, ppt, sizeof p);
            memcpy(n, pn, sizeof n);
            p[k] = k_nonfinite[i];
            TWIN(cloth_add_plane(TA.c, p, pn, &id), CLOTH_ERR_INVALID_ARGUMENT);
            n[k] = k_nonfinite[i];
            TWIN(cloth_add_plane(TA.c, ppt, n, &id), CLOTH_ERR_INVALID_ARGUMENT);
        }
    }

    /* friction / thickness: bad values on a live id */
    for (i = 0; i < sizeof bad_coeff / sizeof bad_coeff[0]; ++i) {
        TWIN(cloth_set_collider_friction(TA.c, TA.plane, bad_coeff[i]), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_set_collider_friction(TA.c, TA.sphere, bad_coeff[i]), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_set_collider_thickness(TA.c, TA.plane, bad_coeff[i]), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_set_collider_thickness(TA.c, TA.sphere, bad_coeff[i]), CLOTH_ERR_INVALID_ARGUMENT);
    }

    /* stale, unknown ids */
    {
        cloth_collider_id unknown[6];
        size_t n = 0;
        twin_begin();
        if (TA.c) {
            cloth_collider_id mx = TA.plane;
            if (TA.sphere > mx) mx = TA.sphere;
            if (TA.removed > mx) mx = TA.removed;
            if (TA.torus > mx) mx = TA.torus;
            CHECK(TA.plane != TA.sphere && TA.sphere != TA.removed && TA.plane != TA.removed);
            unknown[n++] = TA.removed;
            unknown[n++] = mx + 1u;
            unknown[n++] = mx + 100u;
            unknown[n++] = 0xFFFFu;
            unknown[n++] = 0x10000u;
            unknown[n++] = UINT32_MAX;
        }
        twin_end(__LINE__);
        for (i = 0; i < n; ++i) {
            TWIN(cloth_set_collider_friction(TA.c, unknown[i], 0.5f), CLOTH_ERR_OUT_OF_RANGE);
            TWIN(cloth_set_collider_thickness(TA.c, unknown[i], 0.01f), CLOTH_ERR_OUT_OF_RANGE);
            TWIN(cloth_remove_collider(TA.c, unknown[i]), CLOTH_ERR_OUT_OF_RANGE);
        }
    }
    /* removing twice: the second is refused; the removed id is never reused */
    twin_begin();
    if (TA.c && TB.c) {
        cloth_collider_id id2 = 0;
        CHECK_OK(cloth_remove_collider(TA.c, TA.sphere));
        CHECK_OK(cloth_remove_collider(TB.c, TB.sphere));
        CHECK_STATUS(cloth_remove_collider(TA.c, TA.sphere), CLOTH_ERR_OUT_OF_RANGE);
        CHECK_STATUS(cloth_set_collider_friction(TA.c, TA.sphere, 0.1f), CLOTH_ERR_OUT_OF_RANGE);
        CHECK_STATUS(cloth_set_collider_thickness(TA.c, TA.sphere, 0.1f), CLOTH_ERR_OUT_OF_RANGE);
        CHECK_OK(cloth_add_sphere(TB.c, ctr, 0.01f, &id2));
        CHECK(id2 != TB.sphere && id2 != TB.removed && id2 != TB.plane);
        CHECK_OK(cloth_remove_collider(TB.c, id2));
        CHECK_OK(cloth_add_sphere(TA.c, ctr, 0.01f, &id2));
        CHECK_OK(cloth_remove_collider(TA.c, id2));
        /* valid edge values */
        CHECK_OK(cloth_set_collider_friction(TA.c, TA.plane, 0.0f));
        CHECK_OK(cloth_set_collider_friction(TB.c, TB.plane, 0.0f));
        CHECK_OK(cloth_set_collider_thickness(TA.c, TA.plane, 0.0f));
        CHECK_OK(cloth_set_collider_thickness(TB.c, TB.plane, 0.0f));
    }
    twin_end(__LINE__);
}

static int cmp_id(const void *a, const void *b)
{
    cloth_collider_id x = *(const cloth_collider_id *)a, y = *(const cloth_collider_id *)b;
    return (x > y) - (x < y);
}

/* At most 65535 colliders over a cloth's life; ids are never reused. */
static void test_collider_limit(void)
{
    cloth_grid_desc d;
    cloth_t *c = NULL;
    static cloth_collider_id ids[65535];
    const float ctr[3] = {9.0f, 9.0f, 9.0f};
    float pos[NF], vel[NF];
    cloth_collider_id id = 0;
    cloth_status st;
    size_t i, added = 0, dup = 0;
    small_desc(&d);
    CHECK_OK(test_create_grid(&d, &c));
    if (!c) {
        return;
    }
    for (i = 0; i < 65535u; ++i) {
        st = cloth_add_sphere(c, ctr, 0.1f, &ids[i]);
        if (st != CLOTH_OK) {
            break;
        }
        ++added;
        if (cloth_remove_collider(c, ids[i]) != CLOTH_OK) {
            break;
        }
    }
    CHECK(added == 65535u);
    qsort(ids, added, sizeof ids[0], cmp_id);
    for (i = 1; i < added; ++i) {
        if (ids[i] == ids[i - 1u]) {
            ++dup;
        }
    }
    CHECK(dup == 0);
    CHECK(read_state(c, pos, vel));
    {
        const float b[3] = {9.0f, 10.0f, 9.0f}, radii[3] = {0.1f, 0.2f, 0.3f};
        id = 777u;
        CHECK_STATUS(cloth_add_sphere(c, ctr, 0.1f, &id), CLOTH_ERR_OUT_OF_MEMORY);
        CHECK_STATUS(cloth_add_plane(c, ctr, ctr, &id), CLOTH_ERR_OUT_OF_MEMORY);
        CHECK_STATUS(cloth_add_ellipsoid(c, ctr, radii, NULL, &id), CLOTH_ERR_OUT_OF_MEMORY);
        CHECK_STATUS(cloth_add_capsule(c, ctr, b, 0.1f, &id), CLOTH_ERR_OUT_OF_MEMORY);
        CHECK_STATUS(cloth_add_cylinder(c, ctr, b, 0.1f, &id), CLOTH_ERR_OUT_OF_MEMORY);
        CHECK_STATUS(cloth_add_torus(c, ctr, b, 0.5f, 0.1f, &id), CLOTH_ERR_OUT_OF_MEMORY);
        CHECK(state_equals(c, pos, vel));
        /* the last id is still unknown */
        CHECK_STATUS(cloth_remove_collider(c, ids[added - 1u]), CLOTH_ERR_OUT_OF_RANGE);
    }
    CHECK_OK(cloth_step(c, DT));
    CHECK(!state_equals(c, pos, vel)); /* sanity: the cloth does move */
    cloth_destroy(c);
}

/* ------------------------------------------------------------------------- */
/* Wind                                                                       */
/* ------------------------------------------------------------------------- */

/* ------------------------------------------------------------------------- */
/* More colliders: capsule, cylinder, torus, transforms                       */
/* ------------------------------------------------------------------------- */

static void test_more_colliders(void)
{
    const float a[3] = {0.0f, 0.0f, 0.1f}, b[3] = {0.15f, 0.0f, 0.1f};
    const float ctr[3] = {0.075f, 0.0f, 0.1f}, axis[3] = {0.0f, 1.0f, 0.0f};
    const float bad_radius[] = {0.0f, -0.0f, -0.05f, -FLT_MIN, NAN, INFINITY, -INFINITY};
    const float qid[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    cloth_collider_id id = 4321u;
    size_t i, k;

    /* capsule */
    TWIN(cloth_add_capsule(TA.c, NULL, b, 0.05f, &id), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_add_capsule(TA.c, a, NULL, 0.05f, &id), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_add_capsule(TA.c, a, b, 0.05f, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    for (i = 0; i < sizeof bad_radius / sizeof bad_radius[0]; ++i) {
        TWIN(cloth_add_capsule(TA.c, a, b, bad_radius[i], &id), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_add_cylinder(TA.c, a, b, bad_radius[i], &id), CLOTH_ERR_INVALID_ARGUMENT);
    }
    for (k = 0; k < 3; ++k) {
        for (i = 0; i < 3; ++i) {
            float p[3], q[3];
            memcpy(p, a, sizeof p);
            memcpy(q, b, sizeof q);
            p[k] = k_nonfinite[i];
            q[k] = k_nonfinite[i];
            TWIN(cloth_add_capsule(TA.c, p, b, 0.05f, &id), CLOTH_ERR_INVALID_ARGUMENT);
            TWIN(cloth_add_capsule(TA.c, a, q, 0.05f, &id), CLOTH_ERR_INVALID_ARGUMENT);
            TWIN(cloth_add_cylinder(TA.c, p, b, 0.05f, &id), CLOTH_ERR_INVALID_ARGUMENT);
            TWIN(cloth_add_cylinder(TA.c, a, q, 0.05f, &id), CLOTH_ERR_INVALID_ARGUMENT);
        }
    }
    {
        /* ends whose distance overflows a float */
        const float far_a[3] = {-3e38f, 0.0f, 0.0f}, far_b[3] = {3e38f, 0.0f, 0.0f};
        TWIN(cloth_add_capsule(TA.c, far_a, far_b, 0.05f, &id), CLOTH_ERR_INVALID_ARGUMENT);
    }
    /* a == b: a sphere for a capsule, refused for a cylinder */
    TWIN(cloth_add_cylinder(TA.c, a, a, 0.05f, &id), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_add_cylinder(TA.c, NULL, b, 0.05f, &id), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_add_cylinder(TA.c, a, NULL, 0.05f, &id), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_add_cylinder(TA.c, a, b, 0.05f, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    {
        busy x = make_busy(NULL);
        if (x.c) {
            CHECK_OK(cloth_add_capsule(x.c, a, a, 0.05f, &id));
            CHECK_OK(cloth_add_capsule(x.c, a, b, 0.05f, &id));
            CHECK_OK(cloth_add_cylinder(x.c, a, b, 0.05f, &id));
            CHECK_OK(cloth_add_torus(x.c, ctr, axis, 0.5f, 0.1f, &id));
            CHECK_OK(cloth_step(x.c, DT));
        }
        busy_free(&x);
    }

    /* torus */
    TWIN(cloth_add_torus(TA.c, NULL, axis, 0.1f, 0.02f, &id), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_add_torus(TA.c, ctr, NULL, 0.1f, 0.02f, &id), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_add_torus(TA.c, ctr, axis, 0.1f, 0.02f, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    {
        const float zero[3] = {0.0f, 0.0f, 0.0f};
        TWIN(cloth_add_torus(TA.c, ctr, zero, 0.1f, 0.02f, &id), CLOTH_ERR_INVALID_ARGUMENT);
    }
    for (k = 0; k < 3; ++k) {
        for (i = 0; i < 3; ++i) {
            float p[3], q[3];
            memcpy(p, ctr, sizeof p);
            memcpy(q, axis, sizeof q);
            p[k] = k_nonfinite[i];
            q[k] = k_nonfinite[i];
            TWIN(cloth_add_torus(TA.c, p, axis, 0.1f, 0.02f, &id), CLOTH_ERR_INVALID_ARGUMENT);
            TWIN(cloth_add_torus(TA.c, ctr, q, 0.1f, 0.02f, &id), CLOTH_ERR_INVALID_ARGUMENT);
        }
    }
    for (i = 0; i < sizeof bad_radius / sizeof bad_radius[0]; ++i) {
        TWIN(cloth_add_torus(TA.c, ctr, axis, bad_radius[i], 0.02f, &id), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_add_torus(TA.c, ctr, axis, 0.1f, bad_radius[i], &id), CLOTH_ERR_INVALID_ARGUMENT);
    }
    TWIN(cloth_add_torus(TA.c, ctr, axis, 0.1f, 0.1f, &id), CLOTH_ERR_INVALID_ARGUMENT);  /* no hole */
    TWIN(cloth_add_torus(TA.c, ctr, axis, 0.1f, 0.2f, &id), CLOTH_ERR_INVALID_ARGUMENT);
    /* torus thickness: minor + offset must stay below major (0.1 + t < 0.5) */
    TWIN(cloth_set_collider_thickness(TA.c, TA.torus, 0.4f), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_collider_thickness(TA.c, TA.torus, 1.0f), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_collider_thickness(TA.c, TA.torus, 0.05f), CLOTH_OK); /* the value it has */

    /* transforms */
    {
        const float pos[3] = {0.075f, -0.04f, 0.12f};
        const float q45[4] = {0.0f, 0.38268343f, 0.0f, 0.92387953f};
        const float qzero[4] = {0.0f, 0.0f, 0.0f, 0.0f}, qlong[4] = {0.0f, 0.0f, 0.0f, 1.002f};
        cloth_collider_id unknown_ids[3];
        TWIN(cloth_set_collider_transform(NULL, 0, pos, q45), CLOTH_ERR_INVALID_ARGUMENT);
        for (k = 0; k < 3; ++k) {
            for (i = 0; i < 3; ++i) {
                float p[3];
                memcpy(p, pos, sizeof p);
                p[k] = k_nonfinite[i];
                TWIN(cloth_set_collider_transform(TA.c, TA.sphere, p, NULL), CLOTH_ERR_INVALID_ARGUMENT);
                TWIN(cloth_set_collider_transform(TA.c, TA.sphere, p, q45), CLOTH_ERR_INVALID_ARGUMENT);
            }
        }
        for (k = 0; k < 4; ++k) {
            for (i = 0; i < 3; ++i) {
                float q[4];
                memcpy(q, q45, sizeof q);
                q[k] = k_nonfinite[i];
                TWIN(cloth_set_collider_transform(TA.c, TA.sphere, pos, q), CLOTH_ERR_INVALID_ARGUMENT);
                TWIN(cloth_set_collider_transform(TA.c, TA.plane, NULL, q), CLOTH_ERR_INVALID_ARGUMENT);
            }
        }
        TWIN(cloth_set_collider_transform(TA.c, TA.plane, pos, qzero), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_set_collider_transform(TA.c, TA.plane, NULL, qlong), CLOTH_ERR_INVALID_ARGUMENT);
        /* NULL, NULL keeps both: no change at all */
        TWIN(cloth_set_collider_transform(TA.c, TA.sphere, NULL, NULL), CLOTH_OK);
        TWIN(cloth_set_collider_transform(TA.c, TA.plane, NULL, NULL), CLOTH_OK);
        /* setting the pose it already has changes nothing either */
        {
            const float sph_c[3] = {0.075f, -0.05f, 0.1f};
            TWIN(cloth_set_collider_transform(TA.c, TA.sphere, sph_c, qid), CLOTH_OK);
        }
        /* unknown and removed ids */
        twin_begin();
        unknown_ids[0] = TA.removed;
        unknown_ids[1] = 0xFFFFu;
        unknown_ids[2] = UINT32_MAX;
        twin_end(__LINE__);
        for (i = 0; i < 3; ++i) {
            float gp[3] = {123.0f, 123.0f, 123.0f}, gq[4] = {5.0f, 5.0f, 5.0f, 5.0f};
            TWIN(cloth_set_collider_transform(TA.c, unknown_ids[i], pos, q45), CLOTH_ERR_OUT_OF_RANGE);
            TWIN(cloth_set_collider_transform(TA.c, unknown_ids[i], NULL, NULL), CLOTH_ERR_OUT_OF_RANGE);
            TWIN(cloth_get_collider_transform(TA.c, unknown_ids[i], gp, gq), CLOTH_ERR_OUT_OF_RANGE);
            CHECK(gp[0] == 123.0f && gp[1] == 123.0f && gp[2] == 123.0f);
            CHECK(gq[0] == 5.0f && gq[1] == 5.0f && gq[2] == 5.0f && gq[3] == 5.0f);
        }
        {
            float gp[3] = {123.0f, 123.0f, 123.0f}, gq[4] = {5.0f, 5.0f, 5.0f, 5.0f};
            TWIN(cloth_get_collider_transform(NULL, 0, gp, gq), CLOTH_ERR_INVALID_ARGUMENT);
            CHECK(gp[0] == 123.0f && gq[0] == 5.0f);
            TWIN(cloth_get_collider_transform(TA.c, TA.sphere, NULL, NULL), CLOTH_OK);
            /* a refused transform leaves the pose it reports alone */
            twin_begin();
            if (TA.c) {
                float q[4];
                memcpy(q, q45, sizeof q);
                q[3] = NAN;
                CHECK_STATUS(cloth_set_collider_transform(TA.c, TA.sphere, pos, q), CLOTH_ERR_INVALID_ARGUMENT);
                CHECK_OK(cloth_get_collider_transform(TA.c, TA.sphere, gp, gq));
                CHECK(gp[0] == 0.075f && gp[1] == -0.05f && gp[2] == 0.1f);
                CHECK(gq[0] == 0.0f && gq[1] == 0.0f && gq[2] == 0.0f && gq[3] == 1.0f);
            }
            twin_end(__LINE__);
        }
    }
}

/* ------------------------------------------------------------------------- */
/* Forces: wind, air, external force                                          */
/* ------------------------------------------------------------------------- */

static int force_calls;

static void zero_wind(void *user, float time, uint32_t count, const float *positions, float *wind_velocity)
{
    (void)user;
    (void)time;
    (void)count;
    (void)positions;
    (void)wind_velocity;
}

static void const_wind_hook(void *user, float time, uint32_t count, const float *positions, float *wind_velocity)
{
    uint32_t i;
    (void)user;
    (void)time;
    (void)positions;
    for (i = 0; i < count; ++i) {
        wind_velocity[3u * i] = 1.0f;
        wind_velocity[3u * i + 1u] = 0.2f;
        wind_velocity[3u * i + 2u] = 0.5f;
    }
}

static void nan_wind(void *user, float time, uint32_t count, const float *positions, float *wind_velocity)
{
    (void)time;
    (void)positions;
    wind_velocity[3u * (count / 2u) + 1u] = *(const float *)user;
}

static void bad_force(void *user, float time, uint32_t count, const float *positions, const float *velocities,
                      float *forces)
{
    (void)time;
    (void)positions;
    (void)velocities;
    ++force_calls;
    forces[3u * (count - 1u)] = *(const float *)user;
}

static void small_force(void *user, float time, uint32_t count, const float *positions, const float *velocities,
                        float *forces)
{
    uint32_t i;
    (void)user;
    (void)time;
    (void)positions;
    (void)velocities;
    for (i = 0; i < count; ++i) {
        forces[3u * i + 2u] += 0.01f * (float)(i % 3u);
    }
}

static void test_forces(void)
{
    const float bad_coeff[] = {-1.0f, -FLT_MIN, -1e30f, NAN, INFINITY, -INFINITY};
    const float wind[3] = {1.0f, 0.2f, 0.5f};
    size_t i, k;
    int user = 0;

    /* wind hook: NULL cloth refused; installing and removing both succeed */
    CHECK_STATUS(cloth_set_wind(NULL, const_wind_hook, &user), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_wind(NULL, NULL, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    /* a hook returning the constant wind's field is the constant wind */
    TWIN(cloth_set_wind(TA.c, const_wind_hook, &user), CLOTH_OK);
    /* removing the wind on both keeps them twins */
    twin_begin();
    if (TA.c && TB.c) {
        CHECK_OK(cloth_set_wind(TA.c, NULL, NULL));
        CHECK_OK(cloth_set_wind(TB.c, NULL, &user));
        CHECK_OK(cloth_set_wind(TA.c, NULL, NULL)); /* twice: still OK */
    }
    twin_end(__LINE__);
    /* a hook writing zeros installs still air on one, a zero constant wind on the other */
    twin_begin();
    if (TA.c && TB.c) {
        const float zero[3] = {0.0f, 0.0f, 0.0f};
        CHECK_OK(cloth_set_wind(TA.c, zero_wind, NULL));
        CHECK_OK(cloth_set_constant_wind(TB.c, zero));
    }
    twin_end(__LINE__);

    /* constant wind */
    CHECK_STATUS(cloth_set_constant_wind(NULL, wind), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_constant_wind(TA.c, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    for (k = 0; k < 3; ++k) {
        for (i = 0; i < 3; ++i) {
            float w[3];
            memcpy(w, wind, sizeof w);
            w[k] = k_nonfinite[i];
            TWIN(cloth_set_constant_wind(TA.c, w), CLOTH_ERR_INVALID_ARGUMENT);
        }
    }
    TWIN(cloth_set_constant_wind(TA.c, wind), CLOTH_OK); /* the same wind again */

    /* air density, drag, lift: >= 0 and finite */
    CHECK_STATUS(cloth_set_air_density(NULL, 1.2f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_drag_coefficient(NULL, 1.2f), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_lift_coefficient(NULL, 1.0f), CLOTH_ERR_INVALID_ARGUMENT);
    for (i = 0; i < sizeof bad_coeff / sizeof bad_coeff[0]; ++i) {
        TWIN(cloth_set_air_density(TA.c, bad_coeff[i]), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_set_drag_coefficient(TA.c, bad_coeff[i]), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_set_lift_coefficient(TA.c, bad_coeff[i]), CLOTH_ERR_INVALID_ARGUMENT);
    }
    /* the documented defaults, set again, change nothing */
    TWIN(cloth_set_air_density(TA.c, 1.2f), CLOTH_OK);
    TWIN(cloth_set_drag_coefficient(TA.c, 1.2f), CLOTH_OK);
    TWIN(cloth_set_lift_coefficient(TA.c, 1.0f), CLOTH_OK);

    /* external force */
    CHECK_STATUS(cloth_set_external_force(NULL, bad_force, &user), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_external_force(NULL, NULL, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_external_force(TA.c, NULL, NULL), CLOTH_OK);

    /* hooks writing NaN / Inf: the step fails with UNSTABLE and keeps the
     * state (time included); afterwards the cloth steps like its twin */
    for (i = 0; i < 3; ++i) {
        float bad = k_nonfinite[i];
        float pos[NF], vel[NF];
        twin_begin();
        if (TA.c) {
            CHECK(read_state(TA.c, pos, vel));
            CHECK_OK(cloth_set_wind(TA.c, nan_wind, &bad));
            CHECK_STATUS(cloth_step(TA.c, DT), CLOTH_ERR_UNSTABLE);
            CHECK(state_equals(TA.c, pos, vel));
            CHECK_OK(cloth_set_constant_wind(TA.c, wind));
        }
        twin_end(__LINE__);
        force_calls = 0;
        twin_begin();
        if (TA.c) {
            CHECK(read_state(TA.c, pos, vel));
            CHECK_OK(cloth_set_external_force(TA.c, bad_force, &bad));
            CHECK_STATUS(cloth_step(TA.c, DT), CLOTH_ERR_UNSTABLE);
            CHECK(force_calls >= 1);
            CHECK(state_equals(TA.c, pos, vel));
            CHECK_OK(cloth_set_external_force(TA.c, NULL, NULL));
        }
        twin_end(__LINE__);
    }
    CHECK(wind_calls == 0);
}

/* ------------------------------------------------------------------------- */
/* Integrators: get, custom, PBD parameters, springs                          */
/* ------------------------------------------------------------------------- */

typedef struct custom_ctx {
    int creates, destroys, steps, finishes;
    cloth_status create_status, step_status, finish_status;
    uint32_t fail_substep; /* substep index at which step / finish fail */
} custom_ctx;

static cloth_status cust_create(void *user, const cloth_t *cloth, void **state)
{
    custom_ctx *c = (custom_ctx *)user;
    (void)cloth;
    c->creates++;
    if (c->create_status != CLOTH_OK) {
        return c->create_status;
    }
    *state = c;
    return CLOTH_OK;
}

static void cust_destroy(void *user, void *state)
{
    custom_ctx *c = (custom_ctx *)user;
    (void)state;
    c->destroys++;
}

/* Scribbles over the state, then fails when told to. */
static cloth_status cust_step(void *user, void *state, const cloth_step_view *v)
{
    custom_ctx *c = (custom_ctx *)user;
    uint32_t i;
    (void)state;
    c->steps++;
    for (i = 0; i < v->count; ++i) {
        if (v->inv_mass[i] > 0.0f) {
            v->x[i] += 0.5f;
            v->vy[i] = 3.0f;
        }
    }
    return v->substep == c->fail_substep ? c->step_status : CLOTH_OK;
}

static cloth_status cust_finish(void *user, void *state, const cloth_step_view *v)
{
    custom_ctx *c = (custom_ctx *)user;
    uint32_t i;
    (void)state;
    c->finishes++;
    for (i = 0; i < v->count; ++i) {
        v->vz[i] = -1.0f;
    }
    return v->substep == c->fail_substep ? c->finish_status : CLOTH_OK;
}

static void custom_vtable(cloth_integrator_vtable *vt)
{
    memset(vt, 0, sizeof *vt);
    vt->name = "test scribbler";
    vt->flags = CLOTH_INTEGRATOR_WANTS_SPRING_FORCES;
    vt->create = cust_create;
    vt->destroy = cust_destroy;
    vt->step = cust_step;
    vt->finish = cust_finish;
}

static void test_integrators_api(void)
{
    cloth_integrator_vtable vt;
    custom_ctx ctx;
    cloth_integrator kind;
    const cloth_integrator kinds[6] = {CLOTH_INTEGRATOR_EXPLICIT_EULER, CLOTH_INTEGRATOR_TRAPEZOID,
                                       CLOTH_INTEGRATOR_VERLET, CLOTH_INTEGRATOR_PBD,
                                       CLOTH_INTEGRATOR_SEMIRIGID, CLOTH_INTEGRATOR_RELAXATION};
    size_t i;

    /* get_integrator */
    kind = (cloth_integrator)77;
    CHECK_STATUS(cloth_get_integrator(NULL, &kind), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(kind == (cloth_integrator)77);
    TWIN(cloth_get_integrator(TA.c, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    {
        busy x = make_busy(NULL);
        if (x.c) {
            CHECK_OK(cloth_get_integrator(x.c, &kind));
            CHECK(kind == CLOTH_INTEGRATOR_EXPLICIT_EULER);
            for (i = 0; i < 6; ++i) {
                CHECK_OK(cloth_set_integrator(x.c, kinds[i]));
                CHECK_OK(cloth_get_integrator(x.c, &kind));
                CHECK(kind == kinds[i]);
                CHECK_OK(cloth_step(x.c, DT));
                /* refused switches keep it */
                CHECK_STATUS(cloth_set_integrator(x.c, CLOTH_INTEGRATOR_CUSTOM), CLOTH_ERR_INVALID_ARGUMENT);
                CHECK_STATUS(cloth_set_integrator(x.c, (cloth_integrator)64), CLOTH_ERR_INVALID_ARGUMENT);
                CHECK_OK(cloth_get_integrator(x.c, &kind));
                CHECK(kind == kinds[i]);
            }
        }
        busy_free(&x);
    }

    /* custom integrator refusals */
    memset(&ctx, 0, sizeof ctx);
    ctx.fail_substep = UINT32_MAX;
    custom_vtable(&vt);
    CHECK_STATUS(cloth_set_custom_integrator(NULL, &vt, &ctx), CLOTH_ERR_INVALID_ARGUMENT);
    TWIN(cloth_set_custom_integrator(TA.c, NULL, &ctx), CLOTH_ERR_INVALID_ARGUMENT);
    vt.step = NULL;
    TWIN(cloth_set_custom_integrator(TA.c, &vt, &ctx), CLOTH_ERR_INVALID_ARGUMENT);
    custom_vtable(&vt);
    vt.flags = 2u;
    TWIN(cloth_set_custom_integrator(TA.c, &vt, &ctx), CLOTH_ERR_INVALID_ARGUMENT);
    vt.flags = CLOTH_INTEGRATOR_WANTS_SPRING_FORCES | 0x80000000u;
    TWIN(cloth_set_custom_integrator(TA.c, &vt, &ctx), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(ctx.creates == 0 && ctx.steps == 0);
    /* create fails: its status, and the previous integrator stays */
    custom_vtable(&vt);
    ctx.create_status = CLOTH_ERR_OUT_OF_MEMORY;
    TWIN(cloth_set_custom_integrator(TA.c, &vt, &ctx), CLOTH_ERR_OUT_OF_MEMORY);
    ctx.create_status = CLOTH_ERR_UNSUPPORTED;
    TWIN(cloth_set_custom_integrator(TA.c, &vt, &ctx), CLOTH_ERR_UNSUPPORTED);
    CHECK(ctx.steps == 0 && ctx.destroys == 0);
    ctx.create_status = CLOTH_OK;
    {
        busy x = make_busy(NULL);
        if (x.c) {
            CHECK_OK(cloth_set_custom_integrator(x.c, &vt, &ctx));
            CHECK_OK(cloth_get_integrator(x.c, &kind));
            CHECK(kind == CLOTH_INTEGRATOR_CUSTOM);
        }
        busy_free(&x);
        CHECK(ctx.creates == 3 && ctx.destroys == 1); /* destroyed with the cloth */
    }

    /* a step or finish that fails abandons the step: state restored, its status returned */
    {
        const cloth_status fails[2] = {CLOTH_ERR_OUT_OF_RANGE, CLOTH_ERR_UNSTABLE};
        int which;
        for (which = 0; which < 4; ++which) {
            float pos[NF], vel[NF];
            memset(&ctx, 0, sizeof ctx);
            ctx.fail_substep = (which & 1) ? 0u : 5u;
            ctx.step_status = (which < 2) ? fails[which & 1] : CLOTH_OK;
            ctx.finish_status = (which >= 2) ? fails[which & 1] : CLOTH_OK;
            twin_begin();
            if (TA.c) {
                CHECK_OK(cloth_set_custom_integrator(TA.c, &vt, &ctx));
                CHECK(read_state(TA.c, pos, vel));
                CHECK_STATUS(cloth_step(TA.c, DT), fails[which & 1]);
                CHECK(ctx.steps >= 1);
                CHECK(state_equals(TA.c, pos, vel));
                CHECK_OK(cloth_set_integrator(TA.c, CLOTH_INTEGRATOR_EXPLICIT_EULER));
                CHECK(ctx.destroys == 1);
            }
            twin_end(__LINE__);
        }
    }

    /* springs */
    {
        uint32_t pairs[2 * 200];
        float rest[200];
        cloth_spring_type types[200];
        CHECK(cloth_spring_count(NULL) == 0u);
        CHECK_STATUS(cloth_get_springs(NULL, pairs, rest, types), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_get_springs(TA.c, NULL, NULL, NULL), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_get_springs(TA.c, pairs, NULL, NULL), CLOTH_OK);
        TWIN(cloth_get_springs(TA.c, NULL, rest, NULL), CLOTH_OK);
        TWIN(cloth_get_springs(TA.c, NULL, NULL, types), CLOTH_OK);
    }

    /* PBD parameters, refused on a PBD twin where they matter */
    busy_kind = CLOTH_INTEGRATOR_PBD;
    {
        const float bad_s[] = {-0.01f, -FLT_MIN, 1.0001f, 2.0f, NAN, INFINITY, -INFINITY};
        const float bad_a[] = {-0.01f, -FLT_MIN, 100.01f, 1e30f, NAN, INFINITY, -INFINITY};
        const cloth_spring_type types[3] = {CLOTH_SPRING_STRUCTURAL, CLOTH_SPRING_SHEAR, CLOTH_SPRING_BEND};
        size_t t;
        CHECK_STATUS(cloth_set_constraint_stiffness(NULL, CLOTH_SPRING_SHEAR, 0.5f), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(cloth_set_jacobi_weight(NULL, 0.2f), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_set_constraint_stiffness(TA.c, (cloth_spring_type)3, 0.5f), CLOTH_ERR_INVALID_ARGUMENT);
        TWIN(cloth_set_constraint_stiffness(TA.c, CLOTH_SPRING_FORCE32, 0.5f), CLOTH_ERR_INVALID_ARGUMENT);
        for (t = 0; t < 3; ++t) {
            for (i = 0; i < sizeof bad_s / sizeof bad_s[0]; ++i) {
                TWIN(cloth_set_constraint_stiffness(TA.c, types[t], bad_s[i]), CLOTH_ERR_INVALID_ARGUMENT);
            }
        }
        for (i = 0; i < sizeof bad_a / sizeof bad_a[0]; ++i) {
            TWIN(cloth_set_jacobi_weight(TA.c, bad_a[i]), CLOTH_ERR_INVALID_ARGUMENT);
        }
        TWIN(cloth_set_iterations(TA.c, 1025), CLOTH_ERR_INVALID_ARGUMENT);
        /* the documented defaults, set again */
        TWIN(cloth_set_constraint_stiffness(TA.c, CLOTH_SPRING_STRUCTURAL, 1.0f), CLOTH_OK);
        TWIN(cloth_set_constraint_stiffness(TA.c, CLOTH_SPRING_SHEAR, 1.0f), CLOTH_OK);
        TWIN(cloth_set_constraint_stiffness(TA.c, CLOTH_SPRING_BEND, 0.2f), CLOTH_OK);
        TWIN(cloth_set_jacobi_weight(TA.c, 0.2f), CLOTH_OK);
        TWIN(cloth_set_iterations(TA.c, 8), CLOTH_OK);
        /* the range ends are accepted */
        {
            busy x = make_busy(NULL);
            if (x.c) {
                CHECK_OK(cloth_set_constraint_stiffness(x.c, CLOTH_SPRING_BEND, 0.0f));
                CHECK_OK(cloth_set_constraint_stiffness(x.c, CLOTH_SPRING_BEND, 1.0f));
                CHECK_OK(cloth_set_jacobi_weight(x.c, 0.0f));
                CHECK_OK(cloth_set_jacobi_weight(x.c, 100.0f));
            }
            busy_free(&x);
        }
    }
    busy_kind = CLOTH_INTEGRATOR_EXPLICIT_EULER;
}

/* ------------------------------------------------------------------------- */
/* Mesh cloths                                                                */
/* ------------------------------------------------------------------------- */

/* A 3 x 3 vertex square split into 8 triangles, counter-clockwise from +y. */
static float mesh_pos[27];
static uint32_t mesh_tri[24];

static void mesh_init_geometry(void)
{
    uint32_t r, c, t = 0;
    for (r = 0; r < 3; ++r) {
        for (c = 0; c < 3; ++c) {
            mesh_pos[3u * (r * 3u + c)] = 0.1f * (float)c;
            mesh_pos[3u * (r * 3u + c) + 1u] = 0.0f;
            mesh_pos[3u * (r * 3u + c) + 2u] = 0.1f * (float)r;
        }
    }
    for (r = 0; r < 2; ++r) {
        for (c = 0; c < 2; ++c) {
            uint32_t i = r * 3u + c;
            mesh_tri[t++] = i;
            mesh_tri[t++] = i + 3u;
            mesh_tri[t++] = i + 1u;
            mesh_tri[t++] = i + 1u;
            mesh_tri[t++] = i + 3u;
            mesh_tri[t++] = i + 4u;
        }
    }
}

static void mesh_desc(cloth_mesh_desc *d)
{
    cloth_mesh_desc_init(d);
    d->positions = mesh_pos;
    d->vertex_count = 9;
    d->triangles = mesh_tri;
    d->triangle_count = 8;
}

/* Refused with `expected`, *out NULL, nothing leaked. */
static void mesh_refused_at(const cloth_mesh_desc *d, cloth_status expected, int line, int attach)
{
    static int dummy_object;
    cloth_mesh_desc copy = *d;
    counter cnt;
    cloth_allocator hooks;
    cloth_t *out = (cloth_t *)(void *)&dummy_object;
    cloth_status st;
    counter_init(&cnt);
    hooks.alloc = counting_alloc;
    hooks.free = counting_free;
    hooks.user = &cnt;
    if (attach) {
        copy.allocator = &hooks;
    }
    st = test_create_mesh(&copy, &out);
    CHECK_AT(st == expected, line, cloth_status_string(st));
    CHECK_AT(out == NULL, line, "*out not set to NULL on failure");
    if (st == CLOTH_OK && out != NULL && out != (cloth_t *)(void *)&dummy_object) {
        cloth_destroy(out);
    }
    if (attach) {
        check_counter_clean(&cnt, line, "refused mesh create leaked or misused the allocator");
    }
    counter_release(&cnt);
}
#define MESH_REFUSED(d, expected) mesh_refused_at((d), (expected), __LINE__, 1)

static void test_mesh_api(void)
{
    static int dummy_object;
    cloth_mesh_desc d, base;
    cloth_t *c = NULL, *out;
    float masses[9], inv[9];
    uint32_t tri[24];
    float pos[27];
    size_t i, k;

    mesh_init_geometry();
    for (i = 0; i < 9; ++i) {
        masses[i] = 0.02f;
        inv[i] = 50.0f;
    }

    /* desc defaults */
    memset(&d, 0x5A, sizeof d);
    cloth_mesh_desc_init(&d);
    CHECK(d.positions == NULL && d.position_stride == 0 && d.vertex_count == 0);
    CHECK(d.triangles == NULL && d.triangle_count == 0);
    CHECK(d.particle_mass == 0.01f);
    CHECK(d.masses == NULL && d.inverse_masses == NULL);
    CHECK(d.struct_size == (uint32_t)sizeof(cloth_mesh_desc));
    CHECK(d.allocator == NULL);
    cloth_mesh_desc_init(NULL);

    /* the valid mesh */
    mesh_desc(&base);
    CHECK_OK(test_create_mesh(&base, &c));
    CHECK(cloth_particle_count(c) == 9u);
    CHECK(cloth_triangle_count(c) == 8u);
    if (c) {
        float p0[27], v0[27];
        cloth_integrator kind = CLOTH_INTEGRATOR_FORCE32;
        CHECK_OK(cloth_get_positions(c, p0, 0));
        CHECK_OK(cloth_get_velocities(c, v0, 0));
        CHECK(memcmp(p0, mesh_pos, sizeof p0) == 0);
        /* semi-rigid needs a grid */
        CHECK_STATUS(cloth_set_integrator(c, CLOTH_INTEGRATOR_SEMIRIGID), CLOTH_ERR_UNSUPPORTED);
        CHECK_OK(cloth_get_integrator(c, &kind));
        CHECK(kind == CLOTH_INTEGRATOR_EXPLICIT_EULER);
        CHECK_OK(cloth_get_positions(c, pos, 0));
        CHECK(memcmp(p0, pos, sizeof pos) == 0);
        CHECK_OK(cloth_step(c, DT));
    }
    cloth_destroy(c);

    /* NULL pointers */
    out = (cloth_t *)(void *)&dummy_object;
    CHECK_STATUS(test_create_mesh(NULL, &out), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(out == NULL);
    CHECK_STATUS(test_create_mesh(&base, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.positions = NULL; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.triangles = NULL; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    /* sizes */
    d = base; d.vertex_count = 0; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.vertex_count = 2; d.triangle_count = 0; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.triangle_count = 0; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    /* strides */
    {
        const size_t bad_strides[] = {1, 4, 8, 11, 13, 14, 15, 18};
        for (i = 0; i < sizeof bad_strides / sizeof bad_strides[0]; ++i) {
            d = base; d.position_stride = bad_strides[i]; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
        }
    }
    /* non-finite positions, anywhere */
    for (k = 0; k < 27; k += 4) {
        for (i = 0; i < 3; ++i) {
            memcpy(pos, mesh_pos, sizeof pos);
            pos[k] = k_nonfinite[i];
            d = base; d.positions = pos; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
        }
    }
    memcpy(pos, mesh_pos, sizeof pos);
    pos[26] = NAN;
    d = base; d.positions = pos; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    /* indices out of range */
    {
        const uint32_t bad_idx[] = {9u, 10u, 0x80000000u, UINT32_MAX};
        for (i = 0; i < sizeof bad_idx / sizeof bad_idx[0]; ++i) {
            for (k = 0; k < 24; k += 7) {
                memcpy(tri, mesh_tri, sizeof tri);
                tri[k] = bad_idx[i];
                d = base; d.triangles = tri; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
            }
        }
    }
    /* a triangle repeating a vertex, in each of its three positions */
    memcpy(tri, mesh_tri, sizeof tri); tri[4] = tri[3];
    d = base; d.triangles = tri; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    memcpy(tri, mesh_tri, sizeof tri); tri[5] = tri[4];
    d = base; d.triangles = tri; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    memcpy(tri, mesh_tri, sizeof tri); tri[5] = tri[3];
    d = base; d.triangles = tri; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    /* a zero-area triangle of three distinct, collinear vertices (0, 1, 2) */
    memcpy(tri, mesh_tri, sizeof tri);
    tri[21] = 0; tri[22] = 1; tri[23] = 2;
    d = base; d.triangles = tri; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    /* vertex 4 moved onto the midpoint of 1 and 3: triangle (1, 3, 4) has
     * exactly zero area (halving 0.1f is exact) */
    memcpy(pos, mesh_pos, sizeof pos);
    pos[12] = 0.5f * mesh_pos[3];
    pos[14] = 0.5f * mesh_pos[11];
    d = base; d.positions = pos; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    /* masses */
    {
        const float bad_m[] = {0.0f, -0.0f, -0.01f, NAN, INFINITY, -INFINITY};
        const float bad_inv[] = {-1.0f, -FLT_MIN, NAN, INFINITY, -INFINITY};
        for (i = 0; i < sizeof bad_m / sizeof bad_m[0]; ++i) {
            d = base; d.particle_mass = bad_m[i]; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
            masses[8] = bad_m[i];
            d = base; d.masses = masses; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
            masses[8] = 0.02f;
            masses[0] = bad_m[i];
            d = base; d.masses = masses; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
            masses[0] = 0.02f;
        }
        for (i = 0; i < sizeof bad_inv / sizeof bad_inv[0]; ++i) {
            inv[8] = bad_inv[i];
            d = base; d.inverse_masses = inv; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
            inv[8] = 50.0f;
        }
        d = base; d.masses = masses; d.inverse_masses = inv; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
        /* valid: masses, inverse masses with a zero (pinned) */
        c = NULL;
        d = base; d.masses = masses;
        CHECK_OK(test_create_mesh(&d, &c));
        cloth_destroy(c);
        c = NULL;
        inv[0] = 0.0f;
        d = base; d.inverse_masses = inv;
        CHECK_OK(test_create_mesh(&d, &c));
        cloth_destroy(c);
        inv[0] = 50.0f;
    }
    /* struct_size and allocator as for the grid */
    d = base; d.struct_size = 0; MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.struct_size = (uint32_t)offsetof(cloth_mesh_desc, struct_size);
    MESH_REFUSED(&d, CLOTH_ERR_INVALID_ARGUMENT);
    d = base; d.struct_size = (uint32_t)sizeof(cloth_mesh_desc) + 8u; MESH_REFUSED(&d, CLOTH_ERR_UNSUPPORTED);
    d = base; d.struct_size = UINT32_MAX; MESH_REFUSED(&d, CLOTH_ERR_UNSUPPORTED);
    {
        counter cnt;
        cloth_allocator one;
        counter_init(&cnt);
        one.alloc = counting_alloc;
        one.free = NULL;
        one.user = &cnt;
        d = base; d.allocator = &one; mesh_refused_at(&d, CLOTH_ERR_INVALID_ARGUMENT, __LINE__, 0);
        one.alloc = NULL;
        one.free = counting_free;
        d = base; d.allocator = &one; mesh_refused_at(&d, CLOTH_ERR_INVALID_ARGUMENT, __LINE__, 0);
        CHECK(cnt.allocs == 0 && cnt.frees == 0);
        counter_release(&cnt);
    }
    /* allocation failure at every point of test_create_mesh() */
    {
        counter cnt;
        cloth_allocator hooks;
        size_t kk;
        int succeeded = 0;
        for (kk = 1; kk <= 64 && !succeeded; ++kk) {
            cloth_status st;
            out = (cloth_t *)(void *)&dummy_object;
            counter_init(&cnt);
            cnt.fail_from = kk;
            hooks.alloc = counting_alloc;
            hooks.free = counting_free;
            hooks.user = &cnt;
            d = base;
            d.allocator = &hooks;
            st = test_create_mesh(&d, &out);
            if (st == CLOTH_OK) {
                succeeded = 1;
                CHECK(cnt.failed == 0);
                cloth_destroy(out);
            } else {
                CHECK_STATUS(st, CLOTH_ERR_OUT_OF_MEMORY);
                CHECK(out == NULL);
            }
            check_counter_clean(&cnt, __LINE__, "allocation failure during mesh create");
            counter_release(&cnt);
        }
        CHECK(succeeded);
    }
}

int main(void)
{
    test_status_strings();
    test_version_and_defaults();
    test_create_refusals();
    test_allocator();
    test_alloc_failures();
    test_null_cloth();
    test_params();
    test_step();
    test_state_access();
    test_pins();
    test_colliders();
    test_collider_limit();
    test_more_colliders();
    test_forces();
    test_integrators_api();
    test_mesh_api();
    return test_finish("test_api");
}
