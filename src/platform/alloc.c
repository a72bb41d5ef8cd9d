/*
 * Every allocation of the library goes through here, so that the host's hooks
 * see all of it and arrays come back aligned for SIMD (alloc.h).
 */
#include "platform/alloc.h"

#include <stdlib.h>

#if defined(_WIN32)
#include <malloc.h>
#endif

static void *default_alloc(void *user, size_t size, size_t alignment)
{
    (void)user;
    /* aligned_alloc wants a size that is a multiple of the alignment */
    size_t rounded = (size + alignment - 1u) / alignment * alignment;
    if (rounded < size) {
        return NULL;
    }
#if defined(_WIN32)
    return _aligned_malloc(rounded, alignment);
#else
    return aligned_alloc(alignment, rounded);
#endif
}

static void default_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
#if defined(_WIN32)
    _aligned_free(ptr);
#else
    free(ptr);
#endif
}

void cloth_allocator_default(cloth_allocator *out)
{
    out->alloc = default_alloc;
    out->free = default_free;
    out->user = NULL;
}

bool cloth_allocator_valid(const cloth_allocator *a)
{
    return a == NULL || ((a->alloc != NULL) == (a->free != NULL));
}

void *cloth_mem_alloc(const cloth_allocator *a, size_t size)
{
    if (size == 0) {
        size = 1;
    }
    return a->alloc(a->user, size, CLOTH_ALIGN);
}

void cloth_mem_free(const cloth_allocator *a, void *ptr, size_t size)
{
    if (ptr != NULL) {
        /* the size cloth_mem_alloc() asked the host for */
        a->free(a->user, ptr, size == 0 ? 1 : size);
    }
}

/* The accounting layer under a cloth's allocations, so that
 * cloth_get_stats() can say what the cloth holds without every room of src/
 * keeping its own tally. It counts the sizes the host's hooks are given,
 * which is also what they are given back on free. */
static void *account_alloc(void *user, size_t size, size_t alignment)
{
    cloth_mem_account *acct = user;
    void *p = acct->host.alloc(acct->host.user, size, alignment);
    if (p != NULL) {
        acct->live_bytes += size;
    }
    return p;
}

static void account_free(void *user, void *ptr, size_t size)
{
    cloth_mem_account *acct = user;
    acct->host.free(acct->host.user, ptr, size);
    acct->live_bytes -= size;
}

void cloth_mem_account_hooks(cloth_mem_account *acct, cloth_allocator *out)
{
    out->alloc = account_alloc;
    out->free = account_free;
    out->user = acct;
}
