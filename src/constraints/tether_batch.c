/*
 * The projection for particles on one or two tethers (the usual case: a
 * cloth hung from a point or two), in float, many particles at a time: the
 * batches fed by the table, the scan and the grid path, and their solve,
 * plain C that the compiler vectorises, built again for AVX2 and AVX-512
 * (platform/target.h) and picked at run time; every build gives the same
 * bits.
 */
#include "tethers.h"

#include <string.h>

/*
 * A cloth held at one or two points (the usual case) has every particle on
 * one or two tethers, and one that is outside ends up on a sphere or on the
 * circle where two meet: closed forms. The particles found outside are
 * gathered into batches of LANES, structure of arrays, and each batch runs
 * a branch-free loop that computes every candidate (sphere 0, sphere 1,
 * their circle, in the order of nearest_in_region(), tether_exact.c) and
 * selects, so that it vectorises. Float: a position is a float in the end,
 * and the candidates' roundings (a few ulps of the coordinates) stay inside
 * INSIDE_EPS unless a radius is tiny next to the coordinates. A lane whose
 * answer is none of these (pins that coincide, a particle on their axis,
 * balls that do not meet, a circle point that misses the balls by more than
 * the slack, as such a tiny radius can make it) is marked and goes to
 * cloth_tether_constrain_exact().
 *
 * A lane's result depends on its own inputs alone, computed by the same
 * IEEE operations whichever lane of whichever batch it sits in (the
 * library is built without contraction into FMA, and sqrtf and division
 * are correctly rounded), so the table, grid and scan paths, which all feed
 * particles with their pins in index order, agree to the bit. */

/* Slack of "inside a ball" and of "taut", as in INSIDE_EPS. */
#define HI_F ((float)(1.0 + INSIDE_EPS))
#define LO_F ((float)(1.0 - INSIDE_EPS))

/* Outside the ball (p, r) in float: the batch's own test, and the table
 * path's test for entering a batch. */
static CLOTH_INLINE_ALWAYS bool outside_f(float px, float py, float pz, float x, float y, float z, float r)
{
    const float dx = x - px, dy = y - py, dz = z - pz;
    return dx * dx + dy * dy + dz * dz > r * r;
}

/* Lane masks: all ones or zero. A float comparison as a condition keeps
 * GCC from vectorising the loop (it will not if-convert a comparison that
 * may trap), an integer mask and a bitwise select do not. */
typedef int32_t mask;

static CLOTH_INLINE_ALWAYS mask gt(float a, float b)
{
    return -(mask)(a > b);
}

static CLOTH_INLINE_ALWAYS mask le(float a, float b)
{
    return -(mask)(a <= b);
}

static CLOTH_INLINE_ALWAYS float sel(mask m, float a, float b)
{
    int32_t ia, ib;
    memcpy(&ia, &a, sizeof ia);
    memcpy(&ib, &b, sizeof ib);
    ia = (ia & m) | (ib & ~m);
    float out;
    memcpy(&out, &ia, sizeof out);
    return out;
}

/* The velocity update of one tether: v loses its outward part along unit n,
 * relative to the pin's velocity vp, when taut. */
static CLOTH_INLINE_ALWAYS void unstretch(mask taut, const float n[3], const float vp[3], float v[3])
{
    const float out = (v[0] - vp[0]) * n[0] + (v[1] - vp[1]) * n[1] + (v[2] - vp[2]) * n[2];
    const mask cut = taut & gt(out, 0.0f);
    for (int m = 0; m < 3; ++m) {
        v[m] = sel(cut, v[m] - out * n[m], v[m]);
    }
}

static CLOTH_INLINE_ALWAYS void solve_one_body(lanes *b)
{
    const uint32_t count = b->n;
    for (uint32_t j = 0; j < count; ++j) {
        const float px = b->px[0][j], py = b->py[0][j], pz = b->pz[0][j], r = b->r[0][j];
        const float dx = b->x[j] - px, dy = b->y[j] - py, dz = b->z[j] - pz;
        const float l2 = dx * dx + dy * dy + dz * dz;
        const mask active = gt(l2, r * r);
        const float inv = 1.0f / sqrtf(sel(active, l2, 1.0f));
        const float f = r * inv;
        const float n[3] = {dx * inv, dy * inv, dz * inv}, vp[3] = {b->pvx[0][j], b->pvy[0][j], b->pvz[0][j]};
        float v[3] = {b->vx[j], b->vy[j], b->vz[j]};
        unstretch(gt(r, 0.0f), n, vp, v); /* r = 0 leaves it on the pin: no direction */
        b->x[j] = sel(active, px + dx * f, b->x[j]);
        b->y[j] = sel(active, py + dy * f, b->y[j]);
        b->z[j] = sel(active, pz + dz * f, b->z[j]);
        b->vx[j] = sel(active, v[0], b->vx[j]);
        b->vy[j] = sel(active, v[1], b->vy[j]);
        b->vz[j] = sel(active, v[2], b->vz[j]);
        b->exact[j] = 0;
    }
}

static CLOTH_INLINE_ALWAYS void solve_two_body(lanes *b)
{
    const uint32_t count = b->n;
    for (uint32_t j = 0; j < count; ++j) {
        const float ax = b->px[0][j], ay = b->py[0][j], az = b->pz[0][j], ra = b->r[0][j];
        const float bx = b->px[1][j], by = b->py[1][j], bz = b->pz[1][j], rb = b->r[1][j];
        const float yx = b->x[j], yy = b->y[j], yz = b->z[j];
        const float lima = ra * HI_F, limb = rb * HI_F;
        const float dax = yx - ax, day = yy - ay, daz = yz - az;
        const float dbx = yx - bx, dby = yy - by, dbz = yz - bz;
        const float la2 = dax * dax + day * day + daz * daz, lb2 = dbx * dbx + dby * dby + dbz * dbz;
        const mask oa = gt(la2, ra * ra), ob = gt(lb2, rb * rb);
        /* sphere a's nearest point, if it is in ball b */
        const float fa = ra / sqrtf(sel(oa, la2, 1.0f));
        const float sax = ax + dax * fa, say = ay + day * fa, saz = az + daz * fa;
        const float eax = sax - bx, eay = say - by, eaz = saz - bz;
        const mask va = oa & le(eax * eax + eay * eay + eaz * eaz, limb * limb);
        /* sphere b's, if in ball a */
        const float fb = rb / sqrtf(sel(ob, lb2, 1.0f));
        const float sbx = bx + dbx * fb, sby = by + dby * fb, sbz = bz + dbz * fb;
        const float ebx = sbx - ax, eby = sby - ay, ebz = sbz - az;
        const mask vb = ~va & ob & le(ebx * ebx + eby * eby + ebz * ebz, lima * lima);
        /* the circle: centre a + s w on the axis w = b - a, radius rho; the
         * point of it nearest y is along y's offset q from the axis */
        const float wx = bx - ax, wy = by - ay, wz = bz - az;
        const float w2 = wx * wx + wy * wy + wz * wz;
        const mask apart = gt(w2, 0.0f);
        const float iw2 = 1.0f / sel(apart, w2, 1.0f);
        const float s = (w2 + ra * ra - rb * rb) * (0.5f * iw2);
        const float rho2 = ra * ra - s * s * w2;
        const float big = sel(gt(ra, rb), ra * ra, rb * rb);
        const mask meet = le((float)(-2.0 * INSIDE_EPS) * big, rho2);
        const float along = (dax * wx + day * wy + daz * wz) * iw2;
        const float qx = dax - along * wx, qy = day - along * wy, qz = daz - along * wz;
        const float q2 = qx * qx + qy * qy + qz * qz;
        const mask off_axis = gt(q2, 0.0f);
        const float f = sqrtf(sel(gt(rho2, 0.0f), rho2, 0.0f) / sel(off_axis, q2, 1.0f));
        const float cx = ax + s * wx + qx * f, cy = ay + s * wy + qy * f, cz = az + s * wz + qz * f;
        const float cax = cx - ax, cay = cy - ay, caz = cz - az, cbx = cx - bx, cby = cy - by, cbz = cz - bz;
        const mask vc = apart & meet & off_axis & le(cax * cax + cay * cay + caz * caz, lima * lima) &
                        le(cbx * cbx + cby * cby + cbz * cbz, limb * limb);
        const mask active = oa | ob;
        b->exact[j] = active & ~va & ~vb & ~vc;
        const float x = sel(va, sax, sel(vb, sbx, cx)), y = sel(va, say, sel(vb, sby, cy));
        const float z = sel(va, saz, sel(vb, sbz, cz));
        /* the tethers it is now taut on */
        const float tax = x - ax, tay = y - ay, taz = z - az, tbx = x - bx, tby = y - by, tbz = z - bz;
        const float ta2 = tax * tax + tay * tay + taz * taz, tb2 = tbx * tbx + tby * tby + tbz * tbz;
        const float loa = ra * LO_F, lob = rb * LO_F;
        const mask taut_a = le(loa * loa, ta2) & gt(ta2, 0.0f), taut_b = le(lob * lob, tb2) & gt(tb2, 0.0f);
        const float ia = 1.0f / sqrtf(sel(taut_a, ta2, 1.0f)), ib = 1.0f / sqrtf(sel(taut_b, tb2, 1.0f));
        const float na[3] = {tax * ia, tay * ia, taz * ia}, nb[3] = {tbx * ib, tby * ib, tbz * ib};
        const float vpa[3] = {b->pvx[0][j], b->pvy[0][j], b->pvz[0][j]};
        const float vpb[3] = {b->pvx[1][j], b->pvy[1][j], b->pvz[1][j]};
        float v[3] = {b->vx[j], b->vy[j], b->vz[j]};
        /* A second round when taut on both: removing the outward part along
         * one tether can leave an outward part along the other that is not
         * perpendicular to it. */
        unstretch(taut_a, na, vpa, v);
        unstretch(taut_b, nb, vpb, v);
        unstretch(taut_a & taut_b, na, vpa, v);
        unstretch(taut_a & taut_b, nb, vpb, v);
        b->x[j] = sel(active, x, yx);
        b->y[j] = sel(active, y, yy);
        b->z[j] = sel(active, z, yz);
        b->vx[j] = sel(active, v[0], b->vx[j]);
        b->vy[j] = sel(active, v[1], b->vy[j]);
        b->vz[j] = sel(active, v[2], b->vz[j]);
    }
}

static void solve_plain(lanes *b)
{
    if (b->pins == 1u) {
        solve_one_body(b);
    } else {
        solve_two_body(b);
    }
}

#if CLOTH_TARGET_X86
CLOTH_TARGET_AVX2 static void solve_avx2(lanes *b)
{
    if (b->pins == 1u) {
        solve_one_body(b);
    } else {
        solve_two_body(b);
    }
}

CLOTH_TARGET_AVX512 static void solve_avx512(lanes *b)
{
    if (b->pins == 1u) {
        solve_one_body(b);
    } else {
        solve_two_body(b);
    }
}
#endif

void cloth_tether_lanes_init(lanes *b, uint32_t pins, const cloth_t *cloth, const struct grid_pins *grid)
{
    b->n = 0u;
    b->groups = 0u;
    b->pins = pins;
    b->scale = cloth->tethers->scale;
    b->simd = cloth->simd;
    b->grid = grid;
}

/* Lane j's particle, which the float batch left to the exact path. */
void cloth_tether_exact_lane(const lanes *b, cloth_particles *pt, uint32_t j)
{
    uint32_t pin[K];
    float rest[K];
    cloth_tether_clear_list(pin, rest);
    for (uint32_t k = 0; k < b->pins; ++k) {
        pin[k] = b->pin[k][j];
        rest[k] = b->rest[k][j];
    }
    cloth_tether_constrain_exact(pt, b->index[j], pin, rest, b->scale);
}

/* The grid path's batches take their pins from the grid and their rest
 * distances from the rows and columns, as the table's rebuild does. */
static CLOTH_INLINE_ALWAYS void grid_fill_body(lanes *b)
{
    const grid_pins *g = b->grid;
    const uint32_t count = b->n;
    const double s2 = g->s2, cross = g->cross;
    const float scale = b->scale;
    for (uint32_t k = 0; k < b->pins; ++k) {
        const uint32_t p = g->index[k];
        const float x = g->x[k], y = g->y[k], z = g->z[k], vx = g->vx[k], vy = g->vy[k], vz = g->vz[k];
        const double pr = (double)g->row[k], pc = (double)g->col[k];
        const double *restrict row = b->row, *restrict col = b->col;
        float *restrict rest = b->rest[k], *restrict r = b->r[k];
        for (uint32_t j = 0; j < count; ++j) {
            rest[j] = grid_rest(s2, cross, col[j] - pc, row[j] - pr);
            r[j] = scale * rest[j];
        }
        for (uint32_t j = 0; j < count; ++j) {
            b->pin[k][j] = p;
            b->px[k][j] = x;
            b->py[k][j] = y;
            b->pz[k][j] = z;
            b->pvx[k][j] = vx;
            b->pvy[k][j] = vy;
            b->pvz[k][j] = vz;
        }
    }
}

static void grid_fill_plain(lanes *b)
{
    grid_fill_body(b);
}

#if CLOTH_TARGET_X86
CLOTH_TARGET_AVX2 static void grid_fill_avx2(lanes *b)
{
    grid_fill_body(b);
}

CLOTH_TARGET_AVX512 static void grid_fill_avx512(lanes *b)
{
    grid_fill_body(b);
}
#endif

void cloth_tether_grid_fill(lanes *b)
{
#if CLOTH_TARGET_X86
    if (b->simd >= CLOTH_SIMD_AVX512) {
        grid_fill_avx512(b);
        return;
    }
    if (b->simd >= CLOTH_SIMD_AVX2) {
        grid_fill_avx2(b);
        return;
    }
#endif
    grid_fill_plain(b);
}

/* The grid path's pins and rest distances, then the float solve, of the
 * batch's lanes at its vector level. */
void cloth_tether_fill_and_solve(lanes *b)
{
    if (b->grid != NULL) {
        cloth_tether_grid_fill(b);
    }
#if CLOTH_TARGET_X86
    if (b->simd >= CLOTH_SIMD_AVX512) {
        solve_avx512(b);
    } else if (b->simd >= CLOTH_SIMD_AVX2) {
        solve_avx2(b);
    } else {
        solve_plain(b);
    }
#else
    solve_plain(b);
#endif
}

void cloth_tether_lanes_flush(lanes *b, cloth_particles *pt)
{
    cloth_tether_fill_and_solve(b);
    for (uint32_t j = 0; j < b->n; ++j) {
        const uint32_t i = b->index[j];
        if (b->exact[j] != 0) {
            cloth_tether_exact_lane(b, pt, j);
        } else {
            pt->x[i] = b->x[j];
            pt->y[i] = b->y[j];
            pt->z[i] = b->z[j];
            pt->vx[i] = b->vx[j];
            pt->vy[i] = b->vy[j];
            pt->vz[i] = b->vz[j];
        }
    }
    b->n = 0u;
}

/* Particle i's state into the batch's next lane; returns the lane. */
uint32_t cloth_tether_lanes_load(lanes *b, const cloth_particles *pt, uint32_t i)
{
    const uint32_t j = b->n;
    b->index[j] = i;
    b->x[j] = pt->x[i];
    b->y[j] = pt->y[i];
    b->z[j] = pt->z[i];
    b->vx[j] = pt->vx[i];
    b->vy[j] = pt->vy[i];
    b->vz[j] = pt->vz[i];
    return j;
}

/* Particle i, with b->pins pins in index order and their rest distances,
 * into the batch. */
static void lanes_push(lanes *b, cloth_particles *pt, uint32_t i, const uint32_t *pin, const float *rest)
{
    const uint32_t j = cloth_tether_lanes_load(b, pt, i);
    for (uint32_t k = 0; k < b->pins; ++k) {
        const uint32_t p = pin[k];
        b->pin[k][j] = p;
        b->rest[k][j] = rest[k];
        b->r[k][j] = b->scale * rest[k];
        b->px[k][j] = pt->x[p];
        b->py[k][j] = pt->y[p];
        b->pz[k][j] = pt->z[p];
        b->pvx[k][j] = pt->vx[p];
        b->pvy[k][j] = pt->vy[p];
        b->pvz[k][j] = pt->vz[p];
    }
    b->n = j + 1u;
    if (b->n == LANES) {
        cloth_tether_lanes_flush(b, pt);
    }
}

/* Particle i with its pins in index order (NO_PIN after the last): into a
 * batch if it has one or two and is outside one of them (the batch's own
 * test, so skipping the others changes nothing), else the exact path. */
void cloth_tether_constrain(cloth_particles *pt, lanes *one, lanes *two, uint32_t i, const uint32_t *pin,
                            const float *rest, float scale)
{
    const uint32_t n = pin[1] == NO_PIN ? 1u : (pin[2] == NO_PIN ? 2u : 3u);
    if (n > 2u) {
        cloth_tether_constrain_exact(pt, i, pin, rest, scale);
        return;
    }
    bool out = false;
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t p = pin[k];
        out = out || outside_f(pt->x[p], pt->y[p], pt->z[p], pt->x[i], pt->y[i], pt->z[i], scale * rest[k]);
    }
    if (out) {
        lanes_push(n == 1u ? one : two, pt, i, pin, rest);
    }
}
