"""Loading libclothsim and declaring its C signatures for ctypes.

Everything that knows the C ABI lives here: the enums, the desc structs, the
callback type and one table, SIGNATURES, with the restype and argtypes of
every function the package calls. The table is applied to the library when
it is loaded, so a call with a wrong argument type fails with
ctypes.ArgumentError instead of passing garbage; tests/ffi/check_headers.py
compares it with the public headers.

The library is loaded lazily, on the first call that needs it, so that
``import clothsim`` works (and tells what it tried) even where it is missing.
"""

import ctypes
import ctypes.util
import enum
import os
import sys
import threading

__all__ = [
    "ClothError",
    "ClothLibraryError",
    "Status",
    "Integrator",
    "SpringType",
    "EXPECTED_MAJOR",
    "MIN_MINOR",
    "lib",
    "library_path",
    "version",
    "status_string",
    "check",
]

# The ABI this package was written against (include/clothsim/base.h): a
# library with the same major version and at least this minor version has
# every function and desc field used here.
EXPECTED_MAJOR = 0
MIN_MINOR = 1


class Status(enum.IntEnum):
    """cloth_status: the result of every call that can fail."""

    OK = 0
    ERR_INVALID_ARGUMENT = 1
    ERR_OUT_OF_MEMORY = 2
    ERR_OUT_OF_RANGE = 3
    ERR_UNSTABLE = 4
    ERR_UNSUPPORTED = 5
    ERR_BUSY = 6
    ERR_TASK_CONTRACT = 7


class Integrator(enum.IntEnum):
    """cloth_integrator: the built-in time integrators."""

    EXPLICIT_EULER = 0
    TRAPEZOID = 1
    VERLET = 2
    PBD = 3
    SEMIRIGID = 4
    RELAXATION = 5
    XPBD = 6
    IMPLICIT_EULER = 7
    CUSTOM = 255


class SpringType(enum.IntEnum):
    """cloth_spring_type: the spring families of a cloth."""

    STRUCTURAL = 0
    SHEAR = 1
    BEND = 2


class ClothLibraryError(OSError):
    """libclothsim could not be found or loaded, or its version does not fit."""


class ClothError(Exception):
    """A call into libclothsim was refused.

    ``status`` is the cloth_status code (an int, also a :class:`Status` when
    known) and ``message`` the library's description of it
    (cloth_status_string); ``function`` names the C function that refused.
    """

    def __init__(self, status, function=None, message=None):
        status = int(status)
        if message is None:
            message = status_string(status)
        self.status = status
        self.function = function
        self.message = message
        try:
            name = "CLOTH_" + Status(status).name
        except ValueError:
            name = "status %d" % status
        text = "%s (%s)" % (message, name)
        if function:
            text = "%s: %s" % (function, text)
        super().__init__(text)


# --- C types -----------------------------------------------------------------

c_float_p = ctypes.POINTER(ctypes.c_float)
c_uint32_p = ctypes.POINTER(ctypes.c_uint32)
# Every public enum carries a 0x7fffffff _FORCE32 member: an int on every ABI.
c_enum = ctypes.c_int
c_status = ctypes.c_int
c_cloth_p = ctypes.c_void_p  # cloth_t *, opaque


class Allocator(ctypes.Structure):
    """cloth_allocator (only ever passed as NULL by this package)."""

    c_name = "cloth_allocator"
    _fields_ = [
        ("alloc", ctypes.c_void_p),
        ("free", ctypes.c_void_p),
        ("user", ctypes.c_void_p),
    ]


class GridDesc(ctypes.Structure):
    """cloth_grid_desc, field for field (include/clothsim/types.h)."""

    c_name = "cloth_grid_desc"
    _fields_ = [
        ("rows", ctypes.c_uint32),
        ("cols", ctypes.c_uint32),
        ("spacing", ctypes.c_float),
        ("origin", ctypes.c_float * 3),
        ("u_axis", ctypes.c_float * 3),
        ("v_axis", ctypes.c_float * 3),
        ("particle_mass", ctypes.c_float),
        ("struct_size", ctypes.c_uint32),
        ("allocator", ctypes.POINTER(Allocator)),
        ("neighbours", ctypes.c_uint32),
        ("reserved", ctypes.c_uint32 * 15),
    ]


class MeshDesc(ctypes.Structure):
    """cloth_mesh_desc, field for field (include/clothsim/mesh.h)."""

    c_name = "cloth_mesh_desc"
    _fields_ = [
        ("positions", c_float_p),
        ("position_stride", ctypes.c_size_t),
        ("vertex_count", ctypes.c_uint32),
        ("triangles", c_uint32_p),
        ("triangle_count", ctypes.c_uint32),
        ("particle_mass", ctypes.c_float),
        ("masses", c_float_p),
        ("inverse_masses", c_float_p),
        ("struct_size", ctypes.c_uint32),
        ("allocator", ctypes.POINTER(Allocator)),
        ("reserved", ctypes.c_uint32 * 16),
    ]


# cloth_wind_fn: void (*)(void *user, float time, uint32_t count,
#                         const float *positions, float *wind_velocity)
WIND_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_float, ctypes.c_uint32, c_float_p, c_float_p)

# Room for a desc as a newer library of the same major version may lay it
# out: cloth_*_desc_init() writes the library's sizeof, which may exceed the
# struct above; it is written into this much zeroed, aligned memory.
DESC_BUFFER_BYTES = 1024

_F = ctypes.c_float
_U32 = ctypes.c_uint32
_SZ = ctypes.c_size_t
_P = ctypes.c_void_p

# name: (restype, [argtypes]). Only the functions this package calls.
SIGNATURES = {
    # base.h, lifecycle
    "cloth_version": (_U32, []),
    "cloth_status_string": (ctypes.c_char_p, [c_status]),
    "cloth_grid_desc_init": (None, [ctypes.POINTER(GridDesc)]),
    "cloth_create_grid": (c_status, [ctypes.POINTER(GridDesc), ctypes.POINTER(c_cloth_p)]),
    "cloth_mesh_desc_init": (None, [ctypes.POINTER(MeshDesc)]),
    "cloth_create_mesh": (c_status, [ctypes.POINTER(MeshDesc), ctypes.POINTER(c_cloth_p)]),
    "cloth_destroy": (None, [c_cloth_p]),
    # parameters
    "cloth_set_stiffness": (c_status, [c_cloth_p, c_enum, _F]),
    "cloth_set_spring_damping": (c_status, [c_cloth_p, c_enum, _F]),
    "cloth_set_gravity": (c_status, [c_cloth_p, c_float_p]),
    "cloth_set_damping": (c_status, [c_cloth_p, _F]),
    "cloth_set_substeps": (c_status, [c_cloth_p, _U32]),
    "cloth_set_iterations": (c_status, [c_cloth_p, _U32]),
    "cloth_set_integrator": (c_status, [c_cloth_p, c_enum]),
    "cloth_get_integrator": (c_status, [c_cloth_p, ctypes.POINTER(c_enum)]),
    "cloth_set_constraint_stiffness": (c_status, [c_cloth_p, c_enum, _F]),
    "cloth_spring_count": (_U32, [c_cloth_p]),
    # constraints.h
    "cloth_set_tethers": (c_status, [c_cloth_p, _F]),
    "cloth_get_tethers": (c_status, [c_cloth_p, c_float_p]),
    "cloth_set_tether_schedule": (c_status, [c_cloth_p, c_enum]),
    "cloth_get_tether_schedule": (c_status, [c_cloth_p, ctypes.POINTER(c_enum)]),
    "cloth_set_strain_limit": (c_status, [c_cloth_p, _F, _U32]),
    "cloth_get_strain_limit": (c_status, [c_cloth_p, c_float_p, c_uint32_p]),
    "cloth_set_strain_level_sweeps": (c_status, [c_cloth_p, _U32]),
    "cloth_get_strain_level_sweeps": (c_status, [c_cloth_p, c_uint32_p]),
    # stepping and state
    "cloth_step": (c_status, [c_cloth_p, _F]),
    "cloth_particle_count": (_U32, [c_cloth_p]),
    "cloth_triangle_count": (_U32, [c_cloth_p]),
    "cloth_get_positions": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_get_normals": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_get_triangles": (c_status, [c_cloth_p, c_uint32_p]),
    "cloth_set_positions": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_get_velocities": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_set_velocities": (c_status, [c_cloth_p, c_float_p, _SZ]),
    # pins
    "cloth_pin": (c_status, [c_cloth_p, _U32, c_float_p]),
    "cloth_unpin": (c_status, [c_cloth_p, _U32]),
    # colliders
    "cloth_add_sphere": (c_status, [c_cloth_p, c_float_p, _F, c_uint32_p]),
    "cloth_add_ellipsoid": (c_status, [c_cloth_p, c_float_p, c_float_p, c_float_p, c_uint32_p]),
    "cloth_add_plane": (c_status, [c_cloth_p, c_float_p, c_float_p, c_uint32_p]),
    "cloth_add_capsule": (c_status, [c_cloth_p, c_float_p, c_float_p, _F, c_uint32_p]),
    "cloth_add_cylinder": (c_status, [c_cloth_p, c_float_p, c_float_p, _F, c_uint32_p]),
    "cloth_add_torus": (c_status, [c_cloth_p, c_float_p, c_float_p, _F, _F, c_uint32_p]),
    "cloth_set_collider_friction": (c_status, [c_cloth_p, _U32, _F]),
    "cloth_set_collider_thickness": (c_status, [c_cloth_p, _U32, _F]),
    "cloth_set_collider_transform": (c_status, [c_cloth_p, _U32, c_float_p, c_float_p]),
    "cloth_get_collider_transform": (c_status, [c_cloth_p, _U32, c_float_p, c_float_p]),
    "cloth_remove_collider": (c_status, [c_cloth_p, _U32]),
    # forces
    "cloth_set_wind": (c_status, [c_cloth_p, WIND_FN, _P]),
    "cloth_set_constant_wind": (c_status, [c_cloth_p, c_float_p]),
    "cloth_set_air_density": (c_status, [c_cloth_p, _F]),
    "cloth_set_drag_coefficient": (c_status, [c_cloth_p, _F]),
    "cloth_set_lift_coefficient": (c_status, [c_cloth_p, _F]),
}


# --- finding and loading the library -----------------------------------------

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

if sys.platform == "win32":
    _LOCAL_NAMES = ("clothsim.dll", "libclothsim.dll")
elif sys.platform == "darwin":
    _LOCAL_NAMES = ("libclothsim.dylib",)
else:
    _LOCAL_NAMES = ("libclothsim.so",)


def _candidates():
    """Where to look, in order: (what to pass to CDLL, how it was found)."""
    env = os.environ.get("CLOTHSIM_LIBRARY")
    if env:
        # An explicit choice is the only one: never fall back silently.
        return [(env, "CLOTHSIM_LIBRARY")]
    found = []
    name = ctypes.util.find_library("clothsim")
    if name:
        found.append((name, "ctypes.util.find_library('clothsim')"))
    for directory in (_PACKAGE_DIR, os.path.dirname(_PACKAGE_DIR)):
        for local in _LOCAL_NAMES:
            path = os.path.join(directory, local)
            if os.path.exists(path):
                found.append((path, "next to the package"))
    return found


class _Library:
    def __init__(self):
        self._lock = threading.Lock()
        self._dll = None
        self.path = None

    def get(self):
        dll = self._dll
        if dll is None:
            with self._lock:
                if self._dll is None:
                    self._dll, self.path = _load()
                dll = self._dll
        return dll


def _load():
    tried = []
    for path, how in _candidates():
        try:
            dll = ctypes.CDLL(path)
        except OSError as exc:
            tried.append("%s (%s): %s" % (path, how, exc))
            continue
        _declare(dll, path)
        _check_version(dll, path)
        return dll, path
    if not tried:
        tried.append(
            "nothing found: CLOTHSIM_LIBRARY is unset, ctypes.util.find_library('clothsim') "
            "found nothing and there is no %s in %s" % (" or ".join(_LOCAL_NAMES), _PACKAGE_DIR)
        )
    raise ClothLibraryError(
        "cannot load libclothsim (build it with -DBUILD_SHARED_LIBS=ON and set "
        "CLOTHSIM_LIBRARY to the file):\n  " + "\n  ".join(tried)
    )


def _declare(dll, path):
    missing = []
    for name, (restype, argtypes) in SIGNATURES.items():
        try:
            fn = getattr(dll, name)
        except AttributeError:
            missing.append(name)
            continue
        fn.restype = restype
        fn.argtypes = argtypes
    if missing:
        raise ClothLibraryError(
            "%s does not export %s: is it an older clothsim than %d.%d?"
            % (path, ", ".join(missing), EXPECTED_MAJOR, MIN_MINOR)
        )


def _split_version(number):
    return number // 10000, number // 100 % 100, number % 100


def _check_version(dll, path):
    major, minor, patch = _split_version(dll.cloth_version())
    if major != EXPECTED_MAJOR or minor < MIN_MINOR:
        raise ClothLibraryError(
            "%s is clothsim %d.%d.%d; this package needs %d.x with x >= %d "
            "(same major version, at least the minor version it was written for)"
            % (path, major, minor, patch, EXPECTED_MAJOR, MIN_MINOR)
        )


_library = _Library()


def lib():
    """The loaded ctypes.CDLL, with every signature declared."""
    return _library.get()


def library_path():
    """The file (or name) the library was loaded from; loads it if needed."""
    _library.get()
    return _library.path


def version():
    """The library's run-time version as a (major, minor, patch) tuple."""
    return _split_version(lib().cloth_version())


def status_string(status):
    """cloth_status_string(status) as a str; never raises for a bad code."""
    try:
        text = lib().cloth_status_string(int(status))
    except (ClothLibraryError, ctypes.ArgumentError, OverflowError):
        text = None
    return text.decode("ascii", "replace") if text else "unknown status"


def check(status, function):
    """Raise ClothError unless `status` is CLOTH_OK."""
    if status != 0:
        raise ClothError(status, function)
