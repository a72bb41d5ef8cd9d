#!/usr/bin/env python3
"""drape: the reference scene of seed 002, from Python.

A 1.24 m square of cotton, 32 x 32 particles, hangs by its four corners
above a sphere that stands on a floor. After a second the corners are let
go; the cloth falls, drapes over the sphere and settles. The material sets
the masses, stiffness, bending, stretch limit and damping; the library picks
the substeps. Once per simulated second the program prints where the cloth
is and how fast it moves, and at the end how it came to rest. It exits 1 if
the cloth ended inside the sphere or under the floor.

    CLOTHSIM_LIBRARY=build/libclothsim.so PYTHONPATH=python python3 examples/python/drape.py [integrator] [--wind]

integrator: xpbd (default), pbd, implicit. --wind adds a gusty breeze along
+x through a Python wind function. Works with or without numpy.
"""

import argparse
import math
import os
import sys

try:
    import clothsim
except ImportError:  # run from a source tree without PYTHONPATH
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "python"))
    import clothsim

ROWS = COLS = 32
SPACING = 0.04  # a 1.24 m square
SPHERE_CENTER = (0.0, 0.4, 0.0)
SPHERE_RADIUS = 0.4
SPHERE_THICKNESS = 0.08 * SPHERE_RADIUS  # seed 000: the cloth rests at 1.08 r
FLOOR_THICKNESS = 0.005
DT = 1.0 / 60.0
SECONDS = 8


def gusty_wind(time, positions):
    """A breeze along +x that swells and fades every two seconds, the same
    everywhere: 0.2 to 0.6 m/s, which stirs cotton (0.15 kg/m^2) on the sphere."""
    speed = 0.4 + 0.2 * math.sin(math.pi * time)
    return (speed, 0.0, 0.0)


def stats(cloth):
    """min y, mean y and the largest speed over all particles."""
    ys = [p[1] for p in cloth.positions()]
    speeds = [math.sqrt(vx * vx + vy * vy + vz * vz) for vx, vy, vz in cloth.velocities()]
    return min(ys), sum(ys) / len(ys), max(speeds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("integrator", nargs="?", default="xpbd", choices=["xpbd", "pbd", "implicit"])
    parser.add_argument("--wind", action="store_true", help="blow a gusty breeze through a Python callback")
    args = parser.parse_args()

    half = 0.5 * SPACING * (COLS - 1)
    with clothsim.Cloth.grid(ROWS, COLS, spacing=SPACING, origin=(-half, 1.2, -half)) as cloth:
        cloth.set_material("cotton")
        cloth.set_integrator(args.integrator)
        cloth.set_substeps(0)  # automatic
        cloth.set_iterations(0)
        cloth.add_sphere(SPHERE_CENTER, SPHERE_RADIUS, friction=0.4, thickness=SPHERE_THICKNESS)
        cloth.add_plane((0.0, 0.0, 0.0), (0.0, 1.0, 0.0), friction=0.6, thickness=FLOOR_THICKNESS)
        if args.wind:
            cloth.set_wind(gusty_wind)

        n = len(cloth)
        corners = [0, COLS - 1, n - COLS, n - 1]
        for corner in corners:
            cloth.pin(corner)

        print(
            "drape: %d particles of cotton, sphere r=%.2f m at y=%.2f, floor at y=0, 60 Hz, %s%s"
            " (clothsim %d.%d.%d, %s)"
            % (
                (n, SPHERE_RADIUS, SPHERE_CENTER[1], args.integrator, ", wind" if args.wind else "")
                + clothsim.version()
                + ("numpy" if clothsim.HAVE_NUMPY else "no numpy",)
            )
        )
        print("%6s %10s %10s %10s %12s" % ("t (s)", "min y", "mean y", "max |v|", "event"))
        for frame in range(1, SECONDS * 60 + 1):
            event = ""
            if frame == 60:
                # seed 002's keys 1-4, all at once: let go one a second, the
                # cotton hangs from its last corners off to one side and
                # slides off the sphere
                for corner in corners:
                    cloth.unpin(corner)
                event = "let go"
            cloth.step(DT)
            if frame % 60 == 0:
                min_y, mean_y, max_v = stats(cloth)
                print("%6.1f %10.3f %10.3f %10.3f %12s" % (frame * DT, min_y, mean_y, max_v, event))

        # How it came to rest: the middle particle on the sphere's top, nothing
        # inside the sphere or under the floor.
        positions = cloth.positions()
        mid = positions[(ROWS // 2) * COLS + COLS // 2]
        surface = SPHERE_RADIUS + SPHERE_THICKNESS
        inside = 0.0
        for x, y, z in positions:
            dx, dy, dz = x - SPHERE_CENTER[0], y - SPHERE_CENTER[1], z - SPHERE_CENTER[2]
            inside = max(inside, surface - math.sqrt(dx * dx + dy * dy + dz * dz), FLOOR_THICKNESS - y)
        print("middle particle at y=%.3f m (top of sphere + thickness: %.3f m)" % (mid[1], SPHERE_CENTER[1] + surface))
        print("deepest penetration of sphere or floor: %.2e m" % inside)
        if inside > 1e-3:
            print("error: the cloth ended inside a collider", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
