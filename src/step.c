/*
 * cloth_step: the order of one step, as a list of named stages.
 *
 *   keep the state (for rollback); pins record where they start
 *   per substep: forces -> integrator -> pins -> colliders
 *   finite check: restore the kept state on NaN/Inf
 */
#include "cloth_internal.h"

#include <string.h>

static void save_state(cloth_t *cloth)
{
    size_t bytes = (size_t)cloth->count * sizeof(float);
    cloth_particles *p = &cloth->p;
    memcpy(p->sx, p->x, bytes);
    memcpy(p->sy, p->y, bytes);
    memcpy(p->sz, p->z, bytes);
    memcpy(p->svx, p->vx, bytes);
    memcpy(p->svy, p->vy, bytes);
    memcpy(p->svz, p->vz, bytes);
}

static void restore_state(cloth_t *cloth)
{
    size_t bytes = (size_t)cloth->count * sizeof(float);
    cloth_particles *p = &cloth->p;
    memcpy(p->x, p->sx, bytes);
    memcpy(p->y, p->sy, bytes);
    memcpy(p->z, p->sz, bytes);
    memcpy(p->vx, p->svx, bytes);
    memcpy(p->vy, p->svy, bytes);
    memcpy(p->vz, p->svz, bytes);
}

/* v * 0 is 0 for every finite v and NaN for NaN or Inf, so the sum is
 * non-zero exactly when some value is not finite: one branch-free pass. */
static bool state_finite(const cloth_t *cloth)
{
    const cloth_particles *p = &cloth->p;
    const float *arrays[6] = {p->x, p->y, p->z, p->vx, p->vy, p->vz};
    for (int a = 0; a < 6; ++a) {
        const float *v = arrays[a];
        float acc = 0.0f;
        for (uint32_t i = 0; i < cloth->count; ++i) {
            acc += v[i] * 0.0f;
        }
        if (acc != 0.0f) {
            return false;
        }
    }
    return true;
}

static cloth_view make_view(cloth_t *cloth, float h)
{
    cloth_view v;
    v.count = cloth->count;
    v.x = cloth->p.x;
    v.y = cloth->p.y;
    v.z = cloth->p.z;
    v.vx = cloth->p.vx;
    v.vy = cloth->p.vy;
    v.vz = cloth->p.vz;
    v.fx = cloth->p.fx;
    v.fy = cloth->p.fy;
    v.fz = cloth->p.fz;
    v.w = cloth->p.w;
    for (int k = 0; k < 3; ++k) {
        v.gravity[k] = cloth->gravity[k];
    }
    v.h = h;
    v.velocity_decay = expf(-cloth->damping * h);
    return v;
}

cloth_status cloth_step(cloth_t *cloth, float dt)
{
    if (cloth == NULL || !isfinite(dt) || !(dt > 0.0f) || dt > 1.0f) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const uint32_t n = cloth->substeps;
    const float h = dt / (float)n;
    const double time_before = cloth->time;
    const cloth_view view = make_view(cloth, h);

    save_state(cloth);
    cloth_pins_begin_step(cloth);
    for (uint32_t s = 0; s < n; ++s) {
        cloth_forces_begin(cloth);
        cloth_springs_accumulate(cloth);
        cloth->ops->step(&view);
        cloth_pins_apply(cloth, s + 1u, n, dt);
        cloth_colliders_apply(cloth, h);
        cloth->time = time_before + (double)dt * (double)(s + 1u) / (double)n;
    }
    if (!state_finite(cloth)) {
        restore_state(cloth);
        cloth->time = time_before;
        return CLOTH_ERR_UNSTABLE;
    }
    return CLOTH_OK;
}
