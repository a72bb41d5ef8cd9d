/*
 * The strain limit's loops over runs of springs (strain_kernels.h): the
 * vector kernels of the cloth's width (kernels/limit.inl) for runs across
 * rows and a row's own springs, and the plain loop below for springs in
 * order (a coarse level's chains) and one at a time (a mesh). Every lane
 * of a kernel does what shorten() does.
 */
#include "strain_kernels.h"

/* Shorten spring (i, j) to `lim` if it is longer (lim2 = lim * lim). */
static inline void shorten(const limit_ctx *c, uint32_t i, uint32_t j, float lim, float lim2)
{
    const float dx = c->x[j] - c->x[i], dy = c->y[j] - c->y[i], dz = c->z[j] - c->z[i];
    const float len2 = dx * dx + dy * dy + dz * dz;
    const float wi = c->w[i], wj = c->w[j], wsum = wi + wj;
    if (!(len2 > lim2) || wsum == 0.0f) {
        return; /* within the limit (or NaN, which the step's check catches), or two pins */
    }
    const float len = sqrtf(len2);
    const float k = (len - lim) / (len * wsum);
    const float ix = wi * k * dx, iy = wi * k * dy, iz = wi * k * dz;
    const float jx = wj * k * dx, jy = wj * k * dy, jz = wj * k * dz;
    c->x[i] += ix;
    c->y[i] += iy;
    c->z[i] += iz;
    c->x[j] -= jx;
    c->y[j] -= jy;
    c->z[j] -= jz;
    if (c->vx == NULL) {
        return;
    }
    /* as if the move had been made over the step: momentum is kept */
    c->vx[i] += ix * c->inv_dt;
    c->vy[i] += iy * c->inv_dt;
    c->vz[i] += iz * c->inv_dt;
    c->vx[j] -= jx * c->inv_dt;
    c->vy[j] -= jy * c->inv_dt;
    c->vz[j] -= jz * c->inv_dt;
}

void cloth_limit_ctx_init(limit_ctx *c, const cloth_t *cloth, float *const pos[3], float *const vel[3],
                          const float *w, float inv_dt)
{
    c->x = pos[0];
    c->y = pos[1];
    c->z = pos[2];
    c->vx = vel[0];
    c->vy = vel[1];
    c->vz = vel[2];
    c->w = w;
    c->inv_dt = inv_dt;
    const cloth_kernels *kernels = cloth_kernels_at(cloth->simd);
    c->run = kernels->limit_across;
    c->along = kernels->limit_along;
}

void cloth_limit_across(const limit_ctx *c, uint32_t begin, uint32_t end, uint32_t di, float lim)
{
    c->run(c, begin, end, di, lim, lim * lim);
}

void cloth_limit_along(const limit_ctx *c, uint32_t begin, uint32_t end, float lim)
{
    for (uint32_t colour = 0; colour < 2u; ++colour) {
        c->along(c, begin, end, lim, lim * lim, colour);
    }
}

void cloth_limit_in_order(const limit_ctx *c, uint32_t begin, uint32_t end, uint32_t di, float lim)
{
    for (uint32_t p = begin; p < end; ++p) {
        shorten(c, p, p + di, lim, lim * lim);
    }
}

void cloth_limit_spring(const limit_ctx *c, uint32_t i, uint32_t j, float lim)
{
    shorten(c, i, j, lim, lim * lim);
}

void cloth_limit_list(const limit_ctx *ctx, const uint32_t *ab, const float *rest, uint32_t count, float scale)
{
    const limit_ctx c = *ctx; /* a copy the stores cannot reach: its pointers stay in registers */
    for (uint32_t k = 0; k < count; ++k) {
        const float lim = scale * rest[k];
        shorten(&c, ab[2u * k], ab[2u * k + 1u], lim, lim * lim);
    }
}
