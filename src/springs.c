/*
 * Spring forces of a grid cloth (seed 000): tension T = k (e + beta de/dt)
 * with strain e = (l - L0) / L0, along the spring, on both ends.
 *
 * The springs are not stored: each family is an offset (dr, dc) in the grid,
 * so one family is a pair of nested loops over contiguous index ranges, which
 * is the shape the vectoriser and a row-range thread split want.
 */
#include "cloth_internal.h"

const cloth_grid_family cloth_grid_families[CLOTH_GRID_FAMILIES] = {
    {0, 1, CLOTH_SPRING_STRUCTURAL}, {1, 0, CLOTH_SPRING_STRUCTURAL},
    {1, 1, CLOTH_SPRING_SHEAR},      {1, -1, CLOTH_SPRING_SHEAR},
    {0, 2, CLOTH_SPRING_BEND},       {2, 0, CLOTH_SPRING_BEND},
};

void cloth_springs_rest(cloth_t *cloth, const float u[3], const float v[3], float spacing)
{
    for (int f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
        float dc = (float)cloth_grid_families[f].dc, dr = (float)cloth_grid_families[f].dr;
        float d[3];
        for (int k = 0; k < 3; ++k) {
            d[k] = (dc * u[k] + dr * v[k]) * spacing;
        }
        cloth->family_rest[f] = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }
}

/* One family: every spring (i, i + di) for rows [0, rows - dr) and columns
 * [c0, c1). */
static void accumulate_family(cloth_t *cloth, const cloth_grid_family *fam, float rest)
{
    const float k = cloth->stiffness[fam->type];
    if (k == 0.0f) {
        return;
    }
    const float beta = cloth->spring_damping[fam->type];
    const uint32_t rows = cloth->rows, cols = cloth->cols;
    const uint32_t dr = (uint32_t)fam->dr;
    const uint32_t c0 = fam->dc < 0 ? (uint32_t)(-fam->dc) : 0u;
    const uint32_t c1 = fam->dc > 0 ? (cols > (uint32_t)fam->dc ? cols - (uint32_t)fam->dc : 0u) : cols;
    if (rows <= dr || c1 <= c0) {
        return;
    }
    const uint32_t di = (uint32_t)((int32_t)(dr * cols) + fam->dc);
    const float inv_rest = 1.0f / rest;
    const float *x = cloth->p.x, *y = cloth->p.y, *z = cloth->p.z;
    const float *vx = cloth->p.vx, *vy = cloth->p.vy, *vz = cloth->p.vz;
    float *fx = cloth->p.fx, *fy = cloth->p.fy, *fz = cloth->p.fz;

    for (uint32_t r = 0; r + dr < rows; ++r) {
        for (uint32_t i = r * cols + c0, end = r * cols + c1; i < end; ++i) {
            const uint32_t j = i + di;
            float dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
            float len2 = dx * dx + dy * dy + dz * dz;
            if (!(len2 > 0.0f)) {
                continue; /* coincident ends have no direction to pull along */
            }
            float len = sqrtf(len2);
            float inv_len = 1.0f / len;
            float strain = (len - rest) * inv_rest;
            float strain_rate = ((vx[j] - vx[i]) * dx + (vy[j] - vy[i]) * dy + (vz[j] - vz[i]) * dz) *
                                inv_len * inv_rest;
            float t = k * (strain + beta * strain_rate) * inv_len;
            float gx = t * dx, gy = t * dy, gz = t * dz;
            fx[i] += gx;
            fy[i] += gy;
            fz[i] += gz;
            fx[j] -= gx;
            fy[j] -= gy;
            fz[j] -= gz;
        }
    }
}

void cloth_springs_accumulate(cloth_t *cloth)
{
    for (int f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
        accumulate_family(cloth, &cloth_grid_families[f], cloth->family_rest[f]);
    }
}
