/*
 * test_colliders_mesh: the convex hull and the triangle-mesh collider
 * (issue 26): refusals that change nothing, the push out of a hull and of
 * a closed and an open mesh checked against the box's own geometry, a
 * deforming mesh that carries the cloth, a moving hull and a moving mesh
 * swept through a hanging cloth, and a mesh box that behaves as the same
 * box given as planes.
 *
 * "Inside" is measured by this file's distance to the box (double), with
 * the 2e-6 m tolerance of test_colliders (a particle placed on the grown
 * surface in float at coordinates of order 1 m).
 */
#include <clothsim/clothsim.h>

#include "test_box_mesh.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT (1.0f / 60.0f)
#define INSIDE_TOL 2e-6

/* Signed distance to an axis-aligned box (negative inside). */
static double box_distance(const double c[3], const double h[3], const float *p)
{
    double out2 = 0.0, in = -HUGE_VAL;
    for (int k = 0; k < 3; ++k) {
        const double e = fabs((double)p[k] - c[k]) - h[k];
        out2 += e > 0.0 ? e * e : 0.0;
        in = fmax(in, e);
    }
    return in > 0.0 ? sqrt(out2) : in;
}

static void box_planes(const float c[3], const float h[3], float planes[24])
{
    memset(planes, 0, 24 * sizeof *planes);
    for (int k = 0; k < 6; ++k) {
        const int axis = k / 2;
        const float sign = k % 2 ? -1.0f : 1.0f;
        planes[4 * k + axis] = sign;
        planes[4 * k + 3] = -(sign * c[axis] + h[axis]);
    }
}

static cloth_t *sheet(uint32_t n, float spacing, float y)
{
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = d.cols = n;
    d.spacing = spacing;
    const float half = 0.5f * spacing * (float)(n - 1u);
    d.origin[0] = -half;
    d.origin[1] = y;
    d.origin[2] = -half;
    d.particle_mass = 0.01f;
    cloth_t *c = NULL;
    CHECK_OK(test_create_grid(&d, &c));
    return c;
}

/* A collider id the cloth never gave out: ids count up from 1 or 0, so one
 * past the last add's shows whether a refused add took a slot. */
static void test_refusals(void)
{
    cloth_t *c = sheet(4u, 0.1f, 0.0f);
    if (c == NULL) {
        return;
    }
    const float centre[3] = {0, 0, 0}, half[3] = {0.5f, 0.3f, 0.2f};
    float planes[24], bad[24];
    box_planes(centre, half, planes);
    cloth_collider_id id = 0, first = 0;
    CHECK_STATUS(cloth_add_convex(NULL, planes, 6u, &id), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_add_convex(c, NULL, 6u, &id), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_add_convex(c, planes, 6u, NULL), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_add_convex(c, planes, 3u, &id), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_add_convex(c, planes, 65u, &id), CLOTH_ERR_INVALID_ARGUMENT);
    memcpy(bad, planes, sizeof bad);
    bad[0] = 1.1f; /* not unit */
    CHECK_STATUS(cloth_add_convex(c, bad, 6u, &id), CLOTH_ERR_INVALID_ARGUMENT);
    memcpy(bad, planes, sizeof bad);
    bad[7] = NAN;
    CHECK_STATUS(cloth_add_convex(c, bad, 6u, &id), CLOTH_ERR_INVALID_ARGUMENT);
    /* an endless prism (the four planes across x and y) and an empty one
     * (x at least 1 and at most -1) */
    CHECK_STATUS(cloth_add_convex(c, planes, 4u, &id), CLOTH_ERR_INVALID_ARGUMENT);
    memcpy(bad, planes, sizeof bad);
    bad[3] = 1.0f;
    bad[7] = 1.0f;
    CHECK_STATUS(cloth_add_convex(c, bad, 6u, &id), CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_OK(cloth_add_convex(c, planes, 6u, &first));

    box_mesh m;
    CHECK(box_mesh_make(&m, 2u, centre, half));
    CHECK_STATUS(cloth_add_triangle_mesh(c, NULL, 0, m.vertex_count, m.indices, m.triangle_count, &id),
                 CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_add_triangle_mesh(c, m.vertices, 0, m.vertex_count, NULL, m.triangle_count, &id),
                 CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_add_triangle_mesh(c, m.vertices, 0, m.vertex_count, m.indices, 0u, &id),
                 CLOTH_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cloth_add_triangle_mesh(c, m.vertices, 6, m.vertex_count, m.indices, m.triangle_count, &id),
                 CLOTH_ERR_INVALID_ARGUMENT);
    m.indices[5] = m.vertex_count; /* out of range */
    CHECK_STATUS(cloth_add_triangle_mesh(c, m.vertices, 0, m.vertex_count, m.indices, m.triangle_count, &id),
                 CLOTH_ERR_INVALID_ARGUMENT);
    m.indices[5] = m.indices[4]; /* a repeated corner: no area */
    CHECK_STATUS(cloth_add_triangle_mesh(c, m.vertices, 0, m.vertex_count, m.indices, m.triangle_count, &id),
                 CLOTH_ERR_INVALID_ARGUMENT);
    box_mesh_free(&m);
    CHECK(box_mesh_make(&m, 2u, centre, half));
    m.vertices[4] = INFINITY;
    CHECK_STATUS(cloth_add_triangle_mesh(c, m.vertices, 0, m.vertex_count, m.indices, m.triangle_count, &id),
                 CLOTH_ERR_INVALID_ARGUMENT);
    box_mesh_free(&m);
    CHECK(box_mesh_make(&m, 2u, centre, half));
    cloth_collider_id mesh_id = 0;
    CHECK_OK(cloth_add_triangle_mesh(c, m.vertices, 0, m.vertex_count, m.indices, m.triangle_count, &mesh_id));
    /* nothing refused took an id */
    CHECK(mesh_id == first + 1u);

    /* deforming: bad input leaves the target as it was */
    float *moved = malloc(sizeof(float) * 3u * m.vertex_count), *back = malloc(sizeof(float) * 3u * m.vertex_count);
    if (moved != NULL && back != NULL) {
        for (uint32_t i = 0; i < 3u * m.vertex_count; ++i) {
            moved[i] = m.vertices[i] * 1.5f;
        }
        CHECK_STATUS(cloth_set_triangle_mesh_vertices(c, first, moved, 0), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(cloth_set_triangle_mesh_vertices(c, mesh_id + 7u, moved, 0), CLOTH_ERR_OUT_OF_RANGE);
        CHECK_STATUS(cloth_set_triangle_mesh_vertices(c, mesh_id, NULL, 0), CLOTH_ERR_INVALID_ARGUMENT);
        moved[0] = NAN;
        CHECK_STATUS(cloth_set_triangle_mesh_vertices(c, mesh_id, moved, 0), CLOTH_ERR_INVALID_ARGUMENT);
        moved[0] = m.vertices[0] * 1.5f;
        /* collapse one triangle onto a line: its three corners to one point */
        float keep[9];
        for (int k = 0; k < 3; ++k) {
            memcpy(keep + 3 * k, moved + 3u * m.indices[k], 3 * sizeof(float));
            memcpy(moved + 3u * m.indices[k], moved + 3u * m.indices[0], 3 * sizeof(float));
        }
        CHECK_STATUS(cloth_set_triangle_mesh_vertices(c, mesh_id, moved, 0), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_OK(cloth_get_triangle_mesh_vertices(c, mesh_id, back, 0));
        CHECK(memcmp(back, m.vertices, sizeof(float) * 3u * m.vertex_count) == 0);
        for (int k = 0; k < 3; ++k) {
            memcpy(moved + 3u * m.indices[k], keep + 3 * k, 3 * sizeof(float));
        }
        CHECK_OK(cloth_set_triangle_mesh_vertices(c, mesh_id, moved, 0));
        CHECK_OK(cloth_get_triangle_mesh_vertices(c, mesh_id, back, 0));
        CHECK(memcmp(back, moved, sizeof(float) * 3u * m.vertex_count) == 0);
        CHECK_STATUS(cloth_get_triangle_mesh_vertices(c, first, back, 0), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_OK(cloth_remove_collider(c, mesh_id));
        CHECK_STATUS(cloth_get_triangle_mesh_vertices(c, mesh_id, back, 0), CLOTH_ERR_OUT_OF_RANGE);
    }
    free(moved);
    free(back);
    box_mesh_free(&m);
    cloth_destroy(c);
}

/* A small sheet put 2 cm deep under the top face of a box (as planes, as a
 * closed mesh) with no gravity comes out on the top face grown by the
 * thickness after one step, straight up: the nearest way out. Under a side
 * face it comes out of that side. */
static void test_push_out(void)
{
    const float centre[3] = {0.1f, 0.2f, -0.1f}, half[3] = {0.4f, 0.3f, 0.35f};
    const double cd[3] = {0.1, 0.2, -0.1}, hd[3] = {0.4, 0.3, 0.35};
    const float thickness = 0.01f;
    for (int as_mesh = 0; as_mesh < 2; ++as_mesh) {
        for (int side = 0; side < 2; ++side) {
            cloth_t *c = sheet(3u, 0.02f, 0.0f);
            if (c == NULL) {
                continue;
            }
            const float zero[3] = {0, 0, 0};
            CHECK_OK(cloth_set_gravity(c, zero));
            float pos[27], after[27];
            CHECK_OK(cloth_get_positions(c, pos, 0));
            for (int i = 0; i < 9; ++i) {
                if (side == 0) {
                    pos[3 * i] += centre[0];
                    pos[3 * i + 1] = centre[1] + half[1] - 0.02f;
                    pos[3 * i + 2] += centre[2];
                } else {
                    /* the same sheet turned upright, 2 cm inside the +x face */
                    const float y = pos[3 * i], z = pos[3 * i + 2];
                    pos[3 * i] = centre[0] + half[0] - 0.02f;
                    pos[3 * i + 1] = centre[1] + y;
                    pos[3 * i + 2] = centre[2] + z;
                }
            }
            CHECK_OK(cloth_set_positions(c, pos, 0));
            cloth_collider_id id = 0;
            box_mesh m;
            if (as_mesh) {
                CHECK(box_mesh_make(&m, 5u, centre, half));
                CHECK_OK(cloth_add_triangle_mesh(c, m.vertices, 0, m.vertex_count, m.indices, m.triangle_count, &id));
                box_mesh_free(&m);
            } else {
                float planes[24];
                box_planes(centre, half, planes);
                CHECK_OK(cloth_add_convex(c, planes, 6u, &id));
            }
            CHECK_OK(cloth_set_collider_thickness(c, id, thickness));
            CHECK_OK(cloth_step(c, DT));
            CHECK_OK(cloth_get_positions(c, after, 0));
            double worst = 0.0, off = 0.0;
            const int axis = side == 0 ? 1 : 0;
            for (int i = 0; i < 9; ++i) {
                worst = fmax(worst, fabs(box_distance(cd, hd, after + 3 * i) - (double)thickness));
                for (int k = 0; k < 3; ++k) {
                    if (k != axis) {
                        off = fmax(off, fabs((double)after[3 * i + k] - (double)pos[3 * i + k]));
                    }
                }
            }
            printf("push out of a %s through its %s face: |distance - thickness| %.2e m, sideways %.2e m\n",
                   as_mesh ? "mesh box" : "convex box", side == 0 ? "top" : "+x", worst, off);
            CHECK(worst <= INSIDE_TOL);
            CHECK(off <= INSIDE_TOL);
            cloth_destroy(c);
        }
    }
}

/* An open mesh (one square of two triangles facing up, 2 m wide, tilted
 * 20 degrees about x) under a falling sheet: the sheet stays on the face
 * side, and one particle started 5 cm behind the face is put in front. */
static void test_open_mesh(void)
{
    const double tilt = 20.0 * 3.14159265358979323846 / 180.0, cs = cos(tilt), sn = sin(tilt);
    /* corners at y = z tan(tilt) about the origin: normal (0, cos, -sin) */
    float v[12];
    const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int k = 0; k < 4; ++k) {
        v[3 * k] = corners[k][0];
        v[3 * k + 1] = (float)((double)corners[k][1] * sn);
        v[3 * k + 2] = (float)((double)corners[k][1] * cs);
    }
    const uint32_t tris[6] = {0, 3, 2, 0, 2, 1}; /* counter-clockwise from above */
    const double n[3] = {0.0, cs, -sn};
    cloth_t *c = sheet(9u, 0.05f, 0.3f);
    if (c == NULL) {
        return;
    }
    float pos[81 * 3];
    CHECK_OK(cloth_get_positions(c, pos, 0));
    /* particle 0 starts 5 cm behind the slope */
    const double behind = -0.05;
    const double along = (double)pos[1] * n[1] + (double)pos[2] * n[2];
    pos[1] = (float)((double)pos[1] + (behind - along) * n[1]);
    pos[2] = (float)((double)pos[2] + (behind - along) * n[2]);
    CHECK_OK(cloth_set_positions(c, pos, 0));
    cloth_collider_id id = 0;
    CHECK_OK(cloth_add_triangle_mesh(c, v, 0, 4u, tris, 2u, &id));
    CHECK_OK(cloth_set_collider_friction(c, id, 1.0f)); /* tan 20 deg < 1: it stays */
    double worst = 0.0;
    for (int step = 0; step < 120; ++step) {
        CHECK_OK(cloth_step(c, DT));
        CHECK_OK(cloth_get_positions(c, pos, 0));
        for (int i = 0; i < 81; ++i) {
            const double h = (double)pos[3 * i] * n[0] + (double)pos[3 * i + 1] * n[1] + (double)pos[3 * i + 2] * n[2];
            worst = fmax(worst, -h);
        }
    }
    printf("open tilted mesh: deepest behind its face after any step %.2e m\n", worst);
    CHECK(worst <= INSIDE_TOL);
    cloth_destroy(c);
}

/* A mesh box that grows (its vertices scaled up about its base by 30 % over
 * a second) under a sheet lying on it lifts the sheet with its top, and no
 * particle is inside it after any step; so does a hull and a mesh swept
 * sideways at 3 m/s through a hanging sheet. */
static void test_moving(void)
{
    const float centre[3] = {0.0f, 0.2f, 0.0f}, half[3] = {0.3f, 0.2f, 0.3f};
    box_mesh m;
    if (!box_mesh_make(&m, 4u, centre, half)) {
        CHECK(0);
        return;
    }
    cloth_t *c = sheet(15u, 0.04f, 0.41f);
    float *grown = malloc(sizeof(float) * 3u * m.vertex_count);
    if (c != NULL && grown != NULL) {
        cloth_collider_id id = 0;
        CHECK_OK(cloth_add_triangle_mesh(c, m.vertices, 0, m.vertex_count, m.indices, m.triangle_count, &id));
        CHECK_OK(cloth_set_collider_thickness(c, id, 0.01f));
        float pos[225 * 3];
        double worst = 0.0;
        for (int f = 0; f < 90; ++f) {
            const double s = 1.0 + 0.3 * fmin(f, 60) / 60.0;
            const double hd[3] = {(double)half[0] * s, (double)half[1] * s, (double)half[2] * s};
            const double cd[3] = {0.0, (double)half[1] * s, 0.0};
            for (uint32_t i = 0; i < m.vertex_count; ++i) {
                grown[3 * i] = (float)((double)m.vertices[3 * i] * s);
                grown[3 * i + 1] = (float)((double)m.vertices[3 * i + 1] * s);
                grown[3 * i + 2] = (float)((double)m.vertices[3 * i + 2] * s);
            }
            CHECK_OK(cloth_set_triangle_mesh_vertices(c, id, grown, 0));
            CHECK_OK(cloth_step(c, DT));
            CHECK_OK(cloth_get_positions(c, pos, 0));
            for (int i = 0; i < 225; ++i) {
                worst = fmax(worst, 0.01 - box_distance(cd, hd, pos + 3 * i));
            }
        }
        const float *mid = pos + 3 * 112;
        printf("growing mesh box: deepest %.2e m; the middle at y %.4f (top + thickness %.4f)\n", worst, (double)mid[1],
               2.0 * 0.2 * 1.3 + 0.01);
        CHECK(worst <= 1e-5);
        CHECK_NEAR(mid[1], 2.0 * 0.2 * 1.3 + 0.01, 1e-3);
    }
    free(grown);
    cloth_destroy(c);

    for (int as_mesh = 0; as_mesh < 2; ++as_mesh) {
        cloth_t *h = sheet(15u, 0.04f, 0.0f);
        if (h == NULL) {
            continue;
        }
        /* hang the sheet upright from its first row */
        float pos[225 * 3];
        CHECK_OK(cloth_get_positions(h, pos, 0));
        for (int i = 0; i < 225; ++i) {
            pos[3 * i + 1] = 1.0f - (pos[3 * i + 2] + 0.28f);
            pos[3 * i + 2] = 0.0f;
        }
        CHECK_OK(cloth_set_positions(h, pos, 0));
        for (uint32_t i = 0; i < 15u; ++i) {
            CHECK_OK(cloth_pin(h, i, NULL));
        }
        const float at[3] = {0, 0, 0}, box_half[3] = {0.1f, 0.15f, 0.1f};
        cloth_collider_id id = 0;
        if (as_mesh) {
            box_mesh b;
            CHECK(box_mesh_make(&b, 3u, at, box_half));
            CHECK_OK(cloth_add_triangle_mesh(h, b.vertices, 0, b.vertex_count, b.indices, b.triangle_count, &id));
            box_mesh_free(&b);
        } else {
            float planes[24];
            box_planes(at, box_half, planes);
            CHECK_OK(cloth_add_convex(h, planes, 6u, &id));
        }
        CHECK_OK(cloth_set_collider_friction(h, id, 0.3f));
        double worst = 0.0;
        uint32_t touched = 0u;
        for (int f = 0; f < 60; ++f) {
            /* from 0.5 m in front through the sheet's plane to 0.5 m behind, at mid height */
            const float to[3] = {0.0f, 0.6f, -0.5f + (float)f / 60.0f * 3.0f * 0.5f};
            CHECK_OK(cloth_set_collider_transform(h, id, to, NULL));
            CHECK_OK(cloth_step(h, DT));
            CHECK_OK(cloth_get_positions(h, pos, 0));
            const double cd[3] = {0.0, 0.6, (double)to[2]}, hd[3] = {0.1, 0.15, 0.1};
            for (int i = 0; i < 225; ++i) {
                worst = fmax(worst, -box_distance(cd, hd, pos + 3 * i));
            }
            cloth_stats st;
            cloth_stats_init(&st);
            CHECK_OK(cloth_get_stats(h, &st));
            touched = st.contacts > touched ? st.contacts : touched;
        }
        printf("%s swept through a hanging sheet at 1.5 m/s: deepest %.2e m, %u contacts at most\n",
               as_mesh ? "mesh box" : "convex box", worst, touched);
        CHECK(worst <= 1e-5);
        CHECK(touched > 20u);
        cloth_destroy(h);
    }
    box_mesh_free(&m);
}

/* The same box as planes and as a closed mesh, frictionless, thickness 0:
 * their surfaces are the same, so a sheet dropped on either ends in the
 * same place (they differ in rounding only: the mesh's nearest point is
 * worked out on a triangle, the hull's along a plane). */
static void test_hull_matches_mesh(void)
{
    const float centre[3] = {0.0f, 0.0f, 0.0f}, half[3] = {0.5f, 0.25f, 0.5f};
    cloth_t *c[2] = {sheet(11u, 0.05f, 0.3f), sheet(11u, 0.05f, 0.3f)};
    if (c[0] != NULL && c[1] != NULL) {
        float planes[24];
        box_planes(centre, half, planes);
        cloth_collider_id id[2];
        CHECK_OK(cloth_add_convex(c[0], planes, 6u, &id[0]));
        box_mesh m;
        CHECK(box_mesh_make(&m, 6u, centre, half));
        CHECK_OK(cloth_add_triangle_mesh(c[1], m.vertices, 0, m.vertex_count, m.indices, m.triangle_count, &id[1]));
        box_mesh_free(&m);
        float pos[2][121 * 3];
        for (int f = 0; f < 60; ++f) {
            CHECK_OK(cloth_step(c[0], DT));
            CHECK_OK(cloth_step(c[1], DT));
        }
        CHECK_OK(cloth_get_positions(c[0], pos[0], 0));
        CHECK_OK(cloth_get_positions(c[1], pos[1], 0));
        double gap = 0.0;
        for (int i = 0; i < 121 * 3; ++i) {
            gap = fmax(gap, fabs((double)pos[0][i] - (double)pos[1][i]));
        }
        printf("sheet on a box as planes and as a mesh: largest difference %.2e m (middle at y %.5f and %.5f)\n", gap,
               (double)pos[0][3 * 60 + 1], (double)pos[1][3 * 60 + 1]);
        CHECK(gap <= 1e-5);
        CHECK_NEAR(pos[0][3 * 60 + 1], 0.25, 1e-5);
    }
    cloth_destroy(c[0]);
    cloth_destroy(c[1]);
}

/* cloth_set_collider_transforms() moves every collider it names as one
 * cloth_set_collider_transform() call each would; a refused call (one bad
 * quaternion, or one unknown id, among good ones) moves none. */
static void test_transforms_at_once(void)
{
    cloth_t *c[2] = {sheet(9u, 0.05f, 0.3f), sheet(9u, 0.05f, 0.3f)};
    if (c[0] != NULL && c[1] != NULL) {
        cloth_collider_id ids[2][3];
        const float centre[3] = {0, 0, 0}, half[3] = {0.1f, 0.1f, 0.1f}, a[3] = {0.2f, 0, 0}, b[3] = {0.4f, 0, 0};
        float planes[24];
        box_planes(centre, half, planes);
        for (int k = 0; k < 2; ++k) {
            CHECK_OK(cloth_add_convex(c[k], planes, 6u, &ids[k][0]));
            CHECK_OK(cloth_add_capsule(c[k], a, b, 0.05f, &ids[k][1]));
            CHECK_OK(cloth_add_sphere(c[k], centre, 0.08f, &ids[k][2]));
        }
        for (int f = 0; f < 40; ++f) {
            const float t = (float)f / 60.0f, s = sinf(t), co = cosf(t);
            const float pos[9] = {0.1f * s, 0.1f * t, 0, -0.2f, 0.1f, 0.1f * s, 0, 0.05f * t, -0.2f};
            const float rot[12] = {0, s * 0.1f, 0, sqrtf(1.0f - 0.01f * s * s), 0, 0, 0, 1, co * 0.0f, 0, 0, 1};
            for (uint32_t k = 0; k < 3u; ++k) {
                CHECK_OK(cloth_set_collider_transform(c[0], ids[0][k], pos + 3 * k, rot + 4 * k));
            }
            CHECK_OK(cloth_set_collider_transforms(c[1], ids[1], 3u, pos, rot));
            CHECK_OK(cloth_step(c[0], DT));
            CHECK_OK(cloth_step(c[1], DT));
        }
        CHECK(cloth_state_hash(c[0]) == cloth_state_hash(c[1]));
        /* refusals move nothing */
        float before[3][7], after[3][7];
        for (uint32_t k = 0; k < 3u; ++k) {
            CHECK_OK(cloth_get_collider_transform(c[1], ids[1][k], before[k], before[k] + 3));
        }
        const float far[9] = {5, 5, 5, 6, 6, 6, 7, 7, 7};
        const float bad_rot[12] = {0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1};
        const cloth_collider_id unknown[3] = {ids[1][0], ids[1][1], 999u};
        const float nan_pos[9] = {1, 1, 1, NAN, 0, 0, 2, 2, 2};
        CHECK_STATUS(cloth_set_collider_transforms(c[1], ids[1], 3u, far, bad_rot), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(cloth_set_collider_transforms(c[1], unknown, 3u, far, NULL), CLOTH_ERR_OUT_OF_RANGE);
        CHECK_STATUS(cloth_set_collider_transforms(c[1], ids[1], 3u, nan_pos, NULL), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(cloth_set_collider_transforms(c[1], NULL, 3u, far, NULL), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(cloth_set_collider_transforms(NULL, ids[1], 3u, far, NULL), CLOTH_ERR_INVALID_ARGUMENT);
        CHECK_OK(cloth_set_collider_transforms(c[1], NULL, 0u, NULL, NULL));
        for (uint32_t k = 0; k < 3u; ++k) {
            CHECK_OK(cloth_get_collider_transform(c[1], ids[1][k], after[k], after[k] + 3));
        }
        CHECK(memcmp(before, after, sizeof before) == 0);
        /* NULL rotations keep them, positions taken */
        CHECK_OK(cloth_set_collider_transforms(c[1], ids[1], 3u, far, NULL));
        for (uint32_t k = 0; k < 3u; ++k) {
            CHECK_OK(cloth_get_collider_transform(c[1], ids[1][k], after[k], after[k] + 3));
            CHECK(memcmp(after[k], far + 3 * k, 3 * sizeof(float)) == 0);
            CHECK(memcmp(after[k] + 3, before[k] + 3, 4 * sizeof(float)) == 0);
        }
        printf("transforms at once: the same bits as one call each over 40 steps; refusals moved nothing\n");
    }
    cloth_destroy(c[0]);
    cloth_destroy(c[1]);
}

int main(void)
{
    test_transforms_at_once();
    test_refusals();
    test_push_out();
    test_open_mesh();
    test_moving();
    test_hull_matches_mesh();
    return test_finish("test_colliders_mesh");
}
