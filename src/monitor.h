/*
 * What the cloth keeps about itself for cloth_get_stats() and the watchdog
 * (stats.c, watchdog.c), and the measurements both share. Included by
 * cloth_internal.h, which embeds a cloth_monitor in struct cloth.
 */
#ifndef CLOTHSIM_MONITOR_H
#define CLOTHSIM_MONITOR_H

#include <clothsim/state.h>

#include <stdbool.h>

typedef struct cloth_monitor {
    uint32_t contacts;        /* particle-collider contacts of the latest collider pass (collide.c) */
    uint32_t tripped;         /* CLOTH_WATCHDOG_TRIPPED_* of the last step */
    uint64_t steps;           /* steps that returned CLOTH_OK */
    uint64_t trips;           /* steps after which the watchdog tripped */
    double step_seconds;      /* wall time of the last step */
    float max_strain;         /* watchdog bounds; 0 is off */
    float max_kinetic_energy;
    cloth_watchdog_action action;
    float measured_strain;    /* what the watchdog measured after the last step */
    float measured_energy;
} cloth_monitor;

/* Strain of every spring of one type: count, max, min and sum (stats.c). */
typedef struct cloth_strain_summary {
    uint32_t count;
    double max, min, sum;
} cloth_strain_summary;

void cloth_measure_strain(const cloth_t *cloth, cloth_strain_summary out[3]);
double cloth_kinetic_energy(const cloth_t *cloth);
/* A measurement as a float, clamped to the float range: a finite state can
 * measure beyond FLT_MAX (strain of far-flung particles, energy), and
 * converting such a double to float is undefined behaviour. */
float cloth_measure_to_float(double v);

/* The step's bookkeeping (step.c): begin returns the wall clock to hand to
 * end; the watchdog check runs once the state is known to be finite and
 * returns CLOTH_ERR_UNSTABLE when the step must be rolled back. */
double cloth_monitor_begin_step(cloth_t *cloth);
cloth_status cloth_watchdog_check(cloth_t *cloth);
void cloth_monitor_end_step(cloth_t *cloth, cloth_status status, double wall_start);

#endif /* CLOTHSIM_MONITOR_H */
