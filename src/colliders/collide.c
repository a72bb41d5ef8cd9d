/*
 * The collider pass at the end of each substep: every collider is placed
 * where it stands at the end of the substep, each free particle is brought
 * into the collider's frame, the shape says where it must go, and the
 * response (push out, drop the velocity into the surface relative to the
 * moving surface, Coulomb friction) is applied in world space.
 */
#include "shapes.h"
#include "colliders/colliders.h"
#include "kernels/kernels.h"
#include "mesh_collider.h"

static cloth_shape_fn shape_of(cloth_collider_kind kind)
{
    switch (kind) {
    case CLOTH_COLLIDER_SPHERE:
        return cloth_shape_sphere;
    case CLOTH_COLLIDER_PLANE:
        return cloth_shape_plane;
    case CLOTH_COLLIDER_ELLIPSOID:
        return cloth_shape_ellipsoid;
    case CLOTH_COLLIDER_CAPSULE:
        return cloth_shape_capsule;
    case CLOTH_COLLIDER_CYLINDER:
        return cloth_shape_cylinder;
    case CLOTH_COLLIDER_TORUS:
        return cloth_shape_torus;
    case CLOTH_COLLIDER_TAPERED_CAPSULE:
        return cloth_shape_tapered_capsule;
    case CLOTH_COLLIDER_CONVEX:
        return cloth_shape_convex;
    case CLOTH_COLLIDER_TRIANGLE_MESH:
        break; /* query() asks the mesh, which also gives its surface's own velocity */
    }
    return cloth_shape_sphere;
}

void cloth_colliders_begin_substep(cloth_t *cloth, uint32_t substep, uint32_t substeps, float dt)
{
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        cloth_collider *c = &cloth->colliders[k];
        if (substep <= 1u) {
            /* a step starts where the last one got to, even if it was
             * abandoned half way: the collider never jumps */
            c->from = c->at;
        }
        cloth_collider_place(c, substep, substeps, dt);
        if (c->mesh != NULL) {
            cloth_mesh_collider_place(c->mesh, substep, substeps, dt);
        }
    }
}

void cloth_colliders_rewind(cloth_t *cloth)
{
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        cloth->colliders[k].at = cloth->colliders[k].from;
        if (cloth->colliders[k].mesh != NULL) {
            cloth_mesh_collider_rewind(cloth->colliders[k].mesh);
        }
    }
}

/* resolve() in the strain limit's held passes (step.c): the particle takes
 * the surface's normal velocity when moving into it, as there, but friction
 * acts on where it is, not on its velocity. Of its slide along the surface
 * since the limit began, friction takes back what the surface's push can
 * hold: mu times the particle's weight pressing on it over the step,
 * g_n dt^2 (g_n the part of gravity into the surface), plus mu times this
 * push out of it (the normal correction, as position-based friction
 * bounds static friction by the penetration it resolves); the velocity the
 * limit gave that part goes with it. Returns whether friction acted. */
static bool resolve_held(cloth_t *cloth, uint32_t i, const float x[3], const float n[3], const float vs[3],
                         float friction)
{
    cloth_particles *p = &cloth->p;
    const float in[3] = {x[0] - p->x[i], x[1] - p->y[i], x[2] - p->z[i]};
    const float push = fmaxf(cloth_dot3(in, n), 0.0f);
    float q[3] = {x[0], x[1], x[2]};
    float v[3] = {p->vx[i], p->vy[i], p->vz[i]};
    const float r[3] = {v[0] - vs[0], v[1] - vs[1], v[2] - vs[2]};
    const float vn = cloth_dot3(r, n);
    if (vn < 0.0f) {
        for (int k = 0; k < 3; ++k) {
            v[k] -= vn * n[k];
        }
    }
    if (friction > 0.0f) {
        const float dt = cloth->limit_dt;
        const float d[3] = {q[0] - p->lx[i], q[1] - p->ly[i], q[2] - p->lz[i]};
        const float dn = cloth_dot3(d, n);
        const float t[3] = {d[0] - dn * n[0], d[1] - dn * n[1], d[2] - dn * n[2]};
        const float slide = sqrtf(cloth_dot3(t, t));
        const float gn = -cloth_dot3(cloth->gravity, n);
        const float hold = friction * ((gn > 0.0f ? gn : 0.0f) * (dt * dt) + push);
        const float back = slide > hold ? hold / slide : 1.0f;
        for (int k = 0; k < 3; ++k) {
            q[k] -= t[k] * back;
            v[k] -= t[k] * back / dt;
        }
    }
    p->x[i] = q[0];
    p->y[i] = q[1];
    p->z[i] = q[2];
    p->vx[i] = v[0];
    p->vy[i] = v[1];
    p->vz[i] = v[2];
    return friction > 0.0f;
}

/* The particle takes the surface's normal velocity when it was moving into
 * the surface; friction acts on the velocity relative to the surface.
 * Returns whether friction's take-back moved the particle off `x`, along
 * the tangent plane there. */
static bool resolve(cloth_t *cloth, uint32_t i, const float x[3], const float n[3], const float vs[3],
                    float friction)
{
    if (cloth->limit_dt > 0.0f) {
        return resolve_held(cloth, i, x, n, vs, friction);
    }
    cloth_particles *p = &cloth->p;
    p->x[i] = x[0];
    p->y[i] = x[1];
    p->z[i] = x[2];
    const float r[3] = {p->vx[i] - vs[0], p->vy[i] - vs[1], p->vz[i] - vs[2]};
    const float vn = cloth_dot3(r, n);
    if (vn >= 0.0f) {
        return false; /* already leaving the surface */
    }
    const float t[3] = {r[0] - vn * n[0], r[1] - vn * n[1], r[2] - vn * n[2]};
    float keep = 1.0f;
    if (friction > 0.0f) {
        /* Coulomb: the tangential speed drops by at most mu times the normal
         * speed removed, and stops (static friction) when that is enough. */
        const float vt = sqrtf(cloth_dot3(t, t));
        const float drop = -vn * friction;
        keep = vt > drop ? 1.0f - drop / vt : 0.0f;
        /* The particle already slid by about t * lag this substep; take back
         * the part friction removed, or a resting particle creeps down a
         * slope by g h^2 sin(theta) every substep although its velocity is
         * zero. */
        const float back = (1.0f - keep) * cloth->friction_lag;
        p->x[i] -= t[0] * back;
        p->y[i] -= t[1] * back;
        p->z[i] -= t[2] * back;
    }
    p->vx[i] = vs[0] + t[0] * keep;
    p->vy[i] = vs[1] + t[1] * keep;
    p->vz[i] = vs[2] + t[2] * keep;
    return friction > 0.0f;
}

/* Particle i in the collider's frame: the transpose of the rotation. */
static void to_frame(const cloth_t *cloth, const cloth_collider *c, uint32_t i, float local[3])
{
    const float *m = c->m;
    const float d[3] = {cloth->p.x[i] - c->at.p[0], cloth->p.y[i] - c->at.p[1], cloth->p.z[i] - c->at.p[2]};
    local[0] = m[0] * d[0] + m[3] * d[1] + m[6] * d[2];
    local[1] = m[1] * d[0] + m[4] * d[1] + m[7] * d[2];
    local[2] = m[2] * d[0] + m[5] * d[1] + m[8] * d[2];
}

/* A point of the collider's frame in the world: `arm` is its offset from
 * the frame's origin, `world` the point. */
static void from_frame(const cloth_collider *c, const float local[3], float arm[3], float world[3])
{
    const float *m = c->m;
    for (int r = 0; r < 3; ++r) {
        arm[r] = m[3 * r] * local[0] + m[3 * r + 1] * local[1] + m[3 * r + 2] * local[2];
        world[r] = c->at.p[r] + arm[r];
    }
}

/* Whether a move along the tangent plane at a point of the shape's grown
 * surface can enter the shape. It cannot for a convex shape (sphere, plane,
 * ellipsoid, capsule, cylinder, each grown by its thickness) given the
 * surface's own normal there: the tangent plane has the whole shape on one
 * side. The torus is not convex: on the inner half of the ring the surface
 * is a saddle; around the axis it bends toward the hole, so its tangent
 * plane runs into the solid, and a move of length s around the axis from a
 * point at distance rho from it ends up to s^2 / (2 rho) inside. */
static bool tangent_can_enter(cloth_collider_kind kind)
{
    return kind == CLOTH_COLLIDER_TORUS || kind == CLOTH_COLLIDER_TRIANGLE_MESH;
}

/* The shape's answer for particle i, with what a mesh adds (the rigid
 * shapes: no velocity of their own, no flat stretch). */
static bool query(const cloth_collider *c, cloth_shape_fn shape, uint32_t i, const float p[3], float out[3],
                  float n[3], cloth_mesh_extra *extra)
{
    if (c->kind == CLOTH_COLLIDER_TRIANGLE_MESH) {
        return cloth_shape_triangle_mesh(c, i, p, out, n, extra);
    }
    extra->vel[0] = extra->vel[1] = extra->vel[2] = 0.0f;
    extra->flat = 0.0f;
    return shape(c, p, out, n);
}

/* Whether friction's take-back left particle i within the flat stretch
 * about its contact point x, where the tangent plane is the surface. */
static bool slid_within(const cloth_t *cloth, uint32_t i, const float x[3], const cloth_mesh_extra *extra)
{
    const float d[3] = {cloth->p.x[i] - x[0], cloth->p.y[i] - x[1], cloth->p.z[i] - x[2]};
    return extra->flat > 0.0f && cloth_dot3(d, d) < extra->flat * extra->flat;
}

/* Whether the collider touched particle i. */
static bool collide(cloth_t *cloth, const cloth_collider *c, cloth_shape_fn shape, uint32_t i)
{
    const float *m = c->m;
    float local[3];
    to_frame(cloth, c, i, local);
    float out[3], nl[3];
    cloth_mesh_extra extra;
    if (!query(c, shape, i, local, out, nl, &extra)) {
        return false;
    }
    float arm[3], n[3], x[3], vs[3];
    from_frame(c, out, arm, x);
    for (int r = 0; r < 3; ++r) {
        n[r] = m[3 * r] * nl[0] + m[3 * r + 1] * nl[1] + m[3 * r + 2] * nl[2];
    }
    /* velocity of the surface point: the origin's plus the spin's */
    vs[0] = c->v[0] + c->w[1] * arm[2] - c->w[2] * arm[1];
    vs[1] = c->v[1] + c->w[2] * arm[0] - c->w[0] * arm[2];
    vs[2] = c->v[2] + c->w[0] * arm[1] - c->w[1] * arm[0];
    if (c->mesh != NULL) {
        for (int r = 0; r < 3; ++r) {
            vs[r] += m[3 * r] * extra.vel[0] + m[3 * r + 1] * extra.vel[1] + m[3 * r + 2] * extra.vel[2];
        }
    }
    if (resolve(cloth, i, x, n, vs, c->friction) && tangent_can_enter(c->kind) && !slid_within(cloth, i, x, &extra)) {
        /* Friction took the particle back along the tangent plane at x,
         * which on a saddle can end inside: ask the shape again and, if it
         * is inside, put it on the nearest point of the grown surface (the
         * shape's answer is exact, so once is enough). Only the position
         * moves: the velocity resolve() left has no part into the surface
         * at x, and the normal there and here differ by the small angle
         * the take-back subtends at the centre of curvature. */
        to_frame(cloth, c, i, local);
        if (query(c, shape, i, local, out, nl, &extra)) {
            from_frame(c, out, arm, x);
            cloth->p.x[i] = x[0];
            cloth->p.y[i] = x[1];
            cloth->p.z[i] = x[2];
        }
    }
    return true;
}

/* Radius about the collider's origin (and, for a capsule or cylinder,
 * about its second end too) outside which the solid has no point; the
 * plane has none (infinity). */
static float solid_radius(const cloth_collider *c)
{
    switch (c->kind) {
    case CLOTH_COLLIDER_SPHERE:
    case CLOTH_COLLIDER_CAPSULE:
    case CLOTH_COLLIDER_CYLINDER:
        return c->size[0];
    case CLOTH_COLLIDER_ELLIPSOID:
        return fmaxf(c->size[0], fmaxf(c->size[1], c->size[2]));
    case CLOTH_COLLIDER_TORUS:
        return c->size[0] + c->size[1];
    case CLOTH_COLLIDER_TAPERED_CAPSULE:
        return fmaxf(c->size[0], c->size[1]);
    case CLOTH_COLLIDER_CONVEX:
        return c->size[0]; /* the farthest vertex */
    case CLOTH_COLLIDER_TRIANGLE_MESH:
        return c->size[0] + c->mesh->depth; /* the farthest vertex, and how deep behind it a particle is seen */
    case CLOTH_COLLIDER_PLANE:
        break;
    }
    return INFINITY;
}

/* A box in the world that holds every point the collider can touch, or
 * false when there is none (the plane, or a pose so far out that the box
 * overflows). Capsule and cylinder: their two ends, grown by radius +
 * thickness, which covers the caps' discs too. Grown by a part in 1e4 of
 * the reach and of the coordinates, so that rounding can never skip a
 * chunk that a particle's own test (in the kernel) would find touching. */
static bool collider_box(const cloth_collider *c, float box[6])
{
    const float r = solid_radius(c);
    if (!isfinite(r)) {
        return false;
    }
    float b[3] = {c->at.p[0], c->at.p[1], c->at.p[2]};
    if (c->kind == CLOTH_COLLIDER_CAPSULE || c->kind == CLOTH_COLLIDER_CYLINDER ||
        c->kind == CLOTH_COLLIDER_TAPERED_CAPSULE) {
        for (int k = 0; k < 3; ++k) {
            b[k] += c->m[3 * k] * c->axis[0] + c->m[3 * k + 1] * c->axis[1] + c->m[3 * k + 2] * c->axis[2];
        }
    }
    const float reach = (r + c->grown) * 1.0001f;
    bool finite = true;
    for (int k = 0; k < 3; ++k) {
        const float lo = fminf(c->at.p[k], b[k]), hi = fmaxf(c->at.p[k], b[k]);
        const float slack = 1e-4f * (fabsf(lo) + fabsf(hi));
        box[k] = lo - reach - slack;
        box[3 + k] = hi + reach + slack;
        finite = finite && isfinite(box[k]) && isfinite(box[3 + k]);
    }
    return finite;
}

static bool boxes_meet(const float a[6], const float b[6])
{
    return !(a[0] > b[3] || a[1] > b[4] || a[2] > b[5] || b[0] > a[3] || b[1] > a[4] || b[2] > a[5]);
}

/* The general pass over particles [i0, i1): the shapes that have no
 * vector pass (the triangle mesh, whose triangles differ per particle). */
static uint32_t one_by_one(cloth_t *cloth, const cloth_collider *c, uint32_t i0, uint32_t i1)
{
    const cloth_shape_fn shape = shape_of(c->kind);
    uint32_t hits = 0u;
    for (uint32_t i = i0; i < i1; ++i) {
        hits += cloth->p.w[i] > 0.0f && collide(cloth, c, shape, i) ? 1u : 0u;
    }
    return hits;
}

/* Chunks per block: a block's colliders run one after the other, each on
 * the chunks whose box meets the collider's. A particle's response reads
 * and writes only itself, so doing the colliders block by block gives
 * what doing each over the whole range would; on a typical cloth most
 * chunks are nowhere near most colliders, and a box test skips them. */
#define BLOCK_CHUNKS 16u

uint32_t cloth_colliders_apply_range(cloth_t *cloth, uint32_t begin, uint32_t end)
{
    end = end < cloth->count ? end : cloth->count;
    if (cloth->collider_count == 0u || begin >= end) {
        return 0u;
    }
    const cloth_kernels *kern = cloth_kernels_at(cloth->simd);
    const cloth_particles *p = &cloth->p;
    const uint32_t block = BLOCK_CHUNKS * CLOTH_COLLIDE_CHUNK;
    uint32_t contacts = 0u;
    float box[BLOCK_CHUNKS][6];
    for (uint32_t b0 = begin; b0 < end; b0 += block) {
        const uint32_t b1 = end - b0 < block ? end : b0 + block;
        const uint32_t chunks = (b1 - b0 + CLOTH_COLLIDE_CHUNK - 1u) / CLOTH_COLLIDE_CHUNK;
        for (uint32_t k = 0; k < chunks; ++k) {
            const uint32_t i0 = b0 + k * CLOTH_COLLIDE_CHUNK;
            kern->box(p->x, p->y, p->z, i0, b1 - i0 < CLOTH_COLLIDE_CHUNK ? b1 : i0 + CLOTH_COLLIDE_CHUNK, box[k]);
        }
        for (uint32_t m = 0; m < cloth->collider_count; ++m) {
            const cloth_collider *c = &cloth->colliders[m];
            float reach_box[6] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
            const bool bounded = collider_box(c, reach_box);
            cloth_vector_pass v;
            cloth_vector_pass_prepare(cloth, c, &v);
            for (uint32_t k = 0; k < chunks; ++k) {
                if (bounded && !boxes_meet(box[k], reach_box)) {
                    continue;
                }
                const uint32_t i0 = b0 + k * CLOTH_COLLIDE_CHUNK;
                const uint32_t i1 = b1 - i0 < CLOTH_COLLIDE_CHUNK ? b1 : i0 + CLOTH_COLLIDE_CHUNK;
                const uint32_t hits = v.run != NULL ? v.run(&v.args, i0, i1) : one_by_one(cloth, c, i0, i1);
                if (hits > 0u) {
                    kern->box(p->x, p->y, p->z, i0, i1, box[k]); /* the collider moved some */
                }
                contacts += hits;
            }
        }
    }
    return contacts;
}

void cloth_colliders_apply_one(cloth_t *cloth, uint32_t i)
{
    if (!(cloth->p.w[i] > 0.0f)) {
        return;
    }
    for (uint32_t k = 0; k < cloth->collider_count; ++k) {
        const cloth_collider *c = &cloth->colliders[k];
        collide(cloth, c, shape_of(c->kind), i);
    }
}
