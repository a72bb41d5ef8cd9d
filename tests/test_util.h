/*
 * Tiny test macros shared by the clothsim tests. A failed check prints where
 * and why and marks the test failed; main() returns test_finish().
 */
#ifndef CLOTHSIM_TEST_UTIL_H
#define CLOTHSIM_TEST_UTIL_H

#include <clothsim/clothsim.h>

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

static inline int test_finish(const char *name)
{
    if (test_checks == 0) {
        fprintf(stderr, "%s: no checks ran\n", name);
        return 1;
    }
    printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
    return test_failures == 0 ? 0 : 1;
}

#endif /* CLOTHSIM_TEST_UTIL_H */
