/*
 * The strain limit's spring loops (strain_kernels.c), shared by the grid's
 * fine passes (strain_limit.c), its coarse levels (strain_levels.c) and the
 * mesh's passes. Each shortens springs longer than `lim` as shorten() in
 * strain_kernels.c does, and every vector level gives the plain C bits.
 */
#ifndef CLOTHSIM_STRAIN_KERNELS_H
#define CLOTHSIM_STRAIN_KERNELS_H

#include "cloth_internal.h"
#include "kernels/kernels.h"

/* Fill `c` for arrays x.. (vx.. may be NULL) at the cloth's vector level. */
void cloth_limit_ctx_init(limit_ctx *c, const cloth_t *cloth, float *const pos[3], float *const vel[3],
                          const float *w, float inv_dt);
/* Springs (p, p + di), p in [begin, end), that share no particle (di >= end - begin). */
void cloth_limit_across(const limit_ctx *c, uint32_t begin, uint32_t end, uint32_t di, float lim);
/* A row's own springs (p, p + 1), p in [begin, end): those at an even
 * offset from begin first, then the odd ones. */
void cloth_limit_along(const limit_ctx *c, uint32_t begin, uint32_t end, float lim);
/* Springs (p, p + di), p in [begin, end), one after the other. */
void cloth_limit_in_order(const limit_ctx *c, uint32_t begin, uint32_t end, uint32_t di, float lim);
/* One spring (i, j). */
void cloth_limit_spring(const limit_ctx *c, uint32_t i, uint32_t j, float lim);
/* Springs (ab[2k], ab[2k + 1]), k < count, one after the other, each
 * limited to scale rest[k] (a mesh's, a mesh level's). */
void cloth_limit_list(const limit_ctx *c, const uint32_t *ab, const float *rest, uint32_t count, float scale);

#endif
