/*
 * The automatic settings (auto.c) and the defaults of a new cloth.
 */
#ifndef CLOTHSIM_SRC_AUTO_H
#define CLOTHSIM_SRC_AUTO_H

#include "cloth_internal.h"

/* auto.c: the settings cloth_step() chooses when the host passed 0. The
 * automatic limit runs passes until the worst strain is within
 * cloth_auto_strain_bound() (max_strain, and CLOTH_LIMIT_SLACK of it more,
 * plus float rounding), at most CLOTH_AUTO_MAX_PASSES. */
#define CLOTH_LIMIT_SLACK 0.01f
#define CLOTH_AUTO_MAX_PASSES 64u
/* The automatic limit stops early once its passes shorten the worst link
 * by less than this share of its strain per pass, over the last
 * CLOTH_LIMIT_STALL_SPAN passes: a guarantee the pins or the colliders make
 * impossible (pins pulled further apart than the cloth reaches) then costs
 * a few passes, not CLOTH_AUTO_MAX_PASSES every step, while a limit that
 * crawls (a long strip too narrow for coarse levels) goes on. A single pass
 * may lengthen the worst link; a span of them that converges does not. */
#define CLOTH_LIMIT_STALL 0.001f
#define CLOTH_LIMIT_STALL_SPAN 8u
/* The automatic limit shortens a link past (1 + (1 - CLOTH_LIMIT_MARGIN)
 * max_strain) times its rest length to that length, not to the guarantee's:
 * Gauss-Seidel passes over links that all sit at their bound push each
 * other back over it and crawl towards it, while a target inside the bound
 * leaves room for the push, and the wider the room the fewer the passes
 * (docs/performance.md has the figures). The price: the limit takes out a
 * fabric's own stretch past a third of its max_strain. */
#define CLOTH_LIMIT_MARGIN (2.0f / 3.0f)
/* A new cloth's stretch guarantee, its tethers' allowance and its watchdog
 * bound (cloth.c). The guarantee is 9 %, its limit aiming at 3 % as the
 * tethers do: loose enough that the automatic settings cost about what a
 * hand-tuned setup does, and well inside the 10 % a cloth should never
 * pass (docs/performance.md, docs/materials.md). */
#define CLOTH_DEFAULT_MAX_STRAIN 0.09f
#define CLOTH_DEFAULT_TETHER_STRAIN 0.03f
#define CLOTH_DEFAULT_WATCHDOG_STRAIN 3.0f
float cloth_auto_strain_bound(float max_strain);
uint32_t cloth_auto_substeps(const cloth_t *cloth, float dt);
uint32_t cloth_auto_iterations(const cloth_t *cloth);
void cloth_auto_adapt(cloth_t *cloth);
/* After an attempt at a step that kept its state finite, `spent` substeps
 * run so far in the step: the substeps to run the step again with, from
 * its kept state, because the automatic limit missed its guarantee and
 * more substeps are allowed; 0 to keep it. */
uint32_t cloth_auto_redo(cloth_t *cloth, float dt, uint32_t attempt, uint32_t spent);
/* The automatic state a new cloth starts with; whether a rate and a pass
 * count are ones the automatic settings can hold (a snapshot's, snapshot.c). */
void cloth_auto_defaults(cloth_t *cloth);
bool cloth_auto_state_ok(float rate, uint32_t passes);

#endif /* CLOTHSIM_SRC_AUTO_H */
