"""CI's run of the bench: drape-16 for a few frames, to prove the program
works, not to time it. Checks that every configuration printed one JSON line
with the fields the figures are read from, that the XPBD fast setup meets
the quality bar at this size, and that 1 and 2 threads gave the same result
(the library promises the same bits, so the quality figures must match to
the last printed digit). The same cloth as a mesh (--mesh) and as an
irregular Delaunay mesh (--delaunay) prints its line with its scene's name
and the same figures on 1 and 2 threads. With bench/cape as well: a 12 x 12 cape against
two capsules for a few steps prints its line, with a time and contacts;
bench/character: a skinned 8 x 8 cape on the running figure prints its line;
and bench/mesh_collider: drape-16 over a 112-triangle ball, still and
breathing, with contacts and nothing inside the mesh.

Usage: smoke_test.py path/to/drape [path/to/cape [path/to/character [path/to/mesh_collider]]]
"""
import json
import subprocess
import sys

FIELDS = ("n", "integrator", "threads", "substeps", "iterations", "quality_ok", "ms_per_frame",
          "cpu_ms_per_frame", "particle_substeps_per_s", "mean_stretch", "max_stretch",
          "max_stretch_last_s", "max_penetration_m", "closest_to_sphere_m", "bytes_per_particle",
          "strain_limit", "limit_passes", "why")

cmd = [sys.argv[1], "--sizes", "16", "--frames", "120", "--runs", "1", "--integrators", "xpbd,verlet",
       "--threads", "1,2", "--substeps", "16", "--iterations", "1", "--tethers", "1", "--stiffness", "1e4",
       "--strain-limit", "0.05", "--limit-passes", "2"]
out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
rows = [json.loads(line) for line in out.splitlines() if line.strip()]
failures = []
if len(rows) != 4:
    failures.append("expected 4 lines (2 integrators x 2 thread counts), got %d" % len(rows))
for r in rows:
    missing = [f for f in FIELDS if f not in r]
    if missing:
        failures.append("%s/%s threads: missing %s" % (r.get("integrator"), r.get("threads"), missing))
xpbd = {r["threads"]: r for r in rows if r.get("integrator") == "xpbd"}
if set(xpbd) != {1, 2}:
    failures.append("xpbd rows for threads 1 and 2 expected, got %s" % sorted(xpbd))
else:
    one, two = xpbd[1], xpbd[2]
    if not one["quality_ok"]:
        failures.append("xpbd fast setup fails the quality bar at N=16: " + one["why"])
    if one["ms_per_frame"] <= 0 or one["bytes_per_particle"] <= 0:
        failures.append("xpbd: no time or no memory figure")
    for f in ("mean_stretch", "max_stretch", "max_stretch_last_s", "max_penetration_m", "closest_to_sphere_m"):
        if one[f] != two[f]:
            failures.append("xpbd %s differs between 1 and 2 threads: %s vs %s" % (f, one[f], two[f]))
for r in rows:
    print("N=%d %-6s threads %d: quality %s (mean %.4f, max %.4f), %.3f ms/frame, %.1f B/particle" % (
        r["n"], r["integrator"], r["threads"], "ok" if r["quality_ok"] else "FAILS (" + r["why"] + ")",
        r["mean_stretch"], r["max_stretch"], r["ms_per_frame"], r["bytes_per_particle"]))
for kind in ("--mesh", "--delaunay"):
    mesh_out = subprocess.run([sys.argv[1], kind, "--sizes", "16", "--frames", "60", "--runs", "1",
                               "--integrators", "xpbd", "--threads", "1,2"],
                              check=True, capture_output=True, text=True).stdout
    mesh_rows = [json.loads(line) for line in mesh_out.splitlines() if line.strip()]
    scene = "drape-" + kind[2:]
    if len(mesh_rows) != 2 or any(r.get("scene") != scene or "error" in r for r in mesh_rows):
        failures.append("%s: expected two %s lines, got %s" % (kind, scene, mesh_out.strip()))
        continue
    one, two = mesh_rows
    if one["max_stretch"] != two["max_stretch"] or one["mean_stretch"] != two["mean_stretch"]:
        failures.append("%s: stretch differs between 1 and 2 threads" % kind)
    print("N=16 %s: max stretch %.4f over its edges, %.3f ms/frame" % (scene, one["max_stretch"],
                                                                        max(one["ms_per_frame"], 0.0)))
if len(sys.argv) > 2:
    cape = subprocess.run([sys.argv[2], "--rows", "12", "--capsules", "2", "--runs", "1", "--steps", "10"],
                          check=True, capture_output=True, text=True).stdout
    line = json.loads(cape.strip().splitlines()[-1])
    missing = [f for f in ("rows", "capsules", "us_per_step", "best_us_per_step", "contacts") if f not in line]
    if missing:
        failures.append("cape: missing %s" % missing)
    elif not (line["us_per_step"] > 0 and line["contacts"] > 0):
        failures.append("cape: no time or no contacts: %s" % line)
    else:
        print("cape 12 x 12, 2 capsules: %.1f us a step, %d contacts" % (line["us_per_step"], line["contacts"]))
if len(sys.argv) > 3:
    worn = subprocess.run([sys.argv[3], "--rows", "8", "--runs", "1", "--frames", "10", "--inertia", "0.5"],
                          check=True, capture_output=True, text=True).stdout
    line = json.loads(worn.strip().splitlines()[-1])
    missing = [f for f in ("particles", "shapes", "ms_per_frame", "substeps", "max_strain") if f not in line]
    if missing:
        failures.append("character: missing %s" % missing)
    elif not (line["ms_per_frame"] > 0 and line["particles"] == 64 and line["max_strain"] < 0.2):
        failures.append("character: no time, or a torn cape: %s" % line)
    else:
        print("character 8 x 8: %.3f ms a frame, worst link %.3f" % (line["ms_per_frame"], line["max_strain"]))
if len(sys.argv) > 4:
    for extra in ([], ["--deform"]):
        out = subprocess.run([sys.argv[4], "--n", "16", "--segments", "8", "--runs", "1"] + extra,
                             check=True, capture_output=True, text=True).stdout
        line = json.loads(out.strip().splitlines()[-1])
        missing = [f for f in ("triangles", "ms_no_collider", "ms_mesh", "contacts", "deepest_inside_mesh_m")
                   if f not in line]
        if missing:
            failures.append("mesh_collider: missing %s" % missing)
        elif not (line["ms_mesh"] > 0 and line["contacts"] > 0 and line["deepest_inside_mesh_m"] < 1e-5):
            failures.append("mesh_collider: no time, no contact or a particle inside: %s" % line)
        else:
            print("mesh collider, 16 x 16 on %d triangles%s: %.3f ms a frame, %d contacts, deepest %.2g m" % (
                line["triangles"], " (deforming)" if extra else "", line["ms_mesh"], line["contacts"],
                line["deepest_inside_mesh_m"]))
for f in failures:
    print("FAIL: " + f)
sys.exit(1 if failures else 0)
