/*
 * Per-substep forces that do not come from springs: the accumulators are
 * cleared, then the wind (through the aerodynamics of aerodynamics.c) and
 * the host's force hook add to them. Gravity is an acceleration and is added
 * by the integrators directly.
 *
 * The accumulators are one allocation of their own, held only while
 * something may touch them: any integrator but the built-in XPBD on a grid
 * (they all read them, and a host's integrator is promised them), wind, or
 * the force hook. XPBD on a grid without either never reads a force, and its
 * view has fx = fy = fz = NULL. The setters that change one of the three
 * make them (the step never allocates) and free them once nothing needs
 * them, so that memory_bytes shows what the configuration in place costs.
 */
#include "cloth_internal.h"
#include "platform/finite.h"
#include "forces.h"

#include <string.h>

/* The hooks see packed xyz; these are the four buffers in hook_buf. */
enum { BUF_POSITIONS, BUF_WIND, BUF_VELOCITIES, BUF_FORCES, BUF_COUNT };

static const float default_air_density = 1.2f; /* kg/m^3, sea level at 20 C */
static const float default_drag = 1.2f;        /* flat plate broadside */
static const float default_lift = 1.0f;

void cloth_forces_defaults(cloth_t *cloth)
{
    cloth->air.density = default_air_density;
    cloth->air.drag = default_drag;
    cloth->air.lift = default_lift;
}

static float *buffer(const cloth_t *cloth, int which)
{
    return cloth->hook_buf + (size_t)which * 3u * cloth->count;
}

static cloth_status ensure_hook_buffers(cloth_t *cloth)
{
    if (cloth->hook_buf != NULL) {
        return CLOTH_OK;
    }
    size_t bytes = (size_t)BUF_COUNT * 3u * cloth->count * sizeof(float);
    float *buf = cloth_mem_alloc(&cloth->alloc, bytes);
    if (buf == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    cloth->hook_buf = buf;
    cloth->hook_buf_bytes = bytes;
    return CLOTH_OK;
}

static void pack(const cloth_t *cloth, const float *ax, const float *ay, const float *az, float *dst)
{
    for (uint32_t i = 0; i < cloth->count; ++i) {
        dst[3u * i] = ax[i];
        dst[3u * i + 1u] = ay[i];
        dst[3u * i + 2u] = az[i];
    }
}

/* Whether every one of the n floats a hook wrote is finite. */
static bool hook_output_finite(const float *v, size_t n)
{
    return cloth_nonfinite_bits(v, 0u, n) == 0u;
}

static bool apply_wind(cloth_t *cloth, float time, bool *packed)
{
    if (cloth->wind_fn == NULL) {
        cloth_aerodynamics(cloth, cloth->wind_constant, 0u);
        return true;
    }
    float *pos = buffer(cloth, BUF_POSITIONS), *wind = buffer(cloth, BUF_WIND);
    pack(cloth, cloth->p.x, cloth->p.y, cloth->p.z, pos);
    *packed = true;
    /* zeroed so that a hook that skips particles leaves still air there,
     * the same in every run */
    memset(wind, 0, 3u * (size_t)cloth->count * sizeof(float));
    cloth->wind_fn(cloth->wind_user, time, cloth->count, pos, wind);
    if (!hook_output_finite(wind, 3u * (size_t)cloth->count)) {
        return false;
    }
    cloth_aerodynamics(cloth, wind, 3u);
    return true;
}

static bool apply_external(cloth_t *cloth, float time, bool packed)
{
    float *pos = buffer(cloth, BUF_POSITIONS), *vel = buffer(cloth, BUF_VELOCITIES);
    float *f = buffer(cloth, BUF_FORCES);
    if (!packed) {
        pack(cloth, cloth->p.x, cloth->p.y, cloth->p.z, pos);
    }
    pack(cloth, cloth->p.vx, cloth->p.vy, cloth->p.vz, vel);
    memset(f, 0, 3u * (size_t)cloth->count * sizeof(float));
    cloth->force_fn(cloth->force_user, time, cloth->count, pos, vel, f);
    if (!hook_output_finite(f, 3u * (size_t)cloth->count)) {
        return false;
    }
    for (uint32_t i = 0; i < cloth->count; ++i) {
        cloth->p.fx[i] += f[3u * i];
        cloth->p.fy[i] += f[3u * i + 1u];
        cloth->p.fz[i] += f[3u * i + 2u];
    }
    return true;
}

static bool forces_needed(const cloth_t *cloth, cloth_integrator kind, bool wind_on, bool hook)
{
    return wind_on || hook || kind != CLOTH_INTEGRATOR_XPBD || cloth->tris != NULL;
}

cloth_status cloth_forces_reserve(cloth_t *cloth, cloth_integrator kind, bool wind_on, bool hook)
{
    if (cloth->force_block != NULL || !forces_needed(cloth, kind, wind_on, hook)) {
        return CLOTH_OK;
    }
    const size_t lanes = CLOTH_ALIGN / sizeof(float);
    const size_t stride = ((size_t)cloth->count + lanes - 1u) / lanes * lanes;
    const size_t bytes = 3u * stride * sizeof(float);
    float *block = cloth_mem_alloc(&cloth->alloc, bytes);
    if (block == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memset(block, 0, bytes);
    cloth->force_block = block;
    cloth->force_block_bytes = bytes;
    cloth->p.fx = block;
    cloth->p.fy = block + stride;
    cloth->p.fz = block + 2u * stride;
    cloth->forces_dirty = false; /* just zeroed */
    return CLOTH_OK;
}

static void free_force_arrays(cloth_t *cloth)
{
    cloth_mem_free(&cloth->alloc, cloth->force_block, cloth->force_block_bytes);
    cloth->force_block = NULL;
    cloth->force_block_bytes = 0u;
    cloth->p.fx = NULL;
    cloth->p.fy = NULL;
    cloth->p.fz = NULL;
}

void cloth_forces_settle(cloth_t *cloth)
{
    if (!forces_needed(cloth, cloth->integrator, cloth->wind_on, cloth->force_fn != NULL)) {
        free_force_arrays(cloth);
    }
}

cloth_status cloth_forces_begin(cloth_t *cloth)
{
    if (cloth->p.fx == NULL) {
        return CLOTH_OK; /* no wind, no hook, and an integrator that reads no forces */
    }
    /* Most cloths have no wind, no hook and a position-based integrator:
     * their forces stay 0, and clearing them every substep would be a pass
     * over 12 bytes a particle for nothing. */
    if (cloth->forces_dirty) {
        size_t bytes = (size_t)cloth->count * sizeof(float);
        memset(cloth->p.fx, 0, bytes);
        memset(cloth->p.fy, 0, bytes);
        memset(cloth->p.fz, 0, bytes);
        cloth->forces_dirty = false;
    }
    cloth->forces_dirty = cloth->wind_on || cloth->force_fn != NULL;
    const float time = (float)cloth->time;
    /* A hook's NaN or infinity, on a free or a pinned particle, refuses the
     * step here, before any integrator (a host's too) can hide it: implicit
     * Euler's solve, for one, would stop on a NaN residual with no change. */
    bool packed = false;
    if (cloth->wind_on && !apply_wind(cloth, time, &packed)) {
        return CLOTH_ERR_UNSTABLE;
    }
    if (cloth->force_fn != NULL && !apply_external(cloth, time, packed)) {
        return CLOTH_ERR_UNSTABLE;
    }
    return CLOTH_OK;
}

void cloth_forces_free(cloth_t *cloth)
{
    free_force_arrays(cloth);
    cloth_mem_free(&cloth->alloc, cloth->hook_buf, cloth->hook_buf_bytes);
    cloth->hook_buf = NULL;
    cloth->hook_buf_bytes = 0u;
}

cloth_status cloth_set_wind(cloth_t *cloth, cloth_wind_fn fn, void *user)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (fn != NULL) {
        cloth_status s = cloth_forces_reserve(cloth, cloth->integrator, true, cloth->force_fn != NULL);
        if (s == CLOTH_OK) {
            s = ensure_hook_buffers(cloth);
        }
        if (s != CLOTH_OK) {
            cloth_forces_settle(cloth); /* drop arrays made for the wind that did not come */
            return s;
        }
    }
    cloth->wind_fn = fn;
    cloth->wind_user = fn != NULL ? user : NULL;
    cloth->wind_on = fn != NULL;
    cloth_forces_settle(cloth);
    return CLOTH_OK;
}

cloth_status cloth_set_constant_wind(cloth_t *cloth, const float velocity[3])
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || velocity == NULL || !cloth_finite3(velocity)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_status s = cloth_forces_reserve(cloth, cloth->integrator, true, cloth->force_fn != NULL);
    if (s != CLOTH_OK) {
        return s;
    }
    for (int k = 0; k < 3; ++k) {
        cloth->wind_constant[k] = velocity[k];
    }
    cloth->wind_fn = NULL;
    cloth->wind_user = NULL;
    cloth->wind_on = true;
    return CLOTH_OK;
}

cloth_status cloth_set_external_force(cloth_t *cloth, cloth_force_fn fn, void *user)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (fn != NULL) {
        cloth_status s = cloth_forces_reserve(cloth, cloth->integrator, cloth->wind_on, true);
        if (s == CLOTH_OK) {
            s = ensure_hook_buffers(cloth);
        }
        if (s != CLOTH_OK) {
            cloth_forces_settle(cloth); /* drop arrays made for the hook that did not come */
            return s;
        }
    }
    cloth->force_fn = fn;
    cloth->force_user = fn != NULL ? user : NULL;
    cloth_forces_settle(cloth);
    return CLOTH_OK;
}

static bool non_negative(float value)
{
    return value >= 0.0f && isfinite(value);
}

cloth_status cloth_set_air_density(cloth_t *cloth, float kg_per_m3)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !non_negative(kg_per_m3)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->air.density = kg_per_m3;
    return CLOTH_OK;
}

cloth_status cloth_set_drag_coefficient(cloth_t *cloth, float drag)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !non_negative(drag)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->air.drag = drag;
    return CLOTH_OK;
}

cloth_status cloth_set_lift_coefficient(cloth_t *cloth, float lift)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !non_negative(lift)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->air.lift = lift;
    return CLOTH_OK;
}
