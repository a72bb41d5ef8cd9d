/*
 * test_backstop: backstops behind skinned particles (cloth_set_skin_normals,
 * cloth_set_backstops).
 *
 * A: a hanging sheet skinned to a vertical plane, its top row pinned (max
 *    distance 0), the rest free within 0.3 m, pushed into its back by a
 *    sideways gravity. Without backstops its lower rows lean 0.17 m behind
 *    the skin; with a backstop ball of radius 5 m whose surface is 2 cm
 *    behind each target none goes deeper than 2 cm and the lowest rest
 *    there: on the ball, whose surface leaves the plane by (lateral
 *    offset)^2 / (2 r), under 1e-5 m here, so the deepest is z = -0.02 to
 *    1e-4 m.
 * B: the same sheet turning about the vertical (its targets and normals
 *    turned together, 1 rad/s): after every step no free particle is inside
 *    its ball (measured in double against the ball at the step's end).
 * C: refusals change nothing; a normal of 0 has no ball.
 *
 * Tolerance for "inside": 3e-6 m. The projection puts a particle on the
 * ball in float, about the ball's centre 5 m away, where a float's spacing
 * is 4.8e-7 m; a few roundings of that size separate it from this check.
 */
#include <clothsim/clothsim.h>

#include "test_util.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DT (1.0f / 60.0f)
#define TOL 3e-6

#define ROWS 10u
#define COLS 8u
#define N (ROWS * COLS)
#define SPACING 0.05f
#define BACK 0.02f
#define BALL 5.0f

/* Target i of the sheet turned by angle a about +y: rows down from y = 1,
 * columns along x, in the plane z = 0 (before the turn); the normal +z. */
static void target_of(uint32_t i, double a, float t[3], float n[3])
{
    const double x = (double)SPACING * ((double)(i % COLS) - 0.5 * (COLS - 1)),
                 y = 1.0 - (double)SPACING * (double)(i / COLS);
    const double c = cos(a), s = sin(a);
    t[0] = (float)(c * x);
    t[1] = (float)y;
    t[2] = (float)(-s * x);
    n[0] = (float)s;
    n[1] = 0.0f;
    n[2] = (float)c;
}

static cloth_t *sheet(bool backstops)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = ROWS;
    d.cols = COLS;
    d.spacing = SPACING;
    d.origin[0] = -SPACING * 0.5f * (float)(COLS - 1);
    d.origin[1] = 1.0f;
    d.u_axis[0] = 1.0f;
    d.v_axis[0] = 0.0f;
    d.v_axis[1] = -1.0f;
    d.v_axis[2] = 0.0f;
    d.particle_mass = 0.01f;
    cloth_t *c = NULL;
    CHECK_OK(test_create_grid(&d, &c));
    if (c == NULL) {
        return NULL;
    }
    const float into_back[3] = {0.0f, -9.81f, -4.0f};
    CHECK_OK(cloth_set_gravity(c, into_back));
    float t[3 * N], n[3 * N], dist[N], stops[2 * N];
    for (uint32_t i = 0; i < N; ++i) {
        target_of(i, 0.0, t + 3 * i, n + 3 * i);
        dist[i] = i < COLS ? 0.0f : 0.3f;
        stops[2 * i] = BACK;
        stops[2 * i + 1] = BALL;
    }
    CHECK_OK(cloth_set_skin_targets(c, t, 0));
    CHECK_OK(cloth_set_max_distances(c, dist, 0));
    if (backstops) {
        CHECK_OK(cloth_set_skin_normals(c, n, 0));
        CHECK_OK(cloth_set_backstops(c, stops, 0));
    }
    return c;
}

static void test_stops_behind(void)
{
    double z[2] = {0.0, 0.0};
    for (int with = 0; with < 2; ++with) {
        cloth_t *c = sheet(with != 0);
        if (c == NULL) {
            return;
        }
        for (int f = 0; f < 180; ++f) {
            CHECK_OK(cloth_step(c, DT));
        }
        float pos[3 * N];
        CHECK_OK(cloth_get_positions(c, pos, 0));
        double lo = 0.0, hi = -1.0;
        for (uint32_t i = COLS; i < N; ++i) {
            lo = fmin(lo, (double)pos[3 * i + 2]);
            hi = fmax(hi, (double)pos[3 * i + 2]);
        }
        z[with] = lo;
        printf("A: %s backstops the free rows end %.5f to %.5f m behind the skin\n", with ? "with" : "without", -hi,
               -lo);
        if (with) {
            CHECK_NEAR(lo, -(double)BACK, 1e-4);
        }
        cloth_destroy(c);
    }
    CHECK(z[0] < -0.1); /* without, it leans far back */
}

static void test_turning(void)
{
    cloth_t *c = sheet(true);
    if (c == NULL) {
        return;
    }
    double worst = -1.0;
    for (int f = 1; f <= 120; ++f) {
        const double a = 1.0 * f * (double)DT;
        float t[3 * N], n[3 * N];
        for (uint32_t i = 0; i < N; ++i) {
            target_of(i, a, t + 3 * i, n + 3 * i);
        }
        CHECK_OK(cloth_set_skin_targets(c, t, 0));
        CHECK_OK(cloth_set_skin_normals(c, n, 0));
        CHECK_OK(cloth_step(c, DT));
        float pos[3 * N];
        CHECK_OK(cloth_get_positions(c, pos, 0));
        for (uint32_t i = COLS; i < N; ++i) {
            double e2 = 0.0;
            for (uint32_t k = 0; k < 3u; ++k) {
                const double centre = (double)t[3 * i + k] - (double)n[3 * i + k] * (double)(BACK + BALL);
                e2 += ((double)pos[3 * i + k] - centre) * ((double)pos[3 * i + k] - centre);
            }
            worst = fmax(worst, (double)BALL - sqrt(e2));
        }
    }
    printf("B: turning at 1 rad/s for 2 s: deepest into a backstop %.2e m\n", worst);
    CHECK(worst <= TOL);
    cloth_destroy(c);
}

static void test_refusals(void)
{
    cloth_t *c = sheet(true);
    if (c == NULL) {
        return;
    }
    float n[3 * N], stops[2 * N];
    for (uint32_t i = 0; i < N; ++i) {
        n[3 * i] = 0.0f;
        n[3 * i + 1] = 0.0f;
        n[3 * i + 2] = 1.0f;
        stops[2 * i] = 0.01f;
        stops[2 * i + 1] = 1.0f;
    }
    const uint64_t before = cloth_state_hash(c);
    CHECK_STATUS(cloth_set_skin_normals(NULL, n, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_skin_normals(c, NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_skin_normals(c, n, 6), CLOTH_ERR_INVALID_ARGUMENT);
    n[5] = 1.1f; /* not unit */
    CHECK_STATUS(cloth_set_skin_normals(c, n, 0), CLOTH_ERR_INVALID_ARGUMENT);
    n[5] = NAN;
    CHECK_STATUS(cloth_set_skin_normals(c, n, 0), CLOTH_ERR_INVALID_ARGUMENT);
    n[5] = 1.0f;
    CHECK_STATUS(cloth_set_backstops(NULL, stops, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_backstops(c, NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_set_backstops(c, stops, 4), CLOTH_ERR_INVALID_ARGUMENT);
    stops[3] = -1.0f; /* a negative radius */
    CHECK_STATUS(cloth_set_backstops(c, stops, 0), CLOTH_ERR_INVALID_ARGUMENT);
    stops[3] = INFINITY;
    CHECK_STATUS(cloth_set_backstops(c, stops, 0), CLOTH_ERR_INVALID_ARGUMENT);
    stops[3] = 1.0f;
    stops[2] = NAN;
    CHECK_STATUS(cloth_set_backstops(c, stops, 0), CLOTH_ERR_INVALID_ARGUMENT);
    stops[2] = FLT_MAX;
    stops[3] = FLT_MAX; /* the centre past the float range */
    CHECK_STATUS(cloth_set_backstops(c, stops, 0), CLOTH_ERR_INVALID_ARGUMENT);
    /* the refusals left the sheet as it was: the same steps as a twin */
    cloth_t *twin = sheet(true);
    if (twin != NULL) {
        CHECK(cloth_state_hash(twin) == before);
        for (int f = 0; f < 30; ++f) {
            CHECK_OK(cloth_step(c, DT));
            CHECK_OK(cloth_step(twin, DT));
        }
        CHECK(cloth_state_hash(c) == cloth_state_hash(twin));
        cloth_destroy(twin);
    }
    /* a normal of 0: no ball, the particle leans back to its sphere */
    for (uint32_t i = 0; i < 3 * N; ++i) {
        n[i] = 0.0f;
    }
    CHECK_OK(cloth_set_skin_normals(c, n, 0));
    for (int f = 0; f < 240; ++f) {
        CHECK_OK(cloth_step(c, DT));
    }
    float pos[3 * N];
    CHECK_OK(cloth_get_positions(c, pos, 0));
    CHECK(pos[3 * (N - 1) + 2] < -0.1f);
    cloth_destroy(c);
}

int main(void)
{
    test_stops_behind();
    test_turning();
    test_refusals();
    return test_finish("test_backstop");
}
