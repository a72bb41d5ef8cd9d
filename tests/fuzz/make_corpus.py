#!/usr/bin/env python3
"""Write the seed corpus of tests/fuzz/fuzz_api.c into tests/fuzz/corpus/.

Each seed is a small, readable program in the harness's byte format: a setup
(a grid or a mesh, hostile descs included) and a list of ops, so that the
fuzzer starts with every kind of call already reached. The op numbers are
read from the FZ_OPS list in fuzz_api.c, so reordering the ops there only needs
this script run again:

    python3 tests/fuzz/make_corpus.py

The seeds are committed; the fuzzer's own finds are not (they live in the
fuzz build tree), except crashes, which go to tests/fuzz/regressions/.
"""
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = open(os.path.join(HERE, "fuzz_api.c"), encoding="utf-8").read()

_list = re.search(r"#define FZ_OPS\(X\)(.*?)\n\n", SRC, re.S).group(1)
OPS = {name: i for i, name in enumerate(re.findall(r"X\((\w+)\)", _list))}

# the harness's table of special floats, by selector
SPECIAL = {"0": 0, "-0": 1, "1": 2, "-1": 3, "nan": 4, "-nan": 5, "inf": 6, "-inf": 7, "max": 8,
           "-max": 9, "min": 10, "denorm": 11, "1e-30": 12, "1e30": 13, "0.5": 14, "0.05": 15,
           "0.01": 16, "2": 17, "10": 18, "100": 19, "1e6": 20, "-1e6": 21, "1e-6": 22, "1/60": 23,
           "1+": 24, "1-": 25, "1e20": 26, "-1e-30": 27, "1.7e38": 28, "-0.5": 29, "9.81": 30,
           "-9.81": 31}

# the harness's edge values (fz_edge()), by name, after selector 254
EDGE = {"8e37": 0, "1e20": 1, "1.8e19": 2, "1e-23": 3, "1e-40": 4, "2e-39": 5, "3e-39": 6, "3e38": 7,
        "1e38": 8, "-min": 9, "2min": 10, "max/2": 11, "1e-38": 12, "4e18": 13, "1e19": 14, "-8e37": 15}

# fz_stride()'s table, by value (first match); the last ones wrap around a 64-bit size_t
HUGE = 1 << 63
STRIDES = [0, 12, 16, 24, 32, 48, 64, 1, 2, 3, 4, 8, 11, 13, 14, 15, 18, 22,
           6, 10, 20, 28, 36, 44, 52, 60, 13, 17, 25, 31, 2**64 - 1,
           HUGE | 2, 2**64 - 12, 2**64 - 4, HUGE, HUGE + 12, 2**64 - 16, 2**64 - 12 - 4096]


def f(x):
    """One float argument: a named special or edge value, a multiple of 1/16 in range, or raw bits."""
    if isinstance(x, str):
        return bytes([254, EDGE[x]]) if x in EDGE else bytes([SPECIAL[x]])
    sel = x * 16 + 143
    if sel == int(sel) and 32 <= sel <= 253:
        return bytes([int(sel)])
    return b"\xff" + struct.pack("<f", x)


def vec(*xs):
    return b"".join(f(x) for x in xs)


def u8(*vs):
    return bytes(v & 0xFF for v in vs)


def u16(v):
    return struct.pack("<H", v)


def u32(v):
    return struct.pack("<I", v)


def stride(s):
    return u8(STRIDES.index(s))


def idx(i):
    """A particle index argument (fz_index): in range as given, or a hostile kind."""
    hostile = {"count": 0xFF00, "count+1": 0xFF01, "max": 0xFF02, "2^31": 0xFF03}
    return u16(hostile[i]) if isinstance(i, str) else u16(i)


def op(name, *args):
    return u8(OPS[name]) + b"".join(args)


def grid(rows=8, cols=8, fields=0, *field_bytes, alloc=None):
    """setup 0 (malloc) or 4 (host allocator: alloc = the mode bytes)."""
    head = u8(4 if alloc is not None else 0, rows, cols, fields) + b"".join(field_bytes)
    return head + (alloc or b"")


def mesh(w=4, h=4, stride_=0, edits=(), alloc=b"\x00"):
    out = u8(3, w - 2, h - 2) + stride(stride_) + u8(len(edits)) + b"".join(edits)
    return out + u8(0) + alloc


FRAMES = op("STEP_SMALL", u8(7))
SEEDS = {}


def seed(name, data):
    SEEDS[name] = data


# --- plain scenes, one per integrator ---
seed("grid_default_frames", grid() + FRAMES + op("READBACK", stride(24), u8(0)))
for k in range(8):
    seed(f"integrator_{k}", grid(10, 10) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) +
         op("PIN", idx(9), u8(1), vec(0, 0, 0)) + op("INTEGRATOR", u8(k)) + FRAMES + FRAMES +
         op("READBACK", stride(32), u8(0)))
seed("integrator_invalid", grid(6, 6) + b"".join(op("INTEGRATOR", u8(k)) for k in range(8, 13)) + FRAMES)
seed("integrator_switching", grid(8, 8) + b"".join(op("INTEGRATOR", u8(k)) + op("STEP", f("1/60"))
                                                   for k in (1, 2, 3, 5, 6, 7, 0, 4)))
# --- host integrators: good, with finish, stateless, failing create, NaN, error, refused vtables ---
for mode, table in ((0, 0), (1, 1), (2, 0), (3, 0), (4, 1), (6, 1), (0, 2), (0, 3), (0, 4), (0, 0xF)):
    seed(f"custom_integrator_{mode}_{table}",
         grid(6, 6) + op("SPHERE", vec(0.125, -0.25, 0.125), f(0.25)) +
         op("CUSTOM_INTEGRATOR", u8(0xF0 if table == 0xF else (table << 3) | mode), u8(3)) + FRAMES + op("INTEGRATOR", u8(0)) + FRAMES)
# --- hostile steps ---
seed("step_hostile_dt", grid(5, 5) + b"".join(op("STEP", f(x)) for x in
                                              ("nan", "-nan", "inf", "-inf", "0", "-0", "-1", "1+", "1",
                                               "denorm", "1e-30", "min", "max", "1-", "1/60")))
seed("substeps_iterations", grid(6, 6) + b"".join(op("SUBSTEPS", u8(i)) + op("STEP", f("1/60")) for i in range(12)) +
     b"".join(op("ITERATIONS", u8(i)) for i in range(8)) + op("INTEGRATOR", u8(3)) + op("ITERATIONS", u8(4)) + FRAMES)
# --- setters ---
seed("setters_hostile", grid(6, 6) + op("GRAVITY", vec("nan", 0, 0)) + op("GRAVITY", vec("max", "max", "max")) +
     op("GRAVITY", vec(0, 5, 0)) + op("DAMPING", f("-1")) + op("DAMPING", f("inf")) + op("DAMPING", f("1e6")) +
     op("STIFFNESS", u8(0), f("1e6")) + op("STIFFNESS", u8(250), f("1")) + op("STIFFNESS", u8(251), f("1")) +
     op("STIFFNESS", u8(1), f("-0")) + op("STIFFNESS", u8(2), f("nan")) +
     op("SPRING_DAMPING", u8(0), f("1e30")) + op("SPRING_DAMPING", u8(4), f("0.5")) + FRAMES)
seed("stiff_unstable", grid(8, 8) + op("STIFFNESS", u8(0), f("1e20")) + op("SUBSTEPS", u8(1)) + FRAMES +
     op("INTEGRATOR", u8(1)) + FRAMES + op("INTEGRATOR", u8(2)) + FRAMES)
# --- pins ---
seed("pins", grid(8, 8) + op("PIN", idx(0), u8(0), vec(0, 1, 0)) + op("PIN", idx("count"), u8(1), vec(0, 0, 0)) +
     op("PIN", idx("max"), u8(1), vec(0, 0, 0)) + op("PIN", idx(3), u8(0), vec("nan", 0, 0)) +
     op("PIN", idx(7), u8(0), vec("max", "-max", 0)) + op("PIN", idx(7), u8(0), vec(1, 2, 3)) + FRAMES +
     op("UNPIN", idx(0)) + op("UNPIN", idx("count+1")) + op("UNPIN", idx(5)) + FRAMES)
# --- colliders ---
seed("colliders_all", grid(10, 10) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) +
     op("SPHERE", vec(0.25, -0.5, 0.25), f(0.25)) +
     op("ELLIPSOID", vec(0.25, -1, 0.25), vec(0.25, 0.125, 0.5), u8(0), vec(0, 0, 0.5, 0.5)) +
     op("PLANE", vec(0, -2, 0), vec(0, 1, 0)) +
     op("CAPSULE", vec(0, -0.5, 0), u8(0), vec(0.5, -0.5, 0), f(0.125)) +
     op("CYLINDER", vec(0, -0.75, 0), u8(0), vec(0, -0.75, 0.5), f(0.125)) +
     op("TORUS", vec(0.25, -0.5, 0.25), vec(0, 1, 0), f(0.25), f(0.0625)) +
     op("FRICTION", u8(0), f(0.5)) + op("THICKNESS", u8(1), f(0.01)) + FRAMES +
     op("TRANSFORM", u8(0), vec(0.5, 0, 0), u8(2), f(0.5)) + FRAMES +
     op("GET_TRANSFORM", u8(2), u8(0)) + op("REMOVE_COLLIDER", u8(1)) + FRAMES + op("READBACK", stride(16), u8(0)))
seed("colliders_hostile", grid(6, 6) + op("SPHERE", vec("nan", 0, 0), f(1)) + op("SPHERE", vec(0, 0, 0), f("-1")) +
     op("SPHERE", vec(0, 0, 0), f("0")) + op("SPHERE", vec(0, 0, 0), f("max")) +
     op("ELLIPSOID", vec(0, 0, 0), vec(1, 0, 1), u8(1), vec(0, 0, 0, 0)) +
     op("ELLIPSOID", vec(0, 0, 0), vec(1, 1, 1), u8(0), vec(0, 0, 0, 0)) +
     op("ELLIPSOID", vec(0, 0, 0), vec(1, 1, 1), u8(0), vec(1, 1, 1, 1)) +
     op("PLANE", vec(0, 0, 0), vec(0, 0, 0)) + op("PLANE", vec(0, 0, 0), vec("min", "denorm", 0)) +
     op("CAPSULE", vec(0, 0, 0), u8(1), f(0.5)) + op("CYLINDER", vec(0, 0, 0), u8(1), f(0.5)) +
     op("TORUS", vec(0, 0, 0), vec(0, 0, 0), f(1), f(0.5)) + op("TORUS", vec(0, 0, 0), vec(0, 1, 0), f(0.25), f(1)) +
     op("FRICTION", u8(0xF3), f(1)) + op("THICKNESS", u8(0xF0), f("nan")) + op("FRICTION", u8(0), f("-1")) +
     op("TRANSFORM", u8(0xF3), vec(0, 0, 0), u8(0), vec(0, 0, 0, 1)) + op("TRANSFORM", u8(0), vec("inf", 0, 0), u8(1), vec(0, 0, 0, 1)) +
     op("TRANSFORM", u8(0), vec(0, 0, 0), u8(0), vec(0, 0, 0, 2)) + op("REMOVE_COLLIDER", u8(0xF4)) +
     op("REMOVE_COLLIDER", u8(0)) + op("REMOVE_COLLIDER", u8(0)) + FRAMES)
seed("collider_teleport", grid(12, 12) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) +
     op("SPHERE", vec(0.25, 1, 0.25), f(0.25)) + op("STEP", f("1/60")) +
     op("TRANSFORM", u8(0), vec(0.25, -1, 0.25), u8(1), vec(0, 0, 0, 1)) + FRAMES +
     op("TRANSFORM", u8(0), vec("1e6", 0, 0), u8(1), vec(0, 0, 0, 1)) + FRAMES + op("TRANSFORM", u8(0), vec(0.25, 0, 0.25), u8(4), vec(0, 0, 0, 1)))
# --- wind and forces ---
for mode in range(6):
    seed(f"wind_mode_{mode}", grid(8, 8) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) +
         op("WIND", u8(mode), u8(5), vec(100, "nan", 0)) + FRAMES + op("READBACK", stride(0), u8(0)))
seed("wind_constant_air", grid(8, 8) + op("CONSTANT_WIND", vec(100, 0, 0)) + op("CONSTANT_WIND", vec("inf", 0, 0)) +
     op("AIR", u8(0), f(1.25)) + op("AIR", u8(1), f("-1")) + op("AIR", u8(2), f("nan")) + op("AIR", u8(1), f(2)) +
     FRAMES + op("WIND", u8(0x80), u8(0), vec(0, 0, 0)) + FRAMES)
for mode in range(5):
    seed(f"force_mode_{mode}", grid(6, 6) + op("FORCE_HOOK", u8(mode), u8(2), vec("1e30", 3, -1)) + FRAMES)
# --- state access ---
seed("readback_strides", grid(5, 7) + FRAMES + b"".join(op("READBACK", stride(s), u8(0)) for s in STRIDES) +
     op("TRIANGLES") + op("SPRINGS", u8(7)) + op("SPRINGS", u8(0)) + op("SPRINGS", u8(2)))
seed("set_positions_velocities", grid(6, 6) + op("SET_POSITIONS", stride(16), vec(0.5, 0, 0), u8(1)) +
     op("SET_POSITIONS", stride(0), vec(0, 0, 0), u8(2), f("nan"), u8(3), u8(1)) +
     op("SET_POSITIONS", stride(13), vec(0, 0, 0), u8(0)) +
     op("SET_POSITIONS", stride(0), vec(0, 0, 0), u8(2), f("max"), u8(0), u8(0)) + FRAMES + op("READBACK", stride(0), u8(0)) +
     op("SET_VELOCITIES", stride(24), vec(100, 0, 0), u8(1)) +
     op("SET_VELOCITIES", stride(0), vec(0, 0, 0), u8(2), f("inf"), u8(1), u8(2)) + FRAMES)
# --- snapshots ---
seed("snapshot_roundtrip", grid(8, 8) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) +
     op("SPHERE", vec(0.25, -0.5, 0.25), f(0.25)) + FRAMES + op("SNAPSHOT_ROUNDTRIP", u8(2)) + FRAMES +
     op("SNAPSHOT_ROUNDTRIP", u8(1)))
seed("snapshot_corrupt", grid(6, 6) + op("PIN", idx(2), u8(1), vec(0, 0, 0)) + op("PIN", idx(4), u8(1), vec(0, 0, 0)) +
     op("SPHERE", vec(0, -1, 0), f(0.5)) + FRAMES +
     op("SNAPSHOT_CORRUPT", u8(1), u16(40), u8(7), u8(0)) +
     op("SNAPSHOT_CORRUPT", u8(1), u16(0x8000 | 100), u8(0xFF), u8(4)) +
     op("SNAPSHOT_CORRUPT", u8(0), u8(1), u8(9)) + op("SNAPSHOT_CORRUPT", u8(0), u8(2), u8(9)) +
     op("SNAPSHOT_CORRUPT", u8(2), u16(0x8000 | 24), u8(0xFF), u16(0x8000 | 1100), u8(0), u8(4)) +
     op("SNAPSHOT_CORRUPT", u8(0), u8(6), u8(12)) + FRAMES)
seed("snapshot_foreign", grid(4, 4) + op("SNAPSHOT_FOREIGN", u16(40), u8(1) * 40) +
     op("SNAPSHOT_FOREIGN", u16(600), u8(1) + bytes(range(256)) * 2 + u8(0) * 87) + op("SNAPSHOT_FOREIGN", u16(3), u8(0, 0, 0)))
# --- statistics, watchdog, tethers, bending, PBD parameters, NULLs ---
seed("stats_watchdog", grid(8, 8) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + op("WATCHDOG", f(0.01), f(0), u8(1)) +
     FRAMES + op("STATS", u8(0)) + op("WATCHDOG", f("nan"), f(0), u8(0)) + op("WATCHDOG", f(0), f("-1"), u8(0)) +
     op("WATCHDOG", f(0), f(1e-6), u8(255)) + op("WATCHDOG", f(0), f("1e-6"), u8(0)) + FRAMES +
     op("STATS", u8(1), u8(0xFF)) + op("STATS", u8(1), u8(0xF9)))
seed("tethers_bending", grid(10, 10) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + op("PIN", idx(9), u8(1), vec(0, 0, 0)) +
     op("TETHERS", f(1.125)) + op("TETHERS", f("nan")) + op("TETHERS", f(0.5)) + op("TETHERS", f(11)) +
     op("BENDING", f(0.5)) + op("BENDING", f("-1")) + op("BENDING", f("inf")) + FRAMES + op("UNPIN", idx(0)) +
     FRAMES + op("TETHERS", f(0)) + op("BENDING", f(0)) + FRAMES)
seed("tether_schedule", grid(10, 10) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + op("TETHERS", f(1.125)) +
     op("SUBSTEPS", u8(9)) + op("TETHER_SCHEDULE", u8(1)) + FRAMES + op("TETHER_SCHEDULE", u8(2)) +
     op("TETHER_SCHEDULE", u8(255)) + op("STRAIN_LIMIT", u8(2), f(0.05)) + FRAMES + op("TETHER_SCHEDULE", u8(0)) +
     FRAMES)
seed("pbd_params", grid(8, 8) + op("INTEGRATOR", u8(3)) + op("PBD_PARAMS", u8(1), f(0.5)) +
     op("PBD_PARAMS", u8(1), f("-1")) + op("PBD_PARAMS", u8(1), f(100)) + op("PBD_PARAMS", u8(0), f(0.5)) +
     op("PBD_PARAMS", u8(2), f(2)) + op("PBD_PARAMS", u8(6), f(0.5)) + op("PBD_PARAMS", u8(4), f("nan")) + FRAMES)
seed("nulls", grid(3, 3) + op("NULLS"))
seed("strain_limit", grid(10, 10) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + op("STRAIN_LIMIT", u8(2), f(0.05)) +
     op("SPHERE", vec(0.2, -0.3, 0.2), f(0.2)) + FRAMES + op("STRAIN_LIMIT", u8(255), f(0.1)) +
     op("STRAIN_LIMIT", u8(3), f("nan")) + op("STRAIN_LIMIT", u8(1), f(0)) + FRAMES +
     op("STRAIN_LIMIT", u8(7), f(11)) + op("STRAIN_LIMIT", u8(0), f(0.1)) + FRAMES)
seed("level_sweeps", grid(12, 12) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + op("STRAIN_LIMIT", u8(3), f(0.05)) +
     op("LEVEL_SWEEPS", u8(1)) + FRAMES + op("LEVEL_SWEEPS", u8(0)) + FRAMES + op("LEVEL_SWEEPS", u8(255)) +
     op("LEVEL_SWEEPS", u8(254)) + op("STRAIN_LIMIT", u8(0), f(0.05)) + op("LEVEL_SWEEPS", u8(2)) + FRAMES)
seed("strain_limit_mesh", mesh(5, 5) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + op("STRAIN_LIMIT", u8(4), f(0.02)) +
     FRAMES)
# --- grid descs ---
seed("grid_line", grid(1, 24) + FRAMES + op("TRIANGLES") + op("READBACK", stride(0), u8(0)))
seed("grid_column", grid(24, 1) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + FRAMES + op("INTEGRATOR", u8(4)) + FRAMES)
seed("grid_max", grid(24, 24, 64, u8(1)) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + op("STEP_SMALL", u8(3)))
seed("grid_bad_sizes_0", grid(0, 5))
seed("grid_bad_sizes_1", grid(1, 1))
seed("grid_bad_sizes_huge", u8(0, 0xF0, 0xF1, 0))
seed("grid_bad_sizes_huge2", u8(0, 0xF2, 2, 0))
seed("grid_bad_spacing", grid(4, 4, 1, f("nan")))
seed("grid_bad_spacing_neg", grid(4, 4, 1, f("-1")))
seed("grid_bad_axes", grid(4, 4, 4 | 8, vec(1, 0, 0), vec(2, 0, 0)))
seed("grid_bad_axes_zero", grid(4, 4, 4, vec(0, 0, 0)))
seed("grid_bad_axes_nan", grid(4, 4, 8, vec(0, "nan", 1)))
seed("grid_skew_axes", grid(6, 6, 4 | 8, vec(1, 0, 0), vec(1, 0, 0.0625)) + FRAMES)
seed("grid_origin_huge", grid(4, 4, 2, vec("1e30", 0, 0)) + FRAMES)
seed("grid_bad_mass", grid(4, 4, 16, f("denorm")) + FRAMES)
seed("grid_struct_size", grid(4, 4, 32, u8(0xF8)))
seed("grid_struct_size_big", grid(4, 4, 32, u8(0xFF)))
seed("grid_neighbours", grid(4, 4, 64, u8(0), u8(7)))
seed("grid_null_out", grid(4, 4, 128) + FRAMES)
# --- meshes ---
seed("mesh_plain", mesh(5, 5) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + FRAMES + op("TRIANGLES") +
     op("READBACK", stride(0), u8(0)) + op("SNAPSHOT_ROUNDTRIP", u8(1)) + op("INTEGRATOR", u8(4)))
seed("mesh_stride_16", mesh(4, 6, 16) + FRAMES)
seed("mesh_stride_bad", mesh(4, 4, 13))
seed("mesh_bad_index", mesh(4, 4, 0, [u8(1, 7) + idx("count")]))
seed("mesh_bad_index_max", mesh(4, 4, 0, [u8(1, 0) + idx("max")]))
seed("mesh_degenerate", mesh(4, 4, 0, [u8(1, 1) + idx(0), u8(1, 2) + idx(0)]) + FRAMES)
seed("mesh_nan_position", mesh(4, 4, 0, [u8(0, 5, 1) + f("nan")]))
seed("mesh_huge_position", mesh(4, 4, 0, [u8(0, 5, 1) + f("max")]) + FRAMES)
seed("mesh_masses", mesh(4, 4, 0, [u8(11) + f(0.01), u8(2, 3) + f(0.5)]) + FRAMES)
seed("mesh_bad_masses", mesh(4, 4, 0, [u8(11) + f(0.01), u8(2, 3) + f("-1")]))
seed("mesh_inverse_masses", mesh(4, 4, 0, [u8(17) + f(0.01), u8(2, 0) + f(0), u8(2, 1) + f(0)]) + FRAMES +
     op("UNPIN", idx(0)) + FRAMES)
seed("mesh_counts", mesh(5, 5, 0, [u8(3, 1, 2)]))
seed("mesh_counts_tris", mesh(5, 5, 0, [u8(3, 0, 0)]))
seed("mesh_few_tris", mesh(5, 5, 0, [u8(3, 0, 3)]) + FRAMES)
seed("mesh_struct_size", mesh(4, 4, 0, [u8(4, 0xFF)]))
# --- the host's allocator: failing at the k-th call, failing by mask ---
for k in (1, 2, 3, 5, 8):
    seed(f"alloc_fail_at_{k}", grid(6, 6, alloc=u8(2, k)) + op("INTEGRATOR", u8(6)) + op("PIN", idx(1), u8(1), vec(0, 0, 0)) +
         op("SPHERE", vec(0, 0, 0), f(1)) + op("TETHERS", f(1.125)) + op("BENDING", f(1)) + FRAMES)
seed("alloc_fail_mask", grid(6, 6, alloc=u8(3) + u32(0x01000100)) + op("INTEGRATOR", u8(7)) + FRAMES +
     op("SNAPSHOT_ROUNDTRIP", u8(1)))
seed("alloc_counting", grid(6, 6, alloc=u8(1)) + op("INTEGRATOR", u8(3)) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) +
     op("PIN", idx(1), u8(1), vec(0, 0, 0)) + op("PIN", idx(2), u8(1), vec(0, 0, 0)) + FRAMES +
     op("SNAPSHOT_ROUNDTRIP", u8(0)))
seed("alloc_one_hook", grid(6, 6, alloc=u8(0x41)))
seed("mesh_alloc_fail", mesh(4, 4, alloc=u8(2, 2)) + FRAMES)

# --- what an outside pass of hostile inputs found (issue 22) ---
BIG = 0xEF  # fz_side(): the 72 x 72 grid whose passes reach the task hooks
seed("stride_wraps_readback", grid(6, 6) + b"".join(op("READBACK", stride(x), u8(0)) for x in STRIDES[-7:]))
seed("stride_wraps_set", grid(6, 6) + b"".join(op("SET_POSITIONS", stride(x), vec(0, 0, 0), u8(0)) +
                                                op("SET_VELOCITIES", stride(x), vec(0, 0, 0), u8(0))
                                                for x in STRIDES[-7:]))
for x in (2**64 - 12, HUGE, 2**64 - 4):
    seed(f"mesh_stride_wraps_{x:x}", mesh(4, 4, x) + FRAMES)
seed("grid_axes_add_past_max", grid(4, 4, 1 | 8, f("8e37"), vec(1, 0, 1)) + FRAMES)
SPRINGS = op("SPRINGS", u8(7))  # every rest length checked by the harness
seed("grid_spacing_1e19", grid(4, 4, 1, f("1.8e19")) + SPRINGS + b"".join(op("INTEGRATOR", u8(k)) +
                                                                          op("STEP", f("1/60")) for k in range(8)))
seed("grid_spacing_tiny", grid(4, 4, 1, f("1e-23")) + SPRINGS + FRAMES)
seed("mesh_huge_legs", mesh(4, 4, 0, [u8(0, 15, 0) + f("1e20"), u8(0, 15, 2) + f("1e20")]) + SPRINGS + FRAMES)
seed("mesh_tiny_legs", mesh(4, 4, 0, [u8(0, 1, 0) + f("1e-23")]) + SPRINGS + FRAMES)
seed("origin_near_max_smooth", grid(4, 4, 2, vec("max/2", 0, 0)) + FRAMES + op("READBACK", stride(0), u8(0)))
for k in range(8):
    seed(f"force_nan_integrator_{k}", grid(8, 8) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + op("INTEGRATOR", u8(k)) +
         op("FORCE_HOOK", u8(0x41), u8(0), vec(0, 0, "nan")) + FRAMES)
seed("force_inf_pinned_implicit", grid(8, 8) + op("PIN", idx(3), u8(1), vec(0, 0, 0)) + op("INTEGRATOR", u8(7)) +
     op("FORCE_HOOK", u8(0x40), u8(3), vec(0, 0, "inf")) + FRAMES)
seed("force_huge_implicit", grid(8, 8) + op("INTEGRATOR", u8(7)) + op("FORCE_HOOK", u8(0x41), u8(9), vec(0, 0, "1e38")) +
     FRAMES)
seed("stiffness_huge_implicit", grid(8, 8) + op("INTEGRATOR", u8(7)) + op("STIFFNESS", u8(0), f("3e38")) + FRAMES)
seed("wind_nan_one", grid(8, 8) + op("INTEGRATOR", u8(6)) + op("WIND", u8(0x40), u8(7), vec(0, "nan", 0)) + FRAMES)
for k in (3, 6, 0):
    seed(f"tiny_dt_pinned_{k}", grid(6, 6) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + op("INTEGRATOR", u8(k)) +
         op("SUBSTEPS", u8(1)) + b"".join(op("STEP", f(x)) for x in ("1e-40", "2e-39", "3e-39", "1e-38")))
# call-backs: where (wind, force, step, finish, create, destroy, enqueue, task finish) x which call
for where in range(8):
    for which in (0, 2, 15, where + 3):
        setup = grid(BIG, BIG) if where >= 6 else grid(6, 6)
        hooks = (op("WIND", u8(1), u8(0), vec(0, 0, 0)) + op("FORCE_HOOK", u8(1), u8(0), vec(0, 0, 0)) +
                 op("CUSTOM_INTEGRATOR", u8((1 << 3) | 0), u8(0)) + op("TASK_HOOKS", u8(0), u8(0)))
        tail = op("CUSTOM_INTEGRATOR", u8((1 << 3) | 0), u8(0)) + op("INTEGRATOR", u8(6))
        seed(f"callback_{where}_{which}", setup + op("CALLBACK", u8(where), u8(which)) + hooks + FRAMES + tail)
# task hooks on the big grid: honest, then each fault, every k-th task
for fault in range(6):
    for every in (0, 2, 7):
        seed(f"task_hooks_{fault}_{every}", grid(BIG, BIG) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) +
             op("INTEGRATOR", u8(6 if every == 2 else 0)) + op("TASK_HOOKS", u8(fault), u8(every)) + FRAMES +
             op("TASK_HOOKS", u8(0x80), u8(0)) + FRAMES)
seed("pin_all", grid(24, 24) + op("PIN_ALL", u8(1), f(0.05)) + FRAMES + op("PIN_ALL", u8(0), f(0.5)) +
     op("SNAPSHOT_ROUNDTRIP", u8(1)))
seed("pin_all_big", grid(BIG, BIG) + op("PIN_ALL", u8(1), f(0.01)) + op("SNAPSHOT_ROUNDTRIP", u8(1)) +
     op("PIN_ALL", u8(0), f("nan")))
seed("pin_all_mesh", mesh(8, 8) + op("PIN_ALL", u8(1), f(1)) + FRAMES)
# the smooth surface: levels 0 to 5, packed and interleaved, buffers at odd addresses
for level in range(6):
    seed(f"smooth_level_{level}", grid(7, 9) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + FRAMES +
         op("SMOOTH", u8(level), stride(0), stride(24), u8(level % 4, 1, 3)))
seed("smooth_at_max", grid(4, 4, 2, vec("max", 0, 0)) + op("SMOOTH", u8(2), stride(16), stride(0), u8(0, 0, 0)) +
     op("READBACK", stride(0), u8(0)))
seed("smooth_stride_wraps", grid(5, 5) + b"".join(op("SMOOTH", u8(2), stride(x), stride(0), u8(0, 0, 0)) +
                                                  op("SMOOTH", u8(2), stride(0), stride(x), u8(1, 1, 1))
                                                  for x in STRIDES[-7:]))
seed("smooth_mesh", mesh(5, 5) + op("SMOOTH", u8(2), stride(0), stride(0), u8(0, 0, 0)))
# skinned attachment: targets moved (one NaN), distances with pins, a snapshot
# of the skin, the big grid's parallel pass, then every particle freed
seed("skin", grid(8, 8) + op("SKIN_TARGETS", stride(16), vec(0.1, 0, 0), u8(1)) +
     op("MAX_DISTANCES", f(0.05), u8(3)) + FRAMES + op("SKIN_TARGETS", stride(0), vec(0, 0, 0), u8(2), f("nan"), u8(3),
                                                       u8(1)) +
     op("SNAPSHOT_ROUNDTRIP", u8(1)) + op("MAX_DISTANCES", f("inf"), u8(0)) + FRAMES)
seed("skin_big", grid(BIG, BIG) + op("MAX_DISTANCES", f(0.01), u8(2)) + op("TASK_HOOKS", u8(0), u8(0)) + FRAMES +
     op("MAX_DISTANCES", f(-1), u8(5)) + op("SNAPSHOT_CORRUPT", u8(3), u8(9)))
# tapered capsules: a limb, one ball holding the other, both ends the same
seed("tapered", grid(10, 10) + op("TAPERED", vec(0, -0.2, 0), u8(0), vec(0.3, -0.1, 0), f(0.1), f(0.04)) +
     op("TAPERED", vec(0.2, -0.1, 0), u8(0), vec(0.21, -0.1, 0), f(0.01), f(0.2)) +
     op("TAPERED", vec(-0.2, -0.1, 0), u8(1), f(0.05), f(0.08)) + op("THICKNESS", u8(0), f(0.02)) + FRAMES +
     op("TRANSFORM", u8(0), vec(0, 0.1, 0), u8(2), f(0.5)) + FRAMES)
# painted masses (one heavy, then a NaN refused) and a particle radius on a ball
seed("masses", grid(8, 8) + op("SPHERE", vec(0, -0.3, 0), f(0.2)) + op("INVERSE_MASSES", f(2), f(0.01), u8(3), u8(5)) +
     FRAMES + op("INVERSE_MASSES", f(1), f("nan"), u8(0), u8(9)) + op("PARTICLE_RADIUS", f(0.02)) + FRAMES +
     op("PARTICLE_RADIUS", f(-1)) + op("SNAPSHOT_ROUNDTRIP", u8(1)))
# a frame that runs and turns with the cloth half carried, then a teleport
seed("frame", grid(8, 8) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + op("INERTIA", f(0.5), f(0)) +
     op("FRAME", vec(0.1, 0, 0), u8(2), f(0.2)) + FRAMES + op("FRAME", vec(0.3, 0, 0.1), u8(2), f(0.6)) + FRAMES +
     op("TELEPORT", vec(100, 0, 0), u8(2), f(1.5)) + FRAMES + op("INERTIA", f("nan"), f(0)) +
     op("TELEPORT", vec(0, 0, 0), u8(0), vec(0, 0, 0, 2)))
seed("readback_misaligned", grid(6, 6) + FRAMES + b"".join(op("READBACK", stride(x), u8(k))
                                                           for x in (0, 16, 28) for k in (1, 2, 3)))

# convex colliders: boxes (one turned), balls of 24 and 64 planes; then refusals:
# too few or many planes, a plane count past those built, a normal that is not
# unit, a NaN, a plane that cuts everything away, an open box


def box(h=(0.25, 0.125, 0.25), c=(0, 0, 0), angle=0):
    """The 7 floats of a fuzzed box (fz_read_box): half-sizes, centre, turn about y."""
    return vec(*h) + vec(*c) + f(angle)


seed("convex", grid(10, 10) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) +
     op("CONVEX", u8(0), box(c=(0.25, -0.5, 0.25))) +
     op("CONVEX", u8(0), box((0.125, 0.125, 0.125), (0, -0.25, 0.5), 0.5)) +
     op("CONVEX", u8(1), box((0.25, 0.25, 0.25), (0.5, -0.75, 0.25)), u8(20)) +
     op("CONVEX", u8(1), box((0.125, 0.25, 0.25), (-0.5, -0.5, 0)), u8(60)) +
     op("THICKNESS", u8(0), f(0.01)) + op("FRICTION", u8(1), f(0.5)) + FRAMES +
     op("TRANSFORM", u8(0), vec(0.25, 0, 0), u8(2), f(0.5)) + FRAMES + op("GET_TRANSFORM", u8(1), u8(0)) +
     op("REMOVE_COLLIDER", u8(2)) + FRAMES + op("SNAPSHOT_ROUNDTRIP", u8(1)))
seed("convex_hostile", grid(6, 6) +
     op("CONVEX", u8(0x80), box(), u8(3)) + op("CONVEX", u8(0x80), box(), u8(65)) +
     op("CONVEX", u8(0x80), box(), u8(70)) + op("CONVEX", u8(0x80), box(), u8(5)) +
     op("CONVEX", u8(1), box(), u8(0)) +
     op("CONVEX", u8(1 << 3), box(), u8(0), f(2)) + op("CONVEX", u8(2 << 3), box(), u8(3), f("nan"), u8(7), f("inf")) +
     op("CONVEX", u8(2 | 0x40), box(), vec(0, -1, 0, 5)) + op("CONVEX", u8(2), box(), vec(0, 2, 0, 0)) +
     op("CONVEX", u8(4 | 0x40), box(), vec(1, 1, 0, 0), vec(0, 0, 0, 0)) +
     op("CONVEX", u8(0), box(("nan", "-1", "1e30"), ("inf", 0, 0), "nan")) +
     op("CONVEX", u8(0), box((0.01, 100, 0.01), (100, -100, 100), 100)) + FRAMES)


def heightfield(heights):
    g = int(round(len(heights) ** 0.5))
    return u8(g - 2) + bytes(h & 0xFF for h in heights)


# triangle-mesh colliders: a closed box, an open heightfield, a soup; moved as
# they are, rigidly, deformed and with a NaN; turned; snapshotted; removed
SOUP = u8(6 - 3, 4 - 1) + bytes(x & 0xFF for x in (0, 0, 0, 16, 0, 0, 0, 0, 16, 0, 16, 0, 16, 16, 0, -16, 8, 8)) + \
    u8(0, 1, 2, 0, 3, 1, 1, 4, 2, 2, 5, 0)
seed("triangle_mesh", grid(10, 10) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) +
     op("TRI_MESH", u8(0), stride(0), box(c=(0.25, -0.5, 0.25))) +
     op("TRI_MESH", u8(1), stride(16), box((0.25, 1, 1), (-0.25, -1, -0.25)),
        heightfield([0, 8, 16, 8, -8, 0, 24, 0, 8, 8, -16, 0, 0, 4, 8, 12])) +
     op("TRI_MESH", u8(2), stride(24), box((1, 1, 1), (0.5, -0.25, 0.5)), SOUP) +
     op("THICKNESS", u8(0), f(0.01)) + op("FRICTION", u8(0), f(0.5)) + FRAMES +
     op("MESH_VERTICES", u8(0), stride(0), u8(0), vec(0, 0, 0), u8(0, 0), f(0)) + FRAMES +
     op("MESH_VERTICES", u8(0), stride(32), u8(1), vec(0, 0.25, 0), u8(0, 0), f(0)) + FRAMES +
     op("MESH_VERTICES", u8(1), stride(0), u8(2), vec(0, 0.5, 0.125), u8(0, 0), f(0)) + FRAMES +
     op("MESH_VERTICES", u8(0), stride(12), u8(3), vec(0, 0, 0), u8(2, 1), f("nan")) +
     op("MESH_VERTICES", u8(2), stride(0), u8(0), vec(0, 0, 0), u8(0, 0), f(0)) +
     op("TRANSFORM", u8(0), vec(0, 0.25, 0), u8(2), f(0.5)) + FRAMES + op("SNAPSHOT_ROUNDTRIP", u8(1)) +
     op("REMOVE_COLLIDER", u8(0)) + op("MESH_VERTICES", u8(0), stride(0), u8(1), vec(1, 0, 0), u8(0, 0), f(0)) +
     op("MESH_VERTICES", u8(0xF0), u8(1), stride(0), u8(0), vec(0, 0, 0), u8(0, 0), f(0)) +
     op("MESH_VERTICES", u8(0xF0), u8(0xF3), stride(0), u8(0), vec(0, 0, 0), u8(0, 0), f(0)) + FRAMES)
seed("triangle_mesh_hostile", grid(6, 6) +
     op("TRI_MESH", u8(0), stride(13), box()) + op("TRI_MESH", u8(0), stride(HUGE), box()) +
     op("TRI_MESH", u8(0), stride(2**64 - 12), box()) +
     op("TRI_MESH", u8(1 << 2), stride(0), box(), u8(1, 5) + idx("count")) +
     op("TRI_MESH", u8(1 << 2), stride(0), box(), u8(1, 5) + idx("max")) +
     op("TRI_MESH", u8(1 << 2), stride(0), box(), u8(0, 4) + f("nan")) +
     op("TRI_MESH", u8(2 << 2), stride(0), box(), u8(0, 4) + f("1e20"), u8(0, 7) + f("max")) +
     op("TRI_MESH", u8(0x40), stride(0), box(), u8(1, 2)) + op("TRI_MESH", u8(0x40), stride(0), box(), u8(0, 0)) +
     op("TRI_MESH", u8(0x40), stride(0), box(), u8(1, 7)) +
     op("TRI_MESH", u8(2), stride(0), box(), u8(0, 0) + bytes(9) + u8(0, 0, 1)) +
     op("TRI_MESH", u8(1 | (1 << 2)), stride(0), box(), heightfield([0, 0, 0, 0]), u8(0, 3) + f("inf")) +
     op("TRI_MESH", u8(0), stride(0), box(c=(0, -0.5, 0))) + FRAMES +
     b"".join(op("MESH_VERTICES", u8(0), stride(x), u8(0), vec(0, 0, 0), u8(0, 0), f(0)) for x in STRIDES[-7:]) +
     op("MESH_VERTICES", u8(0), stride(0), u8(1), vec("max", 0, 0), u8(0, 0), f(0)) +
     op("MESH_VERTICES", u8(0), stride(0), u8(1), vec("1e6", 0, 0), u8(0, 0), f(0)) + FRAMES +
     op("MESH_VERTICES", u8(0), stride(0), u8(2), vec(0, "1e30", 0), u8(0, 0), f(0)) + FRAMES +
     op("MESH_VERTICES", u8(0), stride(16), u8(3), vec(0, 0, 0), u8(7, 2), f("-inf")))
# the host's allocator failing in the mesh's copy, grid and table, and in a move
for name, alloc in (("mask", u8(3) + u32(0x00020400)), ("at_11", u8(2, 11)), ("at_14", u8(2, 14)),
                    ("at_16", u8(2, 16))):
    seed(f"triangle_mesh_alloc_{name}", grid(6, 6, alloc=alloc) +
         op("TRI_MESH", u8(0), stride(0), box(c=(0, -0.5, 0))) + op("TRI_MESH", u8(1), stride(0), box(c=(0, -0.5, 0)),
                                                                    heightfield([0] * 16)) +
         op("CONVEX", u8(0), box(c=(0, -1, 0))) + op("CONVEX", u8(0), box(c=(0, -1, 0))) +
         op("MESH_VERTICES", u8(0), stride(0), u8(1), vec(2, 0, 0), u8(0, 0), f(0)) +
         op("MESH_VERTICES", u8(1), stride(0), u8(2), vec(0, 3, 0), u8(0, 0), f(0)) + FRAMES)
# a mesh cloth on a heightfield that rises under it
seed("triangle_mesh_mesh_cloth", mesh(6, 6) +
     op("TRI_MESH", u8(1), stride(0), box((0.125, 1, 1), (-0.125, 0.25, -0.125)), heightfield([0] * 9)) + FRAMES +
     op("MESH_VERTICES", u8(0), stride(0), u8(1), vec(0, 0.25, 0), u8(0, 0), f(0)) + FRAMES)
# re-entry from a hook: moving a mesh (12 + 16), adding a convex (14 + 16) and a mesh (14 + 32)
for where in (0, 2):
    for which in (28, 30, 46):
        hooks = (op("WIND", u8(1), u8(0), vec(0, 0, 0)) + op("FORCE_HOOK", u8(1), u8(0), vec(0, 0, 0)) +
                 op("CUSTOM_INTEGRATOR", u8((1 << 3) | 0), u8(0)))
        seed(f"callback_{where}_{which}", grid(6, 6) + op("TRI_MESH", u8(0), stride(0), box(c=(0, -0.5, 0))) +
             op("CALLBACK", u8(where), u8(which)) + hooks + FRAMES)

# backstops: a skinned sheet with outward normals (unit, turning, some 0) and a
# ball behind every particle (a plane, then bumps), stepped, snapshotted,
# corrupted with the checksum made right again; then refusals: normals not
# unit or NaN, NULL, odd strides; radii negative or infinite, a distance NaN,
# a sum past the float range, a stride below 8
SHEET = op("SKIN_TARGETS", stride(0), vec(0, 0, 0), u8(0)) + op("MAX_DISTANCES", f(0.125), u8(0))


def at(offset, size):
    """SNAPSHOT_CORRUPT's u16 that sets byte `offset` of a snapshot of `size` bytes (bit 15: set, not flip)."""
    return u16(0x8000 | ((offset - 0x8000) % size))


# the 8 x 8 sheet's snapshot: 64 + 28 * 64 bytes, then the word (1856), the
# skin (1860), the backstops' normals (3652) ... radii (5444), the checksum
BACKSTOPS_SNAP = 64 + 28 * 64 + 4 + 28 * 64 + 32 * 64 + 8
seed("backstops", grid(8, 8) + SHEET +
     op("SKIN_NORMALS", stride(0), vec(0, 1, 0), u8(0), f(0)) + op("BACKSTOPS", f(0.0625), f(10), u8(0)) + FRAMES +
     op("SKIN_NORMALS", stride(16), vec(0, 1, 0.25), u8(1 | 2), f(0.125)) +
     op("BACKSTOPS", f(0.01), f(0.25), u8(1 | 2 | (1 << 4))) + FRAMES + op("SNAPSHOT_ROUNDTRIP", u8(2)) +
     op("SNAPSHOT_CORRUPT", u8(1), at(3652 + 3, BACKSTOPS_SNAP), u8(0x7F), u8(4)) +  # a normal 1.7e38 long
     op("SNAPSHOT_CORRUPT", u8(1), at(5444 + 3, BACKSTOPS_SNAP), u8(0xFF), u8(4)) +  # a radius -inf
     op("SNAPSHOT_CORRUPT", u8(1), at(1856, BACKSTOPS_SNAP), u8(0x04), u8(4)) + FRAMES)  # backstops, no skin
seed("backstops_hostile", grid(6, 6) + SHEET +
     op("SKIN_NORMALS", stride(0), vec(0, 2, 0), u8(8), f(0)) +
     op("SKIN_NORMALS", stride(0), vec(0, 0.5, 0), u8(8), f(0)) +
     op("SKIN_NORMALS", stride(0), vec(0, 1, 0), u8(4), f(0), f("nan"), u8(7), u8(1)) +
     op("SKIN_NORMALS", stride(0), vec(0, 1, 0), u8(4), f(0), f("1+"), u8(3), u8(1)) +
     op("SKIN_NORMALS", stride(0), vec(0, 1, 0), u8(4 | 2), f(0), f("denorm"), u8(0), u8(0)) +
     op("SKIN_NORMALS", stride(0), vec(0, 1, 0), u8(0x10), f(0)) +
     op("SKIN_NORMALS", stride(13), vec(0, 1, 0), u8(0), f(0)) +
     op("SKIN_NORMALS", stride(8), vec(0, 1, 0), u8(0), f(0)) +
     op("SKIN_NORMALS", stride(2**64 - 12), vec(0, 1, 0), u8(0), f(0)) +
     op("SKIN_NORMALS", stride(0), vec("nan", 0, 0), u8(8 | 1), f("inf")) +
     op("BACKSTOPS", f(0.0625), f(-1), u8(0)) + op("BACKSTOPS", f("nan"), f(1), u8(0)) +
     op("BACKSTOPS", f(0.0625), f("inf"), u8(0)) + op("BACKSTOPS", f("max"), f("max"), u8(0)) +
     op("BACKSTOPS", f("-max"), f("max"), u8(4)) + op("BACKSTOPS", f(0.0625), f(1), u8(0x40)) +
     op("BACKSTOPS", f(0.0625), f(1), u8(3 << 4), stride(4)) +
     op("BACKSTOPS", f(0.0625), f(1), u8(3 << 4), stride(2**64 - 4)) +
     op("BACKSTOPS", f(0.0625), f(1), u8(8), f("-0"), u8(5), u8(1)) +
     op("BACKSTOPS", f(0.0625), f(1), u8(8), f("-1"), u8(5), u8(1)) + FRAMES +
     op("SNAPSHOT_ROUNDTRIP", u8(1)))
# the big grid's parallel pass, with the host's task hooks
seed("backstops_big", grid(BIG, BIG) + op("MAX_DISTANCES", f(0.01), u8(2)) +
     op("SKIN_NORMALS", stride(0), vec(0, 1, 0), u8(1), f(0.01)) + op("BACKSTOPS", f(0), f(0.5), u8(2)) +
     op("TASK_HOOKS", u8(0), u8(0)) + FRAMES + op("PIN_ALL", u8(1), f(0.01)) + op("SNAPSHOT_ROUNDTRIP", u8(1)))
# the host's allocator failing (a 6 x 6 grid makes 6 blocks; the 7th is the
# first skin or backstop block): the skin's block, then the backstops' after
# the skin's was made for them (and goes again), then after the max distances'
for name, first, alloc in (("at_7", "normals", u8(2, 7)), ("at_8", "normals", u8(2, 8)),
                           ("at_8_skinned", "distances", u8(2, 8)), ("mask", "normals", u8(3) + u32(0x00000180))):
    head = (op("SKIN_NORMALS", stride(0), vec(0, 1, 0), u8(0), f(0)) if first == "normals" else
            op("MAX_DISTANCES", f(0.125), u8(0)))
    seed(f"backstops_alloc_{name}", grid(6, 6, alloc=alloc) + head + op("BACKSTOPS", f(0.0625), f(1), u8(0)) +
         op("SKIN_NORMALS", stride(0), vec(0, 1, 0), u8(0), f(0)) + op("MAX_DISTANCES", f(0.125), u8(0)) + FRAMES +
         op("SNAPSHOT_ROUNDTRIP", u8(1)))
# the worn 8 x 8 sheet's snapshot with its box: 64 + 28 * 64 + 152 bytes, the
# word (2008), skin (2012), backstops (3804), frame (5852: start position and
# turn, end position and turn, linear and angular inertia at 5908 and 5912),
# meshes (5916: count and total, then 5924: vertex count, moving, vertices)
WORN_SNAP = 64 + 28 * 64 + 152 + 4 + 28 * 64 + 32 * 64 + 64 + 8 + 8 + 36 * 8 + 8


def fnv(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def foreign_v3():
    """A version 3 snapshot of no particles and one mesh of 3 vertices, framed
    and checksummed right: refused only as another cloth's."""
    body = b"CLTHSNAP" + u32(3) + struct.pack("<f", 360.0) + struct.pack("<Q", 200) + bytes(40)
    body += u32(32) + u32(1) + u32(3) + u32(3) + u32(0) + bytes(36 * 3)  # meshes: 1, total 3; 3 vertices, still
    body = u8(5) + body[1:]  # byte 0: bit 0 puts the magic back, bit 2 asks for version 3
    return body + struct.pack("<Q", fnv(b"CLTHSNAP" + body[8:]))


FOREIGN_V3 = foreign_v3()
# a worn cloth's every section: frame, skin, backstops, a mesh collider; saved,
# loaded, corrupted (checksum made right) and foreign snapshots of version 3
seed("snapshot_worn", grid(8, 8) + SHEET + op("INERTIA", f(0.5), f(0.25)) +
     op("SKIN_NORMALS", stride(0), vec(0, 1, 0), u8(0), f(0)) + op("BACKSTOPS", f(0.0625), f(1), u8(0)) +
     op("TRI_MESH", u8(0), stride(0), box(c=(0.25, -0.5, 0.25))) +
     op("FRAME", vec(0.125, 0, 0), u8(2), f(0.25)) + FRAMES + op("SNAPSHOT_ROUNDTRIP", u8(2)) +
     b"".join(op("SNAPSHOT_CORRUPT", u8(1), at(offset, WORN_SNAP), u8(value), u8(4)) for offset, value in (
         (8, 2),  # version 2 with the sections after
         (2008, 0x7F),  # unknown bits in the word
         (5864 + 3, 0x7F),  # the frame's start turn not a unit quaternion
         (5908 + 3, 0x40),  # linear inertia 2
         (5924, 9),  # a mesh of 9 vertices
         (5928, 2),  # moving 2
         (5932 + 3, 0xFF),  # a vertex at -inf
     )) + op("SNAPSHOT_CORRUPT", u8(0), u8(1), u8(16)) + op("SNAPSHOT_FOREIGN", u16(len(FOREIGN_V3)), FOREIGN_V3) +
     FRAMES)

# many colliders at once: valid poses (repeats, positions or rotations only,
# none at all), then refusals: a raw quaternion not of unit length, a NaN, an
# unknown id, a removed one, NULL ids
BODY = (op("SPHERE", vec(0.25, -0.5, 0.25), f(0.25)) +
        op("CAPSULE", vec(0, -0.5, 0), u8(0), vec(0.5, -0.5, 0), f(0.125)) +
        op("CONVEX", u8(0), box(c=(0.25, -0.75, 0.25))))


def transforms(mode, *colliders):
    """COLLIDER_TRANSFORMS: (id selector, position, angle or quaternion) per collider."""
    out = u8(mode, len(colliders))
    for sel, pos, turn in colliders:
        out += u8(sel) + vec(*pos) + (f(turn) if mode & 2 else vec(*turn))
    return op("COLLIDER_TRANSFORMS", out)


seed("collider_transforms", grid(10, 10) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + BODY + FRAMES +
     transforms(2, (0, (0.25, -0.25, 0.25), 0.25), (1, (0, -0.25, 0), 0.5), (2, (0.25, -0.5, 0.25), 1)) + FRAMES +
     transforms(2 | 1, (0, (0.25, -0.125, 0.25), 0), (0, (0.25, -0.0625, 0.25), 0)) +
     transforms(4, (1, (0, 0, 0), (0, 0, 0.6, 0.8)), (2, (0, 0, 0), (0, 0, 0, 1))) + FRAMES +
     transforms(2) + transforms(8 | 2) + op("SNAPSHOT_ROUNDTRIP", u8(1)))
seed("collider_transforms_hostile", grid(6, 6) + BODY +
     transforms(0, (0, (0, 0, 0), (0, 0, 0, 1)), (1, (0, 0, 0), (0, 0, 0, 2))) +
     transforms(2, (0, (0, 0, 0), 0), (1, ("nan", 0, 0), 0)) +
     transforms(2, (0, (0, 0, 0), 0), (0xF3, (0, 0, 0), 0)) +
     transforms(0, (0xF3, (0, 0, 0), (0, 0, 0, 2))) +
     transforms(1, (0xF7, ("inf", 0, 0), (0, 0, 0, 1))) +
     transforms(8 | 2, (0, (0, 0, 0), 0)) +
     op("REMOVE_COLLIDER", u8(1)) + transforms(2, (0, (0.25, 0, 0), 0), (1, (0, 0, 0), 0)) +
     transforms(4 | 1, (1, (0, 0, 0), (0, 0, 0, 1))) + FRAMES)
# re-entry from a hook: skin normals (13 + 16), backstops (13 + 32), many colliders (13 + 48)
for where in (0, 2):
    for which in (29, 45, 61):
        hooks = (op("WIND", u8(1), u8(0), vec(0, 0, 0)) + op("FORCE_HOOK", u8(1), u8(0), vec(0, 0, 0)) +
                 op("CUSTOM_INTEGRATOR", u8((1 << 3) | 0), u8(0)))
        seed(f"callback_{where}_{which}", grid(6, 6) + op("SPHERE", vec(0, -0.5, 0), f(0.25)) +
             op("CALLBACK", u8(where), u8(which)) + hooks + FRAMES)


# painted stiffness: every particle 2, a ramp 4 bytes apart at an odd address,
# the cloth's own halved 12 bytes apart, the most it takes (1e6) for all; kept
# by a snapshot round trip and an integrator switch; a mesh; then refusals (one
# scale 0, -0, -1, NaN, -NaN, inf, -inf, 2e6, just above 1e6; NULL; strides 2,
# 13, wrapping) and the edge values it takes (FLT_MIN, a denormal, 1e-30)
def scales(mode, value, *replaced, stride_=None, offset=0):
    """STIFFNESS_SCALES: mode (bits 0-1 how, 2 one replaced, 3 by an edge value, 4-6
    the stride: 0, 4, 8, 12, 16 or, 5 to 7, `stride_` of the table; 7 NULL), the
    value, the byte offset, then (bit 2) the value replaced and its particle."""
    assert (stride_ is not None) == (((mode >> 4) & 7) >= 5)
    return op("STIFFNESS_SCALES", u8(mode), value, stride(stride_) if stride_ is not None else b"", u8(offset),
              *replaced)


SCALE_EDGE = {"0": 0, "-0": 1, "-1": 2, "nan": 3, "-nan": 4, "inf": 5, "-inf": 6, "2e6": 7, "1e6": 8, "1e6+": 9,
              "min": 10, "denorm": 11, "1e-30": 12, "4": 13, "0.25": 14, "max": 15}


def edge(name):
    return u8(SCALE_EDGE[name])


seed("stiffness_scales", grid(8, 8) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + op("PIN", idx(7), u8(1), vec(0, 0, 0)) +
     scales(0, f(2)) + FRAMES + scales(2 | (1 << 4), f(0.5), offset=3) + FRAMES +
     scales(1 | (3 << 4), f(0.5), offset=1) + op("SNAPSHOT_ROUNDTRIP", u8(1)) + op("INTEGRATOR", u8(7)) + FRAMES +
     scales(3, edge("1e6")) + op("INTEGRATOR", u8(1)) + op("STEP", f("1/60")) + scales(3 | (4 << 4), edge("4")) +
     op("INTEGRATOR", u8(5)) + FRAMES + op("READBACK", stride(0), u8(0)))
seed("stiffness_scales_mesh", mesh(6, 6) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) +
     scales(2 | (2 << 4), f(0.25)) + FRAMES + op("INTEGRATOR", u8(7)) + FRAMES)
seed("stiffness_scales_hostile", grid(6, 6) +
     b"".join(scales(0 | 4 | 8, f(1.5), edge(x), u8(7)) for x in
              ("0", "-0", "-1", "nan", "-nan", "inf", "-inf", "2e6", "1e6+")) +
     b"".join(scales(0 | 4 | 8 | (1 << 4), f(1.5), edge(x), u8(35)) for x in ("min", "denorm", "1e-30", "1e6")) +
     scales(3, edge("max")) + scales(0 | 0x80, f(1)) + scales(1, f("nan")) + scales(1, f("inf")) + scales(0, f("-0")) +
     b"".join(scales(0 | (5 << 4), f(1), stride_=x) for x in (2, 13, 2**64 - 4, HUGE, 64)) +
     scales(0 | 4, f(2), f("1e6"), u8(3)) + scales(0 | 4, f(2), f("-1e6"), u8(3)) + FRAMES)
# the host's allocator failing at the scales' block (a 6 x 6 grid makes 6 blocks)
seed("stiffness_scales_alloc", grid(6, 6, alloc=u8(2, 7)) + scales(0, f(2)) + scales(0, f(3)) + FRAMES)

# self-collision: a sheet pinned by one corner falls onto a rough floor and
# folds, 5 cm thick (its spacing); then off, back on, on a mesh, on the big
# grid; the edge values: tiny (1e-30, a denormal), -0 and 1 m taken and
# stepped; negative, NaN and infinite refused. (A huge thickness, 1e30 or
# FLT_MAX, stepped: no seed yet, its step converts a NaN position to a cell
# index in src/self_collision.c's cell_of(), which UBSan stops at.)
def self_collision(name_or_float):
    """SELF_COLLISION: a thickness of the harness's table by name, or any float (bit 7)."""
    table = {"-0.01": 0, "nan": 1, "-nan": 2, "inf": 3, "-inf": 4, "1e30": 5, "max": 6, "1e-30": 7, "denorm": 8,
             "-0": 9, "0": 10, "0.01": 11, "0.03": 12, "0.05": 13, "0.1": 14, "1": 15}
    if isinstance(name_or_float, str) and name_or_float in table:
        return op("SELF_COLLISION", u8(table[name_or_float]))
    return op("SELF_COLLISION", u8(0x80), f(name_or_float))


FLOOR = op("PLANE", vec(0, -0.25, 0), vec(0, 1, 0)) + op("FRICTION", u8(0), f(1))
seed("self_collision", grid(10, 10) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + FLOOR + op("SUBSTEPS", u8(2)) +
     self_collision("0.05") +
     FRAMES + FRAMES + op("UNPIN", idx(0)) + FRAMES + self_collision("0") + FRAMES + self_collision("0.03") + FRAMES +
     op("INTEGRATOR", u8(0)) + FRAMES + op("SNAPSHOT_ROUNDTRIP", u8(2)) + op("READBACK", stride(0), u8(0)))
seed("self_collision_mesh", mesh(8, 8) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + FLOOR + op("SUBSTEPS", u8(2)) +
     self_collision("0.05") +
     FRAMES + FRAMES + op("INTEGRATOR", u8(7)) + FRAMES)
seed("self_collision_hostile", grid(6, 6) + FLOOR + op("SUBSTEPS", u8(2)) +
     b"".join(self_collision(x) for x in ("-0.01", "nan", "-nan", "inf", "-inf")) + self_collision("-max") +
     self_collision("-1e-30") + self_collision("1e30") + self_collision("max") + self_collision("1e-30") + FRAMES +
     self_collision("denorm") + FRAMES + self_collision("-0") + FRAMES + self_collision("1") + FRAMES +
     self_collision(0.5) + FRAMES + self_collision("0") + op("STEP", f("1/60")))
seed("self_collision_tiny_mesh", mesh(8, 8) + self_collision("1e-30") + FRAMES + self_collision("denorm") + FRAMES)
seed("self_collision_big", grid(BIG, BIG) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + self_collision("0.05") +
     op("TASK_HOOKS", u8(0), u8(0)) + op("STEP", f("1/60")))
seed("self_collision_alloc", grid(6, 6, alloc=u8(2, 7)) + self_collision("0.05") + self_collision("0.05") + FRAMES)
# both together, with a strain limit (the pass runs after each limit pass too)
seed("self_collision_scales", grid(10, 10) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + FLOOR + op("SUBSTEPS", u8(2)) +
     op("STRAIN_LIMIT", u8(3), f(0.05)) + scales(2, f(0.5)) + self_collision("0.05") + FRAMES + FRAMES)
# re-entry from a hook: painting scales (12 + 32) and self-collision (12 + 48)
for where in (0, 2):
    for which in (44, 60):
        hooks = (op("WIND", u8(1), u8(0), vec(0, 0, 0)) + op("FORCE_HOOK", u8(1), u8(0), vec(0, 0, 0)) +
                 op("CUSTOM_INTEGRATOR", u8((1 << 3) | 0), u8(0)))
        seed(f"callback_{where}_{which}", grid(6, 6) + op("CALLBACK", u8(where), u8(which)) + hooks + FRAMES)


# self-friction: the folding sheet above with cotton on cotton (0.4), then
# rougher (1), back to sliding (0), kept through a snapshot round trip and an
# integrator switch; on a mesh; on the big grid through the task hooks;
# set before self-collision is on (no allocation: a failing allocator cannot
# refuse it) and kept when the thickness goes on and off; the edge values:
# -0, a denormal, 1e30 and FLT_MAX taken and stepped; negative, NaN and
# infinite refused.
def self_friction(name_or_float):
    """SELF_FRICTION: a coefficient of the harness's table by name, or any float (bit 7)."""
    table = {"-0.1": 0, "nan": 1, "-nan": 2, "inf": 3, "-inf": 4, "-denorm": 5, "max": 6, "1e30": 7,
             "denorm": 8, "-0": 9, "0": 10, "0.2": 11, "0.4": 12, "0.6": 13, "1": 14, "10": 15}
    if isinstance(name_or_float, str) and name_or_float in table:
        return op("SELF_FRICTION", u8(table[name_or_float]))
    return op("SELF_FRICTION", u8(0x80), f(name_or_float))


seed("self_friction", grid(10, 10) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + FLOOR + op("SUBSTEPS", u8(2)) +
     self_collision("0.05") + self_friction("0.4") + FRAMES + FRAMES + op("UNPIN", idx(0)) + FRAMES +
     self_friction("1") + FRAMES + op("SNAPSHOT_ROUNDTRIP", u8(2)) + self_friction("0") + FRAMES +
     self_friction("0.6") + op("INTEGRATOR", u8(0)) + FRAMES + op("READBACK", stride(0), u8(0)))
seed("self_friction_mesh", mesh(8, 8) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + FLOOR + op("SUBSTEPS", u8(2)) +
     self_collision("0.05") + self_friction("0.2") + FRAMES + FRAMES + op("INTEGRATOR", u8(7)) + FRAMES)
seed("self_friction_hostile", grid(6, 6) + FLOOR + op("SUBSTEPS", u8(2)) + self_collision("0.05") +
     self_friction("0.4") +
     b"".join(self_friction(x) for x in ("-0.1", "nan", "-nan", "inf", "-inf", "-denorm")) + self_friction("-max") +
     self_friction("-1e-30") + self_friction("-1") + self_friction("-0") + FRAMES + self_friction("denorm") + FRAMES +
     self_friction("1e30") + FRAMES + self_friction("max") + FRAMES + self_friction("10") + FRAMES +
     self_friction(2.5) + FRAMES + self_friction("0") + op("STEP", f("1/60")))
seed("self_friction_alone", grid(6, 6) + FLOOR + self_friction("0.4") + FRAMES + self_collision("0.05") + FRAMES +
     self_collision("0") + FRAMES + self_friction("nan") + FRAMES)
seed("self_friction_alloc", grid(6, 6, alloc=u8(2, 7)) + self_friction("0.4") + self_collision("0.05") +
     self_friction("0.6") + FRAMES)
seed("self_friction_big", grid(BIG, BIG) + op("PIN", idx(0), u8(1), vec(0, 0, 0)) + self_collision("0.05") +
     self_friction("0.4") + op("TASK_HOOKS", u8(0), u8(0)) + op("STEP", f("1/60")))
# re-entry from a hook: self-friction (12 + 64)
for where in (0, 2):
    hooks = (op("WIND", u8(1), u8(0), vec(0, 0, 0)) + op("FORCE_HOOK", u8(1), u8(0), vec(0, 0, 0)) +
             op("CUSTOM_INTEGRATOR", u8((1 << 3) | 0), u8(0)))
    seed(f"callback_{where}_76", grid(6, 6) + self_friction("0.2") + op("CALLBACK", u8(where), u8(76)) + hooks + FRAMES)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus")
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(out):
        os.remove(os.path.join(out, name))
    for name, data in sorted(SEEDS.items()):
        with open(os.path.join(out, name), "wb") as fp:
            fp.write(data)
    print(f"{len(SEEDS)} seeds written to {out}")


if __name__ == "__main__":
    main()
