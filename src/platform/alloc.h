/*
 * Every allocation of the library goes through here (alloc.c), so that the
 * host's hooks see all of it and arrays come back aligned for SIMD. A leaf:
 * it includes only the public allocator type.
 */
#ifndef CLOTHSIM_PLATFORM_ALLOC_H
#define CLOTHSIM_PLATFORM_ALLOC_H

#include <clothsim/base.h>

#include <stdbool.h>
#include <stddef.h>

/* Arrays of particle data start on this boundary so that SIMD loads of 8
 * floats never straddle it. */
#define CLOTH_ALIGN 32u

/* The host's hooks and the bytes the cloth holds through them. */
typedef struct cloth_mem_account {
    cloth_allocator host;
    size_t live_bytes;
} cloth_mem_account;

/* CLOTH_ALIGN-aligned `size` bytes (1 for 0) from `a`, or NULL. */
void *cloth_mem_alloc(const cloth_allocator *a, size_t size);
/* Give back what cloth_mem_alloc(a, size) returned; NULL is ignored. */
void cloth_mem_free(const cloth_allocator *a, void *ptr, size_t size);
/* NULL (the default), or both hooks set. */
bool cloth_allocator_valid(const cloth_allocator *a);
void cloth_allocator_default(cloth_allocator *out);
/* Make `out` an allocator that forwards to acct->host and keeps
 * acct->live_bytes: the bytes requested and not yet freed. */
void cloth_mem_account_hooks(cloth_mem_account *acct, cloth_allocator *out);

#endif /* CLOTHSIM_PLATFORM_ALLOC_H */
