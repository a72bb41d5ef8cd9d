/*
 * Loading the viewer's GL table (gl_api.h).
 */
#include "gl_api.h"

#include <stdio.h>

viewer_gl gl;

int viewer_gl_load(viewer_getproc_fn getproc)
{
    /* Casting between function pointer types is what GetProcAddress is for:
     * each pointer is called only through its own, correct type. */
#define VIEWER_GL_LOAD(ret, name, params)                                        \
    gl.name = (ret(GLAPIENTRY *) params)getproc("gl" #name);                     \
    if (gl.name == NULL) {                                                       \
        fprintf(stderr, "viewer: this OpenGL context lacks gl%s\n", #name);      \
        return -1;                                                               \
    }
    VIEWER_GL_FUNCTIONS(VIEWER_GL_LOAD)
#undef VIEWER_GL_LOAD
    return 0;
}
