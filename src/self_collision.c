/*
 * Self-collision, particle against particle (include/clothsim/constraints.h):
 * every particle is a ball of radius thickness / 2, and two balls that
 * overlap are pushed apart along the line between their centres, each by
 * its share of the inverse masses, and lose the part of their relative
 * velocity that brings them together. Particles that are neighbours in the
 * rest shape never collide: on a grid those within two rows and two
 * columns, on a mesh those joined by a spring (edges, shear and bend
 * springs: two rings). Run after every substep and every strain-limit
 * pass, before the skin, tethers and colliders, so those win where they
 * disagree.
 *
 * Broad phase: a hash grid of cells one thickness wide, rebuilt each pass
 * by a counting sort of the particles by bucket (so a bucket lists its
 * particles in increasing order). A particle meets the particles of the 27
 * cells about it, reading in each cell's bucket only the particles of that
 * cell (a bucket may hold several cells). Pairs are
 * taken once (the second index larger) in a fixed order and their
 * corrections summed per particle, then each particle moves by the mean of
 * its corrections (Jacobi): the result does not depend on the order pairs
 * come in but on the pairs alone, so it is the same on any thread count and
 * vector level. The pass runs on the calling thread.
 */
#include "self_collision.h"
#include "platform/stride.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE 0xFFFFFFFFu

/* per particle: bucket, sorted order, corrections (x, y, z, dv x, y, z),
 * contact count; buckets + 1 starts; a mesh's neighbour lists */
static size_t block_bytes(uint32_t n, uint32_t buckets, uint32_t links)
{
    return (size_t)n * (2u * sizeof(uint32_t) + 6u * sizeof(float) + sizeof(uint32_t) + 3u * sizeof(int32_t) +
                        sizeof(cloth_self_entry)) +
           ((size_t)buckets + 1u) * sizeof(uint32_t) + ((size_t)n + 1u) * sizeof(uint32_t) +
           (size_t)links * sizeof(uint32_t);
}

static int compare_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* A mesh's rest neighbours: each particle's spring partners, sorted. */
static void mesh_links(const cloth_t *cloth, cloth_self *s)
{
    const uint32_t n = cloth->count;
    memset(s->link_start, 0, ((size_t)n + 1u) * sizeof(uint32_t));
    for (uint32_t k = 0; k < cloth->spring_count; ++k) {
        ++s->link_start[cloth->spring_ij[2u * k] + 1u];
        ++s->link_start[cloth->spring_ij[2u * k + 1u] + 1u];
    }
    for (uint32_t i = 0; i < n; ++i) {
        s->link_start[i + 1u] += s->link_start[i];
    }
    for (uint32_t k = 0; k < cloth->spring_count; ++k) {
        const uint32_t i = cloth->spring_ij[2u * k], j = cloth->spring_ij[2u * k + 1u];
        s->link[s->link_start[i]++] = j;
        s->link[s->link_start[j]++] = i;
    }
    for (uint32_t i = n; i > 0u; --i) {
        s->link_start[i] = s->link_start[i - 1u];
    }
    s->link_start[0] = 0u;
    for (uint32_t i = 0; i < n; ++i) {
        qsort(s->link + s->link_start[i], s->link_start[i + 1u] - s->link_start[i], sizeof(uint32_t), compare_u32);
    }
}

/* The longest structural link at rest: a thickness beyond a few of them
 * would make every particle touch a crowd of others. */
static float longest_link(const cloth_t *cloth)
{
    if (cloth->tris == NULL) {
        return fmaxf(cloth->family_rest[0], cloth->family_rest[1]); /* the (0, 1) and (1, 0) families */
    }
    float top = 0.0f;
    for (uint32_t s = cloth->type_begin[CLOTH_SPRING_STRUCTURAL]; s < cloth->type_begin[CLOTH_SPRING_STRUCTURAL + 1];
         ++s) {
        top = fmaxf(top, cloth->spring_rest[s]);
    }
    return top;
}

cloth_status cloth_set_self_collision(cloth_t *cloth, float thickness)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !(thickness >= 0.0f) || !isfinite(thickness) ||
        (thickness > 0.0f && (thickness < CLOTH_SELF_MIN_THICKNESS || thickness > 4.0f * longest_link(cloth)))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_self *s = &cloth->self;
    if (thickness == 0.0f || s->block != NULL) {
        s->thickness = thickness;
        return CLOTH_OK;
    }
    const uint32_t n = cloth->count;
    uint32_t buckets = 2u;
    while (buckets < 2u * n && buckets < (1u << 30)) {
        buckets *= 2u; /* a power of two, at least twice the particles */
    }
    const uint32_t links = cloth->tris != NULL ? 2u * cloth->spring_count : 0u;
    const size_t bytes = block_bytes(n, buckets, links);
    unsigned char *b = cloth_mem_alloc(&cloth->alloc, bytes);
    if (b == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    s->block = b;
    s->block_bytes = bytes;
    s->buckets = buckets;
    s->bucket = (uint32_t *)(void *)b;
    s->order = s->bucket + n;
    s->hits = s->order + n;
    s->start = s->hits + n;
    s->link_start = s->start + buckets + 1u;
    s->link = s->link_start + n + 1u;
    s->d = (float *)(void *)(s->link + links);
    s->cell = (int32_t *)(void *)(s->d + 6u * (size_t)n);
    s->entry = (cloth_self_entry *)(void *)(s->cell + 3u * (size_t)n);
    if (cloth->tris != NULL) {
        mesh_links(cloth, s);
    }
    s->thickness = thickness;
    return CLOTH_OK;
}

cloth_status cloth_get_self_collision(const cloth_t *cloth, float *thickness)
{
    if (cloth == NULL || thickness == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *thickness = cloth->self.thickness;
    return CLOTH_OK;
}

void cloth_self_free(cloth_t *cloth)
{
    cloth_mem_free(&cloth->alloc, cloth->self.block, cloth->self.block_bytes);
    memset(&cloth->self, 0, sizeof cloth->self);
}

/* The cell of a coordinate, clamped so that a far-flung particle cannot
 * overflow the conversion (it then shares an edge cell, and the distance
 * test decides). */
static int32_t cell_of(float v, float inv)
{
    const double c = floor((double)v * (double)inv);
    /* NaN (a step about to be refused) takes the first clamp */
    return !(c >= -1e9) ? (int32_t)-1000000000 : !(c <= 1e9) ? (int32_t)1000000000 : (int32_t)c;
}

/* A power-of-two bucket count: the hash's low bits, after a multiply that
 * mixes the high ones down (no division per cell). */
static uint32_t hash_cell(int64_t x, int64_t y, int64_t z, uint32_t buckets)
{
    const uint64_t h = ((uint64_t)x * 73856093u ^ (uint64_t)y * 19349663u ^ (uint64_t)z * 83492791u) *
                       0x9E3779B97F4A7C15u;
    return (uint32_t)(h >> 32) & (buckets - 1u);
}

/* Whether i and j (i < j) are neighbours in the rest shape. */
static bool rest_neighbours(const cloth_t *cloth, const cloth_self *s, uint32_t i, uint32_t j)
{
    if (cloth->tris == NULL) {
        const uint32_t cols = cloth->cols;
        const uint32_t ri = i / cols, ci = i % cols, rj = j / cols, cj = j % cols;
        return rj - ri <= 2u && (ci > cj ? ci - cj : cj - ci) <= 2u;
    }
    const uint32_t *lo = s->link + s->link_start[i], *hi = s->link + s->link_start[i + 1u];
    while (lo < hi) {
        const uint32_t *mid = lo + (hi - lo) / 2;
        if (*mid == j) {
            return true;
        }
        if (*mid < j) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return false;
}

/* Pair (i, j): their overlap's correction and the approach's velocity
 * change, summed into each one's accumulators. */
static void collide_pair(cloth_t *cloth, cloth_self *s, uint32_t i, uint32_t j)
{
    const cloth_particles *p = &cloth->p;
    const float wi = p->w[i], wj = p->w[j], wsum = wi + wj;
    if (!(wsum > 0.0f)) {
        return;
    }
    const float ex = p->x[i] - p->x[j], ey = p->y[i] - p->y[j], ez = p->z[i] - p->z[j];
    const float d2 = (ex * ex + ey * ey) + ez * ez, t = s->thickness;
    if (!(d2 < t * t) || rest_neighbours(cloth, s, i, j)) {
        return;
    }
    const float d = sqrtf(d2);
    float nx = 0.0f, ny = 1.0f, nz = 0.0f; /* coincident: apart along +y */
    if (d > 0.0f) {
        nx = ex / d;
        ny = ey / d;
        nz = ez / d;
    }
    const float push = (t - d) / wsum;
    const float vn = ((p->vx[i] - p->vx[j]) * nx + (p->vy[i] - p->vy[j]) * ny) + (p->vz[i] - p->vz[j]) * nz;
    const float stop = vn < 0.0f ? vn / wsum : 0.0f; /* approaching: the relative normal speed goes */
    float *di = s->d + 6u * (size_t)i, *dj = s->d + 6u * (size_t)j;
    const float n3[3] = {nx, ny, nz};
    for (int k = 0; k < 3; ++k) {
        di[k] += wi * push * n3[k];
        dj[k] -= wj * push * n3[k];
        di[3 + k] -= wi * stop * n3[k];
        dj[3 + k] += wj * stop * n3[k];
    }
    ++s->hits[i];
    ++s->hits[j];
}

uint32_t cloth_self_collide(cloth_t *cloth)
{
    cloth_self *s = &cloth->self;
    if (!(s->thickness > 0.0f) || s->block == NULL) {
        return 0u;
    }
    const uint32_t n = cloth->count, buckets = s->buckets;
    cloth_particles *p = &cloth->p;
    const float inv = 1.0f / s->thickness;
    if (!isfinite(inv)) {
        return 0u; /* a thickness so small its cells overflow: nothing can touch */
    }
    /* counting sort by bucket: each bucket's particles in increasing order */
    memset(s->start, 0, ((size_t)buckets + 1u) * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; ++i) {
        int32_t *c = s->cell + 3u * (size_t)i;
        c[0] = cell_of(p->x[i], inv);
        c[1] = cell_of(p->y[i], inv);
        c[2] = cell_of(p->z[i], inv);
        s->bucket[i] = hash_cell(c[0], c[1], c[2], buckets);
        ++s->start[s->bucket[i] + 1u];
    }
    for (uint32_t b = 0; b < buckets; ++b) {
        s->start[b + 1u] += s->start[b];
    }
    for (uint32_t i = 0; i < n; ++i) {
        s->order[s->start[s->bucket[i]]++] = i;
    }
    /* the sorted particles as records, so that a bucket is read in a row */
    for (uint32_t e = 0; e < n; ++e) {
        const uint32_t i = s->order[e];
        cloth_self_entry *r = &s->entry[e];
        r->x = p->x[i];
        r->y = p->y[i];
        r->z = p->z[i];
        r->index = i;
        memcpy(r->cell, s->cell + 3u * (size_t)i, sizeof r->cell);
    }
    for (uint32_t b = buckets; b > 0u; --b) {
        s->start[b] = s->start[b - 1u];
    }
    s->start[0] = 0u;
    memset(s->d, 0, 6u * (size_t)n * sizeof(float));
    memset(s->hits, 0, (size_t)n * sizeof(uint32_t));
    const float t2 = s->thickness * s->thickness;
    for (uint32_t i = 0; i < n; ++i) {
        const int32_t *ci = s->cell + 3u * (size_t)i;
        const float px = p->x[i], py = p->y[i], pz = p->z[i];
        for (int dz = -1; dz <= 1; ++dz) {
            for (int dy = -1; dy <= 1; ++dy) {
                for (int dx = -1; dx <= 1; ++dx) {
                    const int64_t x = (int64_t)ci[0] + dx, y = (int64_t)ci[1] + dy, z = (int64_t)ci[2] + dz;
                    const uint32_t b = hash_cell(x, y, z, buckets);
                    for (uint32_t e = s->start[b]; e < s->start[b + 1u]; ++e) {
                        const cloth_self_entry *r = &s->entry[e];
                        const float ex = px - r->x, ey = py - r->y, ez = pz - r->z;
                        /* near, later in the order, and of this cell (a bucket may hold more) */
                        if ((ex * ex + ey * ey) + ez * ez < t2 && r->index > i && r->cell[0] == x &&
                            r->cell[1] == y && r->cell[2] == z) {
                            collide_pair(cloth, s, i, r->index);
                        }
                    }
                }
            }
        }
    }
    uint32_t touched = 0u;
    for (uint32_t i = 0; i < n; ++i) {
        if (s->hits[i] == 0u) {
            continue;
        }
        ++touched;
        const float share = 1.0f / (float)s->hits[i], *d = s->d + 6u * (size_t)i;
        p->x[i] += d[0] * share;
        p->y[i] += d[1] * share;
        p->z[i] += d[2] * share;
        p->vx[i] += d[3] * share;
        p->vy[i] += d[4] * share;
        p->vz[i] += d[5] * share;
    }
    return touched;
}
