/*
 * PNG, OBJ and directories for the viewer (output.h).
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* mkdir */
#endif

#include "output.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#ifdef _WIN32
#include <direct.h>
#endif

int output_png(const char *path, const unsigned char *rgb, int width, int height, int compression)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        fprintf(stderr, "viewer: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(&png, NULL);
        fclose(f);
        fprintf(stderr, "viewer: out of memory for libpng\n");
        return -1;
    }
    /* libpng reports errors by longjmp back here; nothing set after setjmp
     * is read afterwards, so no locals need to be volatile. */
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        fprintf(stderr, "viewer: libpng failed writing %s\n", path);
        return -1;
    }
    png_init_io(png, f);
    png_set_compression_level(png, compression);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < height; ++y) {
        png_write_row(png, rgb + (size_t)y * (size_t)width * 3u);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (fclose(f) != 0) {
        fprintf(stderr, "viewer: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

void output_downsample(const unsigned char *src, unsigned char *dst, int width, int height, int factor)
{
    const size_t src_row = (size_t)width * (size_t)factor * 3u;
    const unsigned area = (unsigned)(factor * factor);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            unsigned sum[3] = {0u, 0u, 0u};
            for (int dy = 0; dy < factor; ++dy) {
                const unsigned char *p = src + (size_t)(y * factor + dy) * src_row + (size_t)(x * factor) * 3u;
                for (int dx = 0; dx < factor; ++dx) {
                    sum[0] += p[3 * dx];
                    sum[1] += p[3 * dx + 1];
                    sum[2] += p[3 * dx + 2];
                }
            }
            unsigned char *o = dst + ((size_t)y * (size_t)width + (size_t)x) * 3u;
            for (int k = 0; k < 3; ++k) {
                o[k] = (unsigned char)((sum[k] + area / 2u) / area);
            }
        }
    }
}

int output_obj(const char *path, const cloth_t *cloth, const char *comment)
{
    const uint32_t n = cloth_particle_count(cloth), nt = cloth_triangle_count(cloth);
    float *pos = malloc((size_t)n * 3u * sizeof(float));
    float *nrm = malloc((size_t)n * 3u * sizeof(float));
    uint32_t *tri = malloc((size_t)nt * 3u * sizeof(uint32_t) + 1u);
    FILE *f = NULL;
    int rc = -1;
    if (pos == NULL || nrm == NULL || tri == NULL) {
        fprintf(stderr, "viewer: out of memory\n");
        goto done;
    }
    if (cloth_get_positions(cloth, pos, 0) != CLOTH_OK || cloth_get_normals(cloth, nrm, 0) != CLOTH_OK ||
        cloth_get_triangles(cloth, tri) != CLOTH_OK) {
        fprintf(stderr, "viewer: cannot read the cloth back\n");
        goto done;
    }
    f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "viewer: cannot write %s: %s\n", path, strerror(errno));
        goto done;
    }
    fprintf(f, "# %s\n# %u vertices, %u triangles; metres, y up\no cloth\n", comment, n, nt);
    for (uint32_t i = 0; i < n; ++i) {
        fprintf(f, "v %.6f %.6f %.6f\n", (double)pos[3u * i], (double)pos[3u * i + 1u], (double)pos[3u * i + 2u]);
    }
    for (uint32_t i = 0; i < n; ++i) {
        fprintf(f, "vn %.6f %.6f %.6f\n", (double)nrm[3u * i], (double)nrm[3u * i + 1u], (double)nrm[3u * i + 2u]);
    }
    for (uint32_t t = 0; t < nt; ++t) {
        const uint32_t a = tri[3u * t] + 1u, b = tri[3u * t + 1u] + 1u, c = tri[3u * t + 2u] + 1u;
        fprintf(f, "f %u//%u %u//%u %u//%u\n", a, a, b, b, c, c);
    }
    if (ferror(f) != 0) {
        fprintf(stderr, "viewer: error writing %s\n", path);
        goto done;
    }
    rc = 0;
done:
    if (f != NULL && fclose(f) != 0 && rc == 0) {
        fprintf(stderr, "viewer: cannot write %s: %s\n", path, strerror(errno));
        rc = -1;
    }
    free(pos);
    free(nrm);
    free(tri);
    return rc;
}

static int make_dir(const char *path)
{
#ifdef _WIN32
    int rc = _mkdir(path);
#else
    int rc = mkdir(path, 0777);
#endif
    return rc == 0 || errno == EEXIST ? 0 : -1;
}

int output_mkdirs(const char *path)
{
    char buf[1024];
    const size_t len = strlen(path);
    if (len == 0u || len >= sizeof buf) {
        fprintf(stderr, "viewer: bad output directory '%s'\n", path);
        return -1;
    }
    memcpy(buf, path, len + 1u);
    for (size_t i = 1; i <= len; ++i) {
        if (buf[i] == '/' || buf[i] == '\0') {
            const char saved = buf[i];
            buf[i] = '\0';
            if (make_dir(buf) != 0) {
                fprintf(stderr, "viewer: cannot create %s: %s\n", buf, strerror(errno));
                return -1;
            }
            buf[i] = saved;
        }
    }
    return 0;
}
