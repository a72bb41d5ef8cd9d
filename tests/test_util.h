/*
 * Tiny test macros shared by the clothsim tests. A failed check prints where
 * and why and marks the test failed; main() returns test_finish().
 */
#ifndef CLOTHSIM_TEST_UTIL_H
#define CLOTHSIM_TEST_UTIL_H

#include <clothsim/clothsim.h>
#include <clothsim/mesh.h>

#include <math.h>
#include <stdio.h>

static int test_failures;
static int test_checks;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        ++test_checks;                                                               \
        if (!(cond)) {                                                               \
            ++test_failures;                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

/* |a - b| <= tol, reporting both values on failure. */
#define CHECK_NEAR(a, b, tol)                                                          \
    do {                                                                               \
        double check_a_ = (double)(a), check_b_ = (double)(b), check_t_ = (double)(tol); \
        ++test_checks;                                                                 \
        if (!(fabs(check_a_ - check_b_) <= check_t_)) {                                \
            ++test_failures;                                                           \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.9g, %s = %.9g, tol %.3g\n", \
                    __FILE__, __LINE__, #a, check_a_, #b, check_b_, check_t_);          \
        }                                                                              \
    } while (0)

/* A call that must return the given status. */
#define CHECK_STATUS(call, expected)                                                   \
    do {                                                                               \
        cloth_status check_s_ = (call);                                                \
        ++test_checks;                                                                 \
        if (check_s_ != (expected)) {                                                  \
            ++test_failures;                                                           \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, \
                    #call, cloth_status_string(check_s_), cloth_status_string(expected)); \
        }                                                                              \
    } while (0)

#define CHECK_OK(call) CHECK_STATUS(call, CLOTH_OK)

/* A flat rows x cols sheet as a mesh: vertex (r, c) at (spacing c, 0,
 * spacing r), index r cols + c, each cell cut into two triangles. `pos`
 * holds 3 rows cols floats, `tris` 6 (rows - 1)(cols - 1) indices. Returns
 * the triangle count. */
static inline uint32_t test_flat_mesh(uint32_t rows, uint32_t cols, float spacing, float *pos, uint32_t *tris)
{
    uint32_t t = 0;
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < cols; ++c) {
            const uint32_t i = r * cols + c;
            pos[3u * i] = spacing * (float)c;
            pos[3u * i + 1u] = 0.0f;
            pos[3u * i + 2u] = spacing * (float)r;
            if (r + 1u < rows && c + 1u < cols) {
                const uint32_t quad[6] = {i, i + cols, i + 1u, i + 1u, i + cols, i + cols + 1u};
                for (int k = 0; k < 6; ++k) {
                    tris[t++] = quad[k];
                }
            }
        }
    }
    return t / 3u;
}

/* test_flat_mesh() made into a cloth of default settings (`pos` and `tris`
 * sized as there; the cloth copies them). */
static inline cloth_status test_flat_mesh_cloth(uint32_t rows, uint32_t cols, float spacing, float *pos,
                                                uint32_t *tris, cloth_t **out)
{
    cloth_mesh_desc desc;
    cloth_mesh_desc_init(&desc);
    desc.positions = pos;
    desc.vertex_count = rows * cols;
    desc.triangles = tris;
    desc.triangle_count = test_flat_mesh(rows, cols, spacing, pos, tris);
    return cloth_create_mesh(&desc, out);
}

/* A hand-edited snapshot's checksum (state.h: 64-bit FNV-1a of every byte
 * before its last 8) made right again, so that the check under test is the
 * one after the checksum. */
static inline void test_reseal_snapshot(unsigned char *buf, size_t size)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i + 8u < size; ++i) {
        h = (h ^ buf[i]) * 0x100000001b3u;
    }
    for (int b = 0; b < 8; ++b) {
        buf[size - 8u + (size_t)b] = (unsigned char)(h >> (8 * b));
    }
}

static inline int test_finish(const char *name)
{
    if (test_checks == 0) {
        fprintf(stderr, "%s: no checks ran\n", name);
        return 1;
    }
    printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
    return test_failures == 0 ? 0 : 1;
}

/* The settings a cloth started with before 0.3: explicit Euler, 16
 * substeps, 8 iterations, damping 0.2 /s, no tethers, no strain limit,
 * the watchdog off.
 * The tests that hold an integrator, a spring or a collider to a closed
 * form start from them: the stretch guarantee that a new cloth has by
 * default (tethers, the limit) would change the answer they check. */
static inline void test_plain(cloth_t *c)
{
    (void)cloth_set_integrator(c, CLOTH_INTEGRATOR_EXPLICIT_EULER);
    (void)cloth_set_substeps(c, 16u);
    (void)cloth_set_iterations(c, 8u);
    (void)cloth_set_damping(c, 0.2f);
    (void)cloth_set_tethers(c, 0.0f);
    (void)cloth_set_tether_schedule(c, CLOTH_TETHERS_EVERY_SUBSTEP);
    (void)cloth_set_strain_limit(c, 0.0f, 0u);
    (void)cloth_set_watchdog(c, 0.0f, 0.0f, CLOTH_WATCHDOG_REPORT);
}

/* cloth_create_grid() / cloth_create_mesh(), then test_plain(). */
static inline cloth_status test_create_grid(const cloth_grid_desc *desc, cloth_t **out)
{
    const cloth_status s = cloth_create_grid(desc, out);
    if (s == CLOTH_OK) {
        test_plain(*out);
    }
    return s;
}

static inline cloth_status test_create_mesh(const cloth_mesh_desc *desc, cloth_t **out)
{
    const cloth_status s = cloth_create_mesh(desc, out);
    if (s == CLOTH_OK) {
        test_plain(*out);
    }
    return s;
}

#endif /* CLOTHSIM_TEST_UTIL_H */
