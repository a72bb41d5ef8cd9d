/*
 * The sections a version 3 snapshot adds after the colliders
 * (snapshot_ext.c; the format in include/clothsim/state.h): a word saying
 * which follow, then the skin, the backstops, the frame and the triangle
 * meshes' vertices, each only if the cloth has it. snapshot.c frames them.
 */
#ifndef CLOTHSIM_SRC_SNAPSHOT_EXT_H
#define CLOTHSIM_SRC_SNAPSHOT_EXT_H

#include "cloth_internal.h"

/* The bytes of the cloth's sections, the word included; 0 when it has none
 * (it then saves version 2). */
uint64_t cloth_ext_bytes(const cloth_t *cloth);
/* Write them at p; returns the end. */
unsigned char *cloth_ext_put(const cloth_t *cloth, unsigned char *p);
/* The bytes of the sections whose word is at p, `avail` bytes readable
 * from p on, for `count` particles; false for unknown bits, backstops
 * without a skin, or sections that run past `avail`. */
bool cloth_ext_measure(const unsigned char *p, uint64_t avail, uint32_t count, uint64_t *bytes);
/* Whether the sections at p fit this cloth (its meshes, in its collider
 * order) and hold what a cloth could (finite targets, distances >= 0,
 * normals unit or 0, a unit frame, inertia in [0, 1]). p NULL: a version 2
 * snapshot, which fits a cloth with no mesh. */
bool cloth_ext_check(const cloth_t *cloth, const unsigned char *p);

/* What a load needs before anything is written: the skin's and backstops'
 * blocks, the meshes' vertices read and checked, their grids. */
typedef struct cloth_ext_stage {
    float *verts; /* per mesh: from, to, at */
    size_t verts_bytes;
    void *plans; /* cloth_mesh_grid_plan per mesh */
    size_t plans_bytes;
    uint32_t meshes;
    bool fresh_skin, fresh_backstop;
} cloth_ext_stage;

/* Get it all, or nothing: OUT_OF_MEMORY, or INVALID_ARGUMENT for mesh
 * vertices no mesh could have, with the cloth as it was. */
cloth_status cloth_ext_prepare(cloth_t *cloth, const unsigned char *p, cloth_ext_stage *stage);
/* Write the sections (p NULL: a version 2 snapshot, which removes the
 * skin and backstops and puts the frame back to a new cloth's) and release
 * the stage. Only writes. */
void cloth_ext_commit(cloth_t *cloth, const unsigned char *p, cloth_ext_stage *stage);

#endif /* CLOTHSIM_SRC_SNAPSHOT_EXT_H */
