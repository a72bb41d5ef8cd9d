/*
 * clothsim: forces the host supplies, wind first.
 */
#ifndef CLOTHSIM_FORCES_H
#define CLOTHSIM_FORCES_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup forces Forces from the host
 * @{
 */

/**
 * Install the wind hook (see ::cloth_wind_fn), or remove it with `fn` NULL.
 * Not yet available: a non-NULL `fn` returns ::CLOTH_ERR_UNSUPPORTED; removing
 * (NULL) always succeeds.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth.
 */
CLOTH_API cloth_status cloth_set_wind(cloth_t *cloth, cloth_wind_fn fn, void *user);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_FORCES_H */
