/*
 * The strain limit's coarse levels on a mesh: the grid's levels
 * (strain_levels.c) for any triangulation. A level's nodes are a subset of
 * the finer level's, its springs join nodes whose clusters touch, and a
 * sweep solves the coarsest level first and spreads each level's moves to
 * the one below, so that one limit pass carries a correction across the
 * cloth instead of one spring along.
 *
 * Building a level from the one below (level 0 is the particles, with the
 * structural and shear springs as its edges), once, when the limit is
 * turned on:
 *   - nodes: a maximal independent set of the finer level's graph, taken
 *     greedily in index order, so every finer node is a node or next to
 *     one. On a mesh made from a grid that is every other row and column,
 *     the grid's own coarsening;
 *   - parents: a node is its own parent; any other finer node has the
 *     nodes next to it as parents, and if fewer than two, also those next
 *     to its neighbours (parents_of()), weighted by the inverse of the rest
 *     length of the path to each (the weights sum to 1). A move of the
 *     level reaches the finer level as that weighted mean, a linear spread
 *     over each cluster's neighbourhood rather than a rigid shift of it;
 *   - springs: every pair of distinct parents of the two ends of a finer
 *     edge, once, with the rest length of the path that edge makes between
 *     them (parent, edge, parent; the shortest such path). The chord
 *     between the two would be stricter than the finer level wherever the
 *     path bends (an irregular mesh's zigzags): a cloth whose every edge
 *     is within the limit could break it, and the level and the fine
 *     passes would pull against each other. A path's length is what the
 *     finer level allows, so every level asks no more than the edges do,
 *     and on straight paths (a mesh made from a grid) it is the chord.
 * Levels stop when one would keep more than 90 % of the nodes or fewer
 * than MESH_LEVEL_MIN_NODES (mesh_levels_build.c); the order of everything
 * depends only on the mesh.
 *
 * A node's mass is the sum of its children's masses times their weights
 * (a pinned child makes it pinned), made again after a pin or mass change.
 * Sweep: a level's nodes start where their particles are, moved by the
 * coarser level's moves; MESH_LEVEL_PASSES Gauss-Seidel passes over its springs
 * in order; positions minus particles become its moves. The finest level's
 * moves go to every free particle with d / dt onto its velocity, as a fine
 * shortening does.
 *
 * Threads: a level's passes, and the fine passes, go by blocks of node (or
 * particle) indices (mesh_levels.h, mesh_blocks), even blocks in parallel,
 * then odd ones, as a grid's blocks of rows; the node and spread loops,
 * where each node or particle is its own, by ranges. The blocks depend on
 * the mesh only, and the loops are plain C: the same bits at every thread
 * count and vector level.
 */
#include "mesh_levels.h"
#include "strain_kernels.h"
#include "constraints/constraints.h"
#include "tasks.h"

#include <string.h>

/* Each node's mass: its children's, shared out by their weights. */
static void node_masses(struct cloth_mesh_levels *lv, const cloth_t *cloth)
{
    for (uint32_t l = 0; l < lv->count; ++l) {
        mesh_level *L = &lv->level[l];
        const mesh_level *F = l > 0u ? &lv->level[l - 1u] : NULL;
        memset(L->w, 0, (size_t)L->nodes * sizeof(float));
        for (uint32_t i = 0; i < L->finer; ++i) {
            const float wi = F != NULL ? F->w[i] : cloth->p.w[i];
            const float m = wi > 0.0f ? 1.0f / wi : INFINITY;
            for (uint32_t k = L->pbegin[i]; k < L->pbegin[i + 1u]; ++k) {
                L->w[L->parent[k]] += L->weight[k] * m;
            }
        }
        for (uint32_t n = 0; n < L->nodes; ++n) {
            L->w[n] = 1.0f / L->w[n]; /* 0 for a node whose share holds a pin */
        }
    }
}

/* The move of level L (its moves in x, y, z) at finer node i. */
static void move_at(const mesh_level *L, uint32_t i, float out[3])
{
    float d[3] = {0.0f, 0.0f, 0.0f};
    for (uint32_t k = L->pbegin[i]; k < L->pbegin[i + 1u]; ++k) {
        const uint32_t n = L->parent[k];
        const float t = L->weight[k];
        d[0] += t * L->x[n];
        d[1] += t * L->y[n];
        d[2] += t * L->z[n];
    }
    out[0] = d[0];
    out[1] = d[1];
    out[2] = d[2];
}

/* What the parallel loops of a sweep share. */
typedef struct sweep_job {
    cloth_t *cloth;
    mesh_level *L;
    const mesh_level *coarser; /* NULL for the coarsest level */
    bool moves;                /* level_nodes(): make the moves (after the passes) */
    float inv_dt;
} sweep_job;

/* Items of CLOTH_PARTICLES_PER_ITEM nodes of the job's level: before its
 * passes, the node positions (their particles moved by the coarser level's
 * moves); after them (job->moves), those positions less the particles. */
static void level_nodes(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const sweep_job *job = ctx;
    mesh_level *L = job->L;
    const cloth_particles *p = &job->cloth->p;
    uint32_t first, last;
    cloth_item_particles(begin, end, L->nodes, CLOTH_PARTICLES_PER_ITEM, &first, &last);
    for (uint32_t n = first; n < last; ++n) {
        const uint32_t i = L->vertex[n];
        if (job->moves) {
            L->x[n] -= p->x[i];
            L->y[n] -= p->y[i];
            L->z[n] -= p->z[i];
            continue;
        }
        float d[3] = {0.0f, 0.0f, 0.0f};
        if (job->coarser != NULL) {
            move_at(job->coarser, n, d);
        }
        L->x[n] = p->x[i] + d[0];
        L->y[n] = p->y[i] + d[1];
        L->z[n] = p->z[i] + d[2];
    }
}

/* Items of CLOTH_PARTICLES_PER_ITEM particles: every free particle takes
 * the finest level's move, and its velocity that move over dt. */
static void spread(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const sweep_job *job = ctx;
    cloth_particles *p = &job->cloth->p;
    uint32_t first, last;
    cloth_item_particles(begin, end, job->cloth->count, CLOTH_PARTICLES_PER_ITEM, &first, &last);
    for (uint32_t i = first; i < last; ++i) {
        if (!(p->w[i] != 0.0f)) {
            continue; /* a pin stays where it is held */
        }
        float d[3];
        move_at(job->L, i, d);
        p->x[i] += d[0];
        p->y[i] += d[1];
        p->z[i] += d[2];
        p->vx[i] += d[0] * job->inv_dt;
        p->vy[i] += d[1] * job->inv_dt;
        p->vz[i] += d[2] * job->inv_dt;
    }
}

/* One limit pass over a cut list (mesh_levels.h). */
typedef struct block_job {
    const limit_ctx *c;
    const uint32_t *ab;
    const float *rest;
    const mesh_blocks *mb;
    float scale;
    uint32_t colour; /* 0: even blocks, 1: odd */
} block_job;

/* Items are the blocks of one colour: item k is block 2 k + colour, its
 * runs one after the other, each in order. */
static void limit_blocks(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const block_job *job = ctx;
    const mesh_blocks *mb = job->mb;
    for (uint32_t item = begin; item < end; ++item) {
        const uint32_t k = 2u * item + job->colour;
        for (uint32_t r = 0; r < mb->runs; ++r) {
            const uint32_t *cut = mb->cut + (size_t)r * (mb->blocks + 1u);
            cloth_limit_list(job->c, job->ab + 2u * cut[k], job->rest + cut[k], cut[k + 1u] - cut[k], job->scale);
        }
    }
}

/* One pass over springs (ab, rest) of a list cut by mb: the even blocks on
 * the threads, then the odd ones; a list not cut, in order. */
static void limit_cut(const cloth_t *cloth, const limit_ctx *c, const uint32_t *ab, const float *rest,
                      uint32_t count, const mesh_blocks *mb, float scale)
{
    if (mb->blocks == 0u) {
        cloth_limit_list(c, ab, rest, count, scale);
        return;
    }
    block_job job = {c, ab, rest, mb, scale, 0u};
    /* blocks of a range: some CLOTH_PARTICLES_PER_RANGE nodes */
    const uint32_t min_blocks = mb->size >= CLOTH_PARTICLES_PER_RANGE ? 1u : CLOTH_PARTICLES_PER_RANGE / mb->size;
    for (job.colour = 0; job.colour < 2u; ++job.colour) {
        cloth_parallel_for(cloth, limit_blocks, (mb->blocks - job.colour + 1u) / 2u, min_blocks, &job);
    }
}

void cloth_mesh_limit_pass(cloth_t *cloth, const limit_ctx *c, float scale)
{
    const uint32_t first = cloth->type_begin[CLOTH_SPRING_STRUCTURAL];
    const uint32_t count = cloth->type_begin[CLOTH_SPRING_SHEAR + 1] - first;
    static const mesh_blocks in_order = {0u, 0u, 0u, NULL};
    const mesh_blocks *mb = cloth->mesh_levels != NULL ? &cloth->mesh_levels->fine : &in_order;
    limit_cut(cloth, c, cloth->spring_ij + 2u * first, cloth->spring_rest + first, count, mb, scale);
}

static uint32_t items_of(uint32_t n)
{
    return (n + CLOTH_PARTICLES_PER_ITEM - 1u) / CLOTH_PARTICLES_PER_ITEM;
}

void cloth_mesh_levels_apply(cloth_t *cloth, float scale, float inv_dt)
{
    struct cloth_mesh_levels *lv = cloth->mesh_levels;
    if (lv == NULL || lv->count == 0u) {
        return;
    }
    if (cloth->strain_levels_stale) {
        node_masses(lv, cloth);
        cloth->strain_levels_stale = false;
    }
    float *const no_vel[3] = {NULL, NULL, NULL};
    sweep_job job;
    memset(&job, 0, sizeof job);
    job.cloth = cloth;
    job.inv_dt = inv_dt;
    for (uint32_t l = lv->count; l-- > 0u;) {
        job.L = &lv->level[l];
        job.coarser = l + 1u < lv->count ? &lv->level[l + 1u] : NULL;
        job.moves = false;
        cloth_parallel_for(cloth, level_nodes, items_of(job.L->nodes), 1u, &job);
        limit_ctx c;
        float *const pos[3] = {job.L->x, job.L->y, job.L->z};
        cloth_limit_ctx_init(&c, cloth, pos, no_vel, job.L->w, 0.0f);
        for (uint32_t it = 0; it < MESH_LEVEL_PASSES; ++it) {
            limit_cut(cloth, &c, job.L->ab, job.L->rest, job.L->springs, &job.L->blocks, scale);
        }
        job.moves = true;
        cloth_parallel_for(cloth, level_nodes, items_of(job.L->nodes), 1u, &job);
    }
    job.L = &lv->level[0];
    cloth_parallel_for(cloth, spread, items_of(cloth->count), 1u, &job);
}
