/*
 * The semi-rigid curtain (seed 003): warp links ((r, c) to (r + 1, c)) and
 * weft links ((r, c) to (r, c + 1)) neither stretch nor compress; the cloth
 * only bends. No iterative solve: one pass per direction, O(particles).
 *
 *   predict   v' = (v + (g + w f) h) d,  x* = x + v' h  (f: springs, wind, hooks)
 *   weft      each row from its middle outward: the outer end of every link is
 *             moved along the link to the rest length (both ends of a row free)
 *   warp      each column from row 0 down: (r + 1, c) is moved along the link
 *             to the rest length from (r, c), a chain of rigid links hanging
 *             from its top (the "complex pendulum")
 *   velocity  v = (x - x_start) / h
 *   finish    after the colliders: the warp pass again, each particle pushed
 *             out of the colliders and put back at the rest length from the
 *             one above, so warp lengths hold exactly and contacts nearly
 *
 * The warp pass comes last because a weft pass after it would undo the warp
 * lengths. Pinned particles are never moved; a link whose lower end is pinned
 * keeps whatever length the pins give it. A column whose top particle is not
 * pinned is still a rigid chain led by that particle: its lengths are exact
 * but nothing holds it up.
 */
#include "cloth_internal.h"

#include <string.h>

enum { X0, Y0, Z0, SEMIRIGID_ARRAYS };

static cloth_status semirigid_create(void *user, const cloth_t *cloth, void **out)
{
    (void)user;
    if (cloth->tris != NULL) {
        return CLOTH_ERR_UNSUPPORTED; /* warp and weft need a grid */
    }
    return cloth_scratch_create(cloth, SEMIRIGID_ARRAYS, out);
}

/* Put particle j at distance `rest` from particle i along their current
 * direction, or along their direction at the start of the substep when the
 * two coincide. */
static void place(const cloth_step_view *s, float *const *a, uint32_t i, uint32_t j, float rest)
{
    float dx = s->x[j] - s->x[i], dy = s->y[j] - s->y[i], dz = s->z[j] - s->z[i];
    float len2 = dx * dx + dy * dy + dz * dz;
    if (!(len2 > 0.0f)) {
        dx = a[X0][j] - a[X0][i];
        dy = a[Y0][j] - a[Y0][i];
        dz = a[Z0][j] - a[Z0][i];
        len2 = dx * dx + dy * dy + dz * dz;
        if (!(len2 > 0.0f)) {
            return;
        }
    }
    float scale = rest / sqrtf(len2);
    s->x[j] = s->x[i] + dx * scale;
    s->y[j] = s->y[i] + dy * scale;
    s->z[j] = s->z[i] + dz * scale;
}

static void weft_pass(const cloth_t *cloth, const cloth_step_view *s, float *const *a)
{
    const uint32_t cols = cloth->cols, mid = cols / 2u;
    const float rest = cloth->family_rest[0]; /* (0, 1) */
    for (uint32_t r = 0; r < cloth->rows; ++r) {
        const uint32_t row = r * cols;
        for (uint32_t c = mid; c + 1u < cols; ++c) {
            if (s->inv_mass[row + c + 1u] > 0.0f) {
                place(s, a, row + c, row + c + 1u, rest);
            }
        }
        for (uint32_t c = mid; c > 0u; --c) {
            if (s->inv_mass[row + c - 1u] > 0.0f) {
                place(s, a, row + c, row + c - 1u, rest);
            }
        }
    }
}

/* Row by row rather than column by column: each row depends only on the one
 * above, and walking rows keeps the memory access contiguous. */
static void warp_pass(const cloth_t *cloth, const cloth_step_view *s, float *const *a, bool collide)
{
    const uint32_t cols = cloth->cols;
    const float rest = cloth->family_rest[1]; /* (1, 0) */
    if (collide) {
        for (uint32_t c = 0; c < cols; ++c) {
            if (s->inv_mass[c] > 0.0f) {
                s->collide_particle(s->collide_ctx, c);
            }
        }
    }
    for (uint32_t r = 0; r + 1u < cloth->rows; ++r) {
        for (uint32_t c = 0; c < cols; ++c) {
            const uint32_t i = r * cols + c, j = i + cols;
            if (s->inv_mass[j] == 0.0f) {
                continue;
            }
            place(s, a, i, j, rest);
            if (collide) {
                /* alternate between the contact and the link length a few
                 * times; the last word is the length */
                for (int round = 0; round < 3; ++round) {
                    s->collide_particle(s->collide_ctx, j);
                    place(s, a, i, j, rest);
                }
            }
        }
    }
}

static cloth_status semirigid_step(void *user, void *state, const cloth_step_view *s)
{
    (void)user;
    float *const *a = ((cloth_scratch *)state)->a;
    const cloth_t *cloth = s->cloth;
    const float h = s->h, d = s->velocity_decay;
    const float gx = s->gravity[0], gy = s->gravity[1], gz = s->gravity[2];
    const size_t bytes = (size_t)s->count * sizeof(float);

    memcpy(a[X0], s->x, bytes);
    memcpy(a[Y0], s->y, bytes);
    memcpy(a[Z0], s->z, bytes);
    for (uint32_t i = 0; i < s->count; ++i) {
        const float w = s->inv_mass[i], m = cloth_gravity_mask(w);
        s->x[i] += (s->vx[i] + (gx * m + w * s->fx[i]) * h) * d * h;
        s->y[i] += (s->vy[i] + (gy * m + w * s->fy[i]) * h) * d * h;
        s->z[i] += (s->vz[i] + (gz * m + w * s->fz[i]) * h) * d * h;
    }
    weft_pass(cloth, s, a);
    warp_pass(cloth, s, a, false);
    const float inv_h = 1.0f / h;
    for (uint32_t i = 0; i < s->count; ++i) {
        s->vx[i] = (s->x[i] - a[X0][i]) * inv_h;
        s->vy[i] = (s->y[i] - a[Y0][i]) * inv_h;
        s->vz[i] = (s->z[i] - a[Z0][i]) * inv_h;
    }
    return CLOTH_OK;
}

static cloth_status semirigid_finish(void *user, void *state, const cloth_step_view *s)
{
    (void)user;
    warp_pass(s->cloth, s, ((cloth_scratch *)state)->a, true);
    return CLOTH_OK;
}

const cloth_integrator_vtable cloth_integrator_semirigid = {
    "semirigid", CLOTH_INTEGRATOR_WANTS_SPRING_FORCES, semirigid_create, cloth_scratch_destroy, semirigid_step,
    semirigid_finish};
