/* The kernels in plain C, one lane (kernels/wide.inl). */
#define CLOTH_WIDE 1
#include "kernels/wide.inl"
