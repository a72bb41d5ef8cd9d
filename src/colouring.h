/*
 * Greedy edge colouring (colouring.c): springs of one colour share no
 * particle, so a colour can be solved as one data-parallel loop whose
 * result does not depend on its order or on how it is split.
 */
#ifndef CLOTHSIM_COLOURING_H
#define CLOTHSIM_COLOURING_H

#include <stdint.h>

#define CLOTH_NO_COLOUR 0xffffffffu

/* Colour edge e = (ab[2e], ab[2e + 1]) of a graph of `nodes` nodes into
 * colour[e]; `used` is scratch of `nodes` words. Returns the number of
 * colour numbers used (some may be empty). Depends only on the edges and
 * their order. */
uint32_t cloth_colour_edges(uint32_t nodes, uint32_t edges, const uint32_t *ab, uint32_t *colour, uint64_t *used);

#endif /* CLOTHSIM_COLOURING_H */
