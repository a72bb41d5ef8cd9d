/*
 * What version 3 snapshots add after the colliders (snapshot_ext.h): the
 * state of a worn cloth that the next steps depend on besides the
 * particles, pins and collider poses. A word of flags says which sections
 * follow, in this order:
 *   skin       28 bytes a particle: target xyz, start xyz, max distance
 *   backstops  32 bytes a particle: normal xyz, start normal xyz, distance, radius
 *   frame      64 bytes: position and rotation at the step's start and end, linear and angular inertia
 *   meshes     8 bytes (mesh count, vertex total), then per triangle-mesh
 *              collider in the cloth's order: vertex count, moving (0 or 1),
 *              then its vertices where the step began, where it ends and
 *              where it stands (3 floats each)
 * Each section is written only when the cloth has it (the frame when it is
 * not a new cloth's), so snapshots of cloths without them stay version 2.
 */
#include "snapshot_ext.h"
#include "backstop.h"
#include "colliders/colliders.h"
#include "colliders/mesh_collider.h"
#include "frame.h"
#include "platform/bytes.h"
#include "skin.h"

#include <string.h>

#define EXT_SKIN 1u
#define EXT_SKIN_MOVING 2u
#define EXT_BACKSTOP 4u
#define EXT_BACKSTOP_MOVING 8u
#define EXT_FRAME 16u
#define EXT_MESHES 32u
#define EXT_KNOWN 63u

#define SKIN_BYTES 28u
#define BACKSTOP_BYTES 32u
#define FRAME_FLOATS 16u

static bool frame_is_default(const cloth_frame *f)
{
    for (int k = 0; k < 3; ++k) {
        if (f->p0[k] != 0.0f || f->p1[k] != 0.0f || f->q0[k] != 0.0f || f->q1[k] != 0.0f) {
            return false;
        }
    }
    return f->q0[3] == 1.0f && f->q1[3] == 1.0f && f->linear == 1.0f && f->angular == 1.0f;
}

static uint32_t word_of(const cloth_t *cloth)
{
    uint32_t w = 0u;
    if (cloth->skin.block != NULL) {
        w |= EXT_SKIN | (cloth->skin.moving ? EXT_SKIN_MOVING : 0u);
    }
    if (cloth->backstop.block != NULL) {
        w |= EXT_BACKSTOP | (cloth->backstop.moving ? EXT_BACKSTOP_MOVING : 0u);
    }
    if (!frame_is_default(&cloth->frame)) {
        w |= EXT_FRAME;
    }
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        w |= cloth->colliders[k].mesh != NULL ? EXT_MESHES : 0u;
    }
    return w;
}

uint64_t cloth_ext_bytes(const cloth_t *cloth)
{
    const uint32_t w = word_of(cloth);
    if (w == 0u) {
        return 0u;
    }
    const uint64_t n = cloth->count;
    uint64_t bytes = 4u;
    bytes += (w & EXT_SKIN) ? SKIN_BYTES * n : 0u;
    bytes += (w & EXT_BACKSTOP) ? BACKSTOP_BYTES * n : 0u;
    bytes += (w & EXT_FRAME) ? 4u * FRAME_FLOATS : 0u;
    if (w & EXT_MESHES) {
        bytes += 8u;
        for (uint32_t k = 0; k < cloth->collider_count; ++k) {
            const cloth_collider_mesh *m = cloth->colliders[k].mesh;
            bytes += m != NULL ? 8u + 36u * (uint64_t)m->vertex_count : 0u;
        }
    }
    return bytes;
}

unsigned char *cloth_ext_put(const cloth_t *cloth, unsigned char *p)
{
    const uint32_t w = word_of(cloth), n = cloth->count;
    if (w == 0u) {
        return p;
    }
    p = put_u32(p, w);
    if (w & EXT_SKIN) {
        const cloth_skin *k = &cloth->skin;
        const float *planes[7] = {k->tx, k->ty, k->tz, k->sx, k->sy, k->sz, k->dist};
        for (int a = 0; a < 7; ++a) {
            p = put_floats(p, planes[a], n);
        }
    }
    if (w & EXT_BACKSTOP) {
        const cloth_backstop *b = &cloth->backstop;
        const float *planes[8] = {b->nx, b->ny, b->nz, b->sx, b->sy, b->sz, b->dist, b->radius};
        for (int a = 0; a < 8; ++a) {
            p = put_floats(p, planes[a], n);
        }
    }
    if (w & EXT_FRAME) {
        const cloth_frame *f = &cloth->frame;
        p = put_floats(p, f->p0, 3u);
        p = put_floats(p, f->q0, 4u);
        p = put_floats(p, f->p1, 3u);
        p = put_floats(p, f->q1, 4u);
        p = put_f32(p, f->linear);
        p = put_f32(p, f->angular);
    }
    if (w & EXT_MESHES) {
        uint32_t meshes = 0u, total = 0u;
        for (uint32_t k = 0; k < cloth->collider_count; ++k) {
            const cloth_collider_mesh *m = cloth->colliders[k].mesh;
            meshes += m != NULL ? 1u : 0u;
            total += m != NULL ? m->vertex_count : 0u;
        }
        p = put_u32(p, meshes);
        p = put_u32(p, total);
        for (uint32_t k = 0; k < cloth->collider_count; ++k) {
            const cloth_collider_mesh *m = cloth->colliders[k].mesh;
            if (m == NULL) {
                continue;
            }
            const size_t v3 = 3u * (size_t)m->vertex_count;
            p = put_u32(p, m->vertex_count);
            p = put_u32(p, m->moving ? 1u : 0u);
            p = put_floats(p, m->from, v3);
            p = put_floats(p, m->to, v3);
            p = put_floats(p, m->at, v3);
        }
    }
    return p;
}

bool cloth_ext_measure(const unsigned char *p, uint64_t avail, uint32_t count, uint64_t *bytes)
{
    if (avail < 4u) {
        return false;
    }
    const uint32_t w = get_u32(p);
    if ((w & ~EXT_KNOWN) != 0u || w == 0u || ((w & EXT_SKIN_MOVING) && !(w & EXT_SKIN)) ||
        ((w & EXT_BACKSTOP) && !(w & EXT_SKIN)) || ((w & EXT_BACKSTOP_MOVING) && !(w & EXT_BACKSTOP))) {
        return false;
    }
    uint64_t off = 4u;
    off += (w & EXT_SKIN) ? SKIN_BYTES * (uint64_t)count : 0u;
    off += (w & EXT_BACKSTOP) ? BACKSTOP_BYTES * (uint64_t)count : 0u;
    off += (w & EXT_FRAME) ? 4u * FRAME_FLOATS : 0u;
    if (w & EXT_MESHES) {
        if (off + 8u > avail) {
            return false;
        }
        const uint32_t meshes = get_u32(p + off), total = get_u32(p + off + 4u);
        off += 8u;
        uint64_t sum = 0u;
        for (uint32_t k = 0; k < meshes; ++k) {
            if (off + 8u > avail) {
                return false;
            }
            const uint32_t v = get_u32(p + off), moving = get_u32(p + off + 4u);
            if (moving > 1u) {
                return false;
            }
            sum += v;
            off += 8u + 36u * (uint64_t)v;
        }
        if (meshes == 0u || sum != total) {
            return false;
        }
    }
    if (off > avail) {
        return false;
    }
    *bytes = off;
    return true;
}

/* Floats i of a plane of `n` at p. */
static float at_plane(const unsigned char *p, uint32_t n, int plane, uint32_t i)
{
    return get_f32(p + 4u * ((size_t)plane * n + i));
}

static bool unit_or_zero(float x, float y, float z)
{
    const float n2 = (x * x + y * y) + z * z;
    const bool none = x == 0.0f && y == 0.0f && z == 0.0f;
    return isfinite(x) && isfinite(y) && isfinite(z) && (none || fabsf(n2 - 1.0f) <= 1e-3f);
}

static bool unit_quat(const unsigned char *q)
{
    double n2 = 0.0;
    for (int k = 0; k < 4; ++k) {
        const double c = (double)get_f32(q + 4 * k);
        n2 += c * c;
    }
    return fabs(n2 - 1.0) <= 1e-3;
}

bool cloth_ext_check(const cloth_t *cloth, const unsigned char *p)
{
    uint32_t meshes = 0u;
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        meshes += cloth->colliders[k].mesh != NULL ? 1u : 0u;
    }
    if (p == NULL) {
        return meshes == 0u;
    }
    const uint32_t w = get_u32(p), n = cloth->count;
    const unsigned char *s = p + 4;
    if (w & EXT_SKIN) {
        if (!floats_finite(s, 6u * (size_t)n)) {
            return false;
        }
        for (uint32_t i = 0; i < n; ++i) {
            if (!(at_plane(s, n, 6, i) >= 0.0f)) {
                return false; /* negative or NaN; +inf is free */
            }
        }
        s += SKIN_BYTES * (size_t)n;
    }
    if (w & EXT_BACKSTOP) {
        for (uint32_t i = 0; i < n; ++i) {
            const float d = at_plane(s, n, 6, i), r = at_plane(s, n, 7, i);
            if (!unit_or_zero(at_plane(s, n, 0, i), at_plane(s, n, 1, i), at_plane(s, n, 2, i)) ||
                !unit_or_zero(at_plane(s, n, 3, i), at_plane(s, n, 4, i), at_plane(s, n, 5, i)) || !isfinite(d) ||
                !(r >= 0.0f) || !isfinite(r) || !isfinite(d + r)) {
                return false;
            }
        }
        s += BACKSTOP_BYTES * (size_t)n;
    }
    if (w & EXT_FRAME) {
        const float linear = get_f32(s + 56), angular = get_f32(s + 60);
        if (!floats_finite(s, FRAME_FLOATS) || !unit_quat(s + 12) || !unit_quat(s + 40) || !(linear >= 0.0f) ||
            !(linear <= 1.0f) || !(angular >= 0.0f) || !(angular <= 1.0f)) {
            return false;
        }
        s += 4u * FRAME_FLOATS;
    }
    if (!(w & EXT_MESHES)) {
        return meshes == 0u;
    }
    if (get_u32(s) != meshes) {
        return false;
    }
    s += 8;
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        const cloth_collider_mesh *m = cloth->colliders[k].mesh;
        if (m == NULL) {
            continue;
        }
        if (get_u32(s) != m->vertex_count) {
            return false;
        }
        s += 8u + 36u * (size_t)m->vertex_count;
    }
    return true;
}

/* Where the meshes' section starts. */
static const unsigned char *meshes_at(const unsigned char *p, uint32_t n)
{
    const uint32_t w = get_u32(p);
    size_t off = 4u;
    off += (w & EXT_SKIN) ? SKIN_BYTES * (size_t)n : 0u;
    off += (w & EXT_BACKSTOP) ? BACKSTOP_BYTES * (size_t)n : 0u;
    off += (w & EXT_FRAME) ? 4u * FRAME_FLOATS : 0u;
    return p + off + 8u;
}

static void release(cloth_t *cloth, cloth_ext_stage *st, bool undo)
{
    cloth_mesh_grid_plan *plans = st->plans;
    for (uint32_t k = 0; undo && k < st->meshes; ++k) {
        cloth_mesh_grid_drop(&cloth->alloc, &plans[k]);
    }
    cloth_mem_free(&cloth->alloc, st->verts, st->verts_bytes);
    cloth_mem_free(&cloth->alloc, st->plans, st->plans_bytes);
    if (undo && st->fresh_backstop) {
        cloth_backstop_free(cloth);
    }
    if (undo && st->fresh_skin) {
        cloth_skin_free(cloth);
    }
    memset(st, 0, sizeof *st);
}

cloth_status cloth_ext_prepare(cloth_t *cloth, const unsigned char *p, cloth_ext_stage *st)
{
    memset(st, 0, sizeof *st);
    if (p == NULL) {
        return CLOTH_OK;
    }
    const uint32_t w = get_u32(p);
    cloth_status s = CLOTH_OK;
    if ((w & EXT_SKIN) && cloth->skin.block == NULL) {
        s = cloth_skin_reserve(cloth);
        st->fresh_skin = s == CLOTH_OK;
    }
    if (s == CLOTH_OK && (w & EXT_BACKSTOP) && cloth->backstop.block == NULL) {
        s = cloth_backstop_reserve(cloth);
        st->fresh_backstop = s == CLOTH_OK;
    }
    if (s != CLOTH_OK || !(w & EXT_MESHES)) {
        if (s != CLOTH_OK) {
            release(cloth, st, true);
        }
        return s;
    }
    const unsigned char *m_at = meshes_at(p, cloth->count);
    const uint32_t meshes = get_u32(m_at - 8), total = get_u32(m_at - 4);
    st->verts_bytes = 9u * (size_t)total * sizeof(float);
    st->plans_bytes = (size_t)meshes * sizeof(cloth_mesh_grid_plan);
    st->verts = cloth_mem_alloc(&cloth->alloc, st->verts_bytes);
    st->plans = cloth_mem_alloc(&cloth->alloc, st->plans_bytes);
    if (st->verts == NULL || st->plans == NULL) {
        release(cloth, st, true);
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    cloth_mesh_grid_plan *plans = st->plans;
    float *v = st->verts;
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        const cloth_collider *c = &cloth->colliders[k];
        if (c->mesh == NULL) {
            continue;
        }
        const size_t v3 = 3u * (size_t)c->mesh->vertex_count;
        for (size_t i = 0; i < 3u * v3; ++i) {
            v[i] = get_f32(m_at + 8u + 4u * i);
        }
        m_at += 8u + 12u * v3;
        if (!cloth_mesh_collider_vertices_ok(c->mesh, v) || !cloth_mesh_collider_vertices_ok(c->mesh, v + v3) ||
            !cloth_mesh_collider_vertices_ok(c->mesh, v + 2u * v3)) {
            release(cloth, st, true);
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
        /* the grid over where it stands and where it goes, as after a deform call */
        if (!cloth_mesh_grid_plan_for(&cloth->alloc, c->mesh, v + 2u * v3, v + v3, c->grown + c->mesh->depth,
                                      &plans[st->meshes])) {
            release(cloth, st, true);
            return CLOTH_ERR_OUT_OF_MEMORY;
        }
        ++st->meshes;
        v += 3u * v3;
    }
    return CLOTH_OK;
}

void cloth_ext_commit(cloth_t *cloth, const unsigned char *p, cloth_ext_stage *st)
{
    const uint32_t w = p != NULL ? get_u32(p) : 0u, n = cloth->count;
    const unsigned char *s = p != NULL ? p + 4 : NULL;
    if (w & EXT_SKIN) {
        cloth_skin *k = &cloth->skin;
        float *planes[7] = {k->tx, k->ty, k->tz, k->sx, k->sy, k->sz, k->dist};
        for (int a = 0; a < 7; ++a) {
            for (uint32_t i = 0; i < n; ++i) {
                planes[a][i] = at_plane(s, n, a, i);
            }
        }
        k->moving = (w & EXT_SKIN_MOVING) != 0u;
        cloth_skin_recount(cloth);
        s += SKIN_BYTES * (size_t)n;
    }
    if (w & EXT_BACKSTOP) {
        cloth_backstop *b = &cloth->backstop;
        float *planes[8] = {b->nx, b->ny, b->nz, b->sx, b->sy, b->sz, b->dist, b->radius};
        for (int a = 0; a < 8; ++a) {
            for (uint32_t i = 0; i < n; ++i) {
                planes[a][i] = at_plane(s, n, a, i);
            }
        }
        b->moving = (w & EXT_BACKSTOP_MOVING) != 0u;
        cloth_backstop_recount(cloth);
        s += BACKSTOP_BYTES * (size_t)n;
    } else {
        cloth_backstop_free(cloth); /* a cloth that had none when it saved */
    }
    if (!(w & EXT_SKIN)) {
        cloth_skin_free(cloth);
    }
    cloth_frame_defaults(cloth);
    if (w & EXT_FRAME) {
        cloth_frame *f = &cloth->frame;
        float v[FRAME_FLOATS];
        for (uint32_t i = 0; i < FRAME_FLOATS; ++i) {
            v[i] = get_f32(s + 4u * i);
        }
        memcpy(f->p0, v, 3u * sizeof(float));
        memcpy(f->q0, v + 3, 4u * sizeof(float));
        memcpy(f->p1, v + 7, 3u * sizeof(float));
        memcpy(f->q1, v + 10, 4u * sizeof(float));
        f->linear = v[14];
        f->angular = v[15];
        s += 4u * FRAME_FLOATS;
    }
    if (w & EXT_MESHES) {
        const unsigned char *m_at = s + 8;
        cloth_mesh_grid_plan *plans = st->plans;
        const float *v = st->verts;
        uint32_t j = 0u;
        for (uint32_t k = 0; k < cloth->collider_count; ++k) {
            cloth_collider_mesh *m = cloth->colliders[k].mesh;
            if (m == NULL) {
                continue;
            }
            const size_t v3 = 3u * (size_t)m->vertex_count;
            m->moving = get_u32(m_at + 4u) != 0u;
            m->inv_dt = 0.0f; /* a moving mesh sets it as its step starts */
            memcpy(m->from, v, v3 * sizeof(float));
            memcpy(m->to, v + v3, v3 * sizeof(float));
            memcpy(m->at, v + 2u * v3, v3 * sizeof(float));
            cloth_mesh_collider_refresh(m);
            cloth_mesh_grid_apply(&cloth->alloc, m, m->at, m->to, &plans[j++]);
            m_at += 8u + 12u * v3;
            v += 3u * v3;
        }
    }
    release(cloth, st, false);
}
