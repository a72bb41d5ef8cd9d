/*
 * The integrator slot (integrators.c): the built-in tables, installing
 * one, scratch memory, and XPBD's hook for a new iteration count.
 */
#ifndef CLOTHSIM_SRC_INTEGRATORS_INTEGRATORS_H
#define CLOTHSIM_SRC_INTEGRATORS_INTEGRATORS_H

#include "cloth_internal.h"

/* integrators/xpbd.c: make or free the grid solver's lambdas after
 * cloth_set_iterations() (they exist only with more than one iteration). */
cloth_status cloth_xpbd_iterations_changed(cloth_t *cloth);

/* integrators/integrators.c */
const cloth_integrator_vtable *cloth_integrator_lookup(cloth_integrator kind);
/* Install a table (built-in or host's): create the new state, then drop the old. */
cloth_status cloth_integrator_install(cloth_t *cloth, const cloth_integrator_vtable *vt, void *user,
                                      cloth_integrator kind);
void cloth_integrator_release(cloth_t *cloth);
extern const cloth_integrator_vtable cloth_integrator_euler;
extern const cloth_integrator_vtable cloth_integrator_trapezoid;
extern const cloth_integrator_vtable cloth_integrator_verlet;
extern const cloth_integrator_vtable cloth_integrator_pbd;
extern const cloth_integrator_vtable cloth_integrator_semirigid;
extern const cloth_integrator_vtable cloth_integrator_relaxation;
extern const cloth_integrator_vtable cloth_integrator_xpbd;
extern const cloth_integrator_vtable cloth_integrator_implicit;
/* Per-cloth integrator state made of `n` scratch arrays of cloth->count
 * floats, each aligned; it keeps its allocator so that destroy needs no cloth. */
#define CLOTH_SCRATCH_MAX 32 /* semi-rigid uses 30 */
typedef struct cloth_scratch {
    cloth_allocator alloc;
    size_t bytes;
    float *a[CLOTH_SCRATCH_MAX];
} cloth_scratch;
cloth_status cloth_scratch_create(const cloth_t *cloth, uint32_t n, void **out);
void cloth_scratch_destroy(void *user, void *state); /* fits cloth_integrator_vtable.destroy */

#endif /* CLOTHSIM_SRC_INTEGRATORS_INTEGRATORS_H */
