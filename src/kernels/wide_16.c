/* The kernels at 16 lanes, AVX-512 F, VL, DQ, BW: compiled with those flags (CMakeLists.txt). */
#define CLOTH_WIDE 16
#include "kernels/wide.inl"
