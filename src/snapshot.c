/*
 * Snapshots of the dynamic state and the state hash (state.h documents the
 * format). Every field is written byte by byte in little-endian order, so a
 * snapshot means the same on every machine and no struct layout leaks into
 * it. Loading checks the whole buffer before writing anything to the cloth:
 * a refused snapshot changes nothing.
 */
#include "cloth_internal.h"
#include "auto.h"
#include "constraints/constraints.h"
#include "pins.h"
#include "skin.h"
#include "snapshot_ext.h"
#include "platform/bytes.h"

#include <string.h>

/* Version 2 keeps the automatic settings' state in the two words version 1
 * reserved (and required to be 0); version 1 snapshots still load, with
 * that state as a new cloth has it. Version 3 is version 2 with sections
 * after the colliders (snapshot_ext.c: the skin, backstops, frame, mesh
 * colliders' vertices), written only by a cloth that has one of them, so
 * the snapshots of every other cloth stay as they were. */
#define SNAPSHOT_VERSION 2u
#define SNAPSHOT_EXTENDED 3u
#define HEADER_BYTES 64u
#define PARTICLE_BYTES 28u /* 7 floats */
#define PIN_BYTES 32u      /* index + 7 floats */
#define COLLIDER_FLOATS 36u /* from, to, at (7 each), matrix (9), v, w (3 each) */
#define COLLIDER_BYTES (8u + 4u * COLLIDER_FLOATS)
#define TRAILER_BYTES 8u

static const unsigned char magic[8] = {'C', 'L', 'T', 'H', 'S', 'N', 'A', 'P'};

/* Header field offsets. */
enum {
    OFF_MAGIC = 0,
    OFF_VERSION = 8,
    OFF_AUTO_RATE = 12, /* version 1: reserved, 0 */
    OFF_TOTAL = 16,
    OFF_COUNT = 24,
    OFF_ROWS = 28,
    OFF_COLS = 32,
    OFF_TRIS = 36,
    OFF_SPRINGS = 40,
    OFF_PINS = 44,
    OFF_COLLIDERS = 48,
    OFF_AUTO_LIMIT = 52, /* version 1: reserved, 0 */
    OFF_TIME = 56
};

/* 64-bit FNV-1a. Each step (xor a byte, multiply by an odd prime) is a
 * bijection of the running hash, so two inputs of the same length that
 * differ in any one byte always hash differently. */
#define FNV_OFFSET 0xcbf29ce484222325u
#define FNV_PRIME 0x100000001b3u

static uint64_t fnv_bytes(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        h = (h ^ p[i]) * FNV_PRIME;
    }
    return h;
}

static uint64_t fnv_u32(uint64_t h, uint32_t v)
{
    for (int b = 0; b < 4; ++b) {
        h = (h ^ ((v >> (8 * b)) & 0xffu)) * FNV_PRIME;
    }
    return h;
}

/* The automatic limit's state as one word: the passes the last step
 * needed in the low byte, whether running steps again was found futile in
 * bit 8 (auto.c). */
#define AUTO_FUTILE 0x100u

static uint32_t auto_limit_word(const cloth_t *cloth)
{
    const uint32_t passes = cloth->passes_used <= CLOTH_AUTO_MAX_PASSES ? cloth->passes_used : CLOTH_AUTO_MAX_PASSES;
    return passes | (cloth->redo_futile ? AUTO_FUTILE : 0u);
}

/* Where the sections of a version 3 snapshot start. In 64 bits: 2^26
 * particles with as many pins overflow a 32-bit size_t. */
static uint64_t ext_offset(uint32_t count, uint32_t pins, uint32_t colliders)
{
    return (uint64_t)HEADER_BYTES + (uint64_t)PARTICLE_BYTES * count + (uint64_t)PIN_BYTES * pins +
           (uint64_t)COLLIDER_BYTES * colliders;
}

static uint64_t snapshot_bytes(uint32_t count, uint32_t pins, uint32_t colliders, uint64_t ext)
{
    return ext_offset(count, pins, colliders) + ext + TRAILER_BYTES;
}

/* The pose arrays of a collider in the order the format stores them. */
static void collider_floats(const cloth_collider *c, float out[COLLIDER_FLOATS])
{
    const cloth_pose *poses[3] = {&c->from, &c->to, &c->at};
    size_t k = 0;
    for (int p = 0; p < 3; ++p) {
        for (int i = 0; i < 3; ++i) {
            out[k++] = poses[p]->p[i];
        }
        for (int i = 0; i < 4; ++i) {
            out[k++] = poses[p]->q[i];
        }
    }
    for (int i = 0; i < 9; ++i) {
        out[k++] = c->m[i];
    }
    for (int i = 0; i < 3; ++i) {
        out[k++] = c->v[i];
    }
    for (int i = 0; i < 3; ++i) {
        out[k++] = c->w[i];
    }
}

static void set_collider_floats(cloth_collider *c, const float in[COLLIDER_FLOATS])
{
    cloth_pose *poses[3] = {&c->from, &c->to, &c->at};
    size_t k = 0;
    for (int p = 0; p < 3; ++p) {
        for (int i = 0; i < 3; ++i) {
            poses[p]->p[i] = in[k++];
        }
        for (int i = 0; i < 4; ++i) {
            poses[p]->q[i] = in[k++];
        }
    }
    for (int i = 0; i < 9; ++i) {
        c->m[i] = in[k++];
    }
    for (int i = 0; i < 3; ++i) {
        c->v[i] = in[k++];
    }
    for (int i = 0; i < 3; ++i) {
        c->w[i] = in[k++];
    }
}

static cloth_status state_size(const cloth_t *cloth, size_t *size)
{
    if (cloth == NULL || size == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const uint64_t bytes = snapshot_bytes(cloth->count, cloth->pin_count, cloth->collider_count,
                                          cloth_ext_bytes(cloth));
    if (bytes > (uint64_t)SIZE_MAX) {
        return CLOTH_ERR_UNSUPPORTED;
    }
    *size = (size_t)bytes;
    return CLOTH_OK;
}

cloth_status cloth_state_size(const cloth_t *cloth, size_t *size)
{
    return state_size(cloth, size);
}

cloth_status cloth_save_state(const cloth_t *cloth, void *buf, size_t size)
{
    size_t need = 0;
    if (buf == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_status s = state_size(cloth, &need);
    if (s != CLOTH_OK) {
        return s;
    }
    if (size < need) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    unsigned char *const start = buf;
    unsigned char *p = start;
    memcpy(p, magic, sizeof magic);
    p = put_u32(p + sizeof magic, cloth_ext_bytes(cloth) > 0u ? SNAPSHOT_EXTENDED : SNAPSHOT_VERSION);
    p = put_f32(p, cloth->auto_rate);
    p = put_u64(p, (uint64_t)need);
    p = put_u32(p, cloth->count);
    p = put_u32(p, cloth->rows);
    p = put_u32(p, cloth->cols);
    p = put_u32(p, cloth_do_triangle_count(cloth));
    p = put_u32(p, cloth_do_spring_count(cloth));
    p = put_u32(p, cloth->pin_count);
    p = put_u32(p, cloth->collider_count);
    p = put_u32(p, auto_limit_word(cloth));
    uint64_t time_bits;
    memcpy(&time_bits, &cloth->time, sizeof time_bits);
    p = put_u64(p, time_bits);

    const cloth_particles *q = &cloth->p;
    const float *arrays[7] = {q->x, q->y, q->z, q->vx, q->vy, q->vz, q->w};
    for (int a = 0; a < 7; ++a) {
        p = put_floats(p, arrays[a], cloth->count);
    }
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        const cloth_pin_rec *pin = &cloth->pins[k];
        p = put_u32(p, pin->index);
        p = put_floats(p, pin->target, 3u);
        p = put_floats(p, pin->start, 3u);
        p = put_f32(p, pin->w_free);
    }
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        const cloth_collider *c = &cloth->colliders[k];
        float f[COLLIDER_FLOATS];
        collider_floats(c, f);
        p = put_u32(p, c->id);
        p = put_u32(p, (uint32_t)c->kind); /* compared for equality only, on load */
        p = put_floats(p, f, COLLIDER_FLOATS);
    }
    p = cloth_ext_put(cloth, p);
    put_u64(p, fnv_bytes(FNV_OFFSET, start, need - TRAILER_BYTES));
    return CLOTH_OK;
}

/* The squared length the collider API accepts (colliders.h). */
static bool unit_quaternion(const float q[4])
{
    const double n2 = (double)q[0] * (double)q[0] + (double)q[1] * (double)q[1] + (double)q[2] * (double)q[2] +
                      (double)q[3] * (double)q[3];
    return fabs(n2 - 1.0) <= 1e-3;
}

/* The framing: magic, version, reserved fields, recorded size, layout and
 * checksum. Returns the recorded size in *total. */
static bool check_frame(const unsigned char *b, size_t size, uint64_t *total)
{
    if (size < (size_t)HEADER_BYTES + TRAILER_BYTES || memcmp(b + OFF_MAGIC, magic, sizeof magic) != 0) {
        return false;
    }
    const uint32_t version = get_u32(b + OFF_VERSION);
    if (version == 1u ? get_u32(b + OFF_AUTO_RATE) != 0u || get_u32(b + OFF_AUTO_LIMIT) != 0u
                      : (version != SNAPSHOT_VERSION && version != SNAPSHOT_EXTENDED) ||
                            !cloth_auto_state_ok(get_f32(b + OFF_AUTO_RATE), get_u32(b + OFF_AUTO_LIMIT) & 0xffu) ||
                            (get_u32(b + OFF_AUTO_LIMIT) & ~(0xffu | AUTO_FUTILE)) != 0u) {
        return false;
    }
    const uint32_t count = get_u32(b + OFF_COUNT), pins = get_u32(b + OFF_PINS);
    const uint32_t colliders = get_u32(b + OFF_COLLIDERS);
    const uint64_t t = get_u64(b + OFF_TOTAL), base = ext_offset(count, pins, colliders);
    if (t > (uint64_t)size || t < base + TRAILER_BYTES) {
        return false;
    }
    uint64_t ext = 0u;
    if (version == SNAPSHOT_EXTENDED && !cloth_ext_measure(b + base, t - TRAILER_BYTES - base, count, &ext)) {
        return false; /* unknown bits, or sections that run past the recorded size */
    }
    if (t != snapshot_bytes(count, pins, colliders, ext)) {
        return false;
    }
    const size_t body = (size_t)t - TRAILER_BYTES;
    if (fnv_bytes(FNV_OFFSET, b, body) != get_u64(b + body)) {
        return false;
    }
    *total = t;
    return true;
}

/* A snapshot of this cloth's shape and collider set. */
static bool check_shape(const cloth_t *cloth, const unsigned char *b)
{
    if (get_u32(b + OFF_COUNT) != cloth->count || get_u32(b + OFF_ROWS) != cloth->rows ||
        get_u32(b + OFF_COLS) != cloth->cols || get_u32(b + OFF_TRIS) != cloth_do_triangle_count(cloth) ||
        get_u32(b + OFF_SPRINGS) != cloth_do_spring_count(cloth) ||
        get_u32(b + OFF_COLLIDERS) != cloth->collider_count || get_u32(b + OFF_PINS) > cloth->count) {
        return false;
    }
    const unsigned char *c = b + HEADER_BYTES + (size_t)PARTICLE_BYTES * cloth->count +
                             (size_t)PIN_BYTES * get_u32(b + OFF_PINS);
    for (uint32_t k = 0; k < cloth->collider_count; ++k, c += COLLIDER_BYTES) {
        if (get_u32(c) != cloth->colliders[k].id || get_u32(c + 4) != (uint32_t)cloth->colliders[k].kind) {
            return false;
        }
    }
    return true;
}

/* Contents a cloth could have: finite values, inverse masses >= 0, pins on
 * distinct particles whose inverse mass is 0, unit quaternions. `seen` is
 * a zeroed bitmap of one bit per particle (NULL when there are < 2 pins). */
static bool check_contents(const cloth_t *cloth, const unsigned char *b, unsigned char *seen)
{
    const uint32_t n = cloth->count, pins = get_u32(b + OFF_PINS);
    const double time = get_f64(b + OFF_TIME);
    if (!isfinite(time) || !(time >= 0.0)) {
        return false;
    }
    const unsigned char *arrays = b + HEADER_BYTES;
    if (!floats_finite(arrays, 7u * (size_t)n)) {
        return false;
    }
    const unsigned char *w = arrays + 24u * (size_t)n;
    for (uint32_t i = 0; i < n; ++i) {
        if (!(get_f32(w + 4u * i) >= 0.0f)) {
            return false;
        }
    }
    const unsigned char *pin = arrays + (size_t)PARTICLE_BYTES * n;
    for (uint32_t k = 0; k < pins; ++k, pin += PIN_BYTES) {
        const uint32_t i = get_u32(pin);
        if (i >= n || !floats_finite(pin + 4, 7u) || !(get_f32(pin + 28) >= 0.0f) ||
            get_f32(w + 4u * (size_t)i) != 0.0f) {
            return false;
        }
        if (seen != NULL) {
            const unsigned char bit = (unsigned char)(1u << (i & 7u));
            if (seen[i >> 3] & bit) {
                return false;
            }
            seen[i >> 3] = (unsigned char)(seen[i >> 3] | bit);
        }
    }
    const unsigned char *c = pin;
    for (uint32_t k = 0; k < cloth->collider_count; ++k, c += COLLIDER_BYTES) {
        if (!floats_finite(c + 8, COLLIDER_FLOATS)) {
            return false;
        }
        for (int pose = 0; pose < 3; ++pose) {
            const unsigned char *q = c + 8 + 28 * pose + 12;
            const float quat[4] = {get_f32(q), get_f32(q + 4), get_f32(q + 8), get_f32(q + 12)};
            if (!unit_quaternion(quat)) {
                return false;
            }
        }
    }
    return cloth_ext_check(cloth, get_u32(b + OFF_VERSION) == SNAPSHOT_EXTENDED ? c : NULL);
}

static void read_floats(const unsigned char *p, float *out, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        out[i] = get_f32(p + 4u * i);
    }
}

/* Everything is checked: only writes from here on. */
static void commit(cloth_t *cloth, const unsigned char *b, cloth_ext_stage *stage)
{
    const uint32_t n = cloth->count, pins = get_u32(b + OFF_PINS);
    cloth_particles *q = &cloth->p;
    float *arrays[7] = {q->x, q->y, q->z, q->vx, q->vy, q->vz, q->w};
    const unsigned char *p = b + HEADER_BYTES;
    for (int a = 0; a < 7; ++a, p += 4u * (size_t)n) {
        read_floats(p, arrays[a], n);
    }
    for (uint32_t k = 0; k < pins; ++k, p += PIN_BYTES) {
        cloth_pin_rec *pin = &cloth->pins[k];
        pin->index = get_u32(p);
        read_floats(p + 4, pin->target, 3u);
        read_floats(p + 16, pin->start, 3u);
        pin->w_free = get_f32(p + 28);
    }
    cloth->pin_count = pins;
    cloth_pins_index(cloth);
    /* the tether table is a function of the pins and inverse masses, both
     * just replaced: rebuilt at the next step, to the same table a cloth
     * that never saved holds */
    cloth_masses_changed(cloth);
    for (uint32_t k = 0; k < cloth->collider_count; ++k, p += COLLIDER_BYTES) {
        float f[COLLIDER_FLOATS];
        read_floats(p + 8, f, COLLIDER_FLOATS);
        set_collider_floats(&cloth->colliders[k], f);
    }
    cloth_ext_commit(cloth, get_u32(b + OFF_VERSION) == SNAPSHOT_EXTENDED ? p : NULL, stage);
    cloth->time = get_f64(b + OFF_TIME);
    if (get_u32(b + OFF_VERSION) == 1u) {
        cloth_auto_defaults(cloth);
    } else {
        const uint32_t word = get_u32(b + OFF_AUTO_LIMIT);
        cloth->auto_rate = get_f32(b + OFF_AUTO_RATE);
        cloth->passes_used = word & 0xffu;
        cloth->redo_futile = (word & AUTO_FUTILE) != 0u;
    }
}

cloth_status cloth_load_state(cloth_t *cloth, const void *buf, size_t size)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || buf == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const unsigned char *b = buf;
    uint64_t total = 0;
    if (!check_frame(b, size, &total) || !check_shape(cloth, b)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const uint32_t pins = get_u32(b + OFF_PINS);
    unsigned char *seen = NULL;
    const size_t seen_bytes = ((size_t)cloth->count + 7u) / 8u;
    if (pins > 1u) {
        seen = cloth_mem_alloc(&cloth->alloc, seen_bytes);
        if (seen == NULL) {
            return CLOTH_ERR_OUT_OF_MEMORY;
        }
        memset(seen, 0, seen_bytes);
    }
    const bool valid = check_contents(cloth, b, seen);
    if (seen != NULL) {
        cloth_mem_free(&cloth->alloc, seen, seen_bytes);
    }
    if (!valid) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    /* room for the pins before anything is written: OUT_OF_MEMORY changes nothing */
    cloth_status s = cloth_pins_reserve(cloth, pins);
    if (s == CLOTH_OK) {
        s = cloth_tethers_reserve(cloth, pins);
    }
    /* last: on their own, the blocks and grids it may get change nothing the cloth does */
    cloth_ext_stage stage;
    if (s == CLOTH_OK) {
        const uint32_t pins_n = get_u32(b + OFF_PINS);
        const unsigned char *ext = b + ext_offset(cloth->count, pins_n, cloth->collider_count);
        s = cloth_ext_prepare(cloth, get_u32(b + OFF_VERSION) == SNAPSHOT_EXTENDED ? ext : NULL, &stage);
    }
    if (s != CLOTH_OK) {
        return s;
    }
    commit(cloth, b, &stage);
    return CLOTH_OK;
}

uint64_t cloth_state_hash(const cloth_t *cloth)
{
    if (cloth == NULL) {
        return 0u;
    }
    const cloth_particles *q = &cloth->p;
    const float *arrays[6] = {q->x, q->y, q->z, q->vx, q->vy, q->vz};
    uint64_t h = FNV_OFFSET;
    for (int a = 0; a < 6; ++a) {
        for (uint32_t i = 0; i < cloth->count; ++i) {
            h = fnv_u32(h, float_bits(arrays[a][i]));
        }
    }
    uint64_t time_bits;
    memcpy(&time_bits, &cloth->time, sizeof time_bits);
    h = fnv_u32(h, (uint32_t)time_bits);
    return fnv_u32(h, (uint32_t)(time_bits >> 32));
}
