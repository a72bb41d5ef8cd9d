/*
 * Snapshots (state.h): "Loading a snapshot and then stepping with the same
 * parameters and host inputs gives bitwise the same positions, velocities
 * and time as never having saved"; a truncated, corrupted (any single byte),
 * foreign or malformed snapshot is refused with CLOTH_ERR_INVALID_ARGUMENT
 * and "leaves the cloth untouched"; the state hash is bit-exact.
 *
 * Round trips run every integrator cloth_set_integrator() accepts among the
 * values 0..10, on a grid and on a mesh, with moving and released pins, a
 * moving sphere with friction, a turning ellipsoid and a time-dependent wind
 * hook (so the time must come back too).
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <clothsim/material.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 10, COLS = 12, SAVE_AT = 30, FRAMES = 60 };
static const float k_dt = 1.0f / 60.0f;

/* Offsets of the documented format (state.h). */
enum { HEADER = 64, PARTICLE = 28, PIN = 32, COLLIDER = 152, TRAILER = 8 };

typedef struct scene {
    cloth_t *cloth;
    cloth_collider_id sphere, ellipsoid;
    uint32_t cols;
} scene;

/* A gusty field that depends on the time and on where each particle is. */
static void gust(void *user, float time, uint32_t count, const float *pos, float *wind)
{
    (void)user;
    for (uint32_t i = 0; i < count; ++i) {
        wind[3u * i] = 4.0f + 3.0f * sinf(7.0f * time + 5.0f * pos[3u * i]);
        wind[3u * i + 1u] = 1.5f * cosf(5.0f * time);
        wind[3u * i + 2u] = 2.0f * sinf(3.0f * time + 4.0f * pos[3u * i + 2u]);
    }
}

static cloth_status add_colliders(scene *s)
{
    const float centre[3] = {0.27f, -0.15f, 0.22f};
    const float e_centre[3] = {0.1f, -0.3f, 0.1f}, radii[3] = {0.1f, 0.05f, 0.08f};
    cloth_status st = cloth_add_sphere(s->cloth, centre, 0.12f, &s->sphere);
    if (st == CLOTH_OK) {
        st = cloth_set_collider_friction(s->cloth, s->sphere, 0.3f);
    }
    if (st == CLOTH_OK) {
        st = cloth_add_ellipsoid(s->cloth, e_centre, radii, NULL, &s->ellipsoid);
    }
    if (st == CLOTH_OK) {
        st = cloth_set_wind(s->cloth, gust, NULL);
    }
    return st;
}

/* The same grid, parameters and colliders every time; `kind` may be refused. */
static cloth_status make_grid_scene(int kind, scene *s)
{
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = ROWS;
    desc.cols = COLS;
    s->cols = COLS;
    cloth_status st = test_create_grid(&desc, &s->cloth);
    if (st != CLOTH_OK) {
        return st;
    }
    st = cloth_set_integrator(s->cloth, (cloth_integrator)kind);
    if (st == CLOTH_OK) {
        st = cloth_pin(s->cloth, 0u, NULL);
    }
    if (st == CLOTH_OK) {
        st = cloth_pin(s->cloth, COLS - 1u, NULL);
    }
    if (st == CLOTH_OK) {
        st = add_colliders(s);
    }
    if (st != CLOTH_OK) {
        cloth_destroy(s->cloth);
        s->cloth = NULL;
    }
    return st;
}

/* A 7 x 6 vertex sheet split into triangles, vertex 0 of inverse mass 0 (the
 * mesh builder pins it). */
enum { MESH_COLS = 7, MESH_ROWS = 6 };
static cloth_status make_mesh_scene(int kind, scene *s)
{
    float pos[3 * MESH_COLS * MESH_ROWS], inv[MESH_COLS * MESH_ROWS];
    uint32_t tris[6 * (MESH_COLS - 1) * (MESH_ROWS - 1)];
    const uint32_t triangles = test_flat_mesh(MESH_ROWS, MESH_COLS, 0.05f, pos, tris);
    for (uint32_t i = 0; i < MESH_COLS * MESH_ROWS; ++i) {
        inv[i] = i == 0u ? 0.0f : 100.0f;
    }
    cloth_mesh_desc desc;
    cloth_mesh_desc_init(&desc);
    desc.positions = pos;
    desc.vertex_count = MESH_COLS * MESH_ROWS;
    desc.triangles = tris;
    desc.triangle_count = triangles;
    desc.inverse_masses = inv;
    s->cols = MESH_COLS;
    cloth_status st = test_create_mesh(&desc, &s->cloth);
    if (st != CLOTH_OK) {
        return st;
    }
    st = cloth_set_integrator(s->cloth, (cloth_integrator)kind);
    if (st == CLOTH_OK) {
        st = cloth_pin(s->cloth, MESH_COLS - 1u, NULL);
    }
    if (st == CLOTH_OK) {
        st = add_colliders(s);
    }
    if (st != CLOTH_OK) {
        cloth_destroy(s->cloth);
        s->cloth = NULL;
    }
    return st;
}

/* The host's input for frame f: a function of f only, so two runs of the
 * same frames see the same inputs. Pins change on both sides of SAVE_AT. */
static void drive(const scene *s, int f)
{
    const float ff = (float)f, a = 0.07f * ff;
    const float sp[3] = {0.27f + 0.1f * sinf(0.1f * ff), -0.15f + 0.2f * sinf(0.05f * ff), 0.22f};
    const float ep[3] = {0.1f + 0.005f * ff, -0.3f + 0.01f * ff, 0.1f};
    const float q[4] = {0.0f, sinf(0.5f * a), 0.0f, cosf(0.5f * a)};
    const float target[3] = {0.01f * sinf(0.2f * ff), 0.002f * ff, 0.0f};
    const uint32_t cols = s->cols;
    CHECK_OK(cloth_set_collider_transform(s->cloth, s->sphere, sp, NULL));
    CHECK_OK(cloth_set_collider_transform(s->cloth, s->ellipsoid, ep, q));
    if (f < 50) {
        CHECK_OK(cloth_pin(s->cloth, 0u, target));
    } else if (f == 50) {
        CHECK_OK(cloth_unpin(s->cloth, 0u));
    }
    if (f == 20) {
        CHECK_OK(cloth_unpin(s->cloth, cols - 1u));
    } else if (f == 25) {
        CHECK_OK(cloth_pin(s->cloth, cols * 3u + 4u, NULL));
    } else if (f == 45) {
        CHECK_OK(cloth_pin(s->cloth, cols * 5u, NULL));
    }
}

/* Frames [from, to); the statuses go into st (they must match between runs,
 * whatever they are). */
static void run(const scene *s, int from, int to, cloth_status *st)
{
    for (int f = from; f < to; ++f) {
        drive(s, f);
        st[f] = cloth_step(s->cloth, k_dt);
    }
}

static unsigned char *save(const cloth_t *cloth, size_t *size)
{
    *size = 0;
    CHECK_OK(cloth_state_size(cloth, size));
    unsigned char *buf = malloc(*size ? *size : 1u);
    CHECK(buf != NULL);
    if (buf != NULL) {
        CHECK_OK(cloth_save_state(cloth, buf, *size));
    }
    return buf;
}

static int same_state(const cloth_t *a, const cloth_t *b)
{
    const uint32_t n = cloth_particle_count(a);
    float *pa = malloc(sizeof(float) * 12u * n), *pb = pa + 3u * n, *va = pb + 3u * n, *vb = va + 3u * n;
    int same = 0;
    if (pa != NULL && cloth_get_positions(a, pa, 0) == CLOTH_OK && cloth_get_positions(b, pb, 0) == CLOTH_OK &&
        cloth_get_velocities(a, va, 0) == CLOTH_OK && cloth_get_velocities(b, vb, 0) == CLOTH_OK) {
        same = memcmp(pa, pb, sizeof(float) * 3u * n) == 0 && memcmp(va, vb, sizeof(float) * 3u * n) == 0;
    }
    free(pa);
    return same;
}

static int round_trips;

/* Save at SAVE_AT; carry on to FRAMES (A). Load into a fresh cloth and into
 * A rewound, replay the same frames: bitwise the same state, statuses and
 * final snapshot. A fresh cloth that skips the load is the control. */
static void round_trip(cloth_status (*make)(int, scene *), const char *what, int kind)
{
    scene a, b, c;
    if (make(kind, &a) != CLOTH_OK) {
        printf("%s integrator %d: refused by cloth_set_integrator, skipped\n", what, kind);
        return;
    }
    cloth_status st_a[FRAMES], st_b[FRAMES], st_c[FRAMES];
    run(&a, 0, SAVE_AT, st_a);
    size_t size = 0;
    unsigned char *snap = save(a.cloth, &size);
    const uint64_t h_save = cloth_state_hash(a.cloth);
    run(&a, SAVE_AT, FRAMES, st_a);
    const uint64_t h_end = cloth_state_hash(a.cloth);
    size_t end_size = 0;
    unsigned char *end_a = save(a.cloth, &end_size);

    CHECK_OK(make(kind, &b));
    CHECK_OK(cloth_load_state(b.cloth, snap, size));
    CHECK(cloth_state_hash(b.cloth) == h_save);
    run(&b, SAVE_AT, FRAMES, st_b);
    CHECK(memcmp(&st_a[SAVE_AT], &st_b[SAVE_AT], sizeof(cloth_status) * (FRAMES - SAVE_AT)) == 0);
    CHECK(cloth_state_hash(b.cloth) == h_end);
    CHECK(same_state(a.cloth, b.cloth));
    size_t end_b_size = 0;
    unsigned char *end_b = save(b.cloth, &end_b_size);
    /* pins and colliders ended the same too */
    CHECK(end_b_size == end_size && end_a != NULL && end_b != NULL && memcmp(end_a, end_b, end_size) == 0);

    /* rewind A itself (its pins have changed since the save) */
    CHECK_OK(cloth_load_state(a.cloth, snap, size));
    CHECK(cloth_state_hash(a.cloth) == h_save);
    run(&a, SAVE_AT, FRAMES, st_c);
    CHECK(cloth_state_hash(a.cloth) == h_end);

    /* control: without the load the same frames end elsewhere */
    CHECK_OK(make(kind, &c));
    run(&c, SAVE_AT, FRAMES, st_c);
    CHECK(cloth_state_hash(c.cloth) != h_end);

    int ok_steps = 0;
    for (int f = 0; f < FRAMES; ++f) {
        ok_steps += st_a[f] == CLOTH_OK;
    }
    printf("%s integrator %d: snapshot %zu bytes, %d/%d steps OK, hash %016llx after load+%d steps (bitwise equal)\n",
           what, kind, size, ok_steps, FRAMES, (unsigned long long)h_end, FRAMES - SAVE_AT);
    ++round_trips;
    free(snap);
    free(end_a);
    free(end_b);
    cloth_destroy(a.cloth);
    cloth_destroy(b.cloth);
    cloth_destroy(c.cloth);
}

static void reseal(unsigned char *buf, size_t size)
{
    test_reseal_snapshot(buf, size);
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int b = 0; b < 4; ++b) {
        p[b] = (unsigned char)(v >> (8 * b));
    }
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_f32(unsigned char *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    put_u32(p, u);
}

/* A small cloth with a moving pin and a sphere, stepped a little. */
static cloth_t *small_cloth(uint32_t rows, uint32_t cols, int collider)
{
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = rows;
    desc.cols = cols;
    cloth_t *cloth = NULL;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth == NULL) {
        return NULL;
    }
    const float centre[3] = {0.05f, -0.1f, 0.05f}, normal[3] = {0.0f, 1.0f, 0.0f};
    cloth_collider_id id;
    if (collider == 1) {
        CHECK_OK(cloth_add_sphere(cloth, centre, 0.08f, &id));
    } else if (collider == 2) {
        CHECK_OK(cloth_add_plane(cloth, centre, normal, &id));
    }
    return cloth;
}

static void corruption_and_truncation(void)
{
    cloth_t *cloth = small_cloth(3, 3, 1);
    if (cloth == NULL) {
        return;
    }
    const float target[3] = {0.0f, 0.05f, 0.0f}, away[3] = {0.3f, 0.2f, -0.1f};
    CHECK_OK(cloth_pin(cloth, 0u, target));
    for (int f = 0; f < 5; ++f) {
        CHECK_OK(cloth_step(cloth, k_dt));
    }
    size_t size = 0;
    unsigned char *snap = save(cloth, &size);
    CHECK(size == 72u + 28u * 9u + 32u + 152u);
    /* move on, so that a partial load would show */
    CHECK_OK(cloth_pin(cloth, 4u, away));
    for (int f = 0; f < 5; ++f) {
        CHECK_OK(cloth_step(cloth, k_dt));
    }
    size_t ref_size = 0;
    unsigned char *ref = save(cloth, &ref_size);
    unsigned char *work = malloc(size + 64u), *now = malloc(ref_size);
    if (snap == NULL || ref == NULL || work == NULL || now == NULL) {
        CHECK(0);
        goto done;
    }

    /* every value of every byte */
    long refused = 0, untouched = 0, tried = 0;
    for (size_t pos = 0; pos < size; ++pos) {
        for (unsigned x = 1; x < 256u; ++x) {
            memcpy(work, snap, size);
            work[pos] = (unsigned char)(work[pos] ^ x);
            ++tried;
            refused += cloth_load_state(cloth, work, size) == CLOTH_ERR_INVALID_ARGUMENT;
            untouched += cloth_save_state(cloth, now, ref_size) == CLOTH_OK && memcmp(now, ref, ref_size) == 0;
        }
    }
    printf("single-byte corruptions: %ld tried, %ld refused, cloth untouched after %ld\n", tried, refused,
           untouched);
    CHECK(tried == (long)size * 255);
    CHECK(refused == tried);
    CHECK(untouched == tried);

    /* every truncation */
    long t_refused = 0, t_untouched = 0;
    for (size_t len = 0; len < size; ++len) {
        memcpy(work, snap, len);
        t_refused += cloth_load_state(cloth, work, len) == CLOTH_ERR_INVALID_ARGUMENT;
        t_untouched += cloth_save_state(cloth, now, ref_size) == CLOTH_OK && memcmp(now, ref, ref_size) == 0;
    }
    printf("truncations: %zu lengths (0..%zu), %ld refused, cloth untouched after %ld\n", size, size - 1u,
           t_refused, t_untouched);
    CHECK(t_refused == (long)size);
    CHECK(t_untouched == (long)size);

    /* the intact snapshot loads, with bytes after it ignored */
    memcpy(work, snap, size);
    memset(work + size, 0x5a, 64u);
    CHECK_OK(cloth_load_state(cloth, work, size + 64u));
    CHECK_OK(cloth_save_state(cloth, now, size));
    CHECK(memcmp(now, snap, size) == 0);

done:
    free(snap);
    free(ref);
    free(work);
    free(now);
    cloth_destroy(cloth);
}

/* Hand-made snapshots with a valid checksum: each is refused by the check
 * named, the cloth left as it was. A re-sealed unchanged copy loads (the
 * control for reseal()). */
static void malformed(void)
{
    cloth_t *cloth = small_cloth(3, 3, 1);
    if (cloth == NULL) {
        return;
    }
    const uint32_t n = 9u;
    CHECK_OK(cloth_pin(cloth, 2u, NULL));
    CHECK_OK(cloth_pin(cloth, 6u, NULL));
    CHECK_OK(cloth_step(cloth, k_dt));
    size_t size = 0;
    unsigned char *snap = save(cloth, &size);
    unsigned char *work = malloc(size);
    if (snap == NULL || work == NULL) {
        CHECK(0);
        free(snap);
        free(work);
        cloth_destroy(cloth);
        return;
    }
    CHECK(size == 72u + 28u * n + 2u * 32u + 152u);
    const uint64_t h = cloth_state_hash(cloth);
    const size_t w_at = HEADER + 24u * n, pin_at = HEADER + PARTICLE * n, col_at = pin_at + 2u * PIN;
    struct {
        const char *what;
        size_t at;
        int kind; /* 0 u32, 1 f32 */
        uint32_t u;
        float f;
    } edits[] = {
        {"magic", 4, 0, 0x58585858u, 0.0f}, /* "CLTHXXXX" */
        {"version 3", 8, 0, 3u, 0.0f},
        {"version 0", 8, 0, 0u, 0.0f},
        {"version 1 with an automatic state", 8, 0, 1u, 0.0f},
        {"automatic rate below the start", 12, 1, 0u, 1.0f},
        {"automatic rate NaN", 12, 1, 0u, NAN},
        {"automatic rate past the most", 12, 1, 0u, 1e9f},
        {"recorded size", 16, 0, (uint32_t)size + 4u, 0.0f},
        {"particle count", 24, 0, n + 1u, 0.0f},
        {"rows", 28, 0, 9u, 0.0f},
        {"pin count", 44, 0, 3u, 0.0f},
        {"collider count", 48, 0, 0u, 0.0f},
        {"automatic limit: unknown bits", 52, 0, 7u | 0x200u, 0.0f},
        {"automatic limit: 65 passes", 52, 0, 65u, 0.0f},
        {"NaN position", HEADER + 4u, 1, 0u, NAN},
        {"infinite velocity", HEADER + 12u * n, 1, 0u, INFINITY},
        {"negative inverse mass", w_at + 4u, 1, 0u, -1.0f},
        {"pinned particle with mass", w_at + 4u * 2u, 1, 0u, 100.0f},
        {"pin index out of range", pin_at, 0, n, 0.0f},
        {"repeated pin", pin_at + PIN, 0, 2u, 0.0f},
        {"NaN pin target", pin_at + 4u, 1, 0u, NAN},
        {"negative released mass", pin_at + 28u, 1, 0u, -100.0f},
        {"collider id", col_at, 0, 99u, 0.0f},
        {"collider kind", col_at + 4u, 0, 77u, 0.0f},
        {"collider quaternion", col_at + 8u + 28u + 12u + 12u, 1, 0u, 2.0f},
        {"NaN collider velocity", col_at + 8u + 4u * 30u, 1, 0u, NAN},
    };
    const size_t edit_count = sizeof edits / sizeof edits[0];
    int refused = 0;
    for (size_t e = 0; e < edit_count; ++e) {
        memcpy(work, snap, size);
        if (edits[e].kind == 0) {
            put_u32(work + edits[e].at, edits[e].u);
        } else {
            put_f32(work + edits[e].at, edits[e].f);
        }
        reseal(work, size);
        const cloth_status st = cloth_load_state(cloth, work, size);
        if (st != CLOTH_ERR_INVALID_ARGUMENT) {
            fprintf(stderr, "malformed snapshot (%s) returned %s\n", edits[e].what, cloth_status_string(st));
        }
        refused += st == CLOTH_ERR_INVALID_ARGUMENT;
        CHECK(cloth_state_hash(cloth) == h);
    }
    /* time: a double at offset 56 */
    memcpy(work, snap, size);
    const double negative = -1.0;
    uint64_t bits;
    memcpy(&bits, &negative, sizeof bits);
    for (int b = 0; b < 8; ++b) {
        work[56 + b] = (unsigned char)(bits >> (8 * b));
    }
    reseal(work, size);
    CHECK_STATUS(cloth_load_state(cloth, work, size), CLOTH_ERR_INVALID_ARGUMENT);
    printf("malformed but sealed snapshots: %d of %zu refused (+ negative time)\n", refused, edit_count);
    CHECK(refused == (int)edit_count);

    memcpy(work, snap, size);
    reseal(work, size);
    CHECK_OK(cloth_load_state(cloth, work, size));
    CHECK(cloth_state_hash(cloth) == h);
    free(snap);
    free(work);
    cloth_destroy(cloth);
}

/* With the automatic settings (a new cloth's), what the library chose from
 * the steps so far (the substep rate, the limit's last pass count) is
 * dynamic state too: a snapshot taken after a jerk, loaded into a new
 * cloth or back into the same one after it moved on, steps on to the same
 * bits as never having saved. A version 1 snapshot (the same bytes, those
 * two words 0) loads with the state a new cloth starts with. */
static void automatic_state(void)
{
    cloth_t *a = NULL, *b = NULL;
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = 16u;
    d.cols = 16u;
    d.spacing = 1.0f / 15.0f;
    d.particle_mass = 0.25f / 256.0f;
    CHECK_OK(cloth_create_grid(&d, &a));
    CHECK_OK(cloth_create_grid(&d, &b));
    if (a == NULL || b == NULL) {
        cloth_destroy(a);
        cloth_destroy(b);
        return;
    }
    /* a denim cloth dropped onto a ball: the impact raises the rate */
    cloth_material denim;
    cloth_material_init(&denim, CLOTH_MATERIAL_DENIM);
    const float ball[3] = {0.5f, -0.4f, 0.5f};
    cloth_collider_id ids[2];
    CHECK_OK(cloth_set_material(a, &denim));
    CHECK_OK(cloth_set_material(b, &denim));
    CHECK_OK(cloth_add_sphere(a, ball, 0.3f, &ids[0]));
    CHECK_OK(cloth_add_sphere(b, ball, 0.3f, &ids[1]));
    cloth_stats st;
    cloth_stats_init(&st);
    for (int s = 0; s < 60 && st.substeps_used <= 12u; ++s) {
        CHECK_OK(cloth_step(a, 1.0f / 30.0f));
        CHECK_OK(cloth_get_stats(a, &st));
    }
    CHECK(st.substeps_used > 12u); /* the rate has risen from its start: there is something to keep */
    size_t size = 0;
    unsigned char *snap = save(a, &size);
    if (snap == NULL) {
        CHECK(0);
        cloth_destroy(a);
        cloth_destroy(b);
        return;
    }
    CHECK(get_u32(snap + 8) == 2u);
    for (int s = 0; s < 20; ++s) {
        CHECK_OK(cloth_step(a, 1.0f / 30.0f));
    }
    const uint64_t ahead = cloth_state_hash(a);
    CHECK_OK(cloth_load_state(b, snap, size));
    CHECK_OK(cloth_load_state(a, snap, size));
    for (int s = 0; s < 20; ++s) {
        CHECK_OK(cloth_step(b, 1.0f / 30.0f));
        CHECK_OK(cloth_step(a, 1.0f / 30.0f));
    }
    CHECK(cloth_state_hash(b) == ahead);
    CHECK(cloth_state_hash(a) == ahead);
    /* as version 1: the automatic state as a new cloth's, so another path */
    put_u32(snap + 8, 1u);
    put_u32(snap + 12, 0u);
    put_u32(snap + 52, 0u);
    reseal(snap, size);
    CHECK_OK(cloth_load_state(b, snap, size));
    for (int s = 0; s < 20; ++s) {
        CHECK_OK(cloth_step(b, 1.0f / 30.0f));
    }
    CHECK(cloth_state_hash(b) != ahead);
    free(snap);
    cloth_destroy(a);
    cloth_destroy(b);
}

static void foreign(void)
{
    cloth_t *src = small_cloth(3, 4, 1);
    cloth_t *same = small_cloth(3, 4, 1);
    cloth_t *transposed = small_cloth(4, 3, 1), *bigger = small_cloth(4, 4, 1);
    cloth_t *no_collider = small_cloth(3, 4, 0), *plane = small_cloth(3, 4, 2), *two = small_cloth(3, 4, 1);
    if (!src || !same || !transposed || !bigger || !no_collider || !plane || !two) {
        CHECK(0);
    } else {
        const float c2[3] = {1.0f, 1.0f, 1.0f};
        cloth_collider_id id;
        CHECK_OK(cloth_add_sphere(two, c2, 0.1f, &id));
        CHECK_OK(cloth_step(src, k_dt));
        size_t size = 0;
        unsigned char *snap = save(src, &size);
        cloth_t *targets[5] = {transposed, bigger, no_collider, plane, two};
        const char *names[5] = {"4 x 3 grid", "4 x 4 grid", "no collider", "plane for sphere", "extra collider"};
        for (int t = 0; t < 5; ++t) {
            const uint64_t h = cloth_state_hash(targets[t]);
            const cloth_status st = cloth_load_state(targets[t], snap, size);
            printf("3 x 4 snapshot onto %s: %s\n", names[t], cloth_status_string(st));
            CHECK(st == CLOTH_ERR_INVALID_ARGUMENT);
            CHECK(cloth_state_hash(targets[t]) == h);
        }
        CHECK_OK(cloth_load_state(same, snap, size));
        CHECK(cloth_state_hash(same) == cloth_state_hash(src));
        free(snap);
    }
    cloth_destroy(src);
    cloth_destroy(same);
    cloth_destroy(transposed);
    cloth_destroy(bigger);
    cloth_destroy(no_collider);
    cloth_destroy(plane);
    cloth_destroy(two);
}

static void api_refusals(void)
{
    cloth_t *cloth = small_cloth(3, 3, 0);
    if (cloth == NULL) {
        return;
    }
    size_t size = 0;
    unsigned char buf[1024];
    CHECK_STATUS(cloth_state_size(NULL, &size), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_state_size(cloth, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_state_size(cloth, &size));
    CHECK(size == 72u + 28u * 9u && size <= sizeof buf);
    memset(buf, 0xab, sizeof buf);
    CHECK_STATUS(cloth_save_state(NULL, buf, sizeof buf), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_save_state(cloth, NULL, sizeof buf), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_save_state(cloth, buf, size - 1u), CLOTH_ERR_INVALID_ARGUMENT);
    int untouched = 1;
    for (size_t i = 0; i < sizeof buf; ++i) {
        untouched &= buf[i] == 0xab;
    }
    CHECK(untouched);
    CHECK_OK(cloth_save_state(cloth, buf, sizeof buf));
    CHECK(buf[size] == 0xab); /* exactly `size` bytes written */
    CHECK_STATUS(cloth_load_state(NULL, buf, size), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_load_state(cloth, NULL, size), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_load_state(cloth, buf, size));
    cloth_destroy(cloth);

    /* 28 bytes per particle plus 72 (state.h), for the default 32 x 32 grid */
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    CHECK_OK(test_create_grid(&desc, &cloth));
    CHECK_OK(cloth_state_size(cloth, &size));
    printf("default 32 x 32 cloth: snapshot %zu bytes = 72 + %.1f per particle\n", size,
           (double)(size - 72u) / 1024.0);
    CHECK(size == 72u + 28u * 1024u);
    cloth_destroy(cloth);
}

static void hash_checks(void)
{
    cloth_t *a = small_cloth(4, 5, 0), *b = small_cloth(4, 5, 0);
    if (a == NULL || b == NULL) {
        cloth_destroy(a);
        cloth_destroy(b);
        return;
    }
    CHECK(cloth_state_hash(NULL) == 0u);
    const uint64_t h0 = cloth_state_hash(a);
    printf("hash of a fresh 4 x 5 cloth: %016llx\n", (unsigned long long)h0);
    CHECK(h0 != 0u);
    CHECK(cloth_state_hash(b) == h0);
    /* pins are not hashed: pinning in place changes no position or velocity */
    CHECK_OK(cloth_pin(b, 3u, NULL));
    CHECK(cloth_state_hash(b) == h0);
    CHECK_OK(cloth_unpin(b, 3u));

    float v[60];
    memset(v, 0, sizeof v);
    v[7] = nextafterf(0.0f, 1.0f); /* one ulp of one component */
    CHECK_OK(cloth_set_velocities(b, v, 0));
    CHECK(cloth_state_hash(b) != h0);
    v[7] = -0.0f; /* documented: -0.0 and 0.0 differ */
    CHECK_OK(cloth_set_velocities(b, v, 0));
    CHECK(cloth_state_hash(b) != h0);
    v[7] = 0.0f;
    CHECK_OK(cloth_set_velocities(b, v, 0));
    CHECK(cloth_state_hash(b) == h0);

    CHECK_OK(cloth_step(a, k_dt));
    CHECK_OK(cloth_step(b, k_dt));
    CHECK(cloth_state_hash(a) != h0);
    CHECK(cloth_state_hash(a) == cloth_state_hash(b));
    cloth_destroy(a);
    cloth_destroy(b);
}

int main(void)
{
    for (int kind = 0; kind <= 10; ++kind) {
        round_trip(make_grid_scene, "grid 10 x 12", kind);
    }
    for (int kind = 0; kind <= 10; ++kind) {
        round_trip(make_mesh_scene, "mesh 7 x 6", kind);
    }
    printf("round trips: %d (each: load into a fresh cloth, rewind the same cloth)\n", round_trips);
    CHECK(round_trips >= 11); /* 6 built-ins on the grid, 5 on the mesh */
    corruption_and_truncation();
    malformed();
    automatic_state();
    foreign();
    api_refusals();
    hash_checks();
    return test_finish("test_snapshot");
}
