/*
 * The small pieces every tether path shares (tethers.h): a grid's rest
 * distance terms and a particle's list of pins. Called by the table
 * (tethers.c), the batches (tether_batch.c) and the grid path
 * (tether_grid.c); calls none of them.
 */
#include "tethers.h"

/* The two coefficients of a grid's rest distances (tethers.h). */
void cloth_tether_grid_terms(const cloth_t *cloth, double *s2, double *cross)
{
    const double s = (double)cloth->family_rest[0], diag = (double)cloth->family_rest[2];
    *s2 = s * s;
    *cross = diag * diag - 2.0 * *s2;
}

void cloth_tether_clear_list(uint32_t pin[K], float rest[K])
{
    for (int k = 0; k < K; ++k) {
        pin[k] = NO_PIN;
        rest[k] = 0.0f;
    }
}

/* A particle's pins in the order cloth_tether_constrain() takes them: by
 * particle index, NO_PIN (the largest) after the last. The projection's last
 * bits can depend on the order of the balls, so every path hands them over
 * in one order, and this one the grid path knows without sorting anything
 * per particle. */
void cloth_tether_order_by_index(uint32_t pin[K], float rest[K])
{
    for (int a = 1; a < K; ++a) {
        const uint32_t p = pin[a];
        const float d = rest[a];
        int b = a;
        for (; b > 0 && pin[b - 1] > p; --b) {
            pin[b] = pin[b - 1];
            rest[b] = rest[b - 1];
        }
        pin[b] = p;
        rest[b] = d;
    }
}
