/*
 * Private to src/colliders/: the shape queries, the pose arithmetic and the
 * table insertion every cloth_add_* shares.
 *
 * Every shape is described in its own frame (origin = the collider's
 * reference point, axes = its orientation). The pass over the particles
 * brings each particle into that frame, asks the shape, and carries the
 * answer back, so a shape never sees the pose or the motion.
 */
#ifndef CLOTHSIM_COLLIDERS_SHAPES_H
#define CLOTHSIM_COLLIDERS_SHAPES_H

#include "cloth_internal.h"
#include "colliders/colliders.h"
#include "kernels/kernels.h"

/* Whether point p (shape frame) lies closer than the thickness to the solid,
 * or inside it. If so, `out` is where it must go (on the surface grown by
 * the thickness) and `n` the outward unit normal there, both in the frame.
 * The answers are exact for convex shapes: `out` is `n * thickness` away
 * from the surface point whose normal is `n`, so it is never left inside. */
typedef bool (*cloth_shape_fn)(const cloth_collider *c, const float p[3], float out[3], float n[3]);

bool cloth_shape_sphere(const cloth_collider *c, const float p[3], float out[3], float n[3]);
bool cloth_shape_plane(const cloth_collider *c, const float p[3], float out[3], float n[3]);
bool cloth_shape_ellipsoid(const cloth_collider *c, const float p[3], float out[3], float n[3]);
bool cloth_shape_capsule(const cloth_collider *c, const float p[3], float out[3], float n[3]);
bool cloth_shape_cylinder(const cloth_collider *c, const float p[3], float out[3], float n[3]);
bool cloth_shape_torus(const cloth_collider *c, const float p[3], float out[3], float n[3]);
bool cloth_shape_tapered_capsule(const cloth_collider *c, const float p[3], float out[3], float n[3]);
bool cloth_shape_convex(const cloth_collider *c, const float p[3], float out[3], float n[3]);

/* ellipsoid.c, tapered_capsule.c: the collider as its query takes it */
void cloth_ellipsoid_form_of(const cloth_collider *c, cloth_ellipsoid_form *e);
void cloth_taper_form_of(const cloth_collider *c, cloth_taper_form *f);
void cloth_convex_form_of(const cloth_collider *c, cloth_convex_form *h);

/* Particles per chunk of the collider pass (collide.c): a chunk whose box
 * is out of a collider's reach is skipped. */
#define CLOTH_COLLIDE_CHUNK 64u

/* vector_pass.c: a collider read into its kernel's arguments; `run(&args, i0, i1)` then gives the contacts of
 * particles [i0, i1) as the general pass would make them (the sphere's as
 * its own shape query would) and returns how many it touched. */
typedef struct cloth_vector_pass {
    cloth_contact_args args;
    uint32_t (*run)(const cloth_contact_args *a, uint32_t begin, uint32_t end);
} cloth_vector_pass;
void cloth_vector_pass_prepare(const cloth_t *cloth, const cloth_collider *c, cloth_vector_pass *v);

/* colliders.c: append a shape whose kind, size, axis and frame are filled;
 * it starts at rest at that frame with thickness 0 and friction 0. */
cloth_status cloth_collider_add(cloth_t *cloth, const cloth_collider *shape, cloth_collider_id *out);
/* The collider with this id, or NULL. */
cloth_collider *cloth_collider_find(const cloth_t *cloth, cloth_collider_id id);

/* pose.c (cloth_quat_accept() is in colliders/colliders.h) */
/* Place the collider at fraction substep/substeps of its way from `from` to
 * `to` over a step of dt seconds: `at`, its matrix and its velocities. */
void cloth_collider_place(cloth_collider *c, uint32_t substep, uint32_t substeps, float dt);
/* A unit vector perpendicular to unit vector e. */
void cloth_perpendicular(const float e[3], float out[3]);

static inline float cloth_dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

#endif /* CLOTHSIM_COLLIDERS_SHAPES_H */
