/*
 * The interactive viewer: a GLFW window with an OpenGL 2.1 context, the
 * same drawing code as the headless path, physics at a fixed 60 Hz step
 * whatever the display's rate, and an orbit camera on the mouse.
 */
#include "app.h"

#include "output.h"

#define GLFW_INCLUDE_NONE /* gl_api.h brings the GL declarations */
#include <GLFW/glfw3.h>

#include <stdio.h>
#include <stdlib.h>

typedef struct window_state {
    app *a;
    int dragging;
    double last_x, last_y;
    int screenshot; /* P pressed: save the next frame */
} window_state;

static viewer_glproc glfw_proc(const char *name)
{
    return (viewer_glproc)glfwGetProcAddress(name);
}

static void on_error(int code, const char *text)
{
    fprintf(stderr, "viewer: GLFW error %d: %s\n", code, text);
}

static void on_key(GLFWwindow *win, int key, int scancode, int action, int mods)
{
    (void)scancode;
    (void)mods;
    window_state *w = glfwGetWindowUserPointer(win);
    if (action != GLFW_PRESS && !(action == GLFW_REPEAT && (key == GLFW_KEY_EQUAL || key == GLFW_KEY_MINUS))) {
        return;
    }
    switch (key) {
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q:
        glfwSetWindowShouldClose(win, GLFW_TRUE);
        break;
    case GLFW_KEY_P:
        w->screenshot = 1;
        break;
    case GLFW_KEY_SPACE:
        app_key(w->a, ' ');
        break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD:
        app_key(w->a, '+');
        break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT:
        app_key(w->a, '-');
        break;
    case GLFW_KEY_V: /* back to the scene's own view */
        app_camera_reset(w->a);
        break;
    default:
        if ((key >= GLFW_KEY_1 && key <= GLFW_KEY_4) || (key >= GLFW_KEY_A && key <= GLFW_KEY_Z)) {
            app_key(w->a, key); /* GLFW's key codes for these are their ASCII characters */
        }
        break;
    }
}

static void on_button(GLFWwindow *win, int button, int action, int mods)
{
    (void)mods;
    window_state *w = glfwGetWindowUserPointer(win);
    if (button == GLFW_MOUSE_BUTTON_LEFT) {
        w->dragging = action == GLFW_PRESS;
        glfwGetCursorPos(win, &w->last_x, &w->last_y);
    }
}

static void on_cursor(GLFWwindow *win, double x, double y)
{
    window_state *w = glfwGetWindowUserPointer(win);
    if (w->dragging) {
        app *a = w->a;
        a->yaw -= (float)(x - w->last_x) * 0.008f;
        a->pitch += (float)(y - w->last_y) * 0.008f;
        a->pitch = a->pitch < -0.2f ? -0.2f : (a->pitch > 1.45f ? 1.45f : a->pitch);
    }
    w->last_x = x;
    w->last_y = y;
}

static void on_scroll(GLFWwindow *win, double dx, double dy)
{
    (void)dx;
    window_state *w = glfwGetWindowUserPointer(win);
    app *a = w->a;
    a->dist *= (float)(dy > 0.0 ? 0.9 : 1.0 / 0.9);
    a->dist = a->dist < 0.5f ? 0.5f : (a->dist > 20.0f ? 20.0f : a->dist);
}

/* Whole framebuffer pixels per font pixel, so the status line (about 95
 * characters of 6 font pixels) fits: 1 up to 1199 pixels wide, 2 to 1799... */
static float hud_scale(int width)
{
    const int k = width / 600;
    return (float)(k < 1 ? 1 : k);
}

/* Save the current framebuffer as a PNG (P), or as the final picture. */
static int save_frame(app *a, int width, int height, int final)
{
    unsigned char *rgb = malloc((size_t)width * (size_t)height * 3u);
    if (rgb == NULL) {
        fprintf(stderr, "viewer: out of memory\n");
        return -1;
    }
    render_read_rgb(width, height, rgb);
    int rc;
    if (final) {
        rc = app_write_final(a, rgb, width, height);
    } else {
        char path[600];
        snprintf(path, sizeof path, "%s/screenshot_%.0f.png", a->opt.out, a->sc.time * 1000.0);
        rc = output_mkdirs(a->opt.out) == 0 ? output_png(path, rgb, width, height, 6) : -1;
        if (rc == 0) {
            printf("viewer: screenshot %s\n", path);
        }
    }
    free(rgb);
    return rc;
}

int app_run_window(app *a)
{
    glfwSetErrorCallback(on_error);
    if (!glfwInit()) {
        return 2;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 2);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
    glfwWindowHint(GLFW_SAMPLES, 4);
    glfwWindowHint(GLFW_DEPTH_BITS, 24);
    glfwWindowHint(GLFW_STENCIL_BITS, 8);
    char title[96];
    snprintf(title, sizeof title, "clothsim viewer: %s", scene_name(a->sc.kind));
    GLFWwindow *win = glfwCreateWindow(a->opt.width, a->opt.height, title, NULL, NULL);
    if (win == NULL) {
        glfwTerminate();
        return 2;
    }
    glfwMakeContextCurrent(win);
    glfwSwapInterval(1);
    if (viewer_gl_load(glfw_proc) != 0 || render_init(&a->r) != 0) {
        glfwDestroyWindow(win);
        glfwTerminate();
        return 1;
    }
    window_state ws = {a, 0, 0.0, 0.0, 0};
    glfwSetWindowUserPointer(win, &ws);
    glfwSetKeyCallback(win, on_key);
    glfwSetMouseButtonCallback(win, on_button);
    glfwSetCursorPosCallback(win, on_cursor);
    glfwSetScrollCallback(win, on_scroll);
    printf("viewer: window (%s), the %s scene. Keys: 1-4 release a corner, W wind, I integrator, "
           "C colliders, S smooth (+/- level), O open the curtain, T teleport the character, G walk/run, "
           "U turn or go straight, R reset, space pause, P screenshot, V view, Q quit; drag to orbit, "
           "scroll to zoom.\n",
           (const char *)gl.GetString(GL_RENDERER), scene_name(a->sc.kind));

    int rc = 0, frames = 0;
    double last = glfwGetTime();
    while (!glfwWindowShouldClose(win)) {
        const double now = glfwGetTime();
        /* at most 0.1 s of physics per frame: a stall slows the cloth
         * down instead of making it catch up in a burst */
        const double elapsed = now - last < 0.1 ? now - last : 0.1;
        last = now;
        if (!a->paused) {
            app_advance(a, elapsed, 0);
        } else {
            scene_sync(&a->sc);
        }
        int fw, fh;
        glfwGetFramebufferSize(win, &fw, &fh);
        if (fw > 0 && fh > 0) {
            if (app_render(a, fw, fh, hud_scale(fw), 1) != 0) {
                rc = 1;
                break;
            }
            ++frames;
            if (ws.screenshot) {
                ws.screenshot = 0;
                save_frame(a, fw, fh, 0);
            }
            if (a->opt.frames > 0 && frames >= a->opt.frames) {
                rc = save_frame(a, fw, fh, 1) == 0 ? 0 : 1;
                break;
            }
        }
        glfwSwapBuffers(win);
        glfwPollEvents();
    }
    render_free(&a->r);
    glfwDestroyWindow(win);
    glfwTerminate();
    return rc;
}
