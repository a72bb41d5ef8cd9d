/* The kernels at 4 lanes: SSE2 on x86-64, NEON on AArch64 (kernels/wide.inl);
 * nothing on other CPUs, where the level does not exist. */
#if defined(__SSE2__) || defined(__aarch64__)
#define CLOTH_WIDE 4
#include "kernels/wide.inl"
#else
typedef int cloth_no_wide4; /* ISO C wants something in a unit */
#endif
