/*
 * A tiny built-in 5 x 7 bitmap font for the viewer's status line: upper-case
 * letters, digits and the punctuation the viewer prints (lower case is shown
 * in upper case, anything else as '?').
 */
#ifndef VIEWER_FONT_H
#define VIEWER_FONT_H

#include <stddef.h>

/* Each glyph advances 6 font pixels; a line is 9 font pixels high. */
#define FONT_ADVANCE 6
#define FONT_LINE 9

/* Width in screen pixels of `text` drawn with font pixels `scale` wide. */
float font_width(const char *text, float scale);

/*
 * Append two triangles (6 vertices of x, y in screen pixels, y down) for
 * every lit pixel of `text` with its top-left corner at (x, y). Writes at most
 * `max_vertices` vertices into `out_xy` and returns how many it wrote.
 */
size_t font_build(const char *text, float x, float y, float scale, float *out_xy, size_t max_vertices);

#endif /* VIEWER_FONT_H */
