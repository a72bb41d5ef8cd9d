/*
 * clothsim: fabrics in physical units, the same at every resolution.
 */
#ifndef CLOTHSIM_MATERIAL_H
#define CLOTHSIM_MATERIAL_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup material Materials
 * @brief A fabric named by its measured properties: areal density, stretch,
 * shear and bending stiffness per metre of width. The cloth turns them into
 * particle masses, spring stiffnesses and bending constraints for its own
 * spacing and triangles, so a 16 x 16 and a 256 x 256 cloth of one fabric
 * hang, stretch and droop alike.
 *
 * Presets: representative values of each kind of fabric, from published
 * measurements where there are some (docs/materials.md gives each value's
 * source and the spread). Density: Kawabata (KES-F) weights and commercial
 * grades. Cotton: stretch and shear from Wang, O'Brien and Ramamoorthi 2011
 * ("Data-driven elastic models for cloth", the cotton blend twill),
 * bending from KES-F of cotton broadcloth (Matsudaira et al. 2015). Denim:
 * KES-F of six denims (J. Textiles 2016, 4614168): shear, bending, and the
 * secant stretch modulus to 500 gf/cm. Jersey: Wang et al.'s interlock knit
 * at low strain. Rubber: natural rubber sheet 1 mm thick, E = 1.5 MPa,
 * incompressible (shear E t / 3, bending E t^3 / 12). Silk's stretch and
 * shear, and leather's stretch, shear and bending, are estimates from
 * neighbouring data, not measurements. Stretch is the low-strain modulus
 * along the warp. Fabrics of one name vary by a factor of a few; a preset
 * is a starting point, not a measurement of your fabric. Damping is
 * chosen, not measured (no source gives a viscous damping for fabric).
 * The max strains are chosen too: each is above what the fabric stretches
 * under its own weight in a scene of a few metres, so that it bounds only
 * what the position solvers leave unresolved (docs/materials.md); set 0 to
 * see the modulus alone, with an integrator that resolves it.
 *
 * | preset  | density kg/m^2 | stretch N/m | shear N/m | bending N m | max strain | damping 1/s |
 * |---------|----------------|-------------|-----------|-------------|------------|-------------|
 * | cotton  | 0.15           | 4000        | 50        | 1.2e-5      | 0.04       | 0.2         |
 * | silk    | 0.07           | 1000        | 10        | 3.0e-6      | 0.04       | 0.3         |
 * | denim   | 0.40           | 8500        | 120       | 2.0e-5      | 0.03       | 0.2         |
 * | leather | 0.50           | 4000        | 1500      | 3.0e-5      | 0.03       | 0.2         |
 * | jersey  | 0.18           | 60          | 20        | 5.0e-6      | 0.09       | 0.2         |
 * | rubber  | 1.00           | 1500        | 500       | 1.25e-4     | 0.05       | 0.1         |
 * @{
 */

/** Named fabrics for cloth_material_init(). */
typedef enum cloth_material_preset {
    CLOTH_MATERIAL_COTTON = 0,  /**< shirting cotton, plain weave */
    CLOTH_MATERIAL_SILK = 1,    /**< light silk: flowing, thin */
    CLOTH_MATERIAL_DENIM = 2,   /**< heavy twill: stiff, holds its folds */
    CLOTH_MATERIAL_LEATHER = 3, /**< soft garment leather about 0.8 mm thick */
    CLOTH_MATERIAL_JERSEY = 4,  /**< cotton jersey knit: stretches easily */
    CLOTH_MATERIAL_RUBBER = 5,  /**< natural rubber sheet 1 mm thick: elastic, heavy */
    CLOTH_MATERIAL_FORCE32 = 0x7fffffff
} cloth_material_preset;

/**
 * A fabric. Fill it with cloth_material_init() and change what you like.
 *
 * Forward compatibility as ::cloth_grid_desc: the size never changes within
 * a major version, fields added later take the place of `reserved`, which
 * must be zero; `struct_size` must equal sizeof(cloth_material).
 */
typedef struct cloth_material {
    uint32_t struct_size;   /**< sizeof(cloth_material), set by cloth_material_init() */
    float density;          /**< kg/m^2, > 0 */
    /**
     * N/m, > 0: tension per metre of width per unit strain of a strip pulled
     * along a grid axis with its sides free (a textile tensile test).
     */
    float stretch_modulus;
    /** N/m, >= 0: in-plane shear stress per metre per radian of shear. */
    float shear_modulus;
    /** N m, >= 0: bending moment per metre of width per unit curvature (1/m). */
    float bending_rigidity;
    /**
     * The stretch cloth_step() guarantees at read-back, in [0, 10]: no
     * structural or shear link is longer than `1 + max_strain` times its
     * rest length after a step, to 1 % of `max_strain` and 1e-5 (see
     * cloth_set_material()). The limit behind it shortens links past a
     * third of it, so the fabric's own stretch shows up to a third of
     * `max_strain`. 0: no guarantee, the cloth stretches as its stretch
     * modulus says (with implicit Euler; XPBD stretches more than its
     * modulus at a coarse substep, docs/materials.md).
     */
    float max_strain;
    /**
     * Velocity damping rate, 1/s, >= 0: without other forces the cloth's
     * velocity decays as `exp(-damping t)` (cloth_set_damping()). It stands
     * for the air and the fabric's internal friction together.
     */
    float damping;
    uint32_t reserved[9]; /**< zero: room for fields added within this major version */
} cloth_material;

/**
 * Fill `material` with a preset (the table above) and set `struct_size`.
 * An unknown preset fills a material with density 0, which
 * cloth_set_material() refuses. A NULL `material` is ignored.
 */
CLOTH_API void cloth_material_init(cloth_material *material, cloth_material_preset preset);

/**
 * Make the cloth of this fabric, at its own spacing and triangles:
 *
 * - Mass: every particle gets the density times its share of the area: a
 *   quarter of every grid cell around it (a grid particle at a corner, on
 *   an edge and inside weighs a quarter, a half and all of the density
 *   times a cell's area), a third of every mesh triangle around it in the
 *   creation shape.
 *   Pins keep their infinite mass and get the new one when released.
 * - Stretch and shear: a grid's structural springs get
 *   `k = s (C - G)` newtons and its shear diagonals `k = sqrt(2) s G`
 *   (s the spacing, G the shear modulus, C from the stretch modulus Y by
 *   `C = (Y + sqrt(Y^2 + 4 G^2)) / 2`), so that a strip pulled along either
 *   axis with its sides free stretches as Y says, a sheet sheared by a small
 *   angle resists as G says, and the structural springs along the border,
 *   which stand for half a cell's width, get half. Bend springs are switched
 *   off: bending comes from the rigidity. A mesh's edge springs get
 *   `k = (8/3) Y A / sum(L)` (A the mesh's area, L its edges' rest lengths),
 *   which stores the membrane's energy of a uniform stretch on a mesh of
 *   evenly spread edges; its shear follows from that (a network of edge
 *   springs cannot set it apart), and its bend springs are switched off.
 *   ::CLOTH_INTEGRATOR_PBD and ::CLOTH_INTEGRATOR_SEMIRIGID do not use the
 *   springs' stiffness; their cloth is as stiff as their iterations make it.
 *   PBD's bend constraints are switched off too
 *   (cloth_set_constraint_stiffness() of ::CLOTH_SPRING_BEND becomes 0).
 * - Bending: the rigidity D becomes a curvature constraint along every row
 *   and column of a grid (three particles a, b, c in line: energy
 *   `D w |x_a - 2 x_b + x_c|^2 / (2 s^3)`, w the width the line stands for,
 *   s on a border row, s / 2 on it), which a grid of any spacing bent into
 *   an arc of curvature kappa turns into `D kappa^2 / 2` per unit area, and
 *   a hinge on every interior edge of a mesh (bending.h) with stiffness
 *   `D |e|^2 / A_e` (A_e the two triangles' area), which is D on a square
 *   grid's triangles. Both act in every built-in integrator but the
 *   semi-rigid one: as forces in the force-based ones (explicit, so they
 *   add to the stability limit: see cloth_set_integrator()), and as
 *   compliant constraints (XPBD, compliance 1 / stiffness) in PBD and XPBD,
 *   solved once per substep after the integrator's sweeps, stable at any
 *   rigidity.
 * - `max_strain` > 0: tethers to the pins at `1 + max_strain` in the last
 *   substep, and the strain limit at `max_strain` with automatic passes
 *   (constraints.h: with automatic substeps too, a step that misses the
 *   guarantee is run again with more); `max_strain` 0 switches both off.
 * - A grid's bending node next to a clamp (two pinned particles in line,
 *   the next one free) counts twice: the strip is rigid up to the clamp,
 *   so the turn there happens over half a segment.
 * - `damping`: cloth_set_damping().
 *
 * The material replaces the masses, stiffnesses, bending, tethers, strain
 * limit and damping a cloth had; the setters of those keep working after
 * it and change what they set (cloth_get_material() still returns the
 * material last set). Spring damping, gravity, the integrator, substeps
 * and iterations are left as they are.
 *
 * Allocates: the bending constraints of a mesh (its hinges) and the strain
 * limit's levels of a grid, on first use; on ::CLOTH_ERR_OUT_OF_MEMORY
 * nothing changes.
 *
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or material, a
 *         `struct_size` other than sizeof(cloth_material), a density or
 *         stretch modulus that is not finite and positive, a shear modulus,
 *         bending rigidity or damping that is negative or not finite, a
 *         `max_strain` outside [0, 10], or a mass that comes out unusable
 *         (a mesh vertex in no triangle, or a density so small or large
 *         that a particle's mass or its inverse is not a finite positive
 *         float); ::CLOTH_ERR_UNSUPPORTED for a non-zero `reserved` word;
 *         ::CLOTH_ERR_BUSY from inside the cloth's own hooks;
 *         ::CLOTH_ERR_OUT_OF_MEMORY as above. Nothing changes on failure.
 */
CLOTH_API cloth_status cloth_set_material(cloth_t *cloth, const cloth_material *material);

/**
 * Copy the material last set with cloth_set_material() into `material`
 * (whole: `struct_size` is set). A cloth that never had one gives a
 * material of zeros, density 0 included, which is how to tell.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers.
 */
CLOTH_API cloth_status cloth_get_material(const cloth_t *cloth, cloth_material *material);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_MATERIAL_H */
