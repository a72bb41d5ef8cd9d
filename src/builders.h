/*
 * Creating a cloth: the grid and mesh builders (build_grid.c,
 * build_mesh.c) and the particle arrays they make (particles.c).
 */
#ifndef CLOTHSIM_SRC_BUILDERS_H
#define CLOTHSIM_SRC_BUILDERS_H

#include "cloth_internal.h"

/* build_grid.c */
cloth_status cloth_build_grid(cloth_t *cloth, const cloth_grid_desc *desc);

/* build_mesh.c */
cloth_status cloth_build_mesh(cloth_t *cloth, const cloth_mesh_desc *desc);
void cloth_mesh_free(cloth_t *cloth);

/* particles.c: the particle arrays of `count` particles, zeroed, in one
 * block (OUT_OF_MEMORY changes nothing) */
cloth_status cloth_alloc_particles(cloth_t *cloth, uint32_t count);

#endif /* CLOTHSIM_SRC_BUILDERS_H */
