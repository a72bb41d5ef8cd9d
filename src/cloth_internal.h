/*
 * The one private struct the rooms of src/ share, and the small helpers they
 * all use. Nothing here is visible to the host.
 */
#ifndef CLOTHSIM_CLOTH_INTERNAL_H
#define CLOTHSIM_CLOTH_INTERNAL_H

#include <clothsim/clothsim.h>

#include <math.h>
#include <stdbool.h>

/* Arrays of particle data start on this boundary so that SIMD loads of 8
 * floats never straddle it. */
#define CLOTH_ALIGN 32u
#define CLOTH_MAX_PARTICLES (1u << 26)
#define CLOTH_MAX_SUBSTEPS 1024u
#define CLOTH_MAX_ITERATIONS 1024u
#define CLOTH_SPRING_TYPES 3
/* structural right/down, shear down-right/down-left, bend right/down */
#define CLOTH_GRID_FAMILIES 6

/* Per-particle state as structure of arrays, each array CLOTH_ALIGN-aligned.
 * Velocity is the canonical second state variable for every integrator, so
 * switching integrators or changing dt between steps needs no conversion. */
typedef struct cloth_particles {
    float *x, *y, *z;    /* position, m */
    float *vx, *vy, *vz; /* velocity, m/s */
    float *fx, *fy, *fz; /* force accumulators for the current substep, N */
    float *w;            /* inverse mass, 1/kg; 0 while pinned */
    /* the state before the current step, restored when the step blows up */
    float *sx, *sy, *sz, *svx, *svy, *svz;
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
    CLOTH_COLLIDER_PLANE
} cloth_collider_kind;

typedef struct cloth_collider {
    cloth_collider_id id;
    cloth_collider_kind kind;
    float p[3];      /* sphere centre, or a point of the plane */
    float n[3];      /* plane: unit normal pointing out of the solid side */
    float radius;    /* sphere radius */
    float friction;  /* Coulomb mu */
    float thickness; /* extra distance kept from the surface, m */
} cloth_collider;

/* The view an integrator steps: the state arrays, the forces accumulated for
 * this substep, and the parameters it needs. The integrator never sees
 * colliders, pins or hooks; the step owns their order. */
typedef struct cloth_view {
    uint32_t count;
    float *x, *y, *z, *vx, *vy, *vz;
    const float *fx, *fy, *fz, *w;
    float gravity[3];
    float h;              /* substep, s */
    float velocity_decay; /* exp(-damping * h), precomputed once per step */
} cloth_view;

typedef struct cloth_integrator_ops {
    const char *name;
    void (*step)(const cloth_view *view);
} cloth_integrator_ops;

struct cloth {
    cloth_allocator alloc;
    void *block;        /* the one allocation holding every particle array */
    size_t block_bytes;
    cloth_particles p;
    uint32_t count, rows, cols;
    float fallback_normal[3]; /* v_axis x u_axis at creation */

    /* parameters */
    float gravity[3];
    float damping;                          /* per second */
    float stiffness[CLOTH_SPRING_TYPES];    /* N */
    float spring_damping[CLOTH_SPRING_TYPES]; /* s */
    float family_rest[CLOTH_GRID_FAMILIES]; /* rest length per stencil family, m */
    uint32_t substeps, iterations;
    cloth_integrator integrator;
    const cloth_integrator_ops *ops;

    double time; /* simulated seconds; double so it does not stall after hours */

    cloth_pin_rec *pins;
    uint32_t pin_count, pin_capacity;

    cloth_collider *colliders;
    uint32_t collider_count, collider_capacity;
    cloth_collider_id next_collider_id;

    cloth_wind_fn wind_fn;
    void *wind_user;
};

/* platform/alloc.c */
void *cloth_mem_alloc(const cloth_allocator *a, size_t size);
void cloth_mem_free(const cloth_allocator *a, void *ptr, size_t size);
bool cloth_allocator_valid(const cloth_allocator *a);
void cloth_allocator_default(cloth_allocator *out);

/* build_grid.c */
cloth_status cloth_build_grid(cloth_t *cloth, const cloth_grid_desc *desc);

/* springs.c: the grid stencil. A family joins (r, c) to (r + dr, c + dc). */
typedef struct cloth_grid_family {
    int32_t dr, dc;
    cloth_spring_type type;
} cloth_grid_family;
extern const cloth_grid_family cloth_grid_families[CLOTH_GRID_FAMILIES];
/* Rest lengths from the grid's axes (which need not be orthogonal). */
void cloth_springs_rest(cloth_t *cloth, const float u[3], const float v[3], float spacing);
/* Add the grid's spring forces (with spring damping) to f. */
void cloth_springs_accumulate(cloth_t *cloth);

/* forces.c: clear the accumulators, then the host's force hooks. */
void cloth_forces_begin(cloth_t *cloth);

/* pins.c */
void cloth_pins_begin_step(cloth_t *cloth);
void cloth_pins_apply(cloth_t *cloth, uint32_t substep, uint32_t substeps, float dt);
void cloth_pins_free(cloth_t *cloth);

/* colliders/colliders.c */
void cloth_colliders_apply(cloth_t *cloth, float h);
void cloth_colliders_free(cloth_t *cloth);
void cloth_collider_sphere(const cloth_collider *c, cloth_t *cloth, float h);
void cloth_collider_plane(const cloth_collider *c, cloth_t *cloth, float h);
/* Push particle i out along unit normal n by `depth`, drop the velocity into
 * the surface and apply friction; shared by every shape. */
void cloth_collider_resolve(cloth_t *cloth, uint32_t i, const float n[3], float depth,
                            float friction);

/* integrators/integrators.c */
const cloth_integrator_ops *cloth_integrator_lookup(cloth_integrator kind);
extern const cloth_integrator_ops cloth_integrator_euler;
extern const cloth_integrator_ops cloth_integrator_trapezoid;
extern const cloth_integrator_ops cloth_integrator_verlet;

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
