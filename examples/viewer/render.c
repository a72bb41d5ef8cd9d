/*
 * The viewer's drawing code (render.h): OpenGL 2.1 with GLSL 1.20, which
 * every desktop driver and Mesa's OSMesa provide, so one path serves the
 * window and the headless renderer.
 *
 * A frame: sky colour; the ground (a filtered checker, fading into the sky),
 * marked in the stencil buffer and centred under the camera's target so a
 * scene that travels never runs off it; planar shadows of the cloth and the
 * shapes projected onto it along the sun, blended once per pixel thanks to
 * the stencil; the shapes; the cloth, lit on both sides (the back a shade darker,
 * its normal flipped) with a wrapped diffuse term and a little sheen; then
 * the status lines in a built-in bitmap font.
 */
#include "render.h"

#include "font.h"
#include "vmath.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fragment shader modes. */
enum { MODE_SOLID = 0, MODE_CLOTH = 1, MODE_GROUND = 2, MODE_SHADOW = 3, MODE_EMISSIVE = 4 };

/* Interleaved vertex record of every vertex buffer: position, normal. */
#define VERTEX_FLOATS 6u
#define VERTEX_BYTES (VERTEX_FLOATS * sizeof(float))

static const char *lit_vs =
    "#version 120\n"
    "attribute vec3 a_pos;\n"
    "attribute vec3 a_nrm;\n"
    "attribute vec2 a_uv;\n"
    "uniform mat4 u_viewproj;\n"
    "uniform mat4 u_model;\n"
    "uniform mat3 u_nmat;\n"
    "varying vec3 v_world;\n"
    "varying vec3 v_nrm;\n"
    "varying vec2 v_uv;\n"
    "void main() {\n"
    "    vec4 w = u_model * vec4(a_pos, 1.0);\n"
    "    v_world = w.xyz;\n"
    "    v_nrm = u_nmat * a_nrm;\n"
    "    v_uv = a_uv;\n"
    "    gl_Position = u_viewproj * w;\n"
    "}\n";

static const char *lit_fs =
    "#version 120\n"
    "varying vec3 v_world;\n"
    "varying vec3 v_nrm;\n"
    "varying vec2 v_uv;\n"
    "uniform int u_mode;\n"
    "uniform int u_pattern;\n"
    "uniform vec3 u_col_a;\n"
    "uniform vec3 u_col_b;\n"
    "uniform vec3 u_col_c;\n"
    "uniform vec2 u_repeat;\n"
    "uniform vec3 u_eye;\n"
    "uniform vec3 u_light;\n"
    "uniform vec3 u_sky;\n"
    "uniform vec2 u_fog;\n"
    "uniform float u_shadow_alpha;\n"
    /* 1 inside a stripe of `width` (a fraction of the period) centred on
     * every integer of x, filtered over the pixel's footprint. */
    "float band(float x, float width) {\n"
    "    float d = abs(fract(x + 0.5) - 0.5);\n"
    "    float w = fwidth(x) + 1e-4;\n"
    "    return 1.0 - smoothstep(0.5 * width - w, 0.5 * width + w, d);\n"
    "}\n"
    "vec3 cloth_colour() {\n"
    "    vec2 uv = v_uv * u_repeat;\n"
    "    if (u_pattern == 0) {\n"
    /* gingham: coloured threads cross white ones; where two coloured
     * stripes cross the colour is full, where one crosses white it is half */
    "        float s = 0.5 * (band(uv.x, 0.5) + band(uv.y, 0.5));\n"
    "        return mix(u_col_a, u_col_b, s);\n"
    "    } else if (u_pattern == 1) {\n"
    "        return mix(u_col_a, u_col_b, band(uv.x, 0.1));\n"
    "    }\n"
    /* flag: (u, v) = (0, 0) at the top of the hoist */
    "    vec3 c = u_col_a;\n"
    "    float diag = abs(v_uv.x - (1.0 - v_uv.y)) * 0.7071;\n"
    "    float wd = fwidth(diag) + 1e-4;\n"
    "    c = mix(c, u_col_b, 1.0 - smoothstep(0.10 - wd, 0.10 + wd, diag));\n"
    "    vec2 q = (v_uv - vec2(0.2, 0.3)) * vec2(1.53, 1.0);\n"
    "    float r = length(q);\n"
    "    float wr = fwidth(r) + 1e-4;\n"
    "    c = mix(c, u_col_c, 1.0 - smoothstep(0.15 - wr, 0.15 + wr, r));\n"
    "    return c;\n"
    "}\n"
    /* box-filtered checker (after I. Quilez), tile 1 */
    "float checker(vec2 p) {\n"
    "    vec2 w = fwidth(p) + 1e-4;\n"
    "    vec2 i = 2.0 * (abs(fract((p - 0.5 * w) * 0.5) - 0.5) - abs(fract((p + 0.5 * w) * 0.5) - 0.5)) / w;\n"
    "    return 0.5 - 0.5 * i.x * i.y;\n"
    "}\n"
    "void main() {\n"
    "    if (u_mode == 3) { gl_FragColor = vec4(0.0, 0.0, 0.0, u_shadow_alpha); return; }\n"
    "    vec3 base;\n"
    "    if (u_mode == 1) base = cloth_colour();\n"
    "    else if (u_mode == 2) base = mix(u_col_a, u_col_b, checker(v_world.xz / u_repeat.x));\n"
    "    else base = u_col_a;\n"
    "    vec3 colour = base;\n"
    "    if (u_mode != 4) {\n"
    "        vec3 n = normalize(v_nrm);\n"
    "        vec3 view = normalize(u_eye - v_world);\n"
    "        bool cloth = u_mode == 1;\n"
    /* two-sided: the back of the cloth faces the other way and is a shade darker */
    "        if (cloth && !gl_FrontFacing) { n = -n; base *= 0.72; }\n"
    "        float ndl = dot(n, u_light);\n"
    /* wrapped diffuse: light bleeds past the terminator as it does through fabric */
    "        float diff = cloth ? clamp((ndl + 0.3) / 1.3, 0.0, 1.0) : max(ndl, 0.0);\n"
    "        vec3 ambient = mix(vec3(0.16, 0.14, 0.12), vec3(0.34, 0.38, 0.46), 0.5 + 0.5 * n.y);\n"
    "        vec3 fill_dir = normalize(vec3(-u_light.x, 0.35, -u_light.z));\n"
    "        vec3 fill = max(dot(n, fill_dir), 0.0) * vec3(0.10, 0.12, 0.16);\n"
    "        vec3 h = normalize(u_light + view);\n"
    "        float spec = cloth ? 0.05 * pow(max(dot(n, h), 0.0), 12.0)\n"
    "                           : 0.35 * pow(max(dot(n, h), 0.0), 60.0);\n"
    "        if (u_mode == 2) spec = 0.0;\n"
    "        float sheen = cloth ? 0.18 * pow(1.0 - abs(dot(n, view)), 3.0) : 0.0;\n"
    "        colour = base * (ambient + fill + diff * vec3(1.05, 1.0, 0.92)) + vec3(spec) + sheen * base;\n"
    "    }\n"
    "    float fog = clamp((length(v_world - u_eye) - u_fog.x) / (u_fog.y - u_fog.x), 0.0, 1.0);\n"
    "    colour = mix(colour, u_sky, fog);\n"
    "    gl_FragColor = vec4(pow(colour, vec3(1.0 / 2.2)), 1.0);\n"
    "}\n";

static const char *hud_vs =
    "#version 120\n"
    "attribute vec2 a_xy;\n"
    "uniform vec2 u_size;\n"
    "void main() {\n"
    "    gl_Position = vec4(a_xy.x / u_size.x * 2.0 - 1.0, 1.0 - a_xy.y / u_size.y * 2.0, 0.0, 1.0);\n"
    "}\n";

static const char *hud_fs =
    "#version 120\n"
    "uniform vec4 u_color;\n"
    "void main() { gl_FragColor = u_color; }\n";

static GLuint compile(GLenum type, const char *src)
{
    GLuint s = gl.CreateShader(type);
    gl.ShaderSource(s, 1, &src, NULL);
    gl.CompileShader(s);
    GLint ok = 0;
    gl.GetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        gl.GetShaderInfoLog(s, (GLsizei)sizeof log, NULL, log);
        fprintf(stderr, "viewer: shader does not compile:\n%s\n", log);
        gl.DeleteShader(s);
        return 0;
    }
    return s;
}

/* Attribute locations are fixed before linking so every mesh binds the same. */
static GLuint link_program(const char *vs, const char *fs, int hud)
{
    GLuint v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
    if (v == 0 || f == 0) {
        if (v != 0) {
            gl.DeleteShader(v);
        }
        if (f != 0) {
            gl.DeleteShader(f);
        }
        return 0;
    }
    GLuint p = gl.CreateProgram();
    gl.AttachShader(p, v);
    gl.AttachShader(p, f);
    if (hud) {
        gl.BindAttribLocation(p, 0, "a_xy");
    } else {
        gl.BindAttribLocation(p, 0, "a_pos");
        gl.BindAttribLocation(p, 1, "a_nrm");
        gl.BindAttribLocation(p, 2, "a_uv");
    }
    gl.LinkProgram(p);
    gl.DeleteShader(v); /* flagged; freed with the program */
    gl.DeleteShader(f);
    GLint ok = 0;
    gl.GetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048];
        gl.GetProgramInfoLog(p, (GLsizei)sizeof log, NULL, log);
        fprintf(stderr, "viewer: program does not link:\n%s\n", log);
        gl.DeleteProgram(p);
        return 0;
    }
    return p;
}

/* --- static meshes ------------------------------------------------------------ */

typedef struct mesh_builder {
    float *v;
    uint32_t *i;
    uint32_t nv, ni, cap_v, cap_i;
    int failed;
} mesh_builder;

static uint32_t mb_vertex(mesh_builder *b, float px, float py, float pz, float nx, float ny, float nz)
{
    if (b->nv == b->cap_v) {
        uint32_t cap = b->cap_v ? 2u * b->cap_v : 1024u;
        float *v = realloc(b->v, (size_t)cap * VERTEX_BYTES);
        if (v == NULL) {
            b->failed = 1;
            return 0;
        }
        b->v = v;
        b->cap_v = cap;
    }
    float *o = b->v + (size_t)b->nv * VERTEX_FLOATS;
    o[0] = px;
    o[1] = py;
    o[2] = pz;
    o[3] = nx;
    o[4] = ny;
    o[5] = nz;
    return b->nv++;
}

static void mb_triangle(mesh_builder *b, uint32_t a, uint32_t c, uint32_t d)
{
    if (b->ni + 3u > b->cap_i) {
        uint32_t cap = b->cap_i ? 2u * b->cap_i : 4096u;
        uint32_t *i = realloc(b->i, (size_t)cap * sizeof(uint32_t));
        if (i == NULL) {
            b->failed = 1;
            return;
        }
        b->i = i;
        b->cap_i = cap;
    }
    b->i[b->ni++] = a;
    b->i[b->ni++] = c;
    b->i[b->ni++] = d;
}

/* A (rows + 1) x (cols + 1) sheet of vertices from `f`, two triangles per
 * cell wound counter-clockwise seen from the side the normals face. */
typedef void (*surface_fn)(float s, float t, float p[3], float n[3]);

static render_mesh mb_sheet(mesh_builder *b, uint32_t rows, uint32_t cols, surface_fn f)
{
    render_mesh m = {b->ni, 0u};
    const uint32_t base = b->nv;
    for (uint32_t r = 0; r <= rows; ++r) {
        for (uint32_t c = 0; c <= cols; ++c) {
            float p[3], n[3];
            f((float)r / (float)rows, (float)c / (float)cols, p, n);
            mb_vertex(b, p[0], p[1], p[2], n[0], n[1], n[2]);
        }
    }
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < cols; ++c) {
            const uint32_t i00 = base + r * (cols + 1u) + c, i10 = i00 + cols + 1u;
            mb_triangle(b, i00, i00 + 1u, i10);
            mb_triangle(b, i00 + 1u, i10 + 1u, i10);
        }
    }
    m.count = b->ni - m.first;
    return m;
}

/* Unit sphere; s runs from the north pole down, t around. */
static void sphere_fn(float s, float t, float p[3], float n[3])
{
    const float th = s * VIEWER_PI, ph = t * 2.0f * VIEWER_PI;
    v3_set(n, sinf(th) * cosf(ph), cosf(th), sinf(th) * sinf(ph));
    memcpy(p, n, 3 * sizeof(float));
}

/* Side of the unit cylinder along +y from 0 (s = 1) to 1 (s = 0). */
static void tube_fn(float s, float t, float p[3], float n[3])
{
    const float ph = t * 2.0f * VIEWER_PI;
    v3_set(n, cosf(ph), 0.0f, sinf(ph));
    v3_set(p, n[0], 1.0f - s, n[2]);
}

/* Unit torus about +y, tube radius 0.2. */
static void torus_fn(float s, float t, float p[3], float n[3])
{
    const float u = t * 2.0f * VIEWER_PI, v = s * 2.0f * VIEWER_PI, minor = 0.2f;
    v3_set(n, cosf(v) * cosf(u), sinf(v), cosf(v) * sinf(u));
    v3_set(p, (1.0f + minor * cosf(v)) * cosf(u), minor * sinf(v), (1.0f + minor * cosf(v)) * sinf(u));
}

/* A flat disc cap of the unit cylinder at height y facing +y or -y. */
static void mb_cap(mesh_builder *b, float y, float ny, uint32_t segments)
{
    const uint32_t centre = mb_vertex(b, 0.0f, y, 0.0f, 0.0f, ny, 0.0f);
    const uint32_t first = b->nv;
    for (uint32_t k = 0; k <= segments; ++k) {
        const float ph = 2.0f * VIEWER_PI * (float)k / (float)segments;
        mb_vertex(b, cosf(ph), y, sinf(ph), 0.0f, ny, 0.0f);
    }
    for (uint32_t k = 0; k < segments; ++k) {
        if (ny > 0.0f) {
            mb_triangle(b, centre, first + k + 1u, first + k);
        } else {
            mb_triangle(b, centre, first + k, first + k + 1u);
        }
    }
}

static int build_shapes(renderer *r)
{
    mesh_builder b;
    memset(&b, 0, sizeof b);
    r->sphere = mb_sheet(&b, 24u, 48u, sphere_fn);
    r->cylinder = mb_sheet(&b, 1u, 48u, tube_fn);
    mb_cap(&b, 1.0f, 1.0f, 48u);
    mb_cap(&b, 0.0f, -1.0f, 48u);
    r->cylinder.count = b.ni - r->cylinder.first;
    r->torus = mb_sheet(&b, 12u, 32u, torus_fn);
    r->quad.first = b.ni;
    const uint32_t q = mb_vertex(&b, -1.0f, -1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
    mb_vertex(&b, 1.0f, -1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
    mb_vertex(&b, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
    mb_vertex(&b, -1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
    mb_triangle(&b, q, q + 1u, q + 2u);
    mb_triangle(&b, q, q + 2u, q + 3u);
    r->quad.count = 6u;
    if (b.failed) {
        free(b.v);
        free(b.i);
        fprintf(stderr, "viewer: out of memory\n");
        return -1;
    }
    gl.GenBuffers(1, &r->shape_vbo);
    gl.GenBuffers(1, &r->shape_ibo);
    gl.BindBuffer(GL_ARRAY_BUFFER, r->shape_vbo);
    gl.BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)b.nv * VERTEX_BYTES), b.v, GL_STATIC_DRAW);
    gl.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->shape_ibo);
    gl.BufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)b.ni * sizeof(uint32_t)), b.i, GL_STATIC_DRAW);
    free(b.v);
    free(b.i);
    return 0;
}

int render_init(renderer *r)
{
    memset(r, 0, sizeof *r);
    r->lit = link_program(lit_vs, lit_fs, 0);
    r->hud = link_program(hud_vs, hud_fs, 1);
    if (r->lit == 0 || r->hud == 0) {
        render_free(r);
        return -1;
    }
    r->u_viewproj = gl.GetUniformLocation(r->lit, "u_viewproj");
    r->u_model = gl.GetUniformLocation(r->lit, "u_model");
    r->u_nmat = gl.GetUniformLocation(r->lit, "u_nmat");
    r->u_mode = gl.GetUniformLocation(r->lit, "u_mode");
    r->u_pattern = gl.GetUniformLocation(r->lit, "u_pattern");
    r->u_col_a = gl.GetUniformLocation(r->lit, "u_col_a");
    r->u_col_b = gl.GetUniformLocation(r->lit, "u_col_b");
    r->u_col_c = gl.GetUniformLocation(r->lit, "u_col_c");
    r->u_repeat = gl.GetUniformLocation(r->lit, "u_repeat");
    r->u_eye = gl.GetUniformLocation(r->lit, "u_eye");
    r->u_light = gl.GetUniformLocation(r->lit, "u_light");
    r->u_sky = gl.GetUniformLocation(r->lit, "u_sky");
    r->u_fog = gl.GetUniformLocation(r->lit, "u_fog");
    r->u_shadow_alpha = gl.GetUniformLocation(r->lit, "u_shadow_alpha");
    r->u_hud_size = gl.GetUniformLocation(r->hud, "u_size");
    r->u_hud_color = gl.GetUniformLocation(r->hud, "u_color");
    if (build_shapes(r) != 0) {
        render_free(r);
        return -1;
    }
    gl.GenBuffers(1, &r->cone_vbo);
    gl.GenBuffers(1, &r->cloth_vbo);
    gl.GenBuffers(1, &r->cloth_uv);
    gl.GenBuffers(1, &r->cloth_ibo);
    gl.GenBuffers(1, &r->hud_vbo);
    r->hud_cap = 6u * 64u * 1024u;
    r->hud_xy = malloc(r->hud_cap * 2u * sizeof(float));
    if (r->hud_xy == NULL) {
        fprintf(stderr, "viewer: out of memory\n");
        render_free(r);
        return -1;
    }
    GLint stencil = 0;
    gl.GetIntegerv(GL_STENCIL_BITS, &stencil);
    r->stencil = stencil > 0;
    r->mapped_ok = 1;
    return 0;
}

void render_free(renderer *r)
{
    const GLuint buffers[] = {r->shape_vbo, r->shape_ibo, r->cone_vbo, r->cloth_vbo, r->cloth_uv, r->cloth_ibo,
                              r->hud_vbo};
    for (size_t k = 0; k < sizeof buffers / sizeof buffers[0]; ++k) {
        if (buffers[k] != 0) {
            gl.DeleteBuffers(1, &buffers[k]);
        }
    }
    if (r->lit != 0) {
        gl.DeleteProgram(r->lit);
    }
    if (r->hud != 0) {
        gl.DeleteProgram(r->hud);
    }
    free(r->staging);
    free(r->staging_idx);
    free(r->hud_xy);
    memset(r, 0, sizeof *r);
}

/* --- the cloth's buffers --------------------------------------------------------- */

/* Sizes of what is drawn: the particles' grid or the smooth surface. */
static int cloth_sizes(const render_scene *s, uint32_t *rows, uint32_t *cols, uint32_t *nv, uint32_t *nt)
{
    if (s->smooth_level > 0u) {
        cloth_status st = cloth_smooth_counts(s->cloth, s->smooth_level, nv, nt);
        if (st != CLOTH_OK) {
            fprintf(stderr, "viewer: cloth_smooth_counts: %s\n", cloth_status_string(st));
            return -1;
        }
        *rows = (s->rows - 1u) * s->smooth_level + 1u;
        *cols = (s->cols - 1u) * s->smooth_level + 1u;
        return 0;
    }
    *rows = s->rows;
    *cols = s->cols;
    *nv = cloth_particle_count(s->cloth);
    *nt = cloth_triangle_count(s->cloth);
    return 0;
}

/* Point `target`'s buffer at a fresh store of `bytes` and map it, setting
 * *mapped; without glMapBuffer, hand out a staging block to upload from
 * afterwards (and stop trying to map). NULL when out of memory. */
static void *map_or_stage(renderer *r, GLenum target, size_t bytes, GLenum usage, int index, int *mapped)
{
    gl.BufferData(target, (GLsizeiptr)bytes, NULL, usage); /* orphan: no wait on the last frame */
    void *p = r->mapped_ok ? gl.MapBuffer(target, GL_WRITE_ONLY) : NULL;
    *mapped = p != NULL;
    if (p != NULL) {
        return p;
    }
    r->mapped_ok = 0;
    void **block = index ? (void **)&r->staging_idx : (void **)&r->staging;
    size_t *cap = index ? &r->staging_idx_bytes : &r->staging_bytes;
    if (*cap < bytes) {
        void *grown = realloc(*block, bytes);
        if (grown == NULL) {
            return NULL;
        }
        *block = grown;
        *cap = bytes;
    }
    return *block;
}

static void unmap_or_upload(GLenum target, const void *staged, size_t bytes, GLenum usage, int mapped)
{
    if (mapped) {
        gl.UnmapBuffer(target); /* a lost store (GL_FALSE) is refilled next frame */
    } else if (staged != NULL) {
        gl.BufferData(target, (GLsizeiptr)bytes, staged, usage);
    }
}

static int update_cloth(renderer *r, const render_scene *s)
{
    uint32_t rows, cols, nv, nt;
    if (cloth_sizes(s, &rows, &cols, &nv, &nt) != 0) {
        return -1;
    }
    const int topology = r->key_rows != s->rows || r->key_cols != s->cols || r->key_level != s->smooth_level ||
                         r->cloth_vertices != nv;
    const size_t vbytes = (size_t)nv * VERTEX_BYTES, ibytes = (size_t)nt * 3u * sizeof(uint32_t);

    int v_mapped = 0, idx_mapped = 0;
    gl.BindBuffer(GL_ARRAY_BUFFER, r->cloth_vbo);
    float *v = map_or_stage(r, GL_ARRAY_BUFFER, vbytes, GL_STREAM_DRAW, 0, &v_mapped);
    uint32_t *idx = NULL;
    if (topology) {
        gl.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->cloth_ibo);
        idx = map_or_stage(r, GL_ELEMENT_ARRAY_BUFFER, ibytes, GL_STATIC_DRAW, 1, &idx_mapped);
    }
    if (v == NULL || (topology && idx == NULL)) {
        if (idx_mapped) {
            gl.UnmapBuffer(GL_ELEMENT_ARRAY_BUFFER);
        }
        if (v_mapped) {
            gl.BindBuffer(GL_ARRAY_BUFFER, r->cloth_vbo);
            gl.UnmapBuffer(GL_ARRAY_BUFFER);
        }
        fprintf(stderr, "viewer: out of memory\n");
        return -1;
    }
    /* Position at byte 0 and normal at byte 12 of each 24-byte record. */
    cloth_status st;
    if (s->smooth_level > 0u) {
        st = cloth_get_smooth(s->cloth, s->smooth_level, v, VERTEX_BYTES, v + 3, VERTEX_BYTES, idx);
    } else {
        st = cloth_get_positions(s->cloth, v, VERTEX_BYTES);
        if (st == CLOTH_OK) {
            st = cloth_get_normals(s->cloth, v + 3, VERTEX_BYTES);
        }
        if (st == CLOTH_OK && idx != NULL) {
            st = cloth_get_triangles(s->cloth, idx);
        }
    }
    if (topology) {
        unmap_or_upload(GL_ELEMENT_ARRAY_BUFFER, idx, ibytes, GL_STATIC_DRAW, idx_mapped);
    }
    gl.BindBuffer(GL_ARRAY_BUFFER, r->cloth_vbo);
    unmap_or_upload(GL_ARRAY_BUFFER, v, vbytes, GL_STREAM_DRAW, v_mapped);
    if (st != CLOTH_OK) {
        fprintf(stderr, "viewer: reading the cloth back: %s\n", cloth_status_string(st));
        return -1;
    }

    if (topology) {
        /* (u, v) across the cloth for its pattern: fixed for a topology */
        float *uv = malloc((size_t)nv * 2u * sizeof(float));
        if (uv == NULL) {
            fprintf(stderr, "viewer: out of memory\n");
            return -1;
        }
        for (uint32_t i = 0; i < rows; ++i) {
            for (uint32_t c = 0; c < cols; ++c) {
                uv[2u * (i * cols + c)] = (float)c / (float)(cols - 1u);
                uv[2u * (i * cols + c) + 1u] = (float)i / (float)(rows - 1u);
            }
        }
        gl.BindBuffer(GL_ARRAY_BUFFER, r->cloth_uv);
        gl.BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)nv * 2u * sizeof(float)), uv, GL_STATIC_DRAW);
        free(uv);
        r->key_rows = s->rows;
        r->key_cols = s->cols;
        r->key_level = s->smooth_level;
    }
    r->cloth_vertices = nv;
    r->cloth_indices = 3u * nt;
    return 0;
}

/* --- drawing ----------------------------------------------------------------------- */

/* Colours are given in sRGB and lit in linear light: convert once here
 * rather than per fragment (pow is dear in a software rasteriser). */
static void set_colour(GLint location, const float srgb[3])
{
    const float lin[3] = {powf(srgb[0], 2.2f), powf(srgb[1], 2.2f), powf(srgb[2], 2.2f)};
    gl.Uniform3fv(location, 1, lin);
}

static void set_model(const renderer *r, const float model[16])
{
    float n[9];
    m4_normal_matrix(n, model);
    gl.UniformMatrix4fv(r->u_model, 1, GL_FALSE, model);
    gl.UniformMatrix3fv(r->u_nmat, 1, GL_FALSE, n);
}

static void bind_mesh_buffer(GLuint vbo, GLuint ibo)
{
    gl.BindBuffer(GL_ARRAY_BUFFER, vbo);
    gl.VertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, (GLsizei)VERTEX_BYTES, (const void *)0);
    gl.VertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, (GLsizei)VERTEX_BYTES, (const void *)(3u * sizeof(float)));
    gl.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo);
}

static void draw_mesh(render_mesh m)
{
    gl.DrawElements(GL_TRIANGLES, (GLsizei)m.count, GL_UNSIGNED_INT,
                    (const void *)((size_t)m.first * sizeof(uint32_t)));
}

/* A frame whose y axis runs along `axis`, x and z across it, scaled. */
static void axis_frame(float m[16], const float origin[3], const float axis[3], float along, float across)
{
    float d[3] = {axis[0], axis[1], axis[2]}, x[3], z[3], y[3];
    v3_normalize(d);
    const float helper[3] = {fabsf(d[1]) < 0.9f ? 0.0f : 1.0f, fabsf(d[1]) < 0.9f ? 1.0f : 0.0f, 0.0f};
    v3_cross(x, d, helper);
    v3_normalize(x);
    v3_cross(z, x, d);
    v3_set(y, d[0] * along, d[1] * along, d[2] * along);
    v3_set(x, x[0] * across, x[1] * across, x[2] * across);
    v3_set(z, z[0] * across, z[1] * across, z[2] * across);
    m4_from_basis(m, x, y, z, origin);
}

#define CONE_SEGMENTS 32u

/* The cone of a tapered capsule, tangent to both balls, as a triangle strip
 * in the frame of axis_frame(a, b - a, 1, 1). Its rims are not at the balls'
 * centres: with sin(alpha) = (ra - rb) / length, the cone touches the ball
 * about a at height ra sin(alpha) and that about b at length + rb
 * sin(alpha), each at radius r cos(alpha), and its normal leans alpha
 * toward the thin end. No unit mesh scales to every pair of radii, so the
 * strip is written for each shape drawn (a few kilobytes). Returns 0 when
 * one ball holds the other and there is no cone. */
static int draw_cone(const renderer *r, float length, float ra, float rb)
{
    if (length <= fabsf(ra - rb)) {
        return 0;
    }
    const float sa = (ra - rb) / length, ca = sqrtf(1.0f - sa * sa);
    float v[2u * (CONE_SEGMENTS + 1u) * VERTEX_FLOATS];
    for (uint32_t k = 0; k <= CONE_SEGMENTS; ++k) {
        const float ph = 2.0f * VIEWER_PI * (float)k / (float)CONE_SEGMENTS, c = cosf(ph), s = sinf(ph);
        const float n[3] = {ca * c, sa, ca * s};
        float *o = v + 2u * k * VERTEX_FLOATS;
        const float rr[2] = {ra, rb}, base[2] = {0.0f, length};
        for (int e = 0; e < 2; ++e, o += VERTEX_FLOATS) {
            v3_set(o, rr[e] * n[0], base[e] + rr[e] * n[1], rr[e] * n[2]);
            memcpy(o + 3, n, sizeof n);
        }
    }
    gl.BindBuffer(GL_ARRAY_BUFFER, r->cone_vbo);
    gl.BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)sizeof v, v, GL_STREAM_DRAW);
    gl.VertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, (GLsizei)VERTEX_BYTES, (const void *)0);
    gl.VertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, (GLsizei)VERTEX_BYTES, (const void *)(3u * sizeof(float)));
    gl.DrawArrays(GL_TRIANGLE_STRIP, 0, (GLsizei)(2u * (CONE_SEGMENTS + 1u)));
    bind_mesh_buffer(r->shape_vbo, r->shape_ibo); /* the shapes' meshes again, for whatever comes next */
    return 1;
}

/* Draw one shape with `pre` applied after its own model matrix. */
static void draw_shape(const renderer *r, const render_shape *sh, const float pre[16])
{
    float m[16], full[16];
    switch (sh->kind) {
    case RENDER_SPHERE: {
        const float x[3] = {sh->radius, 0, 0}, y[3] = {0, sh->radius, 0}, z[3] = {0, 0, sh->radius};
        m4_from_basis(m, x, y, z, sh->a);
        m4_mul(full, pre, m);
        set_model(r, full);
        draw_mesh(r->sphere);
        break;
    }
    case RENDER_CYLINDER:
    case RENDER_CAPSULE: {
        float d[3];
        v3_sub(d, sh->b, sh->a);
        axis_frame(m, sh->a, d, v3_len(d), sh->radius);
        m4_mul(full, pre, m);
        set_model(r, full);
        draw_mesh(r->cylinder);
        if (sh->kind == RENDER_CAPSULE) {
            render_shape ball = *sh;
            ball.kind = RENDER_SPHERE;
            draw_shape(r, &ball, pre);
            memcpy(ball.a, sh->b, sizeof ball.a);
            draw_shape(r, &ball, pre);
        }
        break;
    }
    case RENDER_TAPERED: {
        float d[3];
        v3_sub(d, sh->b, sh->a);
        const float length = v3_len(d);
        if (length > 0.0f) {
            axis_frame(m, sh->a, d, 1.0f, 1.0f);
            m4_mul(full, pre, m);
            set_model(r, full);
            draw_cone(r, length, sh->radius, sh->radius2);
        }
        render_shape ball = *sh;
        ball.kind = RENDER_SPHERE;
        draw_shape(r, &ball, pre);
        memcpy(ball.a, sh->b, sizeof ball.a);
        ball.radius = sh->radius2;
        draw_shape(r, &ball, pre);
        break;
    }
    case RENDER_TORUS:
        axis_frame(m, sh->a, sh->b, sh->radius, sh->radius);
        m4_mul(full, pre, m);
        set_model(r, full);
        draw_mesh(r->torus);
        break;
    case RENDER_PANEL: {
        float n[3] = {sh->b[0], sh->b[1], sh->b[2]}, x[3], y[3];
        v3_normalize(n);
        const float up[3] = {0.0f, fabsf(n[1]) < 0.9f ? 1.0f : 0.0f, fabsf(n[1]) < 0.9f ? 0.0f : 1.0f};
        v3_cross(x, up, n);
        v3_normalize(x);
        v3_cross(y, n, x);
        v3_set(x, x[0] * sh->radius, x[1] * sh->radius, x[2] * sh->radius);
        v3_set(y, y[0] * sh->radius2, y[1] * sh->radius2, y[2] * sh->radius2);
        m4_from_basis(m, x, y, n, sh->a);
        m4_mul(full, pre, m);
        set_model(r, full);
        draw_mesh(r->quad);
        break;
    }
    }
}

static void draw_cloth(const renderer *r)
{
    gl.EnableVertexAttribArray(2);
    gl.BindBuffer(GL_ARRAY_BUFFER, r->cloth_uv);
    gl.VertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 0, (const void *)0);
    bind_mesh_buffer(r->cloth_vbo, r->cloth_ibo);
    gl.DrawElements(GL_TRIANGLES, (GLsizei)r->cloth_indices, GL_UNSIGNED_INT, (const void *)0);
    gl.DisableVertexAttribArray(2);
    gl.VertexAttrib2f(2, 0.0f, 0.0f);
}

static int shape_visible(const render_scene *s, const render_shape *sh)
{
    return sh->radius > 0.0f && (s->show_colliders || !sh->collider); /* radius 0: hidden */
}

static void draw_hud(renderer *r, const render_view *v)
{
    const float k = v->hud_scale, pad = 4.0f * k;
    float width = 0.0f;
    int lines = 0;
    for (int l = 0; l < RENDER_HUD_LINES; ++l) {
        if (v->hud[l] != NULL) {
            width = fmaxf(width, font_width(v->hud[l], k));
            ++lines;
        }
    }
    if (lines == 0) {
        return;
    }
    gl.UseProgram(r->hud);
    gl.Uniform2f(r->u_hud_size, (float)v->width, (float)v->height);
    gl.BindBuffer(GL_ARRAY_BUFFER, r->hud_vbo);
    gl.VertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (const void *)0);
    gl.DisableVertexAttribArray(1);

    /* a dark translucent band behind the text */
    const float x1 = width + 2.0f * pad, y1 = (float)(lines * FONT_LINE) * k + 2.0f * pad - 2.0f * k;
    const float band[12] = {0, 0, x1, 0, x1, y1, 0, 0, x1, y1, 0, y1};
    const float band_colour[4] = {0.05f, 0.06f, 0.08f, 0.55f};
    gl.BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)sizeof band, band, GL_STREAM_DRAW);
    gl.Uniform4fv(r->u_hud_color, 1, band_colour);
    gl.DrawArrays(GL_TRIANGLES, 0, 6);

    size_t n = 0;
    int line = 0;
    for (int l = 0; l < RENDER_HUD_LINES; ++l) {
        if (v->hud[l] != NULL) {
            n += font_build(v->hud[l], pad, pad + (float)(line++ * FONT_LINE) * k, k, r->hud_xy + 2u * n,
                            r->hud_cap - n);
        }
    }
    gl.BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n * 2u * sizeof(float)), r->hud_xy, GL_STREAM_DRAW);
    const float text_colour[4] = {0.95f, 0.95f, 0.92f, 1.0f};
    gl.Uniform4fv(r->u_hud_color, 1, text_colour);
    gl.DrawArrays(GL_TRIANGLES, 0, (GLsizei)n);
    gl.EnableVertexAttribArray(1);
}

int render_draw(renderer *r, const render_scene *s, const render_view *v)
{
    if (update_cloth(r, s) != 0) {
        return -1;
    }
    gl.Viewport(0, 0, v->width, v->height);
    gl.ClearColor(s->sky[0], s->sky[1], s->sky[2], 1.0f);
    gl.ClearStencil(0);
    gl.Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    gl.Enable(GL_DEPTH_TEST);
    gl.DepthFunc(GL_LEQUAL);
    gl.Disable(GL_CULL_FACE); /* the cloth is seen from both sides */
    gl.Enable(GL_MULTISAMPLE); /* a no-op without a multisampled framebuffer */

    float proj[16], view[16], vp[16], id[16];
    const float up[3] = {0.0f, 1.0f, 0.0f};
    m4_perspective(proj, v->fovy, (float)v->width / (float)v->height, 0.05f, 60.0f);
    m4_look_at(view, v->eye, v->target, up);
    m4_mul(vp, proj, view);
    m4_identity(id);

    gl.UseProgram(r->lit);
    gl.EnableVertexAttribArray(0);
    gl.EnableVertexAttribArray(1);
    gl.DisableVertexAttribArray(2);
    gl.VertexAttrib2f(2, 0.0f, 0.0f);
    gl.UniformMatrix4fv(r->u_viewproj, 1, GL_FALSE, vp);
    gl.Uniform3fv(r->u_eye, 1, v->eye);
    gl.Uniform3fv(r->u_light, 1, s->light_dir);
    set_colour(r->u_sky, s->sky);
    gl.Uniform2f(r->u_fog, 6.0f, 26.0f);
    gl.Uniform1f(r->u_shadow_alpha, 0.38f);

    /* the ground, marked 1 in the stencil where it is visible */
    bind_mesh_buffer(r->shape_vbo, r->shape_ibo);
    render_shape ground;
    memset(&ground, 0, sizeof ground);
    ground.kind = RENDER_PANEL;
    v3_set(ground.a, v->target[0], s->ground_y, v->target[2]); /* the checker is in world space: it does not move */
    v3_set(ground.b, 0.0f, 1.0f, 0.0f);
    ground.radius = ground.radius2 = 40.0f;
    gl.Uniform1i(r->u_mode, MODE_GROUND);
    set_colour(r->u_col_a, s->ground_a);
    set_colour(r->u_col_b, s->ground_b);
    gl.Uniform2f(r->u_repeat, s->ground_tile, s->ground_tile);
    if (r->stencil) {
        gl.Enable(GL_STENCIL_TEST);
        gl.StencilFunc(GL_ALWAYS, 1, 0xFF);
        gl.StencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
    }
    draw_shape(r, &ground, id);

    /* planar shadows along the sun onto the ground: x' = x - l (y - g) / l_y */
    const float *l = s->light_dir;
    const float g = s->ground_y + 0.001f;
    float shadow[16];
    m4_identity(shadow);
    shadow[4] = -l[0] / l[1];
    shadow[5] = 0.0f;
    shadow[6] = -l[2] / l[1];
    shadow[12] = l[0] / l[1] * g;
    shadow[13] = g;
    shadow[14] = l[2] / l[1] * g;
    if (r->stencil) {
        /* each ground pixel darkened once: the first shadow clears its mark */
        gl.StencilFunc(GL_EQUAL, 1, 0xFF);
        gl.StencilOp(GL_KEEP, GL_KEEP, GL_ZERO);
    }
    gl.Enable(GL_BLEND);
    gl.BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    gl.DepthMask(GL_FALSE);
    gl.Uniform1i(r->u_mode, MODE_SHADOW);
    for (uint32_t k = 0; k < s->shape_count; ++k) {
        if (s->shapes[k].shadow && shape_visible(s, &s->shapes[k])) {
            draw_shape(r, &s->shapes[k], shadow);
        }
    }
    set_model(r, shadow);
    draw_cloth(r);
    gl.DepthMask(GL_TRUE);
    gl.Disable(GL_BLEND);
    if (r->stencil) {
        gl.Disable(GL_STENCIL_TEST);
    }

    /* the shapes */
    bind_mesh_buffer(r->shape_vbo, r->shape_ibo);
    for (uint32_t k = 0; k < s->shape_count; ++k) {
        const render_shape *sh = &s->shapes[k];
        if (!shape_visible(s, sh)) {
            continue;
        }
        gl.Uniform1i(r->u_mode, sh->emissive ? MODE_EMISSIVE : MODE_SOLID);
        set_colour(r->u_col_a, sh->color);
        draw_shape(r, sh, id);
    }

    /* the cloth */
    gl.Uniform1i(r->u_mode, MODE_CLOTH);
    gl.Uniform1i(r->u_pattern, (GLint)s->pattern);
    set_colour(r->u_col_a, s->cloth_a);
    set_colour(r->u_col_b, s->cloth_b);
    set_colour(r->u_col_c, s->cloth_c);
    gl.Uniform2f(r->u_repeat, s->repeat[0], s->repeat[1]);
    set_model(r, id);
    draw_cloth(r);

    if (v->hud_scale > 0.0f) {
        gl.Disable(GL_DEPTH_TEST);
        gl.Enable(GL_BLEND);
        gl.BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        draw_hud(r, v);
        gl.Disable(GL_BLEND);
    }
    GLenum err = gl.GetError();
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "viewer: OpenGL error 0x%04x\n", (unsigned)err);
    }
    return 0;
}

void render_read_rgb(int width, int height, unsigned char *rgb)
{
    gl.PixelStorei(GL_PACK_ALIGNMENT, 1);
    gl.ReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb);
    /* GL's rows run bottom-up; images top-down */
    const size_t row = (size_t)width * 3u;
    unsigned char tmp[4096 * 3];
    if (row > sizeof tmp) {
        for (int y = 0; y < height / 2; ++y) {
            unsigned char *a = rgb + (size_t)y * row, *b = rgb + (size_t)(height - 1 - y) * row;
            for (size_t k = 0; k < row; ++k) {
                unsigned char t = a[k];
                a[k] = b[k];
                b[k] = t;
            }
        }
        return;
    }
    for (int y = 0; y < height / 2; ++y) {
        unsigned char *a = rgb + (size_t)y * row, *b = rgb + (size_t)(height - 1 - y) * row;
        memcpy(tmp, a, row);
        memcpy(a, b, row);
        memcpy(b, tmp, row);
    }
}
