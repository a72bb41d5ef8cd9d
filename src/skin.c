/*
 * Skinned attachment (include/clothsim/skin.h). A particle of max distance 0
 * is an ordinary pin whose target the skin targets move, so the solvers, the
 * tethers, the strain limit and the colliders treat it as they treat any
 * pin; a positive distance is a projection onto the sphere about the
 * target, run with the tethers and colliders after every substep and every
 * limit pass (step.c), one particle at a time, so any split of the
 * particles over threads gives the same bits.
 */
#include "skin.h"
#include "constraints/constraints.h"
#include "pins.h"
#include "frame.h"
#include "platform/stride.h"

#include <math.h>
#include <string.h>

enum { SKIN_FLOATS = 7 }; /* per particle: target and start (xyz each), distance */

/* Made on the first call of either setter or by a snapshot's load. */
cloth_status cloth_skin_reserve(cloth_t *cloth)
{
    cloth_skin *k = &cloth->skin;
    if (k->block != NULL) {
        return CLOTH_OK;
    }
    const size_t n = cloth->count, bytes = SKIN_FLOATS * n * sizeof(float);
    float *b = cloth_mem_alloc(&cloth->alloc, bytes);
    if (b == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    k->block = b;
    k->block_bytes = bytes;
    k->tx = b;
    k->ty = b + n;
    k->tz = b + 2u * n;
    k->sx = b + 3u * n;
    k->sy = b + 4u * n;
    k->sz = b + 5u * n;
    k->dist = b + 6u * n;
    const size_t plane = n * sizeof(float);
    memcpy(k->tx, cloth->p.x, plane);
    memcpy(k->ty, cloth->p.y, plane);
    memcpy(k->tz, cloth->p.z, plane);
    memcpy(k->sx, cloth->p.x, plane);
    memcpy(k->sy, cloth->p.y, plane);
    memcpy(k->sz, cloth->p.z, plane);
    for (size_t i = 0; i < n; ++i) {
        k->dist[i] = INFINITY;
    }
    k->bounded = 0u;
    k->moving = false;
    k->t = 1.0f;
    k->dt = 1.0f;
    return CLOTH_OK;
}

/* The pins of particles at distance 0 go to their targets. */
static void move_skin_pins(cloth_t *cloth)
{
    const cloth_skin *k = &cloth->skin;
    for (uint32_t p = 0; p < cloth->pin_count; ++p) {
        cloth_pin_rec *pin = &cloth->pins[p];
        const uint32_t i = pin->index;
        if (k->dist[i] == 0.0f) {
            pin->target[0] = k->tx[i];
            pin->target[1] = k->ty[i];
            pin->target[2] = k->tz[i];
        }
    }
}

cloth_status cloth_set_skin_targets(cloth_t *cloth, const float *positions, size_t stride_bytes)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || positions == NULL || !cloth_stride_ok(&stride_bytes, cloth->count, 3u * sizeof(float))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (!cloth_read3_finite(cloth, positions, stride_bytes)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const bool first = cloth->skin.block == NULL;
    const cloth_status s = cloth_skin_reserve(cloth);
    if (s != CLOTH_OK) {
        return s;
    }
    cloth_skin *k = &cloth->skin;
    cloth_read3(cloth, k->tx, k->ty, k->tz, positions, stride_bytes);
    if (first) {
        /* the first targets are where the motion starts */
        const size_t plane = (size_t)cloth->count * sizeof(float);
        memcpy(k->sx, k->tx, plane);
        memcpy(k->sy, k->ty, plane);
        memcpy(k->sz, k->tz, plane);
    }
    k->moving = !first;
    move_skin_pins(cloth);
    return CLOTH_OK;
}

cloth_status cloth_set_max_distances(cloth_t *cloth, const float *distances, size_t stride_bytes)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || distances == NULL || !cloth_stride_ok(&stride_bytes, cloth->count, sizeof(float))) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    uint32_t new_pins = 0u;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        const float d = cloth_stride_float(distances, stride_bytes, i);
        if (!(d >= 0.0f)) {
            return CLOTH_ERR_INVALID_ARGUMENT; /* negative or NaN; +inf is free */
        }
        new_pins += d == 0.0f && cloth_pin_find(cloth, i) == NULL ? 1u : 0u;
    }
    const bool fresh = cloth->skin.block == NULL;
    cloth_status s = cloth_skin_reserve(cloth);
    if (s == CLOTH_OK && new_pins > 0u) {
        /* so that pinning below cannot fail half way, nor the step allocate */
        s = cloth_pins_reserve(cloth, cloth->pin_count + new_pins);
        if (s == CLOTH_OK) {
            s = cloth_tethers_reserve(cloth, cloth->pin_count + new_pins);
        }
    }
    if (s != CLOTH_OK) {
        if (fresh) {
            cloth_skin_free(cloth); /* a snapshot would hold it: nothing may change */
        }
        return s;
    }
    cloth_skin *k = &cloth->skin;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        const float d = cloth_stride_float(distances, stride_bytes, i);
        if (d == 0.0f) {
            const float target[3] = {k->tx[i], k->ty[i], k->tz[i]};
            (void)cloth_do_pin(cloth, i, target); /* room reserved above */
        } else if (k->dist[i] == 0.0f) {
            cloth_do_unpin(cloth, i);
        }
        k->dist[i] = d;
    }
    cloth_skin_recount(cloth);
    return CLOTH_OK;
}

void cloth_skin_recount(cloth_t *cloth)
{
    cloth_skin *k = &cloth->skin;
    uint32_t bounded = 0u;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        bounded += k->dist[i] > 0.0f && k->dist[i] < INFINITY ? 1u : 0u;
    }
    k->bounded = bounded;
}

void cloth_skin_target_at(const cloth_t *cloth, uint32_t i, float out[3])
{
    const cloth_skin *k = &cloth->skin;
    const float t = k->t, u = 1.0f - t;
    out[0] = u * k->sx[i] + t * k->tx[i];
    out[1] = u * k->sy[i] + t * k->ty[i];
    out[2] = u * k->sz[i] + t * k->tz[i];
}

void cloth_skin_stop(cloth_t *cloth, uint32_t i, const float n[3], float sign)
{
    const cloth_skin *k = &cloth->skin;
    cloth_particles *p = &cloth->p;
    const float dt = k->dt;
    const float start[3] = {k->sx[i], k->sy[i], k->sz[i]};
    float from[3];
    cloth_frame_step_carry(cloth, start, from);
    const float vx = p->vx[i] - (k->tx[i] - from[0]) / dt, vy = p->vy[i] - (k->ty[i] - from[1]) / dt;
    const float vz = p->vz[i] - (k->tz[i] - from[2]) / dt;
    const float along = (vx * n[0] + vy * n[1]) + vz * n[2];
    if (along * sign > 0.0f) {
        p->vx[i] -= along * n[0];
        p->vy[i] -= along * n[1];
        p->vz[i] -= along * n[2];
    }
}

void cloth_skin_project_range(cloth_t *cloth, uint32_t first, uint32_t last)
{
    const cloth_skin *k = &cloth->skin;
    if (k->bounded == 0u) {
        return;
    }
    cloth_particles *p = &cloth->p;
    for (uint32_t i = first; i < last; ++i) {
        const float d = k->dist[i];
        if (!(p->w[i] > 0.0f) || !(d > 0.0f) || !(d < INFINITY)) {
            continue; /* pinned, or no sphere */
        }
        /* the target where the step has got to, as a pin would stand there */
        float c[3];
        cloth_skin_target_at(cloth, i, c);
        const float cx = c[0], cy = c[1], cz = c[2];
        const float ex = p->x[i] - cx, ey = p->y[i] - cy, ez = p->z[i] - cz;
        const float len2 = (ex * ex + ey * ey) + ez * ez;
        if (!(len2 > d * d)) {
            continue;
        }
        const float len = sqrtf(len2), back = d / len;
        const float n[3] = {ex / len, ey / len, ez / len};
        p->x[i] = cx + ex * back;
        p->y[i] = cy + ey * back;
        p->z[i] = cz + ez * back;
        /* the outward part of the velocity relative to the target's goes */
        cloth_skin_stop(cloth, i, n, 1.0f);
    }
}

void cloth_skin_end_step(cloth_t *cloth)
{
    cloth_skin *k = &cloth->skin;
    if (k->block == NULL || !k->moving) {
        return;
    }
    const size_t plane = (size_t)cloth->count * sizeof(float);
    memcpy(k->sx, k->tx, plane);
    memcpy(k->sy, k->ty, plane);
    memcpy(k->sz, k->tz, plane);
    k->moving = false;
}

void cloth_skin_free(cloth_t *cloth)
{
    cloth_mem_free(&cloth->alloc, cloth->skin.block, cloth->skin.block_bytes);
    memset(&cloth->skin, 0, sizeof cloth->skin);
}
