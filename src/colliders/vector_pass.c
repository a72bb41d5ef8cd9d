/*
 * Every collider's pass over a range of particles. The general pass
 * (collide.c, collide(): one particle at a time, the shape called through
 * a pointer) would cost more than a sweep of the springs on a cloth draped
 * over a ball; it serves only integrators that collide particle by
 * particle (the semi-rigid model, a host's). The shapes' contacts and
 * responses are kernels of the vector layer (kernels/contact.inl,
 * sphere.inl, shapes.inl), run at the cloth's vector level and giving the
 * general pass's bits; this file reads the collider once into the kernels'
 * arguments (collide.c decides which chunks of particles they run on).
 */
#include "shapes.h"

#include "kernels/kernels.h"

static void args_of(const cloth_t *cloth, const cloth_collider *c, cloth_contact_args *a)
{
    const cloth_particles *p = &cloth->p;
    a->x = p->x;
    a->y = p->y;
    a->z = p->z;
    a->vx = p->vx;
    a->vy = p->vy;
    a->vz = p->vz;
    a->w = p->w;
    a->reach = c->size[0] + c->grown;
    a->reach2 = a->reach * a->reach;
    a->mu = c->friction;
    a->lag = cloth->friction_lag;
    a->hold_dt = cloth->limit_dt;
    a->lx = p->lx;
    a->ly = p->ly;
    a->lz = p->lz;
    a->thickness = c->grown;
    for (int k = 0; k < 3; ++k) {
        a->c[k] = c->at.p[k];
        a->up[k] = c->m[3 * k + 1];
        a->v[k] = c->v[k];
        a->spin[k] = c->w[k];
        a->g[k] = cloth->gravity[k];
        a->axis[k] = c->axis[k];
    }
    for (int k = 0; k < 9; ++k) {
        a->m[k] = c->m[k];
    }
    a->size = c->size[0];
    if (c->kind == CLOTH_COLLIDER_ELLIPSOID) {
        cloth_ellipsoid_form_of(c, &a->ellipsoid);
    } else if (c->kind == CLOTH_COLLIDER_TAPERED_CAPSULE) {
        cloth_taper_form_of(c, &a->taper);
    } else if (c->kind == CLOTH_COLLIDER_CONVEX) {
        cloth_convex_form_of(c, &a->convex);
    }
    if (c->kind == CLOTH_COLLIDER_TORUS) {
        /* as cloth_shape_torus() works it out: the minor radius */
        a->reach = c->size[1] + c->grown;
        a->reach2 = a->reach * a->reach;
    }
    a->len2 = cloth_dot3(c->axis, c->axis);
    a->on_axis[0] = 0.0f;
    a->on_axis[1] = 1.0f;
    a->on_axis[2] = 0.0f;
    if (c->kind == CLOTH_COLLIDER_CYLINDER) {
        /* as cloth_shape_cylinder() works them out */
        a->len = sqrtf(a->len2);
        a->len_th = a->len + c->grown;
        for (int k = 0; k < 3; ++k) {
            a->e[k] = c->axis[k] / a->len;
        }
        cloth_perpendicular(a->e, a->on_axis);
    } else if (a->len2 > 0.0f) {
        /* as cloth_shape_capsule() works them out */
        const float inv = 1.0f / sqrtf(a->len2);
        const float e[3] = {c->axis[0] * inv, c->axis[1] * inv, c->axis[2] * inv};
        cloth_perpendicular(e, a->on_axis);
    }
}

void cloth_vector_pass_prepare(const cloth_t *cloth, const cloth_collider *c, cloth_vector_pass *v)
{
    args_of(cloth, c, &v->args);
    const cloth_kernels *kern = cloth_kernels_at(cloth->simd);
    v->run = kern->plane;
    if (c->kind == CLOTH_COLLIDER_SPHERE) {
        v->run = kern->sphere;
    } else if (c->kind == CLOTH_COLLIDER_CAPSULE) {
        v->run = kern->capsule;
    } else if (c->kind == CLOTH_COLLIDER_CYLINDER) {
        v->run = kern->cylinder;
    } else if (c->kind == CLOTH_COLLIDER_TORUS) {
        v->run = kern->torus;
    } else if (c->kind == CLOTH_COLLIDER_ELLIPSOID) {
        v->run = kern->ellipsoid;
    } else if (c->kind == CLOTH_COLLIDER_TAPERED_CAPSULE) {
        v->run = kern->tapered;
    } else if (c->kind == CLOTH_COLLIDER_CONVEX) {
        v->run = kern->convex;
    } else if (c->kind == CLOTH_COLLIDER_TRIANGLE_MESH) {
        v->run = NULL; /* collide.c runs the mesh's query particle by particle */
    }
}
