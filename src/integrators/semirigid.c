/*
 * The semi-rigid curtain (seed 003): warp links ((r, c) to (r + 1, c)) and
 * weft links ((r, c) to (r, c + 1)) neither stretch nor compress; the cloth
 * bends and shears freely. No iterative solve: one pass per direction,
 * O(particles). Springs are not used; gravity, wind and the host's forces are.
 *
 *   predict   v' = (v + (g + w f) h) d,  x* = x + v' h
 *   weft      each row, link by link, moves the far end of a link along it to
 *             the rest length: outward from the row's pins, or from its middle
 *             when it has none
 *   warp      each column from row 0 down: (r + 1, c) is put at the rest length
 *             below (r, c), a chain of rigid links hanging from its top (the
 *             "complex pendulum")
 *   velocity  the same two passes on v': each link's relative velocity along
 *             it is removed by an impulse split by inverse mass
 *   finish    after the colliders: the warp pass again, each particle pushed
 *             out of the colliders and put back at the rest length from the
 *             one above, so warp lengths hold exactly and contacts nearly
 *
 * The warp pass comes after the weft pass because a weft pass after it would
 * undo the warp lengths. Velocities are not taken from the position change:
 * a one-directional pass moves only the far end of each link, a push nothing
 * pushes back on, and read as velocity it pumps energy into the cloth every
 * substep (measured: a swinging curtain gained 8000 times its energy in 2 s).
 * Constraining positions and velocities separately, as RATTLE does for rigid
 * molecules, keeps the swing's energy bounded.
 *
 * Pinned particles are never moved. A row pinned at both ends is placed from
 * both pins toward its middle, whose link is left free. A column whose top
 * particle is free is still a rigid chain led by it: lengths stay exact, but
 * only the weft links hold it up.
 */
#include "cloth_internal.h"

#include <string.h>

enum { X0, Y0, Z0, NX, NY, NZ, CP, DP, SEMIRIGID_ARRAYS };

static cloth_status semirigid_create(void *user, const cloth_t *cloth, void **out)
{
    (void)user;
    if (cloth->tris != NULL) {
        return CLOTH_ERR_UNSUPPORTED; /* warp and weft need a grid */
    }
    return cloth_scratch_create(cloth, SEMIRIGID_ARRAYS, out);
}

/* Where particle j goes to lie at distance `rest` from particle i along their
 * current direction, or their direction at the start of the substep when the
 * two coincide. */
static void placed(const cloth_step_view *s, float *const *a, uint32_t i, uint32_t j, float rest, float out[3])
{
    float dx = s->x[j] - s->x[i], dy = s->y[j] - s->y[i], dz = s->z[j] - s->z[i];
    float len2 = dx * dx + dy * dy + dz * dz;
    out[0] = s->x[j];
    out[1] = s->y[j];
    out[2] = s->z[j];
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
    out[0] = s->x[i] + dx * scale;
    out[1] = s->y[i] + dy * scale;
    out[2] = s->z[i] + dz * scale;
}

static void place(const cloth_step_view *s, float *const *a, uint32_t i, uint32_t j, float rest)
{
    float p[3];
    placed(s, a, i, j, rest, p);
    s->x[j] = p[0];
    s->y[j] = p[1];
    s->z[j] = p[2];
}

/* Restore a link by moving both ends, split by inverse mass. */
static void place_both(const cloth_step_view *s, uint32_t i, uint32_t j, float rest)
{
    const float wi = s->inv_mass[i], wj = s->inv_mass[j], wsum = wi + wj;
    float dx = s->x[j] - s->x[i], dy = s->y[j] - s->y[i], dz = s->z[j] - s->z[i];
    float len2 = dx * dx + dy * dy + dz * dz;
    if (!(len2 > 0.0f) || !(wsum > 0.0f)) {
        return;
    }
    float len = sqrtf(len2);
    float c = (len - rest) / (len * wsum);
    s->x[i] += wi * c * dx;
    s->y[i] += wi * c * dy;
    s->z[i] += wi * c * dz;
    s->x[j] -= wj * c * dx;
    s->y[j] -= wj * c * dy;
    s->z[j] -= wj * c * dz;
}

/* Place row[from + step], row[from + 2 step], ... `count` particles, each
 * from the one before it. */
static void sweep(const cloth_step_view *s, float *const *a, uint32_t row, uint32_t from, int32_t step,
                  uint32_t count, float rest)
{
    uint32_t i = row + from;
    for (uint32_t k = 0; k < count; ++k) {
        uint32_t j = (uint32_t)((int32_t)i + step);
        place(s, a, i, j, rest);
        i = j;
    }
}

/* A run of n free particles [start, end) held by pins on both sides: placed
 * from both pins toward its middle, mirror images of each other so that a
 * symmetric cloth stays symmetric; the middle is shared between the sweeps. */
static void weft_between_pins(const cloth_step_view *s, float *const *a, uint32_t row, uint32_t start,
                              uint32_t end, float rest)
{
    const uint32_t n = end - start, half = n / 2u;
    sweep(s, a, row, start - 1u, 1, half, rest);
    sweep(s, a, row, end, -1, half, rest);
    if (n % 2u == 0u) {
        place_both(s, row + start + half - 1u, row + start + half, rest);
    } else {
        const uint32_t m = row + start + half;
        float from_left[3], from_right[3];
        placed(s, a, m - 1u, m, rest, from_left);
        placed(s, a, m + 1u, m, rest, from_right);
        s->x[m] = 0.5f * (from_left[0] + from_right[0]);
        s->y[m] = 0.5f * (from_left[1] + from_right[1]);
        s->z[m] = 0.5f * (from_left[2] + from_right[2]);
    }
}

/* Weft positions of one row: outward from its pins, or from its middle when
 * it has none, in mirror-symmetric sweeps. */
static void weft_row(const cloth_t *cloth, const cloth_step_view *s, float *const *a, uint32_t r)
{
    const uint32_t cols = cloth->cols, row = r * cols;
    const float rest = cloth->family_rest[0]; /* (0, 1) */
    bool any_pin = false;
    for (uint32_t c = 0; c < cols && !any_pin; ++c) {
        any_pin = s->inv_mass[row + c] == 0.0f;
    }
    if (!any_pin) {
        const uint32_t right = cols / 2u, left = (cols - 1u) / 2u; /* equal for odd cols */
        if (left != right) {
            place_both(s, row + left, row + right, rest);
        }
        sweep(s, a, row, right, 1, cols - 1u - right, rest);
        sweep(s, a, row, left, -1, left, rest);
        return;
    }
    for (uint32_t c = 0; c < cols;) {
        if (s->inv_mass[row + c] == 0.0f) {
            ++c;
            continue;
        }
        const uint32_t start = c; /* a run of free particles [start, end) */
        while (c < cols && s->inv_mass[row + c] != 0.0f) {
            ++c;
        }
        const uint32_t end = c;
        if (start > 0u && end < cols) {
            weft_between_pins(s, a, row, start, end, rest);
        } else if (start > 0u) {
            sweep(s, a, row, start - 1u, 1, end - start, rest);
        } else {
            sweep(s, a, row, end, -1, end - start, rest);
        }
    }
}

/* Warp positions, row by row rather than column by column: each row depends
 * only on the one above, and walking rows keeps memory access contiguous. */
static void warp_positions(const cloth_t *cloth, const cloth_step_view *s, float *const *a)
{
    const uint32_t cols = cloth->cols;
    const float rest = cloth->family_rest[1]; /* (1, 0) */
    for (uint32_t i = 0; i + cols < s->count; ++i) {
        const uint32_t j = i + cols;
        if (s->inv_mass[j] != 0.0f) {
            place(s, a, i, j, rest);
        }
    }
}

/* The velocity half of a chain of rigid links (a row or a column), solved
 * exactly: impulses l_k along each link n_k (between chain particles k - 1 and
 * k) such that no link's ends approach or separate afterwards,
 *   -w_{k-1} (n_{k-1}.n_k) l_{k-1} + (w_{k-1} + w_k) l_k - w_k (n_{k+1}.n_k) l_{k+1}
 *     = (v_k - v_{k-1}).n_k,
 * a tridiagonal system (J W J^T) solved by elimination along the chain and
 * substitution back: O(length), no iteration. Pins (w = 0) split the chain by
 * themselves. Being a projection in the mass metric it never adds kinetic
 * energy, and it leaves no velocity pushing against the links, which a sweep
 * of pairwise impulses does: a hanging curtain then keeps moving where its
 * positions cannot. */
static void solve_chain(const cloth_step_view *s, float *const *a, uint32_t first, uint32_t stride,
                        uint32_t length)
{
    float *nx = a[NX], *ny = a[NY], *nz = a[NZ], *cp = a[CP], *dp = a[DP];
    /* unit directions, stored at the far particle of each link */
    for (uint32_t r = 1; r < length; ++r) {
        const uint32_t k = first + r * stride, p = k - stride;
        float dx = s->x[k] - s->x[p], dy = s->y[k] - s->y[p], dz = s->z[k] - s->z[p];
        float len2 = dx * dx + dy * dy + dz * dz;
        float inv = len2 > 0.0f ? 1.0f / sqrtf(len2) : 0.0f;
        nx[k] = dx * inv;
        ny[k] = dy * inv;
        nz[k] = dz * inv;
    }
    for (uint32_t r = 1; r < length; ++r) {
        const uint32_t k = first + r * stride, p = k - stride;
        const float wk = s->inv_mass[k], wp = s->inv_mass[p];
        float diag = wp + wk;
        float rhs = (s->vx[k] - s->vx[p]) * nx[k] + (s->vy[k] - s->vy[p]) * ny[k] + (s->vz[k] - s->vz[p]) * nz[k];
        float upper = 0.0f;
        if (r + 1u < length) {
            const uint32_t q = k + stride;
            upper = -wk * (nx[q] * nx[k] + ny[q] * ny[k] + nz[q] * nz[k]);
        }
        if (r > 1u) {
            const float lower = -wp * (nx[p] * nx[k] + ny[p] * ny[k] + nz[p] * nz[k]);
            diag -= lower * cp[p];
            rhs -= lower * dp[p];
        }
        if (!(diag > 1e-12f * (wp + wk)) || !(wp + wk > 0.0f)) {
            cp[k] = 0.0f; /* both ends pinned, or a degenerate link: no impulse */
            dp[k] = 0.0f;
            continue;
        }
        cp[k] = upper / diag;
        dp[k] = rhs / diag;
    }
    float next = 0.0f;
    for (uint32_t r = length - 1u; r >= 1u; --r) {
        const uint32_t k = first + r * stride, p = k - stride;
        const float lambda = dp[k] - cp[k] * next;
        const float wk = s->inv_mass[k], wp = s->inv_mass[p];
        s->vx[k] -= wk * lambda * nx[k];
        s->vy[k] -= wk * lambda * ny[k];
        s->vz[k] -= wk * lambda * nz[k];
        s->vx[p] += wp * lambda * nx[k];
        s->vy[p] += wp * lambda * ny[k];
        s->vz[p] += wp * lambda * nz[k];
        next = lambda;
    }
}

/* Rows, then columns: each exact on its own, but a column's impulses disturb
 * the rows it crosses. Alternating a few times brings the two close enough
 * (measured on a 16 x 15 cloth hanging from two corners: the velocity left
 * pushing against the links falls from 7.8 m/s after one round to 0.22 m/s
 * after four); a curtain hanging from its top row needs only the first. */
enum { VELOCITY_ROUNDS = 4 };

static void project_velocities(const cloth_t *cloth, const cloth_step_view *s, float *const *a)
{
    for (int round = 0; round < VELOCITY_ROUNDS; ++round) {
        for (uint32_t r = 0; r < cloth->rows; ++r) {
            solve_chain(s, a, r * cloth->cols, 1u, cloth->cols);
        }
        for (uint32_t c = 0; c < cloth->cols; ++c) {
            solve_chain(s, a, c, cloth->cols, cloth->rows);
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
        s->vx[i] = (s->vx[i] + (gx * m + w * s->fx[i]) * h) * d;
        s->vy[i] = (s->vy[i] + (gy * m + w * s->fy[i]) * h) * d;
        s->vz[i] = (s->vz[i] + (gz * m + w * s->fz[i]) * h) * d;
    }
    /* velocities first, against the links as they are, then positions */
    project_velocities(cloth, s, a);
    for (uint32_t i = 0; i < s->count; ++i) {
        s->x[i] += s->vx[i] * h;
        s->y[i] += s->vy[i] * h;
        s->z[i] += s->vz[i] * h;
    }
    for (uint32_t r = 0; r < cloth->rows; ++r) {
        weft_row(cloth, s, a, r);
    }
    warp_positions(cloth, s, a);
    return CLOTH_OK;
}

/* After the colliders: the warp chain again, each particle's contacts
 * resolved inside it, alternating a few times between contact and length;
 * the last word is the length. */
static cloth_status semirigid_finish(void *user, void *state, const cloth_step_view *s)
{
    (void)user;
    float *const *a = ((cloth_scratch *)state)->a;
    const uint32_t cols = s->cloth->cols;
    const float rest = s->cloth->family_rest[1];
    for (uint32_t c = 0; c < cols; ++c) {
        s->collide_particle(s->collide_ctx, c);
    }
    for (uint32_t i = 0; i + cols < s->count; ++i) {
        const uint32_t j = i + cols;
        if (s->inv_mass[j] == 0.0f) {
            continue;
        }
        place(s, a, i, j, rest);
        for (int round = 0; round < 3; ++round) {
            s->collide_particle(s->collide_ctx, j);
            place(s, a, i, j, rest);
        }
    }
    return CLOTH_OK;
}

const cloth_integrator_vtable cloth_integrator_semirigid = {
    "semirigid", 0u, semirigid_create, cloth_scratch_destroy, semirigid_step, semirigid_finish};
