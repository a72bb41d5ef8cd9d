/*
 * clothsim: dihedral bending across the cloth's interior edges.
 */
#ifndef CLOTHSIM_BENDING_H
#define CLOTHSIM_BENDING_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup bending Dihedral bending
 * @brief A hinge on every interior edge that resists folding, alongside the
 * distance-based bend springs (::CLOTH_SPRING_BEND).
 *
 * Every edge shared by exactly two render triangles (cloth_get_triangles())
 * is a hinge. Its angle theta is the angle between the two triangles'
 * normals: 0 when they lie flat, signed by the side the cloth folds to. The
 * hinge stores energy `k_bend (theta - theta0)^2 / 2` and pulls its four
 * particles along the exact negative gradient of that energy, so it exerts a
 * torque `k_bend (theta - theta0)` about the edge, whatever the edge's length,
 * conserves linear and angular momentum, and does nothing at its rest angle
 * theta0. A difference beyond pi is taken the shorter way round. Edges of
 * three or more triangles, and hinges whose triangle has collapsed to a
 * sliver (height under 1e-4 of the edge), exert nothing.
 *
 * Meaning of `k_bend` for a square grid: a grid of any spacing bent into a
 * cylinder of curvature kappa about either axis stores `k_bend kappa^2 / 2`
 * per unit area, so `k_bend` is the plate's bending stiffness per unit width
 * (N m: the bending moment per metre of width at unit curvature). The grid's
 * diagonals all run one way, which couples bending with twisting: a plate
 * clamped along one edge twists a little and sags more than a uniform plate
 * of that stiffness would (24 % more at the tip of a 6 x 6 cell cantilever).
 *
 * The hinges act for the force-based integrators: explicit Euler, trapezoid,
 * Verlet, relaxation and implicit Euler, and any host integrator that sets
 * ::CLOTH_INTEGRATOR_WANTS_SPRING_FORCES (the hinge forces arrive in `f` with
 * the springs'). Implicit Euler treats them explicitly, so they keep the
 * explicit stability limit below even there. The position-based integrators
 * (PBD, XPBD, semi-rigid) ignore them.
 *
 * Stability: the hinges are explicit in every integrator. On a flat square
 * grid of spacing s and particle mass m their highest angular frequency is
 * `w_b^2 = 37 k_bend / (m s^2)` (the grid's checkerboard mode); it adds to
 * the springs' `w_max^2` in the limits of cloth_set_integrator(), e.g.
 * `(w_max^2 + w_b^2) h (h + 2 beta) <= 4` for explicit Euler, and
 * about `w_b h <= 2` even with implicit Euler.
 * @{
 */

/**
 * Bending stiffness `k_bend` of every hinge, in N m per radian (torque about
 * the edge per radian away from the rest angle). 0, the default, switches
 * bending off. Range: finite, >= 0.
 *
 * The first call with `k_bend > 0` finds the hinges (O(T log T) for T
 * triangles) and allocates them through the cloth's allocator (20 bytes per
 * hinge, about 30 per triangle); later calls only change the value. Each
 * hinge's rest angle theta0 is that of the creation shape, whenever bending
 * is switched on: 0 for a grid (built flat), the input positions' for a mesh
 * (folds included). cloth_set_positions() does not change it.
 *
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a `k_bend` that is
 *         negative or not finite; ::CLOTH_ERR_OUT_OF_MEMORY if the hinges
 *         cannot be allocated (nothing changes, bending stays off).
 */
CLOTH_API cloth_status cloth_set_bending_stiffness(cloth_t *cloth, float k_bend);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_BENDING_H */
