/*
 * Private to src/colliders/: a triangle-mesh collider's copy of the host's
 * mesh (triangle_mesh.c) and the grid that finds the triangles near a
 * point (mesh_grid.c). Everything is in the collider's own frame.
 */
#ifndef CLOTHSIM_COLLIDERS_MESH_COLLIDER_H
#define CLOTHSIM_COLLIDERS_MESH_COLLIDER_H

#include "cloth_internal.h"

/* No triangle across an edge: the edge is on the mesh's border (or shared
 * by more than two triangles, where "across" means nothing). */
#define CLOTH_MESH_NONE 0xFFFFFFFFu

/* A uniform grid over the boxes the triangles sweep in a step, each cell
 * listing (in increasing order) the triangles whose box meets it. */
typedef struct cloth_mesh_grid {
    float lo[3], inv_cell;
    float reach; /* how far the triangles' boxes were grown: a query this far reads one cell */
    uint32_t dims[3];
    uint32_t *start;        /* cells + 1 offsets into `tris` */
    uint32_t *tris;
    size_t start_cap, tris_cap; /* elements allocated */
} cloth_mesh_grid;

struct cloth_collider_mesh {
    uint32_t vertex_count, triangle_count;
    uint32_t *tri;    /* 3 per triangle, counter-clockwise seen from the side the cloth stays on */
    uint32_t *across; /* 3 per triangle: the triangle across edge k (corners k, k + 1) */
    /* 3 floats per vertex: where the step began, where it ends (the host's
     * last vertices), where this substep stands */
    float *from, *to, *at;
    float *slots; /* four 3-per-vertex arrays: from, to, at and a spare the host's next vertices go to */
    /* unit face normals and angle-weighted vertex normals of `to`: the
     * pseudo-normals that tell inside from outside (Baerentzen and Aanaes) */
    float *face_n, *vertex_n;
    /* per triangle (x, y, z, r): a ball about the corners where they stand
     * this substep, so that most triangles are passed over at one distance */
    float *ball;
    /* per particle of the cloth: the triangle found nearest last time, or
     * CLOTH_MESH_NONE; only where a search starts, never what it finds */
    uint32_t *hint;
    uint32_t particles;
    bool moving;  /* the host gave vertices the step has not reached yet */
    float inv_dt; /* 1 / the step's dt while moving, else 0: vertex velocity (to - from) inv_dt */
    float depth;  /* how far behind the surface a particle is still found: half the mean edge length, m */
    size_t block_bytes;
    cloth_mesh_grid grid;
};

/* mesh_grid.c: rebuild the grid over the boxes each triangle sweeps from
 * `a` to `b` (vertex arrays; the same for a still mesh) grown by `reach`;
 * may allocate. Returns false (the grid unchanged) when it cannot. */
bool cloth_mesh_grid_build(const cloth_allocator *alloc, cloth_collider_mesh *m, const float *a, const float *b,
                           float reach);
/* The same in two halves, so that several meshes' grids can be had before
 * any changes (a snapshot's load): the plan (with the memory it needs,
 * false if it cannot be had), then its application to vertices a and b
 * (the same the plan was made for), or its drop. */
typedef struct cloth_mesh_grid_plan {
    cloth_mesh_grid g;
    size_t cells, entries;
    uint32_t *new_start, *new_tris; /* fresh arrays, where the grid's own are too small */
} cloth_mesh_grid_plan;
bool cloth_mesh_grid_plan_for(const cloth_allocator *alloc, const cloth_collider_mesh *m, const float *a,
                              const float *b, float reach, cloth_mesh_grid_plan *plan);
void cloth_mesh_grid_apply(const cloth_allocator *alloc, cloth_collider_mesh *m, const float *a, const float *b,
                           cloth_mesh_grid_plan *plan);
void cloth_mesh_grid_drop(const cloth_allocator *alloc, cloth_mesh_grid_plan *plan);
void cloth_mesh_grid_free(const cloth_allocator *alloc, cloth_mesh_grid *g);
/* The cells [lo, hi] (per axis) whose lists hold every triangle within r
 * of p: p's own cell when r is within the reach the grid was built for,
 * else every cell the box [p - r, p + r] meets (a triangle may then come
 * more than once). False when there is none. */
bool cloth_mesh_grid_cells(const cloth_mesh_grid *g, const float p[3], float r, uint32_t lo[3], uint32_t hi[3]);

/* What a mesh's answer adds to a shape's: the surface point's velocity in
 * the frame (the mesh's own deformation), and how far the answer may slide
 * along its tangent plane and stay over the same face (0 off a face): no
 * slide that short can enter the mesh. */
typedef struct cloth_mesh_extra {
    float vel[3];
    float flat;
} cloth_mesh_extra;

/* triangle_mesh.c: the query for particle `particle` at p. It keeps the
 * triangle it found as the particle's hint for next time (only the
 * particle's own thread touches it). */
bool cloth_shape_triangle_mesh(const cloth_collider *c, uint32_t particle, const float p[3], float out[3], float n[3],
                               cloth_mesh_extra *extra);
/* Place the vertices for substep `substep` of `substeps` of a step of dt
 * seconds (collide.c, with the poses), and put them back where the step
 * began. */
void cloth_mesh_collider_place(cloth_collider_mesh *m, uint32_t substep, uint32_t substeps, float dt);
void cloth_mesh_collider_rewind(cloth_collider_mesh *m);
/* Whether vertices v (3 floats each) are finite and make no triangle
 * degenerate, as the add and deform calls require. */
bool cloth_mesh_collider_vertices_ok(const cloth_collider_mesh *m, const float *v);
/* The normals of `to` and the balls of `at` again, after both were
 * replaced (a snapshot's load). */
void cloth_mesh_collider_refresh(cloth_collider_mesh *m);
/* mesh_memory.c: a mesh of these counts, every array in place and zeroed
 * fields, or NULL; and its release (NULL is ignored). */
cloth_collider_mesh *cloth_mesh_collider_alloc(const cloth_allocator *alloc, uint32_t vertices, uint32_t triangles,
                                               uint32_t particles);
void cloth_mesh_collider_free(const cloth_allocator *alloc, cloth_collider_mesh *m);

#endif /* CLOTHSIM_COLLIDERS_MESH_COLLIDER_H */
