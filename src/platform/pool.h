/*
 * The built-in thread pool (pool.c): `threads - 1` workers plus the
 * caller. A leaf: tasks.h hands it work, and it knows nothing of a cloth.
 */
#ifndef CLOTHSIM_PLATFORM_POOL_H
#define CLOTHSIM_PLATFORM_POOL_H

#include <clothsim/threads.h>

#include <stdbool.h>
#include <stdint.h>

struct cloth_pool;

/* A pool of `threads` (2 .. CLOTH_MAX_THREADS) through `alloc`;
 * CLOTH_ERR_UNSUPPORTED where the build has no threads. */
cloth_status cloth_pool_create(const cloth_allocator *alloc, uint32_t threads, struct cloth_pool **out);
void cloth_pool_destroy(const cloth_allocator *alloc, struct cloth_pool *pool);
/* Run task(begin, end, worker, context) over [0, count) in ranges of at
 * least `min_range` items (tasks of at least 2 min_range items come here)
 * and return when all are done; `uneven`: cut into pieces the idle threads
 * take from the others. */
void cloth_pool_run(struct cloth_pool *pool, cloth_task_fn *task, uint32_t count, uint32_t min_range, bool uneven,
                    void *context);

#endif /* CLOTHSIM_PLATFORM_POOL_H */
