/*
 * test_readback: what the host reads back matches the header's documentation.
 *
 *  - placement: particle (r, c), index r * cols + c, starts at
 *    origin + c * spacing * u + r * spacing * v with u, v normalised;
 *  - strided copies (stride 0, 12, 16, 32) read and write only the first 12
 *    bytes of each record, and set -> get round-trips bitwise;
 *  - the render index buffer is exactly (i, i+cols, i+1), (i+1, i+cols, i+cols+1);
 *  - normals are unit, equal to v_axis x u_axis for a flat grid, equal to the
 *    area-weighted average of the adjacent triangles' normals (computed here
 *    independently) for bent shapes, and the creation-time direction where no
 *    triangle of non-zero area touches a particle.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_AT(cond, line, what)                                                          \
    do {                                                                                    \
        ++test_checks;                                                                      \
        if (!(cond)) {                                                                      \
            ++test_failures;                                                                \
            fprintf(stderr, "%s:%d: CHECK failed (%s): %s\n", __FILE__, (line), (what), #cond); \
        }                                                                                   \
    } while (0)

#define SENTINEL 0xABu

typedef cloth_status (*getter_fn)(const cloth_t *, float *, size_t);
typedef cloth_status (*setter_fn)(cloth_t *, const float *, size_t);

static cloth_status get_pos(const cloth_t *c, float *d, size_t s) { return cloth_get_positions(c, d, s); }
static cloth_status get_vel(const cloth_t *c, float *d, size_t s) { return cloth_get_velocities(c, d, s); }
static cloth_status get_nrm(const cloth_t *c, float *d, size_t s) { return cloth_get_normals(c, d, s); }
static cloth_status set_pos(cloth_t *c, const float *s, size_t st) { return cloth_set_positions(c, s, st); }
static cloth_status set_vel(cloth_t *c, const float *s, size_t st) { return cloth_set_velocities(c, s, st); }

static cloth_t *make_grid(uint32_t rows, uint32_t cols, float spacing, const float origin[3], const float u[3],
                          const float v[3])
{
    cloth_grid_desc d;
    cloth_t *c = NULL;
    cloth_grid_desc_init(&d);
    d.rows = rows;
    d.cols = cols;
    d.spacing = spacing;
    if (origin) {
        memcpy(d.origin, origin, sizeof d.origin);
    }
    if (u) {
        memcpy(d.u_axis, u, sizeof d.u_axis);
    }
    if (v) {
        memcpy(d.v_axis, v, sizeof d.v_axis);
    }
    CHECK_OK(cloth_create_grid(&d, &c));
    CHECK(c != NULL);
    return c;
}

static void normalise_d(const float in[3], double out[3])
{
    double l = sqrt((double)in[0] * (double)in[0] + (double)in[1] * (double)in[1] + (double)in[2] * (double)in[2]);
    out[0] = (double)in[0] / l;
    out[1] = (double)in[1] / l;
    out[2] = (double)in[2] / l;
}

static void cross_d(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* ------------------------------------------------------------------------- */
/* Placement                                                                  */
/* ------------------------------------------------------------------------- */

static void check_placement_at(uint32_t rows, uint32_t cols, float spacing, const float origin[3],
                               const float u[3], const float v[3], int line)
{
    cloth_t *c = make_grid(rows, cols, spacing, origin, u, v);
    float *pos;
    double un[3], vn[3];
    uint32_t r, cc, k, n = rows * cols;
    int bad = 0;
    if (!c) {
        return;
    }
    CHECK_AT(cloth_particle_count(c) == n, line, "particle count");
    pos = (float *)malloc(3u * n * sizeof *pos);
    normalise_d(u, un);
    normalise_d(v, vn);
    CHECK_AT(cloth_get_positions(c, pos, 0) == CLOTH_OK, line, "get_positions");
    for (r = 0; r < rows; ++r) {
        for (cc = 0; cc < cols; ++cc) {
            for (k = 0; k < 3; ++k) {
                double e = (double)origin[k] + (double)cc * (double)spacing * un[k] +
                           (double)r * (double)spacing * vn[k];
                double g = (double)pos[3u * (r * cols + cc) + k];
                double err = fabs(g - e);
                if (!(err <= 2e-6 * (1.0 + fabs(e)))) {
                    if (bad < 5) {
                        fprintf(stderr, "  particle (%u,%u)[%u]: got %.9g expected %.9g\n", r, cc, k, g, e);
                    }
                    ++bad;
                }
            }
        }
    }
    CHECK_AT(bad == 0, line, "placement origin + c s u + r s v");
    /* a fresh cloth is at rest */
    CHECK_AT(cloth_get_velocities(c, pos, 0) == CLOTH_OK, line, "get_velocities");
    for (k = 0; k < 3u * n; ++k) {
        if (pos[k] != 0.0f) {
            break;
        }
    }
    CHECK_AT(k == 3u * n, line, "fresh cloth at rest");
    free(pos);
    cloth_destroy(c);
}

static void test_placement(void)
{
    const float o0[3] = {0.0f, 0.0f, 0.0f}, x[3] = {1.0f, 0.0f, 0.0f}, z[3] = {0.0f, 0.0f, 1.0f};
    const float o1[3] = {1.5f, -2.0f, 0.25f};
    const float u1[3] = {3.0f, 0.0f, 4.0f};  /* length 5: normalised by the library */
    const float v1[3] = {0.0f, 2.0f, 2.0f};  /* not orthogonal to u1 */
    const float u2[3] = {0.0f, -0.25f, 0.0f};
    const float v2[3] = {-7.0f, 0.0f, 0.0f};
    check_placement_at(32, 32, 0.05f, o0, x, z, __LINE__); /* the defaults */
    check_placement_at(6, 7, 0.1f, o1, u1, v1, __LINE__);
    check_placement_at(5, 3, 0.037f, o1, u2, v2, __LINE__);
    check_placement_at(1, 9, 0.2f, o1, u1, v1, __LINE__);
    check_placement_at(9, 1, 0.2f, o1, u1, v1, __LINE__);
}

/* ------------------------------------------------------------------------- */
/* Strided copies                                                             */
/* ------------------------------------------------------------------------- */

static const size_t k_strides[4] = {0, 12, 16, 32};

static size_t eff(size_t stride)
{
    return stride == 0 ? 12u : stride;
}

/* Fill a byte buffer with the sentinel, call the getter with `stride`, and
 * compare each record's xyz with the packed reference; every other byte must
 * still be the sentinel. */
static void check_strided_get_at(const cloth_t *c, getter_fn get, size_t stride, const float *ref, int line)
{
    uint32_t n = cloth_particle_count(c), i;
    size_t es = eff(stride), bytes = (size_t)n * es + 64u, b;
    unsigned char *buf = (unsigned char *)malloc(bytes);
    int bad_rec = 0, bad_pad = 0;
    memset(buf, (int)SENTINEL, bytes);
    CHECK_AT(get(c, (float *)(void *)buf, stride) == CLOTH_OK, line, "strided get");
    for (i = 0; i < n; ++i) {
        if (memcmp(buf + (size_t)i * es, ref + 3u * i, 12) != 0) {
            ++bad_rec;
        }
    }
    for (b = 0; b < bytes; ++b) {
        size_t rec = b / es, off = b % es;
        int inside = rec < n && off < 12u;
        if (!inside && buf[b] != SENTINEL) {
            ++bad_pad;
        }
    }
    CHECK_AT(bad_rec == 0, line, "strided get: record xyz");
    CHECK_AT(bad_pad == 0, line, "strided get: padding or bytes past the end touched");
    free(buf);
}

/* Values the setter must store exactly: signed zeros, subnormals, big and
 * small magnitudes, all finite. */
static float test_value(uint32_t k, uint32_t salt)
{
    switch ((k + salt) % 9u) {
    case 0: return -0.0f;
    case 1: return 1e-40f; /* subnormal */
    case 2: return 1e20f;
    case 3: return -3.25f;
    case 4: return FLT_MAX;
    default: return 0.001f * (float)(k * 7u + salt) - 0.3f;
    }
}

static void test_strides(void)
{
    const float o[3] = {0.1f, 0.2f, 0.3f}, u[3] = {1.0f, 0.5f, 0.0f}, v[3] = {0.0f, 0.2f, 1.0f};
    cloth_t *c = make_grid(6, 7, 0.05f, o, u, v);
    uint32_t n, i, k;
    size_t si, ti, j;
    float *ref, *vals;
    getter_fn getters[3] = {get_pos, get_vel, get_nrm};
    setter_fn setters[2] = {set_pos, set_vel};
    getter_fn readers[2] = {get_pos, get_vel};
    if (!c) {
        return;
    }
    n = cloth_particle_count(c);
    CHECK(n == 42u);
    ref = (float *)malloc(3u * n * sizeof *ref);
    vals = (float *)malloc(3u * n * sizeof *vals);

    /* give the velocities something non-zero first */
    for (k = 0; k < 3u * n; ++k) {
        vals[k] = 0.01f * (float)k - 0.2f;
    }
    CHECK_OK(cloth_set_velocities(c, vals, 0));

    /* getters with every stride against the packed copy */
    for (j = 0; j < 3; ++j) {
        CHECK_OK(getters[j](c, ref, 0));
        for (si = 0; si < 4; ++si) {
            check_strided_get_at(c, getters[j], k_strides[si], ref, __LINE__);
        }
    }

    /* set with stride S (padding full of 0xFF, a NaN pattern, which must not be
     * read), get with stride T: bitwise equal */
    for (j = 0; j < 2; ++j) {
        for (si = 0; si < 4; ++si) {
            for (ti = 0; ti < 4; ++ti) {
                size_t es = eff(k_strides[si]), bytes = (size_t)n * es;
                unsigned char *src = (unsigned char *)malloc(bytes + 64u);
                uint32_t salt = (uint32_t)(si * 4u + ti + 16u * j);
                memset(src, 0xFF, bytes + 64u);
                for (i = 0; i < n; ++i) {
                    for (k = 0; k < 3; ++k) {
                        vals[3u * i + k] = test_value(3u * i + k, salt);
                    }
                    memcpy(src + (size_t)i * es, vals + 3u * i, 12);
                }
                CHECK_OK(setters[j](c, (const float *)(const void *)src, k_strides[si]));
                check_strided_get_at(c, readers[j], k_strides[ti], vals, __LINE__);
                free(src);
            }
        }
    }
    /* the source buffer is not written by a setter */
    {
        size_t bytes = (size_t)n * 32u;
        unsigned char *src = (unsigned char *)malloc(bytes), *copy = (unsigned char *)malloc(bytes);
        for (i = 0; i < n; ++i) {
            for (k = 0; k < 3; ++k) {
                vals[3u * i + k] = 0.5f * (float)k + 0.01f * (float)i;
            }
        }
        memset(src, 0x7F, bytes); /* 0x7F7F7F7F is a finite float, but padding anyway */
        for (i = 0; i < n; ++i) {
            memcpy(src + (size_t)i * 32u, vals + 3u * i, 12);
        }
        memcpy(copy, src, bytes);
        CHECK_OK(cloth_set_positions(c, (const float *)(const void *)src, 32));
        CHECK_OK(cloth_set_velocities(c, (const float *)(const void *)src, 32));
        CHECK(memcmp(src, copy, bytes) == 0);
        free(src);
        free(copy);
    }
    free(ref);
    free(vals);
    cloth_destroy(c);
}

/* ------------------------------------------------------------------------- */
/* Triangles                                                                  */
/* ------------------------------------------------------------------------- */

static void check_triangles_at(uint32_t rows, uint32_t cols, int line)
{
    cloth_t *c = make_grid(rows, cols, 0.05f, NULL, NULL, NULL);
    uint32_t n = rows * cols, t_expected = 2u * (rows - 1u) * (cols - 1u), t, r, cc;
    uint32_t *tri;
    size_t len, k;
    int bad = 0, range = 0, guard = 0;
    if (!c) {
        return;
    }
    CHECK_AT(cloth_triangle_count(c) == t_expected, line, "triangle count 2 (rows-1) (cols-1)");
    len = 3u * (size_t)t_expected + 16u;
    tri = (uint32_t *)malloc(len * sizeof *tri);
    memset(tri, (int)SENTINEL, len * sizeof *tri);
    CHECK_AT(cloth_get_triangles(c, tri) == CLOTH_OK, line, "get_triangles");
    t = 0;
    for (r = 0; r + 1u < rows; ++r) {
        for (cc = 0; cc + 1u < cols; ++cc) {
            uint32_t i = r * cols + cc;
            const uint32_t e[6] = {i, i + cols, i + 1u, i + 1u, i + cols, i + cols + 1u};
            for (k = 0; k < 6; ++k) {
                if (tri[3u * t + k] != e[k]) {
                    ++bad;
                }
            }
            t += 2u;
        }
    }
    for (k = 0; k < 3u * (size_t)t_expected; ++k) {
        if (tri[k] >= n) {
            ++range;
        }
    }
    for (k = 3u * (size_t)t_expected; k < len; ++k) {
        if (tri[k] != 0xABABABABu) {
            ++guard;
        }
    }
    CHECK_AT(bad == 0, line, "index buffer as documented");
    CHECK_AT(range == 0, line, "every index < particle count");
    CHECK_AT(guard == 0, line, "nothing written past 3 * triangle count");
    free(tri);
    cloth_destroy(c);
}

static void test_triangles(void)
{
    check_triangles_at(2, 2, __LINE__);
    check_triangles_at(3, 4, __LINE__);
    check_triangles_at(6, 7, __LINE__);
    check_triangles_at(32, 32, __LINE__);
    check_triangles_at(1, 5, __LINE__); /* a chain: no triangles */
    check_triangles_at(5, 1, __LINE__);
    check_triangles_at(1, 2, __LINE__);
}

/* ------------------------------------------------------------------------- */
/* Normals                                                                    */
/* ------------------------------------------------------------------------- */

/* Area-weighted vertex normals from the documented triangulation, in double:
 * sum over adjacent triangles (a, b, c) of (p_b - p_a) x (p_c - p_a), whose
 * length is twice the area, normalised; `fallback` where the sum is zero. */
static void expected_normals(const float *pos, uint32_t rows, uint32_t cols, const double fallback[3], double *out)
{
    uint32_t n = rows * cols, r, c, i, k, t;
    memset(out, 0, 3u * n * sizeof *out);
    for (r = 0; r + 1u < rows; ++r) {
        for (c = 0; c + 1u < cols; ++c) {
            uint32_t q = r * cols + c;
            const uint32_t tris[2][3] = {{q, q + cols, q + 1u}, {q + 1u, q + cols, q + cols + 1u}};
            for (t = 0; t < 2; ++t) {
                double e1[3], e2[3], nn[3];
                for (k = 0; k < 3; ++k) {
                    e1[k] = (double)pos[3u * tris[t][1] + k] - (double)pos[3u * tris[t][0] + k];
                    e2[k] = (double)pos[3u * tris[t][2] + k] - (double)pos[3u * tris[t][0] + k];
                }
                cross_d(e1, e2, nn);
                for (i = 0; i < 3; ++i) {
                    for (k = 0; k < 3; ++k) {
                        out[3u * tris[t][i] + k] += nn[k];
                    }
                }
            }
        }
    }
    for (i = 0; i < n; ++i) {
        double l = sqrt(out[3u * i] * out[3u * i] + out[3u * i + 1u] * out[3u * i + 1u] +
                        out[3u * i + 2u] * out[3u * i + 2u]);
        for (k = 0; k < 3; ++k) {
            out[3u * i + k] = l > 0.0 ? out[3u * i + k] / l : fallback[k];
        }
    }
}

/* Same, but every triangle weighted 1: used only to make sure the shapes
 * below tell the two apart. */
static double max_diff_unweighted(const float *pos, uint32_t rows, uint32_t cols, const double *area_weighted)
{
    uint32_t n = rows * cols, r, c, i, k, t;
    double *acc = (double *)calloc(3u * n, sizeof *acc), worst = 0.0;
    for (r = 0; r + 1u < rows; ++r) {
        for (c = 0; c + 1u < cols; ++c) {
            uint32_t q = r * cols + c;
            const uint32_t tris[2][3] = {{q, q + cols, q + 1u}, {q + 1u, q + cols, q + cols + 1u}};
            for (t = 0; t < 2; ++t) {
                double e1[3], e2[3], nn[3], l;
                for (k = 0; k < 3; ++k) {
                    e1[k] = (double)pos[3u * tris[t][1] + k] - (double)pos[3u * tris[t][0] + k];
                    e2[k] = (double)pos[3u * tris[t][2] + k] - (double)pos[3u * tris[t][0] + k];
                }
                cross_d(e1, e2, nn);
                l = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
                for (i = 0; i < 3; ++i) {
                    for (k = 0; k < 3; ++k) {
                        acc[3u * tris[t][i] + k] += nn[k] / l;
                    }
                }
            }
        }
    }
    for (i = 0; i < n; ++i) {
        double l = sqrt(acc[3u * i] * acc[3u * i] + acc[3u * i + 1u] * acc[3u * i + 1u] +
                        acc[3u * i + 2u] * acc[3u * i + 2u]);
        for (k = 0; k < 3; ++k) {
            double d = fabs(acc[3u * i + k] / l - area_weighted[3u * i + k]);
            if (d > worst) {
                worst = d;
            }
        }
    }
    free(acc);
    return worst;
}

/* Library normals vs expected: unit length within 1e-6, components within tol. */
static void compare_normals_at(const cloth_t *c, const double *expected, double tol, int line, const char *what)
{
    uint32_t n = cloth_particle_count(c), i, k;
    float *nrm = (float *)malloc(3u * n * sizeof *nrm);
    int bad_len = 0, bad_dir = 0;
    CHECK_AT(cloth_get_normals(c, nrm, 0) == CLOTH_OK, line, what);
    for (i = 0; i < n; ++i) {
        double x = (double)nrm[3u * i], y = (double)nrm[3u * i + 1u], z = (double)nrm[3u * i + 2u];
        double l = sqrt(x * x + y * y + z * z);
        if (!(fabs(l - 1.0) < 1e-6)) {
            ++bad_len;
        }
        for (k = 0; k < 3; ++k) {
            double d = fabs((double)nrm[3u * i + k] - expected[3u * i + k]);
            if (!(d <= tol)) {
                if (bad_dir < 4) {
                    fprintf(stderr, "  %s: particle %u: got (%.7f %.7f %.7f) expected (%.7f %.7f %.7f)\n", what, i,
                            x, y, z, expected[3u * i], expected[3u * i + 1u], expected[3u * i + 2u]);
                }
                ++bad_dir;
                break;
            }
        }
    }
    CHECK_AT(bad_len == 0, line, what);
    CHECK_AT(bad_dir == 0, line, what);
    free(nrm);
}

static void fill_dir(double *out, uint32_t n, const double d[3])
{
    uint32_t i;
    for (i = 0; i < n; ++i) {
        out[3u * i] = d[0];
        out[3u * i + 1u] = d[1];
        out[3u * i + 2u] = d[2];
    }
}

/* A hash in [-1, 1) for deterministic "random" shapes. */
static double hash01(uint32_t a, uint32_t b)
{
    uint32_t h = a * 2654435761u ^ (b + 0x9E3779B9u) * 2246822519u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (double)(h & 0xFFFFu) / 32768.0 - 1.0;
}

static void test_normals(void)
{
    const double up[3] = {0.0, 1.0, 0.0};
    const float u1[3] = {3.0f, 0.0f, 4.0f}, v1[3] = {0.0f, 2.0f, 2.0f}, o1[3] = {1.5f, -2.0f, 0.25f};
    double tilt[3];
    double *exp_n;
    float *pos;
    uint32_t rows, cols, n, r, c, k;

    /* flat default grid: +y everywhere */
    {
        cloth_t *cl = make_grid(8, 8, 0.05f, NULL, NULL, NULL);
        if (cl) {
            exp_n = (double *)malloc(3u * 64u * sizeof *exp_n);
            fill_dir(exp_n, 64, up);
            compare_normals_at(cl, exp_n, 1e-6, __LINE__, "flat default grid is +y");
            free(exp_n);
            cloth_destroy(cl);
        }
    }
    /* tilted, non-orthogonal, non-unit axes: v x u direction */
    {
        double un[3], vn[3], l;
        cloth_t *cl = make_grid(6, 7, 0.1f, o1, u1, v1);
        normalise_d(u1, un);
        normalise_d(v1, vn);
        cross_d(vn, un, tilt);
        l = sqrt(tilt[0] * tilt[0] + tilt[1] * tilt[1] + tilt[2] * tilt[2]);
        for (k = 0; k < 3; ++k) {
            tilt[k] /= l;
        }
        if (cl) {
            exp_n = (double *)malloc(3u * 42u * sizeof *exp_n);
            fill_dir(exp_n, 42, tilt);
            compare_normals_at(cl, exp_n, 1e-6, __LINE__, "tilted grid is v x u");

            /* collapse every particle onto one point: no triangle has area,
             * every particle gets the creation-time direction */
            pos = (float *)malloc(3u * 42u * sizeof *pos);
            for (k = 0; k < 3u * 42u; ++k) {
                pos[k] = (k % 3u == 0u) ? 1.0f : (k % 3u == 1u) ? 2.0f : 3.0f;
            }
            CHECK_OK(cloth_set_positions(cl, pos, 0));
            compare_normals_at(cl, exp_n, 1e-6, __LINE__, "degenerate: creation-time direction");

            /* collapse onto a line (all triangles exactly zero area: the
             * coordinates are small multiples of 1/4, so every difference and
             * cross product is exact) */
            for (k = 0; k < 42u; ++k) {
                pos[3u * k] = 0.25f * (float)k;
                pos[3u * k + 1u] = 0.5f * (float)k;
                pos[3u * k + 2u] = -0.75f * (float)k;
            }
            CHECK_OK(cloth_set_positions(cl, pos, 0));
            compare_normals_at(cl, exp_n, 1e-6, __LINE__, "collinear: creation-time direction");
            free(pos);
            free(exp_n);
            cloth_destroy(cl);
        }
    }
    /* chains have no triangles: creation-time direction */
    {
        cloth_t *cl = make_grid(1, 9, 0.05f, NULL, NULL, NULL);
        if (cl) {
            exp_n = (double *)malloc(3u * 9u * sizeof *exp_n);
            fill_dir(exp_n, 9, up);
            compare_normals_at(cl, exp_n, 1e-6, __LINE__, "1x9 chain: +y");
            free(exp_n);
            cloth_destroy(cl);
        }
        cl = make_grid(9, 1, 0.1f, o1, u1, v1);
        if (cl) {
            exp_n = (double *)malloc(3u * 9u * sizeof *exp_n);
            fill_dir(exp_n, 9, tilt);
            compare_normals_at(cl, exp_n, 1e-6, __LINE__, "9x1 chain: v x u");
            free(exp_n);
            cloth_destroy(cl);
        }
    }

    /* bent shapes set through set_positions: area-weighted average */
    rows = 9;
    cols = 11;
    n = rows * cols;
    exp_n = (double *)malloc(3u * n * sizeof *exp_n);
    pos = (float *)malloc(3u * n * sizeof *pos);
    {
        cloth_t *cl = make_grid(rows, cols, 0.05f, NULL, NULL, NULL);
        double diff;
        if (cl) {
            /* a cylinder section of radius 0.2 around the z axis, axis below */
            for (r = 0; r < rows; ++r) {
                for (c = 0; c < cols; ++c) {
                    double th = ((double)c - 5.0) * 0.05 / 0.2;
                    pos[3u * (r * cols + c)] = (float)(0.2 * sin(th));
                    pos[3u * (r * cols + c) + 1u] = (float)(0.2 * cos(th) - 0.2);
                    pos[3u * (r * cols + c) + 2u] = (float)((double)r * 0.05);
                }
            }
            CHECK_OK(cloth_set_positions(cl, pos, 0));
            expected_normals(pos, rows, cols, up, exp_n);
            compare_normals_at(cl, exp_n, 1e-5, __LINE__, "cylinder section");
            /* sanity of the expectation itself: interior normals are radial */
            {
                uint32_t i = 4u * cols + 5u; /* on top: straight up */
                CHECK_NEAR(exp_n[3u * i + 1u], 1.0, 1e-9);
            }

            /* a rough height field with jittered x and z: triangle areas
             * differ, so area weighting is distinguishable from uniform */
            for (r = 0; r < rows; ++r) {
                for (c = 0; c < cols; ++c) {
                    uint32_t i = r * cols + c;
                    pos[3u * i] = (float)((double)c * 0.05 + 0.018 * hash01(r, c));
                    pos[3u * i + 1u] = (float)(0.03 * hash01(c + 100u, r) + 0.1 * sin((double)c * 0.4));
                    pos[3u * i + 2u] = (float)((double)r * 0.05 + 0.018 * hash01(r + 200u, c + 7u));
                }
            }
            CHECK_OK(cloth_set_positions(cl, pos, 0));
            expected_normals(pos, rows, cols, up, exp_n);
            diff = max_diff_unweighted(pos, rows, cols, exp_n);
            CHECK(diff > 1e-3); /* the shape does discriminate the weighting */
            compare_normals_at(cl, exp_n, 1e-5, __LINE__, "rough height field");

            /* a tent: two planes meeting along the row r = 4, ridge up */
            for (r = 0; r < rows; ++r) {
                for (c = 0; c < cols; ++c) {
                    uint32_t i = r * cols + c;
                    double dz = fabs((double)r - 4.0);
                    pos[3u * i] = (float)((double)c * 0.05);
                    pos[3u * i + 1u] = (float)(0.3 - 0.04 * dz * (1.0 + 0.05 * (double)c));
                    pos[3u * i + 2u] = (float)((double)r * 0.05);
                }
            }
            CHECK_OK(cloth_set_positions(cl, pos, 0));
            expected_normals(pos, rows, cols, up, exp_n);
            compare_normals_at(cl, exp_n, 1e-5, __LINE__, "tent");

            /* the same tent upside down: normals follow the winding */
            for (k = 0; k < n; ++k) {
                pos[3u * k + 1u] = -pos[3u * k + 1u];
            }
            CHECK_OK(cloth_set_positions(cl, pos, 0));
            expected_normals(pos, rows, cols, up, exp_n);
            compare_normals_at(cl, exp_n, 1e-5, __LINE__, "tent upside down");

            /* stride 16 / 32 leaves the padding alone and matches packed */
            {
                float *packed = (float *)malloc(3u * n * sizeof *packed);
                CHECK_OK(cloth_get_normals(cl, packed, 0));
                check_strided_get_at(cl, get_nrm, 16, packed, __LINE__);
                check_strided_get_at(cl, get_nrm, 32, packed, __LINE__);
                check_strided_get_at(cl, get_nrm, 12, packed, __LINE__);
                free(packed);
            }
            cloth_destroy(cl);
        }
    }
    /* a bent tilted grid: the same rule with the tilted fallback */
    {
        cloth_t *cl = make_grid(rows, cols, 0.1f, o1, u1, v1);
        if (cl) {
            CHECK_OK(cloth_get_positions(cl, pos, 0));
            for (r = 0; r < rows; ++r) {
                for (c = 0; c < cols; ++c) {
                    uint32_t i = r * cols + c;
                    double bump = 0.05 * hash01(r * 3u + 1u, c * 5u + 2u);
                    for (k = 0; k < 3; ++k) {
                        pos[3u * i + k] = (float)((double)pos[3u * i + k] + bump * tilt[k]);
                    }
                }
            }
            CHECK_OK(cloth_set_positions(cl, pos, 0));
            expected_normals(pos, rows, cols, tilt, exp_n);
            compare_normals_at(cl, exp_n, 1e-5, __LINE__, "bumped tilted grid");
            cloth_destroy(cl);
        }
    }
    free(exp_n);
    free(pos);
}

/* A larger, odd-sized grid: round trips through every stride, so that any
 * vectorised main loop and its remainder are both exercised. */
static void test_large_round_trip(void)
{
    cloth_t *c = make_grid(37, 50, 0.02f, NULL, NULL, NULL);
    uint32_t n, i;
    size_t si, ti;
    float *vals;
    if (!c) {
        return;
    }
    n = cloth_particle_count(c);
    CHECK(n == 37u * 50u);
    vals = (float *)malloc(3u * n * sizeof *vals);
    for (si = 0; si < 4; ++si) {
        for (ti = 0; ti < 4; ++ti) {
            size_t es = eff(k_strides[si]);
            unsigned char *src = (unsigned char *)malloc((size_t)n * es);
            memset(src, 0xFF, (size_t)n * es);
            for (i = 0; i < 3u * n; ++i) {
                vals[i] = test_value(i, (uint32_t)(si * 5u + ti));
            }
            for (i = 0; i < n; ++i) {
                memcpy(src + (size_t)i * es, vals + 3u * i, 12);
            }
            CHECK_OK(cloth_set_positions(c, (const float *)(const void *)src, k_strides[si]));
            check_strided_get_at(c, get_pos, k_strides[ti], vals, __LINE__);
            CHECK_OK(cloth_set_velocities(c, (const float *)(const void *)src, k_strides[si]));
            check_strided_get_at(c, get_vel, k_strides[ti], vals, __LINE__);
            free(src);
        }
    }
    free(vals);
    cloth_destroy(c);
}

/* Normals of a cloth in a shape the simulation made: hung by two corners and
 * stepped, then compared with the area-weighted normals of its positions. */
static void test_normals_after_stepping(void)
{
    const float o[3] = {0.0f, 1.0f, 0.0f}, u[3] = {1.0f, 0.0f, 0.0f}, v[3] = {0.0f, 0.0f, 1.0f};
    const uint32_t rows = 13, cols = 17;
    cloth_t *c = make_grid(rows, cols, 0.05f, o, u, v);
    const double up[3] = {0.0, 1.0, 0.0};
    float *pos;
    double *exp_n;
    int s;
    if (!c) {
        return;
    }
    pos = (float *)malloc(3u * rows * cols * sizeof *pos);
    exp_n = (double *)malloc(3u * rows * cols * sizeof *exp_n);
    CHECK_OK(cloth_pin(c, 0, NULL));
    CHECK_OK(cloth_pin(c, cols - 1u, NULL));
    for (s = 0; s < 40; ++s) {
        CHECK_OK(cloth_step(c, 1.0f / 60.0f));
    }
    CHECK_OK(cloth_get_positions(c, pos, 0));
    expected_normals(pos, rows, cols, up, exp_n);
    compare_normals_at(c, exp_n, 1e-5, __LINE__, "hanging cloth after 40 steps");
    free(pos);
    free(exp_n);
    cloth_destroy(c);
}

int main(void)
{
    test_placement();
    test_strides();
    test_triangles();
    test_normals();
    test_large_round_trip();
    test_normals_after_stepping();
    return test_finish("test_readback");
}
