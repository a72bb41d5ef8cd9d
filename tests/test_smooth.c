/*
 * test_smooth: the Catmull-Rom surface of cloth_get_smooth() (smooth.h).
 *
 *  - counts: ((rows-1) L + 1) x ((cols-1) L + 1) vertices, 2 (R-1)(C-1)
 *    triangles, every index in range, the documented winding;
 *  - it interpolates: vertex (r L, c L) is particle (r, c) bit for bit, on a
 *    bent, stepped cloth;
 *  - a flat grid (also tilted, with non-orthogonal axes) gives a flat
 *    surface at exactly the bilinear placement, normals equal to
 *    cloth_get_normals()' direction;
 *  - normals are unit length; their orientation agrees with
 *    cloth_get_normals() on a curved cloth;
 *  - a grid laid onto a cylinder of radius R every theta radians stays within
 *    R theta^4 / 40 of the cylinder away from the border (a cubic through
 *    samples of a circle is off by 3/128 R theta^4 at mid-span) and within
 *    R theta^4 / 25 at the border; its normals are radial; halving theta
 *    cuts the error by about 16. Measured, R = 0.3 m: 3.3e-5 m (4.3e-5 m at
 *    the border) at 15 degrees, 2.1e-6 m (2.7e-6 m) at 7.5 degrees, where
 *    flat triangles are 2.6e-3 m off;
 *  - the levels agree where their parameters coincide;
 *  - strided output leaves the padding alone; NULL normals / triangles skip
 *    them; refused calls write nothing; single-row grids have no surface;
 *    mesh cloths are refused with CLOTH_ERR_UNSUPPORTED.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SENTINEL 0xA5u

static void report_oom(void)
{
    ++test_checks;
    ++test_failures;
    fprintf(stderr, "test_smooth: out of memory\n");
}

static cloth_t *make_grid(uint32_t rows, uint32_t cols, float spacing, const float origin[3],
                          const float u[3], const float v[3])
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = rows;
    d.cols = cols;
    d.spacing = spacing;
    if (origin != NULL) {
        memcpy(d.origin, origin, sizeof d.origin);
    }
    if (u != NULL) {
        memcpy(d.u_axis, u, sizeof d.u_axis);
    }
    if (v != NULL) {
        memcpy(d.v_axis, v, sizeof d.v_axis);
    }
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_grid(&d, &c));
    return c;
}

static double len3(const float *v)
{
    return sqrt((double)v[0] * (double)v[0] + (double)v[1] * (double)v[1] + (double)v[2] * (double)v[2]);
}

static double dot3(const float *a, const float *b)
{
    return (double)a[0] * (double)b[0] + (double)a[1] * (double)b[1] + (double)a[2] * (double)b[2];
}

/* A smooth surface in packed buffers. */
typedef struct surface {
    uint32_t level, rows, cols, nv, nt;
    float *pos, *nrm;
    uint32_t *tri;
} surface;

static int surface_get(const cloth_t *cloth, uint32_t level, uint32_t grid_rows, uint32_t grid_cols,
                       surface *s)
{
    memset(s, 0, sizeof *s);
    s->level = level;
    CHECK_OK(cloth_smooth_counts(cloth, level, &s->nv, &s->nt));
    s->rows = (grid_rows - 1u) * level + 1u;
    s->cols = (grid_cols - 1u) * level + 1u;
    CHECK(s->nv == s->rows * s->cols);
    CHECK(s->nt == 2u * (s->rows - 1u) * (s->cols - 1u));
    s->pos = malloc(sizeof(float) * 3u * s->nv);
    s->nrm = malloc(sizeof(float) * 3u * s->nv);
    s->tri = malloc(sizeof(uint32_t) * 3u * s->nt);
    if (s->pos == NULL || s->nrm == NULL || s->tri == NULL) {
        return 0;
    }
    CHECK_OK(cloth_get_smooth(cloth, level, s->pos, 0, s->nrm, 0, s->tri));
    return 1;
}

static void surface_free(surface *s)
{
    free(s->pos);
    free(s->nrm);
    free(s->tri);
}

static void check_counts_and_indices(void)
{
    cloth_t *c = make_grid(5, 7, 0.1f, NULL, NULL, NULL);
    const uint32_t levels[] = {1u, 2u, 3u, 4u, 16u};
    for (size_t k = 0; k < sizeof levels / sizeof levels[0]; ++k) {
        surface s;
        if (!surface_get(c, levels[k], 5u, 7u, &s)) {
            report_oom();
            surface_free(&s);
            continue;
        }
        CHECK(s.nv == (4u * levels[k] + 1u) * (6u * levels[k] + 1u));
        CHECK(s.nt == 2u * 4u * levels[k] * 6u * levels[k]);
        int in_range = 1, distinct = 1, layout = 1;
        for (uint32_t t = 0; t < s.nt; ++t) {
            const uint32_t *v = s.tri + 3u * t;
            in_range &= v[0] < s.nv && v[1] < s.nv && v[2] < s.nv;
            distinct &= v[0] != v[1] && v[1] != v[2] && v[0] != v[2];
            /* smooth quad q gives (i, i+C, i+1), (i+1, i+C, i+C+1) */
            const uint32_t q = t / 2u, i = (q / (s.cols - 1u)) * s.cols + q % (s.cols - 1u);
            if (t % 2u == 0u) {
                layout &= v[0] == i && v[1] == i + s.cols && v[2] == i + 1u;
            } else {
                layout &= v[0] == i + 1u && v[1] == i + s.cols && v[2] == i + s.cols + 1u;
            }
        }
        CHECK(in_range);
        CHECK(distinct);
        CHECK(layout);
        /* level 1 has the grid's own index buffer */
        if (levels[k] == 1u) {
            uint32_t grid_tri[3u * 2u * 4u * 6u];
            CHECK(cloth_triangle_count(c) == s.nt);
            CHECK_OK(cloth_get_triangles(c, grid_tri));
            CHECK(memcmp(grid_tri, s.tri, sizeof grid_tri) == 0);
        }
        surface_free(&s);
    }
    cloth_destroy(c);
}

/* A flat grid: linear precision means every vertex sits exactly where the
 * grid's bilinear placement puts it, and every normal is v x u. */
static void check_flat(const float u[3], const float v[3])
{
    const float origin[3] = {0.3f, 1.2f, -0.4f};
    const uint32_t rows = 6u, cols = 9u;
    const float spacing = 0.07f;
    cloth_t *c = make_grid(rows, cols, spacing, origin, u, v);
    float grid_n[3];
    float *all_n = malloc(sizeof(float) * 3u * rows * cols);
    if (all_n == NULL) {
        report_oom();
        cloth_destroy(c);
        return;
    }
    CHECK_OK(cloth_get_normals(c, all_n, 0));
    memcpy(grid_n, all_n + 3u * (rows * cols / 2u), sizeof grid_n);
    free(all_n);

    double un[3], vn[3];
    const double ul = len3(u), vl = len3(v);
    for (int k = 0; k < 3; ++k) {
        un[k] = (double)u[k] / ul;
        vn[k] = (double)v[k] / vl;
    }
    surface s;
    if (!surface_get(c, 5u, rows, cols, &s)) {
        report_oom();
    } else {
        double worst_pos = 0.0, worst_off_plane = 0.0, worst_n = 0.0;
        for (uint32_t r = 0; r < s.rows; ++r) {
            for (uint32_t q = 0; q < s.cols; ++q) {
                const float *p = s.pos + 3u * (r * s.cols + q);
                const float *n = s.nrm + 3u * (r * s.cols + q);
                const double a = (double)spacing * q / s.level, b = (double)spacing * r / s.level;
                double off = 0.0;
                for (int k = 0; k < 3; ++k) {
                    const double want = (double)origin[k] + a * un[k] + b * vn[k];
                    worst_pos = fmax(worst_pos, fabs((double)p[k] - want));
                    off += ((double)p[k] - (double)origin[k]) * (double)grid_n[k];
                    worst_n = fmax(worst_n, fabs((double)n[k] - (double)grid_n[k]));
                }
                worst_off_plane = fmax(worst_off_plane, fabs(off));
            }
        }
        CHECK_NEAR(worst_pos, 0.0, 2e-6);        /* a few ulps of coordinates ~1 m */
        CHECK_NEAR(worst_off_plane, 0.0, 1e-6);
        /* the derivatives are differences of ~1 m coordinates over 0.07 m:
         * float cancellation leaves a few 1e-6 in the normal */
        CHECK_NEAR(worst_n, 0.0, 1e-5);
    }
    surface_free(&s);
    cloth_destroy(c);
}

/* A bent cloth after some physics: corners are the particles, exactly;
 * normals unit and on the same side as cloth_get_normals(); coarser levels
 * are the finer ones at the shared parameters. */
static void check_interpolates(void)
{
    const uint32_t rows = 12u, cols = 10u;
    cloth_t *c = make_grid(rows, cols, 0.05f, NULL, NULL, NULL);
    const float ball[3] = {0.22f, -0.25f, 0.3f};
    cloth_collider_id id;
    CHECK_OK(cloth_pin(c, 0, NULL));
    CHECK_OK(cloth_pin(c, cols - 1u, NULL));
    CHECK_OK(cloth_add_sphere(c, ball, 0.2f, &id));
    for (int i = 0; i < 90; ++i) {
        CHECK_OK(cloth_step(c, 1.0f / 60.0f));
    }
    const uint32_t n = rows * cols;
    float *pos = malloc(sizeof(float) * 3u * n), *nrm = malloc(sizeof(float) * 3u * n);
    surface s4, s2;
    int ok4 = surface_get(c, 4u, rows, cols, &s4), ok2 = surface_get(c, 2u, rows, cols, &s2);
    if (pos == NULL || nrm == NULL || !ok4 || !ok2) {
        report_oom();
    } else {
        CHECK_OK(cloth_get_positions(c, pos, 0));
        CHECK_OK(cloth_get_normals(c, nrm, 0));
        int exact = 1;
        double worst_unit = 0.0, worst_agree = 1.0, worst_level = 0.0;
        for (uint32_t r = 0; r < rows; ++r) {
            for (uint32_t q = 0; q < cols; ++q) {
                const float *p = s4.pos + 3u * ((4u * r) * s4.cols + 4u * q);
                exact &= memcmp(p, pos + 3u * (r * cols + q), 3u * sizeof(float)) == 0;
                worst_agree = fmin(worst_agree, dot3(s4.nrm + 3u * ((4u * r) * s4.cols + 4u * q),
                                                     nrm + 3u * (r * cols + q)));
            }
        }
        for (uint32_t i = 0; i < s4.nv; ++i) {
            worst_unit = fmax(worst_unit, fabs(len3(s4.nrm + 3u * i) - 1.0));
        }
        for (uint32_t r = 0; r < s2.rows; ++r) {
            for (uint32_t q = 0; q < s2.cols; ++q) {
                const float *a = s2.pos + 3u * (r * s2.cols + q);
                const float *b = s4.pos + 3u * ((2u * r) * s4.cols + 2u * q);
                for (int k = 0; k < 3; ++k) {
                    worst_level = fmax(worst_level, fabs((double)a[k] - (double)b[k]));
                }
            }
        }
        CHECK(exact);
        CHECK_NEAR(worst_unit, 0.0, 1e-6);
        /* the patch normal and the area-weighted one differ on a bent cloth,
         * but must face the same side */
        CHECK(worst_agree > 0.5);
        CHECK_NEAR(worst_level, 0.0, 1e-6);
    }
    free(pos);
    free(nrm);
    surface_free(&s4);
    surface_free(&s2);
    cloth_destroy(c);
}

/* Lay a grid onto a cylinder of radius R about the y axis: particle (r, c)
 * at angle c theta, height r spacing. Returns the worst radial error of the
 * interior patches (not the first or last patch around, where the border is
 * extrapolated linearly) and of all of them. */
static void cylinder_error(float theta, double *interior, double *everywhere, double *normal_err)
{
    const uint32_t rows = 6u, cols = 13u, level = 8u;
    const float radius = 0.3f, spacing = 0.05f;
    cloth_t *c = make_grid(rows, cols, spacing, NULL, NULL, NULL);
    float *pos = malloc(sizeof(float) * 3u * rows * cols);
    *interior = *everywhere = *normal_err = (double)INFINITY;
    surface s;
    memset(&s, 0, sizeof s);
    if (pos == NULL) {
        report_oom();
        cloth_destroy(c);
        return;
    }
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t q = 0; q < cols; ++q) {
            const double a = (double)theta * q;
            float *p = pos + 3u * (r * cols + q);
            p[0] = (float)((double)radius * cos(a));
            p[1] = spacing * (float)r;
            p[2] = (float)((double)radius * sin(a));
        }
    }
    CHECK_OK(cloth_set_positions(c, pos, 0));
    if (surface_get(c, level, rows, cols, &s)) {
        double in = 0.0, all = 0.0, nerr = 0.0;
        for (uint32_t r = 0; r < s.rows; ++r) {
            for (uint32_t q = 0; q < s.cols; ++q) {
                const float *p = s.pos + 3u * (r * s.cols + q);
                const float *nv = s.nrm + 3u * (r * s.cols + q);
                const double rho = sqrt((double)p[0] * (double)p[0] + (double)p[2] * (double)p[2]);
                const double e = fabs(rho - (double)radius);
                all = fmax(all, e);
                if (q >= level && q <= s.cols - 1u - level) {
                    in = fmax(in, e);
                    /* radial, up to the side: |n . radial| = 1, n . y = 0 */
                    const float radial[3] = {(float)((double)p[0] / rho), 0.0f, (float)((double)p[2] / rho)};
                    nerr = fmax(nerr, 1.0 - fabs(dot3(nv, radial)));
                }
            }
        }
        *interior = in;
        *everywhere = all;
        *normal_err = nerr;
    }
    free(pos);
    surface_free(&s);
    cloth_destroy(c);
}

static void check_cylinder(void)
{
    const double radius = 0.3;
    const float coarse = 0.2617994f, fine = 0.1308997f; /* 15 and 7.5 degrees */
    double in_c, all_c, n_c, in_f, all_f, n_f;
    cylinder_error(coarse, &in_c, &all_c, &n_c);
    cylinder_error(fine, &in_f, &all_f, &n_f);
    const double bound_c = radius * pow((double)coarse, 4.0) / 40.0, bound_f = radius * pow((double)fine, 4.0) / 40.0;
    printf("cylinder R = %.2f m: theta 15 deg: interior %.3g m (bound %.3g), with border %.3g m; "
           "theta 7.5 deg: interior %.3g m (bound %.3g), with border %.3g m; flat triangles: %.3g m\n",
           radius, in_c, bound_c, all_c, in_f, bound_f, all_f, radius * (1.0 - cos((double)coarse / 2.0)));
    printf("normals: 1 - |n . radial| at most %.3g (15 deg), %.3g (7.5 deg)\n", n_c, n_f);
    CHECK(in_c <= bound_c);
    CHECK(in_f <= bound_f + 2e-7); /* float positions of ~0.3 m: ulp 3e-8 */
    /* fourth order: halving theta divides the error by ~16 (float noise aside) */
    CHECK(in_f < in_c / 10.0);
    /* the border patches (quadratic extrapolation) are fourth order too,
     * within R theta^4 / 25; flat triangles are off by R theta^2 / 8 */
    CHECK(all_c <= radius * pow((double)coarse, 4.0) / 25.0);
    CHECK(all_f <= radius * pow((double)fine, 4.0) / 25.0 + 2e-7);
    CHECK(all_f < all_c / 10.0);
    CHECK_NEAR(n_c, 0.0, 1e-5);
    CHECK_NEAR(n_f, 0.0, 1e-5);
}

/* Interleaved output: position at 0, normal at 12 in 40-byte records; the
 * 16 bytes of padding keep their sentinel, and the values equal the packed ones. */
static void check_strides(void)
{
    const uint32_t rows = 4u, cols = 5u, level = 3u;
    cloth_t *c = make_grid(rows, cols, 0.1f, NULL, NULL, NULL);
    CHECK_OK(cloth_pin(c, 0, NULL));
    for (int i = 0; i < 20; ++i) {
        CHECK_OK(cloth_step(c, 1.0f / 60.0f));
    }
    surface s;
    if (!surface_get(c, level, rows, cols, &s)) {
        report_oom();
        surface_free(&s);
        cloth_destroy(c);
        return;
    }
    const size_t stride = 40u;
    unsigned char *buf = malloc(stride * s.nv);
    uint32_t *tri = malloc(sizeof(uint32_t) * 3u * s.nt);
    if (buf != NULL && tri != NULL) {
        memset(buf, SENTINEL, stride * s.nv);
        CHECK_OK(cloth_get_smooth(c, level, (float *)(void *)buf, stride, (float *)(void *)(buf + 12), stride, NULL));
        int same = 1, padding = 1;
        for (uint32_t i = 0; i < s.nv; ++i) {
            same &= memcmp(buf + stride * i, s.pos + 3u * i, 12u) == 0;
            same &= memcmp(buf + stride * i + 12u, s.nrm + 3u * i, 12u) == 0;
            for (size_t b = 24u; b < stride; ++b) {
                padding &= buf[stride * i + b] == SENTINEL;
            }
        }
        CHECK(same);
        CHECK(padding);

        /* positions only: the normals' slots stay untouched */
        memset(buf, SENTINEL, stride * s.nv);
        CHECK_OK(cloth_get_smooth(c, level, (float *)(void *)buf, stride, NULL, 0, NULL));
        int untouched = 1;
        for (uint32_t i = 0; i < s.nv; ++i) {
            for (size_t b = 12u; b < stride; ++b) {
                untouched &= buf[stride * i + b] == SENTINEL;
            }
        }
        CHECK(untouched);

        /* triangles alone next to positions; equal to the first call's */
        CHECK_OK(cloth_get_smooth(c, level, s.pos, 0, NULL, 0, tri));
        CHECK(memcmp(tri, s.tri, sizeof(uint32_t) * 3u * s.nt) == 0);
    } else {
        report_oom();
    }
    free(buf);
    free(tri);
    surface_free(&s);
    cloth_destroy(c);
}

static void check_refusals(void)
{
    cloth_t *c = make_grid(4, 4, 0.1f, NULL, NULL, NULL);
    uint32_t nv = 77u, nt = 88u;
    float buf[3u * 7u * 7u * 2u];
    float nrm[3u * 7u * 7u];
    uint32_t tri[3u * 2u * 6u * 6u];
    memset(buf, SENTINEL, sizeof buf);
    memset(nrm, SENTINEL, sizeof nrm);
    memset(tri, SENTINEL, sizeof tri);
    unsigned char before[sizeof buf];
    memcpy(before, buf, sizeof buf);

    CHECK_STATUS(cloth_smooth_counts(NULL, 2u, &nv, &nt), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_smooth_counts(c, 2u, NULL, &nt), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_smooth_counts(c, 2u, &nv, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_smooth_counts(c, 0u, &nv, &nt), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_smooth_counts(c, CLOTH_SMOOTH_MAX_LEVEL + 1u, &nv, &nt), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(nv == 77u && nt == 88u);
    CHECK_OK(cloth_smooth_counts(c, CLOTH_SMOOTH_MAX_LEVEL, &nv, &nt));
    CHECK(nv == (3u * CLOTH_SMOOTH_MAX_LEVEL + 1u) * (3u * CLOTH_SMOOTH_MAX_LEVEL + 1u));

    CHECK_STATUS(cloth_get_smooth(NULL, 2u, buf, 0, nrm, 0, tri), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_smooth(c, 2u, NULL, 0, nrm, 0, tri), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_smooth(c, 0u, buf, 0, nrm, 0, tri), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_smooth(c, 17u, buf, 0, nrm, 0, tri), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_smooth(c, 2u, buf, 8u, nrm, 0, tri), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_smooth(c, 2u, buf, 14u, nrm, 0, tri), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_smooth(c, 2u, buf, 0, nrm, 13u, tri), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_get_smooth(c, 2u, buf, 0, NULL, 2u, tri), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(memcmp(before, buf, sizeof buf) == 0);
    int nrm_untouched = 1, tri_untouched = 1;
    for (size_t i = 0; i < sizeof nrm; ++i) {
        nrm_untouched &= ((const unsigned char *)nrm)[i] == SENTINEL;
    }
    for (size_t i = 0; i < sizeof tri; ++i) {
        tri_untouched &= ((const unsigned char *)tri)[i] == SENTINEL;
    }
    CHECK(nrm_untouched);
    CHECK(tri_untouched);
    /* a stride of 24 with a buffer of 2 x 49 records fits level 2 (7 x 7) */
    CHECK_OK(cloth_get_smooth(c, 2u, buf, 24u, nrm, 12u, tri));
    cloth_destroy(c);

    /* a single row has no surface: 0 and 0, nothing written */
    c = make_grid(1, 5, 0.1f, NULL, NULL, NULL);
    nv = nt = 5u;
    CHECK_OK(cloth_smooth_counts(c, 4u, &nv, &nt));
    CHECK(nv == 0u && nt == 0u);
    memset(buf, SENTINEL, sizeof buf);
    CHECK_OK(cloth_get_smooth(c, 4u, buf, 0, nrm, 0, tri));
    CHECK(memcmp(before, buf, sizeof buf) == 0);
    cloth_destroy(c);

    /* a mesh cloth: unsupported */
    const float verts[] = {0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1};
    const uint32_t tris[] = {0, 2, 1, 1, 2, 3};
    cloth_mesh_desc md;
    cloth_mesh_desc_init(&md);
    md.positions = verts;
    md.vertex_count = 4u;
    md.triangles = tris;
    md.triangle_count = 2u;
    cloth_t *m = NULL;
    CHECK_OK(cloth_create_mesh(&md, &m));
    CHECK_STATUS(cloth_smooth_counts(m, 2u, &nv, &nt), CLOTH_ERR_UNSUPPORTED);
    CHECK_STATUS(cloth_get_smooth(m, 2u, buf, 0, nrm, 0, tri), CLOTH_ERR_UNSUPPORTED);
    CHECK(memcmp(before, buf, sizeof buf) == 0);
    cloth_destroy(m);
}

int main(void)
{
    check_counts_and_indices();
    const float x[3] = {1.0f, 0.0f, 0.0f}, z[3] = {0.0f, 0.0f, 1.0f};
    const float tilted_u[3] = {0.8f, 0.6f, 0.0f}, skew_v[3] = {0.3f, -0.2f, 1.0f};
    check_flat(x, z);
    check_flat(tilted_u, skew_v);
    check_interpolates();
    check_cylinder();
    check_strides();
    check_refusals();
    return test_finish("test_smooth");
}
