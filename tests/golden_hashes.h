/* Written by `test_golden --print` (tests/test_golden.c); regenerate only
 * for a change meant to change the physics, and say so in its commit. */
#define GOLDEN_TABLE 1
static const uint64_t k_golden[] = {
    0xaed92479f574dd6bull, /* defaults 33x33 */
    0xfa980b796c50ed42ull, /* defaults 12x70 */
    0xf0e50af48de0d940ull, /* cotton 40x40 */
    0xe6f41ab998c66422ull, /* cotton pbd 24x24 */
    0x252fb5516c390d32ull, /* fast shapes 65x65 */
    0xd85816285277b4bcull, /* explicit 16x16 */
    0x2ac424407f3e8d08ull, /* trapezoid 16x16 */
    0xeaaf7904ab30f81dull, /* verlet 16x16 */
    0x58f9dc73f403efddull, /* pbd 20x20 */
    0x5d7c6f51f164cb85ull, /* semirigid 20x20 */
    0x14faae03eab2a8f3ull, /* relaxation 16x16 */
    0xd1c68a840bb18546ull, /* implicit 16x16 */
    0x3225c81cddec1423ull, /* mesh xpbd 17x17 */
    0xaa61b183e2d96d0eull, /* mesh cotton 17x17 */
    0x2b9f74e5aa60a943ull, /* body shapes 30x30 */
    0xceda52ca06b3e7a1ull, /* body shapes 12x70 */
    0xf353c55b63a925d8ull, /* ellipsoids 30x30 */
    0x73f335da47b90d98ull, /* ellipsoids 12x70 */
    0x91b2e39b34da7b34ull, /* limbs 30x30 */
    0xe975f4eb173386ceull, /* limbs 12x70 */
    0x57e48f9b6b63d90cull, /* hulls and meshes 30x30 */
    0x9e6695034487e8afull, /* hulls and meshes 12x70 */
    0x60e120e84de974f9ull, /* painted 30x30 */
    0x3ee0f60092f8a1acull, /* painted 12x70 */
    0x78d9277b274f1e1cull, /* painted mesh 17x17 */
    0x28d1fa2720a44e1dull, /* painted explicit 16x16 */
    0x4652d975df11e1d0ull, /* self-collision 30x30 */
};
