/*
 * Little-endian fields written and read byte by byte (snapshots): the same
 * bytes on every machine, and no struct layout in them. A leaf.
 */
#ifndef CLOTHSIM_PLATFORM_BYTES_H
#define CLOTHSIM_PLATFORM_BYTES_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline unsigned char *put_u32(unsigned char *p, uint32_t v)
{
    for (int b = 0; b < 4; ++b) {
        p[b] = (unsigned char)(v >> (8 * b));
    }
    return p + 4;
}

static inline unsigned char *put_u64(unsigned char *p, uint64_t v)
{
    for (int b = 0; b < 8; ++b) {
        p[b] = (unsigned char)(v >> (8 * b));
    }
    return p + 8;
}

static inline unsigned char *put_f32(unsigned char *p, float f)
{
    return put_u32(p, float_bits(f));
}

static inline unsigned char *put_floats(unsigned char *p, const float *f, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        p = put_f32(p, f[i]);
    }
    return p;
}

static inline uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t get_u64(const unsigned char *p)
{
    return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

static inline float get_f32(const unsigned char *p)
{
    return bits_float(get_u32(p));
}

static inline double get_f64(const unsigned char *p)
{
    const uint64_t u = get_u64(p);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static inline bool floats_finite(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (!isfinite(get_f32(p + 4u * i))) {
            return false;
        }
    }
    return true;
}

#endif /* CLOTHSIM_PLATFORM_BYTES_H */
