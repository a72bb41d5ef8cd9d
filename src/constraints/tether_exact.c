/*
 * The exact projection of a particle onto its tethers: the nearest point of
 * the intersection of up to K balls, in double, one particle at a time. It
 * serves the particles on three or four tethers, and those on one or two
 * that the float batches (tether_batch.c) leave to it.
 */
#include "tethers.h"

/* The allowed region of a particle: the intersection of up to K balls
 * (centre: a pin, radius: scale times the rest distance). */
typedef struct region {
    double c[K][3];
    double r[K];
    int n;
} region;

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
 * path of three or four tethers, and of what the float path (tether_batch.c)
 * leaves (concentric pins, a particle on their axis, balls that do not meet). */
void cloth_tether_constrain_exact(cloth_particles *pt, uint32_t i, const uint32_t *pin, const float *rest,
                                  float scale)
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
