/*
 * cloth_step: the order of one step, as a list of named stages.
 *
 *   keep the state (for rollback); pins record where they start
 *   per substep: pins and colliders placed -> forces -> integrator -> pins
 *                -> tethers (every substep, or the last one only: the
 *                tether schedule) and collisions (in parallel over
 *                particle ranges) -> finish
 *   strain limit (if on), then the collisions once more
 *   finite check: restore the kept state on NaN/Inf
 *
 * Pins are placed before the integrator so that position-based integrators
 * solve against this substep's anchors, and again after it because the
 * integrator may have moved them.
 */
#include "cloth_internal.h"
#include "auto.h"
#include "bending.h"
#include "colliders/colliders.h"
#include "constraints/constraints.h"
#include "curvature.h"
#include "forces.h"
#include "frame.h"
#include "pins.h"
#include "skin.h"
#include "backstop.h"
#include "self_collision.h"
#include "springs.h"

#include "integrators/facts.h"
#include "kernels/kernels.h"

#include <string.h>

/* The state kept for a rollback, and the check for non-finite values, run
 * over particle ranges on the pool: at 256 x 256 each is a pass over 1.5 MB,
 * which on the calling thread alone took a tenth of a 2-thread step. */
typedef struct state_pass {
    cloth_particles *p;
    uint32_t count;
    int job;                           /* SAVE, RESTORE, CHECK or FROM */
    const cloth_kernels *kernels;      /* CHECK: the nonfinite kernel at the cloth's vector level */
    uint32_t bad[CLOTH_MAX_THREADS];   /* CHECK: per worker, sign bit set on a NaN or infinity */
} state_pass;

enum { SAVE, RESTORE, CHECK, FROM };

static void copy_range(cloth_particles *p, uint32_t first, uint32_t last, bool save)
{
    float *live[6] = {p->x, p->y, p->z, p->vx, p->vy, p->vz};
    float *kept[6] = {p->sx, p->sy, p->sz, p->svx, p->svy, p->svz};
    const size_t bytes = (size_t)(last - first) * sizeof(float);
    for (int a = 0; a < 6; ++a) {
        if (save) {
            memcpy(kept[a] + first, live[a] + first, bytes);
        } else {
            memcpy(live[a] + first, kept[a] + first, bytes);
        }
    }
}

static void state_range(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    state_pass *pass = ctx;
    uint32_t first, last;
    cloth_item_particles(begin, end, pass->count, CLOTH_PARTICLES_PER_ITEM, &first, &last);
    if (pass->job == CHECK) {
        /* the host promises worker < its worker count <= CLOTH_MAX_THREADS */
        const cloth_particles *p = pass->p;
        const float *const arrays[6] = {p->x, p->y, p->z, p->vx, p->vy, p->vz};
        pass->bad[worker % CLOTH_MAX_THREADS] |= pass->kernels->nonfinite(arrays, 6u, first, last);
    } else if (pass->job == FROM) {
        cloth_particles *p = pass->p;
        const size_t bytes = (size_t)(last - first) * sizeof(float);
        memcpy(p->lx + first, p->x + first, bytes);
        memcpy(p->ly + first, p->y + first, bytes);
        memcpy(p->lz + first, p->z + first, bytes);
    } else {
        copy_range(pass->p, first, last, pass->job == SAVE);
    }
}

/* SAVE or RESTORE the kept state, CHECK whether every value is finite, or
 * copy the positions to where the strain limit's held passes start (FROM).
 * The restore, rare and the last word of a failed step, runs on the calling
 * thread: never on the host's task hooks, which may be what failed. */
static bool state_job(cloth_t *cloth, int job)
{
    state_pass pass;
    memset(&pass, 0, sizeof pass);
    pass.p = &cloth->p;
    pass.count = cloth->count;
    pass.job = job;
    pass.kernels = cloth_kernels_at(cloth->simd);
    const uint32_t items = (cloth->count + CLOTH_PARTICLES_PER_ITEM - 1u) / CLOTH_PARTICLES_PER_ITEM;
    if (job == RESTORE) {
        state_range(0u, items, 0u, &pass);
    } else {
        cloth_parallel_for(cloth, state_range, items, 1u, &pass);
    }
    uint32_t bad = 0u;
    for (uint32_t k = 0; k < CLOTH_MAX_THREADS; ++k) {
        bad |= pass.bad[k];
    }
    return bad == 0u;
}

static void collide_one(void *ctx, uint32_t index)
{
    cloth_colliders_apply_one((cloth_t *)ctx, index);
}

typedef struct constrain_pass {
    cloth_t *cloth;
    bool tethers;
    uint32_t contacts[CLOTH_MAX_THREADS]; /* per worker: a worker runs one range at a time */
} constrain_pass;

/* Particles per item of the tether and collider pass: a quarter of the
 * other per-particle passes' (tasks.h), so that even a 128 x 128 cloth has
 * pieces enough for the pool to balance a pass whose cost gathers where
 * the cloth touches a collider. */
#define CONSTRAIN_ITEM 1024u

static void constrain_range(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    constrain_pass *pass = ctx;
    uint32_t first, last;
    cloth_item_particles(begin, end, pass->cloth->count, CONSTRAIN_ITEM, &first, &last);
    cloth_skin_project_range(pass->cloth, first, last);
    cloth_backstop_project_range(pass->cloth, first, last);
    if (pass->tethers) {
        cloth_tethers_apply_range(pass->cloth, first, last);
    }
    /* the host promises worker < its worker count <= CLOTH_MAX_THREADS */
    pass->contacts[worker % CLOTH_MAX_THREADS] += cloth_colliders_apply_range(pass->cloth, first, last);
}

/* Max distances (skin.c), backstops (backstop.c), tethers (unless
 * `collide_only`), then colliders,
 * on every free particle. A particle reads only itself, its target, the
 * pins and the colliders here, so ranges run in parallel and doing the
 * stages per range is the same as doing them one after the other over all
 * particles. Returns the contacts. */
static uint32_t constrain(cloth_t *cloth, bool collide_only)
{
    /* pairs first: the skin, tethers and colliders then win where they
     * disagree */
    cloth_self_collide(cloth);
    constrain_pass pass;
    memset(&pass, 0, sizeof pass);
    pass.cloth = cloth;
    pass.tethers = !collide_only && cloth_tethers_prepare(cloth);
    if (pass.tethers || cloth->collider_count > 0u || cloth->skin.bounded > 0u || cloth->backstop.active > 0u) {
        const uint32_t items = (cloth->count + CONSTRAIN_ITEM - 1u) / CONSTRAIN_ITEM;
        cloth_parallel_for_uneven(cloth, constrain_range, items, CLOTH_PARTICLES_PER_RANGE / CONSTRAIN_ITEM, &pass);
    }
    uint32_t contacts = 0u;
    for (uint32_t k = 0; k < CLOTH_MAX_THREADS; ++k) {
        contacts += pass.contacts[k];
    }
    return contacts;
}

static cloth_step_view make_view(cloth_t *cloth, float h, uint32_t substeps)
{
    cloth_step_view v;
    memset(&v, 0, sizeof v);
    v.count = cloth->count;
    v.x = cloth->p.x;
    v.y = cloth->p.y;
    v.z = cloth->p.z;
    v.vx = cloth->p.vx;
    v.vy = cloth->p.vy;
    v.vz = cloth->p.vz;
    /* NULL for XPBD on a grid without wind or a force hook (forces.c) */
    v.fx = cloth->p.fx;
    v.fy = cloth->p.fy;
    v.fz = cloth->p.fz;
    v.inv_mass = cloth->p.w;
    for (int k = 0; k < 3; ++k) {
        v.gravity[k] = cloth->gravity[k];
    }
    v.h = h;
    v.damping = cloth->damping;
    v.velocity_decay = expf(-cloth->damping * h);
    v.iterations = cloth->iterations_used;
    v.substeps = substeps;
    v.cloth = cloth;
    v.collide_particle = collide_one;
    v.collide_ctx = cloth;
    return v;
}

/* The position solvers take bending as constraints after their sweeps;
 * the force-based integrators have it in their forces (springs.c), and the
 * semi-rigid model bends freely. A host integrator that wants spring
 * forces gets it there; one that does not gets none. */
static bool projects_bending(const cloth_t *cloth)
{
    return cloth_integrator_facts_of(cloth->integrator)->projects_bending;
}

static cloth_status substep(cloth_t *cloth, cloth_step_view *view, uint32_t s, float dt)
{
    const cloth_integrator_vtable *vt = cloth->integ;
    view->substep = s;
    cloth_frame_carry(cloth, s, view->substeps, view->h);
    cloth_pins_apply(cloth, s + 1u, view->substeps, dt);
    cloth_colliders_begin_substep(cloth, s + 1u, view->substeps, dt);
    cloth_frame_relative_colliders(cloth, dt);
    cloth_status st = cloth_forces_begin(cloth);
    if (st != CLOTH_OK) {
        return st; /* a hook wrote NaN or infinity */
    }
    if (vt->flags & CLOTH_INTEGRATOR_WANTS_SPRING_FORCES) {
        cloth_springs_accumulate(cloth);
        cloth->forces_dirty = true;
    }
    st = vt->step(cloth->integ_user, cloth->integ_state, view);
    if (st != CLOTH_OK) {
        return st;
    }
    if (projects_bending(cloth)) {
        cloth_curvature_project(cloth, view->h);
        cloth_bending_project(cloth, view->h);
    }
    cloth_pins_apply(cloth, s + 1u, view->substeps, dt);
    cloth->skin.t = (float)(s + 1u) / (float)view->substeps;
    const bool tethers = cloth->tether_schedule == CLOTH_TETHERS_EVERY_SUBSTEP || s + 1u == view->substeps;
    cloth->monitor.contacts = constrain(cloth, !tethers); /* cloth_get_stats() reports the last substep's */
    if (vt->finish != NULL) {
        st = vt->finish(cloth->integ_user, cloth->integ_state, view);
    }
    return st;
}

/* The substeps of a step of dt seconds: refused when a substep is so short
 * that its reciprocal, which the position-based integrators and the pins
 * turn displacements into velocities with, overflows a float. */
static bool substep_ok(uint32_t substeps, float dt)
{
    const float h = dt / (float)substeps;
    return h > 0.0f && isfinite(1.0f / h);
}

/* The limit's passes first..first+passes-1, each followed by the colliders
 * (contact wins). `hold`: friction keeps a touching particle where the
 * limit found it, up to what its weight can hold within the step
 * (collide.c); otherwise friction acts on the limit's velocity change as on
 * a substep's. */
static void limit_passes(cloth_t *cloth, float dt, uint32_t first, uint32_t passes, bool hold)
{
    cloth->limit_dt = hold ? dt : 0.0f;
    cloth_strain_limit_apply(cloth, dt, first, passes);
    (void)constrain(cloth, true);
    cloth->limit_dt = 0.0f;
}

/* The limit after the last substep.
 *
 * Automatic passes: the first half of them hold touching particles, the
 * rest let them slide; a count the host set holds in none. The substeps
 * stretch the links at the edge of a contact while friction holds the
 * touching particles and the free ones move; a limit that then moved both
 * ends would ratchet a resting cloth off a ball a little every step.
 * Holding in every pass instead leaves links between two held particles
 * long, and the guarantee then takes many more passes and substeps
 * (docs/performance.md).
 *
 * Automatic: first half as many passes as the last step needed, so that
 * the count, which the substep rate follows (auto.c), falls fast once a
 * jerk is over; then one more pass at a time until
 * the worst structural or shear strain is within the guarantee
 * (CLOTH_LIMIT_SLACK), CLOTH_AUTO_MAX_PASSES have run, or the passes have
 * stalled: the last CLOTH_LIMIT_STALL_SPAN of them shortened the worst
 * link by less than CLOTH_LIMIT_STALL of its strain each. */
static void limit_stage(cloth_t *cloth, float dt)
{
    /* lx: allocated while the limit's passes are automatic (strain_limit.c) */
    const bool hold = cloth->strain_passes_auto && cloth->p.lx != NULL;
    if (hold) {
        (void)state_job(cloth, FROM); /* where the held passes measure slides from */
    }
    if (!cloth->strain_passes_auto) {
        /* a count the host chose runs as it always has: no pass holds */
        if (cloth->strain_passes > 0u) {
            limit_passes(cloth, dt, 0u, cloth->strain_passes, false);
        }
        cloth->passes_used = cloth->strain_passes;
        return;
    }
    const float bound = cloth_auto_strain_bound(cloth->max_strain);
    uint32_t used = cloth->passes_used > 1u ? cloth->passes_used / 2u : 1u;
    cloth->limit_stalled = false;
    limit_passes(cloth, dt, 0u, used, hold);
    float worst = cloth_strain_limit_worst(cloth);
    float recent[CLOTH_LIMIT_STALL_SPAN]; /* the worst strain after the last passes, by pass number */
    for (uint32_t k = 0; k < CLOTH_LIMIT_STALL_SPAN; ++k) {
        recent[k] = worst;
    }
    for (uint32_t single = 1u; worst > bound && used < CLOTH_AUTO_MAX_PASSES; ++single) {
        limit_passes(cloth, dt, used, 1u, false);
        ++used;
        worst = cloth_strain_limit_worst(cloth);
        /* one pass may leave the worst link longer than the last did; over
         * a span of them a limit that converges closes the gap */
        float *const then = &recent[single % CLOTH_LIMIT_STALL_SPAN];
        if (used >= 2u * CLOTH_LIMIT_STALL_SPAN && single >= CLOTH_LIMIT_STALL_SPAN &&
            !(*then - worst > CLOTH_LIMIT_STALL * (float)CLOTH_LIMIT_STALL_SPAN * *then)) {
            cloth->limit_stalled = true;
            break; /* pins pulled apart, a link held long by contact */
        }
        *then = worst;
    }
    cloth->passes_used = used;
    cloth->step_strain = worst;
}

/* The steps between the kept state and the finite check. */
static cloth_status run_substeps(cloth_t *cloth, float dt, uint32_t n)
{
    const double time_before = cloth->time;
    cloth_step_view view = make_view(cloth, dt / (float)n, n);
    /* friction takes back the slide it cancels with this (facts.h) */
    cloth->friction_lag = cloth_integrator_facts_of(cloth->integrator)->friction_lag * view.h;
    cloth_pins_begin_step(cloth);
    cloth->skin.dt = dt;
    cloth_status st = CLOTH_OK;
    for (uint32_t s = 0; s < n && st == CLOTH_OK; ++s) {
        st = substep(cloth, &view, s, dt);
        cloth->time = time_before + (double)dt * (double)(s + 1u) / (double)n;
    }
    cloth->step_strain = 0.0f;
    cloth->skin.t = 1.0f; /* the limit's passes act on the step's end */
    if (st == CLOTH_OK) {
        limit_stage(cloth, dt);
    }
    return st;
}

cloth_status cloth_step(cloth_t *cloth, float dt)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || !isfinite(dt) || !(dt > 0.0f) || dt > 1.0f) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    uint32_t substeps = cloth_auto_substeps(cloth, dt);
    if (!substep_ok(substeps, dt)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const double wall_start = cloth_monitor_begin_step(cloth);
    const double time_before = cloth->time;
    cloth->busy = true;
    (void)cloth_tasks_take_broken(cloth);
    (void)state_job(cloth, SAVE);
    if (cloth_tasks_take_broken(cloth)) {
        /* the kept state may be incomplete, and nothing has moved yet */
        cloth->busy = false;
        cloth_monitor_end_step(cloth, CLOTH_ERR_TASK_CONTRACT, wall_start);
        return CLOTH_ERR_TASK_CONTRACT;
    }
    cloth->iterations_used = cloth_auto_iterations(cloth);
    cloth_status st;
    bool broken = false;
    uint32_t spent = 0u;
    for (uint32_t attempt = 0;; ++attempt) {
        cloth->substeps_used = substeps;
        st = run_substeps(cloth, dt, substeps);
        spent += substeps;
        if (st == CLOTH_OK && !state_job(cloth, CHECK)) {
            st = CLOTH_ERR_UNSTABLE;
        }
        const uint32_t again = st == CLOTH_OK ? cloth_auto_redo(cloth, dt, attempt, spent) : 0u;
        if (again == 0u || !substep_ok(again, dt)) {
            break;
        }
        broken = cloth_tasks_take_broken(cloth);
        if (broken) {
            break;
        }
        /* the limit missed its guarantee: the same step again, from the
         * kept state, with more substeps (auto.c) */
        (void)state_job(cloth, RESTORE);
        cloth->time = time_before;
        cloth_colliders_rewind(cloth);
        substeps = again;
    }
    if (st == CLOTH_OK) {
        st = cloth_watchdog_check(cloth); /* UNSTABLE when the host asked for a restore */
    }
    /* a pass the hooks cut short leaves a state, and a check, that cannot be trusted */
    if (broken || cloth_tasks_take_broken(cloth)) {
        st = CLOTH_ERR_TASK_CONTRACT;
    }
    if (st != CLOTH_OK) {
        (void)state_job(cloth, RESTORE);
        cloth->time = time_before;
    } else {
        cloth_auto_adapt(cloth);
        cloth_skin_end_step(cloth);
        cloth_backstop_end_step(cloth);
        cloth_frame_end_step(cloth);
    }
    cloth->busy = false;
    cloth_monitor_end_step(cloth, st, wall_start);
    return st;
}
