/*
 * The drape-N scene and its quality bar, shared by the clothsim bench and the
 * peer benches (which hand in their own positions).
 */
#ifndef CLOTHSIM_BENCH_DRAPE_SCENE_H
#define CLOTHSIM_BENCH_DRAPE_SCENE_H

#include <clothsim/clothsim.h>

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DRAPE_SIZE 2.0f          /* m, edge of the square cloth */
#define DRAPE_DENSITY 0.2f       /* kg/m^2, a light cotton */
#define DRAPE_SPHERE_RADIUS 0.6f /* m */
#define DRAPE_SPHERE_Y (-1.1f)   /* m, centre at (0, -1.1, 0) */
#define DRAPE_DT (1.0f / 60.0f)
#define DRAPE_FRAMES 600u
/* Cloth on a smooth ball; the peers' defaults have friction too, and without
 * it the cloth slides off and swings from its pins instead of resting. */
#define DRAPE_FRICTION 0.5f

typedef struct drape_scene {
    cloth_t *cloth;
    uint32_t n;
    /* a mesh scene's links: its edges (structural and shear springs), pairs
     * of particles and rest lengths; NULL for a grid */
    uint32_t *mesh_pairs;
    float *mesh_rest;
    uint32_t mesh_links;
} drape_scene;

typedef struct drape_quality {
    bool ok, finite;
    /* length / rest over structural and shear links: a grid's, both
     * diagonals of every cell; a mesh's own edges, one diagonal a cell for
     * the grid's triangles (the other is a bend spring of the mesh) */
    double mean_stretch, max_stretch;
    double max_stretch_last_s;        /* bench/drape.c: worst max_stretch after each step of the last second */
    double max_penetration;           /* m into the sphere, 0 if none */
    double closest;                   /* m from the sphere's surface to the nearest particle */
    double bytes_per_particle;
    const char *why;                  /* the first failed criterion, or "" */
} drape_quality;

/* Particle (r, c) of the N x N cloth, index r * N + c, starts at
 * x = -1 + 2 c / (N - 1), y = 0, z = -1 + 2 r / (N - 1); (0, 0) and (0, N-1)
 * are the pinned corners at z = -1. */
void drape_rest_position(uint32_t n, uint32_t r, uint32_t c, float out[3]);

/* How clothsim runs the scene; a 0 field means the library's default. */
typedef struct drape_config {
    bool defaults;        /* nothing set but the scene (pins, ball, friction, threads): every other field unused */
    cloth_integrator kind;
    uint32_t substeps, iterations;
    float tethers;        /* cloth_set_tethers() scale; 0 off */
    bool tethers_last;    /* cloth_set_tether_schedule(): the last substep only */
    float max_strain;     /* cloth_set_strain_limit(), with limit_passes > 0 */
    uint32_t limit_passes;
    uint32_t level_sweeps; /* cloth_set_strain_level_sweeps(); 0 keeps the default (every pass) */
    float stiffness;      /* N, structural and shear springs; 0 keeps the defaults */
    float bend_stiffness; /* N, bend springs; 0 keeps the default */
    uint32_t threads;     /* 0 or 1: the caller's thread only */
    /* 1: the grid's positions and triangles given to cloth_create_mesh();
     * 2: an irregular mesh of as many vertices, the Delaunay triangulation
     * of one random point per grid cell (the corners and edges kept on the
     * square's sides), each vertex's mass its share of the areal density */
    int mesh;
} drape_config;

cloth_status drape_scene_create(drape_scene *scene, uint32_t n, const drape_config *config);
/* The scene's name for a config: "drape", "drape-mesh" or "drape-delaunay". */
const char *drape_scene_name(const drape_config *config);
void drape_scene_destroy(drape_scene *scene);

/* Quality of an N x N cloth's packed positions; `status` is the last step's. */
void drape_quality_of(const float *positions, uint32_t n, bool stepped_ok, drape_quality *q);
void drape_scene_quality(const drape_scene *scene, cloth_status status, drape_quality *q);

#ifdef __cplusplus
}
#endif

#endif
