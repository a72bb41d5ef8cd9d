/*
 * cantilever: the textile cantilever test, simulated. A strip of a preset
 * material overhangs a clamp horizontally and droops under its own weight;
 * at rest its centreline is printed, to be set against the heavy elastica
 * (scripts/cantilever-plot draws both into docs/images/cantilever.png).
 *
 * The strip is set up as tests/test_material.c sets it: `n` particles along
 * the overhang L (rows 1..n of the grid, spacing L / (n - 1)) and 3 across,
 * lying along +z, with a clamp row behind the edge (row 0); rows 0 and 1 are
 * pinned where they lie, so the strip leaves the clamp horizontal. The
 * material is the preset with max_strain 0.004: the elastica does not
 * stretch, and the strain limit holds the strip to 0.4 %. XPBD with
 * automatic substeps and iterations, damping raised to 8 /s (it settles the
 * strip sooner and does not move its rest shape), 60 Hz.
 *
 * Prints one JSON object per line per preset and size: the material's
 * density (kg/m^2) and bending rigidity (N m), the overhang (m), the load
 * lambda = density g L^3 / rigidity, the tip's chord angle (degrees below
 * horizontal) and droop (m), and the centreline (the middle column) as x
 * along the overhang and y up, both in metres from the clamp's edge. Not a
 * test.
 *
 * Usage: cantilever [--overhang L] [--sizes 8,16,64] [--presets cotton,denim,rubber]
 *                   [--seconds T]
 */
#include <clothsim/clothsim.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 8
#define MAX_PRESETS 6
#define GRAVITY 9.81

static const char *const preset_names[] = {"cotton", "silk", "denim", "leather", "jersey", "rubber"};

static int parse_preset(const char *name, cloth_material_preset *out)
{
    for (int k = 0; k < (int)(sizeof preset_names / sizeof preset_names[0]); ++k) {
        if (strcmp(name, preset_names[k]) == 0) {
            *out = (cloth_material_preset)k;
            return 0;
        }
    }
    return -1;
}

/* "8,16,64" into sizes[], each in [3, 1024]; returns the count or -1. */
static int parse_sizes(const char *text, uint32_t *sizes)
{
    int count = 0;
    const char *p = text;
    while (*p != '\0') {
        char *end = NULL;
        const long v = strtol(p, &end, 10);
        if (end == p || v < 3 || v > 1024 || count == MAX_SIZES || (*end != ',' && *end != '\0')) {
            return -1;
        }
        sizes[count++] = (uint32_t)v;
        p = *end == ',' ? end + 1 : end;
    }
    return count;
}

static int parse_presets(char *text, cloth_material_preset *presets)
{
    int count = 0;
    for (char *tok = strtok(text, ","); tok != NULL; tok = strtok(NULL, ",")) {
        if (count == MAX_PRESETS || parse_preset(tok, &presets[count]) != 0) {
            return -1;
        }
        ++count;
    }
    return count;
}

static void fail(const char *what, cloth_status s)
{
    fprintf(stderr, "cantilever: %s: %s\n", what, cloth_status_string(s));
    exit(1);
}

/* One strip of `n` particles along the overhang, stepped to rest; prints its line. */
static void run(cloth_material_preset preset, double overhang, uint32_t n, int steps)
{
    cloth_material m;
    cloth_material_init(&m, preset);
    m.max_strain = 0.004f;
    const float s = (float)(overhang / (double)(n - 1u));
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    d.rows = n + 1u;
    d.cols = 3u;
    d.spacing = s;
    d.origin[0] = 0.0f;
    d.origin[1] = 0.0f;
    d.origin[2] = -s; /* row 1, the clamp's edge, at z = 0 */
    cloth_t *c = NULL;
    cloth_status st = cloth_create_grid(&d, &c);
    if (st != CLOTH_OK) {
        fail("cloth_create_grid", st);
    }
    if ((st = cloth_set_material(c, &m)) != CLOTH_OK ||
        (st = cloth_set_integrator(c, CLOTH_INTEGRATOR_XPBD)) != CLOTH_OK ||
        (st = cloth_set_substeps(c, 0u)) != CLOTH_OK || (st = cloth_set_iterations(c, 0u)) != CLOTH_OK ||
        (st = cloth_set_damping(c, 8.0f)) != CLOTH_OK) {
        fail("setting up the strip", st);
    }
    for (uint32_t i = 0; i < 2u * d.cols; ++i) {
        if ((st = cloth_pin(c, i, NULL)) != CLOTH_OK) {
            fail("cloth_pin", st);
        }
    }
    for (int k = 0; k < steps; ++k) {
        if ((st = cloth_step(c, 1.0f / 60.0f)) != CLOTH_OK) {
            fail("cloth_step", st);
        }
    }
    float *x = malloc(3u * sizeof(float) * cloth_particle_count(c));
    if (x == NULL) {
        fail("positions", CLOTH_ERR_OUT_OF_MEMORY);
    }
    if ((st = cloth_get_positions(c, x, 0u)) != CLOTH_OK) {
        fail("cloth_get_positions", st);
    }
    const uint32_t edge = d.cols + 1u, tip = n * d.cols + 1u; /* the middle column */
    const double ex = (double)x[3u * edge + 2u], ey = (double)x[3u * edge + 1u];
    const double droop = ey - (double)x[3u * tip + 1u];
    const double chord = atan2(droop, (double)x[3u * tip + 2u] - ex) * 180.0 / 3.14159265358979323846;
    const double lambda = (double)m.density * GRAVITY * overhang * overhang * overhang / (double)m.bending_rigidity;
    printf("{\"preset\":\"%s\",\"n\":%u,\"density\":%.9g,\"bending_rigidity\":%.9g,\"overhang\":%.9g,"
           "\"lambda\":%.6g,\"steps\":%d,\"chord_deg\":%.4f,\"tip_droop\":%.6e,\"x\":[",
           preset_names[preset], n, (double)m.density, (double)m.bending_rigidity, overhang, lambda, steps, chord,
           droop);
    for (uint32_t r = 1u; r <= n; ++r) {
        printf("%s%.6e", r > 1u ? "," : "", (double)x[3u * (r * d.cols + 1u) + 2u] - ex);
    }
    printf("],\"y\":[");
    for (uint32_t r = 1u; r <= n; ++r) {
        printf("%s%.6e", r > 1u ? "," : "", (double)x[3u * (r * d.cols + 1u) + 1u] - ey);
    }
    printf("]}\n");
    free(x);
    cloth_destroy(c);
}

int main(int argc, char **argv)
{
    double overhang = 0.04;
    double seconds = 5.0;
    uint32_t sizes[MAX_SIZES] = {8u, 16u, 64u};
    int size_count = 3;
    cloth_material_preset presets[MAX_PRESETS] = {CLOTH_MATERIAL_RUBBER, CLOTH_MATERIAL_COTTON, CLOTH_MATERIAL_DENIM};
    int preset_count = 3;
    for (int i = 1; i < argc; i += 2) { /* options and their values */
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (val == NULL) {
            fprintf(stderr, "cantilever: missing value or unknown option: %s\n", argv[i]);
            return 2;
        } else if (strcmp(argv[i], "--overhang") == 0) {
            overhang = strtod(val, &end);
            if (end == val || *end != '\0' || !(overhang > 0.0 && overhang <= 10.0)) {
                fprintf(stderr, "cantilever: --overhang takes metres in (0, 10]\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--seconds") == 0) {
            seconds = strtod(val, &end);
            if (end == val || *end != '\0' || !(seconds >= 1.0 / 60.0 && seconds <= 600.0)) {
                fprintf(stderr, "cantilever: --seconds takes a time in [1/60, 600]\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--sizes") == 0) {
            if ((size_count = parse_sizes(val, sizes)) <= 0) {
                fprintf(stderr, "cantilever: --sizes takes up to %d counts in [3, 1024], e.g. 8,16,64\n", MAX_SIZES);
                return 2;
            }
        } else if (strcmp(argv[i], "--presets") == 0) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s", val);
            if ((preset_count = parse_presets(buf, presets)) <= 0) {
                fprintf(stderr, "cantilever: --presets takes names of cotton, silk, denim, leather, jersey, rubber\n");
                return 2;
            }
        } else {
            fprintf(stderr, "cantilever: unknown option: %s\n", argv[i]);
            return 2;
        }
    }
    const int steps = (int)lround(seconds * 60.0);
    for (int p = 0; p < preset_count; ++p) {
        for (int k = 0; k < size_count; ++k) {
            run(presets[p], overhang, sizes[k], steps);
        }
    }
    return 0;
}
