/*
 * The built-in thread pool (tasks.h): `threads - 1` workers and the caller.
 * A task's items are cut into one contiguous range per thread; the caller
 * runs the first and waits for the rest. Workers spin briefly for the next
 * task (a step hands out several per substep, microseconds apart) and then
 * sleep on a condition variable, so an idle cloth costs no CPU.
 */
#include "cloth_internal.h"

#if defined(CLOTHSIM_HAVE_PTHREADS)

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

/* About 20 us of pause instructions before a worker sleeps. */
#define POOL_SPINS 4000

struct cloth_pool;

typedef struct pool_worker {
    struct cloth_pool *pool;
    uint32_t index; /* 1 .. threads - 1; the caller is 0 */
    pthread_t thread;
} pool_worker;

struct cloth_pool {
    uint32_t threads;
    uint32_t started; /* workers running */
    pool_worker *workers;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    atomic_uint generation; /* bumped once per task */
    atomic_uint pending;    /* workers still on the current task */
    atomic_uint sleepers;
    atomic_bool quit;
    /* the current task, written before `generation` is bumped */
    cloth_task_fn *task;
    void *context;
    uint32_t count;
    uint32_t ranges;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Range k of `ranges` equal cuts of [0, count). */
static void run_range(const struct cloth_pool *pool, uint32_t k)
{
    if (k >= pool->ranges) {
        return;
    }
    const uint64_t count = pool->count;
    const uint32_t begin = (uint32_t)(count * k / pool->ranges);
    const uint32_t end = (uint32_t)(count * (k + 1u) / pool->ranges);
    if (begin < end) {
        pool->task(begin, end, k, pool->context);
    }
}

static void *worker_main(void *arg)
{
    pool_worker *self = arg;
    struct cloth_pool *pool = self->pool;
    /* 0 is the generation the pool was made with, not a fresh load: a
     * worker that starts late must still take the first task. */
    unsigned seen = 0u;
    for (;;) {
        unsigned now;
        int spins = 0;
        while ((now = atomic_load(&pool->generation)) == seen && !atomic_load(&pool->quit)) {
            if (++spins < POOL_SPINS) {
                cpu_relax();
                continue;
            }
            /* Sleep. `sleepers` is raised before `generation` is read again
             * and the caller bumps `generation` before reading `sleepers`
             * (both sequentially consistent), so one of the two sees the
             * other and no wake-up is lost. */
            pthread_mutex_lock(&pool->lock);
            atomic_fetch_add(&pool->sleepers, 1u);
            while (atomic_load(&pool->generation) == seen && !atomic_load(&pool->quit)) {
                pthread_cond_wait(&pool->wake, &pool->lock);
            }
            atomic_fetch_sub(&pool->sleepers, 1u);
            pthread_mutex_unlock(&pool->lock);
            spins = 0;
        }
        if (atomic_load(&pool->quit)) {
            return NULL;
        }
        seen = now;
        run_range(pool, self->index);
        atomic_fetch_sub_explicit(&pool->pending, 1u, memory_order_release);
    }
}

static void wake_all(struct cloth_pool *pool)
{
    if (atomic_load(&pool->sleepers) > 0u) {
        pthread_mutex_lock(&pool->lock);
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->lock);
    }
}

void cloth_pool_run(struct cloth_pool *pool, cloth_task_fn *task, uint32_t count, uint32_t min_range, void *context)
{
    uint32_t ranges = count / min_range;
    ranges = ranges < 1u ? 1u : ranges;
    ranges = ranges > pool->threads ? pool->threads : ranges;
    pool->task = task;
    pool->context = context;
    pool->count = count;
    pool->ranges = ranges;
    atomic_store(&pool->pending, pool->started);
    atomic_fetch_add(&pool->generation, 1u);
    wake_all(pool);
    run_range(pool, 0u);
    /* Spin, then yield: with more threads than free cores the worker being
     * waited for may need this core to run at all. */
    for (int spins = 0; atomic_load_explicit(&pool->pending, memory_order_acquire) != 0u; ++spins) {
        if (spins < POOL_SPINS) {
            cpu_relax();
        } else {
            sched_yield();
        }
    }
}

static void stop_workers(struct cloth_pool *pool)
{
    atomic_store(&pool->quit, true);
    pthread_mutex_lock(&pool->lock);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (uint32_t k = 0; k < pool->started; ++k) {
        pthread_join(pool->workers[k].thread, NULL);
    }
}

cloth_status cloth_pool_create(const cloth_allocator *alloc, uint32_t threads, struct cloth_pool **out)
{
    struct cloth_pool *pool = cloth_mem_alloc(alloc, sizeof *pool);
    pool_worker *workers = cloth_mem_alloc(alloc, (size_t)(threads - 1u) * sizeof *workers);
    if (pool == NULL || workers == NULL) {
        cloth_mem_free(alloc, workers, (size_t)(threads - 1u) * sizeof *workers);
        cloth_mem_free(alloc, pool, sizeof *pool);
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memset(pool, 0, sizeof *pool);
    pool->threads = threads;
    pool->workers = workers;
    atomic_init(&pool->generation, 0u);
    atomic_init(&pool->pending, 0u);
    atomic_init(&pool->sleepers, 0u);
    atomic_init(&pool->quit, false);
    if (pthread_mutex_init(&pool->lock, NULL) != 0) {
        cloth_mem_free(alloc, workers, (size_t)(threads - 1u) * sizeof *workers);
        cloth_mem_free(alloc, pool, sizeof *pool);
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    if (pthread_cond_init(&pool->wake, NULL) != 0) {
        pthread_mutex_destroy(&pool->lock);
        cloth_mem_free(alloc, workers, (size_t)(threads - 1u) * sizeof *workers);
        cloth_mem_free(alloc, pool, sizeof *pool);
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t k = 0; k + 1u < threads; ++k) {
        workers[k].pool = pool;
        workers[k].index = k + 1u;
        if (pthread_create(&workers[k].thread, NULL, worker_main, &workers[k]) != 0) {
            cloth_pool_destroy(alloc, pool);
            return CLOTH_ERR_OUT_OF_MEMORY;
        }
        pool->started = k + 1u;
    }
    *out = pool;
    return CLOTH_OK;
}

void cloth_pool_destroy(const cloth_allocator *alloc, struct cloth_pool *pool)
{
    if (pool == NULL) {
        return;
    }
    stop_workers(pool);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    cloth_mem_free(alloc, pool->workers, (size_t)(pool->threads - 1u) * sizeof *pool->workers);
    cloth_mem_free(alloc, pool, sizeof *pool);
}

#else /* no POSIX threads: one thread only */

cloth_status cloth_pool_create(const cloth_allocator *alloc, uint32_t threads, struct cloth_pool **out)
{
    (void)alloc;
    (void)threads;
    (void)out;
    return CLOTH_ERR_UNSUPPORTED;
}

void cloth_pool_destroy(const cloth_allocator *alloc, struct cloth_pool *pool)
{
    (void)alloc;
    (void)pool;
}

void cloth_pool_run(struct cloth_pool *pool, cloth_task_fn *task, uint32_t count, uint32_t min_range, void *context)
{
    (void)pool;
    (void)min_range;
    task(0u, count, 0u, context);
}

#endif
