/*
 * A host's hooks calling back into the cloth they belong to, and task hooks
 * that break their contract (threads.h).
 *
 * A: from inside every kind of hook (wind, force, a host integrator's step,
 *    finish, create and destroy, the task hooks' enqueue and finish), every
 *    public function that changes a cloth returns CLOTH_ERR_BUSY, and
 *    cloth_step() and cloth_destroy() do nothing: the step ends with the same
 *    bits as the same step whose hooks call nothing. Read-only queries work.
 *    tests/ffi/check_headers.py fails when a public function that takes a
 *    `cloth_t *` is missing from call_every_mutator().
 * B: task hooks that skip a range, run one twice, hand out a worker index out
 *    of range, or never run the work are refused with
 *    CLOTH_ERR_TASK_CONTRACT, whichever pass of the step they break (the
 *    first pass keeps the state for a rollback, the last checks it for NaN),
 *    and the cloth keeps the state it had: the same hash, finite read-back,
 *    and the next step with honest hooks gives the bits of a cloth that never
 *    met the bad ones.
 */
#include "test_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* 96 x 96 particles: 9216, enough that the per-particle passes of a step
 * (4096 particles an item) go to the task hooks. */
#define SIDE 96u

static cloth_t *make_cloth(cloth_integrator kind)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = d.cols = SIDE; /* the default spacing and mass: stable with explicit Euler's defaults */
    cloth_t *c = NULL;
    if (test_create_grid(&d, &c) != CLOTH_OK) {
        return NULL;
    }
    (void)cloth_set_integrator(c, kind);
    (void)cloth_pin(c, 0u, NULL);
    (void)cloth_pin(c, SIDE - 1u, NULL);
    const float centre[3] = {2.4f, -0.6f, 2.4f};
    cloth_collider_id id;
    (void)cloth_add_sphere(c, centre, 1.0f, &id);
    return c;
}

/* ---- A: every mutator from inside a hook ---------------------------------- */

typedef struct probe {
    cloth_t *cloth;
    cloth_collider_id mesh; /* a triangle-mesh collider of the cloth, for the mesh calls */
    bool active;        /* call the mutators from the hooks */
    uint32_t rounds;    /* times call_every_mutator() ran */
    uint32_t wrong;     /* calls that did not return CLOTH_ERR_BUSY */
    uint32_t reads_bad; /* read-only queries that failed */
} probe;

static void expect_busy(probe *p, cloth_status s, const char *what)
{
    if (s != CLOTH_ERR_BUSY) {
        if (p->rounds == 1u) { /* once per call, not once per substep */
            fprintf(stderr, "  %s from a hook returned %s\n", what, cloth_status_string(s));
        }
        ++p->wrong;
    }
}

#define BUSY(p, call) expect_busy((p), (call), #call)

static cloth_status noop_integ_step(void *user, void *state, const cloth_step_view *v)
{
    (void)user;
    (void)state;
    (void)v;
    return CLOTH_OK;
}

static const cloth_integrator_vtable noop_vtable = {"noop", 0u, NULL, NULL, noop_integ_step, NULL};

/* A tetrahedron far above the cloth (a triangle mesh the probes may move),
 * and a box of half-size 0.1 as planes. */
static const float tetra_vertices[12] = {
    0.0f, 50.0f, 0.0f, 1.0f, 50.0f, 0.0f, 0.0f, 50.0f, 1.0f, 0.0f, 51.0f, 0.0f,
};
static const uint32_t tetra_indices[12] = {0u, 1u, 2u, 0u, 3u, 1u, 0u, 2u, 3u, 1u, 3u, 2u};
static const float box_planes[24] = {
    1.0f, 0.0f, 0.0f, -0.1f, -1.0f, 0.0f, 0.0f, -0.1f, 0.0f, 1.0f, 0.0f, -0.1f,
    0.0f, -1.0f, 0.0f, -0.1f, 0.0f, 0.0f, 1.0f, -0.1f, 0.0f, 0.0f, -1.0f, -0.1f,
};

/* Every public function that takes a `cloth_t *`, with arguments it would
 * accept outside a step. */
static void call_every_mutator(probe *p)
{
    cloth_t *c = p->cloth;
    const float v3[3] = {0.1f, 0.2f, 0.3f}, axis[3] = {0.0f, 1.0f, 0.0f}, q[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    float tetra_moved[12];
    for (int k = 0; k < 12; ++k) {
        tetra_moved[k] = tetra_vertices[k] + (k % 3 == 0 ? 0.5f : 0.0f);
    }
    /* the sphere and the mesh moved at once, the mesh where it stands */
    const cloth_collider_id many_ids[2] = {1u, p->mesh};
    const float many_at[6] = {0.1f, 0.2f, 0.3f, 0.0f, 0.0f, 0.0f};
    const float many_q[8] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f};
    cloth_collider_id id = 0u;
    cloth_material mat;
    cloth_material_init(&mat, CLOTH_MATERIAL_COTTON);
    float buf[3u * SIDE * SIDE];
    static float ones[SIDE * SIDE]; /* stiffness scales it would take: 1 (0 is refused) */
    for (uint32_t i = 0; i < SIDE * SIDE; ++i) {
        ones[i] = 1.0f;
    }
    unsigned char snap[512];
    p->rounds++;
    BUSY(p, cloth_step(c, 1.0f / 60.0f));
    BUSY(p, cloth_add_sphere(c, v3, 0.1f, &id));
    BUSY(p, cloth_add_ellipsoid(c, v3, v3, q, &id));
    BUSY(p, cloth_add_plane(c, v3, axis, &id));
    BUSY(p, cloth_add_capsule(c, v3, axis, 0.1f, &id));
    BUSY(p, cloth_add_tapered_capsule(c, v3, axis, 0.1f, 0.05f, &id));
    BUSY(p, cloth_add_convex(c, box_planes, 6u, &id));
    BUSY(p, cloth_add_triangle_mesh(c, tetra_vertices, 0u, 4u, tetra_indices, 4u, &id));
    BUSY(p, cloth_set_triangle_mesh_vertices(c, p->mesh, tetra_moved, 0u));
    BUSY(p, cloth_add_cylinder(c, v3, axis, 0.1f, &id));
    BUSY(p, cloth_add_torus(c, v3, axis, 0.3f, 0.1f, &id));
    BUSY(p, cloth_remove_collider(c, 1u));
    BUSY(p, cloth_set_collider_friction(c, 1u, 0.5f));
    BUSY(p, cloth_set_collider_thickness(c, 1u, 0.01f));
    BUSY(p, cloth_set_collider_transform(c, 1u, v3, q));
    BUSY(p, cloth_set_collider_transforms(c, many_ids, 2u, many_at, many_q));
    BUSY(p, cloth_set_air_density(c, 1.0f));
    BUSY(p, cloth_set_drag_coefficient(c, 1.0f));
    BUSY(p, cloth_set_lift_coefficient(c, 1.0f));
    BUSY(p, cloth_set_constant_wind(c, v3));
    BUSY(p, cloth_set_wind(c, NULL, NULL));
    BUSY(p, cloth_set_external_force(c, NULL, NULL));
    BUSY(p, cloth_set_bending_stiffness(c, 1.0f));
    BUSY(p, cloth_set_constraint_stiffness(c, CLOTH_SPRING_SHEAR, 0.5f));
    BUSY(p, cloth_set_jacobi_weight(c, 0.5f));
    BUSY(p, cloth_set_custom_integrator(c, &noop_vtable, NULL));
    BUSY(p, cloth_set_integrator(c, CLOTH_INTEGRATOR_VERLET));
    BUSY(p, cloth_set_damping(c, 1.0f));
    BUSY(p, cloth_set_gravity(c, v3));
    BUSY(p, cloth_set_iterations(c, 3u));
    BUSY(p, cloth_set_substeps(c, 3u));
    BUSY(p, cloth_set_spring_damping(c, CLOTH_SPRING_STRUCTURAL, 0.01f));
    BUSY(p, cloth_set_stiffness(c, CLOTH_SPRING_STRUCTURAL, 10.0f));
    BUSY(p, cloth_set_stiffness_scales(c, ones, 0u));
    BUSY(p, cloth_set_strain_limit(c, 0.1f, 1u));
    BUSY(p, cloth_set_strain_level_sweeps(c, 1u));
    BUSY(p, cloth_set_self_collision(c, 0.01f)); /* would allocate on a cloth that never had it */
    BUSY(p, cloth_set_self_friction(c, 0.4f));
    BUSY(p, cloth_set_tethers(c, 1.0f));
    BUSY(p, cloth_set_material(c, &mat));
    BUSY(p, cloth_set_tether_schedule(c, CLOTH_TETHERS_EVERY_SUBSTEP));
    BUSY(p, cloth_set_task_hooks(c, NULL, NULL, 0u, NULL));
    BUSY(p, cloth_set_threads(c, 2u));
    BUSY(p, cloth_set_simd_level(c, CLOTH_SIMD_LEVEL_SCALAR));
    BUSY(p, cloth_set_watchdog(c, 1.0f, 0.0f, CLOTH_WATCHDOG_RESTORE));
    BUSY(p, cloth_pin(c, 5u, NULL));
    BUSY(p, cloth_unpin(c, 0u));
    memset(buf, 0, sizeof buf);
    BUSY(p, cloth_set_positions(c, buf, 0u));
    BUSY(p, cloth_set_velocities(c, buf, 0u));
    BUSY(p, cloth_set_skin_targets(c, buf, 0u));
    BUSY(p, cloth_set_inverse_masses(c, buf, 0u));
    BUSY(p, cloth_set_particle_radius(c, 0.01f));
    BUSY(p, cloth_set_frame(c, v3, NULL));
    BUSY(p, cloth_set_inertia(c, 0.5f, 0.5f));
    BUSY(p, cloth_teleport(c, v3, NULL));
    BUSY(p, cloth_set_max_distances(c, buf, 0u));
    BUSY(p, cloth_set_skin_normals(c, buf, 0u)); /* zeros: no normal, which it takes */
    BUSY(p, cloth_set_backstops(c, buf, 0u));    /* zeros: distance 0, no ball */
    memset(snap, 0, sizeof snap);
    BUSY(p, cloth_load_state(c, snap, sizeof snap));
    cloth_destroy(c); /* ignored inside a step: ASan sees it if it is not */
    /* queries that change nothing work mid-step */
    size_t size = 0u;
    float mesh_now[12];
    float thickness = -1.0f;
    float friction = -1.0f;
    if (cloth_get_positions(c, buf, 0u) != CLOTH_OK || cloth_state_size(c, &size) != CLOTH_OK ||
        cloth_particle_count(c) != SIDE * SIDE ||
        cloth_get_triangle_mesh_vertices(c, p->mesh, mesh_now, 0u) != CLOTH_OK ||
        memcmp(mesh_now, tetra_vertices, sizeof mesh_now) != 0 ||
        cloth_get_self_collision(c, &thickness) != CLOTH_OK || thickness != 0.0f ||
        cloth_get_self_friction(c, &friction) != CLOTH_OK || friction != 0.0f ||
        cloth_get_stiffness_scales(c, buf, 0u) != CLOTH_OK) {
        ++p->reads_bad;
    }
    for (uint32_t i = 0; i < SIDE * SIDE; ++i) {
        if (buf[i] != 1.0f) { /* never painted, and the refused calls above painted nothing */
            ++p->reads_bad;
            break;
        }
    }
}

static probe g_probe;

static void wind_hook(void *user, float time, uint32_t count, const float *x, float *wind)
{
    (void)time;
    (void)x;
    probe *p = user;
    memset(wind, 0, 3u * (size_t)count * sizeof *wind);
    if (p->active) {
        call_every_mutator(p);
    }
}

static void force_hook(void *user, float time, uint32_t count, const float *x, const float *v, float *f)
{
    (void)time;
    (void)x;
    (void)v;
    (void)count;
    (void)f;
    probe *p = user;
    if (p->active) {
        call_every_mutator(p);
    }
}

/* A host integrator: symplectic Euler, plus the probe in `step` or `finish`
 * or `create` or `destroy`, by `which`. */
typedef struct host_integ {
    probe *p;
    int which; /* 0 step, 1 finish, 2 create, 3 destroy */
} host_integ;

static cloth_status integ_create(void *user, const cloth_t *cloth, void **state)
{
    (void)cloth;
    host_integ *hi = user;
    if (hi->which == 2 && hi->p->active) {
        call_every_mutator(hi->p);
    }
    *state = NULL;
    return CLOTH_OK;
}

static void integ_destroy(void *user, void *state)
{
    (void)state;
    host_integ *hi = user;
    if (hi->which == 3 && hi->p->active) {
        call_every_mutator(hi->p);
    }
}

static cloth_status integ_step(void *user, void *state, const cloth_step_view *v)
{
    (void)state;
    host_integ *hi = user;
    for (uint32_t i = 0; i < v->count; ++i) {
        if (v->inv_mass[i] > 0.0f) {
            v->vx[i] += (v->gravity[0] + v->fx[i] * v->inv_mass[i]) * v->h;
            v->vy[i] += (v->gravity[1] + v->fy[i] * v->inv_mass[i]) * v->h;
            v->vz[i] += (v->gravity[2] + v->fz[i] * v->inv_mass[i]) * v->h;
        }
        v->x[i] += v->vx[i] * v->h;
        v->y[i] += v->vy[i] * v->h;
        v->z[i] += v->vz[i] * v->h;
    }
    if (hi->which == 0 && hi->p->active) {
        call_every_mutator(hi->p);
    }
    return CLOTH_OK;
}

static cloth_status integ_finish(void *user, void *state, const cloth_step_view *v)
{
    (void)state;
    (void)v;
    host_integ *hi = user;
    if (hi->which == 1 && hi->p->active) {
        call_every_mutator(hi->p);
    }
    return CLOTH_OK;
}

static const cloth_integrator_vtable host_vtable = {"host", CLOTH_INTEGRATOR_WANTS_SPRING_FORCES, integ_create,
                                                    integ_destroy, integ_step, integ_finish};

/* Task hooks that run everything at once, in ranges of min_range, on
 * worker 0, calling the probe from enqueue or finish. */
typedef struct inline_tasks {
    probe *p;
    int which; /* 0 enqueue, 1 finish */
} inline_tasks;

static void *inline_enqueue(cloth_task_fn *task, uint32_t count, uint32_t min_range, void *ctx, void *user)
{
    inline_tasks *t = user;
    for (uint32_t b = 0; b < count; b += min_range) {
        task(b, b + min_range < count ? b + min_range : count, 0u, ctx);
    }
    if (t->which == 0 && t->p->active) {
        call_every_mutator(t->p);
    }
    return t; /* a handle, so that finish is called */
}

static void inline_finish(void *handle, void *user)
{
    (void)handle;
    inline_tasks *t = user;
    if (t->which == 1 && t->p->active) {
        call_every_mutator(t->p);
    }
}

enum { HOOK_WIND, HOOK_FORCE, HOOK_STEP, HOOK_FINISH, HOOK_CREATE, HOOK_DESTROY, HOOK_ENQUEUE, HOOK_TASK_FINISH,
       HOOK_KINDS };
static const char *const hook_names[HOOK_KINDS] = {"wind",   "force",   "integrator step", "integrator finish",
                                                   "create", "destroy", "task enqueue",    "task finish"};

/* The scene with the hook of `kind` installed; active: it calls every
 * mutator. Two steps; returns the state hash (0 on failure). */
static uint64_t run_with_hook(int kind, bool active, probe *p)
{
    static host_integ hi;
    static inline_tasks it;
    cloth_t *c = make_cloth(CLOTH_INTEGRATOR_EXPLICIT_EULER);
    if (c == NULL) {
        return 0u;
    }
    memset(p, 0, sizeof *p);
    p->cloth = c;
    /* the same in both runs, so that their hashes compare */
    bool ok = cloth_add_triangle_mesh(c, tetra_vertices, 0u, 4u, tetra_indices, 4u, &p->mesh) == CLOTH_OK;
    hi.p = p;
    it.p = p;
    switch (kind) {
    case HOOK_WIND: ok = ok && cloth_set_wind(c, wind_hook, p) == CLOTH_OK; break;
    case HOOK_FORCE: ok = ok && cloth_set_external_force(c, force_hook, p) == CLOTH_OK; break;
    case HOOK_ENQUEUE:
    case HOOK_TASK_FINISH:
        it.which = kind - HOOK_ENQUEUE;
        ok = ok && cloth_set_task_hooks(c, inline_enqueue, inline_finish, 1u, &it) == CLOTH_OK;
        break;
    default:
        hi.which = kind - HOOK_STEP;
        break;
    }
    /* every case runs the host integrator, so that the runs compare */
    p->active = active;
    ok = ok && cloth_set_custom_integrator(c, &host_vtable, &hi) == CLOTH_OK;
    ok = ok && cloth_step(c, 1.0f / 60.0f) == CLOTH_OK && cloth_step(c, 1.0f / 60.0f) == CLOTH_OK;
    if (kind == HOOK_DESTROY) {
        ok = ok && cloth_set_integrator(c, CLOTH_INTEGRATOR_EXPLICIT_EULER) == CLOTH_OK;
    }
    const uint64_t h = cloth_state_hash(c);
    p->active = false;
    cloth_destroy(c);
    return ok ? h : 0u;
}

static void test_every_hook_kind(void)
{
    for (int kind = 0; kind < HOOK_KINDS; ++kind) {
        probe quiet;
        const uint64_t reference = run_with_hook(kind, false, &quiet);
        const uint64_t probed = run_with_hook(kind, true, &g_probe);
        printf("A %-18s probe rounds %u, wrong statuses %u, failed reads %u\n", hook_names[kind], g_probe.rounds,
               g_probe.wrong, g_probe.reads_bad);
        CHECK(reference != 0u);
        CHECK(g_probe.rounds > 0u);
        CHECK(g_probe.wrong == 0u);
        CHECK(g_probe.reads_bad == 0u);
        CHECK(probed == reference);
    }
}

/* ---- B: task hooks that break their contract ------------------------------ */

typedef enum fault { FAULT_NONE, FAULT_SKIP_LAST, FAULT_TWICE, FAULT_BAD_WORKER, FAULT_NEVER_RUN,
                     FAULT_OVERRUN, FAULT_COUNT } fault;
static const char *const fault_names[FAULT_COUNT] = {"honest", "skips its last range", "runs a range twice",
                                                     "worker out of range", "never runs the task",
                                                     "range past the end"};

typedef struct bad_tasks {
    fault kind;
    uint32_t call, target; /* the fault hits enqueue call number `target` (0-based) of each step */
} bad_tasks;

static void *bad_enqueue(cloth_task_fn *task, uint32_t count, uint32_t min_range, void *ctx, void *user)
{
    bad_tasks *t = user;
    const bool hit = t->call++ == t->target;
    const fault f = hit ? t->kind : FAULT_NONE;
    if (f == FAULT_NEVER_RUN) {
        return t; /* and finish does nothing */
    }
    for (uint32_t b = 0; b < count; b += min_range) {
        const uint32_t e = b + min_range < count ? b + min_range : count;
        if (f == FAULT_SKIP_LAST && e == count) {
            continue;
        }
        task(b, f == FAULT_OVERRUN && e == count ? count + 1u : e, f == FAULT_BAD_WORKER ? 1u : 0u, ctx);
        if (f == FAULT_TWICE && b == 0u) {
            task(b, e, 0u, ctx);
        }
    }
    return NULL;
}

static void bad_finish(void *handle, void *user)
{
    (void)handle;
    (void)user;
}

static bool positions_finite(const cloth_t *c)
{
    static float buf[3u * SIDE * SIDE];
    if (cloth_get_positions(c, buf, 0u) != CLOTH_OK) {
        return false;
    }
    for (size_t i = 0; i < 3u * SIDE * SIDE; ++i) {
        if (!isfinite(buf[i])) {
            return false;
        }
    }
    return true;
}

/* A host integrator that poisons one position in the last substep: the
 * step's own finite check must catch it, and a hook that drops that check's
 * work must not let it through. */
static cloth_status poison_step(void *user, void *state, const cloth_step_view *v)
{
    (void)user;
    (void)state;
    for (uint32_t i = 0; i < v->count; ++i) {
        if (v->inv_mass[i] > 0.0f) {
            v->vy[i] += v->gravity[1] * v->h;
        }
        v->y[i] += v->vy[i] * v->h;
    }
    if (v->substep + 1u == v->substeps) {
        v->x[v->count - 1u] = NAN;
    }
    return CLOTH_OK;
}

static const cloth_integrator_vtable poison_vtable = {"poison", 0u, NULL, NULL, poison_step, NULL};

/* How many tasks one step of this scene hands to the hooks. */
static uint32_t tasks_per_step(cloth_integrator kind)
{
    cloth_t *c = make_cloth(kind);
    bad_tasks t = {FAULT_NONE, 0u, UINT32_MAX};
    (void)cloth_set_task_hooks(c, bad_enqueue, bad_finish, 1u, &t);
    (void)cloth_step(c, 1.0f / 60.0f);
    cloth_destroy(c);
    return t.call;
}

static void test_broken_contract(cloth_integrator kind, const char *name)
{
    const uint32_t tasks = tasks_per_step(kind);
    printf("B %s: %u tasks a step\n", name, tasks);
    CHECK(tasks >= 3u); /* at least the save, a pass and the check */
    /* the reference: a cloth stepped twice without hooks */
    cloth_t *ref = make_cloth(kind);
    CHECK_OK(cloth_step(ref, 1.0f / 60.0f));
    const uint64_t after_one = cloth_state_hash(ref);
    CHECK_OK(cloth_step(ref, 1.0f / 60.0f));
    const uint64_t after_two = cloth_state_hash(ref);
    cloth_destroy(ref);
    /* an honest hook gives the same bits */
    {
        cloth_t *c = make_cloth(kind);
        bad_tasks t = {FAULT_NONE, 0u, UINT32_MAX};
        CHECK_OK(cloth_set_task_hooks(c, bad_enqueue, bad_finish, 1u, &t));
        CHECK_OK(cloth_step(c, 1.0f / 60.0f));
        CHECK_OK(cloth_step(c, 1.0f / 60.0f));
        CHECK(cloth_state_hash(c) == after_two);
        cloth_destroy(c);
    }
    /* each fault, at the first task (the save), one in the middle and the last (the check) */
    const uint32_t targets[3] = {0u, tasks / 2u, tasks - 1u};
    uint32_t refused = 0u, cases = 0u;
    for (int f = FAULT_SKIP_LAST; f < FAULT_COUNT; ++f) {
        for (int k = 0; k < 3; ++k) {
            cloth_t *c = make_cloth(kind);
            CHECK_OK(cloth_step(c, 1.0f / 60.0f));
            bad_tasks t = {(fault)f, 0u, targets[k]};
            CHECK_OK(cloth_set_task_hooks(c, bad_enqueue, bad_finish, 1u, &t));
            const cloth_status s = cloth_step(c, 1.0f / 60.0f);
            ++cases;
            if (s == CLOTH_ERR_TASK_CONTRACT) {
                ++refused;
            } else {
                fprintf(stderr, "  %s, a hook that %s at task %u: %s\n", name, fault_names[f], targets[k],
                        cloth_status_string(s));
            }
            CHECK(cloth_state_hash(c) == after_one);
            CHECK(positions_finite(c));
            /* honest hooks from here: the step a cloth that never met the bad ones takes */
            t.kind = FAULT_NONE;
            CHECK_OK(cloth_step(c, 1.0f / 60.0f));
            CHECK(cloth_state_hash(c) == after_two);
            cloth_destroy(c);
        }
    }
    printf("B %s: %u of %u broken contracts refused\n", name, refused, cases);
    CHECK(refused == cases);
}

/* A NaN that only the step's finite check sees, and hooks that drop that
 * check's work: refused, and the NaN never reaches the host. */
static void test_dropped_finite_check(void)
{
    const uint32_t tasks = tasks_per_step(CLOTH_INTEGRATOR_EXPLICIT_EULER);
    cloth_t *c = make_cloth(CLOTH_INTEGRATOR_EXPLICIT_EULER);
    const uint64_t before = cloth_state_hash(c);
    CHECK_OK(cloth_set_custom_integrator(c, &poison_vtable, NULL));
    bad_tasks t = {FAULT_SKIP_LAST, 0u, UINT32_MAX};
    CHECK_OK(cloth_set_task_hooks(c, bad_enqueue, bad_finish, 1u, &t));
    /* with the poison integrator the step has fewer passes; the check is its
     * last task, whatever their number: find it with an honest run first */
    CHECK_STATUS(cloth_step(c, 1.0f / 60.0f), CLOTH_ERR_UNSTABLE);
    t.target = t.call - 1u;
    t.call = 0u;
    CHECK_STATUS(cloth_step(c, 1.0f / 60.0f), CLOTH_ERR_TASK_CONTRACT);
    CHECK(cloth_state_hash(c) == before);
    CHECK(positions_finite(c));
    printf("B dropped finite check: refused (the step has %u tasks with the built-in integrator)\n", tasks);
    cloth_destroy(c);
}

int main(void)
{
    test_every_hook_kind();
    test_broken_contract(CLOTH_INTEGRATOR_EXPLICIT_EULER, "explicit Euler");
    test_broken_contract(CLOTH_INTEGRATOR_XPBD, "XPBD");
    test_dropped_finite_check();
    return test_finish("test_reentry");
}
