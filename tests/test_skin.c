/*
 * test_skin: skinned attachment (skin.h), skin targets and max distances.
 *
 * A: a cape worn on a body that runs in a circle at 6 m/s (12 m/s^2 of
 *    centripetal acceleration flings it outward): after every step its top
 *    row (max distance 0) is on its targets bit for bit, every other
 *    particle within its max distance of its target, and none inside the
 *    body's capsules. The same bits on 1 and 3 threads.
 * B: a flat cloth with no pins, each particle held within 0.1 m of where it
 *    started, falls 0.1 m and stops dead (the sphere's bottom, where the
 *    springs stay at rest length): the closed form is y = -0.1, v = 0.
 * C: distance 0 holds a particle still; +inf releases it into free fall.
 * D: refused input changes nothing; a strided buffer reads as a packed one.
 * E: a snapshot carries the skin, so a rollback replays bit for bit.
 *
 * Tolerances: a position the projection puts on its sphere is within a few
 * float roundings of it (coordinates of ~3 m carry 2.4e-7 each), so "within
 * the distance" allows 2e-6 m; "not inside a capsule" allows 2e-6 m as
 * test_colliders does.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define DT (1.0f / 60.0f)
#define TOL 2e-6

/* ------------------------------------------------------------------------- */
/* A: the running cape                                                       */
/* ------------------------------------------------------------------------- */

enum { ROWS = 16, COLS = 12, N = ROWS * COLS };
#define RADIUS 3.0  /* of the circle the body runs, m */
#define OMEGA 2.0   /* rad/s: 6 m/s */
#define TORSO_R 0.15f
#define SHOULDER_R 0.08f
#define ARM_R 0.06f

typedef struct body {
    double c[3];  /* where the body's origin is */
    double phi;   /* its turn about +y */
} body;

static body body_at(double t)
{
    body b;
    b.c[0] = RADIUS * cos(OMEGA * t);
    b.c[1] = 0.0;
    b.c[2] = RADIUS * sin(OMEGA * t);
    b.phi = -OMEGA * t; /* local +z, its front, along the motion */
    return b;
}

static void to_world(const body *b, const double l[3], double w[3])
{
    const double c = cos(b->phi), s = sin(b->phi);
    w[0] = b->c[0] + c * l[0] + s * l[2];
    w[1] = b->c[1] + l[1];
    w[2] = b->c[2] - s * l[0] + c * l[2];
}

/* The cape in the body's frame: 0.55 m wide, 0.75 m long, worn in front,
 * 5 cm from the torso, its top row at the shoulders. Running in a circle,
 * the hem trails backward and outward (measured: about 0.4 m back and 0.1
 * to 0.4 m out when unbounded), so it presses into the torso. */
static void cape_local(uint32_t i, double l[3])
{
    const uint32_t r = i / COLS, col = i % COLS;
    l[0] = -0.275 + 0.05 * (double)col;
    l[1] = 1.4 - 0.05 * (double)r;
    l[2] = 0.2;
}

static void targets_at(double t, float *out)
{
    const body b = body_at(t);
    for (uint32_t i = 0; i < N; ++i) {
        double l[3], w[3];
        cape_local(i, l);
        to_world(&b, l, w);
        for (int k = 0; k < 3; ++k) {
            out[3u * i + (uint32_t)k] = (float)w[k];
        }
    }
}

static float max_distance_of(uint32_t i)
{
    return 0.015f * (float)(i / COLS);
}

/* The body's capsules, each by its two ends in the body's frame. */
enum { CAPSULES = 3 };
static const double k_capsule[CAPSULES][2][3] = {
    {{0.0, 0.6, 0.0}, {0.0, 1.3, 0.0}},    /* torso */
    {{-0.2, 1.35, 0.0}, {0.2, 1.35, 0.0}}, /* shoulders */
    {{0.3, 0.8, 0.0}, {0.26, 1.3, 0.0}},   /* an arm on the outer side, where the hem swings */
};
static const float k_capsule_r[CAPSULES] = {TORSO_R, SHOULDER_R, ARM_R};

static double segment_distance(const double a[3], const double b[3], const double p[3])
{
    double ab[3], ap[3];
    for (int k = 0; k < 3; ++k) {
        ab[k] = b[k] - a[k];
        ap[k] = p[k] - a[k];
    }
    double t = (ap[0] * ab[0] + ap[1] * ab[1] + ap[2] * ab[2]) / (ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2]);
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    double d2 = 0.0;
    for (int k = 0; k < 3; ++k) {
        const double e = p[k] - (a[k] + t * ab[k]);
        d2 += e * e;
    }
    return sqrt(d2);
}

/* Runs the cape for `steps` steps on `threads` threads, checking every
 * read-back; returns the state hash. */
/* The cape at its first targets with the body's capsules; the skin is set
 * only if `skinned`. */
static cloth_t *make_cape(uint32_t threads, cloth_collider_id id[CAPSULES], bool skinned)
{
    const body b0 = body_at(0.0);
    double l[3], w[3];
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = ROWS;
    d.cols = COLS;
    d.spacing = 0.05f;
    cape_local(0u, l);
    to_world(&b0, l, w);
    for (int k = 0; k < 3; ++k) {
        d.origin[k] = (float)w[k];
    }
    const double cph = cos(b0.phi), sph = sin(b0.phi);
    d.u_axis[0] = (float)cph;
    d.u_axis[1] = 0.0f;
    d.u_axis[2] = (float)-sph;
    d.v_axis[0] = 0.0f;
    d.v_axis[1] = -1.0f;
    d.v_axis[2] = 0.0f;
    d.particle_mass = 0.3f / (float)N;
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_grid(&d, &c));
    if (c == NULL) {
        return NULL;
    }
    CHECK_OK(cloth_set_threads(c, threads));
    for (int k = 0; k < CAPSULES; ++k) {
        float a[3], e[3];
        to_world(&b0, k_capsule[k][0], w);
        for (int q = 0; q < 3; ++q) {
            a[q] = (float)w[q];
        }
        to_world(&b0, k_capsule[k][1], w);
        for (int q = 0; q < 3; ++q) {
            e[q] = (float)w[q];
        }
        CHECK_OK(cloth_add_capsule(c, a, e, k_capsule_r[k], &id[k]));
        CHECK_OK(cloth_set_collider_friction(c, id[k], 0.3f));
    }
    if (skinned) {
        float target[3 * N], dist[N];
        targets_at(0.0, target);
        CHECK_OK(cloth_set_skin_targets(c, target, 0));
        for (uint32_t i = 0; i < N; ++i) {
            dist[i] = max_distance_of(i);
        }
        CHECK_OK(cloth_set_max_distances(c, dist, 0));
    }
    return c;
}

/* Frame f: the targets and the capsules where the body is at its end, then
 * the step. `target` gets the targets. */
static void drive(cloth_t *c, const cloth_collider_id id[CAPSULES], int f, float *target)
{
    const double t = (double)f * (double)DT;
    const body b = body_at(t);
    targets_at(t, target);
    CHECK_OK(cloth_set_skin_targets(c, target, 0));
    const float q[4] = {0.0f, (float)sin(0.5 * b.phi), 0.0f, (float)cos(0.5 * b.phi)};
    for (int k = 0; k < CAPSULES; ++k) {
        double w[3];
        to_world(&b, k_capsule[k][0], w);
        const float at[3] = {(float)w[0], (float)w[1], (float)w[2]};
        CHECK_OK(cloth_set_collider_transform(c, id[k], at, q));
    }
    CHECK_OK(cloth_step(c, DT));
}

static uint64_t run_cape(uint32_t threads, int steps, int *bad_steps)
{
    cloth_collider_id id[CAPSULES];
    cloth_t *c = make_cape(threads, id, true);
    if (c == NULL) {
        return 0u;
    }
    static float target[3 * N];
    float dist[N], pos[3 * N];
    for (uint32_t i = 0; i < N; ++i) {
        dist[i] = max_distance_of(i);
    }
    *bad_steps = 0;
    uint64_t contacts = 0u;
    uint32_t most_at_bound = 0u;
    for (int f = 1; f <= steps; ++f) {
        const body b = body_at((double)f * (double)DT);
        drive(c, id, f, target);
        CHECK_OK(cloth_get_positions(c, pos, 0));
        int bad = 0;
        for (uint32_t i = 0; i < N; ++i) {
            const float *p = pos + 3u * i, *tg = target + 3u * i;
            if (i < COLS) {
                bad += p[0] != tg[0] || p[1] != tg[1] || p[2] != tg[2]; /* on its target, bit for bit */
                continue;
            }
            const double e[3] = {(double)p[0] - (double)tg[0], (double)p[1] - (double)tg[1],
                                 (double)p[2] - (double)tg[2]};
            bad += sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) > (double)dist[i] + TOL;
            const double pd[3] = {(double)p[0], (double)p[1], (double)p[2]};
            for (int k = 0; k < CAPSULES; ++k) {
                double a[3], e2[3];
                to_world(&b, k_capsule[k][0], a);
                to_world(&b, k_capsule[k][1], e2);
                bad += segment_distance(a, e2, pd) < (double)k_capsule_r[k] - TOL;
            }
        }
        cloth_stats st;
        cloth_stats_init(&st);
        CHECK_OK(cloth_get_stats(c, &st));
        contacts += st.contacts;
        uint32_t at_bound = 0u;
        for (uint32_t i = COLS; i < N; ++i) {
            const float *p = pos + 3u * i, *tg = target + 3u * i;
            const double e[3] = {(double)p[0] - (double)tg[0], (double)p[1] - (double)tg[1],
                                 (double)p[2] - (double)tg[2]};
            at_bound += sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) > 0.999 * (double)dist[i];
        }
        most_at_bound = at_bound > most_at_bound ? at_bound : most_at_bound;
        *bad_steps += bad > 0;
        if (bad > 0 && *bad_steps == 1) {
            fprintf(stderr, "A: step %d, %u threads: %d checks failed\n", f, threads, bad);
        }
    }
    /* that the test tests something: the hem was flung out to its spheres,
     * and the capsules held the cape */
    CHECK(most_at_bound >= N / 10u);
    CHECK(contacts >= (uint64_t)steps);
    if (threads == 1u) {
        printf("A: up to %u of %u free particles on their spheres at once; %llu contacts in the last substeps\n",
               most_at_bound, N - COLS, (unsigned long long)contacts);
    }
    const uint64_t h = cloth_state_hash(c);
    cloth_destroy(c);
    return h;
}

/* E: rollback. A snapshot taken mid-run carries the skin (version 3):
 * loaded into the same cloth, or into a twin whose skin was never set, the
 * same inputs give the same bits; a snapshot of an unskinned cloth
 * (version 2) takes the skin away. */
static void test_snapshot_rollback(void)
{
    cloth_collider_id id[CAPSULES], id2[CAPSULES], id3[CAPSULES];
    cloth_t *c = make_cape(1u, id, true), *twin = make_cape(1u, id2, false), *bare = make_cape(1u, id3, false);
    static float target[3 * N];
    static unsigned char snap[200000], plain[200000];
    size_t size = 0u, plain_size = 0u;
    if (c == NULL || twin == NULL || bare == NULL) {
        goto done;
    }
    for (int f = 1; f <= 60; ++f) {
        drive(c, id, f, target);
    }
    CHECK_OK(cloth_state_size(c, &size));
    CHECK(size == 72u + 28u * N + 32u * COLS + 152u * CAPSULES + 4u + 28u * N && size <= sizeof snap);
    CHECK_OK(cloth_save_state(c, snap, sizeof snap));
    CHECK(snap[8] == 3u); /* the version with the skin */
    for (int f = 61; f <= 120; ++f) {
        drive(c, id, f, target);
    }
    const uint64_t h = cloth_state_hash(c);
    CHECK_OK(cloth_load_state(c, snap, size));
    CHECK_OK(cloth_load_state(twin, snap, size));
    for (int f = 61; f <= 120; ++f) {
        drive(c, id, f, target);
        drive(twin, id2, f, target);
    }
    CHECK(cloth_state_hash(c) == h);
    CHECK(cloth_state_hash(twin) == h);
    /* refused, with the checksum made right: the last particle's max
     * distance a NaN, then negative; the skin's word with an unknown bit */
    const uint64_t before = cloth_state_hash(twin);
    const size_t last = size - 8u - 4u, word = 72u + 28u * N + 32u * COLS + 152u * CAPSULES - 8u;
    const unsigned char nan_bits[4] = {0x00u, 0x00u, 0xc0u, 0x7fu}, minus_bits[4] = {0x00u, 0x00u, 0x80u, 0xbfu};
    memcpy(snap + last, nan_bits, 4u);
    test_reseal_snapshot(snap, size);
    CHECK_STATUS(cloth_load_state(twin, snap, size), CLOTH_ERR_INVALID_ARGUMENT);
    memcpy(snap + last, minus_bits, 4u);
    test_reseal_snapshot(snap, size);
    CHECK_STATUS(cloth_load_state(twin, snap, size), CLOTH_ERR_INVALID_ARGUMENT);
    snap[word] = (unsigned char)(snap[word] | 0x40u); /* no section has that bit */
    snap[last + 3u] = 0x3fu; /* the distance now 1.0, which is valid */
    test_reseal_snapshot(snap, size);
    CHECK_STATUS(cloth_load_state(twin, snap, size), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(cloth_state_hash(twin) == before); /* the refusals changed nothing */
    snap[word] = (unsigned char)(snap[word] & ~0x40u);
    test_reseal_snapshot(snap, size);
    CHECK_OK(cloth_load_state(twin, snap, size)); /* the same bytes, the bit cleared: taken */

    /* an unskinned snapshot frees the skin: then as a cloth that never had one */
    CHECK_OK(cloth_state_size(bare, &plain_size));
    CHECK(plain_size == 72u + 28u * N + 152u * CAPSULES && plain_size <= sizeof plain);
    CHECK_OK(cloth_save_state(bare, plain, sizeof plain));
    CHECK(plain[8] == 2u);
    CHECK_OK(cloth_load_state(c, plain, plain_size));
    for (int f = 1; f <= 30; ++f) {
        CHECK_OK(cloth_step(c, DT));
        CHECK_OK(cloth_step(bare, DT));
    }
    CHECK(cloth_state_hash(c) == cloth_state_hash(bare));
    printf("E: a skinned snapshot of %zu bytes replays 60 running steps bit for bit, also in a cloth never skinned\n",
           size);
done:
    cloth_destroy(c);
    cloth_destroy(twin);
    cloth_destroy(bare);
}

static void test_running_cape(void)
{
    int bad1 = 0, bad3 = 0;
    const uint64_t h1 = run_cape(1u, 180, &bad1);
    const uint64_t h3 = run_cape(3u, 180, &bad3);
    CHECK(bad1 == 0);
    CHECK(bad3 == 0);
    CHECK(h1 == h3);
    printf("A: running cape, 180 steps: %d and %d steps with a failed check (1, 3 threads), hashes %s\n", bad1,
           bad3, h1 == h3 ? "equal" : "differ");
}

/* ------------------------------------------------------------------------- */
/* B, C, D: a flat cloth                                                      */
/* ------------------------------------------------------------------------- */

static cloth_t *flat(uint32_t n)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = n;
    d.cols = n;
    d.spacing = 0.1f;
    d.particle_mass = 0.01f;
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_grid(&d, &c));
    return c;
}

static void test_hanging_in_spheres(void)
{
    cloth_t *c = flat(10u);
    if (c == NULL) {
        return;
    }
    const uint32_t n = cloth_particle_count(c);
    float start[300], pos[300], vel[300], dist[100];
    CHECK_OK(cloth_get_positions(c, start, 0));
    for (uint32_t i = 0; i < n; ++i) {
        dist[i] = 0.1f;
    }
    CHECK_OK(cloth_set_max_distances(c, dist, 0)); /* targets: where the particles are */
    double worst_out = 0.0;
    for (int f = 0; f < 120; ++f) {
        CHECK_OK(cloth_step(c, DT));
        CHECK_OK(cloth_get_positions(c, pos, 0));
        for (uint32_t i = 0; i < n; ++i) {
            const double e[3] = {(double)pos[3 * i] - (double)start[3 * i],
                                 (double)pos[3 * i + 1] - (double)start[3 * i + 1],
                                 (double)pos[3 * i + 2] - (double)start[3 * i + 2]};
            const double out = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) - 0.1;
            worst_out = out > worst_out ? out : worst_out;
        }
    }
    CHECK(worst_out <= TOL);
    CHECK_OK(cloth_get_velocities(c, vel, 0));
    double worst_y = 0.0, worst_v = 0.0;
    for (uint32_t i = 0; i < n; ++i) {
        worst_y = fmax(worst_y, fabs((double)pos[3 * i + 1] - ((double)start[3 * i + 1] - 0.1)));
        worst_y = fmax(worst_y, fabs((double)pos[3 * i] - (double)start[3 * i]));
        worst_y = fmax(worst_y, fabs((double)pos[3 * i + 2] - (double)start[3 * i + 2]));
        for (int k = 0; k < 3; ++k) {
            worst_v = fmax(worst_v, fabs((double)vel[3 * i + (uint32_t)k]));
        }
    }
    /* at rest on the bottoms of the spheres: the springs at rest length,
     * the projection has taken every downward speed */
    CHECK(worst_y <= 1e-5);
    CHECK(worst_v <= 1e-3);
    printf("B: 10 x 10 cloth in spheres of 0.1 m: worst overshoot %.2g m, off the sphere bottoms by %.2g m, "
           "speed %.2g m/s\n",
           worst_out, worst_y, worst_v);

    /* C: +inf releases every particle: free fall from there */
    for (uint32_t i = 0; i < n; ++i) {
        dist[i] = INFINITY;
    }
    CHECK_OK(cloth_set_max_distances(c, dist, 0));
    for (int f = 0; f < 30; ++f) {
        CHECK_OK(cloth_step(c, DT));
    }
    /* as a free cloth that starts there at rest falls (the springs at
     * rest length, every particle alike) */
    cloth_t *free_cloth = flat(10u);
    if (free_cloth != NULL) {
        for (uint32_t i = 0; i < n; ++i) {
            start[3 * i + 1] -= 0.1f;
        }
        CHECK_OK(cloth_set_positions(free_cloth, start, 0));
        for (int f = 0; f < 30; ++f) {
            CHECK_OK(cloth_step(free_cloth, DT));
        }
        float ref[300];
        CHECK_OK(cloth_get_positions(c, pos, 0));
        CHECK_OK(cloth_get_positions(free_cloth, ref, 0));
        CHECK((double)pos[1] < (double)start[1] - 0.5); /* it fell */
        for (uint32_t i = 0; i < 3u * n; ++i) {
            CHECK_NEAR((double)pos[i], (double)ref[i], 1e-4);
        }
        cloth_destroy(free_cloth);
    }
    cloth_destroy(c);
}

static void test_zero_is_a_pin(void)
{
    cloth_t *c = flat(4u);
    if (c == NULL) {
        return;
    }
    float dist[16], pos[48], start[48];
    CHECK_OK(cloth_get_positions(c, start, 0));
    for (uint32_t i = 0; i < 16u; ++i) {
        dist[i] = INFINITY;
    }
    dist[0] = 0.0f;
    CHECK_OK(cloth_set_max_distances(c, dist, 0));
    for (int f = 0; f < 30; ++f) {
        CHECK_OK(cloth_step(c, DT));
    }
    CHECK_OK(cloth_get_positions(c, pos, 0));
    CHECK(pos[0] == start[0] && pos[1] == start[1] && pos[2] == start[2]); /* held where it was */
    CHECK(pos[3 * 15 + 1] < start[3 * 15 + 1] - 0.3f);                    /* the far corner swings down */
    dist[0] = INFINITY;
    CHECK_OK(cloth_set_max_distances(c, dist, 0));
    for (int f = 0; f < 30; ++f) {
        CHECK_OK(cloth_step(c, DT));
    }
    CHECK_OK(cloth_get_positions(c, pos, 0));
    CHECK(pos[1] < start[1] - 0.5f); /* released: it falls with the rest */
    cloth_destroy(c);
}

static void test_bad_input(void)
{
    cloth_t *c = flat(4u), *twin = flat(4u);
    if (c == NULL || twin == NULL) {
        cloth_destroy(c);
        cloth_destroy(twin);
        return;
    }
    cloth_stats before, after;
    cloth_stats_init(&before);
    cloth_stats_init(&after);
    CHECK_OK(cloth_get_stats(c, &before));
    float good[48], bad[48], dist[16];
    CHECK_OK(cloth_get_positions(c, good, 0));
    memcpy(bad, good, sizeof bad);
    bad[7] = NAN;
    CHECK_STATUS(cloth_set_skin_targets(NULL, good, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_skin_targets(c, NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_skin_targets(c, good, 8), CLOTH_ERR_INVALID_ARGUMENT);  /* shorter than xyz */
    CHECK_STATUS(cloth_set_skin_targets(c, good, 14), CLOTH_ERR_INVALID_ARGUMENT); /* not a multiple of 4 */
    CHECK_STATUS(cloth_set_skin_targets(c, bad, 0), CLOTH_ERR_INVALID_ARGUMENT);
    bad[7] = INFINITY;
    CHECK_STATUS(cloth_set_skin_targets(c, bad, 0), CLOTH_ERR_INVALID_ARGUMENT);
    for (uint32_t i = 0; i < 16u; ++i) {
        dist[i] = 0.0f;
    }
    const float refused[3] = {-0.01f, NAN, -INFINITY};
    for (int k = 0; k < 3; ++k) {
        dist[9] = refused[k];
        CHECK_STATUS(cloth_set_max_distances(c, dist, 0), CLOTH_ERR_INVALID_ARGUMENT);
    }
    CHECK_STATUS(cloth_set_max_distances(NULL, dist, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_max_distances(c, NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_max_distances(c, dist, 2), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_get_stats(c, &after));
    CHECK(after.memory_bytes == before.memory_bytes); /* nothing allocated */
    for (int f = 0; f < 10; ++f) {
        CHECK_OK(cloth_step(c, DT));
        CHECK_OK(cloth_step(twin, DT));
    }
    CHECK(cloth_state_hash(c) == cloth_state_hash(twin)); /* every particle still free */

    /* a strided buffer (xyz and a pad) reads as the packed one */
    float padded[64], packed[48], dp[32];
    CHECK_OK(cloth_get_positions(c, packed, 0));
    CHECK_OK(cloth_get_positions(c, padded, 16));
    for (uint32_t i = 0; i < 16u; ++i) {
        packed[3 * i + 1] -= 0.05f;
        padded[4 * i + 1] -= 0.05f;
        dist[i] = 0.02f;
        dp[2 * i] = 0.02f;
        dp[2 * i + 1] = -1.0f; /* between the strided values: never read */
    }
    CHECK_OK(cloth_set_skin_targets(c, packed, 0));
    CHECK_OK(cloth_set_max_distances(c, dist, 0));
    CHECK_OK(cloth_set_skin_targets(twin, padded, 16));
    CHECK_OK(cloth_set_max_distances(twin, dp, 8));
    for (int f = 0; f < 10; ++f) {
        CHECK_OK(cloth_step(c, DT));
        CHECK_OK(cloth_step(twin, DT));
    }
    CHECK(cloth_state_hash(c) == cloth_state_hash(twin));
    cloth_destroy(c);
    cloth_destroy(twin);
}

int main(void)
{
    test_running_cape();
    test_hanging_in_spheres();
    test_zero_is_a_pin();
    test_bad_input();
    test_snapshot_rollback();
    return test_finish("test_skin");
}
