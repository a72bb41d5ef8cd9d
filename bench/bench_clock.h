/*
 * The benches' clocks and the comparison their medians sort with. A
 * program includes this after defining _POSIX_C_SOURCE (clock_gettime).
 */
#ifndef CLOTHSIM_BENCH_CLOCK_H
#define CLOTHSIM_BENCH_CLOCK_H

#include <time.h>

static inline double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the whole process (all its threads): on a shared machine the
 * single-thread figure that other processes disturb least. */
static inline double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* qsort's comparison of doubles, ascending. */
static inline int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif /* CLOTHSIM_BENCH_CLOCK_H */
