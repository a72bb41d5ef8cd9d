/*
 * What the step and the automatic settings need to know about an
 * integrator beyond its table (integrators.h's cloth_integrator_vtable,
 * which is public and cannot grow without breaking hosts' tables): kept
 * per kind here, so no module recognises an integrator by its address.
 */
#ifndef CLOTHSIM_INTEGRATORS_FACTS_H
#define CLOTHSIM_INTEGRATORS_FACTS_H

#include <clothsim/types.h>

#include <stdbool.h>
#include <stdint.h>

/* How cloth_set_substeps(cloth, 0) chooses (auto.c). */
typedef enum cloth_auto_substep_rule {
    CLOTH_AUTO_BY_RATE,      /* position solvers: the rate the strain limit's work steers */
    CLOTH_AUTO_BY_STABILITY, /* explicit: w^2 h (h + 2 beta) <= 4 */
    CLOTH_AUTO_BY_TRAPEZOID, /* the trapezoid rule's own bound with spring damping */
    CLOTH_AUTO_ONE,          /* implicit Euler: stable at any step */
    CLOTH_AUTO_SIXTEEN       /* relaxation and a host's integrator: the v1 default */
} cloth_auto_substep_rule;

typedef struct cloth_integrator_facts {
    cloth_auto_substep_rule substeps;
    uint32_t auto_iterations; /* what cloth_set_iterations(cloth, 0) chooses */
    /* projects bending as constraints after its sweeps (step.c); the
     * force-based integrators have it in their spring forces */
    bool projects_bending;
    /* How far a particle's end-of-substep position moves per unit change
     * of its end-of-substep velocity, in substeps: 1 where x moves by the
     * new velocity, 1/2 for the trapezoid rule's mean of old and new.
     * Friction takes back its slide with it. */
    float friction_lag;
    /* Called by cloth_set_iterations() while this integrator is installed
     * (XPBD makes or frees its grid lambdas); may fail with
     * CLOTH_ERR_OUT_OF_MEMORY, and the count then stays. NULL: nothing. */
    cloth_status (*iterations_changed)(cloth_t *cloth);
} cloth_integrator_facts;

/* The facts of a built-in kind, or of CLOTH_INTEGRATOR_CUSTOM (a host's
 * integrator: force-based, sixteen substeps, one iteration). */
const cloth_integrator_facts *cloth_integrator_facts_of(cloth_integrator kind);

#endif /* CLOTHSIM_INTEGRATORS_FACTS_H */
