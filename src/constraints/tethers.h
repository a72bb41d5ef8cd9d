/*
 * The tether pass's parts, shared by the files it is written in:
 * tethers.c (the API, the table of nearest pins, the substep pass),
 * tether_exact.c (the projection in double), tether_batch.c (the float
 * batches for one or two tethers) and tether_grid.c (the grid's path, which
 * keeps no table). Every path hands a particle's pins to the projection in
 * increasing index order with the same rest distances, so all of them give
 * the same bits.
 */
#ifndef CLOTHSIM_TETHERS_H
#define CLOTHSIM_TETHERS_H

#include "cloth_internal.h"
#include "platform/target.h"

#define K CLOTH_TETHERS_PER_PARTICLE
#define NO_PIN 0xffffffffu

/* The header lives while tethers are on; the table only where the grid rule
 * does not serve. A grid's table is made (or dropped) when the pins cross
 * K at the next step; if it cannot be allocated then, the step picks each
 * particle's nearest pins itself (scan_range, tethers.c): slower, same
 * result, and the step does not fail for want of memory it did not ask for. */
struct cloth_tethers {
    float scale;
    uint32_t *pin;      /* K per particle: particle index of a pin, NO_PIN after the last; NULL: no table */
    float *rest;        /* K per particle: rest distance to that pin, m */
    uint32_t *piece;    /* a mesh's: per particle, the lowest index of its connected piece; NULL on a grid */
    size_t table_bytes; /* of the block pin, rest and piece share */
};

/* Slack of "inside a ball", relative to its radius: a few float ulps of the
 * rest distances and pin positions the radii are computed from, so that a
 * point on two touching spheres counts as inside both. */
#define INSIDE_EPS 1e-6

/* --- Rest distances on a grid (tether_list.c) --------------------------
 *
 * Rest distance between grid particles dc columns and dr rows apart. A
 * grid particle (r, c) rests at s (c u + r v) with unit axes u, v, so
 * |d|^2 = s^2 (dc^2 + dr^2) + 2 s^2 dc dr (u . v); the structural and
 * diagonal rest lengths give s^2 and 2 s^2 (u . v) = |s (u + v)|^2 - 2 s^2
 * without keeping the axes (cloth_tether_grid_terms). Double, so that a
 * large grid's far corners lose nothing to cancellation. Both the table and
 * the grid path take their distances from here, so they agree to the bit. */
void cloth_tether_grid_terms(const cloth_t *cloth, double *s2, double *cross);

/* d2 < 0 (rounding, nearly parallel axes) clamped to 0 without a
 * comparison, (d2 + |d2|) / 2 being d2 exactly otherwise, so that the grid
 * path's batches compute this in a loop that vectorises, with the bits the
 * table's rebuild gets. */
static CLOTH_INLINE_ALWAYS float grid_rest(double s2, double cross, double dc, double dr)
{
    const double d2 = s2 * (dc * dc + dr * dr) + cross * dc * dr;
    return (float)sqrt(0.5 * (d2 + fabs(d2)));
}

/* --- A particle's list of pins (tether_list.c) ----------------------- */

/* No pin: NO_PIN, rest distance 0, in all K slots. */
void cloth_tether_clear_list(uint32_t pin[K], float rest[K]);
/* Sort a list into the order the projection takes it: by particle index,
 * NO_PIN (the largest) after the last. */
void cloth_tether_order_by_index(uint32_t pin[K], float rest[K]);

/* --- The projection in double (tether_exact.c) ----------------------- */

/* Keep particle i within scale * rest[k] of each pin[k] (in index order,
 * NO_PIN after the last), and remove its outward velocity along every
 * tether it ends up taut on. */
void cloth_tether_constrain_exact(cloth_particles *pt, uint32_t i, const uint32_t *pin, const float *rest,
                                  float scale);

/* --- Float batches of one or two tethers (tether_batch.c) ------------ */

#define LANES 64u

/* A grid's pins, for the grid path (tether_grid.c) and its batches
 * (tether_batch.c, which fills their pins and rest distances from it). */
typedef struct grid_pins {
    uint32_t n;
    uint32_t index[K]; /* increasing: the order cloth_tether_constrain() takes them in */
    int32_t row[K], col[K];
    float x[K], y[K], z[K], vx[K], vy[K], vz[K];
    double s2, cross; /* cloth_tether_grid_terms */
    double a, b;      /* scale^2 (1 - m) times s2 and cross */
    bool exact_only;  /* the float test is not proven for this grid: flag every free particle */
} grid_pins;


/* Up to LANES particles on the same number of tethers, structure of arrays. */
typedef struct lanes {
    uint32_t n;    /* lanes in use */
    uint32_t pins; /* tethers per lane, 1 or 2 */
    float scale;
    cloth_simd simd;
    const struct grid_pins *grid; /* the grid path: pins and rest distances filled at the flush */
    double row[LANES], col[LANES]; /* the grid path: the particles' */
    uint32_t index[LANES];
    uint32_t pin[2][LANES];
    float rest[2][LANES];
    float x[LANES], y[LANES], z[LANES], vx[LANES], vy[LANES], vz[LANES];
    float px[2][LANES], py[2][LANES], pz[2][LANES], pvx[2][LANES], pvy[2][LANES], pvz[2][LANES], r[2][LANES];
    int32_t exact[LANES]; /* not char: a loop storing chars would take 16 lanes at a time, in too few registers */
    /* The grid path (tether_grid.c, kernels/tether_pack.inl): the groups
     * of a vector's width the lanes came from, each its first particle and
     * the bits of those it gave, in lane order. */
    uint32_t groups;
    uint32_t group_at[LANES];
    uint16_t group_mask[LANES];
} lanes;

/* An empty batch of particles on `pins` tethers; grid: the grid path's
 * pins (cloth_tether_grid_fill() fills the lanes' at the flush), or NULL. */
void cloth_tether_lanes_init(lanes *b, uint32_t pins, const cloth_t *cloth, const struct grid_pins *grid);
/* Particle i's state into the batch's next lane; returns the lane. */
uint32_t cloth_tether_lanes_load(lanes *b, const cloth_particles *pt, uint32_t i);
/* The grid path's pins and rest distances, then the float solve, of the
 * batch's lanes at its vector level; nothing is written back. */
void cloth_tether_fill_and_solve(lanes *b);
/* Lane j's particle, which the float batch left to the exact path. */
void cloth_tether_exact_lane(const lanes *b, cloth_particles *pt, uint32_t j);
/* Solve the batch, write its particles back, and empty it. */
void cloth_tether_lanes_flush(lanes *b, cloth_particles *pt);
/* Particle i with its pins in index order (NO_PIN after the last): into
 * batch `one` or `two` if it has one or two and is outside one of them,
 * else (three or four) the exact path. */
void cloth_tether_constrain(cloth_particles *pt, lanes *one, lanes *two, uint32_t i, const uint32_t *pin,
                            const float *rest, float scale);

/* The pins, rest distances and radii of a grid path batch's lanes
 * (tether_batch.c, from its grid_pins). */
void cloth_tether_grid_fill(lanes *b);

/* --- The grid path (tether_grid.c) ----------------------------------- */

/* The substep pass over particles [begin, end) of a grid with at most K
 * pins and no table. */
void cloth_tether_grid_range(cloth_t *cloth, const struct cloth_tethers *t, uint32_t begin, uint32_t end);

#endif
