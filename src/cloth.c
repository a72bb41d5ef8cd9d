/*
 * The cloth handle: creation, destruction, and the defaults every new cloth
 * starts from.
 */
#include "cloth_internal.h"
#include "auto.h"
#include "bending.h"
#include "builders.h"
#include "colliders/colliders.h"
#include "constraints/constraints.h"
#include "curvature.h"
#include "forces.h"
#include "frame.h"
#include "integrators/integrators.h"
#include "pins.h"
#include "skin.h"
#include "self_collision.h"
#include "backstop.h"

#include <string.h>

/* Defaults that keep the default 32 x 32 cloth stable at 60 Hz with every
 * explicit integrator: the stiffest mode has w_max^2 ~ 1.07e6 /s^2, and with
 * h = 1/960 s and beta = 1 ms, w^2 h (h + 2 beta) ~ 3.4 <= 4 (Euler, Verlet)
 * and w^2 h beta ~ 1.1 <= 2 with h <= 2 beta (trapezoid). */
static const float default_stiffness[CLOTH_SPRING_TYPES] = {50.0f, 20.0f, 5.0f};
static const float default_spring_damping = 0.001f;
static const float default_damping = 1.0f;
static const uint32_t default_substeps = 16u;
static const uint32_t default_iterations = 8u;
static const float default_constraint_stiffness[CLOTH_SPRING_TYPES] = {1.0f, 1.0f, 0.2f};
static const float default_jacobi_weight = 0.2f; /* seed 004 */

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
    desc->neighbours = 12u;
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
        cloth->constraint_stiffness[t] = default_constraint_stiffness[t];
    }
    cloth->jacobi_weight = default_jacobi_weight;
    cloth->substeps = default_substeps;
    cloth_auto_defaults(cloth);
    cloth->iterations = default_iterations;
    cloth->strain_level_sweeps = CLOTH_MAX_ITERATIONS; /* every limit pass */
    cloth->next_collider_id = 1u;
    cloth->tasks.threads = 1u;
    cloth->simd = cloth_simd_initial();
    cloth->forces_dirty = true;
    cloth_forces_defaults(cloth);
    cloth_frame_defaults(cloth);
}

static cloth_status create_common(const cloth_allocator *hooks, cloth_t **out)
{
    if (!cloth_allocator_valid(hooks)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_allocator alloc;
    if (hooks != NULL && hooks->alloc != NULL) {
        alloc = *hooks;
    } else {
        cloth_allocator_default(&alloc);
    }
    cloth_t *cloth = cloth_mem_alloc(&alloc, sizeof *cloth);
    if (cloth == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memset(cloth, 0, sizeof *cloth);
    cloth->mem.host = alloc;
    cloth->mem.live_bytes = sizeof *cloth;
    cloth_mem_account_hooks(&cloth->mem, &cloth->alloc);
    set_default_params(cloth);
    *out = cloth;
    return CLOTH_OK;
}

/* How a new cloth steps (clothsim.h, "Defaults"): XPBD with automatic
 * substeps and iterations, tethers at 1 + CLOTH_DEFAULT_MAX_STRAIN from the
 * pins in the last substep and the automatic strain limit at that strain,
 * so that any grid the desc allows, at any frame rate, steps without a
 * setting and its links stay within the guarantee; and the watchdog
 * refuses a step that leaves a link CLOTH_DEFAULT_WATCHDOG_STRAIN past its
 * rest length, which no cloth held by the limit reaches. */
static cloth_status install_defaults(cloth_t *cloth)
{
    cloth_status st = cloth_do_set_integrator(cloth, CLOTH_INTEGRATOR_XPBD);
    if (st == CLOTH_OK) {
        st = cloth_do_set_substeps(cloth, 0u);
    }
    if (st == CLOTH_OK) {
        st = cloth_do_set_iterations(cloth, 0u);
    }
    if (st == CLOTH_OK) {
        st = cloth_tethers_capture_rest(cloth);
    }
    if (st == CLOTH_OK) {
        st = cloth_do_set_strain_limit(cloth, CLOTH_DEFAULT_MAX_STRAIN, 0u);
    }
    if (st == CLOTH_OK) {
        st = cloth_do_set_tethers(cloth, 1.0f + CLOTH_DEFAULT_TETHER_STRAIN);
    }
    if (st == CLOTH_OK) {
        st = cloth_do_set_tether_schedule(cloth, CLOTH_TETHERS_LAST_SUBSTEP);
    }
    if (st == CLOTH_OK) {
        st = cloth_do_set_watchdog(cloth, CLOTH_DEFAULT_WATCHDOG_STRAIN, 0.0f, CLOTH_WATCHDOG_RESTORE);
    }
    return st;
}

/* Shared tail of both builders. */
static cloth_status finish_create(cloth_t *cloth, cloth_status built, cloth_t **out)
{
    if (built == CLOTH_OK) {
        built = install_defaults(cloth);
    }
    if (built != CLOTH_OK) {
        cloth_do_destroy(cloth);
        return built;
    }
    *out = cloth;
    return CLOTH_OK;
}

/* Descs keep one size per major version (see types.h): the size must match,
 * and words reserved for later fields must be zero, or the program asks for
 * something this library does not have. */
static cloth_status check_desc_version(uint32_t given, size_t known, const uint32_t *reserved, size_t words)
{
    if (given < known) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (given > known) {
        return CLOTH_ERR_UNSUPPORTED;
    }
    for (size_t k = 0; k < words; ++k) {
        if (reserved[k] != 0u) {
            return CLOTH_ERR_UNSUPPORTED;
        }
    }
    return CLOTH_OK;
}

typedef cloth_status (*build_fn)(cloth_t *cloth, const void *desc);

static cloth_status build_grid(cloth_t *cloth, const void *desc)
{
    return cloth_build_grid(cloth, desc);
}

static cloth_status build_mesh(cloth_t *cloth, const void *desc)
{
    return cloth_build_mesh(cloth, desc);
}

/* What both builders share once their desc is known to be non-NULL: the
 * version check, the handle, the build, the default integrator. */
static cloth_status create_from_desc(const void *desc, uint32_t struct_size, size_t known,
                                     const uint32_t *reserved, size_t words, const cloth_allocator *hooks,
                                     build_fn build, cloth_t **out)
{
    cloth_status s = check_desc_version(struct_size, known, reserved, words);
    if (s != CLOTH_OK) {
        return s;
    }
    cloth_t *cloth = NULL;
    s = create_common(hooks, &cloth);
    if (s != CLOTH_OK) {
        return s;
    }
    return finish_create(cloth, build(cloth, desc), out);
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
    return create_from_desc(desc, desc->struct_size, sizeof *desc, desc->reserved,
                            sizeof desc->reserved / sizeof desc->reserved[0], desc->allocator, build_grid, out);
}

void cloth_mesh_desc_init(cloth_mesh_desc *desc)
{
    if (desc == NULL) {
        return;
    }
    memset(desc, 0, sizeof *desc);
    desc->particle_mass = 0.01f;
    desc->struct_size = (uint32_t)sizeof *desc;
}

cloth_status cloth_create_mesh(const cloth_mesh_desc *desc, cloth_t **out)
{
    if (out == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    if (desc == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    return create_from_desc(desc, desc->struct_size, sizeof *desc, desc->reserved,
                            sizeof desc->reserved / sizeof desc->reserved[0], desc->allocator, build_mesh, out);
}

void cloth_do_destroy(cloth_t *cloth)
{
    const cloth_allocator host = cloth->mem.host; /* the account dies with the cloth */
    cloth_tasks_release(cloth);
    cloth_integrator_release(cloth);
    cloth_mesh_free(cloth);
    cloth_pins_free(cloth);
    cloth_skin_free(cloth);
    cloth_stiffness_scales_free(cloth);
    cloth_self_free(cloth);
    cloth_backstop_free(cloth);
    cloth_colliders_free(cloth);
    cloth_forces_free(cloth);
    cloth_bending_free(cloth);
    cloth_curvature_free(cloth);
    cloth_tethers_free(cloth);
    cloth_strain_levels_free(cloth);
    cloth_strain_limit_free(cloth);
    cloth_mem_free(&cloth->alloc, cloth->block, cloth->block_bytes);
    cloth_mem_free(&host, cloth, sizeof *cloth);
}

void cloth_destroy(cloth_t *cloth)
{
    /* from inside its own step or integrator hook, freeing the cloth would
     * pull the memory from under the caller: ignored (clothsim.h) */
    if (cloth == NULL || cloth->busy) {
        return;
    }
    cloth_do_destroy(cloth);
}
