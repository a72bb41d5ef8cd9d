/*
 * The grid builder: validates a grid desc, allocates the particle arrays and
 * places the particles. A grid's springs are implied by its shape (see
 * springs.c), so nothing but rest lengths is stored for them.
 */
#include "cloth_internal.h"

#include <string.h>

static void cross(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static cloth_status validate(const cloth_grid_desc *d, float u[3], float v[3])
{
    if (d->neighbours != 12u && d->neighbours != 24u) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (d->rows == 0u || d->cols == 0u) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    uint64_t n = (uint64_t)d->rows * d->cols;
    if (n < 2u || n > CLOTH_MAX_PARTICLES) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (!(d->spacing > 0.0f) || !isfinite(d->spacing)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (!cloth_mass_ok(d->particle_mass)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (!cloth_finite3(d->origin) || !cloth_normalise3(d->u_axis, u) || !cloth_normalise3(d->v_axis, v)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    float n_uv[3];
    cross(v, u, n_uv);
    float sin2 = n_uv[0] * n_uv[0] + n_uv[1] * n_uv[1] + n_uv[2] * n_uv[2];
    if (!(sin2 > 1e-8f)) { /* parallel axes: the grid would collapse to a line */
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    /* Far-away particles must still have finite coordinates, and the longest
     * stencil spring, (2, 2) at most 4 spacings, a finite rest length. */
    if (!isfinite(4.0f * d->spacing)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    float extent = d->spacing * (float)(d->rows > d->cols ? d->rows : d->cols);
    if (!isfinite(extent) || !isfinite(extent + fabsf(d->origin[0]) + fabsf(d->origin[1]) + fabsf(d->origin[2]))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    return CLOTH_OK;
}

cloth_status cloth_build_grid(cloth_t *cloth, const cloth_grid_desc *d)
{
    float u[3], v[3];
    cloth_status s = validate(d, u, v);
    if (s != CLOTH_OK) {
        return s;
    }
    uint32_t count = d->rows * d->cols;
    s = cloth_alloc_particles(cloth, count);
    if (s != CLOTH_OK) {
        return s;
    }
    cloth->family_count = d->neighbours == 24u ? 12u : 6u;
    cloth->rows = d->rows;
    cloth->cols = d->cols;
    cloth_springs_rest(cloth, u, v, d->spacing);

    float nrm[3];
    cross(v, u, nrm);
    (void)cloth_normalise3(nrm, cloth->fallback_normal); /* cannot fail: axes checked */

    float w = 1.0f / d->particle_mass;
    for (uint32_t r = 0; r < d->rows; ++r) {
        float fr = (float)r * d->spacing;
        for (uint32_t c = 0; c < d->cols; ++c) {
            float fc = (float)c * d->spacing;
            uint32_t i = r * d->cols + c;
            cloth->p.x[i] = d->origin[0] + fc * u[0] + fr * v[0];
            cloth->p.y[i] = d->origin[1] + fc * u[1] + fr * v[1];
            cloth->p.z[i] = d->origin[2] + fc * u[2] + fr * v[2];
            cloth->p.w[i] = w;
        }
    }
    return CLOTH_OK;
}
