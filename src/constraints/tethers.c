/*
 * Long-range attachments (Kim, Chentanez, Mueller-Fischer 2012): every free
 * particle is kept within `scale` times its rest distance of its nearest
 * pins. Runs after the integrator in every substep (step.c), so it works with
 * any integrator. This file holds the API, each particle's pins and rest
 * distances, and the substep pass's entry points; the projection is in
 * tether_batch.c (float, in batches, for particles on one or two tethers:
 * the usual case, a cloth hung from a point or two) and tether_exact.c
 * (double, one particle at a time, for three or four), and the grid's own
 * path in tether_grid.c (tethers.h).
 *
 * Which pins, and their rest distances, come from one of two sources:
 *
 * - A grid with at most CLOTH_TETHERS_PER_PARTICLE pins: every free particle
 *   is tethered to all of them, and a rest distance is a function of the two
 *   particles' rows and columns (rest_distance), so nothing per particle is
 *   stored. This is the common case (a cloth held at a few points) and it
 *   costs no memory and no table traffic in the substep loop.
 * - Otherwise (a mesh, or a grid with more pins) a table of each particle's
 *   nearest CLOTH_TETHERS_PER_PARTICLE pins and rest distances, 32 bytes per
 *   particle, which goes stale when a pin is added or released (pins.c sets
 *   tethers_dirty) and is refilled at the next step, never inside
 *   cloth_pin(), so pinning many particles in a row costs one refill. Its
 *   memory is reserved where it becomes needed (cloth_set_tethers(),
 *   cloth_pin(), a snapshot's load), where running out of memory can be
 *   refused; the step never allocates or frees it. It stays while the
 *   tethers are on, unused while a grid's pins are back to K or fewer.
 *
 * Both give the same bits: every path hands a particle's pins to the
 * projection in increasing index order (the table is stored so, the grid's
 * pins are sorted once per range) with the same rest distances, and the grid
 * path only skips, by a conservative float test, particles that the
 * projection would leave untouched.
 *
 * Rest distances come from the creation shape: a grid's is implied by its
 * spacing and the angle between its axes; a mesh's positions are copied at
 * creation (cloth_tethers_capture_rest), since nothing else keeps them.
 */
#include "tethers.h"
#include "constraints/constraints.h"

#include <string.h>

cloth_status cloth_tethers_capture_rest(cloth_t *cloth)
{
    if (cloth->tris == NULL) {
        return CLOTH_OK; /* a grid's rest shape is implied by the grid */
    }
    float *rest = cloth_mem_alloc(&cloth->alloc, 3u * (size_t)cloth->count * sizeof(float));
    if (rest == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    const size_t bytes = (size_t)cloth->count * sizeof(float);
    memcpy(rest, cloth->p.x, bytes);
    memcpy(rest + cloth->count, cloth->p.y, bytes);
    memcpy(rest + 2u * (size_t)cloth->count, cloth->p.z, bytes);
    cloth->rest_shape = rest;
    return CLOTH_OK;
}

static bool needs_table_for(const cloth_t *cloth, uint32_t pins)
{
    return cloth->tris != NULL || pins > (uint32_t)K;
}

static bool needs_table(const cloth_t *cloth)
{
    return needs_table_for(cloth, cloth->pin_count);
}

static void free_table(cloth_t *cloth, struct cloth_tethers *t)
{
    cloth_mem_free(&cloth->alloc, t->pin, t->table_bytes);
    t->pin = NULL;
    t->rest = NULL;
    t->piece = NULL;
    t->table_bytes = 0u;
}

/* The root of i's piece, halving the path on the way. */
static uint32_t piece_root(uint32_t *parent, uint32_t i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

/* A mesh's connected pieces: two particles are in one piece when triangles
 * join them. Each particle gets the lowest index of its piece, so that
 * tethers never join a particle to the pins of another piece (a mesh may
 * hold several garments, or a patch laid on a sheet). */
static void find_pieces(const cloth_t *cloth, uint32_t *piece)
{
    for (uint32_t i = 0; i < cloth->count; ++i) {
        piece[i] = i;
    }
    for (uint32_t k = 0; k < 3u * cloth->tri_count; ++k) {
        const uint32_t a = piece_root(piece, cloth->tris[k]);
        const uint32_t b = piece_root(piece, cloth->tris[k % 3u == 2u ? k - 2u : k + 1u]);
        if (a != b) {
            piece[a > b ? a : b] = a < b ? a : b; /* the lower index stays the root */
        }
    }
    for (uint32_t i = 0; i < cloth->count; ++i) {
        piece[i] = piece_root(piece, i);
    }
}

static cloth_status alloc_table(cloth_t *cloth, struct cloth_tethers *t)
{
    const size_t slots = (size_t)K * cloth->count;
    const size_t pieces = cloth->tris != NULL ? (size_t)cloth->count : 0u;
    const size_t bytes = slots * (sizeof(uint32_t) + sizeof(float)) + pieces * sizeof(uint32_t);
    unsigned char *mem = cloth_mem_alloc(&cloth->alloc, bytes);
    if (mem == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    t->pin = (uint32_t *)(void *)mem;
    t->rest = (float *)(void *)(mem + slots * sizeof(uint32_t));
    t->piece = NULL;
    if (pieces > 0u) {
        t->piece = (uint32_t *)(void *)(mem + slots * (sizeof(uint32_t) + sizeof(float)));
        find_pieces(cloth, t->piece);
    }
    t->table_bytes = bytes;
    return CLOTH_OK;
}

static void free_tethers(cloth_t *cloth)
{
    if (cloth->tethers != NULL) {
        free_table(cloth, cloth->tethers);
        cloth_mem_free(&cloth->alloc, cloth->tethers, sizeof *cloth->tethers);
        cloth->tethers = NULL;
    }
}

void cloth_tethers_free(cloth_t *cloth)
{
    free_tethers(cloth);
    cloth_mem_free(&cloth->alloc, cloth->rest_shape, 3u * (size_t)cloth->count * sizeof(float));
    cloth->rest_shape = NULL;
}

cloth_status cloth_do_set_tethers(cloth_t *cloth, float scale)
{
    if (cloth == NULL || !(scale == 0.0f || (scale >= 1.0f && scale <= 10.0f))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (scale == 0.0f) {
        free_tethers(cloth);
        return CLOTH_OK;
    }
    struct cloth_tethers *t = cloth->tethers;
    const bool fresh = t == NULL;
    if (fresh) {
        t = cloth_mem_alloc(&cloth->alloc, sizeof *t);
        if (t == NULL) {
            return CLOTH_ERR_OUT_OF_MEMORY;
        }
        memset(t, 0, sizeof *t);
    }
    /* A table needed now is allocated now, so that running out of memory is
     * reported here rather than absorbed by a slower step. */
    const bool table = t->pin == NULL && needs_table(cloth);
    if (table && alloc_table(cloth, t) != CLOTH_OK) {
        if (fresh) {
            cloth_mem_free(&cloth->alloc, t, sizeof *t);
        }
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    cloth->tethers = t;
    if (fresh || table) {
        cloth->tethers_dirty = true; /* a new table is filled at the next step */
    }
    t->scale = scale;
    return CLOTH_OK;
}

cloth_status cloth_set_tethers(cloth_t *cloth, float scale)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    return cloth_do_set_tethers(cloth, scale);
}

cloth_status cloth_tethers_reserve(cloth_t *cloth, uint32_t pins)
{
    struct cloth_tethers *t = cloth->tethers;
    if (t == NULL || t->pin != NULL || !needs_table_for(cloth, pins)) {
        return CLOTH_OK;
    }
    return alloc_table(cloth, t);
}

cloth_status cloth_get_tethers(const cloth_t *cloth, float *scale)
{
    if (cloth == NULL || scale == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *scale = cloth->tethers != NULL ? cloth->tethers->scale : 0.0f;
    return CLOTH_OK;
}

cloth_status cloth_do_set_tether_schedule(cloth_t *cloth, cloth_tether_schedule schedule)
{
    if (cloth == NULL || (schedule != CLOTH_TETHERS_EVERY_SUBSTEP && schedule != CLOTH_TETHERS_LAST_SUBSTEP)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->tether_schedule = schedule;
    return CLOTH_OK;
}

cloth_status cloth_set_tether_schedule(cloth_t *cloth, cloth_tether_schedule schedule)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    return cloth_do_set_tether_schedule(cloth, schedule);
}

cloth_status cloth_get_tether_schedule(const cloth_t *cloth, cloth_tether_schedule *schedule)
{
    if (cloth == NULL || schedule == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *schedule = cloth->tether_schedule;
    return CLOTH_OK;
}

static float grid_rest_distance(const cloth_t *cloth, uint32_t a, uint32_t b)
{
    double s2, cross;
    cloth_tether_grid_terms(cloth, &s2, &cross);
    const double dc = (double)(a % cloth->cols) - (double)(b % cloth->cols);
    const double dr = (double)(a / cloth->cols) - (double)(b / cloth->cols);
    return grid_rest(s2, cross, dc, dr);
}

static float rest_distance(const cloth_t *cloth, uint32_t a, uint32_t b)
{
    if (cloth->tris != NULL) {
        const float *x = cloth->rest_shape, *y = x + cloth->count, *z = y + cloth->count;
        double dx = (double)x[a] - (double)x[b], dy = (double)y[a] - (double)y[b], dz = (double)z[a] - (double)z[b];
        return (float)sqrt(dx * dx + dy * dy + dz * dz);
    }
    return grid_rest_distance(cloth, a, b);
}

/* Insert pin p at rest distance d into a particle's list of the K nearest,
 * kept in increasing order (ties: lower particle index first, so the list
 * does not depend on the order pins were made in). */
static void insert_pin(uint32_t pin[K], float rest[K], uint32_t p, float d)
{
    int at = K;
    while (at > 0 && (pin[at - 1] == NO_PIN || d < rest[at - 1] || (d == rest[at - 1] && p < pin[at - 1]))) {
        --at;
    }
    if (at == K) {
        return;
    }
    for (int m = K - 1; m > at; --m) {
        pin[m] = pin[m - 1];
        rest[m] = rest[m - 1];
    }
    pin[at] = p;
    rest[at] = d;
}

/* Particle i's K nearest pins among all of them in its piece, in index
 * order. */
static void nearest_pins(const cloth_t *cloth, const uint32_t *piece, uint32_t i, uint32_t pin[K], float rest[K])
{
    cloth_tether_clear_list(pin, rest);
    for (uint32_t q = 0; q < cloth->pin_count; ++q) {
        const uint32_t p = cloth->pins[q].index;
        if (piece == NULL || piece[p] == piece[i]) {
            insert_pin(pin, rest, p, rest_distance(cloth, i, p));
        }
    }
    cloth_tether_order_by_index(pin, rest);
}

/* The table: every free particle's K nearest pins. */
static void rebuild(cloth_t *cloth, struct cloth_tethers *t)
{
    for (uint32_t i = 0; i < cloth->count; ++i) {
        uint32_t *pin = &t->pin[(size_t)K * i];
        float *rest = &t->rest[(size_t)K * i];
        if (cloth->p.w[i] == 0.0f) {
            cloth_tether_clear_list(pin, rest); /* pinned, or of infinite mass: nothing moves it */
        } else {
            nearest_pins(cloth, t->piece, i, pin, rest);
        }
    }
}

/* --- The substep pass ------------------------------------------------- */

static void table_range(cloth_t *cloth, const struct cloth_tethers *t, uint32_t begin, uint32_t end)
{
    lanes one, two;
    cloth_tether_lanes_init(&one, 1u, cloth, NULL);
    cloth_tether_lanes_init(&two, 2u, cloth, NULL);
    for (uint32_t i = begin; i < end; ++i) {
        const size_t at = (size_t)K * i;
        if (t->pin[at] != NO_PIN) {
            cloth_tether_constrain(&cloth->p, &one, &two, i, &t->pin[at], &t->rest[at], t->scale);
        }
    }
    cloth_tether_lanes_flush(&one, &cloth->p);
    cloth_tether_lanes_flush(&two, &cloth->p);
}

bool cloth_tethers_prepare(cloth_t *cloth)
{
    struct cloth_tethers *t = cloth->tethers;
    if (t == NULL) {
        return false;
    }
    if (cloth->tethers_dirty) {
        if (needs_table(cloth) && t->pin != NULL) {
            rebuild(cloth, t);
        }
        cloth->tethers_dirty = false;
    }
    return cloth->pin_count > 0u;
}

/* Particles are independent of each other here (pins do not move, and a
 * particle reads only itself and the pins), so [begin, end) may be any
 * split of [0, count) and the result does not change by a bit. */
void cloth_tethers_apply_range(cloth_t *cloth, uint32_t begin, uint32_t end)
{
    const struct cloth_tethers *t = cloth->tethers;
    if (t == NULL || cloth->pin_count == 0u) {
        return;
    }
    end = end < cloth->count ? end : cloth->count;
    if (begin >= end) {
        return;
    }
    if (!needs_table(cloth)) {
        cloth_tether_grid_range(cloth, t, begin, end);
    } else if (t->pin != NULL) { /* reserved wherever pins are added */
        table_range(cloth, t, begin, end);
    }
}
