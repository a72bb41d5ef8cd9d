/*
 * clothsim: handles, status codes, enums, description structs and callback types.
 */
#ifndef CLOTHSIM_TYPES_H
#define CLOTHSIM_TYPES_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup types Types: handles, status codes, enums, descs
 * @brief The plain data that crosses the API.
 *
 * Every enum carries a `..._FORCE32` constant so that it is 32 bits wide on
 * every compiler, which binding generators rely on; never pass that constant.
 * @{
 */

/** A cloth: opaque; made by cloth_create_grid(), freed by cloth_destroy(). */
typedef struct cloth cloth_t;

/** A collider's id within its cloth (see colliders.h). */
typedef uint32_t cloth_collider_id;

/**
 * Result of every call that can fail. ::CLOTH_OK is zero; cloth_status_string()
 * names each code. A call that returns anything but ::CLOTH_OK has changed
 * nothing, except where its documentation says otherwise.
 */
typedef enum cloth_status {
    CLOTH_OK = 0,                 /**< success */
    CLOTH_ERR_INVALID_ARGUMENT,   /**< NULL, NaN, Inf, a value outside its documented range */
    CLOTH_ERR_OUT_OF_MEMORY,      /**< an allocation failed; nothing was changed */
    CLOTH_ERR_OUT_OF_RANGE,       /**< an index or id that does not name anything in this cloth */
    CLOTH_ERR_UNSTABLE,           /**< the step produced a non-finite value; the state before it was kept */
    CLOTH_ERR_UNSUPPORTED,        /**< not available in this build, for this cloth, or not yet */
    /**
     * the cloth is inside its own cloth_step() (or its integrator's `create`
     * or `destroy`): a hook called back into it. Nothing was changed. Since 0.2.
     */
    CLOTH_ERR_BUSY,
    /**
     * the host's task hooks broke their contract (threads.h): an item was
     * skipped, run twice or out of range, or a worker index was out of
     * range. The step was refused and the state before it kept. Since 0.2.
     */
    CLOTH_ERR_TASK_CONTRACT,
    CLOTH_STATUS_FORCE32 = 0x7fffffff
} cloth_status;

/**
 * The time integrators. Each is documented with its update equations and
 * stability limit at cloth_set_integrator(). h is the substep, `dt / substeps`.
 */
typedef enum cloth_integrator {
    /** Symplectic Euler: `v += a h; v *= exp(-c h); x += v h`. The default. */
    CLOTH_INTEGRATOR_EXPLICIT_EULER = 0,
    /** Seed 000's trapezoid rule: `v' = (v + a h) exp(-c h); x += (v + v') h / 2`. Not symplectic. */
    CLOTH_INTEGRATOR_TRAPEZOID = 1,
    /** Position Verlet with drag: `x' = x + exp(-c h) (x - x_prev) + a h^2`. */
    CLOTH_INTEGRATOR_VERLET = 2,
    /** Position-based dynamics with Jacobi strain limiting (seed 004). */
    CLOTH_INTEGRATOR_PBD = 3,
    /** Semi-rigid curtain: inextensible warp and weft, no iterative solve (seed 003). Grids only. */
    CLOTH_INTEGRATOR_SEMIRIGID = 4,
    /** Quasi-static relaxation toward rest under gravity, no velocity (seed 002's massless cloth). */
    CLOTH_INTEGRATOR_RELAXATION = 5,
    /**
     * Extended position-based dynamics (Macklin, Mueller, Chentanez 2016) in
     * small steps: each spring is a constraint `C = |xi - xj| - L0` with
     * compliance `alpha = L0 / k`, so the statics are the force model's. Per
     * substep: `v* = v exp(-c h) + a h`, `x* = x + v* h`; every lambda = 0;
     * cloth_set_iterations() Gauss-Seidel sweeps (a grid: row after row in
     * blocks of rows; a mesh: over a colouring of the springs), each spring
     * taking, with `n = (xi - xj) / |xi - xj|`,
     * `alpha~ = alpha / h^2`, `gamma = beta / h` and dx the motion since the
     * substep began, `dl = (-C - alpha~ lambda - gamma n.(dxi - dxj)) /
     * ((1 + gamma)(wi + wj) + alpha~)`, `lambda += dl`, `xi += wi dl n`,
     * `xj -= wj dl n`; then `v = (x - x_start) / h`. Unconditionally stable.
     */
    CLOTH_INTEGRATOR_XPBD = 6,
    /**
     * Implicit (backward) Euler, Baraff and Witkin 1998: one linearised solve
     * per substep, `(M - h D - h^2 K) dv = h (f + h K v)`, `v' = (v + dv) exp(-c h)`,
     * `x' = x + v' h`, with K, D the springs' stiffness and damping Jacobians.
     * Stable at any spring stiffness.
     */
    CLOTH_INTEGRATOR_IMPLICIT_EULER = 7,
    /** Reported by cloth_get_integrator() while a host integrator is installed; not accepted by cloth_set_integrator(). */
    CLOTH_INTEGRATOR_CUSTOM = 255,
    CLOTH_INTEGRATOR_FORCE32 = 0x7fffffff
} cloth_integrator;

/**
 * The spring families of a grid cloth (seed 000). A particle at (r, c) is
 * joined to (r, c+1) and (r+1, c) by structural springs, to (r+1, c+1) and
 * (r+1, c-1) by shear springs, and to (r, c+2) and (r+2, c) by bend springs.
 */
typedef enum cloth_spring_type {
    CLOTH_SPRING_STRUCTURAL = 0, /**< along the rows and columns: resists stretching */
    CLOTH_SPRING_SHEAR = 1,      /**< across the diagonals of a cell: resists shearing */
    CLOTH_SPRING_BEND = 2,       /**< to the next-but-one particle: resists folding */
    CLOTH_SPRING_FORCE32 = 0x7fffffff
} cloth_spring_type;

/**
 * How to build a rectangular grid cloth. Fill it with cloth_grid_desc_init(),
 * then change what you need.
 *
 * Particle (r, c), with index `r * cols + c`, starts at
 * `origin + c * spacing * u_axis + r * spacing * v_axis`. `u_axis` and
 * `v_axis` must be finite and non-zero; they are normalised, and need not be
 * orthogonal, but must not be parallel.
 *
 * Geometry the cloth can be stepped with, or cloth_create_grid() returns
 * ::CLOTH_ERR_INVALID_ARGUMENT:
 * - every particle starts inside the float range: each coordinate of the
 *   four corners, computed in double, is at most `FLT_MAX` in magnitude
 *   (the offsets along u and v add, so the extent along one axis is not
 *   enough);
 * - every spring the grid has is between 1e-15 m and 1e16 m long at rest.
 *   A family's rest length is `spacing * |dc u + dr v|` for its offset
 *   (dr, dc) (see ::cloth_spring_type and `neighbours`; a family counts only
 *   if the grid is big enough to hold one of its springs). With orthogonal
 *   axes that is a spacing from 1e-15 m to 4.9e15 m (bend springs are 2
 *   spacings), or to 3.5e15 m with 24 neighbours (the (2, 2) bend is 2.83);
 *   nearly parallel axes shorten the (1, -1) shear and stretch the bends
 *   towards 4 spacings.
 *
 * Why those lengths: the solvers work in float on squared lengths `|d|^2`
 * and on strains `(|d| - L) / L`. Below 1e-15 m the smallest strain a float
 * resolves (2^-23) times `L^2` is no longer a normal float; above 1e16 m
 * `L^2` leaves less than a factor 3e6 below `FLT_MAX` for a spring to
 * stretch and for the solvers' coefficients (XPBD multiplies `|d|^2` by
 * `(1 + gamma)(wi + wj) + alpha / h^2`). A grid whose gravity and stiffness
 * scale with its spacing steps like the 5 cm cloth with every built-in
 * integrator from a spacing of 1e-20 m to 1e16 m; from 1e17 m XPBD drifts,
 * from 1e19 m all but semi-rigid fail or drift, below 1e-21 m all drift. Whether
 * a cloth inside the range is stable still depends on its stiffness, mass
 * and substeps (see cloth_set_integrator()).
 *
 * Forward compatibility: the struct's size never changes within a major
 * version. Fields added later take the place of `reserved`, which
 * cloth_grid_desc_init() zeroes and the library requires to be zero where it
 * knows no field: a program built against newer headers that sets a field an
 * older library does not have is refused with ::CLOTH_ERR_UNSUPPORTED rather
 * than silently ignored, and an init function never writes past the end of a
 * program's struct. `struct_size` must equal sizeof(cloth_grid_desc).
 */
typedef struct cloth_grid_desc {
    uint32_t rows;            /**< particles per column (the number of rows), >= 1. Default 32 */
    uint32_t cols;            /**< particles per row, >= 1; rows * cols >= 2. Default 32 */
    float spacing;            /**< structural rest length in metres, > 0; see above for the bounds. Default 0.05 */
    float origin[3];          /**< position of particle (0, 0), metres. Default (0, 0, 0) */
    float u_axis[3];          /**< direction columns advance along. Default +x */
    float v_axis[3];          /**< direction rows advance along. Default +z */
    float particle_mass;      /**< kilograms per particle, > 0. Default 0.01 */
    uint32_t struct_size;     /**< sizeof(cloth_grid_desc), set by cloth_grid_desc_init() */
    /** Memory hooks, copied at creation; NULL uses malloc/free. */
    const cloth_allocator *allocator;
    /**
     * Springs per interior particle: 12 (seed 000, the default) or 24
     * (seed 002: every particle within two rows and two columns). The extra
     * twelve are (1, +-2) and (2, +-1) as shear, (2, +-2) as bend: a stiffer,
     * slower cloth.
     */
    uint32_t neighbours;
    uint32_t reserved[15]; /**< zero: room for fields added within this major version */
} cloth_grid_desc;

/**
 * Wind hook: called once per substep, before the integrator runs, on the thread
 * that called cloth_step(). It receives the simulated time in seconds, the
 * particle count and the positions (xyz packed, `3 * count` floats), and
 * writes the air velocity in m/s at each particle into `wind_velocity` (xyz
 * packed). It must not call back into the cloth (a call that would change it
 * returns ::CLOTH_ERR_BUSY); NaN or infinity in its output fails the step
 * with ::CLOTH_ERR_UNSTABLE.
 */
typedef void (*cloth_wind_fn)(void *user, float time, uint32_t count,
                              const float *positions, float *wind_velocity);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_TYPES_H */
