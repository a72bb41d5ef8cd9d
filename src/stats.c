/*
 * Statistics: strains and kinetic energy measured from the state on demand,
 * and the counters the step keeps (steps, wall time; contacts are counted by
 * collide.c). Measurements are taken in double: they report on the state,
 * they do not feed back into it, so their precision costs no determinism.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L /* clock_gettime, CLOCK_MONOTONIC */
#endif

#include "cloth_internal.h"
#include "springs.h"

#include <float.h>
#include <string.h>
#include <time.h>

/* The first version of cloth_stats ends with watchdog_kinetic_energy.
 * Later fields took the place of reserved words, so the size stays. */
#define STATS_V1_SIZE (offsetof(cloth_stats, watchdog_kinetic_energy) + sizeof(float))
_Static_assert(sizeof(cloth_stats) == STATS_V1_SIZE + 16u * sizeof(uint32_t),
               "cloth_stats keeps its size within a major version");
_Static_assert(offsetof(cloth_stats, memory_bytes) == STATS_V1_SIZE,
               "memory_bytes takes the first two reserved words");

float cloth_measure_to_float(double v)
{
    if (v > (double)FLT_MAX) {
        return FLT_MAX;
    }
    return v < -(double)FLT_MAX ? -FLT_MAX : (float)v;
}

static double spring_strain(const cloth_particles *p, uint32_t i, uint32_t j, float rest)
{
    const double dx = (double)p->x[j] - (double)p->x[i];
    const double dy = (double)p->y[j] - (double)p->y[i];
    const double dz = (double)p->z[j] - (double)p->z[i];
    return sqrt(dx * dx + dy * dy + dz * dz) / (double)rest - 1.0;
}

static void add_strain(cloth_strain_summary *s, double e)
{
    if (s->count == 0u || e > s->max) {
        s->max = e;
    }
    if (s->count == 0u || e < s->min) {
        s->min = e;
    }
    s->sum += e;
    ++s->count;
}

void cloth_measure_strain(const cloth_t *cloth, cloth_strain_summary out[3])
{
    memset(out, 0, 3u * sizeof *out);
    const cloth_particles *p = &cloth->p;
    if (cloth->tris == NULL) {
        for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
            if (!cloth_family_active(cloth, f)) {
                continue;
            }
            cloth_strain_summary *s = &out[cloth_grid_families[f].type];
            const float rest = cloth->family_rest[f];
            uint32_t begin, end, di;
            for (uint32_t r = 0; cloth_family_row(cloth, f, r, &begin, &end, &di); ++r) {
                for (uint32_t i = begin; i < end; ++i) {
                    add_strain(s, spring_strain(p, i, i + di, rest));
                }
            }
        }
        return;
    }
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        for (uint32_t sp = cloth->type_begin[t]; sp < cloth->type_begin[t + 1]; ++sp) {
            /* a bend pair whose ends met in the mesh has no strain to speak of */
            if (cloth->spring_rest[sp] > 0.0f) {
                add_strain(&out[t], spring_strain(p, cloth->spring_ij[2u * sp], cloth->spring_ij[2u * sp + 1u],
                                                  cloth->spring_rest[sp]));
            }
        }
    }
}

double cloth_kinetic_energy(const cloth_t *cloth)
{
    const cloth_particles *p = &cloth->p;
    double e = 0.0;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        if (p->w[i] > 0.0f) {
            const double vx = (double)p->vx[i], vy = (double)p->vy[i], vz = (double)p->vz[i];
            e += (vx * vx + vy * vy + vz * vz) / (double)p->w[i];
        }
    }
    return 0.5 * e;
}

/* Monotonic where POSIX has it: the wall clock can jump (NTP, the user). */
static double wall_seconds(void)
{
    struct timespec ts;
#if defined(CLOCK_MONOTONIC)
    if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0) {
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    }
#endif
#if defined(TIME_UTC)
    if (timespec_get(&ts, TIME_UTC) == TIME_UTC) {
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    }
#endif
    return 0.0;
}

double cloth_monitor_begin_step(cloth_t *cloth)
{
    cloth->monitor.tripped = 0u;
    return wall_seconds();
}

void cloth_monitor_end_step(cloth_t *cloth, cloth_status status, double wall_start)
{
    const double elapsed = wall_seconds() - wall_start;
    cloth->monitor.step_seconds = elapsed > 0.0 ? elapsed : 0.0;
    if (status == CLOTH_OK) {
        ++cloth->monitor.steps;
    }
}

void cloth_stats_init(cloth_stats *stats)
{
    if (stats == NULL) {
        return;
    }
    memset(stats, 0, sizeof *stats);
    stats->struct_size = (uint32_t)sizeof *stats;
}

cloth_status cloth_get_stats(const cloth_t *cloth, cloth_stats *out)
{
    if (cloth == NULL || out == NULL || out->struct_size < STATS_V1_SIZE) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (out->struct_size > sizeof *out) {
        return CLOTH_ERR_UNSUPPORTED;
    }
    cloth_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = (uint32_t)sizeof s;
    cloth_strain_summary strain[CLOTH_SPRING_TYPES];
    cloth_measure_strain(cloth, strain);
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        s.spring_count[t] = strain[t].count;
        if (strain[t].count > 0u) {
            s.max_strain[t] = cloth_measure_to_float(strain[t].max);
            s.min_strain[t] = cloth_measure_to_float(strain[t].min);
            s.mean_strain[t] = cloth_measure_to_float(strain[t].sum / (double)strain[t].count);
        }
    }
    s.kinetic_energy = cloth_measure_to_float(cloth_kinetic_energy(cloth));
    const cloth_monitor *m = &cloth->monitor;
    s.contacts = m->contacts;
    s.watchdog_tripped = m->tripped;
    s.steps = m->steps;
    s.watchdog_trips = m->trips;
    s.step_seconds = m->step_seconds;
    s.watchdog_max_strain = m->measured_strain;
    s.watchdog_kinetic_energy = m->measured_energy;
    s.memory_bytes = (uint64_t)cloth->mem.live_bytes;
    /* The automatic limit measured it to know when to stop; otherwise the
     * state now is the one the last step left, and the strains above
     * measured it, so a step need not pay for it. */
    const float now = s.max_strain[0] > s.max_strain[1] ? s.max_strain[0] : s.max_strain[1];
    s.step_max_strain = cloth->monitor.steps == 0u ? 0.0f : (cloth->strain_passes_auto ? cloth->step_strain : now);
    s.substeps_used = cloth->substeps_used;
    s.iterations_used = cloth->iterations_used;
    s.limit_passes_used = cloth->passes_used;
    /* only the fields of the caller's version of the struct */
    s.struct_size = out->struct_size;
    memcpy(out, &s, out->struct_size);
    return CLOTH_OK;
}
