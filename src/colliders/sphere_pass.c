/*
 * The sphere's own pass over a range of particles. The general pass
 * (collide.c) brings each particle into the collider's frame and calls the
 * shape through a pointer, which on a cloth draped over a ball costs more
 * than a sweep of the springs. A sphere looks the same in every orientation,
 * so here the frame change drops out: only the spin (for the surface's
 * velocity) and the "which way is out at the very centre" rule keep the
 * rotation. The pass is written three times, in plain C, AVX2 and AVX-512,
 * chosen as the XPBD kernel chooses (xpbd_span.h, CLOTHSIM_SIMD). Every path
 * computes every lane with the same IEEE operations in the same order and
 * lets the conditions only choose between computed values, so all three
 * give the same bits; lanes without a contact write back what they read.
 *
 * The response is resolve()'s in collide.c, term for term: push out to
 * radius + thickness, take the surface's normal velocity when moving into
 * it, Coulomb friction on the relative tangential velocity, and take back
 * the slide friction cancelled.
 */
#include "shapes.h"

#include "platform/lanes.h"
#include "platform/target.h"
#include "platform/vec3.h"

/* Chunks with no particle inside the sphere are skipped after one cheap
 * pass; on a typical cloth most of it is nowhere near the ball. */
#define SPHERE_CHUNK 64u

/* What every lane needs, read once per collider. */
typedef struct sphere_args {
    float *x, *y, *z, *vx, *vy, *vz;
    const float *w;
    float reach, reach2, mu, lag;
    float c[3];  /* centre */
    float up[3]; /* the frame's +y in the world: "out" at the very centre */
    float v[3], spin[3];
} sphere_args;

typedef uint32_t sphere_fn(const sphere_args *a, uint32_t begin, uint32_t end);

static uint32_t sphere_scalar(const sphere_args *a, uint32_t begin, uint32_t end)
{
    float *restrict x = a->x, *restrict y = a->y, *restrict z = a->z;
    float *restrict vx = a->vx, *restrict vy = a->vy, *restrict vz = a->vz;
    const float *restrict w = a->w;
    const float reach = a->reach, reach2 = a->reach2, mu = a->mu, lag = a->lag;
    const float cx = a->c[0], cy = a->c[1], cz = a->c[2];
    const float ux = a->up[0], uy = a->up[1], uz = a->up[2];
    const float cvx = a->v[0], cvy = a->v[1], cvz = a->v[2];
    const float cwx = a->spin[0], cwy = a->spin[1], cwz = a->spin[2];
    uint32_t hits = 0u;
    for (uint32_t i = begin; i < end; ++i) {
        const float px = x[i], py = y[i], pz = z[i], pvx = vx[i], pvy = vy[i], pvz = vz[i];
        const float dx = px - cx, dy = py - cy, dz = pz - cz;
        const float d2 = (dx * dx + dy * dy) + dz * dz;
        const int hit = (d2 < reach2) & (w[i] > 0.0f);
        /* every value is computed in every lane and the conditions only
         * choose between them, so that the compiler may vectorise */
        const float d = sqrtf(d2 < reach2 ? d2 : 0.0f);
        const int centre = !(d > 0.0f);
        const float safe_d = centre ? 1.0f : d;
        const float qx = dx / safe_d, qy = dy / safe_d, qz = dz / safe_d;
        const float nx = centre ? ux : qx, ny = centre ? uy : qy, nz = centre ? uz : qz;
        const float ax = nx * reach, ay = ny * reach, az = nz * reach;
        /* velocity of the surface point: the centre's plus the spin's */
        const float sx = cvx + (cwy * az - cwz * ay);
        const float sy = cvy + (cwz * ax - cwx * az);
        const float sz = cvz + (cwx * ay - cwy * ax);
        const float rx = pvx - sx, ry = pvy - sy, rz = pvz - sz;
        const float vn = (rx * nx + ry * ny) + rz * nz;
        const int into = vn < 0.0f;
        const float tx = rx - vn * nx, ty = ry - vn * ny, tz = rz - vn * nz;
        const float vt = sqrtf((tx * tx + ty * ty) + tz * tz);
        const float drop = (-vn) * mu;
        const float safe_vt = vt > 0.0f ? vt : 1.0f;
        const float slip = 1.0f - drop / safe_vt;
        const float stick = vt > drop ? slip : 0.0f;
        const float keep = mu > 0.0f ? stick : 1.0f;
        const float lost = (1.0f - keep) * lag;
        const float back = into ? lost : 0.0f;
        const float ox = (cx + ax) - tx * back, oy = (cy + ay) - ty * back, oz = (cz + az) - tz * back;
        const float kx = sx + tx * keep, ky = sy + ty * keep, kz = sz + tz * keep;
        const float nvx = into ? kx : pvx, nvy = into ? ky : pvy, nvz = into ? kz : pvz;
        x[i] = hit ? ox : px;
        y[i] = hit ? oy : py;
        z[i] = hit ? oz : pz;
        vx[i] = hit ? nvx : pvx;
        vy[i] = hit ? nvy : pvy;
        vz[i] = hit ? nvz : pvz;
        hits += (uint32_t)hit;
    }
    return hits;
}

#if CLOTH_TARGET_X86

/* -v exactly, as the plain path's unary minus (0 - v would turn -0 into +0) */
#define NEG256(v) _mm256_xor_ps((v), _mm256_set1_ps(-0.0f))
#define SEL256(cond, a, b) _mm256_blendv_ps((b), (a), (cond))

/* Particles i .. i + 7, those in `live`; returns the contacts. `full`
 * (all 8: plain loads and stores) is a constant where inlined, and the
 * constants below are hoisted out of the caller's loops. */
__attribute__((target("avx2"), always_inline)) static inline uint32_t sphere8(const sphere_args *a, uint32_t i,
                                                                              __m256i live, bool full)
{
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256 reach = _mm256_set1_ps(a->reach), reach2 = _mm256_set1_ps(a->reach2);
    const __m256 mu = _mm256_set1_ps(a->mu), lag = _mm256_set1_ps(a->lag);
    const __m256 cx = _mm256_set1_ps(a->c[0]), cy = _mm256_set1_ps(a->c[1]), cz = _mm256_set1_ps(a->c[2]);
    const __m256 ux = _mm256_set1_ps(a->up[0]), uy = _mm256_set1_ps(a->up[1]), uz = _mm256_set1_ps(a->up[2]);
    const __m256 cvx = _mm256_set1_ps(a->v[0]), cvy = _mm256_set1_ps(a->v[1]), cvz = _mm256_set1_ps(a->v[2]);
    const __m256 cwx = _mm256_set1_ps(a->spin[0]), cwy = _mm256_set1_ps(a->spin[1]), cwz = _mm256_set1_ps(a->spin[2]);
    const __m256 rough = a->mu > 0.0f ? _mm256_castsi256_ps(_mm256_set1_epi32(-1)) : zero;
    const __m256 px = cloth_load8(a->x + i, live, full), py = cloth_load8(a->y + i, live, full);
    const __m256 pz = cloth_load8(a->z + i, live, full), w = cloth_load8(a->w + i, live, full);
    const __m256 pvx = cloth_load8(a->vx + i, live, full), pvy = cloth_load8(a->vy + i, live, full);
    const __m256 pvz = cloth_load8(a->vz + i, live, full);
    const __m256 dx = _mm256_sub_ps(px, cx), dy = _mm256_sub_ps(py, cy), dz = _mm256_sub_ps(pz, cz);
    const __m256 d2 = cloth_dot3_256(dx, dy, dz, dx, dy, dz);
    const __m256 inside = _mm256_cmp_ps(d2, reach2, _CMP_LT_OQ);
    const __m256 hit = _mm256_and_ps(_mm256_and_ps(inside, _mm256_cmp_ps(w, zero, _CMP_GT_OQ)),
                                     _mm256_castsi256_ps(live));
    if (_mm256_movemask_ps(hit) == 0) {
        return 0u; /* nothing to write: skip the square roots and divisions */
    }
    const __m256 d = _mm256_sqrt_ps(SEL256(inside, d2, zero));
    const __m256 centre = _mm256_cmp_ps(d, zero, _CMP_NGT_UQ);
    const __m256 safe_d = SEL256(centre, one, d);
    const __m256 nx = SEL256(centre, ux, _mm256_div_ps(dx, safe_d));
    const __m256 ny = SEL256(centre, uy, _mm256_div_ps(dy, safe_d));
    const __m256 nz = SEL256(centre, uz, _mm256_div_ps(dz, safe_d));
    const __m256 ax = _mm256_mul_ps(nx, reach), ay = _mm256_mul_ps(ny, reach), az = _mm256_mul_ps(nz, reach);
    const __m256 sx = _mm256_add_ps(cvx, _mm256_sub_ps(_mm256_mul_ps(cwy, az), _mm256_mul_ps(cwz, ay)));
    const __m256 sy = _mm256_add_ps(cvy, _mm256_sub_ps(_mm256_mul_ps(cwz, ax), _mm256_mul_ps(cwx, az)));
    const __m256 sz = _mm256_add_ps(cvz, _mm256_sub_ps(_mm256_mul_ps(cwx, ay), _mm256_mul_ps(cwy, ax)));
    const __m256 rx = _mm256_sub_ps(pvx, sx), ry = _mm256_sub_ps(pvy, sy), rz = _mm256_sub_ps(pvz, sz);
    const __m256 vn = cloth_dot3_256(rx, ry, rz, nx, ny, nz);
    const __m256 into = _mm256_cmp_ps(vn, zero, _CMP_LT_OQ);
    const __m256 tx = _mm256_sub_ps(rx, _mm256_mul_ps(vn, nx));
    const __m256 ty = _mm256_sub_ps(ry, _mm256_mul_ps(vn, ny));
    const __m256 tz = _mm256_sub_ps(rz, _mm256_mul_ps(vn, nz));
    const __m256 vt = _mm256_sqrt_ps(cloth_dot3_256(tx, ty, tz, tx, ty, tz));
    const __m256 drop = _mm256_mul_ps(NEG256(vn), mu);
    const __m256 safe_vt = SEL256(_mm256_cmp_ps(vt, zero, _CMP_GT_OQ), vt, one);
    const __m256 slip = _mm256_sub_ps(one, _mm256_div_ps(drop, safe_vt));
    const __m256 stick = SEL256(_mm256_cmp_ps(vt, drop, _CMP_GT_OQ), slip, zero);
    const __m256 keep = SEL256(rough, stick, one);
    const __m256 back = SEL256(into, _mm256_mul_ps(_mm256_sub_ps(one, keep), lag), zero);
    const __m256 ox = _mm256_sub_ps(_mm256_add_ps(cx, ax), _mm256_mul_ps(tx, back));
    const __m256 oy = _mm256_sub_ps(_mm256_add_ps(cy, ay), _mm256_mul_ps(ty, back));
    const __m256 oz = _mm256_sub_ps(_mm256_add_ps(cz, az), _mm256_mul_ps(tz, back));
    const __m256 nvx = SEL256(into, _mm256_add_ps(sx, _mm256_mul_ps(tx, keep)), pvx);
    const __m256 nvy = SEL256(into, _mm256_add_ps(sy, _mm256_mul_ps(ty, keep)), pvy);
    const __m256 nvz = SEL256(into, _mm256_add_ps(sz, _mm256_mul_ps(tz, keep)), pvz);
    /* a lane without a contact gets back what it read (the range is
     * this worker's alone), and past the end of the range nothing */
    cloth_store8(a->x + i, live, full, SEL256(hit, ox, px));
    cloth_store8(a->y + i, live, full, SEL256(hit, oy, py));
    cloth_store8(a->z + i, live, full, SEL256(hit, oz, pz));
    cloth_store8(a->vx + i, live, full, SEL256(hit, nvx, pvx));
    cloth_store8(a->vy + i, live, full, SEL256(hit, nvy, pvy));
    cloth_store8(a->vz + i, live, full, SEL256(hit, nvz, pvz));
    return (uint32_t)__builtin_popcount((unsigned)_mm256_movemask_ps(hit));
}

__attribute__((target("avx2"))) static uint32_t sphere_avx2(const sphere_args *args, uint32_t begin, uint32_t end)
{
    /* A copy whose address never leaves: the stores cannot reach it, so
     * its pointers stay in registers rather than being read again after
     * every store (as in xpbd_span.c). */
    const sphere_args copy = *args;
    const sphere_args *a = &copy;
    uint32_t hits = 0u, i = begin;
    for (; end - i >= 8u; i += 8u) {
        hits += sphere8(a, i, _mm256_set1_epi32(-1), true);
    }
    if (i < end) {
        hits += sphere8(a, i, cloth_lanes8(end - i), false);
    }
    return hits;
}

#define NEG512(v) _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(v), _mm512_set1_epi32((int)0x80000000u)))

__attribute__((target("avx512f"))) static uint32_t sphere_avx512(const sphere_args *args, uint32_t begin, uint32_t end)
{
    const sphere_args copy = *args; /* as in sphere_avx2 */
    const sphere_args *a = &copy;
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f);
    const __m512 reach = _mm512_set1_ps(a->reach), reach2 = _mm512_set1_ps(a->reach2);
    const __m512 mu = _mm512_set1_ps(a->mu), lag = _mm512_set1_ps(a->lag);
    const __m512 cx = _mm512_set1_ps(a->c[0]), cy = _mm512_set1_ps(a->c[1]), cz = _mm512_set1_ps(a->c[2]);
    const __m512 ux = _mm512_set1_ps(a->up[0]), uy = _mm512_set1_ps(a->up[1]), uz = _mm512_set1_ps(a->up[2]);
    const __m512 cvx = _mm512_set1_ps(a->v[0]), cvy = _mm512_set1_ps(a->v[1]), cvz = _mm512_set1_ps(a->v[2]);
    const __m512 cwx = _mm512_set1_ps(a->spin[0]), cwy = _mm512_set1_ps(a->spin[1]), cwz = _mm512_set1_ps(a->spin[2]);
    const bool rough = a->mu > 0.0f;
    uint32_t hits = 0u;
    for (uint32_t i = begin; i < end; i += 16u) {
        const uint32_t left = end - i;
        const __mmask16 live = cloth_lanes16(left);
        const __m512 px = _mm512_maskz_loadu_ps(live, a->x + i), py = _mm512_maskz_loadu_ps(live, a->y + i);
        const __m512 pz = _mm512_maskz_loadu_ps(live, a->z + i), w = _mm512_maskz_loadu_ps(live, a->w + i);
        const __m512 pvx = _mm512_maskz_loadu_ps(live, a->vx + i), pvy = _mm512_maskz_loadu_ps(live, a->vy + i);
        const __m512 pvz = _mm512_maskz_loadu_ps(live, a->vz + i);
        const __m512 dx = _mm512_sub_ps(px, cx), dy = _mm512_sub_ps(py, cy), dz = _mm512_sub_ps(pz, cz);
        const __m512 d2 = cloth_dot3_512(dx, dy, dz, dx, dy, dz);
        const __mmask16 inside = _mm512_cmp_ps_mask(d2, reach2, _CMP_LT_OQ);
        const __mmask16 hit = _mm512_mask_cmp_ps_mask((__mmask16)(inside & live), w, zero, _CMP_GT_OQ);
        if (hit == 0) {
            continue; /* as in sphere_avx2 */
        }
        const __m512 d = _mm512_sqrt_ps(_mm512_mask_blend_ps(inside, zero, d2));
        const __mmask16 centre = _mm512_cmp_ps_mask(d, zero, _CMP_NGT_UQ);
        const __m512 safe_d = _mm512_mask_blend_ps(centre, d, one);
        const __m512 nx = _mm512_mask_blend_ps(centre, _mm512_div_ps(dx, safe_d), ux);
        const __m512 ny = _mm512_mask_blend_ps(centre, _mm512_div_ps(dy, safe_d), uy);
        const __m512 nz = _mm512_mask_blend_ps(centre, _mm512_div_ps(dz, safe_d), uz);
        const __m512 ax = _mm512_mul_ps(nx, reach), ay = _mm512_mul_ps(ny, reach), az = _mm512_mul_ps(nz, reach);
        const __m512 sx = _mm512_add_ps(cvx, _mm512_sub_ps(_mm512_mul_ps(cwy, az), _mm512_mul_ps(cwz, ay)));
        const __m512 sy = _mm512_add_ps(cvy, _mm512_sub_ps(_mm512_mul_ps(cwz, ax), _mm512_mul_ps(cwx, az)));
        const __m512 sz = _mm512_add_ps(cvz, _mm512_sub_ps(_mm512_mul_ps(cwx, ay), _mm512_mul_ps(cwy, ax)));
        const __m512 rx = _mm512_sub_ps(pvx, sx), ry = _mm512_sub_ps(pvy, sy), rz = _mm512_sub_ps(pvz, sz);
        const __m512 vn = cloth_dot3_512(rx, ry, rz, nx, ny, nz);
        const __mmask16 into = _mm512_cmp_ps_mask(vn, zero, _CMP_LT_OQ);
        const __m512 tx = _mm512_sub_ps(rx, _mm512_mul_ps(vn, nx));
        const __m512 ty = _mm512_sub_ps(ry, _mm512_mul_ps(vn, ny));
        const __m512 tz = _mm512_sub_ps(rz, _mm512_mul_ps(vn, nz));
        const __m512 vt = _mm512_sqrt_ps(cloth_dot3_512(tx, ty, tz, tx, ty, tz));
        const __m512 drop = _mm512_mul_ps(NEG512(vn), mu);
        const __m512 safe_vt = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(vt, zero, _CMP_GT_OQ), one, vt);
        const __m512 slip = _mm512_sub_ps(one, _mm512_div_ps(drop, safe_vt));
        const __m512 stick = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(vt, drop, _CMP_GT_OQ), zero, slip);
        const __m512 keep = rough ? stick : one;
        const __m512 back = _mm512_mask_blend_ps(into, zero, _mm512_mul_ps(_mm512_sub_ps(one, keep), lag));
        const __m512 ox = _mm512_sub_ps(_mm512_add_ps(cx, ax), _mm512_mul_ps(tx, back));
        const __m512 oy = _mm512_sub_ps(_mm512_add_ps(cy, ay), _mm512_mul_ps(ty, back));
        const __m512 oz = _mm512_sub_ps(_mm512_add_ps(cz, az), _mm512_mul_ps(tz, back));
        const __m512 nvx = _mm512_mask_blend_ps(into, pvx, _mm512_add_ps(sx, _mm512_mul_ps(tx, keep)));
        const __m512 nvy = _mm512_mask_blend_ps(into, pvy, _mm512_add_ps(sy, _mm512_mul_ps(ty, keep)));
        const __m512 nvz = _mm512_mask_blend_ps(into, pvz, _mm512_add_ps(sz, _mm512_mul_ps(tz, keep)));
        _mm512_mask_storeu_ps(a->x + i, hit, ox);
        _mm512_mask_storeu_ps(a->y + i, hit, oy);
        _mm512_mask_storeu_ps(a->z + i, hit, oz);
        _mm512_mask_storeu_ps(a->vx + i, hit, nvx);
        _mm512_mask_storeu_ps(a->vy + i, hit, nvy);
        _mm512_mask_storeu_ps(a->vz + i, hit, nvz);
        hits += (uint32_t)__builtin_popcount((unsigned)hit);
    }
    return hits;
}

#endif /* CLOTH_TARGET_X86 */

/* The path for this CPU (platform/simd.c). */
static sphere_fn *sphere_path(cloth_simd level)
{
#if CLOTH_TARGET_X86
    switch (level) {
    case CLOTH_SIMD_AVX512:
        return sphere_avx512;
    case CLOTH_SIMD_AVX2:
        return sphere_avx2;
    case CLOTH_SIMD_SCALAR:
        break;
    }
#else
    (void)level;
#endif
    return sphere_scalar;
}

/* Whether a particle of [i0, i1) is within reach of the centre: the cheap
 * pass that lets a chunk be skipped, built per vector level (the skip is
 * the same on every level: a comparison of the same float sums). */
static CLOTH_INLINE_ALWAYS bool chunk_near_body(const float *restrict x, const float *restrict y,
                                                const float *restrict z, const float c[3], float reach2, uint32_t i0,
                                                uint32_t i1)
{
    int32_t any = 0;
    for (uint32_t i = i0; i < i1; ++i) {
        const float dx = x[i] - c[0], dy = y[i] - c[1], dz = z[i] - c[2];
        any |= (int32_t)((dx * dx + dy * dy) + dz * dz < reach2);
    }
    return any != 0;
}

static bool chunk_near_plain(const sphere_args *a, uint32_t i0, uint32_t i1)
{
    return chunk_near_body(a->x, a->y, a->z, a->c, a->reach2, i0, i1);
}

#if CLOTH_TARGET_X86
CLOTH_TARGET_AVX2 static bool chunk_near_avx2(const sphere_args *a, uint32_t i0, uint32_t i1)
{
    return chunk_near_body(a->x, a->y, a->z, a->c, a->reach2, i0, i1);
}

CLOTH_TARGET_AVX512 static bool chunk_near_avx512(const sphere_args *a, uint32_t i0, uint32_t i1)
{
    return chunk_near_body(a->x, a->y, a->z, a->c, a->reach2, i0, i1);
}
#endif

typedef bool chunk_near_fn(const sphere_args *a, uint32_t i0, uint32_t i1);

static chunk_near_fn *chunk_near_path(cloth_simd level)
{
#if CLOTH_TARGET_X86
    if (level >= CLOTH_SIMD_AVX512) {
        return chunk_near_avx512;
    }
    if (level >= CLOTH_SIMD_AVX2) {
        return chunk_near_avx2;
    }
#else
    (void)level;
#endif
    return chunk_near_plain;
}

uint32_t cloth_sphere_apply_range(cloth_t *cloth, const cloth_collider *c, uint32_t begin, uint32_t end)
{
    cloth_particles *p = &cloth->p;
    sphere_args a;
    a.x = p->x;
    a.y = p->y;
    a.z = p->z;
    a.vx = p->vx;
    a.vy = p->vy;
    a.vz = p->vz;
    a.w = p->w;
    a.reach = c->size[0] + c->thickness;
    a.reach2 = a.reach * a.reach;
    a.mu = c->friction;
    a.lag = cloth->friction_lag;
    for (int k = 0; k < 3; ++k) {
        a.c[k] = c->at.p[k];
        a.up[k] = c->m[3 * k + 1];
        a.v[k] = c->v[k];
        a.spin[k] = c->w[k];
    }
    sphere_fn *fn = sphere_path(cloth->simd);
    chunk_near_fn *near = chunk_near_path(cloth->simd);
    uint32_t hits = 0u;
    for (uint32_t i0 = begin; i0 < end; i0 += SPHERE_CHUNK) {
        const uint32_t i1 = end - i0 < SPHERE_CHUNK ? end : i0 + SPHERE_CHUNK;
        if (near(&a, i0, i1)) {
            hits += fn(&a, i0, i1);
        }
    }
    return hits;
}
