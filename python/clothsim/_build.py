"""Building a cloth from a grid or mesh description (cloth_create_grid/_mesh)."""

import ctypes
import operator

from . import _buffers
from ._buffers import np
from ._lib import ClothError, GridDesc, MeshDesc, Status, c_cloth_p, c_float_p, c_uint32_p, check, lib
from ._util import U32_MAX as _U32_MAX
from ._util import desc_buffer as _desc_buffer
from ._util import u32 as _u32

__all__ = ["create_grid", "create_mesh"]


def create_grid(rows, cols, spacing, origin, u_axis, v_axis, mass, neighbours):
    """cloth_grid_desc_init + cloth_create_grid; None keeps a default. Returns the handle."""
    desc, storage = _desc_buffer(GridDesc, "cloth_grid_desc_init")
    desc.rows = _u32(rows, "cloth_create_grid")
    desc.cols = _u32(cols, "cloth_create_grid")
    if spacing is not None:
        desc.spacing = float(spacing)
    if origin is not None:
        desc.origin = _buffers.vec3(origin, "origin")
    if u_axis is not None:
        desc.u_axis = _buffers.vec3(u_axis, "u_axis")
    if v_axis is not None:
        desc.v_axis = _buffers.vec3(v_axis, "v_axis")
    if mass is not None:
        desc.particle_mass = float(mass)
    if neighbours is not None:
        desc.neighbours = _u32(neighbours, "cloth_create_grid")
    handle = c_cloth_p()
    check(lib().cloth_create_grid(ctypes.byref(desc), ctypes.byref(handle)), "cloth_create_grid")
    del storage
    return handle.value


def create_mesh(positions, triangles, mass, masses, inverse_masses):
    """cloth_mesh_desc_init + cloth_create_mesh. Returns the handle."""
    if np is not None:
        pos = np.ascontiguousarray(positions, dtype=np.float32)
        if pos.ndim != 2 or pos.shape[1] != 3:
            raise ValueError("positions: expected shape (n, 3), got %s" % (pos.shape,))
        count = pos.shape[0]
        tri = np.asarray(triangles)
        if tri.ndim != 2 or tri.shape[1] != 3:
            raise ValueError("triangles: expected shape (m, 3), got %s" % (tri.shape,))
        if tri.size and (tri.min() < 0 or tri.max() > _U32_MAX):
            raise ClothError(Status.ERR_INVALID_ARGUMENT, "cloth_create_mesh")
        tri = np.ascontiguousarray(tri, dtype=np.uint32)
        tri_count = tri.shape[0]
        pos_ptr = pos.ctypes.data_as(c_float_p)
        tri_ptr = tri.ctypes.data_as(c_uint32_p)
    else:
        rows = list(positions)
        count = len(rows)
        pos_ptr, _, pos = _buffers.write_vec3(rows, count, "positions")
        tris = [tuple(t) for t in triangles]
        if any(len(t) != 3 for t in tris):
            raise ValueError("triangles: expected index triples")
        flat = [operator.index(i) for t in tris for i in t]
        if any(not 0 <= i <= _U32_MAX for i in flat):
            raise ClothError(Status.ERR_INVALID_ARGUMENT, "cloth_create_mesh")
        tri = (ctypes.c_uint32 * len(flat))(*flat)
        tri_count = len(tris)
        tri_ptr = tri
    desc, storage = _desc_buffer(MeshDesc, "cloth_mesh_desc_init")
    desc.positions = ctypes.cast(pos_ptr, c_float_p)
    desc.position_stride = 0
    desc.vertex_count = _u32(count, "cloth_create_mesh")
    desc.triangles = ctypes.cast(tri_ptr, c_uint32_p)
    desc.triangle_count = _u32(tri_count, "cloth_create_mesh")
    if mass is not None:
        desc.particle_mass = float(mass)
    keep = []
    if masses is not None:
        buf = _buffers.floats(masses, count, "masses")
        keep.append(buf)
        desc.masses = ctypes.cast(buf, c_float_p)
    if inverse_masses is not None:
        buf = _buffers.floats(inverse_masses, count, "inverse_masses")
        keep.append(buf)
        desc.inverse_masses = ctypes.cast(buf, c_float_p)
    handle = c_cloth_p()
    check(lib().cloth_create_mesh(ctypes.byref(desc), ctypes.byref(handle)), "cloth_create_mesh")
    del pos, tri, keep, storage  # the library has copied what it needs
    return handle.value
