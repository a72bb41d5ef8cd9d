/*
 * Distinct cloths on distinct threads (clothsim.h: "calls on one cloth must
 * not overlap; distinct cloths may be used from distinct threads at once").
 *
 * Four threads start together; each builds its own cloth (its own pins,
 * colliders, one of them moving, a wind hook and a force hook with per-thread
 * user data, its own integrator), steps it, reads positions and normals back
 * every frame and takes a snapshot, all at the same time as the others. The
 * same four scenes are then run one after the other on the main thread, and
 * every result must be bitwise the same: positions, velocities, normals,
 * snapshots and state hashes. The library keeps no mutable global state, so
 * any difference (or any report from ThreadSanitizer, which scripts/test runs
 * this test under) means state shared between cloths.
 */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */

#include "test_util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define SIDE 14
#define FRAMES 60

/* What a scene gives back, compared bitwise between the runs. */
typedef struct result {
    cloth_status status;   /* the first failing call's status, or OK */
    uint32_t count;
    cloth_collider_id ball; /* the collider that moves */
    uint64_t hash;
    size_t snapshot_bytes;
    float positions[SIDE * SIDE * 3];
    float velocities[SIDE * SIDE * 3];
    float normals[SIDE * SIDE * 3];
    unsigned char snapshot[72 + 28 * SIDE * SIDE + 32 * SIDE + 152 * 4];
    uint32_t wind_calls;  /* written only by this scene's hooks */
    uint32_t force_calls;
} result;

typedef struct scene {
    int id;
    pthread_barrier_t *start; /* NULL: run straight away (the serial run) */
    result out;
} scene;

/* The wind hook's air: a gust that varies in space and time, with a
 * per-scene strength read from `user`, counting its calls in `user` too. */
static void wind(void *user, float time, uint32_t count, const float *pos, float *out)
{
    result *r = user;
    r->wind_calls++;
    const float strength = 2.0f + (float)(r->count % 7u);
    for (uint32_t i = 0; i < count; ++i) {
        out[3 * i] = strength * sinf(3.0f * time + 4.0f * pos[3 * i + 2]);
        out[3 * i + 1] = 0.5f;
        out[3 * i + 2] = strength;
    }
}

static void force(void *user, float time, uint32_t count, const float *pos, const float *vel, float *f)
{
    (void)time;
    (void)pos;
    result *r = user;
    r->force_calls++;
    for (uint32_t i = 0; i < count; ++i) {
        f[3 * i + 1] -= 0.001f * vel[3 * i + 1];
    }
}

static cloth_status build(int id, result *r, cloth_t **out)
{
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = SIDE;
    desc.cols = SIDE;
    desc.spacing = 0.04f + 0.005f * (float)id;
    desc.origin[1] = 1.0f;
    cloth_status s = test_create_grid(&desc, out);
    if (s != CLOTH_OK) {
        return s;
    }
    cloth_t *c = *out;
    r->count = cloth_particle_count(c);
    static const cloth_integrator kinds[THREADS] = {CLOTH_INTEGRATOR_EXPLICIT_EULER, CLOTH_INTEGRATOR_VERLET,
                                                    CLOTH_INTEGRATOR_PBD, CLOTH_INTEGRATOR_XPBD};
    const float ball[3] = {0.3f, 0.6f, 0.3f};
    const float floor_point[3] = {0.0f, 0.2f, 0.0f}, up[3] = {0.0f, 1.0f, 0.0f};
    const float cap_a[3] = {0.0f, 0.5f, 0.5f}, cap_b[3] = {0.6f, 0.5f, 0.5f};
    cloth_collider_id ids[3] = {0u, 0u, 0u};
    if ((s = cloth_set_integrator(c, kinds[id % THREADS])) != CLOTH_OK ||
        (s = cloth_pin(c, 0, NULL)) != CLOTH_OK || (s = cloth_pin(c, SIDE - 1, NULL)) != CLOTH_OK ||
        (s = cloth_add_sphere(c, ball, 0.2f, &ids[0])) != CLOTH_OK ||
        (s = cloth_add_plane(c, floor_point, up, &ids[1])) != CLOTH_OK ||
        (s = cloth_add_capsule(c, cap_a, cap_b, 0.05f, &ids[2])) != CLOTH_OK ||
        (s = cloth_set_collider_friction(c, ids[0], 0.3f)) != CLOTH_OK ||
        (s = cloth_set_collider_thickness(c, ids[1], 0.01f)) != CLOTH_OK ||
        (s = cloth_set_wind(c, wind, r)) != CLOTH_OK || (s = cloth_set_external_force(c, force, r)) != CLOTH_OK) {
        cloth_destroy(c);
        *out = NULL;
    }
    r->ball = ids[0];
    return s;
}

/* Build, step, read back, snapshot, destroy: everything a host does. */
static void run_scene(scene *sc)
{
    result *r = &sc->out;
    memset(r, 0, sizeof *r);
    if (sc->start != NULL) {
        pthread_barrier_wait(sc->start);
    }
    cloth_t *c = NULL;
    r->status = build(sc->id, r, &c);
    if (r->status != CLOTH_OK) {
        return;
    }
    for (int frame = 0; frame < FRAMES && r->status == CLOTH_OK; ++frame) {
        /* the ball swings: a moving collider in every frame */
        const float p[3] = {0.3f + 0.2f * sinf(0.1f * (float)frame), 0.6f, 0.3f};
        if ((r->status = cloth_set_collider_transform(c, r->ball, p, NULL)) != CLOTH_OK ||
            (r->status = cloth_step(c, 1.0f / 60.0f)) != CLOTH_OK ||
            (r->status = cloth_get_positions(c, r->positions, 0)) != CLOTH_OK ||
            (r->status = cloth_get_normals(c, r->normals, 0)) != CLOTH_OK) {
            break;
        }
        /* the library's read-only globals, from every thread at once */
        if (strlen(cloth_status_string(CLOTH_ERR_UNSTABLE)) == 0u || cloth_version() != CLOTHSIM_VERSION_NUMBER) {
            r->status = CLOTH_ERR_UNSUPPORTED;
        }
    }
    if (r->status == CLOTH_OK) {
        r->status = cloth_get_velocities(c, r->velocities, 0);
    }
    if (r->status == CLOTH_OK && (r->status = cloth_state_size(c, &r->snapshot_bytes)) == CLOTH_OK) {
        r->status = r->snapshot_bytes <= sizeof r->snapshot ? cloth_save_state(c, r->snapshot, sizeof r->snapshot)
                                                            : CLOTH_ERR_OUT_OF_RANGE;
    }
    r->hash = cloth_state_hash(c);
    cloth_destroy(c);
}

static void *thread_main(void *arg)
{
    run_scene(arg);
    return NULL;
}

int main(void)
{
    static scene parallel[THREADS], serial[THREADS];
    pthread_barrier_t start;
    CHECK(pthread_barrier_init(&start, NULL, THREADS) == 0);
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; ++t) {
        parallel[t].id = t;
        parallel[t].start = &start;
        CHECK(pthread_create(&threads[t], NULL, thread_main, &parallel[t]) == 0);
    }
    for (int t = 0; t < THREADS; ++t) {
        CHECK(pthread_join(threads[t], NULL) == 0);
    }
    pthread_barrier_destroy(&start);

    for (int t = 0; t < THREADS; ++t) {
        serial[t].id = t;
        serial[t].start = NULL;
        run_scene(&serial[t]);
    }

    for (int t = 0; t < THREADS; ++t) {
        const result *a = &parallel[t].out, *b = &serial[t].out;
        CHECK_OK(a->status);
        CHECK_OK(b->status);
        CHECK(a->count == SIDE * SIDE);
        /* the hooks ran once per substep (16 a frame), on their own scene's data */
        CHECK(a->wind_calls == 16u * FRAMES && a->force_calls == 16u * FRAMES);
        CHECK(b->wind_calls == a->wind_calls && b->force_calls == a->force_calls);
        CHECK(a->hash == b->hash);
        CHECK(memcmp(a->positions, b->positions, sizeof a->positions) == 0);
        CHECK(memcmp(a->velocities, b->velocities, sizeof a->velocities) == 0);
        CHECK(memcmp(a->normals, b->normals, sizeof a->normals) == 0);
        CHECK(a->snapshot_bytes == b->snapshot_bytes && a->snapshot_bytes > 0u &&
              memcmp(a->snapshot, b->snapshot, a->snapshot_bytes) == 0);
        /* and the scenes really differ from each other, so the comparison means something */
        if (t > 0) {
            CHECK(a->hash != parallel[t - 1].out.hash);
        }
        /* the cloth hangs and moved: a real simulation ran */
        int moved = 0;
        for (int i = 0; i < SIDE * SIDE; ++i) {
            moved += a->positions[3 * i + 1] < 0.95f;
            CHECK(isfinite(a->positions[3 * i]) && isfinite(a->positions[3 * i + 1]));
        }
        CHECK(moved > SIDE * SIDE / 2);
    }
    return test_finish("test_threads");
}
