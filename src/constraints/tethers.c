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
 * Both give the same bits: the grid path sorts its pins per particle with the
 * same insertion and the same rest distances as the table's rebuild, and then
 * runs the same projection; it only skips, by a conservative float test,
 * particles that the projection would leave untouched.
 *
 * Rest distances come from the creation shape: a grid's is implied by its
 * spacing and the angle between its axes; a mesh's positions are copied at
 * creation (cloth_tethers_capture_rest), since nothing else keeps them.
 */
#include "cloth_internal.h"

#include <float.h>
#include <string.h>

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

static float grid_rest(double s2, double cross, double dc, double dr)
{
    const double d2 = s2 * (dc * dc + dr * dr) + cross * dc * dr;
    return (float)sqrt(d2 > 0.0 ? d2 : 0.0);
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

/* Particle i's K nearest pins among all of them. */
static void nearest_pins(const cloth_t *cloth, uint32_t i, uint32_t pin[K], float rest[K])
{
    clear_list(pin, rest);
    for (uint32_t q = 0; q < cloth->pin_count; ++q) {
        const uint32_t p = cloth->pins[q].index;
        insert_pin(pin, rest, p, rest_distance(cloth, i, p));
    }
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
 * the pin, along every tether it ends up taut on. */
static void constrain(cloth_particles *pt, uint32_t i, const uint32_t *pin, const float *rest, float scale)
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
    /* The unit directions of the tethers the particle is now taut on. */
    double n[K][3];
    uint32_t taut[K];
    int m = 0;
    for (int k = 0; k < g.n; ++k) {
        const double d[3] = {x[0] - g.c[k][0], x[1] - g.c[k][1], x[2] - g.c[k][2]};
        const double l2 = dot3(d, d), lim = g.r[k] * (1.0 - INSIDE_EPS);
        if (l2 >= lim * lim && l2 > 0.0) {
            const double inv = 1.0 / sqrt(l2);
            n[m][0] = d[0] * inv;
            n[m][1] = d[1] * inv;
            n[m][2] = d[2] * inv;
            taut[m++] = pin[k];
        }
    }
    /* A second round when taut on several: removing the outward part along
     * one tether can leave an outward part along another that is not
     * perpendicular to it. */
    for (int round = 0; round < (m > 1 ? 2 : 1); ++round) {
        for (int k = 0; k < m; ++k) {
            const uint32_t p = taut[k];
            const double rv[3] = {(double)(pt->vx[i] - pt->vx[p]), (double)(pt->vy[i] - pt->vy[p]),
                                  (double)(pt->vz[i] - pt->vz[p])};
            const double out = dot3(rv, n[k]);
            if (out > 0.0) {
                pt->vx[i] = (float)((double)pt->vx[i] - out * n[k][0]);
                pt->vy[i] = (float)((double)pt->vy[i] - out * n[k][1]);
                pt->vz[i] = (float)((double)pt->vz[i] - out * n[k][2]);
            }
        }
    }
}


/* --- The substep pass ------------------------------------------------- */

static void table_range(cloth_t *cloth, const struct cloth_tethers *t, uint32_t begin, uint32_t end)
{
    for (uint32_t i = begin; i < end; ++i) {
        const size_t at = (size_t)K * i;
        if (t->pin[at] != NO_PIN) {
            constrain(&cloth->p, i, &t->pin[at], &t->rest[at], t->scale);
        }
    }
}

/* A grid with more pins than K whose table could not be allocated. */
static void scan_range(cloth_t *cloth, float scale, uint32_t begin, uint32_t end)
{
    uint32_t pin[K];
    float rest[K];
    for (uint32_t i = begin; i < end; ++i) {
        if (cloth->p.w[i] != 0.0f) {
            nearest_pins(cloth, i, pin, rest);
            constrain(&cloth->p, i, pin, rest, scale);
        }
    }
}

/*
 * The grid path. Most particles in most substeps are well inside their
 * tethers, and the projection leaves those alone; a float test over a row
 * finds the few that may not be, and only those take the exact path (their
 * pins sorted as the table would hold them, then constrain()).
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
 * m = 32u (1 + kappa) covers 6u + 4u + 12u kappa with room. The bound needs
 * the values near lim to be normal floats and lim finite over the grid;
 * outside that range (absurd spacings, nearly parallel axes) every free
 * particle takes the exact path, which is always right.
 */
#define CHUNK 128u

typedef struct grid_pins {
    uint32_t n;
    uint32_t index[K]; /* in the order of cloth->pins, as the table's rebuild inserts them */
    int32_t row[K], col[K];
    float x[K], y[K], z[K];
    double s2, cross; /* grid_terms */
    double a, b;      /* scale^2 (1 - m) times s2 and cross */
    bool exact_only;  /* the float test is not proven for this grid: flag every free particle */
} grid_pins;

static void grid_pins_init(const cloth_t *cloth, float scale, grid_pins *g)
{
    memset(g, 0, sizeof *g);
    g->n = cloth->pin_count;
    for (uint32_t k = 0; k < g->n; ++k) {
        const uint32_t p = cloth->pins[k].index;
        g->index[k] = p;
        g->row[k] = (int32_t)(p / cloth->cols);
        g->col[k] = (int32_t)(p % cloth->cols);
        g->x[k] = cloth->p.x[p];
        g->y[k] = cloth->p.y[p];
        g->z[k] = cloth->p.z[p];
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
static inline bool flag_span(const cloth_particles *pt, const grid_pins *g, uint32_t n, int32_t r, int32_t c0,
                             uint32_t i, uint32_t len, unsigned char *flag)
{
    float b[K], e[K];
    const float a = (float)g->a;
    for (uint32_t k = 0; k < n; ++k) {
        const double dr = (double)(r - g->row[k]);
        b[k] = (float)(g->b * dr);
        e[k] = (float)(g->a * dr * dr);
    }
    const float *restrict x = pt->x + i, *restrict y = pt->y + i, *restrict z = pt->z + i, *restrict w = pt->w + i;
    unsigned any = 0u;
    for (uint32_t j = 0; j < len; ++j) {
        float worst = -FLT_MAX;
        for (uint32_t k = 0; k < n; ++k) {
            const float dc = (float)(c0 + (int32_t)j - g->col[k]);
            const float dx = x[j] - g->x[k], dy = y[j] - g->y[k], dz = z[j] - g->z[k];
            const float excess = (dx * dx + dy * dy + dz * dz) - ((a * dc + b[k]) * dc + e[k]);
            worst = excess > worst ? excess : worst;
        }
        const unsigned f = (unsigned)(worst > 0.0f) & (unsigned)(w[j] != 0.0f);
        flag[j] = (unsigned char)f;
        any |= f;
    }
    return any != 0u;
}

/* The exact path for particle i at row r, column c: its pins in the order
 * the table would list them, then the projection. */
static void grid_constrain(cloth_t *cloth, const grid_pins *g, float scale, uint32_t i, uint32_t r, uint32_t c)
{
    uint32_t pin[K];
    float rest[K];
    clear_list(pin, rest);
    for (uint32_t k = 0; k < g->n; ++k) {
        const double dc = (double)c - (double)g->col[k], dr = (double)r - (double)g->row[k];
        insert_pin(pin, rest, g->index[k], grid_rest(g->s2, g->cross, dc, dr));
    }
    constrain(&cloth->p, i, pin, rest, scale);
}

static void grid_range(cloth_t *cloth, float scale, uint32_t begin, uint32_t end)
{
    grid_pins g;
    grid_pins_init(cloth, scale, &g);
    unsigned char flag[CHUNK];
    const uint32_t cols = cloth->cols;
    for (uint32_t i = begin; i < end;) {
        const uint32_t r = i / cols, c = i % cols;
        uint32_t len = cols - c < end - i ? cols - c : end - i;
        len = len < CHUNK ? len : CHUNK;
        bool any;
        if (g.exact_only) {
            for (uint32_t j = 0; j < len; ++j) {
                flag[j] = (unsigned char)(cloth->p.w[i + j] != 0.0f);
            }
            any = true;
        } else {
            switch (g.n) {
            case 1u:
                any = flag_span(&cloth->p, &g, 1u, (int32_t)r, (int32_t)c, i, len, flag);
                break;
            case 2u:
                any = flag_span(&cloth->p, &g, 2u, (int32_t)r, (int32_t)c, i, len, flag);
                break;
            case 3u:
                any = flag_span(&cloth->p, &g, 3u, (int32_t)r, (int32_t)c, i, len, flag);
                break;
            default:
                any = flag_span(&cloth->p, &g, (uint32_t)K, (int32_t)r, (int32_t)c, i, len, flag);
                break;
            }
        }
        if (any) {
            for (uint32_t j = 0; j < len; ++j) {
                if (flag[j] != 0u) {
                    grid_constrain(cloth, &g, scale, i + j, r, c + j);
                }
            }
        }
        i += len;
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
        grid_range(cloth, t->scale, begin, end);
    } else {
        scan_range(cloth, t->scale, begin, end);
    }
}

void cloth_tethers_apply(cloth_t *cloth)
{
    if (cloth_tethers_prepare(cloth)) {
        cloth_tethers_apply_range(cloth, 0u, cloth->count);
    }
}
