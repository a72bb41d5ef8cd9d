/*
 * flag: a silk flag on a pole in a gusty, turbulent wind, in a terminal.
 *
 * The flag is pinned along its hoist (the edge at the pole) and starts
 * hanging straight out downwind. The wind field is given through the wind
 * hook: a mean wind along +x whose strength swells and fades in gusts, plus
 * a few eddies that drift downwind with it and push the air sideways and up
 * and down. The library turns the air's velocity relative to each triangle
 * into a force along the triangle's normal. The material gives the masses,
 * stiffness, bending, stretch limit and damping; the library picks the
 * substeps.
 *
 * Once per simulated second the program prints the wind at the pole, where
 * the fly (the free edge) is relative to the pole, and how fast the cloth
 * moves; at the end, how far the flag streamed downwind on average.
 *
 * Usage: flag [mean wind speed in m/s, default 6]
 */
#include <clothsim/clothsim.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cloth_status s_ = (call);                                                    \
        if (s_ != CLOTH_OK) {                                                        \
            fprintf(stderr, "%s failed: %s\n", #call, cloth_status_string(s_));      \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

/* An eddy: a travelling wave of sideways (z) and vertical (y) air motion. */
typedef struct eddy {
    float wavenumber; /* 1/m along the wind */
    float frequency;  /* rad/s of its own pulsing */
    float amplitude;  /* m/s */
    float phase;
} eddy;

typedef struct wind_field {
    float mean; /* m/s along +x */
    eddy eddies[4];
} wind_field;

/* How strong the mean wind blows at time t: slow swells of about +-30 %,
 * from two incommensurate periods so the pattern never repeats exactly. */
static float gust(const wind_field *w, float t)
{
    return w->mean * (1.0f + 0.2f * sinf(0.9f * t) + 0.1f * sinf(2.3f * t + 1.0f));
}

/* The wind hook: called by the library once per substep with every
 * particle's position; writes the air velocity there. */
static void turbulent_wind(void *user, float time, uint32_t count, const float *positions,
                           float *wind_velocity)
{
    const wind_field *w = user;
    const float u = gust(w, time);
    for (uint32_t i = 0; i < count; ++i) {
        const float x = positions[3 * i], y = positions[3 * i + 1];
        float side = 0.0f, lift = 0.0f;
        for (int e = 0; e < 4; ++e) {
            const eddy *d = &w->eddies[e];
            /* the eddy drifts downwind with the mean flow (x - u t) */
            const float s = sinf(d->wavenumber * (x - w->mean * time) + d->phase + d->frequency * time);
            side += d->amplitude * s;
            lift += 0.5f * d->amplitude * cosf(d->wavenumber * (x - w->mean * time) + 1.3f * d->phase +
                                               0.7f * y);
        }
        wind_velocity[3 * i] = u;
        wind_velocity[3 * i + 1] = lift;
        wind_velocity[3 * i + 2] = side;
    }
}

int main(int argc, char **argv)
{
    wind_field field = {6.0f,
                        {{2.1f, 1.7f, 0.9f, 0.0f},
                         {3.7f, 2.9f, 0.6f, 1.1f},
                         {5.3f, 4.1f, 0.4f, 2.3f},
                         {1.3f, 0.8f, 0.7f, 4.0f}}};
    if (argc > 1) {
        char *end = NULL;
        field.mean = strtof(argv[1], &end);
        if (end == argv[1] || *end != '\0' || !(field.mean >= 0.0f) || field.mean > 40.0f) {
            fprintf(stderr, "wind speed must be between 0 and 40 m/s\n");
            return 2;
        }
    }
    const float dt = 1.0f / 60.0f;
    const float pole_top = 2.0f;

    /* A 1.15 m x 0.75 m flag of silk: rows run down the pole, columns out
     * along +x. */
    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = 16;
    desc.cols = 24;
    desc.spacing = 0.05f;
    desc.origin[0] = 0.0f;
    desc.origin[1] = pole_top;
    desc.origin[2] = 0.0f;
    desc.u_axis[0] = 1.0f;
    desc.u_axis[1] = 0.0f;
    desc.u_axis[2] = 0.0f;
    desc.v_axis[0] = 0.0f;
    desc.v_axis[1] = -1.0f;
    desc.v_axis[2] = 0.0f;

    cloth_t *cloth = NULL;
    CHECK(cloth_create_grid(&desc, &cloth));
    cloth_material silk;
    cloth_material_init(&silk, CLOTH_MATERIAL_SILK);
    CHECK(cloth_set_material(cloth, &silk));
    CHECK(cloth_set_integrator(cloth, CLOTH_INTEGRATOR_XPBD));
    CHECK(cloth_set_wind(cloth, turbulent_wind, &field));

    const uint32_t n = cloth_particle_count(cloth);
    for (uint32_t r = 0; r < desc.rows; ++r) {
        CHECK(cloth_pin(cloth, r * desc.cols, NULL)); /* the hoist, along the pole */
    }

    float *pos = malloc(sizeof(float) * 3u * n);
    float *vel = malloc(sizeof(float) * 3u * n);
    if (pos == NULL || vel == NULL) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    printf("flag: %u x %u particles, pole at x = 0, mean wind %.1f m/s along +x, 60 Hz\n", desc.cols,
           desc.rows, (double)field.mean);
    printf("%6s %10s %10s %10s %10s %10s\n", "t (s)", "wind (m/s)", "fly x", "fly y", "fly z", "max |v|");

    const int seconds = 12;
    double streamed = 0.0;
    int samples = 0;
    for (int frame = 1; frame <= seconds * 60; ++frame) {
        CHECK(cloth_step(cloth, dt));
        if (frame % 60 != 0) {
            continue;
        }
        CHECK(cloth_get_positions(cloth, pos, 0));
        CHECK(cloth_get_velocities(cloth, vel, 0));
        /* the fly: the last column, averaged down its length */
        double fx = 0.0, fy = 0.0, fz = 0.0;
        for (uint32_t r = 0; r < desc.rows; ++r) {
            const uint32_t i = r * desc.cols + desc.cols - 1u;
            fx += (double)pos[3 * i] / desc.rows;
            fy += (double)pos[3 * i + 1] / desc.rows;
            fz += (double)pos[3 * i + 2] / desc.rows;
        }
        float max_v = 0.0f;
        for (uint32_t i = 0; i < n; ++i) {
            max_v = fmaxf(max_v, sqrtf(vel[3 * i] * vel[3 * i] + vel[3 * i + 1] * vel[3 * i + 1] +
                                       vel[3 * i + 2] * vel[3 * i + 2]));
        }
        if (frame >= 3 * 60) { /* after the start-up */
            streamed += fx;
            ++samples;
        }
        printf("%6.1f %10.2f %10.3f %10.3f %10.3f %10.3f\n", (double)frame * (double)dt,
               (double)gust(&field, (float)frame * dt), fx, fy, fz, (double)max_v);
    }
    const double length = (double)desc.spacing * (double)(desc.cols - 1u);
    printf("the fly stood on average %.2f m downwind of the pole (the flag is %.2f m long)\n",
           streamed / samples, length);

    free(pos);
    free(vel);
    cloth_destroy(cloth);
    return 0;
}
