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
    CLOTH_COLLIDER_TORUS,
    CLOTH_COLLIDER_TAPERED_CAPSULE,
    CLOTH_COLLIDER_CONVEX,
    CLOTH_COLLIDER_TRIANGLE_MESH
} cloth_collider_kind;

/* A triangle-mesh collider's copy of the host's mesh (colliders/triangle_mesh.c). */
typedef struct cloth_collider_mesh cloth_collider_mesh;

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
    float thickness; /* extra distance kept from the surface, m (cloth_set_collider_thickness()) */
    float grown;     /* what the shapes keep: thickness + the cloth's particle radius, m */
    cloth_pose from, to, at;
    float m[9];
    float v[3], w[3];
    /* what the collider owns (freed with it): a convex hull's planes
     * (nx, ny, nz, d) in its frame, a triangle mesh's copy */
    float *planes;
    uint32_t plane_count;
    cloth_collider_mesh *mesh;
} cloth_collider;

/* The frame the cloth is worn in and its inertia (frame.c). */
typedef struct cloth_frame {
    float p0[3], q0[4];    /* the frame at the step's start: position, unit quaternion xyzw */
    float p1[3], q1[4];    /* at its end, as cloth_set_frame() said */
    float linear, angular; /* inertia: 1 (the default) a world-space cloth, 0 carried with the frame */
    /* this step's carry, while it runs (velocities are then relative to it):
     * angular velocity `cw`, and the whole step's carry as x -> step_m x +
     * step_b (frame.c) */
    bool carrying;
    float cw[3], step_m[9], step_b[3];
} cloth_frame;

/* Skinned attachment (skin.c): one block of 7 floats per particle, NULL
 * until the first cloth_set_skin_targets() or cloth_set_max_distances(). */
typedef struct cloth_skin {
    float *block;
    size_t block_bytes;
    float *tx, *ty, *tz; /* the targets at the end of the coming step, m */
    float *sx, *sy, *sz; /* at its start */
    float *dist;         /* max distance, m: 0 a pin, +inf free */
    uint32_t bounded;    /* particles with a positive finite distance: none, no pass */
    bool moving;         /* targets set since the last step: the start catches up after it */
    float t, dt;         /* step.c: the fraction of the step the pass reads targets at, the step */
} cloth_skin;

/* Backstops behind skinned particles (backstop.c): one block of 8 floats
 * per particle, NULL until the first cloth_set_skin_normals() or
 * cloth_set_backstops(). */
typedef struct cloth_backstop {
    float *block;
    size_t block_bytes;
    float *nx, *ny, *nz; /* the skin's outward normals at the end of the coming step */
    float *sx, *sy, *sz; /* at its start */
    float *dist, *radius; /* the ball's surface this far behind the target (m), its radius (m); 0: none */
    uint32_t active;      /* particles with a ball: none, no pass */
    bool moving;          /* normals set since the last step */
} cloth_backstop;

/* A self-collision list that did not fit its slots: the particle scans
 * the cells each pass instead. */
#define CLOTH_SELF_CROWDED 0xFFFFFFFFu

/* A particle as the self-collision broad phase reads it, in bucket order. */
typedef struct cloth_self_entry {
    float x, y, z;
    uint32_t index;
} cloth_self_entry;

/* Self-collision (self_collision.c): the thickness and, from the first
 * non-zero one, one block for the broad phase's arrays. Each particle keeps
 * the list of particles that were within the thickness and a margin of it
 * when the lists were last built (from the reference positions), sorted by
 * index; the lists stand while no two particles can have closed the
 * margin since. */
typedef struct cloth_self {
    float thickness; /* m; 0: off */
    float margin;    /* m: how far beyond the thickness the lists reach */
    float friction;  /* between layers (cloth_set_self_friction) */
    void *block;
    size_t block_bytes;
    uint32_t buckets;
    uint32_t slots;                  /* list room per particle */
    bool stale;                      /* the lists must be built before the next pass */
    uint32_t *bucket;                /* per particle */
    uint32_t *start;                 /* buckets + 1 */
    uint32_t *link_start, *link;     /* a mesh's spring partners (CSR) */
    uint32_t *count;                 /* per particle: its list's length, or CLOTH_SELF_CROWDED */
    uint32_t *hits;                  /* per particle: partners that touched it in the last pass */
    uint32_t *list;                  /* per particle: `slots` partner indices */
    float *ref;                      /* per particle: x, y, z when the lists were built */
    float *d;                        /* per particle: position and velocity corrections */
    cloth_self_entry *entry;         /* per particle, in bucket order */
    /* Particles against triangles (self_faces.c), while the thickness is
     * under the spacing: one more block, from the first such thickness. */
    bool faces;                      /* on for this thickness */
    float face_edge;                 /* the longest triangle edge at rest, m */
    void *face_block;
    size_t face_block_bytes;
    uint32_t face_slots;             /* triangles a particle lists at most */
    uint32_t *face_count, *face_list; /* per particle: its triangles, sorted */
    uint32_t *point_start, *point;   /* per triangle: the particles that list it (CSR) */
    uint32_t *fan_start, *fan;       /* a mesh's triangles about each vertex (CSR) */
} cloth_self;

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
    /* per particle, a spring's stiffness taking the mean of its ends'
     * (stiffness_scale.c); NULL: every scale 1, as when never set */
    float *kscale;
    float kscale_max; /* the largest scale, for the stability bound (auto.c) */
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

    cloth_skin skin;
    cloth_backstop backstop;
    cloth_self self;
    cloth_frame frame;
    float particle_radius; /* m, added to every collider's thickness (colliders.c) */

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
    struct cloth_mesh_levels *mesh_levels;     /* strain_levels_mesh.c: a mesh's */
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
/* state.c: a host's strided xyz buffer (stride checked by cloth_stride_ok())
 * read into three arrays, and whether all of it is finite. */
bool cloth_read3_finite(const cloth_t *cloth, const float *src, size_t stride_bytes);
void cloth_read3(const cloth_t *cloth, float *ax, float *ay, float *az, const float *src, size_t stride_bytes);
cloth_status cloth_do_set_watchdog(cloth_t *cloth, float max_strain, float max_kinetic_energy, cloth_watchdog_action action);

/* Pins or inverse masses changed: what is made from them is made again at the next step. */
static inline void cloth_masses_changed(cloth_t *cloth)
{
    cloth->tethers_dirty = true;
    cloth->strain_levels_stale = true;
}

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

/* stiffness_scale.c: the scales' array, freed with the cloth. */
void cloth_stiffness_scales_free(cloth_t *cloth);

/* The stiffness of spring (i, j) of a family of stiffness k: k times the
 * mean of its ends' scales (cloth_set_stiffness_scales()), in the one
 * order of operations every integrator uses. */
static inline float cloth_spring_k(const cloth_t *cloth, float k, uint32_t i, uint32_t j)
{
    return cloth->kscale != NULL ? k * (0.5f * (cloth->kscale[i] + cloth->kscale[j])) : k;
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
