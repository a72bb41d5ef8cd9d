/*
 * Backstops (include/clothsim/skin.h): each skinned particle may have a
 * ball of radius r whose surface lies a distance d behind its skin target,
 * along the skin's outward normal n there: centre target - n (d + r). The
 * particle is kept out of the ball. A large radius makes it a plane d
 * behind the skin (a cape that may not cross into the back); a small one a
 * round bump. Jolt's skinned constraints have the same backstop; NvCloth's
 * separation constraints are such balls.
 *
 * Kept with the max distances, after every substep and every strain-limit
 * pass, before the tethers and colliders (step.c), one particle at a time,
 * so any split of the particles over threads gives the same bits. The
 * normals move over the step as the targets do: the pass reads the
 * normalised blend of the step's start and end normals.
 */
#include "backstop.h"
#include "platform/stride.h"
#include "skin.h"

#include <math.h>
#include <string.h>

enum { BACKSTOP_FLOATS = 8 }; /* per particle: normal at end and start (xyz each), distance, radius */

/* A normal must be unit within this (squared length), or exactly 0 (none). */
#define NORMAL_TOLERANCE 1e-3f

cloth_status cloth_backstop_reserve(cloth_t *cloth)
{
    cloth_backstop *b = &cloth->backstop;
    if (b->block != NULL) {
        return CLOTH_OK;
    }
    const size_t n = cloth->count, bytes = BACKSTOP_FLOATS * n * sizeof(float);
    float *f = cloth_mem_alloc(&cloth->alloc, bytes);
    if (f == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memset(f, 0, bytes);
    b->block = f;
    b->block_bytes = bytes;
    b->nx = f;
    b->ny = f + n;
    b->nz = f + 2u * n;
    b->sx = f + 3u * n;
    b->sy = f + 4u * n;
    b->sz = f + 5u * n;
    b->dist = f + 6u * n;
    b->radius = f + 7u * n;
    b->active = 0u;
    b->moving = false;
    return CLOTH_OK;
}

/* Both blocks, or neither changed: the backstops read the skin's targets. */
static cloth_status reserve_both(cloth_t *cloth)
{
    const bool had_skin = cloth->skin.block != NULL;
    cloth_status s = cloth_skin_reserve(cloth);
    if (s == CLOTH_OK) {
        s = cloth_backstop_reserve(cloth);
        if (s != CLOTH_OK && !had_skin) {
            cloth_skin_free(cloth);
        }
    }
    return s;
}

cloth_status cloth_set_skin_normals(cloth_t *cloth, const float *normals, size_t stride_bytes)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || normals == NULL || !cloth_stride_ok(&stride_bytes, cloth->count, 3u * sizeof(float))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const unsigned char *in = (const unsigned char *)normals;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        float v[3];
        memcpy(v, in + (size_t)i * stride_bytes, sizeof v);
        const float n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        const bool none = v[0] == 0.0f && v[1] == 0.0f && v[2] == 0.0f;
        if (!cloth_finite3(v) || !(none || fabsf(n2 - 1.0f) <= NORMAL_TOLERANCE)) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
    }
    const bool first = cloth->backstop.block == NULL;
    const cloth_status s = reserve_both(cloth);
    if (s != CLOTH_OK) {
        return s;
    }
    cloth_backstop *b = &cloth->backstop;
    cloth_read3(cloth, b->nx, b->ny, b->nz, normals, stride_bytes);
    if (first) {
        const size_t plane = (size_t)cloth->count * sizeof(float);
        memcpy(b->sx, b->nx, plane);
        memcpy(b->sy, b->ny, plane);
        memcpy(b->sz, b->nz, plane);
    }
    b->moving = !first;
    return CLOTH_OK;
}

cloth_status cloth_set_backstops(cloth_t *cloth, const float *backstops, size_t stride_bytes)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || backstops == NULL || !cloth_stride_ok(&stride_bytes, cloth->count, 2u * sizeof(float))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const unsigned char *in = (const unsigned char *)backstops;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        float v[2];
        memcpy(v, in + (size_t)i * stride_bytes, sizeof v);
        /* the centre, d + r behind the target, must stay in the float range too */
        if (!isfinite(v[0]) || !(v[1] >= 0.0f) || !isfinite(v[1]) || !isfinite(v[0] + v[1])) {
            return CLOTH_ERR_INVALID_ARGUMENT;
        }
    }
    const cloth_status s = reserve_both(cloth);
    if (s != CLOTH_OK) {
        return s;
    }
    cloth_backstop *b = &cloth->backstop;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        float v[2];
        memcpy(v, in + (size_t)i * stride_bytes, sizeof v);
        b->dist[i] = v[0];
        b->radius[i] = v[1];
    }
    cloth_backstop_recount(cloth);
    return CLOTH_OK;
}

void cloth_backstop_recount(cloth_t *cloth)
{
    cloth_backstop *b = &cloth->backstop;
    uint32_t active = 0u;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        active += b->radius[i] > 0.0f ? 1u : 0u;
    }
    b->active = active;
}

void cloth_backstop_project_range(cloth_t *cloth, uint32_t first, uint32_t last)
{
    const cloth_backstop *b = &cloth->backstop;
    if (b->active == 0u) {
        return;
    }
    cloth_particles *p = &cloth->p;
    const float t = cloth->skin.t, u = 1.0f - t;
    for (uint32_t i = first; i < last; ++i) {
        const float r = b->radius[i];
        if (!(p->w[i] > 0.0f) || !(r > 0.0f)) {
            continue; /* pinned, or no ball */
        }
        float n[3] = {u * b->sx[i] + t * b->nx[i], u * b->sy[i] + t * b->ny[i], u * b->sz[i] + t * b->nz[i]};
        const float n2 = (n[0] * n[0] + n[1] * n[1]) + n[2] * n[2];
        if (!(n2 > 0.0f)) {
            continue; /* no normal given: no direction to put the ball in */
        }
        const float inv = 1.0f / sqrtf(n2), back = b->dist[i] + r;
        for (int a = 0; a < 3; ++a) {
            n[a] *= inv;
        }
        float target[3];
        cloth_skin_target_at(cloth, i, target);
        const float cx = target[0] - n[0] * back, cy = target[1] - n[1] * back, cz = target[2] - n[2] * back;
        const float ex = p->x[i] - cx, ey = p->y[i] - cy, ez = p->z[i] - cz;
        const float len2 = (ex * ex + ey * ey) + ez * ez;
        if (!(len2 < r * r)) {
            continue;
        }
        /* out along the ray from the centre; at the very centre along n */
        const float len = sqrtf(len2);
        const float ox = len > 0.0f ? ex / len : n[0], oy = len > 0.0f ? ey / len : n[1];
        const float oz = len > 0.0f ? ez / len : n[2];
        p->x[i] = cx + ox * r;
        p->y[i] = cy + oy * r;
        p->z[i] = cz + oz * r;
        /* the part of the velocity, relative to the target's, that runs
         * into the ball goes */
        const float out[3] = {ox, oy, oz};
        cloth_skin_stop(cloth, i, out, -1.0f);
    }
}

void cloth_backstop_end_step(cloth_t *cloth)
{
    cloth_backstop *b = &cloth->backstop;
    if (b->block == NULL || !b->moving) {
        return;
    }
    const size_t plane = (size_t)cloth->count * sizeof(float);
    memcpy(b->sx, b->nx, plane);
    memcpy(b->sy, b->ny, plane);
    memcpy(b->sz, b->nz, plane);
    b->moving = false;
}

void cloth_backstop_free(cloth_t *cloth)
{
    cloth_mem_free(&cloth->alloc, cloth->backstop.block, cloth->backstop.block_bytes);
    memset(&cloth->backstop, 0, sizeof cloth->backstop);
}
