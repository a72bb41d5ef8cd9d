'use strict';
// clothsim from Node.js: a binding of libclothsim through koffi.
//
// The shared library is CLOTHSIM_LIBRARY if set, else libclothsim.so.0 (or
// the platform's name) on the dynamic loader's search path. Every public C
// function is declared with its prototype from include/clothsim/*.h (structs
// the library fills are passed as raw bytes, enums as int), so a wrong
// argument type throws instead of reaching C; tests/ffi/check_headers.py
// fails when a function or callback type of the headers is missing here.
// Refused calls throw a ClothError carrying the cloth_status code in `.status`.
//
// Hooks (wind, external force, task hooks, a host integrator) are JavaScript
// functions registered with koffi.register; they run on the thread that calls
// step(), inside it, and are unregistered when replaced or when the cloth is
// destroyed. An exception in one never reaches C: step() throws it afterwards.

const koffi = require('koffi');

const EXPECTED_MAJOR = 0; // include/clothsim/base.h: same major, same ABI
const MIN_MINOR = 3;

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
const TetherSchedule = Object.freeze({ every_substep: 0, last_substep: 1 });
// cloth_simd_level (threads.h); 'sse2' and 'neon' name the 4-lane level
const SimdLevel = Object.freeze({ best: 0, scalar: 1, lanes4: 2, avx2: 3, avx512: 4 });
const simdAliases = Object.freeze({ sse2: 'lanes4', neon: 'lanes4' });
const WatchdogAction = Object.freeze({ report: 0, restore: 1 });
// cloth_material_preset (material.h): the named fabrics of Material.preset()
const MaterialPreset = Object.freeze({ cotton: 0, silk: 1, denim: 2, leather: 3, jersey: 4, rubber: 5 });
const CUSTOM_INTEGRATOR = 255; // CLOTH_INTEGRATOR_CUSTOM, reported while a host integrator runs

// The headers' macros.
const SMOOTH_MAX_LEVEL = 16;
const MAX_THREADS = 64;
const INTEGRATOR_WANTS_SPRING_FORCES = 1;
const WATCHDOG_TRIPPED_STRAIN = 1;
const WATCHDOG_TRIPPED_ENERGY = 2;

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
const MeshDesc = koffi.struct('cloth_mesh_desc', {
  positions: 'const float *',
  position_stride: 'size_t',
  vertex_count: 'uint32_t',
  triangles: 'const uint32_t *',
  triangle_count: 'uint32_t',
  particle_mass: 'float',
  masses: 'const float *',
  inverse_masses: 'const float *',
  struct_size: 'uint32_t',
  allocator: 'void *',
  reserved: koffi.array('uint32_t', 16),
});
const Stats = koffi.struct('cloth_stats', {
  struct_size: 'uint32_t',
  contacts: 'uint32_t',
  spring_count: koffi.array('uint32_t', 3),
  watchdog_tripped: 'uint32_t',
  steps: 'uint64_t',
  watchdog_trips: 'uint64_t',
  step_seconds: 'double',
  max_strain: koffi.array('float', 3),
  min_strain: koffi.array('float', 3),
  mean_strain: koffi.array('float', 3),
  kinetic_energy: 'float',
  watchdog_max_strain: 'float',
  watchdog_kinetic_energy: 'float',
  memory_bytes: 'uint64_t',
  step_max_strain: 'float',
  substeps_used: 'uint32_t',
  iterations_used: 'uint32_t',
  limit_passes_used: 'uint32_t',
  reserved: koffi.array('uint32_t', 10),
});
const MaterialStruct = koffi.struct('cloth_material', {
  struct_size: 'uint32_t',
  density: 'float',
  stretch_modulus: 'float',
  shear_modulus: 'float',
  bending_rigidity: 'float',
  max_strain: 'float',
  damping: 'float',
  reserved: koffi.array('uint32_t', 9),
});

koffi.proto(
  'void cloth_wind_fn(void *user, float time, uint32_t count, const float *positions, float *wind_velocity)',
);
koffi.proto(
  'void cloth_force_fn(void *user, float time, uint32_t count, const float *positions, const float *velocities, float *forces)',
);
const TaskFn = koffi.proto('void cloth_task_fn(uint32_t begin, uint32_t end, uint32_t worker, void *task_context)');
koffi.proto(
  'void *cloth_enqueue_task_fn(cloth_task_fn *task, uint32_t item_count, uint32_t min_range, void *task_context, void *user_context)',
);
koffi.proto('void cloth_finish_task_fn(void *user_task, void *user_context)');

// The integrator plug-in (integrators.h). The member prototypes have no C
// typedef names; these are local.
const CollideFn = koffi.proto('void collide_particle_fn(void *ctx, uint32_t index)');
const StepView = koffi.struct('cloth_step_view', {
  count: 'uint32_t',
  x: 'float *',
  y: 'float *',
  z: 'float *',
  vx: 'float *',
  vy: 'float *',
  vz: 'float *',
  fx: 'const float *',
  fy: 'const float *',
  fz: 'const float *',
  inv_mass: 'const float *',
  gravity: koffi.array('float', 3),
  h: 'float',
  damping: 'float',
  velocity_decay: 'float',
  iterations: 'uint32_t',
  substep: 'uint32_t',
  substeps: 'uint32_t',
  cloth: 'const cloth_t *',
  collide_particle: 'void *', // a collide_particle_fn *, called through koffi.call
  collide_ctx: 'void *',
});
koffi.proto('int integrator_create_fn(void *user, const cloth_t *cloth, void **state)');
koffi.proto('void integrator_destroy_fn(void *user, void *state)');
koffi.proto('int integrator_step_fn(void *user, void *state, const cloth_step_view *view)');
const IntegratorVtable = koffi.struct('cloth_integrator_vtable', {
  name: 'void *', // const char *: the address of a NUL-terminated Buffer the cloth keeps
  flags: 'uint32_t',
  create: 'integrator_create_fn *',
  destroy: 'integrator_destroy_fn *',
  step: 'integrator_step_fn *',
  finish: 'integrator_step_fn *',
});

// Structs the library writes (descs, statistics, materials) go as raw bytes: their init
// functions write the *library's* sizeof, which a newer library may make
// larger than the structs above (see structBytes). Everything else is typed.
const C = {
  // base.h, clothsim.h: lifecycle, parameters, stepping, state, pins
  version: lib.func('uint32_t cloth_version(void)'),
  statusString: lib.func('const char *cloth_status_string(int status)'),
  gridDescInit: lib.func('void cloth_grid_desc_init(_Out_ uint8_t *desc)'),
  createGrid: lib.func('int cloth_create_grid(const uint8_t *desc, _Out_ cloth_t **out)'),
  destroy: lib.func('void cloth_destroy(cloth_t *cloth)'),
  setIntegrator: lib.func('int cloth_set_integrator(cloth_t *cloth, int kind)'),
  setStiffness: lib.func('int cloth_set_stiffness(cloth_t *cloth, int type, float k)'),
  setStiffnessScales: lib.func('int cloth_set_stiffness_scales(cloth_t *cloth, const float *scales, size_t stride_bytes)'),
  getStiffnessScales: lib.func('int cloth_get_stiffness_scales(const cloth_t *cloth, _Out_ float *scales, size_t stride_bytes)'),
  setSpringDamping: lib.func('int cloth_set_spring_damping(cloth_t *cloth, int type, float beta)'),
  setGravity: lib.func('int cloth_set_gravity(cloth_t *cloth, const float *g)'),
  setDamping: lib.func('int cloth_set_damping(cloth_t *cloth, float rate_per_second)'),
  setSubsteps: lib.func('int cloth_set_substeps(cloth_t *cloth, uint32_t substeps)'),
  setIterations: lib.func('int cloth_set_iterations(cloth_t *cloth, uint32_t iterations)'),
  step: lib.func('int cloth_step(cloth_t *cloth, float dt)'),
  particleCount: lib.func('uint32_t cloth_particle_count(const cloth_t *cloth)'),
  triangleCount: lib.func('uint32_t cloth_triangle_count(const cloth_t *cloth)'),
  getPositions: lib.func('int cloth_get_positions(const cloth_t *cloth, _Out_ float *dst, size_t stride_bytes)'),
  getNormals: lib.func('int cloth_get_normals(const cloth_t *cloth, _Out_ float *dst, size_t stride_bytes)'),
  getTriangles: lib.func('int cloth_get_triangles(const cloth_t *cloth, _Out_ uint32_t *dst)'),
  setPositions: lib.func('int cloth_set_positions(cloth_t *cloth, const float *src, size_t stride_bytes)'),
  setInverseMasses: lib.func('int cloth_set_inverse_masses(cloth_t *cloth, const float *inverse_masses, size_t stride_bytes)'),
  getInverseMasses: lib.func('int cloth_get_inverse_masses(const cloth_t *cloth, _Out_ float *dst, size_t stride_bytes)'),
  getVelocities: lib.func('int cloth_get_velocities(const cloth_t *cloth, _Out_ float *dst, size_t stride_bytes)'),
  setVelocities: lib.func('int cloth_set_velocities(cloth_t *cloth, const float *src, size_t stride_bytes)'),
  pin: lib.func('int cloth_pin(cloth_t *cloth, uint32_t index, const float *target)'),
  unpin: lib.func('int cloth_unpin(cloth_t *cloth, uint32_t index)'),
  // frame.h
  setFrame: lib.func('int cloth_set_frame(cloth_t *cloth, const float *position, const float *rotation)'),
  setInertia: lib.func('int cloth_set_inertia(cloth_t *cloth, float linear, float angular)'),
  getInertia: lib.func('int cloth_get_inertia(const cloth_t *cloth, _Out_ float *linear, _Out_ float *angular)'),
  teleport: lib.func('int cloth_teleport(cloth_t *cloth, const float *position, const float *rotation)'),
  // skin.h
  setSkinTargets: lib.func('int cloth_set_skin_targets(cloth_t *cloth, const float *positions, size_t stride_bytes)'),
  setMaxDistances: lib.func('int cloth_set_max_distances(cloth_t *cloth, const float *distances, size_t stride_bytes)'),
  setSkinNormals: lib.func('int cloth_set_skin_normals(cloth_t *cloth, const float *normals, size_t stride_bytes)'),
  setBackstops: lib.func('int cloth_set_backstops(cloth_t *cloth, const float *backstops, size_t stride_bytes)'),
  // mesh.h
  meshDescInit: lib.func('void cloth_mesh_desc_init(_Out_ uint8_t *desc)'),
  createMesh: lib.func('int cloth_create_mesh(const uint8_t *desc, _Out_ cloth_t **out)'),
  // colliders.h
  addSphere: lib.func(
    'int cloth_add_sphere(cloth_t *cloth, const float *center, float radius, _Out_ uint32_t *out)',
  ),
  addEllipsoid: lib.func(
    'int cloth_add_ellipsoid(cloth_t *cloth, const float *center, const float *radii, const float *rotation, _Out_ uint32_t *out)',
  ),
  addPlane: lib.func(
    'int cloth_add_plane(cloth_t *cloth, const float *point, const float *normal, _Out_ uint32_t *out)',
  ),
  addCapsule: lib.func(
    'int cloth_add_capsule(cloth_t *cloth, const float *a, const float *b, float radius, _Out_ uint32_t *out)',
  ),
  setParticleRadius: lib.func('int cloth_set_particle_radius(cloth_t *cloth, float radius)'),
  getParticleRadius: lib.func('int cloth_get_particle_radius(const cloth_t *cloth, _Out_ float *radius)'),
  addTaperedCapsule: lib.func(
    'int cloth_add_tapered_capsule(cloth_t *cloth, const float *a, const float *b, float radius_a, float radius_b, _Out_ uint32_t *out)',
  ),
  addConvex: lib.func(
    'int cloth_add_convex(cloth_t *cloth, const float *planes, uint32_t plane_count, _Out_ uint32_t *out)',
  ),
  addTriangleMesh: lib.func(
    'int cloth_add_triangle_mesh(cloth_t *cloth, const float *vertices, size_t stride_bytes, uint32_t vertex_count, const uint32_t *indices, uint32_t triangle_count, _Out_ uint32_t *out)',
  ),
  setTriangleMeshVertices: lib.func(
    'int cloth_set_triangle_mesh_vertices(cloth_t *cloth, uint32_t id, const float *vertices, size_t stride_bytes)',
  ),
  getTriangleMeshVertices: lib.func(
    'int cloth_get_triangle_mesh_vertices(const cloth_t *cloth, uint32_t id, _Out_ float *vertices, size_t stride_bytes)',
  ),
  addCylinder: lib.func(
    'int cloth_add_cylinder(cloth_t *cloth, const float *a, const float *b, float radius, _Out_ uint32_t *out)',
  ),
  addTorus: lib.func(
    'int cloth_add_torus(cloth_t *cloth, const float *center, const float *axis, float major_radius, float minor_radius, _Out_ uint32_t *out)',
  ),
  setColliderFriction: lib.func('int cloth_set_collider_friction(cloth_t *cloth, uint32_t id, float mu)'),
  setColliderThickness: lib.func('int cloth_set_collider_thickness(cloth_t *cloth, uint32_t id, float offset)'),
  setColliderTransform: lib.func(
    'int cloth_set_collider_transform(cloth_t *cloth, uint32_t id, const float *position, const float *rotation)',
  ),
  setColliderTransforms: lib.func(
    'int cloth_set_collider_transforms(cloth_t *cloth, const uint32_t *ids, uint32_t count, const float *positions, const float *rotations)',
  ),
  getColliderTransform: lib.func(
    'int cloth_get_collider_transform(const cloth_t *cloth, uint32_t id, _Out_ float *position, _Out_ float *rotation)',
  ),
  removeCollider: lib.func('int cloth_remove_collider(cloth_t *cloth, uint32_t id)'),
  // forces.h
  setWind: lib.func('int cloth_set_wind(cloth_t *cloth, cloth_wind_fn *fn, void *user)'),
  setConstantWind: lib.func('int cloth_set_constant_wind(cloth_t *cloth, const float *velocity)'),
  setAirDensity: lib.func('int cloth_set_air_density(cloth_t *cloth, float kg_per_m3)'),
  setDragCoefficient: lib.func('int cloth_set_drag_coefficient(cloth_t *cloth, float drag)'),
  setLiftCoefficient: lib.func('int cloth_set_lift_coefficient(cloth_t *cloth, float lift)'),
  setExternalForce: lib.func('int cloth_set_external_force(cloth_t *cloth, cloth_force_fn *fn, void *user)'),
  // integrators.h
  setCustomIntegrator: lib.func(
    'int cloth_set_custom_integrator(cloth_t *cloth, const cloth_integrator_vtable *vtable, void *user)',
  ),
  getIntegrator: lib.func('int cloth_get_integrator(const cloth_t *cloth, _Out_ int *kind)'),
  springCount: lib.func('uint32_t cloth_spring_count(const cloth_t *cloth)'),
  getSprings: lib.func(
    'int cloth_get_springs(const cloth_t *cloth, _Out_ uint32_t *pairs, _Out_ float *rest, _Out_ int *types)',
  ),
  setConstraintStiffness: lib.func('int cloth_set_constraint_stiffness(cloth_t *cloth, int type, float s)'),
  setJacobiWeight: lib.func('int cloth_set_jacobi_weight(cloth_t *cloth, float a)'),
  // bending.h
  setBendingStiffness: lib.func('int cloth_set_bending_stiffness(cloth_t *cloth, float k_bend)'),
  // material.h
  materialInit: lib.func('void cloth_material_init(_Out_ uint8_t *material, int preset)'),
  setMaterial: lib.func('int cloth_set_material(cloth_t *cloth, const uint8_t *material)'),
  getMaterial: lib.func('int cloth_get_material(const cloth_t *cloth, _Out_ uint8_t *material)'),
  // constraints.h
  setTethers: lib.func('int cloth_set_tethers(cloth_t *cloth, float scale)'),
  getTethers: lib.func('int cloth_get_tethers(const cloth_t *cloth, _Out_ float *scale)'),
  setTetherSchedule: lib.func('int cloth_set_tether_schedule(cloth_t *cloth, int schedule)'),
  getTetherSchedule: lib.func('int cloth_get_tether_schedule(const cloth_t *cloth, _Out_ int *schedule)'),
  setStrainLimit: lib.func('int cloth_set_strain_limit(cloth_t *cloth, float max_strain, uint32_t passes)'),
  getStrainLimit: lib.func(
    'int cloth_get_strain_limit(const cloth_t *cloth, _Out_ float *max_strain, _Out_ uint32_t *passes)',
  ),
  setStrainLevelSweeps: lib.func('int cloth_set_strain_level_sweeps(cloth_t *cloth, uint32_t sweeps)'),
  getStrainLevelSweeps: lib.func('int cloth_get_strain_level_sweeps(const cloth_t *cloth, _Out_ uint32_t *sweeps)'),
  setSelfCollision: lib.func('int cloth_set_self_collision(cloth_t *cloth, float thickness)'),
  getSelfCollision: lib.func('int cloth_get_self_collision(const cloth_t *cloth, _Out_ float *thickness)'),
  setSelfFriction: lib.func('int cloth_set_self_friction(cloth_t *cloth, float friction)'),
  getSelfFriction: lib.func('int cloth_get_self_friction(const cloth_t *cloth, _Out_ float *friction)'),
  // smooth.h
  smoothCounts: lib.func(
    'int cloth_smooth_counts(const cloth_t *cloth, uint32_t level, _Out_ uint32_t *vertex_count, _Out_ uint32_t *triangle_count)',
  ),
  getSmooth: lib.func(
    'int cloth_get_smooth(const cloth_t *cloth, uint32_t level, _Out_ float *positions, size_t pos_stride, _Out_ float *normals, size_t nrm_stride, _Out_ uint32_t *triangles)',
  ),
  // state.h: snapshots, hash, statistics, watchdog
  stateSize: lib.func('int cloth_state_size(const cloth_t *cloth, _Out_ size_t *size)'),
  saveState: lib.func('int cloth_save_state(const cloth_t *cloth, _Out_ uint8_t *buf, size_t size)'),
  loadState: lib.func('int cloth_load_state(cloth_t *cloth, const uint8_t *buf, size_t size)'),
  stateHash: lib.func('uint64_t cloth_state_hash(const cloth_t *cloth)'),
  statsInit: lib.func('void cloth_stats_init(_Out_ uint8_t *stats)'),
  getStats: lib.func('int cloth_get_stats(const cloth_t *cloth, _Inout_ uint8_t *out)'),
  setWatchdog: lib.func(
    'int cloth_set_watchdog(cloth_t *cloth, float max_strain, float max_kinetic_energy, int action)',
  ),
  // threads.h
  setThreads: lib.func('int cloth_set_threads(cloth_t *cloth, uint32_t threads)'),
  getThreads: lib.func('int cloth_get_threads(const cloth_t *cloth, _Out_ uint32_t *threads)'),
  setSimdLevel: lib.func('int cloth_set_simd_level(cloth_t *cloth, int level)'),
  getSimdLevel: lib.func('int cloth_get_simd_level(const cloth_t *cloth, _Out_ int *level)'),
  setTaskHooks: lib.func(
    'int cloth_set_task_hooks(cloth_t *cloth, cloth_enqueue_task_fn *enqueue, cloth_finish_task_fn *finish, uint32_t worker_count, void *user_context)',
  ),
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

function quat(q, what) {
  if (q === null || q === undefined) return null;
  if (q.length !== 4) throw new TypeError(`${what}: expected 4 numbers (x, y, z, w)`);
  return Float32Array.from(q);
}

function enumValue(value, names, what) {
  const v = typeof value === 'string' ? names[value] : value;
  if (v === undefined) throw new RangeError(`unknown ${what} '${value}' (${Object.keys(names)})`);
  return v;
}

// n xyz records as a Float32Array of 3n: a Float32Array is used as it is,
// anything else (an array of numbers or of triples) copied.
function vec3Array(values, n, what) {
  const out = values instanceof Float32Array ? values : Float32Array.from(Array.from(values).flat());
  if (out.length !== 3 * n) throw new RangeError(`${what}: expected ${3 * n} numbers, got ${out.length}`);
  return out;
}

// Index records (an array of triples, or of numbers) as a Uint32Array; an index
// that is no uint32 is refused as the library refuses one out of range.
function indexArray(values, fn) {
  const flat = Array.from(values).flat();
  if (flat.some((i) => typeof i !== 'number' || !Number.isInteger(i))) throw new TypeError('triangles: expected integer indices');
  if (flat.some((i) => i < 0 || i > 0xffffffff)) throw new ClothError(Status.ERR_INVALID_ARGUMENT, fn);
  return Uint32Array.from(flat);
}

// A callback's per-particle vectors into the library's buffer: 3n numbers or [x, y, z] for all.
function fillVec3(dst, count, result, what) {
  if (result && result.length === 3 * count) {
    dst.set(result);
  } else if (result && result.length === 3) {
    for (let i = 0; i < count; i++) dst.set(result, 3 * i);
  } else {
    throw new TypeError(`${what}: expected ${3 * count} numbers or [x, y, z]`);
  }
}

function floatsAt(ptr, count) {
  return ptr === null ? null : new Float32Array(koffi.view(ptr, 4 * count));
}

const STRUCT_BYTES = 1024; // room for a newer library's larger desc or stats

// A struct filled by its init function in room for a newer layout: { bytes, value }.
function structBytes(init, type, name) {
  const bytes = Buffer.alloc(STRUCT_BYTES);
  init(bytes);
  const value = koffi.decode(bytes, type);
  if (value.struct_size < koffi.sizeof(type) || value.struct_size > STRUCT_BYTES) {
    throw new Error(`${name} wrote a ${value.struct_size}-byte struct; expected ${koffi.sizeof(type)}`);
  }
  return { bytes, value };
}

// The fields of cloth_material but struct_size and reserved, camelCased.
const MATERIAL_FIELDS = [
  ['density', 'density'],
  ['stretchModulus', 'stretch_modulus'],
  ['shearModulus', 'shear_modulus'],
  ['bendingRigidity', 'bending_rigidity'],
  ['maxStrain', 'max_strain'],
  ['damping', 'damping'],
];

// A preset as cloth_material_init takes it: a name of MaterialPreset or an
// int. An int that is no preset stays one (the library then fills density 0,
// which setMaterial refuses); a non-integer or one outside int32 becomes -1
// rather than wrapping onto a real preset.
function presetValue(preset) {
  const v = enumValue(preset, MaterialPreset, 'material preset');
  if (typeof v !== 'number') throw new TypeError(`material preset: expected a name or an integer, got ${typeof v}`);
  return Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff ? v : -1;
}

// cloth_material_init(preset) in room for the library's struct: { bytes, value }.
function materialBytes(preset) {
  const v = presetValue(preset);
  return structBytes((bytes) => C.materialInit(bytes, v), MaterialStruct, 'cloth_material_init');
}

// A fabric (material.h), in SI units: density kg/m^2, stretchModulus and
// shearModulus N/m, bendingRigidity N m, maxStrain in [0, 10] (0: no stretch
// guarantee), damping 1/s. Start from a preset and change what you like:
//   const denim = Material.preset('denim'); denim.maxStrain = 0.05; cloth.setMaterial(denim);
// The library checks the values when the material is set.
class Material {
  constructor(fields = {}) {
    for (const [js] of MATERIAL_FIELDS) this[js] = fields[js] ?? 0;
  }

  // 'cotton', 'silk', 'denim', 'leather', 'jersey', 'rubber' or its int; an int
  // that is no preset gives density 0 (refused by setMaterial).
  static preset(preset) {
    return Material._fromStruct(materialBytes(preset).value);
  }

  static _fromStruct(m) {
    const out = new Material();
    for (const [js, c] of MATERIAL_FIELDS) out[js] = m[c];
    return out;
  }

  // The cloth_material bytes for cloth_set_material: struct_size and reserved
  // as the library sets them, every field from this object.
  _bytes() {
    const { bytes, value } = materialBytes(MaterialPreset.cotton);
    for (const [js, c] of MATERIAL_FIELDS) value[c] = this[js];
    koffi.encode(bytes, MaterialStruct, value);
    return bytes;
  }
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

  // Move the reference point to `position` and turn to the unit quaternion
  // `rotation` (x, y, z, w) by the end of the next step; null keeps either.
  setTransform(position = null, rotation = null) {
    const p = position === null ? null : vec3(position, 'position');
    check(C.setColliderTransform(this.cloth.handle, this.id, p, quat(rotation, 'rotation')), 'cloth_set_collider_transform');
    return this;
  }

  // The pose it is heading for: { position: [x, y, z], rotation: [x, y, z, w] }.
  transform() {
    const position = new Float32Array(3);
    const rotation = new Float32Array(4);
    check(C.getColliderTransform(this.cloth.handle, this.id, position, rotation), 'cloth_get_collider_transform');
    return { position: Array.from(position), rotation: Array.from(rotation) };
  }

  remove() {
    check(C.removeCollider(this.cloth.handle, this.id), 'cloth_remove_collider');
  }
}

// --- hooks: a JS function behind each registered C callback ----------------------------

function windHook(fn) {
  const hook = { error: null, registered: [] };
  hook.wind = koffi.register((user, time, count, positionsPtr, windPtr) => {
    if (hook.error) return; // an earlier substep threw: still air (the buffer is zeroed)
    const wind = floatsAt(windPtr, 3 * count);
    try {
      fillVec3(wind, count, fn(time, floatsAt(positionsPtr, 3 * count)), 'wind callback');
    } catch (err) {
      hook.error = err;
      wind.fill(0);
    }
  }, 'cloth_wind_fn *');
  hook.registered.push(hook.wind);
  return hook;
}

function forceHook(fn) {
  const hook = { error: null, registered: [] };
  hook.force = koffi.register((user, time, count, positionsPtr, velocitiesPtr, forcesPtr) => {
    if (hook.error) return; // an earlier substep threw: no force (the buffer is zeroed)
    const forces = floatsAt(forcesPtr, 3 * count);
    try {
      const result = fn(time, floatsAt(positionsPtr, 3 * count), floatsAt(velocitiesPtr, 3 * count));
      fillVec3(forces, count, result, 'force callback');
    } catch (err) {
      hook.error = err;
      forces.fill(0);
    }
  }, 'cloth_force_fn *');
  hook.registered.push(hook.force);
  return hook;
}

// enqueue(task, itemCount, minRange) gets a JS function task(begin, end, worker);
// it runs the ranges and returns null, or returns any other value, which
// finish(handle) gets back and must run (or wait for) the rest. JS has one
// thread: a handle only defers work to finish. After an exception the task is
// poisoned (a range with worker index workerCount, which the library refuses
// without running it), so the step is refused and its state kept; the rest of
// that step runs inline, and step() throws the exception.
function taskHooks(enqueue, finish, workerCount) {
  const hook = { error: null, registered: [], pending: new Map(), nextKey: 1 };
  const poison = (taskPtr, context) => koffi.call(taskPtr, TaskFn, 0, 1, workerCount, context);
  hook.enqueue = koffi.register((taskPtr, itemCount, minRange, context, user) => {
    if (hook.error) {
      koffi.call(taskPtr, TaskFn, 0, itemCount, 0, context);
      return null;
    }
    let live = true;
    const task = (begin, end, worker) => {
      if (!live) throw new Error('this clothsim task is finished: run its ranges before enqueue/finish return');
      koffi.call(taskPtr, TaskFn, begin, end, worker, context);
    };
    try {
      const handle = enqueue(task, itemCount, minRange);
      if (handle === null || handle === undefined) {
        live = false;
        return null;
      }
      if (!finish) throw new TypeError('the enqueue hook returned a handle but setTaskHooks() got no finish hook');
      const key = hook.nextKey++;
      hook.pending.set(key, { handle, taskPtr, context, end: () => (live = false) });
      return key; // a small integer stands for the handle: C only passes it back
    } catch (err) {
      live = false;
      hook.error = hook.error || err;
      poison(taskPtr, context);
      return null;
    }
  }, 'cloth_enqueue_task_fn *');
  hook.finish = koffi.register((key, user) => {
    const entry = hook.pending.get(Number(koffi.address(key)));
    if (!entry) return;
    hook.pending.delete(Number(koffi.address(key)));
    try {
      finish(entry.handle);
    } catch (err) {
      hook.error = hook.error || err;
      poison(entry.taskPtr, entry.context);
    } finally {
      entry.end();
    }
  }, 'cloth_finish_task_fn *');
  hook.registered.push(hook.enqueue, hook.finish);
  return hook;
}

// What a host integrator's step(view) gets: the cloth's arrays as Float32Array
// views (x ... vz to update in place; fx, fy, fz, invMass to read), valid during
// the call only, and the substep's parameters.
function stepView(ptr) {
  const v = koffi.decode(ptr, StepView);
  const n = v.count;
  return {
    count: n,
    x: floatsAt(v.x, n),
    y: floatsAt(v.y, n),
    z: floatsAt(v.z, n),
    vx: floatsAt(v.vx, n),
    vy: floatsAt(v.vy, n),
    vz: floatsAt(v.vz, n),
    fx: floatsAt(v.fx, n),
    fy: floatsAt(v.fy, n),
    fz: floatsAt(v.fz, n),
    invMass: floatsAt(v.inv_mass, n),
    gravity: Array.from(v.gravity),
    h: v.h,
    damping: v.damping,
    velocityDecay: v.velocity_decay,
    iterations: v.iterations,
    substep: v.substep,
    substeps: v.substeps,
    collide: (index) => koffi.call(v.collide_particle, CollideFn, v.collide_ctx, index),
  };
}

// integrator: { step(view), finish(view)?, create()?, destroy()?, name?, wantsSpringForces? }.
// step returns nothing (or 0) for success, or a Status to abandon the step; an
// exception abandons it too and is thrown by step(). The vtable lives in a
// Buffer the hook keeps (Buffers are passed by address and never move).
function integratorHook(integrator) {
  if (!integrator || typeof integrator.step !== 'function') {
    throw new TypeError('setCustomIntegrator needs an object with a step(view) method');
  }
  const hook = { error: null, registered: [] };
  const fail = (err) => {
    hook.error = hook.error || err;
    return Status.ERR_UNSTABLE;
  };
  const run = (method, viewPtr) => {
    if (hook.error) return Status.ERR_UNSTABLE;
    try {
      const result = method.call(integrator, stepView(viewPtr));
      return result === undefined || result === null ? Status.OK : result;
    } catch (err) {
      return fail(err);
    }
  };
  const reg = (fn, type) => {
    const r = koffi.register(fn, type);
    hook.registered.push(r);
    return r;
  };
  hook.name = Buffer.from((integrator.name || 'javascript') + '\0', 'utf8');
  hook.vtable = Buffer.alloc(koffi.sizeof(IntegratorVtable));
  koffi.encode(hook.vtable, IntegratorVtable, {
    name: koffi.address(hook.name),
    flags: integrator.wantsSpringForces === false ? 0 : INTEGRATOR_WANTS_SPRING_FORCES,
    create: reg((user, cloth, state) => {
      try {
        if (typeof integrator.create === 'function') integrator.create();
        return Status.OK;
      } catch (err) {
        fail(err);
        return Status.ERR_INVALID_ARGUMENT;
      }
    }, 'integrator_create_fn *'),
    destroy: reg((user, state) => {
      try {
        if (typeof integrator.destroy === 'function') integrator.destroy();
      } catch (err) {
        fail(err);
      }
    }, 'integrator_destroy_fn *'),
    step: reg((user, state, view) => run(integrator.step, view), 'integrator_step_fn *'),
    finish:
      typeof integrator.finish === 'function'
        ? reg((user, state, view) => run(integrator.finish, view), 'integrator_step_fn *')
        : null,
  });
  return hook;
}

function unregister(hook) {
  if (hook) for (const r of hook.registered) koffi.unregister(r);
}

class Cloth {
  // Cloth.grid(rows, cols, { spacing, origin, uAxis, vAxis, mass, neighbours }):
  // options left out keep the library's defaults.
  static grid(rows, cols, options = {}) {
    const { bytes, value: desc } = structBytes(C.gridDescInit, GridDesc, 'cloth_grid_desc_init');
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

  // Cloth.mesh(positions, triangles, { mass, masses, inverseMasses }): positions
  // are n xyz records (a Float32Array of 3n or an array of triples), triangles
  // m index triples (a Uint32Array of 3m or an array of triples).
  static mesh(positions, triangles, options = {}) {
    const flat = positions instanceof Float32Array ? positions : Float32Array.from(Array.from(positions).flat());
    if (flat.length % 3 !== 0) throw new RangeError('positions: expected xyz records');
    const n = flat.length / 3;
    const tris = triangles instanceof Uint32Array ? triangles : Uint32Array.from(Array.from(triangles).flat());
    if (tris.length % 3 !== 0) throw new RangeError('triangles: expected index triples');
    const { bytes, value: desc } = structBytes(C.meshDescInit, MeshDesc, 'cloth_mesh_desc_init');
    const keep = [flat, tris];
    const perVertex = (values, what) => {
      const a = Float32Array.from(values);
      if (a.length !== n) throw new RangeError(`${what}: expected ${n} numbers`);
      keep.push(a);
      return koffi.address(a);
    };
    desc.positions = koffi.address(flat);
    desc.vertex_count = n;
    desc.triangles = koffi.address(tris);
    desc.triangle_count = tris.length / 3;
    if (options.mass !== undefined) desc.particle_mass = options.mass;
    if (options.masses !== undefined) desc.masses = perVertex(options.masses, 'masses');
    if (options.inverseMasses !== undefined) desc.inverse_masses = perVertex(options.inverseMasses, 'inverseMasses');
    koffi.encode(bytes, MeshDesc, desc);
    const out = [null];
    check(C.createMesh(bytes, out), 'cloth_create_mesh');
    keep.length = 0; // the library has copied what it needs
    return new Cloth(out[0]);
  }

  constructor(handle) {
    this._handle = handle;
    this.count = C.particleCount(handle);
    this._hooks = { wind: null, force: null, tasks: null, integrator: null };
    this._meshVertices = new Map(); // triangle-mesh collider id -> its vertex count
    this._busy = false;
  }

  get handle() {
    if (this._handle === null) throw new Error('operation on a destroyed Cloth');
    return this._handle;
  }

  // Free the cloth and unregister its callbacks. Safe to call twice; from
  // inside one of its own hooks it throws ClothError ERR_BUSY (the library
  // ignores cloth_destroy() there).
  destroy() {
    if (this._busy && this._handle !== null) throw new ClothError(Status.ERR_BUSY, 'cloth_destroy');
    if (this._handle !== null) {
      C.destroy(this._handle); // runs a host integrator's destroy
      this._handle = null;
    }
    for (const key of Object.keys(this._hooks)) {
      unregister(this._hooks[key]);
      this._hooks[key] = null;
    }
  }

  [Symbol.dispose]() {
    this.destroy();
  }

  // Call a C function that may run this cloth's hooks (and `newHook`, being
  // installed); throw the first exception a hook stored, else check the status.
  _callWithHooks(name, fn, args, newHook = null) {
    const handle = this.handle;
    if (this._busy) throw new ClothError(Status.ERR_BUSY, name);
    const hooks = [newHook, ...Object.values(this._hooks)].filter((h) => h);
    for (const h of hooks) h.error = null;
    this._busy = true;
    let status;
    try {
      status = fn(handle, ...args);
    } finally {
      this._busy = false;
    }
    for (const h of hooks) {
      if (h.error) {
        const error = h.error;
        h.error = null;
        throw error;
      }
    }
    check(status, name);
  }

  // Replace hook `key` after `install(handle)` succeeded; unregister the old one.
  _swapHook(key, hook, name, install) {
    try {
      check(install(this.handle), name);
    } catch (err) {
      unregister(hook);
      throw err;
    }
    unregister(this._hooks[key]);
    this._hooks[key] = hook;
  }

  get triangleCount() {
    return C.triangleCount(this.handle);
  }

  get springCount() {
    return C.springCount(this.handle);
  }

  // --- parameters ---

  setIntegrator(kind) {
    const value = enumValue(kind, Integrator, 'integrator');
    this._callWithHooks('cloth_set_integrator', C.setIntegrator, [value]);
    unregister(this._hooks.integrator); // its destroy has run
    this._hooks.integrator = null;
  }

  // The integrator in use: a name of Integrator, or 'custom'.
  get integrator() {
    const kind = [0];
    check(C.getIntegrator(this.handle, kind), 'cloth_get_integrator');
    if (kind[0] === CUSTOM_INTEGRATOR) return 'custom';
    return Object.keys(Integrator).find((k) => Integrator[k] === kind[0]) ?? kind[0];
  }

  setStiffness(type, k) {
    check(C.setStiffness(this.handle, enumValue(type, SpringType, 'spring type'), k), 'cloth_set_stiffness');
  }

  // Stiffness painted per particle (n scales, each > 0, finite, <= 1e6): a
  // spring's stiffness is its family's times the mean of its ends' scales.
  setStiffnessScales(values) {
    const s = values instanceof Float32Array ? values : Float32Array.from(values);
    if (s.length !== this.count) throw new RangeError(`stiffness scales: expected ${this.count} numbers, got ${s.length}`);
    check(C.setStiffnessScales(this.handle, s, 0), 'cloth_set_stiffness_scales');
  }

  // Every particle's scale (1 for each if never painted).
  stiffnessScales(out = new Float32Array(this.count)) {
    if (!(out instanceof Float32Array) || out.length < this.count) {
      throw new RangeError(`stiffness scales: out must be a Float32Array of ${this.count}`);
    }
    check(C.getStiffnessScales(this.handle, out, 0), 'cloth_get_stiffness_scales');
    return out;
  }

  setSpringDamping(type, beta) {
    const t = enumValue(type, SpringType, 'spring type');
    check(C.setSpringDamping(this.handle, t, beta), 'cloth_set_spring_damping');
  }

  setConstraintStiffness(type, s) {
    const t = enumValue(type, SpringType, 'spring type');
    check(C.setConstraintStiffness(this.handle, t, s), 'cloth_set_constraint_stiffness');
  }

  setJacobiWeight(a) {
    check(C.setJacobiWeight(this.handle, a), 'cloth_set_jacobi_weight');
  }

  setBendingStiffness(kBend) {
    check(C.setBendingStiffness(this.handle, kBend), 'cloth_set_bending_stiffness');
  }

  // --- material ---

  // A Material, or a preset ('cotton' ... 'rubber', or its int): the masses,
  // stiffnesses, bending, tethers, strain limit (automatic passes) and damping
  // for this cloth's spacing and triangles (material.h).
  setMaterial(material) {
    let bytes;
    if (material instanceof Material) {
      bytes = material._bytes();
    } else if (typeof material === 'string' || typeof material === 'number') {
      bytes = materialBytes(material).bytes;
    } else {
      throw new TypeError(`setMaterial needs a Material or a preset (${Object.keys(MaterialPreset)})`);
    }
    check(C.setMaterial(this.handle, bytes), 'cloth_set_material');
  }

  // The Material last set, or null if the cloth never had one.
  get material() {
    const bytes = Buffer.alloc(STRUCT_BYTES);
    check(C.getMaterial(this.handle, bytes), 'cloth_get_material');
    const m = koffi.decode(bytes, MaterialStruct);
    return m.density === 0 ? null : Material._fromStruct(m);
  }

  setGravity(g) {
    check(C.setGravity(this.handle, vec3(g, 'gravity')), 'cloth_set_gravity');
  }

  setDamping(rate) {
    check(C.setDamping(this.handle, rate), 'cloth_set_damping');
  }

  // 0: automatic (stats().substepsUsed tells what a step took).
  setSubsteps(n) {
    check(C.setSubsteps(this.handle, n), 'cloth_set_substeps');
  }

  // 0: automatic (stats().iterationsUsed).
  setIterations(n) {
    check(C.setIterations(this.handle, n), 'cloth_set_iterations');
  }

  // --- constraints ---

  setTethers(scale) {
    check(C.setTethers(this.handle, scale), 'cloth_set_tethers');
  }

  get tethers() {
    const out = new Float32Array(1);
    check(C.getTethers(this.handle, out), 'cloth_get_tethers');
    return out[0];
  }

  setTetherSchedule(schedule) {
    const value = enumValue(schedule, TetherSchedule, 'tether schedule');
    check(C.setTetherSchedule(this.handle, value), 'cloth_set_tether_schedule');
  }

  get tetherSchedule() {
    const out = [0];
    check(C.getTetherSchedule(this.handle, out), 'cloth_get_tether_schedule');
    return Object.keys(TetherSchedule).find((k) => TetherSchedule[k] === out[0]);
  }

  // passes 0 with maxStrain > 0: automatic passes (stats().limitPassesUsed).
  setStrainLimit(maxStrain, passes) {
    check(C.setStrainLimit(this.handle, maxStrain, passes), 'cloth_set_strain_limit');
  }

  // [maxStrain, passes]; passes is 0 while the limit is off or automatic.
  get strainLimit() {
    const m = new Float32Array(1);
    const n = new Uint32Array(1);
    check(C.getStrainLimit(this.handle, m, n), 'cloth_get_strain_limit');
    return [m[0], n[0]];
  }

  setStrainLevelSweeps(sweeps) {
    check(C.setStrainLevelSweeps(this.handle, sweeps), 'cloth_set_strain_level_sweeps');
  }

  get strainLevelSweeps() {
    const out = new Uint32Array(1);
    check(C.getStrainLevelSweeps(this.handle, out), 'cloth_get_strain_level_sweeps');
    return out[0];
  }

  // Self-collision: parts of the cloth keep `thickness` m apart (>= 0; 0 off).
  setSelfCollision(thickness) {
    check(C.setSelfCollision(this.handle, thickness), 'cloth_set_self_collision');
  }

  get selfCollision() {
    const out = new Float32Array(1);
    check(C.getSelfCollision(this.handle, out), 'cloth_get_self_collision');
    return out[0];
  }

  // Friction between layers in self-collision: a Coulomb coefficient (>= 0,
  // finite; 0, the default, lets them slide freely; cotton on itself about 0.4).
  setSelfFriction(friction) {
    check(C.setSelfFriction(this.handle, friction), 'cloth_set_self_friction');
  }

  get selfFriction() {
    const out = new Float32Array(1);
    check(C.getSelfFriction(this.handle, out), 'cloth_get_self_friction');
    return out[0];
  }

  // --- stepping ---

  // If a hook threw during the step, that exception is thrown here once the
  // library has returned: after a wind or force hook the step ran on with zeros
  // from it; after a task hook or a host integrator it was refused and the
  // state before it kept.
  step(dt) {
    this._callWithHooks('cloth_step', C.step, [dt]);
  }

  // --- state ---

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

  setPositions(values) {
    check(C.setPositions(this.handle, vec3Array(values, this.count, 'positions'), 0), 'cloth_set_positions');
  }

  // Every particle's inverse mass, 1/kg (n numbers >= 0; 0: infinitely heavy).
  setInverseMasses(values) {
    const w = values instanceof Float32Array ? values : Float32Array.from(values);
    if (w.length !== this.count) throw new RangeError(`inverse masses: expected ${this.count} numbers, got ${w.length}`);
    check(C.setInverseMasses(this.handle, w, 0), 'cloth_set_inverse_masses');
  }

  inverseMasses(out = new Float32Array(this.count)) {
    check(C.getInverseMasses(this.handle, out, 0), 'cloth_get_inverse_masses');
    return out;
  }

  // The cloth's collision thickness, m: every collider's thickness grows by it.
  setParticleRadius(radius) {
    check(C.setParticleRadius(this.handle, radius), 'cloth_set_particle_radius');
  }

  get particleRadius() {
    const out = new Float32Array(1);
    check(C.getParticleRadius(this.handle, out), 'cloth_get_particle_radius');
    return out[0];
  }

  setVelocities(values) {
    check(C.setVelocities(this.handle, vec3Array(values, this.count, 'velocities'), 0), 'cloth_set_velocities');
  }

  // { vertices, triangles } of the smooth surface at `level` (grids only).
  smoothCounts(level) {
    const v = new Uint32Array(1);
    const t = new Uint32Array(1);
    check(C.smoothCounts(this.handle, level, v, t), 'cloth_smooth_counts');
    return { vertices: v[0], triangles: t[0] };
  }

  // The Catmull-Rom surface at `level`: { positions, normals, triangles } as
  // Float32Array / Uint32Array (normals or triangles null when skipped).
  smooth(level, { normals = true, triangles = true } = {}) {
    const counts = this.smoothCounts(level);
    const out = {
      positions: new Float32Array(3 * counts.vertices),
      normals: normals ? new Float32Array(3 * counts.vertices) : null,
      triangles: triangles ? new Uint32Array(3 * counts.triangles) : null,
    };
    if (counts.vertices > 0) {
      check(
        C.getSmooth(this.handle, level, out.positions, 0, out.normals, 0, out.triangles),
        'cloth_get_smooth',
      );
    }
    return out;
  }

  // { pairs: Uint32Array(2s), restLengths: Float32Array(s), types: Int32Array(s) },
  // grouped by family, structural first.
  springs() {
    const s = this.springCount;
    const out = { pairs: new Uint32Array(2 * s), restLengths: new Float32Array(s), types: new Int32Array(s) };
    if (s > 0) check(C.getSprings(this.handle, out.pairs, out.restLengths, out.types), 'cloth_get_springs');
    return out;
  }

  // --- snapshots, statistics, watchdog ---

  stateSize() {
    const out = [0];
    check(C.stateSize(this.handle, out), 'cloth_state_size');
    return Number(out[0]);
  }

  // The dynamic state as a Buffer (state.h's format).
  saveState() {
    const buf = Buffer.alloc(this.stateSize());
    check(C.saveState(this.handle, buf, buf.length), 'cloth_save_state');
    return buf;
  }

  loadState(buf) {
    if (!(buf instanceof Uint8Array)) throw new TypeError('loadState needs a Buffer or Uint8Array from saveState()');
    check(C.loadState(this.handle, buf, buf.length), 'cloth_load_state');
  }

  // A 64-bit hash of the positions, velocities and time, as a BigInt.
  stateHash() {
    return BigInt.asUintN(64, BigInt(C.stateHash(this.handle)));
  }

  // Every field of cloth_stats (but struct_size and reserved), camelCased; the
  // 64-bit counters as Numbers.
  stats() {
    const { bytes } = structBytes(C.statsInit, Stats, 'cloth_stats_init');
    check(C.getStats(this.handle, bytes), 'cloth_get_stats');
    const s = koffi.decode(bytes, Stats);
    return {
      contacts: s.contacts,
      springCount: Array.from(s.spring_count),
      watchdogTripped: s.watchdog_tripped,
      steps: Number(s.steps),
      watchdogTrips: Number(s.watchdog_trips),
      stepSeconds: s.step_seconds,
      maxStrain: Array.from(s.max_strain),
      minStrain: Array.from(s.min_strain),
      meanStrain: Array.from(s.mean_strain),
      kineticEnergy: s.kinetic_energy,
      watchdogMaxStrain: s.watchdog_max_strain,
      watchdogKineticEnergy: s.watchdog_kinetic_energy,
      memoryBytes: Number(s.memory_bytes),
      stepMaxStrain: s.step_max_strain,
      substepsUsed: s.substeps_used,
      iterationsUsed: s.iterations_used,
      limitPassesUsed: s.limit_passes_used,
    };
  }

  // Bounds checked after every step (0 switches one off); action 'report' or
  // 'restore' (the step is undone and throws ERR_UNSTABLE).
  setWatchdog(maxStrain = 0, maxKineticEnergy = 0, action = 'report') {
    const a = enumValue(action, WatchdogAction, 'watchdog action');
    check(C.setWatchdog(this.handle, maxStrain, maxKineticEnergy, a), 'cloth_set_watchdog');
  }

  // --- threads ---

  setThreads(n) {
    check(C.setThreads(this.handle, n), 'cloth_set_threads');
  }

  get threads() {
    const out = new Uint32Array(1);
    check(C.getThreads(this.handle, out), 'cloth_get_threads');
    return out[0];
  }

  // The vector instructions the kernels run with: 'best' (a new cloth's),
  // 'scalar', 'lanes4' ('sse2' or 'neon'), 'avx2', 'avx512' or a number of
  // SimdLevel; every level gives the same bits. A level this CPU cannot run
  // throws ClothError (ERR_UNSUPPORTED).
  setSimdLevel(level) {
    const name = typeof level === 'string' && simdAliases[level] !== undefined ? simdAliases[level] : level;
    check(C.setSimdLevel(this.handle, enumValue(name, SimdLevel, 'SIMD level')), 'cloth_set_simd_level');
  }

  // The level in use, by name (never 'best').
  get simdLevel() {
    const out = [0];
    check(C.getSimdLevel(this.handle, out), 'cloth_get_simd_level');
    return Object.keys(SimdLevel).find((k) => SimdLevel[k] === out[0]);
  }

  // Run the step's parallel passes through enqueue(task, itemCount, minRange)
  // and finish(handle) (see taskHooks above); enqueue null removes the hooks.
  // The simplest correct hooks: setTaskHooks((task, n) => task(0, n, 0)).
  setTaskHooks(enqueue, finish = null, workerCount = 1) {
    if (enqueue === null) {
      this._swapHook('tasks', null, 'cloth_set_task_hooks', (h) => C.setTaskHooks(h, null, null, 0, null));
      return;
    }
    if (typeof enqueue !== 'function' || (finish !== null && typeof finish !== 'function')) {
      throw new TypeError('setTaskHooks needs functions enqueue(task, itemCount, minRange) and finish(handle)');
    }
    const hook = taskHooks(enqueue, finish, workerCount);
    this._swapHook('tasks', hook, 'cloth_set_task_hooks', (h) =>
      C.setTaskHooks(h, hook.enqueue, hook.finish, workerCount, null),
    );
  }

  // --- a host integrator ---

  setCustomIntegrator(integrator) {
    const hook = integratorHook(integrator);
    try {
      this._callWithHooks('cloth_set_custom_integrator', C.setCustomIntegrator, [hook.vtable, null], hook);
    } catch (err) {
      unregister(hook);
      throw err;
    }
    unregister(this._hooks.integrator); // replaced: its destroy has run
    this._hooks.integrator = hook;
  }

  // --- pins and colliders ---

  pin(index, target = null) {
    check(C.pin(this.handle, index, target === null ? null : vec3(target, 'target')), 'cloth_pin');
  }

  unpin(index) {
    check(C.unpin(this.handle, index), 'cloth_unpin');
  }

  // The frame the cloth is worn in at the end of the next step: position and
  // a unit quaternion [x, y, z, w] (or null for unturned).
  setFrame(position, rotation = null) {
    check(C.setFrame(this.handle, vec3(position, 'position'), rotation === null ? null : quat(rotation, 'rotation')), 'cloth_set_frame');
  }

  // How much of the frame's travel and turn the cloth feels: 1 world space, 0 carried.
  setInertia(linear, angular) {
    check(C.setInertia(this.handle, linear, angular), 'cloth_set_inertia');
  }

  get inertia() {
    const l = new Float32Array(1);
    const a = new Float32Array(1);
    check(C.getInertia(this.handle, l, a), 'cloth_get_inertia');
    return { linear: l[0], angular: a[0] };
  }

  // Move the cloth, its pins, skin targets and colliders rigidly to a new frame pose at once.
  teleport(position, rotation = null) {
    check(C.teleport(this.handle, vec3(position, 'position'), rotation === null ? null : quat(rotation, 'rotation')), 'cloth_teleport');
  }

  // Where the animation puts every particle at the end of the next step
  // (3n numbers or [x, y, z] triples, m): skin.h's skin targets.
  setSkinTargets(values) {
    check(C.setSkinTargets(this.handle, vec3Array(values, this.count, 'skin targets'), 0), 'cloth_set_skin_targets');
  }

  // How far (m) each particle may move from its skin target: 0 pins it,
  // Infinity frees it (every particle's until set).
  setMaxDistances(values) {
    const d = values instanceof Float32Array ? values : Float32Array.from(values);
    if (d.length !== this.count) throw new RangeError(`max distances: expected ${this.count} numbers, got ${d.length}`);
    check(C.setMaxDistances(this.handle, d, 0), 'cloth_set_max_distances');
  }

  // The skin's outward normal at every particle's skin target at the end of
  // the next step (3n numbers or [x, y, z] triples): each of unit length, or
  // exactly 0 for none. Only the backstops use them.
  setSkinNormals(values) {
    check(C.setSkinNormals(this.handle, vec3Array(values, this.count, 'skin normals'), 0), 'cloth_set_skin_normals');
  }

  // Every particle's backstop, [distance, radius] pairs (or a flat array /
  // Float32Array of 2n numbers), m: the particle is kept out of a ball of that
  // radius (0: none) whose surface lies `distance` behind its skin target
  // along the skin normal; a large radius makes it a plane.
  setBackstops(values) {
    const b = values instanceof Float32Array ? values : Float32Array.from(Array.from(values).flat());
    if (b.length !== 2 * this.count) {
      throw new RangeError(`backstops: expected ${2 * this.count} numbers ([distance, radius] per particle), got ${b.length}`);
    }
    check(C.setBackstops(this.handle, b, 0), 'cloth_set_backstops');
  }

  // Move many colliders at once (a character's body, once per frame): the k-th
  // collider (a Collider or its id) heads for the k-th position and the k-th
  // unit quaternion [x, y, z, w], as Collider.setTransform() would; positions
  // k triples (or 3k numbers), rotations k 4-arrays (or 4k numbers), either
  // null to keep every one. All are checked before any is taken, so a refused
  // call moves nothing; an id given twice takes its last pose.
  setColliderTransforms(colliders, positions = null, rotations = null) {
    const name = 'cloth_set_collider_transforms';
    const list = Array.from(colliders, (c) => (c instanceof Collider ? c.id : c));
    if (list.some((id) => !Number.isInteger(id) || id < 0 || id > 0xffffffff)) throw new ClothError(Status.ERR_OUT_OF_RANGE, name);
    const ids = Uint32Array.from(list);
    const records = (values, width, what) => {
      if (values === null) return null;
      const flat = values instanceof Float32Array ? values : Float32Array.from(Array.from(values).flat());
      if (flat.length !== width * ids.length) {
        throw new RangeError(`${what}: expected ${ids.length} records of ${width} numbers, got ${flat.length} numbers`);
      }
      return flat;
    };
    const p = records(positions, 3, 'positions');
    const q = records(rotations, 4, 'rotations');
    check(C.setColliderTransforms(this.handle, ids, ids.length, p, q), name);
  }

  _add(name, fn, args) {
    const id = new Uint32Array(1);
    check(fn(this.handle, ...args, id), name);
    return new Collider(this, id[0]);
  }

  addSphere(center, radius) {
    return this._add('cloth_add_sphere', C.addSphere, [vec3(center, 'center'), radius]);
  }

  addPlane(point, normal) {
    return this._add('cloth_add_plane', C.addPlane, [vec3(point, 'point'), vec3(normal, 'normal')]);
  }

  addEllipsoid(center, radii, rotation = null) {
    const args = [vec3(center, 'center'), vec3(radii, 'radii'), quat(rotation, 'rotation')];
    return this._add('cloth_add_ellipsoid', C.addEllipsoid, args);
  }

  addCapsule(a, b, radius) {
    return this._add('cloth_add_capsule', C.addCapsule, [vec3(a, 'a'), vec3(b, 'b'), radius]);
  }

  // The hull of a ball of radiusA about a and one of radiusB about b: a limb.
  addTaperedCapsule(a, b, radiusA, radiusB) {
    return this._add('cloth_add_tapered_capsule', C.addTaperedCapsule, [vec3(a, 'a'), vec3(b, 'b'), radiusA, radiusB]);
  }

  // A convex hull of 4 to 64 planes [nx, ny, nz, d], the solid where n.x + d <= 0
  // for every one (unit normals pointing out): an array of 4-arrays or a flat
  // Float32Array / array of 4k numbers, in the collider's own frame (which starts
  // at the world's origin, unturned). A box of half-sizes hx, hy, hz about the
  // origin: [1, 0, 0, -hx], [-1, 0, 0, -hx], [0, 1, 0, -hy], ...
  addConvex(planes) {
    const flat = planes instanceof Float32Array ? planes : Float32Array.from(Array.from(planes).flat());
    if (flat.length % 4 !== 0) throw new RangeError(`planes: expected records of 4 numbers, got ${flat.length} numbers`);
    return this._add('cloth_add_convex', C.addConvex, [flat, flat.length / 4]);
  }

  // A triangle mesh, closed or open: vertices n xyz records (a Float32Array of 3n
  // or an array of triples), triangles m index triples (a Uint32Array of 3m or an
  // array of triples); the cloth stays on the side from which the corners run
  // counter-clockwise. Copied, in the collider's own frame.
  addTriangleMesh(vertices, triangles) {
    const flat = vertices instanceof Float32Array ? vertices : Float32Array.from(Array.from(vertices).flat());
    if (flat.length % 3 !== 0) throw new RangeError('vertices: expected xyz records');
    const tris = triangles instanceof Uint32Array ? triangles : indexArray(triangles, 'cloth_add_triangle_mesh');
    if (tris.length % 3 !== 0) throw new RangeError('triangles: expected index triples');
    const n = flat.length / 3;
    const collider = this._add('cloth_add_triangle_mesh', C.addTriangleMesh, [flat, 0, n, tris, tris.length / 3]);
    this._meshVertices.set(collider.id, n);
    return collider;
  }

  // [id, vertex count] of a triangle-mesh collider (a Collider or its id); for
  // anything else the status the library gives.
  _meshVertexCount(collider, name) {
    const id = collider instanceof Collider ? collider.id : collider;
    const handle = this.handle;
    const n = this._meshVertices.get(id);
    if (n === undefined) {
      if (!Number.isInteger(id) || id < 0 || id > 0xffffffff) throw new ClothError(Status.ERR_OUT_OF_RANGE, name);
      // unknown or removed (as the library says), or a collider of another shape
      const status = C.getColliderTransform(handle, id, null, null);
      throw new ClothError(status !== Status.OK ? status : Status.ERR_INVALID_ARGUMENT, name);
    }
    return [id, n];
  }

  // New positions (in its frame) for every vertex of a triangle-mesh collider,
  // same triangles (3n numbers or [x, y, z] triples): they get there at the end of
  // the next step, moving in a straight line over its substeps.
  setTriangleMeshVertices(collider, values) {
    const [id, n] = this._meshVertexCount(collider, 'cloth_set_triangle_mesh_vertices');
    const v = vec3Array(values, n, 'triangle mesh vertices');
    check(C.setTriangleMeshVertices(this.handle, id, v, 0), 'cloth_set_triangle_mesh_vertices');
  }

  // The vertices a triangle-mesh collider is heading for, in its frame: a
  // Float32Array of 3n, as positions() returns them.
  getTriangleMeshVertices(collider, out = null) {
    const [id, n] = this._meshVertexCount(collider, 'cloth_get_triangle_mesh_vertices');
    const dst = out === null ? new Float32Array(3 * n) : out;
    if (!(dst instanceof Float32Array) || dst.length !== 3 * n) {
      throw new RangeError(`triangle mesh vertices: out must be a Float32Array of ${3 * n}`);
    }
    check(C.getTriangleMeshVertices(this.handle, id, dst, 0), 'cloth_get_triangle_mesh_vertices');
    return dst;
  }

  addCylinder(a, b, radius) {
    return this._add('cloth_add_cylinder', C.addCylinder, [vec3(a, 'a'), vec3(b, 'b'), radius]);
  }

  addTorus(center, axis, majorRadius, minorRadius) {
    const args = [vec3(center, 'center'), vec3(axis, 'axis'), majorRadius, minorRadius];
    return this._add('cloth_add_torus', C.addTorus, args);
  }

  // --- wind and forces ---

  // fn(time, positions) -> wind velocities: `positions` is a Float32Array view
  // of the library's buffer (valid during the call only: copy it to keep it);
  // return a Float32Array / array of 3 * count numbers, or [x, y, z] for the same
  // wind everywhere. An exception gives still air for the rest of the step and is
  // thrown by step(). null removes all wind.
  setWind(fn) {
    if (fn === null) {
      this._swapHook('wind', null, 'cloth_set_wind', (h) => C.setWind(h, null, null));
      return;
    }
    if (typeof fn !== 'function') throw new TypeError('setWind needs a function (time, positions) -> wind, or null');
    const hook = windHook(fn);
    this._swapHook('wind', hook, 'cloth_set_wind', (h) => C.setWind(h, hook.wind, null));
  }

  setConstantWind(velocity) {
    this._swapHook('wind', null, 'cloth_set_constant_wind', (h) => C.setConstantWind(h, vec3(velocity, 'velocity')));
  }

  setAirDensity(kgPerM3) {
    check(C.setAirDensity(this.handle, kgPerM3), 'cloth_set_air_density');
  }

  setDragCoefficient(drag) {
    check(C.setDragCoefficient(this.handle, drag), 'cloth_set_drag_coefficient');
  }

  setLiftCoefficient(lift) {
    check(C.setLiftCoefficient(this.handle, lift), 'cloth_set_lift_coefficient');
  }

  // fn(time, positions, velocities) -> forces in N (not gravity), as setWind's
  // function returns wind: 3 * count numbers or [x, y, z] for every particle.
  // null removes it.
  setExternalForce(fn) {
    if (fn === null) {
      this._swapHook('force', null, 'cloth_set_external_force', (h) => C.setExternalForce(h, null, null));
      return;
    }
    if (typeof fn !== 'function') {
      throw new TypeError('setExternalForce needs a function (time, positions, velocities) -> forces, or null');
    }
    const hook = forceHook(fn);
    this._swapHook('force', hook, 'cloth_set_external_force', (h) => C.setExternalForce(h, hook.force, null));
  }
}

module.exports = {
  Cloth,
  Collider,
  Material,
  MaterialPreset,
  material: (preset) => Material.preset(preset),
  ClothError,
  Status,
  Integrator,
  SpringType,
  TetherSchedule,
  SimdLevel,
  WatchdogAction,
  SMOOTH_MAX_LEVEL,
  MAX_THREADS,
  WATCHDOG_TRIPPED_STRAIN,
  WATCHDOG_TRIPPED_ENERGY,
  version,
  libraryPath,
  statusString: (s) => C.statusString(s),
};
