/*
 * The strain limit's coarse levels on a grid (Mueller 2008, "Hierarchical
 * Position Based Dynamics", applied to the limit): before each fine pass,
 * the same limit is solved on coarser grids of nodes 2, 4, 8, ... particles
 * apart, and the nodes' moves are spread over the particles between them.
 *
 * Why: a fine pass moves a correction one spring along, so a load carried
 * by a long run of springs (a cloth's weight hanging over a ball) needs as
 * many passes as the run is long. A node of level l stands for 2^l
 * particles in each direction, so its passes carry a correction 2^l
 * springs at a time, and the levels together carry it across the cloth in
 * one sweep.
 *
 * One sweep, coarsest level first: a level's nodes start at the particles
 * they sit on, moved by the coarser level's moves (bilinear between its
 * nodes); LEVEL_PASSES Gauss-Seidel passes over the level's springs; the
 * node positions are then turned into moves. The finest level's moves go
 * to every free particle the same way, with d / dt onto its velocity as
 * for a fine shortening. A level's springs join neighbouring nodes along
 * rows, down columns and (if the cloth has shear springs) across both
 * diagonals, with rest lengths from the grid's axes, and are shortened to
 * (1 + max_strain) times that, as the fine springs are.
 *
 * Nodes sit on rows and columns 0, s, 2 s, ... and on the last one, so the
 * last cell of a level may be narrower than s. Threads: making a level's
 * nodes, turning them into moves and the spread to the particles go by
 * rows, which are independent; a level's passes go by blocks of node rows
 * (cloth_grid_block_rows() of the level), even blocks in parallel, then
 * odd ones, as the fine pass does. The blocks are a function of the grid
 * only, so the bits do not depend on the thread count, and the loops give
 * the same bits on every vector level.
 */
#include "strain_kernels.h"
#include "constraints/constraints.h"
#include "springs.h"

#include <string.h>

enum {
    LEVEL_PASSES = 4,    /* Gauss-Seidel passes per level and sweep */
    MIN_LEVEL_CELLS = 4, /* the coarsest level keeps at least this many cells per side */
    MAX_LEVELS = 16
};

typedef struct strain_level {
    uint32_t shift;      /* nodes are 1 << shift particles apart */
    uint32_t rows, cols; /* of nodes */
    float *x, *y, *z;    /* node positions while the level solves, then their moves */
    float *w;            /* node inverse masses: of its share of the particles (node_masses) */
} strain_level;

struct cloth_strain_levels {
    uint32_t count; /* level[0] has stride 2 */
    size_t bytes;   /* of the one block holding this struct and the arrays */
    strain_level level[MAX_LEVELS];
};

/* Nodes of a level with stride 1 << shift over n particles: 0, s, ..., n - 1. */
static uint32_t node_count(uint32_t n, uint32_t shift)
{
    const uint32_t s = 1u << shift;
    return (n - 1u + s - 1u) / s + 1u;
}

/* The particle row (or column) under node k of a level with stride 1 << shift. */
static inline uint32_t node_at(uint32_t k, uint32_t shift, uint32_t n)
{
    return (k << shift) < n - 1u ? k << shift : n - 1u;
}

static uint32_t level_count(uint32_t rows, uint32_t cols)
{
    const uint32_t n = (rows < cols ? rows : cols) - 1u;
    uint32_t count = 0u;
    while (count < MAX_LEVELS && (n >> (count + 1u)) >= MIN_LEVEL_CELLS) {
        ++count;
    }
    return count;
}

cloth_status cloth_strain_levels_alloc(cloth_t *cloth)
{
    if (cloth->tris != NULL) {
        return cloth_mesh_levels_alloc(cloth);
    }
    if (cloth->strain_levels != NULL) {
        return CLOTH_OK;
    }
    const uint32_t count = level_count(cloth->rows, cloth->cols);
    if (count == 0u) {
        return CLOTH_OK; /* too small to have a level: the fine passes are enough */
    }
    size_t floats = 0u;
    for (uint32_t l = 0; l < count; ++l) {
        floats += 4u * (size_t)node_count(cloth->rows, l + 1u) * node_count(cloth->cols, l + 1u);
    }
    const size_t head = (sizeof(struct cloth_strain_levels) + CLOTH_ALIGN - 1u) / CLOTH_ALIGN * CLOTH_ALIGN;
    const size_t bytes = head + floats * sizeof(float);
    unsigned char *mem = cloth_mem_alloc(&cloth->alloc, bytes);
    if (mem == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    struct cloth_strain_levels *lv = (struct cloth_strain_levels *)(void *)mem;
    memset(lv, 0, sizeof *lv);
    lv->count = count;
    lv->bytes = bytes;
    float *next = (float *)(void *)(mem + head);
    for (uint32_t l = 0; l < count; ++l) {
        strain_level *L = &lv->level[l];
        L->shift = l + 1u;
        L->rows = node_count(cloth->rows, L->shift);
        L->cols = node_count(cloth->cols, L->shift);
        const size_t n = (size_t)L->rows * L->cols;
        L->x = next;
        L->y = next + n;
        L->z = next + 2u * n;
        L->w = next + 3u * n;
        next += 4u * n;
    }
    cloth->strain_levels = lv;
    cloth->strain_levels_stale = true;
    return CLOTH_OK;
}

void cloth_strain_levels_free(cloth_t *cloth)
{
    cloth_mesh_levels_free(cloth);
    if (cloth->strain_levels != NULL) {
        cloth_mem_free(&cloth->alloc, cloth->strain_levels, cloth->strain_levels->bytes);
        cloth->strain_levels = NULL;
    }
}

/* Where fine index i (a row or a column, of n) falls between the nodes of
 * a level with `nodes` of them 1 << shift apart: the cell's first node k
 * and the weight t of node k + 1. */
static void locate(uint32_t nodes, uint32_t shift, uint32_t i, uint32_t n, uint32_t *k, float *t)
{
    uint32_t c = i >> shift;
    if (c > nodes - 2u) {
        c = nodes - 2u;
    }
    const uint32_t i0 = c << shift, i1 = node_at(c + 1u, shift, n);
    *k = c;
    *t = (float)(i - i0) / (float)(i1 - i0);
}

static void locate_row(const strain_level *L, uint32_t r, uint32_t rows, uint32_t *k, float *t)
{
    locate(L->rows, L->shift, r, rows, k, t);
}

/* The level loops at the cloth's width (kernels/levels.inl). */
typedef struct level_loops {
    void (*halve)(const float *row, float *out, uint32_t pairs);
    void (*add)(float *x, float *v, const float *w, const float *move, float inv_dt, uint32_t n);
    void (*mix)(const float *top, const float *bottom, float *out, float t, uint32_t n);
    void (*nodes)(float *node, const float *fine, const float *d, uint32_t n, uint32_t shift, int what);
} level_loops;

static level_loops pick_loops(const cloth_t *cloth)
{
    const cloth_kernels *k = cloth_kernels_at(cloth->simd);
    const level_loops f = {k->level_halve, k->level_add, k->level_mix, k->level_nodes};
    return f;
}

enum { CHUNK = 256 }; /* target columns made at a time, on the stack (even) */

/* Coarse level L's moves at fine row r, at the columns of the grid with
 * half its spacing (its own nodes and the points halfway between them: the
 * next finer level's nodes, or every particle for the finest level), for
 * target columns [j0, j1), j0 even, j1 - j0 <= CHUNK. Bilinear: across the
 * rows first, with weight t, then along them, where a target column is a
 * node (weight 0) or halfway (0.5) except in the last cell, which may be
 * narrower. */
static void half_moves(const level_loops *f, const strain_level *L, const cloth_t *cloth, uint32_t r, uint32_t j0,
                       uint32_t j1, float out[3][CHUNK])
{
    uint32_t k;
    float t;
    locate_row(L, r, cloth->rows, &k, &t);
    const uint32_t cols = cloth->cols, target = L->shift - 1u;
    const uint32_t last0 = (L->cols - 2u) << L->shift;   /* fine column of the last cell's first node */
    const uint32_t even = 2u * (L->cols - 2u);            /* target columns before the last cell */
    const float inv_last = 1.0f / (float)(cols - 1u - last0);
    const size_t top = (size_t)k * L->cols, bottom = top + L->cols;
    /* nodes n0 .. n1 - 1 of the level's row: those the targets fall between,
     * and always the last cell's two, which the targets past `even` use */
    const uint32_t n0 = j0 / 2u < L->cols - 2u ? j0 / 2u : L->cols - 2u;
    const uint32_t n1 = (j1 + 1u) / 2u + 1u < L->cols ? (j1 + 1u) / 2u + 1u : L->cols;
    const float *const m[3] = {L->x, L->y, L->z};
    for (int a = 0; a < 3; ++a) {
        float row[CHUNK / 2u + 2u]; /* the level's row of moves at fine row r, nodes n0 .. n1 - 1 */
        f->mix(m[a] + top + n0, m[a] + bottom + n0, row, t, n1 - n0);
        const uint32_t split = j1 < even ? j1 : even > j0 ? even : j0;
        f->halve(row, out[a], (split - j0) / 2u); /* split - j0 is even: `even` and j0 are */
        for (uint32_t j = split; j < j1; ++j) {
            const uint32_t c = node_at(j, target, cols);
            const float u = (float)(c - last0) * inv_last;
            out[a][j - j0] = (1.0f - u) * row[L->cols - 2u - n0] + u * row[L->cols - 1u - n0];
        }
    }
}


/* Add mass m at fine (r, c) to level L's nodes, split bilinearly as a
 * move of theirs is spread back, so that what the spread moves carries the
 * momentum of the nodes' moves. */
static void add_mass(strain_level *L, const cloth_t *cloth, uint32_t r, uint32_t c, float m)
{
    uint32_t k, l;
    float t, u;
    locate_row(L, r, cloth->rows, &k, &t);
    locate(L->cols, L->shift, c, cloth->cols, &l, &u);
    const float share[4] = {(1.0f - t) * (1.0f - u), (1.0f - t) * u, t * (1.0f - u), t * u};
    const size_t q[4] = {(size_t)k * L->cols + l, (size_t)k * L->cols + l + 1u, (size_t)(k + 1u) * L->cols + l,
                         (size_t)(k + 1u) * L->cols + l + 1u};
    for (int n = 0; n < 4; ++n) {
        if (share[n] > 0.0f) {
            L->w[q[n]] += share[n] * m;
        }
    }
}

/* Each node's mass is what its share of the particles weighs (of the
 * level below's nodes, for a coarser level); its inverse weights its moves.
 * A pin's mass is infinite, so every node whose share reaches a pin is
 * pinned: the levels hold the cloth where the pin holds it. Made again
 * only after a pin or mass change. */
static void node_masses(struct cloth_strain_levels *lv, const cloth_t *cloth)
{
    const cloth_particles *p = &cloth->p;
    for (uint32_t l = 0; l < lv->count; ++l) {
        strain_level *L = &lv->level[l];
        memset(L->w, 0, (size_t)L->rows * L->cols * sizeof(float));
        if (l == 0u) {
            for (uint32_t r = 0; r < cloth->rows; ++r) {
                for (uint32_t c = 0; c < cloth->cols; ++c) {
                    const float w = p->w[(size_t)r * cloth->cols + c];
                    add_mass(L, cloth, r, c, w > 0.0f ? 1.0f / w : INFINITY);
                }
            }
            continue;
        }
        const strain_level *F = &lv->level[l - 1u];
        for (uint32_t k = 0; k < F->rows; ++k) {
            const uint32_t r = node_at(k, F->shift, cloth->rows);
            for (uint32_t j = 0; j < F->cols; ++j) {
                const uint32_t c = node_at(j, F->shift, cloth->cols);
                add_mass(L, cloth, r, c, F->w[(size_t)k * F->cols + j]);
            }
        }
    }
    for (uint32_t l = 0; l < lv->count; ++l) {
        strain_level *L = &lv->level[l];
        for (size_t q = 0; q < (size_t)L->rows * L->cols; ++q) {
            L->w[q] = 1.0f / L->w[q]; /* 0 for a node whose share holds a pin */
        }
    }
}

/* Rest length of a level's spring spanning a columns and b rows (fine
 * units; b = 0 along a row, a = 0 down a column), its diagonal going to
 * the right (sign +1) or to the left (sign -1). The grid's axes u, v need
 * not be orthogonal: |a u + b v|^2 with 2 u.v from the shear rest length. */
static float level_rest(const cloth_t *cloth, float a, float b, float sign)
{
    const float h = cloth->family_rest[0], v = cloth->family_rest[1], d = cloth->family_rest[2];
    const float uv2 = d * d - h * h - v * v;
    const float len2 = a * a * h * h + b * b * v * v + sign * a * b * uv2;
    return len2 > 0.0f ? sqrtf(len2) : 0.0f;
}

/* A level's spring lengths at the limit: every cell is s x s particles
 * but the last column's and the last row's, which may be narrower, so
 * index 1 is for those. diag[row][column][0] goes down to the right, [1]
 * down to the left. */
typedef struct level_limits {
    float along[2], down[2], diag[2][2][2];
} level_limits;

static level_limits limits_of(const strain_level *L, const cloth_t *cloth, float scale)
{
    const uint32_t last = (L->rows - 2u) << L->shift, last_c = (L->cols - 2u) << L->shift;
    const float wide[2] = {(float)(1u << L->shift), (float)(cloth->cols - 1u - last_c)};
    const float tall[2] = {(float)(1u << L->shift), (float)(cloth->rows - 1u - last)};
    level_limits m;
    for (int i = 0; i < 2; ++i) {
        m.along[i] = scale * level_rest(cloth, wide[i], 0.0f, 1.0f);
        m.down[i] = scale * level_rest(cloth, 0.0f, tall[i], 1.0f);
        for (int j = 0; j < 2; ++j) {
            m.diag[i][j][0] = scale * level_rest(cloth, wide[j], tall[i], 1.0f);
            m.diag[i][j][1] = scale * level_rest(cloth, wide[j], tall[i], -1.0f);
        }
    }
    return m;
}

/* What the parallel loops over a level share. */
typedef struct level_job {
    const cloth_t *cloth;
    strain_level *L;
    const strain_level *coarser; /* NULL for the coarsest level */
    const level_loops *f;
    limit_ctx c;       /* the level's nodes, positions only */
    level_limits m;
    bool shear;
    uint32_t block_rows; /* node rows per block of a pass */
    uint32_t colour;     /* 0: even blocks, 1: odd */
    bool moves;          /* node_rows(): make the moves (after the passes) */
} level_job;

/* Node rows [begin, end) of the job's level. Before its passes: the node
 * positions, the particles under them moved by the coarser level's moves
 * (none for the coarsest). After them (job->moves): those positions less
 * the particles under them, the level's moves. */
static void node_rows(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const level_job *job = ctx;
    const cloth_t *cloth = job->cloth;
    strain_level *L = job->L;
    const cloth_particles *p = &cloth->p;
    float *const node[3] = {L->x, L->y, L->z};
    const float *const fine[3] = {p->x, p->y, p->z};
    const int what = job->moves ? CLOTH_NODES_MOVES : CLOTH_NODES_AT;
    const bool moved = !job->moves && job->coarser != NULL; /* made with the coarser level's moves */
    for (uint32_t k = begin; k < end; ++k) {
        const uint32_t r = node_at(k, L->shift, cloth->rows);
        const size_t row = (size_t)r * cloth->cols, q0 = (size_t)k * L->cols;
        for (uint32_t l0 = 0; l0 < L->cols; l0 += CHUNK) {
            const uint32_t l1 = l0 + CHUNK < L->cols ? l0 + CHUNK : L->cols;
            float d[3][CHUNK];
            if (moved) {
                half_moves(job->f, job->coarser, cloth, r, l0, l1, d);
            }
            /* the row's last node sits on the last column, which may be
             * nearer than the stride: it goes on its own */
            const uint32_t strided = l1 < L->cols ? l1 : L->cols - 1u;
            for (int a = 0; a < 3; ++a) {
                const float *const from = fine[a] + row + ((size_t)l0 << L->shift);
                job->f->nodes(node[a] + q0 + l0, from, moved ? d[a] : NULL, strided - l0, L->shift, what);
                if (strided < l1) {
                    const uint32_t l = strided;
                    float *const at = &node[a][q0 + l];
                    const float on = fine[a][row + cloth->cols - 1u];
                    *at = job->moves ? *at - on : on + (moved ? d[a][l - l0] : 0.0f);
                }
            }
        }
    }
}

/* Items are a pass's blocks of one colour (item k is block 2 k + colour):
 * their node rows in order, each row's springs along it, then down to the
 * next row and across both diagonals, as the fine pass goes. A block's
 * springs reach one row into the next block only, so blocks of one colour
 * share no node and run in parallel with the same bits. */
static void pass_blocks(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const level_job *job = ctx;
    const strain_level *L = job->L;
    const limit_ctx *c = &job->c;
    const level_limits *m = &job->m;
    const uint32_t nc = L->cols;
    for (uint32_t item = begin; item < end; ++item) {
        const uint32_t k0 = (2u * item + job->colour) * job->block_rows;
        const uint32_t k1 = k0 + job->block_rows < L->rows ? k0 + job->block_rows : L->rows;
        for (uint32_t k = k0; k < k1; ++k) {
            const uint32_t b = k * nc;
            cloth_limit_along(c, b, b + nc - 2u, m->along[0]);
            cloth_limit_spring(c, b + nc - 2u, b + nc - 1u, m->along[1]);
            if (k + 1u == L->rows) {
                break;
            }
            const int h = k + 2u == L->rows; /* the last row of cells */
            cloth_limit_across(c, b, b + nc, nc, m->down[h]);
            if (!job->shear) {
                continue;
            }
            /* cell l: (k, l)-(k + 1, l + 1) and (k, l + 1)-(k + 1, l) */
            cloth_limit_across(c, b, b + nc - 2u, nc + 1u, m->diag[h][0][0]);
            cloth_limit_spring(c, b + nc - 2u, b + 2u * nc - 1u, m->diag[h][1][0]);
            cloth_limit_across(c, b + 1u, b + nc - 1u, nc - 1u, m->diag[h][0][1]);
            cloth_limit_spring(c, b + nc - 1u, b + 2u * nc - 2u, m->diag[h][1][1]);
        }
    }
}

typedef struct spread_pass {
    const cloth_t *cloth;
    const strain_level *finest;
    float inv_dt;
    level_loops f;
} spread_pass;

/* Rows [begin, end): every free particle takes the finest level's move. */
static void spread_rows(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const spread_pass *pass = ctx;
    const cloth_t *cloth = pass->cloth;
    const cloth_particles *p = &cloth->p;
    float *const x[3] = {p->x, p->y, p->z}, *const v[3] = {p->vx, p->vy, p->vz};
    for (uint32_t r = begin; r < end; ++r) {
        const size_t row = (size_t)r * cloth->cols;
        for (uint32_t c0 = 0; c0 < cloth->cols; c0 += CHUNK) {
            const uint32_t c1 = c0 + CHUNK < cloth->cols ? c0 + CHUNK : cloth->cols;
            float d[3][CHUNK];
            half_moves(&pass->f, pass->finest, cloth, r, c0, c1, d);
            for (int a = 0; a < 3; ++a) {
                pass->f.add(x[a] + row + c0, v[a] + row + c0, p->w + row + c0, d[a], pass->inv_dt, c1 - c0);
            }
        }
    }
}

void cloth_strain_levels_apply(cloth_t *cloth, float scale, float inv_dt)
{
    struct cloth_strain_levels *lv = cloth->strain_levels;
    if (lv == NULL) {
        return;
    }
    const bool shear = cloth_family_active(cloth, 2u) && cloth_family_active(cloth, 3u);
    float *const no_vel[3] = {NULL, NULL, NULL};
    const level_loops f = pick_loops(cloth);
    if (cloth->strain_levels_stale) {
        node_masses(lv, cloth);
        cloth->strain_levels_stale = false;
    }
    for (uint32_t l = lv->count; l-- > 0u;) {
        level_job job;
        memset(&job, 0, sizeof job);
        job.cloth = cloth;
        job.L = &lv->level[l];
        job.coarser = l + 1u < lv->count ? &lv->level[l + 1u] : NULL;
        job.f = &f;
        job.shear = shear;
        job.m = limits_of(job.L, cloth, scale);
        float *const pos[3] = {job.L->x, job.L->y, job.L->z};
        cloth_limit_ctx_init(&job.c, cloth, pos, no_vel, job.L->w, 0.0f);
        const uint32_t rows = job.L->rows, min_rows = cloth_grid_min_blocks(1u, job.L->cols);
        job.block_rows = cloth_grid_block_rows(rows);
        const uint32_t blocks = (rows + job.block_rows - 1u) / job.block_rows;
        /* a quarter of the fine passes' smallest range: a level's passes are
         * most of a limit pass's time, and on one thread alone they would
         * keep the other idle */
        const uint32_t min_blocks = (cloth_grid_min_blocks(job.block_rows, job.L->cols) + 3u) / 4u;
        cloth_parallel_for(cloth, node_rows, rows, min_rows, &job);
        for (uint32_t it = 0; it < LEVEL_PASSES; ++it) {
            for (job.colour = 0; job.colour < 2u; ++job.colour) {
                const uint32_t items = (blocks - job.colour + 1u) / 2u; /* blocks colour, colour + 2, ... */
                if (items > 0u) {
                    cloth_parallel_for(cloth, pass_blocks, items, min_blocks, &job);
                }
            }
        }
        job.moves = true;
        cloth_parallel_for(cloth, node_rows, rows, min_rows, &job);
    }
    spread_pass pass = {cloth, &lv->level[0], inv_dt, f};
    cloth_parallel_for(cloth, spread_rows, cloth->rows, 8u, &pass);
}
