/* The kernels at 8 lanes, AVX2: this file is compiled with -mavx2 (CMakeLists.txt). */
#define CLOTH_WIDE 8
#include "kernels/wide.inl"
