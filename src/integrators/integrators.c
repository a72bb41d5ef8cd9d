/*
 * The integrator slot of a cloth: the table of built-ins, installing a table
 * (built-in or the host's) with its per-cloth state, and scratch memory.
 */
#include "cloth_internal.h"
#include "integrators/facts.h"
#include "forces.h"
#include "integrators/integrators.h"

#include <string.h>

const cloth_integrator_vtable *cloth_integrator_lookup(cloth_integrator kind)
{
    switch (kind) {
    case CLOTH_INTEGRATOR_EXPLICIT_EULER:
        return &cloth_integrator_euler;
    case CLOTH_INTEGRATOR_TRAPEZOID:
        return &cloth_integrator_trapezoid;
    case CLOTH_INTEGRATOR_VERLET:
        return &cloth_integrator_verlet;
    case CLOTH_INTEGRATOR_PBD:
        return &cloth_integrator_pbd;
    case CLOTH_INTEGRATOR_SEMIRIGID:
        return &cloth_integrator_semirigid;
    case CLOTH_INTEGRATOR_RELAXATION:
        return &cloth_integrator_relaxation;
    case CLOTH_INTEGRATOR_XPBD:
        return &cloth_integrator_xpbd;
    case CLOTH_INTEGRATOR_IMPLICIT_EULER:
        return &cloth_integrator_implicit;
    default:
        return NULL;
    }
}

const cloth_integrator_facts *cloth_integrator_facts_of(cloth_integrator kind)
{
    /* substep rule, automatic iterations, projects bending, friction lag,
     * iterations hook */
    static const cloth_integrator_facts explicit_euler = {CLOTH_AUTO_BY_STABILITY, 1u, false, 1.0f, NULL};
    static const cloth_integrator_facts trapezoid = {CLOTH_AUTO_BY_TRAPEZOID, 1u, false, 0.5f, NULL};
    static const cloth_integrator_facts verlet = {CLOTH_AUTO_BY_STABILITY, 1u, false, 1.0f, NULL};
    static const cloth_integrator_facts pbd = {CLOTH_AUTO_BY_RATE, 4u, true, 1.0f, NULL};
    static const cloth_integrator_facts semirigid = {CLOTH_AUTO_BY_RATE, 1u, false, 1.0f, NULL};
    static const cloth_integrator_facts relaxation = {CLOTH_AUTO_SIXTEEN, 1u, false, 1.0f, NULL};
    static const cloth_integrator_facts xpbd = {CLOTH_AUTO_BY_RATE, 1u, true, 1.0f, cloth_xpbd_iterations_changed};
    static const cloth_integrator_facts implicit = {CLOTH_AUTO_ONE, 1u, false, 1.0f, NULL};
    static const cloth_integrator_facts custom = {CLOTH_AUTO_SIXTEEN, 1u, false, 1.0f, NULL};
    switch (kind) {
    case CLOTH_INTEGRATOR_EXPLICIT_EULER:
        return &explicit_euler;
    case CLOTH_INTEGRATOR_TRAPEZOID:
        return &trapezoid;
    case CLOTH_INTEGRATOR_VERLET:
        return &verlet;
    case CLOTH_INTEGRATOR_PBD:
        return &pbd;
    case CLOTH_INTEGRATOR_SEMIRIGID:
        return &semirigid;
    case CLOTH_INTEGRATOR_RELAXATION:
        return &relaxation;
    case CLOTH_INTEGRATOR_XPBD:
        return &xpbd;
    case CLOTH_INTEGRATOR_IMPLICIT_EULER:
        return &implicit;
    default:
        return &custom;
    }
}

cloth_status cloth_integrator_install(cloth_t *cloth, const cloth_integrator_vtable *vt, void *user,
                                      cloth_integrator kind)
{
    /* the force arrays first: giving them back after a failed `create` is
     * one free, while undoing a `create` would run the host's `destroy` */
    cloth_status s = cloth_forces_reserve(cloth, kind, cloth->wind_on, cloth->force_fn != NULL);
    if (s != CLOTH_OK) {
        return s;
    }
    void *state = NULL;
    if (vt->create != NULL) {
        cloth->busy = true; /* the host's code runs: calls back into this cloth are refused */
        s = vt->create(user, cloth, &state);
        cloth->busy = false;
        if (s != CLOTH_OK) {
            cloth_forces_settle(cloth); /* the old integrator stays, with what it had */
            return s;
        }
    }
    cloth_integrator_release(cloth);
    cloth->integ = vt;
    cloth->integ_user = user;
    cloth->integ_state = state;
    cloth->integrator = kind;
    cloth_forces_settle(cloth);
    return CLOTH_OK;
}

void cloth_integrator_release(cloth_t *cloth)
{
    if (cloth->integ != NULL && cloth->integ->destroy != NULL) {
        cloth->busy = true;
        cloth->integ->destroy(cloth->integ_user, cloth->integ_state);
        cloth->busy = false;
    }
    cloth->integ = NULL;
    cloth->integ_user = NULL;
    cloth->integ_state = NULL;
}

cloth_status cloth_do_set_integrator(cloth_t *cloth, cloth_integrator kind)
{
    if (cloth == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const cloth_integrator_vtable *vt = cloth_integrator_lookup(kind);
    if (vt == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    /* Velocity is every integrator's state, so nothing needs converting. */
    return cloth_integrator_install(cloth, vt, NULL, kind);
}

cloth_status cloth_set_integrator(cloth_t *cloth, cloth_integrator kind)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    return cloth_do_set_integrator(cloth, kind);
}

cloth_status cloth_set_custom_integrator(cloth_t *cloth, const cloth_integrator_vtable *vtable, void *user)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || vtable == NULL || vtable->step == NULL ||
        (vtable->flags & ~CLOTH_INTEGRATOR_WANTS_SPRING_FORCES) != 0u) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    return cloth_integrator_install(cloth, vtable, user, CLOTH_INTEGRATOR_CUSTOM);
}

cloth_status cloth_get_integrator(const cloth_t *cloth, cloth_integrator *kind)
{
    if (cloth == NULL || kind == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *kind = cloth->integrator;
    return CLOTH_OK;
}

/* One allocation: the header, then the arrays, each starting aligned. */
cloth_status cloth_scratch_create(const cloth_t *cloth, uint32_t n, void **out)
{
    const size_t lanes = CLOTH_ALIGN / sizeof(float);
    const size_t stride = ((size_t)cloth->count + lanes - 1u) / lanes * lanes;
    const size_t head = (sizeof(cloth_scratch) + CLOTH_ALIGN - 1u) / CLOTH_ALIGN * CLOTH_ALIGN;
    const size_t bytes = head + stride * n * sizeof(float);
    unsigned char *mem = cloth_mem_alloc(&cloth->alloc, bytes);
    if (mem == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memset(mem, 0, bytes);
    cloth_scratch *sc = (cloth_scratch *)(void *)mem;
    sc->alloc = cloth->alloc;
    sc->bytes = bytes;
    float *arrays = (float *)(void *)(mem + head);
    for (uint32_t k = 0; k < n && k < CLOTH_SCRATCH_MAX; ++k) {
        sc->a[k] = arrays + k * stride;
    }
    *out = sc;
    return CLOTH_OK;
}

void cloth_scratch_destroy(void *user, void *state)
{
    (void)user;
    cloth_scratch *sc = state;
    if (sc != NULL) {
        cloth_allocator alloc = sc->alloc;
        cloth_mem_free(&alloc, sc, sc->bytes);
    }
}
