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
 * Forces for the force-based integrators: f_a = f_c = -k C, f_b = 2 k C.
 * For the position solvers, each line's constraints are solved exactly
 * once per substep (line_project()): what XPBD's sweeps reach when they
 * converge. One Gauss-Seidel sweep would not do: a line of n particles is
 * stiff in bending as 1 / s^4, so at a fine spacing the particles' inertia
 * over a substep, not the compliance, would set how far a sweep gets, and
 * a cantilever of 64 particles hung straight down. The lines go row by
 * row, then column by column: one order, on the calling thread.
 */
#include "cloth_internal.h"

#include <float.h>

typedef struct curvature_line {
    uint32_t first, stride, count; /* particles first + m stride, m < count */
    float k;                       /* N/m, k = D w / s^3 */
} curvature_line;

/* The k of line `index` of `lines` parallel lines of spacing s, lines
 * `across` apart. */
static float line_k(float rigidity, uint32_t index, uint32_t lines, float s, float across)
{
    const bool border = index == 0u || index + 1u == lines;
    const double w = border ? 0.5 * (double)across : (double)across;
    const double k = (double)rigidity * w / ((double)s * (double)s * (double)s);
    return k < (double)FLT_MAX ? (float)k : FLT_MAX;
}

/* Calls fn on every line of the grid: rows, then columns. */
typedef void line_fn(cloth_t *cloth, const curvature_line *line, float h);

static void each_line(cloth_t *cloth, line_fn *fn, float h)
{
    const uint32_t rows = cloth->rows, cols = cloth->cols;
    const float su = cloth->family_rest[0], sv = cloth->family_rest[1];
    if (cols >= 3u) {
        for (uint32_t r = 0; r < rows; ++r) {
            const curvature_line line = {r * cols, 1u, cols, line_k(cloth->rigidity, r, rows, su, sv)};
            fn(cloth, &line, h);
        }
    }
    if (rows >= 3u) {
        for (uint32_t c = 0; c < cols; ++c) {
            const curvature_line line = {c, cols, rows, line_k(cloth->rigidity, c, cols, sv, su)};
            fn(cloth, &line, h);
        }
    }
}

static void line_forces(cloth_t *cloth, const curvature_line *line, float h)
{
    (void)h;
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

/* Solve one line exactly: the XPBD step of its constraints converged,
 * which for a linear constraint is implicit Euler: the positions x that
 * minimise sum m |x - y|^2 / (2 h^2) + sum k |C|^2 / 2, with y the
 * positions now, i.e. (M / h^2 + K) x = M y / h^2 with K pentadiagonal.
 * Pinned particles stay at y (their rows become identity and their
 * columns move to the right-hand side). LDL^T without pivoting in double:
 * the matrix is symmetric positive definite. Then v += (x - y) / h. Per
 * coordinate the matrix is the same, so it is factored once. */
static void line_project(cloth_t *cloth, const curvature_line *line, float h)
{
    cloth_particles *p = &cloth->p;
    const uint32_t n = line->count, st = line->stride;
    const double k = (double)line->k, inv_h2 = 1.0 / ((double)h * (double)h);
    if (!(k > 0.0) || !isfinite(k)) {
        return;
    }
    /* a0, a1, a2: the matrix's diagonal and its first and second upper
     * diagonals (a1[m] = A(m, m + 1)); then D and the unit lower factor's
     * L1[m] = L(m, m - 1), L2[m] = L(m, m - 2); z the right-hand side */
    double *a0 = cloth->curvature_scratch, *a1 = a0 + n, *a2 = a1 + n;
    double *D = a2 + n, *L1 = D + n, *L2 = L1 + n, *z = L2 + n;
    for (uint32_t m = 0; m < n; ++m) {
        const float w = p->w[line->first + m * st];
        a0[m] = w > 0.0f ? inv_h2 / (double)w : 0.0;
        a1[m] = 0.0;
        a2[m] = 0.0;
    }
    for (uint32_t m = 1; m + 1u < n; ++m) {
        a0[m - 1u] += k;
        a0[m] += 4.0 * k;
        a0[m + 1u] += k;
        a1[m - 1u] -= 2.0 * k;
        a1[m] -= 2.0 * k;
        a2[m - 1u] += k;
    }
    /* a pin's row and column: identity; its column's entries are kept in
     * a1 / a2 (copied to the free rows' right-hand sides below) */
    bool any_free = false;
    for (uint32_t m = 0; m < n; ++m) {
        any_free |= p->w[line->first + m * st] > 0.0f;
    }
    if (!any_free) {
        return;
    }
    for (uint32_t m = 0; m < n; ++m) {
        const bool pin = !(p->w[line->first + m * st] > 0.0f);
        const double A10 = m >= 1u ? a1[m - 1u] : 0.0, A20 = m >= 2u ? a2[m - 2u] : 0.0;
        const bool pin1 = m >= 1u && !(p->w[line->first + (m - 1u) * st] > 0.0f);
        const bool pin2 = m >= 2u && !(p->w[line->first + (m - 2u) * st] > 0.0f);
        /* couplings to pinned neighbours leave the matrix */
        const double c1 = pin || pin1 ? 0.0 : A10, c2 = pin || pin2 ? 0.0 : A20;
        L2[m] = m >= 2u ? c2 / D[m - 2u] : 0.0;
        L1[m] = m >= 1u ? (c1 - (m >= 2u ? L2[m] * D[m - 2u] * L1[m - 1u] : 0.0)) / D[m - 1u] : 0.0;
        D[m] = pin ? 1.0 : a0[m] - L1[m] * L1[m] * (m >= 1u ? D[m - 1u] : 0.0) -
                               L2[m] * L2[m] * (m >= 2u ? D[m - 2u] : 0.0);
    }
    float *pos[3] = {p->x, p->y, p->z}, *vel[3] = {p->vx, p->vy, p->vz};
    const double inv_hd = 1.0 / (double)h;
    for (int axis = 0; axis < 3; ++axis) {
        float *y = pos[axis], *v = vel[axis];
        for (uint32_t m = 0; m < n; ++m) {
            const uint32_t i = line->first + m * st;
            const float w = p->w[i];
            z[m] = w > 0.0f ? (double)y[i] * inv_h2 / (double)w : (double)y[i];
        }
        /* pins' known values onto the free rows beside them */
        for (uint32_t m = 0; m < n; ++m) {
            const uint32_t i = line->first + m * st;
            if (p->w[i] > 0.0f) {
                continue;
            }
            const double yp = (double)y[i];
            if (m >= 1u && p->w[i - st] > 0.0f) {
                z[m - 1u] -= a1[m - 1u] * yp;
            }
            if (m >= 2u && p->w[i - 2u * st] > 0.0f) {
                z[m - 2u] -= a2[m - 2u] * yp;
            }
            if (m + 1u < n && p->w[i + st] > 0.0f) {
                z[m + 1u] -= a1[m] * yp;
            }
            if (m + 2u < n && p->w[i + 2u * st] > 0.0f) {
                z[m + 2u] -= a2[m] * yp;
            }
        }
        for (uint32_t m = 1; m < n; ++m) {
            z[m] -= L1[m] * z[m - 1u] + (m >= 2u ? L2[m] * z[m - 2u] : 0.0);
        }
        for (uint32_t m = 0; m < n; ++m) {
            z[m] /= D[m];
        }
        for (uint32_t m = n - 1u; m-- > 0u;) {
            z[m] -= L1[m + 1u] * z[m + 1u] + (m + 2u < n ? L2[m + 2u] * z[m + 2u] : 0.0);
        }
        for (uint32_t m = 0; m < n; ++m) {
            const uint32_t i = line->first + m * st;
            if (!(p->w[i] > 0.0f)) {
                continue;
            }
            const float nx = (float)z[m];
            v[i] += (float)(((double)nx - (double)y[i]) * inv_hd);
            y[i] = nx;
        }
    }
}

void cloth_curvature_accumulate(cloth_t *cloth)
{
    if (cloth->tris == NULL && cloth->rigidity > 0.0f) {
        each_line(cloth, line_forces, 0.0f);
    }
}

void cloth_curvature_project(cloth_t *cloth, float h)
{
    if (cloth->tris == NULL && cloth->rigidity > 0.0f && cloth->curvature_scratch != NULL) {
        each_line(cloth, line_project, h);
    }
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
    const uint32_t longest = cloth->rows > cloth->cols ? cloth->rows : cloth->cols;
    const size_t bytes = 7u * (size_t)longest * sizeof(double);
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
