/*
 * The OpenGL 2.1 functions the viewer draws with, as a table of pointers.
 *
 * Why a table instead of linking libGL: the window (GLFW, through GLX or EGL)
 * and the headless path (OSMesa) each come with their own GL implementation.
 * Linking both libGL and libOSMesa would leave the dynamic linker to pick
 * whose glDrawElements a call lands in. Loading every entry point through the
 * context's own GetProcAddress makes the drawing code the same for both and
 * always talk to the context that is current.
 */
#ifndef VIEWER_GL_API_H
#define VIEWER_GL_API_H

#include <GL/gl.h>
#include <GL/glext.h>

/* return type, name without the gl prefix, parameter list */
#define VIEWER_GL_FUNCTIONS(X)                                                                      \
    X(void, Clear, (GLbitfield mask))                                                               \
    X(void, ClearColor, (GLfloat r, GLfloat g, GLfloat b, GLfloat a))                               \
    X(void, ClearStencil, (GLint s))                                                                \
    X(void, Viewport, (GLint x, GLint y, GLsizei w, GLsizei h))                                     \
    X(void, Enable, (GLenum cap))                                                                   \
    X(void, Disable, (GLenum cap))                                                                  \
    X(void, BlendFunc, (GLenum sfactor, GLenum dfactor))                                            \
    X(void, DepthFunc, (GLenum func))                                                               \
    X(void, DepthMask, (GLboolean flag))                                                            \
    X(void, StencilFunc, (GLenum func, GLint ref, GLuint mask))                                     \
    X(void, StencilOp, (GLenum fail, GLenum zfail, GLenum zpass))                                   \
    X(void, PolygonOffset, (GLfloat factor, GLfloat units))                                         \
    X(void, PixelStorei, (GLenum pname, GLint param))                                               \
    X(void, ReadPixels, (GLint x, GLint y, GLsizei w, GLsizei h, GLenum format, GLenum type, void *data)) \
    X(void, Finish, (void))                                                                         \
    X(GLenum, GetError, (void))                                                                     \
    X(void, GetIntegerv, (GLenum pname, GLint *data))                                               \
    X(const GLubyte *, GetString, (GLenum name))                                                    \
    X(void, DrawElements, (GLenum mode, GLsizei count, GLenum type, const void *indices))           \
    X(void, DrawArrays, (GLenum mode, GLint first, GLsizei count))                                  \
    X(void, GenBuffers, (GLsizei n, GLuint *buffers))                                               \
    X(void, DeleteBuffers, (GLsizei n, const GLuint *buffers))                                      \
    X(void, BindBuffer, (GLenum target, GLuint buffer))                                             \
    X(void, BufferData, (GLenum target, GLsizeiptr size, const void *data, GLenum usage))           \
    X(void *, MapBuffer, (GLenum target, GLenum access))                                            \
    X(GLboolean, UnmapBuffer, (GLenum target))                                                      \
    X(GLuint, CreateShader, (GLenum type))                                                          \
    X(void, ShaderSource, (GLuint shader, GLsizei count, const GLchar *const *string, const GLint *length)) \
    X(void, CompileShader, (GLuint shader))                                                         \
    X(void, GetShaderiv, (GLuint shader, GLenum pname, GLint *params))                              \
    X(void, GetShaderInfoLog, (GLuint shader, GLsizei size, GLsizei *length, GLchar *log))          \
    X(void, DeleteShader, (GLuint shader))                                                          \
    X(GLuint, CreateProgram, (void))                                                                \
    X(void, AttachShader, (GLuint program, GLuint shader))                                          \
    X(void, BindAttribLocation, (GLuint program, GLuint index, const GLchar *name))                 \
    X(void, LinkProgram, (GLuint program))                                                          \
    X(void, GetProgramiv, (GLuint program, GLenum pname, GLint *params))                            \
    X(void, GetProgramInfoLog, (GLuint program, GLsizei size, GLsizei *length, GLchar *log))        \
    X(void, UseProgram, (GLuint program))                                                           \
    X(void, DeleteProgram, (GLuint program))                                                        \
    X(GLint, GetUniformLocation, (GLuint program, const GLchar *name))                              \
    X(void, Uniform1i, (GLint location, GLint v0))                                                  \
    X(void, Uniform1f, (GLint location, GLfloat v0))                                                \
    X(void, Uniform2f, (GLint location, GLfloat v0, GLfloat v1))                                    \
    X(void, Uniform3fv, (GLint location, GLsizei count, const GLfloat *value))                      \
    X(void, Uniform4fv, (GLint location, GLsizei count, const GLfloat *value))                      \
    X(void, UniformMatrix3fv, (GLint location, GLsizei count, GLboolean transpose, const GLfloat *value)) \
    X(void, UniformMatrix4fv, (GLint location, GLsizei count, GLboolean transpose, const GLfloat *value)) \
    X(void, EnableVertexAttribArray, (GLuint index))                                                \
    X(void, DisableVertexAttribArray, (GLuint index))                                               \
    X(void, VertexAttribPointer, (GLuint index, GLint size, GLenum type, GLboolean normalized, GLsizei stride, const void *pointer)) \
    X(void, VertexAttrib2f, (GLuint index, GLfloat x, GLfloat y))

#define VIEWER_GL_MEMBER(ret, name, params) ret(GLAPIENTRY *name) params;
typedef struct viewer_gl {
    VIEWER_GL_FUNCTIONS(VIEWER_GL_MEMBER)
} viewer_gl;
#undef VIEWER_GL_MEMBER

/* The table every drawing call goes through: gl.DrawElements(...). */
extern viewer_gl gl;

/* A context's GetProcAddress, seen through one common type. */
typedef void (*viewer_glproc)(void);
typedef viewer_glproc (*viewer_getproc_fn)(const char *name);

/* Fill `gl` from the current context. Returns 0, or -1 after printing the
 * first entry point the context does not have. */
int viewer_gl_load(viewer_getproc_fn getproc);

#endif /* VIEWER_GL_API_H */
