/* The table of built-in integrators. */
#include "cloth_internal.h"

const cloth_integrator_ops *cloth_integrator_lookup(cloth_integrator kind)
{
    switch (kind) {
    case CLOTH_INTEGRATOR_EXPLICIT_EULER:
        return &cloth_integrator_euler;
    case CLOTH_INTEGRATOR_TRAPEZOID:
        return &cloth_integrator_trapezoid;
    case CLOTH_INTEGRATOR_VERLET:
        return &cloth_integrator_verlet;
    default:
        return NULL;
    }
}
