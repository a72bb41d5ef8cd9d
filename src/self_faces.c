/*
 * Self-collision between a particle and a triangle (self_faces.h). A
 * particle within the thickness of a triangle's inside, on either side,
 * is pushed off its plane to the side it is on, and the triangle's corners
 * the other way by their weights there, as one constraint: distance to the
 * plane >= thickness, with the gradient (n; -u n, -v n, -w n) for corner
 * weights u, v, w. Where the nearest point is on an edge or a corner the
 * particle pairs act instead. The side is the one the particle was on when
 * the step began (side_at_start).
 */
#include "self_faces.h"
#include "constraints/tethers.h"

#include <math.h>
#include <string.h>

/* The triangles act from this fraction of the spacing up (self_faces.h). */
#define FACES_FROM 0.5

bool cloth_self_faces_wanted(const cloth_t *cloth, float thickness)
{
    double link = 0.0;
    if (cloth->tris == NULL) {
        link = (double)fminf(cloth->family_rest[0], cloth->family_rest[1]);
    } else {
        const uint32_t b = cloth->type_begin[CLOTH_SPRING_STRUCTURAL],
                       e = cloth->type_begin[CLOTH_SPRING_STRUCTURAL + 1];
        double sum = 0.0;
        for (uint32_t k = b; k < e; ++k) {
            sum += (double)cloth->spring_rest[k];
        }
        link = e > b ? sum / (double)(e - b) : 0.0;
    }
    return (double)thickness < link && (double)thickness >= FACES_FROM * link;
}

uint32_t cloth_self_face_total(const cloth_t *cloth)
{
    if (cloth->tris != NULL) {
        return cloth->tri_count;
    }
    return 2u * (cloth->rows - 1u) * (cloth->cols - 1u);
}

void cloth_self_face_vertices(const cloth_t *cloth, uint32_t face, uint32_t v[3])
{
    if (cloth->tris != NULL) {
        memcpy(v, cloth->tris + 3u * (size_t)face, 3u * sizeof(uint32_t));
        return;
    }
    const uint32_t cols = cloth->cols, q = face / 2u, i = (q / (cols - 1u)) * cols + q % (cols - 1u);
    if ((face & 1u) == 0u) {
        v[0] = i, v[1] = i + cols, v[2] = i + 1u;
    } else {
        v[0] = i + 1u, v[1] = i + cols, v[2] = i + cols + 1u;
    }
}

size_t cloth_self_faces_bytes(const cloth_t *cloth, uint32_t slots)
{
    const size_t n = cloth->count, faces = cloth_self_face_total(cloth);
    size_t words = n * (1u + 2u * (size_t)slots) + faces + 1u; /* counts, lists, points, their starts */
    if (cloth->tris != NULL) {
        words += n + 1u + 3u * faces; /* the fans */
    }
    return words * sizeof(uint32_t);
}

void cloth_self_faces_carve(const cloth_t *cloth, cloth_self *s, unsigned char *block, uint32_t slots)
{
    const uint32_t n = cloth->count, faces = cloth_self_face_total(cloth);
    s->face_slots = slots;
    s->face_count = (uint32_t *)(void *)block;
    s->face_list = s->face_count + n;
    s->point = s->face_list + (size_t)n * slots;
    s->point_start = s->point + (size_t)n * slots;
    s->fan_start = NULL;
    s->fan = NULL;
    memset(s->face_count, 0, (size_t)n * sizeof(uint32_t));
    memset(s->point_start, 0, ((size_t)faces + 1u) * sizeof(uint32_t));
    if (cloth->tris == NULL) {
        return;
    }
    s->fan_start = s->point_start + faces + 1u;
    s->fan = s->fan_start + n + 1u;
    memset(s->fan_start, 0, ((size_t)n + 1u) * sizeof(uint32_t));
    for (uint32_t k = 0; k < 3u * faces; ++k) {
        ++s->fan_start[cloth->tris[k] + 1u];
    }
    for (uint32_t i = 0; i < n; ++i) {
        s->fan_start[i + 1u] += s->fan_start[i];
    }
    for (uint32_t f = 0; f < faces; ++f) { /* in face order: each fan sorted */
        for (uint32_t c = 0; c < 3u; ++c) {
            s->fan[s->fan_start[cloth->tris[3u * f + c]]++] = f;
        }
    }
    for (uint32_t i = n; i > 0u; --i) {
        s->fan_start[i] = s->fan_start[i - 1u];
    }
    s->fan_start[0] = 0u;
}

uint32_t cloth_self_faces_about(const cloth_t *cloth, const cloth_self *s, uint32_t v,
                                uint32_t buf[CLOTH_SELF_GRID_FAN], const uint32_t **out)
{
    if (cloth->tris != NULL) {
        *out = s->fan + s->fan_start[v];
        return s->fan_start[v + 1u] - s->fan_start[v];
    }
    /* the quads about (r, c) in increasing order: up-left (its second
     * triangle), up (both), left (both), own (its first) */
    const uint32_t cols = cloth->cols, r = v / cols, c = v % cols, qcols = cols - 1u;
    uint32_t k = 0u;
    if (r > 0u && c > 0u) {
        buf[k++] = 2u * ((r - 1u) * qcols + c - 1u) + 1u;
    }
    if (r > 0u && c < qcols) {
        buf[k++] = 2u * ((r - 1u) * qcols + c);
        buf[k++] = 2u * ((r - 1u) * qcols + c) + 1u;
    }
    if (r < cloth->rows - 1u && c > 0u) {
        buf[k++] = 2u * (r * qcols + c - 1u);
        buf[k++] = 2u * (r * qcols + c - 1u) + 1u;
    }
    if (r < cloth->rows - 1u && c < qcols) {
        buf[k++] = 2u * (r * qcols + c);
    }
    *out = buf;
    return k;
}

float cloth_self_longest_edge(const cloth_t *cloth)
{
    if (cloth->tris == NULL) {
        double s2, cross;
        cloth_tether_grid_terms(cloth, &s2, &cross);
        /* the sides, and the diagonal (i + 1, i + cols): dc = -1, dr = 1 */
        const float diagonal = grid_rest(s2, cross, -1.0, 1.0);
        return fmaxf(fmaxf(cloth->family_rest[0], cloth->family_rest[1]), diagonal);
    }
    const uint32_t n = cloth->count;
    const float *x = cloth->rest_shape, *y = x + n, *z = y + n;
    double top = 0.0;
    for (uint32_t k = 0; k < 3u * cloth->tri_count; ++k) {
        const uint32_t a = cloth->tris[k], b = cloth->tris[k % 3u == 2u ? k - 2u : k + 1u];
        const double dx = (double)x[a] - (double)x[b], dy = (double)y[a] - (double)y[b], dz = (double)z[a] - (double)z[b];
        top = fmax(top, dx * dx + dy * dy + dz * dz);
    }
    return (float)sqrt(top);
}

static float dot3(const float a[3], const float b[3])
{
    return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2];
}

/* The nearest point of triangle a, b, c to p, by the regions of its
 * corners, edges and inside (Ericson, Real-Time Collision Detection 5.1.5). */
float cloth_self_point_face_d2(const float p[3], const float a[3], const float b[3], const float c[3])
{
    float ab[3], ac[3], ap[3], q[3];
    for (int k = 0; k < 3; ++k) {
        ab[k] = b[k] - a[k];
        ac[k] = c[k] - a[k];
        ap[k] = p[k] - a[k];
    }
    const float d1 = dot3(ab, ap), d2 = dot3(ac, ap);
    float u = 0.0f, v = 0.0f; /* q = a + u ab + v ac */
    if (d1 <= 0.0f && d2 <= 0.0f) {
        u = 0.0f, v = 0.0f;
    } else {
        float bp[3], cp[3];
        for (int k = 0; k < 3; ++k) {
            bp[k] = p[k] - b[k];
            cp[k] = p[k] - c[k];
        }
        const float d3 = dot3(ab, bp), d4 = dot3(ac, bp), d5 = dot3(ab, cp), d6 = dot3(ac, cp);
        const float vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
        if (d3 >= 0.0f && d4 <= d3) {
            u = 1.0f, v = 0.0f;
        } else if (d6 >= 0.0f && d5 <= d6) {
            u = 0.0f, v = 1.0f;
        } else if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
            u = d1 / (d1 - d3), v = 0.0f;
        } else if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
            u = 0.0f, v = d2 / (d2 - d6);
        } else if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
            const float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            u = 1.0f - w, v = w;
        } else {
            const float den = 1.0f / (va + vb + vc);
            u = vb * den, v = vc * den;
        }
    }
    for (int k = 0; k < 3; ++k) {
        q[k] = p[k] - (a[k] + u * ab[k] + v * ac[k]);
    }
    const float d = dot3(q, q);
    return isfinite(d) ? d : HUGE_VALF;
}

void cloth_self_faces_transpose(const cloth_t *cloth, cloth_self *s)
{
    const uint32_t n = cloth->count, faces = cloth_self_face_total(cloth), slots = s->face_slots;
    memset(s->point_start, 0, ((size_t)faces + 1u) * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t *list = s->face_list + (size_t)i * slots;
        for (uint32_t k = 0; k < s->face_count[i]; ++k) {
            ++s->point_start[list[k] + 1u];
        }
    }
    for (uint32_t f = 0; f < faces; ++f) {
        s->point_start[f + 1u] += s->point_start[f];
    }
    for (uint32_t i = 0; i < n; ++i) { /* in particle order: each triangle's points sorted */
        const uint32_t *list = s->face_list + (size_t)i * slots;
        for (uint32_t k = 0; k < s->face_count[i]; ++k) {
            s->point[s->point_start[list[k]]++] = i;
        }
    }
    for (uint32_t f = faces; f > 0u; --f) {
        s->point_start[f] = s->point_start[f - 1u];
    }
    s->point_start[0] = 0u;
}

/* The weights of the corners at the foot of the perpendicular from a
 * point at `ap` (from corner a) to the triangle of edges e1 and e2 (from
 * a); false for a squashed triangle. */
static bool foot(const float ap[3], const float e1[3], const float e2[3], float bary[3])
{
    const float d00 = dot3(e1, e1), d01 = dot3(e1, e2), d11 = dot3(e2, e2), d20 = dot3(ap, e1), d21 = dot3(ap, e2);
    const float den = d00 * d11 - d01 * d01;
    if (!(den > 0.0f)) {
        return false;
    }
    bary[1] = (d11 * d20 - d01 * d21) / den;
    bary[2] = (d00 * d21 - d01 * d20) / den;
    bary[0] = 1.0f - bary[1] - bary[2];
    return true;
}

/* The side of the triangle's plane the particle was on when the step
 * began (the kept state), if it was over the triangle's inside then: the
 * side it is pushed back to, so that a particle that slips past the plane
 * within a step is not pushed on through. Otherwise (it came in over an
 * edge, or was on the plane) the side it is on now, of signed distance h.
 * The kept state belongs to the step, not to the lists, so the answer does
 * not depend on when they were built. */
static float side_at_start(const cloth_particles *p, uint32_t i, const uint32_t v[3], float h)
{
    float e1[3], e2[3], ap[3], bary[3];
    const float a[3] = {p->sx[v[0]], p->sy[v[0]], p->sz[v[0]]};
    e1[0] = p->sx[v[1]] - a[0], e1[1] = p->sy[v[1]] - a[1], e1[2] = p->sz[v[1]] - a[2];
    e2[0] = p->sx[v[2]] - a[0], e2[1] = p->sy[v[2]] - a[1], e2[2] = p->sz[v[2]] - a[2];
    ap[0] = p->sx[i] - a[0], ap[1] = p->sy[i] - a[1], ap[2] = p->sz[i] - a[2];
    const float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    const float was = dot3(ap, n);
    if (foot(ap, e1, e2, bary) && bary[0] > 0.0f && bary[1] > 0.0f && bary[2] > 0.0f && was != 0.0f) {
        return was > 0.0f ? 1.0f : -1.0f;
    }
    return h >= 0.0f ? 1.0f : -1.0f;
}

bool cloth_self_face_contact(const cloth_particles *p, float t, uint32_t i, const uint32_t v[3],
                             cloth_self_face_hit *hit)
{
    const float x[3] = {p->x[i], p->y[i], p->z[i]};
    float c[3][3];
    for (int k = 0; k < 3; ++k) {
        c[k][0] = p->x[v[k]];
        c[k][1] = p->y[v[k]];
        c[k][2] = p->z[v[k]];
    }
    float e1[3], e2[3], n[3], ap[3];
    for (int k = 0; k < 3; ++k) {
        e1[k] = c[1][k] - c[0][k];
        e2[k] = c[2][k] - c[0][k];
        ap[k] = x[k] - c[0][k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    const float area2 = dot3(n, n);
    if (!(area2 > 0.0f) || !isfinite(area2)) {
        return false; /* a triangle squashed to a line has no side */
    }
    const float len = sqrtf(area2);
    for (int k = 0; k < 3; ++k) {
        n[k] /= len;
    }
    const float h = dot3(ap, n);
    if (!(fabsf(h) < 2.0f * t)) {
        return false; /* clear of it, or through it by more than a substep moves */
    }
    float bary[3];
    if (!foot(ap, e1, e2, bary)) {
        return false;
    }
    const float bu = bary[0], bv = bary[1], bw = bary[2];
    if (!(bu > 0.0f && bv > 0.0f && bw > 0.0f)) {
        return false; /* over an edge or a corner: the particle pairs act */
    }
    const float side = side_at_start(p, i, v, h), gap = side * h;
    if (!(gap < t)) {
        return false;
    }
    const float wsum = p->w[i] + (bu * bu * p->w[v[0]] + bv * bv * p->w[v[1]]) + bw * bw * p->w[v[2]];
    if (!(wsum > 0.0f)) {
        return false;
    }
    for (int k = 0; k < 3; ++k) {
        hit->normal[k] = side * n[k];
    }
    hit->bary[0] = bu, hit->bary[1] = bv, hit->bary[2] = bw;
    hit->push = (t - gap) / wsum;
    float vr[3];
    vr[0] = p->vx[i] - ((bu * p->vx[v[0]] + bv * p->vx[v[1]]) + bw * p->vx[v[2]]);
    vr[1] = p->vy[i] - ((bu * p->vy[v[0]] + bv * p->vy[v[1]]) + bw * p->vy[v[2]]);
    vr[2] = p->vz[i] - ((bu * p->vz[v[0]] + bv * p->vz[v[1]]) + bw * p->vz[v[2]]);
    const float vn = dot3(vr, hit->normal);
    hit->stop = vn < 0.0f ? -vn / wsum : 0.0f;
    return true;
}
