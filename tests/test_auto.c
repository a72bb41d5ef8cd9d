/*
 * test_auto: the automatic settings keep the stretch guarantee where the
 * work it takes changes from one step to the next (auto.c, step.c).
 *
 * A. A denim cloth dropped onto a ball at 60 Hz: the impact needs several
 *    times the substeps of the fall, more than the rate's rise of a quarter
 *    a step gives, so a step that misses is run again with more. At every
 *    read-back no structural or shear link is past (1 + max_strain) times
 *    its rest length, to the documented tolerance (1 % of max_strain and
 *    1e-5); no particle is inside the ball; and once the cloth rests the
 *    rate is back near where it started.
 * B. The same with the ball rising into the cloth: a step that is run
 *    again starts from where the ball stood at the step's start, so no
 *    particle ends inside the ball where the host put it.
 * C. The same bits on 1 and 2 threads (the choice, the runs again
 *    included, depends on the cloth's state only).
 * D. With a fixed substep count the step is never run again: the count
 *    the host set is the one used.
 * E. A cloth at rest on a rough ball stays where it rests: the drape of the
 *    bench at 32 x 32 (2 m, two corners pinned, friction 0.5) with the
 *    defaults. Static friction holds it, so a still cloth should not move
 *    at all; the tolerance, 3 mm in 16 s for the middle of the far edge,
 *    leaves room for the limit's stirring (1.3 mm measured), where the
 *    limit with friction acting only on its velocity change ratcheted the
 *    cloth off the ball (15 mm in the same 16 s, and off the ball after
 *    13 s at 128 x 128).
 * The scenes are chosen to need running steps again (A and B check it
 * happened); a limit that one day holds them without will fail that check,
 * and the scenes must then be made harder.
 */
#include "test_util.h"

#include <stdbool.h>
#include <stdlib.h>

#include <clothsim/material.h>

enum { N = 16, HZ = 60 };
static const float size = 1.0f, hz = (float)HZ;

/* The worst strain of the structural and shear links of the N x N grid. */
static double worst_strain(const float *p, float spacing)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    double top = 0.0;
    for (int r = 0; r < N; ++r) {
        for (int c = 0; c < N; ++c) {
            for (int f = 0; f < 4; ++f) {
                const int r2 = r + dr[f], c2 = c + dc[f];
                if (r2 >= N || c2 < 0 || c2 >= N) {
                    continue;
                }
                const int i = r * N + c, j = r2 * N + c2;
                const double dx = (double)p[3 * j] - (double)p[3 * i], dy = (double)p[3 * j + 1] - (double)p[3 * i + 1],
                             dz = (double)p[3 * j + 2] - (double)p[3 * i + 2];
                const double rest = (double)spacing * (f >= 2 ? sqrt(2.0) : 1.0);
                const double s = sqrt(dx * dx + dy * dy + dz * dz) / rest - 1.0;
                top = s > top ? s : top;
            }
        }
    }
    return top;
}

typedef struct outcome {
    uint64_t hash;
    uint32_t redone; /* steps whose substeps more than doubled the last step's: run again */
    uint32_t last_substeps;
    double worst, bound, inside;
} outcome;

/* The denim cloth, dropped onto a ball of radius 0.3 size below its middle
 * (with a floor beyond); with `moving`, the ball rises into the cloth at
 * 0.3 m/s (fast enough that some steps must run again). */
static outcome drop_onto_ball(uint32_t threads, bool moving, uint32_t substeps)
{
    outcome out = {0u, 0u, 0u, 0.0, 0.0, 0.0};
    const float spacing = size / (float)(N - 1);
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = N;
    d.cols = N;
    d.spacing = spacing;
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_grid(&d, &c));
    if (c == NULL) {
        return out;
    }
    cloth_material denim;
    cloth_material_init(&denim, CLOTH_MATERIAL_DENIM);
    CHECK_OK(cloth_set_material(c, &denim));
    if (threads > 1u) {
        CHECK_OK(cloth_set_threads(c, threads));
    }
    if (substeps > 0u) {
        CHECK_OK(cloth_set_substeps(c, substeps));
    }
    float max_strain = 0.0f;
    uint32_t passes = 0u;
    CHECK_OK(cloth_get_strain_limit(c, &max_strain, &passes));
    CHECK(passes == 0u && max_strain == denim.max_strain); /* automatic, at the material's guarantee */
    const double bound = 1.01 * (double)max_strain + 1e-5 + 1e-6; /* and float rounding of the read-back */
    out.bound = bound;
    float *p = malloc(sizeof(float) * 3u * N * N);
    CHECK(p != NULL);
    if (p == NULL) {
        cloth_destroy(c);
        return out;
    }
    float ball[3] = {0.5f * size, -0.4f * size, 0.5f * size};
    const float radius = 0.3f * size;
    cloth_collider_id id;
    CHECK_OK(cloth_add_sphere(c, ball, radius, &id));
    const float floor_pt[3] = {0.0f, -2.0f * size, 0.0f}, up[3] = {0.0f, 1.0f, 0.0f};
    cloth_collider_id floor_id;
    CHECK_OK(cloth_add_plane(c, floor_pt, up, &floor_id));
    const float speed = moving ? 0.3f : 0.0f;
    uint32_t before = 0u;
    for (int s = 0; s < (int)(3.0f * hz); ++s) {
        if (moving) {
            ball[1] += speed / hz;
            CHECK_OK(cloth_set_collider_transform(c, id, ball, NULL));
        }
        CHECK_OK(cloth_step(c, 1.0f / hz));
        CHECK_OK(cloth_get_positions(c, p, 0u));
        const double w = worst_strain(p, spacing);
        out.worst = w > out.worst ? w : out.worst;
        for (int i = 0; i < N * N; ++i) {
            const double dx = (double)p[3 * i] - (double)ball[0], dy = (double)p[3 * i + 1] - (double)ball[1],
                         dz = (double)p[3 * i + 2] - (double)ball[2];
            const double in = (double)radius - sqrt(dx * dx + dy * dy + dz * dz);
            out.inside = in > out.inside ? in : out.inside;
        }
        cloth_stats st;
        cloth_stats_init(&st);
        CHECK_OK(cloth_get_stats(c, &st));
        if (before > 0u && st.substeps_used > 2u * before) {
            ++out.redone;
        }
        before = st.substeps_used;
    }
    out.last_substeps = before;
    out.hash = cloth_state_hash(c);
    printf("threads %u %s substeps %u: worst %.5f (bound %.5f) inside %.2e, %u steps run again, last %u substeps\n",
           threads, moving ? "moving ball" : "ball", substeps, out.worst, bound, out.inside, out.redone,
           out.last_substeps);
    if (substeps == 0u) {
        CHECK(out.worst <= bound);
    }
    CHECK(out.inside <= 1e-4 * (double)size);
    free(p);
    cloth_destroy(c);
    return out;
}

static void rests_on_rough_ball(void)
{
    enum { S = 32 };
    const float side = 2.0f, spacing = side / (float)(S - 1);
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = S;
    d.cols = S;
    d.spacing = spacing;
    d.origin[0] = -0.5f * side;
    d.origin[1] = 0.0f;
    d.origin[2] = -0.5f * side;
    d.particle_mass = 0.2f * side * side / (float)(S * S);
    cloth_t *c = NULL;
    CHECK_OK(cloth_create_grid(&d, &c));
    if (c == NULL) {
        return;
    }
    const float centre[3] = {0.0f, -1.1f, 0.0f};
    cloth_collider_id ball;
    CHECK_OK(cloth_add_sphere(c, centre, 0.6f, &ball));
    CHECK_OK(cloth_set_collider_friction(c, ball, 0.5f));
    CHECK_OK(cloth_pin(c, 0u, NULL));
    CHECK_OK(cloth_pin(c, S - 1u, NULL));
    const uint32_t watched = (S - 1u) * S + S / 2u; /* the middle of the far edge */
    float p[3 * S * S], before[3] = {0.0f, 0.0f, 0.0f};
    for (int f = 0; f < 20 * HZ; ++f) {
        CHECK_OK(cloth_step(c, 1.0f / hz));
        if (f + 1 == 4 * HZ) {
            CHECK_OK(cloth_get_positions(c, p, 0));
            for (int k = 0; k < 3; ++k) {
                before[k] = p[3u * watched + (uint32_t)k];
            }
        }
    }
    CHECK_OK(cloth_get_positions(c, p, 0));
    const float dx = p[3u * watched] - before[0], dy = p[3u * watched + 1u] - before[1],
                dz = p[3u * watched + 2u] - before[2];
    const float moved = sqrtf(dx * dx + dy * dy + dz * dz);
    printf("E resting drape 32 x 32: the far edge's middle moved %.2f mm from 4 s to 20 s\n", 1e3 * (double)moved);
    CHECK(moved < 3e-3f);
    cloth_destroy(c);
}

int main(void)
{
    rests_on_rough_ball();
    const outcome a = drop_onto_ball(1u, false, 0u);
    CHECK(a.redone >= 1u);
    /* resting: 360 substeps a second to start, 6 at 60 Hz, a rise or two at most */
    CHECK(a.last_substeps <= 9u);
    const outcome b = drop_onto_ball(1u, true, 0u);
    CHECK(b.redone >= 1u);
    const outcome a2 = drop_onto_ball(2u, false, 0u);
    CHECK(a2.hash == a.hash);
    const outcome b2 = drop_onto_ball(2u, true, 0u);
    CHECK(b2.hash == b.hash);
    const outcome fixed = drop_onto_ball(1u, false, 12u);
    CHECK(fixed.redone == 0u && fixed.last_substeps == 12u);
    return test_finish("test_auto");
}
