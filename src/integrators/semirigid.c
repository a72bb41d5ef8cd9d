/*
 * The semi-rigid curtain (seed 003): warp links ((r, c) to (r + 1, c)) and
 * weft links ((r, c) to (r, c + 1)) neither stretch nor compress; the cloth
 * bends and shears freely. Positions: no iterative solve, one pass per
 * direction, O(particles). Velocities: a few conjugate gradient iterations
 * over all links (see project_velocities). Springs are not used; gravity,
 * wind and the host's forces are.
 *
 *   predict   v' = (v + (g + w f) h) d
 *   velocity  v' loses its part that stretches or compresses any link, warp
 *             and weft together: x* = x + v' h
 *   weft      each row, link by link, moves the far end of a link along it to
 *             the rest length: outward from the row's pins, or from its middle
 *             when it has none
 *   warp      each column from row 0 down: (r + 1, c) is put at the rest length
 *             below (r, c), a chain of rigid links hanging from its top (the
 *             "complex pendulum")
 *   finish    after the colliders: the warp pass again, each particle that
 *             touches a collider put where it is both outside it and at the
 *             rest length from the one above (on the circle where the sphere
 *             of the link meets the contact's tangent plane), so warp lengths
 *             and contacts both hold; where they cannot (a pin inside a
 *             collider), contact wins
 *
 * The warp pass comes after the weft pass because a weft pass after it would
 * undo the warp lengths. Velocities are not taken from the position change:
 * a one-directional pass moves only the far end of each link, a push nothing
 * pushes back on, and read as velocity it pumps energy into the cloth every
 * substep (a swinging curtain's energy grew without bound).
 * Constraining positions and velocities separately, as RATTLE does for rigid
 * molecules, keeps the swing's energy bounded.
 *
 * Pinned particles are never moved. A row pinned at both ends is placed from
 * both pins toward its middle, whose link is left free. A column whose top
 * particle is free is still a rigid chain led by it: lengths stay exact, but
 * only the weft links hold it up.
 */
#include "cloth_internal.h"
#include "integrators/integrators.h"

#include <float.h>
#include <string.h>

/* Scratch arrays, one float per particle. A link is stored at its far
 * particle: weft link (r, c - 1)-(r, c) at (r, c), warp link (r - 1, c)-(r, c)
 * at (r, c); column 0 and row 0 hold no link of that family. */
enum {
    X0, Y0, Z0,                 /* positions at the start of the substep */
    UX, UY, UZ,                 /* W J^T of a vector of link impulses */
    F_NX = 6, F_NY, F_NZ,       /* per family from here: unit link directions */
    F_LAM,                      /* impulse, kg m/s */
    F_R, F_Z, F_P, F_Q,         /* conjugate gradient: residual, preconditioned, direction, A p */
    F_LO, F_CP, F_G,            /* the family's chains, factored: sub-diagonal, elimination factor, pivot */
    F_ARRAYS = F_G - F_NX + 1,
    SEMIRIGID_ARRAYS = F_NX + 2 * F_ARRAYS
};
enum { WEFT = 0, WARP = 1 };

_Static_assert(SEMIRIGID_ARRAYS <= CLOTH_SCRATCH_MAX, "semi-rigid's arrays must fit cloth_scratch");

/* Array `which` (F_NX ... F_G) of link family `f`. */
static inline float *fam(float *const *a, int f, int which)
{
    return a[which + f * F_ARRAYS];
}

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

/*
 * The velocity half: impulses lambda along every warp and weft link at once,
 * so that afterwards no link's ends approach or separate:
 *   (J W J^T) lambda = J v,   v -= W J^T lambda,
 * J the links' unit directions, W the inverse masses. A projection in the
 * mass metric: it never adds kinetic energy and leaves none pushing against
 * the links. Solving each row and each column exactly but one after another
 * (which this replaced, alternated four times) does not converge on a cloth
 * coupled in two directions: hung from two corners, the part it left pushing
 * against the links was then cut off by the position passes without the
 * velocities knowing, and the swing grew (docs/performance.md, figures
 * behind the code).
 *
 * Conjugate gradients on the whole system, preconditioned by its two
 * block-diagonal halves, every row's weft chain and every column's warp chain
 * (tridiagonal, factored once per substep, the exact chain solves of before).
 * The halves couple only through n_weft . n_warp at shared particles, zero
 * for an undistorted grid, so few iterations are needed (see CG_TOLERANCE).
 * Each substep starts from lambda = 0: a warm start from the last substep's
 * would be state that cloth_save_state() does not hold, and a run replayed
 * from a snapshot must be bitwise the one it was saved from.
 *
 * Not done: feeding the length error back into this solve (Baumgarte). The
 * top row hung between two pins is a straight chain at full length, whose
 * perpendicular motion is free to first order; correcting its small length
 * errors through velocities turned into a jitter of 1-2 m/s that never damped.
 */

static void link_offsets(const cloth_t *cloth, uint32_t off[2])
{
    off[WEFT] = 1u;
    off[WARP] = cloth->cols;
}

static bool link_exists(const cloth_t *cloth, int f, uint32_t k)
{
    return f == WEFT ? k % cloth->cols != 0u : k >= cloth->cols;
}

/* Directions, right-hand sides and the chains' factorisation. */
static void links_setup(const cloth_t *cloth, const cloth_step_view *s, float *const *a)
{
    uint32_t off[2];
    link_offsets(cloth, off);
    for (int f = 0; f < 2; ++f) {
        float *nx = fam(a, f, F_NX), *ny = fam(a, f, F_NY), *nz = fam(a, f, F_NZ);
        float *b = fam(a, f, F_R), *lo = fam(a, f, F_LO), *cp = fam(a, f, F_CP), *g = fam(a, f, F_G);
        for (uint32_t k = 0; k < s->count; ++k) {
            nx[k] = ny[k] = nz[k] = b[k] = 0.0f;
            if (!link_exists(cloth, f, k)) {
                continue;
            }
            const uint32_t p = k - off[f];
            float dx = s->x[k] - s->x[p], dy = s->y[k] - s->y[p], dz = s->z[k] - s->z[p];
            float len = sqrtf(dx * dx + dy * dy + dz * dz);
            if (!(len > 0.0f)) {
                continue; /* coincident ends: no direction, no impulse */
            }
            nx[k] = dx / len;
            ny[k] = dy / len;
            nz[k] = dz / len;
            b[k] = (s->vx[k] - s->vx[p]) * nx[k] + (s->vy[k] - s->vy[p]) * ny[k] + (s->vz[k] - s->vz[p]) * nz[k];
        }
        /* Thomas elimination along each chain: link k's neighbours in its
         * chain are k -/+ off, coupled through their shared particle */
        for (uint32_t k = 0; k < s->count; ++k) {
            lo[k] = cp[k] = g[k] = 0.0f;
            if (!link_exists(cloth, f, k)) {
                continue;
            }
            const uint32_t p = k - off[f], q = k + off[f];
            const float wk = s->inv_mass[k], wp = s->inv_mass[p];
            float diag = wk + wp;
            if (link_exists(cloth, f, p)) {
                lo[k] = -wp * (nx[p] * nx[k] + ny[p] * ny[k] + nz[p] * nz[k]);
                diag -= lo[k] * cp[p];
            }
            const bool no_direction = nx[k] == 0.0f && ny[k] == 0.0f && nz[k] == 0.0f;
            if (!(diag > 1e-12f * (wk + wp)) || !(wk + wp > 0.0f) || no_direction) {
                lo[k] = 0.0f; /* both ends pinned, or a degenerate link: left out */
                continue;
            }
            g[k] = 1.0f / diag;
            if (q < s->count && link_exists(cloth, f, q)) {
                cp[k] = -wk * (nx[q] * nx[k] + ny[q] * ny[k] + nz[q] * nz[k]) * g[k];
            }
        }
    }
}

/* z = M^-1 r, M the two families' chains on their own. */
static void precondition(const cloth_t *cloth, const cloth_step_view *s, float *const *a)
{
    uint32_t off[2];
    link_offsets(cloth, off);
    for (int f = 0; f < 2; ++f) {
        const float *r = fam(a, f, F_R), *lo = fam(a, f, F_LO), *cp = fam(a, f, F_CP), *g = fam(a, f, F_G);
        float *z = fam(a, f, F_Z);
        const uint32_t o = off[f];
        for (uint32_t k = 0; k < s->count; ++k) {
            /* lo is 0 for a chain's first link, so the previous entry read is harmless */
            z[k] = (r[k] - (k >= o ? lo[k] * z[k - o] : 0.0f)) * g[k];
        }
        for (uint32_t k = s->count; k-- > 0u;) {
            if (k + o < s->count) {
                z[k] -= cp[k] * z[k + o]; /* cp is 0 for a chain's last link */
            }
        }
    }
}

/* U = W J^T x for the link impulses in array `which` of both families. */
static void spread(const cloth_t *cloth, const cloth_step_view *s, float *const *a, int which)
{
    uint32_t off[2];
    link_offsets(cloth, off);
    float *ux = a[UX], *uy = a[UY], *uz = a[UZ];
    memset(ux, 0, (size_t)s->count * sizeof(float));
    memset(uy, 0, (size_t)s->count * sizeof(float));
    memset(uz, 0, (size_t)s->count * sizeof(float));
    for (int f = 0; f < 2; ++f) {
        const float *nx = fam(a, f, F_NX), *ny = fam(a, f, F_NY), *nz = fam(a, f, F_NZ), *x = fam(a, f, which);
        for (uint32_t k = off[f]; k < s->count; ++k) {
            const uint32_t p = k - off[f];
            const float wk = s->inv_mass[k] * x[k], wp = s->inv_mass[p] * x[k];
            ux[k] += wk * nx[k];
            uy[k] += wk * ny[k];
            uz[k] += wk * nz[k];
            ux[p] -= wp * nx[k];
            uy[p] -= wp * ny[k];
            uz[p] -= wp * nz[k];
        }
    }
}

/* out = J U, the links' rates of stretch under the velocities U. */
static void gather(const cloth_t *cloth, const cloth_step_view *s, float *const *a, int out)
{
    uint32_t off[2];
    link_offsets(cloth, off);
    const float *ux = a[UX], *uy = a[UY], *uz = a[UZ];
    for (int f = 0; f < 2; ++f) {
        const float *nx = fam(a, f, F_NX), *ny = fam(a, f, F_NY), *nz = fam(a, f, F_NZ);
        float *y = fam(a, f, out);
        for (uint32_t k = 0; k < off[f] && k < s->count; ++k) {
            y[k] = 0.0f;
        }
        for (uint32_t k = off[f]; k < s->count; ++k) {
            const uint32_t p = k - off[f];
            y[k] = (ux[k] - ux[p]) * nx[k] + (uy[k] - uy[p]) * ny[k] + (uz[k] - uz[p]) * nz[k];
        }
    }
}

static double dot(const cloth_step_view *s, float *const *a, int i, int j)
{
    double sum = 0.0;
    for (int f = 0; f < 2; ++f) {
        const float *x = fam(a, f, i), *y = fam(a, f, j);
        for (uint32_t k = 0; k < s->count; ++k) {
            sum += (double)x[k] * (double)y[k];
        }
    }
    return sum;
}

/* The solve stops when the residual (in the preconditioner's norm) is down
 * to CG_TOLERANCE of what the substep's forces brought: what is left, about
 * 1e-3 g h, drifts the links by 1e-3 g h^2 per substep, well inside what the
 * position passes restore anyway, and a tighter tolerance changes neither
 * the settling nor the cost. The cap bounds the cost of a
 * badly crumpled cloth, whose leftover the position passes then cut off as
 * before. */
enum { CG_MAX_ITERATIONS = 16 };
#define CG_TOLERANCE 1e-3

static void project_velocities(const cloth_t *cloth, const cloth_step_view *s, float *const *a)
{
    links_setup(cloth, s, a);
    for (int f = 0; f < 2; ++f) {
        memset(fam(a, f, F_LAM), 0, (size_t)s->count * sizeof(float));
    }
    precondition(cloth, s, a);
    for (int f = 0; f < 2; ++f) {
        memcpy(fam(a, f, F_P), fam(a, f, F_Z), (size_t)s->count * sizeof(float));
    }
    double rz = dot(s, a, F_R, F_Z);
    const double rz0 = rz;
    for (int it = 0; it < CG_MAX_ITERATIONS && rz > CG_TOLERANCE * CG_TOLERANCE * rz0 && rz > 0.0; ++it) {
        spread(cloth, s, a, F_P);
        gather(cloth, s, a, F_Q);
        const double pq = dot(s, a, F_P, F_Q);
        if (!(pq > 0.0)) {
            break;
        }
        const float alpha = (float)(rz / pq);
        for (int f = 0; f < 2; ++f) {
            float *lam = fam(a, f, F_LAM), *r = fam(a, f, F_R), *p = fam(a, f, F_P), *q = fam(a, f, F_Q);
            for (uint32_t k = 0; k < s->count; ++k) {
                lam[k] += alpha * p[k];
                r[k] -= alpha * q[k];
            }
        }
        precondition(cloth, s, a);
        const double rz_next = dot(s, a, F_R, F_Z);
        const float beta = (float)(rz_next / rz);
        rz = rz_next;
        for (int f = 0; f < 2; ++f) {
            float *p = fam(a, f, F_P), *z = fam(a, f, F_Z);
            for (uint32_t k = 0; k < s->count; ++k) {
                p[k] = z[k] + beta * p[k];
            }
        }
    }
    spread(cloth, s, a, F_LAM);
    for (uint32_t i = 0; i < s->count; ++i) {
        s->vx[i] -= a[UX][i];
        s->vy[i] -= a[UY][i];
        s->vz[i] -= a[UZ][i];
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

/* A move of the colliders shorter than this many roundings of the largest
 * coordinate (or of the rest length, if larger) gives no direction: it is a
 * particle found inside the surface by a rounding and put back on it, each
 * coordinate off by up to a rounding. */
#define CONTACT_NOISE_ULPS 2.0f

/*
 * Contact and warp length together for particle j hanging from i. The
 * colliders have just moved j from `before` (at or near the rest length
 * from i) to their surface. The move is along the surface's normal n (to
 * the nearest point of the surface), so j belongs where the sphere of
 * radius `rest` about i meets the surface's tangent plane: it goes to the
 * point of that sphere on the plane's outer side nearest to where the
 * colliders put it. A convex
 * collider lies wholly on the plane's inner side, so j is then outside it
 * and at the rest length at once. (Alternating the push-out with `place`
 * instead converges slowly when the link points almost straight into the
 * surface, the sphere and the surface then meeting at a shallow angle, and
 * a few rounds of it leave j inside.)
 *
 * j stays where the colliders put it, contact winning over the length, when
 * the move is too short to give a normal (CONTACT_NOISE_ULPS; the length is
 * then off by as little), and when the plane is out of the link's reach, i
 * more than `rest` on its inner side: i itself inside a collider (a pin), or
 * a surface curved more tightly than the link is long.
 */
static void place_on_contact(const cloth_step_view *s, float *const *a, uint32_t i, uint32_t j, float rest,
                             const float before[3])
{
    const float px = s->x[j], py = s->y[j], pz = s->z[j];
    const float mx = px - before[0], my = py - before[1], mz = pz - before[2];
    const float move2 = mx * mx + my * my + mz * mz;
    const float scale = fmaxf(fmaxf(fabsf(px), fabsf(py)), fmaxf(fabsf(pz), rest));
    const float noise = CONTACT_NOISE_ULPS * FLT_EPSILON * scale;
    if (!(move2 > noise * noise)) {
        return; /* also NaN: left for the step's finite check */
    }
    const float inv = 1.0f / sqrtf(move2);
    const float nx = mx * inv, ny = my * inv, nz = mz * inv;
    float q[3];
    placed(s, a, i, j, rest, q);
    if ((q[0] - px) * nx + (q[1] - py) * ny + (q[2] - pz) * nz >= 0.0f) {
        s->x[j] = q[0]; /* the length alone keeps j on the outer side */
        s->y[j] = q[1];
        s->z[j] = q[2];
        return;
    }
    /* the plane's height above i, and the circle it cuts from the sphere */
    const float h = (px - s->x[i]) * nx + (py - s->y[i]) * ny + (pz - s->z[i]) * nz;
    if (!(h < rest) || !(h > -rest)) {
        return;
    }
    const float ox = s->x[i] + h * nx, oy = s->y[i] + h * ny, oz = s->z[i] + h * nz;
    const float rho = sqrtf((rest - h) * (rest + h));
    /* toward where j is, along the plane */
    float ux = px - ox, uy = py - oy, uz = pz - oz;
    float un = ux * nx + uy * ny + uz * nz;
    ux -= un * nx;
    uy -= un * ny;
    uz -= un * nz;
    float u2 = ux * ux + uy * uy + uz * uz;
    if (!(u2 > 0.0f)) {
        /* j straight along the normal from the circle's centre: every point
         * of the circle is as near; take the link's direction at the start
         * of the substep, along the plane */
        ux = a[X0][j] - a[X0][i];
        uy = a[Y0][j] - a[Y0][i];
        uz = a[Z0][j] - a[Z0][i];
        un = ux * nx + uy * ny + uz * nz;
        ux -= un * nx;
        uy -= un * ny;
        uz -= un * nz;
        u2 = ux * ux + uy * uy + uz * uz;
        if (!(u2 > 0.0f)) {
            return;
        }
    }
    const float k = rho / sqrtf(u2);
    s->x[j] = ox + ux * k;
    s->y[j] = oy + uy * k;
    s->z[j] = oz + uz * k;
}

/* After the colliders: the warp chain again, each particle's contacts
 * resolved inside it. A particle the colliders do not touch is put at the
 * rest length from the one above, as in semirigid_step; one they touch is
 * put where it is both outside them and at the rest length
 * (place_on_contact), three times over: the first move also holds
 * friction's take-back of the slide, which tilts it off the normal, and the
 * tangent plane of a curved or non-convex surface is only nearly the
 * surface. The last word is the colliders', as for every integrator
 * (colliders.h): after place_on_contact they move a particle by a rounding
 * if at all, and one that cannot be both outside and at the rest length
 * ends outside. */
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
        bool touched = false;
        for (int round = 0; round < 3; ++round) {
            const float before[3] = {s->x[j], s->y[j], s->z[j]};
            s->collide_particle(s->collide_ctx, j);
            if (s->x[j] != before[0] || s->y[j] != before[1] || s->z[j] != before[2]) {
                touched = true;
                place_on_contact(s, a, i, j, rest, before);
            } else if (!touched) {
                place(s, a, i, j, rest); /* no contact: the warp pass as in semirigid_step */
            }
        }
        if (touched) {
            s->collide_particle(s->collide_ctx, j);
        }
    }
    return CLOTH_OK;
}

const cloth_integrator_vtable cloth_integrator_semirigid = {
    "semirigid", 0u, semirigid_create, cloth_scratch_destroy, semirigid_step, semirigid_finish};
