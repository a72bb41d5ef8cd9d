/*
 * The cloth handle: creation, destruction, and the defaults every new cloth
 * starts from.
 */
#include "cloth_internal.h"

#include <string.h>

/* Defaults that keep the default 32 x 32 cloth stable at 60 Hz with every
 * explicit integrator: the stiffest mode has w_max^2 ~ 1.07e6 /s^2, and with
 * h = 1/960 s and beta = 1 ms, w^2 h (h + 2 beta) ~ 3.4 <= 4 (Euler, Verlet)
 * and w^2 h beta ~ 1.1 <= 2 with h <= 2 beta (trapezoid). */
static const float default_stiffness[CLOTH_SPRING_TYPES] = {50.0f, 20.0f, 5.0f};
static const float default_spring_damping = 0.001f;
static const float default_damping = 0.2f;
static const uint32_t default_substeps = 16u;
static const uint32_t default_iterations = 8u;

void cloth_grid_desc_init(cloth_grid_desc *desc)
{
    if (desc == NULL) {
        return;
    }
    memset(desc, 0, sizeof *desc);
    desc->rows = 32u;
    desc->cols = 32u;
    desc->spacing = 0.05f;
    desc->u_axis[0] = 1.0f;
    desc->v_axis[2] = 1.0f;
    desc->particle_mass = 0.01f;
    desc->struct_size = (uint32_t)sizeof *desc;
    desc->allocator = NULL;
}

static void set_default_params(cloth_t *cloth)
{
    cloth->gravity[0] = 0.0f;
    cloth->gravity[1] = -9.81f;
    cloth->gravity[2] = 0.0f;
    cloth->damping = default_damping;
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        cloth->stiffness[t] = default_stiffness[t];
        cloth->spring_damping[t] = default_spring_damping;
    }
    cloth->substeps = default_substeps;
    cloth->iterations = default_iterations;
    cloth->integrator = CLOTH_INTEGRATOR_EXPLICIT_EULER;
    cloth->ops = cloth_integrator_lookup(cloth->integrator);
    cloth->next_collider_id = 1u;
}

cloth_status cloth_create_grid(const cloth_grid_desc *desc, cloth_t **out)
{
    if (out == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    if (desc == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    /* Only one version of the desc exists so far, so its size must match. */
    if (desc->struct_size < sizeof(cloth_grid_desc)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (desc->struct_size > sizeof(cloth_grid_desc)) {
        return CLOTH_ERR_UNSUPPORTED;
    }
    if (!cloth_allocator_valid(desc->allocator)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }

    cloth_allocator alloc;
    if (desc->allocator != NULL && desc->allocator->alloc != NULL) {
        alloc = *desc->allocator;
    } else {
        cloth_allocator_default(&alloc);
    }

    cloth_t *cloth = cloth_mem_alloc(&alloc, sizeof *cloth);
    if (cloth == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memset(cloth, 0, sizeof *cloth);
    cloth->alloc = alloc;
    set_default_params(cloth);

    cloth_status s = cloth_build_grid(cloth, desc);
    if (s != CLOTH_OK) {
        cloth_destroy(cloth);
        return s;
    }
    *out = cloth;
    return CLOTH_OK;
}

void cloth_destroy(cloth_t *cloth)
{
    if (cloth == NULL) {
        return;
    }
    cloth_allocator alloc = cloth->alloc;
    cloth_pins_free(cloth);
    cloth_colliders_free(cloth);
    cloth_mem_free(&alloc, cloth->block, cloth->block_bytes);
    cloth_mem_free(&alloc, cloth, sizeof *cloth);
}
