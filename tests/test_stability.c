/*
 * The default cloth is stable with every explicit integrator at 60 Hz
 * (clothsim.h, cloth_create_grid: "These keep the default cloth stable at
 * 60 Hz with every explicit integrator"), and a step that blows up is rolled
 * back (cloth_step: "the state from before the call is restored ... and
 * CLOTH_ERR_UNSTABLE is returned").
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cloth_integrator k_integrators[3] = {
    CLOTH_INTEGRATOR_EXPLICIT_EULER, CLOTH_INTEGRATOR_TRAPEZOID, CLOTH_INTEGRATOR_VERLET};
static const char *const k_names[3] = {"explicit_euler", "trapezoid", "verlet"};
static const float k_dt = 1.0f / 60.0f;

static double dist3(const float *a, const float *b)
{
    double dx = (double)a[0] - (double)b[0], dy = (double)a[1] - (double)b[1],
           dz = (double)a[2] - (double)b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static void run_default(int which, int settle, float *final_pos)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    float *pos, *vel, pin_a[3], pin_b[3];
    uint32_t rows, cols, count, f, r, c, i;
    int all_ok = 1, all_finite = 1, below = 1;
    double max_strain = 0.0, max_asym = 0.0, mean_y = 0.0, max_y_free = -1e30, spacing;

    cloth_grid_desc_init(&desc);
    rows = desc.rows;
    cols = desc.cols;
    spacing = (double)desc.spacing;
    CHECK(rows == 32 && cols == 32);
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (!cloth)
        return;
    count = cloth_particle_count(cloth);
    CHECK(count == rows * cols);
    pos = malloc(sizeof(float) * 3u * count);
    vel = malloc(sizeof(float) * 3u * count);
    if (!pos || !vel) {
        CHECK(0);
        free(pos);
        free(vel);
        cloth_destroy(cloth);
        return;
    }
    CHECK_OK(cloth_set_integrator(cloth, k_integrators[which]));
    if (settle)
        CHECK_OK(cloth_set_damping(cloth, 2.0f));
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_pin(cloth, cols - 1u, NULL));
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    memcpy(pin_a, &pos[0], sizeof pin_a);
    memcpy(pin_b, &pos[3u * (cols - 1u)], sizeof pin_b);

    for (f = 0; f < 600; ++f) {
        cloth_status s = cloth_step(cloth, k_dt);
        if (s != CLOTH_OK) {
            if (all_ok)
                fprintf(stderr, "%s: step %u returned %s\n", k_names[which], (unsigned)f,
                        cloth_status_string(s));
            all_ok = 0;
            break;
        }
        CHECK_OK(cloth_get_positions(cloth, pos, 0));
        CHECK_OK(cloth_get_velocities(cloth, vel, 0));
        for (i = 0; i < 3u * count; ++i)
            if (!isfinite(pos[i]) || !isfinite(vel[i]))
                all_finite = 0;
    }
    CHECK(all_ok);
    CHECK(all_finite);
    if (!all_ok) {
        /* the shape checks below would only repeat this failure */
        fprintf(stderr, "%s (%s): run did not complete; shape checks skipped\n", k_names[which],
                settle ? "damping 2/s" : "default");
        free(pos);
        free(vel);
        cloth_destroy(cloth);
        if (final_pos)
            memset(final_pos, 0, sizeof(float) * 3u * count);
        return;
    }
    CHECK(dist3(&pos[0], pin_a) == 0.0);
    CHECK(dist3(&pos[3u * (cols - 1u)], pin_b) == 0.0);

    for (r = 0; r < rows; ++r) {
        for (c = 0; c < cols; ++c) {
            const float *p = &pos[3u * (r * cols + c)];
            const float *q = &pos[3u * (r * cols + (cols - 1u - c))];
            double asym;
            mean_y += (double)p[1];
            if (!(r == 0 && (c == 0 || c == cols - 1u)) && (double)p[1] > max_y_free)
                max_y_free = (double)p[1];
            /* mirror image about the middle column: x -> x_a + x_b - x */
            asym = fabs(((double)p[0] - (double)pin_a[0]) - ((double)pin_b[0] - (double)q[0])) +
                   fabs((double)p[1] - (double)q[1]) + fabs((double)p[2] - (double)q[2]);
            if (asym > max_asym)
                max_asym = asym;
            if (c + 1u < cols) {
                double strain = dist3(p, p + 3) / spacing - 1.0;
                if (fabs(strain) > max_strain)
                    max_strain = fabs(strain);
            }
            if (r + 1u < rows) {
                double strain = dist3(p, &pos[3u * ((r + 1u) * cols + c)]) / spacing - 1.0;
                if (fabs(strain) > max_strain)
                    max_strain = fabs(strain);
            }
        }
    }
    mean_y /= (double)count;
    /*
     * Hangs below the pins (both at y = 0): no free particle above them by
     * more than a spacing/10 (the top edge sags between the pins; nothing
     * pushes the cloth up), and the mass centre well below: a 1.55 m cloth
     * hanging from two corners has its centre of mass ~0.5 m down or more,
     * so "< -0.3 m" only excludes a cloth that has not fallen.
     */
    below = max_y_free <= (double)pin_a[1] + 0.1 * spacing && mean_y < -0.3;
    CHECK(below);
    if (!settle) {
        /*
         * Default damping (0.2 /s), after 10 s the cloth still swings. Strain
         * bound 100 %: a structural link at twice its rest length pulls with
         * k = 50 N, as much as a whole pin's share of the weight (50.2 N);
         * only a cloth that no longer spreads its load over its springs, or
         * one running away, gets there (settled: ~51 %, see below).
         * Mirror symmetry is not asserted here: a cloth falling from the
         * horizontal folds and swings with little damping, and that motion
         * amplifies the float-rounding difference between mirrored particles
         * exponentially (a reference run of the documented equations went from
         * 1e-6 m at 0.5 s to 0.1 m at 2.5 s), so it is reported only.
         */
        CHECK(max_strain < 1.0);
    } else {
        /*
         * Damping raised to 2 /s (statics unchanged): after 10 s the cloth
         * rests in its equilibrium, which is symmetric about the middle
         * column. Rounding (~1e-7 m per value) is not amplified by a damped
         * equilibrium: 1e-4 m (spacing / 500) leaves a wide margin.
         */
        CHECK(max_asym < 1e-4);
        /* same sanity bound as above (settled: ~51 %, the vertical link at each pin) */
        CHECK(max_strain < 1.0);
    }
    printf("%-14s %s 600 frames: all OK %d, finite %d, mean y %.4f m, highest free particle y "
           "%.5f m, max asymmetry %.3g m, max structural strain %.4f\n",
           k_names[which], settle ? "damping 2/s  " : "default      ", all_ok, all_finite, mean_y,
           max_y_free, max_asym, max_strain);
    if (final_pos)
        memcpy(final_pos, pos, sizeof(float) * 3u * count);
    free(pos);
    free(vel);
    cloth_destroy(cloth);
}

/* A step that blows up returns CLOTH_ERR_UNSTABLE and leaves the state as it was. */
static void run_rollback(int which)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    float *pos_before, *vel_before, *pos_after, *vel_after;
    uint32_t count, f, cols;
    int failed_at = -1, finite_ok = 1;
    size_t bytes;

    cloth_grid_desc_init(&desc);
    cols = desc.cols;
    CHECK_OK(test_create_grid(&desc, &cloth));
    if (!cloth)
        return;
    count = cloth_particle_count(cloth);
    bytes = sizeof(float) * 3u * count;
    pos_before = malloc(bytes);
    vel_before = malloc(bytes);
    pos_after = malloc(bytes);
    vel_after = malloc(bytes);
    if (!pos_before || !vel_before || !pos_after || !vel_after) {
        CHECK(0);
        goto done;
    }
    CHECK_OK(cloth_set_integrator(cloth, k_integrators[which]));
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_pin(cloth, cols - 1u, NULL));
    for (f = 0; f < 30; ++f) /* some motion first, so the state is not trivial */
        CHECK_OK(cloth_step(cloth, k_dt));
    /* absurdly stiff, one substep: w h ~ 1e5, far past every stability limit */
    CHECK_OK(cloth_set_stiffness(cloth, CLOTH_SPRING_STRUCTURAL, 1e9f));
    CHECK_OK(cloth_set_substeps(cloth, 1));
    for (f = 0; f < 1000; ++f) {
        cloth_status s;
        uint32_t i;
        CHECK_OK(cloth_get_positions(cloth, pos_before, 0));
        CHECK_OK(cloth_get_velocities(cloth, vel_before, 0));
        s = cloth_step(cloth, k_dt);
        if (s == CLOTH_ERR_UNSTABLE) {
            failed_at = (int)f;
            break;
        }
        CHECK_OK(s);
        if (s != CLOTH_OK)
            break;
        /* an OK step never hands out non-finite state */
        CHECK_OK(cloth_get_positions(cloth, pos_after, 0));
        CHECK_OK(cloth_get_velocities(cloth, vel_after, 0));
        for (i = 0; i < 3u * count; ++i)
            if (!isfinite(pos_after[i]) || !isfinite(vel_after[i]))
                finite_ok = 0;
    }
    CHECK(finite_ok);
    CHECK(failed_at >= 0);
    if (failed_at >= 0) {
        CHECK_OK(cloth_get_positions(cloth, pos_after, 0));
        CHECK_OK(cloth_get_velocities(cloth, vel_after, 0));
        CHECK(memcmp(pos_after, pos_before, bytes) == 0);
        CHECK(memcmp(vel_after, vel_before, bytes) == 0);
        /* same state, same parameters: it fails again, and again changes nothing */
        CHECK_STATUS(cloth_step(cloth, k_dt), CLOTH_ERR_UNSTABLE);
        CHECK_OK(cloth_get_positions(cloth, pos_after, 0));
        CHECK_OK(cloth_get_velocities(cloth, vel_after, 0));
        CHECK(memcmp(pos_after, pos_before, bytes) == 0);
        CHECK(memcmp(vel_after, vel_before, bytes) == 0);
    }
    printf("%-14s rollback: k = 1e9, 1 substep: CLOTH_ERR_UNSTABLE at step %d, state restored "
           "bitwise\n",
           k_names[which], failed_at);
done:
    free(pos_before);
    free(vel_before);
    free(pos_after);
    free(vel_after);
    cloth_destroy(cloth);
}

int main(void)
{
    int which;
    static float settled[3][3u * 32u * 32u];
    for (which = 0; which < 3; ++which)
        run_default(which, 0, NULL);
    for (which = 0; which < 3; ++which)
        run_default(which, 1, settled[which]);
    /*
     * Statics do not depend on the integrator: the three settled cloths
     * (damping 2 /s, 10 s) must rest in the same shape. Residual motion is
     * below 1e-6 m for a settled cloth; 1e-4 m as for the symmetry.
     * One exception, measured: the free bottom corners of a cloth with bend
     * springs have more than one resting shape (they can curl either way), and
     * the trapezoid's different transient settles them 1.4 mm from where Euler
     * and Verlet do (unchanged from 10 s to 40 s, so a second equilibrium, not
     * slow settling). Its effect fades upward; rows 0-27 agree to 7e-5 m, so the
     * trapezoid is compared there and Verlet everywhere.
     */
    for (which = 1; which < 3; ++which) {
        double worst = 0.0;
        uint32_t i, compared = which == 1 ? 3u * 32u * 28u : 3u * 32u * 32u;
        for (i = 0; i < compared; ++i) {
            double d = fabs((double)settled[which][i] - (double)settled[0][i]);
            if (!(d <= worst))
                worst = d;
        }
        CHECK(worst < 1e-4);
        printf("settled %s vs explicit_euler: max position difference %.3g m\n", k_names[which],
               worst);
    }
    for (which = 0; which < 3; ++which)
        run_rollback(which);
    return test_finish("test_stability");
}
