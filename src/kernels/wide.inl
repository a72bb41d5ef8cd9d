/*
 * Every kernel at one width: included by wide_<lanes>.c after it defines
 * CLOTH_WIDE, it builds the kernels over platform/wide.h and their table.
 */
#include "kernels/kernels.h"
#include "platform/finite.h"
#include "platform/wide.h"

#include <math.h>

#include "kernels/finite.inl"
#include "kernels/levels.inl"
#include "kernels/limit.inl"
#include "kernels/measure.inl"
#include "kernels/xpbd_span.inl"
#include "kernels/xpbd_links.inl"
#include "kernels/contact.inl"
#include "kernels/sphere.inl"
#include "kernels/shapes.inl"
#include "kernels/tether_pack.inl"

const cloth_kernels WIDE(cloth_kernels) = {
    .lanes = WIDE_LANES,
    .sphere = WIDE(sphere),
    .capsule = WIDE(capsule),
    .cylinder = WIDE(cylinder),
    .torus = WIDE(torus),
    .plane = WIDE(plane),
    .ellipsoid = WIDE(ellipsoid),
    .tapered = WIDE(tapered),
    .convex = WIDE(convex),
    .nonfinite = WIDE(nonfinite),
    .level_halve = WIDE(level_halve),
    .level_add = WIDE(level_add),
    .level_mix = WIDE(level_mix),
    .level_nodes = WIDE(level_nodes),
    .limit_across = WIDE(limit_across),
    .limit_along = WIDE(limit_along),
    .xpbd_span = WIDE(xpbd_span),
    .xpbd_links = WIDE(xpbd_links),
    .ratio2 = WIDE(ratio2),
    .box = WIDE(box),
    .tether_pack = WIDE(tether_pack),
    .tether_unpack = WIDE(tether_unpack),
};
