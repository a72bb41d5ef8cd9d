/*
 * The memory of a triangle-mesh collider's copy: one block for its fixed
 * arrays (the grid has its own, mesh_grid.c, since it can grow). Apart from
 * triangle_mesh.c so that the collider table can free a mesh without
 * calling back into the shape that adds it.
 */
#include "mesh_collider.h"

#include <string.h>

/* One block for every fixed-size array: tri, across, then from, to, at,
 * the spare the next vertices are read into, vertex normals, face normals,
 * the triangles' balls; the particles' hints sit after `across`. */
cloth_collider_mesh *cloth_mesh_collider_alloc(const cloth_allocator *alloc, uint32_t vertices, uint32_t triangles,
                                               uint32_t particles)
{
    const size_t head = (sizeof(cloth_collider_mesh) + 31u) / 32u * 32u;
    const size_t ints = (6u * (size_t)triangles + particles) * sizeof(uint32_t);
    const size_t floats = (15u * (size_t)vertices + 7u * (size_t)triangles) * sizeof(float);
    const size_t bytes = head + (ints + 31u) / 32u * 32u + floats;
    unsigned char *block = cloth_mem_alloc(alloc, bytes);
    if (block == NULL) {
        return NULL;
    }
    cloth_collider_mesh *m = (cloth_collider_mesh *)(void *)block;
    memset(m, 0, sizeof *m);
    m->block_bytes = bytes;
    m->vertex_count = vertices;
    m->triangle_count = triangles;
    m->tri = (uint32_t *)(void *)(block + head);
    m->across = m->tri + 3u * (size_t)triangles;
    m->hint = m->across + 3u * (size_t)triangles;
    m->particles = particles;
    for (uint32_t i = 0; i < particles; ++i) {
        m->hint[i] = CLOTH_MESH_NONE;
    }
    float *f = (float *)(void *)(block + head + (ints + 31u) / 32u * 32u);
    const size_t v3 = 3u * (size_t)vertices;
    m->slots = f;
    m->from = f;
    m->to = f + v3;
    m->at = f + 2u * v3;
    m->vertex_n = f + 4u * v3;
    m->face_n = f + 5u * v3;
    m->ball = m->face_n + 3u * (size_t)triangles;

    for (uint32_t i = 0; i < particles; ++i) {
    }
    return m;
}

void cloth_mesh_collider_free(const cloth_allocator *alloc, cloth_collider_mesh *m)
{
    if (m == NULL) {
        return;
    }
    cloth_mesh_grid_free(alloc, &m->grid);
    cloth_mem_free(alloc, m, m->block_bytes);
}

