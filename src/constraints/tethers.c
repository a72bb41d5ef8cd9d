/*
 * Long-range attachments (Kim, Chentanez, Mueller-Fischer 2012): every free
 * particle is kept within `scale` times its rest distance of its nearest
 * pins. Runs after the integrator in every substep (step.c), so it works with
 * any integrator.
 *
 * Which pins, and their rest distances, come from one of two sources:
 *
 * - A grid with at most CLOTH_TETHERS_PER_PARTICLE pins: every free particle
 *   is tethered to all of them, and a rest distance is a function of the two
 *   particles' rows and columns (rest_distance), so nothing per particle is
 *   stored. This is the common case (a cloth held at a few points) and it
 *   costs no memory and no table traffic in the substep loop.
 * - Otherwise (a mesh, or a grid with more pins) a table of each particle's
 *   nearest CLOTH_TETHERS_PER_PARTICLE pins and rest distances, 32 bytes per
 *   particle, which goes stale when a pin is added or released (pins.c sets
 *   tethers_dirty) and is rebuilt at the next step, never inside cloth_pin(),
 *   so pinning many particles in a row costs one rebuild.
 *
 * Both give the same bits: every path hands a particle's pins to the
 * projection in increasing index order (the table is stored so, the grid's
 * pins are sorted once per range) with the same rest distances, and the grid
 * path only skips, by a conservative float test, particles that the
 * projection would leave untouched. The projection itself is a float batch
 * for particles on one or two tethers (the usual case: a cloth hung from a
 * point or two) and double, one particle at a time, for three or four.
 *
 * Rest distances come from the creation shape: a grid's is implied by its
 * spacing and the angle between its axes; a mesh's positions are copied at
 * creation (cloth_tethers_capture_rest), since nothing else keeps them.
 */
#include "cloth_internal.h"
#include "platform/lanes.h"
#include "platform/target.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

/* The batch loops below are plain C that the compiler vectorises, built
 * again for AVX2 and AVX-512 (platform/target.h) and picked at run time;
 * every build gives the same bits. */
#define K CLOTH_TETHERS_PER_PARTICLE
#define NO_PIN 0xffffffffu

/* The header lives while tethers are on; the table only where the grid rule
 * does not serve. A grid's table is made (or dropped) when the pins cross
 * K at the next step; if it cannot be allocated then, the step picks each
 * particle's nearest pins itself (scan_range): slower, same result, and the
 * step does not fail for want of memory it did not ask for. */
struct cloth_tethers {
    float scale;
    uint32_t *pin;      /* K per particle: particle index of a pin, NO_PIN after the last; NULL: no table */
    float *rest;        /* K per particle: rest distance to that pin, m */
    size_t table_bytes; /* of the block pin and rest share */
};

cloth_status cloth_tethers_capture_rest(cloth_t *cloth)
{
    if (cloth->tris == NULL) {
        return CLOTH_OK; /* a grid's rest shape is implied by the grid */
    }
    float *rest = cloth_mem_alloc(&cloth->alloc, 3u * (size_t)cloth->count * sizeof(float));
    if (rest == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    const size_t bytes = (size_t)cloth->count * sizeof(float);
    memcpy(rest, cloth->p.x, bytes);
    memcpy(rest + cloth->count, cloth->p.y, bytes);
    memcpy(rest + 2u * (size_t)cloth->count, cloth->p.z, bytes);
    cloth->rest_shape = rest;
    return CLOTH_OK;
}

static bool needs_table(const cloth_t *cloth)
{
    return cloth->tris != NULL || cloth->pin_count > (uint32_t)K;
}

static void free_table(cloth_t *cloth, struct cloth_tethers *t)
{
    cloth_mem_free(&cloth->alloc, t->pin, t->table_bytes);
    t->pin = NULL;
    t->rest = NULL;
    t->table_bytes = 0u;
}

static cloth_status alloc_table(cloth_t *cloth, struct cloth_tethers *t)
{
    const size_t slots = (size_t)K * cloth->count;
    const size_t bytes = slots * (sizeof(uint32_t) + sizeof(float));
    unsigned char *mem = cloth_mem_alloc(&cloth->alloc, bytes);
    if (mem == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    t->pin = (uint32_t *)(void *)mem;
    t->rest = (float *)(void *)(mem + slots * sizeof(uint32_t));
    t->table_bytes = bytes;
    return CLOTH_OK;
}

static void free_tethers(cloth_t *cloth)
{
    if (cloth->tethers != NULL) {
        free_table(cloth, cloth->tethers);
        cloth_mem_free(&cloth->alloc, cloth->tethers, sizeof *cloth->tethers);
        cloth->tethers = NULL;
    }
}

void cloth_tethers_free(cloth_t *cloth)
{
    free_tethers(cloth);
    cloth_mem_free(&cloth->alloc, cloth->rest_shape, 3u * (size_t)cloth->count * sizeof(float));
    cloth->rest_shape = NULL;
}

cloth_status cloth_set_tethers(cloth_t *cloth, float scale)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !(scale == 0.0f || (scale >= 1.0f && scale <= 10.0f))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (scale == 0.0f) {
        free_tethers(cloth);
        return CLOTH_OK;
    }
    struct cloth_tethers *t = cloth->tethers;
    const bool fresh = t == NULL;
    if (fresh) {
        t = cloth_mem_alloc(&cloth->alloc, sizeof *t);
        if (t == NULL) {
            return CLOTH_ERR_OUT_OF_MEMORY;
        }
        memset(t, 0, sizeof *t);
    }
    /* A table needed now is allocated now, so that running out of memory is
     * reported here rather than absorbed by a slower step. */
    const bool table = t->pin == NULL && needs_table(cloth);
    if (table && alloc_table(cloth, t) != CLOTH_OK) {
        if (fresh) {
            cloth_mem_free(&cloth->alloc, t, sizeof *t);
        }
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    cloth->tethers = t;
    if (fresh || table) {
        cloth->tethers_dirty = true; /* a new table is filled at the next step */
    }
    t->scale = scale;
    return CLOTH_OK;
}

cloth_status cloth_get_tethers(const cloth_t *cloth, float *scale)
{
    if (cloth == NULL || scale == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *scale = cloth->tethers != NULL ? cloth->tethers->scale : 0.0f;
    return CLOTH_OK;
}

cloth_status cloth_set_tether_schedule(cloth_t *cloth, cloth_tether_schedule schedule)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || (schedule != CLOTH_TETHERS_EVERY_SUBSTEP && schedule != CLOTH_TETHERS_LAST_SUBSTEP)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->tether_schedule = schedule;
    return CLOTH_OK;
}

cloth_status cloth_get_tether_schedule(const cloth_t *cloth, cloth_tether_schedule *schedule)
{
    if (cloth == NULL || schedule == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *schedule = cloth->tether_schedule;
    return CLOTH_OK;
}

/* Rest distance between grid particles dc columns and dr rows apart. A
 * grid particle (r, c) rests at s (c u + r v) with unit axes u, v, so
 * |d|^2 = s^2 (dc^2 + dr^2) + 2 s^2 dc dr (u . v); the structural and
 * diagonal rest lengths give s^2 and 2 s^2 (u . v) = |s (u + v)|^2 - 2 s^2
 * without keeping the axes (grid_terms). Double, so that a large grid's far
 * corners lose nothing to cancellation. Both the table and the grid path
 * take their distances from here, so they agree to the bit. */
static void grid_terms(const cloth_t *cloth, double *s2, double *cross)
{
    const double s = (double)cloth->family_rest[0], diag = (double)cloth->family_rest[2];
    *s2 = s * s;
    *cross = diag * diag - 2.0 * *s2;
}

/* d2 < 0 (rounding, nearly parallel axes) clamped to 0 without a
 * comparison, (d2 + |d2|) / 2 being d2 exactly otherwise, so that the grid
 * path's batches compute this in a loop that vectorises, with the bits the
 * table's rebuild gets. */
static CLOTH_INLINE_ALWAYS float grid_rest(double s2, double cross, double dc, double dr)
{
    const double d2 = s2 * (dc * dc + dr * dr) + cross * dc * dr;
    return (float)sqrt(0.5 * (d2 + fabs(d2)));
}

static float grid_rest_distance(const cloth_t *cloth, uint32_t a, uint32_t b)
{
    double s2, cross;
    grid_terms(cloth, &s2, &cross);
    const double dc = (double)(a % cloth->cols) - (double)(b % cloth->cols);
    const double dr = (double)(a / cloth->cols) - (double)(b / cloth->cols);
    return grid_rest(s2, cross, dc, dr);
}

static float rest_distance(const cloth_t *cloth, uint32_t a, uint32_t b)
{
    if (cloth->tris != NULL) {
        const float *x = cloth->rest_shape, *y = x + cloth->count, *z = y + cloth->count;
        double dx = (double)x[a] - (double)x[b], dy = (double)y[a] - (double)y[b], dz = (double)z[a] - (double)z[b];
        return (float)sqrt(dx * dx + dy * dy + dz * dz);
    }
    return grid_rest_distance(cloth, a, b);
}

/* Insert pin p at rest distance d into a particle's list of the K nearest,
 * kept in increasing order (ties: lower particle index first, so the list
 * does not depend on the order pins were made in). */
static void insert_pin(uint32_t pin[K], float rest[K], uint32_t p, float d)
{
    int at = K;
    while (at > 0 && (pin[at - 1] == NO_PIN || d < rest[at - 1] || (d == rest[at - 1] && p < pin[at - 1]))) {
        --at;
    }
    if (at == K) {
        return;
    }
    for (int m = K - 1; m > at; --m) {
        pin[m] = pin[m - 1];
        rest[m] = rest[m - 1];
    }
    pin[at] = p;
    rest[at] = d;
}

static void clear_list(uint32_t pin[K], float rest[K])
{
    for (int k = 0; k < K; ++k) {
        pin[k] = NO_PIN;
        rest[k] = 0.0f;
    }
}

/* A particle's pins in the order constrain() takes them: by particle index,
 * NO_PIN (the largest) after the last. The projection's last bits can depend
 * on the order of the balls, so every path hands them over in one order, and
 * this one the grid path knows without sorting anything per particle. */
static void order_by_index(uint32_t pin[K], float rest[K])
{
    for (int a = 1; a < K; ++a) {
        const uint32_t p = pin[a];
        const float d = rest[a];
        int b = a;
        for (; b > 0 && pin[b - 1] > p; --b) {
            pin[b] = pin[b - 1];
            rest[b] = rest[b - 1];
        }
        pin[b] = p;
        rest[b] = d;
    }
}

/* Particle i's K nearest pins among all of them, in index order. */
static void nearest_pins(const cloth_t *cloth, uint32_t i, uint32_t pin[K], float rest[K])
{
    clear_list(pin, rest);
    for (uint32_t q = 0; q < cloth->pin_count; ++q) {
        const uint32_t p = cloth->pins[q].index;
        insert_pin(pin, rest, p, rest_distance(cloth, i, p));
    }
    order_by_index(pin, rest);
}

/* The table: every free particle's K nearest pins. */
static void rebuild(cloth_t *cloth, struct cloth_tethers *t)
{
    for (uint32_t i = 0; i < cloth->count; ++i) {
        uint32_t *pin = &t->pin[(size_t)K * i];
        float *rest = &t->rest[(size_t)K * i];
        if (cloth->p.w[i] == 0.0f) {
            clear_list(pin, rest); /* pinned, or of infinite mass: nothing moves it */
        } else {
            nearest_pins(cloth, i, pin, rest);
        }
    }
}

/* The allowed region of a particle: the intersection of up to K balls
 * (centre: a pin, radius: scale times the rest distance). */
typedef struct region {
    double c[K][3];
    double r[K];
    int n;
} region;

/* Slack of "inside a ball", relative to its radius: a few float ulps of the
 * rest distances and pin positions the radii are computed from, so that a
 * point on two touching spheres counts as inside both. */
#define INSIDE_EPS 1e-6

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static bool inside_all(const region *g, const double x[3])
{
    for (int k = 0; k < g->n; ++k) {
        const double d[3] = {x[0] - g->c[k][0], x[1] - g->c[k][1], x[2] - g->c[k][2]};
        const double lim = g->r[k] * (1.0 + INSIDE_EPS);
        if (dot3(d, d) > lim * lim) {
            return false;
        }
    }
    return true;
}

/* Nearest point of sphere k to y (y outside it, so y != c). */
static void sphere_point(const region *g, int k, const double y[3], double out[3])
{
    const double d[3] = {y[0] - g->c[k][0], y[1] - g->c[k][1], y[2] - g->c[k][2]};
    const double f = g->r[k] / sqrt(dot3(d, d));
    for (int m = 0; m < 3; ++m) {
        out[m] = g->c[k][m] + d[m] * f;
    }
}

/* A unit vector perpendicular to unit u, fixed by u alone. */
static void perpendicular(const double u[3], double out[3])
{
    const int a = fabs(u[0]) <= fabs(u[1]) && fabs(u[0]) <= fabs(u[2]) ? 0 : (fabs(u[1]) <= fabs(u[2]) ? 1 : 2);
    double e[3] = {0.0, 0.0, 0.0};
    e[a] = 1.0;
    const double t = dot3(e, u);
    for (int m = 0; m < 3; ++m) {
        out[m] = e[m] - t * u[m];
    }
    const double l = sqrt(dot3(out, out));
    for (int m = 0; m < 3; ++m) {
        out[m] /= l;
    }
}

/* Nearest point to y on the circle where spheres a and b meet; false if
 * they do not (touching within INSIDE_EPS counts as meeting). */
static bool circle_point(const region *g, int a, int b, const double y[3], double out[3])
{
    double u[3] = {g->c[b][0] - g->c[a][0], g->c[b][1] - g->c[a][1], g->c[b][2] - g->c[a][2]};
    const double dist = sqrt(dot3(u, u)), ra = g->r[a], rb = g->r[b];
    if (!(dist > 0.0)) {
        return false; /* concentric: the smaller ball alone decides */
    }
    for (int m = 0; m < 3; ++m) {
        u[m] /= dist;
    }
    const double t = (dist * dist + ra * ra - rb * rb) / (2.0 * dist);
    double rho2 = ra * ra - t * t;
    if (rho2 < 0.0) {
        if (rho2 < -2.0 * INSIDE_EPS * (ra > rb ? ra * ra : rb * rb)) {
            return false;
        }
        rho2 = 0.0;
    }
    double q[3] = {y[0] - g->c[a][0] - t * u[0], y[1] - g->c[a][1] - t * u[1], y[2] - g->c[a][2] - t * u[2]};
    const double along = dot3(q, u);
    for (int m = 0; m < 3; ++m) {
        q[m] -= along * u[m];
    }
    double ql = sqrt(dot3(q, q));
    if (!(ql > 0.0)) {
        perpendicular(u, q); /* y on the axis: every point of the circle is as near */
        ql = 1.0;
    }
    const double rho = sqrt(rho2);
    for (int m = 0; m < 3; ++m) {
        out[m] = g->c[a][m] + t * u[m] + rho * q[m] / ql;
    }
    return true;
}

/* The (up to two) points where spheres a, b, c meet (trilateration). */
static int triple_points(const region *g, int a, int b, int c, double out[2][3])
{
    double ex[3], ey[3], ez[3], w[3];
    for (int m = 0; m < 3; ++m) {
        ex[m] = g->c[b][m] - g->c[a][m];
        w[m] = g->c[c][m] - g->c[a][m];
    }
    const double d = sqrt(dot3(ex, ex));
    if (!(d > 0.0)) {
        return 0;
    }
    for (int m = 0; m < 3; ++m) {
        ex[m] /= d;
    }
    const double i = dot3(ex, w);
    for (int m = 0; m < 3; ++m) {
        ey[m] = w[m] - i * ex[m];
    }
    const double j = sqrt(dot3(ey, ey));
    if (!(j > 1e-9 * d)) {
        return 0; /* centres on a line: the pair circles cover it */
    }
    for (int m = 0; m < 3; ++m) {
        ey[m] /= j;
    }
    ez[0] = ex[1] * ey[2] - ex[2] * ey[1];
    ez[1] = ex[2] * ey[0] - ex[0] * ey[2];
    ez[2] = ex[0] * ey[1] - ex[1] * ey[0];
    const double ra = g->r[a], rb = g->r[b], rc = g->r[c];
    const double px = (ra * ra - rb * rb + d * d) / (2.0 * d);
    const double py = (ra * ra - rc * rc + i * i + j * j - 2.0 * i * px) / (2.0 * j);
    double z2 = ra * ra - px * px - py * py;
    if (z2 < 0.0) {
        if (z2 < -2.0 * INSIDE_EPS * ra * ra) {
            return 0;
        }
        z2 = 0.0;
    }
    const double pz = sqrt(z2);
    for (int m = 0; m < 3; ++m) {
        out[0][m] = g->c[a][m] + px * ex[m] + py * ey[m] + pz * ez[m];
        out[1][m] = g->c[a][m] + px * ex[m] + py * ey[m] - pz * ez[m];
    }
    return 2;
}

static void consider(const region *g, const double y[3], const double x[3], double best[3], double *best_d2)
{
    const double d[3] = {x[0] - y[0], x[1] - y[1], x[2] - y[2]};
    const double d2 = dot3(d, d);
    if (d2 < *best_d2 && inside_all(g, x)) {
        *best_d2 = d2;
        best[0] = x[0];
        best[1] = x[1];
        best[2] = x[2];
    }
}

/* The point of the region nearest to y, exactly. The nearest point has a
 * set of balls on whose spheres it lies: one (it is that sphere's nearest
 * point to y), two (the nearest point of their circle) or three (one of
 * their two common points); four spheres through one point is not generic.
 * Every candidate of these kinds that lies in the region is tried and the
 * nearest kept; a projection onto fewer balls that lands inside the others
 * is the answer outright, which settles the usual case after one try.
 * False if no candidate lies in the region (it is empty). */
static bool nearest_in_region(const region *g, const double y[3], double out[3])
{
    double best_d2 = HUGE_VAL, x[3], pts[2][3];
    for (int a = 0; a < g->n; ++a) {
        const double d[3] = {y[0] - g->c[a][0], y[1] - g->c[a][1], y[2] - g->c[a][2]};
        if (dot3(d, d) > g->r[a] * g->r[a]) {
            sphere_point(g, a, y, x);
            if (inside_all(g, x)) {
                out[0] = x[0];
                out[1] = x[1];
                out[2] = x[2];
                return true;
            }
        }
    }
    for (int a = 0; a < g->n; ++a) {
        for (int b = a + 1; b < g->n; ++b) {
            if (circle_point(g, a, b, y, x)) {
                consider(g, y, x, out, &best_d2);
            }
            for (int c = b + 1; c < g->n; ++c) {
                for (int p = triple_points(g, a, b, c, pts) - 1; p >= 0; --p) {
                    consider(g, y, pts[p], out, &best_d2);
                }
            }
        }
    }
    return best_d2 < HUGE_VAL;
}

/* Empty region (pins pulled apart beyond their tethers): project onto each
 * ball in turn, a few rounds; the last ball wins. */
static void alternate(const region *g, const double y[3], double out[3])
{
    double x[3] = {y[0], y[1], y[2]};
    for (int round = 0; round < 4; ++round) {
        for (int k = 0; k < g->n; ++k) {
            const double d[3] = {x[0] - g->c[k][0], x[1] - g->c[k][1], x[2] - g->c[k][2]};
            if (dot3(d, d) > g->r[k] * g->r[k]) {
                sphere_point(g, k, x, x);
            }
        }
    }
    out[0] = x[0];
    out[1] = x[1];
    out[2] = x[2];
}

/* Keep particle i in its region; remove its outward velocity, relative to
 * the pin, along every tether it ends up taut on. Double throughout: the
 * path of three or four tethers, and of what the float path below leaves
 * (concentric pins, a particle on their axis, balls that do not meet). */
static void constrain_exact(cloth_particles *pt, uint32_t i, const uint32_t *pin, const float *rest, float scale)
{
    region g;
    const double y[3] = {(double)pt->x[i], (double)pt->y[i], (double)pt->z[i]};
    bool outside = false;
    g.n = 0;
    for (int k = 0; k < K && pin[k] != NO_PIN; ++k) {
        const uint32_t p = pin[k];
        g.c[k][0] = (double)pt->x[p];
        g.c[k][1] = (double)pt->y[p];
        g.c[k][2] = (double)pt->z[p];
        g.r[k] = (double)(scale * rest[k]);
        const double d[3] = {y[0] - g.c[k][0], y[1] - g.c[k][1], y[2] - g.c[k][2]};
        outside = outside || dot3(d, d) > g.r[k] * g.r[k];
        g.n = k + 1;
    }
    if (!outside) {
        return;
    }
    double x[3] = {y[0], y[1], y[2]};
    if (!nearest_in_region(&g, y, x)) {
        alternate(&g, y, x);
    }
    pt->x[i] = (float)x[0];
    pt->y[i] = (float)x[1];
    pt->z[i] = (float)x[2];
    /* The unit directions of the tethers the particle is now taut on, and
     * the pins' velocities. */
    double n[K][3], vp[K][3];
    int m = 0;
    for (int k = 0; k < g.n; ++k) {
        const double d[3] = {x[0] - g.c[k][0], x[1] - g.c[k][1], x[2] - g.c[k][2]};
        const double l2 = dot3(d, d), lim = g.r[k] * (1.0 - INSIDE_EPS);
        if (l2 >= lim * lim && l2 > 0.0) {
            const double inv = 1.0 / sqrt(l2);
            const uint32_t p = pin[k];
            n[m][0] = d[0] * inv;
            n[m][1] = d[1] * inv;
            n[m][2] = d[2] * inv;
            vp[m][0] = (double)pt->vx[p];
            vp[m][1] = (double)pt->vy[p];
            vp[m][2] = (double)pt->vz[p];
            ++m;
        }
    }
    /* A second round when taut on several: removing the outward part along
     * one tether can leave an outward part along another that is not
     * perpendicular to it. */
    double v[3] = {(double)pt->vx[i], (double)pt->vy[i], (double)pt->vz[i]};
    for (int round = 0; round < (m > 1 ? 2 : 1); ++round) {
        for (int k = 0; k < m; ++k) {
            const double rv[3] = {v[0] - vp[k][0], v[1] - vp[k][1], v[2] - vp[k][2]};
            const double out = dot3(rv, n[k]);
            if (out > 0.0) {
                v[0] -= out * n[k][0];
                v[1] -= out * n[k][1];
                v[2] -= out * n[k][2];
            }
        }
    }
    pt->vx[i] = (float)v[0];
    pt->vy[i] = (float)v[1];
    pt->vz[i] = (float)v[2];
}


/* --- One or two tethers: float, in batches ----------------------------
 *
 * A cloth held at one or two points (the usual case) has every particle on
 * one or two tethers, and one that is outside ends up on a sphere or on the
 * circle where two meet: closed forms. The particles found outside are
 * gathered into batches of LANES, structure of arrays, and each batch runs
 * a branch-free loop that computes every candidate (sphere 0, sphere 1,
 * their circle, in nearest_in_region's order) and selects, so that it
 * vectorises. Float: a position is a float in the end, and the candidates'
 * roundings (a few ulps of the coordinates) stay inside INSIDE_EPS unless a
 * radius is tiny next to the coordinates. A lane whose answer is none of
 * these (pins that coincide, a particle on their axis, balls that do not
 * meet, a circle point that misses the balls by more than the slack, as
 * such a tiny radius can make it) is marked and goes to constrain_exact().
 *
 * A lane's result depends on its own inputs alone, computed by the same
 * IEEE operations whichever lane of whichever batch it sits in (the
 * library is built without contraction into FMA, and sqrtf and division
 * are correctly rounded), so the table, grid and scan paths, which all feed
 * particles with their pins in index order, agree to the bit. */
#define LANES 64u

/* Slack of "inside a ball" and of "taut", as in INSIDE_EPS. */
#define HI_F ((float)(1.0 + INSIDE_EPS))
#define LO_F ((float)(1.0 - INSIDE_EPS))

struct grid_pins;

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
    /* The vector grid path (grid_gather_avx512(), _avx2()): the groups of
     * 16 (8) particles the lanes came from, each its first particle and
     * the mask of those it gave, in lane order. */
    uint32_t groups;
    uint32_t group_at[LANES];
    uint16_t group_mask[LANES];
} lanes;

/* Outside the ball (p, r) in float: the batch's own test, and the table
 * path's test for entering a batch. */
static CLOTH_INLINE_ALWAYS bool outside_f(float px, float py, float pz, float x, float y, float z, float r)
{
    const float dx = x - px, dy = y - py, dz = z - pz;
    return dx * dx + dy * dy + dz * dz > r * r;
}

/* Lane masks: all ones or zero. A float comparison as a condition keeps
 * GCC from vectorising the loop (it will not if-convert a comparison that
 * may trap), an integer mask and a bitwise select do not. */
typedef int32_t mask;

static CLOTH_INLINE_ALWAYS mask gt(float a, float b)
{
    return -(mask)(a > b);
}

static CLOTH_INLINE_ALWAYS mask le(float a, float b)
{
    return -(mask)(a <= b);
}

static CLOTH_INLINE_ALWAYS float sel(mask m, float a, float b)
{
    int32_t ia, ib;
    memcpy(&ia, &a, sizeof ia);
    memcpy(&ib, &b, sizeof ib);
    ia = (ia & m) | (ib & ~m);
    float out;
    memcpy(&out, &ia, sizeof out);
    return out;
}

/* The velocity update of one tether: v loses its outward part along unit n,
 * relative to the pin's velocity vp, when taut. */
static CLOTH_INLINE_ALWAYS void unstretch(mask taut, const float n[3], const float vp[3], float v[3])
{
    const float out = (v[0] - vp[0]) * n[0] + (v[1] - vp[1]) * n[1] + (v[2] - vp[2]) * n[2];
    const mask cut = taut & gt(out, 0.0f);
    for (int m = 0; m < 3; ++m) {
        v[m] = sel(cut, v[m] - out * n[m], v[m]);
    }
}

static CLOTH_INLINE_ALWAYS void solve_one_body(lanes *b)
{
    const uint32_t count = b->n;
    for (uint32_t j = 0; j < count; ++j) {
        const float px = b->px[0][j], py = b->py[0][j], pz = b->pz[0][j], r = b->r[0][j];
        const float dx = b->x[j] - px, dy = b->y[j] - py, dz = b->z[j] - pz;
        const float l2 = dx * dx + dy * dy + dz * dz;
        const mask active = gt(l2, r * r);
        const float inv = 1.0f / sqrtf(sel(active, l2, 1.0f));
        const float f = r * inv;
        const float n[3] = {dx * inv, dy * inv, dz * inv}, vp[3] = {b->pvx[0][j], b->pvy[0][j], b->pvz[0][j]};
        float v[3] = {b->vx[j], b->vy[j], b->vz[j]};
        unstretch(gt(r, 0.0f), n, vp, v); /* r = 0 leaves it on the pin: no direction */
        b->x[j] = sel(active, px + dx * f, b->x[j]);
        b->y[j] = sel(active, py + dy * f, b->y[j]);
        b->z[j] = sel(active, pz + dz * f, b->z[j]);
        b->vx[j] = sel(active, v[0], b->vx[j]);
        b->vy[j] = sel(active, v[1], b->vy[j]);
        b->vz[j] = sel(active, v[2], b->vz[j]);
        b->exact[j] = 0;
    }
}

static CLOTH_INLINE_ALWAYS void solve_two_body(lanes *b)
{
    const uint32_t count = b->n;
    for (uint32_t j = 0; j < count; ++j) {
        const float ax = b->px[0][j], ay = b->py[0][j], az = b->pz[0][j], ra = b->r[0][j];
        const float bx = b->px[1][j], by = b->py[1][j], bz = b->pz[1][j], rb = b->r[1][j];
        const float yx = b->x[j], yy = b->y[j], yz = b->z[j];
        const float lima = ra * HI_F, limb = rb * HI_F;
        const float dax = yx - ax, day = yy - ay, daz = yz - az;
        const float dbx = yx - bx, dby = yy - by, dbz = yz - bz;
        const float la2 = dax * dax + day * day + daz * daz, lb2 = dbx * dbx + dby * dby + dbz * dbz;
        const mask oa = gt(la2, ra * ra), ob = gt(lb2, rb * rb);
        /* sphere a's nearest point, if it is in ball b */
        const float fa = ra / sqrtf(sel(oa, la2, 1.0f));
        const float sax = ax + dax * fa, say = ay + day * fa, saz = az + daz * fa;
        const float eax = sax - bx, eay = say - by, eaz = saz - bz;
        const mask va = oa & le(eax * eax + eay * eay + eaz * eaz, limb * limb);
        /* sphere b's, if in ball a */
        const float fb = rb / sqrtf(sel(ob, lb2, 1.0f));
        const float sbx = bx + dbx * fb, sby = by + dby * fb, sbz = bz + dbz * fb;
        const float ebx = sbx - ax, eby = sby - ay, ebz = sbz - az;
        const mask vb = ~va & ob & le(ebx * ebx + eby * eby + ebz * ebz, lima * lima);
        /* the circle: centre a + s w on the axis w = b - a, radius rho; the
         * point of it nearest y is along y's offset q from the axis */
        const float wx = bx - ax, wy = by - ay, wz = bz - az;
        const float w2 = wx * wx + wy * wy + wz * wz;
        const mask apart = gt(w2, 0.0f);
        const float iw2 = 1.0f / sel(apart, w2, 1.0f);
        const float s = (w2 + ra * ra - rb * rb) * (0.5f * iw2);
        const float rho2 = ra * ra - s * s * w2;
        const float big = sel(gt(ra, rb), ra * ra, rb * rb);
        const mask meet = le((float)(-2.0 * INSIDE_EPS) * big, rho2);
        const float along = (dax * wx + day * wy + daz * wz) * iw2;
        const float qx = dax - along * wx, qy = day - along * wy, qz = daz - along * wz;
        const float q2 = qx * qx + qy * qy + qz * qz;
        const mask off_axis = gt(q2, 0.0f);
        const float f = sqrtf(sel(gt(rho2, 0.0f), rho2, 0.0f) / sel(off_axis, q2, 1.0f));
        const float cx = ax + s * wx + qx * f, cy = ay + s * wy + qy * f, cz = az + s * wz + qz * f;
        const float cax = cx - ax, cay = cy - ay, caz = cz - az, cbx = cx - bx, cby = cy - by, cbz = cz - bz;
        const mask vc = apart & meet & off_axis & le(cax * cax + cay * cay + caz * caz, lima * lima) &
                        le(cbx * cbx + cby * cby + cbz * cbz, limb * limb);
        const mask active = oa | ob;
        b->exact[j] = active & ~va & ~vb & ~vc;
        const float x = sel(va, sax, sel(vb, sbx, cx)), y = sel(va, say, sel(vb, sby, cy));
        const float z = sel(va, saz, sel(vb, sbz, cz));
        /* the tethers it is now taut on */
        const float tax = x - ax, tay = y - ay, taz = z - az, tbx = x - bx, tby = y - by, tbz = z - bz;
        const float ta2 = tax * tax + tay * tay + taz * taz, tb2 = tbx * tbx + tby * tby + tbz * tbz;
        const float loa = ra * LO_F, lob = rb * LO_F;
        const mask taut_a = le(loa * loa, ta2) & gt(ta2, 0.0f), taut_b = le(lob * lob, tb2) & gt(tb2, 0.0f);
        const float ia = 1.0f / sqrtf(sel(taut_a, ta2, 1.0f)), ib = 1.0f / sqrtf(sel(taut_b, tb2, 1.0f));
        const float na[3] = {tax * ia, tay * ia, taz * ia}, nb[3] = {tbx * ib, tby * ib, tbz * ib};
        const float vpa[3] = {b->pvx[0][j], b->pvy[0][j], b->pvz[0][j]};
        const float vpb[3] = {b->pvx[1][j], b->pvy[1][j], b->pvz[1][j]};
        float v[3] = {b->vx[j], b->vy[j], b->vz[j]};
        /* A second round when taut on both: removing the outward part along
         * one tether can leave an outward part along the other that is not
         * perpendicular to it. */
        unstretch(taut_a, na, vpa, v);
        unstretch(taut_b, nb, vpb, v);
        unstretch(taut_a & taut_b, na, vpa, v);
        unstretch(taut_a & taut_b, nb, vpb, v);
        b->x[j] = sel(active, x, yx);
        b->y[j] = sel(active, y, yy);
        b->z[j] = sel(active, z, yz);
        b->vx[j] = sel(active, v[0], b->vx[j]);
        b->vy[j] = sel(active, v[1], b->vy[j]);
        b->vz[j] = sel(active, v[2], b->vz[j]);
    }
}

static void solve_plain(lanes *b)
{
    if (b->pins == 1u) {
        solve_one_body(b);
    } else {
        solve_two_body(b);
    }
}

#if CLOTH_TARGET_X86
CLOTH_TARGET_AVX2 static void solve_avx2(lanes *b)
{
    if (b->pins == 1u) {
        solve_one_body(b);
    } else {
        solve_two_body(b);
    }
}

CLOTH_TARGET_AVX512 static void solve_avx512(lanes *b)
{
    if (b->pins == 1u) {
        solve_one_body(b);
    } else {
        solve_two_body(b);
    }
}
#endif

static void lanes_init(lanes *b, uint32_t pins, const cloth_t *cloth, const struct grid_pins *grid)
{
    b->n = 0u;
    b->groups = 0u;
    b->pins = pins;
    b->scale = cloth->tethers->scale;
    b->simd = cloth->simd;
    b->grid = grid;
}

static void grid_fill(lanes *b);

/* Lane j's particle, which the float batch left to the exact path. */
static void exact_lane(const lanes *b, cloth_particles *pt, uint32_t j)
{
    uint32_t pin[K];
    float rest[K];
    clear_list(pin, rest);
    for (uint32_t k = 0; k < b->pins; ++k) {
        pin[k] = b->pin[k][j];
        rest[k] = b->rest[k][j];
    }
    constrain_exact(pt, b->index[j], pin, rest, b->scale);
}

/* The grid path's pins and rest distances, then the float solve, of the
 * batch's lanes at its vector level. */
static void fill_and_solve(lanes *b)
{
    if (b->grid != NULL) {
        grid_fill(b);
    }
#if CLOTH_TARGET_X86
    if (b->simd >= CLOTH_SIMD_AVX512) {
        solve_avx512(b);
    } else if (b->simd >= CLOTH_SIMD_AVX2) {
        solve_avx2(b);
    } else {
        solve_plain(b);
    }
#else
    solve_plain(b);
#endif
}

static void lanes_flush(lanes *b, cloth_particles *pt)
{
    fill_and_solve(b);
    for (uint32_t j = 0; j < b->n; ++j) {
        const uint32_t i = b->index[j];
        if (b->exact[j] != 0) {
            exact_lane(b, pt, j);
        } else {
            pt->x[i] = b->x[j];
            pt->y[i] = b->y[j];
            pt->z[i] = b->z[j];
            pt->vx[i] = b->vx[j];
            pt->vy[i] = b->vy[j];
            pt->vz[i] = b->vz[j];
        }
    }
    b->n = 0u;
}

/* Particle i's state into the batch's next lane; returns the lane. */
static uint32_t lanes_load(lanes *b, const cloth_particles *pt, uint32_t i)
{
    const uint32_t j = b->n;
    b->index[j] = i;
    b->x[j] = pt->x[i];
    b->y[j] = pt->y[i];
    b->z[j] = pt->z[i];
    b->vx[j] = pt->vx[i];
    b->vy[j] = pt->vy[i];
    b->vz[j] = pt->vz[i];
    return j;
}

/* Particle i, with b->pins pins in index order and their rest distances,
 * into the batch. */
static void lanes_push(lanes *b, cloth_particles *pt, uint32_t i, const uint32_t *pin, const float *rest)
{
    const uint32_t j = lanes_load(b, pt, i);
    for (uint32_t k = 0; k < b->pins; ++k) {
        const uint32_t p = pin[k];
        b->pin[k][j] = p;
        b->rest[k][j] = rest[k];
        b->r[k][j] = b->scale * rest[k];
        b->px[k][j] = pt->x[p];
        b->py[k][j] = pt->y[p];
        b->pz[k][j] = pt->z[p];
        b->pvx[k][j] = pt->vx[p];
        b->pvy[k][j] = pt->vy[p];
        b->pvz[k][j] = pt->vz[p];
    }
    b->n = j + 1u;
    if (b->n == LANES) {
        lanes_flush(b, pt);
    }
}

/* Particle i with its pins in index order (NO_PIN after the last): into a
 * batch if it has one or two and is outside one of them (the batch's own
 * test, so skipping the others changes nothing), else the exact path. */
static void constrain(cloth_particles *pt, lanes *one, lanes *two, uint32_t i, const uint32_t *pin, const float *rest,
                      float scale)
{
    const uint32_t n = pin[1] == NO_PIN ? 1u : (pin[2] == NO_PIN ? 2u : 3u);
    if (n > 2u) {
        constrain_exact(pt, i, pin, rest, scale);
        return;
    }
    bool out = false;
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t p = pin[k];
        out = out || outside_f(pt->x[p], pt->y[p], pt->z[p], pt->x[i], pt->y[i], pt->z[i], scale * rest[k]);
    }
    if (out) {
        lanes_push(n == 1u ? one : two, pt, i, pin, rest);
    }
}

/* --- The substep pass ------------------------------------------------- */

static void table_range(cloth_t *cloth, const struct cloth_tethers *t, uint32_t begin, uint32_t end)
{
    lanes one, two;
    lanes_init(&one, 1u, cloth, NULL);
    lanes_init(&two, 2u, cloth, NULL);
    for (uint32_t i = begin; i < end; ++i) {
        const size_t at = (size_t)K * i;
        if (t->pin[at] != NO_PIN) {
            constrain(&cloth->p, &one, &two, i, &t->pin[at], &t->rest[at], t->scale);
        }
    }
    lanes_flush(&one, &cloth->p);
    lanes_flush(&two, &cloth->p);
}

/* A grid with more pins than K whose table could not be allocated. */
static void scan_range(cloth_t *cloth, const struct cloth_tethers *t, uint32_t begin, uint32_t end)
{
    uint32_t pin[K];
    float rest[K];
    const float scale = t->scale;
    lanes one, two;
    lanes_init(&one, 1u, cloth, NULL);
    lanes_init(&two, 2u, cloth, NULL);
    for (uint32_t i = begin; i < end; ++i) {
        if (cloth->p.w[i] != 0.0f) {
            nearest_pins(cloth, i, pin, rest);
            constrain(&cloth->p, &one, &two, i, pin, rest, scale);
        }
    }
    lanes_flush(&one, &cloth->p);
    lanes_flush(&two, &cloth->p);
}

/*
 * The grid path. Most particles in most substeps are well inside their
 * tethers, and the projection leaves those alone; a float test over a row
 * finds the few that may not be, and only those go on: into a batch (one or
 * two pins) or to constrain_exact() (three or four).
 *
 * The test flags a particle when |x - x_p|^2 > lim for some pin p, where lim
 * is `(1 - m) scale^2 d0^2` evaluated in float as a quadratic in the column
 * offset dc: d0^2 = s2 dc^2 + cross dr dc + s2 dr^2 (rest_distance). It must
 * never miss a particle the exact test `|x - x_p|^2 > (scale d0)^2` (double,
 * d0 and scale d0 rounded to float) would catch:
 * - |x - x_p|^2 in float is within 6u of the exact value (u = 2^-24: the
 *   differences are correctly rounded, every term of the sum is >= 0);
 * - (scale d0)^2 with its two float roundings is >= scale^2 d0^2 (1 - 4u);
 * - lim's terms are rounded (coefficients, dc, products, sums), 12u of the
 *   size of the terms; the middle term can cancel the others by a factor up
 *   to kappa = (1 + c) / (1 - c), c = |cross| / (2 s2) = |cos| of the angle
 *   between the axes, so 12u kappa of lim.
 * m = 32u (1 + kappa) covers 6u + 4u + 12u kappa with room. The batches'
 * own test, |x - x_p|^2 > (scale d0)^2 all in float, compares the very float
 * |x - x_p|^2 the flag test computes (same operations) with a float
 * (scale d0)^2 >= scale^2 d0^2 (1 - 5u), so it is covered too. The bound needs
 * the values near lim to be normal floats and lim finite over the grid;
 * outside that range (absurd spacings, nearly parallel axes) every free
 * particle takes the exact path, which is always right.
 */
#define CHUNK 128u

typedef struct grid_pins {
    uint32_t n;
    uint32_t index[K]; /* increasing: the order constrain() takes them in */
    int32_t row[K], col[K];
    float x[K], y[K], z[K], vx[K], vy[K], vz[K];
    double s2, cross; /* grid_terms */
    double a, b;      /* scale^2 (1 - m) times s2 and cross */
    bool exact_only;  /* the float test is not proven for this grid: flag every free particle */
} grid_pins;

static void grid_pins_init(const cloth_t *cloth, float scale, grid_pins *g)
{
    memset(g, 0, sizeof *g);
    g->n = cloth->pin_count;
    uint32_t index[K];
    float unused[K];
    clear_list(index, unused);
    for (uint32_t k = 0; k < g->n; ++k) {
        index[k] = cloth->pins[k].index;
    }
    order_by_index(index, unused);
    for (uint32_t k = 0; k < g->n; ++k) {
        const uint32_t p = index[k];
        g->index[k] = p;
        g->row[k] = (int32_t)(p / cloth->cols);
        g->col[k] = (int32_t)(p % cloth->cols);
        g->x[k] = cloth->p.x[p];
        g->y[k] = cloth->p.y[p];
        g->z[k] = cloth->p.z[p];
        g->vx[k] = cloth->p.vx[p];
        g->vy[k] = cloth->p.vy[p];
        g->vz[k] = cloth->p.vz[p];
    }
    grid_terms(cloth, &g->s2, &g->cross);
    const double c = g->s2 > 0.0 ? fabs(g->cross) / (2.0 * g->s2) : 1.0;
    const double u = 0x1p-24;
    g->exact_only = true;
    if (!(c <= 0.999) || !isfinite(g->s2)) {
        return;
    }
    const double kappa = (1.0 + c) / (1.0 - c);
    const double scale2 = (double)scale * (double)scale * (1.0 - 32.0 * u * (1.0 + kappa));
    g->a = scale2 * g->s2;
    g->b = scale2 * g->cross;
    const double extent2 = (double)cloth->rows * cloth->rows + (double)cloth->cols * cloth->cols;
    g->exact_only = !(g->a * (1.0 - c) >= 0x1p-90 && g->a * (1.0 + c) * extent2 <= 0x1p100);
}

/* Flags of the particles [i, i + len) of row r starting at column c0; true
 * if any is flagged. N pins, a constant where inlined, so the inner loop
 * unrolls and the loop over particles vectorises. */
static CLOTH_INLINE_ALWAYS bool flag_span(const cloth_particles *pt, const grid_pins *g, uint32_t n, int32_t r,
                                          int32_t c0, uint32_t i, uint32_t len, int32_t *flag)
{
    float b[K], e[K];
    const float a = (float)g->a;
    for (uint32_t k = 0; k < n; ++k) {
        const double dr = (double)(r - g->row[k]);
        b[k] = (float)(g->b * dr);
        e[k] = (float)(g->a * dr * dr);
    }
    const float *restrict x = pt->x + i, *restrict y = pt->y + i, *restrict z = pt->z + i, *restrict w = pt->w + i;
    int32_t any = 0; /* int32_t flags, not chars: a loop storing chars would take 16 lanes at a time */
    for (uint32_t j = 0; j < len; ++j) {
        float worst = -FLT_MAX;
        for (uint32_t k = 0; k < n; ++k) {
            const float dc = (float)(c0 + (int32_t)j - g->col[k]);
            const float dx = x[j] - g->x[k], dy = y[j] - g->y[k], dz = z[j] - g->z[k];
            const float excess = (dx * dx + dy * dy + dz * dz) - ((a * dc + b[k]) * dc + e[k]);
            worst = excess > worst ? excess : worst;
        }
        const int32_t f = (int32_t)(worst > 0.0f) & (int32_t)(w[j] != 0.0f);
        flag[j] = f;
        any |= f;
    }
    return any != 0;
}

/* The grid path's batches take their pins from the grid and their rest
 * distances from the rows and columns, as the table's rebuild does. */
static CLOTH_INLINE_ALWAYS void grid_fill_body(lanes *b)
{
    const grid_pins *g = b->grid;
    const uint32_t count = b->n;
    const double s2 = g->s2, cross = g->cross;
    const float scale = b->scale;
    for (uint32_t k = 0; k < b->pins; ++k) {
        const uint32_t p = g->index[k];
        const float x = g->x[k], y = g->y[k], z = g->z[k], vx = g->vx[k], vy = g->vy[k], vz = g->vz[k];
        const double pr = (double)g->row[k], pc = (double)g->col[k];
        const double *restrict row = b->row, *restrict col = b->col;
        float *restrict rest = b->rest[k], *restrict r = b->r[k];
        for (uint32_t j = 0; j < count; ++j) {
            rest[j] = grid_rest(s2, cross, col[j] - pc, row[j] - pr);
            r[j] = scale * rest[j];
        }
        for (uint32_t j = 0; j < count; ++j) {
            b->pin[k][j] = p;
            b->px[k][j] = x;
            b->py[k][j] = y;
            b->pz[k][j] = z;
            b->pvx[k][j] = vx;
            b->pvy[k][j] = vy;
            b->pvz[k][j] = vz;
        }
    }
}

static void grid_fill_plain(lanes *b)
{
    grid_fill_body(b);
}

#if CLOTH_TARGET_X86
CLOTH_TARGET_AVX2 static void grid_fill_avx2(lanes *b)
{
    grid_fill_body(b);
}

CLOTH_TARGET_AVX512 static void grid_fill_avx512(lanes *b)
{
    grid_fill_body(b);
}
#endif

static void grid_fill(lanes *b)
{
#if CLOTH_TARGET_X86
    if (b->simd >= CLOTH_SIMD_AVX512) {
        grid_fill_avx512(b);
        return;
    }
    if (b->simd >= CLOTH_SIMD_AVX2) {
        grid_fill_avx2(b);
        return;
    }
#endif
    grid_fill_plain(b);
}

/* A flagged particle i at row r, column c, on a grid with one or two pins:
 * into the batch, which is the test for being outside. */
static void grid_push(lanes *b, cloth_particles *pt, uint32_t i, uint32_t r, uint32_t c)
{
    const uint32_t j = lanes_load(b, pt, i);
    b->row[j] = (double)r;
    b->col[j] = (double)c;
    b->n = j + 1u;
    if (b->n == LANES) {
        lanes_flush(b, pt);
    }
}

/* A flagged particle i at row r, column c, on a grid with three or four
 * pins: its pins as the table would list them, then the exact path. */
static void grid_constrain(cloth_t *cloth, const grid_pins *g, float scale, uint32_t i, uint32_t r, uint32_t c)
{
    uint32_t pin[K];
    float rest[K];
    clear_list(pin, rest);
    for (uint32_t k = 0; k < g->n; ++k) {
        const double dc = (double)c - (double)g->col[k], dr = (double)r - (double)g->row[k];
        pin[k] = g->index[k];
        rest[k] = grid_rest(g->s2, g->cross, dc, dr);
    }
    constrain_exact(&cloth->p, i, pin, rest, scale);
}

static CLOTH_INLINE_ALWAYS bool flag_body(const cloth_particles *pt, const grid_pins *g, int32_t r, int32_t c,
                                          uint32_t i, uint32_t len, int32_t *flag)
{
    switch (g->n) {
    case 1u:
        return flag_span(pt, g, 1u, r, c, i, len, flag);
    case 2u:
        return flag_span(pt, g, 2u, r, c, i, len, flag);
    case 3u:
        return flag_span(pt, g, 3u, r, c, i, len, flag);
    default:
        return flag_span(pt, g, (uint32_t)K, r, c, i, len, flag);
    }
}

static bool flag_plain(const cloth_particles *pt, const grid_pins *g, int32_t r, int32_t c, uint32_t i, uint32_t len,
                       int32_t *flag)
{
    return flag_body(pt, g, r, c, i, len, flag);
}

#if CLOTH_TARGET_X86
CLOTH_TARGET_AVX2 static bool flag_avx2(const cloth_particles *pt, const grid_pins *g, int32_t r, int32_t c,
                                        uint32_t i, uint32_t len, int32_t *flag)
{
    return flag_body(pt, g, r, c, i, len, flag);
}

CLOTH_TARGET_AVX512 static bool flag_avx512(const cloth_particles *pt, const grid_pins *g, int32_t r, int32_t c,
                                            uint32_t i, uint32_t len, int32_t *flag)
{
    return flag_body(pt, g, r, c, i, len, flag);
}
#endif

#if CLOTH_TARGET_X86
/* fill_and_solve() over whole vectors: its loops are vectorised with a
 * scalar tail, so the lanes up to a multiple of 16 become particles at the
 * origin, on row and column 0, which the loops solve and nothing writes
 * back. */
static void solve_padded(lanes *b)
{
    const uint32_t n = b->n, padded = (n + 15u) & ~15u;
    for (uint32_t j = n; j < padded; ++j) {
        b->x[j] = b->y[j] = b->z[j] = b->vx[j] = b->vy[j] = b->vz[j] = 0.0f;
        b->row[j] = b->col[j] = 0.0;
    }
    b->n = padded;
    fill_and_solve(b);
    b->n = n;
}

/* The lanes of the first n that the float batch left to the exact path
 * (rare: ill-conditioned pairs of balls); then the batch is empty. */
static void finish_exact(lanes *b, cloth_particles *pt, uint32_t n)
{
    int32_t any = 0; /* a loop without a branch, which vectorises */
    for (uint32_t j = 0; j < n; ++j) {
        any |= b->exact[j];
    }
    for (uint32_t j = 0; any != 0 && j < n; ++j) {
        if (b->exact[j] != 0) {
            exact_lane(b, pt, j);
        }
    }
    b->n = 0u;
    b->groups = 0u;
}

/* The grid path's copying in and out with AVX-512: a chunk's flagged
 * particles go into the batch 16 at a time, compressed out of the vectors
 * that hold them, and come back expanded into the same vectors, where
 * grid_push() and lanes_flush() copy one float at a time (half the tether
 * pass of drape-128). The lanes and their order are grid_push()'s, so the
 * solve gives the same bits. A batch is flushed when 16 more might not fit,
 * so it may run with fewer than LANES lanes; lanes are independent. */
CLOTH_TARGET_AVX512 static void grid_flush_avx512(lanes *b, cloth_particles *pt)
{
    const uint32_t n = b->n;
    solve_padded(b);
    float *const to[6] = {pt->x, pt->y, pt->z, pt->vx, pt->vy, pt->vz};
    const float *const from[6] = {b->x, b->y, b->z, b->vx, b->vy, b->vz};
    uint32_t off = 0u; /* the group's first lane */
    for (uint32_t g = 0; g < b->groups; ++g) {
        const __mmask16 m = b->group_mask[g];
        const uint32_t k = (uint32_t)__builtin_popcount(m), at = b->group_at[g];
        const __mmask16 lanes_of = cloth_lanes16(k);
        const __m512i ex = _mm512_maskz_expand_epi32(m, _mm512_maskz_loadu_epi32(lanes_of, b->exact + off));
        const __mmask16 keep = (__mmask16)(m & ~_mm512_test_epi32_mask(ex, ex)); /* the exact path writes the others */
        for (int a = 0; a < 6; ++a) {
            const __m512 v = _mm512_maskz_expand_ps(m, _mm512_maskz_loadu_ps(lanes_of, from[a] + off));
            _mm512_mask_storeu_ps(to[a] + at, keep, v);
        }
        off += k;
    }
    finish_exact(b, pt, n);
}

/* The particles [i, i + len) of row r from column c whose flag is set. */
CLOTH_TARGET_AVX512 static void grid_gather_avx512(lanes *b, cloth_particles *pt, uint32_t i, uint32_t r,
                                                   uint32_t c, uint32_t len, const int32_t *flag)
{
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const float *const from[6] = {pt->x, pt->y, pt->z, pt->vx, pt->vy, pt->vz};
    float *const to[6] = {b->x, b->y, b->z, b->vx, b->vy, b->vz};
    const __m512d row = _mm512_set1_pd((double)r);
    for (uint32_t j0 = 0; j0 < len; j0 += 16u) {
        const __mmask16 in = cloth_lanes16(len - j0);
        const __m512i f = _mm512_maskz_loadu_epi32(in, flag + j0);
        const __mmask16 m = _mm512_test_epi32_mask(f, f);
        if (m == 0u) {
            continue;
        }
        if (b->n + 16u > LANES) {
            grid_flush_avx512(b, pt);
        }
        const uint32_t n = b->n, at = i + j0;
        for (int a = 0; a < 6; ++a) {
            _mm512_storeu_ps(to[a] + n, _mm512_maskz_compress_ps(m, _mm512_maskz_loadu_ps(in, from[a] + at)));
        }
        const __m512i index = _mm512_add_epi32(_mm512_set1_epi32((int)at), lane);
        _mm512_storeu_si512(b->index + n, _mm512_maskz_compress_epi32(m, index));
        const __m512i col = _mm512_maskz_compress_epi32(m, _mm512_add_epi32(_mm512_set1_epi32((int)(c + j0)), lane));
        _mm512_storeu_pd(b->col + n, _mm512_cvtepi32_pd(_mm512_castsi512_si256(col)));
        _mm512_storeu_pd(b->col + n + 8u, _mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(col, 1)));
        _mm512_storeu_pd(b->row + n, row);
        _mm512_storeu_pd(b->row + n + 8u, row);
        b->group_at[b->groups] = at;
        b->group_mask[b->groups] = m;
        ++b->groups;
        b->n = n + (uint32_t)__builtin_popcount(m);
    }
}

/* The same with AVX2, 8 particles a group: AVX2 has no compress or expand,
 * so each group's two permutations are worked out from its mask. */
CLOTH_TARGET_AVX2 static void group_perms8(uint32_t m, __m256i *pick, __m256i *put)
{
    uint32_t from = 0u, to = 0u, rank = 0u;
    for (uint32_t bits = m; bits != 0u; bits &= bits - 1u) {
        const uint32_t l = (uint32_t)__builtin_ctz(bits);
        from |= l << (4u * rank); /* lane `rank` of the batch takes lane l */
        to |= rank << (4u * l);   /* and lane l takes it back */
        ++rank;
    }
    const __m256i shift = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28), low3 = _mm256_set1_epi32(7);
    *pick = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32((int)from), shift), low3);
    *put = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32((int)to), shift), low3);
}

CLOTH_TARGET_AVX2 static void grid_flush_avx2(lanes *b, cloth_particles *pt)
{
    const uint32_t n = b->n;
    solve_padded(b);
    float *const to[6] = {pt->x, pt->y, pt->z, pt->vx, pt->vy, pt->vz};
    const float *const from[6] = {b->x, b->y, b->z, b->vx, b->vy, b->vz};
    uint32_t off = 0u; /* the group's first lane */
    for (uint32_t g = 0; g < b->groups; ++g) {
        const uint32_t m = b->group_mask[g], k = (uint32_t)__builtin_popcount(m), at = b->group_at[g];
        __m256i pick, put;
        group_perms8(m, &pick, &put);
        const __m256i lanes_of = cloth_lanes8(k);
        const __m256i ex = _mm256_permutevar8x32_epi32(_mm256_maskload_epi32(b->exact + off, lanes_of), put);
        const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        const __m256i in = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)m), bit), bit);
        const __m256i keep = _mm256_and_si256(_mm256_cmpeq_epi32(ex, _mm256_setzero_si256()), in);
        for (int a = 0; a < 6; ++a) {
            const __m256 v = _mm256_permutevar8x32_ps(_mm256_maskload_ps(from[a] + off, lanes_of), put);
            _mm256_maskstore_ps(to[a] + at, keep, v);
        }
        off += k;
    }
    finish_exact(b, pt, n);
}

CLOTH_TARGET_AVX2 static void grid_gather_avx2(lanes *b, cloth_particles *pt, uint32_t i, uint32_t r, uint32_t c,
                                               uint32_t len, const int32_t *flag)
{
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const float *const from[6] = {pt->x, pt->y, pt->z, pt->vx, pt->vy, pt->vz};
    float *const to[6] = {b->x, b->y, b->z, b->vx, b->vy, b->vz};
    const __m256d row = _mm256_set1_pd((double)r);
    for (uint32_t j0 = 0; j0 < len; j0 += 8u) {
        const __m256i in = cloth_lanes8(len - j0);
        const __m256i f = _mm256_maskload_epi32(flag + j0, in);
        const __m256i on = _mm256_cmpgt_epi32(f, _mm256_setzero_si256());
        const uint32_t m = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(on));
        if (m == 0u) {
            continue;
        }
        if (b->n + 8u > LANES) {
            grid_flush_avx2(b, pt);
        }
        __m256i pick, put;
        group_perms8(m, &pick, &put);
        const uint32_t n = b->n, at = i + j0;
        for (int a = 0; a < 6; ++a) {
            _mm256_storeu_ps(to[a] + n, _mm256_permutevar8x32_ps(_mm256_maskload_ps(from[a] + at, in), pick));
        }
        const __m256i index = _mm256_add_epi32(_mm256_set1_epi32((int)at), lane);
        _mm256_storeu_si256((__m256i *)(void *)(b->index + n), _mm256_permutevar8x32_epi32(index, pick));
        const __m256i col = _mm256_permutevar8x32_epi32(_mm256_add_epi32(_mm256_set1_epi32((int)(c + j0)), lane), pick);
        _mm256_storeu_pd(b->col + n, _mm256_cvtepi32_pd(_mm256_castsi256_si128(col)));
        _mm256_storeu_pd(b->col + n + 4u, _mm256_cvtepi32_pd(_mm256_extracti128_si256(col, 1)));
        _mm256_storeu_pd(b->row + n, row);
        _mm256_storeu_pd(b->row + n + 4u, row);
        b->group_at[b->groups] = at;
        b->group_mask[b->groups] = (uint16_t)m;
        ++b->groups;
        b->n = n + (uint32_t)__builtin_popcount(m);
    }
}
#endif

static void grid_range(cloth_t *cloth, const struct cloth_tethers *t, uint32_t begin, uint32_t end)
{
    const float scale = t->scale;
    grid_pins g;
    grid_pins_init(cloth, scale, &g);
    lanes batch;
    lanes_init(&batch, g.n, cloth, &g);
    int32_t flag[CHUNK];
    const uint32_t cols = cloth->cols;
#if CLOTH_TARGET_X86
    const bool wide = g.n <= 2u && cloth->simd >= CLOTH_SIMD_AVX2; /* grid_gather_avx512(), _avx2() */
#endif
    for (uint32_t i = begin; i < end;) {
        const uint32_t r = i / cols, c = i % cols;
        uint32_t len = cols - c < end - i ? cols - c : end - i;
        len = len < CHUNK ? len : CHUNK;
        bool any;
        if (g.exact_only) {
            for (uint32_t j = 0; j < len; ++j) {
                flag[j] = (int32_t)(cloth->p.w[i + j] != 0.0f);
            }
            any = true;
        } else {
#if CLOTH_TARGET_X86
            any = cloth->simd >= CLOTH_SIMD_AVX512 ? flag_avx512(&cloth->p, &g, (int32_t)r, (int32_t)c, i, len, flag)
                  : cloth->simd >= CLOTH_SIMD_AVX2 ? flag_avx2(&cloth->p, &g, (int32_t)r, (int32_t)c, i, len, flag)
                                               : flag_plain(&cloth->p, &g, (int32_t)r, (int32_t)c, i, len, flag);
#else
            any = flag_plain(&cloth->p, &g, (int32_t)r, (int32_t)c, i, len, flag);
#endif
        }
#if CLOTH_TARGET_X86
        if (any && wide) {
            if (cloth->simd >= CLOTH_SIMD_AVX512) {
                grid_gather_avx512(&batch, &cloth->p, i, r, c, len, flag);
            } else {
                grid_gather_avx2(&batch, &cloth->p, i, r, c, len, flag);
            }
            any = false;
        }
#endif
        if (any) {
            /* the flagged columns, listed without a branch per particle:
             * whether one is flagged is as good as random to the predictor */
            uint32_t picked[CHUNK], m = 0u;
            for (uint32_t j = 0; j < len; ++j) {
                picked[m] = j;
                m += (uint32_t)flag[j];
            }
            for (uint32_t k = 0; k < m; ++k) {
                const uint32_t j = picked[k];
                if (g.n <= 2u) {
                    grid_push(&batch, &cloth->p, i + j, r, c + j);
                } else {
                    grid_constrain(cloth, &g, scale, i + j, r, c + j);
                }
            }
        }
        i += len;
    }
#if CLOTH_TARGET_X86
    if (wide) {
        if (cloth->simd >= CLOTH_SIMD_AVX512) {
            grid_flush_avx512(&batch, &cloth->p);
        } else {
            grid_flush_avx2(&batch, &cloth->p);
        }
        return;
    }
#endif
    if (g.n <= 2u) {
        lanes_flush(&batch, &cloth->p);
    }
}

bool cloth_tethers_prepare(cloth_t *cloth)
{
    struct cloth_tethers *t = cloth->tethers;
    if (t == NULL) {
        return false;
    }
    if (cloth->tethers_dirty) {
        if (needs_table(cloth)) {
            if (t->pin == NULL) {
                (void)alloc_table(cloth, t); /* without it: scan_range */
            }
            if (t->pin != NULL) {
                rebuild(cloth, t);
            }
        } else if (t->pin != NULL) {
            free_table(cloth, t);
        }
        cloth->tethers_dirty = false;
    }
    return cloth->pin_count > 0u;
}

/* Particles are independent of each other here (pins do not move, and a
 * particle reads only itself and the pins), so [begin, end) may be any
 * split of [0, count) and the result does not change by a bit. */
void cloth_tethers_apply_range(cloth_t *cloth, uint32_t begin, uint32_t end)
{
    const struct cloth_tethers *t = cloth->tethers;
    if (t == NULL || cloth->pin_count == 0u) {
        return;
    }
    end = end < cloth->count ? end : cloth->count;
    if (begin >= end) {
        return;
    }
    if (t->pin != NULL) {
        table_range(cloth, t, begin, end);
    } else if (!needs_table(cloth)) {
        grid_range(cloth, t, begin, end);
    } else {
        scan_range(cloth, t, begin, end);
    }
}
