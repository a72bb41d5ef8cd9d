"""Loading libclothsim and declaring its C signatures for ctypes.

Everything that knows the C ABI lives here: the enums and constants, the
structs (descs, statistics, materials, the integrator plug-in's view and
table), the callback types (CALLBACKS) and one table, SIGNATURES, with the
restype and argtypes of every public function. The table is applied to the library when
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
    "TetherSchedule",
    "WatchdogAction",
    "MaterialPreset",
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
MIN_MINOR = 3


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


class TetherSchedule(enum.IntEnum):
    """cloth_tether_schedule: which substeps project the tethers."""

    EVERY_SUBSTEP = 0
    LAST_SUBSTEP = 1


class SimdLevel(enum.IntEnum):
    """cloth_simd_level: the vector instructions a cloth's kernels run with (threads.h)."""

    BEST = 0
    SCALAR = 1
    LANES4 = 2
    AVX2 = 3
    AVX512 = 4


class WatchdogAction(enum.IntEnum):
    """cloth_watchdog_action: what cloth_step() does when the watchdog trips."""

    REPORT = 0
    RESTORE = 1


class MaterialPreset(enum.IntEnum):
    """cloth_material_preset: the named fabrics of cloth_material_init() (material.h)."""

    COTTON = 0
    SILK = 1
    DENIM = 2
    LEATHER = 3
    JERSEY = 4
    RUBBER = 5


# The public enums: C name -> (class, prefix of its constants in C).
ENUMS = {
    "cloth_status": (Status, "CLOTH_"),
    "cloth_integrator": (Integrator, "CLOTH_INTEGRATOR_"),
    "cloth_spring_type": (SpringType, "CLOTH_SPRING_"),
    "cloth_tether_schedule": (TetherSchedule, "CLOTH_TETHERS_"),
    "cloth_watchdog_action": (WatchdogAction, "CLOTH_WATCHDOG_"),
    "cloth_simd_level": (SimdLevel, "CLOTH_SIMD_LEVEL_"),
    "cloth_material_preset": (MaterialPreset, "CLOTH_MATERIAL_"),
}

# The public object-like macros other than the version (tests/ffi/check_headers.py
# compares the values with the headers).
CONSTANTS = {
    "CLOTH_SMOOTH_MAX_LEVEL": 16,
    "CLOTH_MAX_THREADS": 64,
    "CLOTH_INTEGRATOR_WANTS_SPRING_FORCES": 1,
    "CLOTH_TETHERS_PER_PARTICLE": 4,
    "CLOTH_WATCHDOG_TRIPPED_STRAIN": 1,
    "CLOTH_WATCHDOG_TRIPPED_ENERGY": 2,
}
SMOOTH_MAX_LEVEL = CONSTANTS["CLOTH_SMOOTH_MAX_LEVEL"]
MAX_THREADS = CONSTANTS["CLOTH_MAX_THREADS"]
INTEGRATOR_WANTS_SPRING_FORCES = CONSTANTS["CLOTH_INTEGRATOR_WANTS_SPRING_FORCES"]
WATCHDOG_TRIPPED_STRAIN = CONSTANTS["CLOTH_WATCHDOG_TRIPPED_STRAIN"]
WATCHDOG_TRIPPED_ENERGY = CONSTANTS["CLOTH_WATCHDOG_TRIPPED_ENERGY"]


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


class StatsStruct(ctypes.Structure):
    """cloth_stats, field for field (include/clothsim/state.h).

    Fill it with cloth_stats_init() (which sets ``struct_size``) before
    cloth_get_stats(); the library writes at most ``struct_size`` bytes.
    """

    c_name = "cloth_stats"
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("contacts", ctypes.c_uint32),
        ("spring_count", ctypes.c_uint32 * 3),
        ("watchdog_tripped", ctypes.c_uint32),
        ("steps", ctypes.c_uint64),
        ("watchdog_trips", ctypes.c_uint64),
        ("step_seconds", ctypes.c_double),
        ("max_strain", ctypes.c_float * 3),
        ("min_strain", ctypes.c_float * 3),
        ("mean_strain", ctypes.c_float * 3),
        ("kinetic_energy", ctypes.c_float),
        ("watchdog_max_strain", ctypes.c_float),
        ("watchdog_kinetic_energy", ctypes.c_float),
        ("memory_bytes", ctypes.c_uint64),
        ("step_max_strain", ctypes.c_float),
        ("substeps_used", ctypes.c_uint32),
        ("iterations_used", ctypes.c_uint32),
        ("limit_passes_used", ctypes.c_uint32),
        ("reserved", ctypes.c_uint32 * 10),
    ]


class MaterialStruct(ctypes.Structure):
    """cloth_material, field for field (include/clothsim/material.h).

    Fill it with cloth_material_init() (which sets ``struct_size`` and zeroes
    ``reserved``) before changing fields and passing it to cloth_set_material().
    """

    c_name = "cloth_material"
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("density", ctypes.c_float),
        ("stretch_modulus", ctypes.c_float),
        ("shear_modulus", ctypes.c_float),
        ("bending_rigidity", ctypes.c_float),
        ("max_strain", ctypes.c_float),
        ("damping", ctypes.c_float),
        ("reserved", ctypes.c_uint32 * 9),
    ]


# --- callback types ------------------------------------------------------------
#
# A CFUNCTYPE callback takes the GIL for its Python side, so C may call one
# from any thread; a call *through* one of these types into C releases it.

# cloth_wind_fn: void (*)(void *user, float time, uint32_t count,
#                         const float *positions, float *wind_velocity)
WIND_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_float, ctypes.c_uint32, c_float_p, c_float_p)

# cloth_force_fn: void (*)(void *user, float time, uint32_t count, const float *positions,
#                          const float *velocities, float *forces)
FORCE_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_float, ctypes.c_uint32, c_float_p, c_float_p, c_float_p)

# cloth_task_fn: void (uint32_t begin, uint32_t end, uint32_t worker, void *task_context)
TASK_FN = ctypes.CFUNCTYPE(None, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_void_p)

# cloth_enqueue_task_fn: void *(cloth_task_fn *task, uint32_t item_count, uint32_t min_range,
#                               void *task_context, void *user_context)
ENQUEUE_TASK_FN = ctypes.CFUNCTYPE(
    ctypes.c_void_p, TASK_FN, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p
)

# cloth_finish_task_fn: void (void *user_task, void *user_context)
FINISH_TASK_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)

# cloth_step_view::collide_particle: void (*)(void *ctx, uint32_t index)
COLLIDE_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32)


class StepViewStruct(ctypes.Structure):
    """cloth_step_view, field for field (include/clothsim/integrators.h)."""

    c_name = "cloth_step_view"
    _fields_ = [
        ("count", ctypes.c_uint32),
        ("x", c_float_p),
        ("y", c_float_p),
        ("z", c_float_p),
        ("vx", c_float_p),
        ("vy", c_float_p),
        ("vz", c_float_p),
        ("fx", c_float_p),
        ("fy", c_float_p),
        ("fz", c_float_p),
        ("inv_mass", c_float_p),
        ("gravity", ctypes.c_float * 3),
        ("h", ctypes.c_float),
        ("damping", ctypes.c_float),
        ("velocity_decay", ctypes.c_float),
        ("iterations", ctypes.c_uint32),
        ("substep", ctypes.c_uint32),
        ("substeps", ctypes.c_uint32),
        ("cloth", c_cloth_p),
        ("collide_particle", COLLIDE_FN),
        ("collide_ctx", ctypes.c_void_p),
    ]


# cloth_integrator_vtable's members
INTEGRATOR_CREATE_FN = ctypes.CFUNCTYPE(c_status, ctypes.c_void_p, c_cloth_p, ctypes.POINTER(ctypes.c_void_p))
INTEGRATOR_DESTROY_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
INTEGRATOR_STEP_FN = ctypes.CFUNCTYPE(c_status, ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(StepViewStruct))


class IntegratorVtable(ctypes.Structure):
    """cloth_integrator_vtable, field for field (include/clothsim/integrators.h)."""

    c_name = "cloth_integrator_vtable"
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("flags", ctypes.c_uint32),
        ("create", INTEGRATOR_CREATE_FN),
        ("destroy", INTEGRATOR_DESTROY_FN),
        ("step", INTEGRATOR_STEP_FN),
        ("finish", INTEGRATOR_STEP_FN),
    ]


# Every callback typedef of the headers (tests/ffi/check_headers.py checks
# that none is missing and that each matches its C prototype).
CALLBACKS = {
    "cloth_wind_fn": WIND_FN,
    "cloth_force_fn": FORCE_FN,
    "cloth_task_fn": TASK_FN,
    "cloth_enqueue_task_fn": ENQUEUE_TASK_FN,
    "cloth_finish_task_fn": FINISH_TASK_FN,
}

# Every public struct with members (the same check).
STRUCTS = (Allocator, GridDesc, MeshDesc, StatsStruct, MaterialStruct, StepViewStruct, IntegratorVtable)

# Room for a desc as a newer library of the same major version may lay it
# out: cloth_*_desc_init() writes the library's sizeof, which may exceed the
# struct above; it is written into this much zeroed, aligned memory.
DESC_BUFFER_BYTES = 1024

_F = ctypes.c_float
_U32 = ctypes.c_uint32
_SZ = ctypes.c_size_t
_P = ctypes.c_void_p

# name: (restype, [argtypes]): every CLOTH_API function of the headers
# (tests/ffi/check_headers.py fails when one is missing or differs).
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
    # integrators.h
    "cloth_set_custom_integrator": (c_status, [c_cloth_p, ctypes.POINTER(IntegratorVtable), _P]),
    "cloth_get_springs": (c_status, [c_cloth_p, c_uint32_p, c_float_p, ctypes.POINTER(c_enum)]),
    "cloth_set_jacobi_weight": (c_status, [c_cloth_p, _F]),
    # bending.h
    "cloth_set_bending_stiffness": (c_status, [c_cloth_p, _F]),
    # material.h
    "cloth_material_init": (None, [ctypes.POINTER(MaterialStruct), c_enum]),
    "cloth_set_material": (c_status, [c_cloth_p, ctypes.POINTER(MaterialStruct)]),
    "cloth_get_material": (c_status, [c_cloth_p, ctypes.POINTER(MaterialStruct)]),
    # constraints.h
    "cloth_set_tethers": (c_status, [c_cloth_p, _F]),
    "cloth_get_tethers": (c_status, [c_cloth_p, c_float_p]),
    "cloth_set_tether_schedule": (c_status, [c_cloth_p, c_enum]),
    "cloth_get_tether_schedule": (c_status, [c_cloth_p, ctypes.POINTER(c_enum)]),
    "cloth_set_strain_limit": (c_status, [c_cloth_p, _F, _U32]),
    "cloth_get_strain_limit": (c_status, [c_cloth_p, c_float_p, c_uint32_p]),
    "cloth_set_strain_level_sweeps": (c_status, [c_cloth_p, _U32]),
    "cloth_get_strain_level_sweeps": (c_status, [c_cloth_p, c_uint32_p]),
    "cloth_set_self_collision": (c_status, [c_cloth_p, _F]),
    "cloth_get_self_collision": (c_status, [c_cloth_p, c_float_p]),
    "cloth_set_self_friction": (c_status, [c_cloth_p, _F]),
    "cloth_get_self_friction": (c_status, [c_cloth_p, c_float_p]),
    # stepping and state
    "cloth_step": (c_status, [c_cloth_p, _F]),
    "cloth_particle_count": (_U32, [c_cloth_p]),
    "cloth_triangle_count": (_U32, [c_cloth_p]),
    "cloth_get_positions": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_get_normals": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_get_triangles": (c_status, [c_cloth_p, c_uint32_p]),
    "cloth_set_positions": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_set_inverse_masses": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_get_inverse_masses": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_set_stiffness_scales": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_get_stiffness_scales": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_get_velocities": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_set_velocities": (c_status, [c_cloth_p, c_float_p, _SZ]),
    # pins
    "cloth_pin": (c_status, [c_cloth_p, _U32, c_float_p]),
    # frame.h
    "cloth_set_frame": (c_status, [c_cloth_p, c_float_p, c_float_p]),
    "cloth_set_inertia": (c_status, [c_cloth_p, _F, _F]),
    "cloth_get_inertia": (c_status, [c_cloth_p, c_float_p, c_float_p]),
    "cloth_teleport": (c_status, [c_cloth_p, c_float_p, c_float_p]),
    # skin.h
    "cloth_set_skin_targets": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_set_max_distances": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_set_skin_normals": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_set_backstops": (c_status, [c_cloth_p, c_float_p, _SZ]),
    "cloth_unpin": (c_status, [c_cloth_p, _U32]),
    # colliders
    "cloth_add_sphere": (c_status, [c_cloth_p, c_float_p, _F, c_uint32_p]),
    "cloth_add_ellipsoid": (c_status, [c_cloth_p, c_float_p, c_float_p, c_float_p, c_uint32_p]),
    "cloth_add_plane": (c_status, [c_cloth_p, c_float_p, c_float_p, c_uint32_p]),
    "cloth_add_capsule": (c_status, [c_cloth_p, c_float_p, c_float_p, _F, c_uint32_p]),
    "cloth_add_tapered_capsule": (c_status, [c_cloth_p, c_float_p, c_float_p, _F, _F, c_uint32_p]),
    "cloth_add_convex": (c_status, [c_cloth_p, c_float_p, _U32, c_uint32_p]),
    "cloth_add_triangle_mesh": (c_status, [c_cloth_p, c_float_p, _SZ, _U32, c_uint32_p, _U32, c_uint32_p]),
    "cloth_set_triangle_mesh_vertices": (c_status, [c_cloth_p, _U32, c_float_p, _SZ]),
    "cloth_get_triangle_mesh_vertices": (c_status, [c_cloth_p, _U32, c_float_p, _SZ]),
    "cloth_set_particle_radius": (c_status, [c_cloth_p, _F]),
    "cloth_get_particle_radius": (c_status, [c_cloth_p, c_float_p]),
    "cloth_add_cylinder": (c_status, [c_cloth_p, c_float_p, c_float_p, _F, c_uint32_p]),
    "cloth_add_torus": (c_status, [c_cloth_p, c_float_p, c_float_p, _F, _F, c_uint32_p]),
    "cloth_set_collider_friction": (c_status, [c_cloth_p, _U32, _F]),
    "cloth_set_collider_thickness": (c_status, [c_cloth_p, _U32, _F]),
    "cloth_set_collider_transform": (c_status, [c_cloth_p, _U32, c_float_p, c_float_p]),
    "cloth_set_collider_transforms": (c_status, [c_cloth_p, c_uint32_p, _U32, c_float_p, c_float_p]),
    "cloth_get_collider_transform": (c_status, [c_cloth_p, _U32, c_float_p, c_float_p]),
    "cloth_remove_collider": (c_status, [c_cloth_p, _U32]),
    # forces
    "cloth_set_wind": (c_status, [c_cloth_p, WIND_FN, _P]),
    "cloth_set_constant_wind": (c_status, [c_cloth_p, c_float_p]),
    "cloth_set_air_density": (c_status, [c_cloth_p, _F]),
    "cloth_set_drag_coefficient": (c_status, [c_cloth_p, _F]),
    "cloth_set_lift_coefficient": (c_status, [c_cloth_p, _F]),
    "cloth_set_external_force": (c_status, [c_cloth_p, FORCE_FN, _P]),
    # smooth.h
    "cloth_smooth_counts": (c_status, [c_cloth_p, _U32, c_uint32_p, c_uint32_p]),
    "cloth_get_smooth": (c_status, [c_cloth_p, _U32, c_float_p, _SZ, c_float_p, _SZ, c_uint32_p]),
    # state.h: snapshots, hash, statistics, watchdog
    "cloth_state_size": (c_status, [c_cloth_p, ctypes.POINTER(_SZ)]),
    "cloth_save_state": (c_status, [c_cloth_p, _P, _SZ]),
    "cloth_load_state": (c_status, [c_cloth_p, _P, _SZ]),
    "cloth_state_hash": (ctypes.c_uint64, [c_cloth_p]),
    "cloth_stats_init": (None, [ctypes.POINTER(StatsStruct)]),
    "cloth_get_stats": (c_status, [c_cloth_p, ctypes.POINTER(StatsStruct)]),
    "cloth_set_watchdog": (c_status, [c_cloth_p, _F, _F, c_enum]),
    # threads.h
    "cloth_set_threads": (c_status, [c_cloth_p, _U32]),
    "cloth_get_threads": (c_status, [c_cloth_p, c_uint32_p]),
    "cloth_set_simd_level": (c_status, [c_cloth_p, c_enum]),
    "cloth_get_simd_level": (c_status, [c_cloth_p, ctypes.POINTER(c_enum)]),
    "cloth_set_task_hooks": (c_status, [c_cloth_p, ENQUEUE_TASK_FN, FINISH_TASK_FN, _U32, _P]),
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
