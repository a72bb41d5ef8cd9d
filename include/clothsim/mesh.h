/*
 * clothsim: cloth built from an arbitrary triangle mesh (seed 001).
 */
#ifndef CLOTHSIM_MESH_H
#define CLOTHSIM_MESH_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup mesh Mesh cloth
 * @brief A cloth whose particles are a mesh's vertices and whose springs are
 * its edges.
 *
 * Springs: every unique edge is a spring. An edge that is the longest side of
 * every triangle it belongs to and faces an angle of at least 80 degrees in
 * each (the diagonal of a quad split in two) is a ::CLOTH_SPRING_SHEAR
 * spring; every other edge is ::CLOTH_SPRING_STRUCTURAL. Across every edge
 * shared by exactly two triangles, a ::CLOTH_SPRING_BEND spring joins the two
 * vertices opposite it, unless they are less than 1e-15 m apart (a fold:
 * the spring would have no direction to pull along). Rest lengths are the
 * input lengths, measured in double. Render triangles are the input
 * triangles with their winding; normals follow it.
 *
 * Every spring must be between 1e-15 m and 1e16 m long at rest: every edge,
 * and every bend spring that is made. These are the grid's bounds, for the
 * same reason (see ::cloth_grid_desc): the solvers work in float on squared
 * lengths and on strains, which leave the normal float range outside them.
 *
 * The desc's arrays are read with byte copies: like every buffer the host
 * hands over, they may sit at any byte address.
 * @{
 */

/**
 * How to build a mesh cloth. Fill it with cloth_mesh_desc_init(), then set at
 * least the positions and the triangles. Same forward-compatibility rule as
 * ::cloth_grid_desc: a fixed size, new fields taken from `reserved`.
 */
typedef struct cloth_mesh_desc {
    const float *positions;      /**< xyz of vertex i at byte offset `i * position_stride` */
    /**
     * bytes between vertices; 0 = packed (12); else a multiple of 4, >= 12, and
     * the buffer it implies, `position_stride * (vertex_count - 1) + 12` bytes,
     * fits in memory (at most PTRDIFF_MAX bytes)
     */
    size_t position_stride;
    uint32_t vertex_count;       /**< >= 3 */
    const uint32_t *triangles;   /**< 3 indices per triangle, counter-clockwise seen from the front */
    uint32_t triangle_count;     /**< >= 1 */
    float particle_mass;         /**< kg per vertex when `masses` and `inverse_masses` are NULL, > 0. Default 0.01 */
    const float *masses;         /**< optional, kg per vertex, each finite and > 0 */
    /**
     * optional instead of `masses`: 1/kg per vertex, finite and >= 0. 0 pins the
     * vertex where it is, as cloth_pin() with a NULL target; cloth_unpin() then
     * leaves it a particle of infinite mass: no force changes its velocity.
     */
    const float *inverse_masses;
    uint32_t struct_size;        /**< sizeof(cloth_mesh_desc), set by cloth_mesh_desc_init() */
    const cloth_allocator *allocator; /**< memory hooks; NULL uses malloc/free */
    uint32_t reserved[16];       /**< zero: room for fields added within this major version */
} cloth_mesh_desc;

/** Fill `desc` with defaults: no geometry, 0.01 kg per vertex, struct_size set. NULL is ignored. */
CLOTH_API void cloth_mesh_desc_init(cloth_mesh_desc *desc);

/**
 * Build a cloth from a triangle mesh. The parameters start at the same
 * defaults as a grid cloth's. ::CLOTH_INTEGRATOR_SEMIRIGID needs a grid and is
 * refused for a mesh cloth with ::CLOTH_ERR_UNSUPPORTED.
 *
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers, fewer than 3
 *         vertices or no triangle, a bad stride (see `position_stride`), a
 *         non-finite position, a triangle index >= `vertex_count`, a triangle
 *         that repeats a vertex or has zero area, an edge shorter than
 *         1e-15 m, an edge or a bend spring longer than 1e16 m, both `masses`
 *         and `inverse_masses` given, a mass
 *         that is not finite and positive (or whose inverse overflows), more
 *         than 2^26 vertices, or a
 *         `struct_size` or allocator as for the grid;
 *         ::CLOTH_ERR_UNSUPPORTED for a larger `struct_size` than this library
 *         knows or a non-zero `reserved` word; ::CLOTH_ERR_OUT_OF_MEMORY. `*out` is NULL on failure.
 */
CLOTH_API cloth_status cloth_create_mesh(const cloth_mesh_desc *desc, cloth_t **out);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_MESH_H */
