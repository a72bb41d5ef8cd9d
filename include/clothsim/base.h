/*
 * clothsim: base definitions shared by every public header.
 *
 * The export macro, the version (the single source of truth: CMake reads the
 * three numbers below out of this file) and the allocator hooks.
 */
#ifndef CLOTHSIM_BASE_H
#define CLOTHSIM_BASE_H

#include <stddef.h>
#include <stdint.h>

/**
 * @defgroup base Base: export macro, version, allocator
 * @brief What every other header builds on.
 *
 * ABI rule: two releases with the same major version are ABI compatible. A
 * program built against headers of version M.n runs with any library M.m where
 * m >= n.
 * @{
 */

/** Major version: changes when the ABI or the API breaks. */
#define CLOTHSIM_VERSION_MAJOR 0
/** Minor version: changes when functions or trailing desc fields are added. */
#define CLOTHSIM_VERSION_MINOR 3
/** Patch version: changes for fixes that add nothing. */
#define CLOTHSIM_VERSION_PATCH 0

/** The version as one number, `major * 10000 + minor * 100 + patch`. */
#define CLOTHSIM_VERSION_NUMBER \
    (CLOTHSIM_VERSION_MAJOR * 10000 + CLOTHSIM_VERSION_MINOR * 100 + CLOTHSIM_VERSION_PATCH)

/** @cond CLOTHSIM_INTERNAL */
#if defined(CLOTHSIM_STATIC)
#  define CLOTH_API
#elif defined(_WIN32)
#  if defined(CLOTHSIM_BUILDING)
#    define CLOTH_API __declspec(dllexport)
#  else
#    define CLOTH_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define CLOTH_API __attribute__((visibility("default")))
#else
#  define CLOTH_API
#endif
/** @endcond */

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The library's version as `major * 10000 + minor * 100 + patch`, as built.
 * Compare it with ::CLOTHSIM_VERSION_NUMBER to detect a header/library mismatch.
 */
CLOTH_API uint32_t cloth_version(void);

/**
 * Memory hooks of the host. Every allocation the library makes goes through
 * them; give both functions or neither (a desc whose allocator has only one is
 * refused with ::CLOTH_ERR_INVALID_ARGUMENT).
 *
 * `alloc` returns `size` bytes aligned to `alignment` (a power of two, at most
 * 64) or NULL on failure, which the library reports as ::CLOTH_ERR_OUT_OF_MEMORY.
 * `free` receives the pointer and the size that was asked for; it is never
 * called with NULL. Both are called only from the thread that calls into the
 * cloth.
 */
typedef struct cloth_allocator {
    void *(*alloc)(void *user, size_t size, size_t alignment); /**< allocate `size` bytes aligned to `alignment`, or return NULL */
    void (*free)(void *user, void *ptr, size_t size);          /**< release a block `alloc` returned, with its size */
    void *user; /**< passed back to both hooks unchanged */
} cloth_allocator;

#ifdef __cplusplus
}
#endif

/** @} */

#endif /* CLOTHSIM_BASE_H */
