/*
 * A Delaunay triangulation of points in a plane (bench/delaunay.c), for the
 * drape bench's irregular mesh: Bowyer-Watson, plain and O(n^2), which is a
 * second or so for the bench's 16,000 points.
 */
#ifndef CLOTHSIM_BENCH_DELAUNAY_H
#define CLOTHSIM_BENCH_DELAUNAY_H

#include <stdint.h>

/* Triangulate points (u[k], v[k]), k < n, all distinct: writes up to
 * 2 n triangles (3 indices each, counter-clockwise in (u, v)) into tris
 * and returns how many, or 0 if memory ran out. */
uint32_t delaunay_triangulate(const double *u, const double *v, uint32_t n, uint32_t *tris);

#endif
