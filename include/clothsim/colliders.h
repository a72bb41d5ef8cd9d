/*
 * clothsim: colliders, the shapes a cloth rests on and is pushed by.
 */
#ifndef CLOTHSIM_COLLIDERS_H
#define CLOTHSIM_COLLIDERS_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup colliders Colliders
 * @brief Shapes that push particles out at the end of every substep.
 *
 * **Response.** A particle closer to a collider's surface than its thickness
 * (or inside it) is moved to the nearest point of the surface grown by the
 * thickness. If it was moving into the surface *relative to the surface's
 * own velocity*, that normal part of the relative velocity is removed (the
 * particle then moves with the surface along the normal), and Coulomb
 * friction slows the relative tangential velocity by at most `mu` times the
 * normal speed removed, stopping it when that is enough (static friction).
 * So a cloth on a slope of angle theta slides with acceleration
 * `g (sin theta - mu cos theta)` and stays put when `mu >= tan theta`.
 * Collisions run after the integrator and the pins in every substep, for
 * every integrator, so no free particle ends a step inside a collider;
 * colliders resolve one after the other in the order they were added (a
 * particle squeezed between two overlapping colliders ends outside the last
 * one). Pinned particles are not moved by colliders. Every shape takes a
 * vector pass over the particles (at the cloth's vector level,
 * cloth_set_simd_level()) with the same results as the one-particle pass
 * that integrators colliding particle by particle use; on a 24 x 24 cape of
 * 6 substeps a capsule adds about 6 us to a step, an ellipsoid (whose
 * nearest point is iterated) about 4 to 6 (docs/performance.md).
 *
 * **Frames and motion.** Every collider has a pose: a reference point and an
 * orientation (a unit quaternion x, y, z, w). Its shape is fixed in that
 * frame: what the add function was given is the shape at orientation
 * identity, except for the ellipsoid, whose `rotation` argument is its
 * starting orientation. The reference point is the sphere's, ellipsoid's
 * and torus' centre, the plane's `point`, and the first end `a` of a
 * capsule or cylinder. cloth_set_collider_transform() gives a new pose; the
 * collider reaches it at the end of the next cloth_step() and travels there
 * in a straight line (and a steady turn about the reference point) over that
 * step's substeps, the way pins do. Its velocity, `(new - old) / dt` plus the
 * turn's, enters the response and the friction, so a moving collider carries
 * the cloth with it, and it moves only `1 / substeps` of its way between two
 * collision passes: a sphere of radius 0.2 m at 5 m/s with 60 Hz steps and 16
 * substeps advances 5 mm per pass and cannot pass through a particle. Keep
 * each shape's per-substep travel below its smallest radius (a plane is
 * infinitely thick). A collider not moved stays where it is; to teleport one
 * without sweeping the cloth along, remove it and add it anew.
 *
 * **Ids** are small integers that stay valid until cloth_remove_collider(); a
 * removed id is refused with ::CLOTH_ERR_OUT_OF_RANGE and never reused by the
 * same cloth. At most 65535 colliders can be added over a cloth's life; after
 * that the add functions return ::CLOTH_ERR_OUT_OF_MEMORY. Every add function
 * sets thickness 0 and friction 0 and refuses NULL pointers and non-finite
 * values with ::CLOTH_ERR_INVALID_ARGUMENT; a refused call adds nothing.
 * @{
 */

/**
 * Add a sphere of `radius` metres (> 0) at `center`, and store its id in
 * `*out`. A particle exactly at the centre leaves along the frame's +y.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers, a non-finite centre
 *         or a radius that is not finite and positive;
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the collider table cannot grow.
 */
CLOTH_API cloth_status cloth_add_sphere(cloth_t *cloth, const float center[3], float radius,
                                        cloth_collider_id *out);

/**
 * Add an ellipsoid at `center` with semi-axes `radii` (metres, each > 0) along
 * the axes of the orientation `rotation`: semi-axis `radii[0]` lies along the
 * rotated x axis, and so on. `rotation` is a unit quaternion (x, y, z, w) whose
 * squared length is within 1e-3 of 1 (it is normalised), or NULL for none.
 *
 * Particles are moved to the true nearest point of the grown surface (a
 * few Newton steps on the closest-point equation, in double precision), not
 * along the ray from the centre as in seed 002, which for a flattened
 * ellipsoid pushes sideways and makes resting cloth drift.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers, non-finite values, a
 *         radius that is not positive, or a quaternion that is not unit;
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the collider table cannot grow.
 */
CLOTH_API cloth_status cloth_add_ellipsoid(cloth_t *cloth, const float center[3], const float radii[3],
                                           const float rotation[4], cloth_collider_id *out);

/**
 * Add an infinite plane through `point` whose solid side is behind `normal`
 * (any non-zero length; it is normalised). A floor at height y0 is
 * `point = (0, y0, 0)`, `normal = (0, 1, 0)`.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers, non-finite values or
 *         a zero normal; ::CLOTH_ERR_OUT_OF_MEMORY if the table cannot grow.
 */
CLOTH_API cloth_status cloth_add_plane(cloth_t *cloth, const float point[3], const float normal[3],
                                       cloth_collider_id *out);

/**
 * Add a capsule: every point within `radius` metres (> 0) of the segment from
 * `a` to `b` (arms, legs and props of game characters). `a == b` is allowed
 * and gives a sphere. The reference point for transforms is `a`.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers, non-finite values,
 *         a radius that is not positive, or ends whose distance overflows;
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the table cannot grow.
 */
CLOTH_API cloth_status cloth_add_capsule(cloth_t *cloth, const float a[3], const float b[3], float radius,
                                         cloth_collider_id *out);

/**
 * Add a tapered capsule: the convex hull of a ball of radius `radius_a`
 * about `a` and one of radius `radius_b` about `b` (both > 0), that is two
 * balls joined by the cone tangent to both: a limb thicker at one end (an
 * upper arm, a thigh), as NvCloth's and Jolt's character colliders are
 * built. Equal radii give cloth_add_capsule()'s shape; a ball that holds
 * the other, or `a == b`, gives the larger ball. The reference point for
 * transforms is `a`. Like every shape it takes a vector pass.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers, non-finite values,
 *         a radius that is not positive, or ends whose distance overflows;
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the table cannot grow.
 */
CLOTH_API cloth_status cloth_add_tapered_capsule(cloth_t *cloth, const float a[3], const float b[3], float radius_a,
                                                 float radius_b, cloth_collider_id *out);

/**
 * Add a convex hull given as `plane_count` planes (4 to 64), each four
 * floats (nx, ny, nz, d): the solid is where n.x + d is at most 0 for
 * every plane, so each unit normal points out of it. A box of half-sizes
 * hx, hy, hz about the origin is the six planes (1, 0, 0, -hx),
 * (-1, 0, 0, -hx), (0, 1, 0, -hy), (0, -1, 0, -hy), (0, 0, 1, -hz) and
 * (0, 0, -1, -hz). The planes are copied.
 *
 * The planes are the shape in its own frame, whose reference point starts
 * at the world's origin, unturned: a hull given in world coordinates starts
 * where it was given, and one given in a bone's coordinates follows the
 * bone when cloth_set_collider_transform() is given the bone's pose.
 *
 * A particle inside leaves through the nearest face. One outside within the
 * thickness of the solid is pushed out along the normal of the face it lies
 * farthest out of, so the thickness grows the hull with sharp edges and
 * corners (as the cylinder's rims; NvCloth's convexes do the same). Like
 * every shape it takes a vector pass.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers, fewer than 4 or more
 *         than 64 planes, a non-finite value, a normal whose squared length
 *         is not within 1e-3 of 1, or planes that bound no solid or an
 *         unbounded one (a slab, an open prism);
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the copy or the table cannot grow.
 */
CLOTH_API cloth_status cloth_add_convex(cloth_t *cloth, const float *planes, uint32_t plane_count,
                                        cloth_collider_id *out);

/**
 * Add a triangle mesh, closed (a body, a box) or open (a ground, a roof):
 * `vertex_count` points, `stride_bytes` apart (0 for packed xyz, else a
 * multiple of 4 of at least 12), and `triangle_count` triangles of three
 * indices each. The cloth stays on the side the triangles face: the side
 * from which their corners run counter-clockwise. The mesh is copied and,
 * like cloth_add_convex()'s planes, described in its own frame, which
 * starts at the world's origin unturned.
 *
 * A particle in front of the surface and closer than the thickness, or
 * behind it but less than half the mesh's mean edge length deep, goes to
 * the nearest point of the surface moved out by the thickness: along the
 * face's normal over a face, straight away from an edge or corner (which
 * the thickness rounds). Inside and outside are told apart by the
 * angle-weighted pseudo-normals of the surface, exact for a closed mesh.
 *
 * **Tunnelling.** A particle that gets deeper than half the mean edge
 * length behind the surface between two collision passes is not seen, and
 * one that crosses a part of the mesh thinner than that in one pass may come
 * out on the far side. Keep the relative travel of cloth and mesh per
 * substep below half the mean edge length (a 4,000-triangle body of edges
 * about 5 cm: 2.5 cm a substep, 9 m/s at 360 substeps a second), or raise
 * the substeps.
 *
 * The triangles near a particle are found through a uniform grid built
 * here; the query runs particle by particle at every vector level (the same
 * bits at each, on any number of threads). On a 64 x 64 drape over a
 * 3,960-triangle ball it costs about 4 ms a frame on one core, several times
 * the analytic shapes (docs/performance.md). Allocates: the copy, its
 * normals and grid (about 130 bytes a triangle) and 4 bytes a particle.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers, fewer than 3
 *         vertices or no triangle, more than 2^24 of either, a bad stride, a
 *         non-finite vertex, an index out of range, or a degenerate
 *         triangle (zero area, repeated corners);
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the copy or the table cannot grow.
 */
CLOTH_API cloth_status cloth_add_triangle_mesh(cloth_t *cloth, const float *vertices, size_t stride_bytes,
                                               uint32_t vertex_count, const uint32_t *indices,
                                               uint32_t triangle_count, cloth_collider_id *out);

/**
 * Deform a triangle-mesh collider: new positions (in its frame) for each of
 * its vertices, same triangles, strided as cloth_add_triangle_mesh()'s. The
 * vertices get there at the end of the next cloth_step(), each moving in a
 * straight line over its substeps, and their velocity enters the response
 * and the friction as a moving collider's does, so a skinned body mesh
 * carries the cloth it touches. Call it once per frame before the step; a
 * second call before the step replaces the target. May allocate (when the
 * grid over the moving triangles must grow); on failure nothing changes.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers, a collider that is
 *         not a triangle mesh, a bad stride, a non-finite vertex or one that
 *         makes a triangle degenerate; ::CLOTH_ERR_OUT_OF_RANGE for an
 *         unknown or removed id; ::CLOTH_ERR_OUT_OF_MEMORY.
 */
CLOTH_API cloth_status cloth_set_triangle_mesh_vertices(cloth_t *cloth, cloth_collider_id id, const float *vertices,
                                                        size_t stride_bytes);

/**
 * The vertices a triangle-mesh collider is heading for (where they are
 * after the next step, and now if they are not being moved), in its frame,
 * strided as cloth_add_triangle_mesh()'s.
 * @return as cloth_set_triangle_mesh_vertices().
 */
CLOTH_API cloth_status cloth_get_triangle_mesh_vertices(const cloth_t *cloth, cloth_collider_id id,
                                                        float *vertices, size_t stride_bytes);

/**
 * Add a finite cylinder with flat end caps: the solid within `radius` metres
 * (> 0) of the axis from `a` (centre of one cap) to `b` (centre of the other),
 * a round table or a post. Its rims are sharp; a thickness rounds them.
 * A particle inside leaves through the nearest of the side and the caps.
 * The reference point for transforms is `a`.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers, non-finite values, a
 *         radius that is not positive, or `a == b`;
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the table cannot grow.
 */
CLOTH_API cloth_status cloth_add_cylinder(cloth_t *cloth, const float a[3], const float b[3], float radius,
                                          cloth_collider_id *out);

/**
 * Add a torus (ring): every point within `minor_radius` of the circle of
 * `major_radius` about `center` in the plane normal to `axis` (any non-zero
 * length). Requires `0 < minor_radius < major_radius`, so that it has a hole;
 * its thickness must keep `minor_radius + thickness < major_radius` too (see
 * cloth_set_collider_thickness(); the cloth's particle radius counts into
 * the thickness), which keeps the push-out exact.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers, non-finite values, a
 *         zero axis or radii outside that range;
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the table cannot grow.
 */
CLOTH_API cloth_status cloth_add_torus(cloth_t *cloth, const float center[3], const float axis[3],
                                       float major_radius, float minor_radius, cloth_collider_id *out);

/**
 * Coulomb friction coefficient `mu` (>= 0, finite) of a collider. Default 0.
 * Friction acts on the particle's velocity relative to the collider's
 * surface, so a moving or turning collider drags the cloth along.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a bad `mu`;
 *         ::CLOTH_ERR_OUT_OF_RANGE for an unknown or removed id.
 */
CLOTH_API cloth_status cloth_set_collider_friction(cloth_t *cloth, cloth_collider_id id, float mu);

/**
 * Thickness in metres (>= 0, finite): particles are kept this far outside the
 * surface. Seed 000's sphere uses 8 % of its radius. Default 0.
 * May allocate for a triangle mesh (its grid, made for the new reach; if
 * memory runs out it keeps the old one, which is slower past its reach).
 * @return as cloth_set_collider_friction(), and ::CLOTH_ERR_INVALID_ARGUMENT
 *         for a torus when `minor_radius + offset >= major_radius`, or for a
 *         triangle mesh a thickness so large that the mesh's extent grown
 *         by it leaves the float range.
 */
CLOTH_API cloth_status cloth_set_collider_thickness(cloth_t *cloth, cloth_collider_id id, float offset);

/**
 * The cloth's own collision thickness in metres (>= 0, finite): every
 * particle is a ball of this radius against every collider, that is each
 * collider's thickness grows by it (a cloth of 5 mm wool on a body of bare
 * capsules). Default 0. It adds to cloth_set_collider_thickness(), and a
 * torus must keep `minor_radius + thickness + radius < major_radius`;
 * tori added later are checked against it too.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth, a negative or
 *         non-finite radius, or one that would close a torus's hole
 *         (nothing changes).
 */
CLOTH_API cloth_status cloth_set_particle_radius(cloth_t *cloth, float radius);

/**
 * The radius set by cloth_set_particle_radius() into `*radius`.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `radius`.
 */
CLOTH_API cloth_status cloth_get_particle_radius(const cloth_t *cloth, float *radius);

/**
 * Move a collider: its reference point to `position` (metres; NULL keeps it)
 * and its orientation to `rotation` (a unit quaternion x, y, z, w, squared
 * length within 1e-3 of 1, normalised; NULL keeps it). The orientation is
 * absolute: the shape as it was given to the add function turned by
 * `rotation` (for an ellipsoid, its axes turned by `rotation`). For example a
 * capsule added with ends `a`, `b` then has its first end at `position` and
 * its second at `position + rotate(rotation, b - a)`.
 *
 * The collider gets there at the end of the next cloth_step(), moving in a
 * straight line at constant speed and turning the shortest way at a constant
 * rate over the step's substeps; call it once per frame before the step. A
 * second call before the step only replaces the target.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth, a non-finite position
 *         or a bad quaternion; ::CLOTH_ERR_OUT_OF_RANGE for an unknown or
 *         removed id.
 */
CLOTH_API cloth_status cloth_set_collider_transform(cloth_t *cloth, cloth_collider_id id,
                                                    const float position[3], const float rotation[4]);

/**
 * Move many colliders at once (a character's body, once per frame): the
 * k-th id gets the k-th position (three floats from `positions + 3k`) and
 * the k-th rotation (four floats from `rotations + 4k`), as
 * cloth_set_collider_transform() would; either array may be NULL to keep
 * every position or every rotation. All are
 * checked before any is taken, so a refused call moves nothing. An id given
 * twice takes its last pose.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth, NULL `ids` with a
 *         non-zero count, a non-finite position or a bad quaternion;
 *         ::CLOTH_ERR_OUT_OF_RANGE for an unknown or removed id.
 */
CLOTH_API cloth_status cloth_set_collider_transforms(cloth_t *cloth, const cloth_collider_id *ids, uint32_t count,
                                                     const float *positions, const float *rotations);

/**
 * The pose a collider is heading for (where it is after the next step, and
 * now if it is not being moved): its reference point into `position` and its
 * orientation into `rotation` (x, y, z, w). Either may be NULL.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth;
 *         ::CLOTH_ERR_OUT_OF_RANGE for an unknown or removed id.
 */
CLOTH_API cloth_status cloth_get_collider_transform(const cloth_t *cloth, cloth_collider_id id,
                                                    float position[3], float rotation[4]);

/**
 * Remove a collider; its id becomes invalid.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth;
 *         ::CLOTH_ERR_OUT_OF_RANGE for an unknown or already removed id.
 */
CLOTH_API cloth_status cloth_remove_collider(cloth_t *cloth, cloth_collider_id id);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_COLLIDERS_H */
