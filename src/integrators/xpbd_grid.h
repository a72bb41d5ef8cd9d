/*
 * XPBD's grid path (xpbd_grid.c), called by the integrator in xpbd.c.
 */
#ifndef CLOTHSIM_XPBD_GRID_H
#define CLOTHSIM_XPBD_GRID_H

#include "cloth_internal.h"
#include "kernels/kernels.h"

typedef struct xpbd_grid_solver {
    void (*kernel)(const xpbd_span *span); /* the cloth's width (kernels.h) */
    float *lambda;       /* `stride` per active family, or NULL with one iteration */
    size_t stride;
    size_t lambda_count;
} xpbd_grid_solver;

cloth_status cloth_xpbd_grid_step(const xpbd_grid_solver *solver, const cloth_step_view *view);

#endif /* CLOTHSIM_XPBD_GRID_H */
