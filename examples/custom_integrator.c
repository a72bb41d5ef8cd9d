/*
 * custom_integrator: plug your own time integrator into clothsim.
 *
 * clothsim's built-in integrators (explicit Euler, trapezoid, Verlet, PBD,
 * semi-rigid, relaxation) all implement one small interface,
 * cloth_integrator_vtable, and so can yours. This program writes a damped
 * symplectic Euler with a speed limit (a common trick to keep a game cloth
 * from exploding when something yanks it) and hangs a cloth with it.
 *
 * Copy it, then change host_step() to whatever your project needs.
 *
 * What happens in one substep of cloth_step() (integrators.h):
 *   1. pinned particles are put where their targets are at the end of the substep;
 *   2. the force arrays are cleared and filled: wind, external forces, and the
 *      spring forces if the table asks for them (CLOTH_INTEGRATOR_WANTS_SPRING_FORCES);
 *   3. your `step` updates positions and velocities in place;
 *   4. pins are placed again, colliders push particles out;
 *   5. your `finish`, if you gave one.
 * Gravity is not in the forces: it is an acceleration in the view.
 */
#include <clothsim/clothsim.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                             \
    do {                                                                        \
        cloth_status s_ = (call);                                               \
        if (s_ != CLOTH_OK) {                                                   \
            fprintf(stderr, "%s failed: %s\n", #call, cloth_status_string(s_)); \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

/* Your integrator's settings: whatever you like, passed as `user`. */
typedef struct my_settings {
    float max_speed;   /* m/s: velocities are clamped to this length */
    uint32_t clamped;  /* statistics: how many times the clamp acted */
} my_settings;

/* Per-cloth state. This integrator needs none, but most real ones keep
 * scratch arrays here (made in create, freed in destroy). We keep a counter. */
typedef struct my_state {
    uint64_t substeps;
} my_state;

static cloth_status my_create(void *user, const cloth_t *cloth, void **state)
{
    (void)user;
    (void)cloth; /* read-only queries such as cloth_particle_count() are allowed here */
    my_state *st = calloc(1, sizeof *st);
    if (st == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY; /* refuses the switch; the old integrator stays */
    }
    *state = st;
    return CLOTH_OK;
}

static void my_destroy(void *user, void *state)
{
    (void)user;
    free(state); /* called when the integrator is replaced or the cloth destroyed */
}

/*
 * One substep of length view->h:
 *     v' = (v + (g + f / m) h) exp(-c h), then |v'| clamped, then x' = x + v' h.
 * Pinned particles have inv_mass 0: they get neither gravity nor forces
 * (the library puts them back on their targets anyway).
 */
static cloth_status my_step(void *user, void *state, const cloth_step_view *view)
{
    my_settings *settings = user;
    my_state *st = state;
    const float h = view->h, decay = view->velocity_decay; /* exp(-damping h) */
    const float limit2 = settings->max_speed * settings->max_speed;
    for (uint32_t i = 0; i < view->count; ++i) {
        const float w = view->inv_mass[i];
        const float g = w > 0.0f ? 1.0f : 0.0f;
        float vx = (view->vx[i] + (view->gravity[0] * g + w * view->fx[i]) * h) * decay;
        float vy = (view->vy[i] + (view->gravity[1] * g + w * view->fy[i]) * h) * decay;
        float vz = (view->vz[i] + (view->gravity[2] * g + w * view->fz[i]) * h) * decay;
        const float speed2 = vx * vx + vy * vy + vz * vz;
        if (speed2 > limit2) {
            const float scale = settings->max_speed / sqrtf(speed2);
            vx *= scale;
            vy *= scale;
            vz *= scale;
            settings->clamped++;
        }
        view->vx[i] = vx;
        view->vy[i] = vy;
        view->vz[i] = vz;
        view->x[i] += vx * h;
        view->y[i] += vy * h;
        view->z[i] += vz * h;
    }
    st->substeps++;
    return CLOTH_OK; /* any other status abandons cloth_step() and restores the state */
}

/* The table must outlive every cloth it is installed in: make it static. */
static const cloth_integrator_vtable my_integrator = {
    "clamped symplectic euler",           /* name */
    CLOTH_INTEGRATOR_WANTS_SPRING_FORCES, /* we want the springs in view->fx/fy/fz */
    my_create,
    my_destroy,
    my_step,
    NULL, /* finish: nothing to do after the colliders */
};

int main(void)
{
    /* A 24 x 24 cloth of 5 cm spacing, hanging from two corners. */
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = 24;
    desc.cols = 24;
    desc.origin[1] = 1.5f;
    cloth_t *cloth = NULL;
    CHECK(cloth_create_grid(&desc, &cloth));
    CHECK(cloth_pin(cloth, 0, NULL));
    CHECK(cloth_pin(cloth, desc.cols - 1u, NULL));

    my_settings settings = {4.0f, 0}; /* 4 m/s speed limit */
    CHECK(cloth_set_custom_integrator(cloth, &my_integrator, &settings));

    cloth_integrator kind;
    CHECK(cloth_get_integrator(cloth, &kind));
    printf("integrator: %s (cloth_get_integrator reports %s)\n", my_integrator.name,
           kind == CLOTH_INTEGRATOR_CUSTOM ? "CLOTH_INTEGRATOR_CUSTOM" : "something else");

    const uint32_t n = cloth_particle_count(cloth);
    float *pos = malloc((size_t)n * 3u * sizeof *pos);
    float *vel = malloc((size_t)n * 3u * sizeof *vel);
    if (pos == NULL || vel == NULL) {
        return 1;
    }
    printf("%6s %12s %14s %14s\n", "time", "lowest y", "fastest m/s", "clamps so far");
    for (int frame = 1; frame <= 4 * 60; ++frame) {
        CHECK(cloth_step(cloth, 1.0f / 60.0f));
        if (frame % 30 == 0) {
            CHECK(cloth_get_positions(cloth, pos, 0));
            CHECK(cloth_get_velocities(cloth, vel, 0));
            float lowest = pos[1], fastest = 0.0f;
            for (uint32_t i = 0; i < n; ++i) {
                lowest = fminf(lowest, pos[3 * i + 1]);
                float s = sqrtf(vel[3 * i] * vel[3 * i] + vel[3 * i + 1] * vel[3 * i + 1] +
                                vel[3 * i + 2] * vel[3 * i + 2]);
                fastest = fmaxf(fastest, s);
            }
            printf("%5.1fs %12.4f %14.4f %14u\n", (double)frame / 60.0, (double)lowest, (double)fastest,
                   (unsigned)settings.clamped);
        }
    }

    /* Back to a built-in at any time: positions and velocities carry over,
     * and my_destroy() frees our state. */
    CHECK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_EXPLICIT_EULER));
    CHECK(cloth_step(cloth, 1.0f / 60.0f));
    printf("switched back to the built-in explicit Euler without a jump\n");

    free(pos);
    free(vel);
    cloth_destroy(cloth);
    return 0;
}
