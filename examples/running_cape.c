/*
 * running_cape: a cape worn by a figure that runs in a circle, in a terminal.
 *
 * The figure is a torso capsule and a shoulder capsule, running a circle of
 * radius 3 m at 6 m/s and turning to face where it goes. The host skins the
 * cape's rest shape (a 0.6 x 0.9 m grid hanging down its back) with the
 * figure's pose every frame and hands it to the cloth as skin targets; the
 * collar row has max distance 0 (pinned to the animation) and the distance
 * grows down the cape to 30 cm at the hem, so the hem swings out on the turn
 * while the shoulders stay put. The capsules move with the figure. The
 * material is cotton, everything else the defaults.
 *
 * Once per simulated second the program prints where the hem is relative to
 * its skinned position (in the figure's frame: out of the circle, up, back),
 * the largest distance of any particle from its target against its max
 * distance, and the contacts; it exits 1 if a particle ever ends a step
 * beyond its max distance or the collar leaves its targets.
 *
 * The figure's root is the cloth's frame (cloth_set_frame()); with an
 * inertia below 1 the cape feels only that part of the run and the turn,
 * as a game keeps capes from flapping wildly on a sprinting character.
 *
 * Usage: running_cape [speed in m/s, default 6] [inertia 0..1, default 1]
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

enum { ROWS = 19, COLS = 13, N = ROWS * COLS, SECONDS = 6 };
#define SPACING 0.05f
#define RADIUS 3.0f /* m, of the circle run */
#define HEM_REACH 0.3f /* m: the hem's max distance */

typedef struct pose {
    float at[3]; /* the figure's feet */
    float turn;  /* about +y, rad */
} pose;

static pose pose_at(float t, float speed)
{
    const float w = speed / RADIUS;
    pose p = {{RADIUS * cosf(w * t), 0.0f, RADIUS * sinf(w * t)}, -w * t};
    return p;
}

/* A point of the figure's frame (x across the shoulders, pointing out of
 * the circle; y up; z forward) in the world. */
static void to_world(const pose *p, const float l[3], float out[3])
{
    const float c = cosf(p->turn), s = sinf(p->turn);
    out[0] = p->at[0] + c * l[0] + s * l[2];
    out[1] = p->at[1] + l[1];
    out[2] = p->at[2] - s * l[0] + c * l[2];
}

/* The cape's rest shape on the figure: its collar across the shoulders,
 * hanging 5 cm behind the back. */
static void rest(uint32_t i, float l[3])
{
    l[0] = -0.3f + SPACING * (float)(i % COLS);
    l[1] = 1.45f - SPACING * (float)(i / COLS);
    l[2] = -0.2f;
}

static void skin(const pose *p, float *targets)
{
    for (uint32_t i = 0; i < N; ++i) {
        float l[3];
        rest(i, l);
        to_world(p, l, targets + 3u * i);
    }
}

int main(int argc, char **argv)
{
    const float speed = argc > 1 ? strtof(argv[1], NULL) : 6.0f;
    const float inertia = argc > 2 ? strtof(argv[2], NULL) : 1.0f;
    const float dt = 1.0f / 60.0f;
    /* everything is made about the frame's first pose, the origin, as a
     * garment is authored, and then teleported to where the figure starts */
    pose p = {{0.0f, 0.0f, 0.0f}, 0.0f};

    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = ROWS;
    d.cols = COLS;
    d.spacing = SPACING;
    float l[3];
    rest(0u, l);
    to_world(&p, l, d.origin);
    d.u_axis[0] = 1.0f; /* the figure starts unturned */
    d.u_axis[1] = 0.0f;
    d.u_axis[2] = 0.0f;
    d.v_axis[0] = 0.0f;
    d.v_axis[1] = -1.0f;
    d.v_axis[2] = 0.0f;
    cloth_t *cloth = NULL;
    CHECK(cloth_create_grid(&d, &cloth));
    cloth_material cotton;
    cloth_material_init(&cotton, CLOTH_MATERIAL_COTTON);
    CHECK(cloth_set_material(cloth, &cotton));

    /* the body, added where the figure stands; moved with it each frame */
    const float torso_a[3] = {0.0f, 0.7f, 0.0f}, torso_b[3] = {0.0f, 1.35f, 0.0f};
    const float shoulder_a[3] = {-0.22f, 1.4f, 0.0f}, shoulder_b[3] = {0.22f, 1.4f, 0.0f};
    float a[3], b[3];
    cloth_collider_id torso, shoulders;
    to_world(&p, torso_a, a);
    to_world(&p, torso_b, b);
    CHECK(cloth_add_capsule(cloth, a, b, 0.16f, &torso));
    to_world(&p, shoulder_a, a);
    to_world(&p, shoulder_b, b);
    CHECK(cloth_add_capsule(cloth, a, b, 0.09f, &shoulders));

    /* the skin: the collar pinned to the animation, the rest free to swing
     * out to HEM_REACH at the hem */
    static float targets[3 * N], positions[3 * N];
    float reach[N];
    for (uint32_t i = 0; i < N; ++i) {
        reach[i] = HEM_REACH * (float)(i / COLS) / (float)(ROWS - 1);
    }
    skin(&p, targets);
    CHECK(cloth_set_skin_targets(cloth, targets, 0));
    CHECK(cloth_set_max_distances(cloth, reach, 0));
    p = pose_at(0.0f, speed);
    const float q0[4] = {0.0f, sinf(0.5f * p.turn), 0.0f, cosf(0.5f * p.turn)};
    CHECK(cloth_teleport(cloth, p.at, q0));
    CHECK(cloth_set_inertia(cloth, inertia, inertia));

    printf("running_cape: %u particles of cotton on a figure running a %.0f m circle at %.1f m/s, inertia %.2f\n", N,
           (double)RADIUS, (double)speed, (double)inertia);
    printf("%6s %28s %20s %9s\n", "t (s)", "hem off its skin: out, up, back", "worst of max dist.", "contacts");
    int failures = 0;
    for (int frame = 1; frame <= SECONDS * 60; ++frame) {
        /* where the animation puts everything at the end of this step */
        const float t = (float)frame * dt;
        p = pose_at(t, speed);
        skin(&p, targets);
        CHECK(cloth_set_skin_targets(cloth, targets, 0));
        const float q[4] = {0.0f, sinf(0.5f * p.turn), 0.0f, cosf(0.5f * p.turn)};
        CHECK(cloth_set_frame(cloth, p.at, q));
        to_world(&p, torso_a, a);
        CHECK(cloth_set_collider_transform(cloth, torso, a, q));
        to_world(&p, shoulder_a, a);
        CHECK(cloth_set_collider_transform(cloth, shoulders, a, q));
        CHECK(cloth_step(cloth, dt));

        CHECK(cloth_get_positions(cloth, positions, 0));
        float worst = 0.0f, hem[3] = {0.0f, 0.0f, 0.0f};
        for (uint32_t i = 0; i < N; ++i) {
            const float e[3] = {positions[3 * i] - targets[3 * i], positions[3 * i + 1] - targets[3 * i + 1],
                                positions[3 * i + 2] - targets[3 * i + 2]};
            const float dist = sqrtf(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
            if (i < COLS) {
                failures += dist != 0.0f; /* the collar: on the animation exactly */
                continue;
            }
            worst = fmaxf(worst, dist / reach[i]);
            failures += dist > reach[i] + 1e-5f;
            if (i >= N - COLS) { /* the hem, in the figure's frame */
                const float c = cosf(p.turn), s = sinf(p.turn);
                hem[0] += (c * e[0] - s * e[2]) / COLS;
                hem[1] += e[1] / COLS;
                hem[2] -= (s * e[0] + c * e[2]) / COLS;
            }
        }
        if (frame % 60 == 0) {
            cloth_stats st;
            cloth_stats_init(&st);
            CHECK(cloth_get_stats(cloth, &st));
            printf("%6.1f %8.3f %8.3f %8.3f m %19.1f %% %9u\n", (double)t, (double)hem[0], (double)hem[1],
                   (double)hem[2], 100.0 * (double)worst, st.contacts);
        }
    }
    cloth_destroy(cloth);
    if (failures > 0) {
        fprintf(stderr, "error: %d particle-steps off the collar's targets or beyond their max distance\n",
                failures);
        return 1;
    }
    return 0;
}
