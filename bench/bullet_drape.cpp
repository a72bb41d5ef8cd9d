/*
 * drape-N in Bullet's btSoftBody: the peer figure of the performance issue,
 * built only when Bullet is found and never linked into the library.
 *
 * The scene is drape.c's: an N x N patch (btSoftBodyHelpers::CreatePatch,
 * structural + one diagonal per quad), 2 m square, horizontal at y = 0 and
 * centred on the origin, its two corners at z = -1 pinned (mass 0), over a
 * static btSphereShape of radius 0.6 m at (0, -1.1, 0) in a
 * btSoftRigidDynamicsWorld; gravity 9.81, dt = 1/60 with one internal step
 * per frame (--substeps S: S fixed steps of dt / S), 600 frames, 0.2 kg/m^2
 * (0.8 kg spread evenly over the N * N nodes, as clothsim's bench does).
 *
 * Settings, those of the peer table, plus what gives Bullet its least
 * bad quality on this scene (each one an option, see usage()):
 *   - 10 position iterations (m_cfg.piterations), no velocity or drift ones;
 *   - bending links, generateBendingConstraints(2), same material (kLST = 1);
 *   - cloth-sphere collision fCollision::SDF_RS (Bullet's default);
 *   - friction 0.5: Bullet uses kDF * the rigid object's friction, so
 *     kDF = 0.5 and the sphere's friction 1;
 *   - the sphere is static, so Bullet's contact hardness is kKHR (default
 *     0.1, a soft contact that lets the cloth sink in); set to 1 here;
 *   - the soft body's collision margin (default 0.25 m, which would float the
 *     cloth 25 cm above the ball) set to 5 mm, and the sparse SDF's voxel
 *     (default 0.25 m, whose trilinear interpolation of the sphere's distance
 *     is off by centimetres) set to 2 cm: with less margin the nodes end up
 *     a few mm inside the ball, with more they rest beyond the 5 mm bar;
 *   - randomizeConstraints() after the bending links, as Bullet's own demos
 *     do: on this machine it makes the solve about 1.7x faster than
 *     CreatePatch's ordered links (--randomize 0, the order the issue's
 *     7.0 ms at N = 64 was measured with), at the same quality.
 *
 * Only the stepping loop is timed (world and patch creation are not, as in
 * drape.c). The final node positions, mapped to clothsim's row-major order
 * (r * N + c, x = -1 + 2c/(N-1), z = -1 + 2r/(N-1)), go through the same
 * drape_quality_of() as clothsim's. Unlike clothsim's lines, a failing
 * quality keeps its time (positive ms_per_frame) with quality_ok false: the
 * peer's time is the time of its best effort.
 *
 * Usage: bullet_drape [--sizes 32,64,128] [--frames 600] [--runs 3]
 *                     [--iterations 10] [--substeps 1] [--margin 0.005]
 *                     [--voxel 0.02] [--khr 1] [--kdf 0.5] [--bending 2]
 *                     [--randomize 1|0]
 */
#include "drape_scene.h"

#include <BulletSoftBody/btSoftBody.h>
#include <BulletSoftBody/btSoftBodyHelpers.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <BulletSoftBody/btSoftRigidDynamicsWorld.h>
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <time.h>

namespace {

/* CPU time of the whole process, as drape.c's cpu_ms_per_frame */
double cpu_seconds()
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

struct options {
    std::vector<unsigned> sizes{32, 64, 128};
    unsigned frames = DRAPE_FRAMES;
    unsigned runs = 3;
    int iterations = 10;
    unsigned substeps = 1;
    double margin = 0.005;
    double voxel = 0.02;
    double khr = 1.0;
    double kdf = 0.5;
    int bending = 2; /* 0: no bending links */
    int randomize = 1;
};

struct result {
    double seconds = 0.0, cpu = 0.0;
    std::vector<float> positions; /* clothsim's order, packed xyz */
    double bytes_per_particle = 0.0;
    std::string error;
};

/* One drape-N run. Everything lives on the stack or in unique_ptrs so that a
 * run leaves nothing behind for the next one. */
result run_once(unsigned n, const options &o)
{
    result out;
    btSoftBodyRigidBodyCollisionConfiguration config;
    btCollisionDispatcher dispatcher(&config);
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btSoftRigidDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
    const btVector3 gravity(0, btScalar(-9.81), 0);
    world.setGravity(gravity);
    btSoftBodyWorldInfo &info = world.getWorldInfo();
    info.m_gravity = gravity;
    info.m_sparsesdf.Initialize();
    info.m_sparsesdf.setDefaultVoxelsz(btScalar(o.voxel));
    info.m_sparsesdf.Reset();

    /* the static sphere */
    btSphereShape sphere_shape(DRAPE_SPHERE_RADIUS);
    btTransform sphere_pose;
    sphere_pose.setIdentity();
    sphere_pose.setOrigin(btVector3(0, DRAPE_SPHERE_Y, 0));
    btDefaultMotionState sphere_motion(sphere_pose);
    btRigidBody::btRigidBodyConstructionInfo sphere_info(0, &sphere_motion, &sphere_shape, btVector3(0, 0, 0));
    sphere_info.m_friction = 1; /* Bullet's cloth-rigid friction is kDF * this */
    btRigidBody sphere(sphere_info);
    world.addRigidBody(&sphere);
    /* the world must let go of the sphere before the sphere goes, on every path */
    struct unlink_sphere {
        btSoftRigidDynamicsWorld &w;
        btRigidBody &b;
        ~unlink_sphere() { w.removeRigidBody(&b); }
    } sphere_guard{world, sphere};

    /* the cloth: corner00 (r, c) = (0, 0), corner10 along +x (c), corner01 along +z (r) */
    const btScalar h = btScalar(0.5f * DRAPE_SIZE);
    const int ni = static_cast<int>(n);
    std::unique_ptr<btSoftBody> cloth(btSoftBodyHelpers::CreatePatch(info, btVector3(-h, 0, -h), btVector3(h, 0, -h),
                                                                      btVector3(-h, 0, h), btVector3(h, 0, h), ni, ni,
                                                                      0 /* pins set below */, true /* diagonals */));
    if (!cloth || cloth->m_nodes.size() != ni * ni) {
        out.error = "CreatePatch failed";
        return out;
    }

    /* Map Bullet's nodes to clothsim's row-major order from their rest
     * positions, so the mapping does not rest on CreatePatch's loop order. */
    std::vector<int> node_of(static_cast<size_t>(n) * n, -1);
    const double step = double(DRAPE_SIZE) / double(n - 1u);
    for (int i = 0; i < cloth->m_nodes.size(); ++i) {
        const btVector3 &x = cloth->m_nodes[i].m_x;
        const double cf = (double(x.x()) + 0.5 * DRAPE_SIZE) / step, rf = (double(x.z()) + 0.5 * DRAPE_SIZE) / step;
        const long c = std::lround(cf), r = std::lround(rf);
        if (c < 0 || r < 0 || c >= ni || r >= ni || std::fabs(cf - double(c)) > 1e-3 || std::fabs(rf - double(r)) > 1e-3 ||
            std::fabs(double(x.y())) > 1e-6 || node_of[size_t(r) * n + size_t(c)] != -1) {
            out.error = "patch nodes do not match drape_rest_position";
            return out;
        }
        node_of[size_t(r) * n + size_t(c)] = i;
    }

    const btScalar mass = btScalar(0.2f * DRAPE_SIZE * DRAPE_SIZE / float(n * n));
    for (int i = 0; i < cloth->m_nodes.size(); ++i) {
        cloth->setMass(i, mass);
    }
    cloth->setMass(node_of[0], 0);      /* (r, c) = (0, 0) */
    cloth->setMass(node_of[n - 1u], 0); /* (0, N-1) */

    if (o.bending > 0) {
        cloth->generateBendingConstraints(o.bending);
    }
    if (o.randomize) {
        cloth->randomizeConstraints();
    }
    cloth->m_cfg.piterations = o.iterations;
    cloth->m_cfg.collisions = btSoftBody::fCollision::SDF_RS;
    cloth->m_cfg.kDF = btScalar(o.kdf);
    cloth->m_cfg.kKHR = btScalar(o.khr);
    cloth->m_cfg.kCHR = btScalar(o.khr);
    cloth->getCollisionShape()->setMargin(btScalar(o.margin));
    world.addSoftBody(cloth.get());

    const btScalar dt = btScalar(DRAPE_DT);
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_seconds();
    for (unsigned f = 0; f < o.frames; ++f) {
        if (o.substeps <= 1u) {
            world.stepSimulation(dt, 0); /* exactly one internal step of dt */
        } else {
            world.stepSimulation(dt, int(o.substeps) + 1, dt / btScalar(o.substeps));
        }
        info.m_sparsesdf.GarbageCollect(); /* as Bullet's demos do every frame */
    }
    out.cpu = cpu_seconds() - c0;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    out.positions.resize(size_t(3) * n * n);
    for (size_t k = 0; k < size_t(n) * n; ++k) {
        const btVector3 &x = cloth->m_nodes[node_of[k]].m_x;
        out.positions[3 * k] = float(x.x());
        out.positions[3 * k + 1] = float(x.y());
        out.positions[3 * k + 2] = float(x.z());
    }
    /* the soft body's own arrays only (nodes, links, faces), a lower bound */
    out.bytes_per_particle =
        double(size_t(cloth->m_nodes.size()) * sizeof(btSoftBody::Node) +
               size_t(cloth->m_links.size()) * sizeof(btSoftBody::Link) +
               size_t(cloth->m_faces.size()) * sizeof(btSoftBody::Face)) /
        double(n * n);

    world.removeSoftBody(cloth.get());
    return out;
}

void run_config(unsigned n, const options &o)
{
    std::vector<double> times, cpu_times;
    result last;
    for (unsigned r = 0; r < o.runs; ++r) {
        last = run_once(n, o);
        if (!last.error.empty()) {
            std::printf("{\"scene\":\"drape\",\"n\":%u,\"integrator\":\"bullet-softbody\",\"error\":\"%s\"}\n", n,
                        last.error.c_str());
            std::fflush(stdout);
            return;
        }
        times.push_back(last.seconds);
        cpu_times.push_back(last.cpu);
    }
    drape_quality q{};
    drape_quality_of(last.positions.data(), n, true, &q);
    std::sort(times.begin(), times.end());
    std::sort(cpu_times.begin(), cpu_times.end());
    const double cpu_ms = 1e3 * cpu_times[cpu_times.size() / 2u] / double(o.frames);
    const double median = times[times.size() / 2u];
    const double ms = 1e3 * median / double(o.frames);
    const unsigned substeps = o.substeps ? o.substeps : 1u;
    std::printf("{\"scene\":\"drape\",\"n\":%u,\"integrator\":\"bullet-softbody\",\"peer\":\"bullet %d.%02d\","
                "\"threads\":1,\"substeps\":%u,\"iterations\":%d,\"frames\":%u,\"runs\":%u,\"quality_ok\":%s,"
                "\"ms_per_frame\":%.4f,\"particle_substeps_per_s\":%.4g,\"mean_stretch\":%.4f,\"max_stretch\":%.4f,"
                "\"max_penetration_m\":%.3g,\"closest_to_sphere_m\":%.4f,\"finite\":%s,"
                "\"bytes_per_particle\":%.1f,\"why\":\"%s\",\"cpu_ms_per_frame\":%.4f,\"margin_m\":%g,\"voxel_m\":%g,\"kKHR\":%g,"
                "\"kDF\":%g,\"bending_distance\":%d,\"randomized\":%s}\n",
                n, btGetVersion() / 100, btGetVersion() % 100, substeps, o.iterations, o.frames, unsigned(times.size()),
                q.ok ? "true" : "false", ms, double(n) * n * substeps * o.frames / median, q.mean_stretch,
                q.max_stretch, q.max_penetration, q.closest, q.finite ? "true" : "false", last.bytes_per_particle,
                q.why, cpu_ms, o.margin, o.voxel, o.khr, o.kdf, o.bending, o.randomize ? "true" : "false");
    std::fflush(stdout);
}

void usage()
{
    std::fprintf(stderr, "usage: bullet_drape [--sizes 32,64,128] [--frames 600] [--runs 3] [--iterations 10]\n"
                         "                    [--substeps 1] [--margin 0.005] [--voxel 0.02] [--khr 1] [--kdf 0.5]\n"
                         "                    [--bending 2] [--randomize 1|0]\n");
}

} // namespace

int main(int argc, char **argv)
{
    options o;
    for (int a = 1; a < argc; a += 2) {
        const char *key = argv[a];
        if (a + 1 >= argc) {
            std::fprintf(stderr, "option %s needs a value\n", key);
            usage();
            return 2;
        }
        const char *value = argv[a + 1];
        if (std::strcmp(key, "--sizes") == 0) {
            o.sizes.clear();
            for (const char *p = value; *p;) {
                char *end = nullptr;
                o.sizes.push_back(unsigned(std::strtoul(p, &end, 10)));
                p = *end == ',' ? end + 1 : end;
                if (end == p && *p) {
                    break;
                }
            }
        } else if (std::strcmp(key, "--frames") == 0) {
            o.frames = unsigned(std::strtoul(value, nullptr, 10));
        } else if (std::strcmp(key, "--runs") == 0) {
            o.runs = unsigned(std::strtoul(value, nullptr, 10));
        } else if (std::strcmp(key, "--iterations") == 0) {
            o.iterations = std::atoi(value);
        } else if (std::strcmp(key, "--substeps") == 0) {
            o.substeps = unsigned(std::strtoul(value, nullptr, 10));
        } else if (std::strcmp(key, "--margin") == 0) {
            o.margin = std::atof(value);
        } else if (std::strcmp(key, "--voxel") == 0) {
            o.voxel = std::atof(value);
        } else if (std::strcmp(key, "--khr") == 0) {
            o.khr = std::atof(value);
        } else if (std::strcmp(key, "--kdf") == 0) {
            o.kdf = std::atof(value);
        } else if (std::strcmp(key, "--bending") == 0) {
            o.bending = std::atoi(value);
        } else if (std::strcmp(key, "--randomize") == 0) {
            o.randomize = std::atoi(value);
        } else {
            std::fprintf(stderr, "unknown option %s\n", key);
            usage();
            return 2;
        }
    }
    if (o.frames == 0 || o.runs == 0 || o.iterations < 1 || o.voxel <= 0 || o.margin < 0) {
        std::fprintf(stderr, "frames, runs, iterations and voxel must be positive, margin >= 0\n");
        return 2;
    }
    for (unsigned n : o.sizes) {
        if (n < 2) {
            std::fprintf(stderr, "size %u: N must be >= 2\n", n);
            return 2;
        }
        run_config(n, o);
    }
    return 0;
}
