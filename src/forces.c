/*
 * Per-substep forces that do not come from springs: the accumulators are
 * cleared here, then the host's hooks would add to them. Gravity is an
 * acceleration and is added by the integrators directly.
 */
#include "cloth_internal.h"

#include <string.h>

void cloth_forces_begin(cloth_t *cloth)
{
    size_t bytes = (size_t)cloth->count * sizeof(float);
    memset(cloth->p.fx, 0, bytes);
    memset(cloth->p.fy, 0, bytes);
    memset(cloth->p.fz, 0, bytes);
}

cloth_status cloth_set_wind(cloth_t *cloth, cloth_wind_fn fn, void *user)
{
    if (cloth == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (fn != NULL) {
        return CLOTH_ERR_UNSUPPORTED; /* aerodynamics arrive with the collider/wind work */
    }
    cloth->wind_fn = NULL;
    cloth->wind_user = user;
    return CLOTH_OK;
}
