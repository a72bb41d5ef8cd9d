/*
 * Creating a cloth: the grid and mesh builders (build_grid.c,
 * build_mesh.c) and what they share with creation (cloth.c).
 */
#ifndef CLOTHSIM_SRC_BUILDERS_H
#define CLOTHSIM_SRC_BUILDERS_H

#include "cloth_internal.h"

/* build_grid.c */
cloth_status cloth_build_grid(cloth_t *cloth, const cloth_grid_desc *desc);

/* build_mesh.c */
cloth_status cloth_build_mesh(cloth_t *cloth, const cloth_mesh_desc *desc);
void cloth_mesh_free(cloth_t *cloth);

/* cloth.c: shared by both builders */
cloth_status cloth_alloc_particles(cloth_t *cloth, uint32_t count);
cloth_status cloth_create_common(const cloth_allocator *hooks, cloth_t **out);

#endif /* CLOTHSIM_SRC_BUILDERS_H */
