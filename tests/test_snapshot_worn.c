/*
 * test_snapshot_worn: snapshots of a worn cloth hold everything its next
 * steps depend on: the skin, the backstops, the frame and its inertia, and
 * a deforming triangle-mesh collider's vertices (state.h, version 3).
 *
 * A: a cloth skinned in a moving, turning frame at inertia 0.5, with
 *    backstops, on a deforming mesh crate and a convex box: saved after 30
 *    steps, the next 30 steps replayed from the snapshot give the same bits,
 *    in the same cloth and in a twin that had run other inputs before.
 * B: a snapshot of a cloth that has no frame, skin or mesh (version 2)
 *    loaded into a worn cloth of the same shape is refused when the worn
 *    cloth has a mesh collider the snapshot lacks; a frame-only cloth's
 *    snapshot (version 3) puts the frame back and clears skin and backstops.
 * C: refused contents change nothing: an unknown bit in the sections'
 *    word, an inertia of 2, a NaN mesh vertex (with the checksum made right).
 */
#include <clothsim/clothsim.h>

#include "test_box_mesh.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DT (1.0f / 60.0f)
#define SIDE 12u
#define N (SIDE * SIDE)

typedef struct worn {
    cloth_t *cloth;
    cloth_collider_id crate, box;
    box_mesh mesh;
} worn;

static void frame_at(int f, float p[3], float q[4])
{
    const float t = (float)f * DT, a = 0.8f * t;
    p[0] = 1.5f * sinf(t);
    p[1] = 0.1f * t;
    p[2] = 0.5f * t;
    q[0] = 0.0f;
    q[1] = sinf(0.5f * a);
    q[2] = 0.0f;
    q[3] = cosf(0.5f * a);
}

/* Inputs of frame f: the frame, skin targets riding with it (the top row's
 * rest positions carried by the frame), normals, the crate's swell. */
static void drive(worn *w, int f, float wobble)
{
    float p[3], q[4];
    frame_at(f, p, q);
    CHECK_OK(cloth_set_frame(w->cloth, p, q));
    float targets[3 * N], normals[3 * N];
    const float c = 1.0f - 2.0f * q[1] * q[1], s = 2.0f * q[1] * q[3];
    for (uint32_t i = 0; i < N; ++i) {
        const float lx = -0.3f + 0.6f * (float)(i % SIDE) / (float)(SIDE - 1u), ly = 1.0f;
        const float lz = -0.3f + 0.6f * (float)(i / SIDE) / (float)(SIDE - 1u);
        targets[3 * i] = p[0] + c * lx + s * lz;
        targets[3 * i + 1] = p[1] + ly;
        targets[3 * i + 2] = p[2] - s * lx + c * lz;
        normals[3 * i] = 0.0f;
        normals[3 * i + 1] = 1.0f;
        normals[3 * i + 2] = 0.0f;
    }
    CHECK_OK(cloth_set_skin_targets(w->cloth, targets, 0));
    CHECK_OK(cloth_set_skin_normals(w->cloth, normals, 0));
    const uint32_t n = w->mesh.vertex_count;
    float *v = malloc(sizeof(float) * 3u * n);
    if (v != NULL) {
        const float grow = 1.0f + 0.2f * sinf(3.0f * (float)f * DT) + wobble;
        for (uint32_t i = 0; i < 3u * n; ++i) {
            v[i] = w->mesh.vertices[i] * grow;
        }
        CHECK_OK(cloth_set_triangle_mesh_vertices(w->cloth, w->crate, v, 0));
    }
    free(v);
    const float box_at[3] = {p[0], 0.3f, p[2] + 0.2f};
    CHECK_OK(cloth_set_collider_transform(w->cloth, w->box, box_at, q));
}

static worn make(void)
{
    worn w;
    memset(&w, 0, sizeof w);
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = d.cols = SIDE;
    d.spacing = 0.6f / (float)(SIDE - 1u);
    d.origin[0] = -0.3f;
    d.origin[1] = 1.0f;
    d.origin[2] = -0.3f;
    d.particle_mass = 0.002f;
    CHECK_OK(test_create_grid(&d, &w.cloth));
    if (w.cloth == NULL) {
        return w;
    }
    const float centre[3] = {0.0f, 0.5f, 0.0f}, half[3] = {0.2f, 0.15f, 0.2f};
    CHECK(box_mesh_make(&w.mesh, 3u, centre, half));
    CHECK_OK(cloth_add_triangle_mesh(w.cloth, w.mesh.vertices, 0, w.mesh.vertex_count, w.mesh.indices,
                                     w.mesh.triangle_count, &w.crate));
    CHECK_OK(cloth_set_collider_friction(w.cloth, w.crate, 0.4f));
    const float planes[24] = {1, 0, 0, -0.1f, -1, 0, 0, -0.1f, 0, 1, 0, -0.05f,
                              0, -1, 0, -0.05f, 0, 0, 1, -0.1f, 0, 0, -1, -0.1f};
    CHECK_OK(cloth_add_convex(w.cloth, planes, 6u, &w.box));
    float dist[N], stops[2 * N];
    for (uint32_t i = 0; i < N; ++i) {
        dist[i] = i < SIDE ? 0.0f : 0.05f * (float)(i / SIDE);
        stops[2 * i] = 0.3f;
        stops[2 * i + 1] = 2.0f;
    }
    drive(&w, 0, 0.0f);
    CHECK_OK(cloth_set_max_distances(w.cloth, dist, 0));
    CHECK_OK(cloth_set_backstops(w.cloth, stops, 0));
    CHECK_OK(cloth_set_inertia(w.cloth, 0.5f, 0.5f));
    return w;
}

static void unmake(worn *w)
{
    cloth_destroy(w->cloth);
    box_mesh_free(&w->mesh);
}

static void test_rollback(void)
{
    worn a = make(), twin = make();
    if (a.cloth == NULL || twin.cloth == NULL) {
        unmake(&a);
        unmake(&twin);
        return;
    }
    for (int f = 1; f <= 30; ++f) {
        drive(&a, f, 0.0f);
        CHECK_OK(cloth_step(a.cloth, DT));
    }
    for (int f = 1; f <= 10; ++f) {
        drive(&twin, f, 0.05f); /* other inputs: a state that must all be replaced */
        CHECK_OK(cloth_step(twin.cloth, DT));
    }
    size_t size = 0;
    CHECK_OK(cloth_state_size(a.cloth, &size));
    unsigned char *snap = malloc(size);
    if (snap == NULL) {
        unmake(&a);
        unmake(&twin);
        return;
    }
    CHECK_OK(cloth_save_state(a.cloth, snap, size));
    CHECK(snap[8] == 3u);
    for (int f = 31; f <= 60; ++f) {
        drive(&a, f, 0.0f);
        CHECK_OK(cloth_step(a.cloth, DT));
    }
    const uint64_t h = cloth_state_hash(a.cloth);
    CHECK_OK(cloth_load_state(a.cloth, snap, size));
    CHECK_OK(cloth_load_state(twin.cloth, snap, size));
    for (int f = 31; f <= 60; ++f) {
        drive(&a, f, 0.0f);
        drive(&twin, f, 0.0f);
        CHECK_OK(cloth_step(a.cloth, DT));
        CHECK_OK(cloth_step(twin.cloth, DT));
    }
    printf("A: a worn cloth's snapshot of %zu bytes replays 30 steps: %s, %s in a twin\n", size,
           cloth_state_hash(a.cloth) == h ? "same bits" : "DIFFERENT", cloth_state_hash(twin.cloth) == h ? "same" : "DIFFERENT");
    CHECK(cloth_state_hash(a.cloth) == h);
    CHECK(cloth_state_hash(twin.cloth) == h);

    /* C: refusals change nothing */
    const uint64_t before = cloth_state_hash(twin.cloth);
    const size_t word = 72u + 28u * N + 32u * SIDE + 152u * 2u - 8u;
    unsigned char *bad = malloc(size);
    if (bad != NULL) {
        memcpy(bad, snap, size);
        bad[word + 3u] = (unsigned char)(bad[word + 3u] | 0x80u); /* an unknown bit */
        test_reseal_snapshot(bad, size);
        CHECK_STATUS(cloth_load_state(twin.cloth, bad, size), CLOTH_ERR_INVALID_ARGUMENT);
        /* the frame's linear inertia: after the word, skin (28 n) and backstops (32 n) */
        const size_t linear = word + 4u + 28u * N + 32u * N + 56u;
        const unsigned char two[4] = {0x00u, 0x00u, 0x00u, 0x40u};
        memcpy(bad, snap, size);
        memcpy(bad + linear, two, 4u);
        test_reseal_snapshot(bad, size);
        CHECK_STATUS(cloth_load_state(twin.cloth, bad, size), CLOTH_ERR_INVALID_ARGUMENT);
        /* the crate's first vertex where the step began: after the frame and the meshes' count and total */
        const size_t vertex = linear + 8u + 8u + 8u;
        const unsigned char nan_bits[4] = {0x00u, 0x00u, 0xc0u, 0x7fu};
        memcpy(bad, snap, size);
        memcpy(bad + vertex, nan_bits, 4u);
        test_reseal_snapshot(bad, size);
        CHECK_STATUS(cloth_load_state(twin.cloth, bad, size), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK(cloth_state_hash(twin.cloth) == before);
        memcpy(bad, snap, size);
        test_reseal_snapshot(bad, size);
        CHECK_OK(cloth_load_state(twin.cloth, bad, size)); /* the same bytes: taken */
        free(bad);
    }
    free(snap);

    /* B: a plain cloth's snapshot (version 2) does not fit a cloth with a mesh */
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = d.cols = SIDE;
    d.spacing = 0.6f / (float)(SIDE - 1u);
    d.particle_mass = 0.002f;
    cloth_t *plain = NULL;
    CHECK_OK(test_create_grid(&d, &plain));
    if (plain != NULL) {
        CHECK_OK(cloth_set_integrator(plain, CLOTH_INTEGRATOR_XPBD));
        const float planes[24] = {1, 0, 0, -0.1f, -1, 0, 0, -0.1f, 0, 1, 0, -0.05f,
                                  0, -1, 0, -0.05f, 0, 0, 1, -0.1f, 0, 0, -1, -0.1f};
        cloth_collider_id ids[2];
        const float at[3] = {0, -2, 0};
        CHECK_OK(cloth_add_sphere(plain, at, 0.1f, &ids[0])); /* a sphere where the worn cloth has its mesh */
        CHECK_OK(cloth_add_convex(plain, planes, 6u, &ids[1]));
        size_t psize = 0;
        CHECK_OK(cloth_state_size(plain, &psize));
        unsigned char *p2 = malloc(psize);
        if (p2 != NULL) {
            CHECK_OK(cloth_save_state(plain, p2, psize));
            CHECK(p2[8] == 2u);
            CHECK_STATUS(cloth_load_state(a.cloth, p2, psize), CLOTH_ERR_INVALID_ARGUMENT); /* another collider set */
            /* a frame alone makes it version 3; loading it into a fresh
             * copy of the plain cloth gives that copy the frame */
            const float fp[3] = {1, 2, 3}, fq[4] = {0, 0, 0, 1};
            CHECK_OK(cloth_teleport(plain, fp, fq)); /* the frame there at once, nothing swept */
            CHECK_OK(cloth_set_inertia(plain, 0.25f, 0.75f));
            size_t fsize = 0;
            CHECK_OK(cloth_state_size(plain, &fsize));
            CHECK(fsize == psize + 4u + 64u);
            unsigned char *p3 = malloc(fsize);
            cloth_t *copy = NULL;
            CHECK_OK(test_create_grid(&d, &copy));
            if (p3 != NULL && copy != NULL) {
                CHECK_OK(cloth_set_integrator(copy, CLOTH_INTEGRATOR_XPBD));
                CHECK_OK(cloth_add_sphere(copy, at, 0.1f, &ids[0]));
                CHECK_OK(cloth_add_convex(copy, planes, 6u, &ids[1]));
                CHECK_OK(cloth_save_state(plain, p3, fsize));
                CHECK(p3[8] == 3u);
                CHECK_OK(cloth_load_state(copy, p3, fsize));
                float linear = 0, angular = 0;
                CHECK_OK(cloth_get_inertia(copy, &linear, &angular));
                CHECK(linear == 0.25f && angular == 0.75f);
                for (int f = 0; f < 20; ++f) {
                    const float to[3] = {1.0f + 0.1f * (float)f, 2.0f, 3.0f};
                    CHECK_OK(cloth_set_frame(plain, to, fq));
                    CHECK_OK(cloth_set_frame(copy, to, fq));
                    CHECK_OK(cloth_step(plain, DT));
                    CHECK_OK(cloth_step(copy, DT));
                }
                CHECK(cloth_state_hash(plain) == cloth_state_hash(copy));
                /* and the version 2 snapshot puts the inertia back to 1 */
                CHECK_OK(cloth_load_state(copy, p2, psize));
                CHECK_OK(cloth_get_inertia(copy, &linear, &angular));
                CHECK(linear == 1.0f && angular == 1.0f);
                printf("B: a frame alone is a version 3 snapshot of %zu bytes (64 + 4 more); a version 2 one clears it\n",
                       fsize);
            }
            free(p3);
            cloth_destroy(copy);
        }
        free(p2);
        cloth_destroy(plain);
    }
    unmake(&a);
    unmake(&twin);
}

int main(void)
{
    test_rollback();
    return test_finish("test_snapshot_worn");
}
