/*
 * The grid that finds a triangle-mesh collider's triangles near a point: a
 * uniform grid over the mesh's box, each cell listing the triangles whose
 * box (swept over the step, for a deforming mesh) grown by the reach the
 * grid was built for meets the cell. A query that looks no farther than
 * that reads the one cell its point is in, each triangle once; one that
 * looks farther (the thickness grew and the grid was not rebuilt) visits
 * every cell its own box meets, slower and as right. Cells are about a
 * triangle and a reach across, so their number stays a few per triangle
 * whatever the mesh's shape.
 */
#include "mesh_collider.h"

static void tri_box(const cloth_collider_mesh *m, const float *a, const float *b, uint32_t t, float grow, float box[6])
{
    for (int k = 0; k < 3; ++k) {
        box[k] = INFINITY;
        box[3 + k] = -INFINITY;
    }
    for (int c = 0; c < 3; ++c) {
        const uint32_t v = m->tri[3u * t + (uint32_t)c];
        for (int k = 0; k < 3; ++k) {
            box[k] = fminf(box[k], fminf(a[3u * v + (uint32_t)k], b[3u * v + (uint32_t)k]));
            box[3 + k] = fmaxf(box[3 + k], fmaxf(a[3u * v + (uint32_t)k], b[3u * v + (uint32_t)k]));
        }
    }
    for (int k = 0; k < 3; ++k) {
        box[k] -= grow;
        box[3 + k] += grow;
    }
}

/* The cells [lo, hi] (per axis) that the box meets, clamped to the grid;
 * false when it misses the grid or is not finite. */
static bool cell_range(const cloth_mesh_grid *g, const float box[6], uint32_t lo[3], uint32_t hi[3])
{
    for (int k = 0; k < 3; ++k) {
        const float a = (box[k] - g->lo[k]) * g->inv_cell, b = (box[3 + k] - g->lo[k]) * g->inv_cell;
        const float top = (float)g->dims[k];
        /* the grid's last cell holds its far face too (a box side lies on it) */
        if (!(b >= 0.0f) || !(a <= top)) {
            return false; /* outside, or NaN */
        }
        lo[k] = a > 0.0f ? (uint32_t)fminf(a, top - 1.0f) : 0u;
        hi[k] = b < top ? (uint32_t)b : g->dims[k] - 1u;
        hi[k] = hi[k] < g->dims[k] ? hi[k] : g->dims[k] - 1u;
        lo[k] = lo[k] <= hi[k] ? lo[k] : hi[k];
    }
    return true;
}

/* Every triangle into the cells its grown box meets, in increasing order:
 * counted into start[cell + 1], or (`place`) written at start[cell], which
 * then moves past it. */
static void bin(const cloth_collider_mesh *m, const float *a, const float *b, cloth_mesh_grid *g, bool place)
{
    for (uint32_t t = 0; t < m->triangle_count; ++t) {
        float box[6];
        uint32_t l[3], h[3];
        tri_box(m, a, b, t, g->reach, box);
        if (!cell_range(g, box, l, h)) {
            continue;
        }
        for (uint32_t z = l[2]; z <= h[2]; ++z) {
            for (uint32_t y = l[1]; y <= h[1]; ++y) {
                const size_t row = ((size_t)z * g->dims[1] + y) * g->dims[0];
                for (size_t cell = row + l[0]; cell <= row + h[0]; ++cell) {
                    if (place) {
                        g->tris[g->start[cell]++] = t;
                    } else {
                        ++g->start[cell + 1u];
                    }
                }
            }
        }
    }
}

bool cloth_mesh_grid_plan_for(const cloth_allocator *alloc, const cloth_collider_mesh *m, const float *a,
                              const float *b, float reach, cloth_mesh_grid_plan *plan)
{
    const uint32_t tris = m->triangle_count;
    if (!isfinite(reach)) {
        return false;
    }
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double extent = 0.0;
    for (uint32_t t = 0; t < tris; ++t) {
        float box[6];
        tri_box(m, a, b, t, reach, box);
        float big = 0.0f;
        for (int k = 0; k < 3; ++k) {
            lo[k] = fminf(lo[k], box[k]);
            hi[k] = fmaxf(hi[k], box[3 + k]);
            big = fmaxf(big, box[3 + k] - box[k]);
        }
        extent += (double)big;
    }
    /* a cell about as wide as the mean triangle, no more cells than four
     * per triangle (and at most 1024 along an axis) */
    const double span[3] = {(double)hi[0] - (double)lo[0], (double)hi[1] - (double)lo[1],
                           (double)hi[2] - (double)lo[2]};
    const double widest = fmax(span[0], fmax(span[1], span[2]));
    /* at least the reach wide, so that a box grown by it spans a few cells
     * however thick the collider is made */
    double cell = fmax(fmax(extent / tris - 2.0 * (double)reach, widest / 1024.0), (double)reach);
    if (!(cell > 0.0)) {
        cell = 1.0; /* every triangle a point at one place: refused at add, kept safe here */
    }
    const double budget = 4.0 * tris + 64.0;
    for (;;) {
        const double cells = (floor(span[0] / cell) + 1.0) * (floor(span[1] / cell) + 1.0) * (floor(span[2] / cell) + 1.0);
        if (cells <= budget) {
            break;
        }
        cell *= cbrt(cells / budget) * 1.01;
    }
    cloth_mesh_grid *g = &plan->g;
    *g = m->grid;
    plan->new_start = plan->new_tris = NULL;
    plan->cells = 1u;
    for (int k = 0; k < 3; ++k) {
        g->lo[k] = lo[k];
        g->dims[k] = (uint32_t)(floor(span[k] / cell) + 1.0);
        plan->cells *= g->dims[k];
    }
    g->inv_cell = (float)(1.0 / cell);
    g->reach = reach;
    if (!isfinite(g->inv_cell) || !(g->inv_cell > 0.0f)) {
        return false;
    }
    plan->entries = 0u;
    for (uint32_t t = 0; t < tris; ++t) {
        float box[6];
        uint32_t l[3], h[3];
        tri_box(m, a, b, t, reach, box);
        if (cell_range(g, box, l, h)) {
            plan->entries += (size_t)(h[0] - l[0] + 1u) * (h[1] - l[1] + 1u) * (h[2] - l[2] + 1u);
        }
    }
    if (plan->entries > UINT32_MAX) {
        return false;
    }
    /* fresh arrays where the grid's own are too small; both or neither */
    if (plan->cells + 1u > g->start_cap) {
        plan->new_start = cloth_mem_alloc(alloc, (plan->cells + 1u) * sizeof(uint32_t));
    }
    if (plan->entries > g->tris_cap) {
        plan->new_tris = cloth_mem_alloc(alloc, plan->entries * sizeof(uint32_t));
    }
    if ((plan->cells + 1u > g->start_cap && plan->new_start == NULL) ||
        (plan->entries > g->tris_cap && plan->new_tris == NULL)) {
        cloth_mesh_grid_drop(alloc, plan);
        return false;
    }
    return true;
}

void cloth_mesh_grid_drop(const cloth_allocator *alloc, cloth_mesh_grid_plan *plan)
{
    cloth_mem_free(alloc, plan->new_start, (plan->cells + 1u) * sizeof(uint32_t));
    cloth_mem_free(alloc, plan->new_tris, plan->entries * sizeof(uint32_t));
    plan->new_start = plan->new_tris = NULL;
}

void cloth_mesh_grid_apply(const cloth_allocator *alloc, cloth_collider_mesh *m, const float *a, const float *b,
                           cloth_mesh_grid_plan *plan)
{
    cloth_mesh_grid g = plan->g;
    const size_t cells = plan->cells;
    if (plan->new_start != NULL) {
        cloth_mem_free(alloc, g.start, g.start_cap * sizeof *g.start);
        g.start = plan->new_start;
        g.start_cap = cells + 1u;
    }
    if (plan->new_tris != NULL) {
        cloth_mem_free(alloc, g.tris, g.tris_cap * sizeof *g.tris);
        g.tris = plan->new_tris;
        g.tris_cap = plan->entries;
    }
    plan->new_start = plan->new_tris = NULL;
    /* count, then place: triangles in increasing order within a cell */
    for (size_t c = 0; c <= cells; ++c) {
        g.start[c] = 0u;
    }
    bin(m, a, b, &g, false);
    for (size_t c = 0; c < cells; ++c) {
        g.start[c + 1u] += g.start[c];
    }
    bin(m, a, b, &g, true);
    /* each start was advanced past its cell: shift back */
    for (size_t c = cells; c > 0u; --c) {
        g.start[c] = g.start[c - 1u];
    }
    g.start[0] = 0u;
    m->grid = g;
}

bool cloth_mesh_grid_build(const cloth_allocator *alloc, cloth_collider_mesh *m, const float *a, const float *b,
                           float reach)
{
    cloth_mesh_grid_plan plan;
    if (!cloth_mesh_grid_plan_for(alloc, m, a, b, reach, &plan)) {
        return false;
    }
    cloth_mesh_grid_apply(alloc, m, a, b, &plan);
    return true;
}

void cloth_mesh_grid_free(const cloth_allocator *alloc, cloth_mesh_grid *g)
{
    cloth_mem_free(alloc, g->start, g->start_cap * sizeof *g->start);
    cloth_mem_free(alloc, g->tris, g->tris_cap * sizeof *g->tris);
    g->start = g->tris = NULL;
    g->start_cap = g->tris_cap = 0u;
}

bool cloth_mesh_grid_cells(const cloth_mesh_grid *g, const float p[3], float r, uint32_t lo[3], uint32_t hi[3])
{
    const float r_box = r <= g->reach ? 0.0f : r; /* within the built reach: the point's own cell holds all */
    const float box[6] = {p[0] - r_box, p[1] - r_box, p[2] - r_box, p[0] + r_box, p[1] + r_box, p[2] + r_box};
    return g->start != NULL && cell_range(g, box, lo, hi);
}
