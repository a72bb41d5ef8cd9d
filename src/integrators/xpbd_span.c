/*
 * XPBD's spring run in plain C, AVX2 and AVX-512 (see xpbd_span.h). Each
 * spring, with e = xi - xj at the current displacement u and m = ui - uj:
 *
 *   l = |e|,  num = (L0 - l) l - (alpha~ lambda) l - gamma (e.m)
 *   f = num / (((1 + gamma)(wi + wj) + alpha~) l^2)
 *   lambda += f l,  ui += wi f e,  uj -= wj f e
 *
 * which is dl = (-C - alpha~ lambda - gamma n.m) / ((1 + gamma) w + alpha~)
 * along n = e / l with one division for all of it. A spring with both ends
 * held or coincident ends is left alone. The vector paths load a block of
 * springs, compute every lane and store only the lanes in play (masked
 * stores), so a lane left out writes nothing, as in the plain loop; that and
 * the same operation order per lane give the same bits on every path.
 */
#include "xpbd_span.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define XPBD_X86 1
#include <immintrin.h>
#else
#define XPBD_X86 0
#endif

static inline bool in_colour(const xpbd_span *s, uint32_t i)
{
    return s->mask_shift == XPBD_SPAN_ALL || (((i - s->row_start) >> s->mask_shift) & 1u) == s->parity;
}

static void span_scalar(const xpbd_span *s)
{
    const float *x = s->x, *y = s->y, *z = s->z, *w = s->w;
    float *ux = s->ux, *uy = s->uy, *uz = s->uz;
    const float rest = s->rest, at = s->alpha_tilde, gamma = s->gamma, opg = s->one_plus_gamma;
    for (uint32_t i = s->begin; i < s->end; ++i) {
        if (!in_colour(s, i)) {
            continue;
        }
        const uint32_t j = i + s->di;
        const float mx = ux[i] - ux[j], my = uy[i] - uy[j], mz = uz[i] - uz[j];
        const float ex = (x[i] - x[j]) + mx, ey = (y[i] - y[j]) + my, ez = (z[i] - z[j]) + mz;
        const float len2 = (ex * ex + ey * ey) + ez * ez;
        const float wsum = w[i] + w[j];
        if (!(wsum > 0.0f) || !(len2 > 0.0f)) {
            continue;
        }
        const float l = sqrtf(len2);
        const float dot = (ex * mx + ey * my) + ez * mz;
        const float lam = s->lambda != NULL ? s->lambda[i] : 0.0f;
        const float num = ((rest - l) * l - (at * lam) * l) - gamma * dot;
        const float f = num / ((opg * wsum + at) * len2);
        if (s->lambda != NULL) {
            s->lambda[i] = lam + f * l;
        }
        const float pi = w[i] * f, pj = w[j] * f;
        ux[i] = ux[i] + pi * ex;
        uy[i] = uy[i] + pi * ey;
        uz[i] = uz[i] + pi * ez;
        ux[j] = ux[j] - pj * ex;
        uy[j] = uy[j] - pj * ey;
        uz[j] = uz[j] - pj * ez;
    }
}

#if XPBD_X86

__attribute__((target("avx2"))) static void span_avx2(const xpbd_span *s)
{
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256 rest = _mm256_set1_ps(s->rest), at = _mm256_set1_ps(s->alpha_tilde);
    const __m256 gamma = _mm256_set1_ps(s->gamma), opg = _mm256_set1_ps(s->one_plus_gamma);
    const bool all = s->mask_shift == XPBD_SPAN_ALL;
    const __m256i shift = _mm256_set1_epi32(all ? 0 : (int)s->mask_shift);
    const __m256i parity = _mm256_set1_epi32((int)s->parity), bit = _mm256_set1_epi32(1);
    for (uint32_t i = s->begin; i < s->end; i += 8u) {
        const uint32_t j = i + s->di;
        const uint32_t left = s->end - i;
        __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32(left < 8u ? (int)left : 8), lane);
        if (!all) {
            const __m256i c = _mm256_add_epi32(_mm256_set1_epi32((int)(i - s->row_start)), lane);
            const __m256i b = _mm256_and_si256(_mm256_srlv_epi32(c, shift), bit);
            live = _mm256_and_si256(live, _mm256_cmpeq_epi32(b, parity));
        }
        const __m256 xi = _mm256_maskload_ps(s->x + i, live), xj = _mm256_maskload_ps(s->x + j, live);
        const __m256 yi = _mm256_maskload_ps(s->y + i, live), yj = _mm256_maskload_ps(s->y + j, live);
        const __m256 zi = _mm256_maskload_ps(s->z + i, live), zj = _mm256_maskload_ps(s->z + j, live);
        const __m256 wi = _mm256_maskload_ps(s->w + i, live), wj = _mm256_maskload_ps(s->w + j, live);
        const __m256 uxi = _mm256_maskload_ps(s->ux + i, live), uxj = _mm256_maskload_ps(s->ux + j, live);
        const __m256 uyi = _mm256_maskload_ps(s->uy + i, live), uyj = _mm256_maskload_ps(s->uy + j, live);
        const __m256 uzi = _mm256_maskload_ps(s->uz + i, live), uzj = _mm256_maskload_ps(s->uz + j, live);
        const __m256 mx = _mm256_sub_ps(uxi, uxj), my = _mm256_sub_ps(uyi, uyj), mz = _mm256_sub_ps(uzi, uzj);
        const __m256 ex = _mm256_add_ps(_mm256_sub_ps(xi, xj), mx);
        const __m256 ey = _mm256_add_ps(_mm256_sub_ps(yi, yj), my);
        const __m256 ez = _mm256_add_ps(_mm256_sub_ps(zi, zj), mz);
        const __m256 len2 =
            _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(ex, ex), _mm256_mul_ps(ey, ey)), _mm256_mul_ps(ez, ez));
        const __m256 wsum = _mm256_add_ps(wi, wj);
        const __m256 ok = _mm256_and_ps(_mm256_cmp_ps(wsum, zero, _CMP_GT_OQ), _mm256_cmp_ps(len2, zero, _CMP_GT_OQ));
        const __m256i on = _mm256_and_si256(live, _mm256_castps_si256(ok));
        const __m256 l = _mm256_sqrt_ps(len2);
        const __m256 dot =
            _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(ex, mx), _mm256_mul_ps(ey, my)), _mm256_mul_ps(ez, mz));
        const __m256 lam = s->lambda != NULL ? _mm256_maskload_ps(s->lambda + i, on) : zero;
        const __m256 num = _mm256_sub_ps(
            _mm256_sub_ps(_mm256_mul_ps(_mm256_sub_ps(rest, l), l), _mm256_mul_ps(_mm256_mul_ps(at, lam), l)),
            _mm256_mul_ps(gamma, dot));
        __m256 den = _mm256_mul_ps(_mm256_add_ps(_mm256_mul_ps(opg, wsum), at), len2);
        den = _mm256_blendv_ps(one, den, _mm256_castsi256_ps(on));
        const __m256 f = _mm256_div_ps(num, den);
        if (s->lambda != NULL) {
            _mm256_maskstore_ps(s->lambda + i, on, _mm256_add_ps(lam, _mm256_mul_ps(f, l)));
        }
        const __m256 pi = _mm256_mul_ps(wi, f), pj = _mm256_mul_ps(wj, f);
        _mm256_maskstore_ps(s->ux + i, on, _mm256_add_ps(uxi, _mm256_mul_ps(pi, ex)));
        _mm256_maskstore_ps(s->uy + i, on, _mm256_add_ps(uyi, _mm256_mul_ps(pi, ey)));
        _mm256_maskstore_ps(s->uz + i, on, _mm256_add_ps(uzi, _mm256_mul_ps(pi, ez)));
        _mm256_maskstore_ps(s->ux + j, on, _mm256_sub_ps(uxj, _mm256_mul_ps(pj, ex)));
        _mm256_maskstore_ps(s->uy + j, on, _mm256_sub_ps(uyj, _mm256_mul_ps(pj, ey)));
        _mm256_maskstore_ps(s->uz + j, on, _mm256_sub_ps(uzj, _mm256_mul_ps(pj, ez)));
    }
}

__attribute__((target("avx512f"))) static void span_avx512(const xpbd_span *s)
{
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f);
    const __m512 rest = _mm512_set1_ps(s->rest), at = _mm512_set1_ps(s->alpha_tilde);
    const __m512 gamma = _mm512_set1_ps(s->gamma), opg = _mm512_set1_ps(s->one_plus_gamma);
    const bool all = s->mask_shift == XPBD_SPAN_ALL;
    const __m512i shift = _mm512_set1_epi32(all ? 0 : (int)s->mask_shift);
    const __m512i parity = _mm512_set1_epi32((int)s->parity), bit = _mm512_set1_epi32(1);
    for (uint32_t i = s->begin; i < s->end; i += 16u) {
        const uint32_t j = i + s->di;
        const uint32_t left = s->end - i;
        const uint32_t tail = left >= 16u ? 0xffffu : (1u << left) - 1u;
        __mmask16 live = (__mmask16)tail;
        if (!all) {
            const __m512i c = _mm512_add_epi32(_mm512_set1_epi32((int)(i - s->row_start)), lane);
            const __m512i b = _mm512_and_si512(_mm512_srlv_epi32(c, shift), bit);
            live = _mm512_mask_cmpeq_epi32_mask(live, b, parity);
        }
        const __m512 xi = _mm512_maskz_loadu_ps(live, s->x + i), xj = _mm512_maskz_loadu_ps(live, s->x + j);
        const __m512 yi = _mm512_maskz_loadu_ps(live, s->y + i), yj = _mm512_maskz_loadu_ps(live, s->y + j);
        const __m512 zi = _mm512_maskz_loadu_ps(live, s->z + i), zj = _mm512_maskz_loadu_ps(live, s->z + j);
        const __m512 wi = _mm512_maskz_loadu_ps(live, s->w + i), wj = _mm512_maskz_loadu_ps(live, s->w + j);
        const __m512 uxi = _mm512_maskz_loadu_ps(live, s->ux + i), uxj = _mm512_maskz_loadu_ps(live, s->ux + j);
        const __m512 uyi = _mm512_maskz_loadu_ps(live, s->uy + i), uyj = _mm512_maskz_loadu_ps(live, s->uy + j);
        const __m512 uzi = _mm512_maskz_loadu_ps(live, s->uz + i), uzj = _mm512_maskz_loadu_ps(live, s->uz + j);
        const __m512 mx = _mm512_sub_ps(uxi, uxj), my = _mm512_sub_ps(uyi, uyj), mz = _mm512_sub_ps(uzi, uzj);
        const __m512 ex = _mm512_add_ps(_mm512_sub_ps(xi, xj), mx);
        const __m512 ey = _mm512_add_ps(_mm512_sub_ps(yi, yj), my);
        const __m512 ez = _mm512_add_ps(_mm512_sub_ps(zi, zj), mz);
        const __m512 len2 =
            _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(ex, ex), _mm512_mul_ps(ey, ey)), _mm512_mul_ps(ez, ez));
        const __m512 wsum = _mm512_add_ps(wi, wj);
        __mmask16 on = _mm512_mask_cmp_ps_mask(live, wsum, zero, _CMP_GT_OQ);
        on = _mm512_mask_cmp_ps_mask(on, len2, zero, _CMP_GT_OQ);
        const __m512 l = _mm512_sqrt_ps(len2);
        const __m512 dot =
            _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(ex, mx), _mm512_mul_ps(ey, my)), _mm512_mul_ps(ez, mz));
        const __m512 lam = s->lambda != NULL ? _mm512_maskz_loadu_ps(on, s->lambda + i) : zero;
        const __m512 num = _mm512_sub_ps(
            _mm512_sub_ps(_mm512_mul_ps(_mm512_sub_ps(rest, l), l), _mm512_mul_ps(_mm512_mul_ps(at, lam), l)),
            _mm512_mul_ps(gamma, dot));
        const __m512 den =
            _mm512_mask_blend_ps(on, one, _mm512_mul_ps(_mm512_add_ps(_mm512_mul_ps(opg, wsum), at), len2));
        const __m512 f = _mm512_div_ps(num, den);
        if (s->lambda != NULL) {
            _mm512_mask_storeu_ps(s->lambda + i, on, _mm512_add_ps(lam, _mm512_mul_ps(f, l)));
        }
        const __m512 pi = _mm512_mul_ps(wi, f), pj = _mm512_mul_ps(wj, f);
        _mm512_mask_storeu_ps(s->ux + i, on, _mm512_add_ps(uxi, _mm512_mul_ps(pi, ex)));
        _mm512_mask_storeu_ps(s->uy + i, on, _mm512_add_ps(uyi, _mm512_mul_ps(pi, ey)));
        _mm512_mask_storeu_ps(s->uz + i, on, _mm512_add_ps(uzi, _mm512_mul_ps(pi, ez)));
        _mm512_mask_storeu_ps(s->ux + j, on, _mm512_sub_ps(uxj, _mm512_mul_ps(pj, ex)));
        _mm512_mask_storeu_ps(s->uy + j, on, _mm512_sub_ps(uyj, _mm512_mul_ps(pj, ey)));
        _mm512_mask_storeu_ps(s->uz + j, on, _mm512_sub_ps(uzj, _mm512_mul_ps(pj, ez)));
    }
}

#endif /* XPBD_X86 */

typedef struct span_level {
    const char *name;
    xpbd_span_fn *fn;
} span_level;

xpbd_span_fn *cloth_xpbd_span_kernel(const char **name)
{
    /* best first; the environment may only lower the choice */
    span_level levels[3];
    int count = 0;
#if XPBD_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        levels[count++] = (span_level){"avx512", span_avx512};
    }
    if (__builtin_cpu_supports("avx2")) {
        levels[count++] = (span_level){"avx2", span_avx2};
    }
#endif
    levels[count++] = (span_level){"scalar", span_scalar};
    int pick = 0;
    const char *want = getenv("CLOTHSIM_SIMD");
    if (want != NULL) {
        for (int k = 0; k < count; ++k) {
            if (strcmp(want, levels[k].name) == 0) {
                pick = k;
            }
        }
    }
    if (name != NULL) {
        *name = levels[pick].name;
    }
    return levels[pick].fn;
}
