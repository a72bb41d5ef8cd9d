/*
 * Extended position-based dynamics (XPBD; Macklin, Mueller, Chentanez 2016)
 * in small steps (Macklin, Storey, Lu, Terdiman, Chentanez, Jeschke, Mueller
 * 2019): one constraint C = |xi - xj| - L0 per spring, solved once per
 * iteration, lambda reset every substep.
 *
 *   predict   v* = v d + (g + w f) h,  x* = x + v* h       (d = exp(-c h))
 *   project   `iterations` Gauss-Seidel sweeps; each spring, with
 *             n = (xi - xj) / |xi - xj|, alpha~ = L0 / (k h^2), gamma = beta / h:
 *               dl = (-C - alpha~ lambda - gamma n.(dxi - dxj)) / ((1 + gamma)(wi + wj) + alpha~)
 *               lambda += dl,  xi += wi dl n,  xj -= wj dl n
 *             (dx = x - x_start, the motion since the substep began)
 *   velocity  v = (x - x_start) / h = dx / h
 *
 * Pinned particles (w = 0) are already where the step put them for the end
 * of the substep; their dx is their own velocity times h, so that the spring
 * damping sees a moving pin move.
 *
 * The solve runs on the displacements dx since the start of the substep,
 * with positions x_start + dx, and x is written once at the end. At 16
 * substeps of 1/60 s gravity moves a particle by g h^2 = 1e-5 m per substep,
 * a few hundred float ulps of a coordinate near 0.5 m; updating x in place
 * would round that increment and every correction against it, and at rest
 * the rounding is the same every substep, so it would shift the statics by
 * ~1e-3 of the strain. Displacements carry the full precision, and so does
 * the velocity taken from them.
 *
 * Compliance: a spring of stiffness k (tension k (l - L0) / L0) has axial
 * stiffness k / L0, so alpha = L0 / k. Converged, the sweeps solve the
 * implicit-Euler step of exactly the force model (springs with their damping
 * along the spring: the paper's damping coefficient is (k / L0) beta, so its
 * gamma = alpha beta / h = beta / h), and at rest the statics are the force
 * model's. The sideways part of the force model's spring damping is left out.
 *
 * Damping is applied to the old velocity before the substep's acceleration
 * is added (v d + a h, not (v + a h) d): at rest v = 0, so the prediction
 * then moves a particle by exactly g h^2 and the fixed point is the
 * undamped statics; decaying the gravity increment too would weaken gravity
 * by the factor d in the statics.
 *
 * Gauss-Seidel over a colouring: within a colour no two springs share a
 * particle, so a colour is a data-parallel loop whose result does not depend
 * on its order. A grid runs in xpbd_grid.c (rows of stencil springs, the
 * vector kernel, blocks of rows for threads). A mesh's springs are coloured
 * greedily once, when the integrator is installed (colouring.c), and laid
 * out by colour, then type, in slots; here each substep copies the
 * particles into records, (x, y, z, w) at the start and (ux, uy, uz, 0) the
 * displacement, so that the vector kernel (kernels/xpbd_links.inl) reads a
 * spring's end with one load, and solves the colours one after another,
 * each split over the threads in batches of XPBD_LINK_BATCH springs. The
 * colours and their order depend on the mesh only, so the bits are the same
 * at every thread count and vector level, and the same as solving the
 * springs one by one in colour order.
 */
#include "cloth_internal.h"
#include "xpbd_grid.h"
#include "integrators/integrators.h"
#include "tasks.h"
#include "colouring.h"

#include "platform/target.h"

#include <string.h>

/* A mesh's springs of one colour and one type: slots [begin, end) of the
 * slot arrays, begin a multiple of XPBD_LINK_BATCH; the slots up to the
 * next multiple join the spare record (index `count`) to itself:
 * xpbd_links reads whole vectors and writes only the group's own lanes,
 * and a record no thread writes is what those lanes may read while other
 * threads solve the rest of the colour. */
typedef struct xpbd_group {
    uint32_t begin, end;
    uint32_t type;
} xpbd_group;

typedef struct xpbd_state {
    cloth_allocator alloc;
    size_t bytes;
    xpbd_grid_solver grid; /* grid: the kernel and the lambdas (made at the first step with iterations > 1) */
    size_t grid_lambda_bytes;
    /* mesh: the particles as records for the substep, (x, y, z, w) at its
     * start and (ux, uy, uz, 0) the displacement since (see the top) */
    float *x4, *u4;
    uint32_t *slot_i, *slot_j; /* mesh: the springs by colour, then type */
    float *slot_rest, *slot_lambda;
    uint32_t slots;
    xpbd_group *groups;
    uint32_t *colour_group; /* colour c is groups [colour_group[c], colour_group[c + 1]) */
    uint32_t colours, group_count;
} xpbd_state;

static size_t round_up(size_t n, size_t a)
{
    return (n + a - 1u) / a * a;
}

static uint32_t spring_type(const cloth_t *cloth, uint32_t s)
{
    uint32_t t = 0;
    while (t + 1u < CLOTH_SPRING_TYPES && s >= cloth->type_begin[t + 1u]) {
        ++t;
    }
    return t;
}

/* The layout of a mesh's slots, from the springs per (colour number,
 * type) in `count`: the groups in colour order and within a colour in
 * type order, empty ones left out; `count` becomes each key's first slot.
 * With st NULL only counts the slots, groups and colours. */
static void lay_out_groups(uint32_t keys, uint32_t *count, xpbd_state *st, uint32_t *slots, uint32_t *groups,
                           uint32_t *colours)
{
    uint32_t at = 0, g = 0, c = 0;
    for (uint32_t key = 0; key < keys; key += CLOTH_SPRING_TYPES) {
        bool any = false;
        for (uint32_t t = 0; t < CLOTH_SPRING_TYPES; ++t) {
            const uint32_t size = count[key + t];
            if (size == 0u) {
                continue;
            }
            if (!any && st != NULL) {
                st->colour_group[c] = g;
            }
            c += any ? 0u : 1u;
            any = true;
            if (st != NULL) {
                st->groups[g] = (xpbd_group){at, at + size, t};
                count[key + t] = at;
            }
            ++g;
            at += (uint32_t)round_up(size, XPBD_LINK_BATCH);
        }
    }
    if (st != NULL) {
        st->colour_group[c] = g;
    }
    *slots = at;
    *groups = g;
    *colours = c;
}

/* One block for the state: the header, the records, the slot arrays, the
 * groups and colour ranges. */
static cloth_status make_mesh_state(const cloth_t *cloth, uint32_t slots, uint32_t groups, uint32_t colours,
                                    xpbd_state **out)
{
    const size_t head = round_up(sizeof(xpbd_state), CLOTH_ALIGN);
    /* and the spare record, all zeros */
    const size_t records = round_up(4u * ((size_t)cloth->count + 1u) * sizeof(float), CLOTH_ALIGN);
    const size_t per_slot = round_up((size_t)slots * sizeof(float), CLOTH_ALIGN); /* uint32_t and float alike */
    const size_t group_bytes = round_up((size_t)groups * sizeof(xpbd_group), CLOTH_ALIGN);
    const size_t bytes = head + 2u * records + 4u * per_slot + group_bytes + ((size_t)colours + 1u) * sizeof(uint32_t);
    unsigned char *mem = cloth_mem_alloc(&cloth->alloc, bytes);
    if (mem == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    memset(mem, 0, bytes);
    xpbd_state *st = (xpbd_state *)(void *)mem;
    unsigned char *at = mem + head;
    st->alloc = cloth->alloc;
    st->bytes = bytes;
    st->x4 = (float *)(void *)at;
    st->u4 = (float *)(void *)(at + records);
    at += 2u * records;
    st->slot_i = (uint32_t *)(void *)at;
    st->slot_j = (uint32_t *)(void *)(at + per_slot);
    st->slot_rest = (float *)(void *)(at + 2u * per_slot);
    st->slot_lambda = (float *)(void *)(at + 3u * per_slot);
    at += 4u * per_slot;
    st->groups = (xpbd_group *)(void *)at;
    st->colour_group = (uint32_t *)(void *)(at + group_bytes);
    st->slots = slots;
    st->group_count = groups;
    st->colours = colours;
    *out = st;
    return CLOTH_OK;
}

/* The springs into their slots, in mesh order within a group (`next`: each
 * key's next free slot), and the spare slots of each group's last batch
 * on the spare record. */
static void fill_slots(const cloth_t *cloth, const uint32_t *colour, uint32_t *next, xpbd_state *st)
{
    for (uint32_t s = 0; s < cloth->spring_count; ++s) {
        const uint32_t slot = next[colour[s] * CLOTH_SPRING_TYPES + spring_type(cloth, s)]++;
        st->slot_i[slot] = cloth->spring_ij[2u * s];
        st->slot_j[slot] = cloth->spring_ij[2u * s + 1u];
        st->slot_rest[slot] = cloth->spring_rest[s];
    }
    for (uint32_t g = 0; g < st->group_count; ++g) {
        const xpbd_group *grp = &st->groups[g];
        for (uint32_t slot = grp->end; slot < round_up(grp->end, XPBD_LINK_BATCH); ++slot) {
            st->slot_i[slot] = cloth->count;
            st->slot_j[slot] = cloth->count;
            st->slot_rest[slot] = st->slot_rest[grp->begin];
        }
    }
}

static cloth_status create_mesh_state(const cloth_t *cloth, xpbd_state **out)
{
    const uint32_t n = cloth->spring_count;
    const size_t colour_bytes = (size_t)n * sizeof(uint32_t);
    const size_t used_bytes = (size_t)cloth->count * sizeof(uint64_t);
    uint32_t *colour = cloth_mem_alloc(&cloth->alloc, colour_bytes);
    uint64_t *used = cloth_mem_alloc(&cloth->alloc, used_bytes);
    uint32_t *count = NULL;
    size_t count_bytes = 0;
    cloth_status s = CLOTH_ERR_OUT_OF_MEMORY;
    if (colour != NULL && used != NULL) {
        const uint32_t keys =
            cloth_colour_edges(cloth->count, n, cloth->spring_ij, colour, used) * CLOTH_SPRING_TYPES;
        count_bytes = (size_t)keys * sizeof(uint32_t);
        count = cloth_mem_alloc(&cloth->alloc, count_bytes);
        if (count != NULL) {
            memset(count, 0, count_bytes);
            for (uint32_t k = 0; k < n; ++k) {
                ++count[colour[k] * CLOTH_SPRING_TYPES + spring_type(cloth, k)];
            }
            uint32_t slots, groups, colours;
            lay_out_groups(keys, count, NULL, &slots, &groups, &colours);
            s = make_mesh_state(cloth, slots, groups, colours, out);
            if (s == CLOTH_OK) {
                lay_out_groups(keys, count, *out, &slots, &groups, &colours);
                fill_slots(cloth, colour, count, *out);
            }
        }
    }
    cloth_mem_free(&cloth->alloc, count, count_bytes);
    cloth_mem_free(&cloth->alloc, used, used_bytes);
    cloth_mem_free(&cloth->alloc, colour, colour_bytes);
    return s;
}

static cloth_status grid_lambdas(const cloth_t *cloth, xpbd_state *st);

static cloth_status xpbd_create(void *user, const cloth_t *cloth, void **out)
{
    (void)user;
    xpbd_state *st = NULL;
    cloth_status s;
    if (cloth->tris == NULL) {
        /* the grid path keeps its displacements in the velocity arrays */
        st = cloth_mem_alloc(&cloth->alloc, sizeof *st);
        s = st != NULL ? CLOTH_OK : CLOTH_ERR_OUT_OF_MEMORY;
        if (st != NULL) {
            memset(st, 0, sizeof *st);
            st->alloc = cloth->alloc;
            st->bytes = sizeof *st;
            st->grid.kernel = cloth_kernels_at(cloth->simd)->xpbd_span;
            s = grid_lambdas(cloth, st);
            if (s != CLOTH_OK) {
                cloth_mem_free(&cloth->alloc, st, sizeof *st);
            }
        }
    } else {
        s = create_mesh_state(cloth, &st);
    }
    if (s == CLOTH_OK) {
        *out = st;
    }
    return s;
}

static void xpbd_destroy(void *user, void *state)
{
    (void)user;
    xpbd_state *st = state;
    if (st != NULL) {
        cloth_allocator alloc = st->alloc;
        cloth_mem_free(&alloc, st->grid.lambda, st->grid_lambda_bytes);
        cloth_mem_free(&alloc, st, st->bytes);
    }
}

/* The grid's lambdas, one per spring of every active family: kept while
 * the cloth runs more than one iteration, and only then (with one, every
 * lambda is read while still 0). Made here, not in the step, so that a step
 * never allocates. */
static cloth_status grid_lambdas(const cloth_t *cloth, xpbd_state *st)
{
    if (cloth->iterations <= 1u) {
        cloth_mem_free(&st->alloc, st->grid.lambda, st->grid_lambda_bytes);
        st->grid.lambda = NULL;
        st->grid_lambda_bytes = 0u;
        st->grid.lambda_count = 0u;
        return CLOTH_OK;
    }
    if (st->grid.lambda != NULL) {
        return CLOTH_OK;
    }
    const size_t lanes = CLOTH_ALIGN / sizeof(float);
    const size_t stride = round_up(cloth->count, lanes);
    const size_t count = (size_t)cloth->family_count * stride;
    float *lambda = cloth_mem_alloc(&st->alloc, count * sizeof(float));
    if (lambda == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    st->grid.lambda = lambda;
    st->grid.stride = stride;
    st->grid.lambda_count = count;
    st->grid_lambda_bytes = count * sizeof(float);
    return CLOTH_OK;
}

cloth_status cloth_xpbd_iterations_changed(cloth_t *cloth)
{
    /* installed as XPBD's hook (facts.h): called only while XPBD is */
    if (cloth->tris != NULL || cloth->integ_state == NULL) {
        return CLOTH_OK;
    }
    return grid_lambdas(cloth, cloth->integ_state);
}

/* A mesh's substep, shared by the passes below. */
typedef struct mesh_pass mesh_pass;
struct mesh_pass {
    const cloth_step_view *view;
    const xpbd_state *st;
    void (*kernel)(const xpbd_links *links);
    bool on[CLOTH_SPRING_TYPES]; /* a type whose springs act at all */
    xpbd_links type[CLOTH_SPRING_TYPES]; /* the kernel's arguments but the slots */
    uint32_t colour;
    void (*predict)(const struct mesh_pass *p, uint32_t first, uint32_t last); /* at the cloth's vector level */
    void (*finish)(const struct mesh_pass *p, uint32_t first, uint32_t last);
};

/* Particles [first, last): the records take the start of the substep and
 * the displacement each velocity predicts. A NULL fx: no forces. The loops
 * take restrict parameters so that they vectorise (xpbd_grid.c). */
static CLOTH_INLINE_ALWAYS void predict_records(float *restrict x4, float *restrict u4, const cloth_step_view *s,
                                                const float *restrict fx, const float *restrict fy,
                                                const float *restrict fz, uint32_t first, uint32_t last)
{
    const float *restrict x = s->x, *restrict y = s->y, *restrict z = s->z, *restrict w = s->inv_mass;
    const float *restrict vx = s->vx, *restrict vy = s->vy, *restrict vz = s->vz;
    const float *restrict ks = s->cloth->kscale;
    const float h = s->h, d = s->velocity_decay;
    const float gx = s->gravity[0], gy = s->gravity[1], gz = s->gravity[2];
    for (uint32_t i = first; i < last; ++i) {
        const float m = cloth_gravity_mask(w[i]);
        const float ax = fx != NULL ? w[i] * fx[i] : 0.0f, ay = fx != NULL ? w[i] * fy[i] : 0.0f;
        const float az = fx != NULL ? w[i] * fz[i] : 0.0f;
        x4[4u * i] = x[i];
        x4[4u * i + 1u] = y[i];
        x4[4u * i + 2u] = z[i];
        x4[4u * i + 3u] = w[i];
        u4[4u * i] = (vx[i] * d + (gx * m + ax) * h) * h;
        u4[4u * i + 1u] = (vy[i] * d + (gy * m + ay) * h) * h;
        u4[4u * i + 2u] = (vz[i] * d + (gz * m + az) * h) * h;
        /* the spare lane carries the stiffness scale to the kernel's gather */
        u4[4u * i + 3u] = ks != NULL ? ks[i] : 0.0f;
    }
}

static CLOTH_INLINE_ALWAYS void predict_body(const mesh_pass *p, uint32_t first, uint32_t last)
{
    const cloth_step_view *s = p->view;
    if (s->fx != NULL) {
        predict_records(p->st->x4, p->st->u4, s, s->fx, s->fy, s->fz, first, last);
    } else {
        predict_records(p->st->x4, p->st->u4, s, NULL, NULL, NULL, first, last);
    }
}

/* Particles [first, last): move each by its displacement, which over h is
 * its new velocity. */
static CLOTH_INLINE_ALWAYS void finish_body(const mesh_pass *p, uint32_t first, uint32_t last)
{
    const cloth_step_view *s = p->view;
    const float *restrict x4 = p->st->x4, *restrict u4 = p->st->u4;
    float *restrict x = s->x, *restrict y = s->y, *restrict z = s->z;
    float *restrict vx = s->vx, *restrict vy = s->vy, *restrict vz = s->vz;
    const float inv_h = 1.0f / s->h;
    for (uint32_t i = first; i < last; ++i) {
        x[i] = x4[4u * i] + u4[4u * i];
        y[i] = x4[4u * i + 1u] + u4[4u * i + 1u];
        z[i] = x4[4u * i + 2u] + u4[4u * i + 2u];
        vx[i] = u4[4u * i] * inv_h;
        vy[i] = u4[4u * i + 1u] * inv_h;
        vz[i] = u4[4u * i + 2u] * inv_h;
    }
}

static void predict_plain(const mesh_pass *p, uint32_t first, uint32_t last)
{
    predict_body(p, first, last);
}

static void finish_plain(const mesh_pass *p, uint32_t first, uint32_t last)
{
    finish_body(p, first, last);
}

#if CLOTH_TARGET_X86
CLOTH_TARGET_AVX2 static void predict_avx2(const mesh_pass *p, uint32_t first, uint32_t last)
{
    predict_body(p, first, last);
}

CLOTH_TARGET_AVX2 static void finish_avx2(const mesh_pass *p, uint32_t first, uint32_t last)
{
    finish_body(p, first, last);
}
#endif

/* Items [begin, end) of CLOTH_PARTICLES_PER_ITEM particles, predicted. */
static void mesh_predict(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const mesh_pass *p = ctx;
    uint32_t first, last;
    cloth_item_particles(begin, end, p->view->count, CLOTH_PARTICLES_PER_ITEM, &first, &last);
    p->predict(p, first, last);
}

/* Items [begin, end) of CLOTH_PARTICLES_PER_ITEM particles, finished. */
static void mesh_finish(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const mesh_pass *p = ctx;
    uint32_t first, last;
    cloth_item_particles(begin, end, p->view->count, CLOTH_PARTICLES_PER_ITEM, &first, &last);
    p->finish(p, first, last);
}

/* Batches [begin, end) of XPBD_LINK_BATCH slots of the pass's colour; a
 * group begins on a batch, so each batch is in one group. */
static void mesh_solve(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const mesh_pass *p = ctx;
    const xpbd_state *st = p->st;
    const uint32_t g0 = st->colour_group[p->colour], g1 = st->colour_group[p->colour + 1u];
    const uint32_t base = st->groups[g0].begin;
    const uint32_t from = base + begin * XPBD_LINK_BATCH, to = base + end * XPBD_LINK_BATCH;
    for (uint32_t g = g0; g < g1; ++g) {
        const xpbd_group *grp = &st->groups[g];
        const uint32_t lo = grp->begin > from ? grp->begin : from, hi = grp->end < to ? grp->end : to;
        if (lo >= hi || !p->on[grp->type]) {
            continue;
        }
        xpbd_links run = p->type[grp->type];
        run.begin = lo;
        run.end = hi;
        p->kernel(&run);
    }
}

/* Batches per range handed to a thread: a pass over a few thousand springs
 * is worth handing over, as for particles (tasks.h). */
#define MESH_MIN_BATCHES (CLOTH_PARTICLES_PER_RANGE / XPBD_LINK_BATCH)

/* One substep of a mesh: predict, `iterations` sweeps over the colours,
 * each colour a parallel loop over its batches (no two springs of a colour
 * share a particle, so the order within it changes no bit, and neither
 * does the thread count), then finish. */
static cloth_status mesh_step(xpbd_state *st, const cloth_step_view *s)
{
    const cloth_t *cloth = s->cloth;
    const float h = s->h;
    mesh_pass p;
    memset(&p, 0, sizeof p);
    p.view = s;
    p.st = st;
    p.kernel = cloth_kernels_at(cloth->simd)->xpbd_links;
    p.predict = predict_plain;
    p.finish = finish_plain;
#if CLOTH_TARGET_X86
    if (cloth->simd >= CLOTH_SIMD_AVX2) {
        p.predict = predict_avx2;
        p.finish = finish_avx2;
    }
#endif
    const uint32_t items = (s->count + CLOTH_PARTICLES_PER_ITEM - 1u) / CLOTH_PARTICLES_PER_ITEM;
    cloth_parallel_for(cloth, mesh_predict, items, 1u, &p);
    /* Pins: date the start back by the pin's velocity (see the top). */
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        const uint32_t i = cloth->pins[k].index;
        float *x4 = st->x4 + 4u * (size_t)i, *u4 = st->u4 + 4u * (size_t)i;
        u4[0] = s->vx[i] * h;
        u4[1] = s->vy[i] * h;
        u4[2] = s->vz[i] * h;
        x4[0] = s->x[i] - u4[0];
        x4[1] = s->y[i] - u4[1];
        x4[2] = s->z[i] - u4[2];
    }

    const bool keep = s->iterations > 1u; /* with one, every lambda is read while still 0 */
    if (keep) {
        memset(st->slot_lambda, 0, (size_t)st->slots * sizeof(float)); /* small steps: 0 every substep */
    }
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        const float kh2 = cloth->stiffness[t] * h * h;
        xpbd_links *run = &p.type[t];
        run->x4 = st->x4;
        run->u4 = st->u4;
        run->i = st->slot_i;
        run->j = st->slot_j;
        run->rest = st->slot_rest;
        run->lambda = keep ? st->slot_lambda : NULL;
        run->scaled = cloth->kscale != NULL;
        /* infinite when k = 0 or so small that the spring cannot act:
         * such springs are skipped */
        run->inv_kh2 = kh2 > 0.0f ? 1.0f / kh2 : INFINITY;
        p.on[t] = isfinite(run->inv_kh2);
        /* capped so that an absurd beta freezes the springs' rates
         * instead of making inf * 0 */
        run->gamma = fminf(cloth->spring_damping[t] / h, 1e30f);
        run->one_plus_gamma = 1.0f + run->gamma;
    }
    for (uint32_t it = 0; it < s->iterations; ++it) {
        for (p.colour = 0; p.colour < st->colours; ++p.colour) {
            const xpbd_group *last = &st->groups[st->colour_group[p.colour + 1u] - 1u];
            const uint32_t slots = last->end - st->groups[st->colour_group[p.colour]].begin;
            const uint32_t batches = (slots + XPBD_LINK_BATCH - 1u) / XPBD_LINK_BATCH;
            cloth_parallel_for(cloth, mesh_solve, batches, MESH_MIN_BATCHES, &p);
        }
    }
    cloth_parallel_for(cloth, mesh_finish, items, 1u, &p);
    return CLOTH_OK;
}

static cloth_status xpbd_step(void *user, void *state, const cloth_step_view *s)
{
    (void)user;
    xpbd_state *st = state;
    const cloth_t *cloth = s->cloth;
    if (cloth->tris == NULL) {
        /* the level may have changed since (cloth_set_simd_level()) */
        st->grid.kernel = cloth_kernels_at(cloth->simd)->xpbd_span;
        /* the lambdas exist exactly when iterations > 1 (grid_lambdas) */
        return cloth_xpbd_grid_step(&st->grid, s);
    }
    return mesh_step(st, s);
}

const cloth_integrator_vtable cloth_integrator_xpbd = {"xpbd", 0u, xpbd_create, xpbd_destroy, xpbd_step, NULL};
