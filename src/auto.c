/*
 * Automatic settings: what cloth_step() does with substeps, iterations or
 * limit passes set to 0 (clothsim.h, constraints.h).
 *
 * Position solvers (XPBD, PBD, semi-rigid) are stable at any substep, so
 * their substeps buy accuracy: fewer substeps leave more stretch for the
 * strain limit to take out, more substeps cost a sweep each. They start at
 * CLOTH_AUTO_RATE substeps a second and follow the limit: a step whose
 * automatic limit needed more than CLOTH_AUTO_BUSY_PASSES passes raises the
 * rate by a quarter for the next step, one that needed at most
 * CLOTH_AUTO_IDLE_PASSES lowers it by a fifth (never under the start).
 * The choice depends only on the cloth's state, so it is the same at any
 * thread count and SIMD level.
 *
 * Explicit integrators take the stability bound of cloth_set_integrator()
 * with w_max^2 bounded by Gershgorin's theorem over the springs, the
 * curvature lines and the hinges, and 10 % to spare. Implicit Euler takes
 * one substep, relaxation 16.
 */
#include "cloth_internal.h"

#include <float.h>

#define CLOTH_AUTO_RATE 360.0f
#define CLOTH_AUTO_RATE_MAX 7680.0f
#define CLOTH_AUTO_BUSY_PASSES 4u
#define CLOTH_AUTO_IDLE_PASSES 2u

float cloth_auto_strain_bound(float max_strain)
{
    return max_strain * (1.0f + CLOTH_LIMIT_SLACK) + 1e-5f;
}

static bool position_solver(const cloth_t *cloth)
{
    return cloth->integ == &cloth_integrator_xpbd || cloth->integ == &cloth_integrator_pbd ||
           cloth->integ == &cloth_integrator_semirigid;
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
    double w2 = w_max * row;
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
    if (cloth->integ == &cloth_integrator_trapezoid && beta > 0.0) {
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
    if (position_solver(cloth)) {
        const double n = ceil((double)dt * (double)cloth->auto_rate - 1e-3);
        return n < 1.0 ? 1u : (n > (double)CLOTH_MAX_SUBSTEPS ? CLOTH_MAX_SUBSTEPS : (uint32_t)n);
    }
    if (cloth->integ == &cloth_integrator_implicit) {
        return 1u;
    }
    if (cloth->integ == &cloth_integrator_relaxation || cloth->integrator == CLOTH_INTEGRATOR_CUSTOM) {
        return 16u;
    }
    return explicit_substeps(cloth, dt);
}

uint32_t cloth_auto_iterations(const cloth_t *cloth)
{
    if (!cloth->iterations_auto) {
        return cloth->iterations;
    }
    return cloth->integ == &cloth_integrator_pbd ? 4u : 1u;
}

void cloth_auto_adapt(cloth_t *cloth)
{
    if (!cloth->substeps_auto || !cloth->strain_passes_auto || !position_solver(cloth)) {
        return;
    }
    /* A limit pass costs about what a substep's sweep does: the rate rises
     * while the limit does more work than the solver (or could not reach
     * the guarantee), and falls while it does less than a quarter of it. */
    const uint32_t subs = cloth->substeps_used, passes = cloth->passes_used;
    const bool missed = cloth->step_strain > cloth_auto_strain_bound(cloth->max_strain);
    if (missed || (passes > CLOTH_AUTO_BUSY_PASSES && passes > subs)) {
        cloth->auto_rate = fminf(cloth->auto_rate * 1.25f, CLOTH_AUTO_RATE_MAX);
    } else if (passes <= CLOTH_AUTO_IDLE_PASSES || 4u * passes < subs) {
        cloth->auto_rate = fmaxf(cloth->auto_rate * 0.8f, CLOTH_AUTO_RATE);
    }
}

void cloth_auto_defaults(cloth_t *cloth)
{
    cloth->auto_rate = CLOTH_AUTO_RATE;
}
