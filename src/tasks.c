/*
 * Where a cloth's parallel passes run (tasks.h): the host's hooks, the
 * built-in pool, or the caller's thread.
 */
#include "cloth_internal.h"

#include <stdatomic.h>

/* A task on its way through the host's hooks, with the record that checks
 * the hooks' contract: every item in [0, count) run exactly once, each range
 * inside it, each worker index below the host's count. Counting the items,
 * their sum and the sum of their squares (mod 2^64) catches a skipped or
 * repeated item, and any mix of the two short of a permutation that keeps
 * both sums, which no plausible bug in a job system makes. */
typedef struct task_audit {
    cloth_task_fn *task;
    void *context;
    uint32_t count, workers;
    atomic_uint_fast64_t items, sum, squares;
    atomic_bool bad;
} task_audit;

/* sum of i and of i^2 for i in [0, n), mod 2^64 */
static uint64_t sum_below(uint64_t n)
{
    return n % 2u == 0u ? n / 2u * (n - 1u) : (n - 1u) / 2u * n;
}

static uint64_t squares_below(uint64_t n)
{
    /* (n - 1) n (2n - 1) / 6: divide out 2 and 3 before multiplying */
    uint64_t a = n - 1u, b = n, c = 2u * n - 1u;
    if (a % 2u == 0u) {
        a /= 2u;
    } else {
        b /= 2u;
    }
    if (a % 3u == 0u) {
        a /= 3u;
    } else if (b % 3u == 0u) {
        b /= 3u;
    } else {
        c /= 3u;
    }
    return n == 0u ? 0u : a * b * c;
}

static void audited_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    task_audit *a = ctx;
    if (begin >= end || end > a->count || worker >= a->workers) {
        atomic_store(&a->bad, true); /* not run: a range outside the task, or a worker that may collide */
        return;
    }
    a->task(begin, end, worker, a->context);
    atomic_fetch_add(&a->items, (uint_fast64_t)(end - begin));
    atomic_fetch_add(&a->sum, (uint_fast64_t)(sum_below(end) - sum_below(begin)));
    atomic_fetch_add(&a->squares, (uint_fast64_t)(squares_below(end) - squares_below(begin)));
}

static bool audit_passed(task_audit *a)
{
    return !atomic_load(&a->bad) && atomic_load(&a->items) == a->count &&
           atomic_load(&a->sum) == sum_below(a->count) && atomic_load(&a->squares) == squares_below(a->count);
}

/* The host's hooks run the task through the audit. The cloth is never a
 * const object; passes get a const pointer only because they do not change
 * its parameters, and the record belongs to the step that runs them. */
static void run_on_host(const cloth_t *cloth, cloth_task_fn *task, uint32_t count, uint32_t min_range,
                        void *context)
{
    const cloth_tasks *t = &cloth->tasks;
    task_audit audit;
    audit.task = task;
    audit.context = context;
    audit.count = count;
    audit.workers = t->host_workers;
    atomic_init(&audit.items, 0u);
    atomic_init(&audit.sum, 0u);
    atomic_init(&audit.squares, 0u);
    atomic_init(&audit.bad, false);
    void *handle = t->enqueue(audited_task, count, min_range, &audit, t->user_context);
    if (handle != NULL) {
        t->finish(handle, t->user_context);
    }
    if (!audit_passed(&audit)) {
        ((cloth_t *)(uintptr_t)cloth)->tasks.contract_broken = true;
    }
}

static void parallel_for(const cloth_t *cloth, cloth_task_fn *task, uint32_t count, uint32_t min_range, bool uneven,
                         void *context)
{
    const cloth_tasks *t = &cloth->tasks;
    if (count == 0u) {
        return;
    }
    if (min_range == 0u) {
        min_range = 1u;
    }
    if (t->enqueue != NULL && count > min_range) {
        run_on_host(cloth, task, count, min_range, context);
        return;
    }
    /* the pool only for two ranges or more: for one, waking its workers
     * would only add their latency */
    if (t->pool != NULL && count / min_range >= 2u) {
        cloth_pool_run(t->pool, task, count, min_range, uneven, context);
        return;
    }
    task(0u, count, 0u, context);
}

void cloth_parallel_for(const cloth_t *cloth, cloth_task_fn *task, uint32_t count, uint32_t min_range,
                        void *context)
{
    parallel_for(cloth, task, count, min_range, false, context);
}

void cloth_parallel_for_uneven(const cloth_t *cloth, cloth_task_fn *task, uint32_t count, uint32_t min_range,
                               void *context)
{
    parallel_for(cloth, task, count, min_range, true, context);
}

bool cloth_tasks_take_broken(cloth_t *cloth)
{
    const bool broken = cloth->tasks.contract_broken;
    cloth->tasks.contract_broken = false;
    return broken;
}

void cloth_tasks_release(cloth_t *cloth)
{
    if (cloth->tasks.pool != NULL) {
        cloth_pool_destroy(&cloth->alloc, cloth->tasks.pool);
        cloth->tasks.pool = NULL;
    }
    cloth->tasks.threads = 1u;
}

cloth_status cloth_set_threads(cloth_t *cloth, uint32_t threads)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || threads < 1u || threads > CLOTH_MAX_THREADS) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (threads == cloth->tasks.threads) {
        return CLOTH_OK;
    }
    struct cloth_pool *pool = NULL;
    if (threads > 1u) {
        cloth_status s = cloth_pool_create(&cloth->alloc, threads, &pool);
        if (s != CLOTH_OK) {
            return s;
        }
    }
    cloth_tasks_release(cloth);
    cloth->tasks.pool = pool;
    cloth->tasks.threads = threads;
    return CLOTH_OK;
}

cloth_status cloth_get_threads(const cloth_t *cloth, uint32_t *threads)
{
    if (cloth == NULL || threads == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *threads = cloth->tasks.threads;
    return CLOTH_OK;
}

cloth_status cloth_set_task_hooks(cloth_t *cloth, cloth_enqueue_task_fn *enqueue, cloth_finish_task_fn *finish,
                                  uint32_t worker_count, void *user_context)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || (enqueue == NULL) != (finish == NULL)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (enqueue != NULL && (worker_count < 1u || worker_count > CLOTH_MAX_THREADS)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->tasks.enqueue = enqueue;
    cloth->tasks.finish = finish;
    cloth->tasks.host_workers = enqueue != NULL ? worker_count : 0u;
    cloth->tasks.user_context = enqueue != NULL ? user_context : NULL;
    return CLOTH_OK;
}
