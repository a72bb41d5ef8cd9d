"""Tests of the Python binding (python/clothsim), standard library only.

Run by ctest twice: with numpy (when importable) and with CLOTHSIM_NO_NUMPY=1,
which forces the list-of-tuples fallback. Environment:

  CLOTHSIM_LIBRARY       the shared library to load (set by ctest)
  CLOTHSIM_EXPECT_NUMPY  "1": the numpy path must be active (skipped, exit 77,
                         when numpy cannot be imported); "0": it must not be
  CLOTHSIM_FFI_SKIP      a reason to skip everything (exit 77), e.g. a static
                         build that has no shared library to load

Directly: CLOTHSIM_LIBRARY=build/libclothsim.so python3 tests/python/test_clothsim.py
"""

import ctypes
import gc
import math
import os
import struct
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, os.pardir, "python"))

import clothsim  # noqa: E402
from clothsim import ClothError, Status  # noqa: E402

SKIP_CODE = 77
G = 9.81

if clothsim.HAVE_NUMPY:
    import numpy as np
else:
    np = None


_library_grid = clothsim.Cloth.grid.__func__
_library_mesh = clothsim.Cloth.mesh.__func__


def plain(c):
    """The settings a cloth started with before 0.3 (tests/test_util.h's
    test_plain()): the closed forms below are explicit Euler's at 16
    substeps, without the stretch guarantee a new cloth now has."""
    c.set_integrator("explicit_euler")
    c.set_substeps(16)
    c.set_iterations(8)
    c.set_damping(0.2)
    c.set_tethers(0.0)
    c.set_tether_schedule("every_substep")
    c.set_strain_limit(0.0, 0)
    c.set_watchdog()
    return c


# every test starts from the plain settings, but the one about the defaults
clothsim.Cloth.grid = classmethod(lambda cls, *a, **k: plain(_library_grid(cls, *a, **k)))
clothsim.Cloth.mesh = classmethod(lambda cls, *a, **k: plain(_library_mesh(cls, *a, **k)))


def rows_of(values):
    """Plain tuples from either result kind (ndarray rows or tuples)."""
    return [tuple(float(c) for c in row) for row in values]


def set_all_stiffness(cloth, k):
    for t in ("structural", "shear", "bend"):
        cloth.set_stiffness(t, k)


class StatusAssertions:
    def assertStatus(self, status, fn, *args, **kwargs):
        with self.assertRaises(ClothError) as ctx:
            fn(*args, **kwargs)
        self.assertEqual(ctx.exception.status, int(status), str(ctx.exception))
        self.assertIsInstance(ctx.exception.status, int)
        return ctx.exception


class TestLibrary(unittest.TestCase, StatusAssertions):
    def test_version_matches_the_package(self):
        major, minor, patch = clothsim.version()
        self.assertEqual(major, clothsim._lib.EXPECTED_MAJOR)
        self.assertGreaterEqual(minor, clothsim._lib.MIN_MINOR)
        self.assertTrue(clothsim.library_path())

    def test_status_strings_come_from_the_library(self):
        self.assertEqual(clothsim.status_string(0), "ok")
        self.assertEqual(clothsim.status_string(Status.ERR_INVALID_ARGUMENT), "invalid argument")
        self.assertEqual(clothsim.status_string(12345), "unknown status")
        err = ClothError(Status.ERR_OUT_OF_RANGE, "cloth_pin")
        self.assertEqual(err.status, 3)
        self.assertEqual(err.function, "cloth_pin")
        self.assertIn(clothsim.status_string(3), str(err))
        self.assertIn("CLOTH_ERR_OUT_OF_RANGE", str(err))
        self.assertEqual(clothsim.CLOTH_ERR_UNSTABLE, 4)

    def test_every_declared_function_has_argtypes(self):
        lib = clothsim._lib.lib()
        for name, (restype, argtypes) in clothsim._lib.SIGNATURES.items():
            fn = getattr(lib, name)
            self.assertEqual(fn.argtypes, argtypes, name)
            self.assertIs(fn.restype, restype, name)

    def _run(self, code, **env_changes):
        env = dict(os.environ)
        env.update(env_changes)
        return subprocess.run(
            [sys.executable, "-c", code],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            universal_newlines=True,
            timeout=60,
        )

    def test_a_missing_library_is_reported_not_crashed_on(self):
        code = (
            "import sys; sys.path.insert(0, %r)\n"
            "import clothsim\n"
            "try:\n"
            "    clothsim.Cloth.grid(2, 2)\n"
            "except clothsim.ClothLibraryError as e:\n"
            "    print('refused:', e)\n"
            "    sys.exit(3)\n" % os.path.join(HERE, os.pardir, os.pardir, "python")
        )
        result = self._run(code, CLOTHSIM_LIBRARY="/nonexistent/libclothsim.so")
        self.assertEqual(result.returncode, 3, result.stdout + result.stderr)
        self.assertIn("CLOTHSIM_LIBRARY", result.stdout)
        self.assertIn("/nonexistent/libclothsim.so", result.stdout)

    def test_import_does_not_load_the_library(self):
        code = "import sys; sys.path.insert(0, %r)\nimport clothsim\nprint('ok')\n" % os.path.join(
            HERE, os.pardir, os.pardir, "python"
        )
        result = self._run(code, CLOTHSIM_LIBRARY="/nonexistent/libclothsim.so")
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_the_numpy_switch_is_honoured(self):
        code = "import sys; sys.path.insert(0, %r)\nimport clothsim\nprint(clothsim.HAVE_NUMPY)\n" % os.path.join(
            HERE, os.pardir, os.pardir, "python"
        )
        result = self._run(code, CLOTHSIM_NO_NUMPY="1")
        self.assertEqual(result.stdout.strip(), "False", result.stderr)


class TestGrid(unittest.TestCase, StatusAssertions):
    def test_layout_follows_origin_axes_and_spacing(self):
        rows, cols, s = 3, 4, 0.25
        origin = (1.0, 2.0, 3.0)
        with clothsim.Cloth.grid(rows, cols, spacing=s, origin=origin, u_axis=(0, 0, 2), v_axis=(0, -1, 0)) as c:
            self.assertEqual(len(c), rows * cols)
            self.assertEqual(c.particle_count, rows * cols)
            self.assertEqual(c.triangle_count, 2 * (rows - 1) * (cols - 1))
            pos = rows_of(c.positions())
            for r in range(rows):
                for col in range(cols):
                    x, y, z = pos[r * cols + col]
                    self.assertAlmostEqual(x, origin[0], places=6)
                    self.assertAlmostEqual(y, origin[1] - r * s, places=6)
                    self.assertAlmostEqual(z, origin[2] + col * s, places=6)

    def test_defaults_are_the_library_defaults(self):
        with _library_grid(clothsim.Cloth, 32, 32) as c:
            pos = rows_of(c.positions())
            self.assertEqual(pos[0], (0.0, 0.0, 0.0))
            self.assertAlmostEqual(pos[1][0], 0.05, places=6)  # u = +x, spacing 0.05
            self.assertAlmostEqual(pos[32][2], 0.05, places=6)  # v = +z
            self.assertEqual(c.integrator, clothsim.Integrator.XPBD)
            self.assertAlmostEqual(c.tethers, 1.03, places=6)
            self.assertAlmostEqual(c.strain_limit[0], 0.09, places=6)
            self.assertEqual(c.strain_limit[1], 0)
            self.assertEqual(c.tether_schedule, "last_substep")
            for n in rows_of(c.normals()):
                self.assertAlmostEqual(n[1], 1.0, places=6)  # v x u = +y for a horizontal grid

    def test_triangles_are_the_documented_index_buffer(self):
        rows, cols = 3, 4
        with clothsim.Cloth.grid(rows, cols) as c:
            tris = rows_of(c.triangles())
            expected = []
            for r in range(rows - 1):
                for col in range(cols - 1):
                    i = r * cols + col
                    expected.append((i, i + cols, i + 1))
                    expected.append((i + 1, i + cols, i + cols + 1))
            self.assertEqual(tris, [tuple(float(v) for v in t) for t in expected])

    def test_bad_grids_are_refused(self):
        invalid = Status.ERR_INVALID_ARGUMENT
        self.assertStatus(invalid, clothsim.Cloth.grid, 0, 4)
        self.assertStatus(invalid, clothsim.Cloth.grid, 1, 1)
        self.assertStatus(invalid, clothsim.Cloth.grid, -1, 4)
        self.assertStatus(invalid, clothsim.Cloth.grid, 2**32, 4)
        self.assertStatus(invalid, clothsim.Cloth.grid, 4, 4, spacing=-1)
        self.assertStatus(invalid, clothsim.Cloth.grid, 4, 4, spacing=float("nan"))
        self.assertStatus(invalid, clothsim.Cloth.grid, 4, 4, mass=0)
        self.assertStatus(invalid, clothsim.Cloth.grid, 4, 4, u_axis=(1, 0, 0), v_axis=(2, 0, 0))
        self.assertStatus(invalid, clothsim.Cloth.grid, 4, 4, neighbours=13)
        with self.assertRaises(ValueError):
            clothsim.Cloth.grid(4, 4, origin=(1, 2))
        with self.assertRaises(TypeError):
            clothsim.Cloth.grid(4.5, 4)

    def test_twenty_four_neighbours(self):
        with clothsim.Cloth.grid(6, 6) as a, clothsim.Cloth.grid(6, 6, neighbours=24) as b:
            self.assertGreater(b.spring_count, a.spring_count)


class TestMesh(unittest.TestCase, StatusAssertions):
    QUAD = [(0, 0, 0), (1, 0, 0), (0, 0, 1), (1, 0, 1)]
    TRIS = [(0, 2, 1), (1, 2, 3)]

    def test_a_quad(self):
        with clothsim.Cloth.mesh(self.QUAD, self.TRIS, mass=0.1) as c:
            self.assertEqual(len(c), 4)
            self.assertEqual(c.triangle_count, 2)
            self.assertEqual(rows_of(c.positions()), [tuple(map(float, p)) for p in self.QUAD])
            self.assertEqual(rows_of(c.triangles()), [tuple(map(float, t)) for t in self.TRIS])
            for n in rows_of(c.normals()):
                self.assertAlmostEqual(n[1], 1.0, places=6)
            self.assertStatus(Status.ERR_UNSUPPORTED, c.set_integrator, "semirigid")
            c.step(1 / 60)

    def test_per_vertex_masses_and_inverse_masses(self):
        with clothsim.Cloth.mesh(self.QUAD, self.TRIS, inverse_masses=[0, 0, 100, 100]) as c:
            before = rows_of(c.positions())
            for _ in range(10):
                c.step(1 / 60)
            after = rows_of(c.positions())
            self.assertEqual(after[0], before[0])  # inverse mass 0: held where it is
            self.assertEqual(after[1], before[1])
            self.assertLess(after[3][1], before[3][1])
        with clothsim.Cloth.mesh(self.QUAD, self.TRIS, masses=[1, 1, 1, 1]) as c:
            c.step(1 / 60)

    def test_bad_meshes_are_refused(self):
        invalid = Status.ERR_INVALID_ARGUMENT
        self.assertStatus(invalid, clothsim.Cloth.mesh, self.QUAD, [(0, 2, 7)])
        self.assertStatus(invalid, clothsim.Cloth.mesh, self.QUAD, [(0, 0, 1)])
        self.assertStatus(invalid, clothsim.Cloth.mesh, self.QUAD, [(0, 2, -1)])
        self.assertStatus(invalid, clothsim.Cloth.mesh, self.QUAD, self.TRIS, masses=[1, 1, 1, -1])
        self.assertStatus(invalid, clothsim.Cloth.mesh, self.QUAD, self.TRIS, masses=[1] * 4, inverse_masses=[1] * 4)
        with self.assertRaises(ValueError):
            clothsim.Cloth.mesh(self.QUAD, self.TRIS, masses=[1, 1])
        with self.assertRaises(ValueError):
            clothsim.Cloth.mesh(self.QUAD, [(0, 1)])


class TestLifetime(unittest.TestCase):
    def test_context_manager_and_close(self):
        with clothsim.Cloth.grid(4, 4) as c:
            self.assertFalse(c.closed)
        self.assertTrue(c.closed)
        c.close()  # twice is fine
        for call in (lambda: c.step(0.01), c.positions, lambda: c.pin(0), lambda: len(c), lambda: c.handle):
            with self.assertRaises(ValueError):
                call()
        self.assertIn("closed", repr(c))

    def test_colliders_of_a_closed_cloth(self):
        c = clothsim.Cloth.grid(4, 4)
        sphere = c.add_sphere((0, -1, 0), 0.5)
        c.close()
        with self.assertRaises(ValueError):
            sphere.set_friction(0.1)

    def test_constructor_is_not_public(self):
        with self.assertRaises(TypeError):
            clothsim.Cloth()

    def test_collection_frees_without_close(self):
        for _ in range(50):
            c = clothsim.Cloth.grid(8, 8)
            c.set_wind(lambda t, p: (0, 0, 1))
            c.step(1 / 60)
            del c
        gc.collect()

    def test_del_of_a_half_made_object(self):
        obj = object.__new__(clothsim.Cloth)
        obj.__del__()  # no handle yet: nothing to free, nothing raised


class TestErrors(unittest.TestCase, StatusAssertions):
    def setUp(self):
        self.cloth = clothsim.Cloth.grid(4, 4)
        self.n = len(self.cloth)

    def tearDown(self):
        self.cloth.close()

    def test_bad_dt_raises_invalid_argument_and_changes_nothing(self):
        before = rows_of(self.cloth.positions())
        for dt in (0.0, -0.01, float("nan"), float("inf"), 2.0):
            err = self.assertStatus(Status.ERR_INVALID_ARGUMENT, self.cloth.step, dt)
            self.assertEqual(err.status, clothsim.CLOTH_ERR_INVALID_ARGUMENT)
            self.assertEqual(err.function, "cloth_step")
            self.assertIn("invalid argument", str(err))
        self.assertEqual(rows_of(self.cloth.positions()), before)

    def test_wrong_types_fail_loudly(self):
        with self.assertRaises(ctypes.ArgumentError):
            self.cloth.step("0.01")
        with self.assertRaises(ctypes.ArgumentError):
            self.cloth.set_damping(None)
        with self.assertRaises(TypeError):
            self.cloth.pin(1.5)
        with self.assertRaises(TypeError):
            self.cloth.set_substeps("4")

    def test_indices_out_of_range(self):
        out = Status.ERR_OUT_OF_RANGE
        self.assertStatus(out, self.cloth.pin, self.n)
        self.assertStatus(out, self.cloth.pin, -1)
        self.assertStatus(out, self.cloth.unpin, self.n)
        self.assertStatus(out, self.cloth.unpin, 2**40)

    def test_parameters_are_validated(self):
        invalid = Status.ERR_INVALID_ARGUMENT
        c = self.cloth
        self.assertStatus(invalid, c.set_substeps, 1025)
        self.assertStatus(invalid, c.set_substeps, 2**32 + 4)  # would wrap to 4 unchecked
        self.assertStatus(invalid, c.set_substeps, -1)
        self.assertStatus(invalid, c.set_iterations, 1025)
        self.assertStatus(invalid, c.set_iterations, 2**32)  # would wrap to 0 (automatic) unchecked
        c.set_substeps(0)  # automatic
        c.set_iterations(0)
        self.assertStatus(invalid, c.set_damping, -1)
        self.assertStatus(invalid, c.set_damping, float("inf"))
        self.assertStatus(invalid, c.set_stiffness, "shear", -1)
        self.assertStatus(invalid, c.set_stiffness, 7, 1)
        self.assertStatus(invalid, c.set_gravity, (0, float("nan"), 0))
        self.assertStatus(invalid, c.set_integrator, 99)
        self.assertStatus(invalid, c.set_integrator, clothsim.Integrator.CUSTOM)
        self.assertStatus(invalid, c.pin, 0, (0, float("inf"), 0))
        with self.assertRaises(ValueError):
            c.set_integrator("rk4")
        with self.assertRaises(ValueError):
            c.set_stiffness("twist", 1)
        with self.assertRaises(ValueError):
            c.set_gravity((0, -9.81))
        c.set_substeps(4)
        c.set_iterations(3)
        c.set_damping(0.5)
        c.set_gravity((0, -1, 0))
        c.set_stiffness(clothsim.SpringType.BEND, 2)
        c.set_spring_damping("structural", 0.002)
        c.set_constraint_stiffness("bend", 0.5)
        self.assertStatus(invalid, c.set_constraint_stiffness, "bend", 1.5)

    def test_tethers_and_strain_limit(self):
        invalid = Status.ERR_INVALID_ARGUMENT
        with clothsim.Cloth.grid(1, 2, spacing=1.0) as c:
            self.assertEqual(c.tethers, 0.0)
            self.assertEqual(c.strain_limit, (0.0, 0))
            self.assertStatus(invalid, c.set_tethers, 0.5)
            self.assertStatus(invalid, c.set_strain_limit, -0.1, 1)
            self.assertStatus(invalid, c.set_strain_limit, 0.1, 1025)
            self.assertStatus(invalid, c.set_strain_limit, 0.1, 2**32 + 1)  # would wrap to 1 unchecked
            c.set_tethers(1.25)
            self.assertEqual(c.tethers, 1.25)
            c.set_tethers(0)
            self.assertEqual(c.tether_schedule, "every_substep")
            c.set_tether_schedule("last_substep")
            self.assertEqual(c.tether_schedule, "last_substep")
            self.assertStatus(invalid, c.set_tether_schedule, 2)
            self.assertRaises(ValueError, c.set_tether_schedule, "sometimes")
            c.set_tether_schedule("every_substep")
            # one spring of 1 m, pinned at one end, stretched to 1.5 m; nothing
            # else moves the free end in one step, so the limit puts it at 1.1 m
            c.set_gravity((0, 0, 0))
            for kind in ("structural", "shear", "bend"):
                c.set_stiffness(kind, 1e-9)
            c.set_substeps(1)
            c.set_positions([(0, 0, 0), (1.5, 0, 0)])
            c.pin(0)
            c.set_strain_limit(0.1, 1)
            self.assertAlmostEqual(c.strain_limit[0], 0.1, places=6)
            self.assertEqual(c.strain_limit[1], 1)
            self.assertEqual(c.strain_level_sweeps, 1024)
            c.set_strain_level_sweeps(1)
            self.assertEqual(c.strain_level_sweeps, 1)
            self.assertStatus(invalid, c.set_strain_level_sweeps, 1025)
            self.assertStatus(invalid, c.set_strain_level_sweeps, 2**32 + 1)  # would wrap to 1 unchecked
            self.assertEqual(c.strain_level_sweeps, 1)
            c.set_strain_level_sweeps(1024)
            c.step(1 / 60)
            self.assertAlmostEqual(rows_of(c.positions())[1][0], 1.1, places=5)

    def test_set_positions_is_validated(self):
        before = rows_of(self.cloth.positions())
        bad = [(0.0, 0.0, 0.0)] * self.n
        bad[3] = (0.0, float("nan"), 0.0)
        self.assertStatus(Status.ERR_INVALID_ARGUMENT, self.cloth.set_positions, bad)
        self.assertEqual(rows_of(self.cloth.positions()), before)
        with self.assertRaises(ValueError):
            self.cloth.set_positions([(0, 0, 0)] * (self.n - 1))

    def test_unstable_step(self):
        c = self.cloth
        c.set_stiffness("structural", 1e30)
        c.set_substeps(1)
        c.pin(0, (0, 10, 0))
        with self.assertRaises(ClothError) as ctx:
            for _ in range(50):
                before = rows_of(c.positions())
                c.step(1.0)
        self.assertEqual(ctx.exception.status, Status.ERR_UNSTABLE)
        self.assertEqual(rows_of(c.positions()), before, "the state before the failed step is kept")


class TestState(unittest.TestCase, StatusAssertions):
    def test_positions_and_velocities_round_trip(self):
        with clothsim.Cloth.grid(3, 3) as c:
            pos = [(i * 0.5, -i * 0.25, 1.0 + i) for i in range(9)]
            vel = [(1.0, 2.0, 3.5 * i) for i in range(9)]
            c.set_positions(pos)
            c.set_velocities(vel)
            self.assertEqual(rows_of(c.positions()), pos)
            self.assertEqual(rows_of(c.velocities()), vel)

    def test_result_types(self):
        with clothsim.Cloth.grid(3, 3) as c:
            if np is not None:
                for arr in (c.positions(), c.normals(), c.velocities()):
                    self.assertIsInstance(arr, np.ndarray)
                    self.assertEqual(arr.shape, (9, 3))
                    self.assertEqual(arr.dtype, np.float32)
                tris = c.triangles()
                self.assertEqual((tris.shape, tris.dtype), ((8, 3), np.uint32))
            else:
                for lst in (c.positions(), c.normals(), c.velocities(), c.triangles()):
                    self.assertIsInstance(lst, list)
                    self.assertIsInstance(lst[0], tuple)
                    self.assertEqual(len(lst[0]), 3)
                self.assertIsInstance(c.positions()[0][0], float)
                self.assertIsInstance(c.triangles()[0][0], int)
                with self.assertRaises(TypeError):
                    c.positions(out=[])

    @unittest.skipUnless(np is not None, "numpy path")
    def test_numpy_out_is_written_in_place_with_strides(self):
        with clothsim.Cloth.grid(4, 5, origin=(1, 2, 3)) as c:
            vbo = np.full((20, 8), -7.0, dtype=np.float32)  # xyz, normal xyz, uv
            p = c.positions(out=vbo[:, 0:3])
            n = c.normals(out=vbo[:, 3:6])
            self.assertTrue(np.shares_memory(p, vbo))
            self.assertTrue(np.shares_memory(n, vbo))
            np.testing.assert_array_equal(vbo[:, 0:3], c.positions())
            np.testing.assert_array_equal(vbo[:, 3:6], c.normals())
            np.testing.assert_array_equal(vbo[:, 6:], -7.0)  # padding untouched
            out = np.empty((20, 3), np.float32)
            self.assertIs(c.velocities(out=out), out)
            with self.assertRaises(ValueError):
                c.positions(out=np.empty((20, 3), np.float64))
            with self.assertRaises(ValueError):
                c.positions(out=np.empty((19, 3), np.float32))
            with self.assertRaises(ValueError):
                c.positions(out=np.empty((3, 20), np.float32).T)
            # strided and float64 input to the setters
            new = vbo[:, 0:3] + np.float32(1)
            vbo[:, 0:3] = new
            c.set_positions(vbo[:, 0:3])
            np.testing.assert_array_equal(c.positions(), new)
            c.set_velocities(np.ones((20, 3)))
            np.testing.assert_array_equal(c.velocities(), np.ones((20, 3), np.float32))


class TestPins(unittest.TestCase, StatusAssertions):
    def test_pins_hold_move_and_release(self):
        with clothsim.Cloth.grid(5, 5, v_axis=(0, -1, 0)) as c:
            c.pin(0)
            c.pin(4, target=(0.3, 0.1, 0.0))
            for _ in range(30):
                c.step(1 / 60)
            pos = rows_of(c.positions())
            self.assertEqual(pos[0], (0.0, 0.0, 0.0))
            for got, want in zip(pos[4], (0.3, 0.1, 0.0)):
                self.assertAlmostEqual(got, want, places=6)
            c.unpin(0)
            c.unpin(4)
            c.unpin(4)  # a free particle stays free
            for _ in range(30):
                c.step(1 / 60)
            self.assertLess(rows_of(c.positions())[0][1], -0.5)


class TestSkin(unittest.TestCase, StatusAssertions):
    def test_targets_and_max_distances(self):
        with clothsim.Cloth.grid(4, 4, spacing=0.1) as c:
            start = rows_of(c.positions())
            n = len(start)
            # every particle within 0.05 m of where it is: it falls that far and stops
            c.set_max_distances([0.05] * n)
            for _ in range(60):
                c.step(1 / 60)
            for got, was in zip(rows_of(c.positions()), start):
                self.assertAlmostEqual(got[1], was[1] - 0.05, places=5)
            # distance 0 pins particle 0 to its target, which moves 0.2 m up
            targets = [(x, y + 0.2, z) for (x, y, z) in start]
            c.set_skin_targets(targets)
            c.set_max_distances([0.0] + [math.inf] * (n - 1))
            for _ in range(3):
                c.step(1 / 60)
            as_f32 = tuple(struct.unpack("f", struct.pack("f", v))[0] for v in targets[0])
            self.assertEqual(rows_of(c.positions())[0], as_f32)  # on its target, bit for bit
            invalid = Status.ERR_INVALID_ARGUMENT
            self.assertStatus(invalid, c.set_max_distances, [-1.0] * n)
            self.assertStatus(invalid, c.set_max_distances, [math.nan] * n)
            self.assertStatus(invalid, c.set_skin_targets, [(math.inf, 0.0, 0.0)] * n)
            with self.assertRaises(ValueError):
                c.set_max_distances([0.0] * (n - 1))

    def sheet(self, backstop=None):
        """A flat 6 x 6 sheet in the xz plane worn on its skin: targets where
        it starts, outward normals +y, free within 0.1 m; gravity pushes it
        backward (-y, into the body). With `backstop` (distance, radius)
        every particle has that ball behind it."""
        c = clothsim.Cloth.grid(6, 6, spacing=0.05)
        n = c.particle_count
        c.set_skin_targets(c.positions())
        c.set_max_distances([0.1] * n)
        c.set_skin_normals([(0.0, 1.0, 0.0)] * n)
        if backstop is not None:
            c.set_backstops([backstop] * n)
        return c

    def test_a_backstop_keeps_a_sheet_from_sinking_deeper_than_its_distance(self):
        with self.sheet() as free:
            for _ in range(60):
                free.step(1 / 60)
            for _, y, _ in rows_of(free.positions()):
                self.assertAlmostEqual(y, -0.1, places=4)  # only the max distance holds it
        for radius in (10.0, 0.5):  # a plane 2 cm behind the skin, then a ball
            with self.sheet((0.02, radius)) as c:
                for _ in range(60):
                    c.step(1 / 60)
                for _, y, _ in rows_of(c.positions()):
                    self.assertGreaterEqual(y, -0.02 - 1e-4)  # never deeper than its distance
                    self.assertAlmostEqual(y, -0.02, places=4)  # pressed onto its ball
        if np is not None:  # an (n, 2) array; a radius of 0 is no ball
            with self.sheet() as c:
                stops = np.zeros((c.particle_count, 2))
                stops[:, 0] = 0.02
                c.set_backstops(stops)
                for _ in range(60):
                    c.step(1 / 60)
                for _, y, _ in rows_of(c.positions()):
                    self.assertAlmostEqual(y, -0.1, places=4)
                stops[:, 1] = 10.0
                c.set_backstops(stops)
                for _ in range(60):
                    c.step(1 / 60)
                for _, y, _ in rows_of(c.positions()):
                    self.assertGreaterEqual(y, -0.02 - 1e-4)  # pushed back out

    def test_normal_and_backstop_refusals_change_nothing(self):
        invalid = Status.ERR_INVALID_ARGUMENT
        with self.sheet((0.02, 10.0)) as c:
            n = c.particle_count
            c.step(1 / 60)
            before = c.save_state()
            up = [(0.0, 1.0, 0.0)] * n
            self.assertStatus(invalid, c.set_skin_normals, [(0.0, 2.0, 0.0)] + up[1:])  # not unit
            self.assertStatus(invalid, c.set_skin_normals, [(0.0, 0.5, 0.0)] + up[1:])
            self.assertStatus(invalid, c.set_skin_normals, up[:-1] + [(math.nan, 1.0, 0.0)])
            self.assertStatus(invalid, c.set_skin_normals, up[:-1] + [(0.0, math.inf, 0.0)])
            self.assertStatus(invalid, c.set_backstops, [(0.02, -1.0)] * n)  # negative radius
            self.assertStatus(invalid, c.set_backstops, [(math.nan, 1.0)] * n)
            self.assertStatus(invalid, c.set_backstops, [(0.02, math.inf)] * n)
            self.assertStatus(invalid, c.set_backstops, [(math.inf, 1.0)] * n)
            self.assertStatus(invalid, c.set_backstops, [(0.02, 10.0)] * (n - 1) + [(3e38, 3e38)])  # d + r overflows
            with self.assertRaises(ValueError):
                c.set_skin_normals(up[1:])
            with self.assertRaises(ValueError):
                c.set_backstops([(0.02, 1.0)] * (n - 1))
            with self.assertRaises(ValueError):
                c.set_backstops([(0.02, 1.0, 0.0)] * n)
            self.assertEqual(c.save_state(), before)
            # what it takes: normals of 0 (none), any sign of distance, a flat list
            c.set_skin_normals([(0.0, 0.0, 0.0)] * (n - 1) + [(1.0, 0.0, 0.0)])
            c.set_backstops([-0.05, 0.0] * n)
            self.assertNotEqual(c.save_state(), before)
        with clothsim.Cloth.grid(3, 3) as fresh:
            self.assertStatus(invalid, fresh.set_backstops, [(0.0, -1.0)] * 9)
            size = fresh.state_size()
            fresh.set_backstops([(0.0, 1.0)] * 9)  # before any normal: no ball yet
            self.assertGreater(fresh.state_size(), size)  # the skin's and backstops' sections


class TestMasses(unittest.TestCase, StatusAssertions):
    def test_painted_masses_and_particle_radius(self):
        with clothsim.Cloth.grid(3, 3, spacing=0.1) as c:
            c.pin(0)
            w = [1.0 + i for i in range(9)]
            c.set_inverse_masses(w)
            self.assertEqual([float(x) for x in c.inverse_masses()], w)  # the pinned one's: on release
            self.assertStatus(Status.ERR_INVALID_ARGUMENT, c.set_inverse_masses, [-1.0] * 9)
            with self.assertRaises(ValueError):
                c.set_inverse_masses([1.0] * 8)
            c.set_inertia(0.5, 0.25)
            self.assertEqual(c.inertia, (0.5, 0.25))
            self.assertStatus(Status.ERR_INVALID_ARGUMENT, c.set_inertia, 1.5, 0.0)
            c.set_frame((0.0, 0.0, 0.1), (0.0, 0.0, 0.0, 1.0))
            c.step(1 / 60)
            c.teleport((100.0, 0.0, 0.0))
            self.assertGreater(rows_of(c.positions())[0][0], 99.0)  # carried 100 m at once
            self.assertStatus(Status.ERR_INVALID_ARGUMENT, c.teleport, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 2.0))
            c.set_particle_radius(0.02)
            self.assertAlmostEqual(c.particle_radius, 0.02, places=7)
            self.assertStatus(Status.ERR_INVALID_ARGUMENT, c.set_particle_radius, math.nan)


class TestStiffnessScales(unittest.TestCase, StatusAssertions):
    def test_round_trip_and_refusals(self):
        invalid = Status.ERR_INVALID_ARGUMENT
        with clothsim.Cloth.grid(3, 3, spacing=0.1) as c:
            self.assertEqual([float(s) for s in c.stiffness_scales()], [1.0] * 9)  # never painted
            before = c.save_state()
            for bad in (0.0, -0.0, -1.0, math.nan, math.inf, -math.inf, 2e6):
                self.assertStatus(invalid, c.set_stiffness_scales, [1.0] * 8 + [bad])
                self.assertEqual([float(s) for s in c.stiffness_scales()], [1.0] * 9)  # refused: nothing changes
            with self.assertRaises(ValueError):
                c.set_stiffness_scales([1.0] * 8)
            with self.assertRaises(ValueError):
                c.set_stiffness_scales([1.0] * 10)
            self.assertEqual(c.save_state(), before)
            painted = [0.25, 0.5, 1.0, 1.5, 2.0, 4.0, 1e6, 1e-6, 3.0]  # 1e6 is the most it takes
            as_float32 = [ctypes.c_float(v).value for v in painted]
            c.set_stiffness_scales(painted)
            self.assertEqual([float(s) for s in c.stiffness_scales()], as_float32)
            self.assertStatus(invalid, c.set_stiffness_scales, [2.0] * 8 + [math.nan])
            self.assertEqual([float(s) for s in c.stiffness_scales()], as_float32)
            if np is not None:
                c.set_stiffness_scales(np.full(9, 2.0, dtype=np.float64))  # converted to float32
                self.assertEqual(c.stiffness_scales().dtype, np.float32)
            else:
                c.set_stiffness_scales((2.0,) * 9)
            self.assertEqual([float(s) for s in c.stiffness_scales()], [2.0] * 9)
            c.step(1 / 60)
        with self.assertRaises(ValueError):
            c.stiffness_scales()  # closed
        with self.assertRaises(ValueError):
            c.set_stiffness_scales([1.0] * 9)

    @staticmethod
    def hanging_stretch(scale):
        """How far the bottom middle of a strip 1 m long (17 x 3, pinned at
        the top row, soft springs) hangs below its rest place after 4 s, m."""
        rows, cols = 17, 3
        with clothsim.Cloth.grid(rows, cols, spacing=1 / 16, v_axis=(0, -1, 0)) as c:
            c.set_integrator("implicit_euler")
            c.set_substeps(0)
            c.set_iterations(0)
            c.set_damping(4.0)
            set_all_stiffness(c, 20.0)
            for i in range(cols):
                c.pin(i)
            if scale is not None:
                c.set_stiffness_scales([scale] * (rows * cols))
            for _ in range(240):
                c.step(1 / 60)
            return -rows_of(c.positions())[(rows - 1) * cols + cols // 2][1] - 1.0

    def test_painted_stiffer_stretches_less(self):
        plain_stretch = self.hanging_stretch(None)
        ones = self.hanging_stretch(1.0)
        stiff = self.hanging_stretch(4.0)
        self.assertGreater(plain_stretch, 0.005)  # it does stretch
        self.assertEqual(ones, plain_stretch)  # scales of 1: the unpainted bits
        self.assertLess(stiff, plain_stretch)
        # the stretch of a hanging strip goes as 1 / k: a quarter, within 10 %
        self.assertAlmostEqual(stiff / plain_stretch, 0.25, delta=0.025)


class TestSelfCollision(unittest.TestCase, StatusAssertions):
    SIDE = 12
    SPACING = 0.03
    THICK = 0.03

    def test_thickness_round_trip_and_refusals(self):
        invalid = Status.ERR_INVALID_ARGUMENT
        with clothsim.Cloth.grid(4, 4) as c:
            self.assertEqual(c.self_collision, 0.0)  # off by default
            c.set_self_collision(0.02)
            self.assertEqual(c.self_collision, ctypes.c_float(0.02).value)
            for bad in (-0.01, -math.inf, math.nan, math.inf):
                self.assertStatus(invalid, c.set_self_collision, bad)
                self.assertEqual(c.self_collision, ctypes.c_float(0.02).value)  # refused: unchanged
            with self.assertRaises(ctypes.ArgumentError):
                c.set_self_collision("thick")
            c.step(1 / 60)
            c.set_self_collision(0.0)  # off again (the memory is kept)
            self.assertEqual(c.self_collision, 0.0)
            c.set_self_collision(0.05)
            self.assertEqual(c.self_collision, ctypes.c_float(0.05).value)
        with self.assertRaises(ValueError):
            c.set_self_collision(0.01)  # closed

    def test_friction_round_trip_and_refusals(self):
        invalid = Status.ERR_INVALID_ARGUMENT
        recorded = []

        def meddle(time, positions, velocities):
            try:
                c.set_self_friction(0.9)
            except ClothError as exc:
                recorded.append(exc.status)
            return (0.0, 0.0, 0.0)

        with clothsim.Cloth.grid(4, 4) as c:
            self.assertEqual(c.self_friction, 0.0)  # slides freely by default
            c.set_self_friction(0.4)
            self.assertEqual(c.self_friction, ctypes.c_float(0.4).value)
            for bad in (-0.1, -1e-30, -math.inf, math.nan, -math.nan, math.inf):
                self.assertStatus(invalid, c.set_self_friction, bad)
                self.assertEqual(c.self_friction, ctypes.c_float(0.4).value)  # refused: unchanged
            with self.assertRaises(ctypes.ArgumentError):
                c.set_self_friction("rough")
            self.assertEqual(c.self_collision, 0.0)  # friction alone does not turn self-collision on
            c.set_self_collision(0.02)
            c.set_self_collision(0.0)  # the thickness, on and off, leaves the friction be
            self.assertEqual(c.self_friction, ctypes.c_float(0.4).value)
            c.set_substeps(1)
            c.set_external_force(meddle)
            c.step(1 / 60)
            self.assertEqual(recorded, [Status.ERR_BUSY])  # from a hook it is busy ...
            self.assertEqual(c.self_friction, ctypes.c_float(0.4).value)  # ... and changes nothing
            c.set_external_force(None)
            c.set_self_friction(0.0)  # back to sliding freely
            self.assertEqual(c.self_friction, 0.0)
            c.set_self_friction(2.5)  # no upper bound but finiteness
            self.assertEqual(c.self_friction, 2.5)
        with self.assertRaises(ValueError):
            c.set_self_friction(0.4)  # closed

    def closest_apart(self, positions):
        """The distance between the closest two particles more than two rows
        or columns apart (the pairs the pass keeps apart)."""
        side = self.SIDE
        x = rows_of(positions)
        if np is not None:
            p = np.array(x, dtype=np.float64)
            d = np.sqrt(((p[:, None, :] - p[None, :, :]) ** 2).sum(axis=2))
            r, c = np.divmod(np.arange(side * side), side)
            near = (np.abs(r[:, None] - r[None, :]) <= 2) & (np.abs(c[:, None] - c[None, :]) <= 2)
            return float(d[~near].min())
        best = math.inf
        for i in range(side * side):
            ri, ci = divmod(i, side)
            for j in range(i + 1, side * side):
                rj, cj = divmod(j, side)
                if abs(ri - rj) > 2 or abs(ci - cj) > 2:
                    best = min(best, math.dist(x[i], x[j]))
        return best

    def dropped(self, thickness):
        """A 12 x 12 sheet, 3 cm spacing, tilted 78 degrees about x with its
        low edge 5 cm above a rough floor: it lands on that edge and
        crumples onto itself. The closest non-neighbours after every step."""
        closest = []
        # the library's defaults (XPBD, the stretch guarantee), as tests/test_self_collision.c
        with _library_grid(clothsim.Cloth, self.SIDE, self.SIDE, spacing=self.SPACING) as c:
            cs, sn = 0.2, 0.9797959
            c.set_positions([(u, 0.05 + v * sn, v * cs) for u, _, v in rows_of(c.positions())])
            c.add_plane((0, 0, 0), (0, 1, 0), friction=0.8)
            c.set_self_collision(thickness)
            for _ in range(150):
                c.step(1 / 60)
                closest.append(self.closest_apart(c.positions()))
            top = max(y for _, y, _ in rows_of(c.positions()))
        return closest, top

    def test_dropped_sheet_keeps_layers_apart(self):
        with_it, top = self.dropped(self.THICK)
        self.assertLess(top, 0.2)  # it fell ...
        self.assertGreater(top, 0.03)  # ... and folded onto itself: a heap, not a sheet lying flat
        for step, d in enumerate(with_it):
            self.assertGreaterEqual(d, 0.5 * self.THICK, "step %d: non-neighbours %.4f m apart" % (step, d))
        without, _ = self.dropped(0.0)
        self.assertLess(min(without), 0.5 * self.THICK)  # without it the layers meet


class TestColliders(unittest.TestCase, StatusAssertions):
    def test_handles_and_their_errors(self):
        with clothsim.Cloth.grid(4, 4) as c:
            sphere = c.add_sphere((0, -1, 0), 0.5)
            plane = c.add_plane((0, -2, 0), (0, 1, 0), friction=0.5, thickness=0.01)
            ell = c.add_ellipsoid((1, -1, 0), (0.3, 0.2, 0.1), rotation=(0, 0, 0.6, 0.8))
            ell2 = c.add_ellipsoid((1, -1, 0), (0.3, 0.2, 0.1))
            caps = c.add_capsule((0, -1, 0), (1, -1, 0), 0.1)
            cyl = c.add_cylinder((0, -1, 0), (0, -1.5, 0), 0.2)
            tor = c.add_torus((0, -3, 0), (0, 1, 0), 0.5, 0.1)
            limb = c.add_tapered_capsule((2, -1, 0), (2, -1.5, 0), 0.2, 0.08, thickness=0.01)
            self.assertStatus(Status.ERR_INVALID_ARGUMENT, c.add_tapered_capsule, (0, 0, 0), (1, 0, 0), 0.1, 0.0)
            ids = [int(x) for x in (sphere, plane, ell, ell2, caps, cyl, tor, limb)]
            self.assertEqual(len(set(ids)), len(ids))
            sphere.set_friction(0.3)
            sphere.set_thickness(0.02)
            pos, rot = ell.transform()
            self.assertEqual(pos, (1.0, -1.0, 0.0))
            for got, want in zip(rot, (0, 0, 0.6, 0.8)):
                self.assertAlmostEqual(got, want, places=6)
            sphere.set_transform(position=(0, -1.2, 0))
            self.assertEqual(sphere.transform()[0], (0.0, -1.2000000476837158, 0.0))
            invalid, out = Status.ERR_INVALID_ARGUMENT, Status.ERR_OUT_OF_RANGE
            self.assertStatus(invalid, sphere.set_friction, -0.1)
            self.assertStatus(invalid, sphere.set_thickness, float("nan"))
            self.assertStatus(invalid, c.add_sphere, (0, 0, 0), 0.0)
            self.assertStatus(invalid, c.add_plane, (0, 0, 0), (0, 0, 0))
            self.assertStatus(invalid, c.add_ellipsoid, (0, 0, 0), (1, 1, 1), (0, 0, 0, 2))
            self.assertStatus(invalid, c.add_ellipsoid, (0, 0, 0), (1, -1, 1))
            with self.assertRaises(ValueError):
                c.add_ellipsoid((0, 0, 0), (1, 1, 1), (0, 0, 1))
            sphere.remove()
            self.assertStatus(out, sphere.set_friction, 0.1)
            self.assertStatus(out, sphere.set_thickness, 0.1)
            self.assertStatus(out, sphere.remove)
            c.step(1 / 60)

    def body(self):
        """A cloth draped over three colliders of different kinds."""
        c = clothsim.Cloth.grid(8, 8, spacing=0.05, origin=(-0.175, 0.3, -0.175))
        colliders = [
            c.add_sphere((0.0, 0.0, 0.0), 0.2),
            c.add_capsule((-0.2, -0.1, 0.0), (0.2, -0.1, 0.0), 0.1),
            c.add_convex(box_planes((0.1, 0.1, 0.1), (0.0, -0.3, 0.0))),
        ]
        return c, colliders

    def test_set_collider_transforms_equals_individual_calls(self):
        positions = [(0.0, 0.05, 0.0), (0.0, -0.05, 0.1), (0.1, -0.2, 0.0)]
        rotations = [(0.0, 0.0, 0.0, 1.0), (0.0, 0.6, 0.0, 0.8), (0.0, 0.0, 0.28, 0.96)]
        with self.pair() as (batch, one, colliders_b, colliders_1):
            for frame in range(6):
                moved = [(x + 0.01 * frame, y, z) for (x, y, z) in positions]
                if frame % 3 == 0:
                    batch.set_collider_transforms(colliders_b, moved, rotations)
                    for col, p, q in zip(colliders_1, moved, rotations):
                        col.set_transform(p, q)
                elif frame % 3 == 1:  # ids, positions only
                    batch.set_collider_transforms([int(col) for col in colliders_b], positions=moved)
                    for col, p in zip(colliders_1, moved):
                        col.set_transform(position=p)
                else:  # rotations only, as a flat list
                    batch.set_collider_transforms(colliders_b, rotations=[v for q in rotations for v in q])
                    for col, q in zip(colliders_1, rotations):
                        col.set_transform(rotation=q)
                self.assertEqual([col.transform() for col in colliders_b], [col.transform() for col in colliders_1])
                batch.step(1 / 60)
                one.step(1 / 60)
                self.assertEqual(batch.state_hash(), one.state_hash())
                self.assertEqual(batch.save_state(), one.save_state())
            # an id given twice takes its last pose; none at all is a no-op
            first = colliders_b[0]
            batch.set_collider_transforms([first, first], [(1.0, 0.0, 0.0), (2.0, 0.0, 0.0)])
            self.assertEqual(first.transform()[0], (2.0, 0.0, 0.0))
            batch.set_collider_transforms([])
            batch.set_collider_transforms([], [], [])
            if np is not None:
                batch.set_collider_transforms(
                    np.array([int(col) for col in colliders_b], dtype=np.uint32),
                    np.array(positions, dtype=np.float64),
                    np.array(rotations, dtype=np.float32),
                )
                self.assertEqual(colliders_b[2].transform()[0], tuple(map(f32, positions[2])))

    def test_set_collider_transforms_refusals_move_nothing(self):
        invalid, out_of_range = Status.ERR_INVALID_ARGUMENT, Status.ERR_OUT_OF_RANGE
        c, colliders = self.body()
        with c:
            poses = [col.transform() for col in colliders]
            before = c.save_state()
            where = [(0.5, 0.5, 0.5)] * 3
            turn = [(0.0, 0.0, 0.0, 1.0)] * 3
            self.assertStatus(invalid, c.set_collider_transforms, colliders, where[:2] + [(math.nan, 0.0, 0.0)])
            self.assertStatus(invalid, c.set_collider_transforms, colliders, where, turn[:2] + [(0.0, 0.0, 0.0, 2.0)])
            self.assertStatus(invalid, c.set_collider_transforms, colliders, None, [(0.0, 0.0, 0.0, 0.0)] * 3)
            self.assertStatus(out_of_range, c.set_collider_transforms, colliders + [999], where + [(0.0, 0.0, 0.0)])
            self.assertStatus(out_of_range, c.set_collider_transforms, [2**40], where[:1])
            # every pose is checked before any id: a bad pose for an unknown id is invalid
            self.assertStatus(invalid, c.set_collider_transforms, [colliders[0], 999], [(0, 0, 0), (math.inf, 0, 0)])
            with self.assertRaises(ValueError):
                c.set_collider_transforms(colliders, where[:2])
            with self.assertRaises(ValueError):
                c.set_collider_transforms(colliders, None, turn + turn)
            with self.assertRaises(ValueError):
                c.set_collider_transforms(colliders, [(0.0, 0.0)] * 3)
            self.assertEqual([col.transform() for col in colliders], poses)
            self.assertEqual(c.save_state(), before)
            colliders[1].remove()
            before = c.save_state()
            self.assertStatus(out_of_range, c.set_collider_transforms, colliders, where)
            self.assertEqual([col.transform() for col in (colliders[0], colliders[2])], [poses[0], poses[2]])
            self.assertEqual(c.save_state(), before)

    def pair(self):
        """Two identical bodies in a context manager: (cloth, cloth, colliders, colliders)."""
        test = self

        class Pair:
            def __enter__(self):
                self.a, self.ca = test.body()
                self.b, self.cb = test.body()
                return self.a, self.b, self.ca, self.cb

            def __exit__(self, *exc):
                self.a.close()
                self.b.close()
                return False

        return Pair()

    def test_cloth_rests_on_sphere_and_floor(self):
        r, th = 0.3, 0.02
        with clothsim.Cloth.grid(16, 16, spacing=0.05, origin=(-0.375, 0.8, -0.375)) as c:
            c.add_sphere((0, 0.3, 0), r, friction=0.3, thickness=th)
            floor = c.add_plane((0, 0, 0), (0, 1, 0), thickness=0.005)
            floor.set_friction(0.6)
            for _ in range(180):
                c.step(1 / 60)
            pos = rows_of(c.positions())
            for x, y, z in pos:
                self.assertGreaterEqual(y, 0.005 - 1e-5)
                self.assertGreaterEqual(math.sqrt(x * x + (y - 0.3) ** 2 + z * z), r + th - 1e-4)
            mid = pos[8 * 16 + 8]
            self.assertAlmostEqual(mid[1], 0.3 + r + th, delta=0.02)  # on the sphere's top


def box_planes(h, centre=(0.0, 0.0, 0.0)):
    """The six planes (nx, ny, nz, d) of a box of half-sizes h about centre."""
    planes = []
    for axis in range(3):
        for sign in (1.0, -1.0):
            n = [0.0, 0.0, 0.0]
            n[axis] = sign
            planes.append(tuple(n) + (-(h[axis] + sign * centre[axis]),))
    return planes


def box_mesh(h, centre=(0.0, 0.0, 0.0)):
    """A closed box as 8 vertices and 12 triangles, counter-clockwise seen
    from outside."""
    vertices = [
        tuple(centre[k] + (h[k] if (i >> k) & 1 else -h[k]) for k in range(3)) for i in range(8)
    ]
    triangles = []
    for axis in range(3):
        b, c = (axis + 1) % 3, (axis + 2) % 3
        for side in (0, 1):
            quad = []
            for q in ((0, 0), (1, 0), (1, 1), (0, 1)):
                bits = [0, 0, 0]
                bits[axis], bits[b], bits[c] = side, q[0], q[1]
                quad.append(bits[0] | bits[1] << 1 | bits[2] << 2)
            if side == 0:
                quad.reverse()  # the -axis face: the other way round seen from outside
            triangles += [(quad[0], quad[1], quad[2]), (quad[0], quad[2], quad[3])]
    return vertices, triangles


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


class TestConvexAndTriangleMesh(unittest.TestCase, StatusAssertions):
    H = (0.2, 0.15, 0.2)
    TH = 0.01

    def drop_on(self, add):
        """A cloth dropped on the box that `add(cloth)` puts at the origin:
        every particle outside the grown box, the middle one on its top."""
        h, th = self.H, self.TH
        with clothsim.Cloth.grid(12, 12, spacing=0.05, origin=(-0.275, 0.5, -0.275)) as c:
            add(c)
            for _ in range(120):
                c.step(1 / 60)
            pos = rows_of(c.positions())
            for x, y, z in pos:
                self.assertTrue(all(math.isfinite(v) for v in (x, y, z)))
                inside = abs(x) < h[0] and abs(y) < h[1] + th - 2e-3 and abs(z) < h[2]
                self.assertFalse(inside, "particle inside the box at %r" % ((x, y, z),))
            for r in (5, 6):
                for col in (5, 6):
                    y = pos[r * 12 + col][1]
                    self.assertGreater(y, h[1])  # above the box's top ...
                    self.assertAlmostEqual(y, h[1] + th, delta=0.01)  # ... resting on it
            return pos

    def test_box_as_planes_catches_a_cloth(self):
        def add(c):
            box = c.add_convex(box_planes(self.H), friction=0.5, thickness=self.TH)
            self.assertIsInstance(box, clothsim.Collider)
            self.assertEqual(box.transform(), ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)))

        self.drop_on(add)

    def test_box_as_flat_planes_and_array(self):
        with clothsim.Cloth.grid(3, 3) as c:
            flat_planes = [v for p in box_planes(self.H) for v in p]
            c.add_convex(flat_planes)
            if np is not None:
                c.add_convex(np.array(box_planes(self.H), dtype=np.float64))
                c.add_convex(np.array(flat_planes, dtype=np.float32))

    def test_box_as_mesh_catches_a_cloth(self):
        vertices, triangles = box_mesh(self.H)

        def add(c):
            box = c.add_triangle_mesh(vertices, triangles, friction=0.5, thickness=self.TH)
            self.assertIsInstance(box, clothsim.Collider)

        self.drop_on(add)

    def test_box_as_mesh_arrays(self):
        if np is None:
            self.skipTest("numpy")
        vertices, triangles = box_mesh(self.H)
        with clothsim.Cloth.grid(3, 3) as c:
            # an interleaved vertex buffer: xyz then a normal, rows of 24 bytes, no copy
            vbo = np.zeros((8, 6), dtype=np.float32)
            vbo[:, 0:3] = vertices
            box = c.add_triangle_mesh(vbo[:, 0:3], np.array(triangles, dtype=np.int64))
            got = c.get_triangle_mesh_vertices(box)
            self.assertEqual(got.shape, (8, 3))
            self.assertEqual(got.dtype, np.float32)
            self.assertTrue((got == vbo[:, 0:3]).all())
            out = np.zeros((8, 6), dtype=np.float32)
            self.assertIs(c.get_triangle_mesh_vertices(box, out=out[:, 3:6]).base, out)
            self.assertTrue((out[:, 3:6] == vbo[:, 0:3]).all() and (out[:, 0:3] == 0).all())
            c.set_triangle_mesh_vertices(box, vbo[:, 0:3] + np.float32(0.5))
            self.assertTrue((c.get_triangle_mesh_vertices(box) == vbo[:, 0:3] + np.float32(0.5)).all())
            with self.assertRaises(TypeError):
                c.add_triangle_mesh(vertices, np.array(triangles, dtype=np.float32))

    def test_refusals(self):
        invalid, out_of_range = Status.ERR_INVALID_ARGUMENT, Status.ERR_OUT_OF_RANGE
        vertices, triangles = box_mesh(self.H)
        with clothsim.Cloth.grid(4, 4) as c:
            planes = box_planes(self.H)
            not_unit = [(2.0, 0.0, 0.0, -0.2)] + planes[1:]
            self.assertStatus(invalid, c.add_convex, not_unit)
            self.assertStatus(invalid, c.add_convex, planes[:3])  # fewer than 4
            self.assertStatus(invalid, c.add_convex, [])
            self.assertStatus(invalid, c.add_convex, planes * 11)  # 66, more than 64
            self.assertStatus(invalid, c.add_convex, planes[:5])  # open: no -z face
            self.assertStatus(invalid, c.add_convex, [(math.nan, 0.0, 0.0, 0.0)] + planes[1:])
            with self.assertRaises(ValueError):
                c.add_convex([1.0, 0.0, 0.0])  # not a multiple of 4
            with self.assertRaises(ValueError):
                c.add_convex([(1.0, 0.0, 0.0)] * 6)
            bad = list(triangles)
            bad[3] = (0, 1, 8)  # index out of range: 8 vertices
            self.assertStatus(invalid, c.add_triangle_mesh, vertices, bad)
            bad[3] = (0, 1, -1)
            self.assertStatus(invalid, c.add_triangle_mesh, vertices, bad)
            bad[3] = (0, 1, 2**32)
            self.assertStatus(invalid, c.add_triangle_mesh, vertices, bad)
            bad[3] = (0, 1, 1)  # repeated corner: degenerate
            self.assertStatus(invalid, c.add_triangle_mesh, vertices, bad)
            self.assertStatus(invalid, c.add_triangle_mesh, vertices, [])  # no triangle
            self.assertStatus(invalid, c.add_triangle_mesh, vertices[:2], [(0, 1, 0)])  # fewer than 3 vertices
            nan_vertex = [(math.nan, 0.0, 0.0)] + vertices[1:]
            self.assertStatus(invalid, c.add_triangle_mesh, nan_vertex, triangles)
            with self.assertRaises(ValueError):
                c.add_triangle_mesh(vertices, [(0, 1)])
            with self.assertRaises(TypeError):
                c.add_triangle_mesh(vertices, [(0, 1, 2.5)] if np is None else [(0.0, 1.0, 2.0)])
            # nothing was added by the refused calls
            box = c.add_triangle_mesh(vertices, triangles)
            sphere = c.add_sphere((0, -1, 0), 0.5)
            self.assertEqual(int(sphere), int(box) + 1)
            # set: a NaN, a flat triangle, the wrong count, not a mesh, removed, unknown
            moved = [(x, y + 0.25, z) for (x, y, z) in vertices]
            self.assertStatus(invalid, c.set_triangle_mesh_vertices, box, [(math.inf, 0, 0)] + moved[1:])
            self.assertStatus(invalid, c.set_triangle_mesh_vertices, box, [(0.0, 0.0, 0.0)] * 8)
            with self.assertRaises(ValueError):
                c.set_triangle_mesh_vertices(box, moved[:7])
            self.assertEqual(rows_of(c.get_triangle_mesh_vertices(box)), [tuple(map(f32, v)) for v in vertices])
            self.assertStatus(invalid, c.set_triangle_mesh_vertices, sphere, moved)
            self.assertStatus(invalid, c.get_triangle_mesh_vertices, sphere)
            self.assertStatus(out_of_range, c.set_triangle_mesh_vertices, 999, moved)
            self.assertStatus(out_of_range, c.get_triangle_mesh_vertices, 2**40)
            box.remove()
            self.assertStatus(out_of_range, c.set_triangle_mesh_vertices, box, moved)
            self.assertStatus(out_of_range, c.get_triangle_mesh_vertices, box)
            c.step(1 / 60)

    def test_set_get_vertices_round_trip(self):
        vertices, triangles = box_mesh(self.H, centre=(0.0, -1.0, 0.0))
        as_f32 = [tuple(map(f32, v)) for v in vertices]
        with clothsim.Cloth.grid(6, 6, spacing=0.05, origin=(-0.125, 0.0, -0.125)) as c:
            box = c.add_triangle_mesh(vertices, triangles, thickness=0.01)
            got = c.get_triangle_mesh_vertices(box)
            if np is None:
                self.assertIsInstance(got, list)
                self.assertIsInstance(got[0], tuple)
            self.assertEqual(rows_of(got), as_f32)  # bit for bit
            self.assertEqual(rows_of(c.get_triangle_mesh_vertices(int(box))), as_f32)
            # a skinned body: the box squashed and raised, heading there over the next step
            moved = [(1.5 * x, 0.5 * (y + 1.0) + 0.1, z) for (x, y, z) in vertices]
            c.set_triangle_mesh_vertices(box, moved)
            self.assertEqual(rows_of(c.get_triangle_mesh_vertices(box)), [tuple(map(f32, v)) for v in moved])
            c.step(1 / 60)
            self.assertEqual(rows_of(c.get_triangle_mesh_vertices(box)), [tuple(map(f32, v)) for v in moved])
            # the mesh's frame still moves rigidly on top of its vertices
            box.set_transform(position=(0.0, 0.5, 0.0))
            self.assertEqual(rows_of(c.get_triangle_mesh_vertices(box)), [tuple(map(f32, v)) for v in moved])
            for _ in range(3):
                c.step(1 / 60)
            for p in rows_of(c.positions()):
                self.assertTrue(all(math.isfinite(v) for v in p))


class TestIntegrators(unittest.TestCase, StatusAssertions):
    def test_every_integrator_by_name(self):
        names = {
            "euler": clothsim.Integrator.EXPLICIT_EULER,
            "explicit_euler": clothsim.Integrator.EXPLICIT_EULER,
            "trapezoid": clothsim.Integrator.TRAPEZOID,
            "verlet": clothsim.Integrator.VERLET,
            "pbd": clothsim.Integrator.PBD,
            "semirigid": clothsim.Integrator.SEMIRIGID,
            "Relaxation": clothsim.Integrator.RELAXATION,
            "xpbd": clothsim.Integrator.XPBD,
            "implicit_euler": clothsim.Integrator.IMPLICIT_EULER,
        }
        with clothsim.Cloth.grid(6, 6, v_axis=(0, -1, 0)) as c:
            c.pin(0)
            c.pin(5)
            for name, kind in names.items():
                before = rows_of(c.positions())
                c.set_integrator(name)
                self.assertEqual(c.integrator, kind, name)
                self.assertEqual(rows_of(c.positions()), before, "switching keeps positions")
                c.step(1 / 60)
                for p in rows_of(c.positions()):
                    self.assertTrue(all(math.isfinite(v) for v in p))
            c.set_integrator(clothsim.Integrator.PBD)
            c.set_integrator(int(clothsim.Integrator.VERLET))
            self.assertEqual(c.integrator, clothsim.Integrator.VERLET)


class TestFreeFall(unittest.TestCase):
    """An unpinned cloth with every spring off falls as a point mass: y(t) = y0 - g t^2 / 2.

    The first-order integrators lead by g h t / 2 (h the substep), the
    trapezoid rule is exact; v(t) = -g t for all of them. The cloth starts at
    the origin: PBD derives velocities from position differences, which lose
    float precision far from it (1.5 % of v at y = 10 m).
    """

    def fall(self, integrator, frames=30, dt=1 / 60, substeps=16):
        with clothsim.Cloth.grid(4, 4) as c:
            set_all_stiffness(c, 0)
            c.set_damping(0)
            c.set_substeps(substeps)
            c.set_integrator(integrator)
            for _ in range(frames):
                c.step(dt)
            t = frames * dt
            h = dt / substeps
            for (x, y, z), (vx, vy, vz) in zip(rows_of(c.positions()), rows_of(c.velocities())):
                # first order: within g h t of the continuous answer (Euler leads by half that)
                self.assertAlmostEqual(-y, 0.5 * G * t * t, delta=G * h * t, msg=integrator)
                self.assertAlmostEqual(vy, -G * t, delta=1e-3 * G * t, msg=integrator)
                if integrator == "pbd":
                    # PBD's constraints stay on (set_stiffness is the force model's):
                    # at rest length their corrections are the rounding of l - L0,
                    # up to an ulp of 0.05 m (3.7e-9 m) per substep, read as velocity
                    # through / h and kept: at most n ulp / h = 1.7e-3 m/s after
                    # n = 480 substeps; measured 1.0e-5 m/s (the roundings cancel)
                    self.assertAlmostEqual(vx, 0.0, delta=1e-4)
                    self.assertAlmostEqual(vz, 0.0, delta=1e-4)
                else:
                    self.assertEqual((vx, vz), (0.0, 0.0))
            return t, h

    def test_first_order_integrators(self):
        for integrator in ("euler", "verlet", "pbd"):
            self.fall(integrator)

    def test_trapezoid_is_exact_for_constant_acceleration(self):
        with clothsim.Cloth.grid(2, 2, origin=(0, 10, 0)) as c:
            set_all_stiffness(c, 0)
            c.set_damping(0)
            c.set_integrator("trapezoid")
            for _ in range(60):
                c.step(1 / 60)
            for _, y, _ in rows_of(c.positions()):
                self.assertAlmostEqual(10.0 - y, 0.5 * G, delta=2e-4)

    def test_gravity_vector_is_the_acceleration(self):
        with clothsim.Cloth.grid(2, 2) as c:
            set_all_stiffness(c, 0)
            c.set_damping(0)
            c.set_gravity((0, 0, -2.0))
            c.set_integrator("trapezoid")
            for _ in range(60):
                c.step(1 / 60)
            for (x, y, z), p0 in zip(rows_of(c.positions()), [(0, 0, 0), (0.05, 0, 0), (0, 0, 0.05), (0.05, 0, 0.05)]):
                self.assertAlmostEqual(y, 0.0, places=6)
                self.assertAlmostEqual(z - p0[2], -1.0, delta=1e-4)


class TestWind(unittest.TestCase):
    def test_callback_sees_every_particle_every_substep(self):
        calls = []

        def wind(time, positions):
            calls.append((time, positions))
            return [(0.0, 0.0, 0.0)] * len(positions)

        with clothsim.Cloth.grid(5, 7, origin=(1, 2, 3)) as c:
            c.set_substeps(4)
            initial = rows_of(c.positions())
            c.set_wind(wind)
            c.step(0.02)
            c.step(0.02)
            self.assertEqual(len(calls), 8)
            for k, (time, positions) in enumerate(calls):
                self.assertAlmostEqual(time, k * 0.005, places=6)
                self.assertEqual(len(positions), 35)
                if np is not None:
                    self.assertEqual(positions.shape, (35, 3))
            self.assertEqual(rows_of(calls[0][1]), initial)
            # The positions given are the state at that substep: the last call saw a fallen cloth.
            self.assertLess(rows_of(calls[-1][1])[0][1], initial[0][1])
            c.set_wind(None)
            c.step(0.02)
            self.assertEqual(len(calls), 8)

    def test_upward_wind_lifts_a_weightless_cloth(self):
        for form in ("uniform", "per-particle"):
            with clothsim.Cloth.grid(6, 6) as c:
                c.set_gravity((0, 0, 0))
                if form == "uniform":
                    c.set_wind(lambda t, p: (0.0, 5.0, 0.0))
                else:
                    c.set_wind(lambda t, p: [(0.0, 5.0, 0.0) for _ in p])
                for _ in range(10):
                    c.step(1 / 60)
                ys = [p[1] for p in rows_of(c.positions())]
                self.assertGreater(min(ys), 0.0, form)

    def test_callback_stays_alive_without_other_references(self):
        seen = []
        with clothsim.Cloth.grid(3, 3) as c:
            c.set_wind(lambda t, p: seen.append(len(p)) or (0, 0, 0))
            gc.collect()
            c.step(1 / 60)
            self.assertEqual(seen, [9] * 16)

    def test_exceptions_are_raised_from_step_not_in_c(self):
        class Boom(Exception):
            pass

        calls = []

        def bad(time, positions):
            calls.append(time)
            raise Boom("gust failed")

        with clothsim.Cloth.grid(4, 4) as c:
            c.set_wind(bad)
            with self.assertRaises(Boom):
                c.step(1 / 60)
            self.assertEqual(len(calls), 1, "not called again in the step that failed")
            for p in rows_of(c.positions()):
                self.assertTrue(all(math.isfinite(v) for v in p))
            c.set_wind(lambda t, p: (0, 0, 0))
            c.step(1 / 60)  # the error does not linger
            for bad_result, error in (
                (lambda t, p: None, TypeError),
                (lambda t, p: [(0, 0, 0)] * 3, ValueError),
                (lambda t, p: "wind", ValueError),
            ):
                c.set_wind(bad_result)
                with self.assertRaises(error):
                    c.step(1 / 60)
            with self.assertRaises(TypeError):
                c.set_wind(42)

    def test_constant_wind_and_air(self):
        with clothsim.Cloth.grid(4, 4) as c:
            c.set_constant_wind((1, 2, 3))
            c.set_air_density(1.0)
            c.set_drag_coefficient(1.0)
            c.set_lift_coefficient(0.5)
            c.step(1 / 60)
            with self.assertRaises(ClothError):
                c.set_air_density(-1)


def flat(values):
    """Every coordinate of (n, 3) results, as Python floats."""
    return [float(c) for row in values for c in row]


def max_abs_diff(a, b):
    return max(abs(x - y) for x, y in zip(flat(a), flat(b)))


def hanging_grid(rows=8, cols=8):
    """A vertical grid pinned at its two top corners (it stretches as it falls)."""
    c = clothsim.Cloth.grid(rows, cols, v_axis=(0, -1, 0))
    c.pin(0)
    c.pin(cols - 1)
    return c


class TestSmooth(unittest.TestCase, StatusAssertions):
    def test_counts_and_surface_of_a_5x5_grid(self):
        with clothsim.Cloth.grid(5, 5, v_axis=(0, -1, 0)) as c:
            c.pin(0)
            for _ in range(5):
                c.step(1 / 60)
            vertices, triangles = c.smooth_counts(2)
            self.assertEqual((vertices, triangles), (9 * 9, 2 * 8 * 8))
            surface = c.smooth(2)
            self.assertIsInstance(surface, clothsim.SmoothSurface)
            self.assertEqual(len(surface.positions), vertices)
            self.assertEqual(len(surface.normals), vertices)
            self.assertEqual(len(surface.triangles), triangles)
            self.assertTrue(all(math.isfinite(v) for v in flat(surface.positions)))
            for n in rows_of(surface.normals):
                self.assertAlmostEqual(math.sqrt(sum(v * v for v in n)), 1.0, places=5)
            # vertex (2r, 2c) is particle (r, c), bit for bit
            particles = rows_of(c.positions())
            smooth = rows_of(surface.positions)
            for r in range(5):
                for col in range(5):
                    self.assertEqual(smooth[(2 * r) * 9 + 2 * col], particles[r * 5 + col])
            # the index buffer follows cloth_get_triangles() on the 9 x 9 vertex grid
            self.assertEqual(rows_of(surface.triangles)[:2], [(0.0, 9.0, 1.0), (1.0, 9.0, 10.0)])
            self.assertTrue(all(0 <= i < vertices for t in rows_of(surface.triangles) for i in t))

    def test_level_one_is_the_particles(self):
        with clothsim.Cloth.grid(3, 4, origin=(1, 2, 3)) as c:
            surface = c.smooth(1, normals=False, triangles=False)
            self.assertEqual(rows_of(surface.positions), rows_of(c.positions()))
            self.assertIsNone(surface.normals)
            self.assertIsNone(surface.triangles)

    def test_refusals(self):
        invalid = Status.ERR_INVALID_ARGUMENT
        with clothsim.Cloth.grid(4, 4) as c:
            for level in (0, clothsim.SMOOTH_MAX_LEVEL + 1, 2**32 + 1):
                self.assertStatus(invalid, c.smooth_counts, level)
                self.assertStatus(invalid, c.smooth, level)
            self.assertEqual(c.smooth_counts(clothsim.SMOOTH_MAX_LEVEL)[0], (3 * 16 + 1) ** 2)
        with clothsim.Cloth.mesh(TestMesh.QUAD, TestMesh.TRIS) as m:
            self.assertStatus(Status.ERR_UNSUPPORTED, m.smooth_counts, 2)
            self.assertStatus(Status.ERR_UNSUPPORTED, m.smooth, 2)
        with clothsim.Cloth.grid(1, 5) as line:  # a single row has no surface
            self.assertEqual(line.smooth_counts(3), (0, 0))
            self.assertEqual(len(line.smooth(3).positions), 0)

    @unittest.skipUnless(np is not None, "numpy path")
    def test_numpy_out_is_written_in_place(self):
        with clothsim.Cloth.grid(3, 3) as c:
            n = c.smooth_counts(3)[0]
            vbo = np.full((n, 8), -7.0, dtype=np.float32)
            surface = c.smooth(3, out=vbo[:, 0:3], normals_out=vbo[:, 3:6], triangles=False)
            self.assertTrue(np.shares_memory(surface.positions, vbo))
            np.testing.assert_array_equal(vbo[:, 0:3], c.smooth(3).positions)
            np.testing.assert_array_equal(vbo[:, 6:], -7.0)  # padding untouched
            np.testing.assert_allclose(vbo[:, 4], 1.0, atol=1e-6)  # +y normals of the flat grid
            self.assertEqual(surface.triangles, None)
            with self.assertRaises(ValueError):
                c.smooth(3, out=np.empty((n - 1, 3), np.float32))


class TestSprings(unittest.TestCase):
    def test_a_3x3_grid(self):
        s = 0.05
        with clothsim.Cloth.grid(3, 3, spacing=s) as c:
            springs = c.springs()
            self.assertIsInstance(springs, clothsim.Springs)
            self.assertEqual(len(springs.pairs), c.spring_count)
            types = [int(t) for t in springs.types]
            # grouped by family, structural first: 12 structural, 8 shear, 6 bend
            self.assertEqual(types, [0] * 12 + [1] * 8 + [2] * 6)
            self.assertEqual(tuple(c.stats().spring_count), (12, 8, 6))
            expected = {0: s, 1: s * math.sqrt(2), 2: 2 * s}
            pos = rows_of(c.positions())
            for (i, j), rest, t in zip(rows_of(springs.pairs), springs.rest_lengths, types):
                self.assertAlmostEqual(float(rest), expected[t], places=6)
                d = math.dist(pos[int(i)], pos[int(j)])
                self.assertAlmostEqual(d, float(rest), places=6)
            if np is not None:
                self.assertEqual((springs.pairs.shape, springs.pairs.dtype), ((26, 2), np.uint32))
                self.assertEqual(springs.rest_lengths.dtype, np.float32)
            else:
                self.assertIsInstance(springs.types[0], clothsim.SpringType)


class TestStats(unittest.TestCase):
    def test_every_field_of_cloth_stats(self):
        c_fields = [name for name, _ in clothsim._lib.StatsStruct._fields_]
        fields = [f.name for f in __import__("dataclasses").fields(clothsim.Stats)]
        self.assertEqual(fields, [f for f in c_fields if f not in ("struct_size", "reserved")])

    def test_counters_and_measurements(self):
        with hanging_grid(6, 5) as c:
            fresh = c.stats()
            self.assertEqual((fresh.steps, fresh.step_seconds, fresh.contacts), (0, 0.0, 0))
            used = (fresh.step_max_strain, fresh.substeps_used, fresh.iterations_used, fresh.limit_passes_used)
            self.assertEqual(used, (0.0, 0, 0, 0))
            self.assertEqual(sum(fresh.spring_count), c.spring_count)
            self.assertGreater(fresh.memory_bytes, 0)
            for _ in range(7):
                c.step(1 / 60)
            st = c.stats()
            self.assertEqual(st.steps, 7)
            self.assertGreater(st.step_seconds, 0.0)
            self.assertEqual((st.watchdog_tripped, st.watchdog_trips), (0, 0))
            self.assertGreater(st.max_strain[0], 0.0, "a hanging cloth is stretched")
            for t in range(3):
                self.assertLessEqual(st.min_strain[t], st.mean_strain[t])
                self.assertLessEqual(st.mean_strain[t], st.max_strain[t])
            # kinetic energy of the free particles, 0.01 kg each
            ke = sum(0.5 * 0.01 * sum(v * v for v in vel) for i, vel in enumerate(rows_of(c.velocities())) if i not in (0, 4))
            self.assertAlmostEqual(st.kinetic_energy, ke, delta=1e-4 * ke)
            # what the step took: the defaults, no strain limit
            self.assertEqual((st.substeps_used, st.iterations_used, st.limit_passes_used), (16, 8, 0))
            self.assertGreater(st.step_max_strain, 0.0)
            self.assertLessEqual(st.step_max_strain, max(st.max_strain[:2]) + 1e-6)

    def test_what_the_step_took(self):
        with hanging_grid(6, 5) as c:
            c.set_integrator("pbd")
            c.set_substeps(4)
            c.set_iterations(3)
            c.set_strain_limit(0.1, 2)
            c.step(1 / 60)
            st = c.stats()
            self.assertEqual((st.substeps_used, st.iterations_used, st.limit_passes_used), (4, 3, 2))
            # automatic: the library's choice, at least one of each
            c.set_substeps(0)
            c.set_iterations(0)
            c.set_strain_limit(0.1, 0)
            self.assertEqual(c.strain_limit[1], 0)
            c.step(1 / 60)
            st = c.stats()
            self.assertGreater(st.substeps_used, 0)
            self.assertGreater(st.iterations_used, 0)
            self.assertGreater(st.limit_passes_used, 0)


class TestMaterial(unittest.TestCase, StatusAssertions):
    NAMES = ("cotton", "silk", "denim", "leather", "jersey", "rubber")

    def test_every_preset_has_a_density(self):
        self.assertEqual([p.name.lower() for p in clothsim.MaterialPreset], list(self.NAMES))
        for preset in clothsim.MaterialPreset:
            m = clothsim.Material.preset(preset)
            self.assertIsInstance(m, clothsim.Material)
            self.assertGreater(m.density, 0.0, preset.name)
            self.assertGreater(m.stretch_modulus, 0.0, preset.name)
            self.assertGreaterEqual(m.max_strain, 0.0, preset.name)
            self.assertEqual(clothsim.material(preset.name.lower()), m)
            self.assertEqual(clothsim.material(int(preset)), m)
        # two rows of material.h's table
        denim = clothsim.material("denim")
        self.assertAlmostEqual(denim.density, 0.40, places=6)
        self.assertEqual(denim.stretch_modulus, 8500.0)
        self.assertAlmostEqual(clothsim.material("rubber").max_strain, 0.05, places=6)

    def test_an_unknown_preset_has_density_zero_and_is_refused(self):
        invalid = Status.ERR_INVALID_ARGUMENT
        for value in (6, -1, 99, 2**31, 2**32 + 1):  # 2**32 + 1 must not wrap onto silk
            self.assertEqual(clothsim.Material.preset(value).density, 0.0, value)
        with self.assertRaises(ValueError):
            clothsim.material("tweed")
        with clothsim.Cloth.grid(4, 4) as c:
            self.assertStatus(invalid, c.set_material, 6)
            self.assertStatus(invalid, c.set_material, clothsim.Material.preset(99))
            bad = clothsim.material("cotton")
            bad.max_strain = 11.0
            self.assertStatus(invalid, c.set_material, bad)
            bad = clothsim.material("cotton")
            bad.density = -1.0
            self.assertStatus(invalid, c.set_material, bad)
            with self.assertRaises(ValueError):
                c.set_material("tweed")
            with self.assertRaises(TypeError):
                c.set_material(1.5)
            self.assertIsNone(c.material, "refused materials change nothing")

    def test_set_material_then_get_material_round_trips(self):
        with clothsim.Cloth.grid(5, 5, spacing=0.02) as c:
            self.assertIsNone(c.material, "a cloth that never had one")
            denim = clothsim.Material.preset("denim")
            denim.max_strain = 0.0625  # float32-exact, so the round trip is too
            denim.damping = 0.5
            c.set_material(denim)
            self.assertEqual(c.material, denim)
            # what it set: tethers at 1 + max_strain, the limit with automatic passes
            self.assertEqual(c.tethers, 1.0625)
            self.assertEqual(c.strain_limit, (0.0625, 0))
            self.assertEqual(c.tether_schedule, "last_substep")
            # by name and by enum
            c.set_material("silk")
            self.assertEqual(c.material, clothsim.material("silk"))
            c.set_material(clothsim.MaterialPreset.RUBBER)
            self.assertEqual(c.material, clothsim.material("rubber"))
            unbounded = clothsim.Material.preset("rubber")
            unbounded.max_strain = 0.0
            c.set_material(unbounded)
            self.assertEqual(c.strain_limit, (0.0, 0), "no stretch bound")
            self.assertEqual(c.tethers, 0.0)

    def test_stats_after_a_step_on_a_material(self):
        with hanging_grid(8, 8) as c:
            c.set_integrator("xpbd")
            c.set_material("cotton")
            c.set_substeps(0)
            for _ in range(3):
                c.step(1 / 60)
            st = c.stats()
            self.assertGreater(st.substeps_used, 0)
            self.assertGreater(st.iterations_used, 0)
            self.assertGreater(st.limit_passes_used, 0, "cotton's max_strain turns the limit on")
            self.assertTrue(math.isfinite(st.step_max_strain))

    def test_from_a_hook_it_is_busy(self):
        recorded = []

        def meddle(time, positions, velocities):
            try:
                cloth.set_material("denim")
            except ClothError as exc:
                recorded.append(exc.status)
            return (0.0, 0.0, 0.0)

        with clothsim.Cloth.grid(3, 3) as cloth:
            cloth.set_substeps(1)
            cloth.set_external_force(meddle)
            cloth.step(1 / 60)
            self.assertEqual(recorded, [Status.ERR_BUSY])
            self.assertIsNone(cloth.material)


class TestSnapshots(unittest.TestCase, StatusAssertions):
    def test_round_trip_restores_the_hash(self):
        with hanging_grid() as c:
            c.add_sphere((0.2, -0.5, 0.1), 0.1)
            for _ in range(5):
                c.step(1 / 60)
            snapshot = c.save_state()
            self.assertIsInstance(snapshot, bytes)
            self.assertEqual(len(snapshot), c.state_size())
            self.assertEqual(c.state_size(), 72 + 28 * 64 + 32 * 2 + 152 * 1)
            saved = c.state_hash()
            self.assertIsInstance(saved, int)
            self.assertTrue(0 < saved < 2**64)
            for _ in range(5):
                c.step(1 / 60)
            later = c.state_hash()
            self.assertNotEqual(later, saved)
            c.load_state(snapshot)
            self.assertEqual(c.state_hash(), saved)
            for _ in range(5):  # the same steps from the same state: the same bits
                c.step(1 / 60)
            self.assertEqual(c.state_hash(), later)
            c.load_state(bytearray(snapshot))
            c.load_state(memoryview(snapshot))
            self.assertEqual(c.state_hash(), saved)

    def worn(self):
        """A cape worn in a moving frame, on its skin with backstops, over a
        triangle-mesh collider: every section a version 3 snapshot has."""
        c = clothsim.Cloth.grid(6, 6, spacing=0.05, v_axis=(0, -1, 0))
        n = c.particle_count
        c.set_inertia(0.5, 0.25)
        c.set_skin_targets(c.positions())
        c.set_max_distances([0.0] * 6 + [0.08] * (n - 6))
        c.set_skin_normals([(0.0, 0.0, 1.0)] * n)
        c.set_backstops([(0.01, 1.0)] * n)
        vertices, triangles = box_mesh((0.1, 0.1, 0.1), (0.125, -0.15, -0.15))
        c.add_triangle_mesh(vertices, triangles, thickness=0.01)
        return c

    def animate(self, c, frames, start=0):
        for k in range(start, start + frames):
            c.set_frame((0.02 * k, 0.0, 0.0), (0.0, math.sin(0.01 * k), 0.0, math.cos(0.01 * k)))
            targets = [(x + 0.001 * k, y, z) for (x, y, z) in rows_of(c.positions())]
            c.set_skin_targets(targets)
            c.set_skin_normals([(0.0, math.sin(0.02 * k), math.cos(0.02 * k))] * c.particle_count)
            c.step(1 / 60)

    def test_round_trip_of_a_worn_cloth_with_frame_and_backstops(self):
        with self.worn() as c, self.worn() as twin, clothsim.Cloth.grid(6, 6, spacing=0.05) as bare:
            self.animate(c, 5)
            snapshot = c.save_state()
            self.assertEqual(struct.unpack_from("<I", snapshot, 8)[0], 3)  # the extended format
            self.assertEqual(len(snapshot), c.state_size())
            saved = c.state_hash()
            self.animate(c, 5, start=5)
            later = c.state_hash()
            self.assertNotEqual(later, saved)
            c.load_state(snapshot)
            self.assertEqual(c.state_hash(), saved)
            self.assertEqual(c.save_state(), snapshot)  # skin, backstops, frame and mesh: bit for bit
            self.animate(c, 5, start=5)
            self.assertEqual(c.state_hash(), later)  # the same steps again: the same bits
            # a twin built the same way takes it too, and goes on the same way
            twin.load_state(snapshot)
            self.assertEqual(twin.save_state(), snapshot)
            self.animate(twin, 5, start=5)
            self.assertEqual(twin.state_hash(), later)
            # a cloth without the mesh collider is another cloth: refused, unchanged
            bare_state = bare.save_state()
            self.assertStatus(Status.ERR_INVALID_ARGUMENT, bare.load_state, snapshot)
            self.assertEqual(bare.save_state(), bare_state)

    def test_bad_snapshots_change_nothing(self):
        with hanging_grid() as c, clothsim.Cloth.grid(4, 4) as other:
            snapshot = c.save_state()
            c.step(1 / 60)
            h = c.state_hash()
            corrupted = bytearray(snapshot)
            corrupted[100] ^= 1
            invalid = Status.ERR_INVALID_ARGUMENT
            for bad in (bytes(corrupted), snapshot[:-1], b"", other.save_state()):
                self.assertStatus(invalid, c.load_state, bad)
                self.assertEqual(c.state_hash(), h)
            self.assertStatus(invalid, other.load_state, snapshot)
            with self.assertRaises(TypeError):
                c.load_state("CLTHSNAP")


class TestWatchdog(unittest.TestCase, StatusAssertions):
    def test_restore_refuses_the_step_and_keeps_the_state(self):
        with hanging_grid() as c:
            c.set_watchdog(max_strain=1e-6, action="restore")
            h = c.state_hash()
            err = self.assertStatus(Status.ERR_UNSTABLE, c.step, 1 / 60)
            self.assertEqual(err.function, "cloth_step")
            self.assertEqual(c.state_hash(), h)
            st = c.stats()
            self.assertEqual(st.steps, 0)
            self.assertEqual(st.watchdog_trips, 1)
            self.assertTrue(st.watchdog_tripped & clothsim.WATCHDOG_TRIPPED_STRAIN)
            self.assertFalse(st.watchdog_tripped & clothsim.WATCHDOG_TRIPPED_ENERGY)
            self.assertGreater(st.watchdog_max_strain, 1e-6)
            c.set_watchdog()  # off
            c.step(1 / 60)
            self.assertNotEqual(c.state_hash(), h)

    def test_report_lets_the_step_stand(self):
        with hanging_grid() as c:
            c.set_watchdog(0, 1e-9, clothsim.WatchdogAction.REPORT)
            c.step(1 / 60)
            st = c.stats()
            self.assertEqual((st.steps, st.watchdog_trips), (1, 1))
            self.assertEqual(st.watchdog_tripped, clothsim.WATCHDOG_TRIPPED_ENERGY)
            self.assertGreater(st.watchdog_kinetic_energy, 1e-9)

    def test_refusals(self):
        invalid = Status.ERR_INVALID_ARGUMENT
        with clothsim.Cloth.grid(3, 3) as c:
            self.assertStatus(invalid, c.set_watchdog, -1.0)
            self.assertStatus(invalid, c.set_watchdog, 0.1, float("nan"))
            self.assertStatus(invalid, c.set_watchdog, 0.1, 0, 7)
            with self.assertRaises(ValueError):
                c.set_watchdog(0.1, 0, "panic")


class TestBendingAndJacobi(unittest.TestCase, StatusAssertions):
    def unfold(self, k_bend):
        """A 2 x 3 grid folded 90 degrees along its middle column, without gravity,
        shear or bend springs: only the hinges resist folding. Returns the
        distance between the ends of its first row after a second (flat: 0.1 m)."""
        s = 0.05
        with clothsim.Cloth.grid(2, 3, spacing=s) as c:
            c.set_gravity((0, 0, 0))
            c.set_damping(1.0)
            c.set_stiffness("shear", 0)
            c.set_stiffness("bend", 0)
            c.set_bending_stiffness(k_bend)
            c.set_positions([(0, 0, 0), (s, 0, 0), (s, s, 0), (0, 0, s), (s, 0, s), (s, s, s)])
            for _ in range(60):
                c.step(1 / 60)
            p = rows_of(c.positions())
            return math.dist(p[0], p[2])

    def test_bending_unfolds_a_fold(self):
        self.assertAlmostEqual(self.unfold(0.0), 0.05 * math.sqrt(2), delta=1e-4)  # nothing resists
        self.assertGreater(self.unfold(0.001), 0.095)
        with clothsim.Cloth.grid(3, 3) as c:
            self.assertStatus(Status.ERR_INVALID_ARGUMENT, c.set_bending_stiffness, -1)
            self.assertStatus(Status.ERR_INVALID_ARGUMENT, c.set_bending_stiffness, float("inf"))

    def test_jacobi_weight(self):
        def run(weight):
            with hanging_grid() as c:
                c.set_integrator("pbd")
                if weight is not None:
                    c.set_jacobi_weight(weight)
                for _ in range(5):
                    c.step(1 / 60)
                return c.state_hash()

        self.assertEqual(run(None), run(0.2), "0.2 is the default")
        self.assertNotEqual(run(5.0), run(0.2))
        with clothsim.Cloth.grid(3, 3) as c:
            self.assertStatus(Status.ERR_INVALID_ARGUMENT, c.set_jacobi_weight, 101)
            self.assertStatus(Status.ERR_INVALID_ARGUMENT, c.set_jacobi_weight, -0.1)


class TestThreads(unittest.TestCase, StatusAssertions):
    """64 x 64 is big enough for the pool to split the spring-force pass
    (ranges of at least 2048 particles: two here)."""

    def run_steps(self, threads):
        with hanging_grid(64, 64) as c:
            self.assertEqual(c.threads, 1)
            c.set_threads(threads)
            self.assertEqual(c.threads, threads)
            for _ in range(10):
                c.step(1 / 60)
            return c.state_hash()

    def test_two_threads_give_the_same_bits(self):
        self.assertEqual(self.run_steps(2), self.run_steps(1))

    def test_thread_count(self):
        with clothsim.Cloth.grid(3, 3) as c:
            c.threads = 3
            self.assertEqual(c.threads, 3)
            c.set_threads(1)
            for bad in (0, clothsim.MAX_THREADS + 1, 2**32 + 2):
                self.assertStatus(Status.ERR_INVALID_ARGUMENT, c.set_threads, bad)
            self.assertEqual(c.threads, 1)


class TestSimdLevel(unittest.TestCase, StatusAssertions):
    """Every vector level the CPU runs gives the same bits; the level in use
    is reported, never BEST; a level the CPU lacks is refused and changes
    nothing."""

    def run_steps(self, level):
        with hanging_grid(40, 40) as c:
            c.add_sphere((0.5, -1.0, 0.15), 0.3, friction=0.5)
            c.set_simd_level(level)
            for _ in range(10):
                c.step(1 / 60)
            return c.state_hash()

    def test_levels(self):
        with clothsim.Cloth.grid(3, 3) as c:
            best = c.simd_level
            self.assertNotEqual(best, clothsim.SimdLevel.BEST)
            reference = self.run_steps("scalar")
            for level in clothsim.SimdLevel:
                if level == clothsim.SimdLevel.BEST or level <= best:
                    c.simd_level = level
                    self.assertEqual(c.simd_level, best if level == clothsim.SimdLevel.BEST else level)
                    self.assertEqual(self.run_steps(level), reference, level.name)
                else:
                    c.set_simd_level("scalar")
                    self.assertStatus(Status.ERR_UNSUPPORTED, c.set_simd_level, level)
                    self.assertEqual(c.simd_level, clothsim.SimdLevel.SCALAR)
            self.assertStatus(Status.ERR_INVALID_ARGUMENT, c.set_simd_level, 7)
            self.assertRaises(ValueError, c.set_simd_level, "mmx")


class TestTaskHooks(unittest.TestCase, StatusAssertions):
    """96 x 96 is big enough for the grid's spring forces and the collider
    pass to be handed to the hooks (a task needs more items than its min_range)."""

    STEPS = 4

    def reference_hash(self):
        with hanging_grid(96, 96) as c:
            for _ in range(self.STEPS):
                c.step(1 / 60)
            return c.state_hash()

    def test_inline_hooks_give_the_same_bits(self):
        seen = []

        def enqueue(task, item_count, min_range):
            seen.append((task.item_count, item_count, min_range))
            for begin in range(0, item_count, min_range):  # in ranges of min_range, as a scheduler would
                task(begin, min(begin + min_range, item_count), 0)
            return None

        with hanging_grid(96, 96) as c:
            c.set_task_hooks(enqueue)
            for _ in range(self.STEPS):
                c.step(1 / 60)
            self.assertEqual(c.state_hash(), self.reference_hash())
        self.assertGreater(len(seen), 0, "the hooks were called")
        for task_items, items, min_range in seen:
            self.assertEqual(task_items, items)
            self.assertGreater(items, min_range)

    def test_a_thread_pool_gives_the_same_bits(self):
        from concurrent.futures import ThreadPoolExecutor, wait

        workers = 3
        calls = {"enqueue": 0, "finish": 0}
        with ThreadPoolExecutor(workers) as pool:

            def enqueue(task, item_count, min_range):
                calls["enqueue"] += 1
                n = max(1, min(workers, item_count // min_range))
                bounds = [item_count * k // n for k in range(n + 1)]
                return [pool.submit(task, bounds[k], bounds[k + 1], k) for k in range(n)]

            def finish(futures):
                calls["finish"] += 1
                wait(futures)  # every range returns before finish does, even if one raised
                for f in futures:
                    f.result()

            with hanging_grid(96, 96) as c:
                c.set_task_hooks(enqueue, finish, worker_count=workers)
                for _ in range(self.STEPS):
                    c.step(1 / 60)
                self.assertEqual(c.state_hash(), self.reference_hash())
        self.assertGreater(calls["enqueue"], 0)
        self.assertEqual(calls["finish"], calls["enqueue"])

    def test_skipping_an_item_is_a_broken_contract(self):
        with hanging_grid(96, 96) as c:
            c.set_task_hooks(lambda task, n, min_range: task(0, n - 1, 0))  # the last item never runs
            h = c.state_hash()
            self.assertStatus(Status.ERR_TASK_CONTRACT, c.step, 1 / 60)
            self.assertEqual(c.state_hash(), h, "the state before the step is kept")
            c.set_task_hooks(lambda task, n, min_range: task(0, n, 1))  # worker 1 of 1
            self.assertStatus(Status.ERR_TASK_CONTRACT, c.step, 1 / 60)
            c.set_task_hooks(None)
            c.step(1 / 60)
            self.assertNotEqual(c.state_hash(), h)

    def test_an_exception_refuses_the_step_and_is_raised(self):
        class Boom(Exception):
            pass

        kept = []

        def enqueue(task, n, min_range):
            kept.append(task)
            raise Boom("scheduler down")

        with hanging_grid(96, 96) as c:
            c.set_task_hooks(enqueue)
            h = c.state_hash()
            with self.assertRaises(Boom):
                c.step(1 / 60)
            self.assertEqual(c.state_hash(), h)
            self.assertEqual(len(kept), 1, "the rest of the step did not call the hook")
            with self.assertRaises(RuntimeError):
                kept[0](0, 1, 0)  # a task is dead once its work is over
            c.set_task_hooks(lambda task, n, min_range: "handle")  # a handle but no finish hook
            with self.assertRaises(TypeError):
                c.step(1 / 60)
            self.assertEqual(c.state_hash(), h)

    def test_refusals(self):
        with clothsim.Cloth.grid(3, 3) as c:
            invalid = Status.ERR_INVALID_ARGUMENT
            self.assertStatus(invalid, c.set_task_hooks, lambda *a: None, None, 0)
            self.assertStatus(invalid, c.set_task_hooks, lambda *a: None, None, clothsim.MAX_THREADS + 1)
            with self.assertRaises(TypeError):
                c.set_task_hooks(42)
            with self.assertRaises(TypeError):
                c.set_task_hooks(None, lambda h: None)


class TestExternalForce(unittest.TestCase, StatusAssertions):
    MASS = 0.01

    def test_an_upward_m_g_keeps_a_free_cloth_at_rest(self):
        calls = []

        def hold_up(time, positions, velocities):
            calls.append((time, len(positions), len(velocities)))
            return (0.0, self.MASS * G, 0.0)

        with clothsim.Cloth.grid(4, 4, mass=self.MASS) as c, clothsim.Cloth.grid(4, 4, mass=self.MASS) as falling:
            start = rows_of(c.positions())
            c.set_external_force(hold_up)
            for _ in range(10):
                c.step(1 / 60)
                falling.step(1 / 60)
            for v in flat(c.velocities()):
                self.assertAlmostEqual(v, 0.0, delta=1e-5)
            self.assertLess(max_abs_diff(c.positions(), start), 1e-6)
            self.assertLess(rows_of(falling.positions())[0][1], -0.1, "without the force it falls")
            self.assertEqual(len(calls), 160, "once per substep")
            self.assertAlmostEqual(calls[1][0], 1 / 960, places=6)
            self.assertEqual(calls[0][1:], (16, 16))
            c.set_external_force(None)
            c.step(1 / 60)
            self.assertEqual(len(calls), 160)
            self.assertLess(rows_of(c.positions())[0][1], 0.0)

    def test_per_particle_forces_and_what_the_hook_sees(self):
        seen = []

        def push(time, positions, velocities):
            seen.append((rows_of(positions), rows_of(velocities)))
            return [(1.0, 0.0, 0.0) if i == 5 else (0.0, 0.0, 0.0) for i in range(len(positions))]

        with clothsim.Cloth.grid(3, 3, mass=1.0) as c:
            for k in ("structural", "shear", "bend"):
                c.set_stiffness(k, 0)
            c.set_gravity((0, 0, 0))
            c.set_damping(0)
            c.pin(4)
            vel = [(0.0, 0.0, 0.5)] * 9
            c.set_velocities(vel)
            c.set_external_force(push)
            c.step(0.1)
            v = rows_of(c.velocities())
            self.assertAlmostEqual(v[5][0], 0.1, places=5)  # 1 N on 1 kg for 0.1 s
            self.assertAlmostEqual(v[3][0], 0.0, places=7)
            self.assertEqual(seen[0][0], [tuple(p) for p in rows_of(clothsim.Cloth.grid(3, 3).positions())])
            self.assertEqual(seen[0][1][0], (0.0, 0.0, 0.5))

    def test_calling_back_into_the_cloth_is_busy(self):
        recorded = []

        def meddle(time, positions, velocities):
            for call in (lambda: cloth.set_damping(0.5), lambda: cloth.step(0.01), cloth.close):
                try:
                    call()
                except ClothError as exc:
                    recorded.append(exc.status)
            recorded.append(len(cloth.positions()))  # reading works mid-step
            return (0.0, 0.0, 0.0)

        with clothsim.Cloth.grid(3, 3) as cloth:
            cloth.set_substeps(1)
            cloth.set_external_force(meddle)
            cloth.step(1 / 60)
            self.assertEqual(recorded, [Status.ERR_BUSY, Status.ERR_BUSY, Status.ERR_BUSY, 9])
            self.assertFalse(cloth.closed)
            cloth.set_damping(0.5)  # and works again after the step

    def test_exceptions_and_bad_results_are_raised_from_step(self):
        with clothsim.Cloth.grid(3, 3) as c:
            c.set_external_force(lambda t, p, v: 1 / 0)
            with self.assertRaises(ZeroDivisionError):
                c.step(1 / 60)
            for bad, error in ((lambda t, p, v: None, TypeError), (lambda t, p, v: [(0, 0, 0)] * 2, ValueError)):
                c.set_external_force(bad)
                with self.assertRaises(error):
                    c.step(1 / 60)
            c.set_external_force(lambda t, p, v: (0.0, float("nan"), 0.0))
            self.assertStatus(Status.ERR_UNSTABLE, c.step, 1 / 60)
            with self.assertRaises(TypeError):
                c.set_external_force("up")

    def test_callback_stays_alive_without_other_references(self):
        seen = []
        with clothsim.Cloth.grid(3, 3) as c:
            c.set_external_force(lambda t, p, v: seen.append(t) or (0, 0, 0))
            gc.collect()
            c.step(1 / 60)
            self.assertEqual(len(seen), 16)


class PythonEuler(clothsim.CustomIntegrator):
    """The built-in explicit (symplectic) Euler, written in Python:
    v' = (v + (g m + w f) h) d, x' = x + v' h, with m = 0 for pinned particles."""

    name = "python-euler"

    def __init__(self):
        self.log = []

    def create(self):
        self.log.append("create")

    def destroy(self):
        self.log.append("destroy")

    def step(self, view):
        self.log.append((view.substep, view.substeps, view.h, view.count))
        gx, gy, gz = view.gravity
        h, d = view.h, view.velocity_decay
        if np is not None:
            w = view.inv_mass
            m = (w > 0).astype(np.float32)
            h32, d32 = np.float32(h), np.float32(d)
            for v, x, f, g in ((view.vx, view.x, view.fx, gx), (view.vy, view.y, view.fy, gy), (view.vz, view.z, view.fz, gz)):
                v[:] = (v + (np.float32(g) * m + w * f) * h32) * d32
                x += v * h32
            return None
        for i in range(view.count):
            w = view.inv_mass[i]
            m = 1.0 if w > 0 else 0.0
            for v, x, f, g in ((view.vx, view.x, view.fx, gx), (view.vy, view.y, view.fy, gy), (view.vz, view.z, view.fz, gz)):
                v[i] = (v[i] + (g * m + w * f[i]) * h) * d
                x[i] += v[i] * h
        return None


class TestCustomIntegrator(unittest.TestCase, StatusAssertions):
    def test_python_euler_matches_the_built_in_one(self):
        euler = PythonEuler()
        with hanging_grid(6, 6) as mine, hanging_grid(6, 6) as builtin, hanging_grid(6, 6) as start:
            mine.set_custom_integrator(euler)
            self.assertEqual(mine.integrator, clothsim.Integrator.CUSTOM)
            self.assertEqual(euler.log, ["create"])
            gc.collect()  # the table and its callbacks live as long as it is installed
            for _ in range(5):
                mine.step(1 / 60)
                builtin.step(1 / 60)
            self.assertLess(max_abs_diff(mine.positions(), builtin.positions()), 1e-5)
            self.assertLess(max_abs_diff(mine.velocities(), builtin.velocities()), 1e-4)
            if np is not None:  # float32 arithmetic in the library's order: the same bits
                self.assertEqual(mine.state_hash(), builtin.state_hash())
            self.assertGreater(max_abs_diff(mine.positions(), start.positions()), 2e-3, "it sagged")
            steps = [e for e in euler.log if isinstance(e, tuple)]
            self.assertEqual(len(steps), 5 * 16)
            self.assertEqual([s[0] for s in steps[:16]], list(range(16)))
            self.assertEqual(steps[0][1], 16)
            self.assertAlmostEqual(steps[0][2], 1 / 960, places=9)
            self.assertEqual(steps[0][3], 36)
            mine.set_integrator("euler")
            self.assertEqual(mine.integrator, clothsim.Integrator.EXPLICIT_EULER)
            self.assertEqual(euler.log[-1], "destroy")

    def test_forces_arrive_only_when_asked_for(self):
        sums = []

        class Probe(clothsim.CustomIntegrator):
            wants_spring_forces = False

            def step(self, view):
                sums.append(sum(abs(float(f)) for f in view.fy))
                if np is not None:
                    self_test.assertFalse(view.fy.flags.writeable)
                    self_test.assertTrue(view.y.flags.writeable)

        self_test = self
        with hanging_grid(4, 4) as c:
            c.step(1 / 60)  # stretched springs
            c.set_custom_integrator(Probe())
            c.step(1 / 60)
            self.assertEqual(set(sums), {0.0})
            Probe.wants_spring_forces = True
            c.set_custom_integrator(Probe())
            c.step(1 / 60)
            self.assertGreater(max(sums), 0.0)

    def test_failures_abandon_the_step(self):
        class Refuses(clothsim.CustomIntegrator):
            def step(self, view):
                return Status.ERR_UNSTABLE

        class Raises(clothsim.CustomIntegrator):
            def step(self, view):
                view.y[0] = 123.0  # changed, then rolled back
                raise KeyError("integrator bug")

        class BadCreate(clothsim.CustomIntegrator):
            def create(self):
                raise ValueError("no")

            def step(self, view):
                pass

        with hanging_grid(4, 4) as c:
            c.step(1 / 60)
            h = c.state_hash()
            c.set_custom_integrator(Refuses())
            self.assertStatus(Status.ERR_UNSTABLE, c.step, 1 / 60)
            self.assertEqual(c.state_hash(), h)
            c.set_custom_integrator(Raises())
            with self.assertRaises(KeyError):
                c.step(1 / 60)
            self.assertEqual(c.state_hash(), h)
            c.set_integrator("verlet")
            with self.assertRaises(ValueError):
                c.set_custom_integrator(BadCreate())
            self.assertEqual(c.integrator, clothsim.Integrator.VERLET, "a failed create keeps the old one")
            with self.assertRaises(TypeError):
                c.set_custom_integrator(object())


def main():
    skip = os.environ.get("CLOTHSIM_FFI_SKIP")
    if skip:
        print("skipped: " + skip)
        return SKIP_CODE
    expect = os.environ.get("CLOTHSIM_EXPECT_NUMPY")
    if expect == "1" and not clothsim.HAVE_NUMPY:
        print("skipped: numpy cannot be imported by %s (apt-get install python3-numpy)" % sys.executable)
        return SKIP_CODE
    if expect == "0" and clothsim.HAVE_NUMPY:
        print("CLOTHSIM_NO_NUMPY was not honoured: numpy is in use")
        return 1
    print(
        "clothsim %d.%d.%d from %s, %s"
        % (clothsim.version() + (clothsim.library_path(), "numpy" if clothsim.HAVE_NUMPY else "no numpy"))
    )
    program = unittest.main(exit=False, verbosity=1)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
