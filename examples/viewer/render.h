/*
 * The viewer's drawing code, shared by the window (GLFW) and the headless
 * path (OSMesa): whatever context is current, render_draw() draws the same
 * picture into its framebuffer through the GL table of gl_api.h.
 *
 * The cloth goes from the library straight into vertex buffers: each frame
 * the vertex buffer is mapped and cloth_get_positions() / cloth_get_normals()
 * (or cloth_get_smooth()) write interleaved position + normal records (24
 * bytes) into it through their strides; the index buffer is written by
 * cloth_get_triangles() (or cloth_get_smooth()) whenever the topology changes.
 */
#ifndef VIEWER_RENDER_H
#define VIEWER_RENDER_H

#include <clothsim/clothsim.h>

#include "gl_api.h"

typedef enum render_shape_kind {
    RENDER_SPHERE,   /* a: centre; radius */
    RENDER_CYLINDER, /* a, b: centres of the end caps; radius */
    RENDER_CAPSULE,  /* a, b: the segment; radius */
    RENDER_TORUS,    /* a: centre; b: axis; radius: major radius (the tube is 0.2 of it) */
    RENDER_PANEL,    /* a: centre; b: normal; radius, radius2: half width and half height */
    RENDER_TAPERED   /* a, b: the balls' centres; radius at a, radius2 at b (cloth_add_tapered_capsule()) */
} render_shape_kind;

/* Something other than the cloth in the scene: a collider or a prop. */
typedef struct render_shape {
    render_shape_kind kind;
    float a[3], b[3];
    float radius, radius2;
    float color[3]; /* sRGB, 0..1 */
    int emissive;   /* drawn unlit (a window's sky) */
    int collider;   /* hidden while the colliders are hidden */
    int shadow;     /* casts a shadow onto the ground */
} render_shape;

/* How the cloth is coloured: per-vertex (u, v) across the grid, 0..1. */
typedef enum render_pattern {
    RENDER_GINGHAM, /* colours a (ground) and b (threads); checks `repeat` per side */
    RENDER_STRIPES, /* colour a with stripes of b along the rows, `repeat[0]` of them */
    RENDER_FLAG     /* field a, a diagonal band b, a disc c at the hoist */
} render_pattern;

#define RENDER_MAX_SHAPES 48

/* Everything render_draw() needs to know about the world. */
typedef struct render_scene {
    const cloth_t *cloth;
    uint32_t rows, cols;   /* the grid */
    uint32_t smooth_level; /* 0: the particles' own triangles; else cloth_get_smooth() at this level */
    render_pattern pattern;
    float cloth_a[3], cloth_b[3], cloth_c[3]; /* sRGB */
    float repeat[2];
    float ground_y, ground_tile;         /* the ground plane and its checker size, m */
    float ground_a[3], ground_b[3];      /* sRGB */
    float sky[3];                        /* background and fog, sRGB */
    float light_dir[3];                  /* toward the sun, unit */
    render_shape shapes[RENDER_MAX_SHAPES];
    uint32_t shape_count;
    int show_colliders;
} render_scene;

#define RENDER_HUD_LINES 3

typedef struct render_view {
    int width, height; /* framebuffer pixels */
    float eye[3], target[3];
    float fovy;        /* radians */
    float hud_scale;   /* framebuffer pixels per font pixel; 0 hides the text */
    const char *hud[RENDER_HUD_LINES]; /* NULL entries are skipped */
} render_view;

typedef struct render_mesh {
    uint32_t first, count; /* in the shapes' index buffer */
} render_mesh;

typedef struct renderer {
    GLuint lit, hud;                      /* programs */
    GLint u_viewproj, u_model, u_nmat, u_mode, u_pattern, u_col_a, u_col_b, u_col_c, u_repeat, u_eye,
        u_light, u_sky, u_fog, u_shadow_alpha;
    GLint u_hud_size, u_hud_color;
    GLuint shape_vbo, shape_ibo;
    render_mesh sphere, cylinder, torus, quad;
    GLuint cone_vbo; /* a tapered capsule's cone, written for each one drawn */
    GLuint cloth_vbo, cloth_uv, cloth_ibo;
    uint32_t cloth_vertices, cloth_indices;
    uint32_t key_rows, key_cols, key_level; /* topology the index and uv buffers hold */
    int mapped_ok;                         /* glMapBuffer worked last time (else staging copies) */
    float *staging;                        /* used only when glMapBuffer fails */
    uint32_t *staging_idx;
    size_t staging_bytes, staging_idx_bytes;
    GLuint hud_vbo;
    float *hud_xy;
    size_t hud_cap;
    int stencil;
} renderer;

/* Compile the programs and build the static meshes in the current context.
 * Returns 0, or -1 after printing why. */
int render_init(renderer *r);

/* Free what render_init() made (the context must still be current). */
void render_free(renderer *r);

/* Draw one frame. Returns 0, or -1 if the library refused to fill the
 * buffers (printed). */
int render_draw(renderer *r, const render_scene *scene, const render_view *view);

/* Read the framebuffer back as packed RGB rows, top row first. */
void render_read_rgb(int width, int height, unsigned char *rgb);

#endif /* VIEWER_RENDER_H */
