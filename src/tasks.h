/*
 * Work split across threads: the host's task hooks when it set them
 * (cloth_set_task_hooks()), else the built-in pool (cloth_set_threads()),
 * else the caller's thread. The library hands out items that are independent
 * of each other and whose results do not depend on which worker runs them
 * or how the items are grouped, so the bits are the same at any thread count.
 */
#ifndef CLOTHSIM_TASKS_H
#define CLOTHSIM_TASKS_H

#include <clothsim/threads.h>

#include "platform/pool.h"

#include <stdbool.h>
#include <stdint.h>

struct cloth;
struct cloth_pool;

/* Particles per task item of the per-particle passes (a few pages each):
 * below two items a pass stays on the calling thread. */
#define CLOTH_PARTICLES_PER_ITEM 4096u

/* Fewest particles in a range of rows or of blocks of rows handed to another
 * thread: handing over costs microseconds, a pass over 2048 particles some
 * ten. */
#define CLOTH_PARTICLES_PER_RANGE 2048u

/* Rows per block for the passes that solve blocks of rows in two colours
 * (a grid's springs reach at most 2 rows down, so blocks of at least 2 rows
 * two apart share no particle): about 16 blocks, at least 4 rows each. A
 * function of the grid only, so that the order of the work, and with it the
 * bits, does not depend on the thread count. */
static inline uint32_t cloth_grid_block_rows(uint32_t rows)
{
    const uint32_t b = (rows + 15u) / 16u;
    return b < 4u ? 4u : b;
}

/* Fewest blocks of `block_rows` rows of `cols` particles in a range handed
 * to a thread (CLOTH_PARTICLES_PER_RANGE particles, or one block if larger). */
static inline uint32_t cloth_grid_min_blocks(uint32_t block_rows, uint32_t cols)
{
    const uint32_t per_block = block_rows * cols;
    return per_block >= CLOTH_PARTICLES_PER_RANGE ? 1u : CLOTH_PARTICLES_PER_RANGE / per_block;
}

/* The particles [*first, *last) of items [begin, end) of a `count`-particle
 * pass whose items hold `per_item` particles each. */
static inline void cloth_item_particles(uint32_t begin, uint32_t end, uint32_t count, uint32_t per_item,
                                        uint32_t *first, uint32_t *last)
{
    *first = begin * per_item;
    *last = end * per_item < count ? end * per_item : count;
}

typedef struct cloth_tasks {
    cloth_enqueue_task_fn *enqueue; /* the host's hooks, or NULL */
    cloth_finish_task_fn *finish;
    void *user_context;
    uint32_t host_workers;
    struct cloth_pool *pool;        /* the built-in pool, or NULL for one thread */
    uint32_t threads;               /* cloth_set_threads(), 1 by default */
    /* A task given to the host's hooks came back with an item skipped, run
     * twice or out of range, or with a worker index out of range, since
     * cloth_step() cleared it: the step is refused (tasks.c). */
    bool contract_broken;
} cloth_tasks;

/* Run task over items [0, count), in ranges of at least min_range items,
 * and return when all of them are done. The pool gives each thread one
 * range, the same from call to call, so a thread keeps its rows in its
 * cache across a step's passes. */
void cloth_parallel_for(const struct cloth *cloth, cloth_task_fn *task, uint32_t count, uint32_t min_range,
                        void *context);

/* The same for a pass whose items cost very different amounts (the
 * colliders: only the rows touching one cost anything): the pool cuts it
 * finer and a thread that runs out of its own pieces takes the others'. */
void cloth_parallel_for_uneven(const struct cloth *cloth, cloth_task_fn *task, uint32_t count, uint32_t min_range,
                               void *context);

/* Whether the host's task hooks broke their contract in any pass since the
 * last call, which clears the record. */
bool cloth_tasks_take_broken(struct cloth *cloth);

/* Free the pool (cloth_destroy). */
void cloth_tasks_release(struct cloth *cloth);


#endif /* CLOTHSIM_TASKS_H */
