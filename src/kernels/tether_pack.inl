/*
 * The tether pass's batch on a grid (constraints/tether_grid.c): most
 * particles in most substeps are well inside their tethers, and the few a
 * row's flags pick are packed into the float batch a group of WIDE_LANES
 * at a time, then unpacked into the same places after the solve. Only
 * floats move, in index order (the order the plain loop pushes them in),
 * so the solve gives the same bits at every width.
 */
static uint32_t WIDE(tether_pack)(const cloth_tether_pack *b, const int32_t *flag, uint32_t i, uint32_t r,
                                  uint32_t c, uint32_t len, uint32_t j)
{
    for (; j < len; j += WIDE_LANES) {
        const uint32_t live = len - j < WIDE_LANES ? len - j : WIDE_LANES;
        const uint32_t bits = wi_nonzero_bits(flag + j, live);
        if (bits == 0u) {
            continue;
        }
        if (*b->n + WIDE_LANES > b->capacity) {
            return j; /* the caller solves the batch and comes back */
        }
        const uint32_t n = *b->n, at = i + j;
        const wperm pack = wperm_pack(bits);
        for (int a = 0; a < 6; ++a) {
            wf_pack_store(b->lane[a] + n, pack, wf_load_n(b->particle[a] + at, live));
        }
        uint32_t k = n;
        for (uint32_t left = bits; left != 0u; left &= left - 1u, ++k) {
            const uint32_t l = (uint32_t)__builtin_ctz(left);
            b->index[k] = at + l;
            b->col[k] = (double)(c + j + l);
            b->row[k] = (double)r;
        }
        b->group_at[*b->groups] = at;
        b->group_mask[*b->groups] = (uint16_t)bits;
        ++*b->groups;
        *b->n = k;
    }
    return len;
}

static void WIDE(tether_unpack)(const cloth_tether_pack *b)
{
    uint32_t first = 0u; /* the group's first lane */
    for (uint32_t g = 0; g < *b->groups; ++g) {
        const uint32_t bits = b->group_mask[g], at = b->group_at[g];
        uint32_t keep = 0u, k = first; /* the exact path writes the others */
        for (uint32_t left = bits; left != 0u; left &= left - 1u, ++k) {
            keep |= b->exact[k] == 0 ? left & (0u - left) : 0u;
        }
        const wperm unpack = wperm_unpack(bits);
        for (int a = 0; a < 6; ++a) {
            wf_store_bits(b->particle[a] + at, keep, wf_unpack(unpack, wf_load_n(b->lane[a] + first, k - first)));
        }
        first = k;
    }
}
