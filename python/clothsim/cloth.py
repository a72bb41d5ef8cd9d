"""The Pythonic surface: Cloth (Collider lives in colliders.py, the hooks in hooks.py)."""

import ctypes

from . import _buffers, _build, readback
from . import materials as _materials
from ._lib import (
    ENQUEUE_TASK_FN,
    FINISH_TASK_FN,
    FORCE_FN,
    WIND_FN,
    ClothError,
    Integrator,
    SimdLevel,
    SpringType,
    Status,
    WatchdogAction,
    c_enum,
    check,
    lib,
)
from ._util import enum_value as _enum_value
from ._util import u32 as _u32
from .colliders import Collider
from .hooks import _ForceHook, _IntegratorHook, _TaskHooks, _WindHook

__all__ = ["Cloth", "Collider"]

_INTEGRATOR_NAMES = {
    "euler": Integrator.EXPLICIT_EULER,
    "explicit_euler": Integrator.EXPLICIT_EULER,
    "symplectic_euler": Integrator.EXPLICIT_EULER,
    "trapezoid": Integrator.TRAPEZOID,
    "verlet": Integrator.VERLET,
    "pbd": Integrator.PBD,
    "semirigid": Integrator.SEMIRIGID,
    "semi_rigid": Integrator.SEMIRIGID,
    "relaxation": Integrator.RELAXATION,
    "xpbd": Integrator.XPBD,
    "implicit_euler": Integrator.IMPLICIT_EULER,
    "implicit": Integrator.IMPLICIT_EULER,
}

_TETHER_SCHEDULE_NAMES = {"every_substep": 0, "last_substep": 1}
_SIMD_LEVEL_NAMES = {"best": 0, "scalar": 1, "lanes4": 2, "sse2": 2, "neon": 2, "avx2": 3, "avx512": 4}

_SPRING_NAMES = {
    "structural": SpringType.STRUCTURAL,
    "shear": SpringType.SHEAR,
    "bend": SpringType.BEND,
}

_WATCHDOG_NAMES = {"report": WatchdogAction.REPORT, "restore": WatchdogAction.RESTORE}


class Cloth:
    """A simulated cloth: a handle on a libclothsim ``cloth_t``.

    Make one with :meth:`grid` or :meth:`mesh`. Use it as a context manager or
    call :meth:`close`; the handle is also freed when the object is collected.
    Refused calls raise :class:`ClothError`; calls on a closed cloth raise
    ValueError.
    """

    _handle = None  # so that close()/__del__ work on a half-made object
    _wind = None  # the installed hooks (hooks.py): kept alive while C may call them
    _force = None
    _tasks = None
    _integrator = None
    _busy = False  # inside a call that runs this cloth's hooks

    def __init__(self, *args, **kwargs):
        raise TypeError("use Cloth.grid(...) or Cloth.mesh(...) to make a Cloth")

    @classmethod
    def _adopt(cls, handle):
        self = object.__new__(cls)
        self._handle = handle
        self._count = lib().cloth_particle_count(handle)
        self._mesh_vertices = {}  # triangle-mesh collider id -> its vertex count
        return self

    # --- construction ---------------------------------------------------------

    @classmethod
    def grid(
        cls,
        rows,
        cols,
        spacing=None,
        origin=None,
        u_axis=None,
        v_axis=None,
        mass=None,
        neighbours=None,
    ):
        """A rows x cols grid; particle (r, c) has index ``r * cols + c``.

        Particle (r, c) starts at ``origin + c*spacing*u_axis + r*spacing*v_axis``.
        Arguments left None keep the library's defaults: spacing 0.05 m,
        origin (0, 0, 0), u_axis +x, v_axis +z, mass 0.01 kg per particle,
        12 neighbours (24 is the other choice).
        """
        handle = _build.create_grid(rows, cols, spacing, origin, u_axis, v_axis, mass, neighbours)
        return cls._adopt(handle)

    @classmethod
    def mesh(cls, positions, triangles, mass=None, masses=None, inverse_masses=None):
        """A cloth whose particles are the mesh's vertices and springs its edges.

        ``positions``: n xyz triples (an (n, 3) array with numpy);
        ``triangles``: m index triples, counter-clockwise seen from the front.
        ``mass`` (kg per vertex, default 0.01), or ``masses`` (n values), or
        ``inverse_masses`` (n values, 0 pins a vertex).
        """
        handle = _build.create_mesh(positions, triangles, mass, masses, inverse_masses)
        return cls._adopt(handle)

    # --- lifetime ------------------------------------------------------------

    def close(self):
        """Free the cloth. Further calls raise ValueError; closing twice is fine.

        From inside one of this cloth's own hooks (during :meth:`step`) it
        raises ClothError with Status.ERR_BUSY instead, as the library
        ignores cloth_destroy() there.
        """
        if self._busy and self._handle is not None:
            raise ClothError(Status.ERR_BUSY, "cloth_destroy")
        handle, self._handle = self._handle, None
        if handle is not None:
            lib().cloth_destroy(handle)  # calls a host integrator's destroy
        # only now: the library may call the hooks until it is destroyed
        self._wind = self._force = self._tasks = self._integrator = None

    @property
    def closed(self):
        return self._handle is None

    def __enter__(self):
        self._live()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the module may be half gone
            pass

    def __repr__(self):
        if self._handle is None:
            return "<clothsim.Cloth closed>"
        return "<clothsim.Cloth %d particles, %d triangles>" % (self._count, self.triangle_count)

    def _live(self):
        handle = self._handle
        if handle is None:
            raise ValueError("operation on a closed Cloth")
        return handle

    @property
    def handle(self):
        """The ``cloth_t *`` as an int, for passing to other ctypes code."""
        return self._live()

    # --- sizes ---------------------------------------------------------------

    @property
    def particle_count(self):
        self._live()
        return self._count

    def __len__(self):
        return self.particle_count

    @property
    def triangle_count(self):
        return lib().cloth_triangle_count(self._live())

    @property
    def spring_count(self):
        return lib().cloth_spring_count(self._live())

    # --- parameters ----------------------------------------------------------

    def set_integrator(self, kind):
        """'euler' (explicit/symplectic), 'trapezoid', 'verlet', 'pbd', 'semirigid',
        'relaxation', 'xpbd', 'implicit_euler', or an :class:`Integrator`.
        Replaces a host integrator (:meth:`set_custom_integrator`)."""
        value = _enum_value(kind, _INTEGRATOR_NAMES, "integrator")
        self._call_with_hooks("cloth_set_integrator", value)
        self._integrator = None  # its destroy has run

    @property
    def integrator(self):
        """The integrator in use, as an :class:`Integrator` (int if unknown)."""
        kind = c_enum()
        check(lib().cloth_get_integrator(self._live(), ctypes.byref(kind)), "cloth_get_integrator")
        try:
            return Integrator(kind.value)
        except ValueError:
            return kind.value

    def set_gravity(self, g):
        """Gravity as an acceleration vector, m/s^2. Default (0, -9.81, 0)."""
        check(lib().cloth_set_gravity(self._live(), _buffers.vec3(g, "gravity")), "cloth_set_gravity")

    def set_damping(self, rate_per_second):
        """Velocity damping rate, 1/s: v(t) = v(0) exp(-rate t). Default 0.2."""
        check(lib().cloth_set_damping(self._live(), rate_per_second), "cloth_set_damping")

    def set_substeps(self, substeps):
        """Substeps per step, 1..1024, or 0 for automatic (the library picks
        them each step; :meth:`stats` reports ``substeps_used``). Default 16."""
        n = _u32(substeps, "cloth_set_substeps")
        check(lib().cloth_set_substeps(self._live(), n), "cloth_set_substeps")

    def set_iterations(self, iterations):
        """PBD Jacobi iterations (XPBD sweeps) per substep, 1..1024, or 0 for
        automatic (:meth:`stats` reports ``iterations_used``). Default 8."""
        n = _u32(iterations, "cloth_set_iterations")
        check(lib().cloth_set_iterations(self._live(), n), "cloth_set_iterations")

    def set_stiffness(self, spring_type, k):
        """Stiffness in newtons of 'structural', 'shear' or 'bend' springs (k >= 0)."""
        t = _enum_value(spring_type, _SPRING_NAMES, "spring type")
        check(lib().cloth_set_stiffness(self._live(), t, k), "cloth_set_stiffness")

    def set_stiffness_scales(self, scales):
        """Stiffness painted per particle: n scales, each > 0, finite and at
        most 1e6 (an (n,) array or any sequence). A spring's stiffness is its
        family's times the mean of its two ends' scales, so a stiff collar
        (scale 4) or a soft panel (0.25) is painted on the vertices. Acts on
        every integrator that uses spring stiffness (not PBD's constraint
        stiffness, the semi-rigid model or a material's bending); all 1 is
        the same as never calling it. A refused list changes nothing."""
        handle = self._live()
        ptr, keep = _buffers.write_floats(scales, self._count, "set_stiffness_scales")
        check(lib().cloth_set_stiffness_scales(handle, ptr, 0), "cloth_set_stiffness_scales")
        del keep

    def stiffness_scales(self):
        """Every particle's stiffness scale (1 for each if never painted): a
        float32 array with numpy, else a list."""
        handle = self._live()
        buf = (ctypes.c_float * self._count)()
        check(lib().cloth_get_stiffness_scales(handle, buf, 0), "cloth_get_stiffness_scales")
        if _buffers.np is not None:
            return _buffers.np.array(buf, dtype=_buffers.np.float32)
        return list(buf)

    def set_spring_damping(self, spring_type, beta):
        """Spring damping time constant in seconds of one family (>= 0)."""
        t = _enum_value(spring_type, _SPRING_NAMES, "spring type")
        check(lib().cloth_set_spring_damping(self._live(), t, beta), "cloth_set_spring_damping")

    def set_constraint_stiffness(self, spring_type, s):
        """PBD only: how strongly one family's constraints pull, in [0, 1]."""
        t = _enum_value(spring_type, _SPRING_NAMES, "spring type")
        check(lib().cloth_set_constraint_stiffness(self._live(), t, s), "cloth_set_constraint_stiffness")

    def set_jacobi_weight(self, a):
        """PBD only: the weight of a particle's own position when its Jacobi
        proposals are averaged, in [0, 100]. Larger is more sluggish and more
        stable. Default 0.2."""
        check(lib().cloth_set_jacobi_weight(self._live(), a), "cloth_set_jacobi_weight")

    def set_bending_stiffness(self, k_bend):
        """Dihedral bending stiffness of every interior edge, N m per radian
        (>= 0; 0, the default, switches it off). Acts with the force-based
        integrators (bending.h)."""
        check(lib().cloth_set_bending_stiffness(self._live(), k_bend), "cloth_set_bending_stiffness")

    # --- material (material.h) -----------------------------------------------

    def set_material(self, material):
        """Make the cloth of a fabric: a :class:`Material`, or a preset
        ('cotton', 'silk', 'denim', 'leather', 'jersey', 'rubber', a
        :class:`MaterialPreset` or its int). Sets the masses, spring
        stiffnesses, bending, tethers, strain limit (automatic passes) and
        damping for this cloth's spacing and triangles (material.h); the
        setters of those keep working after it. A preset int that is no
        preset, or values out of range, raise ClothError with
        Status.ERR_INVALID_ARGUMENT and change nothing."""
        handle = self._live()
        raw, storage = _materials.to_struct(material)
        check(lib().cloth_set_material(handle, ctypes.byref(raw)), "cloth_set_material")
        del storage

    @property
    def material(self):
        """The :class:`Material` last set with :meth:`set_material`, or None
        if the cloth never had one (cloth_get_material)."""
        return _materials.read_material(self._live())

    # --- constraints (constraints.h) --------------------------------------------

    def set_tethers(self, scale):
        """Long-range tethers to the nearest pins: 0 off, else 1..10 (1.03 allows 3 %)."""
        check(lib().cloth_set_tethers(self._live(), scale), "cloth_set_tethers")

    @property
    def tethers(self):
        """The tether scale in use, 0.0 when off."""
        scale = ctypes.c_float()
        check(lib().cloth_get_tethers(self._live(), ctypes.byref(scale)), "cloth_get_tethers")
        return scale.value

    def set_tether_schedule(self, schedule):
        """Which substeps project the tethers: 'every_substep' (the default) or
        'last_substep' (the fast setting with a strain limit; constraints.h)."""
        value = _enum_value(schedule, _TETHER_SCHEDULE_NAMES, "tether schedule")
        check(lib().cloth_set_tether_schedule(self._live(), value), "cloth_set_tether_schedule")

    @property
    def tether_schedule(self):
        """'every_substep' or 'last_substep'."""
        value = ctypes.c_int()
        check(lib().cloth_get_tether_schedule(self._live(), ctypes.byref(value)), "cloth_get_tether_schedule")
        return {v: k for k, v in _TETHER_SCHEDULE_NAMES.items()}[value.value]

    def set_strain_limit(self, max_strain, passes):
        """After each step, no structural or shear spring longer than
        (1 + max_strain) times its rest length, as far as ``passes``
        Gauss-Seidel passes reach. max_strain in [0, 10]; passes 1 to 1024,
        or 0: automatic passes with max_strain > 0, off with max_strain 0
        (:meth:`stats` reports ``limit_passes_used``)."""
        n = _u32(passes, "cloth_set_strain_limit")
        check(lib().cloth_set_strain_limit(self._live(), max_strain, n), "cloth_set_strain_limit")

    @property
    def strain_limit(self):
        """(max_strain, passes); passes is 0 while the limit is off, and
        with max_strain > 0 while its passes are automatic."""
        m, n = ctypes.c_float(), ctypes.c_uint32()
        check(
            lib().cloth_get_strain_limit(self._live(), ctypes.byref(m), ctypes.byref(n)),
            "cloth_get_strain_limit",
        )
        return m.value, n.value

    def set_strain_level_sweeps(self, sweeps):
        """How many of the strain limit's passes start with a sweep of the
        coarse levels: the first ``sweeps`` (0 to 1024; the default 1024 means
        every pass; constraints.h)."""
        n = _u32(sweeps, "cloth_set_strain_level_sweeps")
        check(lib().cloth_set_strain_level_sweeps(self._live(), n), "cloth_set_strain_level_sweeps")

    @property
    def strain_level_sweeps(self):
        """The limit passes that start with the coarse levels (1024: every one)."""
        n = ctypes.c_uint32()
        check(lib().cloth_get_strain_level_sweeps(self._live(), ctypes.byref(n)), "cloth_get_strain_level_sweeps")
        return n.value

    def set_self_collision(self, thickness):
        """Self-collision: parts of this cloth keep ``thickness`` metres
        between them (>= 0, finite; 0, the default, turns it off). Particles
        that are rest neighbours (on a grid within two rows and columns, on
        a mesh joined by a spring) never collide; it tests particles, not
        the cloth between them, so keep the thickness about the spacing
        (constraints.h). Allocates on the first non-zero thickness."""
        check(lib().cloth_set_self_collision(self._live(), thickness), "cloth_set_self_collision")

    @property
    def self_collision(self):
        """The thickness set by :meth:`set_self_collision`, 0.0 when off."""
        thickness = ctypes.c_float()
        check(lib().cloth_get_self_collision(self._live(), ctypes.byref(thickness)), "cloth_get_self_collision")
        return thickness.value

    def set_self_friction(self, friction):
        """Friction between two parts of this cloth in self-collision: a
        Coulomb coefficient (>= 0, finite; 0, the default, lets the layers
        slide freely). Woven fabric on itself is about 0.2 to 0.6 (cotton
        about 0.4, silk about 0.2). Acts on velocities only, from the next
        pass (constraints.h); no allocation."""
        check(lib().cloth_set_self_friction(self._live(), friction), "cloth_set_self_friction")

    @property
    def self_friction(self):
        """The coefficient set by :meth:`set_self_friction`, 0.0 by default."""
        friction = ctypes.c_float()
        check(lib().cloth_get_self_friction(self._live(), ctypes.byref(friction)), "cloth_get_self_friction")
        return friction.value

    # --- stepping ------------------------------------------------------------

    def _call_with_hooks(self, function, *args, new_hook=None):
        """Call a C function that may run this cloth's Python hooks (and
        `new_hook`, being installed); raise the first exception a hook
        stored, else check the status."""
        handle = self._live()
        if self._busy:  # a hook calling back: the library would refuse it too
            raise ClothError(Status.ERR_BUSY, function)
        hooks = [h for h in (new_hook, self._wind, self._force, self._tasks, self._integrator) if h is not None]
        for hook in hooks:
            hook.error = None
        self._busy = True
        try:
            status = getattr(lib(), function)(handle, *args)
        finally:
            self._busy = False
        for hook in hooks:
            if hook.error is not None:
                error, hook.error = hook.error, None
                if hasattr(error, "add_note"):
                    error.add_note("raised by a %s hook during %s()" % (type(hook).__name__.strip("_"), function))
                raise error
        check(status, function)

    def step(self, dt):
        """Advance by dt seconds (0 < dt <= 1) in the configured substeps.

        If a Python hook raised during the step, that exception is raised
        here once the library has returned: after a wind or force hook the
        step ran on with zeros from it; after a task hook or a host
        integrator the step was refused and the state before it kept.
        """
        self._call_with_hooks("cloth_step", dt)

    # --- state ---------------------------------------------------------------

    def _reader(self, name):
        fn = getattr(lib(), name)

        def call(handle, dst, stride):
            check(fn(handle, dst, stride), name)

        return call

    def positions(self, out=None):
        """Particle positions (m): an (n, 3) float32 array with numpy, else a list of tuples.

        With numpy, ``out`` may be an (n, 3) float32 array to fill, rows
        strided as in an interleaved vertex buffer (``vbo[:, 0:3]``).
        """
        return _buffers.read_vec3(self._reader("cloth_get_positions"), self._live(), self._count, out, "positions")

    def normals(self, out=None):
        """Unit area-weighted vertex normals, as :meth:`positions`."""
        return _buffers.read_vec3(self._reader("cloth_get_normals"), self._live(), self._count, out, "normals")

    def velocities(self, out=None):
        """Particle velocities (m/s), as :meth:`positions`."""
        return _buffers.read_vec3(self._reader("cloth_get_velocities"), self._live(), self._count, out, "velocities")

    def triangles(self):
        """The render index buffer: an (m, 3) uint32 array with numpy, else a list of tuples."""
        handle = self._live()

        def call(h, dst):
            check(lib().cloth_get_triangles(h, dst), "cloth_get_triangles")

        return _buffers.read_triangles(call, handle, self.triangle_count)

    def set_positions(self, positions):
        """Overwrite every position from n xyz triples (an (n, 3) array: no copy if float32)."""
        handle = self._live()
        ptr, stride, keep = _buffers.write_vec3(positions, self._count, "set_positions")
        check(lib().cloth_set_positions(handle, ptr, stride), "cloth_set_positions")
        del keep

    def set_inverse_masses(self, inverse_masses):
        """Every particle's inverse mass, 1/kg (n numbers >= 0; 0: infinitely
        heavy): masses painted per vertex. A pinned particle gets its value
        when released."""
        handle = self._live()
        ptr, keep = _buffers.write_floats(inverse_masses, self._count, "set_inverse_masses")
        check(lib().cloth_set_inverse_masses(handle, ptr, 0), "cloth_set_inverse_masses")
        del keep

    def inverse_masses(self):
        """Every particle's inverse mass, 1/kg (a pinned one's: what it gets
        when released): a float32 array with numpy, else a list."""
        handle = self._live()
        buf = (ctypes.c_float * self._count)()
        check(lib().cloth_get_inverse_masses(handle, buf, 0), "cloth_get_inverse_masses")
        if _buffers.np is not None:
            return _buffers.np.array(buf, dtype=_buffers.np.float32)
        return list(buf)

    def set_particle_radius(self, radius):
        """The cloth's collision thickness, m: every collider's thickness
        grows by it. Default 0."""
        check(lib().cloth_set_particle_radius(self._live(), radius), "cloth_set_particle_radius")

    @property
    def particle_radius(self):
        """The radius set by :meth:`set_particle_radius`."""
        radius = ctypes.c_float()
        check(lib().cloth_get_particle_radius(self._live(), ctypes.byref(radius)), "cloth_get_particle_radius")
        return radius.value

    def set_velocities(self, velocities):
        """Overwrite every velocity from n xyz triples."""
        handle = self._live()
        ptr, stride, keep = _buffers.write_vec3(velocities, self._count, "set_velocities")
        check(lib().cloth_set_velocities(handle, ptr, stride), "cloth_set_velocities")
        del keep

    def smooth_counts(self, level):
        """(vertex_count, triangle_count) of the smooth surface at `level`
        (1..SMOOTH_MAX_LEVEL subdivisions per quad edge). Grids only: a mesh
        cloth raises ClothError with Status.ERR_UNSUPPORTED."""
        return readback.smooth_counts(self._live(), level)

    def smooth(self, level, normals=True, triangles=True, out=None, normals_out=None):
        """The cloth drawn through Catmull-Rom patches at `level` subdivisions
        per quad edge (smooth.h): a :class:`SmoothSurface` of positions,
        normals and triangles, as :meth:`positions` and :meth:`triangles`
        return them. A grid of R x C particles gives
        ``((R - 1) level + 1) * ((C - 1) level + 1)`` vertices; level 1 is the
        particles themselves. ``normals=False`` / ``triangles=False`` skip
        those (None in the result); with numpy, ``out`` and ``normals_out``
        may be (n, 3) float32 arrays to fill, rows strided. Grids only."""
        return readback.read_smooth(self._live(), level, normals, triangles, out, normals_out)

    def springs(self):
        """Every spring as a :class:`Springs` (pairs, rest_lengths, types), in
        the library's fixed order: grouped by family, structural first."""
        return readback.read_springs(self._live())

    # --- snapshots, statistics, watchdog (state.h) -------------------------------

    def state_size(self):
        """Bytes of a snapshot of the cloth as it is now (it changes with pins
        and colliders)."""
        return readback.state_size(self._live())

    def save_state(self):
        """A snapshot of the dynamic state as bytes: positions, velocities,
        inverse masses, pins, colliders' motion and the time, bit for bit
        (not the parameters, hooks or statistics)."""
        return readback.save_state(self._live())

    def load_state(self, data):
        """Restore a snapshot from :meth:`save_state` (any bytes-like object).
        It must come from a cloth of the same shape with the same colliders;
        a truncated, corrupted or foreign one raises ClothError with
        Status.ERR_INVALID_ARGUMENT and changes nothing."""
        readback.load_state(self._live(), data)

    def state_hash(self):
        """A 64-bit hash (int) of every position, velocity and the time, the
        same on every machine: equal hashes mean bitwise equal states."""
        return lib().cloth_state_hash(self._live())

    def stats(self):
        """The cloth's statistics as a :class:`Stats`: strains per spring
        family and kinetic energy now, counters and timings of the last step,
        the watchdog's measurements and the memory held."""
        return readback.read_stats(self._live())

    def set_watchdog(self, max_strain=0.0, max_kinetic_energy=0.0, action="report"):
        """Bounds checked at the end of every step: the largest strain of any
        spring and the kinetic energy (J); 0 switches a bound off (both 0,
        the default, switch the watchdog off). ``action``: 'report' (the
        trip only shows in :meth:`stats`) or 'restore' (the state before the
        step is restored and :meth:`step` raises ClothError with
        Status.ERR_UNSTABLE), or a :class:`WatchdogAction`."""
        value = _enum_value(action, _WATCHDOG_NAMES, "watchdog action")
        check(
            lib().cloth_set_watchdog(self._live(), max_strain, max_kinetic_energy, value),
            "cloth_set_watchdog",
        )

    # --- threads (threads.h) -------------------------------------------------------

    def set_threads(self, threads):
        """Run this cloth's step on `threads` threads (1..MAX_THREADS) of a
        pool the cloth owns: the caller and threads - 1 workers. The results
        are the same bits at every count. Default 1."""
        n = _u32(threads, "cloth_set_threads")
        check(lib().cloth_set_threads(self._live(), n), "cloth_set_threads")

    @property
    def threads(self):
        """The thread count set by :meth:`set_threads` (1 by default); assigning
        to it calls set_threads."""
        n = ctypes.c_uint32()
        check(lib().cloth_get_threads(self._live(), ctypes.byref(n)), "cloth_get_threads")
        return n.value

    @threads.setter
    def threads(self, threads):
        self.set_threads(threads)

    def set_simd_level(self, level):
        """Run this cloth's kernels with these vector instructions: 'best' (a
        new cloth's), 'scalar', 'lanes4' ('sse2' or 'neon'), 'avx2',
        'avx512', or a SimdLevel. Every level gives the same bits. A level
        this CPU or build cannot run raises ClothError (ERR_UNSUPPORTED)."""
        value = _enum_value(level, _SIMD_LEVEL_NAMES, "SIMD level")
        check(lib().cloth_set_simd_level(self._live(), value), "cloth_set_simd_level")

    @property
    def simd_level(self):
        """The level the kernels run at, as a SimdLevel (never BEST);
        assigning to it calls set_simd_level."""
        value = c_enum()
        check(lib().cloth_get_simd_level(self._live(), ctypes.byref(value)), "cloth_get_simd_level")
        return SimdLevel(value.value)

    @simd_level.setter
    def simd_level(self, level):
        self.set_simd_level(level)

    def set_task_hooks(self, enqueue, finish=None, worker_count=1):
        """Run the step's parallel passes on the host's scheduler, or remove
        the hooks with ``enqueue=None`` (back to the pool or the calling thread).

        ``enqueue(task, item_count, min_range)`` gets a :class:`Task` and must
        see to it that ``task(begin, end, worker)`` runs every item of
        ``[0, item_count)`` exactly once, with ``worker`` below
        ``worker_count`` and never shared by two ranges running at once. It
        runs the ranges itself and returns None, or starts them elsewhere and
        returns a handle, which ``finish(handle)`` gets to wait for them.

        Both hooks are called on the thread that calls :meth:`step`, during
        it. Each ``task`` call releases the GIL, so ranges submitted to Python
        threads run in parallel. A hook that breaks the contract makes
        :meth:`step` raise ClothError with Status.ERR_TASK_CONTRACT; one that
        raises makes it raise that exception; either way the state before
        the step is kept. The simplest correct hooks run everything inline::

            cloth.set_task_hooks(lambda task, n, min_range: task(0, n, 0))
        """
        handle = self._live()
        if enqueue is None:
            if finish is not None:
                raise TypeError("set_task_hooks: a finish hook without an enqueue hook")
            check(
                lib().cloth_set_task_hooks(handle, ENQUEUE_TASK_FN(), FINISH_TASK_FN(), 0, None),
                "cloth_set_task_hooks",
            )
            self._tasks = None
            return
        if not callable(enqueue) or (finish is not None and not callable(finish)):
            raise TypeError("set_task_hooks needs callables enqueue(task, item_count, min_range) and finish(handle)")
        workers = _u32(worker_count, "cloth_set_task_hooks")
        hooks = _TaskHooks(enqueue, finish, workers)
        check(
            lib().cloth_set_task_hooks(handle, hooks.c_enqueue, hooks.c_finish, workers, None),
            "cloth_set_task_hooks",
        )
        self._tasks = hooks  # keeps the ctypes callbacks alive while installed

    # --- a host integrator (integrators.h) -----------------------------------------

    def set_custom_integrator(self, integrator):
        """Install a Python integrator: an object with ``step(view)`` (see
        :class:`CustomIntegrator` and :class:`StepView`), called once per
        substep on the thread that calls :meth:`step`. Positions and
        velocities carry over; :attr:`integrator` then reads
        Integrator.CUSTOM. :meth:`set_integrator` goes back to a built-in
        one. Each substep costs a Python call, so this is for experiments
        and tests more than for big cloths."""
        hook = _IntegratorHook(integrator)
        self._call_with_hooks("cloth_set_custom_integrator", ctypes.byref(hook.vtable), None, new_hook=hook)
        self._integrator = hook  # keeps the table and its callbacks alive while installed

    # --- pins ----------------------------------------------------------------

    def pin(self, index, target=None):
        """Pin particle `index` to `target` (xyz, m), or where it is if None."""
        handle = self._live()
        i = _u32(index, "cloth_pin", Status.ERR_OUT_OF_RANGE)
        where = None if target is None else _buffers.vec3(target, "target")
        check(lib().cloth_pin(handle, i, where), "cloth_pin")

    def unpin(self, index):
        """Release particle `index` (a free particle stays free)."""
        handle = self._live()
        i = _u32(index, "cloth_unpin", Status.ERR_OUT_OF_RANGE)
        check(lib().cloth_unpin(handle, i), "cloth_unpin")

    def set_frame(self, position, rotation=None):
        """Where the frame the cloth is worn in (a character's root) will be
        at the end of the next step: position (m) and a unit quaternion
        (x, y, z, w; None for unturned)."""
        rot = None if rotation is None else _buffers.floats(rotation, 4, "rotation")
        check(lib().cloth_set_frame(self._live(), _buffers.vec3(position, "position"), rot), "cloth_set_frame")

    def set_inertia(self, linear, angular):
        """How much of the frame's travel and turn the cloth feels, each in
        [0, 1]: 1 (the default) world space, 0 carried with the frame."""
        check(lib().cloth_set_inertia(self._live(), linear, angular), "cloth_set_inertia")

    @property
    def inertia(self):
        """(linear, angular) as :meth:`set_inertia` set them."""
        linear, angular = ctypes.c_float(), ctypes.c_float()
        check(lib().cloth_get_inertia(self._live(), ctypes.byref(linear), ctypes.byref(angular)), "cloth_get_inertia")
        return linear.value, angular.value

    def teleport(self, position, rotation=None):
        """Move the cloth, its pins, skin targets and colliders rigidly from
        the frame's current pose to this one at once (frame.h)."""
        rot = None if rotation is None else _buffers.floats(rotation, 4, "rotation")
        check(lib().cloth_teleport(self._live(), _buffers.vec3(position, "position"), rot), "cloth_teleport")

    def set_skin_targets(self, positions):
        """Where the animation puts every particle at the end of the next
        step (n xyz triples, m): the skin targets of skin.h. A particle of
        max distance 0 is pinned to its target; the targets move in a
        straight line over the step. Allocates on the first call."""
        handle = self._live()
        ptr, stride, keep = _buffers.write_vec3(positions, self._count, "set_skin_targets")
        check(lib().cloth_set_skin_targets(handle, ptr, stride), "cloth_set_skin_targets")
        del keep

    def set_max_distances(self, distances):
        """How far (m) each particle may move from its skin target, n
        numbers: 0 pins it to the target, ``math.inf`` (every particle's
        until set) frees it. Allocates on the first call."""
        handle = self._live()
        ptr, keep = _buffers.write_floats(distances, self._count, "set_max_distances")
        check(lib().cloth_set_max_distances(handle, ptr, 0), "cloth_set_max_distances")
        del keep

    def set_skin_normals(self, normals):
        """The skin's outward normal at every particle's skin target as the
        animation has it at the end of the next step (n xyz triples, as
        :meth:`set_skin_targets` takes them): each of unit length, or
        exactly 0 for none. Only the backstops (:meth:`set_backstops`) use
        them. Allocates on the first call of this or of set_backstops."""
        handle = self._live()
        ptr, stride, keep = _buffers.write_vec3(normals, self._count, "set_skin_normals")
        check(lib().cloth_set_skin_normals(handle, ptr, stride), "cloth_set_skin_normals")
        del keep

    def set_backstops(self, backstops):
        """Every particle's backstop: n (distance, radius) pairs (a sequence
        of pairs, a flat sequence of 2n numbers or an (n, 2) array), m. The
        particle is kept out of a ball of that radius (>= 0; 0 for none)
        whose surface lies `distance` behind its skin target along the skin
        normal: a large radius makes it a plane. Allocates on the first call
        of this or of :meth:`set_skin_normals`."""
        handle = self._live()
        ptr, count, keep = _buffers.write_records(backstops, 2, "set_backstops")
        if count != self._count:
            raise ValueError("set_backstops: expected %d (distance, radius) pairs, got %d" % (self._count, count))
        check(lib().cloth_set_backstops(handle, ptr, 0), "cloth_set_backstops")
        del keep

    # --- colliders -----------------------------------------------------------

    def _add(self, function, args, friction, thickness):
        handle = self._live()
        out = ctypes.c_uint32()
        check(getattr(lib(), function)(handle, *args, ctypes.byref(out)), function)
        collider = Collider(self, out.value)
        if friction is not None:
            collider.set_friction(friction)
        if thickness is not None:
            collider.set_thickness(thickness)
        return collider

    def set_collider_transforms(self, colliders_or_ids, positions=None, rotations=None):
        """Move many colliders at once (a character's body, once per frame):
        the k-th collider (a :class:`Collider` or its id) heads for the k-th
        position (xyz) and the k-th unit quaternion (x, y, z, w), as
        :meth:`Collider.set_transform` would; `positions` k triples and
        `rotations` k 4-tuples (sequences, flat sequences or arrays), either
        None to keep every one. Every pose and id is checked before any is
        taken, so a refused call moves nothing; an id given twice takes its
        last pose."""
        name = "cloth_set_collider_transforms"
        handle = self._live()
        ids = [_u32(c, name, Status.ERR_OUT_OF_RANGE) for c in colliders_or_ids]
        count = len(ids)
        id_buf = (ctypes.c_uint32 * count)(*ids)
        pos_ptr = rot_ptr = pos_keep = rot_keep = None
        if positions is not None:
            pos_ptr, n, pos_keep = _buffers.write_records(positions, 3, "positions")
            if n != count:
                raise ValueError("set_collider_transforms: %d colliders but %d positions" % (count, n))
        if rotations is not None:
            rot_ptr, n, rot_keep = _buffers.write_records(rotations, 4, "rotations")
            if n != count:
                raise ValueError("set_collider_transforms: %d colliders but %d rotations" % (count, n))
        check(lib().cloth_set_collider_transforms(handle, id_buf, _u32(count, name), pos_ptr, rot_ptr), name)
        del pos_keep, rot_keep

    def add_sphere(self, center, radius, friction=None, thickness=None):
        """A sphere of `radius` m at `center`. Returns a :class:`Collider`."""
        args = (_buffers.vec3(center, "center"), radius)
        return self._add("cloth_add_sphere", args, friction, thickness)

    def add_plane(self, point, normal, friction=None, thickness=None):
        """An infinite plane through `point`, solid behind `normal`."""
        args = (_buffers.vec3(point, "point"), _buffers.vec3(normal, "normal"))
        return self._add("cloth_add_plane", args, friction, thickness)

    def add_ellipsoid(self, center, radii, rotation=None, friction=None, thickness=None):
        """An ellipsoid with semi-axes `radii`, turned by the unit quaternion
        `rotation` (x, y, z, w; None for none)."""
        rot = None if rotation is None else _buffers.floats(rotation, 4, "rotation")
        args = (_buffers.vec3(center, "center"), _buffers.vec3(radii, "radii"), rot)
        return self._add("cloth_add_ellipsoid", args, friction, thickness)

    def add_capsule(self, a, b, radius, friction=None, thickness=None):
        """Every point within `radius` of the segment a-b."""
        args = (_buffers.vec3(a, "a"), _buffers.vec3(b, "b"), radius)
        return self._add("cloth_add_capsule", args, friction, thickness)

    def add_tapered_capsule(self, a, b, radius_a, radius_b, friction=None, thickness=None):
        """The hull of a ball of `radius_a` about a and one of `radius_b`
        about b: a limb thicker at one end."""
        args = (_buffers.vec3(a, "a"), _buffers.vec3(b, "b"), radius_a, radius_b)
        return self._add("cloth_add_tapered_capsule", args, friction, thickness)

    def add_convex(self, planes, friction=None, thickness=None):
        """A convex hull of 4 to 64 planes (nx, ny, nz, d), the solid where
        n.x + d <= 0 for every one (unit normals pointing out): a sequence of
        4-tuples, a flat sequence of 4k numbers or a (k, 4) array. A box of
        half-sizes hx, hy, hz about the origin is (1, 0, 0, -hx),
        (-1, 0, 0, -hx), (0, 1, 0, -hy), ... Given in the collider's own
        frame, which starts at the world's origin, unturned."""
        ptr, count, keep = _buffers.write_records(planes, 4, "planes")
        args = (ptr, _u32(count, "cloth_add_convex"))
        collider = self._add("cloth_add_convex", args, friction, thickness)
        del keep  # the library has copied the planes
        return collider

    def add_triangle_mesh(self, vertices, triangles, friction=None, thickness=None):
        """A triangle mesh, closed or open: `vertices` n xyz triples (an
        (n, 3) array, rows may be strided), `triangles` m index triples; the
        cloth stays on the side from which the corners run counter-clockwise.
        Copied; given in the collider's own frame, which starts at the
        world's origin, unturned. Move its vertices with
        :meth:`set_triangle_mesh_vertices`."""
        vptr, stride, count, vkeep = _buffers.write_vec3_rows(vertices, "vertices")
        tptr, tri_count, tkeep = _buffers.write_indices(triangles, 3, "triangles", "cloth_add_triangle_mesh")
        args = (
            vptr,
            stride,
            _u32(count, "cloth_add_triangle_mesh"),
            tptr,
            _u32(tri_count, "cloth_add_triangle_mesh"),
        )
        collider = self._add("cloth_add_triangle_mesh", args, None, None)
        self._mesh_vertices[collider.id] = count  # before a bad friction or thickness raises
        del vkeep, tkeep  # the library has copied the mesh
        if friction is not None:
            collider.set_friction(friction)
        if thickness is not None:
            collider.set_thickness(thickness)
        return collider

    def _mesh_vertex_count(self, collider, function):
        """(id, vertex count) of a triangle-mesh collider of this cloth (a
        Collider or its id); what the library would say for anything else."""
        cid = _u32(collider, function, Status.ERR_OUT_OF_RANGE)
        handle = self._live()
        count = self._mesh_vertices.get(cid)
        if count is None:
            # not a mesh added here: unknown or removed (as the library
            # says), or a collider of another shape
            status = lib().cloth_get_collider_transform(handle, cid, None, None)
            raise ClothError(status if status != Status.OK else Status.ERR_INVALID_ARGUMENT, function)
        return cid, count

    def set_triangle_mesh_vertices(self, collider, vertices):
        """New positions (in its frame) for every vertex of a triangle-mesh
        collider (a Collider or its id), same triangles: n xyz triples as
        :meth:`set_positions` takes them. They get there at the end of the
        next step, each moving in a straight line over its substeps."""
        name = "cloth_set_triangle_mesh_vertices"
        cid, count = self._mesh_vertex_count(collider, name)
        ptr, stride, keep = _buffers.write_vec3(vertices, count, "set_triangle_mesh_vertices")
        check(lib().cloth_set_triangle_mesh_vertices(self._live(), cid, ptr, stride), name)
        del keep

    def get_triangle_mesh_vertices(self, collider, out=None):
        """The vertices a triangle-mesh collider is heading for (where they
        are after the next step), in its frame, as :meth:`positions` returns
        them: an (n, 3) float32 array with numpy (``out`` may be one to
        fill), else a list of tuples."""
        name = "cloth_get_triangle_mesh_vertices"
        cid, count = self._mesh_vertex_count(collider, name)

        def call(handle, dst, stride):
            check(lib().cloth_get_triangle_mesh_vertices(handle, cid, dst, stride), name)

        return _buffers.read_vec3(call, self._live(), count, out, "triangle mesh vertices")

    def add_cylinder(self, a, b, radius, friction=None, thickness=None):
        """A finite cylinder with flat caps centred on a and b."""
        args = (_buffers.vec3(a, "a"), _buffers.vec3(b, "b"), radius)
        return self._add("cloth_add_cylinder", args, friction, thickness)

    def add_torus(self, center, axis, major_radius, minor_radius, friction=None, thickness=None):
        """A ring about `center` in the plane normal to `axis`."""
        args = (_buffers.vec3(center, "center"), _buffers.vec3(axis, "axis"), major_radius, minor_radius)
        return self._add("cloth_add_torus", args, friction, thickness)

    # --- wind ----------------------------------------------------------------

    def set_wind(self, fn):
        """Install a wind function, or remove all wind with None.

        ``fn(time, positions)`` is called once per substep with the simulated
        time (s) and every particle's position (an (n, 3) float32 array with
        numpy, else a list of tuples; a copy) and returns the air velocity
        (m/s) at each particle: an (n, 3) array-like, n triples, or one
        triple for the same wind everywhere. It must not call into this
        cloth. If it raises, the rest of the step gets still air and
        :meth:`step` raises the exception.
        """
        handle = self._live()
        if fn is None:
            check(lib().cloth_set_wind(handle, WIND_FN(), None), "cloth_set_wind")
            self._wind = None
            return
        if not callable(fn):
            raise TypeError("set_wind needs a callable (time, positions) -> wind velocities, or None")
        hook = _WindHook(fn)
        check(lib().cloth_set_wind(handle, hook.c_callback, None), "cloth_set_wind")
        self._wind = hook  # keeps the ctypes callback alive while installed

    def set_constant_wind(self, velocity):
        """The same wind velocity (m/s) everywhere; replaces a wind function."""
        handle = self._live()
        check(lib().cloth_set_constant_wind(handle, _buffers.vec3(velocity, "velocity")), "cloth_set_constant_wind")
        self._wind = None

    def set_air_density(self, kg_per_m3):
        """Air density in kg/m^3 (>= 0). Default 1.2; 0 turns the air off."""
        check(lib().cloth_set_air_density(self._live(), kg_per_m3), "cloth_set_air_density")

    def set_drag_coefficient(self, drag):
        """Drag coefficient C_d (>= 0). Default 1.2."""
        check(lib().cloth_set_drag_coefficient(self._live(), drag), "cloth_set_drag_coefficient")

    def set_lift_coefficient(self, lift):
        """Lift coefficient C_l (>= 0). Default 1.0."""
        check(lib().cloth_set_lift_coefficient(self._live(), lift), "cloth_set_lift_coefficient")

    def set_external_force(self, fn):
        """Install a per-particle force function, or remove it with None.

        ``fn(time, positions, velocities)`` is called once per substep, after
        the wind, with the simulated time (s) and copies of every particle's
        position and velocity (as the wind function gets them), and returns
        the force in newtons on each particle (not gravity): an (n, 3)
        array-like, n triples, or one triple for every particle. Forces on
        pinned particles do nothing. It must not change this cloth (that
        raises ClothError with Status.ERR_BUSY). If it raises, the rest of
        the step gets no force and :meth:`step` raises the exception.
        """
        handle = self._live()
        if fn is None:
            check(lib().cloth_set_external_force(handle, FORCE_FN(), None), "cloth_set_external_force")
            self._force = None
            return
        if not callable(fn):
            raise TypeError("set_external_force needs a callable (time, positions, velocities) -> forces, or None")
        hook = _ForceHook(fn)
        check(lib().cloth_set_external_force(handle, hook.c_callback, None), "cloth_set_external_force")
        self._force = hook  # keeps the ctypes callback alive while installed
