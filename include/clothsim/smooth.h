/*
 * clothsim: a smooth surface over a grid cloth, for drawing.
 */
#ifndef CLOTHSIM_SMOOTH_H
#define CLOTHSIM_SMOOTH_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup smooth Smooth surface
 * @brief The cloth drawn through bicubic patches (seed 002), at a chosen
 * subdivision level, into the host's buffers.
 *
 * A grid of `rows x cols` particles has `(rows - 1) (cols - 1)` quads. Each
 * quad becomes a uniform bicubic **Catmull-Rom** patch over the 4 x 4
 * particles around it (tension 1/2), so the surface
 *
 * - passes exactly through every particle (a patch corner is the particle,
 *   bit for bit),
 * - is C1 across patch borders: positions and tangents match, and so do the
 *   normals,
 * - reproduces a flat or a linearly stretched grid exactly (it is linear
 *   precision), and follows a curved one to fourth order: on a cylinder of
 *   radius R sampled every `theta` radians it stays within `R theta^4 / 40`
 *   of the true surface (`R theta^4 / 25` in the patches along the border),
 *   where flat triangles are `R theta^2 / 8` off. For R = 0.3 m and 15
 *   degrees: 3.3e-5 m (4.3e-5 m at the border) against 2.6e-3 m
 *   (tests/test_smooth.c measures it).
 *
 * Along the border, where a patch lacks a row or column of neighbours, the
 * missing particle is extrapolated by the quadratic through the last three
 * (`P(-1) = 3 P(0) - 3 P(1) + P(2)`; linearly, `2 P(0) - P(1)`, for a
 * grid only two particles long in that direction).
 *
 * With `level` L (1 to ::CLOTH_SMOOTH_MAX_LEVEL subdivisions per quad edge)
 * the output is a grid of `R = (rows - 1) L + 1` by `C = (cols - 1) L + 1`
 * vertices, vertex (r, c) at index `r * C + c`; vertex `(r L, c L)` is particle
 * (r, c). Level 1 gives the particles themselves with the patches' normals.
 * Its triangles follow cloth_get_triangles(): smooth quad (r, c) gives
 * (i, i + C, i + 1) and (i + 1, i + C, i + C + 1) with `i = r * C + c`, wound
 * counter-clockwise seen from the side the normals point to.
 *
 * Normals come from the patches' analytic partial derivatives,
 * `dP/drow x dP/dcol`, normalised: the same orientation as
 * cloth_get_normals() (the side `v_axis x u_axis` faced at creation). Where
 * that cross product vanishes (particles on top of each other) the
 * creation-time direction is used, as cloth_get_normals() does.
 *
 * Mesh cloths have no grid to put patches on: both functions return
 * ::CLOTH_ERR_UNSUPPORTED. A grid of a single row or column has no surface:
 * its counts are 0 and cloth_get_smooth() writes nothing.
 *
 * Nothing is allocated: the surface is evaluated straight from the particle
 * arrays into the host's buffers, which (as in the rest of the API) may be
 * interleaved: a non-zero stride must be a multiple of 4 and at least 12,
 * and the buffer it implies, `stride * (vertex_count - 1) + 12` bytes, must
 * fit in memory (at most PTRDIFF_MAX bytes); 0 means packed, and padding
 * between records is never touched. Every buffer, the index buffer
 * included, may sit at any byte address. Cost: about 300 floating-point
 * operations per output vertex (a 32 x 32 grid at level 4, 15,625 vertices
 * with normals, takes about 1 ms on one core).
 *
 * The surface is evaluated in double, relative to the nearest patch corner, so
 * finite particles anywhere in the float range give finite output: a flat
 * cloth at `x = FLT_MAX` stays exactly in its plane. Catmull-Rom overshoots
 * its particles, so a cloth at the very edge of the range can have a
 * surface beyond it; such coordinates are clamped to `+-FLT_MAX`.
 * @{
 */

/** The highest subdivision level accepted (subdivisions per quad edge). */
#define CLOTH_SMOOTH_MAX_LEVEL 16u

/**
 * Sizes of the smooth surface at `level`: `*vertex_count = R * C` and
 * `*triangle_count = 2 (R - 1) (C - 1)` (see the group description), so the
 * index buffer holds `3 * *triangle_count` indices.
 *
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL pointer, a `level` outside
 *         1..::CLOTH_SMOOTH_MAX_LEVEL, or a level at which the vertex count or
 *         the index count would not fit in 32 bits (both outputs unchanged);
 *         ::CLOTH_ERR_UNSUPPORTED for a mesh cloth.
 */
CLOTH_API cloth_status cloth_smooth_counts(const cloth_t *cloth, uint32_t level, uint32_t *vertex_count,
                                           uint32_t *triangle_count);

/**
 * Evaluate the smooth surface at `level` into the host's buffers.
 *
 * @param cloth      a grid cloth
 * @param level      subdivisions per quad edge, 1..::CLOTH_SMOOTH_MAX_LEVEL
 * @param positions  xyz in metres of each of the `vertex_count` vertices
 *                   (cloth_smooth_counts()), one record every `pos_stride` bytes
 * @param pos_stride bytes from one position to the next; 0 means 12
 * @param normals    unit normals, one record every `nrm_stride` bytes; NULL to skip
 * @param nrm_stride bytes from one normal to the next; 0 means 12
 * @param triangles  `3 * triangle_count` indices (the topology depends only on
 *                   the grid and the level, so a host may fetch it once); NULL to skip
 *
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `positions`, a bad
 *         stride (see above: its form, and the buffer it implies for
 *         `vertex_count` records; checked even when `normals` is NULL) or level, as
 *         cloth_smooth_counts(); ::CLOTH_ERR_UNSUPPORTED for a mesh cloth.
 *         Nothing is written on failure.
 */
CLOTH_API cloth_status cloth_get_smooth(const cloth_t *cloth, uint32_t level, float *positions, size_t pos_stride,
                                        float *normals, size_t nrm_stride, uint32_t *triangles);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_SMOOTH_H */
