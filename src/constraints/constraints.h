/*
 * What the rest of the library calls in constraints/: the tethers
 * (tethers.c and the files beside it) and the strain limit (strain_limit.c,
 * strain_levels.c).
 */
#ifndef CLOTHSIM_SRC_CONSTRAINTS_CONSTRAINTS_H
#define CLOTHSIM_SRC_CONSTRAINTS_CONSTRAINTS_H

#include "cloth_internal.h"

/* constraints/tethers.c: keep a mesh's creation shape (at creation); project
 * every free particle onto its tethers (after the integrator) in two parts,
 * so that the caller can split the particles: prepare once per substep
 * (false: nothing to do), then apply to ranges that cover [0, count) in any
 * split, on any threads, with the same result; free both. */
cloth_status cloth_tethers_capture_rest(cloth_t *cloth);
bool cloth_tethers_prepare(cloth_t *cloth);
/* Reserve the tether table a cloth with `pins` pins needs (a mesh, or a
 * grid with more than CLOTH_TETHERS_PER_PARTICLE), while the tethers are
 * on; OK when there is nothing to reserve. Called before pins are added. */
cloth_status cloth_tethers_reserve(cloth_t *cloth, uint32_t pins);
void cloth_tethers_apply_range(cloth_t *cloth, uint32_t begin, uint32_t end);
void cloth_tethers_free(cloth_t *cloth);

/* constraints/strain_limit.c: `passes` of the step's limiting passes, the
 * first of them pass number `first` (passes below
 * cloth_set_strain_level_sweeps()'s count start with the levels), after
 * its last substep; dt is the step's. */
void cloth_strain_limit_apply(cloth_t *cloth, float dt, uint32_t first, uint32_t passes);
/* The worst strain of the structural and shear springs now (0 with none). */
float cloth_strain_limit_worst(cloth_t *cloth);
/* The worst strain of a mesh's springs [first, end) now, in float, on the
 * cloth's threads; springs of no rest length are left out. */
float cloth_mesh_worst_strain(cloth_t *cloth, uint32_t first, uint32_t end);
/* constraints/strain_levels.c: the coarse levels for the limit (none for
 * a small cloth): alloc and free take a grid's or a mesh's; apply is one
 * coarse-to-fine sweep of a grid's, moving the particles and their
 * velocities (inv_dt). A mesh's (mesh_levels_build.c, strain_levels_mesh.c)
 * have their own sweep. */
cloth_status cloth_strain_levels_alloc(cloth_t *cloth);
void cloth_strain_levels_apply(cloth_t *cloth, float scale, float inv_dt);
void cloth_strain_levels_free(cloth_t *cloth);
cloth_status cloth_mesh_levels_alloc(cloth_t *cloth);
void cloth_mesh_levels_apply(cloth_t *cloth, float scale, float inv_dt);
void cloth_mesh_levels_free(cloth_t *cloth);
/* A mesh's fine limit pass: its structural and shear springs in blocks of
 * particle indices, even blocks on the threads, then odd ones (in list
 * order where the mesh cannot be cut; strain_levels_mesh.c). */
struct limit_ctx;
void cloth_mesh_limit_pass(cloth_t *cloth, const struct limit_ctx *c, float scale);
/* constraints/strain_limit.c: the limit's own arrays (lx, ly, lz) */
void cloth_strain_limit_free(cloth_t *cloth);

#endif /* CLOTHSIM_SRC_CONSTRAINTS_CONSTRAINTS_H */
