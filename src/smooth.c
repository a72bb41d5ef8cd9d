/*
 * The smooth surface of a grid cloth (seed 002 draws the cloth through
 * bicubic patches): one uniform Catmull-Rom patch per quad, evaluated at a
 * fixed set of parameters straight from the particle arrays into the host's
 * buffers. See smooth.h for the contract.
 */
#include "cloth_internal.h"
#include "platform/stride.h"

#include <float.h>
#include <string.h>

/* Weights of the four control points i-1, i, i+1, i+2 along one direction at
 * one parameter t in [0, 1], for the value and the derivative d/dt, already
 * folded onto real particles at the border (see fold_border()). */
typedef struct smooth_weights {
    uint32_t idx[4];
    float w[4];
    float dw[4];
    uint32_t near; /* the slot of the patch corner nearer to t: 1 (t < 1/2) or 2 */
} smooth_weights;

/* Catmull-Rom basis (tension 1/2) and its derivative. At t = 0 and t = 1 the
 * value weights are exactly (0, 1, 0, 0) and (0, 0, 1, 0) in float, which is
 * what makes patch corners reproduce the particles bit for bit. */
static void catmull_rom(float t, float w[4], float dw[4])
{
    const float t2 = t * t, t3 = t2 * t;
    w[0] = 0.5f * (-t3 + 2.0f * t2 - t);
    w[1] = 0.5f * (3.0f * t3 - 5.0f * t2 + 2.0f);
    w[2] = 0.5f * (-3.0f * t3 + 4.0f * t2 + t);
    w[3] = 0.5f * (t3 - t2);
    dw[0] = 0.5f * (-3.0f * t2 + 4.0f * t - 1.0f);
    dw[1] = 0.5f * (9.0f * t2 - 10.0f * t);
    dw[2] = 0.5f * (-9.0f * t2 + 8.0f * t + 1.0f);
    dw[3] = 0.5f * (3.0f * t2 - 2.0f * t);
}

/* The patch starting at particle `i` of a line of `n` (n >= 2, i <= n - 2)
 * needs i-1 and i+2. Beyond the border they are extrapolated by the
 * quadratic through the last three particles, P(-1) = 3 P(0) - 3 P(1) + P(2)
 * (linearly, P(-1) = 2 P(0) - P(1), when a line has only two), so the border
 * tangent is the second-order one-sided difference and a curved border is
 * followed to third order instead of second. Since the extrapolation is
 * linear in the particles, it is folded into the weights here and the
 * evaluation never needs a phantom point. With n >= 3 a patch lacks at most
 * one neighbour, and the particle the quadratic needs is one it already has. */
static void fold_border(uint32_t i, uint32_t n, smooth_weights *s)
{
    const bool first = i == 0u, last = i + 2u >= n;
    s->idx[0] = first ? i : i - 1u;
    s->idx[1] = i;
    s->idx[2] = i + 1u;
    s->idx[3] = last ? i + 1u : i + 2u;
    if (first && last) { /* n == 2: linear at both ends */
        s->w[1] += 2.0f * s->w[0] - s->w[3];
        s->w[2] += 2.0f * s->w[3] - s->w[0];
        s->dw[1] += 2.0f * s->dw[0] - s->dw[3];
        s->dw[2] += 2.0f * s->dw[3] - s->dw[0];
        s->w[0] = s->w[3] = s->dw[0] = s->dw[3] = 0.0f;
    } else if (first) { /* slot 3 holds P(2) */
        s->w[1] += 3.0f * s->w[0];
        s->w[2] -= 3.0f * s->w[0];
        s->w[3] += s->w[0];
        s->dw[1] += 3.0f * s->dw[0];
        s->dw[2] -= 3.0f * s->dw[0];
        s->dw[3] += s->dw[0];
        s->w[0] = s->dw[0] = 0.0f;
    } else if (last) { /* slot 0 holds P(n - 3) */
        s->w[2] += 3.0f * s->w[3];
        s->w[1] -= 3.0f * s->w[3];
        s->w[0] += s->w[3];
        s->dw[2] += 3.0f * s->dw[3];
        s->dw[1] -= 3.0f * s->dw[3];
        s->dw[0] += s->dw[3];
        s->w[3] = s->dw[3] = 0.0f;
    }
}

/* Weights for output line k (0 .. (n - 1) level) of a grid line of n particles. */
static void line_weights(uint32_t k, uint32_t level, uint32_t n, const float *w_table,
                         const float *dw_table, smooth_weights *s)
{
    uint32_t patch = k / level, j = k % level;
    if (patch > n - 2u) { /* the last output line is t = 1 of the last patch */
        patch = n - 2u;
        j = level;
    }
    memcpy(s->w, w_table + 4u * j, sizeof s->w);
    memcpy(s->dw, dw_table + 4u * j, sizeof s->dw);
    s->near = 2u * j < level ? 1u : 2u;
    fold_border(patch, n, s);
}

/* Shared validation; fills the output grid's size on success. */
static cloth_status smooth_size(const cloth_t *cloth, uint32_t level, uint32_t *out_rows, uint32_t *out_cols)
{
    if (cloth == NULL || level < 1u || level > CLOTH_SMOOTH_MAX_LEVEL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (cloth->tris != NULL) {
        return CLOTH_ERR_UNSUPPORTED;
    }
    if (cloth->rows < 2u || cloth->cols < 2u) {
        *out_rows = 0u;
        *out_cols = 0u;
        return CLOTH_OK;
    }
    /* 64-bit arithmetic: 2^26 particles at level 16 would overflow 32 bits.
     * Both the vertex count and the index count (3 per triangle) must fit in
     * uint32_t, the type the host sizes its buffers and indices with. */
    const uint64_t rows = (uint64_t)(cloth->rows - 1u) * level + 1u;
    const uint64_t cols = (uint64_t)(cloth->cols - 1u) * level + 1u;
    if (rows * cols > UINT32_MAX || 6u * (rows - 1u) * (cols - 1u) > UINT32_MAX) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *out_rows = (uint32_t)rows;
    *out_cols = (uint32_t)cols;
    return CLOTH_OK;
}

cloth_status cloth_smooth_counts(const cloth_t *cloth, uint32_t level, uint32_t *vertex_count,
                                 uint32_t *triangle_count)
{
    if (vertex_count == NULL || triangle_count == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    uint32_t rows = 0u, cols = 0u;
    cloth_status s = smooth_size(cloth, level, &rows, &cols);
    if (s != CLOTH_OK) {
        return s;
    }
    *vertex_count = rows * cols;
    *triangle_count = rows == 0u ? 0u : 2u * (rows - 1u) * (cols - 1u);
    return CLOTH_OK;
}

/* Through memcpy: the host's index buffer may sit at any byte address. */
static void write_triangles(uint32_t rows, uint32_t cols, uint32_t *dst)
{
    unsigned char *out = (unsigned char *)dst;
    for (uint32_t r = 0; r + 1u < rows; ++r) {
        for (uint32_t c = 0; c + 1u < cols; ++c) {
            const uint32_t i = r * cols + c;
            const uint32_t quad[6] = {i, i + cols, i + 1u, i + 1u, i + cols, i + cols + 1u};
            memcpy(out, quad, sizeof quad);
            out += sizeof quad;
        }
    }
}

/* One vertex of the surface: the position P and the partial derivatives
 * dP/drow, dP/dcol, in double, relative to the patch corner `ref` nearest
 * to it: P = ref + sum wr wc (X - ref). Then
 *  - no product overflows, for any finite particles (a cloth spanning
 *    -FLT_MAX .. FLT_MAX included), where float sums of w X at X ~ FLT_MAX
 *    gave inf - inf = NaN;
 *  - the weights, whose sums are 1 and 0 only to float precision, scale
 *    offsets within the patch, not distances from the origin, so a flat
 *    cloth far away stays flat and its tangents clean;
 *  - a patch corner is still the particle bit for bit: there every weight
 *    is 0 but one, which is 1, on ref itself, so the sum is exactly 0.
 * Row by row: first the three column sums of the row, then the row's
 * contribution to the three results. */
static void eval_vertex(const cloth_t *cloth, const smooth_weights *wr, const smooth_weights *wc, double p[3],
                        double dr[3], double dc[3])
{
    const float *px = cloth->p.x, *py = cloth->p.y, *pz = cloth->p.z;
    const uint32_t pcols = cloth->cols;
    const uint32_t ref = wr->idx[wr->near] * pcols + wc->idx[wc->near];
    const double rx = (double)px[ref], ry = (double)py[ref], rz = (double)pz[ref];
    for (int k = 0; k < 3; ++k) {
        p[k] = dr[k] = dc[k] = 0.0;
    }
    for (int a = 0; a < 4; ++a) {
        if (wr->w[a] == 0.0f && wr->dw[a] == 0.0f) {
            continue; /* a folded-away border line */
        }
        const uint32_t base = wr->idx[a] * pcols;
        double v[3] = {0.0, 0.0, 0.0}, dv[3] = {0.0, 0.0, 0.0};
        for (int b = 0; b < 4; ++b) {
            const uint32_t i = base + wc->idx[b];
            const double o[3] = {(double)px[i] - rx, (double)py[i] - ry, (double)pz[i] - rz};
            const double w = (double)wc->w[b], dw = (double)wc->dw[b];
            for (int k = 0; k < 3; ++k) {
                v[k] += w * o[k];
                dv[k] += dw * o[k];
            }
        }
        const double w = (double)wr->w[a], dw = (double)wr->dw[a];
        for (int k = 0; k < 3; ++k) {
            p[k] += w * v[k];
            dr[k] += dw * v[k];
            dc[k] += w * dv[k];
        }
    }
    /* where the offsets cancel, the particle itself: ref + 0 would turn a
     * -0 coordinate into +0 */
    const double r[3] = {rx, ry, rz};
    for (int k = 0; k < 3; ++k) {
        p[k] = p[k] == 0.0 ? r[k] : r[k] + p[k];
    }
}

/* Catmull-Rom overshoots its particles, so the surface of a cloth at the
 * edge of the float range can leave it: clamp, finite in, finite out. */
static float clamp_to_float(double x)
{
    return (float)(x > (double)FLT_MAX ? (double)FLT_MAX : (x < -(double)FLT_MAX ? -(double)FLT_MAX : x));
}

/* dP/drow x dP/dcol, normalised: the orientation of the grid's triangles
 * (i, i + cols, i + 1), whose normal is (down) x (right). The tangents
 * are sums of float weights times differences of floats: at most about
 * 1e41, and about 1e-60 at least when not zero, so the squared length of
 * their cross product stays well inside double's range. */
static void surface_normal(const cloth_t *cloth, const double dr[3], const double dc[3], float n[3])
{
    const double cr[3] = {dr[1] * dc[2] - dr[2] * dc[1], dr[2] * dc[0] - dr[0] * dc[2],
                          dr[0] * dc[1] - dr[1] * dc[0]};
    const double len = sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]);
    if (len > 0.0 && isfinite(len)) {
        for (int k = 0; k < 3; ++k) {
            n[k] = (float)(cr[k] / len);
        }
    } else {
        memcpy(n, cloth->fallback_normal, 3u * sizeof(float));
    }
}

cloth_status cloth_get_smooth(const cloth_t *cloth, uint32_t level, float *positions, size_t pos_stride,
                              float *normals, size_t nrm_stride, uint32_t *triangles)
{
    /* the strides' form first (a bad one is refused even for a mesh cloth),
     * their extent once the vertex count is known */
    const size_t rec = 3u * sizeof(float);
    if (positions == NULL || !cloth_stride_ok(&pos_stride, 1u, rec) || !cloth_stride_ok(&nrm_stride, 1u, rec)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    uint32_t rows = 0u, cols = 0u;
    cloth_status s = smooth_size(cloth, level, &rows, &cols);
    if (s != CLOTH_OK || rows == 0u) {
        return s;
    }
    if (!cloth_stride_ok(&pos_stride, rows * cols, rec) || !cloth_stride_ok(&nrm_stride, rows * cols, rec)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }

    /* The basis at the level + 1 parameters t = j / level, shared by every
     * patch: the evaluation then costs multiply-adds only. */
    float w_table[4u * (CLOTH_SMOOTH_MAX_LEVEL + 1u)], dw_table[4u * (CLOTH_SMOOTH_MAX_LEVEL + 1u)];
    for (uint32_t j = 0; j <= level; ++j) {
        catmull_rom((float)j / (float)level, w_table + 4u * j, dw_table + 4u * j);
    }

    /* Every store into the host's buffers is a memcpy at a byte offset
     * from its start: they may sit at any byte address. */
    unsigned char *pos_out = (unsigned char *)positions;
    unsigned char *nrm_out = (unsigned char *)normals;
    for (uint32_t r = 0; r < rows; ++r) {
        smooth_weights wr;
        line_weights(r, level, cloth->rows, w_table, dw_table, &wr);
        for (uint32_t c = 0; c < cols; ++c) {
            smooth_weights wc;
            line_weights(c, level, cloth->cols, w_table, dw_table, &wc);
            double p[3], dr[3], dc[3];
            eval_vertex(cloth, &wr, &wc, p, dr, dc);
            const size_t at = (size_t)(r * cols + c);
            const float pf[3] = {clamp_to_float(p[0]), clamp_to_float(p[1]), clamp_to_float(p[2])};
            memcpy(pos_out + at * pos_stride, pf, sizeof pf);
            if (normals != NULL) {
                float n[3];
                surface_normal(cloth, dr, dc, n);
                memcpy(nrm_out + at * nrm_stride, n, sizeof n);
            }
        }
    }
    if (triangles != NULL) {
        write_triangles(rows, cols, triangles);
    }
    return CLOTH_OK;
}
