/*
 * Whether floats are finite, as a bit test that vectorises: a float is NaN or
 * infinite exactly when its exponent bits are all ones, and then adding one
 * to the exponent carries into the sign bit. An integer OR needs no order,
 * so the loop runs in vector registers and partial results (per worker, per
 * array) can be joined in any order; a float sum would be a chain of
 * dependent additions (the library is built without reassociation).
 *
 * A leaf: it includes only platform/target.h.
 */
#ifndef CLOTHSIM_PLATFORM_FINITE_H
#define CLOTHSIM_PLATFORM_FINITE_H

#include "target.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The sign bit (0x80000000) set if any of v[first .. last) is NaN or
 * infinite, 0 otherwise. Always inlined, so that a caller built for a vector
 * level (target.h) gets the loop at that level. */
static CLOTH_INLINE_ALWAYS uint32_t cloth_nonfinite_bits(const float *restrict v, size_t first, size_t last)
{
    uint32_t bad = 0u;
    for (size_t i = first; i < last; ++i) {
        uint32_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        bad |= (bits & 0x7f800000u) + 0x00800000u;
    }
    return bad & 0x80000000u;
}

#endif /* CLOTHSIM_PLATFORM_FINITE_H */
