/*
 * The kernels written once over the vector layer (platform/wide.h) and
 * compiled once per width (wide_1.c, wide_4.c, wide_8.c, wide_16.c), each
 * width's functions gathered in a table. cloth_kernels_at() gives the table
 * for a cloth's vector level (cloth_t::simd); a width this build or CPU
 * lacks gives the next narrower one. Every table gives the same bits.
 *
 * Adding a kernel: its arguments here, a field in cloth_kernels, the
 * kernel in its own .inl over wf/wm (written as the plain C loop would be,
 * every lane computed and conditions only choosing), one line in wide.inl.
 */
#ifndef CLOTHSIM_KERNELS_H
#define CLOTHSIM_KERNELS_H

#include "platform/simd.h"

#include <stdbool.h>
#include <stdint.h>

/* One sphere against particles [begin, end) (colliders/sphere_pass.c). */
typedef struct cloth_sphere_args {
    float *x, *y, *z, *vx, *vy, *vz;
    const float *w;
    float reach, reach2, mu, lag;
    float c[3];  /* centre */
    float up[3]; /* the frame's +y in the world: "out" at the very centre */
    float v[3], spin[3];
    /* > 0 in the strain limit's held passes (colliders/collide.c,
     * resolve_held()): the step dt, with the positions the limit began
     * from and gravity */
    float hold_dt;
    const float *lx, *ly, *lz;
    float g[3];
} cloth_sphere_args;

typedef struct cloth_kernels {
    uint32_t lanes;
    /* the sphere's response on [begin, end); returns the contacts */
    uint32_t (*sphere)(const cloth_sphere_args *a, uint32_t begin, uint32_t end);
    /* whether a particle of [begin, end) is within the sphere's reach */
    bool (*sphere_near)(const cloth_sphere_args *a, uint32_t begin, uint32_t end);
    /* the sign bit set if any of arrays[0 .. count) holds a NaN or an
     * infinity on [first, last) (platform/finite.h) */
    uint32_t (*nonfinite)(const float *const *arrays, uint32_t count, uint32_t first, uint32_t last);
    /* over the links (i, i + di), i in [begin, end), of particles x, y, z:
     * the larger of `top` and the largest |x[i + di] - x[i]|^2 inv_rest2
     * (kernels/measure.inl) */
    float (*ratio2)(const float *x, const float *y, const float *z, uint32_t begin, uint32_t end, uint32_t di,
                    float inv_rest2, float top);
} cloth_kernels;

const cloth_kernels *cloth_kernels_at(cloth_simd level);

/* The tables (wide_<lanes>.c); only the widths this build has exist. */
extern const cloth_kernels cloth_kernels_w1, cloth_kernels_w4, cloth_kernels_w8, cloth_kernels_w16;

#endif /* CLOTHSIM_KERNELS_H */
