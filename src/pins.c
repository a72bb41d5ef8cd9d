/*
 * Pins: particles with infinite mass that travel to a target over each step.
 * They live in a packed table that the step walks, and a hash of particle
 * index to record finds one in constant time, so pinning every particle of a
 * big cloth, one call each, is linear, while a cloth with a few pins keeps a
 * few bytes for them, not a slot per particle. The particle arrays only
 * carry w = 0 for pinned particles, which is all the integrators need.
 */
#include "cloth_internal.h"
#include "constraints/constraints.h"
#include "pins.h"
#include "frame.h"

#include <string.h>

/* The hash: open addressing with linear probing over a power-of-two number
 * of slots, at least twice the pins; a slot holds 1 + a record's place in
 * the table, 0 when empty. Lookups never depend on the table's order, and
 * the step walks the table, so the hash changes no result. */
static uint32_t home_slot(uint32_t index, uint32_t mask)
{
    return (index * 2654435761u) & mask; /* Knuth's multiplicative hash */
}

/* The slot that holds particle `index`, or UINT32_MAX. */
static uint32_t find_slot(const cloth_t *cloth, uint32_t index)
{
    if (cloth->pin_hash == NULL) {
        return UINT32_MAX;
    }
    const uint32_t mask = cloth->pin_hash_slots - 1u;
    for (uint32_t h = home_slot(index, mask);; h = (h + 1u) & mask) {
        const uint32_t entry = cloth->pin_hash[h];
        if (entry == 0u) {
            return UINT32_MAX;
        }
        if (cloth->pins[entry - 1u].index == index) {
            return h;
        }
    }
}

static cloth_pin_rec *find_pin(cloth_t *cloth, uint32_t index)
{
    const uint32_t h = find_slot(cloth, index);
    return h == UINT32_MAX ? NULL : &cloth->pins[cloth->pin_hash[h] - 1u];
}

/* Record k of the table goes into the hash (it has room: reserve). */
static void hash_insert(cloth_t *cloth, uint32_t k)
{
    const uint32_t mask = cloth->pin_hash_slots - 1u;
    uint32_t h = home_slot(cloth->pins[k].index, mask);
    while (cloth->pin_hash[h] != 0u) {
        h = (h + 1u) & mask;
    }
    cloth->pin_hash[h] = k + 1u;
}

/* Empty slot `hole`, moving back the entries after it that would otherwise
 * be cut off from their home slot (deletion without tombstones). */
static void hash_remove(cloth_t *cloth, uint32_t hole)
{
    const uint32_t mask = cloth->pin_hash_slots - 1u;
    cloth->pin_hash[hole] = 0u;
    for (uint32_t q = (hole + 1u) & mask; cloth->pin_hash[q] != 0u; q = (q + 1u) & mask) {
        const uint32_t home = home_slot(cloth->pins[cloth->pin_hash[q] - 1u].index, mask);
        /* q's entry may stay if its home lies cyclically in (hole, q] */
        const bool stays = hole < q ? (home > hole && home <= q) : (home > hole || home <= q);
        if (!stays) {
            cloth->pin_hash[hole] = cloth->pin_hash[q];
            cloth->pin_hash[q] = 0u;
            hole = q;
        }
    }
}

void cloth_pins_index(cloth_t *cloth)
{
    if (cloth->pin_hash == NULL) {
        return;
    }
    memset(cloth->pin_hash, 0, (size_t)cloth->pin_hash_slots * sizeof *cloth->pin_hash);
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        hash_insert(cloth, k);
    }
}

cloth_status cloth_pins_reserve(cloth_t *cloth, uint32_t pins)
{
    if (pins == 0u) {
        return CLOTH_OK;
    }
    /* a table of 8, 16, 32 ... records, and twice as many hash slots */
    uint32_t cap = cloth->pin_capacity ? cloth->pin_capacity : 8u;
    while (cap < pins) {
        cap *= 2u; /* pins <= 2^26 particles: no overflow */
    }
    if (cap == cloth->pin_capacity && cloth->pin_hash != NULL) {
        return CLOTH_OK;
    }
    cloth_pin_rec *table = cloth->pins;
    if (cap != cloth->pin_capacity) {
        table = cloth_mem_alloc(&cloth->alloc, (size_t)cap * sizeof *table);
        if (table == NULL) {
            return CLOTH_ERR_OUT_OF_MEMORY;
        }
    }
    const uint32_t slots = 2u * cap;
    uint32_t *hash = cloth_mem_alloc(&cloth->alloc, (size_t)slots * sizeof *hash);
    if (hash == NULL) {
        if (table != cloth->pins) {
            cloth_mem_free(&cloth->alloc, table, (size_t)cap * sizeof *table);
        }
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    if (table != cloth->pins) {
        for (uint32_t k = 0; k < cloth->pin_count; ++k) {
            table[k] = cloth->pins[k];
        }
        cloth_mem_free(&cloth->alloc, cloth->pins, (size_t)cloth->pin_capacity * sizeof *table);
        cloth->pins = table;
        cloth->pin_capacity = cap;
    }
    cloth_mem_free(&cloth->alloc, cloth->pin_hash, (size_t)cloth->pin_hash_slots * sizeof *hash);
    cloth->pin_hash = hash;
    cloth->pin_hash_slots = slots;
    cloth_pins_index(cloth);
    return CLOTH_OK;
}

cloth_status cloth_do_pin(cloth_t *cloth, uint32_t index, const float target[3])
{
    if (cloth == NULL || (target != NULL && !cloth_finite3(target))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (index >= cloth->count) {
        return CLOTH_ERR_OUT_OF_RANGE;
    }
    float t[3] = {cloth->p.x[index], cloth->p.y[index], cloth->p.z[index]};
    if (target != NULL) {
        t[0] = target[0];
        t[1] = target[1];
        t[2] = target[2];
    }
    cloth_pin_rec *pin = find_pin(cloth, index);
    if (pin == NULL) {
        cloth_status s = cloth_pins_reserve(cloth, cloth->pin_count + 1u);
        if (s == CLOTH_OK) {
            s = cloth_tethers_reserve(cloth, cloth->pin_count + 1u); /* so the step never allocates */
        }
        if (s != CLOTH_OK) {
            return s;
        }
        pin = &cloth->pins[cloth->pin_count++];
        cloth_masses_changed(cloth);
        pin->index = index;
        hash_insert(cloth, cloth->pin_count - 1u);
        pin->w_free = cloth->p.w[index];
        cloth->p.w[index] = 0.0f;
        /* where it stands: the next step sets it again, but a snapshot taken
         * before then holds it, so it must be defined */
        pin->start[0] = cloth->p.x[index];
        pin->start[1] = cloth->p.y[index];
        pin->start[2] = cloth->p.z[index];
    }
    for (int k = 0; k < 3; ++k) {
        pin->target[k] = t[k];
    }
    return CLOTH_OK;
}

cloth_status cloth_pin(cloth_t *cloth, uint32_t index, const float target[3])
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    return cloth_do_pin(cloth, index, target);
}

cloth_pin_rec *cloth_pin_find(cloth_t *cloth, uint32_t index)
{
    return find_pin(cloth, index);
}

cloth_status cloth_unpin(cloth_t *cloth, uint32_t index)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (index >= cloth->count) {
        return CLOTH_ERR_OUT_OF_RANGE;
    }
    cloth_do_unpin(cloth, index);
    return CLOTH_OK;
}

void cloth_do_unpin(cloth_t *cloth, uint32_t index)
{
    cloth_pin_rec *pin = find_pin(cloth, index);
    if (pin != NULL) {
        cloth->p.w[index] = pin->w_free;
        cloth_masses_changed(cloth);
        /* the last record fills the hole in the table: the order of pins
         * does not matter; the hash then points at its new place */
        hash_remove(cloth, find_slot(cloth, index));
        const uint32_t last = --cloth->pin_count;
        if (pin != &cloth->pins[last]) {
            const uint32_t moved = find_slot(cloth, cloth->pins[last].index);
            *pin = cloth->pins[last];
            cloth->pin_hash[moved] = (uint32_t)(pin - cloth->pins) + 1u;
        }
    }
}

void cloth_pins_begin_step(cloth_t *cloth)
{
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        cloth_pin_rec *pin = &cloth->pins[k];
        pin->start[0] = cloth->p.x[pin->index];
        pin->start[1] = cloth->p.y[pin->index];
        pin->start[2] = cloth->p.z[pin->index];
    }
}

/* After substep `substep` of `substeps`, a pin stands at the fraction
 * substep/substeps of its straight path; the weighted form below gives the
 * target bit for bit at the last substep. Its velocity is the path over dt,
 * divided rather than multiplied by 1 / dt: a pin that stays put then has
 * velocity 0 even at a dt whose reciprocal overflows. */
void cloth_pins_apply(cloth_t *cloth, uint32_t substep, uint32_t substeps, float dt)
{
    const float t = (float)substep / (float)substeps;
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        const cloth_pin_rec *pin = &cloth->pins[k];
        const uint32_t i = pin->index;
        cloth->p.x[i] = (1.0f - t) * pin->start[0] + t * pin->target[0];
        cloth->p.y[i] = (1.0f - t) * pin->start[1] + t * pin->target[1];
        cloth->p.z[i] = (1.0f - t) * pin->start[2] + t * pin->target[2];
        cloth->p.vx[i] = (pin->target[0] - pin->start[0]) / dt;
        cloth->p.vy[i] = (pin->target[1] - pin->start[1]) / dt;
        cloth->p.vz[i] = (pin->target[2] - pin->start[2]) / dt;
        if (cloth->frame.carrying) {
            /* relative to the carry, as every velocity then is (frame.c) */
            float carried[3];
            cloth_frame_step_carry(cloth, pin->start, carried);
            cloth->p.vx[i] = (pin->target[0] - carried[0]) / dt;
            cloth->p.vy[i] = (pin->target[1] - carried[1]) / dt;
            cloth->p.vz[i] = (pin->target[2] - carried[2]) / dt;
        }
    }
}

void cloth_pins_free(cloth_t *cloth)
{
    cloth_mem_free(&cloth->alloc, cloth->pin_hash, (size_t)cloth->pin_hash_slots * sizeof *cloth->pin_hash);
    cloth->pin_hash = NULL;
    cloth->pin_hash_slots = 0u;
    cloth_mem_free(&cloth->alloc, cloth->pins, (size_t)cloth->pin_capacity * sizeof *cloth->pins);
    cloth->pins = NULL;
    cloth->pin_count = cloth->pin_capacity = 0u;
}

void cloth_pins_set_free_mass(cloth_t *cloth)
{
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        cloth_pin_rec *pin = &cloth->pins[k];
        pin->w_free = cloth->p.w[pin->index];
        cloth->p.w[pin->index] = 0.0f;
    }
}
