"""clothsim: real-time cloth simulation, from Python.

A ctypes binding of libclothsim (standard library only). numpy is used when
it can be imported (set CLOTHSIM_NO_NUMPY=1 to do without it): positions,
normals and velocities then come back as (n, 3) float32 arrays that the
library writes into directly; without it, as lists of (x, y, z) tuples.

The shared library is found through the CLOTHSIM_LIBRARY environment
variable (a path), else ctypes.util.find_library('clothsim'), else a
libclothsim.so next to this package. It is loaded on first use; its major
version must be the one this package was written for.

    import clothsim

    with clothsim.Cloth.grid(32, 32, spacing=0.04, origin=(-0.62, 1.2, -0.62)) as cloth:
        cloth.add_sphere((0, 0.4, 0), 0.4, friction=0.4, thickness=0.032)
        cloth.add_plane((0, 0, 0), (0, 1, 0))
        for corner in (0, 31, 992, 1023):
            cloth.pin(corner)
        for frame in range(60):
            cloth.step(1 / 60)
        print(cloth.positions()[:4])

Refused calls raise ClothError, whose ``status`` is the library's
cloth_status code (see Status).
"""

from ._buffers import HAVE_NUMPY
from ._lib import (
    EXPECTED_MAJOR,
    MAX_THREADS,
    MIN_MINOR,
    SMOOTH_MAX_LEVEL,
    WATCHDOG_TRIPPED_ENERGY,
    WATCHDOG_TRIPPED_STRAIN,
    ClothError,
    ClothLibraryError,
    Integrator,
    MaterialPreset,
    SimdLevel,
    SpringType,
    Status,
    TetherSchedule,
    WatchdogAction,
    library_path,
    status_string,
    version,
)
from .cloth import Cloth
from .colliders import Collider
from .hooks import CustomIntegrator, StepView, Task
from .materials import Material, material
from .readback import SmoothSurface, Springs, Stats

# The C names of the status codes, for code that mirrors the C API.
CLOTH_OK = Status.OK
CLOTH_ERR_INVALID_ARGUMENT = Status.ERR_INVALID_ARGUMENT
CLOTH_ERR_OUT_OF_MEMORY = Status.ERR_OUT_OF_MEMORY
CLOTH_ERR_OUT_OF_RANGE = Status.ERR_OUT_OF_RANGE
CLOTH_ERR_UNSTABLE = Status.ERR_UNSTABLE
CLOTH_ERR_UNSUPPORTED = Status.ERR_UNSUPPORTED
CLOTH_ERR_BUSY = Status.ERR_BUSY
CLOTH_ERR_TASK_CONTRACT = Status.ERR_TASK_CONTRACT

__all__ = [
    "Cloth",
    "Collider",
    "ClothError",
    "ClothLibraryError",
    "Status",
    "Integrator",
    "SimdLevel",
    "SpringType",
    "TetherSchedule",
    "WatchdogAction",
    "MaterialPreset",
    "Material",
    "material",
    "Stats",
    "SmoothSurface",
    "Springs",
    "Task",
    "StepView",
    "CustomIntegrator",
    "SMOOTH_MAX_LEVEL",
    "MAX_THREADS",
    "WATCHDOG_TRIPPED_STRAIN",
    "WATCHDOG_TRIPPED_ENERGY",
    "HAVE_NUMPY",
    "library_path",
    "status_string",
    "version",
    "CLOTH_OK",
    "CLOTH_ERR_INVALID_ARGUMENT",
    "CLOTH_ERR_OUT_OF_MEMORY",
    "CLOTH_ERR_OUT_OF_RANGE",
    "CLOTH_ERR_UNSTABLE",
    "CLOTH_ERR_UNSUPPORTED",
    "CLOTH_ERR_BUSY",
    "CLOTH_ERR_TASK_CONTRACT",
]
