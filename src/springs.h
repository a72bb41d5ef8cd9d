/*
 * The grid stencil and the spring forces (springs.c): the families, their
 * rows, rest lengths and the border springs' halving.
 */
#ifndef CLOTHSIM_SRC_SPRINGS_H
#define CLOTHSIM_SRC_SPRINGS_H

#include "cloth_internal.h"

/* springs.c: the grid stencil. A family joins (r, c) to (r + dr, c + dc). */
typedef struct cloth_grid_family {
    int32_t dr, dc;
    cloth_spring_type type;
    bool wide; /* only with 24 neighbours */
} cloth_grid_family;
extern const cloth_grid_family cloth_grid_families[CLOTH_GRID_FAMILIES];
/* Rest lengths from the grid's axes (which need not be orthogonal). */
void cloth_springs_rest(cloth_t *cloth, const float u[3], const float v[3], float spacing);
/* Add the spring forces (with spring damping) to f. */
void cloth_springs_accumulate(cloth_t *cloth);

/* springs.c: a grid's run [begin, end) of family f in row r cut where the
 * border structural springs count half (cloth->edge_halving): up to three
 * pieces, each with its stiffness factor (1 or 0.5). */
typedef struct cloth_subrun {
    uint32_t begin, end;
    float scale;
} cloth_subrun;
uint32_t cloth_family_edges_split(const cloth_t *cloth, uint32_t f, uint32_t r, uint32_t begin, uint32_t end,
                                  cloth_subrun out[3]);
/* Inline so that the common case, no halving, costs the solvers' row loops no call. */
static inline uint32_t cloth_family_edges(const cloth_t *cloth, uint32_t f, uint32_t r, uint32_t begin,
                                          uint32_t end, cloth_subrun out[3])
{
    if (!cloth->edge_halving || cloth_grid_families[f].type != CLOTH_SPRING_STRUCTURAL || begin >= end) {
        out[0] = (cloth_subrun){begin, end, 1.0f};
        return 1u;
    }
    return cloth_family_edges_split(cloth, f, r, begin, end, out);
}
/* Whether family f is in use in this grid cloth. */
bool cloth_family_active(const cloth_t *cloth, uint32_t f);
/* Range of particles i joined to i + di by family f in row r: [*begin, *end). */
bool cloth_family_row(const cloth_t *cloth, uint32_t f, uint32_t r, uint32_t *begin, uint32_t *end,
                      uint32_t *di);
/* The particles of row r on springs of family f, for passes that gather per
 * particle: [end_begin, end_end) are the second ends of the springs that end
 * in row r (each p on (p - di, p)), [start_begin, start_end) the first ends
 * of those that start in it (each p on (p, p + di)); an empty range has
 * begin == end. A scatter over the springs in table order reaches a particle
 * through the first kind before the second. */
typedef struct cloth_row_runs {
    uint32_t end_begin, end_end, start_begin, start_end, di;
} cloth_row_runs;
void cloth_family_row_runs(const cloth_t *cloth, uint32_t f, uint32_t r, cloth_row_runs *out);

#endif /* CLOTHSIM_SRC_SPRINGS_H */
