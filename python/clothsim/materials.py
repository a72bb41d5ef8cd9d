"""Materials (material.h): a fabric by its measured properties, per metre,
which the cloth turns into masses, stiffnesses and bending for its own
spacing and triangles (Cloth.set_material)."""

import ctypes
import dataclasses

from ._lib import DESC_BUFFER_BYTES, MaterialPreset, MaterialStruct, check, lib
from ._util import desc_buffer, enum_value

__all__ = ["Material", "material", "PRESET_NAMES"]

# 'cotton', 'silk', 'denim', 'leather', 'jersey', 'rubber'
PRESET_NAMES = {p.name.lower(): p for p in MaterialPreset}

_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def preset_value(preset):
    """A preset given as a name ('denim'), a MaterialPreset or a plain int.

    An int that is no preset stays one (cloth_material_init() then fills a
    material of density 0, which cloth_set_material() refuses); one outside
    int32 becomes -1 rather than wrapping around onto a real preset.
    """
    value = enum_value(preset, PRESET_NAMES, "material preset")
    return value if _INT32_MIN <= value <= _INT32_MAX else -1


@dataclasses.dataclass
class Material:
    """A fabric: the fields of cloth_material (material.h) but the
    bookkeeping ones (struct_size, reserved), in SI units.

    ``density`` kg/m^2 (> 0); ``stretch_modulus`` N/m (> 0), tension per
    metre of width per unit strain; ``shear_modulus`` N/m (>= 0);
    ``bending_rigidity`` N m (>= 0), moment per metre of width per unit
    curvature; ``max_strain`` in [0, 10], the stretch cloth_step()
    guarantees at read-back (0: none); ``damping`` 1/s (>= 0).

    Start from a preset and change what you like::

        denim = clothsim.Material.preset("denim")
        denim.max_strain = 0.05
        cloth.set_material(denim)

    The library checks the values when the material is set
    (ClothError with Status.ERR_INVALID_ARGUMENT).
    """

    density: float
    stretch_modulus: float
    shear_modulus: float
    bending_rigidity: float
    max_strain: float
    damping: float

    @classmethod
    def preset(cls, preset):
        """cloth_material_init(): 'cotton', 'silk', 'denim', 'leather',
        'jersey', 'rubber', a :class:`MaterialPreset` or its int. An int that
        is no preset gives a material of density 0, which
        :meth:`Cloth.set_material` refuses; an unknown name raises ValueError."""
        raw, storage = init_struct(preset)
        result = from_struct(raw)
        del storage
        return result


def material(preset):
    """The preset material `preset`: the same as :meth:`Material.preset`."""
    return Material.preset(preset)


def init_struct(preset):
    """cloth_material_init(preset) into room for the library's struct: (struct, storage)."""
    return desc_buffer(MaterialStruct, "cloth_material_init", preset_value(preset))


def from_struct(raw):
    return Material(**{f.name: getattr(raw, f.name) for f in dataclasses.fields(Material)})


def to_struct(value):
    """A cloth_material for cloth_set_material() from a Material or a preset:
    (struct, storage); keep the storage alive during the call."""
    if isinstance(value, Material):
        # struct_size and reserved as the library sets them; every field this
        # package knows from `value`
        raw, storage = init_struct(MaterialPreset.COTTON)
        for f in dataclasses.fields(Material):
            setattr(raw, f.name, getattr(value, f.name))
        return raw, storage
    if isinstance(value, (str, int)):  # MaterialPreset is an int
        return init_struct(value)
    raise TypeError(
        "set_material needs a Material or a preset (%s, a MaterialPreset or its int), not %s"
        % (", ".join(repr(n) for n in PRESET_NAMES), type(value).__name__)
    )


def read_material(handle):
    """cloth_get_material: the Material last set, or None if the cloth never had one."""
    storage = (ctypes.c_uint64 * (DESC_BUFFER_BYTES // 8))()
    raw = MaterialStruct.from_buffer(storage)
    check(lib().cloth_get_material(handle, ctypes.byref(raw)), "cloth_get_material")
    if raw.density == 0.0:  # a cloth that never had one: all zeros
        return None
    return from_struct(raw)
