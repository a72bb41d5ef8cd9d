"""Read-backs beyond the particle arrays: the smooth surface, the springs,
the statistics and snapshots of the dynamic state."""

import collections
import ctypes
import dataclasses
from typing import Tuple

from . import _buffers
from ._buffers import np
from ._lib import StatsStruct, SpringType, c_enum, check, lib
from ._util import desc_buffer, u32

__all__ = ["Stats", "SmoothSurface", "Springs"]

SmoothSurface = collections.namedtuple("SmoothSurface", ["positions", "normals", "triangles"])
SmoothSurface.__doc__ = """The smooth surface of Cloth.smooth(): vertex positions and unit normals
((n, 3) float32 arrays, or lists of tuples), and the index buffer ((m, 3)
uint32, or a list of tuples). Normals or triangles are None when not asked for."""

Springs = collections.namedtuple("Springs", ["pairs", "rest_lengths", "types"])
Springs.__doc__ = """The springs of Cloth.springs(), in the library's fixed order (grouped by
family, structural first): particle index pairs ((s, 2) uint32, or a list of
tuples), rest lengths in m ((s,) float32, or a list of floats) and families
((s,) int32 of SpringType values, or a list of SpringType)."""


@dataclasses.dataclass(frozen=True)
class Stats:
    """What Cloth.stats() reports: every field of cloth_stats (state.h) but the
    bookkeeping ones (struct_size, reserved). Per-family tuples are indexed
    by SpringType (structural, shear, bend).

    Counters and measurements of the last step: ``contacts``,
    ``watchdog_tripped`` (WATCHDOG_TRIPPED_STRAIN | WATCHDOG_TRIPPED_ENERGY
    bits), ``step_seconds`` (wall clock), ``watchdog_max_strain``,
    ``watchdog_kinetic_energy``; since creation: ``steps`` (that returned
    OK), ``watchdog_trips``. Of the state now: ``spring_count``,
    ``max_strain``, ``min_strain``, ``mean_strain``, ``kinetic_energy`` (J,
    free particles) and ``memory_bytes`` (held through the allocator).
    After the last step that returned OK: ``step_max_strain`` (the worst
    structural or shear strain as the host reads it, what
    Material.max_strain and the strain limit bound); and what the last step
    took, its automatic choices included: ``substeps_used``,
    ``iterations_used`` (per substep) and ``limit_passes_used`` (0 while the
    strain limit is off).
    """

    contacts: int
    spring_count: Tuple[int, int, int]
    watchdog_tripped: int
    steps: int
    watchdog_trips: int
    step_seconds: float
    max_strain: Tuple[float, float, float]
    min_strain: Tuple[float, float, float]
    mean_strain: Tuple[float, float, float]
    kinetic_energy: float
    watchdog_max_strain: float
    watchdog_kinetic_energy: float
    memory_bytes: int
    step_max_strain: float
    substeps_used: int
    iterations_used: int
    limit_passes_used: int


def read_stats(handle):
    """cloth_stats_init + cloth_get_stats, as a Stats."""
    raw, storage = desc_buffer(StatsStruct, "cloth_stats_init")
    check(lib().cloth_get_stats(handle, ctypes.byref(raw)), "cloth_get_stats")
    values = {}
    for field in dataclasses.fields(Stats):
        value = getattr(raw, field.name)
        values[field.name] = tuple(value) if isinstance(value, ctypes.Array) else value
    del storage
    return Stats(**values)


def smooth_counts(handle, level):
    """(vertex_count, triangle_count) of the smooth surface at `level`."""
    vertices, triangles = ctypes.c_uint32(), ctypes.c_uint32()
    lvl = u32(level, "cloth_smooth_counts")
    check(
        lib().cloth_smooth_counts(handle, lvl, ctypes.byref(vertices), ctypes.byref(triangles)),
        "cloth_smooth_counts",
    )
    return vertices.value, triangles.value


def read_smooth(handle, level, normals, triangles, out, normals_out):
    """cloth_get_smooth into new (or the caller's) buffers: a SmoothSurface."""
    lvl = u32(level, "cloth_get_smooth")
    nv, nt = smooth_counts(handle, lvl)
    pos_ptr, pos_stride, pos_result = _buffers.vec3_target(out, nv, "smooth positions")
    nrm_ptr, nrm_stride, nrm_result = None, 0, None
    if normals or normals_out is not None:
        nrm_ptr, nrm_stride, nrm_result = _buffers.vec3_target(normals_out, nv, "smooth normals")
    tri_ptr, tri_result = _buffers.index_target(nt) if triangles else (None, None)
    if nv:  # a single row or column has no surface: nothing to write
        check(
            lib().cloth_get_smooth(handle, lvl, pos_ptr, pos_stride, nrm_ptr, nrm_stride, tri_ptr),
            "cloth_get_smooth",
        )
    return SmoothSurface(
        pos_result(),
        nrm_result() if nrm_result is not None else None,
        tri_result() if tri_result is not None else None,
    )


def read_springs(handle):
    """cloth_get_springs: a Springs."""
    count = lib().cloth_spring_count(handle)
    if np is not None:
        pairs = np.empty((count, 2), dtype=np.uint32)
        rest = np.empty(count, dtype=np.float32)
        types = np.empty(count, dtype=np.int32)
        if count:
            check(
                lib().cloth_get_springs(
                    handle,
                    pairs.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32)),
                    rest.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
                    types.ctypes.data_as(ctypes.POINTER(c_enum)),
                ),
                "cloth_get_springs",
            )
        return Springs(pairs, rest, types)
    pairs = (ctypes.c_uint32 * (2 * count))()
    rest = (ctypes.c_float * count)()
    types = (c_enum * count)()
    if count:
        check(lib().cloth_get_springs(handle, pairs, rest, types), "cloth_get_springs")
    return Springs(
        [(pairs[2 * i], pairs[2 * i + 1]) for i in range(count)],
        list(rest),
        [SpringType(t) for t in types],
    )


def state_size(handle):
    """cloth_state_size: the bytes a snapshot takes now."""
    size = ctypes.c_size_t()
    check(lib().cloth_state_size(handle, ctypes.byref(size)), "cloth_state_size")
    return size.value


def save_state(handle):
    """cloth_save_state into a new buffer: the snapshot as bytes."""
    size = state_size(handle)
    buf = ctypes.create_string_buffer(size)
    check(lib().cloth_save_state(handle, buf, size), "cloth_save_state")
    return buf.raw


def load_state(handle, data):
    """cloth_load_state from any bytes-like object (bytes are passed without a copy)."""
    if not isinstance(data, bytes):
        if isinstance(data, str):
            raise TypeError("load_state needs bytes (a snapshot from save_state()), not str")
        data = bytes(memoryview(data))
    check(lib().cloth_load_state(handle, data, len(data)), "cloth_load_state")
