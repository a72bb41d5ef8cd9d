/*
 * The built-in thread pool (tasks.h): `threads - 1` workers and the caller.
 * A task's items are cut into one contiguous range per thread, the same
 * cut every time, so that each thread keeps its rows (and its cache) from
 * pass to pass. An uneven task (cloth_parallel_for_uneven: the collider
 * pass, where only the rows touching a collider cost anything) is cut into
 * up to MAX_PIECES pieces per thread instead, each thread owning a
 * run of them; a thread works through its own run and then takes pieces
 * from the fronts of the others' runs, so the idle one helps rather than
 * waits. Which thread runs which items never changes a result (tasks.h).
 * The caller does its share and waits for the rest (a task too small to
 * cut in two never comes here: tasks.c runs it on the caller). Workers
 * spin briefly for the next task (a step hands out several per substep,
 * microseconds apart) and then sleep on a condition variable, so an idle
 * cloth costs no CPU.
 */
#include "platform/alloc.h"
#include "platform/pool.h"

#if defined(CLOTHSIM_HAVE_PTHREADS)

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

/* About 20 us of pause instructions before a worker sleeps. */
#define POOL_SPINS 4000

/* An uneven task is cut into at most MAX_PIECES per thread, when it has
 * items enough, and shared only if it makes at least MIN_PIECES per thread:
 * more pieces balance it more finely, at one atomic operation a piece;
 * fewer, coarser ones would move a large share of the work, and of its
 * cache lines, to the other thread, and the even cut is then as good
 * (docs/performance.md, figures behind the code). */
#define MIN_PIECES 4u
#define MAX_PIECES 8u

struct cloth_pool;

/* A thread's run of pieces of the current task: the next one to claim and
 * the end. A cache line each, so that claiming from one's own run does not
 * contend with the other threads claiming from theirs. */
typedef struct pool_run {
    atomic_uint next;
    uint32_t last;
    char pad[64 - sizeof(atomic_uint) - sizeof(uint32_t)];
} pool_run;

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
    uint32_t pieces;
    bool steal;     /* an uneven task: threads take each other's pieces */
    pool_run *runs; /* one per thread */
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Piece k of `pieces` equal cuts of [0, count), run by thread `self`. */
static void run_piece(const struct cloth_pool *pool, uint32_t k, uint32_t self)
{
    const uint64_t count = pool->count;
    const uint32_t begin = (uint32_t)(count * k / pool->pieces);
    const uint32_t end = (uint32_t)(count * (k + 1u) / pool->pieces);
    if (begin < end) {
        pool->task(begin, end, self, pool->context);
    }
}

/* Thread `self`'s part of the current task: its own run of pieces, then,
 * for an uneven task, whatever is left of the others' runs. A piece is
 * claimed by one atomic increment of its run's cursor, so each runs
 * exactly once. */
static void run_share(struct cloth_pool *pool, uint32_t self)
{
    const uint32_t runs = pool->steal ? pool->threads : 1u;
    for (uint32_t t = 0; t < runs; ++t) {
        const uint32_t owner = (self + t) % pool->threads;
        for (;;) {
            pool_run *run = &pool->runs[owner];
            const uint32_t k = atomic_fetch_add_explicit(&run->next, 1u, memory_order_relaxed);
            if (k >= run->last) {
                break;
            }
            run_piece(pool, k, self);
        }
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
        run_share(pool, self->index);
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

void cloth_pool_run(struct cloth_pool *pool, cloth_task_fn *task, uint32_t count, uint32_t min_range, bool uneven,
                    void *context)
{
    const bool steal = uneven && count / min_range >= pool->threads * MIN_PIECES;
    const uint32_t most = steal ? pool->threads * MAX_PIECES : pool->threads;
    /* at least 2: cloth_parallel_for() keeps smaller tasks on the caller */
    const uint32_t pieces = count / min_range < most ? count / min_range : most;
    pool->task = task;
    pool->context = context;
    pool->count = count;
    pool->pieces = pieces;
    pool->steal = steal;
    /* thread t's run: pieces [ceil(pieces t / threads), ceil(pieces (t + 1) / threads)),
     * so that with fewer pieces than threads the caller, which is running
     * already, has one rather than a worker that has to wake up */
    const uint32_t threads = pool->threads;
    for (uint32_t t = 0; t < threads; ++t) {
        atomic_store_explicit(&pool->runs[t].next, (pieces * t + threads - 1u) / threads, memory_order_relaxed);
        pool->runs[t].last = (pieces * (t + 1u) + threads - 1u) / threads;
    }
    /* the bump of `generation` (sequentially consistent) publishes all of
     * the above to the workers that see it */
    atomic_store(&pool->pending, pool->started);
    atomic_fetch_add(&pool->generation, 1u);
    wake_all(pool);
    run_share(pool, 0u);
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
    pool_run *runs = cloth_mem_alloc(alloc, (size_t)threads * sizeof *runs);
    if (pool == NULL || workers == NULL || runs == NULL) {
        cloth_mem_free(alloc, runs, (size_t)threads * sizeof *runs);
        cloth_mem_free(alloc, workers, (size_t)(threads - 1u) * sizeof *workers);
        cloth_mem_free(alloc, pool, sizeof *pool);
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memset(pool, 0, sizeof *pool);
    pool->threads = threads;
    pool->workers = workers;
    pool->runs = runs;
    for (uint32_t t = 0; t < threads; ++t) {
        atomic_init(&runs[t].next, 0u);
        runs[t].last = 0u;
    }
    atomic_init(&pool->generation, 0u);
    atomic_init(&pool->pending, 0u);
    atomic_init(&pool->sleepers, 0u);
    atomic_init(&pool->quit, false);
    if (pthread_mutex_init(&pool->lock, NULL) != 0) {
        cloth_mem_free(alloc, runs, (size_t)threads * sizeof *runs);
        cloth_mem_free(alloc, workers, (size_t)(threads - 1u) * sizeof *workers);
        cloth_mem_free(alloc, pool, sizeof *pool);
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    if (pthread_cond_init(&pool->wake, NULL) != 0) {
        pthread_mutex_destroy(&pool->lock);
        cloth_mem_free(alloc, runs, (size_t)threads * sizeof *runs);
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
    cloth_mem_free(alloc, pool->runs, (size_t)pool->threads * sizeof *pool->runs);
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

void cloth_pool_run(struct cloth_pool *pool, cloth_task_fn *task, uint32_t count, uint32_t min_range, bool uneven,
                    void *context)
{
    (void)pool;
    (void)min_range;
    (void)uneven;
    task(0u, count, 0u, context);
}

#endif
