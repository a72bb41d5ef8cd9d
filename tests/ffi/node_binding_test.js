'use strict';
// Checks of examples/node/clothsim.js beyond the drape scene: errors carry the
// status, free fall follows 0.5 g t^2 to first order, the wind callback sees
// every particle and its exceptions come out of step(); then every function
// added with the rest of the API: meshes, colliders, parameters, the smooth
// surface, springs, snapshots and the state hash, statistics, the watchdog,
// threads, task hooks, the external force hook, a host integrator,
// materials, skin normals and backstops, many colliders moved at once, the
// snapshot of a worn cloth, painted stiffness, self-collision and its
// friction. Run by tests/ffi/run_node_example.cmake next to a copy of
// clothsim.js.

const assert = require('node:assert/strict');
const clothsim = require('./clothsim');

// Every check starts from the settings a cloth had before 0.3 (tests/test_util.h's
// test_plain()): explicit Euler at 16 substeps, no stretch guarantee, the watchdog
// off; 'the defaults of a new cloth' checks the library's own.
const libraryGrid = clothsim.Cloth.grid.bind(clothsim.Cloth);
const libraryMesh = clothsim.Cloth.mesh.bind(clothsim.Cloth);
function plain(cloth) {
  cloth.setIntegrator('euler');
  cloth.setSubsteps(16);
  cloth.setIterations(8);
  cloth.setDamping(0.2);
  cloth.setTethers(0);
  cloth.setTetherSchedule('every_substep');
  cloth.setStrainLimit(0, 0);
  cloth.setWatchdog();
  return cloth;
}
clothsim.Cloth.grid = (...args) => plain(libraryGrid(...args));
clothsim.Cloth.mesh = (...args) => plain(libraryMesh(...args));

const G = 9.81;
let checks = 0;
function check(name, fn) {
  fn();
  checks++;
  console.log(`ok ${checks} - ${name}`);
}

check('the defaults of a new cloth', () => {
  const cloth = libraryGrid(8, 8);
  assert.equal(cloth.integrator, 'xpbd');
  cloth.pin(0);
  cloth.step(1 / 60);
  const s = cloth.stats();
  // XPBD at 360 substeps a second, one sweep, the automatic limit within its 9 % guarantee
  assert.deepEqual([s.substepsUsed, s.iterationsUsed], [6, 1]);
  assert.ok(s.limitPassesUsed >= 1 && s.stepMaxStrain <= 0.09 * 1.01 + 1e-5);
  assert.equal(cloth.tethers, Math.fround(1.03));
  assert.deepEqual(cloth.strainLimit, [Math.fround(0.09), 0]);
  cloth.destroy();
});

check('bad dt is CLOTH_ERR_INVALID_ARGUMENT', () => {
  const cloth = clothsim.Cloth.grid(4, 4);
  for (const dt of [0, -1, NaN, Infinity, 2]) {
    assert.throws(() => cloth.step(dt), (e) => e instanceof clothsim.ClothError && e.status === clothsim.Status.ERR_INVALID_ARGUMENT);
  }
  assert.throws(() => cloth.pin(16), (e) => e.status === clothsim.Status.ERR_OUT_OF_RANGE);
  assert.throws(() => cloth.setIntegrator('rk4'), RangeError);
  assert.throws(() => cloth.step('x'), TypeError);
  cloth.destroy();
  cloth.destroy();
  assert.throws(() => cloth.step(0.01), /destroyed/);
});

check('free fall with the springs off', () => {
  const cloth = clothsim.Cloth.grid(3, 3);
  for (const t of ['structural', 'shear', 'bend']) cloth.setStiffness(t, 0);
  cloth.setDamping(0);
  const frames = 30;
  const dt = 1 / 60;
  for (let i = 0; i < frames; i++) cloth.step(dt);
  const t = frames * dt;
  const h = dt / 16;
  const p = cloth.positions();
  const v = cloth.velocities();
  for (let i = 0; i < cloth.count; i++) {
    assert.ok(Math.abs(-p[3 * i + 1] - 0.5 * G * t * t) <= G * h * t, `particle ${i} fell ${-p[3 * i + 1]}`);
    assert.ok(Math.abs(v[3 * i + 1] + G * t) <= 1e-3 * G * t);
  }
  cloth.destroy();
});

check('wind callback sees every particle once per substep', () => {
  const cloth = clothsim.Cloth.grid(5, 7, { origin: [1, 2, 3] });
  cloth.setSubsteps(4);
  const initial = Array.from(cloth.positions());
  const calls = [];
  cloth.setWind((time, positions) => {
    calls.push({ time, positions: Array.from(positions) });
    return [0, 0, 0];
  });
  cloth.step(0.02);
  assert.equal(calls.length, 4);
  calls.forEach((c, k) => {
    assert.ok(Math.abs(c.time - k * 0.005) < 1e-6);
    assert.equal(c.positions.length, 3 * 35);
  });
  assert.deepEqual(calls[0].positions, initial);
  cloth.setWind(null);
  cloth.step(0.02);
  assert.equal(calls.length, 4);
  cloth.destroy();
});

check('an exception in the wind callback is thrown by step()', () => {
  const cloth = clothsim.Cloth.grid(4, 4);
  let calls = 0;
  cloth.setWind(() => {
    calls++;
    throw new Error('gust failed');
  });
  assert.throws(() => cloth.step(1 / 60), /gust failed/);
  assert.equal(calls, 1);
  for (const x of cloth.positions()) assert.ok(Number.isFinite(x));
  cloth.setWind(() => [0, 5, 0]);
  cloth.step(1 / 60);
  cloth.setWind(() => [1, 2]);
  assert.throws(() => cloth.step(1 / 60), TypeError);
  cloth.destroy();
});

function hanging(rows, cols = rows) {
  const cloth = clothsim.Cloth.grid(rows, cols, { vAxis: [0, -1, 0] });
  cloth.pin(0);
  cloth.pin(cols - 1);
  return cloth;
}

function stepped(cloth, steps) {
  for (let i = 0; i < steps; i++) cloth.step(1 / 60);
  return cloth;
}

// The statuses a setter's call throws from inside the cloth's own step (its
// force hook), one substep: [ERR_BUSY] when the library refuses it.
function statusesFromHook(cloth, call) {
  const busy = [];
  cloth.setExternalForce(() => {
    try {
      call();
    } catch (e) {
      busy.push(e.status);
    }
    return [0, 0, 0];
  });
  cloth.setSubsteps(1);
  cloth.step(1 / 60);
  return busy;
}

const isStatus = (status) => (e) => e instanceof clothsim.ClothError && e.status === status;

check('a mesh, every collider and the parameters', () => {
  const quad = [[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1]];
  const mesh = clothsim.Cloth.mesh(quad, [[0, 2, 1], [1, 2, 3]], { inverseMasses: [0, 0, 100, 100] });
  assert.equal(mesh.count, 4);
  assert.deepEqual(Array.from(mesh.triangles()), [0, 2, 1, 1, 2, 3]);
  stepped(mesh, 10);
  const p = mesh.positions();
  assert.deepEqual(Array.from(p.slice(0, 6)), [0, 0, 0, 1, 0, 0]); // inverse mass 0 holds
  assert.ok(p[10] < 0);
  assert.throws(() => mesh.setIntegrator('semirigid'), isStatus(clothsim.Status.ERR_UNSUPPORTED));
  assert.throws(() => mesh.smoothCounts(2), isStatus(clothsim.Status.ERR_UNSUPPORTED));
  mesh.destroy();
  assert.throws(() => clothsim.Cloth.mesh(quad, [[0, 2, 7]]), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));

  const cloth = clothsim.Cloth.grid(4, 4);
  const colliders = [
    cloth.addSphere([0, -1, 0], 0.5),
    cloth.addPlane([0, -2, 0], [0, 1, 0]),
    cloth.addEllipsoid([1, -1, 0], [0.3, 0.2, 0.1], [0, 0, 0.6, 0.8]),
    cloth.addCapsule([0, -1, 0], [1, -1, 0], 0.1),
    cloth.addCylinder([0, -1, 0], [0, -1.5, 0], 0.2),
    cloth.addTorus([0, -3, 0], [0, 1, 0], 0.5, 0.1),
  ];
  assert.equal(new Set(colliders.map((c) => c.id)).size, 6);
  const pose = colliders[2].transform();
  assert.deepEqual(pose.position, [1, -1, 0]);
  assert.ok(Math.abs(pose.rotation[3] - 0.8) < 1e-6);
  colliders[0].setTransform([0, -1.25, 0]);
  assert.deepEqual(colliders[0].transform().position, [0, -1.25, 0]);
  assert.throws(() => cloth.addTorus([0, 0, 0], [0, 1, 0], 0.1, 0.5), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  colliders[0].remove();
  assert.throws(() => colliders[0].transform(), isStatus(clothsim.Status.ERR_OUT_OF_RANGE));

  assert.equal(cloth.integrator, 'euler');
  cloth.setIntegrator('pbd');
  assert.equal(cloth.integrator, 'pbd');
  cloth.setSpringDamping('shear', 0.002);
  cloth.setConstraintStiffness('bend', 0.5);
  cloth.setJacobiWeight(0.5);
  assert.throws(() => cloth.setJacobiWeight(101), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  cloth.setBendingStiffness(0.001);
  assert.throws(() => cloth.setBendingStiffness(-1), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  cloth.setTethers(1.25);
  assert.equal(cloth.tethers, 1.25);
  cloth.setTetherSchedule('last_substep');
  assert.equal(cloth.tetherSchedule, 'last_substep');
  cloth.setStrainLimit(0.1, 2);
  assert.deepEqual([Math.fround(0.1), 2], cloth.strainLimit);
  cloth.setStrainLevelSweeps(1);
  assert.equal(cloth.strainLevelSweeps, 1);
  cloth.setConstantWind([1, 0, 0]);
  cloth.setAirDensity(1.0);
  cloth.setDragCoefficient(1.0);
  cloth.setLiftCoefficient(0.5);
  stepped(cloth, 2);
  const pos = Array.from({ length: 16 }, (_, i) => [i, -i, 0.5 * i]);
  cloth.setPositions(pos);
  cloth.setVelocities(new Float32Array(48).fill(0.25));
  assert.deepEqual(Array.from(cloth.positions()), pos.flat());
  assert.deepEqual(Array.from(cloth.velocities()), new Array(48).fill(0.25));
  assert.throws(() => cloth.setPositions([[0, 0, 0]]), RangeError);
  cloth.destroy();
});

// A box of half-sizes h about the origin: its six planes, and 8 vertices and 12
// triangles counter-clockwise seen from outside.
function boxPlanes(h) {
  const planes = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [1, -1]) {
      const p = [0, 0, 0, -h[axis]];
      p[axis] = sign;
      planes.push(p);
    }
  }
  return planes;
}

function boxMesh(h) {
  const vertices = [];
  for (let i = 0; i < 8; i++) vertices.push([0, 1, 2].map((k) => ((i >> k) & 1 ? h[k] : -h[k])));
  const triangles = [];
  for (let axis = 0; axis < 3; axis++) {
    const b = (axis + 1) % 3;
    const c = (axis + 2) % 3;
    for (const side of [0, 1]) {
      const quad = [[0, 0], [1, 0], [1, 1], [0, 1]].map(([qb, qc]) => {
        const bits = [0, 0, 0];
        bits[axis] = side;
        bits[b] = qb;
        bits[c] = qc;
        return bits[0] | (bits[1] << 1) | (bits[2] << 2);
      });
      if (side === 0) quad.reverse();
      triangles.push([quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]);
    }
  }
  return { vertices, triangles };
}

check('a box as planes and as a triangle mesh catches a dropped cloth', () => {
  const h = [0.2, 0.15, 0.2];
  const th = 0.01;
  const { vertices, triangles } = boxMesh(h);
  const adders = {
    planes: (cloth) => cloth.addConvex(boxPlanes(h)),
    flatPlanes: (cloth) => cloth.addConvex(Float32Array.from(boxPlanes(h).flat())),
    mesh: (cloth) => cloth.addTriangleMesh(vertices, triangles),
    flatMesh: (cloth) => cloth.addTriangleMesh(Float32Array.from(vertices.flat()), Uint32Array.from(triangles.flat())),
  };
  for (const [name, add] of Object.entries(adders)) {
    const cloth = clothsim.Cloth.grid(12, 12, { spacing: 0.05, origin: [-0.275, 0.5, -0.275] });
    const box = add(cloth);
    assert.ok(box instanceof clothsim.Collider, name);
    box.setFriction(0.5).setThickness(th);
    stepped(cloth, 120);
    const p = cloth.positions();
    for (let i = 0; i < cloth.count; i++) {
      const [x, y, z] = p.slice(3 * i, 3 * i + 3);
      assert.ok([x, y, z].every(Number.isFinite), `${name}: particle ${i}`);
      const inside = Math.abs(x) < h[0] && Math.abs(y) < h[1] + th - 2e-3 && Math.abs(z) < h[2];
      assert.ok(!inside, `${name}: particle ${i} inside the box at ${x} ${y} ${z}`);
    }
    for (const i of [5 * 12 + 5, 5 * 12 + 6, 6 * 12 + 5, 6 * 12 + 6]) {
      const y = p[3 * i + 1];
      assert.ok(y > h[1] && Math.abs(y - (h[1] + th)) < 0.01, `${name}: particle ${i} at height ${y}, not on the box's top`);
    }
    cloth.destroy();
  }
});

check('convex and triangle-mesh refusals, mesh vertices set and read back', () => {
  const invalid = isStatus(clothsim.Status.ERR_INVALID_ARGUMENT);
  const outOfRange = isStatus(clothsim.Status.ERR_OUT_OF_RANGE);
  const h = [0.2, 0.15, 0.2];
  const planes = boxPlanes(h);
  const { vertices, triangles } = boxMesh(h);
  const cloth = clothsim.Cloth.grid(4, 4);
  assert.throws(() => cloth.addConvex([[2, 0, 0, -0.2], ...planes.slice(1)]), invalid); // not a unit normal
  assert.throws(() => cloth.addConvex(planes.slice(0, 3)), invalid); // fewer than 4
  assert.throws(() => cloth.addConvex([]), invalid);
  assert.throws(() => cloth.addConvex(Array(11).fill(planes).flat()), invalid); // 66, more than 64
  assert.throws(() => cloth.addConvex(planes.slice(0, 5)), invalid); // open: no -z face
  assert.throws(() => cloth.addConvex([1, 0, 0]), RangeError);
  const bad = triangles.map((t) => t.slice());
  bad[3] = [0, 1, 8]; // out of range: 8 vertices
  assert.throws(() => cloth.addTriangleMesh(vertices, bad), invalid);
  bad[3] = [0, 1, -1];
  assert.throws(() => cloth.addTriangleMesh(vertices, bad), invalid);
  bad[3] = [0, 1, 1]; // repeated corner: degenerate
  assert.throws(() => cloth.addTriangleMesh(vertices, bad), invalid);
  bad[3] = [0, 1, 2.5];
  assert.throws(() => cloth.addTriangleMesh(vertices, bad), TypeError);
  assert.throws(() => cloth.addTriangleMesh([[NaN, 0, 0], ...vertices.slice(1)], triangles), invalid);
  assert.throws(() => cloth.addTriangleMesh(vertices, []), invalid); // no triangle
  assert.throws(() => cloth.addTriangleMesh([0, 0], triangles), RangeError);

  const box = cloth.addTriangleMesh(vertices, triangles);
  const sphere = cloth.addSphere([0, -1, 0], 0.5);
  assert.equal(sphere.id, box.id + 1); // the refused calls added nothing
  const f32 = (rows) => Array.from(Float32Array.from(rows.flat()));
  assert.deepEqual(Array.from(cloth.getTriangleMeshVertices(box)), f32(vertices)); // bit for bit
  assert.deepEqual(Array.from(cloth.getTriangleMeshVertices(box.id)), f32(vertices));
  const moved = vertices.map(([x, y, z]) => [1.5 * x, 0.5 * y + 0.1, z]);
  cloth.setTriangleMeshVertices(box, moved);
  assert.deepEqual(Array.from(cloth.getTriangleMeshVertices(box)), f32(moved));
  stepped(cloth, 1);
  const out = new Float32Array(24);
  assert.equal(cloth.getTriangleMeshVertices(box, out), out);
  assert.deepEqual(Array.from(out), f32(moved));
  cloth.setTriangleMeshVertices(box, Float32Array.from(vertices.flat()));
  assert.deepEqual(Array.from(cloth.getTriangleMeshVertices(box)), f32(vertices));
  assert.throws(() => cloth.setTriangleMeshVertices(box, [[Infinity, 0, 0], ...moved.slice(1)]), invalid);
  assert.throws(() => cloth.setTriangleMeshVertices(box, Array(8).fill([0, 0, 0])), invalid); // every triangle flat
  assert.throws(() => cloth.setTriangleMeshVertices(box, moved.slice(0, 7)), RangeError);
  assert.deepEqual(Array.from(cloth.getTriangleMeshVertices(box)), f32(vertices)); // refusals changed nothing
  assert.throws(() => cloth.setTriangleMeshVertices(sphere, moved), invalid); // not a mesh
  assert.throws(() => cloth.getTriangleMeshVertices(sphere), invalid);
  assert.throws(() => cloth.setTriangleMeshVertices(999, moved), outOfRange);
  assert.throws(() => cloth.getTriangleMeshVertices(-1), outOfRange);
  box.remove();
  assert.throws(() => cloth.setTriangleMeshVertices(box, moved), outOfRange);
  assert.throws(() => cloth.getTriangleMeshVertices(box), outOfRange);
  stepped(cloth, 1);
  cloth.destroy();
});

check('smooth surface of a 5 x 5 grid', () => {
  const cloth = stepped(hanging(5), 5);
  assert.deepEqual(cloth.smoothCounts(2), { vertices: 81, triangles: 128 });
  const s = cloth.smooth(2);
  assert.equal(s.positions.length, 3 * 81);
  assert.equal(s.normals.length, 3 * 81);
  assert.equal(s.triangles.length, 3 * 128);
  assert.ok(s.positions.every(Number.isFinite));
  const p = cloth.positions();
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 5; c++) {
      const v = 2 * r * 9 + 2 * c;
      const i = r * 5 + c;
      assert.deepEqual(Array.from(s.positions.slice(3 * v, 3 * v + 3)), Array.from(p.slice(3 * i, 3 * i + 3)));
    }
  }
  assert.equal(cloth.smooth(2, { normals: false, triangles: false }).normals, null);
  assert.throws(() => cloth.smooth(0), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  assert.throws(() => cloth.smoothCounts(clothsim.SMOOTH_MAX_LEVEL + 1), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  cloth.destroy();
});

check('springs of a 3 x 3 grid, grouped by family', () => {
  const cloth = clothsim.Cloth.grid(3, 3, { spacing: 0.05 });
  const s = cloth.springs();
  assert.equal(s.restLengths.length, cloth.springCount);
  assert.deepEqual(Array.from(s.types), [...new Array(12).fill(0), ...new Array(8).fill(1), ...new Array(6).fill(2)]);
  const rest = [0.05, 0.05 * Math.SQRT2, 0.1];
  s.types.forEach((t, k) => assert.ok(Math.abs(s.restLengths[k] - rest[t]) < 1e-6));
  assert.ok(s.pairs.every((i) => i < 9));
  assert.deepEqual(cloth.stats().springCount, [12, 8, 6]);
  cloth.destroy();
});

check('statistics count the steps', () => {
  const cloth = hanging(6);
  const fresh = cloth.stats();
  assert.equal(fresh.steps, 0);
  assert.equal(fresh.stepSeconds, 0);
  assert.ok(fresh.memoryBytes > 0);
  assert.deepEqual(
    [fresh.stepMaxStrain, fresh.substepsUsed, fresh.iterationsUsed, fresh.limitPassesUsed],
    [0, 0, 0, 0],
  );
  stepped(cloth, 7);
  const s = cloth.stats();
  assert.equal(s.steps, 7);
  assert.ok(s.stepSeconds > 0);
  assert.ok(s.maxStrain[0] > 0);
  assert.ok(s.kineticEnergy > 0);
  assert.equal(s.watchdogTrips, 0);
  assert.deepEqual([s.substepsUsed, s.iterationsUsed, s.limitPassesUsed], [16, 8, 0]);
  assert.ok(s.stepMaxStrain > 0);
  cloth.setIntegrator('pbd');
  cloth.setSubsteps(4);
  cloth.setIterations(3);
  cloth.setStrainLimit(0.1, 2);
  const fixed = stepped(cloth, 1).stats();
  assert.deepEqual([fixed.substepsUsed, fixed.iterationsUsed, fixed.limitPassesUsed], [4, 3, 2]);
  cloth.setSubsteps(0); // automatic
  cloth.setIterations(0);
  cloth.setStrainLimit(0.1, 0);
  assert.deepEqual(cloth.strainLimit, [Math.fround(0.1), 0]);
  const auto = stepped(cloth, 1).stats();
  assert.ok(auto.substepsUsed > 0 && auto.iterationsUsed > 0 && auto.limitPassesUsed > 0);
  assert.throws(() => cloth.setSubsteps(1025), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  cloth.destroy();
});

check('material presets, refusals, a round trip and the stats of a step', () => {
  const names = ['cotton', 'silk', 'denim', 'leather', 'jersey', 'rubber'];
  assert.deepEqual(Object.keys(clothsim.MaterialPreset), names);
  for (const name of names) {
    const m = clothsim.Material.preset(name);
    assert.ok(m instanceof clothsim.Material);
    assert.ok(m.density > 0, name);
    assert.ok(m.stretchModulus > 0, name);
    assert.deepEqual(clothsim.material(clothsim.MaterialPreset[name]), m);
  }
  assert.equal(clothsim.material('denim').stretchModulus, 8500);
  assert.equal(clothsim.material('rubber').maxStrain, Math.fround(0.05));
  // an unknown preset: density 0, which setMaterial refuses
  for (const v of [6, -1, 99, 2 ** 32 + 1]) assert.equal(clothsim.Material.preset(v).density, 0, `preset ${v}`);
  assert.throws(() => clothsim.material('tweed'), RangeError);

  const cloth = clothsim.Cloth.grid(5, 5, { spacing: 0.02 });
  assert.equal(cloth.material, null); // never had one
  assert.throws(() => cloth.setMaterial(6), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  assert.throws(() => cloth.setMaterial(clothsim.Material.preset(99)), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  const tooStretchy = clothsim.material('cotton');
  tooStretchy.maxStrain = 11;
  assert.throws(() => cloth.setMaterial(tooStretchy), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  assert.throws(() => cloth.setMaterial({ density: 1 }), TypeError);
  assert.equal(cloth.material, null); // refusals change nothing

  const denim = clothsim.Material.preset('denim');
  denim.maxStrain = 0.0625; // float32-exact, so the round trip is too
  denim.damping = 0.5;
  cloth.setMaterial(denim);
  assert.deepEqual(cloth.material, denim);
  assert.equal(cloth.tethers, 1.0625);
  assert.deepEqual(cloth.strainLimit, [0.0625, 0]); // automatic passes
  cloth.setMaterial('silk');
  assert.deepEqual(cloth.material, clothsim.material('silk'));
  cloth.setMaterial(clothsim.MaterialPreset.rubber);
  assert.deepEqual(cloth.strainLimit, [Math.fround(0.05), 0]);
  const unbounded = clothsim.material('rubber');
  unbounded.maxStrain = 0;
  cloth.setMaterial(unbounded);
  assert.deepEqual(cloth.strainLimit, [0, 0]);
  cloth.destroy();

  const hung = hanging(8);
  hung.setIntegrator('xpbd');
  hung.setMaterial('cotton');
  hung.setSubsteps(0);
  const s = stepped(hung, 3).stats();
  assert.ok(s.substepsUsed > 0);
  assert.ok(s.iterationsUsed > 0);
  assert.ok(s.limitPassesUsed > 0);
  assert.ok(Number.isFinite(s.stepMaxStrain));
  // from a hook it is busy
  assert.deepEqual(statusesFromHook(hung, () => hung.setMaterial('denim')), [clothsim.Status.ERR_BUSY]);
  assert.deepEqual(hung.material, clothsim.material('cotton'));
  hung.destroy();
});

check('snapshots restore the state hash; bad ones change nothing', () => {
  const cloth = stepped(hanging(8), 5);
  const snapshot = cloth.saveState();
  assert.equal(snapshot.length, cloth.stateSize());
  assert.equal(snapshot.length, 72 + 28 * 64 + 32 * 2);
  const saved = cloth.stateHash();
  assert.equal(typeof saved, 'bigint');
  stepped(cloth, 5);
  const later = cloth.stateHash();
  assert.notEqual(later, saved);
  cloth.loadState(snapshot);
  assert.equal(cloth.stateHash(), saved);
  stepped(cloth, 5);
  assert.equal(cloth.stateHash(), later);
  const corrupted = Buffer.from(snapshot);
  corrupted[100] ^= 1;
  assert.throws(() => cloth.loadState(corrupted), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  assert.throws(() => cloth.loadState(snapshot.subarray(0, 50)), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  assert.equal(cloth.stateHash(), later);
  assert.throws(() => cloth.loadState('CLTHSNAP'), TypeError);
  cloth.destroy();
});

// A flat 6 x 6 sheet worn on its skin: targets where it starts, outward normals
// +y, free within 0.1 m; gravity pushes it backward (-y). With `backstop`
// ([distance, radius]) every particle has that ball behind it.
function sheet(backstop = null) {
  const cloth = clothsim.Cloth.grid(6, 6, { spacing: 0.05 });
  cloth.setSkinTargets(cloth.positions());
  cloth.setMaxDistances(new Array(cloth.count).fill(0.1));
  cloth.setSkinNormals(new Array(cloth.count).fill([0, 1, 0]));
  if (backstop !== null) cloth.setBackstops(new Array(cloth.count).fill(backstop));
  return cloth;
}

const heights = (cloth) => Array.from(cloth.positions()).filter((_, k) => k % 3 === 1);

check('a backstop keeps a skinned sheet from sinking deeper than its distance; refusals change nothing', () => {
  const free = stepped(sheet(), 60);
  for (const y of heights(free)) assert.ok(Math.abs(y + 0.1) < 1e-4, `free: ${y}`); // the max distance only
  free.destroy();
  for (const radius of [10, 0.5]) { // a plane 2 cm behind the skin, then a ball
    const cloth = stepped(sheet([0.02, radius]), 60);
    for (const y of heights(cloth)) {
      assert.ok(y >= -0.02 - 1e-4, `radius ${radius}: ${y} deeper than the backstop`);
      assert.ok(Math.abs(y + 0.02) < 1e-4, `radius ${radius}: ${y} not on the backstop`);
    }
    cloth.destroy();
  }
  const flat = sheet();
  flat.setBackstops(new Float32Array(2 * flat.count).fill(0.02).map((v, k) => (k % 2 ? 10 : v)));
  stepped(flat, 60);
  for (const y of heights(flat)) assert.ok(y >= -0.02 - 1e-4);
  flat.destroy();

  const invalid = isStatus(clothsim.Status.ERR_INVALID_ARGUMENT);
  const cloth = stepped(sheet([0.02, 10]), 1);
  const n = cloth.count;
  const before = cloth.saveState();
  const up = new Array(n).fill([0, 1, 0]);
  assert.throws(() => cloth.setSkinNormals([[0, 2, 0], ...up.slice(1)]), invalid); // not unit
  assert.throws(() => cloth.setSkinNormals([...up.slice(1), [NaN, 1, 0]]), invalid);
  assert.throws(() => cloth.setSkinNormals(up.slice(1)), RangeError);
  assert.throws(() => cloth.setBackstops(new Array(n).fill([0.02, -1])), invalid); // negative radius
  assert.throws(() => cloth.setBackstops(new Array(n).fill([NaN, 1])), invalid);
  assert.throws(() => cloth.setBackstops(new Array(n).fill([0.02, Infinity])), invalid);
  assert.throws(() => cloth.setBackstops(new Array(n - 1).fill([0.02, 1])), RangeError);
  assert.deepEqual(cloth.saveState(), before);
  cloth.setSkinNormals([...new Array(n - 1).fill([0, 0, 0]), [1, 0, 0]]); // 0: none
  cloth.setBackstops(new Array(n).fill([-0.05, 0]));
  assert.notDeepEqual(cloth.saveState(), before);
  cloth.destroy();
});

// A cloth over three colliders of different kinds.
function body() {
  const cloth = clothsim.Cloth.grid(8, 8, { spacing: 0.05, origin: [-0.175, 0.3, -0.175] });
  const box = boxPlanes([0.1, 0.1, 0.1]).map(([x, y, z, d]) => [x, y, z, d + 0.3 * y]); // about (0, -0.3, 0)
  const colliders = [
    cloth.addSphere([0, 0, 0], 0.2),
    cloth.addCapsule([-0.2, -0.1, 0], [0.2, -0.1, 0], 0.1),
    cloth.addConvex(box),
  ];
  return { cloth, colliders };
}

check('setColliderTransforms equals one setTransform per collider; refusals move nothing', () => {
  const batch = body();
  const one = body();
  const positions = [[0, 0.05, 0], [0, -0.05, 0.1], [0.1, -0.2, 0]];
  const rotations = [[0, 0, 0, 1], [0, 0.6, 0, 0.8], [0, 0, 0.28, 0.96]];
  for (let frame = 0; frame < 6; frame++) {
    const moved = positions.map(([x, y, z]) => [x + 0.01 * frame, y, z]);
    if (frame % 3 === 0) {
      batch.cloth.setColliderTransforms(batch.colliders, moved, rotations);
      one.colliders.forEach((c, k) => c.setTransform(moved[k], rotations[k]));
    } else if (frame % 3 === 1) { // ids, positions only, flat
      batch.cloth.setColliderTransforms(batch.colliders.map((c) => c.id), Float32Array.from(moved.flat()));
      one.colliders.forEach((c, k) => c.setTransform(moved[k]));
    } else { // rotations only
      batch.cloth.setColliderTransforms(batch.colliders, null, rotations);
      one.colliders.forEach((c, k) => c.setTransform(null, rotations[k]));
    }
    assert.deepEqual(batch.colliders.map((c) => c.transform()), one.colliders.map((c) => c.transform()));
    stepped(batch.cloth, 1);
    stepped(one.cloth, 1);
    assert.equal(batch.cloth.stateHash(), one.cloth.stateHash());
    assert.deepEqual(batch.cloth.saveState(), one.cloth.saveState());
  }
  const first = batch.colliders[0];
  batch.cloth.setColliderTransforms([first, first], [[1, 0, 0], [2, 0, 0]]); // the last pose wins
  assert.deepEqual(first.transform().position, [2, 0, 0]);
  batch.cloth.setColliderTransforms([]);

  const invalid = isStatus(clothsim.Status.ERR_INVALID_ARGUMENT);
  const outOfRange = isStatus(clothsim.Status.ERR_OUT_OF_RANGE);
  const { cloth, colliders } = one;
  const before = cloth.saveState();
  const where = [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]];
  assert.throws(() => cloth.setColliderTransforms(colliders, [...where.slice(0, 2), [NaN, 0, 0]]), invalid);
  assert.throws(() => cloth.setColliderTransforms(colliders, where, [[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 2]]), invalid);
  assert.throws(() => cloth.setColliderTransforms([...colliders, 999], [...where, [0, 0, 0]]), outOfRange);
  assert.throws(() => cloth.setColliderTransforms([colliders[0], 999], [[0, 0, 0], [Infinity, 0, 0]]), invalid); // poses first
  assert.throws(() => cloth.setColliderTransforms([-1], [[0, 0, 0]]), outOfRange);
  assert.throws(() => cloth.setColliderTransforms(colliders, where.slice(0, 2)), RangeError);
  assert.throws(() => cloth.setColliderTransforms(colliders, null, [[0, 0, 0, 1]]), RangeError);
  assert.deepEqual(cloth.saveState(), before);
  batch.cloth.destroy();
  cloth.destroy();
});

check('a worn cloth (frame, skin normals, backstops, mesh collider) saves version 3 and loads back', () => {
  const worn = () => {
    const cloth = clothsim.Cloth.grid(6, 6, { spacing: 0.05, vAxis: [0, -1, 0] });
    cloth.setInertia(0.5, 0.25);
    cloth.setSkinTargets(cloth.positions());
    cloth.setMaxDistances([...new Array(6).fill(0), ...new Array(cloth.count - 6).fill(0.08)]);
    cloth.setSkinNormals(new Array(cloth.count).fill([0, 0, 1]));
    cloth.setBackstops(new Array(cloth.count).fill([0.01, 1]));
    const { vertices, triangles } = boxMesh([0.1, 0.1, 0.1]);
    cloth.addTriangleMesh(vertices.map(([x, y, z]) => [x + 0.125, y - 0.15, z - 0.15]), triangles).setThickness(0.01);
    return cloth;
  };
  const animate = (cloth, from, frames) => {
    for (let k = from; k < from + frames; k++) {
      cloth.setFrame([0.02 * k, 0, 0], [0, Math.sin(0.01 * k), 0, Math.cos(0.01 * k)]);
      cloth.setSkinTargets(Array.from(cloth.positions(), (v, i) => (i % 3 === 0 ? v + 0.001 * k : v)));
      cloth.setSkinNormals(new Array(cloth.count).fill([0, Math.sin(0.02 * k), Math.cos(0.02 * k)]));
      cloth.step(1 / 60);
    }
  };
  const cloth = worn();
  animate(cloth, 0, 5);
  const snapshot = cloth.saveState();
  assert.equal(snapshot.readUInt32LE(8), 3);
  const saved = cloth.stateHash();
  animate(cloth, 5, 5);
  const later = cloth.stateHash();
  assert.notEqual(later, saved);
  cloth.loadState(snapshot);
  assert.equal(cloth.stateHash(), saved);
  assert.deepEqual(cloth.saveState(), snapshot);
  animate(cloth, 5, 5);
  assert.equal(cloth.stateHash(), later);
  const twin = worn();
  twin.loadState(snapshot);
  assert.deepEqual(twin.saveState(), snapshot);
  animate(twin, 5, 5);
  assert.equal(twin.stateHash(), later);
  cloth.destroy();
  twin.destroy();
});

check('stiffness scales: a round trip, refusals, and a strip painted stiffer stretches less', () => {
  const invalid = isStatus(clothsim.Status.ERR_INVALID_ARGUMENT);
  const cloth = clothsim.Cloth.grid(3, 3, { spacing: 0.1 });
  assert.deepEqual(Array.from(cloth.stiffnessScales()), new Array(9).fill(1)); // never painted
  for (const bad of [0, -0, -1, NaN, Infinity, -Infinity, 2e6]) {
    assert.throws(() => cloth.setStiffnessScales([...new Array(8).fill(1), bad]), invalid, `scale ${bad}`);
  }
  assert.deepEqual(Array.from(cloth.stiffnessScales()), new Array(9).fill(1)); // refusals change nothing
  assert.throws(() => cloth.setStiffnessScales(new Array(8).fill(1)), RangeError);
  assert.throws(() => cloth.stiffnessScales(new Float32Array(8)), RangeError);
  const painted = Float32Array.from([0.25, 0.5, 1, 1.5, 2, 4, 1e6, 1e-6, 3]); // 1e6: the most it takes
  cloth.setStiffnessScales(painted);
  assert.deepEqual(cloth.stiffnessScales(), painted);
  assert.throws(() => cloth.setStiffnessScales(new Array(9).fill(NaN)), invalid);
  assert.deepEqual(cloth.stiffnessScales(), painted);
  const out = new Float32Array(9);
  assert.equal(cloth.stiffnessScales(out), out);
  // from a hook it is busy
  assert.deepEqual(statusesFromHook(cloth, () => cloth.setStiffnessScales(new Array(9).fill(2))), [clothsim.Status.ERR_BUSY]);
  assert.deepEqual(cloth.stiffnessScales(), painted);
  cloth.destroy();
  assert.throws(() => cloth.stiffnessScales());

  // a soft strip 1 m long hung from its top row: its stretch goes as 1 / k
  const stretch = (scale) => {
    const [rows, cols] = [17, 3];
    const strip = clothsim.Cloth.grid(rows, cols, { spacing: 1 / 16, vAxis: [0, -1, 0] });
    strip.setIntegrator('implicit_euler');
    strip.setSubsteps(0);
    strip.setIterations(0);
    strip.setDamping(4);
    for (const t of ['structural', 'shear', 'bend']) strip.setStiffness(t, 20);
    for (let i = 0; i < cols; i++) strip.pin(i);
    if (scale !== null) strip.setStiffnessScales(new Array(rows * cols).fill(scale));
    stepped(strip, 240);
    const y = strip.positions()[3 * ((rows - 1) * cols + 1) + 1];
    strip.destroy();
    return -y - 1;
  };
  const unpainted = stretch(null);
  const stiff = stretch(4);
  assert.ok(unpainted > 0.005, `unpainted stretch ${unpainted}`);
  assert.equal(stretch(1), unpainted); // scales of 1: the unpainted bits
  assert.ok(stiff < unpainted);
  assert.ok(Math.abs(stiff / unpainted - 0.25) < 0.025, `stretch ratio ${stiff / unpainted}`);
});

check('self-collision: thickness round trip, refusals, and a dropped sheet keeps its layers apart', () => {
  const invalid = isStatus(clothsim.Status.ERR_INVALID_ARGUMENT);
  const cloth = clothsim.Cloth.grid(4, 4);
  assert.equal(cloth.selfCollision, 0); // off by default
  cloth.setSelfCollision(0.02);
  assert.equal(cloth.selfCollision, Math.fround(0.02));
  for (const bad of [-0.01, -Infinity, NaN, Infinity]) {
    assert.throws(() => cloth.setSelfCollision(bad), invalid, `thickness ${bad}`);
  }
  assert.equal(cloth.selfCollision, Math.fround(0.02)); // refusals change nothing
  assert.deepEqual(statusesFromHook(cloth, () => cloth.setSelfCollision(0.05)), [clothsim.Status.ERR_BUSY]);
  assert.equal(cloth.selfCollision, Math.fround(0.02));
  cloth.setSelfCollision(0);
  assert.equal(cloth.selfCollision, 0);
  cloth.destroy();

  // 12 x 12 at 3 cm, tilted 78 degrees about x, its low edge 5 cm above a rough
  // floor (the library's defaults, as tests/test_self_collision.c): it lands on that
  // edge and crumples; the closest particles more than two rows or columns apart
  const side = 12;
  const closest = (x) => {
    let best = Infinity;
    for (let i = 0; i < side * side; i++) {
      for (let j = i + 1; j < side * side; j++) {
        const rows = Math.abs(Math.floor(i / side) - Math.floor(j / side));
        const cols = Math.abs((i % side) - (j % side));
        if (rows <= 2 && cols <= 2) continue; // rest neighbours never collide
        const [dx, dy, dz] = [x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1], x[3 * i + 2] - x[3 * j + 2]];
        best = Math.min(best, Math.hypot(dx, dy, dz));
      }
    }
    return best;
  };
  const drop = (thickness) => {
    const sheet = libraryGrid(side, side, { spacing: 0.03 });
    const x = sheet.positions();
    for (let i = 0; i < side * side; i++) {
      const v = x[3 * i + 2];
      x[3 * i + 1] = 0.05 + v * 0.9797959;
      x[3 * i + 2] = v * 0.2;
    }
    sheet.setPositions(x);
    sheet.addPlane([0, 0, 0], [0, 1, 0]).setFriction(0.8);
    sheet.setSelfCollision(thickness);
    let worst = Infinity;
    for (let f = 0; f < 150; f++) {
      sheet.step(1 / 60);
      worst = Math.min(worst, closest(sheet.positions()));
    }
    sheet.destroy();
    return worst;
  };
  const kept = drop(0.03);
  assert.ok(kept >= 0.015, `with self-collision: non-neighbours ${kept} m apart`);
  const without = drop(0);
  assert.ok(without < 0.015, `without: non-neighbours ${without} m apart`); // the drop does fold
});

check('self-friction: coefficient round trip, refusals, busy from a hook', () => {
  const invalid = isStatus(clothsim.Status.ERR_INVALID_ARGUMENT);
  const cloth = clothsim.Cloth.grid(4, 4);
  assert.equal(cloth.selfFriction, 0); // layers slide freely by default
  cloth.setSelfFriction(0.4);
  assert.equal(cloth.selfFriction, Math.fround(0.4));
  for (const bad of [-0.1, -1e-30, -Infinity, NaN, Infinity]) {
    assert.throws(() => cloth.setSelfFriction(bad), invalid, `friction ${bad}`);
  }
  assert.equal(cloth.selfFriction, Math.fround(0.4)); // refusals change nothing
  assert.equal(cloth.selfCollision, 0); // friction alone does not turn self-collision on
  cloth.setSelfCollision(0.02);
  cloth.setSelfCollision(0);
  assert.equal(cloth.selfFriction, Math.fround(0.4)); // nor does the thickness touch the friction
  assert.deepEqual(statusesFromHook(cloth, () => cloth.setSelfFriction(0.9)), [clothsim.Status.ERR_BUSY]);
  assert.equal(cloth.selfFriction, Math.fround(0.4));
  cloth.setSelfFriction(0);
  assert.equal(cloth.selfFriction, 0);
  cloth.setSelfFriction(2.5); // no upper bound but finiteness
  assert.equal(cloth.selfFriction, 2.5);
  cloth.destroy();
  assert.throws(() => cloth.selfFriction);
});

check('the watchdog restores the state and reports the trip', () => {
  const cloth = hanging(8);
  cloth.setWatchdog(1e-6, 0, 'restore');
  const h = cloth.stateHash();
  assert.throws(() => cloth.step(1 / 60), isStatus(clothsim.Status.ERR_UNSTABLE));
  assert.equal(cloth.stateHash(), h);
  const s = cloth.stats();
  assert.equal(s.steps, 0);
  assert.equal(s.watchdogTrips, 1);
  assert.equal(s.watchdogTripped, clothsim.WATCHDOG_TRIPPED_STRAIN);
  cloth.setWatchdog(0, 1e-9, clothsim.WatchdogAction.report);
  cloth.step(1 / 60);
  assert.equal(cloth.stats().watchdogTripped, clothsim.WATCHDOG_TRIPPED_ENERGY);
  assert.throws(() => cloth.setWatchdog(-1), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  assert.throws(() => cloth.setWatchdog(0, 0, 'panic'), RangeError);
  cloth.destroy();
});

const reference96 = stepped(hanging(96), 3).stateHash();

check('two threads give the same bits as one', () => {
  const cloth = hanging(96);
  assert.equal(cloth.threads, 1);
  cloth.setThreads(2);
  assert.equal(cloth.threads, 2);
  assert.equal(stepped(cloth, 3).stateHash(), reference96);
  assert.throws(() => cloth.setThreads(clothsim.MAX_THREADS + 1), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  cloth.destroy();
});

check('every SIMD level the CPU runs gives the same bits; one it lacks is refused', () => {
  const order = ['scalar', 'lanes4', 'avx2', 'avx512'];
  const probe = hanging(8);
  const best = probe.simdLevel;
  assert.ok(order.includes(best));
  probe.setSimdLevel('scalar');
  assert.equal(probe.simdLevel, 'scalar');
  probe.setSimdLevel('best');
  assert.equal(probe.simdLevel, best);
  assert.throws(() => probe.setSimdLevel('mmx'), RangeError);
  assert.throws(() => probe.setSimdLevel(9), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  for (const level of order.slice(order.indexOf(best) + 1)) {
    assert.throws(() => probe.setSimdLevel(level), isStatus(clothsim.Status.ERR_UNSUPPORTED));
  }
  probe.destroy();
  for (const level of order.slice(0, order.indexOf(best) + 1)) {
    const cloth = hanging(96);
    cloth.setSimdLevel(level);
    assert.equal(stepped(cloth, 3).stateHash(), reference96, level);
    cloth.destroy();
  }
});

check('task hooks: inline and deferred give the same bits, broken ones are refused', () => {
  let enqueues = 0;
  const inline = hanging(96);
  inline.setTaskHooks((task, n, minRange) => {
    enqueues++;
    assert.ok(n > minRange);
    for (let b = 0; b < n; b += minRange) task(b, Math.min(b + minRange, n), 0);
    return null;
  });
  assert.equal(stepped(inline, 3).stateHash(), reference96);
  assert.ok(enqueues > 0, 'the hooks were called');
  inline.destroy();

  let finishes = 0;
  const deferred = hanging(96);
  deferred.setTaskHooks(
    (task, n) => ({ task, n }),
    (job) => {
      finishes++;
      job.task(job.n - 1, job.n, 1); // last item first, on worker 1
      job.task(0, job.n - 1, 0);
    },
    2,
  );
  assert.equal(stepped(deferred, 3).stateHash(), reference96);
  assert.ok(finishes > 0);
  deferred.destroy();

  const broken = hanging(96);
  const h = broken.stateHash();
  broken.setTaskHooks((task, n) => task(0, n - 1, 0)); // the last item never runs
  assert.throws(() => broken.step(1 / 60), isStatus(clothsim.Status.ERR_TASK_CONTRACT));
  assert.equal(broken.stateHash(), h);
  broken.setTaskHooks(() => {
    throw new Error('scheduler down');
  });
  assert.throws(() => broken.step(1 / 60), /scheduler down/);
  assert.equal(broken.stateHash(), h);
  broken.setTaskHooks(null);
  broken.step(1 / 60);
  assert.notEqual(broken.stateHash(), h);
  assert.throws(() => broken.setTaskHooks(() => null, null, 0), isStatus(clothsim.Status.ERR_INVALID_ARGUMENT));
  broken.destroy();
});

check('an upward m g from the force hook keeps a free cloth at rest; re-entry is busy', () => {
  const m = 0.01;
  const cloth = clothsim.Cloth.grid(4, 4, { mass: m });
  const start = Array.from(cloth.positions());
  let calls = 0;
  const busy = [];
  cloth.setExternalForce((time, positions, velocities) => {
    calls++;
    assert.equal(positions.length, 48);
    assert.equal(velocities.length, 48);
    try {
      cloth.setDamping(0.5);
    } catch (e) {
      busy.push(e.status);
    }
    try {
      cloth.destroy();
    } catch (e) {
      busy.push(e.status);
    }
    return [0, m * G, 0];
  });
  stepped(cloth, 10);
  assert.equal(calls, 160);
  assert.ok(busy.length === 320 && busy.every((s) => s === clothsim.Status.ERR_BUSY));
  for (const v of cloth.velocities()) assert.ok(Math.abs(v) < 1e-5);
  cloth.positions().forEach((x, i) => assert.ok(Math.abs(x - start[i]) < 1e-6));
  cloth.setExternalForce(() => {
    throw new Error('no force');
  });
  assert.throws(() => cloth.step(1 / 60), /no force/);
  cloth.setExternalForce(null);
  cloth.step(1 / 60);
  assert.ok(cloth.positions()[1] < 0, 'without the force it falls');
  cloth.destroy();
});

check('a JavaScript symplectic Euler gives the built-in one\'s bits', () => {
  const f = Math.fround;
  const log = [];
  const euler = {
    name: 'js-euler',
    create: () => log.push('create'),
    destroy: () => log.push('destroy'),
    step(v) {
      log.push(v.substep);
      const h = f(v.h);
      const d = f(v.velocityDecay);
      const V = [v.vx, v.vy, v.vz];
      const X = [v.x, v.y, v.z];
      const F = [v.fx, v.fy, v.fz];
      for (let i = 0; i < v.count; i++) {
        const w = v.invMass[i];
        const m = w > 0 ? 1 : 0;
        for (let k = 0; k < 3; k++) {
          const vk = f(f(V[k][i] + f(f(f(v.gravity[k] * m) + f(w * F[k][i])) * h)) * d);
          V[k][i] = vk;
          X[k][i] = f(X[k][i] + f(vk * h));
        }
      }
    },
  };
  const mine = hanging(6);
  const builtin = hanging(6);
  mine.setCustomIntegrator(euler);
  assert.equal(mine.integrator, 'custom');
  assert.deepEqual(log, ['create']);
  stepped(mine, 5);
  stepped(builtin, 5);
  assert.equal(mine.stateHash(), builtin.stateHash());
  assert.equal(log.length, 1 + 5 * 16);
  mine.setIntegrator('euler');
  assert.equal(log[log.length - 1], 'destroy');
  mine.setCustomIntegrator({ step: () => clothsim.Status.ERR_UNSTABLE });
  const h = mine.stateHash();
  assert.throws(() => mine.step(1 / 60), isStatus(clothsim.Status.ERR_UNSTABLE));
  mine.setCustomIntegrator({
    step(v) {
      v.y[0] = 123; // rolled back
      throw new Error('integrator bug');
    },
  });
  assert.throws(() => mine.step(1 / 60), /integrator bug/);
  assert.equal(mine.stateHash(), h);
  assert.throws(() => mine.setCustomIntegrator({}), TypeError);
  mine.destroy();
  assert.equal(log[log.length - 1], 'destroy');
  builtin.destroy();
});

console.log(`${checks} passed, 0 failed`);
