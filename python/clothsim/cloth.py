"""The Pythonic surface: Cloth and Collider."""

import ctypes
import operator

from . import _buffers
from ._buffers import np
from ._lib import (
    DESC_BUFFER_BYTES,
    WIND_FN,
    ClothError,
    ClothLibraryError,
    GridDesc,
    Integrator,
    MeshDesc,
    SpringType,
    Status,
    c_cloth_p,
    c_enum,
    c_float_p,
    c_uint32_p,
    check,
    lib,
)

__all__ = ["Cloth", "Collider"]

_U32_MAX = 0xFFFFFFFF

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

_SPRING_NAMES = {
    "structural": SpringType.STRUCTURAL,
    "shear": SpringType.SHEAR,
    "bend": SpringType.BEND,
}


def _enum_value(value, names, kind):
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


def _u32(value, function, status=Status.ERR_INVALID_ARGUMENT):
    """An int that fits uint32_t; outside it, what the library would say."""
    value = operator.index(value)
    if not 0 <= value <= _U32_MAX:
        raise ClothError(status, function)
    return value


def _desc_buffer(struct_type, init_name):
    """A desc filled by the library's init function, in room for a newer layout.

    cloth_*_desc_init() writes as many bytes as the *library's* struct has, so
    the struct is placed at the start of a larger zeroed buffer; the library
    then sees its own defaults in any field newer than this package.
    """
    storage = (ctypes.c_uint64 * (DESC_BUFFER_BYTES // 8))()
    desc = struct_type.from_buffer(storage)
    getattr(lib(), init_name)(ctypes.byref(desc))
    size = desc.struct_size
    if size < ctypes.sizeof(struct_type) or size > DESC_BUFFER_BYTES:
        raise ClothLibraryError(
            "%s reports a %d-byte desc; this package knows %d bytes (and has room for %d)"
            % (init_name, size, ctypes.sizeof(struct_type), DESC_BUFFER_BYTES)
        )
    return desc, storage


class _WindHook:
    """The Python wind function behind one cloth's ctypes callback.

    Holds no reference to the Cloth (no cycle). An exception raised by the
    function is stored, never propagated into C: the library gets still air
    (zeros) for that substep and every later one of the same step, and
    Cloth.step() raises the exception once cloth_step() has returned.
    """

    def __init__(self, fn):
        self.fn = fn
        self.error = None
        self.c_callback = WIND_FN(self._call)

    def _call(self, user, time, count, positions, wind_velocity):
        try:
            if self.error is None:
                result = self.fn(time, _buffers.copy_positions(positions, count))
                if result is None:
                    raise TypeError("the wind callback returned None; return a wind velocity per particle")
                _buffers.fill_wind(wind_velocity, count, result, "wind callback")
                return
        except BaseException as exc:  # noqa: B902 - nothing may unwind into C
            self.error = exc
        try:
            _buffers.zero(wind_velocity, count)
        except BaseException:  # pragma: no cover - memset on the library's buffer
            pass


class Cloth:
    """A simulated cloth: a handle on a libclothsim ``cloth_t``.

    Make one with :meth:`grid` or :meth:`mesh`. Use it as a context manager or
    call :meth:`close`; the handle is also freed when the object is collected.
    Refused calls raise :class:`ClothError`; calls on a closed cloth raise
    ValueError.
    """

    _handle = None  # so that close()/__del__ work on a half-made object
    _wind = None

    def __init__(self, *args, **kwargs):
        raise TypeError("use Cloth.grid(...) or Cloth.mesh(...) to make a Cloth")

    @classmethod
    def _adopt(cls, handle):
        self = object.__new__(cls)
        self._handle = handle
        self._wind = None
        self._count = lib().cloth_particle_count(handle)
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
        return cls._adopt(handle.value)

    @classmethod
    def mesh(cls, positions, triangles, mass=None, masses=None, inverse_masses=None):
        """A cloth whose particles are the mesh's vertices and springs its edges.

        ``positions``: n xyz triples (an (n, 3) array with numpy);
        ``triangles``: m index triples, counter-clockwise seen from the front.
        ``mass`` (kg per vertex, default 0.01), or ``masses`` (n values), or
        ``inverse_masses`` (n values, 0 pins a vertex).
        """
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
        return cls._adopt(handle.value)

    # --- lifetime ------------------------------------------------------------

    def close(self):
        """Free the cloth. Further calls raise ValueError; closing twice is fine."""
        handle, self._handle = self._handle, None
        if handle is not None:
            lib().cloth_destroy(handle)
        self._wind = None  # only now: the library may call it until destroyed

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
        'relaxation', 'xpbd', 'implicit_euler', or an :class:`Integrator`."""
        value = _enum_value(kind, _INTEGRATOR_NAMES, "integrator")
        check(lib().cloth_set_integrator(self._live(), value), "cloth_set_integrator")

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
        """Substeps per step, 1..1024. Default 16."""
        n = _u32(substeps, "cloth_set_substeps")
        check(lib().cloth_set_substeps(self._live(), n), "cloth_set_substeps")

    def set_iterations(self, iterations):
        """PBD Jacobi iterations per substep, 1..1024. Default 8."""
        n = _u32(iterations, "cloth_set_iterations")
        check(lib().cloth_set_iterations(self._live(), n), "cloth_set_iterations")

    def set_stiffness(self, spring_type, k):
        """Stiffness in newtons of 'structural', 'shear' or 'bend' springs (k >= 0)."""
        t = _enum_value(spring_type, _SPRING_NAMES, "spring type")
        check(lib().cloth_set_stiffness(self._live(), t, k), "cloth_set_stiffness")

    def set_spring_damping(self, spring_type, beta):
        """Spring damping time constant in seconds of one family (>= 0)."""
        t = _enum_value(spring_type, _SPRING_NAMES, "spring type")
        check(lib().cloth_set_spring_damping(self._live(), t, beta), "cloth_set_spring_damping")

    def set_constraint_stiffness(self, spring_type, s):
        """PBD only: how strongly one family's constraints pull, in [0, 1]."""
        t = _enum_value(spring_type, _SPRING_NAMES, "spring type")
        check(lib().cloth_set_constraint_stiffness(self._live(), t, s), "cloth_set_constraint_stiffness")

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
        Gauss-Seidel passes reach. max_strain in [0, 10]; passes 0 (off) to 1024."""
        n = _u32(passes, "cloth_set_strain_limit")
        check(lib().cloth_set_strain_limit(self._live(), max_strain, n), "cloth_set_strain_limit")

    @property
    def strain_limit(self):
        """(max_strain, passes); passes is 0 while the limit is off."""
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

    # --- stepping ------------------------------------------------------------

    def step(self, dt):
        """Advance by dt seconds (0 < dt <= 1) in the configured substeps.

        If the wind callback raised during the step, that exception is raised
        here after the step (which ran on with still air).
        """
        handle = self._live()
        hook = self._wind
        if hook is not None:
            hook.error = None
        status = lib().cloth_step(handle, dt)
        if hook is not None and hook.error is not None:
            error, hook.error = hook.error, None
            if hasattr(error, "add_note"):
                error.add_note("raised by the wind callback during Cloth.step()")
            raise error
        check(status, "cloth_step")

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

    def set_velocities(self, velocities):
        """Overwrite every velocity from n xyz triples."""
        handle = self._live()
        ptr, stride, keep = _buffers.write_vec3(velocities, self._count, "set_velocities")
        check(lib().cloth_set_velocities(handle, ptr, stride), "cloth_set_velocities")
        del keep

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
        check(lib().cloth_set_air_density(self._live(), kg_per_m3), "cloth_set_air_density")

    def set_drag_coefficient(self, drag):
        check(lib().cloth_set_drag_coefficient(self._live(), drag), "cloth_set_drag_coefficient")

    def set_lift_coefficient(self, lift):
        check(lib().cloth_set_lift_coefficient(self._live(), lift), "cloth_set_lift_coefficient")


class Collider:
    """A collider of one cloth, by id. Valid until :meth:`remove`."""

    __slots__ = ("cloth", "id")

    def __init__(self, cloth, collider_id):
        self.cloth = cloth
        self.id = collider_id

    def __index__(self):
        return self.id

    def __int__(self):
        return self.id

    def __eq__(self, other):
        return isinstance(other, Collider) and other.cloth is self.cloth and other.id == self.id

    def __hash__(self):
        return hash((id(self.cloth), self.id))

    def __repr__(self):
        return "<clothsim.Collider id=%d>" % self.id

    def set_friction(self, mu):
        """Coulomb friction coefficient (>= 0). Default 0."""
        check(lib().cloth_set_collider_friction(self.cloth._live(), self.id, mu), "cloth_set_collider_friction")

    def set_thickness(self, offset):
        """Distance (m, >= 0) particles are kept outside the surface. Default 0."""
        check(
            lib().cloth_set_collider_thickness(self.cloth._live(), self.id, offset), "cloth_set_collider_thickness"
        )

    def set_transform(self, position=None, rotation=None):
        """Move the reference point to `position` and turn to the unit quaternion
        `rotation` (x, y, z, w) by the end of the next step; None keeps either."""
        pos = None if position is None else _buffers.vec3(position, "position")
        rot = None if rotation is None else _buffers.floats(rotation, 4, "rotation")
        check(
            lib().cloth_set_collider_transform(self.cloth._live(), self.id, pos, rot),
            "cloth_set_collider_transform",
        )

    def transform(self):
        """The pose it is heading for: ((x, y, z), (qx, qy, qz, qw))."""
        pos = (ctypes.c_float * 3)()
        rot = (ctypes.c_float * 4)()
        check(
            lib().cloth_get_collider_transform(self.cloth._live(), self.id, pos, rot),
            "cloth_get_collider_transform",
        )
        return tuple(pos), tuple(rot)

    def remove(self):
        """Remove the collider; its id is then refused (ClothError OUT_OF_RANGE)."""
        check(lib().cloth_remove_collider(self.cloth._live(), self.id), "cloth_remove_collider")
