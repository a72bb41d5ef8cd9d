/*
 * Extended position-based dynamics (XPBD; Macklin, Mueller, Chentanez 2016)
 * in small steps (Macklin, Storey, Lu, Terdiman, Chentanez, Jeschke, Mueller
 * 2019): one constraint C = |xi - xj| - L0 per spring, solved once per
 * iteration, lambda reset every substep.
 *
 *   predict   v* = v d + (g + w f) h,  x* = x + v* h       (d = exp(-c h))
 *   project   `iterations` Gauss-Seidel sweeps; each spring, with
 *             n = (xi - xj) / |xi - xj|, alpha~ = L0 / (k h^2), gamma = beta / h:
 *               dl = (-C - alpha~ lambda - gamma n.(dxi - dxj)) / ((1 + gamma)(wi + wj) + alpha~)
 *               lambda += dl,  xi += wi dl n,  xj -= wj dl n
 *             (dx = x - x_start, the motion since the substep began)
 *   velocity  v = (x - x_start) / h = dx / h
 *
 * Pinned particles (w = 0) are already where the step put them for the end
 * of the substep; their dx is their own velocity times h, so that the spring
 * damping sees a moving pin move.
 *
 * The solve runs on the displacements dx since the start of the substep,
 * with positions x_start + dx, and x is written once at the end. At 16
 * substeps of 1/60 s gravity moves a particle by g h^2 = 1e-5 m per substep,
 * a few hundred float ulps of a coordinate near 0.5 m; updating x in place
 * would round that increment and every correction against it, and at rest
 * the rounding is the same every substep, so it would shift the statics by
 * ~1e-3 of the strain. Displacements carry the full precision, and so does
 * the velocity taken from them.
 *
 * Compliance: a spring of stiffness k (tension k (l - L0) / L0) has axial
 * stiffness k / L0, so alpha = L0 / k. Converged, the sweeps solve the
 * implicit-Euler step of exactly the force model (springs with their damping
 * along the spring: the paper's damping coefficient is (k / L0) beta, so its
 * gamma = alpha beta / h = beta / h), and at rest the statics are the force
 * model's. The sideways part of the force model's spring damping is left out.
 *
 * Damping is applied to the old velocity before the substep's acceleration
 * is added (v d + a h, not (v + a h) d): at rest v = 0, so the prediction
 * then moves a particle by exactly g h^2 and the fixed point is the
 * undamped statics; decaying the gravity increment too would weaken gravity
 * by the factor d in the statics.
 *
 * Gauss-Seidel over a colouring: within a colour no two springs share a
 * particle, so a colour is a data-parallel loop whose result does not depend
 * on its order. A grid runs in xpbd_grid.c (rows of stencil springs, the
 * vector kernel, blocks of rows for threads). A mesh's springs are coloured
 * greedily once, when the integrator is installed, and solved here one
 * colour after another.
 */
#include "cloth_internal.h"
#include "xpbd_grid.h"
#include "integrators/integrators.h"

#include <string.h>

/* A mesh spring in solve order. */
typedef struct xpbd_link {
    uint32_t i, j;
    float rest;
    uint32_t type;
} xpbd_link;

typedef struct xpbd_state {
    cloth_allocator alloc;
    size_t bytes;
    float *dx, *dy, *dz; /* displacement since the start of the substep, m */
    float *lambda;       /* grid: `stride` per active family; mesh: one per link */
    size_t lambda_count;
    size_t stride;
    xpbd_link *links;       /* mesh: springs grouped by colour */
    xpbd_grid_solver grid;  /* grid: the kernel and the lambdas (made at the first step with iterations > 1) */
    size_t grid_lambda_bytes;
    uint32_t *colour_begin; /* mesh: colour c is links [colour_begin[c], colour_begin[c + 1]) */
    uint32_t colours, link_count;
} xpbd_state;

/* Per spring type for one substep: 1 / (k h^2), so that a spring's
 * alpha~ = L0 / (k h^2) is one product (infinite when k = 0 or so small that
 * the spring cannot act: such springs are skipped), and gamma = beta / h. */
typedef struct xpbd_coeffs {
    float inv_kh2[CLOTH_SPRING_TYPES];
    float gamma[CLOTH_SPRING_TYPES];
} xpbd_coeffs;

#define NO_COLOUR 0xffffffffu

static size_t round_up(size_t n, size_t a)
{
    return (n + a - 1u) / a * a;
}

/* Greedy colouring, in rounds of 64 colours: a round gives each spring not
 * yet coloured the lowest colour of the round that neither end uses. Every
 * round colours at least its first spring, so it ends; the order springs are
 * visited in is fixed, so the colouring depends only on the mesh. Returns
 * the number of colour numbers used (some may be empty). */
static uint32_t colour_springs(const cloth_t *cloth, uint32_t *colour, uint64_t *used)
{
    const uint32_t n = cloth->spring_count;
    uint32_t left = n, base = 0;
    for (uint32_t s = 0; s < n; ++s) {
        colour[s] = NO_COLOUR;
    }
    while (left > 0u) {
        memset(used, 0, (size_t)cloth->count * sizeof *used);
        for (uint32_t s = 0; s < n; ++s) {
            if (colour[s] != NO_COLOUR) {
                continue;
            }
            const uint32_t i = cloth->spring_ij[2u * s], j = cloth->spring_ij[2u * s + 1u];
            uint64_t busy = used[i] | used[j];
            if (busy == ~(uint64_t)0) {
                continue; /* next round */
            }
            uint32_t bit = 0;
            while (busy & 1u) {
                busy >>= 1;
                ++bit;
            }
            colour[s] = base + bit;
            used[i] |= (uint64_t)1 << bit;
            used[j] |= (uint64_t)1 << bit;
            --left;
        }
        base += 64u;
    }
    uint32_t top = 0;
    for (uint32_t s = 0; s < n; ++s) {
        top = colour[s] + 1u > top ? colour[s] + 1u : top;
    }
    return top;
}

static uint32_t spring_type(const cloth_t *cloth, uint32_t s)
{
    uint32_t t = 0;
    while (t + 1u < CLOTH_SPRING_TYPES && s >= cloth->type_begin[t + 1u]) {
        ++t;
    }
    return t;
}

/* Sort the springs by colour (stably, so ties keep the mesh's order) into
 * the state's links, dropping empty colours. `count` holds a counter per
 * colour number. */
static void order_links(const cloth_t *cloth, const uint32_t *colour, uint32_t numbers, uint32_t *count,
                        xpbd_state *st)
{
    memset(count, 0, (size_t)numbers * sizeof *count);
    for (uint32_t s = 0; s < cloth->spring_count; ++s) {
        ++count[colour[s]];
    }
    uint32_t at = 0, c = 0;
    for (uint32_t k = 0; k < numbers; ++k) {
        const uint32_t size = count[k];
        if (size > 0u) {
            st->colour_begin[c++] = at;
        }
        count[k] = at; /* now the next free slot of colour number k */
        at += size;
    }
    st->colour_begin[c] = at;
    st->colours = c;
    for (uint32_t s = 0; s < cloth->spring_count; ++s) {
        xpbd_link *l = &st->links[count[colour[s]]++];
        l->i = cloth->spring_ij[2u * s];
        l->j = cloth->spring_ij[2u * s + 1u];
        l->rest = cloth->spring_rest[s];
        l->type = spring_type(cloth, s);
    }
}

/* One block: the header, the position and lambda arrays, then (mesh) the
 * links and colour ranges. */
static cloth_status make_state(const cloth_t *cloth, size_t lambda_count, uint32_t links, uint32_t colours,
                               xpbd_state **out)
{
    const size_t lanes = CLOTH_ALIGN / sizeof(float);
    const size_t stride = round_up(cloth->count, lanes);
    const size_t head = round_up(sizeof(xpbd_state), CLOTH_ALIGN);
    const size_t floats = round_up(3u * stride + lambda_count, lanes);
    const size_t link_bytes = (size_t)links * sizeof(xpbd_link);
    const size_t bytes = head + floats * sizeof(float) + link_bytes + ((size_t)colours + 1u) * sizeof(uint32_t);
    unsigned char *mem = cloth_mem_alloc(&cloth->alloc, bytes);
    if (mem == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memset(mem, 0, bytes);
    xpbd_state *st = (xpbd_state *)(void *)mem;
    float *f = (float *)(void *)(mem + head);
    st->alloc = cloth->alloc;
    st->bytes = bytes;
    st->stride = stride;
    st->dx = f;
    st->dy = f + stride;
    st->dz = f + 2u * stride;
    st->lambda = f + 3u * stride;
    st->lambda_count = lambda_count;
    st->links = (xpbd_link *)(void *)(mem + head + floats * sizeof(float));
    st->colour_begin = (uint32_t *)(void *)(mem + head + floats * sizeof(float) + link_bytes);
    st->link_count = links;
    *out = st;
    return CLOTH_OK;
}

static cloth_status create_mesh_state(const cloth_t *cloth, xpbd_state **out)
{
    const uint32_t n = cloth->spring_count;
    const size_t colour_bytes = (size_t)n * sizeof(uint32_t);
    const size_t used_bytes = (size_t)cloth->count * sizeof(uint64_t);
    uint32_t *colour = cloth_mem_alloc(&cloth->alloc, colour_bytes);
    uint64_t *used = cloth_mem_alloc(&cloth->alloc, used_bytes);
    uint32_t *count = NULL;
    size_t count_bytes = 0;
    cloth_status s = CLOTH_ERR_OUT_OF_MEMORY;
    if (colour != NULL && used != NULL) {
        const uint32_t numbers = colour_springs(cloth, colour, used);
        count_bytes = (size_t)numbers * sizeof(uint32_t);
        uint32_t colours = 0;
        count = cloth_mem_alloc(&cloth->alloc, count_bytes);
        if (count != NULL) {
            memset(count, 0, count_bytes);
            for (uint32_t k = 0; k < n; ++k) {
                colours += count[colour[k]]++ == 0u ? 1u : 0u;
            }
            s = make_state(cloth, n, n, colours, out);
        }
        if (s == CLOTH_OK) {
            order_links(cloth, colour, numbers, count, *out);
        }
    }
    cloth_mem_free(&cloth->alloc, count, count_bytes);
    cloth_mem_free(&cloth->alloc, used, used_bytes);
    cloth_mem_free(&cloth->alloc, colour, colour_bytes);
    return s;
}

static cloth_status grid_lambdas(const cloth_t *cloth, xpbd_state *st);

static cloth_status xpbd_create(void *user, const cloth_t *cloth, void **out)
{
    (void)user;
    xpbd_state *st = NULL;
    cloth_status s;
    if (cloth->tris == NULL) {
        /* the grid path keeps its displacements in the velocity arrays */
        st = cloth_mem_alloc(&cloth->alloc, sizeof *st);
        s = st != NULL ? CLOTH_OK : CLOTH_ERR_OUT_OF_MEMORY;
        if (st != NULL) {
            memset(st, 0, sizeof *st);
            st->alloc = cloth->alloc;
            st->bytes = sizeof *st;
            st->grid.kernel = cloth_kernels_at(cloth->simd)->xpbd_span;
            s = grid_lambdas(cloth, st);
            if (s != CLOTH_OK) {
                cloth_mem_free(&cloth->alloc, st, sizeof *st);
            }
        }
    } else {
        s = create_mesh_state(cloth, &st);
    }
    if (s == CLOTH_OK) {
        *out = st;
    }
    return s;
}

static void xpbd_destroy(void *user, void *state)
{
    (void)user;
    xpbd_state *st = state;
    if (st != NULL) {
        cloth_allocator alloc = st->alloc;
        cloth_mem_free(&alloc, st->grid.lambda, st->grid_lambda_bytes);
        cloth_mem_free(&alloc, st, st->bytes);
    }
}

/* One constraint's update, as a factor f of the vector e = xi - xj:
 * xi += wi f e, xj -= wj f e, lambda += f |e|. Written with one division
 * (n = e / |e| and dl = f |e| folded together) and without branches, so that
 * a span of independent springs is one vector loop. `m` is the motion of i
 * relative to j since the substep began. */
static inline float spring_factor(float ex, float ey, float ez, float mx, float my, float mz, float wsum,
                                  float lambda, float rest, float alpha_tilde, float gamma, float *len)
{
    const float len2 = ex * ex + ey * ey + ez * ez;
    /* both ends held, or coincident ends with no direction to act along */
    const float on = (float)((wsum > 0.0f) & (len2 > 0.0f));
    const float l = sqrtf(len2);
    /* dl = (-C - alpha~ lambda - gamma n.m) / D, times |e| over |e|^2 */
    const float num = -(l - rest) * l - alpha_tilde * lambda * l - gamma * (ex * mx + ey * my + ez * mz);
    const float den = on * (((1.0f + gamma) * wsum + alpha_tilde) * len2) + (1.0f - on);
    *len = l;
    return (on * num) / den;
}

/* One spring (i, j), for the families and meshes whose springs of a colour
 * are not in two disjoint runs. */
static inline void solve(const cloth_step_view *s, const xpbd_state *st, float *lambda, uint32_t i, uint32_t j,
                         float rest, float alpha_tilde, float gamma)
{
    float *ux = st->dx, *uy = st->dy, *uz = st->dz;
    const float wi = s->inv_mass[i], wj = s->inv_mass[j];
    const float mx = ux[i] - ux[j], my = uy[i] - uy[j], mz = uz[i] - uz[j];
    const float ex = (s->x[i] - s->x[j]) + mx, ey = (s->y[i] - s->y[j]) + my, ez = (s->z[i] - s->z[j]) + mz;
    float len;
    const float f = spring_factor(ex, ey, ez, mx, my, mz, wi + wj, *lambda, rest, alpha_tilde, gamma, &len);
    *lambda += f * len;
    const float pi = wi * f, pj = wj * f;
    ux[i] += pi * ex;
    uy[i] += pi * ey;
    uz[i] += pi * ez;
    ux[j] -= pj * ex;
    uy[j] -= pj * ey;
    uz[j] -= pj * ez;
}

static void sweep_mesh(const xpbd_state *st, const cloth_step_view *s, const xpbd_coeffs *k)
{
    bool on[CLOTH_SPRING_TYPES];
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        on[t] = isfinite(k->inv_kh2[t]);
    }
    for (uint32_t c = 0; c < st->colours; ++c) {
        for (uint32_t n = st->colour_begin[c]; n < st->colour_begin[c + 1u]; ++n) {
            const xpbd_link *l = &st->links[n];
            if (on[l->type]) {
                solve(s, st, &st->lambda[n], l->i, l->j, l->rest, l->rest * k->inv_kh2[l->type], k->gamma[l->type]);
            }
        }
    }
}

/* The grid's lambdas, one per spring of every active family: kept while
 * the cloth runs more than one iteration, and only then (with one, every
 * lambda is read while still 0). Made here, not in the step, so that a step
 * never allocates. */
static cloth_status grid_lambdas(const cloth_t *cloth, xpbd_state *st)
{
    if (cloth->iterations <= 1u) {
        cloth_mem_free(&st->alloc, st->grid.lambda, st->grid_lambda_bytes);
        st->grid.lambda = NULL;
        st->grid_lambda_bytes = 0u;
        st->grid.lambda_count = 0u;
        return CLOTH_OK;
    }
    if (st->grid.lambda != NULL) {
        return CLOTH_OK;
    }
    const size_t lanes = CLOTH_ALIGN / sizeof(float);
    const size_t stride = round_up(cloth->count, lanes);
    const size_t count = (size_t)cloth->family_count * stride;
    float *lambda = cloth_mem_alloc(&st->alloc, count * sizeof(float));
    if (lambda == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    st->grid.lambda = lambda;
    st->grid.stride = stride;
    st->grid.lambda_count = count;
    st->grid_lambda_bytes = count * sizeof(float);
    return CLOTH_OK;
}

cloth_status cloth_xpbd_iterations_changed(cloth_t *cloth)
{
    /* installed as XPBD's hook (facts.h): called only while XPBD is */
    if (cloth->tris != NULL || cloth->integ_state == NULL) {
        return CLOTH_OK;
    }
    return grid_lambdas(cloth, cloth->integ_state);
}

static cloth_status xpbd_step(void *user, void *state, const cloth_step_view *s)
{
    (void)user;
    xpbd_state *st = state;
    const cloth_t *cloth = s->cloth;
    if (cloth->tris == NULL) {
        /* the level may have changed since (cloth_set_simd_level()) */
        st->grid.kernel = cloth_kernels_at(cloth->simd)->xpbd_span;
        /* the lambdas exist exactly when iterations > 1 (grid_lambdas) */
        return cloth_xpbd_grid_step(&st->grid, s);
    }
    const float h = s->h, d = s->velocity_decay;
    const float gx = s->gravity[0], gy = s->gravity[1], gz = s->gravity[2];

    for (uint32_t i = 0; i < s->count; ++i) {
        const float w = s->inv_mass[i], m = cloth_gravity_mask(w);
        st->dx[i] = (s->vx[i] * d + (gx * m + w * s->fx[i]) * h) * h;
        st->dy[i] = (s->vy[i] * d + (gy * m + w * s->fy[i]) * h) * h;
        st->dz[i] = (s->vz[i] * d + (gz * m + w * s->fz[i]) * h) * h;
    }
    /* Pins: date the start back by the pin's velocity (see the top). */
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        const uint32_t i = cloth->pins[k].index;
        st->dx[i] = s->vx[i] * h;
        st->dy[i] = s->vy[i] * h;
        st->dz[i] = s->vz[i] * h;
        s->x[i] -= st->dx[i];
        s->y[i] -= st->dy[i];
        s->z[i] -= st->dz[i];
    }

    xpbd_coeffs k;
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        const float kh2 = cloth->stiffness[t] * h * h;
        k.inv_kh2[t] = kh2 > 0.0f ? 1.0f / kh2 : INFINITY;
        /* capped so that an absurd beta freezes the springs' rates
         * instead of making inf * 0 */
        k.gamma[t] = fminf(cloth->spring_damping[t] / h, 1e30f);
    }
    memset(st->lambda, 0, st->lambda_count * sizeof(float)); /* small steps: lambda starts at 0 every substep */
    for (uint32_t it = 0; it < s->iterations; ++it) {
        sweep_mesh(st, s, &k);
    }

    const float inv_h = 1.0f / h;
    for (uint32_t i = 0; i < s->count; ++i) {
        s->x[i] += st->dx[i];
        s->y[i] += st->dy[i];
        s->z[i] += st->dz[i];
        s->vx[i] = st->dx[i] * inv_h;
        s->vy[i] = st->dy[i] * inv_h;
        s->vz[i] = st->dz[i] * inv_h;
    }
    return CLOTH_OK;
}

const cloth_integrator_vtable cloth_integrator_xpbd = {"xpbd", 0u, xpbd_create, xpbd_destroy, xpbd_step, NULL};
