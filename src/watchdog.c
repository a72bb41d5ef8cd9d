/*
 * The stability watchdog: host-set bounds on the largest spring strain and
 * on the kinetic energy, checked once per step after the finite check. The
 * step owns the rollback; the watchdog only says whether one is wanted.
 */
#include "cloth_internal.h"
#include "constraints/constraints.h"

cloth_status cloth_do_set_watchdog(cloth_t *cloth, float max_strain, float max_kinetic_energy,
                                cloth_watchdog_action action)
{
    if (cloth == NULL || !(max_strain >= 0.0f) || !isfinite(max_strain) || !(max_kinetic_energy >= 0.0f) ||
        !isfinite(max_kinetic_energy) || (action != CLOTH_WATCHDOG_REPORT && action != CLOTH_WATCHDOG_RESTORE)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->monitor.max_strain = max_strain;
    cloth->monitor.max_kinetic_energy = max_kinetic_energy;
    cloth->monitor.action = action;
    cloth->monitor.measured_strain = 0.0f;
    cloth->monitor.measured_energy = 0.0f;
    return CLOTH_OK;
}

cloth_status cloth_set_watchdog(cloth_t *cloth, float max_strain, float max_kinetic_energy,
                                cloth_watchdog_action action)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    return cloth_do_set_watchdog(cloth, max_strain, max_kinetic_energy, action);
}

cloth_status cloth_watchdog_check(cloth_t *cloth)
{
    cloth_monitor *m = &cloth->monitor;
    uint32_t tripped = 0u;
    m->measured_strain = 0.0f;
    m->measured_energy = 0.0f;
    if (m->max_strain > 0.0f && cloth->tris == NULL) {
        /* On a grid a bend spring spans two structural links in line, so it
         * is never stretched more than the worse of them: the structural and
         * shear springs' worst, a parallel pass, is the worst of all; the
         * automatic limit has just measured it on this very state. */
        const float largest = cloth->strain_passes_auto ? cloth->step_strain : cloth_strain_limit_worst(cloth);
        m->measured_strain = largest;
        if (largest > m->max_strain) {
            tripped |= CLOTH_WATCHDOG_TRIPPED_STRAIN;
        }
    } else if (m->max_strain > 0.0f) {
        /* a mesh's bend springs are not bounded by its edges: all of them */
        const float largest = cloth_mesh_worst_strain(cloth, 0u, cloth->spring_count);
        m->measured_strain = largest;
        if (largest > m->max_strain) {
            tripped |= CLOTH_WATCHDOG_TRIPPED_STRAIN;
        }
    }
    if (m->max_kinetic_energy > 0.0f) {
        const double energy = cloth_kinetic_energy(cloth);
        m->measured_energy = cloth_measure_to_float(energy);
        if (energy > (double)m->max_kinetic_energy) {
            tripped |= CLOTH_WATCHDOG_TRIPPED_ENERGY;
        }
    }
    m->tripped = tripped;
    if (tripped == 0u) {
        return CLOTH_OK;
    }
    ++m->trips;
    return m->action == CLOTH_WATCHDOG_RESTORE ? CLOTH_ERR_UNSTABLE : CLOTH_OK;
}
