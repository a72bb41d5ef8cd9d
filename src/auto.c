/*
 * Automatic settings: what cloth_step() does with substeps, iterations or
 * limit passes set to 0 (clothsim.h, constraints.h).
 *
 * Position solvers (XPBD, PBD, semi-rigid) are stable at any substep, so
 * their substeps buy accuracy: fewer substeps leave more stretch for the
 * strain limit to take out, more substeps cost a sweep each. With the
 * automatic limit they start at CLOTH_AUTO_RATE substeps a second and
 * trade one for the other:
 *   - A limit pass (with its coarse levels, its measure and the contacts
 *     after it) costs about what a substep does. Where the stretch comes
 *     from the solver's own lag, more substeps save passes; where it comes
 *     from contact holding links apart, they save nothing, and on a large
 *     cloth at rest each extra substep saves only a fraction of a pass.
 *     So the rate rises by a quarter after a step whose limit needed more
 *     passes than CLOTH_AUTO_BUSY_PASSES or half its substeps, and falls
 *     by a fifth after one that needed at most CLOTH_AUTO_IDLE_PASSES or a
 *     quarter of them (never under the start); between the two it stays,
 *     so a cloth at rest keeps one rate. With a pass costing about a
 *     substep, the band of a quarter to a half keeps the two in balance
 *     on small and large cloths alike (docs/performance.md).
 *   - A step whose limit could not reach the guarantee in its
 *     CLOTH_AUTO_MAX_PASSES (a cloth that hits a ball, a jerk on a pin) is
 *     run again from its kept state with twice the rate, at most
 *     CLOTH_AUTO_REDOS times, and never past CLOTH_MAX_SUBSTEPS substeps
 *     for the step in all (cloth_auto_redo()): the guarantee holds at
 *     every read-back unless even that rate cannot keep it. Where twice
 *     the substeps did not take out half of the excess over the guarantee,
 *     more would not either (pins pulled further apart than the cloth
 *     reaches, contact holding links long): steps are no longer run again,
 *     nor is the rate raised for a miss, until a step meets the guarantee.
 * The choice depends only on the cloth's state, so it is the same at any
 * thread count and SIMD level.
 *
 * Explicit integrators take the stability bound of cloth_set_integrator()
 * with w_max^2 bounded by Gershgorin's theorem over the springs, the
 * curvature lines and the hinges, and 10 % to spare. Implicit Euler takes
 * one substep, relaxation 16.
 */
#include "cloth_internal.h"
#include "integrators/facts.h"
#include "auto.h"
#include "bending.h"
#include "springs.h"

#include <float.h>

#define CLOTH_AUTO_RATE 360.0f
#define CLOTH_AUTO_RATE_MAX 7680.0f
#define CLOTH_AUTO_BUSY_PASSES 3u
#define CLOTH_AUTO_IDLE_PASSES 2u
#define CLOTH_AUTO_REDOS 2u

float cloth_auto_strain_bound(float max_strain)
{
    return max_strain * (1.0f + CLOTH_LIMIT_SLACK) + 1e-5f;
}

static bool position_solver(const cloth_t *cloth)
{
    return cloth_integrator_facts_of(cloth->integrator)->substeps == CLOTH_AUTO_BY_RATE;
}

/* An upper bound on the stiffest vibration's angular frequency squared. */
static double omega2_bound(const cloth_t *cloth)
{
    double w_max = 0.0;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        w_max = (double)cloth->p.w[i] > w_max ? (double)cloth->p.w[i] : w_max;
    }
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        w_max = (double)cloth->pins[k].w_free > w_max ? (double)cloth->pins[k].w_free : w_max;
    }
    double row = 0.0; /* the largest sum over a particle of 2 k / L0 per spring at it, doubled */
    if (cloth->tris == NULL) {
        for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
            if (cloth_family_active(cloth, f)) {
                row += 4.0 * (double)cloth->stiffness[cloth_grid_families[f].type] / (double)cloth->family_rest[f];
            }
        }
        /* curvature lines: 16 k per direction, k at most D s / s^3 */
        const double s = (double)cloth->family_rest[0];
        row += 32.0 * (double)cloth->rigidity / (s * s);
    } else {
        double worst = 0.0;
        for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
            for (uint32_t s = cloth->type_begin[t]; s < cloth->type_begin[t + 1]; ++s) {
                const double k = 4.0 * (double)cloth->stiffness[t] / (double)cloth->spring_rest[s];
                worst = k > worst ? k : worst;
            }
        }
        /* a mesh vertex has rarely more than 8 edges and 8 bend springs */
        row = 16.0 * worst;
    }
    /* a spring is at most as stiff as its stiffer end scales it */
    double w2 = w_max * row * (cloth->kscale != NULL ? (double)cloth->kscale_max : 1.0);
    if (cloth->bending != NULL && cloth->tris == NULL) {
        /* the hinges' checkerboard mode, bending.h */
        const double s = (double)cloth->family_rest[0];
        w2 += 37.0 * w_max * (double)cloth_bending_k_max(cloth) / (s * s);
    } else if (cloth->bending != NULL) {
        double e2 = 0.0; /* shortest edge, squared */
        for (uint32_t s = 0; s < cloth->type_begin[CLOTH_SPRING_BEND]; ++s) {
            const double l = (double)cloth->spring_rest[s];
            e2 = (e2 == 0.0 || l * l < e2) ? l * l : e2;
        }
        w2 += e2 > 0.0 ? 37.0 * w_max * (double)cloth_bending_k_max(cloth) / e2 : 0.0;
    }
    return w2;
}

static uint32_t explicit_substeps(const cloth_t *cloth, float dt)
{
    const double w2 = omega2_bound(cloth);
    if (!(w2 > 0.0)) {
        return 1u;
    }
    double beta = 0.0;
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        beta = (double)cloth->spring_damping[t] > beta ? (double)cloth->spring_damping[t] : beta;
    }
    double h;
    if (cloth_integrator_facts_of(cloth->integrator)->substeps == CLOTH_AUTO_BY_TRAPEZOID && beta > 0.0) {
        h = 2.0 / (w2 * beta);
        h = h < 2.0 * beta ? h : 2.0 * beta;
    } else {
        /* w^2 h (h + 2 beta) <= 4 */
        h = -beta + sqrt(beta * beta + 4.0 / w2);
    }
    h *= 0.9;
    const double n = ceil((double)dt / h);
    return n < 1.0 ? 1u : (n > (double)CLOTH_MAX_SUBSTEPS ? CLOTH_MAX_SUBSTEPS : (uint32_t)n);
}

uint32_t cloth_auto_substeps(const cloth_t *cloth, float dt)
{
    if (!cloth->substeps_auto) {
        return cloth->substeps;
    }
    switch (cloth_integrator_facts_of(cloth->integrator)->substeps) {
    case CLOTH_AUTO_BY_RATE: {
        const double n = ceil((double)dt * (double)cloth->auto_rate - 1e-3);
        return n < 1.0 ? 1u : (n > (double)CLOTH_MAX_SUBSTEPS ? CLOTH_MAX_SUBSTEPS : (uint32_t)n);
    }
    case CLOTH_AUTO_ONE:
        return 1u;
    case CLOTH_AUTO_SIXTEEN:
        return 16u;
    case CLOTH_AUTO_BY_STABILITY:
    case CLOTH_AUTO_BY_TRAPEZOID:
    default:
        return explicit_substeps(cloth, dt);
    }
}

uint32_t cloth_auto_iterations(const cloth_t *cloth)
{
    if (!cloth->iterations_auto) {
        return cloth->iterations;
    }
    return cloth_integrator_facts_of(cloth->integrator)->auto_iterations;
}

void cloth_auto_adapt(cloth_t *cloth)
{
    if (!cloth->substeps_auto || !cloth->strain_passes_auto || !position_solver(cloth)) {
        return;
    }
    const uint32_t subs = cloth->substeps_used, passes = cloth->passes_used;
    const uint32_t busy = subs / 2u > CLOTH_AUTO_BUSY_PASSES ? subs / 2u : CLOTH_AUTO_BUSY_PASSES;
    const uint32_t idle = subs / 4u > CLOTH_AUTO_IDLE_PASSES ? subs / 4u : CLOTH_AUTO_IDLE_PASSES;
    /* a miss raises the rate unless more substeps were found not to help,
     * and so do many passes unless they stopped on a stall */
    const bool missed = cloth->step_strain > cloth_auto_strain_bound(cloth->max_strain) && !cloth->redo_futile;
    if (missed || (passes > busy && !cloth->limit_stalled)) {
        cloth->auto_rate = fminf(cloth->auto_rate * 1.25f, CLOTH_AUTO_RATE_MAX);
    } else if (passes <= idle) {
        cloth->auto_rate = fmaxf(cloth->auto_rate * 0.8f, CLOTH_AUTO_RATE);
    }
}

uint32_t cloth_auto_redo(cloth_t *cloth, float dt, uint32_t attempt, uint32_t spent)
{
    if (!cloth->substeps_auto || !cloth->strain_passes_auto || !position_solver(cloth)) {
        return 0u;
    }
    const float bound = cloth_auto_strain_bound(cloth->max_strain), strain = cloth->step_strain;
    if (!(strain > bound)) {
        cloth->redo_futile = false;
        return 0u;
    }
    if (attempt == 0u) {
        cloth->first_attempt_strain = strain;
    } else if (!(strain < cloth->first_attempt_strain - 0.5f * (cloth->first_attempt_strain - bound))) {
        /* twice the substeps did not take out half of the excess: more
         * will not bring the guarantee either (pins pulled apart, contact
         * holding links long); keep this attempt, stop running steps
         * again and let the rate fall back */
        cloth->redo_futile = true;
        cloth->auto_rate = fmaxf(cloth->auto_rate * 0.5f, CLOTH_AUTO_RATE);
        return 0u;
    }
    if (cloth->redo_futile || attempt >= CLOTH_AUTO_REDOS) {
        return 0u;
    }
    const uint32_t before = cloth->substeps_used;
    cloth->auto_rate = fminf(cloth->auto_rate * 2.0f, CLOTH_AUTO_RATE_MAX);
    const uint32_t n = cloth_auto_substeps(cloth, dt);
    if (n <= before || n > CLOTH_MAX_SUBSTEPS - spent) {
        /* a step runs at most CLOTH_MAX_SUBSTEPS substeps in all, its runs
         * again included: no more than a host could ask for */
        cloth->auto_rate = fmaxf(cloth->auto_rate * 0.5f, CLOTH_AUTO_RATE);
        return 0u;
    }
    /* the passes the missed attempt ran say little about how few the
     * finer one needs: it starts again from one */
    cloth->passes_used = 1u;
    return n;
}

bool cloth_auto_state_ok(float rate, uint32_t passes)
{
    return rate >= CLOTH_AUTO_RATE && rate <= CLOTH_AUTO_RATE_MAX && passes <= CLOTH_AUTO_MAX_PASSES;
}

void cloth_auto_defaults(cloth_t *cloth)
{
    cloth->auto_rate = CLOTH_AUTO_RATE;
    cloth->passes_used = 0u;
    cloth->redo_futile = false;
}
