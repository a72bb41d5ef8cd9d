/*
 * libFuzzer harness for the whole public API: the fuzzer's bytes become one
 * cloth (a grid or a mesh, hostile descs included) and a sequence of API
 * calls with hostile arguments (NaN, Inf, huge and tiny values, out-of-range
 * indices and ids, odd strides, bad vtables, hooks that write NaN, snapshots
 * corrupted byte by byte).
 *
 * Besides "no crash, no leak, no undefined behaviour" (ASan, UBSan, and the
 * harness's own allocator accounting), every call is held to the contract of
 * the headers; a broken promise aborts:
 *   - positions and velocities read back are always finite, normals finite
 *     and of unit length;
 *   - a refused call changes nothing (the cloth's snapshot is bitwise the
 *     same before and after; for a failed cloth_step(), which documents that
 *     pins' and colliders' motion goes on, positions, velocities and time);
 *   - a strided copy never touches the padding between records;
 *   - a snapshot saved and loaded back leaves the state bitwise the same;
 *   - the host's allocator sees only the sizes it handed out, an alignment
 *     that is a power of two <= 64, and every block freed by cloth_destroy();
 *   - a host integrator's state is destroyed exactly once;
 *   - a step whose wind or force hook wrote NaN or infinity does not return
 *     CLOTH_OK;
 *   - from inside a hook, every call that changes the cloth returns
 *     CLOTH_ERR_BUSY, and cloth_destroy() of it does nothing;
 *   - a step whose task hooks skipped, repeated or misplaced an item does not
 *     return CLOTH_OK (and, refused, changes nothing);
 *   - pinning every particle, one call each, puts each on its own target;
 *   - moving many colliders in one call leaves the cloth as the same calls
 *     one by one would; it is refused only when one of those is, with
 *     CLOTH_ERR_INVALID_ARGUMENT if one of them is refused so (every pose is
 *     checked before any id), else CLOTH_ERR_OUT_OF_RANGE;
 *   - skin normals and backstops the header allows are taken, values it
 *     forbids refused;
 *   - stiffness scales, a self-collision thickness and a self-friction
 *     coefficient the header allows are taken and read back to the bit,
 *     values it forbids refused; after every op the getters read what the
 *     last accepted call set (a refused call, or any other op, snapshots
 *     loaded included, changes none of them);
 *   - every spring's rest length, squared, is a normal float; the smooth
 *     surface is finite, and every read-back works into a buffer at any
 *     byte address (UBSan sees a misaligned access).
 *
 * Sizes are bounded (grids <= 24 x 24, or a rare 72 x 72 that is big enough
 * for the task hooks to be called, meshes <= 64 vertices and 98 triangles,
 * triangle-mesh colliders <= 24 vertices and triangles, convex colliders
 * <= 70 planes, <= 60 calls and a budget of particle-substeps per input) so
 * that one input runs in milliseconds.
 *
 * Built two ways from this one file:
 *   - with -fsanitize=fuzzer (CLOTHSIM_BUILD_FUZZ, clang): the fuzzer itself;
 *   - without it (every build): a replay program whose main() feeds each file
 *     named on the command line, or every file in each directory named, to
 *     the same entry point. ctest runs it over tests/fuzz/corpus and
 *     tests/fuzz/regressions, so every crash ever found stays a test.
 *     FUZZ_API_TRACE=1 in its environment prints every call and status.
 *
 * The input format (all reads past the end give zero bytes):
 *   byte 0        setup, by its value % 8: 0-2 a grid, 3 a mesh, 4-7 a grid
 *                 with the host allocator below
 *   ...           the setup's fields (see setup_grid(), setup_mesh())
 *   then repeat   one op byte (op % OP_COUNT, see FZ_OPS), its arguments
 * tests/fuzz/make_corpus.py writes seeds in this format.
 */
#define _POSIX_C_SOURCE 200809L /* dirent.h and stat() for the replay program */

#include <clothsim/clothsim.h>

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FZ_MAX_SIDE 24u
/* a side that gives the step's per-particle passes two items (4096
 * particles each), so that they go to the host's task hooks */
#define FZ_BIG_SIDE 72u
#define FZ_MAX_VERTS 64u
#define FZ_MAX_TRIS 98u /* 2 (8 - 1)^2 */
/* a triangle-mesh collider: vertices and triangles, at most */
#define FZ_MESH_VERTS 24u
#define FZ_MESH_TRIS 24u
/* planes handed to cloth_add_convex(), at most: past the library's 64 */
#define FZ_MAX_PLANES 70u
#define FZ_MAX_OPS 60u
/* particles x substeps x (iterations, for the position-based integrators) */
#define FZ_BUDGET 40000.0
/* a snapshot of the largest cloth with every particle pinned, skinned and
 * given a backstop (88 + 32 bytes a particle), and 60 triangle-mesh colliders
 * of FZ_MESH_VERTS vertices: about 690 KB */
#define FZ_SNAP_BYTES (1u << 20)

/* FUZZ_API_TRACE=1 in the environment (replay program): print every call. */
static int g_trace;

/* A broken promise: say which, then abort so that the fuzzer (or ctest)
 * records the input. */
#define FZ_REQUIRE(cond)                                                              \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "fuzz_api.c:%d: contract broken: %s\n", __LINE__, #cond); \
            abort();                                                                  \
        }                                                                             \
    } while (0)

/* ---- reading the fuzzer's bytes ---------------------------------------- */

typedef struct fz {
    const uint8_t *p;
    size_t n, at;
} fz;

static uint8_t fz_u8(fz *f)
{
    return f->at < f->n ? f->p[f->at++] : 0u;
}

static uint32_t fz_u32(fz *f)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
        v |= (uint32_t)fz_u8(f) << (8 * k);
    }
    return v;
}

static uint16_t fz_u16(fz *f)
{
    uint16_t lo = fz_u8(f);
    return (uint16_t)(lo | (uint16_t)(fz_u8(f) << 8));
}

static float fz_bits(uint32_t u)
{
    float v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* Values at the edges of float that once got through: a grid spacing whose
 * axes add up past FLT_MAX (8e37), rest lengths that overflow or underflow
 * when squared (1e20, 1.8e19, 1e-23), substeps whose reciprocal overflows
 * (1e-40, 2e-39), stiffness near FLT_MAX (3e38), the smallest normals. */
static float fz_edge(fz *f)
{
    static const float edge[] = {8e37f,  1e20f,   1.8e19f, 1e-23f, 1e-40f, 2e-39f, 3e-39f,  3e38f,
                                 1e38f,  -FLT_MIN, 2.0f * FLT_MIN, FLT_MAX / 2.0f, 1e-38f, 4e18f, 1e19f, -8e37f};
    return edge[fz_u8(f) % (sizeof edge / sizeof edge[0])];
}

/* One selector byte: 0-31 a hostile or typical special, 32-253 a moderate
 * value (sel - 143) / 16 in [-6.94, 6.88], 254 an edge value of the next
 * byte (fz_edge()), 255 the raw bits of 4 more bytes. */
static float fz_float(fz *f)
{
    const uint8_t sel = fz_u8(f);
    if (sel < 32u) {
        switch (sel) {
        case 0: return 0.0f;
        case 1: return -0.0f;
        case 2: return 1.0f;
        case 3: return -1.0f;
        case 4: return fz_bits(0x7fc00000u);  /* NaN */
        case 5: return fz_bits(0xffc00001u);  /* negative NaN with payload */
        case 6: return fz_bits(0x7f800000u);  /* +Inf */
        case 7: return fz_bits(0xff800000u);  /* -Inf */
        case 8: return FLT_MAX;
        case 9: return -FLT_MAX;
        case 10: return FLT_MIN;
        case 11: return fz_bits(1u);          /* smallest denormal */
        case 12: return 1e-30f;
        case 13: return 1e30f;
        case 14: return 0.5f;
        case 15: return 0.05f;
        case 16: return 0.01f;
        case 17: return 2.0f;
        case 18: return 10.0f;
        case 19: return 100.0f;
        case 20: return 1e6f;
        case 21: return -1e6f;
        case 22: return 1e-6f;
        case 23: return 1.0f / 60.0f;
        case 24: return fz_bits(0x3f800001u); /* just above 1 */
        case 25: return fz_bits(0x3f7fffffu); /* just below 1 */
        case 26: return 1e20f;
        case 27: return -1e-30f;
        case 28: return 1.7e38f;
        case 29: return -0.5f;
        case 30: return 9.81f;
        default: return -9.81f;
        }
    }
    if (sel == 255u) {
        return fz_bits(fz_u32(f));
    }
    if (sel == 254u) {
        return fz_edge(f);
    }
    return (float)((int)sel - 143) / 16.0f;
}

static void fz_vec(fz *f, float *v, int n)
{
    for (int k = 0; k < n; ++k) {
        v[k] = fz_float(f);
    }
}

/* A particle index: usually in range, sometimes just past it or absurd. */
static uint32_t fz_index(fz *f, uint32_t count)
{
    const uint16_t v = fz_u16(f);
    if (v < 0xff00u) {
        return count == 0u ? v : v % count;
    }
    switch (v & 7u) {
    case 0: return count;
    case 1: return count + 1u;
    case 2: return UINT32_MAX;
    case 3: return 0x80000000u;
    case 4: return UINT32_MAX - 1u;
    case 5: return 1u << 26;
    case 6: return fz_u32(f);
    default: return 0u;
    }
}

/* A stride in bytes: valid ones (0 = packed, multiples of 4 >= 12) and odd
 * ones, among them multiples of 4 so large that stride * (count - 1) wraps
 * around size_t or passes PTRDIFF_MAX for any cloth (count >= 2). The
 * library may only accept the valid ones, which all fit in the buffers
 * below; an absurd stride it accepted would be a bug ASan sees. */
#define FZ_HUGE_STRIDE ((size_t)1 << (sizeof(size_t) * 8 - 1))
static size_t fz_stride(fz *f)
{
    static const size_t table[] = {0, 12, 16, 24, 32, 48, 64, 1, 2, 3, 4, 8, 11, 13, 14, 15, 18, 22,
                                   6, 10, 20, 28, 36, 44, 52, 60, 13, 17, 25, 31, (size_t)-1,
                                   FZ_HUGE_STRIDE | 2u, (size_t)-12, (size_t)-4, FZ_HUGE_STRIDE,
                                   FZ_HUGE_STRIDE + 12u, (size_t)-16, (size_t)-12 - 4096u};
    return table[fz_u8(f) % (sizeof table / sizeof table[0])];
}

static size_t stride_bytes_of(size_t stride)
{
    return stride == 0u ? 12u : stride;
}

/* The huge strides of the table (2^63 and up) never fit a buffer of two
 * records or more. */
static bool stride_valid(size_t stride)
{
    return stride == 0u || (stride >= 12u && stride % 4u == 0u && stride < FZ_HUGE_STRIDE);
}

/* ---- the host's allocator: accounting, checks, injected failures ------- */

#define FZ_HEAD 64u

typedef struct fz_alloc {
    size_t live_blocks, live_bytes;
    uint32_t calls;
    uint32_t fail_at;   /* fail call number fail_at (1-based); 0: never */
    uint32_t fail_mask; /* also fail call k when bit (k % 32) is set */
} fz_alloc;

static void *fz_alloc_fn(void *user, size_t size, size_t alignment)
{
    fz_alloc *a = user;
    FZ_REQUIRE(alignment != 0u && (alignment & (alignment - 1u)) == 0u && alignment <= 64u);
    FZ_REQUIRE(size != 0u);
    const uint32_t k = ++a->calls;
    if (k == a->fail_at || (a->fail_mask >> (k % 32u)) & 1u) {
        return NULL;
    }
    if (size > ((size_t)1 << 30)) {
        return NULL; /* the fuzzer's cloths are small: this would be a bug's size */
    }
    unsigned char *base = aligned_alloc(64, (size + FZ_HEAD + 63u) / 64u * 64u);
    if (base == NULL) {
        return NULL;
    }
    memcpy(base, &size, sizeof size);
    a->live_blocks++;
    a->live_bytes += size;
    return base + FZ_HEAD;
}

static void fz_free_fn(void *user, void *ptr, size_t size)
{
    fz_alloc *a = user;
    FZ_REQUIRE(ptr != NULL);
    unsigned char *base = (unsigned char *)ptr - FZ_HEAD;
    size_t asked;
    memcpy(&asked, base, sizeof asked);
    if (asked != size) {
        fprintf(stderr, "free of a block of %zu bytes given as %zu\n", asked, size);
    }
    FZ_REQUIRE(asked == size);
    FZ_REQUIRE(a->live_blocks > 0u && a->live_bytes >= size);
    a->live_blocks--;
    a->live_bytes -= size;
    free(base);
}

/* ---- hooks: wind, external force, a host integrator --------------------- */

/* Where an armed call-back fires (OP_CALLBACK). */
enum { CB_WIND, CB_FORCE, CB_STEP, CB_FINISH, CB_CREATE, CB_DESTROY, CB_ENQUEUE, CB_TASK_FINISH, CB_WHERE };

typedef struct fz_hooks {
    uint32_t count;     /* particles of the cloth the hooks belong to */
    uint8_t wind_mode, force_mode;
    float wind[3], force[3];
    uint32_t target;    /* the particle a "poison one" mode writes to */
    /* host integrator */
    uint8_t integ_mode;
    int states_live;
    uint32_t step_calls;
    /* a wind or force hook wrote NaN or infinity since the step began */
    bool nonfinite;
    /* a call back into the cloth, armed by OP_CALLBACK: where and which */
    bool cb_armed;
    uint8_t cb_where, cb_which;
    /* the task hooks (OP_TASK_HOOKS): their fault, on enqueue calls
     * k * task_every + task_every - 1, and whether one hit in this step */
    uint8_t task_fault;
    uint32_t task_calls, task_every;
    bool task_fault_hit;
} fz_hooks;

static fz_hooks g_hooks;
static struct fz_world *g_world_ptr; /* the cloth a call-back reaches */
static void fz_call_back(uint8_t where);

static void note_output(fz_hooks *h, const float *out, uint32_t count)
{
    for (size_t i = 0; i < 3u * (size_t)count; ++i) {
        if (!isfinite(out[i])) {
            h->nonfinite = true;
        }
    }
}

static void fz_wind(void *user, float time, uint32_t count, const float *pos, float *out)
{
    fz_hooks *h = user;
    FZ_REQUIRE(h == &g_hooks && count == h->count && pos != NULL && out != NULL);
    FZ_REQUIRE(isfinite(time));
    for (uint32_t i = 0; i < count; ++i) {
        float *o = out + 3u * i;
        switch (h->wind_mode % 6u) {
        case 0: o[0] = o[1] = o[2] = 0.0f; break;
        case 1: memcpy(o, h->wind, sizeof h->wind); break;
        case 2: /* a storm: 100 m/s gusts changing with place and time */
            o[0] = 100.0f * sinf(pos[3u * i] * 7.0f + time * 3.0f);
            o[1] = 30.0f * cosf(pos[3u * i + 2u] * 5.0f);
            o[2] = 100.0f;
            break;
        case 3: o[0] = o[1] = o[2] = (i == h->target % count) ? h->wind[0] : 1.0f; break;
        case 4: o[0] = 1e30f; o[1] = -1e30f; o[2] = FLT_MAX; break;
        default: /* echo the positions back as velocities */
            o[0] = pos[3u * i];
            o[1] = pos[3u * i + 1u];
            o[2] = pos[3u * i + 2u];
            break;
        }
    }
    if ((h->wind_mode & 0x40u) && count > 0u) {
        out[3u * (h->target % count) + 1u] = h->wind[1]; /* a fuzzed value, NaN too, on any particle */
    }
    note_output(h, out, count);
    fz_call_back(CB_WIND);
}

static void fz_force(void *user, float time, uint32_t count, const float *pos, const float *vel, float *out)
{
    fz_hooks *h = user;
    FZ_REQUIRE(h == &g_hooks && count == h->count && pos != NULL && vel != NULL && out != NULL);
    (void)time;
    for (uint32_t i = 0; i < count; ++i) {
        float *o = out + 3u * i;
        switch (h->force_mode % 5u) {
        case 0: break; /* adds nothing */
        case 1: o[0] += h->force[0]; o[1] += h->force[1]; o[2] += h->force[2]; break;
        case 2: if (i == h->target % count) { o[0] = h->force[0]; } break;
        case 3: o[0] -= h->force[0] * vel[3u * i]; o[1] -= h->force[0] * vel[3u * i + 1u]; break;
        default: o[0] = pos[3u * i + 1u] * h->force[1]; break;
        }
    }
    if ((h->force_mode & 0x40u) && count > 0u) {
        out[3u * (h->target % count) + 2u] = h->force[2]; /* pinned or free, whatever the value */
    }
    note_output(h, out, count);
    fz_call_back(CB_FORCE);
}

static cloth_status fzi_create(void *user, const cloth_t *cloth, void **state)
{
    fz_hooks *h = user;
    FZ_REQUIRE(h == &g_hooks && cloth != NULL && state != NULL);
    if (h->integ_mode == 2u) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    uint32_t *s = malloc(sizeof *s);
    if (s == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    *s = 0xC1077u;
    h->states_live++;
    *state = s;
    fz_call_back(CB_CREATE);
    return CLOTH_OK;
}

static void fzi_destroy(void *user, void *state)
{
    fz_hooks *h = user;
    FZ_REQUIRE(h == &g_hooks && state != NULL && *(uint32_t *)state == 0xC1077u);
    *(uint32_t *)state = 0u;
    h->states_live--;
    FZ_REQUIRE(h->states_live >= 0);
    free(state);
    fz_call_back(CB_DESTROY);
}

/* Symplectic Euler through the view, with the misbehaviours the mode asks for. */
static cloth_status fzi_step(void *user, void *state, const cloth_step_view *v)
{
    fz_hooks *h = user;
    FZ_REQUIRE(h == &g_hooks && v != NULL && v->count == h->count);
    FZ_REQUIRE(isfinite(v->h) && v->h > 0.0f && v->substep < v->substeps && v->iterations >= 1u);
    FZ_REQUIRE(state == NULL || *(uint32_t *)state == 0xC1077u);
    h->step_calls++;
    for (uint32_t i = 0; i < v->count; ++i) {
        const float w = v->inv_mass[i];
        if (w > 0.0f) {
            v->vx[i] = (v->vx[i] + (v->gravity[0] + v->fx[i] * w) * v->h) * v->velocity_decay;
            v->vy[i] = (v->vy[i] + (v->gravity[1] + v->fy[i] * w) * v->h) * v->velocity_decay;
            v->vz[i] = (v->vz[i] + (v->gravity[2] + v->fz[i] * w) * v->h) * v->velocity_decay;
        }
        v->x[i] += v->vx[i] * v->h;
        v->y[i] += v->vy[i] * v->h;
        v->z[i] += v->vz[i] * v->h;
    }
    if (h->integ_mode == 3u && v->count > 0u) {
        v->x[h->target % v->count] = fz_bits(0x7fc00000u);
    }
    if (h->integ_mode == 4u && v->substep == 1u) {
        return CLOTH_ERR_UNSUPPORTED;
    }
    fz_call_back(CB_STEP);
    return CLOTH_OK;
}

static cloth_status fzi_finish(void *user, void *state, const cloth_step_view *v)
{
    (void)state;
    fz_hooks *h = user;
    FZ_REQUIRE(h == &g_hooks && v->collide_particle != NULL);
    for (uint32_t i = 0; i < v->count; ++i) {
        v->collide_particle(v->collide_ctx, i);
    }
    if (h->integ_mode == 6u && v->count > 0u) {
        v->vy[0] = fz_bits(0x7f800000u);
    }
    fz_call_back(CB_FINISH);
    return CLOTH_OK;
}

/* Task hooks that run everything on the calling thread, in ranges of
 * min_range, with the fault OP_TASK_HOOKS chose on some calls. */
enum { TF_NONE, TF_SKIP_LAST, TF_TWICE, TF_BAD_WORKER, TF_NEVER_RUN, TF_OVERRUN, TF_COUNT };

static void *fz_enqueue(cloth_task_fn *task, uint32_t count, uint32_t min_range, void *ctx, void *user)
{
    fz_hooks *h = user;
    FZ_REQUIRE(h == &g_hooks && task != NULL && count > 0u && min_range > 0u);
    const uint32_t k = h->task_calls++;
    const uint8_t fault = (h->task_every > 0u && k % h->task_every == h->task_every - 1u) ? h->task_fault : TF_NONE;
    if (fault != TF_NONE) {
        h->task_fault_hit = true;
    }
    if (fault != TF_NEVER_RUN) {
        for (uint32_t b = 0; b < count; b += min_range) {
            const uint32_t e = count - b > min_range ? b + min_range : count;
            if (fault == TF_SKIP_LAST && e == count) {
                continue;
            }
            task(b, fault == TF_OVERRUN && e == count ? count + 1u : e, fault == TF_BAD_WORKER ? 7u : 0u, ctx);
            if (fault == TF_TWICE && b == 0u) {
                task(b, e, 0u, ctx);
            }
        }
    }
    fz_call_back(CB_ENQUEUE);
    return (k & 1u) ? h : NULL; /* both ways the contract allows */
}

static void fz_task_finish(void *handle, void *user)
{
    FZ_REQUIRE(handle == user && user == &g_hooks);
    fz_call_back(CB_TASK_FINISH);
}

static const cloth_integrator_vtable fz_vtables[] = {
    {"fuzz", CLOTH_INTEGRATOR_WANTS_SPRING_FORCES, fzi_create, fzi_destroy, fzi_step, NULL},
    {"fuzz-finish", CLOTH_INTEGRATOR_WANTS_SPRING_FORCES, fzi_create, fzi_destroy, fzi_step, fzi_finish},
    {NULL, 0u, NULL, NULL, fzi_step, fzi_finish},          /* no state at all */
    {"no-step", 0u, fzi_create, fzi_destroy, NULL, NULL},   /* refused */
    {"bad-flags", 0xffffffffu, fzi_create, fzi_destroy, fzi_step, NULL}, /* refused */
};
#define FZ_VTABLES (sizeof fz_vtables / sizeof fz_vtables[0])

/* ---- the contract checks ------------------------------------------------ */

typedef struct fz_world {
    cloth_t *cloth;
    uint32_t count, tris;
    uint32_t substeps, iterations; /* as last set, for the budget; substeps 0: automatic */
    double step_weight; /* the integrator's cost per particle-substep, about */
    uint32_t colliders; /* added and not removed */
    double budget;
    fz_alloc alloc;
    bool host_alloc;
    cloth_collider_id ids[16];
    uint32_t id_count;
    /* the stiffness scales, self-collision thickness and self-friction
     * last taken (all 1, 0 and 0 for a new cloth), which the getters must
     * read after every op */
    float scales[FZ_BIG_SIDE * FZ_BIG_SIDE];
    float thickness;
    float friction;
    /* the triangle-mesh colliders added (the last 16), for OP_MESH_VERTICES */
    cloth_collider_id mesh_ids[16];
    uint32_t mesh_verts[16];
    uint32_t mesh_count;
    /* scratch buffers, sized for the largest stride and cloth */
    unsigned char buf_a[FZ_BIG_SIDE * FZ_BIG_SIDE * 64u + 64u];
    unsigned char snap_a[FZ_SNAP_BYTES], snap_b[FZ_SNAP_BYTES];
} fz_world;

static fz_world g_world;

/* An armed call-back, from the hook `where`: a call that changes the cloth
 * must come back CLOTH_ERR_BUSY with nothing done, cloth_destroy() must do
 * nothing (ASan sees the cloth used afterwards if it did), and a read works. */
static void fz_call_back(uint8_t where)
{
    fz_hooks *h = &g_hooks;
    if (!h->cb_armed || h->cb_where != where || g_world_ptr == NULL || g_world_ptr->cloth == NULL) {
        return;
    }
    cloth_t *c = g_world_ptr->cloth;
    static float buf[3u * FZ_BIG_SIDE * FZ_BIG_SIDE];
    static const unsigned char junk[64];
    const float p[3] = {0.0f, 1.0f, 0.0f};
    cloth_collider_id id = 0u;
    cloth_status s = CLOTH_ERR_BUSY;
    FZ_REQUIRE(cloth_get_positions(c, buf, 0u) == CLOTH_OK);
    switch (h->cb_which % 16u) {
    case 0: s = cloth_set_integrator(c, CLOTH_INTEGRATOR_XPBD); break;
    case 1: s = cloth_set_damping(c, 1.0f); break;
    case 2: s = cloth_step(c, 1.0f / 60.0f); break;
    case 3: s = cloth_pin(c, 0u, NULL); break;
    case 4: s = cloth_unpin(c, 0u); break;
    case 5: s = cloth_set_positions(c, buf, 0u); break;
    case 6: s = cloth_load_state(c, junk, sizeof junk); break;
    case 7: s = cloth_set_custom_integrator(c, &fz_vtables[0], &g_hooks); break;
    case 8: s = cloth_set_wind(c, NULL, NULL); break;
    case 9: s = cloth_set_external_force(c, NULL, NULL); break;
    case 10: s = cloth_set_threads(c, 2u); break;
    case 11: s = cloth_set_task_hooks(c, NULL, NULL, 0u, NULL); break;
    case 12: { /* the high bits pick a variant (seeds below 16 keep the first) */
        static float ones[FZ_BIG_SIDE * FZ_BIG_SIDE];
        switch ((h->cb_which >> 4) % 5u) {
        case 0: s = cloth_remove_collider(c, 1u); break;
        case 1: s = cloth_set_triangle_mesh_vertices(c, 1u, buf, 0u); break;
        case 2: /* scales of 1, which it would take */
            for (size_t i = 0; i < sizeof ones / sizeof ones[0]; ++i) {
                ones[i] = 1.0f;
            }
            s = cloth_set_stiffness_scales(c, ones, 0u);
            break;
        case 3: s = cloth_set_self_collision(c, 0.01f); break;
        default: s = cloth_set_self_friction(c, 0.4f); break; /* which it would take */
        }
        break;
    }
    case 13: { /* the high bits pick a variant (the seeds below 16 keep the first) */
        static const float zeros[3u * FZ_BIG_SIDE * FZ_BIG_SIDE]; /* no normal; distance 0, no ball */
        static const cloth_collider_id one[1] = {1u};
        static const float q[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        switch ((h->cb_which >> 4) % 4u) {
        case 0: s = cloth_set_substeps(c, 2u); break;
        case 1: s = cloth_set_skin_normals(c, zeros, 0u); break;
        case 2: s = cloth_set_backstops(c, zeros, 0u); break;
        default: s = cloth_set_collider_transforms(c, one, 1u, p, q); break;
        }
        break;
    }
    case 14: {
        static const float planes[24] = {
            1.0f, 0.0f, 0.0f, -0.5f, -1.0f, 0.0f, 0.0f, -0.5f, 0.0f, 1.0f, 0.0f, -0.5f,
            0.0f, -1.0f, 0.0f, -0.5f, 0.0f, 0.0f, 1.0f, -0.5f, 0.0f, 0.0f, -1.0f, -0.5f,
        };
        static const float tri[9] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f};
        static const uint32_t corners[3] = {0u, 2u, 1u};
        switch ((h->cb_which >> 4) % 3u) {
        case 0: s = cloth_add_sphere(c, p, 0.5f, &id); break;
        case 1: s = cloth_add_convex(c, planes, 6u, &id); break;
        default: s = cloth_add_triangle_mesh(c, tri, 0u, 3u, corners, 1u, &id); break;
        }
        break;
    }
    default: cloth_destroy(c); break;
    }
    if (g_trace) {
        fprintf(stderr, "    call-back %u (variant %u) from hook %u -> %s\n", h->cb_which % 16u, h->cb_which >> 4, where,
                cloth_status_string(s));
    }
    FZ_REQUIRE(s == CLOTH_ERR_BUSY);
}

static size_t snapshot(const cloth_t *cloth, unsigned char *buf)
{
    size_t size = 0;
    FZ_REQUIRE(cloth_state_size(cloth, &size) == CLOTH_OK);
    FZ_REQUIRE(size <= sizeof g_world.snap_a);
    FZ_REQUIRE(cloth_save_state(cloth, buf, size) == CLOTH_OK);
    return size;
}

/* Run one call: a status it returns must be a known one, and a refusal must
 * leave the snapshot bitwise the same. */
#define FZ_CALL(w, call)                                                                   \
    do {                                                                                   \
        const size_t fz_before_ = snapshot((w)->cloth, (w)->snap_a);                       \
        const cloth_status fz_s_ = (call);                                                 \
        if (g_trace) {                                                                     \
            fprintf(stderr, "  %s -> %s\n", #call, cloth_status_string(fz_s_));            \
        }                                                                                  \
        FZ_REQUIRE((uint32_t)fz_s_ <= (uint32_t)CLOTH_ERR_TASK_CONTRACT);                  \
        FZ_REQUIRE(strlen(cloth_status_string(fz_s_)) > 0u);                               \
        if (fz_s_ != CLOTH_OK) {                                                           \
            const size_t fz_after_ = snapshot((w)->cloth, (w)->snap_b);                    \
            FZ_REQUIRE(fz_before_ == fz_after_ &&                                          \
                       memcmp((w)->snap_a, (w)->snap_b, fz_before_) == 0);                 \
        }                                                                                  \
    } while (0)

/* Every readback is finite; positions and velocities go through a strided
 * copy whose padding must stay untouched. */
static void check_readback(fz_world *w, fz *f)
{
    const size_t stride = fz_stride(f);
    const size_t sb = stride_valid(stride) ? stride_bytes_of(stride) : 12u;
    /* the host's buffer at any byte address: an interleaved vertex buffer
     * need not align its positions to 4 */
    const size_t off = fz_u8(f) % 4u;
    const size_t bytes = sb * w->count;
    FZ_REQUIRE(off + bytes + 16u <= sizeof w->buf_a);
    unsigned char *base = w->buf_a + off;
    for (int what = 0; what < 3; ++what) {
        memset(w->buf_a, 0xA5, off + bytes + 16u);
        float *dst = (float *)(void *)base;
        cloth_status s = what == 0   ? cloth_get_positions(w->cloth, dst, stride)
                         : what == 1 ? cloth_get_velocities(w->cloth, dst, stride)
                                     : cloth_get_normals(w->cloth, dst, stride);
        if (!stride_valid(stride)) {
            FZ_REQUIRE(s == CLOTH_ERR_INVALID_ARGUMENT);
            for (size_t b = 0; b < off + bytes + 16u; ++b) {
                FZ_REQUIRE(w->buf_a[b] == 0xA5u);
            }
            continue;
        }
        FZ_REQUIRE(s == CLOTH_OK);
        for (uint32_t i = 0; i < w->count; ++i) {
            float v[3];
            memcpy(v, base + sb * i, sizeof v);
            if (!(isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]))) {
                fprintf(stderr, "%s of particle %u: %g %g %g\n",
                        what == 0 ? "position" : what == 1 ? "velocity" : "normal", i, (double)v[0],
                        (double)v[1], (double)v[2]);
            }
            FZ_REQUIRE(isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]));
            if (what == 2) {
                const double x = (double)v[0], y = (double)v[1], z = (double)v[2];
                const double len = sqrt(x * x + y * y + z * z);
                FZ_REQUIRE(fabs(len - 1.0) < 1e-3);
            }
            for (size_t b = 12; b < sb; ++b) {
                FZ_REQUIRE(base[sb * i + b] == 0xA5u);
            }
        }
        for (size_t b = 0; b < off; ++b) {
            FZ_REQUIRE(w->buf_a[b] == 0xA5u);
        }
        for (size_t b = bytes; b < bytes + 16u; ++b) {
            FZ_REQUIRE(base[b] == 0xA5u);
        }
    }
}

/* The smooth surface of a grid at a fuzzed level into buffers at any byte
 * address: finite positions, unit normals, indices in range, padding and the
 * bytes around untouched. */
static void op_smooth(fz_world *w, fz *f)
{
    static unsigned char pos[1u << 20], nrm[1u << 20], tri[1u << 21];
    const uint32_t level = fz_u8(f) % 6u; /* 0 and 5 are refused */
    const size_t ps = fz_stride(f), ns = fz_stride(f);
    const size_t po = fz_u8(f) % 4u, no = fz_u8(f) % 4u, to = fz_u8(f) % 4u;
    uint32_t nv = 0u, nt = 0u;
    const cloth_status counted = cloth_smooth_counts(w->cloth, level, &nv, &nt);
    const size_t pb = stride_valid(ps) ? stride_bytes_of(ps) : 12u, nb = stride_valid(ns) ? stride_bytes_of(ns) : 12u;
    if (counted == CLOTH_OK && ((size_t)nv * pb + po + 16u > sizeof pos || (size_t)nv * nb + no + 16u > sizeof nrm ||
                                (size_t)nt * 12u + to + 16u > sizeof tri)) {
        return; /* larger than the harness's buffers */
    }
    memset(pos, 0xA5, sizeof pos);
    memset(nrm, 0xA5, sizeof nrm);
    const cloth_status s = cloth_get_smooth(w->cloth, level, (float *)(void *)(pos + po), ps,
                                            (float *)(void *)(nrm + no), ns, (uint32_t *)(void *)(tri + to));
    if (g_trace) {
        fprintf(stderr, "  cloth_get_smooth(level %u, strides %zu %zu) -> %s, %u vertices\n", level, ps, ns,
                cloth_status_string(s), nv);
    }
    FZ_REQUIRE(s == CLOTH_OK || s == CLOTH_ERR_INVALID_ARGUMENT || s == CLOTH_ERR_UNSUPPORTED);
    /* a stride of the wrong form is refused always; a huge one only when it
     * implies a buffer (two vertices or more: a grid of one row or column
     * has no surface, and nothing is written) */
    const bool form_ok = (ps == 0u || (ps >= 12u && ps % 4u == 0u)) && (ns == 0u || (ns >= 12u && ns % 4u == 0u));
    if (!form_ok || counted != CLOTH_OK || (nv >= 2u && (!stride_valid(ps) || !stride_valid(ns)))) {
        FZ_REQUIRE(s != CLOTH_OK);
    }
    if (s != CLOTH_OK) {
        return;
    }
    for (uint32_t i = 0; i < nv; ++i) {
        float p[3], n[3];
        memcpy(p, pos + po + pb * i, sizeof p);
        memcpy(n, nrm + no + nb * i, sizeof n);
        FZ_REQUIRE(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]));
        const double nx = (double)n[0], ny = (double)n[1], nz = (double)n[2];
        const double len = sqrt(nx * nx + ny * ny + nz * nz);
        FZ_REQUIRE(fabs(len - 1.0) < 1e-3);
        for (size_t b = 12; b < pb; ++b) {
            FZ_REQUIRE(pos[po + pb * i + b] == 0xA5u);
        }
    }
    for (size_t b = 0; b < po; ++b) {
        FZ_REQUIRE(pos[b] == 0xA5u);
    }
    for (size_t b = 0; b < 16u; ++b) {
        FZ_REQUIRE(pos[po + pb * nv + b] == 0xA5u);
    }
    for (uint32_t k = 0; k < 3u * nt; ++k) {
        uint32_t v;
        memcpy(&v, tri + to + 4u * k, sizeof v);
        FZ_REQUIRE(v < nv);
    }
}

/* ---- setup: a grid or a mesh from hostile descs ------------------------- */

static uint32_t fz_side(fz *f)
{
    const uint8_t sel = fz_u8(f);
    if (sel == 0xEFu) {
        return FZ_BIG_SIDE;
    }
    if (sel < 0xF0u) {
        return sel % (FZ_MAX_SIDE + 1u);
    }
    /* absurd sizes, every one of which must be refused whatever the other
     * side is (so the fuzzer never builds a huge cloth) */
    static const uint32_t big[] = {(1u << 26) + 1u, 0x80000000u, UINT32_MAX, 0x40000001u};
    return big[sel % 4u];
}

static void fz_allocator(fz_world *w, fz *f, cloth_allocator *hooks, const cloth_allocator **out)
{
    const uint8_t mode = fz_u8(f);
    memset(hooks, 0, sizeof *hooks);
    *out = NULL;
    w->host_alloc = false;
    if (mode % 4u == 0u) {
        return;
    }
    hooks->alloc = fz_alloc_fn;
    hooks->free = fz_free_fn;
    hooks->user = &w->alloc;
    w->host_alloc = true;
    if (mode % 4u == 2u) {
        w->alloc.fail_at = fz_u8(f);
    } else if (mode % 4u == 3u) {
        w->alloc.fail_mask = fz_u32(f) & 0x0f0f0f0fu;
    }
    if (mode == 0x41u) {
        hooks->free = NULL; /* one hook only: refused */
    } else if (mode == 0x45u) {
        hooks->alloc = NULL;
    }
    *out = hooks;
}

static uint32_t fz_struct_size(fz *f, uint32_t real)
{
    const uint8_t sel = fz_u8(f);
    if (sel < 0xF8u) {
        return real;
    }
    static const uint32_t odd[] = {0u, 4u, 36u, 40u, UINT32_MAX, 0u, 1u, 0u};
    uint32_t v = odd[sel & 7u];
    return sel == 0xFDu ? real + 4u : sel == 0xFFu ? real + 64u : v;
}

static cloth_status setup_grid(fz_world *w, fz *f, bool host_alloc)
{
    /* the desc sits in a larger zeroed block so that a struct_size a little
     * larger than sizeof is not an overread of the harness's */
    union {
        cloth_grid_desc d;
        unsigned char pad[sizeof(cloth_grid_desc) + 64u];
    } u;
    memset(&u, 0, sizeof u);
    cloth_grid_desc *desc = &u.d;
    cloth_grid_desc_init(desc);
    desc->rows = fz_side(f);
    desc->cols = fz_side(f);
    const uint8_t fields = fz_u8(f); /* which fields to make hostile */
    if (fields & 1u) desc->spacing = fz_float(f);
    if (fields & 2u) fz_vec(f, desc->origin, 3);
    if (fields & 4u) fz_vec(f, desc->u_axis, 3);
    if (fields & 8u) fz_vec(f, desc->v_axis, 3);
    if (fields & 16u) desc->particle_mass = fz_float(f);
    if (fields & 32u) desc->struct_size = fz_struct_size(f, desc->struct_size);
    if (fields & 64u) desc->neighbours = fz_u8(f) & 1u ? 24u : fz_u8(f);
    cloth_allocator hooks;
    if (host_alloc) {
        fz_allocator(w, f, &hooks, &desc->allocator);
    }
    if (fields & 128u) {
        FZ_REQUIRE(cloth_create_grid(desc, NULL) != CLOTH_OK);
    }
    if (g_trace) {
        fprintf(stderr, "grid %u x %u, spacing %g, origin %g %g %g, u %g %g %g, v %g %g %g, mass %g, size %u, %u neighbours\n",
                desc->rows, desc->cols, (double)desc->spacing, (double)desc->origin[0], (double)desc->origin[1],
                (double)desc->origin[2], (double)desc->u_axis[0], (double)desc->u_axis[1], (double)desc->u_axis[2],
                (double)desc->v_axis[0], (double)desc->v_axis[1], (double)desc->v_axis[2],
                (double)desc->particle_mass, desc->struct_size, desc->neighbours);
    }
    cloth_t *cloth = (cloth_t *)(uintptr_t)1; /* must be set to NULL on failure */
    cloth_status s = cloth_create_grid(desc, &cloth);
    FZ_REQUIRE(s == CLOTH_OK ? cloth != NULL : cloth == NULL);
    if (s == CLOTH_OK) {
        FZ_REQUIRE(cloth_particle_count(cloth) == desc->rows * desc->cols);
        FZ_REQUIRE((desc->rows <= FZ_MAX_SIDE || desc->rows == FZ_BIG_SIDE) &&
                   (desc->cols <= FZ_MAX_SIDE || desc->cols == FZ_BIG_SIDE));
    }
    w->cloth = cloth;
    return s;
}

static cloth_status setup_mesh(fz_world *w, fz *f)
{
    /* a strip mesh of gw x gh vertices, then hostile edits */
    const uint32_t gw = 2u + fz_u8(f) % 7u, gh = 2u + fz_u8(f) % 7u;
    uint32_t nv = gw * gh;
    uint32_t nt = 2u * (gw - 1u) * (gh - 1u);
    const size_t stride = fz_stride(f);
    const size_t sb = stride_bytes_of(stride) > 64u ? 12u : stride_bytes_of(stride);
    static unsigned char pos[FZ_MAX_VERTS * 64u + 64u];
    static uint32_t tris[3u * FZ_MAX_TRIS];
    static float masses[FZ_MAX_VERTS];
    memset(pos, 0, sizeof pos);
    const float sp = 0.05f;
    for (uint32_t r = 0; r < gh; ++r) {
        for (uint32_t c = 0; c < gw; ++c) {
            const float v[3] = {(float)c * sp, 0.5f, (float)r * sp};
            memcpy(pos + sb * (r * gw + c), v, sizeof v);
        }
    }
    uint32_t t = 0;
    for (uint32_t r = 0; r + 1u < gh; ++r) {
        for (uint32_t c = 0; c + 1u < gw; ++c) {
            const uint32_t i = r * gw + c;
            const uint32_t q[6] = {i, i + gw, i + 1u, i + 1u, i + gw, i + gw + 1u};
            memcpy(tris + 3u * t, q, sizeof q);
            t += 2u;
        }
    }
    for (uint32_t i = 0; i < FZ_MAX_VERTS; ++i) {
        masses[i] = 0.01f;
    }
    cloth_mesh_desc desc;
    cloth_mesh_desc_init(&desc);
    /* edits: 0 position float, 1 index, 2 mass, 3 counts, 4 struct_size, 5 flags */
    const uint8_t edits = fz_u8(f) % 16u;
    bool use_masses = false, use_inv = false;
    for (uint8_t e = 0; e < edits; ++e) {
        const uint8_t kind = fz_u8(f);
        switch (kind % 6u) {
        case 0: {
            if (nv == 0u) break;
            const uint32_t i = fz_u8(f) % nv;
            float v[3];
            memcpy(v, pos + sb * i, sizeof v);
            const uint8_t axis = fz_u8(f) % 3u; /* read before the value: one order on every compiler */
            v[axis] = fz_float(f);
            memcpy(pos + sb * i, v, sizeof v);
            break;
        }
        case 1:
            if (nt > 0u) {
                const uint32_t at = fz_u8(f) % (3u * nt);
                tris[at] = fz_index(f, nv);
            }
            break;
        case 2:
            if (nv > 0u) {
                const uint32_t at = fz_u8(f) % nv;
                masses[at] = fz_float(f);
            }
            break;
        case 3: {
            /* fewer vertices or triangles than built (never more than the
             * buffers hold: claiming more would be the harness lying) */
            const uint8_t m = fz_u8(f);
            if (m & 1u) nv = (uint32_t)fz_u8(f) % (nv + 1u);
            else nt = (uint32_t)fz_u8(f) % (nt + 1u);
            break;
        }
        case 4: desc.struct_size = fz_struct_size(f, desc.struct_size); break;
        default:
            use_masses = (kind & 8u) != 0u;
            use_inv = (kind & 16u) != 0u;
            desc.particle_mass = fz_float(f);
            break;
        }
    }
    desc.positions = fz_u8(f) == 0xEEu ? NULL : (const float *)(void *)pos;
    desc.position_stride = stride;
    desc.vertex_count = nv;
    desc.triangles = tris;
    desc.triangle_count = nt;
    desc.masses = use_masses ? masses : NULL;
    desc.inverse_masses = use_inv ? masses : NULL;
    cloth_allocator hooks;
    fz_allocator(w, f, &hooks, &desc.allocator);
    cloth_t *cloth = (cloth_t *)(uintptr_t)1;
    cloth_status s = cloth_create_mesh(&desc, &cloth);
    FZ_REQUIRE(s == CLOTH_OK ? cloth != NULL : cloth == NULL);
    if (s == CLOTH_OK) {
        FZ_REQUIRE(stride_valid(stride) && nv >= 3u && nt >= 1u);
        FZ_REQUIRE(cloth_particle_count(cloth) == nv);
    }
    w->cloth = cloth;
    return s;
}

/* ---- the ops ------------------------------------------------------------ */

/* Every op, in the order of their numbers (make_corpus.py reads this list). */
#define FZ_OPS(X)                                                                                  \
    X(STEP) X(STEP_SMALL) X(GRAVITY) X(DAMPING) X(SUBSTEPS) X(ITERATIONS) X(STIFFNESS)             \
    X(SPRING_DAMPING) X(INTEGRATOR) X(CUSTOM_INTEGRATOR) X(PIN) X(UNPIN) X(SPHERE) X(ELLIPSOID)    \
    X(PLANE) X(CAPSULE) X(CYLINDER) X(TORUS) X(FRICTION) X(THICKNESS) X(TRANSFORM)                 \
    X(GET_TRANSFORM) X(REMOVE_COLLIDER) X(WIND) X(CONSTANT_WIND) X(AIR) X(FORCE_HOOK)              \
    X(READBACK) X(TRIANGLES) X(SET_POSITIONS) X(SET_VELOCITIES) X(SNAPSHOT_ROUNDTRIP)              \
    X(SNAPSHOT_CORRUPT) X(SNAPSHOT_FOREIGN) X(STATS) X(WATCHDOG) X(TETHERS) X(BENDING)             \
    X(PBD_PARAMS) X(SPRINGS) X(NULLS) X(STRAIN_LIMIT) X(TETHER_SCHEDULE) X(LEVEL_SWEEPS)            \
    X(CALLBACK) X(TASK_HOOKS) X(PIN_ALL) X(SMOOTH) X(SKIN_TARGETS) X(MAX_DISTANCES) X(TAPERED)    \
    X(INVERSE_MASSES) X(PARTICLE_RADIUS) X(FRAME) X(INERTIA) X(TELEPORT) X(CONVEX) X(TRI_MESH)     \
    X(MESH_VERTICES) X(SKIN_NORMALS) X(BACKSTOPS) X(COLLIDER_TRANSFORMS) X(STIFFNESS_SCALES)          \
    X(SELF_COLLISION) X(SELF_FRICTION)
#define FZ_OP_ENUM(name) OP_##name,
#define FZ_OP_NAME(name) #name,
enum op { FZ_OPS(FZ_OP_ENUM) OP_COUNT };
static const char *const fz_op_names[] = {FZ_OPS(FZ_OP_NAME)};

static cloth_collider_id fz_collider_id(fz_world *w, fz *f)
{
    const uint8_t sel = fz_u8(f);
    if (sel < 0xF0u && w->id_count > 0u) {
        return w->ids[sel % w->id_count];
    }
    static const cloth_collider_id odd[] = {0u, 1u, 2u, 0xffffffffu, 0x80000000u, 0x10000u, 7u, 0x00010001u};
    return odd[sel & 7u];
}

static void remember_id(fz_world *w, cloth_status s, cloth_collider_id id)
{
    if (s == CLOTH_OK) {
        w->colliders++;
        w->ids[w->id_count % 16u] = id;
        if (w->id_count < 16u) {
            w->id_count++;
        }
    }
}

/* particles x substeps, times the integrator's weight (position-based ones
 * pay per iteration), plus a quarter for each collider. Automatic substeps
 * (w->substeps 0) start at 360 a second: twice that, for a rise and a step
 * run again, up to the 1024 a step may run in all. */
static double step_cost(const fz_world *w, float dt)
{
    if (!(dt > 0.0f && dt <= 1.0f)) {
        return 0.0; /* refused before any work */
    }
    const double automatic = fmin(1024.0, 2.0 * ceil(360.0 * (double)dt));
    const double subs = w->substeps == 0u ? automatic : (double)w->substeps;
    const double it = w->step_weight < 0.0 ? (double)w->iterations : w->step_weight;
    return (double)(w->count + 1u) * subs * it * (1.0 + (double)w->colliders / 4.0);
}

/* The step's status, or CLOTH_STATUS_FORCE32 when the budget skipped it. */
static cloth_status op_step(fz_world *w, float dt)
{
    const double cost = step_cost(w, dt);
    if (w->budget < cost) {
        return CLOTH_STATUS_FORCE32;
    }
    w->budget -= cost;
    const uint64_t before = cloth_state_hash(w->cloth);
    g_hooks.nonfinite = false;
    g_hooks.task_fault_hit = false;
    const cloth_status s = cloth_step(w->cloth, dt);
    if (g_trace) {
        fprintf(stderr, "  cloth_step(%.9g) -> %s\n", (double)dt, cloth_status_string(s));
    }
    FZ_REQUIRE((uint32_t)s <= (uint32_t)CLOTH_ERR_TASK_CONTRACT);
    /* a hook's NaN, or a task hook's broken contract, never passes as OK */
    FZ_REQUIRE(!(g_hooks.nonfinite && s == CLOTH_OK));
    FZ_REQUIRE(!(g_hooks.task_fault_hit && s == CLOTH_OK));
    if (!(isfinite(dt) && dt > 0.0f && dt <= 1.0f)) {
        FZ_REQUIRE(s == CLOTH_ERR_INVALID_ARGUMENT);
    }
    if (s != CLOTH_OK) {
        FZ_REQUIRE(cloth_state_hash(w->cloth) == before);
    }
    return s;
}

static void op_snapshot_corrupt(fz_world *w, fz *f)
{
    static unsigned char buf[FZ_SNAP_BYTES + 64u];
    const size_t size = snapshot(w->cloth, buf);
    size_t len = size;
    const uint8_t edits = fz_u8(f) % 8u;
    for (uint8_t e = 0; e < edits; ++e) {
        const uint16_t at = fz_u16(f);
        const uint8_t val = fz_u8(f);
        const unsigned flipped = buf[at % size] ^ (1u << (val & 7u));
        buf[at % size] = (unsigned char)((at & 0x8000u) ? val : flipped);
    }
    const uint8_t how = fz_u8(f);
    if (how & 1u) {
        len = size - (size_t)fz_u8(f) % (size + 1u); /* truncated */
    } else if (how & 2u) {
        len = size + fz_u8(f) % 64u; /* longer than recorded */
        memset(buf + size, 0, len - size);
    }
    if ((how & 4u) && len >= 16u + 8u) {
        /* make the frame right again so the contents checks are reached:
         * the recorded total, then the FNV-1a checksum */
        uint64_t total = len;
        for (int k = 0; k < 8; ++k) {
            buf[16 + k] = (unsigned char)(total >> (8 * k));
        }
        uint64_t hash = 0xcbf29ce484222325u;
        for (size_t i = 0; i + 8u < len; ++i) {
            hash = (hash ^ buf[i]) * 0x100000001b3u;
        }
        for (int k = 0; k < 8; ++k) {
            buf[len - 8u + (size_t)k] = (unsigned char)(hash >> (8 * k));
        }
    }
    FZ_CALL(w, cloth_load_state(w->cloth, buf, len));
}

/* Raw fuzzer bytes as a snapshot, with the magic and a version (1, 2 or 3)
 * put in front: a version 3 one has its sections measured against the
 * recorded size before the checksum is looked at. */
static void op_snapshot_foreign(fz_world *w, fz *f)
{
    static unsigned char buf[4096];
    const size_t len = fz_u16(f) % sizeof buf;
    memset(buf, 0, sizeof buf);
    for (size_t i = 0; i < len && f->at < f->n; ++i) {
        buf[i] = fz_u8(f);
    }
    if (len >= 12u && (buf[0] & 1u)) {
        /* 1 and 2 load; bit 2, which the older seeds leave clear, asks for 3 */
        const unsigned char version = (buf[0] & 4u) ? 3u : (buf[0] & 2u) ? 2u : 1u;
        memcpy(buf, "CLTHSNAP\x01\x00\x00\x00", 12);
        buf[8] = version;
    }
    FZ_CALL(w, cloth_load_state(w->cloth, buf, len));
}

static void op_snapshot_roundtrip(fz_world *w, fz *f)
{
    static unsigned char saved[FZ_SNAP_BYTES];
    const size_t size = snapshot(w->cloth, saved);
    const uint64_t h0 = cloth_state_hash(w->cloth);
    /* step on, then go back: bitwise where it was */
    const uint8_t steps = fz_u8(f) % 3u;
    for (uint8_t k = 0; k < steps; ++k) {
        op_step(w, 1.0f / 60.0f);
    }
    cloth_status st;
    FZ_CALL(w, st = cloth_load_state(w->cloth, saved, size));
    if (st == CLOTH_ERR_OUT_OF_MEMORY && (w->alloc.fail_at != 0u || w->alloc.fail_mask != 0u)) {
        return; /* an injected allocation failure: refused, and nothing changed */
    }
    FZ_REQUIRE(st == CLOTH_OK);
    FZ_REQUIRE(cloth_state_hash(w->cloth) == h0);
    const size_t again = snapshot(w->cloth, w->snap_b);
    FZ_REQUIRE(again == size && memcmp(saved, w->snap_b, size) == 0);
}

typedef enum { SET_POSITIONS, SET_VELOCITIES, SET_SKIN_TARGETS } fz_vectors;

static void op_set_vectors(fz_world *w, fz *f, fz_vectors what)
{
    const bool positions = what != SET_VELOCITIES;
    const size_t stride = fz_stride(f);
    const size_t sb = stride_valid(stride) ? stride_bytes_of(stride) : 12u;
    float base[3];
    fz_vec(f, base, 3);
    const uint8_t mode = fz_u8(f);
    memset(w->buf_a, 0, sb * w->count + 16u);
    /* start from the current state, then edit a few values */
    if (stride_valid(stride)) {
        cloth_status s = positions ? cloth_get_positions(w->cloth, (float *)(void *)w->buf_a, stride)
                                   : cloth_get_velocities(w->cloth, (float *)(void *)w->buf_a, stride);
        FZ_REQUIRE(s == CLOTH_OK);
    }
    for (uint32_t i = 0; i < w->count; ++i) {
        if (mode & 1u) {
            float v[3];
            memcpy(v, w->buf_a + sb * i, sizeof v);
            v[i % 3u] += base[i % 3u] * (float)(i % 5u);
            memcpy(w->buf_a + sb * i, v, sizeof v);
        }
    }
    if ((mode & 2u) && w->count > 0u) {
        float bad = fz_float(f);
        const size_t at = sb * (fz_u8(f) % w->count);
        const size_t component = 4u * (fz_u8(f) % 3u);
        memcpy(w->buf_a + at + component, &bad, sizeof bad);
    }
    const float *src = (const float *)(void *)w->buf_a;
    if (what == SET_SKIN_TARGETS) {
        FZ_CALL(w, cloth_set_skin_targets(w->cloth, src, stride));
        return;
    }
    FZ_CALL(w, positions ? cloth_set_positions(w->cloth, src, stride) : cloth_set_velocities(w->cloth, src, stride));
}

/* Inverse masses: the cloth's own scaled by a fuzzed factor (0, huge,
 * NaN...), one particle's replaced, packed or with a stride of 8. */
static void op_inverse_masses(fz_world *w, fz *f)
{
    const float scale = fz_float(f), one = fz_float(f);
    const uint8_t mode = fz_u8(f);
    const size_t stride = (mode & 1u) ? 8u : 0u, step = stride ? 2u : 1u;
    float *buf = (float *)(void *)w->buf_a;
    FZ_REQUIRE(cloth_get_inverse_masses(w->cloth, buf, stride) == CLOTH_OK);
    for (uint32_t i = 0; i < w->count; ++i) {
        buf[step * i] *= (mode & 2u) ? scale : 1.0f;
    }
    if (w->count > 0u) {
        buf[step * (fz_u8(f) % w->count)] = one;
    }
    FZ_CALL(w, cloth_set_inverse_masses(w->cloth, buf, stride));
}

/* Max distances from one fuzzed value: every third particle at 0 (a pin)
 * or the value scaled per particle, packed or with an odd stride. */
static void op_max_distances(fz_world *w, fz *f)
{
    const float d = fz_float(f);
    const uint8_t mode = fz_u8(f);
    float *buf = (float *)(void *)w->buf_a;
    for (uint32_t i = 0; i < w->count; ++i) {
        buf[i] = (mode & 1u) && i % 3u == 0u ? 0.0f : (mode & 2u) ? d * (float)(i % 4u) : d;
    }
    FZ_CALL(w, cloth_set_max_distances(w->cloth, buf, (mode & 4u) ? 6u : 0u));
}

/* Every particle pinned, one call each, each to its own target; a step
 * that succeeds leaves each on it. Then every other one released. */
static void op_pin_all(fz_world *w, fz *f)
{
    const uint8_t m = fz_u8(f);
    const float scale = fz_float(f);
    for (uint32_t i = 0; i < w->count; ++i) {
        const float t[3] = {scale * (float)i, 1.0f, -scale};
        const cloth_status s = cloth_pin(w->cloth, i, t);
        FZ_REQUIRE(s == (isfinite(t[0]) && isfinite(t[2]) ? CLOTH_OK : CLOTH_ERR_INVALID_ARGUMENT) ||
                   s == CLOTH_ERR_OUT_OF_MEMORY);
        if (s != CLOTH_OK) {
            return;
        }
    }
    if (op_step(w, 1.0f / 60.0f) == CLOTH_OK) {
        FZ_REQUIRE(cloth_get_positions(w->cloth, (float *)(void *)w->buf_a, 0u) == CLOTH_OK);
        for (uint32_t i = 0; i < w->count; ++i) {
            float x[3];
            memcpy(x, w->buf_a + 12u * i, sizeof x);
            FZ_REQUIRE(x[0] == scale * (float)i && x[1] == 1.0f && x[2] == -scale);
        }
    }
    if (m & 1u) {
        for (uint32_t i = 0; i < w->count; i += 2u) {
            FZ_REQUIRE(cloth_unpin(w->cloth, i) == CLOTH_OK);
        }
    }
}

/* ---- convex and triangle-mesh colliders --------------------------------- */

/* A box from 7 fuzzed floats, made sane so that the library must take it:
 * half-sizes in [0.01, 100] (else 0.25), a centre within 100 of the origin
 * (else 0) and a turn about y of at most 100 radians (else none). */
typedef struct fz_box {
    float h[3], c[3];
    float axes[3][3]; /* the box's axes, turned about y: a right-handed frame */
} fz_box;

static void fz_read_box(fz *f, fz_box *b)
{
    float raw[7];
    fz_vec(f, raw, 7);
    for (int k = 0; k < 3; ++k) {
        const float h = fabsf(raw[k]);
        b->h[k] = h >= 0.01f && h <= 100.0f ? h : 0.25f;
        b->c[k] = isfinite(raw[3 + k]) && fabsf(raw[3 + k]) <= 100.0f ? raw[3 + k] : 0.0f;
    }
    const float a = isfinite(raw[6]) && fabsf(raw[6]) <= 100.0f ? raw[6] : 0.0f;
    const float cs = cosf(a), sn = sinf(a);
    const float axes[3][3] = {{cs, 0.0f, -sn}, {0.0f, 1.0f, 0.0f}, {sn, 0.0f, cs}};
    memcpy(b->axes, axes, sizeof axes);
}

/* Its six planes (nx, ny, nz, d), the solid where n.x + d <= 0. */
static void fz_box_planes(const fz_box *b, float *planes)
{
    for (int a = 0; a < 3; ++a) {
        for (int side = 0; side < 2; ++side) {
            float *pl = planes + 4 * (2 * a + side);
            const float sign = side == 0 ? 1.0f : -1.0f;
            for (int k = 0; k < 3; ++k) {
                pl[k] = sign * b->axes[a][k];
            }
            pl[3] = -(b->h[a] + pl[0] * b->c[0] + pl[1] * b->c[1] + pl[2] * b->c[2]);
        }
    }
}

/* Its 8 corners (xyz) and 12 triangles, counter-clockwise seen from outside. */
static void fz_box_mesh(const fz_box *b, float *v, uint32_t *tri)
{
    for (uint32_t i = 0; i < 8u; ++i) {
        for (int k = 0; k < 3; ++k) {
            float x = b->c[k];
            for (uint32_t a = 0; a < 3u; ++a) {
                x += ((i >> a) & 1u ? b->h[a] : -b->h[a]) * b->axes[a][k];
            }
            v[3u * i + (uint32_t)k] = x;
        }
    }
    uint32_t t = 0;
    for (uint32_t a = 0; a < 3u; ++a) {
        const uint32_t ax_b = (a + 1u) % 3u, ax_c = (a + 2u) % 3u;
        for (uint32_t side = 0; side < 2u; ++side) {
            static const uint32_t q[4][2] = {{0u, 0u}, {1u, 0u}, {1u, 1u}, {0u, 1u}};
            uint32_t quad[4];
            for (uint32_t k = 0; k < 4u; ++k) {
                const uint32_t corner = side << a | q[k][0] << ax_b | q[k][1] << ax_c;
                quad[side == 0u ? 3u - k : k] = corner; /* the -a face: the other way round */
            }
            const uint32_t two[6] = {quad[0], quad[1], quad[2], quad[0], quad[2], quad[3]};
            memcpy(tri + 3u * t, two, sizeof two);
            t += 2u;
        }
    }
}

/* cloth_add_convex(): a fuzzed box (accepted), or a ball of 4 to 64 planes,
 * with extra planes, edited values or a plane count past what was built
 * (zeros: not unit normals) or past 64. */
static void op_convex(fz_world *w, fz *f)
{
    static float planes[4u * FZ_MAX_PLANES];
    memset(planes, 0, sizeof planes);
    const uint8_t mode = fz_u8(f);
    fz_box b;
    fz_read_box(f, &b);
    uint32_t count = 6u;
    bool valid = true;
    if (mode & 1u) {
        /* a ball: k normals spread over the sphere (a spiral), radius h[0];
         * too few of them bound nothing and are refused */
        count = 4u + fz_u8(f) % 61u;
        valid = false;
        for (uint32_t k = 0; k < count; ++k) {
            const float y = 1.0f - 2.0f * ((float)k + 0.5f) / (float)count;
            const float r = sqrtf(fmaxf(0.0f, 1.0f - y * y)), phi = 2.39996323f * (float)k;
            float *pl = planes + 4u * k;
            pl[0] = r * cosf(phi);
            pl[1] = y;
            pl[2] = r * sinf(phi);
            pl[3] = -(b.h[0] + pl[0] * b.c[0] + pl[1] * b.c[1] + pl[2] * b.c[2]);
        }
    } else {
        fz_box_planes(&b, planes);
    }
    const uint32_t extra = (mode >> 1) & 3u;
    for (uint32_t e = 0; e < extra; ++e) { /* any plane: it may cut the solid away, or not be unit */
        float *pl = planes + 4u * count;
        fz_vec(f, pl, 4);
        const float len = sqrtf(pl[0] * pl[0] + pl[1] * pl[1] + pl[2] * pl[2]);
        if ((mode & 0x40u) && isfinite(len) && len > 0.0f) {
            pl[0] /= len;
            pl[1] /= len;
            pl[2] /= len;
        }
        ++count;
        valid = false;
    }
    const uint32_t edits = (mode >> 3) & 3u;
    for (uint32_t e = 0; e < edits; ++e) {
        const uint32_t at = fz_u8(f) % (4u * count);
        planes[at] = fz_float(f);
        valid = false;
    }
    if (mode & 0x80u) {
        count = fz_u8(f) % (FZ_MAX_PLANES + 1u);
        valid = false;
    }
    if (g_trace) {
        fprintf(stderr, "  convex: %u planes (%s), box half-sizes %g %g %g about %g %g %g\n", count,
                valid ? "a box" : (mode & 1u) ? "a ball" : "edited", (double)b.h[0], (double)b.h[1], (double)b.h[2],
                (double)b.c[0], (double)b.c[1], (double)b.c[2]);
    }
    cloth_collider_id id = 0u;
    cloth_status st;
    FZ_CALL(w, st = cloth_add_convex(w->cloth, planes, count, &id));
    if (count < 4u || count > 64u) {
        FZ_REQUIRE(st == CLOTH_ERR_INVALID_ARGUMENT);
    }
    if (valid) {
        FZ_REQUIRE(st == CLOTH_OK || (st == CLOTH_ERR_OUT_OF_MEMORY && w->host_alloc));
    }
    remember_id(w, st, id);
}

/* cloth_add_triangle_mesh(): a closed box or an open heightfield (accepted
 * unless edited), or a soup of triangles from the bytes; any stride, with
 * edited coordinates and indices and fewer vertices or triangles than
 * built. Once added, its vertices read back as given. */
static void op_tri_mesh(fz_world *w, fz *f)
{
    static unsigned char vbuf[FZ_MESH_VERTS * 64u + 64u];
    static float v[3u * FZ_MESH_VERTS];
    static uint32_t tri[3u * FZ_MESH_TRIS];
    const uint8_t mode = fz_u8(f);
    const uint8_t kind = (uint8_t)((mode & 3u) % 3u); /* box, heightfield, soup (3: box) */
    const size_t stride = fz_stride(f);
    const size_t sb = stride_valid(stride) ? stride_bytes_of(stride) : 12u;
    fz_box b;
    fz_read_box(f, &b);
    uint32_t nv, nt;
    if (kind == 0u) {
        nv = 8u;
        nt = 12u;
        fz_box_mesh(&b, v, tri);
    } else if (kind == 1u) {
        /* g x g vertices spaced h[0] apart about c, heights from the bytes,
         * counter-clockwise seen from above */
        const uint32_t g = 2u + fz_u8(f) % 3u;
        nv = g * g;
        nt = 2u * (g - 1u) * (g - 1u);
        for (uint32_t i = 0; i < g; ++i) {
            for (uint32_t j = 0; j < g; ++j) {
                float *p = v + 3u * (i * g + j);
                p[0] = b.c[0] + b.h[0] * (float)i;
                p[1] = b.c[1] + (float)(int8_t)fz_u8(f) / 64.0f;
                p[2] = b.c[2] + b.h[0] * (float)j;
            }
        }
        uint32_t t = 0;
        for (uint32_t i = 0; i + 1u < g; ++i) {
            for (uint32_t j = 0; j + 1u < g; ++j) {
                const uint32_t a = i * g + j, x = a + g, z = a + 1u;
                const uint32_t two[6] = {a, z, x, x, z, x + 1u};
                memcpy(tri + 3u * t, two, sizeof two);
                t += 2u;
            }
        }
    } else {
        nv = 3u + fz_u8(f) % (FZ_MESH_VERTS - 2u);
        nt = 1u + fz_u8(f) % FZ_MESH_TRIS;
        for (uint32_t i = 0; i < 3u * nv; ++i) {
            v[i] = b.c[i % 3u] + (float)(int8_t)fz_u8(f) / 16.0f;
        }
        for (uint32_t i = 0; i < 3u * nt; ++i) {
            tri[i] = fz_u8(f) % nv;
        }
    }
    bool valid = kind != 2u && stride_valid(stride);
    const uint32_t edits = (mode >> 2) & 3u;
    for (uint32_t e = 0; e < edits; ++e) {
        const uint8_t sel = fz_u8(f);
        if (sel & 1u) {
            const uint32_t at = fz_u8(f) % (3u * nt);
            tri[at] = fz_index(f, nv);
        } else {
            const uint32_t at = fz_u8(f) % (3u * nv);
            v[at] = fz_float(f);
        }
        valid = false;
    }
    if (mode & 0x40u) { /* fewer vertices or triangles than built, never more */
        const uint8_t which = fz_u8(f);
        const uint8_t n = fz_u8(f);
        if (which & 1u) {
            nv = n % (nv + 1u);
        } else {
            nt = n % (nt + 1u);
        }
        valid = false;
    }
    memset(vbuf, 0xA5, sizeof vbuf);
    for (uint32_t i = 0; i < nv; ++i) {
        memcpy(vbuf + sb * i, v + 3u * i, 3u * sizeof(float));
    }
    if (g_trace) {
        fprintf(stderr, "  triangle mesh: %s, %u vertices, %u triangles, stride %zu\n",
                kind == 0u ? "box" : kind == 1u ? "heightfield" : "soup", nv, nt, stride);
    }
    cloth_collider_id id = 0u;
    cloth_status st;
    FZ_CALL(w, st = cloth_add_triangle_mesh(w->cloth, (const float *)(void *)vbuf, stride, nv, tri, nt, &id));
    if (!stride_valid(stride) || nv < 3u || nt < 1u) {
        FZ_REQUIRE(st == CLOTH_ERR_INVALID_ARGUMENT);
    }
    if (valid) {
        FZ_REQUIRE(st == CLOTH_OK || (st == CLOTH_ERR_OUT_OF_MEMORY && w->host_alloc));
    }
    remember_id(w, st, id);
    if (st != CLOTH_OK) {
        return;
    }
    const uint32_t slot = w->mesh_count++ % 16u;
    w->mesh_ids[slot] = id;
    w->mesh_verts[slot] = nv;
    /* packed, they are the vertices given, to the bit */
    static float back[3u * FZ_MESH_VERTS];
    FZ_REQUIRE(cloth_get_triangle_mesh_vertices(w->cloth, id, back, 0u) == CLOTH_OK);
    FZ_REQUIRE(memcmp(back, v, 3u * sizeof(float) * nv) == 0);
}

/* cloth_set_triangle_mesh_vertices() on a mesh added here (or any id):
 * its vertices as they are (accepted), moved rigidly, deformed, or one
 * value replaced; any stride. Accepted, they read back as given; refused,
 * as they were. */
static void op_mesh_vertices(fz_world *w, fz *f)
{
    static unsigned char buf[FZ_MESH_VERTS * 64u + 64u];
    static float before[3u * FZ_MESH_VERTS], after[3u * FZ_MESH_VERTS];
    const uint8_t sel = fz_u8(f);
    const uint32_t known_count = w->mesh_count < 16u ? w->mesh_count : 16u;
    const bool known = sel < 0xC0u && known_count > 0u;
    cloth_collider_id id;
    uint32_t nv = 0u;
    if (known) {
        id = w->mesh_ids[sel % known_count];
        nv = w->mesh_verts[sel % known_count];
    } else {
        id = fz_collider_id(w, f);
    }
    const size_t stride = fz_stride(f);
    const size_t sb = stride_valid(stride) ? stride_bytes_of(stride) : 12u;
    const uint8_t mode = fz_u8(f);
    float move[3];
    fz_vec(f, move, 3);
    const uint8_t at = fz_u8(f), comp = fz_u8(f);
    const float value = fz_float(f);
    /* any mesh reads at most FZ_MESH_VERTS records of at most 64 bytes */
    memset(buf, 0xA5, sizeof buf);
    cloth_status got = CLOTH_ERR_OUT_OF_RANGE;
    if (known) {
        got = cloth_get_triangle_mesh_vertices(w->cloth, id, before, 0u);
        FZ_REQUIRE(got == CLOTH_OK || got == CLOTH_ERR_OUT_OF_RANGE); /* removed since */
    }
    if (got == CLOTH_OK) {
        for (uint32_t i = 0; i < nv; ++i) {
            float p[3];
            memcpy(p, before + 3u * i, sizeof p);
            for (uint32_t k = 0; k < 3u; ++k) {
                switch (mode % 4u) {
                case 1: p[k] += move[k]; break;                               /* rigidly */
                case 2: p[k] += move[k] * 0.25f * (float)((i + k) % 3u); break; /* deformed */
                default: break;                                               /* as they are, or one replaced */
                }
            }
            memcpy(buf + sb * i, p, sizeof p);
        }
        if (mode % 4u == 3u && nv > 0u) {
            memcpy(buf + sb * (at % nv) + 4u * (comp % 3u), &value, sizeof value);
        }
    }
    if (g_trace) {
        fprintf(stderr, "  mesh vertices: id %u (%s, %u vertices), mode %u, stride %zu, move %g %g %g\n", id,
                known ? "a mesh added here" : "any id", nv, mode % 4u, stride, (double)move[0], (double)move[1],
                (double)move[2]);
    }
    cloth_status st;
    FZ_CALL(w, st = cloth_set_triangle_mesh_vertices(w->cloth, id, (const float *)(void *)buf, stride));
    if (got != CLOTH_OK) {
        return;
    }
    if (!stride_valid(stride)) {
        FZ_REQUIRE(st == CLOTH_ERR_INVALID_ARGUMENT);
    }
    if (mode % 4u == 0u && stride_valid(stride)) { /* what it has already: must be taken */
        FZ_REQUIRE(st == CLOTH_OK || (st == CLOTH_ERR_OUT_OF_MEMORY && w->host_alloc));
    }
    FZ_REQUIRE(cloth_get_triangle_mesh_vertices(w->cloth, id, after, 0u) == CLOTH_OK);
    for (uint32_t i = 0; i < nv; ++i) {
        FZ_REQUIRE(memcmp(after + 3u * i, st == CLOTH_OK ? (const void *)(buf + sb * i) : (const void *)(before + 3u * i),
                          3u * sizeof(float)) == 0);
    }
}

/* ---- skin normals, backstops, many colliders at once -------------------- */

/* A squared length the library must take as a skin normal (unit, or every
 * component 0), one it must refuse (not finite, or far enough from 1 and 0
 * that float rounding cannot matter), or neither: within the margins of its
 * 1e-3 tolerance, or so short that its square underflows to 0 in float. */
typedef enum { FZ_TAKE, FZ_REFUSE, FZ_EITHER } fz_verdict;

static fz_verdict normal_verdict(const float n[3])
{
    if (!(isfinite(n[0]) && isfinite(n[1]) && isfinite(n[2]))) {
        return FZ_REFUSE;
    }
    if (n[0] == 0.0f && n[1] == 0.0f && n[2] == 0.0f) {
        return FZ_TAKE;
    }
    const double x = (double)n[0], y = (double)n[1], z = (double)n[2];
    const double n2 = x * x + y * y + z * z;
    if (fabs(n2 - 1.0) <= 0.9e-3) {
        return FZ_TAKE;
    }
    return fabs(n2 - 1.0) > 1.1e-3 && n2 >= 1e-30 ? FZ_REFUSE : FZ_EITHER;
}

/* cloth_set_skin_normals(): one fuzzed direction made unit (or left as it
 * is), the same for every particle or turning about y from one to the next,
 * every fourth one 0 (none), one value replaced, any stride, or NULL. Taken
 * when the stride and every normal are good, refused when one is not. */
static void op_skin_normals(fz_world *w, fz *f)
{
    const size_t stride = fz_stride(f);
    const size_t sb = stride_valid(stride) ? stride_bytes_of(stride) : 12u;
    float dir[3];
    fz_vec(f, dir, 3);
    const uint8_t mode = fz_u8(f);
    const float turn = fz_float(f);
    if (!(mode & 8u)) {
        const double x = (double)dir[0], y = (double)dir[1], z = (double)dir[2];
        const double len = sqrt(x * x + y * y + z * z);
        if (isfinite(len) && len > 1e-30) {
            dir[0] = (float)(x / len);
            dir[1] = (float)(y / len);
            dir[2] = (float)(z / len);
        } else {
            dir[0] = dir[2] = 0.0f;
            dir[1] = 1.0f;
        }
    }
    const float a = isfinite(turn) && fabsf(turn) <= 100.0f ? turn : 0.0f;
    memset(w->buf_a, 0xA5, sb * w->count + 16u);
    for (uint32_t i = 0; i < w->count; ++i) {
        float n[3] = {dir[0], dir[1], dir[2]};
        if (mode & 1u) {
            const float cs = cosf(a * (float)i), sn = sinf(a * (float)i);
            n[0] = cs * dir[0] + sn * dir[2];
            n[2] = cs * dir[2] - sn * dir[0];
        }
        if ((mode & 2u) && i % 4u == 0u) {
            n[0] = n[1] = n[2] = 0.0f;
        }
        memcpy(w->buf_a + sb * i, n, sizeof n);
    }
    if ((mode & 4u) && w->count > 0u) {
        const float value = fz_float(f);
        const size_t at = sb * (fz_u8(f) % w->count), component = 4u * (fz_u8(f) % 3u);
        memcpy(w->buf_a + at + component, &value, sizeof value);
    }
    const bool null = (mode & 0x10u) != 0u;
    fz_verdict verdict = null || !stride_valid(stride) ? FZ_REFUSE : FZ_TAKE;
    for (uint32_t i = 0; verdict != FZ_REFUSE && i < w->count; ++i) {
        float n[3];
        memcpy(n, w->buf_a + sb * i, sizeof n);
        const fz_verdict one = normal_verdict(n);
        verdict = one == FZ_TAKE ? verdict : one;
    }
    if (g_trace) {
        fprintf(stderr, "  skin normals: %g %g %g, mode %u, stride %zu, %s\n", (double)dir[0], (double)dir[1],
                (double)dir[2], mode, stride,
                verdict == FZ_TAKE ? "to be taken" : verdict == FZ_REFUSE ? "to be refused" : "either");
    }
    cloth_status st;
    FZ_CALL(w, st = cloth_set_skin_normals(w->cloth, null ? NULL : (const float *)(void *)w->buf_a, stride));
    if (verdict == FZ_REFUSE) {
        FZ_REQUIRE(st == CLOTH_ERR_INVALID_ARGUMENT);
    } else if (verdict == FZ_TAKE) {
        FZ_REQUIRE(st == CLOTH_OK || (st == CLOTH_ERR_OUT_OF_MEMORY && w->host_alloc));
    }
}

/* cloth_set_backstops(): (distance, radius) from two fuzzed values, the
 * distance scaled per particle (of either sign), every third radius 0 (no
 * ball), one value replaced; packed, 8 or 16 bytes apart or any stride of
 * the table; or NULL. The header's rule decides: a stride of 0 or a multiple
 * of 4 of at least 8, every distance finite, every radius finite and >= 0,
 * and their sum finite. */
static void op_backstops(fz_world *w, fz *f)
{
    const float d = fz_float(f), r = fz_float(f);
    const uint8_t mode = fz_u8(f);
    static const size_t plain[3] = {0u, 8u, 16u};
    const size_t stride = ((mode >> 4) & 3u) == 3u ? fz_stride(f) : plain[(mode >> 4) & 3u];
    const bool stride_ok = stride == 0u || (stride >= 8u && stride % 4u == 0u && stride < FZ_HUGE_STRIDE);
    const size_t sb = stride_ok && stride != 0u ? stride : 8u;
    memset(w->buf_a, 0xA5, sb * w->count + 16u);
    for (uint32_t i = 0; i < w->count; ++i) {
        float b[2];
        b[0] = (mode & 1u) ? d * (float)((int)(i % 5u) - 2) : d;
        b[1] = (mode & 2u) && i % 3u == 0u ? 0.0f : (mode & 4u) ? fabsf(r) : r;
        memcpy(w->buf_a + sb * i, b, sizeof b);
    }
    if ((mode & 8u) && w->count > 0u) {
        const float value = fz_float(f);
        const size_t at = sb * (fz_u8(f) % w->count), component = 4u * (fz_u8(f) % 2u);
        memcpy(w->buf_a + at + component, &value, sizeof value);
    }
    const bool null = (mode & 0x40u) != 0u;
    bool valid = !null && stride_ok;
    for (uint32_t i = 0; valid && i < w->count; ++i) {
        float b[2];
        memcpy(b, w->buf_a + sb * i, sizeof b);
        /* the same expression as the header's rule, so the same rounding */
        valid = isfinite(b[0]) && b[1] >= 0.0f && isfinite(b[1]) && isfinite(b[0] + b[1]);
    }
    if (g_trace) {
        fprintf(stderr, "  backstops: distance %g, radius %g, mode %u, stride %zu, %s\n", (double)d, (double)r, mode,
                stride, valid ? "valid" : "invalid");
    }
    cloth_status st;
    FZ_CALL(w, st = cloth_set_backstops(w->cloth, null ? NULL : (const float *)(void *)w->buf_a, stride));
    if (valid) {
        FZ_REQUIRE(st == CLOTH_OK || (st == CLOTH_ERR_OUT_OF_MEMORY && w->host_alloc));
    } else {
        FZ_REQUIRE(st == CLOTH_ERR_INVALID_ARGUMENT);
    }
}

/* cloth_set_collider_transforms(): up to 16 colliders (ids added here or odd
 * ones, repeats too), each a fuzzed position and a unit quaternion about a
 * fuzzed angle or four raw values; either array NULL, or the ids. Then the
 * same calls one by one from the state before (a snapshot loaded back):
 * taken, they must all be taken and leave the snapshot the batch left;
 * refused, the batch's status must be INVALID_ARGUMENT if one of them is,
 * else OUT_OF_RANGE if one of them is (every pose is checked before any
 * id), and never a refusal none of them makes. */
static void op_collider_transforms(fz_world *w, fz *f)
{
    static unsigned char before[FZ_SNAP_BYTES], batch[FZ_SNAP_BYTES];
    cloth_collider_id ids[16];
    float pos[3u * 16u], rot[4u * 16u];
    const uint8_t mode = fz_u8(f);
    const uint32_t count = fz_u8(f) % 17u;
    for (uint32_t k = 0; k < count; ++k) {
        ids[k] = fz_collider_id(w, f);
        fz_vec(f, pos + 3u * k, 3);
        float *q = rot + 4u * k;
        if (mode & 2u) { /* a proper unit quaternion about x, y or z */
            const float a = fz_float(f);
            q[0] = q[1] = q[2] = 0.0f;
            q[k % 3u] = sinf(a);
            q[3] = cosf(a);
        } else {
            fz_vec(f, q, 4);
        }
    }
    const float *p = (mode & 4u) ? NULL : pos;
    const float *q = (mode & 1u) ? NULL : rot;
    const cloth_collider_id *id_list = (mode & 8u) ? NULL : ids;
    if (g_trace) {
        fprintf(stderr, "  collider transforms: %u colliders%s%s%s\n", count, id_list ? "" : ", ids NULL",
                p ? "" : ", positions NULL", q ? "" : ", rotations NULL");
    }
    const size_t size = snapshot(w->cloth, before);
    cloth_status st;
    FZ_CALL(w, st = cloth_set_collider_transforms(w->cloth, id_list, count, p, q));
    if (id_list == NULL) {
        FZ_REQUIRE(st == (count > 0u ? CLOTH_ERR_INVALID_ARGUMENT : CLOTH_OK));
        return;
    }
    FZ_REQUIRE(st == CLOTH_OK || st == CLOTH_ERR_INVALID_ARGUMENT || st == CLOTH_ERR_OUT_OF_RANGE);
    const size_t moved = st == CLOTH_OK ? snapshot(w->cloth, batch) : 0u;
    if (st == CLOTH_OK) {
        /* back to where the batch started (a refused one changed nothing) */
        const cloth_status back = cloth_load_state(w->cloth, before, size);
        if (back == CLOTH_ERR_OUT_OF_MEMORY && (w->alloc.fail_at != 0u || w->alloc.fail_mask != 0u)) {
            return; /* an injected failure: the cloth stays as the batch left it */
        }
        FZ_REQUIRE(back == CLOTH_OK);
    }
    bool invalid = false, unknown = false;
    for (uint32_t k = 0; k < count; ++k) {
        const cloth_status one = cloth_set_collider_transform(w->cloth, ids[k], p ? p + 3u * k : NULL,
                                                              q ? q + 4u * k : NULL);
        if (g_trace) {
            fprintf(stderr, "    one by one: id %u -> %s\n", ids[k], cloth_status_string(one));
        }
        FZ_REQUIRE(one == CLOTH_OK || one == CLOTH_ERR_INVALID_ARGUMENT || one == CLOTH_ERR_OUT_OF_RANGE);
        invalid = invalid || one == CLOTH_ERR_INVALID_ARGUMENT;
        unknown = unknown || one == CLOTH_ERR_OUT_OF_RANGE;
    }
    if (st == CLOTH_OK) {
        FZ_REQUIRE(!invalid && !unknown);
        const size_t again = snapshot(w->cloth, w->snap_b);
        FZ_REQUIRE(again == moved && memcmp(batch, w->snap_b, moved) == 0);
        return;
    }
    FZ_REQUIRE(st == (invalid ? CLOTH_ERR_INVALID_ARGUMENT : CLOTH_ERR_OUT_OF_RANGE));
    FZ_REQUIRE(invalid || unknown);
    /* the calls one by one moved some: put the cloth back as the refusal left it */
    const cloth_status back = cloth_load_state(w->cloth, before, size);
    FZ_REQUIRE(back == CLOTH_OK || (back == CLOTH_ERR_OUT_OF_MEMORY && (w->alloc.fail_at != 0u || w->alloc.fail_mask != 0u)));
}

/* ---- stiffness scales, self-collision ----------------------------------- */

/* The header's rule for a stiffness scale: > 0, finite, at most 1e6. */
static bool scale_ok(float s)
{
    return s > 0.0f && isfinite(s) && s <= 1e6f;
}

/* Scale values that are refused (0, -0, negative, NaN, infinite, 2e6, the
 * float just above 1e6) or taken at the edges (1e6, the smallest normal and
 * denormal, 1e-30). */
static float fz_scale_edge(fz *f)
{
    static const uint32_t bits[] = {
        0x00000000u, 0x80000000u, 0xbf800000u, 0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u,
        0x49f42400u, /* 2e6 */
        0x49742400u, /* 1e6 */
        0x49742401u, /* just above 1e6 */
        0x00800000u, /* FLT_MIN */
        0x00000001u, /* the smallest denormal */
        0x0da24260u, /* 1e-30 */
        0x40800000u, /* 4 */
        0x3e800000u, /* 0.25 */
        0x7f7fffffu, /* FLT_MAX */
    };
    return fz_bits(bits[fz_u8(f) % (sizeof bits / sizeof bits[0])]);
}

/* cloth_set_stiffness_scales(): one fuzzed scale for every particle, the
 * cloth's own times a fuzzed factor, a ramp, or an edge value for all; one
 * particle's replaced by a fuzzed or an edge value; packed, 4 to 16 bytes
 * apart or any stride of the table, at any byte address; or NULL. The
 * header's rule decides: a stride of 0 or a multiple of 4 (that fits), every
 * scale > 0, finite and <= 1e6. Taken, the getter reads the scales given to
 * the bit (strided as given, the padding untouched); refused, those before. */
static void op_stiffness_scales(fz_world *w, fz *f)
{
    static float after[FZ_BIG_SIDE * FZ_BIG_SIDE];
    const uint8_t mode = fz_u8(f);
    const float s = (mode & 3u) == 3u ? fz_scale_edge(f) : fz_float(f);
    static const size_t plain[5] = {0u, 4u, 8u, 12u, 16u};
    const uint32_t pick = (mode >> 4) & 7u;
    const size_t stride = pick < 5u ? plain[pick] : fz_stride(f);
    const bool stride_ok = stride == 0u || (stride % 4u == 0u && stride < FZ_HUGE_STRIDE);
    const size_t sb = stride_ok && stride != 0u ? stride : 4u;
    const size_t off = fz_u8(f) % 4u;
    unsigned char *base = w->buf_a + off;
    FZ_REQUIRE(off + sb * w->count + 16u <= sizeof w->buf_a);
    memset(w->buf_a, 0xA5, off + sb * w->count + 16u);
    for (uint32_t i = 0; i < w->count; ++i) {
        float v;
        switch (mode & 3u) {
        case 0: v = s; break;
        case 1: v = w->scales[i] * s; break;
        case 2: v = s * (float)(1u + i % 4u); break;
        default: v = s; break;
        }
        memcpy(base + sb * i, &v, sizeof v);
    }
    if ((mode & 4u) && w->count > 0u) {
        const float one = (mode & 8u) ? fz_scale_edge(f) : fz_float(f);
        memcpy(base + sb * (fz_u8(f) % w->count), &one, sizeof one);
    }
    const bool null = (mode & 0x80u) != 0u;
    bool valid = !null && stride_ok;
    for (uint32_t i = 0; valid && i < w->count; ++i) {
        float v;
        memcpy(&v, base + sb * i, sizeof v);
        valid = scale_ok(v);
    }
    if (g_trace) {
        fprintf(stderr, "  stiffness scales: %g, mode %u, stride %zu, offset %zu, %s\n", (double)s, mode, stride, off,
                valid ? "valid" : "invalid");
    }
    cloth_status st;
    FZ_CALL(w, st = cloth_set_stiffness_scales(w->cloth, null ? NULL : (const float *)(void *)base, stride));
    if (valid) {
        FZ_REQUIRE(st == CLOTH_OK || (st == CLOTH_ERR_OUT_OF_MEMORY && w->host_alloc));
    } else {
        FZ_REQUIRE(st == CLOTH_ERR_INVALID_ARGUMENT);
    }
    if (st == CLOTH_OK) {
        for (uint32_t i = 0; i < w->count; ++i) {
            memcpy(&w->scales[i], base + sb * i, sizeof(float));
        }
    }
    /* read back with the same stride into a buffer of 0xA5 at the same address */
    memset(w->buf_a, 0xA5, off + sb * w->count + 16u);
    const cloth_status got = cloth_get_stiffness_scales(w->cloth, (float *)(void *)base, stride);
    if (!stride_ok) {
        FZ_REQUIRE(got == CLOTH_ERR_INVALID_ARGUMENT);
        for (size_t b = 0; b < off + sb * w->count + 16u; ++b) {
            FZ_REQUIRE(w->buf_a[b] == 0xA5u);
        }
    } else {
        FZ_REQUIRE(got == CLOTH_OK);
        for (uint32_t i = 0; i < w->count; ++i) {
            memcpy(&after[i], base + sb * i, sizeof(float));
            for (size_t b = 4u; b < sb; ++b) {
                FZ_REQUIRE(base[sb * i + b] == 0xA5u);
            }
        }
        FZ_REQUIRE(memcmp(after, w->scales, (size_t)w->count * sizeof(float)) == 0);
        for (size_t b = 0; b < off; ++b) {
            FZ_REQUIRE(w->buf_a[b] == 0xA5u);
        }
        for (size_t b = 0; b < 16u; ++b) {
            FZ_REQUIRE(base[sb * (w->count - 1u) + 4u + b] == 0xA5u);
        }
    }
}

/* cloth_set_self_collision(): a fuzzed thickness or a hostile one (negative,
 * NaN, infinite, huge, tiny, denormal, -0), typical ones about the
 * harness's spacings (1 to 10 cm). The header's rule: 0 is taken; a
 * negative, non-finite or positive one below 1e-6 m refused; one above four
 * times the cloth's longest structural link refused too, which the harness
 * does not work out, so a finite one from 1e-6 m up may go either way.
 * Taken, it reads back to the bit; refused, the one before. The first
 * non-zero one allocates: the host's allocator may refuse it. */
static void op_self_collision(fz_world *w, fz *f)
{
    static const uint32_t bits[] = {
        0xbc23d70au, /* -0.01 */
        0x7fc00000u, /* NaN */
        0xffc00001u, /* -NaN */
        0x7f800000u, /* inf */
        0xff800000u, /* -inf */
        0x7149f2cau, /* 1e30 */
        0x7f7fffffu, /* FLT_MAX */
        0x0da24260u, /* 1e-30 */
        0x00000001u, /* the smallest denormal */
        0x80000000u, /* -0 */
        0x00000000u, /* 0: off */
        0x3c23d70au, /* 0.01 */
        0x3cf5c28fu, /* 0.03 */
        0x3d4ccccdu, /* 0.05 */
        0x3dcccccdu, /* 0.1 */
        0x3f800000u, /* 1 */
    };
    const uint8_t sel = fz_u8(f);
    const float t = (sel & 0x80u) ? fz_float(f) : fz_bits(bits[sel % (sizeof bits / sizeof bits[0])]);
    const bool valid = t >= 0.0f && isfinite(t) && (t == 0.0f || t >= 1e-6f);
    const float before = w->thickness;
    if (g_trace) {
        fprintf(stderr, "  self-collision thickness %g (%s)\n", (double)t, valid ? "valid" : "invalid");
    }
    cloth_status st;
    FZ_CALL(w, st = cloth_set_self_collision(w->cloth, t));
    if (t == 0.0f) {
        FZ_REQUIRE(st == CLOTH_OK);
    } else if (valid) {
        FZ_REQUIRE(st == CLOTH_OK || st == CLOTH_ERR_INVALID_ARGUMENT ||
                   (st == CLOTH_ERR_OUT_OF_MEMORY && w->host_alloc));
    } else {
        FZ_REQUIRE(st == CLOTH_ERR_INVALID_ARGUMENT);
    }
    float got = fz_bits(0x7fc00000u);
    FZ_REQUIRE(cloth_get_self_collision(w->cloth, &got) == CLOTH_OK);
    FZ_REQUIRE(memcmp(&got, st == CLOTH_OK ? &t : &before, sizeof got) == 0);
    if (st == CLOTH_OK) {
        w->thickness = t;
    }
}

/* cloth_set_self_friction(): a fuzzed coefficient or a hostile one
 * (negative, -0, NaN, infinite, huge, tiny, denormal), typical ones for
 * fabric on itself (0.2 to 0.6) and rough ones (1, 10). The header's rule:
 * >= 0 and finite is taken (no upper bound; -0 too, as -0 >= 0), anything
 * else refused. It allocates nothing, so a taken one is always CLOTH_OK,
 * whatever the host's allocator does. Taken, it reads back to the bit;
 * refused, the one before. It needs no self-collision to be taken, and the
 * thickness, on or off, leaves it be. */
static void op_self_friction(fz_world *w, fz *f)
{
    static const uint32_t bits[] = {
        0xbdcccccdu, /* -0.1 */
        0x7fc00000u, /* NaN */
        0xffc00001u, /* -NaN */
        0x7f800000u, /* inf */
        0xff800000u, /* -inf */
        0x80000001u, /* the smallest negative denormal */
        0x7f7fffffu, /* FLT_MAX */
        0x7149f2cau, /* 1e30 */
        0x00000001u, /* the smallest denormal */
        0x80000000u, /* -0 */
        0x00000000u, /* 0: slide freely */
        0x3e4ccccdu, /* 0.2: silk */
        0x3ecccccdu, /* 0.4: cotton */
        0x3f19999au, /* 0.6 */
        0x3f800000u, /* 1 */
        0x41200000u, /* 10 */
    };
    const uint8_t sel = fz_u8(f);
    const float mu = (sel & 0x80u) ? fz_float(f) : fz_bits(bits[sel % (sizeof bits / sizeof bits[0])]);
    const bool valid = mu >= 0.0f && isfinite(mu);
    const float before = w->friction;
    if (g_trace) {
        fprintf(stderr, "  self-friction %g (%s)\n", (double)mu, valid ? "valid" : "invalid");
    }
    cloth_status st;
    FZ_CALL(w, st = cloth_set_self_friction(w->cloth, mu));
    FZ_REQUIRE(st == (valid ? CLOTH_OK : CLOTH_ERR_INVALID_ARGUMENT));
    float got = fz_bits(0x7fc00000u);
    FZ_REQUIRE(cloth_get_self_friction(w->cloth, &got) == CLOTH_OK);
    FZ_REQUIRE(memcmp(&got, st == CLOTH_OK ? &mu : &before, sizeof got) == 0);
    if (st == CLOTH_OK) {
        w->friction = mu;
    }
}

/* After every op: the scales, the thickness and the friction are the ones
 * last taken. */
static void check_painted(const fz_world *w)
{
    static float now[FZ_BIG_SIDE * FZ_BIG_SIDE];
    float t = fz_bits(0x7fc00000u);
    FZ_REQUIRE(cloth_get_self_collision(w->cloth, &t) == CLOTH_OK);
    FZ_REQUIRE(memcmp(&t, &w->thickness, sizeof t) == 0);
    float mu = fz_bits(0x7fc00000u);
    FZ_REQUIRE(cloth_get_self_friction(w->cloth, &mu) == CLOTH_OK);
    FZ_REQUIRE(memcmp(&mu, &w->friction, sizeof mu) == 0);
    FZ_REQUIRE(cloth_get_stiffness_scales(w->cloth, now, 0u) == CLOTH_OK);
    FZ_REQUIRE(memcmp(now, w->scales, (size_t)w->count * sizeof(float)) == 0);
}

static void run_op(fz_world *w, fz *f, uint8_t op)
{
    cloth_t *c = w->cloth;
    float v[4], u[4];
    cloth_collider_id id = 0;
    switch ((enum op)(op % OP_COUNT)) {
    case OP_STEP:
        op_step(w, fz_float(f));
        break;
    case OP_STEP_SMALL: { /* a run of ordinary frames */
        const uint8_t n = fz_u8(f) % 8u;
        for (uint8_t k = 0; k <= n; ++k) {
            op_step(w, 1.0f / 60.0f);
        }
        break;
    }
    case OP_GRAVITY: fz_vec(f, v, 3); FZ_CALL(w, cloth_set_gravity(c, v)); break;
    case OP_DAMPING: FZ_CALL(w, cloth_set_damping(c, fz_float(f))); break;
    case OP_SUBSTEPS: {
        static const uint32_t n[] = {0u, 1u, 2u, 4u, 16u, 64u, 1024u, 1025u, UINT32_MAX, 3u, 8u, 200u};
        const uint32_t s = n[fz_u8(f) % 12u];
        cloth_status st = cloth_set_substeps(c, s);
        FZ_REQUIRE(st == (s <= 1024u ? CLOTH_OK : CLOTH_ERR_INVALID_ARGUMENT));
        if (st == CLOTH_OK) {
            w->substeps = s; /* 0: automatic (step_cost()) */
        }
        break;
    }
    case OP_ITERATIONS: {
        static const uint32_t n[] = {0u, 1u, 2u, 8u, 30u, 1024u, 1025u, UINT32_MAX};
        const uint32_t s = n[fz_u8(f) % 8u];
        cloth_status st = cloth_set_iterations(c, s);
        if (g_trace) {
            fprintf(stderr, "  cloth_set_iterations(%u) -> %s\n", s, cloth_status_string(st));
        }
        /* XPBD (a new cloth's integrator) allocates its multipliers above
         * one iteration: the host's allocator may refuse them */
        FZ_REQUIRE(s <= 1024u ? st == CLOTH_OK || st == CLOTH_ERR_OUT_OF_MEMORY : st == CLOTH_ERR_INVALID_ARGUMENT);
        if (st == CLOTH_OK) {
            w->iterations = s == 0u ? 4u : s; /* automatic: at most 4 */
        }
        break;
    }
    case OP_STIFFNESS: {
        const uint8_t t = fz_u8(f);
        const cloth_spring_type type = (cloth_spring_type)(t < 250u ? t % 3u : t == 250u ? 3u : 0x7fffffffu);
        FZ_CALL(w, cloth_set_stiffness(c, type, fz_float(f)));
        break;
    }
    case OP_SPRING_DAMPING: {
        const uint8_t t = fz_u8(f);
        FZ_CALL(w, cloth_set_spring_damping(c, (cloth_spring_type)(t % 5u), fz_float(f)));
        break;
    }
    case OP_INTEGRATOR: {
        static const uint32_t kinds[] = {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 255u, 0x7fffffffu, 0xffffffffu, 100u};
        const uint32_t k = kinds[fz_u8(f) % 13u];
        cloth_status st;
        FZ_CALL(w, st = cloth_set_integrator(c, (cloth_integrator)k));
        if (st == CLOTH_OK) {
            /* PBD and XPBD: per iteration (-1); implicit Euler: its CG solve */
            w->step_weight = (k == 3u || k == 6u) ? -1.0 : k == 7u ? 16.0 : 1.0;
            cloth_integrator got;
            FZ_REQUIRE(cloth_get_integrator(c, &got) == CLOTH_OK && (uint32_t)got == k);
        }
        break;
    }
    case OP_CUSTOM_INTEGRATOR: {
        const uint8_t m = fz_u8(f);
        g_hooks.integ_mode = (uint8_t)(m % 8u);
        g_hooks.target = fz_u8(f);
        const cloth_integrator_vtable *vt = (m & 0xF0u) == 0xF0u ? NULL : &fz_vtables[(m >> 3) % FZ_VTABLES];
        cloth_status st;
        FZ_CALL(w, st = cloth_set_custom_integrator(c, vt, &g_hooks));
        if (st == CLOTH_OK) {
            w->step_weight = 1.0;
        }
        break;
    }
    case OP_PIN: {
        const uint32_t i = fz_index(f, w->count);
        const uint8_t m = fz_u8(f);
        fz_vec(f, v, 3);
        FZ_CALL(w, cloth_pin(c, i, (m & 1u) ? NULL : v));
        break;
    }
    case OP_UNPIN: FZ_CALL(w, cloth_unpin(c, fz_index(f, w->count))); break;
    case OP_SPHERE: {
        fz_vec(f, v, 3);
        cloth_status st;
        FZ_CALL(w, st = cloth_add_sphere(c, v, fz_float(f), &id));
        remember_id(w, st, id);
        break;
    }
    case OP_ELLIPSOID: {
        fz_vec(f, v, 3);
        float radii[3];
        fz_vec(f, radii, 3);
        const uint8_t m = fz_u8(f);
        fz_vec(f, u, 4);
        cloth_status st;
        FZ_CALL(w, st = cloth_add_ellipsoid(c, v, radii, (m & 1u) ? NULL : u, &id));
        remember_id(w, st, id);
        break;
    }
    case OP_PLANE: {
        fz_vec(f, v, 3);
        fz_vec(f, u, 3);
        cloth_status st;
        FZ_CALL(w, st = cloth_add_plane(c, v, u, &id));
        remember_id(w, st, id);
        break;
    }
    case OP_CAPSULE:
    case OP_CYLINDER:
    case OP_TAPERED: {
        fz_vec(f, v, 3);
        const uint8_t m = fz_u8(f);
        if (m & 1u) {
            memcpy(u, v, sizeof u); /* degenerate: both ends the same */
        } else {
            fz_vec(f, u, 3);
        }
        const float r = fz_float(f);
        const float r2 = (op % OP_COUNT) == OP_TAPERED ? fz_float(f) : r;
        cloth_status st;
        FZ_CALL(w, st = (op % OP_COUNT) == OP_CAPSULE   ? cloth_add_capsule(c, v, u, r, &id)
                        : (op % OP_COUNT) == OP_TAPERED ? cloth_add_tapered_capsule(c, v, u, r, r2, &id)
                                                        : cloth_add_cylinder(c, v, u, r, &id));
        remember_id(w, st, id);
        break;
    }
    case OP_TORUS: {
        fz_vec(f, v, 3);
        fz_vec(f, u, 3);
        const float big = fz_float(f), small = fz_float(f);
        cloth_status st;
        FZ_CALL(w, st = cloth_add_torus(c, v, u, big, small, &id));
        remember_id(w, st, id);
        break;
    }
    case OP_FRICTION: id = fz_collider_id(w, f); FZ_CALL(w, cloth_set_collider_friction(c, id, fz_float(f))); break;
    case OP_THICKNESS: id = fz_collider_id(w, f); FZ_CALL(w, cloth_set_collider_thickness(c, id, fz_float(f))); break;
    case OP_TRANSFORM: {
        id = fz_collider_id(w, f);
        fz_vec(f, v, 3);
        const uint8_t m = fz_u8(f);
        if (m & 2u) { /* a proper unit quaternion about a fuzzed axis */
            const float a = fz_float(f);
            u[0] = sinf(a); u[1] = 0.0f; u[2] = 0.0f; u[3] = cosf(a);
        } else {
            fz_vec(f, u, 4);
        }
        FZ_CALL(w, cloth_set_collider_transform(c, id, (m & 4u) ? NULL : v, (m & 1u) ? NULL : u));
        break;
    }
    case OP_GET_TRANSFORM: {
        id = fz_collider_id(w, f);
        const uint8_t m = fz_u8(f);
        cloth_status st;
        FZ_CALL(w, st = cloth_get_collider_transform(c, id, (m & 1u) ? NULL : v, (m & 2u) ? NULL : u));
        if (st == CLOTH_OK && !(m & 1u)) {
            FZ_REQUIRE(isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]));
        }
        break;
    }
    case OP_REMOVE_COLLIDER: {
        cloth_status st;
        FZ_CALL(w, st = cloth_remove_collider(c, fz_collider_id(w, f)));
        if (st == CLOTH_OK && w->colliders > 0u) {
            w->colliders--;
        }
        break;
    }
    case OP_WIND: {
        const uint8_t m = fz_u8(f);
        g_hooks.wind_mode = m;
        g_hooks.target = fz_u8(f);
        fz_vec(f, g_hooks.wind, 3);
        FZ_CALL(w, cloth_set_wind(c, (m & 0x80u) ? NULL : fz_wind, &g_hooks));
        break;
    }
    case OP_CONSTANT_WIND: fz_vec(f, v, 3); FZ_CALL(w, cloth_set_constant_wind(c, v)); break;
    case OP_AIR: {
        const uint8_t m = fz_u8(f);
        const float x = fz_float(f);
        FZ_CALL(w, m % 3u == 0u   ? cloth_set_air_density(c, x)
                   : m % 3u == 1u ? cloth_set_drag_coefficient(c, x)
                                  : cloth_set_lift_coefficient(c, x));
        break;
    }
    case OP_FORCE_HOOK: {
        const uint8_t m = fz_u8(f);
        g_hooks.force_mode = m;
        g_hooks.target = fz_u8(f);
        fz_vec(f, g_hooks.force, 3);
        FZ_CALL(w, cloth_set_external_force(c, (m & 0x80u) ? NULL : fz_force, &g_hooks));
        break;
    }
    case OP_READBACK: check_readback(w, f); break;
    case OP_TRIANGLES: {
        static uint32_t idx[3u * 2u * FZ_BIG_SIDE * FZ_BIG_SIDE + 3u * FZ_MAX_TRIS];
        FZ_REQUIRE(w->tris == cloth_triangle_count(c));
        FZ_REQUIRE(cloth_get_triangles(c, idx) == CLOTH_OK);
        for (uint32_t k = 0; k < 3u * w->tris; ++k) {
            FZ_REQUIRE(idx[k] < w->count);
        }
        break;
    }
    case OP_SET_POSITIONS: op_set_vectors(w, f, SET_POSITIONS); break;
    case OP_SET_VELOCITIES: op_set_vectors(w, f, SET_VELOCITIES); break;
    case OP_SKIN_TARGETS: op_set_vectors(w, f, SET_SKIN_TARGETS); break;
    case OP_MAX_DISTANCES: op_max_distances(w, f); break;
    case OP_INVERSE_MASSES: op_inverse_masses(w, f); break;
    case OP_PARTICLE_RADIUS: FZ_CALL(w, cloth_set_particle_radius(c, fz_float(f))); break;
    case OP_INERTIA: {
        const float l = fz_float(f);
        FZ_CALL(w, cloth_set_inertia(c, l, fz_float(f)));
        break;
    }
    case OP_FRAME:
    case OP_TELEPORT: {
        fz_vec(f, v, 3);
        const uint8_t m = fz_u8(f);
        if (m & 2u) { /* a proper unit quaternion about a fuzzed axis */
            const float a = fz_float(f);
            u[0] = 0.0f; u[1] = sinf(a); u[2] = 0.0f; u[3] = cosf(a);
        } else {
            fz_vec(f, u, 4);
        }
        const float *q = (m & 1u) ? NULL : u;
        FZ_CALL(w, (op % OP_COUNT) == OP_FRAME ? cloth_set_frame(c, v, q) : cloth_teleport(c, v, q));
        break;
    }
    case OP_SNAPSHOT_ROUNDTRIP: op_snapshot_roundtrip(w, f); break;
    case OP_SNAPSHOT_CORRUPT: op_snapshot_corrupt(w, f); break;
    case OP_SNAPSHOT_FOREIGN: op_snapshot_foreign(w, f); break;
    case OP_STATS: {
        cloth_stats st;
        cloth_stats_init(&st);
        if (fz_u8(f) & 1u) {
            st.struct_size = fz_struct_size(f, st.struct_size);
        }
        FZ_CALL(w, cloth_get_stats(c, &st));
        break;
    }
    case OP_WATCHDOG: {
        const float a = fz_float(f), b = fz_float(f);
        const uint8_t m = fz_u8(f);
        FZ_CALL(w, cloth_set_watchdog(c, a, b, (cloth_watchdog_action)(m < 250u ? m % 2u : m)));
        break;
    }
    case OP_TETHERS: {
        FZ_CALL(w, cloth_set_tethers(c, fz_float(f)));
        float s = -1.0f;
        FZ_REQUIRE(cloth_get_tethers(c, &s) == CLOTH_OK && (s == 0.0f || (s >= 1.0f && s <= 10.0f)));
        break;
    }
    case OP_STRAIN_LIMIT: {
        /* passes kept small so that a step stays cheap; 1025 and up are refused */
        const uint32_t pick = fz_u8(f);
        const uint32_t passes = pick == 255u ? 1025u : pick % 8u;
        FZ_CALL(w, cloth_set_strain_limit(c, fz_float(f), passes));
        float m = -1.0f;
        uint32_t p = 99999u;
        FZ_REQUIRE(cloth_get_strain_limit(c, &m, &p) == CLOTH_OK && m >= 0.0f && m <= 10.0f && p <= 1024u);
        break;
    }
    case OP_LEVEL_SWEEPS: {
        /* 0 to 1024 are taken, 1025 and up refused */
        const uint32_t pick = fz_u8(f);
        const uint32_t sweeps = pick == 255u ? 1025u : pick == 254u ? 1024u : pick % 4u;
        FZ_CALL(w, cloth_set_strain_level_sweeps(c, sweeps));
        uint32_t got = 99999u;
        FZ_REQUIRE(cloth_get_strain_level_sweeps(c, &got) == CLOTH_OK && got <= 1024u);
        break;
    }
    case OP_TETHER_SCHEDULE: {
        /* 0 and 1 are the schedules; anything else is refused */
        const uint8_t m = fz_u8(f);
        FZ_CALL(w, cloth_set_tether_schedule(c, (cloth_tether_schedule)(m < 250u ? m % 3u : m)));
        cloth_tether_schedule got = CLOTH_TETHER_SCHEDULE_FORCE32;
        FZ_REQUIRE(cloth_get_tether_schedule(c, &got) == CLOTH_OK &&
                   (got == CLOTH_TETHERS_EVERY_SUBSTEP || got == CLOTH_TETHERS_LAST_SUBSTEP));
        break;
    }
    case OP_BENDING: FZ_CALL(w, cloth_set_bending_stiffness(c, fz_float(f))); break;
    case OP_PBD_PARAMS: {
        const uint8_t m = fz_u8(f);
        const float x = fz_float(f);
        FZ_CALL(w, (m & 1u) ? cloth_set_jacobi_weight(c, x)
                            : cloth_set_constraint_stiffness(c, (cloth_spring_type)(m >> 1), x));
        break;
    }
    case OP_SPRINGS: {
        const uint32_t n = cloth_spring_count(c);
        if (n > 20000u) {
            break;
        }
        static uint32_t pairs[2u * 20000u];
        static float rest[20000u];
        static cloth_spring_type types[20000u];
        const uint8_t m = fz_u8(f);
        cloth_status st = cloth_get_springs(c, (m & 1u) ? pairs : NULL, (m & 2u) ? rest : NULL,
                                            (m & 4u) ? types : NULL);
        FZ_REQUIRE(st == ((m & 7u) ? CLOTH_OK : CLOTH_ERR_INVALID_ARGUMENT));
        for (uint32_t k = 0; st == CLOTH_OK && k < n; ++k) {
            if (m & 1u) FZ_REQUIRE(pairs[2u * k] < w->count && pairs[2u * k + 1u] < w->count);
            /* a rest length the solvers can use: its square a normal float */
            if (m & 2u) FZ_REQUIRE(isfinite(rest[k] * rest[k]) && rest[k] * rest[k] >= FLT_MIN);
            if (m & 4u) FZ_REQUIRE((uint32_t)types[k] < 3u);
        }
        break;
    }
    case OP_NULLS: { /* every entry point refuses NULL without touching anything */
        FZ_REQUIRE(cloth_step(NULL, 0.01f) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_gravity(c, NULL) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_get_positions(c, NULL, 0) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_positions(c, NULL, 0) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_add_sphere(c, NULL, 1.0f, &id) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_load_state(c, NULL, 100) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_save_state(c, NULL, 100) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_get_stats(c, NULL) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_particle_count(NULL) == 0u && cloth_state_hash(NULL) == 0u);
        size_t size = 1;
        FZ_REQUIRE(cloth_state_size(NULL, &size) == CLOTH_ERR_INVALID_ARGUMENT);
        static const float tri[9] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f};
        static const uint32_t corners[3] = {0u, 2u, 1u};
        float planes[24] = {0.0f};
        for (uint32_t k = 0; k < 6u; ++k) {
            planes[4u * k + k / 2u] = k % 2u ? -1.0f : 1.0f;
            planes[4u * k + 3u] = -1.0f;
        }
        float mesh_out[9];
        FZ_REQUIRE(cloth_add_convex(c, NULL, 6u, &id) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_add_convex(c, planes, 6u, NULL) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_add_convex(NULL, planes, 6u, &id) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_add_triangle_mesh(c, NULL, 0u, 3u, corners, 1u, &id) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_add_triangle_mesh(c, tri, 0u, 3u, NULL, 1u, &id) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_add_triangle_mesh(c, tri, 0u, 3u, corners, 1u, NULL) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_add_triangle_mesh(NULL, tri, 0u, 3u, corners, 1u, &id) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_triangle_mesh_vertices(c, 1u, NULL, 0u) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_triangle_mesh_vertices(NULL, 1u, tri, 0u) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_get_triangle_mesh_vertices(c, 1u, NULL, 0u) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_get_triangle_mesh_vertices(NULL, 1u, mesh_out, 0u) == CLOTH_ERR_INVALID_ARGUMENT);
        const cloth_collider_id one = 1u;
        FZ_REQUIRE(cloth_set_skin_normals(c, NULL, 0u) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_skin_normals(NULL, tri, 0u) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_backstops(c, NULL, 0u) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_backstops(NULL, tri, 0u) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_collider_transforms(c, NULL, 1u, tri, NULL) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_collider_transforms(NULL, &one, 1u, tri, NULL) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_collider_transforms(NULL, NULL, 0u, NULL, NULL) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_collider_transforms(c, NULL, 0u, NULL, NULL) == CLOTH_OK); /* none: nothing to do */
        float one_scale = 1.0f;
        FZ_REQUIRE(cloth_set_stiffness_scales(c, NULL, 0u) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_stiffness_scales(NULL, &one_scale, 0u) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_get_stiffness_scales(c, NULL, 0u) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_get_stiffness_scales(NULL, &one_scale, 0u) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_self_collision(NULL, 0.01f) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_get_self_collision(c, NULL) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_get_self_collision(NULL, &one_scale) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_set_self_friction(NULL, 0.4f) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_get_self_friction(c, NULL) == CLOTH_ERR_INVALID_ARGUMENT);
        FZ_REQUIRE(cloth_get_self_friction(NULL, &one_scale) == CLOTH_ERR_INVALID_ARGUMENT);
        cloth_destroy(NULL);
        break;
    }
    case OP_CALLBACK: { /* arm (or disarm) a call back into the cloth from one kind of hook */
        const uint8_t m = fz_u8(f);
        g_hooks.cb_armed = (m & 0x80u) == 0u;
        g_hooks.cb_where = (uint8_t)(m % CB_WHERE);
        g_hooks.cb_which = fz_u8(f);
        break;
    }
    case OP_TASK_HOOKS: { /* the host's task hooks, honest or not, or none */
        const uint8_t m = fz_u8(f);
        g_hooks.task_fault = (uint8_t)(m % TF_COUNT);
        g_hooks.task_every = 1u + fz_u8(f) % 8u;
        g_hooks.task_calls = 0u;
        FZ_CALL(w, (m & 0x80u) ? cloth_set_task_hooks(c, NULL, NULL, 0u, NULL)
                               : cloth_set_task_hooks(c, fz_enqueue, fz_task_finish, 2u, &g_hooks));
        break;
    }
    case OP_PIN_ALL: op_pin_all(w, f); break;
    case OP_SMOOTH: op_smooth(w, f); break;
    case OP_CONVEX: op_convex(w, f); break;
    case OP_TRI_MESH: op_tri_mesh(w, f); break;
    case OP_MESH_VERTICES: op_mesh_vertices(w, f); break;
    case OP_SKIN_NORMALS: op_skin_normals(w, f); break;
    case OP_BACKSTOPS: op_backstops(w, f); break;
    case OP_COLLIDER_TRANSFORMS: op_collider_transforms(w, f); break;
    case OP_STIFFNESS_SCALES: op_stiffness_scales(w, f); break;
    case OP_SELF_COLLISION: op_self_collision(w, f); break;
    case OP_SELF_FRICTION: op_self_friction(w, f); break;
    case OP_COUNT: break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f = {data, size, 0};
    fz_world *w = &g_world;
    w->cloth = NULL;
    memset(&w->alloc, 0, sizeof w->alloc);
    w->id_count = 0;
    w->mesh_count = 0;
    /* a new cloth's: XPBD (paid per iteration), automatic substeps and
     * iterations (the model takes PBD's 4, the most either chooses) */
    w->substeps = 0u;
    w->iterations = 4u;
    w->step_weight = -1.0;
    w->colliders = 0;
    w->budget = FZ_BUDGET;
    memset(&g_hooks, 0, sizeof g_hooks);
    g_world_ptr = w;

    const uint8_t setup = fz_u8(&f);
    cloth_status s = setup % 8u == 3u ? setup_mesh(w, &f) : setup_grid(w, &f, setup % 8u >= 4u);
    if (g_trace) {
        fprintf(stderr, "create %s -> %s, %u particles\n", setup % 8u == 3u ? "mesh" : "grid",
                cloth_status_string(s), cloth_particle_count(w->cloth));
    }
    if (s != CLOTH_OK) {
        FZ_REQUIRE(w->alloc.live_blocks == 0u);
        return 0;
    }
    w->count = cloth_particle_count(w->cloth);
    if (w->count >= FZ_BIG_SIDE * FZ_BIG_SIDE / 2u) {
        /* the big grid: one substep, so that its steps fit the budget */
        FZ_REQUIRE(cloth_set_substeps(w->cloth, 1u) == CLOTH_OK);
        w->substeps = 1u;
    }
    w->tris = cloth_triangle_count(w->cloth);
    g_hooks.count = w->count;
    FZ_REQUIRE(w->count <= FZ_BIG_SIDE * FZ_BIG_SIDE);
    for (uint32_t i = 0; i < w->count; ++i) {
        w->scales[i] = 1.0f; /* never painted */
    }
    w->thickness = 0.0f;
    w->friction = 0.0f; /* the default: layers slide freely */
    check_painted(w);

    for (uint32_t k = 0; k < FZ_MAX_OPS && f.at < f.n; ++k) {
        const uint8_t op = fz_u8(&f);
        if (g_trace) {
            fprintf(stderr, "op %u: %s\n", k, fz_op_names[op % OP_COUNT]);
        }
        run_op(w, &f, op);
        /* after every call: nothing non-finite can be read back */
        fz probe = {(const uint8_t *)"\x00", 1, 0};
        check_readback(w, &probe);
        check_painted(w);
    }
    cloth_destroy(w->cloth);
    w->cloth = NULL;
    FZ_REQUIRE(w->alloc.live_blocks == 0u && w->alloc.live_bytes == 0u);
    FZ_REQUIRE(g_hooks.states_live == 0);
    return 0;
}

#ifndef CLOTHSIM_FUZZING
/* The replay program: every file named, or every regular file in every
 * directory named, through the entry point above. */
#include <dirent.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    static uint8_t data[1u << 20];
    const size_t n = fread(data, 1, sizeof data, fp);
    fclose(fp);
    LLVMFuzzerTestOneInput(data, n);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, errors = 0;
    g_trace = getenv("FUZZ_API_TRACE") != NULL;
    for (int a = 1; a < argc; ++a) {
        struct stat st;
        if (stat(argv[a], &st) != 0) {
            fprintf(stderr, "cannot stat %s\n", argv[a]);
            ++errors;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            errors += replay_file(argv[a]);
            ++files;
            continue;
        }
        DIR *d = opendir(argv[a]);
        if (d == NULL) {
            ++errors;
            continue;
        }
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.') {
                continue;
            }
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                errors += replay_file(path);
                ++files;
            }
        }
        closedir(d);
    }
    printf("fuzz_api replay: %d inputs, %d unreadable\n", files, errors);
    return errors == 0 && files > 0 ? 0 : 1;
}
#endif
