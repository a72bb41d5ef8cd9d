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

/* An ellipsoid in its own frame (colliders/ellipsoid.c): its semi-axes
 * along x, y, z, their squares and the squares' sum, the thickness, the
 * bound (1 + thickness / shortest semi-axis)^2 (grown by a part in 1e4)
 * on sum (p_i / a_i)^2 past which no point is within the thickness, and
 * the surface point nearest the centre (an end of the shortest axis). */
typedef struct cloth_ellipsoid_form {
    float a[3], a2[3], a2sum, thickness, grow2, centre[3];
} cloth_ellipsoid_form;

/* The ellipsoid's query (colliders/shapes.h, cloth_shape_fn) for one point
 * of its frame: the one-lane build of kernels/shapes.inl, so that the
 * general pass and the vector pass at every width run the same operations
 * (the iteration is per lane, to each lane's own end). */
bool cloth_ellipsoid_point(const cloth_ellipsoid_form *e, const float p[3], float out[3], float n[3]);

/* A tapered capsule in its own frame (colliders/tapered_capsule.c): the
 * convex hull of a ball of radius ra about `base` and one of radius rb at
 * `base + len e`, e the unit axis (len 0 when one ball holds the other:
 * then the larger alone, at base); sin_t = (ra - rb) / len and cos_t the
 * side's slope, len_cos = len cos_t where the side meets the second ball;
 * `on_axis`, perpendicular to e, is "out" for a point on the axis. */
typedef struct cloth_taper_form {
    float base[3], e[3], on_axis[3];
    float len, sin_t, cos_t, len_cos, ra, rb, thickness;
} cloth_taper_form;

/* Its query for one point of its frame, the one-lane build of
 * kernels/shapes.inl, as cloth_ellipsoid_point(). */
bool cloth_taper_point(const cloth_taper_form *t, const float p[3], float out[3], float n[3]);

/* A convex hull in its own frame (colliders/convex.c): `count` planes
 * (nx, ny, nz, d), unit normals, the solid where every n.p + d <= 0, and
 * the thickness kept outside it. */
typedef struct cloth_convex_form {
    const float *planes;
    uint32_t count;
    float thickness;
} cloth_convex_form;

/* Its query for one point of its frame, the one-lane build of
 * kernels/shapes.inl, as cloth_ellipsoid_point(). */
bool cloth_convex_point(const cloth_convex_form *h, const float p[3], float out[3], float n[3]);

/* One collider against particles [begin, end) (colliders/vector_pass.c;
 * kernels/contact.inl, sphere.inl, shapes.inl). */
typedef struct cloth_contact_args {
    float *x, *y, *z, *vx, *vy, *vz;
    const float *w;
    float reach, reach2, mu, lag; /* radius + thickness (sphere, capsule), squared */
    float c[3];  /* the collider's origin */
    float up[3]; /* sphere: the frame's +y in the world, "out" at the very centre */
    float v[3], spin[3];
    /* > 0 in the strain limit's held passes (colliders/collide.c,
     * resolve_held()): the step dt, with the positions the limit began
     * from and gravity */
    float hold_dt;
    const float *lx, *ly, *lz;
    float g[3];
    /* The shapes described in their own frame (capsule, cylinder, plane,
     * torus): the rotation (cloth_collider::m), the shape's axis there
     * (capsule, cylinder: the second end; plane, torus: the unit normal),
     * its radius (torus: the major one; its `reach` is the minor radius +
     * thickness) and thickness; the capsule's |axis|^2, the cylinder's unit axis `e`,
     * length and length + thickness, and for both the direction out of a
     * point on the axis. */
    float m[9];
    float axis[3];
    float size, thickness, len2;
    float e[3], len, len_th;
    float on_axis[3];
    cloth_ellipsoid_form ellipsoid;
    cloth_taper_form taper;
    cloth_convex_form convex;
} cloth_contact_args;

/* mask_shift value for a run whose springs are all in play */
#define XPBD_SPAN_ALL 0xffffffffu

/* One run of XPBD springs (i, i + di) of one stencil family of a grid,
 * solved in place (integrators/xpbd_grid.c; kernels/xpbd_span.inl). */
typedef struct xpbd_span {
    const float *x, *y, *z; /* positions at the start of the substep, m */
    const float *w;         /* inverse masses, 1/kg */
    float *ux, *uy, *uz;    /* displacement since the start of the substep, m */
    float *lambda;          /* per first end i; NULL: every lambda is 0 and none is kept */
    const float *scale;     /* per particle stiffness scale; NULL: all 1 (alpha~ / mean of the ends') */
    uint32_t begin, end;    /* first ends i in [begin, end) */
    uint32_t di;            /* second end j = i + di */
    /* A row's own springs (dr = 0) share particles with their neighbours;
     * one colour of them is in play: i is skipped unless
     * ((i - row_start) >> mask_shift) & 1 == parity. XPBD_SPAN_ALL: none
     * is skipped. mask_shift 1 (springs (i, i + 2), in groups of four) and
     * 0 (springs (i, i + 1)) are the two colourings. */
    uint32_t row_start, mask_shift, parity;
    float rest;             /* rest length, m */
    float alpha_tilde;      /* compliance / h^2 */
    float gamma;            /* damping, beta / h */
    float one_plus_gamma;   /* 1 + gamma, rounded once for every width */
} xpbd_span;

/* Slots per batch of a mesh's XPBD springs: the widest vector's lanes. */
#define XPBD_LINK_BATCH 16u

/* Batches of XPBD springs of a mesh, slots [begin, end) (multiples of
 * XPBD_LINK_BATCH) of one spring type, no two springs of a batch on one
 * particle; solved in place (integrators/xpbd.c; kernels/xpbd_links.inl). */
typedef struct xpbd_links {
    const float *x4;       /* per particle (x, y, z, w) at the substep's start, 16-byte aligned */
    float *u4;             /* per particle (ux, uy, uz, -): the displacement since then */
    const uint32_t *i, *j; /* per slot: the spring's ends */
    const float *rest;     /* per slot: rest length, m */
    float *lambda;         /* per slot; NULL: every lambda is 0 and none is kept */
    bool scaled;           /* u4's fourth float holds each particle's stiffness scale */
    uint32_t begin, end;
    float inv_kh2;         /* 1 / (k h^2): alpha~ = rest inv_kh2 */
    float gamma;           /* damping, beta / h */
    float one_plus_gamma;  /* 1 + gamma */
} xpbd_links;

/* The strain limit's loops (constraints/strain_kernels.h; kernels/limit.inl).
 * Springs (p, p + di), p in [begin, end), that share no particle: */
typedef struct limit_ctx limit_ctx;
typedef void limit_run_fn(const limit_ctx *c, uint32_t begin, uint32_t end, uint32_t di, float lim, float lim2);
/* A row's own springs (p, p + 1), p in [begin, end), with p - begin of one
 * parity (`colour`). */
typedef void limit_along_fn(const limit_ctx *c, uint32_t begin, uint32_t end, float lim, float lim2, uint32_t colour);

/* What a loop works on. With vx NULL only positions move (a coarse level's
 * nodes, whose velocity change is made when their moves reach the cloth). */
struct limit_ctx {
    float *x, *y, *z, *vx, *vy, *vz;
    const float *w;
    float inv_dt;
    limit_run_fn *run;     /* runs across rows, at the cloth's width */
    limit_along_fn *along; /* a row's own springs, at the cloth's width */
};

/* What the coarse levels' node loop does (kernels/levels.inl). */
enum { CLOTH_NODES_AT, CLOTH_NODES_MOVES };

/* The tether pass's float batch on a grid (constraints/tether_grid.c,
 * kernels/tether_pack.inl): the particles a flag picks are packed into the
 * batch's lanes in index order, a group of up to `lanes` particles at a
 * time, and unpacked back after the solve. */
typedef struct cloth_tether_pack {
    float *particle[6];     /* the cloth's x, y, z, vx, vy, vz */
    float *lane[6];         /* the batch's, by lane */
    uint32_t *index;        /* per lane: its particle */
    double *row, *col;      /* per lane: its particle's row and column */
    const int32_t *exact;   /* per lane: left to the exact path, not written back */
    uint32_t *group_at;     /* per group: the particle of its bit 0 */
    uint16_t *group_mask;   /* per group: bit l for particle group_at + l */
    uint32_t *n, *groups;   /* lanes and groups in use */
    uint32_t capacity;      /* lanes */
} cloth_tether_pack;

typedef struct cloth_kernels {
    uint32_t lanes;
    /* a collider's response on [begin, end), as colliders/collide.c's
     * resolve() (or resolve_held()) gives it; returns the contacts */
    uint32_t (*sphere)(const cloth_contact_args *a, uint32_t begin, uint32_t end);
    uint32_t (*capsule)(const cloth_contact_args *a, uint32_t begin, uint32_t end);
    uint32_t (*cylinder)(const cloth_contact_args *a, uint32_t begin, uint32_t end);
    uint32_t (*torus)(const cloth_contact_args *a, uint32_t begin, uint32_t end);
    uint32_t (*plane)(const cloth_contact_args *a, uint32_t begin, uint32_t end);
    uint32_t (*ellipsoid)(const cloth_contact_args *a, uint32_t begin, uint32_t end);
    uint32_t (*tapered)(const cloth_contact_args *a, uint32_t begin, uint32_t end);
    uint32_t (*convex)(const cloth_contact_args *a, uint32_t begin, uint32_t end);
    /* the sign bit set if any of arrays[0 .. count) holds a NaN or an
     * infinity on [first, last) (platform/finite.h) */
    uint32_t (*nonfinite)(const float *const *arrays, uint32_t count, uint32_t first, uint32_t last);
    /* over the links (i, i + di), i in [begin, end), of particles x, y, z:
     * the larger of `top` and the largest |x[i + di] - x[i]|^2 inv_rest2
     * (kernels/measure.inl) */
    /* the strain limit's loops: shorten the springs past lim (lim2 = lim^2) */
    limit_run_fn *limit_across;
    limit_along_fn *limit_along;
    /* the limit's coarse levels (constraints/strain_levels.c) */
    void (*level_halve)(const float *row, float *out, uint32_t pairs);
    void (*level_add)(float *x, float *v, const float *w, const float *move, float inv_dt, uint32_t n);
    void (*level_mix)(const float *top, const float *bottom, float *out, float t, uint32_t n);
    void (*level_nodes)(float *node, const float *fine, const float *d, uint32_t n, uint32_t shift, int what);
    /* XPBD's spring run on a grid */
    void (*xpbd_span)(const xpbd_span *span);
    /* XPBD's spring batches on a mesh */
    void (*xpbd_links)(const xpbd_links *links);
    float (*ratio2)(const float *x, const float *y, const float *z, uint32_t begin, uint32_t end, uint32_t di,
                    float inv_rest2, float top);
    /* the box of points [begin, end): lowest x, y, z, then highest
     * (kernels/measure.inl) */
    void (*box)(const float *x, const float *y, const float *z, uint32_t begin, uint32_t end, float out[6]);
    /* the tether batch on a grid: pack the particles i + j, j in [j, len),
     * of row r from column c whose flag is set, until a whole group might
     * not fit; returns the j it stopped at (len when done). Unpack writes
     * the lanes the exact path did not take back to the particles. */
    uint32_t (*tether_pack)(const cloth_tether_pack *b, const int32_t *flag, uint32_t i, uint32_t r, uint32_t c,
                            uint32_t len, uint32_t j);
    void (*tether_unpack)(const cloth_tether_pack *b);
} cloth_kernels;

const cloth_kernels *cloth_kernels_at(cloth_simd level);

/* The tables (wide_<lanes>.c); only the widths this build has exist. */
extern const cloth_kernels cloth_kernels_w1, cloth_kernels_w4, cloth_kernels_w8, cloth_kernels_w16;

#endif /* CLOTHSIM_KERNELS_H */
