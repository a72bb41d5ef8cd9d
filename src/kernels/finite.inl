/*
 * Whether any of a set of float arrays holds a NaN or an infinity on
 * [first, last): platform/finite.h's bit test, a loop the compiler
 * vectorises at this unit's width. An integer OR, so the answer is the same
 * at every width.
 */
static uint32_t WIDE(nonfinite)(const float *const *arrays, uint32_t count, uint32_t first, uint32_t last)
{
    uint32_t bad = 0u;
    for (uint32_t a = 0; a < count; ++a) {
        bad |= cloth_nonfinite_bits(arrays[a], first, last);
    }
    return bad;
}
