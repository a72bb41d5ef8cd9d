/*
 * A program built against an installed clothsim, once through find_package()
 * and once with nothing but `pkg-config --cflags --libs clothsim`: hang the
 * default cloth by two corners, simulate one second, and read positions and
 * normals into an interleaved vertex buffer the way a renderer would.
 */
#include <clothsim/clothsim.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct vertex {
    float position[3];
    float normal[3];
} vertex;

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

static int run(cloth_t *cloth, const cloth_grid_desc *desc, vertex *verts)
{
    const uint32_t n = cloth_particle_count(cloth);
    const uint32_t corner = desc->cols - 1u;
    double mean_y = 0.0;

    CHECK(n == desc->rows * desc->cols);
    CHECK_OK(cloth_pin(cloth, 0, NULL));
    CHECK_OK(cloth_pin(cloth, corner, NULL));
    for (int i = 0; i < 60; ++i)
        CHECK_OK(cloth_step(cloth, 1.0f / 60.0f));

    CHECK_OK(cloth_get_positions(cloth, verts[0].position, sizeof(vertex)));
    CHECK_OK(cloth_get_normals(cloth, verts[0].normal, sizeof(vertex)));
    for (uint32_t i = 0; i < n; ++i) {
        const float *p = verts[i].position, *nrm = verts[i].normal;
        CHECK(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]));
        CHECK(isfinite(nrm[0]) && isfinite(nrm[1]) && isfinite(nrm[2]));
        CHECK(fabsf(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2] - 1.0f) < 1e-3f);
        mean_y += (double)p[1];
    }
    mean_y /= (double)n;

    /* The pins held (a NULL target pins a particle where it is) ... */
    for (int k = 0; k < 3; ++k) {
        CHECK(fabsf(verts[0].position[k] - desc->origin[k]) <= 1e-5f);
    }
    /* ... and the cloth, released at rest, fell. */
    CHECK(mean_y < (double)desc->origin[1] - 0.05);
    return EXIT_SUCCESS;
}

int main(void)
{
    cloth_grid_desc desc;
    cloth_t *cloth = NULL;
    vertex *verts;
    int result;

    printf("clothsim header %d, library %u\n", CLOTHSIM_VERSION_NUMBER, (unsigned)cloth_version());
    CHECK(cloth_version() == (uint32_t)CLOTHSIM_VERSION_NUMBER);

    cloth_grid_desc_init(&desc);
    CHECK_OK(cloth_create_grid(&desc, &cloth));
    CHECK(cloth != NULL);

    verts = calloc(cloth_particle_count(cloth), sizeof(vertex));
    if (verts == NULL) {
        cloth_destroy(cloth);
        return EXIT_FAILURE;
    }
    result = run(cloth, &desc, verts);
    free(verts);
    cloth_destroy(cloth);
    if (result == EXIT_SUCCESS)
        printf("installed-package consumer: ok\n");
    return result;
}
