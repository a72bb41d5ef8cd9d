"""Python functions behind the library's callbacks: wind, external forces,
task hooks and a host integrator.

Every hook object here owns the ctypes callback objects it hands to the
library; the Cloth keeps the hook object while it is installed (and until
the library can no longer call it), so nothing is garbage-collected under C.

None of them holds a reference to the Cloth (no cycle). An exception raised
by the Python side never unwinds into C: it is stored on the hook, the
library gets a harmless answer, and Cloth.step() (or the installing call)
raises it once the library has returned. What "harmless" means depends on
the hook:

- wind and force: zeros for that substep and the rest of the step, which
  then stands (as for a wind hook that returns still air);
- task hooks: the step is refused (the task is marked broken through the
  audit the library documents, CLOTH_ERR_TASK_CONTRACT) and the state from
  before it is restored;
- a host integrator: its step returns a failure, so the step is abandoned
  and the state from before it restored.

All of them run on the thread that called Cloth.step(), inside it, and must
not change the cloth: such a call raises ClothError with Status.ERR_BUSY.
Read-only calls (positions(), stats(), state_hash() ...) work and see the
cloth in the middle of the step.
"""

import operator

from . import _buffers
from ._lib import (
    ENQUEUE_TASK_FN,
    FINISH_TASK_FN,
    FORCE_FN,
    INTEGRATOR_CREATE_FN,
    INTEGRATOR_DESTROY_FN,
    INTEGRATOR_STEP_FN,
    INTEGRATOR_WANTS_SPRING_FORCES,
    WIND_FN,
    IntegratorVtable,
    Status,
)
from ._util import U32_MAX

__all__ = ["Task", "StepView", "CustomIntegrator"]

_NULL = None  # what a ctypes callback returns for a NULL pointer


class _Hook:
    """What every hook shares: the exception waiting for Cloth.step()."""

    error = None

    def fail(self, exc):
        if self.error is None:
            self.error = exc


# --- wind and external forces ------------------------------------------------------


class _WindHook(_Hook):
    """The Python wind function behind one cloth's ctypes callback.

    ``fn(time, positions) -> wind velocities``. After an exception the
    library gets still air (zeros) for that substep and every later one of
    the same step, and Cloth.step() raises the exception once cloth_step()
    has returned.
    """

    def __init__(self, fn):
        self.fn = fn
        self.c_callback = WIND_FN(self._call)

    def _call(self, user, time, count, positions, wind_velocity):
        try:
            if self.error is None:
                result = self.fn(time, _buffers.copy_vec3(positions, count))
                if result is None:
                    raise TypeError("the wind callback returned None; return a wind velocity per particle")
                _buffers.fill_vec3(wind_velocity, count, result, "wind callback")
                return
        except BaseException as exc:  # noqa: B902 - nothing may unwind into C
            self.fail(exc)
        try:
            _buffers.zero(wind_velocity, count)
        except BaseException:  # pragma: no cover - memset on the library's buffer
            pass


class _ForceHook(_Hook):
    """``fn(time, positions, velocities) -> forces`` behind cloth_force_fn.

    Same rules as the wind hook: copies in, an (n, 3) array-like, n triples
    or one triple out; after an exception, zero forces for the rest of the
    step and the exception raised by Cloth.step().
    """

    def __init__(self, fn):
        self.fn = fn
        self.c_callback = FORCE_FN(self._call)

    def _call(self, user, time, count, positions, velocities, forces):
        try:
            if self.error is None:
                result = self.fn(time, _buffers.copy_vec3(positions, count), _buffers.copy_vec3(velocities, count))
                if result is None:
                    raise TypeError("the force callback returned None; return a force (N) per particle")
                _buffers.fill_vec3(forces, count, result, "force callback")
                return
        except BaseException as exc:  # noqa: B902
            self.fail(exc)
        try:
            _buffers.zero(forces, count)
        except BaseException:  # pragma: no cover
            pass


# --- task hooks -------------------------------------------------------------------


def _index(value, what):
    value = operator.index(value)
    if not 0 <= value <= U32_MAX:
        raise ValueError("%s: %d does not fit uint32_t" % (what, value))
    return value


class Task:
    """One data-parallel pass of a step, as the enqueue hook receives it.

    Call ``task(begin, end, worker)`` to run items ``[begin, end)`` on worker
    index ``worker`` (below the ``worker_count`` given to
    :meth:`Cloth.set_task_hooks`, and not shared by two ranges running at
    the same time). Every item in ``[0, item_count)`` must be run exactly
    once, in ranges of at least ``min_range`` items (the last may be
    shorter), before ``finish`` returns (or before ``enqueue`` returns, if
    it returns None), and no range may still be running when either hook
    returns or raises. The call goes into C without the GIL, so ranges run
    from several Python threads really run in parallel.

    A task is only valid until its work is finished: calling it later
    raises RuntimeError.
    """

    __slots__ = ("_fn", "_context", "item_count", "min_range", "_live")

    def __init__(self, fn, context, item_count, min_range):
        self._fn = fn
        self._context = context
        self.item_count = item_count
        self.min_range = min_range
        self._live = True

    def __call__(self, begin, end, worker):
        if not self._live:
            raise RuntimeError("this clothsim task is finished: run its ranges before enqueue/finish return")
        self._fn(_index(begin, "begin"), _index(end, "end"), _index(worker, "worker"), self._context)

    def __repr__(self):
        return "<clothsim.Task %d items, ranges of >= %d%s>" % (
            self.item_count,
            self.min_range,
            "" if self._live else ", finished",
        )


class _TaskHooks(_Hook):
    """``enqueue(task, item_count, min_range) -> handle or None`` and
    ``finish(handle)`` behind cloth_enqueue_task_fn / cloth_finish_task_fn.

    A handle that is not None goes to C as a small integer key; ``finish``
    gets the Python object back. After an exception (in either hook) the
    task is poisoned (a range with an out-of-range worker index, which the
    library refuses without running it and counts as a broken contract), so
    the step is refused and its state restored; the remaining tasks of that
    step run inline, and Cloth.step() raises the exception.
    """

    def __init__(self, enqueue, finish, worker_count):
        self.enqueue = enqueue
        self.finish = finish
        self.worker_count = worker_count
        self.pending = {}
        self.next_key = 1
        self.c_enqueue = ENQUEUE_TASK_FN(self._enqueue)
        self.c_finish = FINISH_TASK_FN(self._finish)

    def _poison(self, fn, context):
        try:
            fn(0, 1, self.worker_count, context)  # refused, not run: the step is refused
        except BaseException:  # pragma: no cover
            pass

    def _enqueue(self, fn, item_count, min_range, context, user):
        if self.error is not None:
            try:
                fn(0, item_count, 0, context)  # the step is refused anyway: finish it simply
            except BaseException:  # pragma: no cover
                pass
            return _NULL
        task = Task(fn, context, item_count, min_range)
        try:
            handle = self.enqueue(task, item_count, min_range)
            if handle is None:
                task._live = False
                return _NULL
            if self.finish is None:
                raise TypeError("the enqueue hook returned a handle but set_task_hooks() got no finish hook")
            key = self.next_key
            self.next_key = key + 1 if key < 0x7FFFFFFF else 1
            self.pending[key] = (task, handle)
            return key
        except BaseException as exc:  # noqa: B902
            task._live = False
            self.fail(exc)
            self._poison(fn, context)
            return _NULL

    def _finish(self, key, user):
        task, handle = self.pending.pop(key or 0, (None, None))
        if task is None:  # pragma: no cover - the library only passes back what enqueue returned
            return
        try:
            self.finish(handle)
        except BaseException as exc:  # noqa: B902
            self.fail(exc)
            self._poison(task._fn, task._context)
        finally:
            task._live = False


# --- a host integrator --------------------------------------------------------------


class StepView:
    """What a host integrator sees of the cloth during one substep
    (cloth_step_view).

    ``x, y, z`` (m) and ``vx, vy, vz`` (m/s) are the cloth's own arrays, one
    value per particle, updated in place; ``fx, fy, fz`` (N, not gravity)
    and ``inv_mass`` (1/kg, 0 for pinned particles, which must not move) are
    read-only. With numpy they are 1-D float32 arrays over the library's
    memory; without it, ctypes float arrays. Either way they are valid only
    during the call: do not keep them.

    Also: ``count``, ``gravity`` (x, y, z), ``h`` (the substep, s),
    ``damping`` (1/s), ``velocity_decay`` (``exp(-damping h)``),
    ``iterations``, ``substep`` (0-based), ``substeps``, and
    :meth:`collide` to resolve one particle's contacts now.
    """

    __slots__ = (
        "count", "x", "y", "z", "vx", "vy", "vz", "fx", "fy", "fz", "inv_mass", "gravity",
        "h", "damping", "velocity_decay", "iterations", "substep", "substeps", "_struct",
    )  # fmt: skip

    def __init__(self, struct):
        n = struct.count
        self._struct = struct
        self.count = n
        for name in ("x", "y", "z", "vx", "vy", "vz"):
            setattr(self, name, _buffers.float_view(getattr(struct, name), n, True))
        for name in ("fx", "fy", "fz", "inv_mass"):
            setattr(self, name, _buffers.float_view(getattr(struct, name), n, False))
        self.gravity = tuple(struct.gravity)
        self.h = struct.h
        self.damping = struct.damping
        self.velocity_decay = struct.velocity_decay
        self.iterations = struct.iterations
        self.substep = struct.substep
        self.substeps = struct.substeps

    def collide(self, index):
        """Resolve the collisions of particle `index` now, as the collider
        pass would (push out, drop the inward velocity, friction)."""
        index = _index(index, "index")
        if index >= self.count:
            raise IndexError("particle %d of %d" % (index, self.count))
        self._struct.collide_particle(self._struct.collide_ctx, index)


class CustomIntegrator:
    """A base class for host integrators (:meth:`Cloth.set_custom_integrator`).

    Subclass it, or pass any object with the same attributes:

    - ``step(view)``: advance one substep by updating ``view.x`` ... ``view.vz``
      in place (see :class:`StepView`). Return None (or 0) for success, or a
      :class:`Status` to abandon the step (the state from before it is
      restored and Cloth.step() raises ClothError with that status). An
      exception abandons the step the same way and is raised by Cloth.step().
    - ``finish(view)`` (optional): runs after the colliders in every substep.
    - ``create()`` / ``destroy()`` (optional): called when the integrator is
      installed, and when it is replaced or the cloth closed. An exception
      in ``create`` refuses the installation and is raised by
      set_custom_integrator().
    - ``name`` (str, default the class name) and ``wants_spring_forces``
      (default True: the springs' forces, with their damping and the
      bending hinges', arrive in ``view.fx`` ... before ``step``).
    """

    name = None
    wants_spring_forces = True

    def step(self, view):
        raise NotImplementedError("a CustomIntegrator needs a step(view) method")


class _IntegratorHook(_Hook):
    """A Python integrator object behind one cloth_integrator_vtable."""

    def __init__(self, integrator):
        if not callable(getattr(integrator, "step", None)):
            raise TypeError("set_custom_integrator needs an object with a step(view) method")
        self.integrator = integrator
        finish = getattr(integrator, "finish", None)
        if finish is not None and not callable(finish):
            raise TypeError("the integrator's finish must be a method (or None)")
        name = getattr(integrator, "name", None) or type(integrator).__name__
        self.name = str(name).encode("utf-8", "replace")
        flags = INTEGRATOR_WANTS_SPRING_FORCES if getattr(integrator, "wants_spring_forces", True) else 0
        self.c_create = INTEGRATOR_CREATE_FN(self._create)
        self.c_destroy = INTEGRATOR_DESTROY_FN(self._destroy)
        self.c_step = INTEGRATOR_STEP_FN(self._step)
        self.c_finish = INTEGRATOR_STEP_FN(self._finish) if finish is not None else INTEGRATOR_STEP_FN()
        self.vtable = IntegratorVtable(self.name, flags, self.c_create, self.c_destroy, self.c_step, self.c_finish)

    def _create(self, user, cloth, state):
        try:
            create = getattr(self.integrator, "create", None)
            if create is not None:
                create()
            return Status.OK
        except BaseException as exc:  # noqa: B902
            self.fail(exc)
            return Status.ERR_INVALID_ARGUMENT

    def _destroy(self, user, state):
        try:
            destroy = getattr(self.integrator, "destroy", None)
            if destroy is not None:
                destroy()
        except BaseException as exc:  # noqa: B902 - nothing to refuse: keep it for the caller
            self.fail(exc)

    def _run(self, method, view_ptr):
        if self.error is not None:
            return Status.ERR_UNSTABLE
        try:
            result = method(StepView(view_ptr.contents))
            if result is None:
                return Status.OK
            status = operator.index(result)
            if not 0 <= status <= 0x7FFFFFFF:
                raise ValueError("an integrator's step returned %d, not a cloth_status" % status)
            return status
        except BaseException as exc:  # noqa: B902
            self.fail(exc)
            return Status.ERR_UNSTABLE

    def _step(self, user, state, view_ptr):
        return self._run(self.integrator.step, view_ptr)

    def _finish(self, user, state, view_ptr):
        return self._run(self.integrator.finish, view_ptr)
