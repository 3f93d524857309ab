// voxelize: OpenVDB's own mesh -> collider volumes, timed, as the reference that
// `voxelize` is measured against (run.sh beside it; figures in docs/performance.md).
//
//   voxelize mesh.obj next.obj fps voxel half_width threads out.vdb [zip|blosc]
//
// It does what `voxelize -frames 1-1` does to the first frame of a two-frame OBJ
// sequence, with OpenVDB's tools where it has them:
//
//   1. read both OBJ files (positions and faces; polygons as fans of triangles, as
//      formats/obj does); the vertex velocities are (next - mesh) * fps;
//   2. surface: tools::meshToVolume, a narrow band of half_width voxels each side,
//      and its closest-polygon index grid;
//   3. velocity and normal, on the surface's active voxels (OpenVDB has no tool for
//      them): the closest point of the triangle the index grid names; the velocity
//      interpolated there with its barycentric coordinates, the normal the unit
//      vector from it to the voxel centre, pointing out (the triangle's normal on
//      the surface), as voxelize computes them;
//   4. write the three grids, with voxelize's metadata, compressed as voxelize
//      compresses them, with zip and the active mask (OpenVDB leaves the level set
//      unzipped), or with "blosc", OpenVDB's default: blosc and the active mask.
//
// threads caps TBB's workers (tbb::global_control). It prints the wall time of each
// stage, then the process's CPU time and peak resident memory (getrusage).
#include <openvdb/openvdb.h>
#include <openvdb/math/Proximity.h>
#include <openvdb/tools/MeshToVolume.h>
#include <openvdb/tree/LeafManager.h>

#include <tbb/global_control.h>

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using openvdb::Vec3d;
using openvdb::Vec3s;

struct Mesh {
    std::vector<Vec3d> points;
    std::vector<openvdb::Vec3I> triangles;
};

// objIndex turns one OBJ face corner ("7", "7/1", "7//3", "-2/1/1") into a 0-based
// vertex index.
unsigned objIndex(const std::string& corner, size_t vertices) {
    long i = std::stol(corner.substr(0, corner.find('/')));
    if (i < 0) i += long(vertices) + 1;
    if (i < 1 || size_t(i) > vertices) throw std::runtime_error("face index " + corner + " out of range");
    return unsigned(i - 1);
}

Mesh readOBJ(const char* path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(std::string(path) + ": cannot open");
    Mesh m;
    std::string line, word;
    std::vector<unsigned> face;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        if (!(ls >> word)) continue;
        if (word == "v") {
            Vec3d p;
            ls >> p[0] >> p[1] >> p[2];
            m.points.push_back(p);
        } else if (word == "f") {
            face.clear();
            std::string corner;
            while (ls >> corner) face.push_back(objIndex(corner, m.points.size()));
            for (size_t k = 2; k < face.size(); ++k)
                m.triangles.emplace_back(face[0], face[k - 1], face[k]);
        }
    }
    return m;
}

// IndexSpaceMesh gives meshToVolume the triangles in index space.
struct IndexSpaceMesh {
    const Mesh& mesh;
    const openvdb::math::Transform& xform;
    size_t polygonCount() const { return mesh.triangles.size(); }
    size_t pointCount() const { return mesh.points.size(); }
    size_t vertexCount(size_t) const { return 3; }
    void getIndexSpacePoint(size_t n, size_t v, Vec3d& pos) const {
        pos = xform.worldToIndex(mesh.points[mesh.triangles[n][int(v)]]);
    }
};

double seconds(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// velocityAndNormal fills the two vector grids, which have the surface's topology,
// from each active voxel's closest triangle.
void velocityAndNormal(const Mesh& m, const std::vector<Vec3d>& vel, const openvdb::FloatGrid& surface,
                       const openvdb::Int32Grid& index, openvdb::Vec3SGrid& velocity, openvdb::Vec3SGrid& normal) {
    const double h = surface.voxelSize()[0];
    openvdb::tree::LeafManager<openvdb::Vec3STree> velLeaves(velocity.tree());
    velLeaves.foreach([&](openvdb::Vec3STree::LeafNodeType& vleaf, size_t) {
        auto iacc = index.getConstAccessor();
        auto sacc = surface.getConstAccessor();
        auto* nleaf = normal.tree().probeLeaf(vleaf.origin());
        for (auto it = vleaf.beginValueOn(); it; ++it) {
            const openvdb::Coord ijk = it.getCoord();
            const int t = iacc.getValue(ijk);
            const float phi = sacc.getValue(ijk);
            if (t < 0 || size_t(t) >= m.triangles.size()) continue;
            const auto& tri = m.triangles[size_t(t)];
            const Vec3d p = surface.indexToWorld(ijk);
            const Vec3d &a = m.points[tri[0]], &b = m.points[tri[1]], &c = m.points[tri[2]];
            Vec3d uvw;
            const Vec3d cp = openvdb::math::closestPointOnTriangleToPoint(a, b, c, p, uvw);
            it.setValue(Vec3s(vel[tri[0]] * uvw[0] + vel[tri[1]] * uvw[1] + vel[tri[2]] * uvw[2]));
            if (std::getenv("CHECK_UVW") && (a * uvw[0] + b * uvw[1] + c * uvw[2] - cp).length() > 1e-9)
                std::fprintf(stderr, "uvw mismatch\n");
            Vec3d n = p - cp;
            const double d = n.length();
            if (d > 1e-6 * h) {
                n /= (phi < 0 ? -d : d);
            } else {
                n = (b - a).cross(c - a);
                n.normalize();
            }
            nleaf->setValueOnly(it.pos(), Vec3s(n));
        }
    });
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 8 && argc != 9) {
        std::fprintf(stderr, "usage: voxelize mesh.obj next.obj fps voxel half_width threads out.vdb [zip|blosc]\n");
        return 2;
    }
    try {
        const double fps = std::atof(argv[3]), voxel = std::atof(argv[4]);
        const float halfWidth = float(std::atof(argv[5]));
        const std::string compression = argc == 9 ? argv[8] : "zip";
        if (compression != "zip" && compression != "blosc") throw std::runtime_error("compression " + compression + ": zip or blosc");
        tbb::global_control threads(tbb::global_control::max_allowed_parallelism, size_t(std::atoi(argv[6])));
        openvdb::initialize();

        auto total = std::chrono::steady_clock::now();
        auto t = total;
        const Mesh m = readOBJ(argv[1]), next = readOBJ(argv[2]);
        if (next.points.size() != m.points.size()) throw std::runtime_error("the two frames have different vertex counts");
        std::vector<Vec3d> vel(m.points.size());
        for (size_t i = 0; i < vel.size(); ++i) vel[i] = (next.points[i] - m.points[i]) * fps;
        std::printf("read %zu triangles: %.3f s\n", m.triangles.size(), seconds(t));

        t = std::chrono::steady_clock::now();
        auto xform = openvdb::math::Transform::createLinearTransform(voxel);
        openvdb::Int32Grid index(0);
        auto surface = openvdb::tools::meshToVolume<openvdb::FloatGrid>(IndexSpaceMesh{m, *xform}, *xform, halfWidth,
                                                                         halfWidth, 0, &index);
        surface->setName("surface");
        std::printf("meshToVolume: %.3f s (%zu active voxels)\n", seconds(t), size_t(surface->activeVoxelCount()));

        t = std::chrono::steady_clock::now();
        auto velocity = openvdb::Vec3SGrid::create(Vec3s(0));
        auto normal = openvdb::Vec3SGrid::create(Vec3s(0));
        for (auto& g : {velocity, normal}) {
            g->setTransform(xform->copy());
            g->setTree(std::make_shared<openvdb::Vec3STree>(surface->tree(), Vec3s(0), openvdb::TopologyCopy()));
        }
        velocity->setName("velocity");
        velocity->setVectorType(openvdb::VEC_CONTRAVARIANT_RELATIVE);
        normal->setName("normal");
        normal->setVectorType(openvdb::VEC_COVARIANT_NORMALIZE);
        velocityAndNormal(m, vel, *surface, index, *velocity, *normal);
        std::printf("velocity and normal: %.3f s\n", seconds(t));

        t = std::chrono::steady_clock::now();
        openvdb::io::File file(argv[7]);
        file.setCompression((compression == "zip" ? openvdb::io::COMPRESS_ZIP : openvdb::io::COMPRESS_BLOSC) |
                            openvdb::io::COMPRESS_ACTIVE_MASK);
        openvdb::MetaMap meta;
        meta.insertMeta("frame", openvdb::Int32Metadata(1));
        meta.insertMeta("time", openvdb::DoubleMetadata(1 / fps));
        meta.insertMeta("fps", openvdb::DoubleMetadata(fps));
        meta.insertMeta("source", openvdb::StringMetadata(argv[1]));
        meta.insertMeta("band_half_width", openvdb::Int32Metadata(int(halfWidth)));
        meta.insertMeta("sign", openvdb::StringMetadata("openvdb"));
        file.write({surface, velocity, normal}, meta);
        file.close();
        std::printf("write: %.3f s\n", seconds(t));
        std::printf("total: %.3f s\n", seconds(total));

        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        const double cpu = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
        std::printf("cpu %.3f s, peak memory %ld kB\n", cpu, ru.ru_maxrss);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "voxelize: %s\n", e.what());
        return 1;
    }
    return 0;
}
