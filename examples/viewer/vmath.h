/*
 * The little vector and matrix algebra the viewer needs. Matrices are 4 x 4,
 * column-major (m[col * 4 + row]) as OpenGL takes them.
 */
#ifndef VIEWER_VMATH_H
#define VIEWER_VMATH_H

#include <math.h>
#include <string.h>

#define VIEWER_PI 3.14159265358979f

static inline void v3_set(float out[3], float x, float y, float z)
{
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static inline void v3_sub(float out[3], const float a[3], const float b[3])
{
    v3_set(out, a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

static inline float v3_dot(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void v3_cross(float out[3], const float a[3], const float b[3])
{
    float c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    memcpy(out, c, sizeof c);
}

static inline float v3_len(const float a[3])
{
    return sqrtf(v3_dot(a, a));
}

static inline void v3_normalize(float a[3])
{
    float l = v3_len(a);
    if (l > 0.0f) {
        v3_set(a, a[0] / l, a[1] / l, a[2] / l);
    }
}

static inline void m4_identity(float m[16])
{
    memset(m, 0, 16 * sizeof(float));
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

/* out = a b (out may alias either) */
static inline void m4_mul(float out[16], const float a[16], const float b[16])
{
    float r[16];
    for (int c = 0; c < 4; ++c) {
        for (int row = 0; row < 4; ++row) {
            float s = 0.0f;
            for (int k = 0; k < 4; ++k) {
                s += a[k * 4 + row] * b[c * 4 + k];
            }
            r[c * 4 + row] = s;
        }
    }
    memcpy(out, r, sizeof r);
}

static inline void m4_perspective(float m[16], float fovy, float aspect, float near_z, float far_z)
{
    const float f = 1.0f / tanf(0.5f * fovy);
    memset(m, 0, 16 * sizeof(float));
    m[0] = f / aspect;
    m[5] = f;
    m[10] = (far_z + near_z) / (near_z - far_z);
    m[11] = -1.0f;
    m[14] = 2.0f * far_z * near_z / (near_z - far_z);
}

static inline void m4_look_at(float m[16], const float eye[3], const float target[3], const float up[3])
{
    float f[3], s[3], u[3];
    v3_sub(f, target, eye);
    v3_normalize(f);
    v3_cross(s, f, up);
    v3_normalize(s);
    v3_cross(u, s, f);
    m4_identity(m);
    m[0] = s[0];
    m[4] = s[1];
    m[8] = s[2];
    m[1] = u[0];
    m[5] = u[1];
    m[9] = u[2];
    m[2] = -f[0];
    m[6] = -f[1];
    m[10] = -f[2];
    m[12] = -v3_dot(s, eye);
    m[13] = -v3_dot(u, eye);
    m[14] = v3_dot(f, eye);
}

/* A model matrix whose columns are the images of x, y, z and the origin. */
static inline void m4_from_basis(float m[16], const float x[3], const float y[3], const float z[3],
                                 const float origin[3])
{
    m4_identity(m);
    memcpy(m, x, 3 * sizeof(float));
    memcpy(m + 4, y, 3 * sizeof(float));
    memcpy(m + 8, z, 3 * sizeof(float));
    memcpy(m + 12, origin, 3 * sizeof(float));
}

/* The normal matrix (inverse transpose of the upper 3 x 3) of a model matrix;
 * identity if it is singular. */
static inline void m4_normal_matrix(float out[9], const float m[16])
{
    const float a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
    const float A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    const float det = a * A + b * B + c * C;
    if (fabsf(det) < 1e-12f) {
        memset(out, 0, 9 * sizeof(float));
        out[0] = out[4] = out[8] = 1.0f;
        return;
    }
    const float inv = 1.0f / det;
    /* inverse transpose = cofactor matrix / det; out[col * 3 + row] */
    out[0] = A * inv;
    out[1] = -(b * i - c * h) * inv;
    out[2] = (b * f - c * e) * inv;
    out[3] = B * inv;
    out[4] = (a * i - c * g) * inv;
    out[5] = -(a * f - c * d) * inv;
    out[6] = C * inv;
    out[7] = -(a * h - b * g) * inv;
    out[8] = (a * e - b * d) * inv;
}

/* Quaternions are (x, y, z, w), as clothsim takes them. */
static inline void q_axis_angle(float q[4], const float axis[3], float angle)
{
    const float s = sinf(0.5f * angle);
    q[0] = axis[0] * s;
    q[1] = axis[1] * s;
    q[2] = axis[2] * s;
    q[3] = cosf(0.5f * angle);
}

/* out = a b: b's turn first, then a's (out may alias either) */
static inline void q_mul(float out[4], const float a[4], const float b[4])
{
    const float r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(out, r, sizeof r);
}

/* out = q v q* (out may alias v) */
static inline void q_rotate(float out[3], const float q[4], const float v[3])
{
    /* v + 2 w (u x v) + 2 u x (u x v), u the vector part */
    float t[3], u2[3];
    v3_cross(t, q, v);
    v3_set(t, 2.0f * t[0], 2.0f * t[1], 2.0f * t[2]);
    v3_cross(u2, q, t);
    v3_set(out, v[0] + q[3] * t[0] + u2[0], v[1] + q[3] * t[1] + u2[1], v[2] + q[3] * t[2] + u2[2]);
}

#endif /* VIEWER_VMATH_H */
