/*
 * A grid's bending from a material's rigidity D (N m): every three
 * particles a, b, c in line along a row or a column form a curvature
 * constraint C = x_a - 2 x_b + x_c (a vector), with energy k |C|^2 / 2 and
 * k = D w / s^3 (s the spacing along the line, w the width of cloth the line
 * stands for: the spacing across, half of it on a border line).
 *
 * Why this form: two segments of length s turned by an angle phi give
 * |C| = 2 s sin(phi / 2), so the energy is D w phi^2 / (2 s) to within
 * phi^2 / 12 of itself, which is the continuous D kappa^2 / 2 over the
 * line's s w of area at curvature kappa = phi / s: a grid of any spacing
 * bends alike. C is linear in the positions, so its gradient is constant
 * (1, -2, 1), needs no square root and no angle, and a flat grid rests at
 * C = 0 exactly. It depends only on differences, so it keeps momentum
 * and does not care how the grid is turned. Unlike the dihedral hinges
 * (bending.c) it does not couple bending with the grid's diagonals, so a
 * cantilevered strip droops as a uniform plate would.
 *
 * A clamp: where a line's particles a and b are both pinned and c, beyond
 * b, is free, the strip is held rigid up to b and the turn the constraint
 * at b measures happens over the half segment from b to the middle of
 * b-c, not over a whole one, so it counts twice (curvature_clamp.c).
 * Counted once, a strip clamped horizontal drooped 5 to 8 degrees too far
 * at 8 particles along it; twice, the discrete strip is second order.
 *
 * Forces for the force-based integrators: f_a = f_c = -k C, f_b = 2 k C.
 * For the position solvers, each line's constraints are solved exactly
 * once per substep (group_solve()): what XPBD's sweeps reach when they
 * converge. One Gauss-Seidel sweep would not do: a line of n particles is
 * stiff in bending as 1 / s^4, so at a fine spacing the particles' inertia
 * over a substep, not the compliance, would set how far a sweep gets, and
 * a cantilever of 64 particles hung straight down.
 *
 * The lines go row by row, then column by column. The lines of one
 * direction share no particle, so they are solved CURV_LANES at a time: a
 * group of lines is copied into a scratch laid out [particle][line], where
 * the same step on every line of the group is one vector operation (the
 * loops over the lines are innermost, and the solve is compiled for each
 * vector level, platform/target.h). Every line gets the operations of a
 * one-line solve in the same order, so its bits depend neither on the lines
 * beside it nor on the vector level. The groups are dealt over a fixed
 * number S of items (CURV_SLOTS, or the groups if fewer): item s solves
 * groups s, s + S, s + 2 S, ... in its own slot of the scratch, so which
 * thread runs an item changes nothing and the bits are the same at any
 * thread count. All rows are done before the first column starts.
 */
#include "curvature.h"
#include "platform/target.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

/* Lines solved together: 8 doubles fill an AVX-512 register or two AVX2
 * ones, and are few enough that a narrow grid wastes little on empty lanes. */
#define CURV_LANES 8u
/* Items a direction's groups are dealt over (fewer when it has fewer
 * groups): enough to keep a few threads busy, few enough that each slot's
 * scratch stays small. A constant, so the split never depends on threads. */
#define CURV_SLOTS 8u

typedef struct curvature_line {
    uint32_t first, stride, count; /* particles first + m stride, m < count */
    float k;                       /* N/m, k = D w / s^3 */
} curvature_line;

static void line_forces(cloth_t *cloth, const curvature_line *line)
{
    cloth_particles *p = &cloth->p;
    const float k = line->k;
    for (uint32_t m = 1; m + 1u < line->count; ++m) {
        const uint32_t b = line->first + m * line->stride, a = b - line->stride, c = b + line->stride;
        const float cx = (p->x[a] + p->x[c]) - 2.0f * p->x[b];
        const float cy = (p->y[a] + p->y[c]) - 2.0f * p->y[b];
        const float cz = (p->z[a] + p->z[c]) - 2.0f * p->z[b];
        const float fx = k * cx, fy = k * cy, fz = k * cz;
        p->fx[a] -= fx;
        p->fy[a] -= fy;
        p->fz[a] -= fz;
        p->fx[c] -= fx;
        p->fy[c] -= fy;
        p->fz[c] -= fz;
        p->fx[b] += 2.0f * fx;
        p->fy[b] += 2.0f * fy;
        p->fz[b] += 2.0f * fz;
    }
}

/* ---- the exact solve, CURV_LANES lines at a time ----
 *
 * Each line is solved exactly: the XPBD step of its constraints converged,
 * which for a linear constraint is implicit Euler: the positions x that
 * minimise sum m |x - y|^2 / (2 h^2) + sum k |C|^2 / 2, with y the
 * positions now, i.e. (M / h^2 + K) x = M y / h^2 with K pentadiagonal:
 * diagonal a0, first upper diagonal a1 (a1[m] = A(m, m + 1)), second a2.
 * Pinned particles stay at y (their rows become identity and their
 * columns move to the right-hand side). LDL^T without pivoting in double:
 * the matrix is symmetric positive definite; D the diagonal, L1[m] =
 * L(m, m - 1) and L2[m] = L(m, m - 2) the unit lower factor. Then
 * v += (x - y) / h. Per coordinate the matrix is the same, so it is
 * factored once, and the three coordinates are solved side by side.
 *
 * The matrix: every interior m adds k (1, -2, 1)^T (1, -2, 1) at rows and
 * columns m - 1 .. m + 1, in order of m, onto a0 = 1 / (w h^2) (0 for a
 * pin). So a0[j] = a0 + k (from m = j - 1) + 4 k (m = j) + k (m = j + 1),
 * each where that m is interior; a1[j] = -2 k twice, or once at either end
 * (j = 0, n - 2); a2[j] = k. Those are computed where they are used, in
 * that order, rather than stored.
 *
 * Lanes past the last line of a group, and lines whose k is not a finite
 * positive number, are solved as all-pinned lines: identity rows, no
 * division by zero, nothing changed.
 *
 * A slot holds, per lane and particle of the longest line, in double: the
 * inverse mass W, the factor's D, L1 and L2, and per coordinate the
 * right-hand side, then the solution. Entry (m, l) is at m CURV_LANES + l. */
#define CURV_ARRAYS 7u

/* One direction's lines and what the slots need to solve them. */
typedef struct curvature_pass curvature_pass;
typedef void group_fn(const curvature_pass *pass, uint32_t group, double *restrict slot, const float *restrict w,
                      float *restrict x, float *restrict y, float *restrict z, float *restrict vx,
                      float *restrict vy, float *restrict vz);

struct curvature_pass {
    cloth_t *cloth;
    group_fn *solve;     /* group_solve() compiled for the cloth's vector level */
    double inv_h2, inv_hd;
    float rigidity;
    float s, across;     /* spacing along the lines and between them, m */
    uint32_t lines;      /* lines in this direction */
    uint32_t n;          /* particles per line, >= 3 */
    /* lane l's particle m is line_step (group CURV_LANES + l) + stride m:
     * stride 1 and line_step cols for rows, stride cols and line_step 1
     * for columns */
    uint32_t stride, line_step;
    uint32_t groups, slots;
    size_t cap;          /* entries per array of a slot (slot_cap()) */
};

/* The scratch's shape for a grid: the slots the direction with the most
 * groups uses, and the longest line solved. */
static void scratch_shape(const cloth_t *cloth, uint32_t *slots, uint32_t *longest)
{
    uint32_t groups = 0u, len = 0u;
    if (cloth->cols >= 3u) { /* rows: rows lines of cols particles */
        const uint32_t g = (cloth->rows + CURV_LANES - 1u) / CURV_LANES;
        groups = g > groups ? g : groups;
        len = cloth->cols > len ? cloth->cols : len;
    }
    if (cloth->rows >= 3u) { /* columns: cols lines of rows particles */
        const uint32_t g = (cloth->cols + CURV_LANES - 1u) / CURV_LANES;
        groups = g > groups ? g : groups;
        len = cloth->rows > len ? cloth->rows : len;
    }
    *slots = groups < CURV_SLOTS ? groups : CURV_SLOTS;
    *longest = len;
}

/* Entries per array of a slot for lines of up to `longest` particles: one
 * particle more than they need, so that the arrays do not all start at the
 * same offset within a 4 KiB page (a load from one would then wait on each
 * store to another whose address matches it in the low 12 bits). */
static size_t slot_cap(uint32_t longest)
{
    return (size_t)CURV_LANES * ((size_t)longest + 1u);
}

/* Copy `lanes` lines into the slot: the inverse masses and the positions,
 * in the order of the particle arrays (along each row for rows, across the
 * lanes for columns). */
static CLOTH_INLINE_ALWAYS void group_load(const curvature_pass *pass, uint32_t first, uint32_t lanes,
                                           const float *restrict w, const float *restrict x,
                                           const float *restrict y, const float *restrict z, double *restrict W,
                                           double *restrict Z0, double *restrict Z1, double *restrict Z2)
{
    const uint32_t n = pass->n;
    if (pass->stride == 1u) {
        for (uint32_t l = 0; l < lanes; ++l) {
            const size_t base = (size_t)first + (size_t)l * pass->line_step;
            for (uint32_t m = 0; m < n; ++m) {
                const size_t s = (size_t)m * CURV_LANES + l;
                W[s] = (double)w[base + m];
                Z0[s] = (double)x[base + m];
                Z1[s] = (double)y[base + m];
                Z2[s] = (double)z[base + m];
            }
        }
        return;
    }
    for (uint32_t m = 0; m < n; ++m) {
        const size_t base = (size_t)first + (size_t)m * pass->stride, s = (size_t)m * CURV_LANES;
        for (uint32_t l = 0; l < lanes; ++l) {
            W[s + l] = (double)w[base + l];
            Z0[s + l] = (double)x[base + l];
            Z1[s + l] = (double)y[base + l];
            Z2[s + l] = (double)z[base + l];
        }
    }
}

/* The right-hand sides M y / h^2 of the free particles (y itself at a
 * pin). Returns the number of pinned entries, lanes left out included. */
static CLOTH_INLINE_ALWAYS uint32_t group_rhs(uint32_t n, double inv_h2, const double *restrict W,
                                              double *restrict Z0, double *restrict Z1, double *restrict Z2)
{
    uint32_t pins = 0u;
    for (size_t s = 0; s < (size_t)n * CURV_LANES; ++s) {
        const double w = W[s];
        pins += w > 0.0 ? 0u : 1u;
        Z0[s] = w > 0.0 ? Z0[s] * inv_h2 / w : Z0[s];
        Z1[s] = w > 0.0 ? Z1[s] * inv_h2 / w : Z1[s];
        Z2[s] = w > 0.0 ? Z2[s] * inv_h2 / w : Z2[s];
    }
    return pins;
}

/* z[t] -= a z[pin] for each coordinate: the pin's y times a coupling. */
static CLOTH_INLINE_ALWAYS void take(double *restrict Z0, double *restrict Z1, double *restrict Z2, size_t t, double a,
                                     size_t pin)
{
    Z0[t] -= a * Z0[pin];
    Z1[t] -= a * Z1[pin];
    Z2[t] -= a * Z2[pin];
}

/* A pin's known position times the coupling its column held, off the
 * right-hand sides of the free particles up to two away, lane by lane in
 * the order of a one-line solve: pin by pin, then m - 1, m - 2, m + 1,
 * m + 2. A pin's own right-hand side is its y and is never changed here.
 * Pins are few: this walks the lanes one by one. */
static CLOTH_INLINE_ALWAYS void group_pins(uint32_t n, const double *restrict k, const double *restrict a1_end,
                                           const double *restrict a1_mid, const double *restrict W,
                                           double *restrict Z0, double *restrict Z1, double *restrict Z2)
{
    const size_t L = CURV_LANES;
    for (uint32_t l = 0; l < CURV_LANES; ++l) {
        for (uint32_t m = 0; m < n; ++m) {
            const size_t s = (size_t)m * L + l;
            if (W[s] > 0.0) {
                continue;
            }
            if (m >= 1u && W[s - L] > 0.0) {
                take(Z0, Z1, Z2, s - L, m - 1u == 0u || m - 1u == n - 2u ? a1_end[l] : a1_mid[l], s);
            }
            if (m >= 2u && W[s - 2u * L] > 0.0) {
                take(Z0, Z1, Z2, s - 2u * L, k[l], s);
            }
            if (m + 1u < n && W[s + L] > 0.0) {
                take(Z0, Z1, Z2, s + L, m == 0u || m == n - 2u ? a1_end[l] : a1_mid[l], s);
            }
            if (m + 2u < n && W[s + 2u * L] > 0.0) {
                take(Z0, Z1, Z2, s + 2u * L, k[l], s);
            }
        }
    }
}

/* c ? a : b, chosen on the bits. The compilers keep this a vector blend,
 * where a ?: may become a branch (once GCC unrolls a loop over the lanes)
 * or be moved past the division that follows it (dividing both sides). */
static CLOTH_INLINE_ALWAYS float pick_f(bool c, float a, float b)
{
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    const uint32_t mask = 0u - (uint32_t)c, r = (ua & mask) | (ub & ~mask);
    float f;
    memcpy(&f, &r, sizeof f);
    return f;
}

static CLOTH_INLINE_ALWAYS double pick_d(bool c, double a, double b)
{
    uint64_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    const uint64_t mask = 0u - (uint64_t)c, r = (ua & mask) | (ub & ~mask);
    double f;
    memcpy(&f, &r, sizeof f);
    return f;
}

/* The factorisation and the forward substitution, together, particle by
 * particle: row m of the factor needs rows m - 1 and m - 2 only, and so
 * does the forward substitution once it is there. A pin's row is identity
 * and its couplings (c1, c2) to the particles before it are dropped. The
 * first two rows are the general one with its missing terms taken out
 * where that changes no bit (x - 0 is x; x * 0 + 0 is not). */
static CLOTH_INLINE_ALWAYS void group_forward(uint32_t n, double inv_h2, const double *restrict k,
                                              const double *restrict a1_end, const double *restrict a1_mid,
                                              const double *restrict W, double *restrict D, double *restrict L1,
                                              double *restrict L2, double *restrict Z0, double *restrict Z1,
                                              double *restrict Z2)
{
    const size_t L = CURV_LANES;
    /* m = 0: a0 = 1 / (w h^2) + k (n >= 3: the constraint centred at 1) */
    for (uint32_t l = 0; l < CURV_LANES; ++l) {
        const double w = W[l];
        const double a0 = (w > 0.0 ? inv_h2 / w : 0.0) + k[l];
        L1[l] = 0.0;
        L2[l] = 0.0;
        D[l] = w > 0.0 ? a0 : 1.0;
    }
    /* m = 1: + 4 k, and + k when the constraint centred at 2 is interior */
    const bool after1 = 3u < n;
    for (uint32_t l = 0; l < CURV_LANES; ++l) {
        const size_t s = L + l;
        const double w = W[s];
        const bool pin = !(w > 0.0), pin1 = !(W[l] > 0.0);
        double a0 = w > 0.0 ? inv_h2 / w : 0.0;
        a0 = a0 + 4.0 * k[l];
        a0 = after1 ? a0 + k[l] : a0;
        const double c1 = pin || pin1 ? 0.0 : a1_end[l];
        const double l1 = c1 / D[l];
        L1[s] = l1;
        L2[s] = 0.0;
        D[s] = pin ? 1.0 : a0 - l1 * l1 * D[l];
        Z0[s] -= l1 * Z0[l] + 0.0;
        Z1[s] -= l1 * Z1[l] + 0.0;
        Z2[s] -= l1 * Z2[l] + 0.0;
    }
    for (uint32_t m = 2; m < n; ++m) {
        /* a0: k from the constraint centred at m - 1, 4 k from m's own and
         * k from m + 1's, where those are interior */
        const bool centre = m + 1u < n, after = m + 2u < n;
        const double *restrict a1 = m - 1u == n - 2u ? a1_end : a1_mid;
        const size_t s0 = (size_t)m * L;
        for (uint32_t l = 0; l < CURV_LANES; ++l) {
            const size_t s = s0 + l, t1 = s - L, t2 = t1 - L;
            const double w = W[s];
            const bool pin = !(w > 0.0), pin1 = !(W[t1] > 0.0), pin2 = !(W[t2] > 0.0);
            double a0 = w > 0.0 ? inv_h2 / w : 0.0;
            a0 = a0 + k[l];
            a0 = centre ? a0 + 4.0 * k[l] : a0;
            a0 = after ? a0 + k[l] : a0;
            const double c1 = pick_d(pin || pin1, 0.0, a1[l]), c2 = pick_d(pin || pin2, 0.0, k[l]);
            const double d1 = D[t1], d2 = D[t2];
            const double l2 = c2 / d2;
            const double l1 = (c1 - l2 * d2 * L1[t1]) / d1;
            L1[s] = l1;
            L2[s] = l2;
            D[s] = pin ? 1.0 : a0 - l1 * l1 * d1 - l2 * l2 * d2;
            Z0[s] -= l1 * Z0[t1] + l2 * Z0[t2];
            Z1[s] -= l1 * Z1[t1] + l2 * Z1[t2];
            Z2[s] -= l1 * Z2[t1] + l2 * Z2[t2];
        }
    }
}

/* The division by D and the back substitution, from the last particle. */
static CLOTH_INLINE_ALWAYS void group_backward(uint32_t n, const double *restrict D, const double *restrict L1,
                                               const double *restrict L2, double *restrict Z0,
                                               double *restrict Z1, double *restrict Z2)
{
    const size_t L = CURV_LANES, last = (size_t)(n - 1u) * L;
    for (uint32_t l = 0; l < CURV_LANES; ++l) {
        const size_t s = last + l;
        Z0[s] /= D[s];
        Z1[s] /= D[s];
        Z2[s] /= D[s];
    }
    for (uint32_t l = 0; l < CURV_LANES; ++l) {
        const size_t s = last - L + l, u1 = s + L;
        const double d = D[s], l1 = L1[u1];
        Z0[s] = Z0[s] / d - (l1 * Z0[u1] + 0.0);
        Z1[s] = Z1[s] / d - (l1 * Z1[u1] + 0.0);
        Z2[s] = Z2[s] / d - (l1 * Z2[u1] + 0.0);
    }
    for (uint32_t m = n - 2u; m-- > 0u;) {
        const size_t s0 = (size_t)m * L;
        for (uint32_t l = 0; l < CURV_LANES; ++l) {
            const size_t s = s0 + l, u1 = s + L, u2 = u1 + L;
            const double d = D[s], l1 = L1[u1], l2 = L2[u2];
            Z0[s] = Z0[s] / d - (l1 * Z0[u1] + l2 * Z0[u2]);
            Z1[s] = Z1[s] / d - (l1 * Z1[u1] + l2 * Z1[u2]);
            Z2[s] = Z2[s] / d - (l1 * Z2[u1] + l2 * Z2[u2]);
        }
    }
}

/* One coordinate y[i] of a particle to x if it is free, and the velocity
 * v[i] the move adds; a pinned one stays as it is. */
static CLOTH_INLINE_ALWAYS void move_to(float *restrict y, float *restrict v, size_t i, bool free, double x,
                                        double inv_hd)
{
    const float old = y[i], nx = (float)x;
    const float dv = (float)(((double)nx - (double)old) * inv_hd);
    const float vi = v[i];
    v[i] = pick_f(free, vi + dv, vi);
    y[i] = pick_f(free, nx, old);
}

/* Write `lanes` lines back: every particle of them, the pinned ones
 * unchanged (the lines belong to this item alone, and a store for every
 * lane lets the loops run as vector operations). One coordinate per loop:
 * a loop that writes two arrays leaves the compiler one pair to check for
 * overlap before it vectorises. Columns go across the lanes as they lie in
 * the slot. A row's particles are contiguous along the line, where the
 * slot's are CURV_LANES apart: its entries are turned around in tiles of
 * CURV_LANES particles first, so that both sides are read in order. */
static CLOTH_INLINE_ALWAYS void group_store(const curvature_pass *pass, uint32_t first, uint32_t lanes,
                                            const double *restrict W, const double *restrict Z0,
                                            const double *restrict Z1, const double *restrict Z2, float *restrict x,
                                            float *restrict y, float *restrict z, float *restrict vx,
                                            float *restrict vy, float *restrict vz)
{
    const double inv_hd = pass->inv_hd;
    const uint32_t n = pass->n;
    if (pass->stride != 1u) {
        for (uint32_t m = 0; m < n; ++m) {
            const size_t base = (size_t)first + (size_t)m * pass->stride, s = (size_t)m * CURV_LANES;
            for (uint32_t l = 0; l < lanes; ++l) {
                move_to(x, vx, base + l, W[s + l] > 0.0, Z0[s + l], inv_hd);
            }
            for (uint32_t l = 0; l < lanes; ++l) {
                move_to(y, vy, base + l, W[s + l] > 0.0, Z1[s + l], inv_hd);
            }
            for (uint32_t l = 0; l < lanes; ++l) {
                move_to(z, vz, base + l, W[s + l] > 0.0, Z2[s + l], inv_hd);
            }
        }
        return;
    }
    for (uint32_t m0 = 0; m0 < n; m0 += CURV_LANES) {
        const uint32_t count = n - m0 < CURV_LANES ? n - m0 : CURV_LANES;
        double tw[CURV_LANES][CURV_LANES], t0[CURV_LANES][CURV_LANES], t1[CURV_LANES][CURV_LANES],
            t2[CURV_LANES][CURV_LANES];
        for (uint32_t j = 0; j < count; ++j) {
            const size_t s = (size_t)(m0 + j) * CURV_LANES;
            for (uint32_t l = 0; l < CURV_LANES; ++l) {
                tw[l][j] = W[s + l];
                t0[l][j] = Z0[s + l];
                t1[l][j] = Z1[s + l];
                t2[l][j] = Z2[s + l];
            }
        }
        for (uint32_t l = 0; l < lanes; ++l) {
            const size_t base = (size_t)first + (size_t)l * pass->line_step + m0;
            for (uint32_t j = 0; j < count; ++j) {
                move_to(x, vx, base + j, tw[l][j] > 0.0, t0[l][j], inv_hd);
            }
            for (uint32_t j = 0; j < count; ++j) {
                move_to(y, vy, base + j, tw[l][j] > 0.0, t1[l][j], inv_hd);
            }
            for (uint32_t j = 0; j < count; ++j) {
                move_to(z, vz, base + j, tw[l][j] > 0.0, t2[l][j], inv_hd);
            }
        }
    }
}

/* Solve the lines of group `group` (lines group * CURV_LANES on) in `slot`. */
static CLOTH_INLINE_ALWAYS void group_solve_body(const curvature_pass *pass, uint32_t group, double *slot,
                                                 const float *w, float *x, float *y, float *z, float *vx,
                                                 float *vy, float *vz)
{
    const uint32_t n = pass->n, line0 = group * CURV_LANES;
    const uint32_t lanes = pass->lines - line0 < CURV_LANES ? pass->lines - line0 : CURV_LANES;
    const size_t cap = pass->cap;
    double *W = slot, *D = W + cap, *L1 = D + cap, *L2 = L1 + cap, *Z0 = L2 + cap, *Z1 = Z0 + cap, *Z2 = Z1 + cap;
    /* per lane: k, and a1 at either end of the line and inside it, as a
     * one-line solve sums them (0 - 2 k, then - 2 k again); 0 for a lane
     * left out */
    double k[CURV_LANES], a1_end[CURV_LANES], a1_mid[CURV_LANES];
    bool live[CURV_LANES];
    uint32_t dead = 0u;
    for (uint32_t l = 0; l < CURV_LANES; ++l) {
        const double kl = l < lanes ? (double)cloth_curvature_line_k(pass->rigidity, line0 + l, pass->lines, pass->s, pass->across)
                                    : 0.0;
        live[l] = kl > 0.0 && isfinite(kl);
        dead += live[l] ? 0u : 1u;
        k[l] = live[l] ? kl : 0.0;
        a1_end[l] = 0.0 - 2.0 * k[l];
        a1_mid[l] = a1_end[l] - 2.0 * k[l];
    }
    if (dead == CURV_LANES) {
        return;
    }
    const uint32_t first = line0 * pass->line_step;
    group_load(pass, first, lanes, w, x, y, z, W, Z0, Z1, Z2);
    /* a lane left out: all pinned (and zeros past the last line) */
    for (uint32_t l = 0; l < CURV_LANES; ++l) {
        if (live[l]) {
            continue;
        }
        for (uint32_t m = 0; m < n; ++m) {
            const size_t s = (size_t)m * CURV_LANES + l;
            W[s] = 0.0;
            if (l >= lanes) {
                Z0[s] = Z1[s] = Z2[s] = 0.0;
            }
        }
    }
    /* the lanes left out are n pins each; any more are the lines' own */
    if (group_rhs(n, pass->inv_h2, W, Z0, Z1, Z2) > dead * n) {
        group_pins(n, k, a1_end, a1_mid, W, Z0, Z1, Z2);
    }
    group_forward(n, pass->inv_h2, k, a1_end, a1_mid, W, D, L1, L2, Z0, Z1, Z2);
    group_backward(n, D, L1, L2, Z0, Z1, Z2);
    if (lanes == CURV_LANES) {
        group_store(pass, first, CURV_LANES, W, Z0, Z1, Z2, x, y, z, vx, vy, vz);
    } else {
        group_store(pass, first, lanes, W, Z0, Z1, Z2, x, y, z, vx, vy, vz);
    }
}

/* group_solve_body() compiled for each vector level. The particle arrays
 * and the slot never overlap: restrict on the parameters of the function
 * the loops are inlined into tells every compiler so (GCC does not keep it
 * from the helpers' parameters). */
#define CURV_GROUP_SOLVE(name, target)                                                                         \
    target static void name(const curvature_pass *pass, uint32_t group, double *restrict slot,              \
                            const float *restrict w, float *restrict x, float *restrict y, float *restrict z, \
                            float *restrict vx, float *restrict vy, float *restrict vz)                      \
    {                                                                                                          \
        group_solve_body(pass, group, slot, w, x, y, z, vx, vy, vz);                                          \
    }

CURV_GROUP_SOLVE(group_solve, )
#if CLOTH_TARGET_X86
CURV_GROUP_SOLVE(group_solve_avx2, CLOTH_TARGET_AVX2)
CURV_GROUP_SOLVE(group_solve_avx512, CLOTH_TARGET_AVX512)
#endif

static group_fn *group_path(cloth_simd simd)
{
#if CLOTH_TARGET_X86
    if (simd >= CLOTH_SIMD_AVX512) {
        return group_solve_avx512;
    }
    if (simd >= CLOTH_SIMD_AVX2) {
        return group_solve_avx2;
    }
#else
    (void)simd;
#endif
    return group_solve;
}

/* Item s: groups s, s + slots, s + 2 slots, ... in slot s. */
static void solve_slots(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const curvature_pass *pass = ctx;
    cloth_particles *p = &pass->cloth->p;
    for (uint32_t s = begin; s < end; ++s) {
        double *slot = pass->cloth->curvature_scratch + (size_t)s * CURV_ARRAYS * pass->cap;
        for (uint32_t g = s; g < pass->groups; g += pass->slots) {
            pass->solve(pass, g, slot, p->w, p->x, p->y, p->z, p->vx, p->vy, p->vz);
        }
    }
}

static void solve_direction(curvature_pass *pass)
{
    pass->groups = (pass->lines + CURV_LANES - 1u) / CURV_LANES;
    pass->slots = pass->groups < CURV_SLOTS ? pass->groups : CURV_SLOTS;
    /* ranges of at least CLOTH_PARTICLES_PER_RANGE / 4 particles: their
     * solve takes a few microseconds, more than handing them over, and a
     * 48 x 48 grid's lines then split over two threads */
    const uint32_t least = CLOTH_PARTICLES_PER_RANGE / 4u;
    const uint32_t per_item = (pass->groups + pass->slots - 1u) / pass->slots * CURV_LANES * pass->n;
    const uint32_t min_items = per_item >= least ? 1u : least / per_item;
    cloth_parallel_for(pass->cloth, solve_slots, pass->slots, min_items, pass);
}

void cloth_curvature_accumulate(cloth_t *cloth)
{
    if (cloth->tris != NULL || !(cloth->rigidity > 0.0f)) {
        return;
    }
    const uint32_t rows = cloth->rows, cols = cloth->cols;
    const float su = cloth->family_rest[0], sv = cloth->family_rest[1];
    if (cols >= 3u) {
        for (uint32_t r = 0; r < rows; ++r) {
            const curvature_line line = {r * cols, 1u, cols, cloth_curvature_line_k(cloth->rigidity, r, rows, su, sv)};
            line_forces(cloth, &line);
        }
    }
    if (rows >= 3u) {
        for (uint32_t c = 0; c < cols; ++c) {
            const curvature_line line = {c, cols, rows, cloth_curvature_line_k(cloth->rigidity, c, cols, sv, su)};
            line_forces(cloth, &line);
        }
    }
    cloth_curvature_clamp_forces(cloth);
}

void cloth_curvature_project(cloth_t *cloth, float h)
{
    if (cloth->tris != NULL || !(cloth->rigidity > 0.0f) || cloth->curvature_scratch == NULL) {
        return;
    }
    uint32_t slots, longest;
    scratch_shape(cloth, &slots, &longest);
    curvature_pass pass;
    pass.cloth = cloth;
    pass.solve = group_path(cloth->simd);
    pass.inv_h2 = 1.0 / ((double)h * (double)h);
    pass.inv_hd = 1.0 / (double)h;
    pass.rigidity = cloth->rigidity;
    pass.cap = slot_cap(longest);
    const uint32_t rows = cloth->rows, cols = cloth->cols;
    const float su = cloth->family_rest[0], sv = cloth->family_rest[1];
    if (cols >= 3u) {
        pass.s = su;
        pass.across = sv;
        pass.lines = rows;
        pass.n = cols;
        pass.stride = 1u;
        pass.line_step = cols;
        solve_direction(&pass);
    }
    if (rows >= 3u) {
        pass.s = sv;
        pass.across = su;
        pass.lines = cols;
        pass.n = rows;
        pass.stride = cols;
        pass.line_step = 1u;
        solve_direction(&pass);
    }
    cloth_curvature_clamp_project(cloth, h);
}

cloth_status cloth_curvature_reserve(cloth_t *cloth, float rigidity)
{
    if (cloth->tris != NULL || !(rigidity > 0.0f)) {
        cloth_curvature_free(cloth);
        return CLOTH_OK;
    }
    if (cloth->curvature_scratch != NULL) {
        return CLOTH_OK;
    }
    uint32_t slots, longest;
    scratch_shape(cloth, &slots, &longest);
    if (slots == 0u) { /* no line of 3 to solve; a slot all the same, so that a rigidity always has its scratch */
        slots = 1u;
        longest = cloth->rows > cloth->cols ? cloth->rows : cloth->cols;
    }
    const size_t cap = slot_cap(longest), per_entry = CURV_ARRAYS * sizeof(double);
    if (cap > SIZE_MAX / per_entry / slots) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    const size_t bytes = cap * per_entry * slots;
    double *mem = cloth_mem_alloc(&cloth->alloc, bytes);
    if (mem == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    cloth->curvature_scratch = mem;
    cloth->curvature_scratch_bytes = bytes;
    return CLOTH_OK;
}

void cloth_curvature_free(cloth_t *cloth)
{
    cloth_mem_free(&cloth->alloc, cloth->curvature_scratch, cloth->curvature_scratch_bytes);
    cloth->curvature_scratch = NULL;
    cloth->curvature_scratch_bytes = 0u;
}
