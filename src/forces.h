/*
 * The force stage (forces.c, aerodynamics.c): the accumulators, wind, the
 * host's force hook and the air.
 */
#ifndef CLOTHSIM_SRC_FORCES_H
#define CLOTHSIM_SRC_FORCES_H

#include "cloth_internal.h"

/* forces.c: the air's defaults for a new cloth; per substep, clear the
 * accumulators, then wind and the host's force hook (CLOTH_ERR_UNSTABLE when
 * a hook wrote a non-finite value); free the accumulators and the hooks'
 * buffers. */
void cloth_forces_defaults(cloth_t *cloth);
cloth_status cloth_forces_begin(cloth_t *cloth);
void cloth_forces_free(cloth_t *cloth);
/* The force accumulators are needed by every integrator but the built-in
 * XPBD on a grid, and by wind and the force hook. A setter reserves them for
 * the configuration it is about to install (integrator `kind`, wind on, a
 * hook), before it changes anything, so that OUT_OF_MEMORY leaves all as it
 * was; and settles once it has installed it or given up, which frees them
 * if the cloth's configuration does not need them. The step never allocates. */
cloth_status cloth_forces_reserve(cloth_t *cloth, cloth_integrator kind, bool wind_on, bool hook);
void cloth_forces_settle(cloth_t *cloth);
/* aerodynamics.c: add the air's force on every triangle; `wind` holds an
 * xyz velocity every `stride` floats (0: one for all particles). */
void cloth_aerodynamics(cloth_t *cloth, const float *wind, size_t stride);

#endif /* CLOTHSIM_SRC_FORCES_H */
