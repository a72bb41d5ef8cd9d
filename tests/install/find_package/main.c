/*
 * A program that uses an installed clothsim found with find_package(): hang
 * the default cloth by two corners, simulate one second, check the result.
 */
#include <clothsim/clothsim.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(expr)                                                            \
    do {                                                                       \
        if (!(expr)) {                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,   \
                    #expr);                                                    \
            return EXIT_FAILURE;                                               \
        }                                                                      \
    } while (0)

#define CHECK_OK(call)                                                         \
    do {                                                                       \
        cloth_status s_ = (call);                                              \
        if (s_ != CLOTH_OK) {                                                  \
            fprintf(stderr, "%s:%d: %s returned %s\n", __FILE__, __LINE__,     \
                    #call, cloth_status_string(s_));                           \
            return EXIT_FAILURE;                                               \
        }                                                                      \
    } while (0)

static int run(cloth_t *cloth, const cloth_grid_desc *desc, float *pos)
{
    const uint32_t last_corner = desc->cols - 1u;
    const uint32_t n = cloth_particle_count(cloth);
    float before[2][3];

    CHECK(n == desc->rows * desc->cols);
    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    for (int k = 0; k < 3; ++k) {
        before[0][k] = pos[k];
        before[1][k] = pos[3u * last_corner + (uint32_t)k];
    }

    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_pin(cloth, last_corner, NULL));
    for (int i = 0; i < 60; ++i)
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));

    CHECK_OK(cloth_get_positions(cloth, pos, 0));
    for (uint32_t i = 0; i < 3u * n; ++i)
        CHECK(isfinite(pos[i]));

    /* The pinned corners stayed where they were; the cloth, released at rest,
     * can only have lowered its centre of mass. */
    for (int k = 0; k < 3; ++k) {
        CHECK(fabsf(pos[k] - before[0][k]) <= 1e-5f);
        CHECK(fabsf(pos[3u * last_corner + (uint32_t)k] - before[1][k]) <= 1e-5f);
    }
    double mean_y = 0.0;
    for (uint32_t i = 0; i < n; ++i)
        mean_y += (double)pos[3u * i + 1u];
    mean_y /= (double)n;
    CHECK(mean_y < (double)desc->origin[1] - 0.05);
    return EXIT_SUCCESS;
}

int main(void)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    float *pos;
    int result;

    printf("clothsim header %d, library %u\n", CLOTHSIM_VERSION_NUMBER, (unsigned)cloth_version());
    CHECK(cloth_version() == (uint32_t)CLOTHSIM_VERSION_NUMBER);
    CHECK(cloth_status_string(CLOTH_OK) != NULL);

    cloth_grid_desc_init(&desc);
    CHECK_OK(cloth_create_grid(&desc, &cloth));
    CHECK(cloth != NULL);

    pos = malloc(3u * sizeof(float) * cloth_particle_count(cloth));
    if (pos == NULL) {
        cloth_destroy(cloth);
        return EXIT_FAILURE;
    }
    result = run(cloth, &desc, pos);
    free(pos);
    cloth_destroy(cloth);
    if (result == EXIT_SUCCESS)
        printf("find_package consumer: ok\n");
    return result;
}
