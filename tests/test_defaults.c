/*
 * test_defaults: a cloth with nothing set but its grid (and the mass a user
 * works out from a density) steps well (issue 23, "Defaults that hold").
 *
 * Scenes: hung from two corners, pinned along a row, dropped on a ball,
 * dropped on a floor; grids of 8 x 8 to 256 x 256, 0.3 to 4 m across, 0.05
 * to 1 kg/m^2, stepped at 30 to 120 Hz. After every step, as the host reads
 * the cloth:
 *   - no step is refused;
 *   - no structural or shear link is more than 10 % past its rest length,
 *     and their mean stretch is within 3 %;
 *   - no particle is inside a collider (to within 1e-4 of the cloth's size,
 *     float rounding of positions of that size);
 * and at the end the cloth has come to rest: its kinetic energy is below a
 * hundredth of the peak the scene reached (the swing has died away).
 * The same once more with a material preset and nothing else set.
 *
 * Grids past 8 x 8 run where the build is optimised and not instrumented
 * (under a sanitizer they take minutes), 128 x 128 and 256 x 256 only with
 * CLOTHSIM_TEST_LARGE set (two minutes on one core).
 */
#include "test_util.h"

#include <clothsim/material.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum scene { HANG, ROW, BALL, FLOOR_ };
static const char *const scene_names[] = {"hang", "row", "ball", "floor"};

typedef struct config {
    uint32_t n;
    float size, density, hz, seconds;
    int material;     /* -1: none */
    unsigned scenes;  /* bit per scene: 0 = all */
} config;

/* Worst and mean stretch of the structural and shear links of an n x n grid. */
static void link_strain(const float *p, uint32_t n, float spacing, double *worst, double *mean)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    double top = 0.0, sum = 0.0;
    size_t links = 0;
    for (uint32_t r = 0; r < n; ++r) {
        for (uint32_t c = 0; c < n; ++c) {
            for (int f = 0; f < 4; ++f) {
                const int r2 = (int)r + dr[f], c2 = (int)c + dc[f];
                if (r2 >= (int)n || c2 < 0 || c2 >= (int)n) {
                    continue;
                }
                const size_t i = (size_t)r * n + c, j = (size_t)r2 * n + (size_t)c2;
                const double dx = (double)p[3 * j] - (double)p[3 * i], dy = (double)p[3 * j + 1] - (double)p[3 * i + 1],
                             dz = (double)p[3 * j + 2] - (double)p[3 * i + 2];
                const double rest = (double)spacing * (f >= 2 ? sqrt(2.0) : 1.0);
                const double s = sqrt(dx * dx + dy * dy + dz * dz) / rest - 1.0;
                top = s > top ? s : top;
                sum += s > 0.0 ? s : 0.0;
                ++links;
            }
        }
    }
    *worst = top;
    *mean = links > 0 ? sum / (double)links : 0.0;
}

static int run(const config *cf, enum scene scene)
{
    const int failures_before = test_failures;
    const uint32_t n = cf->n;
    const float spacing = cf->size / (float)(n - 1u);
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = n;
    d.cols = n;
    d.spacing = spacing;
    d.particle_mass = cf->density * cf->size * cf->size / (float)(n * n);
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_grid(&d, &c));
    if (c == NULL) {
        return 1;
    }
    if (cf->material >= 0) {
        cloth_material m;
        cloth_material_init(&m, (cloth_material_preset)cf->material);
        CHECK_OK(cloth_set_material(c, &m));
    }
    const float w = cf->size, mid = 0.5f * w;
    const float ball[3] = {mid, -0.4f * w, mid};
    const float radius = 0.3f * w;
    const float floor_y = -2.0f * w, up[3] = {0.0f, 1.0f, 0.0f}, floor_pt[3] = {0.0f, floor_y, 0.0f};
    cloth_collider_id id;
    if (scene == HANG) {
        const float a[3] = {0.0f, 0.0f, 0.0f}, b[3] = {w, 0.0f, 0.0f};
        CHECK_OK(cloth_pin(c, 0u, a));
        CHECK_OK(cloth_pin(c, n - 1u, b));
    } else if (scene == ROW) {
        for (uint32_t k = 0; k < n; ++k) {
            const float at[3] = {spacing * (float)k, 0.0f, 0.0f};
            CHECK_OK(cloth_pin(c, k, at));
        }
    } else if (scene == BALL) {
        CHECK_OK(cloth_add_sphere(c, ball, radius, &id));
        CHECK_OK(cloth_add_plane(c, floor_pt, up, &id)); /* if it slides off */
    } else {
        CHECK_OK(cloth_add_plane(c, floor_pt, up, &id));
    }
    float *pos = malloc(sizeof(float) * 3u * n * n);
    CHECK(pos != NULL);
    const uint32_t steps = (uint32_t)(cf->seconds * cf->hz);
    const float dt = 1.0f / cf->hz;
    double worst = 0.0, worst_mean = 0.0, peak_ke = 0.0, ke = 0.0, inside = 0.0;
    uint32_t refused = 0u, subs_max = 0u, passes_max = 0u;
    for (uint32_t s = 0; s < steps && pos != NULL; ++s) {
        if (cloth_step(c, dt) != CLOTH_OK) {
            ++refused;
        }
        CHECK_OK(cloth_get_positions(c, pos, 0));
        double top, mean;
        link_strain(pos, n, spacing, &top, &mean);
        worst = top > worst ? top : worst;
        worst_mean = mean > worst_mean ? mean : worst_mean;
        for (uint32_t i = 0; i < n * n; ++i) {
            const float *x = pos + 3u * i;
            double depth = (double)floor_y - (double)x[1];
            if (scene == BALL) {
                const double dx = (double)x[0] - (double)ball[0], dy = (double)x[1] - (double)ball[1],
                             dz = (double)x[2] - (double)ball[2];
                const double in = (double)radius - sqrt(dx * dx + dy * dy + dz * dz);
                depth = in > depth ? in : depth;
            }
            if (scene == BALL || scene == FLOOR_) {
                inside = depth > inside ? depth : inside;
            }
        }
        cloth_stats st;
        cloth_stats_init(&st);
        CHECK_OK(cloth_get_stats(c, &st));
        ke = (double)st.kinetic_energy;
        peak_ke = ke > peak_ke ? ke : peak_ke;
        subs_max = st.substeps_used > subs_max ? st.substeps_used : subs_max;
        passes_max = st.limit_passes_used > passes_max ? st.limit_passes_used : passes_max;
    }
    printf("%-5s n %3u %.2f m %.2f kg/m2 %3.0f Hz mat %2d: worst %.4f mean %.4f inside %.1e ke %.2e/%.2e "
           "substeps <= %u passes <= %u\n",
           scene_names[scene], n, (double)cf->size, (double)cf->density, (double)cf->hz, cf->material, worst,
           worst_mean, inside, ke, peak_ke, subs_max, passes_max);
    CHECK(refused == 0u);
    CHECK(worst <= 0.10);
    CHECK(worst_mean <= 0.03);
    CHECK(inside <= 1e-4 * (double)cf->size);
    CHECK(ke <= 1e-2 * peak_ke);
    free(pos);
    cloth_destroy(c);
    return test_failures != failures_before;
}

int main(int argc, char **argv)
{
    const int only = argc > 1 ? atoi(argv[1]) : -1;
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
    const uint32_t largest = getenv("CLOTHSIM_TEST_LARGE") != NULL ? 256u : 64u;
#else
    const uint32_t largest = 8u;
#endif
    /* Corners of the ranges and a middle; each preset at one of 30, 60
     * and 120 Hz, with time for its own damping to have worked. */
    const config configs[] = {
        {8u, 0.3f, 0.05f, 30.0f, 20.0f, -1, 0u},   {8u, 4.0f, 1.0f, 120.0f, 20.0f, -1, 0u},
        {32u, 2.0f, 0.25f, 60.0f, 20.0f, -1, 0u},  {64u, 0.3f, 1.0f, 30.0f, 20.0f, -1, 0u},
        {64u, 4.0f, 0.05f, 120.0f, 20.0f, -1, 0u}, {24u, 1.0f, 0.15f, 60.0f, 20.0f, CLOTH_MATERIAL_COTTON, 0u},
        {24u, 1.0f, 0.4f, 30.0f, 20.0f, CLOTH_MATERIAL_DENIM, 0u},
        {24u, 1.0f, 1.0f, 120.0f, 30.0f, CLOTH_MATERIAL_RUBBER, 0u},
        {24u, 1.0f, 0.18f, 60.0f, 20.0f, CLOTH_MATERIAL_JERSEY, 0u},
        {24u, 1.0f, 0.07f, 30.0f, 30.0f, CLOTH_MATERIAL_SILK, 0u},
        {24u, 1.0f, 0.5f, 120.0f, 30.0f, CLOTH_MATERIAL_LEATHER, 0u},
        {128u, 2.0f, 0.25f, 60.0f, 20.0f, -1, 0u},
        {256u, 4.0f, 0.25f, 30.0f, 30.0f, -1, 0u},
    };
    for (size_t k = 0; k < sizeof configs / sizeof configs[0]; ++k) {
        if (configs[k].n > largest || (only >= 0 && (size_t)only != k)) {
            continue;
        }
        for (int s = HANG; s <= FLOOR_; ++s) {
            if (configs[k].scenes != 0u && !(configs[k].scenes & (1u << s))) {
                continue;
            }
            (void)run(&configs[k], (enum scene)s);
        }
    }
    return test_finish("test_defaults");
}
