"""Moving xyz records between Python and the library's strided C API.

With numpy (importable, and CLOTHSIM_NO_NUMPY unset or "0"), reads fill a
float32 (n, 3) array that the library writes into directly, and writes pass
the caller's array to the library without a copy when it already is float32
with 4-byte columns (rows may be strided, as in an interleaved vertex buffer).
Without numpy, reads return lists of tuples and writes take any sequence of
triples.
"""

import ctypes
import numbers
import operator
import os

from ._lib import ClothError, Status, c_float_p, c_uint32_p

__all__ = [
    "np",
    "HAVE_NUMPY",
    "read_vec3",
    "vec3_target",
    "index_target",
    "read_triangles",
    "write_vec3",
    "write_floats",
    "write_vec3_rows",
    "write_records",
    "write_indices",
    "vec3",
    "floats",
    "fill_vec3",
    "copy_vec3",
    "float_view",
    "zero",
]


def _import_numpy():
    if os.environ.get("CLOTHSIM_NO_NUMPY", "") not in ("", "0"):
        return None
    try:
        import numpy
    except ImportError:
        return None
    return numpy


np = _import_numpy()
HAVE_NUMPY = np is not None


def _stride_of(array, count):
    """The byte stride to hand the library for an (n, 3) float32 array, or None."""
    if array.ndim != 2 or array.shape[0] != count or array.shape[1] != 3:
        return None
    if array.dtype != np.float32 or not array.dtype.isnative:
        return None
    row, col = array.strides
    if col != 4:
        return None
    if count <= 1:
        return 0
    if row == 12:
        return 0
    if row < 12 or row % 4 != 0:
        return None
    return row


def vec3_target(out, count, what):
    """Where the library writes `count` xyz records: (pointer, stride, result).

    numpy: `out` (an (n, 3) float32 array, rows may be strided) or a new
    array; ``result()`` returns that array. Otherwise a ctypes buffer and
    ``result()`` returns a list of (x, y, z) tuples.
    """
    if np is not None:
        if out is None:
            out = np.empty((count, 3), dtype=np.float32)
            stride = 0
        else:
            if not isinstance(out, np.ndarray):
                raise TypeError("%s: out must be a numpy array" % what)
            stride = _stride_of(out, count)
            if stride is None:
                raise ValueError(
                    "%s: out must be a float32 array of shape (%d, 3) with 4-byte columns and a "
                    "row stride that is a multiple of 4 and at least 12 bytes" % (what, count)
                )
            if not out.flags.writeable:
                raise ValueError("%s: out is read-only" % what)
        return out.ctypes.data_as(c_float_p), stride, lambda: out
    if out is not None:
        raise TypeError("%s: out= needs numpy" % what)
    buf = (ctypes.c_float * (3 * count))()
    return buf, 0, lambda: [(buf[3 * i], buf[3 * i + 1], buf[3 * i + 2]) for i in range(count)]


def read_vec3(fn, handle, count, out, what):
    """Call fn(handle, dst, stride) for `count` xyz records.

    numpy: into `out` (an (n, 3) float32 array, rows may be strided) or a new
    array, which is returned. Otherwise a list of (x, y, z) tuples. `fn`
    raises on a bad status.
    """
    ptr, stride, result = vec3_target(out, count, what)
    if count:
        fn(handle, ptr, stride)
    return result()


def index_target(count, width=3):
    """Where the library writes `count` records of `width` uint32 indices:
    (pointer, result); result() is an (m, width) uint32 array or a list of tuples."""
    if np is not None:
        out = np.empty((count, width), dtype=np.uint32)
        return out.ctypes.data_as(c_uint32_p), lambda: out
    buf = (ctypes.c_uint32 * (width * count))()
    return buf, lambda: [tuple(buf[width * i : width * (i + 1)]) for i in range(count)]


def read_triangles(fn, handle, count):
    """Call fn(handle, dst) for `count` triangles: (m, 3) uint32 array or list of tuples."""
    ptr, result = index_target(count)
    if count:
        fn(handle, ptr)
    return result()


def write_vec3(values, count, what):
    """(pointer, stride, keepalive) for `count` xyz records read from `values`.

    A numpy float32 (n, 3) array with 4-byte columns is passed as it is (no
    copy); any other array-like or sequence of triples is copied.
    """
    if np is not None and isinstance(values, np.ndarray):
        stride = _stride_of(values, count)
        if stride is None:
            values = np.ascontiguousarray(values, dtype=np.float32)
            if values.shape != (count, 3):
                raise ValueError("%s: expected shape (%d, 3), got %s" % (what, count, values.shape))
            stride = 0
        return values.ctypes.data_as(c_float_p), stride, values
    if np is not None:
        array = np.ascontiguousarray(values, dtype=np.float32)
        if array.shape != (count, 3):
            raise ValueError("%s: expected %d xyz triples, got shape %s" % (what, count, array.shape))
        return array.ctypes.data_as(c_float_p), 0, array
    rows = list(values)
    if len(rows) != count:
        raise ValueError("%s: expected %d xyz triples, got %d" % (what, count, len(rows)))
    buf = (ctypes.c_float * (3 * count))()
    for i, row in enumerate(rows):
        x, y, z = row
        buf[3 * i] = x
        buf[3 * i + 1] = y
        buf[3 * i + 2] = z
    return buf, 0, buf


def write_vec3_rows(values, what):
    """(pointer, stride, count, keepalive) for xyz records whose number the
    values give: an (n, 3) array (float32 with 4-byte columns passed as it
    is, rows may be strided) or a sequence of triples, as :func:`write_vec3`."""
    if np is not None:
        array = values if isinstance(values, np.ndarray) else np.asarray(values, dtype=np.float32)
        if array.ndim != 2 or array.shape[1] != 3:
            if array.size == 0:  # [] has shape (0,): no records
                array = np.empty((0, 3), dtype=np.float32)
            else:
                raise ValueError("%s: expected shape (n, 3), got %s" % (what, array.shape))
        count = array.shape[0]
        ptr, stride, keep = write_vec3(array, count, what)
        return ptr, stride, count, keep
    rows = list(values)
    ptr, stride, keep = write_vec3(rows, len(rows), what)
    return ptr, stride, len(rows), keep


def _is_number(v):
    return isinstance(v, numbers.Real) or (hasattr(v, "__float__") and not hasattr(v, "__len__"))


def write_records(values, width, what):
    """(pointer, count, keepalive) for packed records of `width` floats:
    a sequence of `width`-tuples, a flat sequence of numbers whose length is
    a multiple of `width`, or an array of shape (k, width) or (k * width,)."""
    if np is not None:
        array = np.ascontiguousarray(values, dtype=np.float32)
        if array.ndim == 1 and array.size % width == 0:
            array = array.reshape(-1, width)
        if array.ndim != 2 or array.shape[1] != width:
            raise ValueError("%s: expected records of %d numbers, got shape %s" % (what, width, array.shape))
        return array.ctypes.data_as(c_float_p), array.shape[0], array
    items = list(values)
    if all(_is_number(v) for v in items):
        flat = [float(v) for v in items]
        if len(flat) % width:
            raise ValueError("%s: expected a multiple of %d numbers, got %d" % (what, width, len(flat)))
    else:
        flat = []
        for row in items:
            row = [float(v) for v in row]
            if len(row) != width:
                raise ValueError("%s: expected records of %d numbers, got one of %d" % (what, width, len(row)))
            flat.extend(row)
    buf = (ctypes.c_float * len(flat))(*flat)
    return buf, len(flat) // width, buf


def write_indices(values, width, what, function):
    """(pointer, count, keepalive) for packed records of `width` uint32
    indices: a sequence of `width`-tuples or an (m, width) integer array. An
    index outside uint32 raises ClothError(ERR_INVALID_ARGUMENT) as the
    library refuses one out of range; a non-integer one TypeError."""
    if np is not None:
        array = np.asarray(values)
        if array.size == 0:
            array = np.empty((0, width), dtype=np.uint32)
        if array.ndim != 2 or array.shape[1] != width:
            raise ValueError("%s: expected shape (m, %d), got %s" % (what, width, array.shape))
        if array.dtype.kind not in "iu":
            raise TypeError("%s: expected integer indices, got %s" % (what, array.dtype))
        if array.size and (array.min() < 0 or array.max() > 0xFFFFFFFF):
            raise ClothError(Status.ERR_INVALID_ARGUMENT, function)
        array = np.ascontiguousarray(array, dtype=np.uint32)
        return array.ctypes.data_as(c_uint32_p), array.shape[0], array
    rows = [tuple(r) for r in values]
    if any(len(r) != width for r in rows):
        raise ValueError("%s: expected index records of %d" % (what, width))
    flat = [operator.index(i) for r in rows for i in r]
    if any(not 0 <= i <= 0xFFFFFFFF for i in flat):
        raise ClothError(Status.ERR_INVALID_ARGUMENT, function)
    buf = (ctypes.c_uint32 * len(flat))(*flat)
    return buf, len(rows), buf


def write_floats(values, count, what):
    """(pointer, keepalive) for `count` packed floats read from `values`
    (one per particle: a numpy array or any sequence of numbers)."""
    if np is not None:
        array = np.ascontiguousarray(values, dtype=np.float32)
        if array.shape != (count,):
            raise ValueError("%s: expected %d numbers, got shape %s" % (what, count, array.shape))
        return array.ctypes.data_as(c_float_p), array
    buf = floats(values, count, what)
    return buf, buf


def floats(values, n, what):
    """A ctypes float[n] from a sequence of n numbers (ValueError otherwise)."""
    try:
        items = [float(v) for v in values]
    except TypeError:
        raise TypeError("%s: expected %d numbers, got %r" % (what, n, values)) from None
    if len(items) != n:
        raise ValueError("%s: expected %d numbers, got %d" % (what, n, len(items)))
    return (ctypes.c_float * n)(*items)


def vec3(values, what):
    """A ctypes float[3] from any sequence of three numbers."""
    return floats(values, 3, what)


def fill_vec3(dst, count, result, what):
    """Write a callback's per-particle vectors (wind, forces) into the
    library's float buffer `dst`.

    `result` is an (n, 3) array-like, a sequence of n triples, or a single
    triple applied to every particle (uniform wind, one force on each).
    """
    if np is not None:
        out = np.ctypeslib.as_array(dst, shape=(count, 3))
        array = np.asarray(result, dtype=np.float32)
        if array.shape not in ((count, 3), (3,)):
            raise ValueError("%s: expected shape (%d, 3) or (3,), got %s" % (what, count, array.shape))
        out[...] = array
        return
    seq = list(result)
    if len(seq) == 3 and all(isinstance(v, (int, float)) for v in seq):
        seq = [seq] * count
    if len(seq) != count:
        raise ValueError("%s: expected %d xyz triples or one, got %d" % (what, count, len(seq)))
    for i, row in enumerate(seq):
        x, y, z = row
        dst[3 * i] = x
        dst[3 * i + 1] = y
        dst[3 * i + 2] = z


def copy_vec3(src, count):
    """The positions (or velocities) a callback receives: an (n, 3) float32
    array or a list of tuples.

    A copy, not a view: the library's buffer is only valid during the call,
    and a callback may keep what it is given.
    """
    if np is not None:
        return np.ctypeslib.as_array(src, shape=(count, 3)).copy()
    return [(src[3 * i], src[3 * i + 1], src[3 * i + 2]) for i in range(count)]


def float_view(ptr, count, writable):
    """`count` floats at a library pointer, without a copy: a 1-D float32
    array (read-only unless `writable`), or a ctypes float array without
    numpy. None for a NULL pointer. Valid only while the library's buffer is."""
    if not ptr:
        return None
    if np is not None:
        array = np.ctypeslib.as_array(ptr, shape=(count,))
        if not writable:
            array.flags.writeable = False
        return array
    return (ctypes.c_float * count).from_address(ctypes.addressof(ptr.contents))


def zero(dst, count):
    ctypes.memset(dst, 0, 12 * count)

