/*
 * Self-collision, particle against particle (include/clothsim/constraints.h):
 * every particle is a ball of radius thickness / 2, and two balls that
 * overlap are pushed apart along the line between their centres, each by
 * its share of the inverse masses, and lose the part of their relative
 * velocity that brings them together. Particles that are neighbours in the
 * rest shape never collide: joined within two rings (on a grid within two
 * rows and two columns, on a mesh by a spring: edges, shear and bend
 * springs) and closer there than 1.5 thicknesses. Run after every substep and every strain-limit
 * pass, before the skin, tethers and colliders, so those win where they
 * disagree.
 *
 * Lists, not a search per pass. Every particle keeps the particles that
 * were within the thickness plus a margin of it when the lists were built,
 * sorted by index. A pass first bounds how far the particles have moved
 * apart since: every particle's displacement lies in a box, and two
 * particles have closed at most the box's diagonal. While that is less
 * than the margin, no pair missing from the lists can touch, and the pass
 * reads only the lists; otherwise it builds them again. A heap at rest, or
 * a cloth falling as one, keeps its lists for many passes.
 *
 * Building: a hash grid of cells one reach (thickness + margin) wide,
 * made by a counting sort of the particles by bucket; each particle then
 * collects the particles of the 27 cells about it that lie within the
 * reach and are not its rest neighbours, and sorts them. A particle whose
 * list does not fit its slots is "crowded" and goes through all the
 * particles in index order each pass instead (slow, but the same answer:
 * only those within the thickness count, and they come in the same
 * order).
 *
 * Every particle sums its own corrections from its partners in increasing
 * index order and moves by their mean (Jacobi), in a second sweep: the
 * result depends on the positions alone, not on when the lists were built,
 * the thread count or the vector level. Both sweeps and the lists' filling
 * run on the task hooks, in ranges of particles.
 */
#include "self_collision.h"
#include "constraints/tethers.h"
#include "self_faces.h"
#include "tasks.h"

#include <math.h>
#include <string.h>

/* Rest neighbours closer than this many thicknesses in the rest shape
 * never collide: squeezed by less than a third they would not touch. */
#define REST_APART 1.5f

/* Particles per task item of the sweeps. */
#define SELF_ITEM 512u

/* The cell of a coordinate, clamped so that a far-flung particle cannot
 * overflow the conversion (it then shares an edge cell, and the distance
 * test decides). */
static int32_t cell_of(float v, float inv)
{
    const double c = floor((double)v * (double)inv);
    /* NaN (a step about to be refused) takes the first clamp */
    return !(c >= -1e9) ? (int32_t)-1000000000 : !(c <= 1e9) ? (int32_t)1000000000 : (int32_t)c;
}

/* Whether a cell is one of the clamped far ones of cell_of(). */
static bool far_cell(const int32_t c[3])
{
    for (int k = 0; k < 3; ++k) {
        if (c[k] <= -999999999 || c[k] >= 999999999) {
            return true;
        }
    }
    return false;
}

/* A power-of-two bucket count: cell (x, y, z) goes to bucket x + the
 * hash of its column (y, z), so that the three cells of a row, x - 1 to
 * x + 1, lie in three buckets in a row: one run of entries to read. */
static uint32_t hash_cell(int64_t x, int64_t y, int64_t z, uint32_t buckets)
{
    const uint64_t column = ((uint64_t)y * 0x9E3779B97F4A7C15u) ^ ((uint64_t)z * 0xC2B2AE3D27D4EB4Fu);
    return (uint32_t)((uint64_t)x + (column >> 32)) & (buckets - 1u);
}

/* The rest shape's measure: whether two grid particles dr rows and dc
 * columns apart (each within 2) lie closer than REST_APART thicknesses,
 * from |d|^2 = s2 (dc^2 + dr^2) + cross dc dr (constraints/tethers.h); and
 * that square for a mesh. */
typedef struct self_rest {
    bool near[5][5]; /* [dr + 2][dc + 2] */
    double apart2;
} self_rest;

static void rest_measure(const cloth_t *cloth, float thickness, self_rest *r)
{
    const double apart = (double)REST_APART * (double)thickness;
    r->apart2 = apart * apart;
    double s2 = 0.0, cross = 0.0;
    if (cloth->tris == NULL) {
        cloth_tether_grid_terms(cloth, &s2, &cross);
    }
    for (int dr = -2; dr <= 2; ++dr) {
        for (int dc = -2; dc <= 2; ++dc) {
            r->near[dr + 2][dc + 2] = s2 * (double)(dc * dc + dr * dr) + cross * (double)(dc * dr) < r->apart2;
        }
    }
}

/* Whether i and j are rest neighbours, which never collide: joined in the
 * rest shape within two rings (a grid's two rows and columns, a mesh's
 * spring partners) and closer there than REST_APART thicknesses (a grid's
 * shape implied by its spacing and the angle of its axes, a mesh's as
 * created). Both: the rings keep apart the pieces of a mesh made touching,
 * the distance lets a tight crease meet itself two rings away when the
 * thickness is under 1.3 spacings. */
static bool rest_neighbours(const cloth_t *cloth, const cloth_self *s, const self_rest *r, uint32_t i, uint32_t j)
{
    if (cloth->tris == NULL) {
        const uint32_t cols = cloth->cols, reach = 2u * cols + 2u;
        if (j > i + reach || i > j + reach) {
            return false; /* more than two rows apart, without a division */
        }
        const uint32_t ri = i / cols, rj = j / cols;
        const int64_t dr = (int64_t)rj - (int64_t)ri, dc = (int64_t)(j - rj * cols) - (int64_t)(i - ri * cols);
        return dr >= -2 && dr <= 2 && dc >= -2 && dc <= 2 && r->near[dr + 2][dc + 2];
    }
    const uint32_t *lo = s->link + s->link_start[i], *hi = s->link + s->link_start[i + 1u];
    while (lo < hi) {
        const uint32_t *mid = lo + (hi - lo) / 2;
        if (*mid == j) {
            const uint32_t n = cloth->count;
            const float *x = cloth->rest_shape, *y = x + n, *z = y + n;
            const double dx = (double)x[i] - (double)x[j], dy = (double)y[i] - (double)y[j];
            const double dz = (double)z[i] - (double)z[j];
            return dx * dx + dy * dy + dz * dz < r->apart2;
        }
        if (*mid < j) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return false;
}

/* Whether the particles may have closed the margin since the lists were
 * built: the box that holds every displacement, across its diagonal, with
 * a tenth of the margin kept back for rounding. Not finite: yes. */
static bool moved_apart(const cloth_t *cloth, const cloth_self *s)
{
    const uint32_t n = cloth->count;
    const cloth_particles *p = &cloth->p;
    const float *rx = s->ref, *ry = rx + n, *rz = ry + n;
    float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.0f, 0.0f, 0.0f}, sum = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        const float d[3] = {p->x[i] - rx[i], p->y[i] - ry[i], p->z[i] - rz[i]};
        for (int k = 0; k < 3; ++k) {
            lo[k] = d[k] < lo[k] ? d[k] : lo[k];
            hi[k] = d[k] > hi[k] ? d[k] : hi[k];
        }
        sum += (d[0] + d[1]) + d[2]; /* NaN or inf comes through */
    }
    const float ex = hi[0] - lo[0], ey = hi[1] - lo[1], ez = hi[2] - lo[2];
    const float room = 0.9f * s->margin;
    return !isfinite(sum) || !((ex * ex + ey * ey) + ez * ez <= room * room);
}

/* The hash grid of the reference positions (now): a counting sort of the
 * particles by bucket, each bucket's particles in increasing order. */
static void build_grid(cloth_t *cloth, cloth_self *s, float inv)
{
    const uint32_t n = cloth->count, buckets = s->buckets;
    const cloth_particles *p = &cloth->p;
    float *rx = s->ref, *ry = rx + n, *rz = ry + n;
    memset(s->start, 0, ((size_t)buckets + 1u) * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; ++i) {
        rx[i] = p->x[i];
        ry[i] = p->y[i];
        rz[i] = p->z[i];
        s->bucket[i] = hash_cell(cell_of(rx[i], inv), cell_of(ry[i], inv), cell_of(rz[i], inv), buckets);
        ++s->start[s->bucket[i] + 1u];
    }
    for (uint32_t b = 0; b < buckets; ++b) {
        s->start[b + 1u] += s->start[b];
    }
    for (uint32_t i = 0; i < n; ++i) {
        cloth_self_entry *r = &s->entry[s->start[s->bucket[i]]++];
        r->x = rx[i];
        r->y = ry[i];
        r->z = rz[i];
        r->index = i;
    }
    for (uint32_t b = buckets; b > 0u; --b) {
        s->start[b] = s->start[b - 1u];
    }
    s->start[0] = 0u;
}

/* The contact's constants: the thickness, the friction between layers and
 * the integrator's lag (how far a particle moved for its speed, s). */
typedef struct self_contact {
    float t, friction, lag;
} self_contact;

typedef struct self_pass {
    cloth_t *cloth;
    float reach2, inv; /* the reach squared; one over the cells' width */
    float face_reach2; /* while the triangles are on: the reach of their corners, squared */
    self_contact contact;
    self_rest rest;
} self_pass;

/* Add j to i's list of k, in index order, unless it is i, a rest
 * neighbour or listed already (the 27 cells may share a bucket); false
 * when the list is full. */
static bool take(const cloth_t *cloth, const cloth_self *s, const self_rest *r, uint32_t i, uint32_t j,
                 uint32_t *list, uint32_t *k)
{
    if (j == i || rest_neighbours(cloth, s, r, i, j)) {
        return true;
    }
    uint32_t at = *k;
    while (at > 0u && list[at - 1u] > j) {
        --at;
    }
    if (at > 0u && list[at - 1u] == j) {
        return true;
    }
    if (*k == s->slots) {
        return false;
    }
    memmove(list + at + 1u, list + at, (size_t)(*k - at) * sizeof(uint32_t));
    list[at] = j;
    ++*k;
    return true;
}

/* Candidates gathered before they are sorted in: the distance test runs
 * without a branch, since about one entry in seven passes it. */
#define GATHER 64u

/* Add triangle f to i's list of k (sorted, once); a full list keeps the
 * lowest-numbered triangles. */
static void take_face(cloth_self *s, uint32_t f, uint32_t *list, uint32_t *k)
{
    uint32_t at = *k;
    while (at > 0u && list[at - 1u] > f) {
        --at;
    }
    if (at > 0u && list[at - 1u] == f) {
        return;
    }
    if (*k == s->face_slots) {
        if (at == *k) {
            return;
        }
        --*k; /* the highest goes */
    }
    memmove(list + at + 1u, list + at, (size_t)(*k - at) * sizeof(uint32_t));
    list[at] = f;
    ++*k;
}

/* Whether a corner of triangle v is i or shares a triangle with i (a
 * grid's next row or column, a mesh's edge partners): a particle always
 * lies within the thickness of the triangles next to it wherever the cloth
 * is squeezed or pinned tight, so those never collide. */
static bool face_neighbour(const cloth_t *cloth, const cloth_self *s, uint32_t i, const uint32_t v[3])
{
    if (v[0] == i || v[1] == i || v[2] == i) {
        return true;
    }
    if (cloth->tris == NULL) {
        const uint32_t cols = cloth->cols, ri = i / cols, ci = i % cols;
        for (int k = 0; k < 3; ++k) {
            const uint32_t rj = v[k] / cols, cj = v[k] % cols;
            if ((ri > rj ? ri - rj : rj - ri) <= 1u && (ci > cj ? ci - cj : cj - ci) <= 1u) {
                return true;
            }
        }
        return false;
    }
    uint32_t buf[CLOTH_SELF_GRID_FAN];
    const uint32_t *fan;
    const uint32_t count = cloth_self_faces_about(cloth, s, i, buf, &fan);
    for (uint32_t q = 0; q < count; ++q) {
        const uint32_t *w = cloth->tris + 3u * (size_t)fan[q];
        for (int k = 0; k < 3; ++k) {
            if (w[0] == v[k] || w[1] == v[k] || w[2] == v[k]) {
                return true;
            }
        }
    }
    return false;
}

/* The triangles about particle j (within the face reach of i) that i lies
 * within the lists' reach of, at the reference positions, into i's list of
 * triangles; not those next to i (face_neighbour). */
static void take_faces_about(const cloth_t *cloth, cloth_self *s, uint32_t i, uint32_t j, float reach2,
                             float face_reach2, uint32_t *list, uint32_t *k)
{
    const uint32_t n = cloth->count;
    const float *rx = s->ref, *ry = rx + n, *rz = ry + n;
    uint32_t buf[CLOTH_SELF_GRID_FAN];
    const uint32_t *fan;
    const uint32_t count = cloth_self_faces_about(cloth, s, j, buf, &fan);
    const float p[3] = {rx[i], ry[i], rz[i]};
    for (uint32_t q = 0; q < count; ++q) {
        uint32_t v[3];
        cloth_self_face_vertices(cloth, fan[q], v);
        /* each triangle once: from the lowest of its corners within the
         * face reach of i */
        bool first = true;
        for (int c = 0; c < 3; ++c) {
            const float ex = p[0] - rx[v[c]], ey = p[1] - ry[v[c]], ez = p[2] - rz[v[c]];
            first = first && !(v[c] < j && (ex * ex + ey * ey) + ez * ez < face_reach2);
        }
        if (!first || face_neighbour(cloth, s, i, v)) {
            continue;
        }
        const float a[3] = {rx[v[0]], ry[v[0]], rz[v[0]]}, b[3] = {rx[v[1]], ry[v[1]], rz[v[1]]},
                    c[3] = {rx[v[2]], ry[v[2]], rz[v[2]]};
        if (cloth_self_point_face_d2(p, a, b, c) < reach2) {
            take_face(s, fan[q], list, k);
        }
    }
}

/* i's lists from the grid: the particles of the 27 cells about its own
 * (nine rows of three) within the reach that are not its rest neighbours,
 * sorted, CLOTH_SELF_CROWDED when they overflow; and while the triangles
 * are on, the triangles about the particles within the face reach that i
 * lies within the reach of. Any entry of a bucket is taken, whatever its
 * cell: a bucket may hold several. */
static void fill_list(const cloth_t *cloth, cloth_self *s, const self_rest *rest, uint32_t i, const self_pass *pass)
{
    const uint32_t n = cloth->count, buckets = s->buckets;
    const float *rx = s->ref, *ry = rx + n, *rz = ry + n;
    const float px = rx[i], py = ry[i], pz = rz[i], inv = pass->inv, reach2 = pass->reach2;
    const float gather2 = s->faces ? pass->face_reach2 : reach2;
    const int32_t ci[3] = {cell_of(px, inv), cell_of(py, inv), cell_of(pz, inv)};
    uint32_t *list = s->list + (size_t)i * s->slots, k = 0u;
    uint32_t *faces = s->faces ? s->face_list + (size_t)i * s->face_slots : NULL, kf = 0u;
    if (far_cell(ci)) {
        /* a particle thrown a billion cells out (a step about to be
         * refused) collides with nothing: the far cells would hold every
         * such particle, and each would test all the others */
        s->count[i] = 0u;
        if (faces != NULL) {
            s->face_count[i] = 0u;
        }
        return;
    }
    uint32_t near[GATHER], m = 0u;
    float near_d2[GATHER];
    bool crowded = false;
    for (int dz = -1; dz <= 1; ++dz) {
        for (int dy = -1; dy <= 1; ++dy) {
            /* the row's three buckets, as one run unless it wraps */
            const uint32_t b0 = hash_cell((int64_t)ci[0] - 1, (int64_t)ci[1] + dy, (int64_t)ci[2] + dz, buckets);
            const uint32_t runs = b0 + 3u <= buckets ? 1u : 3u, width = 4u - runs;
            for (uint32_t q = 0; q < runs; ++q) {
                const uint32_t b = (b0 + q) & (buckets - 1u);
                const uint32_t stop = s->start[b + width];
                for (uint32_t e = s->start[b]; e < stop; ++e) {
                    const cloth_self_entry *r = &s->entry[e];
                    const float ex = px - r->x, ey = py - r->y, ez = pz - r->z;
                    const float d2 = (ex * ex + ey * ey) + ez * ez;
                    near[m] = r->index;
                    near_d2[m] = d2;
                    m += d2 < gather2 ? 1u : 0u;
                    if (m == GATHER || (e + 1u == stop && m > 0u)) {
                        for (uint32_t g = 0; g < m; ++g) {
                            if (!crowded && near_d2[g] < reach2 && !take(cloth, s, rest, i, near[g], list, &k)) {
                                crowded = true;
                            }
                            if (faces != NULL) {
                                take_faces_about(cloth, s, i, near[g], reach2, gather2, faces, &kf);
                            }
                        }
                        m = 0u;
                    }
                }
            }
        }
    }
    s->count[i] = crowded ? CLOTH_SELF_CROWDED : k;
    if (faces != NULL) {
        s->face_count[i] = kf;
    }
}

/* What one partner j does to i: i's share of the push out of the overlap
 * and of the approach taken away. */
typedef struct self_sum {
    float x, y, z, vx, vy, vz;
    float nx, ny, nz;    /* the contacts' normals, summed */
    float rx, ry, rz;    /* the relative velocities, summed */
    float share;         /* i's shares of the inverse masses, summed */
    uint32_t hits;       /* contacts of every kind */
    uint32_t pairs;      /* of them, with other particles (friction's) */
} self_sum;


static void touch(const cloth_particles *p, const self_contact *c, uint32_t i, uint32_t j, self_sum *a)
{
    const float wi = p->w[i], wsum = wi + p->w[j], t = c->t;
    if (!(wsum > 0.0f)) {
        return;
    }
    const float ex = p->x[i] - p->x[j], ey = p->y[i] - p->y[j], ez = p->z[i] - p->z[j];
    const float d2 = (ex * ex + ey * ey) + ez * ez;
    if (!(d2 < t * t)) {
        return;
    }
    const float d = sqrtf(d2);
    float nx = 0.0f, ny = i < j ? 1.0f : -1.0f, nz = 0.0f; /* coincident: the lower index goes up */
    if (d > 0.0f) {
        nx = ex / d;
        ny = ey / d;
        nz = ez / d;
    }
    const float push = wi * ((t - d) / wsum);
    const float rx = p->vx[i] - p->vx[j], ry = p->vy[i] - p->vy[j], rz = p->vz[i] - p->vz[j];
    const float vn = (rx * nx + ry * ny) + rz * nz;
    const float stop = vn < 0.0f ? wi * (vn / wsum) : 0.0f; /* approaching: the relative normal speed goes */
    a->x += push * nx;
    a->y += push * ny;
    a->z += push * nz;
    a->vx -= stop * nx;
    a->vy -= stop * ny;
    a->vz -= stop * nz;
    ++a->hits;
    a->nx += nx;
    a->ny += ny;
    a->nz += nz;
    a->rx += rx;
    a->ry += ry;
    a->rz += rz;
    a->share += wi / wsum;
    ++a->pairs;
}

/* Friction of particle i against what it touches, once the contacts are
 * summed: Coulomb on the mean relative velocity, about the mean normal.
 * Its sliding speed drops by at most mu times its approach speed along
 * that normal, and stops when that is enough; the slide the substep made
 * at the speed removed (the integrator's lag) is taken back with it, as
 * with the colliders' friction, or a heap at rest on a slope creeps. Taken
 * per particle, not per contact: the contacts' own normals lean apart on
 * a layer of balls, and each one's share of a Jacobi mean would hold a
 * resting particle by a fraction of its weight only. */
static void rub(const self_contact *c, const self_sum *a, float out[6])
{
    if (a->pairs == 0u) {
        return;
    }
    const float inv = 1.0f / (float)a->pairs;
    const float len = sqrtf((a->nx * a->nx + a->ny * a->ny) + a->nz * a->nz);
    if (!(len > 0.0f)) {
        return;
    }
    const float nx = a->nx / len, ny = a->ny / len, nz = a->nz / len;
    const float rx = a->rx * inv, ry = a->ry * inv, rz = a->rz * inv;
    const float vn = (rx * nx + ry * ny) + rz * nz;
    const float tx = rx - vn * nx, ty = ry - vn * ny, tz = rz - vn * nz;
    const float slide = sqrtf((tx * tx + ty * ty) + tz * tz);
    const float drop = c->friction * (vn < 0.0f ? -vn : 0.0f);
    if (!(slide > 0.0f)) {
        return;
    }
    const float take = (slide > drop ? drop / slide : 1.0f) * (a->share * inv), back = take * c->lag;
    out[0] -= back * tx;
    out[1] -= back * ty;
    out[2] -= back * tz;
    out[3] -= take * tx;
    out[4] -= take * ty;
    out[5] -= take * tz;
}


static void fill_range(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const self_pass *pass = ctx;
    cloth_t *cloth = pass->cloth;
    uint32_t first, last;
    cloth_item_particles(begin, end, cloth->count, SELF_ITEM, &first, &last);
    /* in bucket order: the particles of a cell read the same 27 buckets,
     * from the cache */
    for (uint32_t e = first; e < last; ++e) {
        fill_list(cloth, &cloth->self, &pass->rest, cloth->self.entry[e].index, pass);
    }
}

/* One triangle contact into i's sums: `weight` of the hit's push and stop
 * along its normal (1 for the particle, minus a corner's weight for a
 * corner), times i's inverse mass. */
static void face_into(const cloth_particles *p, uint32_t i, const cloth_self_face_hit *h, float weight, self_sum *a)
{
    const float wp = weight * p->w[i] * h->push, wv = weight * p->w[i] * h->stop;
    a->x += wp * h->normal[0];
    a->y += wp * h->normal[1];
    a->z += wp * h->normal[2];
    a->vx += wv * h->normal[0];
    a->vy += wv * h->normal[1];
    a->vz += wv * h->normal[2];
    ++a->hits;
}

/* i's triangle contacts: as a particle against the triangles it lists (in
 * their order), then as a corner of the triangles about it (in theirs)
 * against the particles that list each (in theirs). */
static void face_sums(const cloth_t *cloth, float t, uint32_t i, self_sum *a)
{
    const cloth_self *s = &cloth->self;
    const cloth_particles *p = &cloth->p;
    const uint32_t *list = s->face_list + (size_t)i * s->face_slots;
    cloth_self_face_hit h;
    for (uint32_t k = 0; k < s->face_count[i]; ++k) {
        uint32_t v[3];
        cloth_self_face_vertices(cloth, list[k], v);
        if (cloth_self_face_contact(p, t, i, v, &h)) {
            face_into(p, i, &h, 1.0f, a);
        }
    }
    uint32_t buf[CLOTH_SELF_GRID_FAN];
    const uint32_t *fan;
    const uint32_t count = cloth_self_faces_about(cloth, s, i, buf, &fan);
    for (uint32_t q = 0; q < count; ++q) {
        uint32_t v[3];
        cloth_self_face_vertices(cloth, fan[q], v);
        const uint32_t corner = v[0] == i ? 0u : v[1] == i ? 1u : 2u;
        for (uint32_t e = s->point_start[fan[q]]; e < s->point_start[fan[q] + 1u]; ++e) {
            if (cloth_self_face_contact(p, t, s->point[e], v, &h)) {
                face_into(p, i, &h, -h.bary[corner], a);
            }
        }
    }
}

/* Each particle's mean correction into d (hits: how many made it). */
static void sum_range(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const self_pass *pass = ctx;
    cloth_t *cloth = pass->cloth;
    cloth_self *s = &cloth->self;
    const cloth_particles *p = &cloth->p;
    const self_contact *c = &pass->contact;
    uint32_t first, last;
    cloth_item_particles(begin, end, cloth->count, SELF_ITEM, &first, &last);
    for (uint32_t i = first; i < last; ++i) {
        self_sum a;
        memset(&a, 0, sizeof a);
        if (s->count[i] == CLOTH_SELF_CROWDED) {
            /* every other particle: a superset of the list, so the same sum */
            for (uint32_t j = 0; j < cloth->count; ++j) {
                if (j != i && !rest_neighbours(cloth, s, &pass->rest, i, j)) {
                    touch(p, c, i, j, &a);
                }
            }
        } else {
            const uint32_t *list = s->list + (size_t)i * s->slots;
            for (uint32_t k = 0; k < s->count[i]; ++k) {
                touch(p, c, i, list[k], &a);
            }
        }
        if (s->faces) {
            face_sums(cloth, c->t, i, &a);
        }
        s->hits[i] = a.hits;
        if (a.hits > 0u) {
            const float share = 1.0f / (float)a.hits;
            float *d = s->d + 6u * (size_t)i;
            d[0] = a.x * share;
            d[1] = a.y * share;
            d[2] = a.z * share;
            d[3] = a.vx * share;
            d[4] = a.vy * share;
            d[5] = a.vz * share;
            if (c->friction > 0.0f) {
                rub(c, &a, d);
            }
        }
    }
}

static void apply_range(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const self_pass *pass = ctx;
    cloth_t *cloth = pass->cloth;
    const cloth_self *s = &cloth->self;
    cloth_particles *p = &cloth->p;
    uint32_t first, last;
    cloth_item_particles(begin, end, cloth->count, SELF_ITEM, &first, &last);
    for (uint32_t i = first; i < last; ++i) {
        if (s->hits[i] == 0u) {
            continue;
        }
        const float *d = s->d + 6u * (size_t)i;
        p->x[i] += d[0];
        p->y[i] += d[1];
        p->z[i] += d[2];
        p->vx[i] += d[3];
        p->vy[i] += d[4];
        p->vz[i] += d[5];
    }
}

void cloth_self_collide(cloth_t *cloth)
{
    cloth_self *s = &cloth->self;
    if (!(s->thickness > 0.0f) || s->block == NULL) {
        return;
    }
    const float reach = s->thickness + s->margin;
    /* with the triangles, a triangle within the reach has its corners
     * within the reach and its longest edge (a tenth more for stretch) */
    const float face_reach = reach + 1.1f * s->face_edge, inv = 1.0f / (s->faces ? face_reach : reach);
    if (!isfinite(inv)) {
        return; /* a thickness so small its cells overflow: nothing can touch */
    }
    self_pass pass;
    memset(&pass, 0, sizeof pass);
    pass.cloth = cloth;
    pass.reach2 = reach * reach;
    pass.face_reach2 = face_reach * face_reach;
    pass.inv = inv;
    pass.contact.t = s->thickness;
    pass.contact.friction = s->friction;
    pass.contact.lag = cloth->friction_lag;
    rest_measure(cloth, s->thickness, &pass.rest);
    const uint32_t items = (cloth->count + SELF_ITEM - 1u) / SELF_ITEM;
    const uint32_t min_range = CLOTH_PARTICLES_PER_RANGE / SELF_ITEM;
    if (s->stale || moved_apart(cloth, s)) {
        build_grid(cloth, s, inv);
        cloth_parallel_for_uneven(cloth, fill_range, items, min_range, &pass);
        if (s->faces) {
            cloth_self_faces_transpose(cloth, s);
        }
        s->stale = false;
    }
    cloth_parallel_for_uneven(cloth, sum_range, items, min_range, &pass);
    cloth_parallel_for(cloth, apply_range, items, min_range, &pass);
}
