/*
 * clothsim: the integrator plug-in interface and the parameters of the
 * position-based integrators.
 */
#ifndef CLOTHSIM_INTEGRATORS_H
#define CLOTHSIM_INTEGRATORS_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup integrators Integrators: plug-in interface
 * @brief The interface every built-in integrator implements, open to the host.
 *
 * A substep of cloth_step() runs, in this order: pinned particles are placed
 * on their targets for the end of the substep; the force accumulators are
 * cleared and filled (wind, external forces, and the spring forces when the
 * integrator asks for them); the integrator's `step`; pinned particles placed
 * again (whatever `step` did to them); the tethers, if on (constraints.h);
 * the colliders; the integrator's `finish`, if it has one. Gravity is never
 * in the forces: it is an acceleration in the view.
 * @{
 */

/** The integrator wants the spring forces (with spring damping) added to `f` before `step`. */
#define CLOTH_INTEGRATOR_WANTS_SPRING_FORCES 1u

/**
 * What an integrator sees of the cloth during one substep. The arrays are the
 * cloth's own (structure of arrays, 32-byte aligned, `count` long); the
 * integrator updates positions and velocities in place.
 */
typedef struct cloth_step_view {
    uint32_t count;          /**< particles */
    /** @{ */
    float *x, *y, *z;        /**< positions, m; read and written */
    /** @} */
    /** @{ */
    float *vx, *vy, *vz;     /**< velocities, m/s; read and written */
    /** @} */
    /** @{ */
    /**
     * Forces for this substep, N (not gravity). Never NULL for a host's
     * integrator or any built-in but XPBD; the built-in XPBD on a grid cloth
     * without wind or a force hook gets NULL, since nothing makes forces
     * then and the cloth does not keep the arrays (12 bytes per particle).
     */
    const float *fx, *fy, *fz;
    /** @} */
    const float *inv_mass;   /**< 1/kg; 0 for pinned particles, which must not move */
    float gravity[3];        /**< m/s^2 */
    float h;                 /**< the substep, s */
    float damping;           /**< velocity damping rate, 1/s */
    float velocity_decay;    /**< `exp(-damping h)`, the factor velocities decay by in one substep */
    uint32_t iterations;     /**< cloth_set_iterations() */
    uint32_t substep;        /**< 0-based index of this substep within the step */
    uint32_t substeps;       /**< substeps in this step */
    const cloth_t *cloth;    /**< for read-only queries such as cloth_get_springs(); do not step it */
    /**
     * Resolve collisions of particle `index` now, as the collider pass would
     * (push out, drop the inward velocity, friction), for integrators that
     * must keep constraints and contacts together. `ctx` is `collide_ctx`.
     */
    void (*collide_particle)(void *ctx, uint32_t index);
    void *collide_ctx;       /**< the context to pass to `collide_particle` */
} cloth_step_view;

/**
 * An integrator. The table must outlive every cloth it is installed in.
 * `create` and `destroy` may be NULL; `step` may not.
 *
 * The built-in integrators are not written against this table and view
 * alone; they are privileged. ::CLOTH_INTEGRATOR_XPBD, ::CLOTH_INTEGRATOR_PBD,
 * ::CLOTH_INTEGRATOR_SEMIRIGID, ::CLOTH_INTEGRATOR_RELAXATION and
 * ::CLOTH_INTEGRATOR_IMPLICIT_EULER read the cloth itself: the grid's shape
 * (rows, columns, stencil families and their rest lengths), the springs'
 * table, the pins and the per-type stiffness, to solve a grid row by row
 * with vector kernels or to build a system over the springs. A host's
 * integrator gets what the view carries and what the read-only queries
 * (cloth_get_springs(), cloth_get_positions(), ...) return, which is
 * enough for a force-based or a per-spring position-based method, not for
 * the grid kernels.
 */
typedef struct cloth_integrator_vtable {
    const char *name;   /**< for messages and statistics */
    uint32_t flags;     /**< ::CLOTH_INTEGRATOR_WANTS_SPRING_FORCES or 0 */
    /**
     * Make the per-cloth state (scratch arrays ...) and store it in `*state`.
     * Called by cloth_set_custom_integrator() / cloth_set_integrator(); a
     * status other than ::CLOTH_OK refuses the switch. It must not keep
     * `cloth` beyond the call except for read-only queries in `step`. Here,
     * in `destroy`, `step` and `finish`, the cloth refuses every call that
     * would change it with ::CLOTH_ERR_BUSY (clothsim.h, Re-entry).
     */
    cloth_status (*create)(void *user, const cloth_t *cloth, void **state);
    /** Free what `create` made; called when the integrator is replaced or the cloth destroyed. */
    void (*destroy)(void *user, void *state);
    /**
     * Advance one substep. Return ::CLOTH_OK, or any other status to abandon
     * the step: the cloth then restores the state from before cloth_step()
     * and cloth_step() returns that status.
     */
    cloth_status (*step)(void *user, void *state, const cloth_step_view *view);
    /** Optional: runs after the colliders in every substep (may be NULL). */
    cloth_status (*finish)(void *user, void *state, const cloth_step_view *view);
} cloth_integrator_vtable;

/**
 * Install the host's integrator. `vtable` and what `user` points to must stay
 * valid while installed. Positions and velocities carry over unchanged.
 * A host's integrator always gets the force arrays in its view; coming from
 * XPBD on a grid, which may run without them, this allocates them.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth, vtable or `step`, or
 *         unknown flags; ::CLOTH_ERR_OUT_OF_MEMORY if the force arrays cannot
 *         be allocated; whatever `create` returns (the previous integrator
 *         then stays).
 */
CLOTH_API cloth_status cloth_set_custom_integrator(cloth_t *cloth, const cloth_integrator_vtable *vtable,
                                                   void *user);

/**
 * The integrator in use: the kind last set by cloth_set_integrator(), or
 * ::CLOTH_INTEGRATOR_CUSTOM after cloth_set_custom_integrator().
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers.
 */
CLOTH_API cloth_status cloth_get_integrator(const cloth_t *cloth, cloth_integrator *kind);

/**
 * Number of springs of the cloth: the grid's structural, shear and bend
 * springs (bend only where the grid is at least 3 particles long), or a mesh's
 * edges and bend pairs. 0 for a NULL cloth.
 */
CLOTH_API uint32_t cloth_spring_count(const cloth_t *cloth);

/**
 * Copy the springs out, for integrators and tools: `pairs` receives
 * `2 * cloth_spring_count()` particle indices, `rest` the rest lengths (m),
 * `types` the families. Any of the three may be NULL to skip it, not all.
 * The order is fixed for a cloth: grouped by family, structural first.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or all three NULL.
 */
CLOTH_API cloth_status cloth_get_springs(const cloth_t *cloth, uint32_t *pairs, float *rest,
                                         cloth_spring_type *types);

/**
 * PBD only: how strongly each family's constraints pull, in [0, 1]; 1 moves
 * both ends all the way to the rest length in one Jacobi pass, 0 switches the
 * family off. Defaults 1 (structural), 1 (shear), 0.2 (bend).
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth, an unknown type or a
 *         value outside [0, 1].
 */
CLOTH_API cloth_status cloth_set_constraint_stiffness(cloth_t *cloth, cloth_spring_type type, float s);

/**
 * PBD only: the weight of a particle's own position when its proposals are
 * averaged (seed 004 uses 0.2): `x' = (sum of proposals + a x) / (n + a)`.
 * Larger is more sluggish and more stable. Default 0.2, range [0, 100].
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a value outside the range.
 */
CLOTH_API cloth_status cloth_set_jacobi_weight(cloth_t *cloth, float a);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_INTEGRATORS_H */
