/*
 * The character scene (scene_character.h), after examples/running_cape.c:
 * a figure of 14 tapered capsules and 4 spheres, every one a collider,
 * walks or runs round a circle of 4 m, turning to face where it goes, in a
 * cotton cape of 16 x 24 particles 4 cm apart (0.6 x 0.92 m).
 *
 * - The figure and the cape are made where the cloth's frame starts (the
 *   origin, unturned, standing straight) as a garment is authored, then
 *   teleported to where the figure starts. The cape is made flat and laid
 *   round the back on a cylinder (cloth_set_positions(); a cylinder
 *   unrolls without stretch), so it wraps the shoulders as a cape does.
 * - Every step the host poses the figure: each limb turns about its joint
 *   from the stride's phase, the upper body leans forward as the gait
 *   quickens, and the whole is lowered until the lower foot stands on the
 *   ground. It skins the cape's rest shape with the upper body and hands
 *   the library the skin targets, the frame (the figure's root) and every
 *   limb's pose for the end of the step.
 * - The collar row has max distance 0: it is pinned to the shoulders. Below
 *   it the distance grows faster than the depth, from a quarter of a row's
 *   depth under the collar to 1.25 times it at the hem (1.15 m): the
 *   shoulders stay put while the hem can stream out nearly level behind a
 *   runner.
 * - The cloth is worn in the figure's frame at inertia 0.5, linear and
 *   angular: it feels half the run and the turn, as games keep a cape from
 *   flapping wildly on a sprinting character. The air (the W key's wind: a
 *   faint breeze) pushes on the cape as it runs through it.
 */
#include "scenes.h"

#include "vmath.h"

#include <stdio.h>
#include <string.h>

#define CAPE_N (CHARACTER_ROWS * CHARACTER_COLS)
#define SPACING 0.04f
#define COLLAR_Y 1.46f
#define CAPE_CURVE 0.32f         /* m: the cape is authored on a cylinder this wide round the back, */
#define CAPE_AXIS_Z 0.12f        /* about this axis: its middle 20 cm behind, clear of the torso's 17 cm */
#define PARTICLE_RADIUS 0.012f   /* keeps the drawn triangles, not only the particles, off the body */
#define CIRCLE 4.0f              /* m, the radius of the circle round which the figure goes */
#define TELEPORT 30.0f           /* m, how far T sends it */
#define TWO_PI (2.0f * VIEWER_PI)
#define COLLAR_PIECES 5
#define STRAP_PIECES 3
#define CHARACTER_PROPS (COLLAR_PIECES + 2 * STRAP_PIECES + 2) /* the collar, two straps, two clasps */

/* --- the figure ----------------------------------------------------------------------- */

/* Joints, each a turn about the figure's x axis (across the shoulders). */
typedef enum joint_kind { J_FIXED, J_HIP, J_KNEE, J_ANKLE, J_SHOULDER, J_ELBOW } joint_kind;
enum { PELVIS = -1, SPINE = -2 }; /* parents that are not parts: the root, and the upper body */

/* A part as authored, standing straight in the figure's frame (x to its
 * left, y up, z forward): a tapered capsule from a to b with radii ra, rb,
 * or a sphere about a. It turns about `a` at its joint, after its parent. */
typedef struct part {
    float a[3], b[3], ra, rb;
    int sphere;
    int parent; /* an earlier part, PELVIS or SPINE */
    joint_kind joint;
    float side; /* +1 left, -1 right: the right side's stride is half a cycle on */
} part;

static const float spine_pivot[3] = {0.0f, 0.9f, 0.0f}; /* the upper body leans about it */
static const float pelvis_pivot[3] = {0.0f, 0.0f, 0.0f};

static const part body[CHARACTER_PARTS] = {
    {{0.0f, 0.95f, 0.0f}, {0.0f, 1.35f, 0.0f}, 0.15f, 0.17f, 0, SPINE, J_FIXED, 0.0f},       /* torso */
    {{0.0f, 1.42f, 0.0f}, {0.0f, 1.52f, 0.0f}, 0.05f, 0.05f, 0, SPINE, J_FIXED, 0.0f},       /* neck */
    {{-0.1f, 0.9f, 0.0f}, {0.1f, 0.9f, 0.0f}, 0.14f, 0.14f, 0, PELVIS, J_FIXED, 0.0f},       /* hips */
    {{0.2f, 1.38f, 0.0f}, {0.25f, 1.1f, 0.0f}, 0.055f, 0.045f, 0, SPINE, J_SHOULDER, 1.0f},  /* upper arms */
    {{-0.2f, 1.38f, 0.0f}, {-0.25f, 1.1f, 0.0f}, 0.055f, 0.045f, 0, SPINE, J_SHOULDER, -1.0f},
    {{0.25f, 1.1f, 0.0f}, {0.27f, 0.85f, 0.05f}, 0.045f, 0.035f, 0, 3, J_ELBOW, 1.0f},       /* forearms */
    {{-0.25f, 1.1f, 0.0f}, {-0.27f, 0.85f, 0.05f}, 0.045f, 0.035f, 0, 4, J_ELBOW, -1.0f},
    {{0.1f, 0.85f, 0.0f}, {0.11f, 0.48f, 0.0f}, 0.08f, 0.06f, 0, PELVIS, J_HIP, 1.0f},      /* thighs */
    {{-0.1f, 0.85f, 0.0f}, {-0.11f, 0.48f, 0.0f}, 0.08f, 0.06f, 0, PELVIS, J_HIP, -1.0f},
    {{0.11f, 0.48f, 0.0f}, {0.11f, 0.08f, 0.0f}, 0.055f, 0.04f, 0, 7, J_KNEE, 1.0f},        /* shins */
    {{-0.11f, 0.48f, 0.0f}, {-0.11f, 0.08f, 0.0f}, 0.055f, 0.04f, 0, 8, J_KNEE, -1.0f},
    {{0.11f, 0.08f, 0.0f}, {0.12f, 0.035f, 0.15f}, 0.045f, 0.03f, 0, 9, J_ANKLE, 1.0f},     /* feet */
    {{-0.11f, 0.08f, 0.0f}, {-0.12f, 0.035f, 0.15f}, 0.045f, 0.03f, 0, 10, J_ANKLE, -1.0f},
    {{-0.2f, 1.4f, 0.0f}, {0.2f, 1.4f, 0.0f}, 0.07f, 0.07f, 0, SPINE, J_FIXED, 0.0f},       /* shoulders */
    {{0.0f, 1.65f, 0.0f}, {0.0f, 0.0f, 0.0f}, 0.11f, 0.11f, 1, SPINE, J_FIXED, 0.0f},       /* head */
    {{0.2f, 1.4f, 0.0f}, {0.0f, 0.0f, 0.0f}, 0.075f, 0.075f, 1, SPINE, J_FIXED, 0.0f},      /* shoulder balls */
    {{-0.2f, 1.4f, 0.0f}, {0.0f, 0.0f, 0.0f}, 0.075f, 0.075f, 1, SPINE, J_FIXED, 0.0f},
    {{0.0f, 1.08f, 0.03f}, {0.0f, 0.0f, 0.0f}, 0.14f, 0.14f, 1, SPINE, J_FIXED, 0.0f},      /* belly */
};
enum { FOOT_LEFT = 11, FOOT_RIGHT = 12 };

/* How a gait moves: angles in radians, positive turning a limb backward. */
typedef struct gait {
    float speed;   /* m/s */
    float cadence; /* strides (a left and a right step) per second */
    float leg, knee0, knee1, arm, elbow, lean;
} gait;

/* gait -1 stands straight (the pose the figure is made in), 0 walks, 1 runs */
static const gait gaits[3] = {
    {0.0f, 0.9f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f},
    {1.4f, 0.9f, 0.42f, 0.08f, 0.55f, 0.35f, 0.35f, 0.04f},
    {4.5f, 1.4f, 0.75f, 0.35f, 1.5f, 0.7f, 1.4f, 0.2f},
};

static float lerp(float a, float b, float t)
{
    return a + (b - a) * t;
}

static gait gait_at(float g)
{
    const gait *from = g < 0.0f ? &gaits[0] : &gaits[1], *to = from + 1;
    float t = g < 0.0f ? g + 1.0f : g;
    t = t * t * (3.0f - 2.0f * t); /* eased, so nothing jerks as a gait sets in */
    const gait out = {lerp(from->speed, to->speed, t), lerp(from->cadence, to->cadence, t),
                      lerp(from->leg, to->leg, t),     lerp(from->knee0, to->knee0, t),
                      lerp(from->knee1, to->knee1, t), lerp(from->arm, to->arm, t),
                      lerp(from->elbow, to->elbow, t), lerp(from->lean, to->lean, t)};
    return out;
}

static float hip_angle(const gait *g, float phase)
{
    return -g->leg * sinf(phase); /* the left thigh swings forward first */
}

static float knee_angle(const gait *g, float phase)
{
    /* bent most as the leg swings through under the body (cos phase = 1) */
    const float k = 0.5f + 0.5f * cosf(phase);
    return g->knee0 + g->knee1 * k * k;
}

static float joint_angle(const gait *g, const part *p, float phase)
{
    const float ph = phase + (p->side < 0.0f ? VIEWER_PI : 0.0f);
    switch (p->joint) {
    case J_HIP:
        return hip_angle(g, ph);
    case J_KNEE:
        return knee_angle(g, ph);
    case J_ANKLE: /* keeps the foot nearly level, with a little toe-off */
        return -0.8f * (hip_angle(g, ph) + knee_angle(g, ph));
    case J_SHOULDER: /* against the leg of the same side */
        return g->arm * sinf(ph);
    case J_ELBOW: /* the forearm bent forward, pumping a little */
        return -g->elbow * (1.0f + 0.15f * sinf(ph));
    case J_FIXED:
        break;
    }
    return 0.0f;
}

/* A part's pose in the figure's frame: where its `a` is and its turn. */
typedef struct limb {
    float at[3], q[4];
} limb;

/* Pose every part for the state's phase and gait; returns how high the
 * root must stand for the lower foot to touch the ground. */
static float pose_parts(const character_state *c, limb parts[CHARACTER_PARTS], limb *spine)
{
    const gait g = gait_at(c->gait);
    const float x[3] = {1.0f, 0.0f, 0.0f};
    const limb pelvis = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    memcpy(spine->at, spine_pivot, sizeof spine->at);
    q_axis_angle(spine->q, x, g.lean);
    for (int k = 0; k < CHARACTER_PARTS; ++k) {
        const part *p = &body[k];
        /* the parent's pose and the point of it that pose is about */
        const limb *parent = p->parent == PELVIS ? &pelvis : (p->parent == SPINE ? spine : &parts[p->parent]);
        const float *pivot = p->parent == PELVIS  ? pelvis_pivot
                             : p->parent == SPINE ? spine_pivot
                                                  : body[p->parent].a;
        float d[3], turn[4];
        v3_sub(d, p->a, pivot);
        q_rotate(d, parent->q, d);
        v3_set(parts[k].at, parent->at[0] + d[0], parent->at[1] + d[1], parent->at[2] + d[2]);
        q_axis_angle(turn, x, joint_angle(&g, p, c->phase));
        q_mul(parts[k].q, parent->q, turn);
    }
    float lowest = 1.0f;
    const int feet[2] = {FOOT_LEFT, FOOT_RIGHT};
    for (int f = 0; f < 2; ++f) {
        const part *p = &body[feet[f]];
        const limb *l = &parts[feet[f]];
        float d[3];
        v3_sub(d, p->b, p->a);
        q_rotate(d, l->q, d);
        lowest = fminf(lowest, fminf(l->at[1] - p->ra, l->at[1] + d[1] - p->rb));
    }
    return -lowest;
}

static void heading_quat(float heading, float q[4])
{
    const float up[3] = {0.0f, 1.0f, 0.0f};
    q_axis_angle(q, up, heading);
}

/* A point of the figure's frame in the world. */
static void to_world(const character_state *c, const float l[3], float out[3])
{
    float q[4];
    heading_quat(c->heading, q);
    q_rotate(out, q, l);
    v3_set(out, out[0] + c->root[0], out[1] + c->root[1], out[2] + c->root[2]);
}

/* A point authored on the standing upper body (the cape, its straps),
 * carried by the spine's lean, in the world. */
static void upper_to_world(const character_state *c, const limb *spine, const float l[3], float out[3])
{
    float d[3];
    v3_sub(d, l, spine_pivot);
    q_rotate(d, spine->q, d);
    v3_set(d, d[0] + spine->at[0], d[1] + spine->at[1], d[2] + spine->at[2]);
    to_world(c, d, out);
}

/* The cape's rest shape: the grid rolled round the back, its collar across
 * the shoulders, its edges reaching forward to beside the arms. */
static void cape_rest(uint32_t i, float l[3])
{
    const float arc = SPACING * ((float)(i % CHARACTER_COLS) - 0.5f * (float)(CHARACTER_COLS - 1u));
    const float psi = arc / CAPE_CURVE;
    v3_set(l, CAPE_CURVE * sinf(psi), COLLAR_Y - SPACING * (float)(i / CHARACTER_COLS),
           CAPE_AXIS_Z - CAPE_CURVE * cosf(psi));
}

static void skin(character_state *c, const limb *spine)
{
    for (uint32_t i = 0; i < CAPE_N; ++i) {
        float l[3];
        cape_rest(i, l);
        upper_to_world(c, spine, l, c->targets + 3u * i);
    }
}

/* --- building -------------------------------------------------------------------------- */

int character_build(scene *s)
{
    character_state *c = &s->character;
    memset(c, 0, sizeof *c);
    c->gait = -1.0f; /* standing, as made; it sets off walking */
    c->gait_target = 0.0f;
    c->turn = c->turn_target = 1.0f;
    c->jump = 1.0f;

    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = CHARACTER_ROWS;
    d.cols = CHARACTER_COLS;
    d.spacing = SPACING;
    cape_rest(0u, d.origin);
    v3_set(d.u_axis, 1.0f, 0.0f, 0.0f);
    v3_set(d.v_axis, 0.0f, -1.0f, 0.0f);
    CHECKED(cloth_create_grid(&d, &s->cloth));
    s->rows = d.rows;
    s->cols = d.cols;
    for (uint32_t i = 0; i < CAPE_N; ++i) {
        cape_rest(i, c->targets + 3u * i);
    }
    CHECKED(cloth_set_positions(s->cloth, c->targets, 0));

    for (int k = 0; k < CHARACTER_PARTS; ++k) {
        const part *p = &body[k];
        CHECKED(p->sphere ? cloth_add_sphere(s->cloth, p->a, p->ra, &c->parts[k])
                          : cloth_add_tapered_capsule(s->cloth, p->a, p->b, p->ra, p->rb, &c->parts[k]));
        CHECKED(cloth_set_collider_friction(s->cloth, c->parts[k], 0.3f));
    }
    CHECKED(cloth_set_particle_radius(s->cloth, PARTICLE_RADIUS));

    /* the skin: the collar pinned to the shoulders, each row below free
     * within a distance that grows with its depth d, 0.25 d under the collar
     * to 1.25 d at the hem */
    float reach[CAPE_N];
    for (uint32_t i = 0; i < CAPE_N; ++i) {
        const float row = (float)(i / CHARACTER_COLS), depth = SPACING * row;
        reach[i] = depth * (0.25f + row / (float)(CHARACTER_ROWS - 1u));
    }
    CHECKED(cloth_set_skin_targets(s->cloth, c->targets, 0));
    CHECKED(cloth_set_max_distances(s->cloth, reach, 0));

    /* to where the figure starts: on the circle about the origin, facing
     * along it (it turns to its left) */
    limb parts[CHARACTER_PARTS], spine;
    v3_set(c->root, -CIRCLE, pose_parts(c, parts, &spine), 0.0f);
    float q[4];
    heading_quat(c->heading, q);
    CHECKED(cloth_teleport(s->cloth, c->root, q));
    CHECKED(cloth_set_inertia(s->cloth, 0.5f, 0.5f));
    skin(c, &spine);
    s->cam_follow = 1;
    v3_set(s->follow_at, c->root[0], 0.0f, c->root[2]);
    s->follow_yaw = c->heading;
    return 0;
}

void character_describe(scene *s)
{
    render_scene *r = &s->draw;
    r->pattern = RENDER_STRIPES; /* one stripe, split between the two edges: a trim down each side */
    v3_set(r->cloth_a, 0.72f, 0.07f, 0.10f);
    v3_set(r->cloth_b, 0.93f, 0.74f, 0.30f);
    r->repeat[0] = r->repeat[1] = 1.0f;
    r->ground_tile = 1.0f;
    v3_set(r->ground_a, 0.60f, 0.63f, 0.56f);
    v3_set(r->ground_b, 0.48f, 0.52f, 0.46f);
    const float wood[3] = {0.80f, 0.66f, 0.48f}, gold[3] = {0.93f, 0.74f, 0.30f};
    s->character.first_shape = s->draw.shape_count;
    for (int k = 0; k < CHARACTER_PARTS; ++k) { /* placed by character_sync() */
        render_shape *sh = scene_add_shape(s, body[k].sphere ? RENDER_SPHERE : RENDER_TAPERED, wood);
        if (sh != NULL) {
            sh->radius = body[k].ra;
            sh->radius2 = body[k].rb;
            sh->collider = 1;
        }
    }
    /* The props that hold the cape on: a rolled collar over the pinned row
     * and a strap over each shoulder to a clasp on the chest. They are not
     * colliders, but they hide with the body they hold on to. */
    for (int k = 0; k < CHARACTER_PROPS; ++k) {
        const render_shape_kind kind = k < CHARACTER_PROPS - 2 ? RENDER_CAPSULE : RENDER_SPHERE;
        const float radius = k < COLLAR_PIECES ? 0.016f : (k < CHARACTER_PROPS - 2 ? 0.013f : 0.022f);
        render_shape *sh = scene_add_shape(s, kind, gold);
        if (sh != NULL) {
            sh->radius = radius;
            sh->collider = 1;
        }
    }
    /* the camera: behind the figure's right shoulder, outside the circle,
     * turning with it (cam_target and cam_yaw are relative to the figure) */
    v3_set(s->cam_target, 0.0f, 1.0f, 0.0f);
    s->cam_yaw = -2.0f;
    s->cam_pitch = 0.22f;
    s->cam_dist = 3.0f;
    /* a faint breeze: what moves the cape is mostly the air it runs through */
    s->wind = (scene_wind){{0.6f, 0.0f, 0.8f}, 0.4f, {0.4f, 0.2f},
                           {{2.1f, 1.7f, 0.2f, 0.0f}, {3.7f, 2.9f, 0.15f, 1.1f}, {5.3f, 4.1f, 0.1f, 2.3f},
                            {1.3f, 0.8f, 0.2f, 4.0f}}};
    character_sync(s);
}

/* --- motion ------------------------------------------------------------------------------ */

static float approach(float value, float target, float step)
{
    return fabsf(target - value) <= step ? target : value + (target > value ? step : -step);
}

void character_animate(scene *s, float dt)
{
    character_state *c = &s->character;
    c->gait = approach(c->gait, c->gait_target, dt);        /* a second from one gait to the next */
    c->turn = approach(c->turn, c->turn_target, dt / 0.8f); /* into or out of the circle in 0.8 s */
    const gait g = gait_at(c->gait);
    c->heading += c->turn * g.speed / CIRCLE * dt;
    c->root[0] += sinf(c->heading) * g.speed * dt;
    c->root[2] += cosf(c->heading) * g.speed * dt;
    c->phase = fmodf(c->phase + TWO_PI * g.cadence * dt, TWO_PI);
    if (c->heading > TWO_PI) { /* both by a whole turn: the camera's lag stays the same */
        c->heading -= TWO_PI;
        s->follow_yaw -= TWO_PI;
    }
    limb parts[CHARACTER_PARTS], spine;
    c->root[1] = pose_parts(c, parts, &spine);
    skin(c, &spine);

    /* where everything is at the end of this step */
    float q[4];
    heading_quat(c->heading, q);
    cloth_status st = cloth_set_skin_targets(s->cloth, c->targets, 0);
    if (st == CLOTH_OK) {
        st = cloth_set_frame(s->cloth, c->root, q);
    }
    for (int k = 0; k < CHARACTER_PARTS && st == CLOTH_OK; ++k) {
        float at[3], turn[4];
        to_world(c, parts[k].at, at);
        q_mul(turn, q, parts[k].q);
        st = cloth_set_collider_transform(s->cloth, c->parts[k], at, turn);
    }
    if (st != CLOTH_OK) {
        s->last = st;
    }

    /* The camera follows the figure's root at once but its heading with a
     * lag of about 0.5 s: the figure is seen to turn (round the circle at
     * a run the view is 0.56 rad further behind it than at rest), and after
     * a teleport the view swings round behind it instead of jumping. */
    v3_set(s->follow_at, c->root[0], 0.0f, c->root[2]);
    s->follow_yaw += (c->heading - s->follow_yaw) * (1.0f - expf(-dt / 0.5f));
}

void scene_teleport(scene *s)
{
    if (s->kind != SCENE_CHARACTER) {
        scene_note(s, "T teleports the character");
        return;
    }
    character_state *c = &s->character;
    const float to[3] = {c->root[0] + c->jump * TELEPORT, c->root[1], c->root[2]};
    const float heading = c->heading + 0.5f * VIEWER_PI;
    float q[4];
    heading_quat(heading, q);
    /* the cloth, its pins and skin targets and the body all move with the
     * frame at once: no stretch, no swing */
    const cloth_status st = cloth_teleport(s->cloth, to, q);
    if (st != CLOTH_OK) {
        char text[64];
        snprintf(text, sizeof text, "cloth_teleport: %s", cloth_status_string(st));
        scene_note(s, text);
        return;
    }
    memcpy(c->root, to, sizeof c->root);
    c->heading = heading;
    c->jump = -c->jump; /* the next one comes back */
    limb parts[CHARACTER_PARTS], spine;
    pose_parts(c, parts, &spine);
    skin(c, &spine);
    /* the camera comes along at once (it would otherwise look at 30 m of
     * empty ground), and swings round behind the turned figure */
    v3_set(s->follow_at, c->root[0], 0.0f, c->root[2]);
    character_sync(s);
    scene_note(s, "teleported 30 m, a quarter turn");
}

void scene_toggle_gait(scene *s)
{
    if (s->kind != SCENE_CHARACTER) {
        scene_note(s, "G makes the character walk or run");
        return;
    }
    character_state *c = &s->character;
    c->gait_target = c->gait_target > 0.5f ? 0.0f : 1.0f;
    scene_note(s, c->gait_target > 0.5f ? "running" : "walking");
}

void scene_toggle_turn(scene *s)
{
    if (s->kind != SCENE_CHARACTER) {
        scene_note(s, "U turns the character round a circle or sends it straight on");
        return;
    }
    character_state *c = &s->character;
    c->turn_target = c->turn_target > 0.5f ? 0.0f : 1.0f;
    scene_note(s, c->turn_target > 0.5f ? "round the circle" : "straight on");
}

void character_schedule(scene *s)
{
    if (!(s->schedule & 1u) && s->time >= 1.0) {
        s->schedule |= 1u;
        scene_toggle_gait(s); /* walking to running */
    }
    if (!(s->schedule & 2u) && s->time >= 2.5) {
        s->schedule |= 2u;
        scene_teleport(s);
    }
    if (!(s->schedule & 4u) && s->time >= 6.0) {
        s->schedule |= 4u;
        scene_toggle_gait(s); /* back to a walk: the cape settles */
    }
}

/* --- drawing ----------------------------------------------------------------------------- */

void character_sync(scene *s)
{
    character_state *c = &s->character;
    if (c->first_shape + (uint32_t)(CHARACTER_PARTS + CHARACTER_PROPS) > s->draw.shape_count) {
        return; /* the shapes did not fit */
    }
    render_shape *sh = &s->draw.shapes[c->first_shape];
    /* the body where the library has its colliders: drawn as it collides */
    for (int k = 0; k < CHARACTER_PARTS; ++k, ++sh) {
        float q[4], d[3];
        if (cloth_get_collider_transform(s->cloth, c->parts[k], sh->a, q) != CLOTH_OK) {
            sh->radius = 0.0f; /* hidden */
            continue;
        }
        v3_sub(d, body[k].b, body[k].a);
        q_rotate(d, q, d);
        v3_set(sh->b, sh->a[0] + d[0], sh->a[1] + d[1], sh->a[2] + d[2]);
    }
    /* the collar along the pinned row, where its skin targets put it, in
     * pieces that follow its curve */
    const uint32_t step = (CHARACTER_COLS - 1u) / COLLAR_PIECES;
    for (uint32_t k = 0; k < COLLAR_PIECES; ++k, ++sh) {
        memcpy(sh->a, c->targets + 3u * (k * step), sizeof sh->a);
        memcpy(sh->b, c->targets + 3u * (k + 1u == COLLAR_PIECES ? CHARACTER_COLS - 1u : (k + 1u) * step),
               sizeof sh->b);
    }
    /* each side's strap from the collar (the pinned particle 20 cm out)
     * over the shoulder, clear of it, to a clasp on the chest; the clasps
     * come after both straps */
    limb parts[CHARACTER_PARTS], spine;
    pose_parts(c, parts, &spine);
    const uint32_t collar_at[2] = {CHARACTER_COLS - 3u, 2u}; /* x = +0.2 and -0.2 */
    for (int k = 0; k < 2; ++k) {
        const float x = k == 0 ? 0.2f : -0.2f;
        const float way[STRAP_PIECES][3] = {{x, 1.49f, -0.02f}, {0.95f * x, 1.44f, 0.09f}, {0.75f * x, 1.36f, 0.13f}};
        render_shape *strap = sh + STRAP_PIECES * k, *clasp = sh + 2 * STRAP_PIECES + k;
        memcpy(strap[0].a, c->targets + 3u * collar_at[k], sizeof strap[0].a);
        for (int p = 0; p < STRAP_PIECES; ++p) {
            if (p > 0) {
                memcpy(strap[p].a, strap[p - 1].b, sizeof strap[p].a);
            }
            upper_to_world(c, &spine, way[p], strap[p].b);
        }
        memcpy(clasp->a, strap[STRAP_PIECES - 1].b, sizeof clasp->a);
    }
}
