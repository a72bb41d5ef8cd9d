/*
 * The grid builder: validates a grid desc, allocates the particle arrays and
 * places the particles. A grid's springs are implied by its shape (see
 * springs.c), so nothing but rest lengths is stored for them.
 */
#include "cloth_internal.h"
#include "builders.h"
#include "springs.h"

#include <float.h>
#include <string.h>

static void cross(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/*
 * Why rest lengths lie in [CLOTH_REST_MIN, CLOTH_REST_MAX] (cloth_internal.h;
 * documented in types.h and mesh.h). The solvers square lengths in float
 * (|d|^2; XPBD's ((1 + gamma)(wi + wj) + alpha / h^2) |d|^2) and work with
 * strains (|d| - L) / L:
 *  - at least 1e-15 m: the smallest strain a float resolves, 2^-23, times
 *    L^2 must stay a normal float (>= FLT_MIN, 1.2e-38), so L >= 3.2e-16 m;
 *  - at most 1e16 m: L^2 = 1e32 leaves a factor of 3e6 below FLT_MAX for a
 *    spring to stretch (to 1800 times its length) and for the solvers'
 *    coefficients.
 * A scaled cloth steps the same at every spacing in between.
 */

/* The rest length cloth_springs_rest() (springs.c) gives family `fam`,
 * computed the same way: float offsets, the length in double, stored as a
 * float. */
static double family_rest(const cloth_grid_family *fam, const float u[3], const float v[3], float spacing)
{
    const float dc = (float)fam->dc, dr = (float)fam->dr;
    double d[3];
    for (int k = 0; k < 3; ++k) {
        d[k] = (double)((dc * u[k] + dr * v[k]) * spacing);
    }
    return (double)(float)sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* Every family that has springs in this grid (the wide ones only with 24
 * neighbours, none whose offset does not fit in the grid) has a rest length
 * within [CLOTH_REST_MIN, CLOTH_REST_MAX]. Nearly parallel axes make the (1, -1) shear
 * short and the bends up to 4 spacings long, so each family is checked. */
static bool rest_lengths_ok(const cloth_grid_desc *d, const float u[3], const float v[3])
{
    for (int f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
        const cloth_grid_family *fam = &cloth_grid_families[f];
        const uint32_t adc = (uint32_t)(fam->dc < 0 ? -fam->dc : fam->dc);
        if ((fam->wide && d->neighbours != 24u) || (uint32_t)fam->dr >= d->rows || adc >= d->cols) {
            continue;
        }
        const double rest = family_rest(fam, u, v, d->spacing);
        if (!(rest >= CLOTH_REST_MIN && rest <= CLOTH_REST_MAX)) {
            return false;
        }
    }
    return true;
}

/* Particle (r, c) is placed at origin + c spacing u + r spacing v, affine in
 * (r, c), so the four corners bound every particle; in double each must lie
 * in the float range. The u and v offsets add: the grid's extent along one
 * axis says nothing. Within the rest-length bounds an offset is at most
 * 2^26 x 1e16 m, far below half a float ulp at FLT_MAX (1e31 m), so the
 * float placement of cloth_build_grid() stays finite too. */
static bool corners_ok(const cloth_grid_desc *d, const float u[3], const float v[3])
{
    const double along_u = (double)(d->cols - 1u) * (double)d->spacing;
    const double along_v = (double)(d->rows - 1u) * (double)d->spacing;
    for (int corner = 0; corner < 4; ++corner) {
        const double a = (corner & 1) != 0 ? along_u : 0.0, b = (corner & 2) != 0 ? along_v : 0.0;
        for (int k = 0; k < 3; ++k) {
            const double x = (double)d->origin[k] + a * (double)u[k] + b * (double)v[k];
            if (!(fabs(x) <= (double)FLT_MAX)) {
                return false;
            }
        }
    }
    return true;
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
    if (!rest_lengths_ok(d, u, v) || !corners_ok(d, u, v)) {
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
