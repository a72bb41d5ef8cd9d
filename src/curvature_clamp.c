/*
 * The clamps of a grid's curvature bending (curvature.c): where a line's
 * particles a and b are both pinned and c, beyond b, is free, the strip is
 * rigid up to b and the turn the constraint at b measures happens over the
 * half segment from b to the middle of b-c. The lines' solve counts that
 * constraint once; this adds the second count, on c alone (a and b do not
 * move), so that a cantilever droops as the continuous strip does at any
 * resolution.
 */
#include "curvature.h"

/* Every clamp (the header comment): calls `fn` with the line's k and the
 * three particles, in the order of the pin table and of the directions
 * below, so the result does not depend on threads. */
typedef void clamp_fn(cloth_t *cloth, uint32_t a, uint32_t b, uint32_t c, double k, double h);

static void each_clamp(cloth_t *cloth, clamp_fn *fn, double h)
{
    const uint32_t rows = cloth->rows, cols = cloth->cols;
    const float su = cloth->family_rest[0], sv = cloth->family_rest[1];
    const float *w = cloth->p.w;
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        const uint32_t b = cloth->pins[k].index, r = b / cols, col = b % cols;
        /* along the row to the left, to the right; down the column up, down */
        const bool has[4][2] = {{col >= 1u, col + 1u < cols}, {col + 1u < cols, col >= 1u},
                                {r >= 1u, r + 1u < rows}, {r + 1u < rows, r >= 1u}};
        for (int d = 0; d < 4; ++d) {
            if (!has[d][0] || !has[d][1]) {
                continue;
            }
            const uint32_t step = d < 2 ? 1u : cols;
            const uint32_t a = (d & 1) ? b + step : b - step, c = (d & 1) ? b - step : b + step;
            if (w[a] > 0.0f || !(w[c] > 0.0f)) {
                continue;
            }
            const float lk = d < 2 ? cloth_curvature_line_k(cloth->rigidity, r, rows, su, sv)
                                   : cloth_curvature_line_k(cloth->rigidity, col, cols, sv, su);
            if (lk > 0.0f && isfinite(lk)) {
                fn(cloth, a, b, c, (double)lk, h);
            }
        }
    }
}

/* The clamp's second count as a force on c: -k C. */
static void clamp_force(cloth_t *cloth, uint32_t a, uint32_t b, uint32_t c, double k, double h)
{
    (void)h;
    cloth_particles *p = &cloth->p;
    p->fx[c] -= (float)(k * ((double)p->x[a] - 2.0 * (double)p->x[b] + (double)p->x[c]));
    p->fy[c] -= (float)(k * ((double)p->y[a] - 2.0 * (double)p->y[b] + (double)p->y[c]));
    p->fz[c] -= (float)(k * ((double)p->z[a] - 2.0 * (double)p->z[b] + (double)p->z[c]));
}

/* The clamp's second count as one XPBD projection of c (a and b do not
 * move): C + (w + 1 / (k h^2)) dlambda = 0, x_c += w dlambda, v_c by the
 * move over h. */
static void clamp_project(cloth_t *cloth, uint32_t a, uint32_t b, uint32_t c, double k, double h)
{
    cloth_particles *p = &cloth->p;
    const double w = (double)p->w[c];
    const double f = w / (w + 1.0 / (k * h * h));
    float *const pos[3] = {p->x, p->y, p->z}, *const vel[3] = {p->vx, p->vy, p->vz};
    for (int e = 0; e < 3; ++e) {
        const double C = (double)pos[e][a] - 2.0 * (double)pos[e][b] + (double)pos[e][c];
        const float moved = (float)((double)pos[e][c] - f * C);
        vel[e][c] += (float)(((double)moved - (double)pos[e][c]) / h);
        pos[e][c] = moved;
    }
}

void cloth_curvature_clamp_forces(cloth_t *cloth)
{
    each_clamp(cloth, clamp_force, 0.0);
}

void cloth_curvature_clamp_project(cloth_t *cloth, float h)
{
    each_clamp(cloth, clamp_project, (double)h);
}
