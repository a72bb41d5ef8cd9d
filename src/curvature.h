/*
 * Private to the curvature bending (curvature.c, curvature_clamp.c): the
 * stiffness of a line's constraints and the clamps' second count.
 */
#ifndef CLOTHSIM_CURVATURE_H
#define CLOTHSIM_CURVATURE_H

#include "cloth_internal.h"

#include <float.h>

/* The k of line `index` of `lines` parallel lines of spacing s, lines
 * `across` apart: k = D w / s^3, w the width of cloth the line stands for
 * (the spacing across, half of it on a border line). N/m. */
static inline float cloth_curvature_line_k(float rigidity, uint32_t index, uint32_t lines, float s, float across)
{
    const bool border = index == 0u || index + 1u == lines;
    const double w = border ? 0.5 * (double)across : (double)across;
    const double k = (double)rigidity * w / ((double)s * (double)s * (double)s);
    return k < (double)FLT_MAX ? (float)k : FLT_MAX;
}

/* The clamps' second count (curvature.c's header comment): as forces, for
 * the force-based integrators, or as one XPBD projection of the free
 * particle after the lines' solve (h the substep). */
/* curvature.c: a grid's curvature constraints along rows and columns from
 * cloth->rigidity: forces (force-based integrators) or one XPBD pass. */
void cloth_curvature_accumulate(cloth_t *cloth);
void cloth_curvature_project(cloth_t *cloth, float h);
/* Its scratch for `rigidity` (none for 0 or a mesh): OUT_OF_MEMORY changes nothing. */
cloth_status cloth_curvature_reserve(cloth_t *cloth, float rigidity);
void cloth_curvature_free(cloth_t *cloth);

/* curvature_clamp.c */
void cloth_curvature_clamp_forces(cloth_t *cloth);
void cloth_curvature_clamp_project(cloth_t *cloth, float h);

#endif
