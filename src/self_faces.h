/*
 * Self-collision between a particle and the cloth's triangles
 * (self_faces.c), for a cloth thinner than its spacing, where a particle
 * could pass between the particles of another layer. The lists are made
 * with the particles' (self_collision.c) and read the same way.
 */
#ifndef CLOTHSIM_SRC_SELF_FACES_H
#define CLOTHSIM_SRC_SELF_FACES_H

#include "cloth_internal.h"

/* Most triangles about one vertex of a grid (a mesh's are listed). */
#define CLOTH_SELF_GRID_FAN 6u

/* Whether a thickness takes the triangles: under the mean structural link
 * particles alone leave gaps a particle fits through, and the triangles
 * close them. Under half of it, not: there the layers cross edge through
 * edge, which the triangles do not see, and in a curtain squeezed on its
 * rod to a seventh of its width (a thickness of a quarter of the spacing)
 * the triangles' pushes made neighbouring cells fold through each other
 * where the particles alone did not. */
bool cloth_self_faces_wanted(const cloth_t *cloth, float thickness);

/* The bytes of the triangles' block for `slots` triangles a particle. */
size_t cloth_self_faces_bytes(const cloth_t *cloth, uint32_t slots);

/* Carve `block` (cloth_self_faces_bytes) into s's triangle arrays and fill
 * a mesh's vertex-to-triangle table. */
void cloth_self_faces_carve(const cloth_t *cloth, cloth_self *s, unsigned char *block, uint32_t slots);

/* The cloth's triangles: a mesh's own, a grid's two per quad, (i, i + cols,
 * i + 1) and (i + 1, i + cols, i + cols + 1). */
uint32_t cloth_self_face_total(const cloth_t *cloth);
void cloth_self_face_vertices(const cloth_t *cloth, uint32_t face, uint32_t v[3]);

/* The triangles about vertex v in increasing order: a pointer to them
 * (into `buf` for a grid) and their count. */
uint32_t cloth_self_faces_about(const cloth_t *cloth, const cloth_self *s, uint32_t v,
                                uint32_t buf[CLOTH_SELF_GRID_FAN], const uint32_t **out);

/* The longest edge of any triangle at rest, m. */
float cloth_self_longest_edge(const cloth_t *cloth);

/* Squared distance from point p to the triangle a, b, c (every point of
 * it, edges and corners included). */
float cloth_self_point_face_d2(const float p[3], const float a[3], const float b[3], const float c[3]);

/* The points that list each triangle, from every particle's list of
 * triangles, in increasing order (one counting sort). */
void cloth_self_faces_transpose(const cloth_t *cloth, cloth_self *s);

/* A particle within the thickness of a triangle's inside, now: the push
 * `push` along `normal` (unit, from the triangle's side the particle is
 * on) shared as the constraint's gradient says, and the approach speed
 * `stop` taken away likewise; `bary` the weights of the corners. */
typedef struct cloth_self_face_hit {
    float normal[3];
    float bary[3];
    float push, stop; /* per unit of inverse mass: multiply by w times the gradient's length */
} cloth_self_face_hit;

/* Whether particle i lies within thickness t of the inside of triangle v
 * (not one of its corners), and if so the hit. */
bool cloth_self_face_contact(const cloth_particles *p, float t, uint32_t i, const uint32_t v[3],
                             cloth_self_face_hit *hit);

#endif /* CLOTHSIM_SRC_SELF_FACES_H */
