/*
 * The collider table and the pass over all colliders at the end of each
 * substep. Shapes find the particles inside them; the response (push out,
 * drop the inward velocity, Coulomb friction) is shared.
 */
#include "cloth_internal.h"

static cloth_collider *find(cloth_t *cloth, cloth_collider_id id)
{
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        if (cloth->colliders[k].id == id) {
            return &cloth->colliders[k];
        }
    }
    return NULL;
}

static cloth_status add(cloth_t *cloth, const cloth_collider *shape, cloth_collider_id *out)
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
    c->id = cloth->next_collider_id++;
    *out = c->id;
    return CLOTH_OK;
}

cloth_status cloth_add_sphere(cloth_t *cloth, const float center[3], float radius, cloth_collider_id *out)
{
    if (cloth == NULL || center == NULL || out == NULL || !cloth_finite3(center) ||
        !(radius > 0.0f) || !isfinite(radius)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_collider shape = {0};
    shape.kind = CLOTH_COLLIDER_SPHERE;
    for (int k = 0; k < 3; ++k) {
        shape.p[k] = center[k];
    }
    shape.radius = radius;
    return add(cloth, &shape, out);
}

cloth_status cloth_add_plane(cloth_t *cloth, const float point[3], const float normal[3], cloth_collider_id *out)
{
    cloth_collider shape = {0};
    if (cloth == NULL || point == NULL || normal == NULL || out == NULL || !cloth_finite3(point) ||
        !cloth_normalise3(normal, shape.n)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    shape.kind = CLOTH_COLLIDER_PLANE;
    for (int k = 0; k < 3; ++k) {
        shape.p[k] = point[k];
    }
    return add(cloth, &shape, out);
}

cloth_status cloth_add_ellipsoid(cloth_t *cloth, const float center[3], const float radii[3],
                                 const float rotation[4], cloth_collider_id *out)
{
    if (cloth == NULL || center == NULL || radii == NULL || out == NULL || !cloth_finite3(center) ||
        !cloth_finite3(radii) || !(radii[0] > 0.0f) || !(radii[1] > 0.0f) || !(radii[2] > 0.0f)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (rotation != NULL) {
        if (!cloth_finite3(rotation) || !isfinite(rotation[3])) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
        float n2 = rotation[0] * rotation[0] + rotation[1] * rotation[1] + rotation[2] * rotation[2] +
                   rotation[3] * rotation[3];
        if (!(fabsf(n2 - 1.0f) <= 1e-3f)) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
    }
    return CLOTH_ERR_UNSUPPORTED;
}

cloth_status cloth_set_collider_friction(cloth_t *cloth, cloth_collider_id id, float mu)
{
    if (cloth == NULL || !(mu >= 0.0f) || !isfinite(mu)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_collider *c = find(cloth, id);
    if (c == NULL) {
        return CLOTH_ERR_OUT_OF_RANGE;
    }
    c->friction = mu;
    return CLOTH_OK;
}

cloth_status cloth_set_collider_thickness(cloth_t *cloth, cloth_collider_id id, float offset)
{
    if (cloth == NULL || !(offset >= 0.0f) || !isfinite(offset)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_collider *c = find(cloth, id);
    if (c == NULL) {
        return CLOTH_ERR_OUT_OF_RANGE;
    }
    c->thickness = offset;
    return CLOTH_OK;
}

cloth_status cloth_remove_collider(cloth_t *cloth, cloth_collider_id id)
{
    if (cloth == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_collider *c = find(cloth, id);
    if (c == NULL) {
        return CLOTH_ERR_OUT_OF_RANGE;
    }
    /* keep the order: colliders resolve in the order they were added */
    uint32_t k = (uint32_t)(c - cloth->colliders);
    for (; k + 1u < cloth->collider_count; ++k) {
        cloth->colliders[k] = cloth->colliders[k + 1u];
    }
    --cloth->collider_count;
    return CLOTH_OK;
}

void cloth_collider_resolve(cloth_t *cloth, uint32_t i, const float n[3], float depth, float friction,
                            float h)
{
    cloth_particles *p = &cloth->p;
    p->x[i] += depth * n[0];
    p->y[i] += depth * n[1];
    p->z[i] += depth * n[2];
    float vn = p->vx[i] * n[0] + p->vy[i] * n[1] + p->vz[i] * n[2];
    if (vn >= 0.0f) {
        return; /* already leaving the surface */
    }
    float tx = p->vx[i] - vn * n[0], ty = p->vy[i] - vn * n[1], tz = p->vz[i] - vn * n[2];
    float keep = 1.0f;
    if (friction > 0.0f) {
        /* Coulomb: the tangential speed drops by at most mu times the normal
         * speed removed, and stops (static friction) when that is enough. */
        float vt = sqrtf(tx * tx + ty * ty + tz * tz);
        float drop = -vn * friction;
        keep = vt > drop ? 1.0f - drop / vt : 0.0f;
        /* The particle already slid with the velocity friction now removes;
         * take that slide back too (h is the integrator's d(x)/d(v)), or a
         * resting particle creeps down a slope by about g h^2 sin(theta)
         * every substep although its velocity is zero. */
        float back = (1.0f - keep) * h;
        p->x[i] -= tx * back;
        p->y[i] -= ty * back;
        p->z[i] -= tz * back;
    }
    p->vx[i] = tx * keep;
    p->vy[i] = ty * keep;
    p->vz[i] = tz * keep;
}

typedef bool (*contact_fn)(const cloth_collider *c, const float x[3], float n[3], float *depth);

static contact_fn contact_of(cloth_collider_kind kind)
{
    switch (kind) {
    case CLOTH_COLLIDER_SPHERE:
        return cloth_contact_sphere;
    case CLOTH_COLLIDER_PLANE:
        return cloth_contact_plane;
    }
    return NULL;
}

static void collide(cloth_t *cloth, const cloth_collider *c, contact_fn contact, uint32_t i)
{
    const float x[3] = {cloth->p.x[i], cloth->p.y[i], cloth->p.z[i]};
    float n[3], depth;
    if (contact(c, x, n, &depth)) {
        cloth_collider_resolve(cloth, i, n, depth, c->friction, cloth->friction_lag);
    }
}

void cloth_colliders_apply(cloth_t *cloth)
{
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        const cloth_collider *c = &cloth->colliders[k];
        const contact_fn contact = contact_of(c->kind);
        for (uint32_t i = 0; i < cloth->count; ++i) {
            if (cloth->p.w[i] > 0.0f) { /* pinned: the host decides where it is */
                collide(cloth, c, contact, i);
            }
        }
    }
}

void cloth_colliders_apply_one(cloth_t *cloth, uint32_t i)
{
    for (uint32_t k = 0; k < cloth->collider_count && cloth->p.w[i] > 0.0f; ++k) {
        collide(cloth, &cloth->colliders[k], contact_of(cloth->colliders[k].kind), i);
    }
}

void cloth_colliders_free(cloth_t *cloth)
{
    cloth_mem_free(&cloth->alloc, cloth->colliders, (size_t)cloth->collider_capacity * sizeof *cloth->colliders);
    cloth->colliders = NULL;
    cloth->collider_count = cloth->collider_capacity = 0u;
}
