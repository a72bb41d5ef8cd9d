'use strict';
// drape: the reference scene of seed 002, from Node.js through koffi.
//
// A 1.24 m square of cotton, 32 x 32 particles, hangs by its four corners
// above a sphere that stands on a floor. After a second the corners are let
// go; the cloth falls, drapes over the sphere and settles. The material sets
// the masses, stiffness, bending, stretch limit and damping; the library
// picks the substeps. Once per simulated second the program prints where the
// cloth is and how fast it moves, and at the end how it came to rest. It
// exits with status 1 if the cloth ended inside the sphere or under the floor.
//
//   npm ci && CLOTHSIM_LIBRARY=/path/to/libclothsim.so node drape.js [integrator] [--wind]
//
// integrator: xpbd (default), pbd, implicit_euler. --wind blows a gusty
// breeze along +x through a JavaScript wind callback.

const clothsim = require('./clothsim');

const ROWS = 32;
const COLS = 32;
const SPACING = 0.04; // a 1.24 m square
const SPHERE_CENTER = [0, 0.4, 0];
const SPHERE_RADIUS = 0.4;
const SPHERE_THICKNESS = 0.08 * SPHERE_RADIUS; // seed 000: the cloth rests at 1.08 r
const FLOOR_THICKNESS = 0.005;
const DT = 1 / 60;
const SECONDS = 8;

function stats(cloth) {
  const p = cloth.positions();
  const v = cloth.velocities();
  let minY = Infinity;
  let meanY = 0;
  let maxV = 0;
  for (let i = 0; i < cloth.count; i++) {
    minY = Math.min(minY, p[3 * i + 1]);
    meanY += p[3 * i + 1] / cloth.count;
    maxV = Math.max(maxV, Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]));
  }
  return { minY, meanY, maxV };
}

function main(argv) {
  const wind = argv.includes('--wind');
  const integrator = argv.find((a) => !a.startsWith('--')) || 'xpbd';

  const half = 0.5 * SPACING * (COLS - 1);
  const cloth = clothsim.Cloth.grid(ROWS, COLS, { spacing: SPACING, origin: [-half, 1.2, -half] });
  try {
    cloth.setMaterial('cotton');
    cloth.setIntegrator(integrator);
    cloth.setSubsteps(0); // automatic
    cloth.setIterations(0);
    cloth.addSphere(SPHERE_CENTER, SPHERE_RADIUS).setThickness(SPHERE_THICKNESS).setFriction(0.4);
    cloth.addPlane([0, 0, 0], [0, 1, 0]).setThickness(FLOOR_THICKNESS).setFriction(0.6);
    if (wind) {
      // A breeze along +x that swells and fades every two seconds, the same
      // everywhere: 0.2 to 0.6 m/s, which stirs cotton (0.15 kg/m^2) on the sphere.
      cloth.setWind((time) => [0.4 + 0.2 * Math.sin(Math.PI * time), 0, 0]);
    }

    const n = cloth.count;
    const corners = [0, COLS - 1, n - COLS, n - 1];
    for (const c of corners) cloth.pin(c);

    console.log(
      `drape: ${n} particles of cotton, sphere r=${SPHERE_RADIUS.toFixed(2)} m at y=${SPHERE_CENTER[1].toFixed(2)}, ` +
        `floor at y=0, 60 Hz, ${integrator}${wind ? ', wind' : ''} (clothsim ${clothsim.version.join('.')}, node ${process.version})`,
    );
    console.log(`${'t (s)'.padStart(6)} ${'min y'.padStart(10)} ${'mean y'.padStart(10)} ${'max |v|'.padStart(10)} ${'event'.padStart(12)}`);
    for (let frame = 1; frame <= SECONDS * 60; frame++) {
      let event = '';
      if (frame === 60) {
        // seed 002's keys 1-4, all at once: let go one a second, the cotton
        // hangs from its last corners off to one side and slides off the sphere
        for (const c of corners) cloth.unpin(c);
        event = 'let go';
      }
      cloth.step(DT);
      if (frame % 60 === 0) {
        const s = stats(cloth);
        console.log(
          `${(frame * DT).toFixed(1).padStart(6)} ${s.minY.toFixed(3).padStart(10)} ${s.meanY.toFixed(3).padStart(10)} ` +
            `${s.maxV.toFixed(3).padStart(10)} ${event.padStart(12)}`,
        );
      }
    }

    // How it came to rest: the middle particle on the sphere's top, nothing
    // inside the sphere or under the floor.
    const p = cloth.positions();
    const mid = (ROWS / 2) * COLS + COLS / 2;
    const surface = SPHERE_RADIUS + SPHERE_THICKNESS;
    let inside = 0;
    for (let i = 0; i < n; i++) {
      const d = Math.hypot(p[3 * i] - SPHERE_CENTER[0], p[3 * i + 1] - SPHERE_CENTER[1], p[3 * i + 2] - SPHERE_CENTER[2]);
      inside = Math.max(inside, surface - d, FLOOR_THICKNESS - p[3 * i + 1]);
    }
    console.log(
      `middle particle at y=${p[3 * mid + 1].toFixed(3)} m (top of sphere + thickness: ${(SPHERE_CENTER[1] + surface).toFixed(3)} m)`,
    );
    console.log(`deepest penetration of sphere or floor: ${inside.toExponential(2)} m`);

    // The binding refuses bad input with the library's status.
    try {
      cloth.step(0);
      console.error('error: a zero dt was accepted');
      return 1;
    } catch (err) {
      if (!(err instanceof clothsim.ClothError) || err.status !== clothsim.Status.ERR_INVALID_ARGUMENT) throw err;
    }
    if (inside > 1e-3) {
      console.error('error: the cloth ended inside a collider');
      return 1;
    }
    return worn() ? 0 : 1;
  } finally {
    cloth.destroy();
  }
}

// Skinned attachment (skin.h) through the binding: a small cloth whose
// particles may each move 5 cm from their targets falls 5 cm and stops;
// then its first particle, at max distance 0, follows its target up.
function worn() {
  const c = clothsim.Cloth.grid(4, 4, { spacing: 0.1 });
  try {
    const start = c.positions();
    c.setMaxDistances(new Array(c.count).fill(0.05));
    for (let f = 0; f < 60; f++) c.step(DT);
    const fell = start[1] - c.positions()[1];
    const targets = Float32Array.from(start, (v, i) => (i % 3 === 1 ? v + 0.2 : v));
    c.setSkinTargets(targets);
    c.setMaxDistances([0, ...new Array(c.count - 1).fill(Infinity)]);
    for (let f = 0; f < 3; f++) c.step(DT);
    const held = c.positions()[1] === targets[1];
    console.log(`worn: fell ${fell.toFixed(4)} m within 0.05 m spheres; a zero distance ${held ? 'holds' : 'misses'} its target`);
    if (Math.abs(fell - 0.05) > 1e-4 || !held) {
      console.error('error: skin targets or max distances did not hold');
      return false;
    }
    return true;
  } finally {
    c.destroy();
  }
}

process.exitCode = main(process.argv.slice(2));
