/*
 * Greedy edge colouring, in rounds of 64 colours: a round gives each edge
 * not yet coloured the lowest colour of the round that neither end uses.
 * Every round colours at least its first edge, so it ends; the order edges
 * are visited in is fixed, so the colouring depends only on the graph.
 */
#include "colouring.h"

#include <string.h>

uint32_t cloth_colour_edges(uint32_t nodes, uint32_t edges, const uint32_t *ab, uint32_t *colour, uint64_t *used)
{
    uint32_t left = edges, base = 0;
    for (uint32_t e = 0; e < edges; ++e) {
        colour[e] = CLOTH_NO_COLOUR;
    }
    while (left > 0u) {
        memset(used, 0, (size_t)nodes * sizeof *used);
        for (uint32_t e = 0; e < edges; ++e) {
            if (colour[e] != CLOTH_NO_COLOUR) {
                continue;
            }
            const uint32_t i = ab[2u * e], j = ab[2u * e + 1u];
            uint64_t busy = used[i] | used[j];
            if (busy == ~(uint64_t)0) {
                continue; /* next round */
            }
            uint32_t bit = 0;
            while (busy & 1u) {
                busy >>= 1;
                ++bit;
            }
            colour[e] = base + bit;
            used[i] |= (uint64_t)1 << bit;
            used[j] |= (uint64_t)1 << bit;
            --left;
        }
        base += 64u;
    }
    uint32_t top = 0;
    for (uint32_t e = 0; e < edges; ++e) {
        top = colour[e] + 1u > top ? colour[e] + 1u : top;
    }
    return top;
}
