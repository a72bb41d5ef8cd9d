/*
 * The one private struct the rooms of src/ share, and the small helpers they
 * all use. Nothing here is visible to the host.
 */
#ifndef CLOTHSIM_CLOTH_INTERNAL_H
#define CLOTHSIM_CLOTH_INTERNAL_H

#include <clothsim/clothsim.h>

#include <math.h>
#include <stdbool.h>

#include "monitor.h"
#include "tasks.h"

#define CLOTH_MAX_PARTICLES (1u << 26)
#define CLOTH_MAX_SUBSTEPS 1024u
#define CLOTH_MAX_ITERATIONS 1024u
#define CLOTH_SPRING_TYPES 3
/* Rest lengths a spring may have, m, checked in double by both builders
 * (build_grid.c says why; types.h and mesh.h document them). */
#define CLOTH_REST_MIN 1e-15
#define CLOTH_REST_MAX 1e16
/* seed 000's 6 families, then seed 002's 6 wider ones */
#define CLOTH_GRID_FAMILIES 12

#include "platform/alloc.h"
#include "platform/simd.h"

/* Per-particle state as structure of arrays, each array CLOTH_ALIGN-aligned.
 * Velocity is the canonical second state variable for every integrator, so
 * switching integrators or changing dt between steps needs no conversion. */
typedef struct cloth_particles {
    float *x, *y, *z;    /* position, m */
    float *vx, *vy, *vz; /* velocity, m/s */
    /* force accumulators for the current substep, N: a separate allocation,
     * NULL while nothing can read or write them (forces.c) */
    float *fx, *fy, *fz;
    float *w;            /* inverse mass, 1/kg; 0 while pinned */
    /* the state before the current step, restored when the step blows up */
    float *sx, *sy, *sz, *svx, *svy, *svz;
    /* where the strain limit found them after the substeps (step.c): the
     * friction of its held passes measures slides from here. A separate
     * block, allocated while the limit is on (strain_limit.c), else NULL */
    float *lx, *ly, *lz;
} cloth_particles;

/* One pinned particle. `w_free` is its inverse mass to restore on release;
 * `start` is where it stood when the current step began. */
typedef struct cloth_pin_rec {
    uint32_t index;
    float target[3];
    float start[3];
    float w_free;
} cloth_pin_rec;

typedef enum cloth_collider_kind {
    CLOTH_COLLIDER_SPHERE,
    CLOTH_COLLIDER_PLANE,
    CLOTH_COLLIDER_ELLIPSOID,
    CLOTH_COLLIDER_CAPSULE,
    CLOTH_COLLIDER_CYLINDER,
    CLOTH_COLLIDER_TORUS
} cloth_collider_kind;

/* Where a collider's frame stands: origin (m), orientation (unit quaternion xyzw). */
typedef struct cloth_pose {
    float p[3];
    float q[4];
} cloth_pose;

/* A shape in its own frame, and the motion of the frame: over the substeps
 * of a step it travels in a straight line from `from` (where the step began)
 * to `to` (the host's target); `at` is where it stands in this substep, `m`
 * its rotation matrix, `v` and `w` its linear and angular velocity. */
typedef struct cloth_collider {
    cloth_collider_id id;
    cloth_collider_kind kind;
    float size[3];   /* radius; ellipsoid: semi-axes; torus: major, minor radius (m) */
    float axis[3];   /* plane: unit normal; capsule, cylinder: second end; torus: unit axis */
    float friction;  /* Coulomb mu */
    float thickness; /* extra distance kept from the surface, m */
    cloth_pose from, to, at;
    float m[9];
    float v[3], w[3];
} cloth_collider;

/* Air for the aerodynamic force (forces.c). */
typedef struct cloth_air {
    float density, drag, lift;
} cloth_air;


struct cloth {
    /* Every allocation goes through `alloc`, which forwards to mem.host and
     * keeps mem.live_bytes; copies of it (integrator states keep one) count
     * into the same cloth. The cloth struct itself is allocated and freed
     * with mem.host directly, since the account lives inside it. */
    cloth_allocator alloc;
    cloth_mem_account mem;
    void *block;        /* the one allocation holding every particle array but the forces */
    size_t block_bytes;
    void *force_block;  /* fx, fy, fz, or NULL (forces.c) */
    size_t force_block_bytes;
    cloth_particles p;
    uint32_t count, rows, cols;
    float fallback_normal[3]; /* v_axis x u_axis at creation */

    /* Topology. A grid (tris == NULL) derives its springs from the stencil
     * families and its triangles from its quads; a mesh lists both. */
    uint32_t family_count;               /* 6 or 12 stencil families in use */
    uint32_t *tris;                      /* mesh: 3 indices per triangle */
    uint32_t tri_count;
    uint32_t *spring_ij;                 /* mesh: 2 indices per spring, sorted by type */
    float *spring_rest;
    uint32_t spring_count;
    uint32_t type_begin[CLOTH_SPRING_TYPES + 1]; /* mesh springs of type t: [type_begin[t], type_begin[t+1]) */

    /* parameters */
    float gravity[3];
    float damping;                          /* per second */
    float stiffness[CLOTH_SPRING_TYPES];    /* N */
    float spring_damping[CLOTH_SPRING_TYPES]; /* s */
    float family_rest[CLOTH_GRID_FAMILIES]; /* rest length per stencil family, m */
    float constraint_stiffness[CLOTH_SPRING_TYPES]; /* PBD, [0, 1] */
    float jacobi_weight;                            /* PBD */
    uint32_t substeps, iterations;

    /* the integrator in use: a built-in's table or the host's */
    cloth_integrator integrator;
    const cloth_integrator_vtable *integ;
    void *integ_user;
    void *integ_state;

    /* True while the library runs the host's code on this cloth's behalf:
     * the whole of cloth_step() (wind, force, task and integrator hooks) and
     * a custom integrator's create and destroy. Every call that changes the
     * cloth is refused with CLOTH_ERR_BUSY meanwhile (cloth_busy()). */
    bool busy;

    double time;     /* simulated seconds; double so it does not stall after hours */
    float friction_lag; /* d(x)/d(v) at the end of a substep, s (step.c) */
    float limit_dt;     /* > 0 while the strain limit's collider passes run: the step, s (step.c) */

    cloth_pin_rec *pins;
    uint32_t pin_count, pin_capacity;
    uint32_t *pin_hash; /* particle index -> 1 + its record in pins (pins.c); NULL before the first pin */
    uint32_t pin_hash_slots;

    cloth_collider *colliders;
    uint32_t collider_count, collider_capacity;
    cloth_collider_id next_collider_id;

    /* wind (a hook or a constant), air, and the host's force hook */
    cloth_wind_fn wind_fn;
    void *wind_user;
    bool wind_on;
    float wind_constant[3]; /* m/s, when wind_on and wind_fn is NULL */
    cloth_air air;
    cloth_force_fn force_fn;
    void *force_user;
    bool forces_dirty; /* the force arrays may be non-zero (forces.c) */
    float *hook_buf; /* packed xyz scratch the hooks read and write */
    size_t hook_buf_bytes;

    cloth_monitor monitor; /* statistics and watchdog (monitor.h) */
    cloth_tasks tasks;     /* where the parallel passes run (tasks.h) */
    cloth_simd simd;       /* the vector level every SIMD path of this cloth uses */

    struct cloth_bending *bending; /* bending.c: dihedral hinges, NULL until first switched on */
    /* material.c: the material last set (density 0: none), the bending
     * rigidity it gave (N m; a grid's curvature constraints, curvature.c),
     * and whether a grid's border structural springs count half */
    cloth_material material;
    float rigidity;
    bool edge_halving;
    double *curvature_scratch; /* curvature.c: its slots for groups of lines, while rigidity > 0 */
    size_t curvature_scratch_bytes;
    /* Automatic settings (0 passed to their setters, params.c): the choice
     * made for the last step, and the rate the position solvers adapt. */
    bool substeps_auto, iterations_auto;
    uint32_t substeps_used, iterations_used, passes_used;
    float auto_rate; /* substeps per second the adaptive choice asks for */
    /* auto.c: the worst strain of the step's first attempt, and whether
     * running steps again with more substeps has been found not to bring
     * the guarantee (until a step meets it) */
    float first_attempt_strain;
    bool redo_futile;
    bool limit_stalled; /* step.c: the last step's limit stopped on a stall, not at the guarantee */
    float step_strain; /* the worst structural or shear strain after the last step */

    /* constraints/tethers.c: the table (NULL while off), stale once a pin is
     * added or released (pins.c), and a mesh's creation shape (xyz planes) */
    struct cloth_tethers *tethers;
    bool tethers_dirty;
    cloth_tether_schedule tether_schedule; /* cloth_set_tether_schedule(); read by step.c */
    float *rest_shape;

    /* constraints/strain_limit.c: cloth_set_strain_limit(); off while 0 passes */
    float max_strain;
    uint32_t strain_passes;
    uint32_t strain_level_sweeps; /* cloth_set_strain_level_sweeps(): passes that start with the levels */
    bool strain_passes_auto;      /* passes chosen per step until the limit holds */
    struct cloth_strain_levels *strain_levels; /* strain_levels.c: a grid's coarse levels while the limit is on */
    bool strain_levels_stale;                  /* their node masses, after a pin or mass change */
};


/* The public functions src/ needs itself, as cloth_do_<name>: the public
 * cloth_<name> is a wrapper around each (adding the re-entry check,
 * cloth_busy(), where it has one), so src/ never calls the public API
 * (scripts/source-map --check, run as a test). Each validates its input as
 * the public one says. */
cloth_status cloth_do_pin(cloth_t *cloth, uint32_t index, const float target[3]);
cloth_status cloth_do_set_integrator(cloth_t *cloth, cloth_integrator kind);
cloth_status cloth_do_set_iterations(cloth_t *cloth, uint32_t iterations);
cloth_status cloth_do_set_substeps(cloth_t *cloth, uint32_t substeps);
cloth_status cloth_do_set_strain_limit(cloth_t *cloth, float max_strain, uint32_t passes);
cloth_status cloth_do_set_tethers(cloth_t *cloth, float scale);
cloth_status cloth_do_set_tether_schedule(cloth_t *cloth, cloth_tether_schedule schedule);
uint32_t cloth_do_triangle_count(const cloth_t *cloth);
uint32_t cloth_do_spring_count(const cloth_t *cloth);
void cloth_do_destroy(cloth_t *cloth);
cloth_status cloth_do_set_watchdog(cloth_t *cloth, float max_strain, float max_kinetic_energy, cloth_watchdog_action action);

/* build_grid.c */
cloth_status cloth_build_grid(cloth_t *cloth, const cloth_grid_desc *desc);

/* springs.c: the grid stencil. A family joins (r, c) to (r + dr, c + dc). */
typedef struct cloth_grid_family {
    int32_t dr, dc;
    cloth_spring_type type;
    bool wide; /* only with 24 neighbours */
} cloth_grid_family;
extern const cloth_grid_family cloth_grid_families[CLOTH_GRID_FAMILIES];
/* Rest lengths from the grid's axes (which need not be orthogonal). */
void cloth_springs_rest(cloth_t *cloth, const float u[3], const float v[3], float spacing);
/* Add the spring forces (with spring damping) to f. */
void cloth_springs_accumulate(cloth_t *cloth);
/* bending.c: add the dihedral hinges' forces to f (part of the spring stage); free them.
 * A material's rigidity on a mesh: make the hinges (the only allocation),
 * then set D, which gives hinge e the stiffness D |e|^2 / A_e on top of
 * cloth_set_bending_stiffness()'s. The projection is the position solvers'
 * form: one XPBD pass over the hinges, moving x and v (h the substep). */
void cloth_bending_accumulate(cloth_t *cloth);
void cloth_bending_free(cloth_t *cloth);
cloth_status cloth_bending_reserve(cloth_t *cloth);
void cloth_bending_set_rigidity(cloth_t *cloth, float rigidity);
void cloth_bending_project(cloth_t *cloth, float h);
/* curvature.c: a grid's curvature constraints along rows and columns from
 * cloth->rigidity: forces (force-based integrators) or one XPBD pass. */
void cloth_curvature_accumulate(cloth_t *cloth);
void cloth_curvature_project(cloth_t *cloth, float h);
/* Its scratch for `rigidity` (none for 0 or a mesh): OUT_OF_MEMORY changes nothing. */
cloth_status cloth_curvature_reserve(cloth_t *cloth, float rigidity);
void cloth_curvature_free(cloth_t *cloth);
/* springs.c: a grid's run [begin, end) of family f in row r cut where the
 * border structural springs count half (cloth->edge_halving): up to three
 * pieces, each with its stiffness factor (1 or 0.5). */
typedef struct cloth_subrun {
    uint32_t begin, end;
    float scale;
} cloth_subrun;
uint32_t cloth_family_edges_split(const cloth_t *cloth, uint32_t f, uint32_t r, uint32_t begin, uint32_t end,
                                  cloth_subrun out[3]);
/* Inline so that the common case, no halving, costs the solvers' row loops no call. */
static inline uint32_t cloth_family_edges(const cloth_t *cloth, uint32_t f, uint32_t r, uint32_t begin,
                                          uint32_t end, cloth_subrun out[3])
{
    if (!cloth->edge_halving || cloth_grid_families[f].type != CLOTH_SPRING_STRUCTURAL || begin >= end) {
        out[0] = (cloth_subrun){begin, end, 1.0f};
        return 1u;
    }
    return cloth_family_edges_split(cloth, f, r, begin, end, out);
}
/* Whether family f is in use in this grid cloth. */
bool cloth_family_active(const cloth_t *cloth, uint32_t f);
/* Range of particles i joined to i + di by family f in row r: [*begin, *end). */
bool cloth_family_row(const cloth_t *cloth, uint32_t f, uint32_t r, uint32_t *begin, uint32_t *end,
                      uint32_t *di);
/* The particles of row r on springs of family f, for passes that gather per
 * particle: [end_begin, end_end) are the second ends of the springs that end
 * in row r (each p on (p - di, p)), [start_begin, start_end) the first ends
 * of those that start in it (each p on (p, p + di)); an empty range has
 * begin == end. A scatter over the springs in table order reaches a particle
 * through the first kind before the second. */
typedef struct cloth_row_runs {
    uint32_t end_begin, end_end, start_begin, start_end, di;
} cloth_row_runs;
void cloth_family_row_runs(const cloth_t *cloth, uint32_t f, uint32_t r, cloth_row_runs *out);

/* build_mesh.c */
cloth_status cloth_build_mesh(cloth_t *cloth, const cloth_mesh_desc *desc);
void cloth_mesh_free(cloth_t *cloth);

/* cloth.c: shared by both builders */
cloth_status cloth_alloc_particles(cloth_t *cloth, uint32_t count);
cloth_status cloth_create_common(const cloth_allocator *hooks, cloth_t **out);

/* forces.c: the air's defaults for a new cloth; per substep, clear the
 * accumulators, then wind and the host's force hook (CLOTH_ERR_UNSTABLE when
 * a hook wrote a non-finite value); free the accumulators and the hooks'
 * buffers. */
void cloth_forces_defaults(cloth_t *cloth);
cloth_status cloth_forces_begin(cloth_t *cloth);
void cloth_forces_free(cloth_t *cloth);
/* The force accumulators are needed by every integrator but the built-in
 * XPBD on a grid, and by wind and the force hook. A setter reserves them for
 * the configuration it is about to install (integrator `kind`, wind on, a
 * hook), before it changes anything, so that OUT_OF_MEMORY leaves all as it
 * was; and settles once it has installed it or given up, which frees them
 * if the cloth's configuration does not need them. The step never allocates. */
cloth_status cloth_forces_reserve(cloth_t *cloth, cloth_integrator kind, bool wind_on, bool hook);
void cloth_forces_settle(cloth_t *cloth);
/* aerodynamics.c: add the air's force on every triangle; `wind` holds an
 * xyz velocity every `stride` floats (0: one for all particles). */
void cloth_aerodynamics(cloth_t *cloth, const float *wind, size_t stride);

/* pins.c: room for `pins` records and their hash (nothing changes on
 * OUT_OF_MEMORY); the hash made again from the table, after a snapshot
 * replaced it; the step's pin motion; the memory. */
cloth_status cloth_pins_reserve(cloth_t *cloth, uint32_t pins);
void cloth_pins_index(cloth_t *cloth);
void cloth_pins_begin_step(cloth_t *cloth);
void cloth_pins_apply(cloth_t *cloth, uint32_t substep, uint32_t substeps, float dt);
void cloth_pins_free(cloth_t *cloth);
/* Every pin takes its particle's inverse mass as the one to restore on
 * release and holds the particle at 0 again (after masses were rewritten). */
void cloth_pins_set_free_mass(cloth_t *cloth);

/* constraints/tethers.c: keep a mesh's creation shape (at creation); project
 * every free particle onto its tethers (after the integrator) in two parts,
 * so that the caller can split the particles: prepare once per substep
 * (false: nothing to do), then apply to ranges that cover [0, count) in any
 * split, on any threads, with the same result; free both. */
cloth_status cloth_tethers_capture_rest(cloth_t *cloth);
bool cloth_tethers_prepare(cloth_t *cloth);
/* Reserve the tether table a cloth with `pins` pins needs (a mesh, or a
 * grid with more than CLOTH_TETHERS_PER_PARTICLE), while the tethers are
 * on; OK when there is nothing to reserve. Called before pins are added. */
cloth_status cloth_tethers_reserve(cloth_t *cloth, uint32_t pins);
void cloth_tethers_apply_range(cloth_t *cloth, uint32_t begin, uint32_t end);
void cloth_tethers_free(cloth_t *cloth);

/* constraints/strain_limit.c: `passes` of the step's limiting passes, the
 * first of them pass number `first` (passes below
 * cloth_set_strain_level_sweeps()'s count start with the levels), after
 * its last substep; dt is the step's. */
void cloth_strain_limit_apply(cloth_t *cloth, float dt, uint32_t first, uint32_t passes);
/* The worst strain of the structural and shear springs now (0 with none). */
float cloth_strain_limit_worst(cloth_t *cloth);
/* constraints/strain_levels.c: a grid's coarse levels for the limit (none
 * for a mesh or a small grid); one coarse-to-fine sweep of them, moving the
 * particles and their velocities (inv_dt); their memory. */
cloth_status cloth_strain_levels_alloc(cloth_t *cloth);
void cloth_strain_levels_apply(cloth_t *cloth, float scale, float inv_dt);
void cloth_strain_levels_free(cloth_t *cloth);
/* constraints/strain_limit.c: the limit's own arrays (lx, ly, lz) */
void cloth_strain_limit_free(cloth_t *cloth);

/* auto.c: the settings cloth_step() chooses when the host passed 0. The
 * automatic limit runs passes until the worst strain is within
 * cloth_auto_strain_bound() (max_strain, and CLOTH_LIMIT_SLACK of it more,
 * plus float rounding), at most CLOTH_AUTO_MAX_PASSES. */
#define CLOTH_LIMIT_SLACK 0.01f
#define CLOTH_AUTO_MAX_PASSES 64u
/* The automatic limit stops early once its passes shorten the worst link
 * by less than this share of its strain per pass, over the last
 * CLOTH_LIMIT_STALL_SPAN passes: a guarantee the pins or the colliders make
 * impossible (pins pulled further apart than the cloth reaches) then costs
 * a few passes, not CLOTH_AUTO_MAX_PASSES every step, while a limit that
 * crawls (a long strip too narrow for coarse levels) goes on. A single pass
 * may lengthen the worst link; a span of them that converges does not. */
#define CLOTH_LIMIT_STALL 0.001f
#define CLOTH_LIMIT_STALL_SPAN 8u
/* The automatic limit shortens a link past (1 + (1 - CLOTH_LIMIT_MARGIN)
 * max_strain) times its rest length to that length, not to the guarantee's:
 * Gauss-Seidel passes over links that all sit at their bound push each
 * other back over it and crawl towards it, while a target inside the bound
 * leaves room for the push, and the wider the room the fewer the passes
 * (docs/performance.md has the figures). The price: the limit takes out a
 * fabric's own stretch past a third of its max_strain. */
#define CLOTH_LIMIT_MARGIN (2.0f / 3.0f)
/* A new cloth's stretch guarantee, its tethers' allowance and its watchdog
 * bound (cloth.c). The guarantee is 9 %, its limit aiming at 3 % as the
 * tethers do: loose enough that the automatic settings cost about what a
 * hand-tuned setup does, and well inside the 10 % a cloth should never
 * pass (docs/performance.md, docs/materials.md). */
#define CLOTH_DEFAULT_MAX_STRAIN 0.09f
#define CLOTH_DEFAULT_TETHER_STRAIN 0.03f
#define CLOTH_DEFAULT_WATCHDOG_STRAIN 3.0f
float cloth_auto_strain_bound(float max_strain);
uint32_t cloth_auto_substeps(const cloth_t *cloth, float dt);
uint32_t cloth_auto_iterations(const cloth_t *cloth);
void cloth_auto_adapt(cloth_t *cloth);
/* After an attempt at a step that kept its state finite, `spent` substeps
 * run so far in the step: the substeps to run the step again with, from
 * its kept state, because the automatic limit missed its guarantee and
 * more substeps are allowed; 0 to keep it. */
uint32_t cloth_auto_redo(cloth_t *cloth, float dt, uint32_t attempt, uint32_t spent);
/* The automatic state a new cloth starts with; whether a rate and a pass
 * count are ones the automatic settings can hold (a snapshot's, snapshot.c). */
void cloth_auto_defaults(cloth_t *cloth);
bool cloth_auto_state_ok(float rate, uint32_t passes);
/* bending.c: the stiffest hinge, N m / rad (0 without hinges) */
float cloth_bending_k_max(const cloth_t *cloth);

/* Pins or inverse masses changed: what is made from them is made again at the next step. */
static inline void cloth_masses_changed(cloth_t *cloth)
{
    cloth->tethers_dirty = true;
    cloth->strain_levels_stale = true;
}

/* integrators/xpbd.c: make or free the grid solver's lambdas after
 * cloth_set_iterations() (they exist only with more than one iteration). */
cloth_status cloth_xpbd_iterations_changed(cloth_t *cloth);

/* colliders/ */
/* Place every collider for the end of substep `substep` (1-based) of
 * `substeps` in a step of dt seconds; the step calls it before each
 * substep's forces. */
void cloth_colliders_begin_substep(cloth_t *cloth, uint32_t substep, uint32_t substeps, float dt);
/* Put every collider back where the current step began (before the step is
 * run again from its kept state, step.c). */
void cloth_colliders_rewind(cloth_t *cloth);
/* Resolve particles [begin, end) against every collider and return the
 * contacts: ranges may run on different threads, since a particle's response
 * reads and writes only itself and the colliders. */
uint32_t cloth_colliders_apply_range(cloth_t *cloth, uint32_t begin, uint32_t end);
/* Resolve one particle against every collider, for integrators that
 * interleave contacts with their own constraints (cloth_step_view). */
void cloth_colliders_apply_one(cloth_t *cloth, uint32_t i);
void cloth_colliders_free(cloth_t *cloth);

/* integrators/integrators.c */
const cloth_integrator_vtable *cloth_integrator_lookup(cloth_integrator kind);
/* Install a table (built-in or host's): create the new state, then drop the old. */
cloth_status cloth_integrator_install(cloth_t *cloth, const cloth_integrator_vtable *vt, void *user,
                                      cloth_integrator kind);
void cloth_integrator_release(cloth_t *cloth);
extern const cloth_integrator_vtable cloth_integrator_euler;
extern const cloth_integrator_vtable cloth_integrator_trapezoid;
extern const cloth_integrator_vtable cloth_integrator_verlet;
extern const cloth_integrator_vtable cloth_integrator_pbd;
extern const cloth_integrator_vtable cloth_integrator_semirigid;
extern const cloth_integrator_vtable cloth_integrator_relaxation;
extern const cloth_integrator_vtable cloth_integrator_xpbd;
extern const cloth_integrator_vtable cloth_integrator_implicit;
/* Per-cloth integrator state made of `n` scratch arrays of cloth->count
 * floats, each aligned; it keeps its allocator so that destroy needs no cloth. */
#define CLOTH_SCRATCH_MAX 32 /* semi-rigid uses 30 */
typedef struct cloth_scratch {
    cloth_allocator alloc;
    size_t bytes;
    float *a[CLOTH_SCRATCH_MAX];
} cloth_scratch;
cloth_status cloth_scratch_create(const cloth_t *cloth, uint32_t n, void **out);
void cloth_scratch_destroy(void *user, void *state); /* fits cloth_integrator_vtable.destroy */
/* Gravity acts only on particles that can move (w > 0). */
static inline float cloth_gravity_mask(float w)
{
    return w > 0.0f ? 1.0f : 0.0f;
}

/* The first check of every public call that changes a cloth: true while the
 * cloth is inside its own step or integrator hook, where such a call could
 * free or rebuild what the step is using. Read-only queries stay allowed
 * (a host integrator's view promises them). False for NULL, which each call
 * refuses in its own argument check. */
static inline bool cloth_busy(const cloth_t *cloth)
{
    return cloth != NULL && cloth->busy;
}

/* Validation helpers for the API boundary. */
static inline bool cloth_finite3(const float v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* Corners of render triangle t, wound as cloth_get_triangles() documents.
 * Grids derive them from the quad; every triangle-based pass (normals, wind)
 * goes through here so mesh cloths can plug in their index list. */
static inline void cloth_triangle(const cloth_t *cloth, uint32_t t, uint32_t out[3])
{
    if (cloth->tris != NULL) {
        out[0] = cloth->tris[3u * t];
        out[1] = cloth->tris[3u * t + 1u];
        out[2] = cloth->tris[3u * t + 2u];
        return;
    }
    const uint32_t cols = cloth->cols;
    const uint32_t quad = t >> 1, r = quad / (cols - 1u), c = quad % (cols - 1u);
    const uint32_t i = r * cols + c;
    if ((t & 1u) == 0u) {
        out[0] = i;
        out[1] = i + cols;
        out[2] = i + 1u;
    } else {
        out[0] = i + 1u;
        out[1] = i + cols;
        out[2] = i + cols + 1u;
    }
}

/* A mass the cloth can use: positive, finite, and with a finite inverse (a
 * denormal mass such as 1e-45 kg would give an infinite inverse mass). */
static inline bool cloth_mass_ok(float m)
{
    return m > 0.0f && isfinite(m) && isfinite(1.0f / m);
}

/* Unit vector of `in` into `out`; false for a zero or non-finite vector.
 * The length is taken in double so that huge or tiny inputs do not
 * overflow or underflow on the way. */
static inline bool cloth_normalise3(const float in[3], float out[3])
{
    if (!cloth_finite3(in)) {
        return false;
    }
    double a = (double)in[0], b = (double)in[1], c = (double)in[2];
    double len = sqrt(a * a + b * b + c * c);
    if (!(len > 0.0)) {
        return false;
    }
    out[0] = (float)(a / len);
    out[1] = (float)(b / len);
    out[2] = (float)(c / len);
    return true;
}

#endif /* CLOTHSIM_CLOTH_INTERNAL_H */
