/*
 * check_render: the headless viewer's outputs are real.
 *
 *   check_render [--png FILE [--size WxH]]... [--red FRACTION]
 *                [--obj FILE --vertices N --triangles N]
 *
 * Each PNG is decoded (libpng) and must be a picture, not a blank or a
 * flat fill: at least 256 distinct colours, and at least a quarter of its
 * pixels clearly different from its most common colour. With --red, at
 * least that fraction of the pixels of the last PNG must be saturated red
 * (r > 90, r > 1.5 g, r > 1.5 b): the four scenes' cloths are red (the
 * drape's gingham, the curtain, the flag's field, the character's cape), so
 * this says the cloth itself was drawn, not only the ground and the sky.
 *
 * The OBJ must re-read as the cloth: exactly N `v` lines of three finite
 * numbers, as many `vn` lines of unit normals, N triangles as `f a//a b//b
 * c//c` with every index in 1..N.
 *
 * Exit status 0 when every check passes, 1 otherwise.
 */
#include <math.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void fail(const char *file, const char *what)
{
    fprintf(stderr, "check_render: %s: %s\n", file, what);
    ++failures;
}

/* Decode `path` to RGB; returns the pixels (free them) or NULL. */
static unsigned char *read_png(const char *path, unsigned *width, unsigned *height)
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path)) {
        fail(path, image.message);
        return NULL;
    }
    image.format = PNG_FORMAT_RGB;
    unsigned char *rgb = malloc(PNG_IMAGE_SIZE(image));
    if (rgb == NULL || !png_image_finish_read(&image, NULL, rgb, 0, NULL)) {
        fail(path, rgb == NULL ? "out of memory" : image.message);
        png_image_free(&image);
        free(rgb);
        return NULL;
    }
    *width = image.width;
    *height = image.height;
    return rgb;
}

/* Returns the fraction of saturated red pixels, or -1 if the file failed. */
static double check_png(const char *path, unsigned want_w, unsigned want_h)
{
    unsigned w = 0, h = 0;
    unsigned char *rgb = read_png(path, &w, &h);
    if (rgb == NULL) {
        return -1.0;
    }
    if (want_w != 0u && (w != want_w || h != want_h)) {
        char msg[96];
        snprintf(msg, sizeof msg, "is %u x %u, expected %u x %u", w, h, want_w, want_h);
        fail(path, msg);
    }
    const size_t n = (size_t)w * h;
    /* distinct colours: one bit per 24-bit colour (2 MiB) */
    unsigned char *seen = calloc((size_t)1 << 21, 1);
    uint32_t *counts = calloc((size_t)1 << 15, sizeof *counts); /* 5 bits per channel, for the mode */
    if (seen == NULL || counts == NULL) {
        fail(path, "out of memory");
        free(seen);
        free(counts);
        free(rgb);
        return -1.0;
    }
    size_t distinct = 0, red = 0;
    for (size_t i = 0; i < n; ++i) {
        const unsigned r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
        const uint32_t c = (uint32_t)(r << 16 | g << 8 | b);
        if (!(seen[c >> 3] & (1u << (c & 7u)))) {
            seen[c >> 3] = (unsigned char)(seen[c >> 3] | (1u << (c & 7u)));
            ++distinct;
        }
        ++counts[(r >> 3) << 10 | (g >> 3) << 5 | (b >> 3)];
        red += r > 90u && 2u * r > 3u * g && 2u * r > 3u * b;
    }
    uint32_t mode = 0;
    for (uint32_t k = 1; k < (1u << 15); ++k) {
        if (counts[k] > counts[mode]) {
            mode = k;
        }
    }
    const int mr = (int)((mode >> 10) << 3) + 4, mg = (int)(((mode >> 5) & 31u) << 3) + 4,
              mb = (int)((mode & 31u) << 3) + 4;
    size_t different = 0;
    for (size_t i = 0; i < n; ++i) {
        const int d = abs(rgb[3 * i] - mr) + abs(rgb[3 * i + 1] - mg) + abs(rgb[3 * i + 2] - mb);
        different += d > 40;
    }
    const double covered = n > 0 ? (double)different / (double)n : 0.0;
    printf("%s: %u x %u, %zu colours, %.1f%% away from the most common colour, %.1f%% red\n", path, w, h,
           distinct, 100.0 * covered, 100.0 * (double)red / (double)(n > 0 ? n : 1));
    if (distinct < 256u) {
        fail(path, "fewer than 256 distinct colours: not a rendered picture");
    }
    if (covered < 0.25) {
        fail(path, "less than a quarter of the pixels differ from the background");
    }
    free(seen);
    free(counts);
    free(rgb);
    return (double)red / (double)(n > 0 ? n : 1);
}

static int finite_numbers(const char *text, int count, double *out)
{
    char *end = NULL;
    for (int k = 0; k < count; ++k) {
        out[k] = strtod(text, &end);
        if (end == text || !isfinite(out[k])) {
            return 0;
        }
        text = end;
    }
    return 1;
}

static void check_obj(const char *path, unsigned long vertices, unsigned long triangles)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fail(path, "cannot be opened");
        return;
    }
    char line[512];
    unsigned long v = 0, vn = 0, faces = 0, bad_v = 0, bad_vn = 0, bad_f = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        double x[3];
        if (strncmp(line, "v ", 2) == 0) {
            ++v;
            bad_v += !finite_numbers(line + 2, 3, x);
        } else if (strncmp(line, "vn ", 3) == 0) {
            ++vn;
            bad_vn += !finite_numbers(line + 3, 3, x) || fabs(sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) - 1.0) > 1e-3;
        } else if (strncmp(line, "f ", 2) == 0) {
            unsigned long a[3], b[3];
            ++faces;
            if (sscanf(line + 2, "%lu//%lu %lu//%lu %lu//%lu", &a[0], &b[0], &a[1], &b[1], &a[2], &b[2]) != 6) {
                ++bad_f;
                continue;
            }
            for (int k = 0; k < 3; ++k) {
                bad_f += a[k] < 1u || a[k] > vertices || b[k] != a[k];
            }
        }
    }
    fclose(f);
    printf("%s: %lu v, %lu vn, %lu f\n", path, v, vn, faces);
    if (v != vertices) {
        fail(path, "vertex count differs from the cloth's particle count");
    }
    if (vn != v) {
        fail(path, "not one normal per vertex");
    }
    if (faces != triangles) {
        fail(path, "triangle count differs from the cloth's");
    }
    if (bad_v || bad_vn || bad_f) {
        fail(path, "malformed v, vn (not unit) or f (not a//a with a in range) lines");
    }
}

int main(int argc, char **argv)
{
    unsigned long vertices = 0, triangles = 0;
    const char *obj = NULL;
    double red_needed = -1.0, red = -1.0;
    int pngs = 0;
    for (int i = 1; i < argc; ++i) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (val == NULL) {
            fprintf(stderr, "check_render: %s needs a value\n", argv[i]);
            return 2;
        }
        if (strcmp(argv[i], "--png") == 0) {
            unsigned w = 0, h = 0;
            if (i + 3 < argc && strcmp(argv[i + 2], "--size") == 0) {
                if (sscanf(argv[i + 3], "%ux%u", &w, &h) != 2) {
                    fprintf(stderr, "check_render: bad size %s\n", argv[i + 3]);
                    return 2;
                }
            }
            red = check_png(val, w, h);
            ++pngs;
            i += w != 0u ? 3 : 1;
        } else if (strcmp(argv[i], "--red") == 0) {
            red_needed = strtod(val, NULL);
            ++i;
        } else if (strcmp(argv[i], "--obj") == 0) {
            obj = val;
            ++i;
        } else if (strcmp(argv[i], "--vertices") == 0) {
            vertices = strtoul(val, NULL, 10);
            ++i;
        } else if (strcmp(argv[i], "--triangles") == 0) {
            triangles = strtoul(val, NULL, 10);
            ++i;
        } else {
            fprintf(stderr, "check_render: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (pngs == 0 && obj == NULL) {
        fprintf(stderr, "check_render: nothing to check\n");
        return 2;
    }
    if (red_needed >= 0.0 && red >= 0.0 && red < red_needed) {
        fail("the last picture", "too little of the red cloth is visible");
    }
    if (obj != NULL) {
        check_obj(obj, vertices, triangles);
    }
    printf("check_render: %s\n", failures == 0 ? "all checks passed" : "FAILED");
    return failures == 0 ? 0 : 1;
}
