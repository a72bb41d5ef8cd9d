/*
 * Building a mesh's coarse levels for the strain limit (the method:
 * strain_levels_mesh.c), once, when the limit is switched on: each level
 * from the graph of the one below, in index order, with scratch that is
 * freed when the levels are made.
 */
#include "mesh_levels.h"
#include "constraints/constraints.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The levels being built, and the scratch they are built with (freed at
 * the end). */
typedef struct builder {
    const cloth_t *cloth;
    struct cloth_mesh_levels *lv;
    void *scratch[MESH_LEVEL_BLOCKS];
    size_t scratch_bytes[MESH_LEVEL_BLOCKS];
    uint32_t scratches;
    bool failed;
} builder;

static void *alloc_into(builder *b, void **list, size_t *sizes, uint32_t *count, size_t bytes)
{
    if (b->failed || *count == MESH_LEVEL_BLOCKS) {
        b->failed = true;
        return NULL;
    }
    void *p = cloth_mem_alloc(&b->cloth->alloc, bytes);
    if (p == NULL) {
        b->failed = true;
        return NULL;
    }
    memset(p, 0, bytes);
    list[*count] = p;
    sizes[(*count)++] = bytes;
    return p;
}

/* Kept with the levels. */
static void *take(builder *b, size_t bytes)
{
    return alloc_into(b, b->lv->block, b->lv->block_bytes, &b->lv->blocks, bytes);
}

/* Freed when the levels are built. */
static void *scratch(builder *b, size_t bytes)
{
    return alloc_into(b, b->scratch, b->scratch_bytes, &b->scratches, bytes);
}

static void free_levels(const cloth_t *cloth, struct cloth_mesh_levels *lv)
{

    for (uint32_t k = 0; k < lv->blocks; ++k) {
        cloth_mem_free(&cloth->alloc, lv->block[k], lv->block_bytes[k]);
    }
    cloth_mem_free(&cloth->alloc, lv, sizeof *lv);
}

/* A level's graph while the next one is built: nodes, their particles and
 * edges, with each node's neighbours (CSR). */
typedef struct graph {
    uint32_t nodes, edges;
    const uint32_t *vertex; /* NULL: node i is particle i */
    const uint32_t *ab;
    const float *rest;      /* per edge, m */
    uint32_t *begin, *next; /* node i's neighbours: next[begin[i] .. begin[i + 1]) */
    float *next_rest;       /* and the rest length of the edge to each */
} graph;

static uint32_t particle_of(const graph *g, uint32_t i)
{
    return g->vertex != NULL ? g->vertex[i] : i;
}

/* The neighbour lists of g's edges (scratch from b's list). */
static void link_graph(builder *b, graph *g)
{
    g->begin = scratch(b, ((size_t)g->nodes + 1u) * sizeof(uint32_t));
    g->next = scratch(b, 2u * (size_t)g->edges * sizeof(uint32_t) + sizeof(uint32_t));
    g->next_rest = scratch(b, 2u * (size_t)g->edges * sizeof(float) + sizeof(float));
    uint32_t *fill = scratch(b, ((size_t)g->nodes + 1u) * sizeof(uint32_t));
    if (b->failed) {
        return;
    }
    for (uint32_t e = 0; e < 2u * g->edges; ++e) {
        ++g->begin[g->ab[e] + 1u];
    }
    for (uint32_t i = 0; i < g->nodes; ++i) {
        g->begin[i + 1u] += g->begin[i];
        fill[i] = g->begin[i];
    }
    for (uint32_t e = 0; e < g->edges; ++e) {
        const uint32_t u = g->ab[2u * e], v = g->ab[2u * e + 1u];
        g->next_rest[fill[u]] = g->rest[e];
        g->next[fill[u]++] = v;
        g->next_rest[fill[v]] = g->rest[e];
        g->next[fill[v]++] = u;
    }
}

/* The distance between particles a and b in the rest shape. */
static double rest_distance(const cloth_t *cloth, uint32_t a, uint32_t b)
{
    const float *x = cloth->rest_shape, *y = x + cloth->count, *z = y + cloth->count;
    const double dx = (double)x[a] - (double)x[b], dy = (double)y[a] - (double)y[b], dz = (double)z[a] - (double)z[b];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* A candidate spring of the new level: nodes a < b and the rest length of
 * the path through the finer level that joins them. */
typedef struct candidate {
    uint32_t a, b;
    float len;
} candidate;

/* By nodes, then shortest path first. */
static int compare_candidates(const void *pa, const void *pb)
{
    const candidate *p = pa, *q = pb;
    if (p->a != q->a) {
        return p->a < q->a ? -1 : 1;
    }
    if (p->b != q->b) {
        return p->b < q->b ? -1 : 1;
    }
    return p->len < q->len ? -1 : (p->len > q->len ? 1 : 0);
}

/* A finer node's parents (finer node indices) and the rest length of the
 * path to each: itself at 0 if it is a node; else the nodes next to it,
 * and when fewer than two, also the nodes next to its neighbours (a node
 * that hangs on one parent would move with it rigidly, and stretch its
 * other edges). Returns the count (at most MESH_LEVEL_MAX_PARENTS, nearest kept). */
static uint32_t parents_of(const graph *g, const uint32_t *coarse, uint32_t i, uint32_t parent[MESH_LEVEL_MAX_PARENTS],
                           float dist[MESH_LEVEL_MAX_PARENTS])
{
    if (coarse[i] != UINT32_MAX) {
        parent[0] = i;
        dist[0] = 0.0f;
        return 1u;
    }
    uint32_t n = 0;
    for (int ring = 1; ring <= 2 && n < 2u; ++ring) {
        for (uint32_t k = g->begin[i]; k < g->begin[i + 1u]; ++k) {
            const uint32_t j = g->next[k];
            const uint32_t from = ring == 1 ? k : g->begin[j], to = ring == 1 ? k + 1u : g->begin[j + 1u];
            for (uint32_t q = from; q < to; ++q) {
                const uint32_t J = ring == 1 ? j : g->next[q];
                if (coarse[J] == UINT32_MAX || (ring == 2 && coarse[j] != UINT32_MAX)) {
                    continue;
                }
                /* the mesh's edges are at least 1e-15 m long (mesh.h) */
                const float d = ring == 1 ? g->next_rest[k] : g->next_rest[k] + g->next_rest[q];
                uint32_t m = 0;
                while (m < n && parent[m] != J) {
                    ++m;
                }
                if (m < n) {
                    dist[m] = d < dist[m] ? d : dist[m];
                } else if (n < MESH_LEVEL_MAX_PARENTS) {
                    parent[n] = J;
                    dist[n++] = d;
                }
            }
        }
    }
    return n;
}

/* Level L from graph g; false when it would not coarsen enough. */
static bool build_level(builder *b, const graph *g, mesh_level *L)
{
    uint32_t *coarse = scratch(b, (size_t)g->nodes * sizeof(uint32_t)); /* node index, or UINT32_MAX */
    if (b->failed) {
        return false;
    }
    uint32_t nodes = 0;
    for (uint32_t i = 0; i < g->nodes; ++i) {
        bool free_of_nodes = true;
        for (uint32_t k = g->begin[i]; k < g->begin[i + 1u] && free_of_nodes; ++k) {
            free_of_nodes = g->next[k] >= i || coarse[g->next[k]] == UINT32_MAX;
        }
        coarse[i] = free_of_nodes ? nodes++ : UINT32_MAX;
    }
    if (nodes < MESH_LEVEL_MIN_NODES || (uint64_t)nodes * 10u > (uint64_t)g->nodes * 9u) {
        return false;
    }
    /* parents and weights */
    uint32_t links = 0;
    for (uint32_t i = 0; i < g->nodes; ++i) {
        uint32_t parent[MESH_LEVEL_MAX_PARENTS];
        float dist[MESH_LEVEL_MAX_PARENTS];
        links += parents_of(g, coarse, i, parent, dist);
    }
    L->nodes = nodes;
    L->finer = g->nodes;
    L->vertex = take(b, (size_t)nodes * sizeof(uint32_t));
    float *xyzw = take(b, 4u * (size_t)nodes * sizeof(float));
    L->pbegin = take(b, ((size_t)g->nodes + 1u) * sizeof(uint32_t));
    L->parent = take(b, (size_t)links * sizeof(uint32_t));
    L->weight = take(b, (size_t)links * sizeof(float));
    if (b->failed) {
        return false;
    }
    L->x = xyzw;
    L->y = xyzw + nodes;
    L->z = xyzw + 2u * (size_t)nodes;
    L->w = xyzw + 3u * (size_t)nodes;
    uint32_t at = 0;
    for (uint32_t i = 0; i < g->nodes; ++i) {
        L->pbegin[i] = at;
        if (coarse[i] != UINT32_MAX) {
            L->vertex[coarse[i]] = particle_of(g, i);
        }
        uint32_t parent[MESH_LEVEL_MAX_PARENTS];
        float dist[MESH_LEVEL_MAX_PARENTS];
        const uint32_t count = parents_of(g, coarse, i, parent, dist);
        double sum = 0.0;
        for (uint32_t k = 0; k < count; ++k) {
            sum += 1.0 / (double)dist[k];
        }
        for (uint32_t k = 0; k < count; ++k) {
            L->parent[at] = coarse[parent[k]];
            /* a node is its own parent (distance 0): weight 1 */
            L->weight[at++] = count == 1u && dist[k] == 0.0f ? 1.0f : (float)(1.0 / (double)dist[k] / sum);
        }
    }
    L->pbegin[g->nodes] = at;
    /* springs: pairs of distinct parents across every finer edge, each
     * with its path's rest length, the shortest where several join them */
    size_t pairs = 0;
    for (uint32_t e = 0; e < g->edges; ++e) {
        const uint32_t u = g->ab[2u * e], v = g->ab[2u * e + 1u];
        pairs += (size_t)(L->pbegin[u + 1u] - L->pbegin[u]) * (L->pbegin[v + 1u] - L->pbegin[v]);
    }
    candidate *cand = scratch(b, pairs * sizeof(candidate) + sizeof(candidate));
    if (b->failed) {
        return false;
    }
    size_t n = 0;
    for (uint32_t e = 0; e < g->edges; ++e) {
        const uint32_t u = g->ab[2u * e], v = g->ab[2u * e + 1u];
        for (uint32_t p = L->pbegin[u]; p < L->pbegin[u + 1u]; ++p) {
            for (uint32_t q = L->pbegin[v]; q < L->pbegin[v + 1u]; ++q) {
                const uint32_t A = L->parent[p], B = L->parent[q];
                if (A != B) {
                    cand[n].a = A < B ? A : B;
                    cand[n].b = A < B ? B : A;
                    cand[n++].len = (float)rest_distance(b->cloth, L->vertex[A], L->vertex[B]);
                }
            }
        }
    }
    qsort(cand, n, sizeof *cand, compare_candidates);
    uint32_t springs = 0;
    for (size_t k = 0; k < n; ++k) {
        springs += k == 0u || cand[k].a != cand[k - 1u].a || cand[k].b != cand[k - 1u].b ? 1u : 0u;
    }
    L->springs = springs;
    L->ab = take(b, 2u * (size_t)springs * sizeof(uint32_t) + sizeof(uint32_t));
    L->rest = take(b, (size_t)springs * sizeof(float) + sizeof(float));
    if (b->failed) {
        return false;
    }
    uint32_t m = 0;
    for (size_t k = 0; k < n; ++k) {
        if (k == 0u || cand[k].a != cand[k - 1u].a || cand[k].b != cand[k - 1u].b) {
            L->ab[2u * m] = cand[k].a;
            L->ab[2u * m + 1u] = cand[k].b;
            L->rest[m++] = cand[k].len;
        }
    }
    return true;
}

/* Cut a list of `runs` sorted runs (run r ends at run_end[r]) over
 * `nodes` nodes into blocks (mesh_levels.h): about 16 of them, each at
 * least as wide as the widest spring. */
static void cut_blocks(builder *b, uint32_t nodes, const uint32_t *ab, const uint32_t *run_end, uint32_t runs,
                       mesh_blocks *mb)
{
    memset(mb, 0, sizeof *mb);
    uint32_t widest = 1u;
    for (uint32_t r = 0, s = 0; r < runs; ++r) {
        for (const uint32_t from = s; s < run_end[r]; ++s) {
            const uint32_t a = ab[2u * s], c = ab[2u * s + 1u];
            if (c <= a || (s > from && a < ab[2u * (s - 1u)])) {
                return; /* not sorted by first end: in order */
            }
            widest = c - a > widest ? c - a : widest;
        }
    }
    const uint32_t size = widest > (nodes + 15u) / 16u ? widest : (nodes + 15u) / 16u;
    const uint32_t blocks = (nodes + size - 1u) / size;
    if (blocks < 4u) {
        return; /* even and odd blocks would not make two of each */
    }
    uint32_t *cut = take(b, (size_t)runs * (blocks + 1u) * sizeof(uint32_t));
    if (cut == NULL) {
        return;
    }
    for (uint32_t r = 0, s = 0; r < runs; ++r) {
        uint32_t *at = cut + (size_t)r * (blocks + 1u);
        for (uint32_t k = 0; k <= blocks; ++k) {
            while (s < run_end[r] && ab[2u * s] < k * size) {
                ++s;
            }
            at[k] = k == blocks ? run_end[r] : s;
        }
        s = run_end[r];
    }
    mb->blocks = blocks;
    mb->size = size;
    mb->runs = runs;
    mb->cut = cut;
}

cloth_status cloth_mesh_levels_alloc(cloth_t *cloth)
{
    if (cloth->mesh_levels != NULL || cloth->rest_shape == NULL) {
        return CLOTH_OK; /* a mesh keeps its creation shape from creation on (tethers.c) */
    }
    struct cloth_mesh_levels *lv = cloth_mem_alloc(&cloth->alloc, sizeof *lv);
    if (lv == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memset(lv, 0, sizeof *lv);
    builder b;
    memset(&b, 0, sizeof b);
    b.cloth = cloth;
    b.lv = lv;
    /* level 0's graph: the particles and the structural and shear springs */
    const uint32_t first = cloth->type_begin[CLOTH_SPRING_STRUCTURAL];
    graph g = {cloth->count,
               cloth->type_begin[CLOTH_SPRING_SHEAR + 1] - first,
               NULL,
               cloth->spring_ij + 2u * first,
               cloth->spring_rest + first,
               NULL,
               NULL,
               NULL};
    link_graph(&b, &g);
    const uint32_t fine_end[2] = {cloth->type_begin[CLOTH_SPRING_SHEAR] - first, g.edges};
    cut_blocks(&b, cloth->count, g.ab, fine_end, 2u, &lv->fine);
    while (!b.failed && lv->count < MESH_LEVELS_MAX && build_level(&b, &g, &lv->level[lv->count])) {
        mesh_level *L = &lv->level[lv->count++];
        cut_blocks(&b, L->nodes, L->ab, &L->springs, 1u, &L->blocks);
        graph up = {L->nodes, L->springs, L->vertex, L->ab, L->rest, NULL, NULL, NULL};
        g = up;
        link_graph(&b, &g);
    }
    for (uint32_t k = 0; k < b.scratches; ++k) {
        cloth_mem_free(&cloth->alloc, b.scratch[k], b.scratch_bytes[k]);
    }
    if (b.failed) {
        free_levels(cloth, lv);
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    cloth->mesh_levels = lv;
    cloth->strain_levels_stale = true;
    return CLOTH_OK;
}

void cloth_mesh_levels_free(cloth_t *cloth)
{
    if (cloth->mesh_levels != NULL) {
        free_levels(cloth, cloth->mesh_levels);
        cloth->mesh_levels = NULL;
    }
}

