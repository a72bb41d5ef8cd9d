/*
 * clothsim: snapshots of the dynamic state, a state hash, statistics and the
 * stability watchdog.
 */
#ifndef CLOTHSIM_STATE_H
#define CLOTHSIM_STATE_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup snapshots Snapshots and state hash
 * @brief Save and restore the dynamic state bit for bit (save games,
 * rollback netcode), and hash it for determinism checks.
 *
 * **What a snapshot holds** (the dynamic state: everything cloth_step()
 * reads that changes while the cloth runs):
 * - every particle's position, velocity and inverse mass (0 while pinned);
 * - the pins: which particles, their targets, where they started the last
 *   step, and the inverse mass each gets back when released;
 * - every collider's motion: the pose it started the last step from, the
 *   pose it is heading for (cloth_set_collider_transform()), where it stands
 *   now, and its rotation matrix and linear and angular velocity;
 * - the skin (skin.h), once set: every particle's skin target, where that
 *   target was at the start of the step, and its max distance;
 * - the simulated time.
 *
 * **What it does not hold** (the host's configuration, which the host
 * recreates the same way when it rebuilds a cloth): the parameters
 * (gravity, damping, stiffness, substeps, iterations, the integrator, air,
 * wind, tethers, bending stiffness and the rest angles measured when bending
 * was first switched on), which colliders exist and their shapes, friction
 * and thickness, the hooks and their `user` data, a host integrator's own
 * state, and the statistics and watchdog settings of cloth_get_stats() and
 * cloth_set_watchdog(). What the library derives from the snapshot's
 * contents (the tethers' nearest pins) is rebuilt from them.
 *
 * Loading a snapshot and then stepping with the same parameters and host
 * inputs gives bitwise the same positions, velocities and time as never
 * having saved, with every built-in integrator (their scratch memory holds
 * nothing from one substep to the next).
 *
 * **Format** (version 2; version 3 for a worn cloth: one with a skin,
 * backstops, a frame that is not a new cloth's, or a triangle-mesh
 * collider), every field little-endian whatever the machine, floats as
 * their IEEE-754 bits, written byte by byte:
 *
 * | bytes | field |
 * |---|---|
 * | 8 | magic `CLTHSNAP` |
 * | 4 + 4 | format version (2 or 3), the automatic substep rate (a float, substeps a second) |
 * | 8 | total size in bytes, checksum included |
 * | 4 x 5 | particle count, grid rows, grid columns, triangle count, spring count |
 * | 4 + 4 + 4 | pin count, collider count, the automatic limit: its last pass count (low byte) and, in bit 8, whether running steps again was found futile |
 * | 8 | time, a double |
 * | 28 per particle | x, y, z, vx, vy, vz, inverse mass: each an array over the particles |
 * | 32 per pin | particle index, target xyz, start xyz, inverse mass when released |
 * | 152 per collider | id, kind, then from, to, at (position xyz, quaternion xyzw), rotation matrix (9), velocity, angular velocity |
 * | version 3 only: 4 | the sections' word: bit 0 skin, bit 1 its targets given since the last step, bit 2 backstops, bit 3 their normals given since the last step, bit 4 frame, bit 5 meshes; other bits 0 |
 * | bit 0: 28 per particle | skin target xyz, its start xyz, max distance (+inf: free): each an array over the particles |
 * | bit 2: 32 per particle | skin normal xyz, its start xyz, backstop distance, radius: each an array over the particles |
 * | bit 4: 64 | the frame's position and rotation (xyzw) at the step's start, the same at its end, linear and angular inertia |
 * | bit 5: 8, then per mesh collider 8 + 36 per vertex | mesh count, vertex total; per triangle-mesh collider in collider order: vertex count, moving (0 or 1), its vertices where the step began, where it ends, where they stand (xyz each) |
 * | 8 | 64-bit FNV-1a hash of every byte before it |
 *
 * so a snapshot is `72 + 28 particles + 32 pins + 152 colliders` bytes,
 * plus, for a worn cloth, 4 and each section it has. Loading a version 2
 * snapshot into a worn cloth removes its skin and backstops and puts its
 * frame back to a new cloth's (the cloth that saved had none); a version 3
 * one gives the cloth the snapshot's, allocating the skin's and backstops'
 * blocks if the cloth has none and rebuilding the meshes' grids. A snapshot
 * fits only a cloth with the same triangle-mesh colliders (same vertex
 * counts); the meshes' triangles are not in it.
 * Version 1 (0.2) had 0 in the two automatic words; such a snapshot still
 * loads, and the cloth's automatic settings start over as a new cloth's.
 * FNV-1a changes whenever any single byte changes, so a snapshot with one
 * byte flipped is always refused.
 * @{
 */

/**
 * Size in bytes of a snapshot of `cloth` as it is now; it changes when pins
 * or colliders are added or removed.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `size`;
 *         ::CLOTH_ERR_UNSUPPORTED if the size does not fit in a `size_t`
 *         (only on 32-bit machines, for tens of millions of particles).
 */
CLOTH_API cloth_status cloth_state_size(const cloth_t *cloth, size_t *size);

/**
 * Write a snapshot of the dynamic state into `buf` (see the format above).
 * Exactly cloth_state_size() bytes are written; the rest of a larger buffer
 * is left alone. The cloth is not changed.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `buf`, or a `size`
 *         smaller than cloth_state_size() (nothing is written);
 *         ::CLOTH_ERR_UNSUPPORTED as cloth_state_size().
 */
CLOTH_API cloth_status cloth_save_state(const cloth_t *cloth, void *buf, size_t size);

/**
 * Replace the dynamic state of `cloth` with the snapshot in `buf`. The
 * snapshot must come from a cloth of the same shape (particle count, grid
 * rows and columns, triangle and spring counts) with the same colliders
 * (same ids of the same kinds, in the same order); pins need not match,
 * they are replaced. Bytes after the snapshot's recorded size are ignored.
 *
 * The whole buffer is checked before anything is written: a refused
 * snapshot leaves the cloth untouched.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `buf`; a buffer
 *         shorter than its recorded size (truncated); a wrong magic, an
 *         unknown format version, an automatic state the settings cannot
 *         hold (a rate outside 360 to 7680 substeps a second, more than 64
 *         passes, unknown bits) or a version 1 snapshot with non-zero words
 *         there; a checksum that does not match (corrupted); a snapshot of another shape or collider
 *         set (foreign); or contents no cloth could have (a non-finite
 *         value, a negative inverse mass or time, a pin index out of range
 *         or repeated, a pinned particle whose inverse mass is not 0, a
 *         quaternion that is not of unit length, a max distance that is
 *         negative or NaN, a skin normal neither unit nor 0, a backstop
 *         radius negative or not finite, an inertia outside [0, 1], a mesh
 *         vertex that is not finite or makes a triangle degenerate,
 *         unknown bits in the sections' word);
 *         ::CLOTH_ERR_OUT_OF_MEMORY if the pin table cannot grow to the
 *         snapshot's pins, the tether table those pins need cannot be
 *         allocated (cloth_set_tethers()), the scratch to check them
 *         cannot be allocated, or a version 3 snapshot's skin, backstops
 *         or mesh grids cannot be allocated.
 */
CLOTH_API cloth_status cloth_load_state(cloth_t *cloth, const void *buf, size_t size);

/**
 * A 64-bit FNV-1a hash of the bits of every position, every velocity and
 * the simulated time (the bytes of the little-endian encoding above, so it
 * is the same on every machine). Two cloths with the same hash are, short of
 * a one-in-2^64 collision, in bitwise the same state; `-0.0` and `0.0`
 * differ. Pins, colliders and parameters are not hashed. 0 for a NULL cloth
 * (a real state hashes to 0 with probability 2^-64).
 */
CLOTH_API uint64_t cloth_state_hash(const cloth_t *cloth);

/** @} */

/**
 * @defgroup stats Statistics and the stability watchdog
 * @brief What the cloth is doing, and bounds that catch it misbehaving.
 * @{
 */

/** Bits of cloth_stats::watchdog_tripped. */
#define CLOTH_WATCHDOG_TRIPPED_STRAIN 1u /**< the largest strain exceeded its bound */
#define CLOTH_WATCHDOG_TRIPPED_ENERGY 2u /**< the kinetic energy exceeded its bound */

/**
 * What the cloth reports through cloth_get_stats().
 *
 * Forward compatibility: `struct_size` comes first and the struct's size
 * never changes within a major version: fields added later take the place of
 * `reserved`, so cloth_stats_init() never writes past the end of a program's
 * struct. Set `struct_size` with cloth_stats_init() (or to
 * `sizeof(cloth_stats)`) before each call; the library writes at most
 * `struct_size` bytes, and a struct larger than it knows is refused with
 * ::CLOTH_ERR_UNSUPPORTED.
 *
 * Strain of a spring of rest length L0 and length l is `(l - L0) / L0`:
 * positive stretched, negative compressed. Grid springs are the stencil
 * families of ::cloth_spring_type; mesh springs are its edges and bend
 * pairs. Strains are measured whatever the integrator, also for those that
 * do not use the springs (PBD, semi-rigid measure how well they hold them).
 * Measurements beyond the float range (a finite but exploded state) read
 * as `FLT_MAX`.
 */
typedef struct cloth_stats {
    uint32_t struct_size;      /**< sizeof(cloth_stats), set by cloth_stats_init() */
    /**
     * Particle-collider contacts in the last substep of the last
     * cloth_step(): a free particle that a collider pushed out counts once
     * per collider touching it. 0 before the first step.
     */
    uint32_t contacts;
    uint32_t spring_count[3];  /**< springs of each ::cloth_spring_type the strains are taken over */
    /**
     * Bounds the watchdog found exceeded at the end of the last cloth_step():
     * ::CLOTH_WATCHDOG_TRIPPED_STRAIN, ::CLOTH_WATCHDOG_TRIPPED_ENERGY or both;
     * 0 if none, if the watchdog is off, or if the step failed before the
     * check (non-finite state).
     */
    uint32_t watchdog_tripped;
    uint64_t steps;            /**< cloth_step() calls that returned ::CLOTH_OK since creation */
    uint64_t watchdog_trips;   /**< steps after which the watchdog tripped, since creation */
    /**
     * Wall-clock seconds the last cloth_step() took (that returned ::CLOTH_OK
     * or ran and failed), from a monotonic clock where the platform has one.
     * Not part of the determinism promise. 0 before the first step.
     */
    double step_seconds;
    float max_strain[3];       /**< per ::cloth_spring_type, now: the most stretched spring's strain (0 with no springs) */
    float min_strain[3];       /**< per type, now: the most compressed spring's strain (0 with no springs) */
    float mean_strain[3];      /**< per type, now: the mean signed strain (0 with no springs) */
    /**
     * Kinetic energy now, J: `sum 1/2 m |v|^2` over the particles that are
     * free (inverse mass > 0, m its reciprocal). Pinned particles move as the
     * host says and have no mass the cloth knows; they are left out.
     */
    float kinetic_energy;
    /**
     * The largest strain of any spring and the kinetic energy (J) the
     * watchdog measured at the end of the last cloth_step(), before any
     * restore; each 0 while its bound is off.
     */
    float watchdog_max_strain;
    float watchdog_kinetic_energy; /**< see watchdog_max_strain */
    /**
     * Bytes the cloth holds now through its allocator (the desc's
     * `allocator`, or malloc): the sum of the sizes passed to its `alloc`
     * hook less those passed back to `free`, for every block it holds: the
     * handle, the particle arrays, a mesh's tables, the integrator's state,
     * tethers, pins, colliders, hinges, the thread pool and hook buffers.
     * Not counted: what an allocator adds around a block (headers, rounding
     * to the alignment), the host's own buffers, a custom integrator's state
     * unless it allocated through the cloth, and threads' stacks.
     * cloth_step() never allocates, so this changes only in the calls that
     * say they may allocate. A library older than this field
     * leaves it 0. Divide by cloth_particle_count() for bytes per particle.
     */
    uint64_t memory_bytes;
    /**
     * The worst strain of any structural or shear spring after the last
     * cloth_step() that returned ::CLOTH_OK, as the host reads the cloth:
     * what the stretch guarantee (cloth_material::max_strain, the strain
     * limit) bounds. With automatic limit passes it is what the step
     * measured (in float) to know when to stop; otherwise the larger of
     * max_strain[0] and max_strain[1] now, which is the same while the
     * host has not moved the cloth since. 0 before the first step.
     */
    float step_max_strain;
    /** The substeps the last cloth_step() took (its automatic choice when cloth_set_substeps() was given 0). */
    uint32_t substeps_used;
    /** The iterations per substep of the last cloth_step() (likewise for cloth_set_iterations()). */
    uint32_t iterations_used;
    /** The strain limit's passes in the last cloth_step() (0 while the limit is off). */
    uint32_t limit_passes_used;
    uint32_t reserved[10];         /**< zero: room for fields added within this major version */
} cloth_stats;

/** Zero `stats` and set `struct_size`. A NULL `stats` is ignored. */
CLOTH_API void cloth_stats_init(cloth_stats *stats);

/**
 * Fill `out` (see ::cloth_stats): the strains and the kinetic energy of the
 * state now, and the counters and measurements of the last cloth_step().
 * O(particles + springs); the cloth is not changed.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `out`, or a
 *         `struct_size` smaller than the first version of the struct;
 *         ::CLOTH_ERR_UNSUPPORTED for a `struct_size` larger than this
 *         library knows. On failure `out` is not written.
 */
CLOTH_API cloth_status cloth_get_stats(const cloth_t *cloth, cloth_stats *out);

/** What cloth_step() does when the watchdog trips. */
typedef enum cloth_watchdog_action {
    /**
     * The step stands and returns ::CLOTH_OK (a status other than OK would
     * mean "nothing changed"); the trip shows in cloth_stats::watchdog_tripped
     * and cloth_stats::watchdog_trips.
     */
    CLOTH_WATCHDOG_REPORT = 0,
    /**
     * The positions, velocities and time from before the step are restored,
     * as for a non-finite state, and the step returns ::CLOTH_ERR_UNSTABLE;
     * the trip also shows in the statistics. As with a non-finite state,
     * colliders being moved stay where the step took them (they do not jump
     * back), so stepping again does not replay their motion.
     */
    CLOTH_WATCHDOG_RESTORE = 1,
    CLOTH_WATCHDOG_ACTION_FORCE32 = 0x7fffffff
} cloth_watchdog_action;

/**
 * Bounds checked at the end of every cloth_step(), after the check for
 * non-finite values: the watchdog trips when the largest strain of any
 * spring (any type, see ::cloth_stats) exceeds `max_strain`, or when the
 * kinetic energy (J, as cloth_stats::kinetic_energy) exceeds
 * `max_kinetic_energy`. 0 switches a bound off; both 0 switch the watchdog
 * off, and it then costs nothing. A bound costs one pass over the springs
 * or the particles per step (on a grid, a pass over the structural and
 * shear springs, which bound the bend springs, and none with the automatic
 * limit, which has just measured them). The default (since 0.3): strain
 * 3, energy off, ::CLOTH_WATCHDOG_RESTORE: a step that tears the cloth
 * apart returns ::CLOTH_ERR_UNSTABLE and leaves it as it was.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth, a bound that is
 *         negative or not finite, or an unknown action.
 */
CLOTH_API cloth_status cloth_set_watchdog(cloth_t *cloth, float max_strain, float max_kinetic_energy,
                                          cloth_watchdog_action action);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_STATE_H */
