/*
 * The collider table: ids, the settings every shape shares (friction,
 * thickness), the host's transform, removal. The shapes add themselves
 * through cloth_collider_add(); the pass over the particles is collide.c.
 */
#include "shapes.h"
#include "colliders/colliders.h"
#include "mesh_collider.h"

cloth_collider *cloth_collider_find(const cloth_t *cloth, cloth_collider_id id)
{
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        if (cloth->colliders[k].id == id) {
            return &cloth->colliders[k];
        }
    }
    return NULL;
}

/* What a collider owns: a hull's planes, a mesh. */
static void release(cloth_t *cloth, cloth_collider *c)
{
    cloth_mem_free(&cloth->alloc, c->planes, (size_t)c->plane_count * 4u * sizeof *c->planes);
    cloth_mesh_collider_free(&cloth->alloc, c->mesh);
    c->planes = NULL;
    c->plane_count = 0u;
    c->mesh = NULL;
}

/* Whether a mesh collider's grid can be built for thickness `grown`: its
 * boxes, the mesh's extent grown by the reach, must stay in the float
 * range (a snapshot's load builds it again). */
static bool mesh_reach_ok(const cloth_collider *c, float grown)
{
    return c->mesh == NULL || isfinite(4.0f * (c->size[0] + grown + c->mesh->depth));
}

/* A mesh's grid made for its new reach, so that a query reads one cell.
 * If memory runs out the old grid stays: a query past its reach visits
 * every cell it meets instead, slower and as right. */
static void regrid(cloth_t *cloth, cloth_collider *c)
{
    cloth_collider_mesh *m = c->mesh;
    if (m != NULL && m->grid.reach != c->grown + m->depth) {
        (void)cloth_mesh_grid_build(&cloth->alloc, m, m->at, m->to, c->grown + m->depth);
    }
}

cloth_status cloth_collider_add(cloth_t *cloth, const cloth_collider *shape, cloth_collider_id *out)
{
    if (cloth->next_collider_id > 0xFFFFu) {
        return CLOTH_ERR_OUT_OF_MEMORY; /* ids are never reused; the space is spent */
    }
    if (cloth->collider_count == cloth->collider_capacity) {
        uint32_t cap = cloth->collider_capacity ? cloth->collider_capacity * 2u : 4u;
        cloth_collider *table = cloth_mem_alloc(&cloth->alloc, (size_t)cap * sizeof *table);
        if (table == NULL) {
            return CLOTH_ERR_OUT_OF_MEMORY;
        }
        for (uint32_t k = 0; k < cloth->collider_count; ++k) {
            table[k] = cloth->colliders[k];
        }
        cloth_mem_free(&cloth->alloc, cloth->colliders, (size_t)cloth->collider_capacity * sizeof *table);
        cloth->colliders = table;
        cloth->collider_capacity = cap;
    }
    cloth_collider *c = &cloth->colliders[cloth->collider_count++];
    *c = *shape;
    c->friction = 0.0f;
    c->thickness = 0.0f;
    c->grown = cloth->particle_radius;
    /* at rest where it was put: placed at the end of a zero-length move */
    c->from = c->to;
    cloth_collider_place(c, 1u, 1u, 0.0f);
    c->id = cloth->next_collider_id++;
    *out = c->id;
    return CLOTH_OK;
}

cloth_status cloth_set_collider_friction(cloth_t *cloth, cloth_collider_id id, float mu)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !(mu >= 0.0f) || !isfinite(mu)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_collider *c = cloth_collider_find(cloth, id);
    if (c == NULL) {
        return CLOTH_ERR_OUT_OF_RANGE;
    }
    c->friction = mu;
    return CLOTH_OK;
}

cloth_status cloth_set_collider_thickness(cloth_t *cloth, cloth_collider_id id, float offset)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !(offset >= 0.0f) || !isfinite(offset)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_collider *c = cloth_collider_find(cloth, id);
    if (c == NULL) {
        return CLOTH_ERR_OUT_OF_RANGE;
    }
    const float grown = offset + cloth->particle_radius;
    if (c->kind == CLOTH_COLLIDER_TORUS && !(c->size[1] + grown < c->size[0])) {
        return CLOTH_ERR_INVALID_ARGUMENT; /* the grown ring would close its hole (torus.c) */
    }
    if (!mesh_reach_ok(c, grown)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    c->thickness = offset;
    c->grown = grown;
    regrid(cloth, c);
    return CLOTH_OK;
}

cloth_status cloth_set_particle_radius(cloth_t *cloth, float radius)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !(radius >= 0.0f) || !isfinite(radius)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        const cloth_collider *c = &cloth->colliders[k];
        if (c->kind == CLOTH_COLLIDER_TORUS && !(c->size[1] + (c->thickness + radius) < c->size[0])) {
            return CLOTH_ERR_INVALID_ARGUMENT; /* a grown ring would close its hole */
        }
        if (!mesh_reach_ok(c, c->thickness + radius)) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
    }
    cloth->particle_radius = radius;
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        cloth->colliders[k].grown = cloth->colliders[k].thickness + radius;
        regrid(cloth, &cloth->colliders[k]);
    }
    return CLOTH_OK;
}

cloth_status cloth_get_particle_radius(const cloth_t *cloth, float *radius)
{
    if (cloth == NULL || radius == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *radius = cloth->particle_radius;
    return CLOTH_OK;
}

/* The pose the collider heads for: a checked position and normalised
 * rotation, either NULL to keep it. */
static void take_pose(cloth_collider *c, const float position[3], const float q[4])
{
    for (int k = 0; position != NULL && k < 3; ++k) {
        c->to.p[k] = position[k];
    }
    for (int k = 0; q != NULL && k < 4; ++k) {
        c->to.q[k] = q[k];
    }
}

cloth_status cloth_set_collider_transform(cloth_t *cloth, cloth_collider_id id, const float position[3],
                                          const float rotation[4])
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || (position != NULL && !cloth_finite3(position))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    float q[4];
    if (rotation != NULL && !cloth_quat_accept(rotation, q)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_collider *c = cloth_collider_find(cloth, id);
    if (c == NULL) {
        return CLOTH_ERR_OUT_OF_RANGE;
    }
    take_pose(c, position, rotation != NULL ? q : NULL);
    return CLOTH_OK;
}

cloth_status cloth_set_collider_transforms(cloth_t *cloth, const cloth_collider_id *ids, uint32_t count,
                                           const float *positions, const float *rotations)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || (count > 0u && ids == NULL)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    /* every pose checked before any is taken: a refused call moves nothing */
    for (uint32_t k = 0; k < count; ++k) {
        float q[4];
        if ((positions != NULL && !cloth_finite3(positions + 3u * (size_t)k)) ||
            (rotations != NULL && !cloth_quat_accept(rotations + 4u * (size_t)k, q))) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
    }
    for (uint32_t k = 0; k < count; ++k) {
        if (cloth_collider_find(cloth, ids[k]) == NULL) {
            return CLOTH_ERR_OUT_OF_RANGE;
        }
    }
    for (uint32_t k = 0; k < count; ++k) {
        float q[4];
        const bool turn = rotations != NULL && cloth_quat_accept(rotations + 4u * (size_t)k, q);
        take_pose(cloth_collider_find(cloth, ids[k]), positions != NULL ? positions + 3u * (size_t)k : NULL,
                  turn ? q : NULL);
    }
    return CLOTH_OK;
}

cloth_status cloth_get_collider_transform(const cloth_t *cloth, cloth_collider_id id, float position[3],
                                          float rotation[4])
{
    if (cloth == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const cloth_collider *c = cloth_collider_find(cloth, id);
    if (c == NULL) {
        return CLOTH_ERR_OUT_OF_RANGE;
    }
    for (int k = 0; position != NULL && k < 3; ++k) {
        position[k] = c->to.p[k];
    }
    for (int k = 0; rotation != NULL && k < 4; ++k) {
        rotation[k] = c->to.q[k];
    }
    return CLOTH_OK;
}

cloth_status cloth_remove_collider(cloth_t *cloth, cloth_collider_id id)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_collider *c = cloth_collider_find(cloth, id);
    if (c == NULL) {
        return CLOTH_ERR_OUT_OF_RANGE;
    }
    release(cloth, c);
    /* keep the order: colliders resolve in the order they were added */
    uint32_t k = (uint32_t)(c - cloth->colliders);
    for (; k + 1u < cloth->collider_count; ++k) {
        cloth->colliders[k] = cloth->colliders[k + 1u];
    }
    --cloth->collider_count;
    return CLOTH_OK;
}

void cloth_colliders_free(cloth_t *cloth)
{
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        release(cloth, &cloth->colliders[k]);
    }
    cloth_mem_free(&cloth->alloc, cloth->colliders, (size_t)cloth->collider_capacity * sizeof *cloth->colliders);
    cloth->colliders = NULL;
    cloth->collider_count = cloth->collider_capacity = 0u;
}
