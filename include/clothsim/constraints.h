/*
 * clothsim: constraints that work with every integrator: long-range tethers
 * and strain limiting.
 */
#ifndef CLOTHSIM_CONSTRAINTS_H
#define CLOTHSIM_CONSTRAINTS_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup constraints Constraints: long-range tethers, strain limiting
 * @brief Limits applied by cloth_step() on top of whatever integrator runs.
 * @{
 */

/** Most pins a particle is tethered to: the nearest ones in the rest shape. */
#define CLOTH_TETHERS_PER_PARTICLE 4

/**
 * Long-range attachments (Kim, Chentanez and Mueller-Fischer 2012): no free
 * particle may be farther from a pin than `scale` times its distance from
 * that pin in the rest shape. It takes the rubbery stretch out of a cloth
 * hanging from pins, at any stiffness, substep or iteration count, for a few
 * operations per particle.
 *
 * In every substep (or only the last one: cloth_set_tether_schedule()),
 * after the integrator and the pins, before the colliders (see
 * cloth_step()): for each free particle i and each of its tethered pins
 * p with rest distance d0, if `|x_i - x_p| > scale d0` then x_i is moved
 * straight toward x_p onto the distance `scale d0`, and the part of its
 * velocity relative to the pin that points away from the pin,
 * `max(0, (v_i - v_p) . n)` with `n = (x_i - x_p) / |x_i - x_p|`, is removed:
 * the particle is stopped at the end of its tether as by an inextensible
 * string, and keeps its sideways motion. (With one tether; for several see
 * below.)
 *
 * - Rest distance: the Euclidean distance in the creation shape (a grid's
 *   axes and spacing; a mesh's positions as given to cloth_create_mesh()),
 *   whatever cloth_set_positions() did since. On a mesh whose rest shape is
 *   curved (a sleeve, a skirt) the straight distance is shorter than the
 *   one along the cloth, so keep `scale` above 1 there.
 * - Which pins: each free particle is tethered to the
 *   ::CLOTH_TETHERS_PER_PARTICLE pins nearest to it in the rest shape (ties
 *   go to the lower particle index); with at most that many pins, to all of
 *   them. On a mesh of several pieces (no triangle joins them), only to pins
 *   of its own piece: a piece with no pin has no tethers. The choice is remade at the next step after a pin is added
 *   (cloth_pin() on a free particle) or released (cloth_unpin()), in
 *   O(particles x pins) where a table is kept (below); moving a pin's target
 *   does not remake it.
 * - Several pins: a particle outside any of its tethers is moved to the
 *   nearest point that is within all of them (the intersection of up to 4
 *   balls: in closed form in float for one or two tethers, within a few
 *   float ulps; in double for three or four), and loses its outward
 *   velocity along each tether
 *   it is then taut on. If the balls do not overlap (pins pulled apart by
 *   more than their tethers allow) it is projected onto each in turn, four
 *   rounds, and the last one wins.
 * - Works with every integrator, the host's included. The colliders run
 *   after the tethers, so a collider may push a particle past its limit:
 *   contact wins. So does an integrator's `finish` pass (integrators.h):
 *   ::CLOTH_INTEGRATOR_SEMIRIGID's keeps its warp links exact, which on a
 *   cloth hung from two corners leaves particles up to about 0.5 % past their
 *   tethers (a curtain pinned along its top row is not affected).
 * - Memory and cost: a grid cloth with at most
 *   ::CLOTH_TETHERS_PER_PARTICLE pins keeps nothing per particle (32 bytes
 *   in all): its rest distances follow from the rows and columns, and a
 *   quick float test per particle and pin skips the particles well inside
 *   their tethers. A mesh cloth, or a grid with more pins, keeps a table of
 *   each particle's pins and rest distances, 32 bytes per particle (36 on a
 *   mesh, with its piece),
 *   allocated when it becomes needed: here, or by the cloth_pin() (or
 *   cloth_load_state()) that takes a grid past that count, which then
 *   fails with ::CLOTH_ERR_OUT_OF_MEMORY if it cannot be allocated; it is
 *   kept (unused) if the pins drop back, and freed by a scale of 0 or
 *   cloth_destroy(). cloth_step() never allocates. A mesh cloth keeps its creation
 *   positions (12 bytes per particle) from creation on, for this. Both ways
 *   give the same results to the bit. See cloth_stats::memory_bytes.
 *
 * @param cloth the cloth
 * @param scale 0 switches tethers off and frees their memory (a new cloth
 *        has 1.05, cloth_create_grid());
 *        otherwise in [1, 10]: 1 allows no stretch at all away from the pins,
 *        1.1 allows 10 %.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a `scale` that is
 *         neither 0 nor in [1, 10] (NaN included);
 *         ::CLOTH_ERR_OUT_OF_MEMORY if what they need now (a table, where
 *         one is kept, and a small header) cannot be allocated. On
 *         failure the tethers stay as they were.
 */
CLOTH_API cloth_status cloth_set_tethers(cloth_t *cloth, float scale);

/**
 * The tether scale in use, 0 when tethers are off.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers.
 */
CLOTH_API cloth_status cloth_get_tethers(const cloth_t *cloth, float *scale);

/** Which substeps of a cloth_step() project the tethers. */
typedef enum cloth_tether_schedule {
    /** Every substep (a new cloth's schedule before 0.3; since then it is
     *  ::CLOTH_TETHERS_LAST_SUBSTEP): the bound holds inside the step too,
     *  which an explicit integrator with few substeps may need to stay
     *  stable. */
    CLOTH_TETHERS_EVERY_SUBSTEP = 0,
    /**
     * The last substep only, at the same place in it (after the integrator
     * and the pins, before the colliders). The bound then holds where the
     * host reads the cloth, after cloth_step(), and the substeps in between
     * run free of it. For a position solver with the strain limit on this
     * is the fast setting: on the drape bench (XPBD, 1 iteration, tethers
     * 1.03, limit 0.05) a 128 x 128 step at the same 6 substeps and 2
     * passes takes about 19 % less time and ends with less stretch, and a
     * 512 x 512 one meets the same stretch bar with 16 substeps and 5
     * passes instead of 24 and 8 (docs/performance.md). Not for ::CLOTH_INTEGRATOR_SEMIRIGID, whose
     * finishing pass then leaves particles up to about 5 % past their
     * tethers on a cloth hung from two corners (0.5 % with the default).
     */
    CLOTH_TETHERS_LAST_SUBSTEP = 1,
    CLOTH_TETHER_SCHEDULE_FORCE32 = 0x7fffffff
} cloth_tether_schedule;

/**
 * When the tethers are projected (cloth_set_tethers() sets how far). The
 * setting is kept while tethers are off and applies when they are on.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a value that is
 *         not a ::cloth_tether_schedule; the setting is then unchanged.
 */
CLOTH_API cloth_status cloth_set_tether_schedule(cloth_t *cloth, cloth_tether_schedule schedule);

/**
 * The tether schedule in use.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers.
 */
CLOTH_API cloth_status cloth_get_tether_schedule(const cloth_t *cloth, cloth_tether_schedule *schedule);

/**
 * Strain limiting (Provot 1995): after every step, no structural or shear
 * spring is longer than `1 + max_strain` times its rest length, as far as
 * `passes` passes reach. A position solver run with few substeps leaves
 * a few springs overstretched where the load gathers (over the top of a
 * ball the cloth hangs from, next to pins) while the rest of the cloth is
 * fine; the limit takes those out for a fraction of a substep's cost, so
 * fewer substeps meet a stretch bound. Tethers bound the stretch along the
 * whole path from a pin; the limit bounds each spring; they work together.
 *
 * Once per cloth_step(), after its last substep: `passes` Gauss-Seidel
 * passes over the structural and shear springs (bend springs are not
 * limited). A spring (i, j) of rest length L0 whose length l exceeds
 * `Lmax = (1 + max_strain) L0` is shortened to Lmax by moving i and j along
 * it in proportion to their inverse masses: `x_i += w_i / (w_i + w_j)
 * (l - Lmax) n`, `x_j -= w_j / (w_i + w_j) (l - Lmax) n` with
 * `n = (x_j - x_i) / l`. Pinned particles do not move; a spring between two
 * pins is left alone. Each move `d` also adds `d / dt` to the particle's
 * velocity, as if it had been made over the step, so the momentum the
 * limit moves between particles is kept. Then the colliders run once more:
 * contact wins over the limit.
 *
 * - Convergence: one pass shortens every spring it finds too long, but
 *   shortening one may stretch its neighbours, so a correction travels one
 *   spring per pass; a run of k overstretched springs in a line needs up to
 *   about k passes. On a grid of at least 9 x 9 each pass therefore starts
 *   with a sweep of coarse levels (after Mueller 2008, "Hierarchical
 *   Position Based Dynamics"): the same limit on grids of nodes 2, 4, 8, ...
 *   particles apart (the coarsest keeps at least 4 cells a side), coarsest
 *   first, 4 Gauss-Seidel passes on each, each level starting from the
 *   coarser one's moves; the finest level's moves are spread to every free
 *   particle bilinearly between its nodes (with d / dt onto the velocity,
 *   as above). A node's mass is its bilinear share of the particles' masses,
 *   so a free cloth's momentum is kept; a node whose share reaches a pin is
 *   pinned. The levels carry a correction across the cloth in one pass: a
 *   65 x 65 sheet stretched by 40 % is back within 0.5 % of the limit in 6
 *   passes, where fine passes alone leave it 40 % past. 2 to 3 passes
 *   usually do on a grid, 4 to 8 on a 512 x 512 drape.
 *   A mesh has levels too, built when the limit is switched on: each
 *   level's nodes are a maximal independent set of the finer level's
 *   structural and shear edges (every other row and column of a mesh made
 *   from a grid), its springs join nodes whose neighbourhoods an edge
 *   links, with their distance in the creation shape as rest length, and
 *   a move spreads to the finer level as a mean of the nearby nodes'
 *   moves weighted by inverse distance. The regular 65 x 65 sheet as a
 *   mesh comes back as the grid does; an irregular triangulation (edges
 *   of very different lengths) closes in more slowly, within 15 % of the
 *   limit after those 6 passes, and so does a mesh whose vertices are
 *   numbered at random (within 20 %): the nodes are picked in index order,
 *   and a numbering that follows the surface (as exporters' strips and
 *   rows do) gives levels of better shape. On the drape bench a mesh made from the
 *   grid needs about twice the grid's passes for the same bar.
 *   cloth_set_strain_level_sweeps() keeps the levels to the first passes
 *   only, when the later ones need only fine work.
 *   A pin that is not on a node (every 2nd, 4th, ... row and column; the
 *   corners and edges are always nodes) holds the coarse cells around it
 *   still, and inside them only the fine passes work. The levels stop where
 *   the short side has 4 cells, so a long strip converges along its length
 *   like a mesh (a 17 x 512 strip: 2 levels).
 * - Order, and so the bits: the levels as above, each level's node rows
 *   in blocks (about 16 per level, at least 4 node rows each) taken even
 *   blocks first, then odd ones, each row's springs along it (in two
 *   colours), down, then the two diagonals; then the fine pass: on a grid,
 *   blocks of rows (16 rows each up to 256 rows, 16 blocks from there
 *   up) taken even blocks first, then odd ones; within a block, rows in
 *   order, the springs of each row by family (structural along the row,
 *   down the column, the two diagonals, then the wide diagonals of a
 *   24-neighbour grid), along the row; the springs along the row in two
 *   colours, those starting at an even column first, then the odd ones.
 *   On a mesh, the levels coarsest first, then the fine pass, each as a
 *   list cut into about 16 blocks of consecutive particle (or node)
 *   indices, a spring in the block of its lower index, each block at
 *   least as wide as the list's widest spring, so that it reaches into the
 *   next block only: even blocks first, then odd ones, and within a block
 *   its springs in list order (a level's by node pair; the fine pass's
 *   structural springs, then shear, in cloth_get_springs() order). A mesh
 *   whose springs span more than an eighth of its indices (vertices
 *   numbered far apart) gives fewer than 4 blocks and runs its list in
 *   order on one thread. The result is
 *   the same to the bit at any thread count and on every vector level.
 *   (The order leaves a pass's largest error on the first row of each even
 *   block, which the row above pulls back after the block has been solved;
 *   blocks of at least 16 rows keep such rows few; docs/performance.md.)
 * - Cost: a grid pass tests every spring's squared length, 8 or 16 springs
 *   at once where the CPU has AVX2 or AVX-512, and shortens those it finds
 *   too long, as many at once. With its levels, a pass on a 128 x 128 XPBD
 *   cloth costs about as much as two substeps (of 1 iteration) with
 *   AVX-512, and lets the drape bench meet its bar with half the substeps.
 *   A grid's passes and levels split over threads (threads.h), and so do a
 *   mesh's, by its blocks. A grid's levels take about 6
 *   bytes per particle, a mesh's about 45 (43 on the drape bench's
 *   128 x 128 mesh), allocated when the limit is switched on and freed
 *   when it is switched off.
 * - Works with every integrator, the host's included. Between steps the
 *   springs may stretch past the limit again: it bounds what the host reads
 *   after cloth_step(), not the substeps in between.
 *
 * @param cloth the cloth
 * @param max_strain in [0, 10]: 0.05 lets a spring grow 5 % past its rest
 *        length, 0 not at all.
 * @param passes at most 1024; 0 with `max_strain` > 0 chooses them each
 *        step (the automatic limit, and the stretch guarantee): first half
 *        as many as the last step needed, then one more pass at a time
 *        (each followed by the colliders) until no structural or shear
 *        spring is past `1 + 1.01 max_strain` (plus 1e-5 for float
 *        rounding: the guarantee's tolerance), at most 64, or until eight
 *        passes in a row have shortened the worst spring by less than a
 *        thousandth of its strain each (a guarantee the pins or colliders
 *        make impossible; cloth_stats::limit_passes_used,
 *        cloth_stats::step_max_strain). 0 with `max_strain` 0 switches
 *        limiting off. A new cloth has (0.09, 0) (cloth_create_grid()).
 *        The automatic passes shorten a link past `1 + max_strain / 3` to
 *        that length, well inside the guarantee: passes over links that
 *        all sit at their bound push each other back over it, and the room
 *        lets them converge in a few. With automatic substeps too
 *        (cloth_set_substeps()), a step whose passes miss the guarantee is
 *        run again from the state before it with twice the substeps, at
 *        most twice, so the guarantee holds at every read-back unless even
 *        that cannot bring it; where twice the substeps did not take out
 *        half of the excess, steps are not run again until one meets the
 *        guarantee. Contact wins over the limit: a link that a collider
 *        holds long stays long, and step_max_strain says so. Friction
 *        holds in the first half of the automatic passes: a touching particle the
 *        limit moves along a collider is taken back by up to what the
 *        collider's friction could hold within the step (mu times its
 *        weight's push into the surface over dt^2, plus mu times the
 *        push out that pass); the later passes let it slide, as friction
 *        does in a substep. Without it a resting drape crept off its ball.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth, a `max_strain`
 *         outside [0, 10] (NaN included) or more than 1024 passes;
 *         ::CLOTH_ERR_OUT_OF_MEMORY if what the limit holds while it is on
 *         cannot be allocated: for automatic passes the positions they
 *         start from (12 bytes per particle), and the levels (a grid's or a
 *         mesh's).
 *         On failure the setting is left as it was.
 */
CLOTH_API cloth_status cloth_set_strain_limit(cloth_t *cloth, float max_strain, uint32_t passes);

/**
 * The strain limit in use: `*passes` is 0 while it is off or automatic
 * (then `*max_strain` > 0).
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers.
 */
CLOTH_API cloth_status cloth_get_strain_limit(const cloth_t *cloth, float *max_strain, uint32_t *passes);

/**
 * How many of the strain limit's passes start with a sweep of the coarse
 * levels (cloth_set_strain_limit()): the first `sweeps` of them; the passes
 * after those are fine passes only. The levels carry a correction across
 * the cloth, and on a 128 x 128 grid a sweep of them costs about three fine
 * passes; once they have carried it, what is left is local and fine passes
 * take it out for less. On the drape bench (docs/performance.md) one sweep
 * in 3 passes at N = 128, and one in 2 passes at N = 64, meet the stretch
 * bar in 7 % and 15 % less time than a sweep in every pass; from N = 256
 * every pass needs its sweep.
 *
 * The default, 1024 (the most passes there can be), sweeps the levels in
 * every pass; 0 runs fine passes only. A grid under 9 x 9 has no levels,
 * nor a mesh too small for one level of 16 nodes: for them the setting
 * changes nothing. It is kept while the limit is off.
 *
 * @param cloth the cloth
 * @param sweeps at most 1024.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or more than 1024
 *         sweeps; the setting is then left as it was.
 */
CLOTH_API cloth_status cloth_set_strain_level_sweeps(cloth_t *cloth, uint32_t sweeps);

/**
 * The level sweeps in use (cloth_set_strain_level_sweeps()).
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for NULL pointers.
 */
CLOTH_API cloth_status cloth_get_strain_level_sweeps(const cloth_t *cloth, uint32_t *sweeps);

/**
 * Self-collision: two parts of the same cloth keep `thickness` metres
 * between them (>= 0, finite; 0, the default, turns it off). Every particle
 * is a ball of radius `thickness / 2`; two that overlap are pushed apart
 * along the line between them, each by its share of the inverse masses,
 * and lose the part of their relative velocity that brings them together.
 * Particles that are neighbours in the rest shape never collide: joined
 * within two rings (on a grid within two rows and two columns of each
 * other, on a mesh by a spring: its edges, and the bend springs across
 * them) and closer there than 1.5 times the thickness. So a cloth at rest,
 * or squeezed in its plane by less than a third, is not pushed by its own
 * thickness, while a tight crease that brings the cloth back onto itself
 * two rows away is held (at a thickness under 1.3 spacings), and the
 * separate pieces of a mesh made touching collide. Kept
 * after every substep and every strain-limit pass, with every integrator,
 * before the skin, tethers and colliders (which win where they disagree).
 * The same bits on any thread count and vector level: each particle sums
 * its own corrections over the particles it touches in index order and
 * moves by their mean, so the result does not depend on how the work is
 * split (the sweeps run on the task hooks or the pool).
 *
 * Cost: each particle keeps a list of the particles within 1.5 times the
 * thickness of it, built from a hash grid, and a pass reads only the lists
 * while no two particles can have closed the other half thickness since
 * they were built (every particle's displacement since then lies in a box
 * narrower than that); otherwise the pass builds them again. A cloth
 * falling as one piece or resting in a heap builds rarely; one whose
 * parts move fast against each other, about once every few passes.
 *
 * Thinner than the spacing: a particle could pass between the particles
 * of another layer, so from half the spacing up to the spacing (the mean
 * structural link) each particle is also kept the thickness off the inside
 * of the cloth's triangles (not the triangles next to it), pushed back to
 * the side of the plane it was on when the step began, the corners the
 * other way by their weights. That costs much more: a 64 x 64 heap at 0.7
 * spacings took some 80 times the frame without self-collision, against
 * 1.7 times at one spacing. A thickness of about one spacing is the fast
 * choice.
 *
 * What it does not catch: an edge passing through an edge (no edge-edge
 * test), so under half the spacing, and on meshes sometimes at 0.7 of it,
 * a pressed cloth can still pass through itself; layers closing faster
 * than the thickness per substep (no swept test). Friction between the
 * layers: cloth_set_self_friction().
 *
 * Allocates on the first non-zero thickness, and again when a thicker one
 * needs longer lists: about 240 bytes per particle while the thickness is
 * at most the spacing, up to 1.1 kB at four times it (and, on a mesh, 8
 * per spring); the first thickness under the spacing adds the triangles'
 * lists, about 520 bytes per particle (and on a mesh 12 per triangle);
 * setting 0 later keeps the memory. A particle whose list
 * overflows (a crowd within the reach) reads every particle instead:
 * slow, but the same answer.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth, a negative or
 *         non-finite thickness, or a positive one below 1e-6 m or above four
 *         times the cloth's longest structural link at rest (thicker, every
 *         particle would touch a crowd of others and a pass would cost the
 *         square of their number); nothing changes then;
 *         ::CLOTH_ERR_OUT_OF_MEMORY; ::CLOTH_ERR_BUSY inside the cloth's own
 *         step.
 */
CLOTH_API cloth_status cloth_set_self_collision(cloth_t *cloth, float thickness);

/**
 * The thickness set by cloth_set_self_collision() into `*thickness`.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `thickness`.
 */
CLOTH_API cloth_status cloth_get_self_collision(const cloth_t *cloth, float *thickness);

/**
 * Friction between two parts of the same cloth in self-collision: a
 * Coulomb coefficient (>= 0, finite; 0, the default, lets layers slide
 * freely). After each pass sums a particle's contacts, its sliding speed
 * relative to the particles it touches (their mean, about the mean of the
 * contacts' normals) drops by at most `friction` times its approach speed
 * along that normal, and stops when that is enough (static friction); the
 * slide the substep made at the speed removed is taken back with it, as
 * with the colliders' friction. The particle takes its share by inverse
 * mass. Woven fabric on itself measures about 0.2 to 0.6 (cotton about
 * 0.4, silk about 0.2). A layer of particles is a slightly bumpy surface:
 * even at 0 a layer sliding on another is braked a little, and past the
 * critical slope a held layer still creeps slowly (tests/test_self_collision.c
 * measures both). Takes effect from the next pass; no allocation.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or a negative or
 *         non-finite coefficient (nothing changes then);
 *         ::CLOTH_ERR_BUSY inside the cloth's own step.
 */
CLOTH_API cloth_status cloth_set_self_friction(cloth_t *cloth, float friction);

/**
 * The coefficient set by cloth_set_self_friction() into `*friction`.
 * @return ::CLOTH_ERR_INVALID_ARGUMENT for a NULL cloth or `friction`.
 */
CLOTH_API cloth_status cloth_get_self_friction(const cloth_t *cloth, float *friction);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLOTHSIM_CONSTRAINTS_H */
