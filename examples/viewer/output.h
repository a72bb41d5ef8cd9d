/*
 * What the viewer writes: PNG pictures (through libpng) and the cloth as a
 * Wavefront OBJ file with normals.
 */
#ifndef VIEWER_OUTPUT_H
#define VIEWER_OUTPUT_H

#include <clothsim/clothsim.h>

/* Write packed RGB rows (top first) as an 8-bit PNG. `compression` is zlib's
 * level, 1 (fast, for frames) to 9. Returns 0, or -1 after printing why. */
int output_png(const char *path, const unsigned char *rgb, int width, int height, int compression);

/* Average each factor x factor block of `src` (width * factor by
 * height * factor RGB pixels) into one pixel of `dst` (width x height). */
void output_downsample(const unsigned char *src, unsigned char *dst, int width, int height, int factor);

/*
 * Write the cloth's particles as an OBJ mesh: `v x y z` per particle, `vn`
 * per particle (cloth_get_normals()), `f a//a b//b c//c` per render triangle
 * (1-based, counter-clockwise seen from the normals' side), which Blender and
 * other tools import with their normals. Returns 0, or -1 after printing why.
 */
int output_obj(const char *path, const cloth_t *cloth, const char *comment);

/* Create the directory `path` and its parents (like mkdir -p). Returns 0, or
 * -1 after printing why. */
int output_mkdirs(const char *path);

#endif /* VIEWER_OUTPUT_H */
