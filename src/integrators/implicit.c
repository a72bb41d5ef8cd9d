/*
 * Implicit Euler, Baraff and Witkin 1998 ("Large steps in cloth simulation"):
 * one linearised backward-Euler step per substep,
 *     (M - h D - h^2 K) dv = h (f + h K v),
 *     v' = (v + dv) exp(-c h),   x' = x + v' h,
 * with f every force at the start of the substep (springs with their damping,
 * dihedral bending, wind, hooks, gravity m g), K = df/dx the springs' tangent
 * stiffness and D = df/dv the spring damping's.
 *
 * Each spring (i, j) of unit direction u, length l, rest L0 and tension
 * T = k (l - L0) / L0 contributes the 3 x 3 block
 *     K_s = (k / L0) u u^T + (max(T, 0) / l) (I - u u^T)
 * with +K_s at (i, j) and (j, i) and -K_s at (i, i) and (j, j) of K. The
 * sideways term T / l is the geometric stiffness of a taut string; for a
 * compressed spring it is negative and would make the matrix indefinite, so
 * it is clamped to zero (Choi and Ko 2002), as the spring damping already
 * does. Spring damping is stiffness-proportional on that same block
 * (springs.c), so D = beta K and the matrix is
 *     A = M + sum over springs of (h^2 + h beta) K_s,
 * symmetric positive definite: conjugate gradient applies.
 *
 * Matrix-free: A is applied by looping over the springs (the grid's stencil
 * families, a mesh's lists), from a per-substep cache of each spring's u,
 * k / L0 and max(T, 0) / l (5 floats a spring), never an assembled matrix.
 * Preconditioned by the inverse of A's 3 x 3 diagonal blocks. Particles of
 * infinite mass (pinned) are filtered out (Baraff and Witkin's S): their rows
 * and columns of every CG vector are zero, so dv = 0 there and the pins keep
 * their prescribed motion, which still enters the free particles' right-hand
 * side through K v.
 *
 * The iteration stops when the residual's 2-norm falls to
 * IMPLICIT_TOLERANCE of the right-hand side's, or after IMPLICIT_MAX_ITERATIONS.
 * Vectors are float, dot products accumulate in double in a fixed order, so
 * the result is the same bits on every run.
 *
 * The spring forces f are the ones the step adds for integrators that ask for
 * them (CLOTH_INTEGRATOR_WANTS_SPRING_FORCES), so dihedral bending (bending.c)
 * comes with them; it enters f but not K, i.e. it is integrated explicitly
 * and keeps its own explicit stability limit.
 */
#include "cloth_internal.h"
#include "integrators/integrators.h"
#include "springs.h"

#include <string.h>

/* Relative residual at which CG stops: |A dv - b| <= 1e-4 |b|. The error
 * left in dv is A^-1 r, and A >= M, so it is at most |r| / m: 1e-4 of the
 * velocity change the substep's whole impulse would give one particle, well
 * below the error of linearising the step. */
#define IMPLICIT_TOLERANCE 1e-4
/* Cap on CG iterations per substep. The default cloth at 60 Hz with one
 * substep needs ~50 (4,530 particles); one 100 times stiffer ~170. A capped
 * solve is still CG's best step in the A-norm over the space it explored,
 * only less accurate in the slow modes, so it stays stable. */
#define IMPLICIT_MAX_ITERATIONS 200u

enum {
    DVX, DVY, DVZ,   /* the solution */
    RX, RY, RZ,      /* residual */
    PX, PY, PZ,      /* search direction */
    QX, QY, QZ,      /* A p, then the preconditioned residual */
    PXX, PXY, PXZ, PYY, PYZ, PZZ, /* inverse of the diagonal block */
    MASS,            /* kg; 0 where filtered */
    PARTICLE_ARRAYS
};
enum { UX, UY, UZ, ALONG, ACROSS, LINK_ARRAYS };

typedef struct implicit_state {
    cloth_allocator alloc;
    size_t bytes;
    uint32_t slot[CLOTH_GRID_FAMILIES];      /* grid: first cache entry of family f */
    float *a[PARTICLE_ARRAYS];
    float *l[LINK_ARRAYS];
} implicit_state;

static size_t padded(size_t n)
{
    const size_t lanes = CLOTH_ALIGN / sizeof(float);
    return (n + lanes - 1u) / lanes * lanes;
}

/* A grid caches every in-use family at `slot[f] + i` for the spring starting
 * at particle i (row ends leave a few entries unused); a mesh its springs in
 * list order. Topology never changes after creation, so this is sized once. */
static cloth_status implicit_create(void *user, const cloth_t *cloth, void **out)
{
    (void)user;
    uint32_t links = 0, slot[CLOTH_GRID_FAMILIES] = {0};
    if (cloth->tris == NULL) {
        for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
            if (cloth_family_active(cloth, f)) {
                slot[f] = links;
                links += cloth->count;
            }
        }
    } else {
        links = cloth->spring_count;
    }
    const size_t head = padded(sizeof(implicit_state));
    const size_t pstride = padded(cloth->count), lstride = padded(links);
    const size_t bytes = head + (pstride * PARTICLE_ARRAYS + lstride * LINK_ARRAYS) * sizeof(float);
    unsigned char *mem = cloth_mem_alloc(&cloth->alloc, bytes);
    if (mem == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memset(mem, 0, bytes);
    implicit_state *st = (implicit_state *)(void *)mem;
    st->alloc = cloth->alloc;
    st->bytes = bytes;
    memcpy(st->slot, slot, sizeof slot);
    float *arrays = (float *)(void *)(mem + head);
    for (uint32_t k = 0; k < PARTICLE_ARRAYS; ++k) {
        st->a[k] = arrays + k * pstride;
    }
    for (uint32_t k = 0; k < LINK_ARRAYS; ++k) {
        st->l[k] = arrays + PARTICLE_ARRAYS * pstride + k * lstride;
    }
    *out = st;
    return CLOTH_OK;
}

static void implicit_destroy(void *user, void *state)
{
    (void)user;
    implicit_state *st = state;
    if (st != NULL) {
        cloth_allocator alloc = st->alloc;
        cloth_mem_free(&alloc, st, st->bytes);
    }
}

/* The linearisation of spring (i, j) at the current positions, into cache
 * entry s. Coincident ends have no direction and, as in springs.c, no force. */
static void cache_link(implicit_state *st, const cloth_particles *p, uint32_t s, uint32_t i, uint32_t j,
                       float rest, float k)
{
    const float dx = p->x[j] - p->x[i], dy = p->y[j] - p->y[i], dz = p->z[j] - p->z[i];
    const float len2 = dx * dx + dy * dy + dz * dz;
    float ux = 0.0f, uy = 0.0f, uz = 0.0f, along = 0.0f, across = 0.0f;
    if (len2 > 0.0f) {
        const float len = sqrtf(len2), inv_len = 1.0f / len;
        ux = dx * inv_len;
        uy = dy * inv_len;
        uz = dz * inv_len;
        along = k / rest;
        across = fmaxf(k * (len - rest) / rest, 0.0f) * inv_len;
    }
    st->l[UX][s] = ux;
    st->l[UY][s] = uy;
    st->l[UZ][s] = uz;
    st->l[ALONG][s] = along;
    st->l[ACROSS][s] = across;
}

static void cache_links(implicit_state *st, const cloth_t *cloth)
{
    if (cloth->tris == NULL) {
        for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
            const float k = cloth->stiffness[cloth_grid_families[f].type];
            if (k == 0.0f || !cloth_family_active(cloth, f)) {
                continue;
            }
            uint32_t begin, end, di;
            for (uint32_t r = 0; cloth_family_row(cloth, f, r, &begin, &end, &di); ++r) {
                for (uint32_t i = begin; i < end; ++i) {
                    cache_link(st, &cloth->p, st->slot[f] + i, i, i + di, cloth->family_rest[f],
                               cloth_spring_k(cloth, k, i, i + di));
                }
            }
        }
        return;
    }
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        const float k = cloth->stiffness[t];
        for (uint32_t s = cloth->type_begin[t]; k != 0.0f && s < cloth->type_begin[t + 1]; ++s) {
            const uint32_t i = cloth->spring_ij[2u * s], j = cloth->spring_ij[2u * s + 1u];
            cache_link(st, &cloth->p, s, i, j, cloth->spring_rest[s], cloth_spring_k(cloth, k, i, j));
        }
    }
}

/* Three float arrays, read or written together. */
typedef struct vec3s {
    float *x, *y, *z;
} vec3s;

/* out_i += c K_s (in_i - in_j), out_j -= the same, for cache entry s. */
static inline void link_apply(const implicit_state *st, uint32_t s, float c, uint32_t i, uint32_t j,
                              const vec3s *in, const vec3s *out)
{
    const float ux = st->l[UX][s], uy = st->l[UY][s], uz = st->l[UZ][s];
    const float across = c * st->l[ACROSS][s], extra = c * st->l[ALONG][s] - across;
    const float dx = in->x[i] - in->x[j], dy = in->y[i] - in->y[j], dz = in->z[i] - in->z[j];
    const float proj = extra * (ux * dx + uy * dy + uz * dz);
    const float gx = across * dx + proj * ux, gy = across * dy + proj * uy, gz = across * dz + proj * uz;
    out->x[i] += gx;
    out->y[i] += gy;
    out->z[i] += gz;
    out->x[j] -= gx;
    out->y[j] -= gy;
    out->z[j] -= gz;
}

/* One row of a grid family: g_k = c K_s (in_i - in_j) for the n springs
 * from i = first + k to j = i + di. The springs of a row are contiguous in
 * the cache, their ends contiguous in the particles, and the result goes to
 * its own array, so this loop vectorises; the scatter into both ends follows
 * as two more contiguous loops. */
static void row_kernel(uint32_t n, float c, const float *restrict ux, const float *restrict uy,
                       const float *restrict uz, const float *restrict along, const float *restrict across,
                       const float *restrict ix, const float *restrict iy, const float *restrict iz,
                       const float *restrict jx, const float *restrict jy, const float *restrict jz,
                       float *restrict gx, float *restrict gy, float *restrict gz)
{
    for (uint32_t k = 0; k < n; ++k) {
        const float a = c * across[k], e = c * along[k] - a;
        const float dx = ix[k] - jx[k], dy = iy[k] - jy[k], dz = iz[k] - jz[k];
        const float proj = e * (ux[k] * dx + uy[k] * dy + uz[k] * dz);
        gx[k] = a * dx + proj * ux[k];
        gy[k] = a * dy + proj * uy[k];
        gz[k] = a * dz + proj * uz[k];
    }
}

static void row_add(uint32_t n, float *restrict out, const float *restrict g)
{
    for (uint32_t k = 0; k < n; ++k) {
        out[k] += g[k];
    }
}

static void row_sub(uint32_t n, float *restrict out, const float *restrict g)
{
    for (uint32_t k = 0; k < n; ++k) {
        out[k] -= g[k];
    }
}

/* Springs per piece of a row in scatter_blocks(): 3 KiB of terms. */
#define ROW_PIECE 256u

typedef struct scatter_pass {
    const implicit_state *st;
    const cloth_t *cloth;
    const float *scale; /* per spring type */
    const vec3s *in, *out;
    uint32_t block_rows, parity;
} scatter_pass;

/* Items are the blocks of rows of one colour: item k is block 2 k + parity,
 * whose springs (those starting in its rows) reach at most 2 rows into the
 * next block, so blocks of one colour share no particle (see
 * cloth_grid_block_rows()). */
static void scatter_blocks(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const scatter_pass *sp = ctx;
    const implicit_state *st = sp->st;
    const cloth_t *cloth = sp->cloth;
    const vec3s *in = sp->in, *out = sp->out;
    for (uint32_t k = begin; k < end; ++k) {
        const uint32_t first = (2u * k + sp->parity) * sp->block_rows;
        const uint32_t last = first + sp->block_rows < cloth->rows ? first + sp->block_rows : cloth->rows;
        for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
            const cloth_spring_type type = cloth_grid_families[f].type;
            if (cloth->stiffness[type] == 0.0f || !cloth_family_active(cloth, f)) {
                continue;
            }
            const float c = sp->scale[type];
            uint32_t b, e, di;
            for (uint32_t r = first; r < last && cloth_family_row(cloth, f, r, &b, &e, &di); ++r) {
                /* the row's terms in pieces that stay in L1, on this thread's stack */
                for (uint32_t i = b; i < e; i += ROW_PIECE) {
                    const uint32_t n = e - i < ROW_PIECE ? e - i : ROW_PIECE, s = st->slot[f] + i, j = i + di;
                    float gx[ROW_PIECE], gy[ROW_PIECE], gz[ROW_PIECE];
                    row_kernel(n, c, st->l[UX] + s, st->l[UY] + s, st->l[UZ] + s, st->l[ALONG] + s,
                               st->l[ACROSS] + s, in->x + i, in->y + i, in->z + i, in->x + j, in->y + j, in->z + j,
                               gx, gy, gz);
                    row_add(n, out->x + i, gx);
                    row_add(n, out->y + i, gy);
                    row_add(n, out->z + i, gz);
                    row_sub(n, out->x + j, gx);
                    row_sub(n, out->y + j, gy);
                    row_sub(n, out->z + j, gz);
                }
            }
        }
    }
}

/* out += sum over springs of scale[type] K_s (in_i - in_j) at i, minus at j:
 * the springs' part of A (scale h^2 + h beta) or of -h^2 K (scale h^2). A
 * grid's rows go in blocks of two colours, split between threads. */
static void springs_apply(const implicit_state *st, const cloth_t *cloth, const float scale[CLOTH_SPRING_TYPES],
                          const vec3s *in, const vec3s *out)
{
    if (cloth->tris == NULL) {
        scatter_pass sp = {st, cloth, scale, in, out, cloth_grid_block_rows(cloth->rows), 0u};
        const uint32_t blocks = (cloth->rows + sp.block_rows - 1u) / sp.block_rows;
        const uint32_t min_blocks = cloth_grid_min_blocks(sp.block_rows, cloth->cols);
        for (sp.parity = 0u; sp.parity < 2u; ++sp.parity) {
            cloth_parallel_for(cloth, scatter_blocks, (blocks + 1u - sp.parity) / 2u, min_blocks, &sp);
        }
        return;
    }
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        const float c = scale[t];
        for (uint32_t s = cloth->type_begin[t]; cloth->stiffness[t] != 0.0f && s < cloth->type_begin[t + 1]; ++s) {
            link_apply(st, s, c, cloth->spring_ij[2u * s], cloth->spring_ij[2u * s + 1u], in, out);
        }
    }
}

/* out = A in, filtered: zero on particles of infinite mass. */
static void matrix_apply(const implicit_state *st, const cloth_t *cloth, const float scale[CLOTH_SPRING_TYPES],
                         const vec3s *in, const vec3s *out)
{
    const uint32_t n = cloth->count;
    const float *mass = st->a[MASS];
    for (uint32_t i = 0; i < n; ++i) {
        out->x[i] = mass[i] * in->x[i];
        out->y[i] = mass[i] * in->y[i];
        out->z[i] = mass[i] * in->z[i];
    }
    springs_apply(st, cloth, scale, in, out);
    for (uint32_t i = 0; i < n; ++i) {
        if (mass[i] == 0.0f) {
            out->x[i] = 0.0f;
            out->y[i] = 0.0f;
            out->z[i] = 0.0f;
        }
    }
}

/* Add c K_s to the diagonal blocks of both ends of cache entry s. */
static inline void link_diagonal(implicit_state *st, uint32_t s, float c, uint32_t i, uint32_t j)
{
    const float ux = st->l[UX][s], uy = st->l[UY][s], uz = st->l[UZ][s];
    const float across = c * st->l[ACROSS][s], extra = c * st->l[ALONG][s] - across;
    const float b[6] = {across + extra * ux * ux, extra * ux * uy, extra * ux * uz,
                        across + extra * uy * uy, extra * uy * uz, across + extra * uz * uz};
    for (int k = 0; k < 6; ++k) {
        st->a[PXX + k][i] += b[k];
        st->a[PXX + k][j] += b[k];
    }
}

/* The block-diagonal preconditioner: M_i I + sum of (h^2 + h beta) K_s over
 * the springs at i, inverted (in double: the blocks of a stiff cloth are far
 * from the identity and the cofactors cancel). Zero where filtered. */
static void build_preconditioner(implicit_state *st, const cloth_t *cloth, const float scale[CLOTH_SPRING_TYPES])
{
    const uint32_t n = cloth->count;
    for (int k = 0; k < 6; ++k) {
        memset(st->a[PXX + k], 0, (size_t)n * sizeof(float));
    }
    if (cloth->tris == NULL) {
        for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
            const cloth_spring_type type = cloth_grid_families[f].type;
            if (cloth->stiffness[type] == 0.0f || !cloth_family_active(cloth, f)) {
                continue;
            }
            uint32_t begin, end, di;
            for (uint32_t r = 0; cloth_family_row(cloth, f, r, &begin, &end, &di); ++r) {
                for (uint32_t i = begin; i < end; ++i) {
                    link_diagonal(st, st->slot[f] + i, scale[type], i, i + di);
                }
            }
        }
    } else {
        for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
            for (uint32_t s = cloth->type_begin[t]; cloth->stiffness[t] != 0.0f && s < cloth->type_begin[t + 1];
                 ++s) {
                link_diagonal(st, s, scale[t], cloth->spring_ij[2u * s], cloth->spring_ij[2u * s + 1u]);
            }
        }
    }
    for (uint32_t i = 0; i < n; ++i) {
        const double m = (double)st->a[MASS][i];
        float *P[6] = {st->a[PXX] + i, st->a[PXY] + i, st->a[PXZ] + i,
                       st->a[PYY] + i, st->a[PYZ] + i, st->a[PZZ] + i};
        if (m == 0.0) {
            for (int k = 0; k < 6; ++k) {
                *P[k] = 0.0f;
            }
            continue;
        }
        const double xx = m + (double)*P[0], xy = (double)*P[1], xz = (double)*P[2];
        const double yy = m + (double)*P[3], yz = (double)*P[4], zz = m + (double)*P[5];
        const double cxx = yy * zz - yz * yz, cxy = xz * yz - xy * zz, cxz = xy * yz - xz * yy;
        const double cyy = xx * zz - xz * xz, cyz = xy * xz - xx * yz, czz = xx * yy - xy * xy;
        /* positive: m > 0 plus a sum of positive semi-definite blocks */
        const double inv_det = 1.0 / (xx * cxx + xy * cxy + xz * cxz);
        *P[0] = (float)(cxx * inv_det);
        *P[1] = (float)(cxy * inv_det);
        *P[2] = (float)(cxz * inv_det);
        *P[3] = (float)(cyy * inv_det);
        *P[4] = (float)(cyz * inv_det);
        *P[5] = (float)(czz * inv_det);
    }
}

/* out = P^-1 in, particle by particle. */
static void precondition_arrays(size_t n, const float *restrict pxx, const float *restrict pxy,
                                const float *restrict pxz, const float *restrict pyy, const float *restrict pyz,
                                const float *restrict pzz, const float *restrict ix, const float *restrict iy,
                                const float *restrict iz, float *restrict ox, float *restrict oy,
                                float *restrict oz)
{
    for (size_t i = 0; i < n; ++i) {
        const float x = ix[i], y = iy[i], z = iz[i];
        ox[i] = pxx[i] * x + pxy[i] * y + pxz[i] * z;
        oy[i] = pxy[i] * x + pyy[i] * y + pyz[i] * z;
        oz[i] = pxz[i] * x + pyz[i] * y + pzz[i] * z;
    }
}

static void precondition(const implicit_state *st, uint32_t n, const vec3s *in, const vec3s *out)
{
    precondition_arrays(n, st->a[PXX], st->a[PXY], st->a[PXZ], st->a[PYY], st->a[PYZ], st->a[PZZ], in->x, in->y,
                        in->z, out->x, out->y, out->z);
}

/* a . b over all particles, in double. Four partial sums, each over a fixed
 * quarter of the terms and added in a fixed order: the same bits every run,
 * and a loop the compiler can keep in vector registers. */
static double dot_arrays(size_t n, const float *restrict ax, const float *restrict ay, const float *restrict az,
                         const float *restrict bx, const float *restrict by, const float *restrict bz)
{
    double acc[4] = {0.0, 0.0, 0.0, 0.0};
    size_t i = 0;
    for (; i + 4u <= n; i += 4u) {
        for (size_t k = 0; k < 4u; ++k) {
            acc[k] += (double)ax[i + k] * (double)bx[i + k] + (double)ay[i + k] * (double)by[i + k] +
                      (double)az[i + k] * (double)bz[i + k];
        }
    }
    for (; i < n; ++i) {
        acc[0] += (double)ax[i] * (double)bx[i] + (double)ay[i] * (double)by[i] + (double)az[i] * (double)bz[i];
    }
    return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

static double dot3(uint32_t n, const vec3s *a, const vec3s *b)
{
    return dot_arrays(n, a->x, a->y, a->z, b->x, b->y, b->z);
}

/* y += alpha x */
static void axpy(size_t n, float alpha, const float *restrict x, float *restrict y)
{
    for (size_t i = 0; i < n; ++i) {
        y[i] += alpha * x[i];
    }
}

/* p = z + beta p */
static void xpby(size_t n, const float *restrict z, float beta, float *restrict p)
{
    for (size_t i = 0; i < n; ++i) {
        p[i] = z[i] + beta * p[i];
    }
}

/* Preconditioned conjugate gradient on A dv = r (r holds b on entry).
 * False when a non-finite value appears (a force or stiffness so large that
 * b or A p overflows): the comparisons that end the loop are false for NaN,
 * so without this test such a solve would stop at once with dv = 0 and the
 * step would go on as if no force had acted. */
static bool solve(implicit_state *st, const cloth_t *cloth, const float scale[CLOTH_SPRING_TYPES])
{
    const uint32_t n = cloth->count;
    const vec3s dv = {st->a[DVX], st->a[DVY], st->a[DVZ]};
    const vec3s r = {st->a[RX], st->a[RY], st->a[RZ]};
    const vec3s p = {st->a[PX], st->a[PY], st->a[PZ]};
    const vec3s q = {st->a[QX], st->a[QY], st->a[QZ]};
    const size_t bytes = (size_t)n * sizeof(float);
    memset(dv.x, 0, bytes);
    memset(dv.y, 0, bytes);
    memset(dv.z, 0, bytes);
    double rr = dot3(n, &r, &r);
    const double stop = IMPLICIT_TOLERANCE * IMPLICIT_TOLERANCE * rr;
    precondition(st, n, &r, &p);
    double rz = dot3(n, &r, &p);
    if (!isfinite(rr) || !isfinite(rz)) {
        return false;
    }
    for (uint32_t it = 0; it < IMPLICIT_MAX_ITERATIONS && rr > stop; ++it) {
        matrix_apply(st, cloth, scale, &p, &q);
        const double pq = dot3(n, &p, &q);
        if (!isfinite(pq)) {
            return false;
        }
        if (!(pq > 0.0) || !(rz > 0.0)) {
            break; /* rounding broke positive definiteness, or r is already 0 */
        }
        const float alpha = (float)(rz / pq);
        axpy(n, alpha, p.x, dv.x);
        axpy(n, alpha, p.y, dv.y);
        axpy(n, alpha, p.z, dv.z);
        axpy(n, -alpha, q.x, r.x);
        axpy(n, -alpha, q.y, r.y);
        axpy(n, -alpha, q.z, r.z);
        rr = dot3(n, &r, &r);
        precondition(st, n, &r, &q);
        const double rz_next = dot3(n, &r, &q);
        if (!isfinite(rr) || !isfinite(rz_next)) {
            return false;
        }
        const float beta = (float)(rz_next / rz);
        rz = rz_next;
        xpby(n, q.x, beta, p.x);
        xpby(n, q.y, beta, p.y);
        xpby(n, q.z, beta, p.z);
    }
    return true;
}

static cloth_status implicit_step(void *user, void *state, const cloth_step_view *s)
{
    (void)user;
    implicit_state *st = state;
    const cloth_t *cloth = s->cloth;
    const uint32_t n = s->count;
    const float h = s->h, d = s->velocity_decay;
    float scale_a[CLOTH_SPRING_TYPES], scale_k[CLOTH_SPRING_TYPES];
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        scale_a[t] = h * h + h * cloth->spring_damping[t];
        scale_k[t] = h * h;
    }
    float *mass = st->a[MASS];
    for (uint32_t i = 0; i < n; ++i) {
        const float w = s->inv_mass[i];
        mass[i] = w > 0.0f ? 1.0f / w : 0.0f;
    }
    cache_links(st, cloth);

    /* b = h (f + m g) + h^2 K v, with h^2 K v = -(h^2 sum K_s (v_i - v_j)):
     * the pins' velocities enter here */
    const vec3s r = {st->a[RX], st->a[RY], st->a[RZ]};
    const vec3s v = {s->vx, s->vy, s->vz};
    const size_t bytes = (size_t)n * sizeof(float);
    memset(r.x, 0, bytes);
    memset(r.y, 0, bytes);
    memset(r.z, 0, bytes);
    springs_apply(st, cloth, scale_k, &v, &r);
    const float gx = s->gravity[0], gy = s->gravity[1], gz = s->gravity[2];
    for (uint32_t i = 0; i < n; ++i) {
        const float m = mass[i];
        if (m == 0.0f) {
            r.x[i] = r.y[i] = r.z[i] = 0.0f;
            continue;
        }
        r.x[i] = h * (s->fx[i] + m * gx) - r.x[i];
        r.y[i] = h * (s->fy[i] + m * gy) - r.y[i];
        r.z[i] = h * (s->fz[i] + m * gz) - r.z[i];
    }
    build_preconditioner(st, cloth, scale_a);
    if (!solve(st, cloth, scale_a)) {
        return CLOTH_ERR_UNSTABLE;
    }

    const float *dvx = st->a[DVX], *dvy = st->a[DVY], *dvz = st->a[DVZ];
    for (uint32_t i = 0; i < n; ++i) {
        const float vx = (s->vx[i] + dvx[i]) * d, vy = (s->vy[i] + dvy[i]) * d, vz = (s->vz[i] + dvz[i]) * d;
        s->vx[i] = vx;
        s->vy[i] = vy;
        s->vz[i] = vz;
        s->x[i] += vx * h;
        s->y[i] += vy * h;
        s->z[i] += vz * h;
    }
    return CLOTH_OK;
}

const cloth_integrator_vtable cloth_integrator_implicit = {
    "implicit-euler", CLOTH_INTEGRATOR_WANTS_SPRING_FORCES, implicit_create, implicit_destroy, implicit_step,
    NULL};
