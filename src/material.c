/*
 * Materials: a fabric's measured properties turned into this cloth's
 * masses, spring stiffnesses and bending, for its own spacing and
 * triangles (material.h gives the formulas and the presets' sources).
 *
 * Every derived value is computed and checked before anything is written,
 * so a refused material, or one whose bending or limit memory cannot be
 * had, leaves the cloth as it was.
 */
#include "cloth_internal.h"
#include "bending.h"
#include "curvature.h"
#include "pins.h"

#include <float.h>

#include <string.h>

typedef struct preset_row {
    float density, stretch, shear, bending, max_strain, damping;
} preset_row;

static const preset_row presets[] = {
    /* density  stretch   shear    bending  max_strain damping */
    {0.15f, 4000.0f, 50.0f, 1.2e-5f, 0.04f, 0.2f},   /* cotton */
    {0.07f, 1000.0f, 10.0f, 3.0e-6f, 0.04f, 0.3f},   /* silk */
    {0.40f, 8500.0f, 120.0f, 2.0e-5f, 0.03f, 0.2f},  /* denim */
    {0.50f, 4000.0f, 1500.0f, 3.0e-5f, 0.03f, 0.2f}, /* leather */
    {0.18f, 60.0f, 20.0f, 5.0e-6f, 0.09f, 0.2f},     /* jersey */
    {1.00f, 1500.0f, 500.0f, 1.25e-4f, 0.05f, 0.1f}, /* rubber */
};

void cloth_material_init(cloth_material *material, cloth_material_preset preset)
{
    if (material == NULL) {
        return;
    }
    memset(material, 0, sizeof *material);
    material->struct_size = (uint32_t)sizeof *material;
    const size_t n = sizeof presets / sizeof presets[0];
    if ((int)preset < 0 || (size_t)preset >= n) {
        return; /* density 0: refused by cloth_set_material() */
    }
    const preset_row *r = &presets[preset];
    material->density = r->density;
    material->stretch_modulus = r->stretch;
    material->shear_modulus = r->shear;
    material->bending_rigidity = r->bending;
    material->max_strain = r->max_strain;
    material->damping = r->damping;
}

static bool positive(float v)
{
    return v > 0.0f && isfinite(v);
}

static bool non_negative(float v)
{
    return v >= 0.0f && isfinite(v);
}

/* Area of mesh triangle v in the creation shape, m^2, in double. */
static double triangle_area(const cloth_t *cloth, const uint32_t v[3])
{
    const float *r[3] = {cloth->rest_shape, cloth->rest_shape + cloth->count, cloth->rest_shape + 2u * cloth->count};
    double e1[3], e2[3];
    for (int k = 0; k < 3; ++k) {
        e1[k] = (double)r[k][v[1]] - (double)r[k][v[0]];
        e2[k] = (double)r[k][v[2]] - (double)r[k][v[0]];
    }
    const double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    return sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) / 2.0;
}

/* Each particle's area share, m^2, into `area` (count doubles): a quarter
 * of every grid cell around it, a third of every mesh triangle in the
 * creation shape. */
static void area_shares(const cloth_t *cloth, double *area)
{
    memset(area, 0, (size_t)cloth->count * sizeof *area);
    if (cloth->tris == NULL) {
        /* the cell is the parallelogram of the two structural rests; the
         * diagonals' rests give the angle between them: u.v = (d1^2 - d2^2) / 4 */
        const double a = (double)cloth->family_rest[0], b = (double)cloth->family_rest[1];
        const double d1 = (double)cloth->family_rest[2], d2 = (double)cloth->family_rest[3];
        const double uv = (d1 * d1 - d2 * d2) / 4.0;
        const double cell2 = a * a * b * b - uv * uv;
        const double quarter = (cell2 > 0.0 ? sqrt(cell2) : 0.0) / 4.0;
        const uint32_t rows = cloth->rows, cols = cloth->cols;
        for (uint32_t r = 0; r + 1u < rows; ++r) {
            for (uint32_t c = 0; c + 1u < cols; ++c) {
                const uint32_t i = r * cols + c;
                area[i] += quarter;
                area[i + 1u] += quarter;
                area[i + cols] += quarter;
                area[i + cols + 1u] += quarter;
            }
        }
        return;
    }
    for (uint32_t t = 0; t < cloth->tri_count; ++t) {
        const uint32_t *v = cloth->tris + 3u * t;
        const double third = triangle_area(cloth, v) / 3.0;
        for (int k = 0; k < 3; ++k) {
            area[v[k]] += third;
        }
    }
}

/* What a material makes of this cloth, computed before anything changes. */
typedef struct derived {
    float stiffness[CLOTH_SPRING_TYPES];
    double *mass; /* per particle, kg (scratch, freed by the caller) */
} derived;

/* Spring stiffness from the moduli (material.h). */
static bool derive_stiffness(const cloth_t *cloth, const cloth_material *m, derived *d)
{
    const double Y = (double)m->stretch_modulus, G = (double)m->shear_modulus;
    double k[CLOTH_SPRING_TYPES] = {0.0, 0.0, 0.0};
    if (cloth->tris == NULL) {
        const double s = (double)cloth->family_rest[0];
        const double C = (Y + sqrt(Y * Y + 4.0 * G * G)) / 2.0;
        k[CLOTH_SPRING_STRUCTURAL] = s * (C - G);
        k[CLOTH_SPRING_SHEAR] = sqrt(2.0) * s * G;
    } else {
        double area = 0.0, length = 0.0;
        for (uint32_t t = 0; t < cloth->tri_count; ++t) {
            area += triangle_area(cloth, cloth->tris + 3u * t);
        }
        /* edge springs are the structural and shear types (mesh.h) */
        for (uint32_t s = cloth->type_begin[0]; s < cloth->type_begin[CLOTH_SPRING_BEND]; ++s) {
            length += (double)cloth->spring_rest[s];
        }
        const double ke = length > 0.0 ? (8.0 / 3.0) * Y * area / length : 0.0;
        k[CLOTH_SPRING_STRUCTURAL] = ke;
        k[CLOTH_SPRING_SHEAR] = ke;
    }
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        if (!(k[t] >= 0.0) || k[t] > (double)FLT_MAX) {
            return false;
        }
        d->stiffness[t] = (float)k[t];
    }
    return true;
}

static bool derive_masses(const cloth_t *cloth, const cloth_material *m, derived *d)
{
    area_shares(cloth, d->mass);
    for (uint32_t i = 0; i < cloth->count; ++i) {
        const double mass = d->mass[i] * (double)m->density;
        if (!(mass > 0.0) || mass > (double)FLT_MAX || !cloth_mass_ok((float)mass)) {
            return false;
        }
        d->mass[i] = mass;
    }
    return true;
}

cloth_status cloth_set_material(cloth_t *cloth, const cloth_material *m)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || m == NULL || m->struct_size != (uint32_t)sizeof *m) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    if (!positive(m->density) || !positive(m->stretch_modulus) || !non_negative(m->shear_modulus) ||
        !non_negative(m->bending_rigidity) || !non_negative(m->damping) || !(m->max_strain >= 0.0f) ||
        !(m->max_strain <= 10.0f)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    for (size_t k = 0; k < sizeof m->reserved / sizeof m->reserved[0]; ++k) {
        if (m->reserved[k] != 0u) {
            return CLOTH_ERR_UNSUPPORTED;
        }
    }
    derived d;
    memset(&d, 0, sizeof d);
    const size_t mass_bytes = (size_t)cloth->count * sizeof(double);
    d.mass = cloth_mem_alloc(&cloth->alloc, mass_bytes);
    if (d.mass == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    cloth_status st = CLOTH_OK;
    if (!derive_stiffness(cloth, m, &d) || !derive_masses(cloth, m, &d)) {
        st = CLOTH_ERR_INVALID_ARGUMENT;
    }
    /* what can fail for memory, first: the mesh's hinges and the limit's levels */
    if (st == CLOTH_OK && cloth->tris != NULL && m->bending_rigidity > 0.0f) {
        st = cloth_bending_reserve(cloth);
    }
    const bool had_scratch = cloth->curvature_scratch != NULL;
    if (st == CLOTH_OK && cloth->tris == NULL && m->bending_rigidity > 0.0f) {
        st = cloth_curvature_reserve(cloth, m->bending_rigidity);
    }
    float limit_before = cloth->max_strain;
    uint32_t passes_before = cloth->strain_passes;
    bool limit_auto_before = cloth->strain_passes_auto;
    if (st == CLOTH_OK) {
        st = m->max_strain > 0.0f ? cloth_do_set_strain_limit(cloth, m->max_strain, 0u)
                                  : cloth_do_set_strain_limit(cloth, 0.0f, 0u);
    }
    if (st == CLOTH_OK) {
        const float scale = m->max_strain > 0.0f ? fminf(1.0f + m->max_strain, 10.0f) : 0.0f;
        st = cloth_do_set_tethers(cloth, scale);
        if (st != CLOTH_OK) {
            /* put the limit back as it was; switching it back cannot fail
             * for memory once its levels existed, and off never allocates */
            (void)cloth_do_set_strain_limit(cloth, limit_before, passes_before);
            cloth->strain_passes_auto = limit_auto_before;
        }
    }
    if (st != CLOTH_OK) {
        if (!had_scratch) {
            cloth_curvature_free(cloth);
        }
        cloth_mem_free(&cloth->alloc, d.mass, mass_bytes);
        return st;
    }

    /* nothing can fail from here on */
    for (uint32_t i = 0; i < cloth->count; ++i) {
        const float w = 1.0f / (float)d.mass[i];
        cloth->p.w[i] = w;
    }
    cloth_pins_set_free_mass(cloth);
    cloth_mem_free(&cloth->alloc, d.mass, mass_bytes);
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        cloth->stiffness[t] = d.stiffness[t];
    }
    /* PBD's bend constraints are bend springs too: the rigidity bends it */
    cloth->constraint_stiffness[CLOTH_SPRING_BEND] = 0.0f;
    cloth->edge_halving = cloth->tris == NULL;
    cloth->rigidity = m->bending_rigidity;
    if (!(m->bending_rigidity > 0.0f)) {
        cloth_curvature_free(cloth);
    }
    if (cloth->bending != NULL) {
        cloth_bending_set_rigidity(cloth, cloth->tris != NULL ? m->bending_rigidity : 0.0f);
    }
    cloth->tether_schedule = CLOTH_TETHERS_LAST_SUBSTEP;
    cloth->damping = m->damping;
    cloth->material = *m;
    cloth_masses_changed(cloth);
    return CLOTH_OK;
}

cloth_status cloth_get_material(const cloth_t *cloth, cloth_material *material)
{
    if (cloth == NULL || material == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *material = cloth->material;
    material->struct_size = (uint32_t)sizeof *material;
    return CLOTH_OK;
}
