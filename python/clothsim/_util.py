"""Argument helpers shared by the Pythonic modules (cloth, readback, hooks)."""

import ctypes
import operator

from ._lib import DESC_BUFFER_BYTES, ClothError, ClothLibraryError, Status, lib

__all__ = ["U32_MAX", "u32", "enum_value", "desc_buffer"]

U32_MAX = 0xFFFFFFFF


def enum_value(value, names, kind):
    """An enum argument given as a name ('pbd'), an IntEnum or a plain int."""
    if isinstance(value, str):
        key = value.strip().lower().replace("-", "_")
        try:
            return int(names[key])
        except KeyError:
            raise ValueError(
                "unknown %s %r; one of: %s" % (kind, value, ", ".join(sorted(names)))
            ) from None
    return operator.index(value)


def u32(value, function, status=Status.ERR_INVALID_ARGUMENT):
    """An int that fits uint32_t; outside it, what the library would say."""
    value = operator.index(value)
    if not 0 <= value <= U32_MAX:
        raise ClothError(status, function)
    return value


def desc_buffer(struct_type, init_name, *init_args):
    """A struct filled by the library's init function, in room for a newer layout.

    cloth_*_desc_init(), cloth_stats_init() and cloth_material_init() write
    as many bytes as the *library's* struct has, so the struct is placed at
    the start of a larger zeroed buffer; the library then sees its own
    defaults in any field newer than this package. `init_args` follow the
    struct pointer (cloth_material_init's preset). Returns (struct, storage);
    keep the storage alive.
    """
    storage = (ctypes.c_uint64 * (DESC_BUFFER_BYTES // 8))()
    desc = struct_type.from_buffer(storage)
    getattr(lib(), init_name)(ctypes.byref(desc), *init_args)
    size = desc.struct_size
    if size < ctypes.sizeof(struct_type) or size > DESC_BUFFER_BYTES:
        raise ClothLibraryError(
            "%s reports a %d-byte struct; this package knows %d bytes (and has room for %d)"
            % (init_name, size, ctypes.sizeof(struct_type), DESC_BUFFER_BYTES)
        )
    return desc, storage
