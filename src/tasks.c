/*
 * Where a cloth's parallel passes run (tasks.h): the host's hooks, the
 * built-in pool, or the caller's thread.
 */
#include "cloth_internal.h"

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
        void *handle = t->enqueue(task, count, min_range, context, t->user_context);
        if (handle != NULL) {
            t->finish(handle, t->user_context);
        }
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
