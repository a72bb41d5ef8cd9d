/*
 * Pins: particles with infinite mass that travel to a target over each step.
 * Pins are few, so they live in a small table searched linearly; the particle
 * arrays only carry w = 0 for them, which is all the integrators need.
 */
#include "cloth_internal.h"

static cloth_pin_rec *find_pin(cloth_t *cloth, uint32_t index)
{
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        if (cloth->pins[k].index == index) {
            return &cloth->pins[k];
        }
    }
    return NULL;
}

static cloth_status grow(cloth_t *cloth)
{
    uint32_t cap = cloth->pin_capacity ? cloth->pin_capacity * 2u : 8u;
    cloth_pin_rec *pins = cloth_mem_alloc(&cloth->alloc, (size_t)cap * sizeof *pins);
    if (pins == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        pins[k] = cloth->pins[k];
    }
    cloth_mem_free(&cloth->alloc, cloth->pins, (size_t)cloth->pin_capacity * sizeof *pins);
    cloth->pins = pins;
    cloth->pin_capacity = cap;
    return CLOTH_OK;
}

cloth_status cloth_pin(cloth_t *cloth, uint32_t index, const float target[3])
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
        if (cloth->pin_count == cloth->pin_capacity) {
            cloth_status s = grow(cloth);
            if (s != CLOTH_OK) {
                return s;
            }
        }
        pin = &cloth->pins[cloth->pin_count++];
        cloth_masses_changed(cloth);
        pin->index = index;
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

cloth_status cloth_unpin(cloth_t *cloth, uint32_t index)
{
    if (cloth == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (index >= cloth->count) {
        return CLOTH_ERR_OUT_OF_RANGE;
    }
    cloth_pin_rec *pin = find_pin(cloth, index);
    if (pin != NULL) {
        cloth->p.w[index] = pin->w_free;
        cloth_masses_changed(cloth);
        *pin = cloth->pins[--cloth->pin_count]; /* order of pins does not matter */
    }
    return CLOTH_OK;
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
 * target bit for bit at the last substep. */
void cloth_pins_apply(cloth_t *cloth, uint32_t substep, uint32_t substeps, float dt)
{
    const float t = (float)substep / (float)substeps;
    const float inv_dt = 1.0f / dt;
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        const cloth_pin_rec *pin = &cloth->pins[k];
        const uint32_t i = pin->index;
        cloth->p.x[i] = (1.0f - t) * pin->start[0] + t * pin->target[0];
        cloth->p.y[i] = (1.0f - t) * pin->start[1] + t * pin->target[1];
        cloth->p.z[i] = (1.0f - t) * pin->start[2] + t * pin->target[2];
        cloth->p.vx[i] = (pin->target[0] - pin->start[0]) * inv_dt;
        cloth->p.vy[i] = (pin->target[1] - pin->start[1]) * inv_dt;
        cloth->p.vz[i] = (pin->target[2] - pin->start[2]) * inv_dt;
    }
}

void cloth_pins_free(cloth_t *cloth)
{
    cloth_mem_free(&cloth->alloc, cloth->pins, (size_t)cloth->pin_capacity * sizeof *cloth->pins);
    cloth->pins = NULL;
    cloth->pin_count = cloth->pin_capacity = 0u;
}
