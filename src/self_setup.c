/*
 * Self-collision's settings (include/clothsim/constraints.h): the
 * thickness and friction setters and getters, and the blocks they
 * allocate: the lists and hash grid of self_collision.c, the triangles'
 * lists of self_faces.c, and a mesh's rest neighbours.
 */
#include "self_collision.h"
#include "self_faces.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The lists reach this many thicknesses beyond the thickness: a wider
 * margin builds less often but tests more pairs each pass. */
#define MARGIN 0.5f

/* List room per particle: a particle meets the cloth around it within the
 * reach (about 3.6 (reach / link)^2 particles of a sheet, most of them rest
 * neighbours) in each layer of a heap. */
static uint32_t slots_for(float reach, float link)
{
    const float r = link > 0.0f ? reach / link : 1e3f;
    const float want = 16.0f + 8.0f * r * r;
    const uint32_t k = want >= 256.0f ? 256u : (uint32_t)want;
    return k < 32u ? 32u : (k + 7u) & ~7u;
}

/* per particle: entry, ref (3), corrections (6), bucket, count, hits,
 * list; buckets + 1 starts; a mesh's neighbour lists */
static size_t block_bytes(uint32_t n, uint32_t buckets, uint32_t links, uint32_t slots)
{
    return (size_t)n * (sizeof(cloth_self_entry) + 9u * sizeof(float) + (3u + (size_t)slots) * sizeof(uint32_t)) +
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

/* The mean structural link at rest (0 with none). */
static float mean_link(const cloth_t *cloth)
{
    if (cloth->tris == NULL) {
        return 0.5f * (cloth->family_rest[0] + cloth->family_rest[1]);
    }
    const uint32_t b = cloth->type_begin[CLOTH_SPRING_STRUCTURAL], e = cloth->type_begin[CLOTH_SPRING_STRUCTURAL + 1];
    double sum = 0.0;
    for (uint32_t s = b; s < e; ++s) {
        sum += (double)cloth->spring_rest[s];
    }
    return e > b ? (float)(sum / (double)(e - b)) : 0.0f;
}

/* Carve a block into the arrays of `s`. */
static void carve(cloth_self *s, unsigned char *b, uint32_t n, uint32_t buckets, uint32_t links)
{
    s->entry = (cloth_self_entry *)(void *)b;
    s->ref = (float *)(void *)(s->entry + n);
    s->d = s->ref + 3u * (size_t)n;
    s->bucket = (uint32_t *)(void *)(s->d + 6u * (size_t)n);
    s->count = s->bucket + n;
    s->hits = s->count + n;
    s->list = s->hits + n;
    s->start = s->list + (size_t)n * s->slots;
    s->link_start = s->start + buckets + 1u;
    s->link = s->link_start + n + 1u;
    (void)links;
}

/* Triangles a particle lists at most, while they are on: those about it
 * in its own layer and a few in each layer near it. */
#define FACE_SLOTS 64u

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
    const float margin = MARGIN * thickness;
    const bool faces = thickness > 0.0f && cloth_self_faces_wanted(cloth, thickness);
    const uint32_t slots = slots_for(thickness + margin, mean_link(cloth));
    const bool need_block = thickness > 0.0f && (s->block == NULL || s->slots < slots);
    const bool need_faces = faces && s->face_block == NULL;
    const uint32_t n = cloth->count;
    uint32_t buckets = 2u;
    while (buckets < 2u * n && buckets < (1u << 30)) {
        buckets *= 2u; /* a power of two, at least twice the particles */
    }
    const uint32_t links = cloth->tris != NULL ? 2u * cloth->spring_count : 0u;
    const size_t bytes = need_block ? block_bytes(n, buckets, links, slots) : 0u;
    const size_t face_bytes = need_faces ? cloth_self_faces_bytes(cloth, FACE_SLOTS) : 0u;
    unsigned char *b = need_block ? cloth_mem_alloc(&cloth->alloc, bytes) : NULL;
    unsigned char *fb = need_faces ? cloth_mem_alloc(&cloth->alloc, face_bytes) : NULL;
    if ((need_block && b == NULL) || (need_faces && fb == NULL)) {
        cloth_mem_free(&cloth->alloc, b, bytes);
        cloth_mem_free(&cloth->alloc, fb, face_bytes);
        return CLOTH_ERR_OUT_OF_MEMORY; /* nothing changed */
    }
    if (need_block) {
        cloth_mem_free(&cloth->alloc, s->block, s->block_bytes);
        s->block = b;
        s->block_bytes = bytes;
        s->buckets = buckets;
        s->slots = slots;
        carve(s, b, n, buckets, links);
        if (cloth->tris != NULL) {
            mesh_links(cloth, s);
        }
    }
    if (need_faces) {
        s->face_block = fb;
        s->face_block_bytes = face_bytes;
        cloth_self_faces_carve(cloth, s, fb, FACE_SLOTS);
        s->face_edge = cloth_self_longest_edge(cloth);
    }
    s->faces = faces;
    s->thickness = thickness;
    s->margin = margin;
    s->stale = true;
    return CLOTH_OK;
}

cloth_status cloth_set_self_friction(cloth_t *cloth, float friction)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !(friction >= 0.0f) || !isfinite(friction)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->self.friction = friction;
    return CLOTH_OK;
}

cloth_status cloth_get_self_friction(const cloth_t *cloth, float *friction)
{
    if (cloth == NULL || friction == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *friction = cloth->self.friction;
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
    cloth_mem_free(&cloth->alloc, cloth->self.face_block, cloth->self.face_block_bytes);
    memset(&cloth->self, 0, sizeof cloth->self);
}

