/*
 * The smooth surface of a grid cloth (seed 002 draws the cloth through
 * bicubic patches): one uniform Catmull-Rom patch per quad, evaluated at a
 * fixed set of parameters straight from the particle arrays into the host's
 * buffers. See smooth.h for the contract.
 */
#include "cloth_internal.h"

#include <string.h>

/* Weights of the four control points i-1, i, i+1, i+2 along one direction at
 * one parameter t in [0, 1], for the value and the derivative d/dt, already
 * folded onto real particles at the border (see fold_border()). */
typedef struct smooth_weights {
    uint32_t idx[4];
    float w[4];
    float dw[4];
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
    fold_border(patch, n, s);
}

static bool stride_ok(size_t *stride_bytes)
{
    if (*stride_bytes == 0u) {
        *stride_bytes = 3u * sizeof(float);
        return true;
    }
    return *stride_bytes >= 3u * sizeof(float) && *stride_bytes % sizeof(float) == 0u;
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

static void write_triangles(uint32_t rows, uint32_t cols, uint32_t *dst)
{
    for (uint32_t r = 0; r + 1u < rows; ++r) {
        for (uint32_t c = 0; c + 1u < cols; ++c) {
            const uint32_t i = r * cols + c;
            dst[0] = i;
            dst[1] = i + cols;
            dst[2] = i + 1u;
            dst[3] = i + 1u;
            dst[4] = i + cols;
            dst[5] = i + cols + 1u;
            dst += 6;
        }
    }
}

cloth_status cloth_get_smooth(const cloth_t *cloth, uint32_t level, float *positions, size_t pos_stride,
                              float *normals, size_t nrm_stride, uint32_t *triangles)
{
    if (positions == NULL || !stride_ok(&pos_stride) || !stride_ok(&nrm_stride)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    uint32_t rows = 0u, cols = 0u;
    cloth_status s = smooth_size(cloth, level, &rows, &cols);
    if (s != CLOTH_OK || rows == 0u) {
        return s;
    }

    /* The basis at the level + 1 parameters t = j / level, shared by every
     * patch: the evaluation then costs multiply-adds only. */
    float w_table[4u * (CLOTH_SMOOTH_MAX_LEVEL + 1u)], dw_table[4u * (CLOTH_SMOOTH_MAX_LEVEL + 1u)];
    for (uint32_t j = 0; j <= level; ++j) {
        catmull_rom((float)j / (float)level, w_table + 4u * j, dw_table + 4u * j);
    }

    const float *px = cloth->p.x, *py = cloth->p.y, *pz = cloth->p.z;
    const uint32_t pcols = cloth->cols;
    unsigned char *pos_out = (unsigned char *)positions;
    unsigned char *nrm_out = (unsigned char *)normals;
    for (uint32_t r = 0; r < rows; ++r) {
        smooth_weights wr;
        line_weights(r, level, cloth->rows, w_table, dw_table, &wr);
        for (uint32_t c = 0; c < cols; ++c) {
            smooth_weights wc;
            line_weights(c, level, pcols, w_table, dw_table, &wc);
            /* P = sum wr wc X; dP/drow = sum dwr wc X; dP/dcol = sum wr dwc X.
             * Row by row: first the three column sums of the row, then the
             * row's contribution to the three results. */
            float p[3] = {0.0f, 0.0f, 0.0f}, dr[3] = {0.0f, 0.0f, 0.0f}, dc[3] = {0.0f, 0.0f, 0.0f};
            for (int a = 0; a < 4; ++a) {
                if (wr.w[a] == 0.0f && wr.dw[a] == 0.0f) {
                    continue; /* a folded-away border line */
                }
                const uint32_t base = wr.idx[a] * pcols;
                float v[3] = {0.0f, 0.0f, 0.0f}, dv[3] = {0.0f, 0.0f, 0.0f};
                for (int b = 0; b < 4; ++b) {
                    const uint32_t i = base + wc.idx[b];
                    v[0] += wc.w[b] * px[i];
                    v[1] += wc.w[b] * py[i];
                    v[2] += wc.w[b] * pz[i];
                    dv[0] += wc.dw[b] * px[i];
                    dv[1] += wc.dw[b] * py[i];
                    dv[2] += wc.dw[b] * pz[i];
                }
                for (int k = 0; k < 3; ++k) {
                    p[k] += wr.w[a] * v[k];
                    dr[k] += wr.dw[a] * v[k];
                    dc[k] += wr.w[a] * dv[k];
                }
            }
            memcpy(pos_out, p, sizeof p);
            pos_out += pos_stride;
            if (normals != NULL) {
                /* dP/drow x dP/dcol: the orientation of the grid's triangles
                 * (i, i + cols, i + 1), whose normal is (down) x (right). */
                const float cr[3] = {dr[1] * dc[2] - dr[2] * dc[1], dr[2] * dc[0] - dr[0] * dc[2],
                                     dr[0] * dc[1] - dr[1] * dc[0]};
                float n[3];
                if (!cloth_normalise3(cr, n)) {
                    memcpy(n, cloth->fallback_normal, sizeof n);
                }
                memcpy(nrm_out, n, sizeof n);
                nrm_out += nrm_stride;
            }
        }
    }
    if (triangles != NULL) {
        write_triangles(rows, cols, triangles);
    }
    return CLOTH_OK;
}
