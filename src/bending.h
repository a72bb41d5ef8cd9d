/*
 * The dihedral hinges of a mesh (bending.c): forces, the position
 * solvers' projection, a material's rigidity and their memory.
 */
#ifndef CLOTHSIM_SRC_BENDING_H
#define CLOTHSIM_SRC_BENDING_H

#include "cloth_internal.h"

/* bending.c: add the dihedral hinges' forces to f (part of the spring stage); free them.
 * A material's rigidity on a mesh: make the hinges (the only allocation),
 * then set D, which gives hinge e the stiffness D |e|^2 / A_e on top of
 * cloth_set_bending_stiffness()'s. The projection is the position solvers'
 * form: one XPBD pass over the hinges, moving x and v (h the substep). */
void cloth_bending_accumulate(cloth_t *cloth);
void cloth_bending_free(cloth_t *cloth);
cloth_status cloth_bending_reserve(cloth_t *cloth);
void cloth_bending_set_rigidity(cloth_t *cloth, float rigidity);
void cloth_bending_project(cloth_t *cloth, float h);

/* bending.c: the stiffest hinge, N m / rad (0 without hinges) */
float cloth_bending_k_max(const cloth_t *cloth);

#endif /* CLOTHSIM_SRC_BENDING_H */
