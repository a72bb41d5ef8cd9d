/*
 * drape: the reference scene of seed 002, in a terminal.
 *
 * A 1.24 m square of cotton, 32 x 32 particles, hangs by its four corners
 * above a sphere that stands on a floor. After a second the corners are let
 * go; the cloth falls, drapes over the sphere and settles. The material sets
 * the masses, stiffness, bending, stretch limit and damping; the library
 * picks the substeps. The program prints, once per simulated second, where
 * the cloth is and how fast it moves, and at the end how it came to rest.
 *
 * Usage: drape [integrator]   xpbd (default), pbd, implicit, or the explicit
 * euler, trapezoid, verlet (which need about a thousand substeps a frame for
 * cotton at this spacing: slow).
 */
#include <clothsim/clothsim.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cloth_status s_ = (call);                                                    \
        if (s_ != CLOTH_OK) {                                                        \
            fprintf(stderr, "%s failed: %s\n", #call, cloth_status_string(s_));      \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

static cloth_integrator parse_integrator(const char *name)
{
    static const struct {
        const char *name;
        cloth_integrator kind;
    } known[] = {
        {"xpbd", CLOTH_INTEGRATOR_XPBD},
        {"pbd", CLOTH_INTEGRATOR_PBD},
        {"implicit", CLOTH_INTEGRATOR_IMPLICIT_EULER},
        {"euler", CLOTH_INTEGRATOR_EXPLICIT_EULER},
        {"trapezoid", CLOTH_INTEGRATOR_TRAPEZOID},
        {"verlet", CLOTH_INTEGRATOR_VERLET},
    };
    if (name == NULL) {
        return CLOTH_INTEGRATOR_XPBD;
    }
    for (size_t k = 0; k < sizeof known / sizeof known[0]; ++k) {
        if (strcmp(name, known[k].name) == 0) {
            return known[k].kind;
        }
    }
    fprintf(stderr, "unknown integrator '%s' (xpbd, pbd, implicit, euler, trapezoid, verlet)\n", name);
    exit(2);
}

int main(int argc, char **argv)
{
    const float sphere_center[3] = {0.0f, 0.4f, 0.0f};
    const float sphere_radius = 0.4f;
    const float floor_point[3] = {0.0f, 0.0f, 0.0f};
    const float up[3] = {0.0f, 1.0f, 0.0f};
    const float dt = 1.0f / 60.0f;

    cloth_grid_desc desc;
    cloth_grid_desc_init(&desc);
    desc.rows = 32;
    desc.cols = 32;
    desc.spacing = 0.04f; /* a 1.24 m square */
    float half = 0.5f * desc.spacing * (float)(desc.cols - 1u);
    desc.origin[0] = -half;
    desc.origin[1] = 1.2f;
    desc.origin[2] = -half;

    cloth_t *cloth = NULL;
    CHECK(cloth_create_grid(&desc, &cloth));
    cloth_material cotton;
    cloth_material_init(&cotton, CLOTH_MATERIAL_COTTON);
    CHECK(cloth_set_material(cloth, &cotton));
    CHECK(cloth_set_integrator(cloth, parse_integrator(argc > 1 ? argv[1] : NULL)));

    cloth_collider_id sphere, floor_id;
    CHECK(cloth_add_sphere(cloth, sphere_center, sphere_radius, &sphere));
    CHECK(cloth_set_collider_thickness(cloth, sphere, 0.08f * sphere_radius)); /* seed 000: 1.08 r */
    CHECK(cloth_set_collider_friction(cloth, sphere, 0.4f));
    CHECK(cloth_add_plane(cloth, floor_point, up, &floor_id));
    CHECK(cloth_set_collider_thickness(cloth, floor_id, 0.005f));
    CHECK(cloth_set_collider_friction(cloth, floor_id, 0.6f));

    const uint32_t n = cloth_particle_count(cloth);
    const uint32_t corners[4] = {0u, desc.cols - 1u, n - desc.cols, n - 1u};
    for (int k = 0; k < 4; ++k) {
        CHECK(cloth_pin(cloth, corners[k], NULL));
    }

    float *pos = malloc(sizeof(float) * 3u * n);
    float *vel = malloc(sizeof(float) * 3u * n);
    if (pos == NULL || vel == NULL) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    printf("drape: %u particles of cotton, sphere r=%.2f m at y=%.2f, floor at y=0, 60 Hz\n", n,
           (double)sphere_radius, (double)sphere_center[1]);
    printf("%6s %10s %10s %10s %12s\n", "t (s)", "min y", "mean y", "max |v|", "event");

    const int frames = 8 * 60;
    for (int frame = 1; frame <= frames; ++frame) {
        const char *event = "";
        if (frame == 60) {
            /* seed 002's keys 1-4, all at once: let go one corner a second
             * and the light cotton, hanging from the others off to one
             * side, slides off the sphere */
            for (int k = 0; k < 4; ++k) {
                CHECK(cloth_unpin(cloth, corners[k]));
            }
            event = "let go";
        }
        CHECK(cloth_step(cloth, dt));
        if (frame % 60 == 0) {
            CHECK(cloth_get_positions(cloth, pos, 0));
            CHECK(cloth_get_velocities(cloth, vel, 0));
            float min_y = INFINITY, mean_y = 0.0f, max_v = 0.0f;
            for (uint32_t i = 0; i < n; ++i) {
                min_y = fminf(min_y, pos[3 * i + 1]);
                mean_y += pos[3 * i + 1] / (float)n;
                float v = sqrtf(vel[3 * i] * vel[3 * i] + vel[3 * i + 1] * vel[3 * i + 1] +
                                vel[3 * i + 2] * vel[3 * i + 2]);
                max_v = fmaxf(max_v, v);
            }
            printf("%6.1f %10.3f %10.3f %10.3f %12s\n", (double)frame * (double)dt, (double)min_y,
                   (double)mean_y, (double)max_v, event);
        }
    }

    /* How it came to rest: the middle particle should sit on the sphere's top,
     * and nothing should be inside the sphere or below the floor. */
    CHECK(cloth_get_positions(cloth, pos, 0));
    uint32_t mid = (desc.rows / 2u) * desc.cols + desc.cols / 2u;
    float top = sphere_center[1] + sphere_radius * 1.08f;
    float inside = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        float dx = pos[3 * i] - sphere_center[0], dy = pos[3 * i + 1] - sphere_center[1],
              dz = pos[3 * i + 2] - sphere_center[2];
        inside = fmaxf(inside, sphere_radius * 1.08f - sqrtf(dx * dx + dy * dy + dz * dz));
        inside = fmaxf(inside, 0.005f - pos[3 * i + 1]);
    }
    printf("middle particle at y=%.3f m (top of sphere + thickness: %.3f m)\n", (double)pos[3 * mid + 1],
           (double)top);
    printf("deepest penetration of sphere or floor: %.2e m\n", (double)inside);

    free(pos);
    free(vel);
    cloth_destroy(cloth);
    return 0;
}
