/*
 * clothsim: running one cloth's step on several threads, on the library's own
 * pool or on the host's job system.
 */
#ifndef CLOTHSIM_THREADS_H
#define CLOTHSIM_THREADS_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup threads Threads: the built-in pool and the host's task hooks
 * @brief Splitting one cloth's step across threads.
 *
 * cloth_step() hands out its data-parallel passes (the XPBD grid solver's
 * Gauss-Seidel sweeps over blocks of rows with its prediction and velocity
 * update, the PBD grid solver's Jacobi passes, a grid's spring forces, the
 * implicit solver's matrix products on a grid, and for every integrator the
 * tether and collider pass) as tasks over independent items. Each item's
 * result depends only on the items run before the task began, never on
 * which thread runs it or how the items are grouped into ranges, so a cloth
 * gives **bitwise identical** results on 1, 2 or any number of threads, on
 * the built-in pool or on the host's scheduler. The passes that are not
 * split yet (pins, wind and force hooks, the rest of the other integrators'
 * solvers, a mesh's springs) run on the thread that called cloth_step().
 *
 * Different cloths may be stepped on different threads at the same time
 * with no set-up at all (see the thread-safety notes in clothsim.h); this
 * page is about making one big cloth faster.
 * @{
 */

/**
 * A task: run items [begin, end) on worker `worker`. The library passes
 * `task_context` back unchanged.
 */
typedef void cloth_task_fn(uint32_t begin, uint32_t end, uint32_t worker, void *task_context);

/**
 * The host's job system takes a task of `item_count` items. It may split
 * them into ranges of at least `min_range` items (the last may be shorter),
 * run the ranges on its workers, and call `task(begin, end, worker,
 * task_context)` once for every item exactly once overall, with `worker` in
 * [0, worker_count) and never the same index on two ranges running at the
 * same time. It returns a handle for the finish hook; or it may run
 * everything before returning and return NULL, and then the finish hook is
 * not called.
 *
 * The library checks what it can of this contract: it counts the items run,
 * their sum and the sum of their squares, and refuses a range outside
 * [0, item_count) or a worker index outside [0, worker_count) without
 * running it. When a task comes back with an item missing or run twice,
 * cloth_step() returns ::CLOTH_ERR_TASK_CONTRACT and restores the state from
 * before the call on the calling thread. What it cannot see: two ranges run
 * at once under one worker index, or a range still running after `finish`
 * returned.
 */
typedef void *cloth_enqueue_task_fn(cloth_task_fn *task, uint32_t item_count, uint32_t min_range,
                                    void *task_context, void *user_context);

/** Wait until every range of the task behind `user_task` has returned. */
typedef void cloth_finish_task_fn(void *user_task, void *user_context);

/** Most threads the built-in pool runs a cloth on. */
#define CLOTH_MAX_THREADS 64u

/**
 * Run this cloth's step on `threads` threads of a pool the cloth owns: the
 * caller of cloth_step() and `threads - 1` workers it starts now. 1 (the
 * default) stops the workers and runs everything on the caller's thread.
 *
 * The workers spin for a few microseconds after each task, waiting for the
 * next, and then sleep on a condition variable; between steps they cost
 * nothing. The results are the same bits at every thread count.
 *
 * Task hooks (cloth_set_task_hooks()), when set, are used instead of the
 * pool.
 *
 * @param cloth the cloth
 * @param threads 1 .. ::CLOTH_MAX_THREADS
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a count outside
 *         that range; ::CLOTH_ERR_UNSUPPORTED for more than 1 on a platform
 *         built without POSIX threads; ::CLOTH_ERR_OUT_OF_MEMORY when the
 *         pool or a thread cannot be created. On failure the cloth keeps
 *         the threads it had.
 */
CLOTH_API cloth_status cloth_set_threads(cloth_t *cloth, uint32_t threads);

/** The thread count set by cloth_set_threads() (1 by default). */
CLOTH_API cloth_status cloth_get_threads(const cloth_t *cloth, uint32_t *threads);

/**
 * The vector instructions a cloth's kernels run with. Every level gives the
 * same bits (the plain C level's), so the level changes speed only.
 */
typedef enum cloth_simd_level {
    CLOTH_SIMD_LEVEL_BEST = 0,   /**< the widest this CPU runs: a new cloth's level */
    CLOTH_SIMD_LEVEL_SCALAR = 1, /**< plain C */
    CLOTH_SIMD_LEVEL_LANES4 = 2, /**< 4 lanes: SSE2 on x86-64, NEON on AArch64 */
    CLOTH_SIMD_LEVEL_AVX2 = 3,   /**< 8 lanes, x86 AVX2 */
    CLOTH_SIMD_LEVEL_AVX512 = 4, /**< 16 lanes, x86 AVX-512 F, VL, DQ and BW */
    CLOTH_SIMD_LEVEL_FORCE32 = 0x7fffffff
} cloth_simd_level;

/**
 * Run this cloth's kernels at `level`, or at the best this CPU and build
 * have with ::CLOTH_SIMD_LEVEL_BEST. A new cloth takes the best, lowered by
 * the environment variable `CLOTHSIM_SIMD` ("scalar", "sse2" or "neon",
 * "avx2", "avx512") when it is created, for tests and comparisons. A kernel
 * with no path at a level runs the next narrower one it has. Allocates
 * nothing.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or an unknown level;
 *         ::CLOTH_ERR_UNSUPPORTED for a level this CPU or build cannot run
 *         (the level is left as it was).
 */
CLOTH_API cloth_status cloth_set_simd_level(cloth_t *cloth, cloth_simd_level level);

/**
 * The level this cloth's kernels run at: never ::CLOTH_SIMD_LEVEL_BEST, so
 * that a host can report what it runs.
 */
CLOTH_API cloth_status cloth_get_simd_level(const cloth_t *cloth, cloth_simd_level *level);

/**
 * Run this cloth's parallel passes on the host's job system (Box2D-style
 * hooks): `enqueue` and `finish` as described at ::cloth_enqueue_task_fn.
 * They are called from the thread that calls cloth_step(), during
 * cloth_step() only. While hooks are set the built-in pool stays idle.
 *
 * @param cloth the cloth
 * @param enqueue the hook that starts a task; NULL with `finish` NULL removes
 *        the hooks (back to the pool or the caller's thread)
 * @param finish the hook that waits for a task
 * @param worker_count how many worker indices the host uses, 1 ..
 *        ::CLOTH_MAX_THREADS
 * @param user_context passed to both hooks
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth, only one of the two
 *         hooks, or a `worker_count` outside the range when hooks are given.
 */
CLOTH_API cloth_status cloth_set_task_hooks(cloth_t *cloth, cloth_enqueue_task_fn *enqueue,
                                            cloth_finish_task_fn *finish, uint32_t worker_count,
                                            void *user_context);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_THREADS_H */
