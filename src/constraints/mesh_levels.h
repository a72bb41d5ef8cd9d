/*
 * A mesh's coarse levels for the strain limit: what the builder
 * (mesh_levels_build.c) makes and the sweep (strain_levels_mesh.c) runs.
 * The method is described in strain_levels_mesh.c.
 */
#ifndef CLOTHSIM_MESH_LEVELS_H
#define CLOTHSIM_MESH_LEVELS_H

#include "cloth_internal.h"

enum {
    MESH_LEVEL_PASSES = 4, /* as the grid's levels */
    MESH_LEVEL_MIN_NODES = 16,
    MESH_LEVELS_MAX = 16,
    MESH_LEVEL_MAX_PARENTS = 16
};

/* Arrays in one list, so that a level's many sizes are freed in one place. */
enum { MESH_LEVEL_BLOCKS = MESH_LEVELS_MAX * 8 };

/* A spring list whose runs are sorted by first end (a < b), cut into
 * blocks of `size` consecutive node indices for the threads: a spring
 * belongs to the block of its first end, and with `size` at least the
 * widest spring's b - a it reaches into the next block only, so blocks two
 * apart share no node (as a grid's blocks of rows). Run r's springs of
 * block k are [cut[r (blocks + 1) + k], cut[r (blocks + 1) + k + 1]).
 * blocks 0: the list runs in order on one thread (too small, or its
 * indices too far apart to cut). */
typedef struct mesh_blocks {
    uint32_t blocks, size, runs;
    uint32_t *cut;
} mesh_blocks;

typedef struct mesh_level {
    uint32_t nodes;
    uint32_t *vertex;     /* the particle each node sits on */
    float *x, *y, *z, *w; /* node positions while the level solves, then its moves; inverse masses */
    uint32_t springs;
    uint32_t *ab;         /* spring k joins nodes ab[2k] and ab[2k + 1] */
    float *rest;          /* m */
    mesh_blocks blocks;   /* the springs cut for the threads */
    /* to the finer level's nodes (the particles for level 0): finer node i
     * takes parent[pbegin[i] .. pbegin[i + 1]) of this level with `weight` */
    uint32_t finer;
    uint32_t *pbegin, *parent;
    float *weight;
} mesh_level;

struct cloth_mesh_levels {
    mesh_blocks fine; /* the structural and shear springs, for the fine passes */
    uint32_t count;
    mesh_level level[MESH_LEVELS_MAX];
    void *block[MESH_LEVEL_BLOCKS];
    size_t block_bytes[MESH_LEVEL_BLOCKS];
    uint32_t blocks;
};

#endif /* CLOTHSIM_MESH_LEVELS_H */
