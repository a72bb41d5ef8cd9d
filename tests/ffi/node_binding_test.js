'use strict';
// Checks of examples/node/clothsim.js beyond the drape scene: errors carry the
// status, free fall follows 0.5 g t^2 to first order, the wind callback sees
// every particle and its exceptions come out of step(). Run by
// tests/ffi/run_node_example.cmake next to a copy of clothsim.js.

const assert = require('node:assert/strict');
const clothsim = require('./clothsim');

const G = 9.81;
let checks = 0;
function check(name, fn) {
  fn();
  checks++;
  console.log(`ok ${checks} - ${name}`);
}

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

console.log(`${checks} passed, 0 failed`);
