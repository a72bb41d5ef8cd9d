/*
 * A closed box as a welded triangle mesh, for the tests of the triangle-mesh
 * collider: every face cut into n x n squares of two triangles each, wound
 * counter-clockwise seen from outside, every vertex shared by all the faces
 * that meet there (so the mesh is closed: each edge has two triangles).
 */
#ifndef CLOTHSIM_TEST_BOX_MESH_H
#define CLOTHSIM_TEST_BOX_MESH_H

#include <stdint.h>
#include <stdlib.h>

typedef struct box_mesh {
    float *vertices;   /* xyz */
    uint32_t *indices; /* 3 per triangle */
    uint32_t vertex_count, triangle_count;
} box_mesh;

static inline void box_mesh_free(box_mesh *b)
{
    free(b->vertices);
    free(b->indices);
    b->vertices = NULL;
    b->indices = NULL;
}

/* A box of half-sizes `half` about `centre`; false if memory ran out. */
static inline int box_mesh_make(box_mesh *b, uint32_t n, const float centre[3], const float half[3])
{
    const uint32_t side = n + 1u, lattice = side * side * side;
    uint32_t *id = malloc(sizeof *id * lattice);
    b->vertices = malloc(sizeof(float) * 3u * lattice);
    b->indices = malloc(sizeof(uint32_t) * 3u * 12u * n * n);
    b->vertex_count = b->triangle_count = 0u;
    if (id == NULL || b->vertices == NULL || b->indices == NULL) {
        free(id);
        box_mesh_free(b);
        return 0;
    }
    for (uint32_t k = 0; k < lattice; ++k) {
        id[k] = UINT32_MAX;
    }
    for (uint32_t a = 0; a < 3u; ++a) {
        const uint32_t bx = (a + 1u) % 3u, cx = (a + 2u) % 3u;
        for (uint32_t s = 0; s < 2u; ++s) {
            for (uint32_t i = 0; i < n; ++i) {
                for (uint32_t j = 0; j < n; ++j) {
                    uint32_t corner[4];
                    for (uint32_t q = 0; q < 4u; ++q) {
                        uint32_t g[3];
                        g[a] = s * n;
                        g[bx] = i + (q & 1u);
                        g[cx] = j + (q >> 1);
                        const uint32_t key = (g[2] * side + g[1]) * side + g[0];
                        if (id[key] == UINT32_MAX) {
                            id[key] = b->vertex_count++;
                            for (int k = 0; k < 3; ++k) {
                                b->vertices[3u * id[key] + (uint32_t)k] =
                                    centre[k] + half[k] * (2.0f * (float)g[k] / (float)n - 1.0f);
                            }
                        }
                        corner[q] = id[key];
                    }
                    /* corners 0, 1, 3, 2 run counter-clockwise about +e_a */
                    const uint32_t t0[3] = {corner[0], corner[1], corner[3]}, t1[3] = {corner[0], corner[3], corner[2]};
                    uint32_t *out = b->indices + 3u * b->triangle_count;
                    for (int k = 0; k < 3; ++k) {
                        out[k] = s ? t0[k] : t0[2 - k];
                        out[3 + k] = s ? t1[k] : t1[2 - k];
                    }
                    b->triangle_count += 2u;
                }
            }
        }
    }
    free(id);
    return 1;
}

#endif /* CLOTHSIM_TEST_BOX_MESH_H */
