'use strict';
// clothsim from Node.js: a small binding of libclothsim through koffi.
//
// The shared library is CLOTHSIM_LIBRARY if set, else libclothsim.so.0 (or
// the platform's name) on the dynamic loader's search path. Every C function
// used is declared with its exact prototype from include/clothsim/*.h, so a
// wrong argument type throws instead of reaching C. Refused calls throw a
// ClothError carrying the cloth_status code in `.status`.

const koffi = require('koffi');

const EXPECTED_MAJOR = 0; // include/clothsim/base.h: same major, same ABI
const MIN_MINOR = 1;

const Status = Object.freeze({
  OK: 0,
  ERR_INVALID_ARGUMENT: 1,
  ERR_OUT_OF_MEMORY: 2,
  ERR_OUT_OF_RANGE: 3,
  ERR_UNSTABLE: 4,
  ERR_UNSUPPORTED: 5,
  ERR_BUSY: 6,
  ERR_TASK_CONTRACT: 7,
});

const Integrator = Object.freeze({
  euler: 0, // CLOTH_INTEGRATOR_EXPLICIT_EULER
  trapezoid: 1,
  verlet: 2,
  pbd: 3,
  semirigid: 4,
  relaxation: 5,
  xpbd: 6,
  implicit_euler: 7,
});

const SpringType = Object.freeze({ structural: 0, shear: 1, bend: 2 });

function defaultLibraryName() {
  if (process.platform === 'win32') return 'clothsim.dll';
  if (process.platform === 'darwin') return 'libclothsim.dylib';
  return 'libclothsim.so.' + EXPECTED_MAJOR;
}

const libraryPath = process.env.CLOTHSIM_LIBRARY || defaultLibraryName();
let lib;
try {
  lib = koffi.load(libraryPath);
} catch (err) {
  throw new Error(
    `cannot load libclothsim from '${libraryPath}' (${err.message}); ` +
      'build it with -DBUILD_SHARED_LIBS=ON and set CLOTHSIM_LIBRARY to the file',
  );
}

// --- C declarations (every enum is 32 bits wide: int) ---------------------------

koffi.opaque('cloth_t');
const GridDesc = koffi.struct('cloth_grid_desc', {
  rows: 'uint32_t',
  cols: 'uint32_t',
  spacing: 'float',
  origin: koffi.array('float', 3),
  u_axis: koffi.array('float', 3),
  v_axis: koffi.array('float', 3),
  particle_mass: 'float',
  struct_size: 'uint32_t',
  allocator: 'void *',
  neighbours: 'uint32_t',
  reserved: koffi.array('uint32_t', 15),
});
koffi.proto(
  'void cloth_wind_fn(void *user, float time, uint32_t count, const float *positions, float *wind_velocity)',
);

const C = {
  version: lib.func('uint32_t cloth_version(void)'),
  statusString: lib.func('const char *cloth_status_string(int status)'),
  // The desc is passed as raw bytes: init writes the *library's* sizeof, which a
  // newer library may make larger than the struct above (see gridDescBytes).
  gridDescInit: lib.func('void cloth_grid_desc_init(_Out_ uint8_t *desc)'),
  createGrid: lib.func('int cloth_create_grid(const uint8_t *desc, _Out_ cloth_t **out)'),
  destroy: lib.func('void cloth_destroy(cloth_t *cloth)'),
  setIntegrator: lib.func('int cloth_set_integrator(cloth_t *cloth, int kind)'),
  setStiffness: lib.func('int cloth_set_stiffness(cloth_t *cloth, int type, float k)'),
  setGravity: lib.func('int cloth_set_gravity(cloth_t *cloth, const float *g)'),
  setDamping: lib.func('int cloth_set_damping(cloth_t *cloth, float rate_per_second)'),
  setSubsteps: lib.func('int cloth_set_substeps(cloth_t *cloth, uint32_t substeps)'),
  setIterations: lib.func('int cloth_set_iterations(cloth_t *cloth, uint32_t iterations)'),
  step: lib.func('int cloth_step(cloth_t *cloth, float dt)'),
  particleCount: lib.func('uint32_t cloth_particle_count(const cloth_t *cloth)'),
  triangleCount: lib.func('uint32_t cloth_triangle_count(const cloth_t *cloth)'),
  getPositions: lib.func('int cloth_get_positions(const cloth_t *cloth, _Out_ float *dst, size_t stride_bytes)'),
  getNormals: lib.func('int cloth_get_normals(const cloth_t *cloth, _Out_ float *dst, size_t stride_bytes)'),
  getVelocities: lib.func('int cloth_get_velocities(const cloth_t *cloth, _Out_ float *dst, size_t stride_bytes)'),
  getTriangles: lib.func('int cloth_get_triangles(const cloth_t *cloth, _Out_ uint32_t *dst)'),
  pin: lib.func('int cloth_pin(cloth_t *cloth, uint32_t index, const float *target)'),
  unpin: lib.func('int cloth_unpin(cloth_t *cloth, uint32_t index)'),
  addSphere: lib.func(
    'int cloth_add_sphere(cloth_t *cloth, const float *center, float radius, _Out_ uint32_t *out)',
  ),
  addPlane: lib.func(
    'int cloth_add_plane(cloth_t *cloth, const float *point, const float *normal, _Out_ uint32_t *out)',
  ),
  setColliderFriction: lib.func('int cloth_set_collider_friction(cloth_t *cloth, uint32_t id, float mu)'),
  setColliderThickness: lib.func('int cloth_set_collider_thickness(cloth_t *cloth, uint32_t id, float offset)'),
  removeCollider: lib.func('int cloth_remove_collider(cloth_t *cloth, uint32_t id)'),
  setWind: lib.func('int cloth_set_wind(cloth_t *cloth, cloth_wind_fn *fn, void *user)'),
};

const found = C.version();
const version = [Math.floor(found / 10000), Math.floor(found / 100) % 100, found % 100];
if (version[0] !== EXPECTED_MAJOR || version[1] < MIN_MINOR) {
  throw new Error(
    `${libraryPath} is clothsim ${version.join('.')}; this binding needs ${EXPECTED_MAJOR}.x with x >= ${MIN_MINOR}`,
  );
}

class ClothError extends Error {
  constructor(status, fn) {
    const name = Object.keys(Status).find((k) => Status[k] === status);
    super(`${fn}: ${C.statusString(status)} (${name ? 'CLOTH_' + name : 'status ' + status})`);
    this.name = 'ClothError';
    this.status = status;
    this.function = fn;
  }
}

function check(status, fn) {
  if (status !== Status.OK) throw new ClothError(status, fn);
}

function vec3(v, what) {
  if (!v || v.length !== 3) throw new TypeError(`${what}: expected 3 numbers`);
  return Float32Array.from(v);
}

const DESC_BYTES = 1024; // room for a newer library's larger desc

function gridDescBytes() {
  const bytes = Buffer.alloc(DESC_BYTES);
  C.gridDescInit(bytes);
  const desc = koffi.decode(bytes, GridDesc);
  if (desc.struct_size < koffi.sizeof(GridDesc) || desc.struct_size > DESC_BYTES) {
    throw new Error(`cloth_grid_desc_init wrote a ${desc.struct_size}-byte desc; expected ${koffi.sizeof(GridDesc)}`);
  }
  return { bytes, desc };
}

class Collider {
  constructor(cloth, id) {
    this.cloth = cloth;
    this.id = id;
  }

  setFriction(mu) {
    check(C.setColliderFriction(this.cloth.handle, this.id, mu), 'cloth_set_collider_friction');
    return this;
  }

  setThickness(offset) {
    check(C.setColliderThickness(this.cloth.handle, this.id, offset), 'cloth_set_collider_thickness');
    return this;
  }

  remove() {
    check(C.removeCollider(this.cloth.handle, this.id), 'cloth_remove_collider');
  }
}

class Cloth {
  // Cloth.grid(rows, cols, { spacing, origin, uAxis, vAxis, mass, neighbours }):
  // options left out keep the library's defaults.
  static grid(rows, cols, options = {}) {
    const { bytes, desc } = gridDescBytes();
    desc.rows = rows;
    desc.cols = cols;
    if (options.spacing !== undefined) desc.spacing = options.spacing;
    if (options.origin !== undefined) desc.origin = vec3(options.origin, 'origin');
    if (options.uAxis !== undefined) desc.u_axis = vec3(options.uAxis, 'uAxis');
    if (options.vAxis !== undefined) desc.v_axis = vec3(options.vAxis, 'vAxis');
    if (options.mass !== undefined) desc.particle_mass = options.mass;
    if (options.neighbours !== undefined) desc.neighbours = options.neighbours;
    koffi.encode(bytes, GridDesc, desc); // the first sizeof(GridDesc) bytes only
    const out = [null];
    check(C.createGrid(bytes, out), 'cloth_create_grid');
    return new Cloth(out[0]);
  }

  constructor(handle) {
    this._handle = handle;
    this.count = C.particleCount(handle);
    this._wind = null;
  }

  get handle() {
    if (this._handle === null) throw new Error('operation on a destroyed Cloth');
    return this._handle;
  }

  // Free the cloth (and the wind callback's slot). Safe to call twice.
  destroy() {
    if (this._handle !== null) {
      C.destroy(this._handle);
      this._handle = null;
    }
    if (this._wind !== null) {
      koffi.unregister(this._wind.registered);
      this._wind = null;
    }
  }

  [Symbol.dispose]() {
    this.destroy();
  }

  get triangleCount() {
    return C.triangleCount(this.handle);
  }

  setIntegrator(kind) {
    const value = typeof kind === 'string' ? Integrator[kind] : kind;
    if (value === undefined) throw new RangeError(`unknown integrator '${kind}' (${Object.keys(Integrator)})`);
    check(C.setIntegrator(this.handle, value), 'cloth_set_integrator');
  }

  setStiffness(type, k) {
    const value = typeof type === 'string' ? SpringType[type] : type;
    if (value === undefined) throw new RangeError(`unknown spring type '${type}'`);
    check(C.setStiffness(this.handle, value, k), 'cloth_set_stiffness');
  }

  setGravity(g) {
    check(C.setGravity(this.handle, vec3(g, 'gravity')), 'cloth_set_gravity');
  }

  setDamping(rate) {
    check(C.setDamping(this.handle, rate), 'cloth_set_damping');
  }

  setSubsteps(n) {
    check(C.setSubsteps(this.handle, n), 'cloth_set_substeps');
  }

  setIterations(n) {
    check(C.setIterations(this.handle, n), 'cloth_set_iterations');
  }

  step(dt) {
    const wind = this._wind;
    if (wind) wind.error = null;
    const status = C.step(this.handle, dt);
    if (wind && wind.error) {
      const error = wind.error;
      wind.error = null;
      throw error;
    }
    check(status, 'cloth_step');
  }

  // Positions, normals, velocities: a Float32Array of 3 * count (x, y, z per
  // particle) that the library writes into directly. Pass `out` to reuse one.
  positions(out = new Float32Array(3 * this.count)) {
    check(C.getPositions(this.handle, out, 0), 'cloth_get_positions');
    return out;
  }

  normals(out = new Float32Array(3 * this.count)) {
    check(C.getNormals(this.handle, out, 0), 'cloth_get_normals');
    return out;
  }

  velocities(out = new Float32Array(3 * this.count)) {
    check(C.getVelocities(this.handle, out, 0), 'cloth_get_velocities');
    return out;
  }

  triangles() {
    const out = new Uint32Array(3 * this.triangleCount);
    check(C.getTriangles(this.handle, out), 'cloth_get_triangles');
    return out;
  }

  pin(index, target = null) {
    check(C.pin(this.handle, index, target === null ? null : vec3(target, 'target')), 'cloth_pin');
  }

  unpin(index) {
    check(C.unpin(this.handle, index), 'cloth_unpin');
  }

  addSphere(center, radius) {
    const id = new Uint32Array(1);
    check(C.addSphere(this.handle, vec3(center, 'center'), radius, id), 'cloth_add_sphere');
    return new Collider(this, id[0]);
  }

  addPlane(point, normal) {
    const id = new Uint32Array(1);
    check(C.addPlane(this.handle, vec3(point, 'point'), vec3(normal, 'normal'), id), 'cloth_add_plane');
    return new Collider(this, id[0]);
  }

  // fn(time, positions) -> wind velocities: `positions` is a Float32Array view
  // of the library's buffer (valid during the call only: copy it to keep it);
  // return a Float32Array / array of 3 * count numbers, or [x, y, z] for the same
  // wind everywhere. An exception gives still air for the rest of the step and is
  // thrown by step(). null removes all wind.
  setWind(fn) {
    const previous = this._wind;
    if (fn === null) {
      check(C.setWind(this.handle, null, null), 'cloth_set_wind');
      this._wind = null;
    } else {
      if (typeof fn !== 'function') throw new TypeError('setWind needs a function (time, positions) -> wind, or null');
      const state = { error: null, registered: null };
      state.registered = koffi.register((user, time, count, positionsPtr, windPtr) => {
        if (state.error) return; // an earlier substep threw: still air (the buffer is zeroed)
        const wind = new Float32Array(koffi.view(windPtr, 12 * count));
        try {
          const result = fn(time, new Float32Array(koffi.view(positionsPtr, 12 * count)));
          if (result && result.length === 3 * count) {
            wind.set(result);
          } else if (result && result.length === 3) {
            for (let i = 0; i < count; i++) wind.set(result, 3 * i);
          } else {
            throw new TypeError(`wind callback: expected ${3 * count} numbers or [x, y, z]`);
          }
        } catch (err) {
          state.error = err;
          wind.fill(0);
        }
      }, 'cloth_wind_fn *');
      try {
        check(C.setWind(this.handle, state.registered, null), 'cloth_set_wind');
      } catch (err) {
        koffi.unregister(state.registered);
        throw err;
      }
      this._wind = state;
    }
    if (previous) koffi.unregister(previous.registered); // no longer installed
  }
}

module.exports = {
  Cloth,
  Collider,
  ClothError,
  Status,
  Integrator,
  SpringType,
  version,
  libraryPath,
  statusString: (s) => C.statusString(s),
};
