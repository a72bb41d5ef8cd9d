/*
 * Parameter setters. Each validates its arguments and leaves the old value in
 * place when it refuses one.
 */
#include "cloth_internal.h"
#include "integrators/facts.h"

static bool valid_type(cloth_spring_type type)
{
    return (int)type >= 0 && (int)type < CLOTH_SPRING_TYPES;
}

static bool non_negative(float value)
{
    return value >= 0.0f && isfinite(value);
}

cloth_status cloth_set_stiffness(cloth_t *cloth, cloth_spring_type type, float k)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !valid_type(type) || !non_negative(k)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->stiffness[type] = k;
    return CLOTH_OK;
}

cloth_status cloth_set_spring_damping(cloth_t *cloth, cloth_spring_type type, float beta)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !valid_type(type) || !non_negative(beta)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->spring_damping[type] = beta;
    return CLOTH_OK;
}

cloth_status cloth_set_gravity(cloth_t *cloth, const float g[3])
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || g == NULL || !cloth_finite3(g)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    for (int k = 0; k < 3; ++k) {
        cloth->gravity[k] = g[k];
    }
    return CLOTH_OK;
}

cloth_status cloth_set_damping(cloth_t *cloth, float rate_per_second)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !non_negative(rate_per_second)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->damping = rate_per_second;
    return CLOTH_OK;
}

cloth_status cloth_do_set_substeps(cloth_t *cloth, uint32_t substeps)
{
    if (cloth == NULL || substeps > CLOTH_MAX_SUBSTEPS) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->substeps_auto = substeps == 0u;
    cloth->substeps = substeps;
    return CLOTH_OK;
}

cloth_status cloth_set_substeps(cloth_t *cloth, uint32_t substeps)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    return cloth_do_set_substeps(cloth, substeps);
}

cloth_status cloth_do_set_iterations(cloth_t *cloth, uint32_t iterations)
{
    if (cloth == NULL || iterations > CLOTH_MAX_ITERATIONS) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    /* automatic: XPBD takes 1 sweep and keeps no lambdas (auto.c) */
    const uint32_t before = cloth->iterations;
    cloth->iterations = iterations == 0u ? 1u : iterations;
    const cloth_integrator_facts *facts = cloth_integrator_facts_of(cloth->integrator);
    cloth_status s = facts->iterations_changed != NULL ? facts->iterations_changed(cloth) : CLOTH_OK;
    if (s != CLOTH_OK) {
        cloth->iterations = before;
        return s;
    }
    cloth->iterations_auto = iterations == 0u;
    return CLOTH_OK;
}

cloth_status cloth_set_iterations(cloth_t *cloth, uint32_t iterations)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    return cloth_do_set_iterations(cloth, iterations);
}

cloth_status cloth_set_constraint_stiffness(cloth_t *cloth, cloth_spring_type type, float s)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !valid_type(type) || !(s >= 0.0f && s <= 1.0f)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->constraint_stiffness[type] = s;
    return CLOTH_OK;
}

cloth_status cloth_set_jacobi_weight(cloth_t *cloth, float a)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !(a >= 0.0f && a <= 100.0f)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->jacobi_weight = a;
    return CLOTH_OK;
}
