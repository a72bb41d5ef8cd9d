/*
 * The integrator plug-in interface (integrators.h): a host integrator
 * installed with cloth_set_custom_integrator().
 *
 *  A. A symplectic Euler written here through cloth_integrator_vtable, with
 *     CLOTH_INTEGRATOR_WANTS_SPRING_FORCES, gives the same trajectory as the
 *     built-in CLOTH_INTEGRATOR_EXPLICIT_EULER, bit for bit: it does the
 *     documented arithmetic in the same order (clothsim.h:
 *     v' = (v + a h) exp(-c h), x' = x + v' h). The view it gets is checked
 *     field by field; cloth_get_integrator() reports CLOTH_INTEGRATOR_CUSTOM.
 *  B. create/destroy: create gets the user pointer and the cloth, its state
 *     reaches step and destroy; destroy runs when the integrator is replaced
 *     (after the new one was created) and when the cloth is destroyed. A
 *     create that fails refuses the switch and keeps the old integrator.
 *  C. A step (or finish) that returns an error abandons cloth_step(): the
 *     state from before the call is restored and that status returned.
 *  D. Bad tables are refused and change nothing; without the spring flag the
 *     forces are zero; create and destroy may be NULL.
 *
 * The arithmetic is written one operation per statement so that no compiler
 * may contract it into fused multiply-adds (the library is built with
 * -ffp-contract=off; C11 code in ISO mode is not contracted across
 * statements either).
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ROWS 10u
#define COLS 9u
#define NP (ROWS * COLS)
#define SUBSTEPS 16u

typedef struct host {
    int creates, destroys, steps, finishes;
    void *state_made;          /* what create stored */
    void *state_destroyed;     /* what destroy received */
    const cloth_t *cloth_seen; /* what create received */
    int bad_user, bad_state, bad_view; /* mismatches seen inside the callbacks */
    cloth_status create_result; /* what create returns */
    int fail_step_at;           /* step call number (1-based) that returns fail_status, 0 never */
    int fail_finish_at;
    cloth_status fail_status;
    int nan_at;                 /* step call number that writes a NaN */
    int nonzero_forces;         /* steps that saw a non-zero force */
    uint32_t expect_substep;
    float expect_h;
    float expect_damping;
    uint32_t expect_iterations;
    int pinned_a, pinned_b;     /* indices whose inv_mass must be 0 */
    int state_token;            /* create's state points here */
} host;

static cloth_status host_create(void *user, const cloth_t *cloth, void **state)
{
    host *hs = user;
    hs->creates++;
    hs->cloth_seen = cloth;
    if (hs->create_result != CLOTH_OK) {
        return hs->create_result;
    }
    *state = &hs->state_token;
    hs->state_made = *state;
    return CLOTH_OK;
}

static void host_destroy(void *user, void *state)
{
    host *hs = user;
    hs->destroys++;
    hs->state_destroyed = state;
}

static void check_view(host *hs, void *state, const cloth_step_view *v)
{
    if (state != hs->state_made) {
        hs->bad_state++;
    }
    if (v->count != NP || v->substeps != SUBSTEPS || v->substep != hs->expect_substep || v->h != hs->expect_h ||
        v->damping != hs->expect_damping || v->iterations != hs->expect_iterations || v->cloth == NULL ||
        v->gravity[0] != 0.0f || v->gravity[1] != -9.81f || v->gravity[2] != 0.0f ||
        fabsf(v->velocity_decay - expf(-v->damping * v->h)) > 1e-7f || v->collide_particle == NULL ||
        v->x == NULL || v->vx == NULL || v->fx == NULL || v->inv_mass == NULL) {
        hs->bad_view++;
    }
    if (hs->pinned_a >= 0 && v->inv_mass[hs->pinned_a] != 0.0f) {
        hs->bad_view++;
    }
    if (hs->pinned_b >= 0 && v->inv_mass[hs->pinned_b] != 0.0f) {
        hs->bad_view++;
    }
}

/* Symplectic Euler, the built-in's arithmetic in the built-in's order. */
static cloth_status host_step(void *user, void *state, const cloth_step_view *v)
{
    host *hs = user;
    hs->steps++;
    if (hs->state_made != NULL || state != NULL) {
        check_view(hs, state, v);
    }
    hs->expect_substep = (hs->expect_substep + 1u) % SUBSTEPS;
    if (hs->fail_step_at != 0 && hs->steps == hs->fail_step_at) {
        return hs->fail_status;
    }
    const float h = v->h, d = v->velocity_decay;
    const float gx = v->gravity[0], gy = v->gravity[1], gz = v->gravity[2];
    int nonzero = 0;
    for (uint32_t i = 0; i < v->count; ++i) {
        const float w = v->inv_mass[i];
        const float m = w > 0.0f ? 1.0f : 0.0f;
        float ax = gx * m, ay = gy * m, az = gz * m;
        float fx = w * v->fx[i], fy = w * v->fy[i], fz = w * v->fz[i];
        nonzero |= v->fx[i] != 0.0f || v->fy[i] != 0.0f || v->fz[i] != 0.0f;
        ax = ax + fx;
        ay = ay + fy;
        az = az + fz;
        ax = ax * h;
        ay = ay * h;
        az = az * h;
        float vx = v->vx[i] + ax, vy = v->vy[i] + ay, vz = v->vz[i] + az;
        vx = vx * d;
        vy = vy * d;
        vz = vz * d;
        v->vx[i] = vx;
        v->vy[i] = vy;
        v->vz[i] = vz;
        float dx = vx * h, dy = vy * h, dz = vz * h;
        v->x[i] = v->x[i] + dx;
        v->y[i] = v->y[i] + dy;
        v->z[i] = v->z[i] + dz;
    }
    hs->nonzero_forces += nonzero;
    if (hs->nan_at != 0 && hs->steps == hs->nan_at) {
        v->x[3] = NAN;
    }
    return CLOTH_OK;
}

static cloth_status host_finish(void *user, void *state, const cloth_step_view *v)
{
    host *hs = user;
    (void)state;
    (void)v;
    hs->finishes++;
    if (hs->fail_finish_at != 0 && hs->finishes == hs->fail_finish_at) {
        return hs->fail_status;
    }
    return CLOTH_OK;
}

static const cloth_integrator_vtable k_host = {"host symplectic euler", CLOTH_INTEGRATOR_WANTS_SPRING_FORCES,
                                               host_create, host_destroy, host_step, host_finish};

static void host_init(host *hs)
{
    memset(hs, 0, sizeof *hs);
    hs->expect_h = 1.0f / 60.0f / (float)SUBSTEPS;
    hs->expect_damping = 0.2f;
    hs->expect_iterations = 8u;
    hs->pinned_a = -1;
    hs->pinned_b = -1;
}

/* A cloth hanging from two corners above a sphere. */
static cloth_t *make_scene(void)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    const float centre[3] = {0.2f, 0.75f, 0.3f};
    cloth_collider_id id = 0;
    cloth_grid_desc_init(&desc);
    desc.rows = ROWS;
    desc.cols = COLS;
    desc.origin[1] = 1.0f;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (cloth == NULL) {
        return NULL;
    }
    CHECK_OK(cloth_set_substeps(cloth, SUBSTEPS));
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_pin(cloth, COLS - 1u, NULL));
    CHECK_OK(cloth_add_sphere(cloth, centre, 0.15f, &id));
    return cloth;
}

static int same_state(const cloth_t *a, const cloth_t *b)
{
    static float pa[3 * NP], pb[3 * NP], va[3 * NP], vb[3 * NP];
    CHECK_OK(cloth_get_positions(a, pa, 0));
    CHECK_OK(cloth_get_positions(b, pb, 0));
    CHECK_OK(cloth_get_velocities(a, va, 0));
    CHECK_OK(cloth_get_velocities(b, vb, 0));
    return memcmp(pa, pb, sizeof pa) == 0 && memcmp(va, vb, sizeof va) == 0;
}

/* ---- A ------------------------------------------------------------------ */

static void same_as_builtin(void)
{
    static float pos[3 * NP];
    host hs;
    cloth_integrator kind = CLOTH_INTEGRATOR_EXPLICIT_EULER;
    cloth_t *mine = make_scene(), *builtin = make_scene();
    if (mine == NULL || builtin == NULL) {
        cloth_destroy(mine);
        cloth_destroy(builtin);
        return;
    }
    host_init(&hs);
    hs.pinned_a = 0;
    hs.pinned_b = (int)COLS - 1;
    CHECK_OK(cloth_set_custom_integrator(mine, &k_host, &hs));
    CHECK(hs.creates == 1);
    CHECK(hs.cloth_seen == mine);
    CHECK_OK(cloth_get_integrator(mine, &kind));
    CHECK(kind == CLOTH_INTEGRATOR_CUSTOM);
    CHECK_OK(cloth_set_integrator(builtin, CLOTH_INTEGRATOR_EXPLICIT_EULER));
    int diverged_at = -1;
    for (int f = 0; f < 60; ++f) {
        CHECK_OK(cloth_step(mine, 1.0f / 60.0f));
        CHECK_OK(cloth_step(builtin, 1.0f / 60.0f));
        if (diverged_at < 0 && !same_state(mine, builtin)) {
            diverged_at = f;
        }
    }
    CHECK_OK(cloth_get_positions(mine, pos, 0));
    printf("A: host symplectic Euler vs built-in over 60 steps: %s; %d step and %d finish calls "
           "(%d expected each); view mismatches %d, state mismatches %d; hem at y = %.5f m\n",
           diverged_at < 0 ? "bitwise identical" : "DIVERGED", hs.steps, hs.finishes, 60 * (int)SUBSTEPS,
           hs.bad_view, hs.bad_state, (double)pos[3 * (NP - 1u) + 1]);
    CHECK(diverged_at < 0);
    CHECK(hs.steps == 60 * (int)SUBSTEPS);
    CHECK(hs.finishes == 60 * (int)SUBSTEPS); /* finish: once per substep, after the colliders */
    CHECK(hs.bad_view == 0);
    CHECK(hs.bad_state == 0);
    CHECK(hs.nonzero_forces > 0); /* the spring forces arrived */
    CHECK(pos[3 * (NP - 1u) + 1] < 0.9f); /* it did hang down */
    CHECK(hs.destroys == 0);
    cloth_destroy(mine);
    /* destroy on cloth_destroy, with create's state */
    CHECK(hs.destroys == 1);
    CHECK(hs.state_destroyed == hs.state_made);
    cloth_destroy(builtin);
}

/* ---- B ------------------------------------------------------------------ */

static void lifecycle(void)
{
    host one, two;
    cloth_integrator kind = CLOTH_INTEGRATOR_CUSTOM;
    cloth_t *cloth = make_scene(), *twin = make_scene();
    if (cloth == NULL || twin == NULL) {
        cloth_destroy(cloth);
        cloth_destroy(twin);
        return;
    }
    host_init(&one);
    host_init(&two);

    /* a failing create refuses the switch: the old integrator stays and runs on */
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_VERLET));
    CHECK_OK(cloth_set_integrator(twin, CLOTH_INTEGRATOR_VERLET));
    one.create_result = CLOTH_ERR_OUT_OF_MEMORY;
    CHECK_STATUS(cloth_set_custom_integrator(cloth, &k_host, &one), CLOTH_ERR_OUT_OF_MEMORY);
    one.create_result = CLOTH_ERR_UNSUPPORTED;
    CHECK_STATUS(cloth_set_custom_integrator(cloth, &k_host, &one), CLOTH_ERR_UNSUPPORTED);
    CHECK(one.creates == 2);
    CHECK(one.destroys == 0); /* nothing was made, nothing to free */
    CHECK_OK(cloth_get_integrator(cloth, &kind));
    CHECK(kind == CLOTH_INTEGRATOR_VERLET);
    for (int f = 0; f < 10; ++f) {
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
        CHECK_OK(cloth_step(twin, 1.0f / 60.0f));
    }
    CHECK(one.steps == 0);
    CHECK(same_state(cloth, twin)); /* still Verlet, bit for bit */

    /* install, then replace by a built-in: destroy with create's state */
    one.create_result = CLOTH_OK;
    CHECK_OK(cloth_set_custom_integrator(cloth, &k_host, &one));
    CHECK(one.creates == 3);
    CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_PBD));
    CHECK(one.destroys == 1);
    CHECK(one.state_destroyed == one.state_made);
    CHECK_OK(cloth_get_integrator(cloth, &kind));
    CHECK(kind == CLOTH_INTEGRATOR_PBD);
    const int steps_before = one.steps;
    CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    CHECK(one.steps == steps_before); /* no longer called */

    /* custom replaced by custom (the order of the two calls: replacement_order()) */
    CHECK_OK(cloth_set_custom_integrator(cloth, &k_host, &one));
    CHECK_OK(cloth_set_custom_integrator(cloth, &k_host, &two));
    CHECK(two.creates == 1);
    CHECK(one.destroys == 2);
    printf("B: create/destroy counts: first host %d/%d, second host %d/%d\n", one.creates, one.destroys,
           two.creates, two.destroys);
    cloth_destroy(cloth);
    CHECK(two.destroys == 1);
    CHECK(two.state_destroyed == two.state_made);
    CHECK(one.destroys == 2); /* not destroyed twice */
    cloth_destroy(twin);
}

/* The order of create and destroy across two hosts sharing one clock. */
static int g_clock;
static int g_new_created_at, g_old_destroyed_at;

static cloth_status order_create(void *user, const cloth_t *cloth, void **state)
{
    (void)cloth;
    *state = user;
    if (*(int *)user == 2) {
        g_new_created_at = ++g_clock;
    }
    return CLOTH_OK;
}

static void order_destroy(void *user, void *state)
{
    (void)state;
    if (*(int *)user == 1) {
        g_old_destroyed_at = ++g_clock;
    }
}

static cloth_status plain_step(void *user, void *state, const cloth_step_view *v)
{
    (void)user;
    (void)state;
    (void)v;
    return CLOTH_OK;
}

static void replacement_order(void)
{
    static int first = 1, second = 2;
    static const cloth_integrator_vtable vt = {"order", 0u, order_create, order_destroy, plain_step, NULL};
    cloth_t *cloth = make_scene();
    if (cloth == NULL) {
        return;
    }
    CHECK_OK(cloth_set_custom_integrator(cloth, &vt, &first));
    CHECK_OK(cloth_set_custom_integrator(cloth, &vt, &second));
    printf("B: replacing a host integrator: new one created at tick %d, old one destroyed at tick %d\n",
           g_new_created_at, g_old_destroyed_at);
    CHECK(g_new_created_at > 0 && g_old_destroyed_at > g_new_created_at);
    cloth_destroy(cloth);
}

/* ---- C ------------------------------------------------------------------ */

static void failing_step(void)
{
    static float before_p[3 * NP], before_v[3 * NP], after_p[3 * NP], after_v[3 * NP];
    host hs, ht;
    cloth_t *cloth = make_scene(), *twin = make_scene();
    if (cloth == NULL || twin == NULL) {
        cloth_destroy(cloth);
        cloth_destroy(twin);
        return;
    }
    host_init(&hs);
    host_init(&ht);
    CHECK_OK(cloth_set_custom_integrator(cloth, &k_host, &hs));
    CHECK_OK(cloth_set_custom_integrator(twin, &k_host, &ht));
    for (int f = 0; f < 20; ++f) {
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
        CHECK_OK(cloth_step(twin, 1.0f / 60.0f));
    }
    CHECK_OK(cloth_get_positions(cloth, before_p, 0));
    CHECK_OK(cloth_get_velocities(cloth, before_v, 0));

    /* the 6th substep of the next step fails: five substeps have moved things already */
    hs.fail_step_at = hs.steps + 6;
    hs.fail_status = CLOTH_ERR_OUT_OF_RANGE;
    cloth_status s = cloth_step(cloth, 1.0f / 60.0f);
    CHECK(s == CLOTH_ERR_OUT_OF_RANGE);
    CHECK_OK(cloth_get_positions(cloth, after_p, 0));
    CHECK_OK(cloth_get_velocities(cloth, after_v, 0));
    const int restored = memcmp(before_p, after_p, sizeof after_p) == 0 && memcmp(before_v, after_v, sizeof after_v) == 0;
    printf("C: a step returning %s in substep 6: cloth_step returned %s, state restored: %s\n",
           cloth_status_string(CLOTH_ERR_OUT_OF_RANGE), cloth_status_string(s), restored ? "yes" : "NO");
    CHECK(restored);

    /* finish failing: the same */
    hs.fail_step_at = 0;
    hs.fail_finish_at = hs.finishes + 3;
    hs.fail_status = CLOTH_ERR_UNSUPPORTED;
    hs.expect_substep = 0;
    CHECK_STATUS(cloth_step(cloth, 1.0f / 60.0f), CLOTH_ERR_UNSUPPORTED);
    CHECK_OK(cloth_get_positions(cloth, after_p, 0));
    CHECK_OK(cloth_get_velocities(cloth, after_v, 0));
    CHECK(memcmp(before_p, after_p, sizeof after_p) == 0 && memcmp(before_v, after_v, sizeof after_v) == 0);

    /* a step that writes NaN: CLOTH_ERR_UNSTABLE, state restored */
    hs.fail_finish_at = 0;
    hs.nan_at = hs.steps + 2;
    hs.expect_substep = 0;
    CHECK_STATUS(cloth_step(cloth, 1.0f / 60.0f), CLOTH_ERR_UNSTABLE);
    CHECK_OK(cloth_get_positions(cloth, after_p, 0));
    CHECK_OK(cloth_get_velocities(cloth, after_v, 0));
    CHECK(memcmp(before_p, after_p, sizeof after_p) == 0 && memcmp(before_v, after_v, sizeof after_v) == 0);

    /* the refused steps left no trace: it goes on exactly like its twin */
    hs.nan_at = 0;
    hs.expect_substep = 0;
    for (int f = 0; f < 10; ++f) {
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
        CHECK_OK(cloth_step(twin, 1.0f / 60.0f));
    }
    CHECK(same_state(cloth, twin));
    CHECK(hs.bad_view == 0);
    cloth_destroy(cloth);
    cloth_destroy(twin);
}

/* ---- D ------------------------------------------------------------------ */

static int g_nocreate_state_null = 1, g_nocreate_steps;

static cloth_status nocreate_step(void *user, void *state, const cloth_step_view *v)
{
    (void)user;
    (void)v;
    g_nocreate_steps++;
    if (state != NULL) {
        g_nocreate_state_null = 0;
    }
    return CLOTH_OK;
}

static void bad_tables_and_flags(void)
{
    host hs;
    cloth_integrator kind = CLOTH_INTEGRATOR_CUSTOM;
    cloth_t *cloth = make_scene();
    if (cloth == NULL) {
        return;
    }
    host_init(&hs);
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_TRAPEZOID));
    cloth_integrator_vtable vt = k_host;
    vt.step = NULL;
    CHECK_STATUS(cloth_set_custom_integrator(cloth, &vt, &hs), CLOTH_ERR_INVALID_ARGUMENT);
    vt = k_host;
    vt.flags = 2u;
    CHECK_STATUS(cloth_set_custom_integrator(cloth, &vt, &hs), CLOTH_ERR_INVALID_ARGUMENT);
    vt.flags = 0x80000000u | CLOTH_INTEGRATOR_WANTS_SPRING_FORCES;
    CHECK_STATUS(cloth_set_custom_integrator(cloth, &vt, &hs), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_custom_integrator(cloth, NULL, &hs), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_custom_integrator(NULL, &k_host, &hs), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_CUSTOM), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK(hs.creates == 0); /* refused before create */
    CHECK_OK(cloth_get_integrator(cloth, &kind));
    CHECK(kind == CLOTH_INTEGRATOR_TRAPEZOID);

    /* without the flag the forces are zero, although the springs are stretched */
    vt = k_host;
    vt.flags = 0u;
    CHECK_OK(cloth_set_custom_integrator(cloth, &vt, &hs));
    for (int f = 0; f < 30; ++f) {
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    }
    CHECK(hs.steps == 30 * (int)SUBSTEPS);
    CHECK(hs.nonzero_forces == 0);
    /* with it, the same cloth sees them */
    vt.flags = CLOTH_INTEGRATOR_WANTS_SPRING_FORCES;
    host_init(&hs);
    CHECK_OK(cloth_set_custom_integrator(cloth, &vt, &hs));
    CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    CHECK(hs.nonzero_forces > 0);

    /* create and destroy may be NULL: step then gets a NULL state */
    static const cloth_integrator_vtable bare = {"bare", 0u, NULL, NULL, nocreate_step, NULL};
    CHECK_OK(cloth_set_custom_integrator(cloth, &bare, NULL));
    CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    CHECK(g_nocreate_steps == (int)SUBSTEPS);
    CHECK(g_nocreate_state_null);
    CHECK_OK(cloth_get_integrator(cloth, &kind));
    CHECK(kind == CLOTH_INTEGRATOR_CUSTOM);
    CHECK_OK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_EXPLICIT_EULER)); /* no destroy to call: fine */
    CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));
    cloth_destroy(cloth);
}

int main(void)
{
    same_as_builtin();
    lifecycle();
    replacement_order();
    failing_step();
    bad_tables_and_flags();
    return test_finish("test_custom_integrator");
}
