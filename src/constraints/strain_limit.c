/*
 * Strain limiting (Provot 1995), once per step after the last substep: a few
 * Gauss-Seidel passes that shorten every structural and shear spring longer
 * than (1 + max_strain) times its rest length (constraints.h).
 *
 * Nearly every spring is within the limit, so a pass is mostly a test of
 * squared lengths (no square root). On a grid the test runs over a family's
 * springs in a row 8 or 16 at a time; a group that holds a spring past the
 * limit is redone one spring at a time in the plain order, reading the
 * positions as they are then. Springs in a row along the row share
 * particles, so the group test is valid only because a group with nothing to
 * shorten changes nothing: every path shortens the same springs in the same
 * order, with the same arithmetic, and gives the plain C path's bits.
 *
 * Threads: a grid's rows are cut into blocks (cloth_grid_block_rows()); the
 * even blocks run in parallel, then the odd ones. A block's springs reach at
 * most two rows below it, into the next block only, so blocks of one colour
 * share no particle and the order within each block is fixed: the same bits
 * at any thread count. A mesh's springs run in their list order on the
 * calling thread.
 */
#include "cloth_internal.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define LIMIT_X86 1
#include <immintrin.h>
#else
#define LIMIT_X86 0
#endif

/* What one pass needs; `lim` is (1 + max_strain) L0 of the spring at hand. */
typedef struct limit_ctx {
    float *x, *y, *z, *vx, *vy, *vz;
    const float *w;
    float inv_dt;
} limit_ctx;

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
    /* as if the move had been made over the step: momentum is kept */
    c->vx[i] += ix * c->inv_dt;
    c->vy[i] += iy * c->inv_dt;
    c->vz[i] += iz * c->inv_dt;
    c->vx[j] -= jx * c->inv_dt;
    c->vy[j] -= jy * c->inv_dt;
    c->vz[j] -= jz * c->inv_dt;
}

/* The springs (p, p + di) for p in [begin, end), in order. */
typedef void run_fn(const limit_ctx *c, uint32_t begin, uint32_t end, uint32_t di, float lim, float lim2);

static void run_plain(const limit_ctx *c, uint32_t begin, uint32_t end, uint32_t di, float lim, float lim2)
{
    for (uint32_t p = begin; p < end; ++p) {
        shorten(c, p, p + di, lim, lim2);
    }
}

#if LIMIT_X86
/* The vector paths compute what shorten() does, operation for operation
 * (no contraction: -ffp-contract=off), so they give its bits.
 *
 * A family along the row, (p, p + 1): neighbouring springs share a particle,
 * so 8 or 16 springs are tested at once and a group with one past the limit
 * is redone in order by shorten() from that spring on (the springs before it
 * are within the limit and nothing has moved them). Across rows, the
 * springs of one row's run share no particle (their ends lie in two
 * different rows), so a group is shortened at once, the lanes within the
 * limit written back unchanged. */
/* Spring vectors (x[p + di] - x[p], 8 or 16 lanes) and their squared lengths. */
__attribute__((target("avx2"))) static inline __m256 group_avx2(const limit_ctx *c, uint32_t p, uint32_t di,
                                                                __m256 d[3])
{
    const float *const a[3] = {c->x, c->y, c->z};
    for (int k = 0; k < 3; ++k) {
        d[k] = _mm256_sub_ps(_mm256_loadu_ps(a[k] + p + di), _mm256_loadu_ps(a[k] + p));
    }
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(d[0], d[0]), _mm256_mul_ps(d[1], d[1])),
                         _mm256_mul_ps(d[2], d[2]));
}

__attribute__((target("avx512f"))) static inline __m512 group_avx512(const limit_ctx *c, uint32_t p, uint32_t di,
                                                                     __m512 d[3])
{
    const float *const a[3] = {c->x, c->y, c->z};
    for (int k = 0; k < 3; ++k) {
        d[k] = _mm512_sub_ps(_mm512_loadu_ps(a[k] + p + di), _mm512_loadu_ps(a[k] + p));
    }
    return _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(d[0], d[0]), _mm512_mul_ps(d[1], d[1])),
                         _mm512_mul_ps(d[2], d[2]));
}

__attribute__((target("avx2"))) static void run_along_avx2(const limit_ctx *c, uint32_t begin, uint32_t end,
                                                           uint32_t di, float lim, float lim2)
{
    const __m256 l2 = _mm256_set1_ps(lim2);
    uint32_t p = begin;
    for (; p + 8u <= end; p += 8u) {
        __m256 d[3];
        const unsigned m = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(group_avx2(c, p, di, d), l2, _CMP_GT_OQ));
        if (m != 0u) {
            run_plain(c, p + (uint32_t)__builtin_ctz(m), p + 8u, di, lim, lim2);
        }
    }
    run_plain(c, p, end, di, lim, lim2);
}

__attribute__((target("avx512f"))) static void run_along_avx512(const limit_ctx *c, uint32_t begin, uint32_t end,
                                                                uint32_t di, float lim, float lim2)
{
    const __m512 l2 = _mm512_set1_ps(lim2);
    uint32_t p = begin;
    for (; p + 16u <= end; p += 16u) {
        __m512 d[3];
        const unsigned m = _mm512_cmp_ps_mask(group_avx512(c, p, di, d), l2, _CMP_GT_OQ);
        if (m != 0u) {
            run_plain(c, p + (uint32_t)__builtin_ctz(m), p + 16u, di, lim, lim2);
        }
    }
    run_plain(c, p, end, di, lim, lim2);
}

__attribute__((target("avx2"))) static void run_across_avx2(const limit_ctx *c, uint32_t begin, uint32_t end,
                                                            uint32_t di, float lim, float lim2)
{
    const __m256 l2 = _mm256_set1_ps(lim2), l = _mm256_set1_ps(lim), inv_dt = _mm256_set1_ps(c->inv_dt);
    uint32_t p = begin;
    for (; p + 8u <= end; p += 8u) {
        const uint32_t q = p + di;
        __m256 d[3];
        const __m256 len2 = group_avx2(c, p, di, d);
        __m256 m = _mm256_cmp_ps(len2, l2, _CMP_GT_OQ);
        if (_mm256_movemask_ps(m) == 0) {
            continue;
        }
        const __m256 wi = _mm256_loadu_ps(c->w + p), wj = _mm256_loadu_ps(c->w + q);
        const __m256 wsum = _mm256_add_ps(wi, wj);
        m = _mm256_and_ps(m, _mm256_cmp_ps(wsum, _mm256_setzero_ps(), _CMP_NEQ_UQ));
        const __m256 len = _mm256_sqrt_ps(len2);
        const __m256 k = _mm256_div_ps(_mm256_sub_ps(len, l), _mm256_mul_ps(len, wsum));
        const __m256 ki = _mm256_mul_ps(wi, k), kj = _mm256_mul_ps(wj, k);
        float *const pos[3] = {c->x, c->y, c->z}, *const vel[3] = {c->vx, c->vy, c->vz};
        for (int a = 0; a < 3; ++a) {
            /* lanes outside `m` are written back as they were */
            const __m256 mi = _mm256_mul_ps(ki, d[a]), mj = _mm256_mul_ps(kj, d[a]);
            const __m256 xi = _mm256_loadu_ps(pos[a] + p), xj = _mm256_loadu_ps(pos[a] + q);
            const __m256 vi = _mm256_loadu_ps(vel[a] + p), vj = _mm256_loadu_ps(vel[a] + q);
            _mm256_storeu_ps(pos[a] + p, _mm256_blendv_ps(xi, _mm256_add_ps(xi, mi), m));
            _mm256_storeu_ps(pos[a] + q, _mm256_blendv_ps(xj, _mm256_sub_ps(xj, mj), m));
            _mm256_storeu_ps(vel[a] + p, _mm256_blendv_ps(vi, _mm256_add_ps(vi, _mm256_mul_ps(mi, inv_dt)), m));
            _mm256_storeu_ps(vel[a] + q, _mm256_blendv_ps(vj, _mm256_sub_ps(vj, _mm256_mul_ps(mj, inv_dt)), m));
        }
    }
    run_plain(c, p, end, di, lim, lim2);
}

__attribute__((target("avx512f"))) static void run_across_avx512(const limit_ctx *c, uint32_t begin, uint32_t end,
                                                                 uint32_t di, float lim, float lim2)
{
    const __m512 l2 = _mm512_set1_ps(lim2), l = _mm512_set1_ps(lim), inv_dt = _mm512_set1_ps(c->inv_dt);
    uint32_t p = begin;
    for (; p + 16u <= end; p += 16u) {
        const uint32_t q = p + di;
        __m512 d[3];
        const __m512 len2 = group_avx512(c, p, di, d);
        __mmask16 m = _mm512_cmp_ps_mask(len2, l2, _CMP_GT_OQ);
        if (m == 0) {
            continue;
        }
        const __m512 wi = _mm512_loadu_ps(c->w + p), wj = _mm512_loadu_ps(c->w + q);
        const __m512 wsum = _mm512_add_ps(wi, wj);
        m = _mm512_mask_cmp_ps_mask(m, wsum, _mm512_setzero_ps(), _CMP_NEQ_UQ);
        const __m512 len = _mm512_sqrt_ps(len2);
        const __m512 k = _mm512_div_ps(_mm512_sub_ps(len, l), _mm512_mul_ps(len, wsum));
        const __m512 ki = _mm512_mul_ps(wi, k), kj = _mm512_mul_ps(wj, k);
        float *const pos[3] = {c->x, c->y, c->z}, *const vel[3] = {c->vx, c->vy, c->vz};
        for (int a = 0; a < 3; ++a) {
            const __m512 mi = _mm512_mul_ps(ki, d[a]), mj = _mm512_mul_ps(kj, d[a]);
            _mm512_mask_storeu_ps(pos[a] + p, m, _mm512_add_ps(_mm512_loadu_ps(pos[a] + p), mi));
            _mm512_mask_storeu_ps(pos[a] + q, m, _mm512_sub_ps(_mm512_loadu_ps(pos[a] + q), mj));
            _mm512_mask_storeu_ps(vel[a] + p, m,
                                  _mm512_add_ps(_mm512_loadu_ps(vel[a] + p), _mm512_mul_ps(mi, inv_dt)));
            _mm512_mask_storeu_ps(vel[a] + q, m,
                                  _mm512_sub_ps(_mm512_loadu_ps(vel[a] + q), _mm512_mul_ps(mj, inv_dt)));
        }
    }
    run_plain(c, p, end, di, lim, lim2);
}
#endif

typedef struct limit_pass {
    const cloth_t *cloth;
    limit_ctx c;
    float scale;        /* 1 + max_strain */
    uint32_t block_rows;
    uint32_t colour;    /* 0: even blocks, 1: odd */
    run_fn *along, *across; /* the springs (p, p + 1) of a row; those to the rows below */
} limit_pass;

static bool limited(cloth_spring_type type)
{
    return type == CLOTH_SPRING_STRUCTURAL || type == CLOTH_SPRING_SHEAR;
}

/* Items are the blocks of one colour: item k is block 2 k + colour. */
static void limit_blocks(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const limit_pass *pass = ctx;
    const cloth_t *cloth = pass->cloth;
    for (uint32_t k = begin; k < end; ++k) {
        const uint32_t r0 = (2u * k + pass->colour) * pass->block_rows;
        const uint32_t r1 = r0 + pass->block_rows < cloth->rows ? r0 + pass->block_rows : cloth->rows;
        for (uint32_t r = r0; r < r1; ++r) {
            for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
                uint32_t b, e, di;
                if (!limited(cloth_grid_families[f].type) || !cloth_family_active(cloth, f) ||
                    !cloth_family_row(cloth, f, r, &b, &e, &di)) {
                    continue;
                }
                const float lim = pass->scale * cloth->family_rest[f];
                run_fn *run = cloth_grid_families[f].dr == 0 ? pass->along : pass->across;
                run(&pass->c, b, e, di, lim, lim * lim);
            }
        }
    }
}

static void limit_mesh(const limit_pass *pass)
{
    const cloth_t *cloth = pass->cloth;
    const uint32_t end = cloth->type_begin[CLOTH_SPRING_SHEAR + 1];
    for (uint32_t s = cloth->type_begin[CLOTH_SPRING_STRUCTURAL]; s < end; ++s) {
        const float lim = pass->scale * cloth->spring_rest[s];
        shorten(&pass->c, cloth->spring_ij[2u * s], cloth->spring_ij[2u * s + 1u], lim, lim * lim);
    }
}

void cloth_strain_limit_apply(cloth_t *cloth, float dt)
{
    const uint32_t passes = cloth->strain_passes;
    if (passes == 0u) {
        return;
    }
    cloth_particles *p = &cloth->p;
    limit_pass pass = {cloth, {p->x, p->y, p->z, p->vx, p->vy, p->vz, p->w, 1.0f / dt}, 1.0f + cloth->max_strain,
                       0u, 0u, run_plain, run_plain};
#if LIMIT_X86
    if (cloth->simd >= CLOTH_SIMD_AVX512) {
        pass.along = run_along_avx512;
        pass.across = run_across_avx512;
    } else if (cloth->simd >= CLOTH_SIMD_AVX2) {
        pass.along = run_along_avx2;
        pass.across = run_across_avx2;
    }
#endif
    if (cloth->tris != NULL) {
        for (uint32_t it = 0; it < passes; ++it) {
            limit_mesh(&pass);
        }
        return;
    }
    pass.block_rows = cloth_grid_block_rows(cloth->rows);
    const uint32_t blocks = (cloth->rows + pass.block_rows - 1u) / pass.block_rows;
    const uint32_t block_particles = pass.block_rows * cloth->cols;
    const uint32_t min_blocks = (CLOTH_PARTICLES_PER_RANGE + block_particles - 1u) / block_particles;
    for (uint32_t it = 0; it < passes; ++it) {
        for (uint32_t colour = 0; colour < 2u; ++colour) {
            pass.colour = colour;
            /* blocks colour, colour + 2, ...: (blocks - colour + 1) / 2 of them */
            const uint32_t items = (blocks - colour + 1u) / 2u;
            if (items > 0u) {
                cloth_parallel_for(cloth, limit_blocks, items, min_blocks, &pass);
            }
        }
    }
}

cloth_status cloth_set_strain_limit(cloth_t *cloth, float max_strain, uint32_t passes)
{
    if (cloth == NULL || !(max_strain >= 0.0f && max_strain <= 10.0f) || passes > CLOTH_MAX_ITERATIONS) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->max_strain = max_strain;
    cloth->strain_passes = passes;
    return CLOTH_OK;
}

cloth_status cloth_get_strain_limit(const cloth_t *cloth, float *max_strain, uint32_t *passes)
{
    if (cloth == NULL || max_strain == NULL || passes == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *max_strain = cloth->max_strain;
    *passes = cloth->strain_passes;
    return CLOTH_OK;
}
