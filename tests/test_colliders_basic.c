/*
 * test_colliders_basic: spheres, planes, friction, removal.
 *
 *  - A 16 x 16 cloth dropped onto a sphere (thickness 0.01) above a floor
 *    plane, with each explicit integrator: after every step no particle is
 *    inside the grown sphere or below the floor (beyond 1e-5 m); in the end
 *    the middle of the cloth rests on top of the sphere.
 *  - Removing the sphere lets the cloth fall through where it was, onto the
 *    floor.
 *  - A cloth lying on a plane tilted 20 degrees: with mu = 0 it slides with the
 *    constant acceleration g sin(theta) (x = g sin(theta) t^2 / 2, within 5 %);
 *    with mu = 1 > tan(20 deg) it stays put (less than 1 mm in 1 s).
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DT (1.0f / 60.0f)
#define G 9.81
#define PI 3.14159265358979323846

static const cloth_integrator k_kinds[3] = {CLOTH_INTEGRATOR_EXPLICIT_EULER, CLOTH_INTEGRATOR_TRAPEZOID,
                                            CLOTH_INTEGRATOR_VERLET};
static const char *const k_names[3] = {"explicit Euler", "trapezoid", "Verlet"};

static double dist3(const float *p, const double c[3])
{
    double dx = (double)p[0] - c[0], dy = (double)p[1] - c[1], dz = (double)p[2] - c[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static double len3f(const float *v)
{
    return sqrt((double)v[0] * (double)v[0] + (double)v[1] * (double)v[1] + (double)v[2] * (double)v[2]);
}

/* ------------------------------------------------------------------------- */
/* Drop onto a sphere above a floor                                           */
/* ------------------------------------------------------------------------- */

#define DROP_N 16u
#define DROP_SPACING 0.05f

static void drop_on_sphere(size_t kind_index)
{
    const char *name = k_names[kind_index];
    const double ctr[3] = {0.0, -0.25, 0.0};
    const double radius = 0.2, thickness = 0.01, floor_y = -1.0;
    const float ctr_f[3] = {0.0f, -0.25f, 0.0f};
    const float floor_p[3] = {0.0f, -1.0f, 0.0f}, floor_n[3] = {0.0f, 1.0f, 0.0f};
    /* the four particles around the grid's centre, which is above the sphere's */
    const uint32_t mid[4] = {7u * DROP_N + 7u, 7u * DROP_N + 8u, 8u * DROP_N + 7u, 8u * DROP_N + 8u};
    cloth_grid_desc d;
    cloth_t *c = NULL;
    cloth_collider_id sphere = 0, floor_id = 0;
    float pos[3 * DROP_N * DROP_N], vel[3 * DROP_N * DROP_N];
    uint32_t n = DROP_N * DROP_N, i, k;
    int step, bad_status = 0, inside = 0, below = 0;
    double worst_in = 0.0, worst_below = 0.0;

    cloth_grid_desc_init(&d);
    d.rows = DROP_N;
    d.cols = DROP_N;
    d.spacing = DROP_SPACING;
    d.origin[0] = -7.5f * DROP_SPACING;
    d.origin[1] = 0.0f;
    d.origin[2] = -7.5f * DROP_SPACING;
    CHECK_OK(test_create_grid(&d, &c));
    if (!c) {
        return;
    }
    CHECK_OK(cloth_set_integrator(c, k_kinds[kind_index]));
    CHECK_OK(cloth_add_sphere(c, ctr_f, (float)radius, &sphere));
    CHECK_OK(cloth_set_collider_thickness(c, sphere, (float)thickness));
    CHECK_OK(cloth_set_collider_friction(c, sphere, 0.5f));
    CHECK_OK(cloth_add_plane(c, floor_p, floor_n, &floor_id));

    /* 5 s: fall 4 cm onto the sphere, drape, settle */
    for (step = 0; step < 300; ++step) {
        if (cloth_step(c, DT) != CLOTH_OK) {
            ++bad_status;
            break;
        }
        CHECK_OK(cloth_get_positions(c, pos, 0));
        for (i = 0; i < n; ++i) {
            double pen = (radius + thickness) - dist3(pos + 3u * i, ctr);
            double under = floor_y - (double)pos[3u * i + 1u];
            if (pen > 1e-5) {
                ++inside;
                if (pen > worst_in) {
                    worst_in = pen;
                }
            }
            if (under > 1e-5) {
                ++below;
                if (under > worst_below) {
                    worst_below = under;
                }
            }
        }
    }
    if (inside || below || bad_status) {
        fprintf(stderr, "  %s: %d inside the sphere (worst %.3g m), %d below the floor (worst %.3g m), step %d\n",
                name, inside, worst_in, below, worst_below, step);
    }
    CHECK(bad_status == 0);
    CHECK(inside == 0);
    CHECK(below == 0);

    /* the middle rests on top of the sphere */
    CHECK_OK(cloth_get_positions(c, pos, 0));
    CHECK_OK(cloth_get_velocities(c, vel, 0));
    for (k = 0; k < 4; ++k) {
        const float *p = pos + 3u * mid[k];
        double horiz = sqrt((double)p[0] * (double)p[0] + (double)p[2] * (double)p[2]);
        CHECK_NEAR(dist3(p, ctr), radius + thickness, 0.003);
        CHECK((double)p[1] > ctr[1] + 0.9 * radius); /* on top, not slid off */
        CHECK(horiz < 0.06);
        CHECK(len3f(vel + 3u * mid[k]) < 0.02);
    }
    printf("%s: middle particle %.5f m from the centre (radius + thickness %.5f), speed %.4f m/s\n", name,
           dist3(pos + 3u * mid[3], ctr), radius + thickness, len3f(vel + 3u * mid[3]));

    /* remove the sphere: the cloth falls through where it was, onto the floor */
    CHECK_OK(cloth_remove_collider(c, sphere));
    below = 0;
    bad_status = 0;
    worst_below = 0.0;
    {
        double min_mid_y = 1e9;
        int passed_through = 0;
        for (step = 0; step < 150; ++step) {
            if (cloth_step(c, DT) != CLOTH_OK) {
                ++bad_status;
                break;
            }
            CHECK_OK(cloth_get_positions(c, pos, 0));
            for (i = 0; i < n; ++i) {
                double under = floor_y - (double)pos[3u * i + 1u];
                if (under > 1e-5) {
                    ++below;
                    if (under > worst_below) {
                        worst_below = under;
                    }
                }
            }
            for (k = 0; k < 4; ++k) {
                const float *p = pos + 3u * mid[k];
                /* inside where the sphere was (not grown) */
                if (dist3(p, ctr) < radius - 0.01) {
                    passed_through = 1;
                }
                if ((double)p[1] < min_mid_y) {
                    min_mid_y = (double)p[1];
                }
            }
        }
        CHECK(bad_status == 0);
        CHECK(below == 0);
        CHECK(passed_through);
        CHECK(min_mid_y < ctr[1] - radius); /* below the sphere's bottom */
        CHECK_OK(cloth_get_positions(c, pos, 0));
        for (k = 0; k < 4; ++k) {
            const float *p = pos + 3u * mid[k];
            double horiz = sqrt((double)p[0] * (double)p[0] + (double)p[2] * (double)p[2]);
            CHECK_NEAR((double)p[1], floor_y, 0.005); /* lying on the floor */
            CHECK(horiz < radius);                     /* straight below where the sphere was */
        }
        if (below) {
            fprintf(stderr, "  %s after removal: %d below the floor (worst %.3g m)\n", name, below, worst_below);
        }
    }
    /* the removed sphere is gone for good */
    CHECK_STATUS(cloth_remove_collider(c, sphere), CLOTH_ERR_OUT_OF_RANGE);
    cloth_destroy(c);
}

/* ------------------------------------------------------------------------- */
/* Friction on a tilted plane                                                 */
/* ------------------------------------------------------------------------- */

#define SLOPE_N 8u

/* Mean displacement (relative to x0) along the downhill direction `down`, and
 * the size of the rest of it. */
static void mean_displacement(const float *x, const float *x0, uint32_t n, const double down[3], double *along,
                              double *across, double *max_disp)
{
    double m[3] = {0.0, 0.0, 0.0}, a, r[3];
    uint32_t i, k;
    *max_disp = 0.0;
    for (i = 0; i < n; ++i) {
        double dd = 0.0;
        for (k = 0; k < 3; ++k) {
            double e = (double)x[3u * i + k] - (double)x0[3u * i + k];
            m[k] += e;
            dd += e * e;
        }
        if (sqrt(dd) > *max_disp) {
            *max_disp = sqrt(dd);
        }
    }
    for (k = 0; k < 3; ++k) {
        m[k] /= (double)n;
    }
    a = m[0] * down[0] + m[1] * down[1] + m[2] * down[2];
    for (k = 0; k < 3; ++k) {
        r[k] = m[k] - a * down[k];
    }
    *along = a;
    *across = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
}

static void slope(size_t kind_index, float mu)
{
    const char *name = k_names[kind_index];
    const double theta = 20.0 * PI / 180.0;
    /* plane through the origin, normal tilted 20 degrees from +y toward +x;
     * downhill is (cos, -sin, 0) */
    const double n_d[3] = {sin(theta), cos(theta), 0.0};
    const double down[3] = {cos(theta), -sin(theta), 0.0};
    const float n_f[3] = {(float)n_d[0], (float)n_d[1], 0.0f};
    const float p_f[3] = {0.0f, 0.0f, 0.0f};
    cloth_grid_desc d;
    cloth_t *c = NULL;
    cloth_collider_id plane = 0;
    float x0[3 * SLOPE_N * SLOPE_N], x[3 * SLOPE_N * SLOPE_N];
    uint32_t n = SLOPE_N * SLOPE_N, i;
    int step, bad_status = 0, inside = 0;
    double worst_in = 0.0;

    cloth_grid_desc_init(&d);
    d.rows = SLOPE_N;
    d.cols = SLOPE_N;
    d.spacing = 0.05f;
    /* lying on the plane: u downhill, v = +z, so v x u is the plane's normal */
    d.u_axis[0] = (float)down[0];
    d.u_axis[1] = (float)down[1];
    d.u_axis[2] = 0.0f;
    d.v_axis[0] = 0.0f;
    d.v_axis[1] = 0.0f;
    d.v_axis[2] = 1.0f;
    CHECK_OK(test_create_grid(&d, &c));
    if (!c) {
        return;
    }
    CHECK_OK(cloth_set_integrator(c, k_kinds[kind_index]));
    CHECK_OK(cloth_set_damping(c, 0.0f)); /* the closed form has no air drag */
    CHECK_OK(cloth_add_plane(c, p_f, n_f, &plane));
    CHECK_OK(cloth_set_collider_friction(c, plane, mu));
    CHECK_OK(cloth_get_positions(c, x0, 0));

    for (step = 1; step <= 60; ++step) {
        if (cloth_step(c, DT) != CLOTH_OK) {
            ++bad_status;
            break;
        }
        CHECK_OK(cloth_get_positions(c, x, 0));
        for (i = 0; i < n; ++i) {
            double s = (double)x[3u * i] * n_d[0] + (double)x[3u * i + 1u] * n_d[1] + (double)x[3u * i + 2u] * n_d[2];
            if (-s > 1e-5) {
                ++inside;
                if (-s > worst_in) {
                    worst_in = -s;
                }
            }
        }
        if (step == 15 || step == 30 || step == 60) {
            double t = (double)step / 60.0, along, across, max_disp;
            mean_displacement(x, x0, n, down, &along, &across, &max_disp);
            if (mu == 0.0f) {
                double expected = 0.5 * G * sin(theta) * t * t;
                CHECK_NEAR(along, expected, 0.05 * expected);
                CHECK(across < 0.01 * expected);
                printf("%s, mu 0, t %.2f s: slid %.5f m, g sin(theta) t^2 / 2 = %.5f m\n", name, t, along,
                       expected);
            } else {
                CHECK(max_disp < 1e-3);
                if (step == 60) {
                    printf("%s, mu %.1f, t %.2f s: mean displacement %.3g m, largest %.3g m\n", name,
                           (double)mu, t, sqrt(along * along + across * across), max_disp);
                }
            }
        }
    }
    if (inside) {
        fprintf(stderr, "  %s mu %.1f: %d particle-steps behind the plane (worst %.3g m)\n", name, (double)mu,
                inside, worst_in);
    }
    CHECK(bad_status == 0);
    CHECK(inside == 0);
    cloth_destroy(c);
}

int main(void)
{
    size_t k;
    for (k = 0; k < 3; ++k) {
        drop_on_sphere(k);
        slope(k, 0.0f);
        slope(k, 1.0f);
    }
    return test_finish("test_colliders_basic");
}
