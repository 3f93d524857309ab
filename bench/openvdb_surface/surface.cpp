// surface: OpenVDB's own particles -> level set -> mesh, timed, as the reference that
// `export -to surface` is measured against (run.sh beside it; figures in
// docs/surface.md).
//
//   surface points.ply voxel radius_scale half_width smooth_voxels [mesh.obj [surface.vdb]]
//
// points.ply is a binary little-endian PLY as `export -to ply` writes it, with x, y, z
// and optionally a per-vertex "radius" (metres); without one, every particle gets
// radius_scale * voxel. The level set is OpenVDB's ParticlesToLevelSet (union of
// spheres), then, when smooth_voxels > 0, LevelSetFilter's dilate / mean-curvature
// smooth / erode by smooth_voxels voxels (OpenVDB's recommendation for particles),
// then VolumeToMesh at isovalue 0 with adaptivity 0. Prints one line per stage with
// its wall time, then the peak resident memory.
#include <openvdb/openvdb.h>
#include <openvdb/tools/LevelSetFilter.h>
#include <openvdb/tools/ParticlesToLevelSet.h>
#include <openvdb/tools/VolumeToMesh.h>

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Particles {
    std::vector<openvdb::Vec3R> pos;
    std::vector<openvdb::Real> rad;
    using PosType = openvdb::Vec3R;
    size_t size() const { return pos.size(); }
    void getPos(size_t n, openvdb::Vec3R& p) const { p = pos[n]; }
    void getPosRad(size_t n, openvdb::Vec3R& p, openvdb::Real& r) const { p = pos[n]; r = rad[n]; }
};

size_t typeSize(const std::string& t) {
    if (t == "char" || t == "uchar" || t == "int8" || t == "uint8") return 1;
    if (t == "short" || t == "ushort" || t == "int16" || t == "uint16") return 2;
    if (t == "int" || t == "uint" || t == "float" || t == "int32" || t == "uint32" || t == "float32") return 4;
    if (t == "double" || t == "float64") return 8;
    throw std::runtime_error("unsupported PLY property type " + t);
}

// readPLY reads the vertices of a binary little-endian PLY whose vertex element comes
// first and holds float x, y, z (and optionally a float radius).
Particles readPLY(const char* path, double defaultRadius) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(std::string(path) + ": cannot open");
    std::string line;
    size_t count = 0, stride = 0;
    long ox = -1, oy = -1, oz = -1, orad = -1;
    bool inVertex = false, sawVertex = false;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string word;
        ls >> word;
        if (word == "format" && line.find("binary_little_endian") == std::string::npos)
            throw std::runtime_error("only binary_little_endian PLY is read");
        if (word == "element") {
            std::string name;
            ls >> name;
            inVertex = name == "vertex" && !sawVertex;
            if (inVertex) { ls >> count; sawVertex = true; }
        } else if (word == "property" && inVertex) {
            std::string type, name;
            ls >> type >> name;
            if (type == "list") throw std::runtime_error("list property in vertex element");
            if (name == "x" && type == "float") ox = long(stride);
            if (name == "y" && type == "float") oy = long(stride);
            if (name == "z" && type == "float") oz = long(stride);
            if (name == "radius" && type == "float") orad = long(stride);
            stride += typeSize(type);
        } else if (word == "end_header") {
            break;
        }
    }
    if (ox < 0 || oy < 0 || oz < 0) throw std::runtime_error("no float x, y, z vertex properties");
    Particles p;
    p.pos.resize(count);
    p.rad.resize(count);
    std::vector<char> rec(stride);
    for (size_t i = 0; i < count; ++i) {
        if (!in.read(rec.data(), std::streamsize(stride))) throw std::runtime_error("truncated vertex data");
        float x, y, z, r = float(defaultRadius);
        std::memcpy(&x, &rec[size_t(ox)], 4);
        std::memcpy(&y, &rec[size_t(oy)], 4);
        std::memcpy(&z, &rec[size_t(oz)], 4);
        if (orad >= 0) std::memcpy(&r, &rec[size_t(orad)], 4);
        p.pos[i] = openvdb::Vec3R(x, y, z);
        p.rad[i] = r;
    }
    return p;
}

double seconds(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: surface points.ply voxel radius_scale half_width smooth_voxels [mesh.obj [surface.vdb]]\n");
        return 2;
    }
    try {
        openvdb::initialize();
        const double voxel = std::atof(argv[2]), scale = std::atof(argv[3]);
        const float halfWidth = float(std::atof(argv[4]));
        const int smooth = std::atoi(argv[5]);

        auto t = std::chrono::steady_clock::now();
        Particles p = readPLY(argv[1], voxel);
        for (auto& r : p.rad) r *= scale;
        std::printf("read %zu particles: %.3f s\n", p.size(), seconds(t));

        auto total = std::chrono::steady_clock::now();
        t = std::chrono::steady_clock::now();
        auto grid = openvdb::createLevelSet<openvdb::FloatGrid>(voxel, halfWidth);
        openvdb::tools::ParticlesToLevelSet<openvdb::FloatGrid> raster(*grid);
        raster.setRmin(0.25);  // OpenVDB skips particles under Rmin voxels (default 1.5); ours are half a voxel
        raster.rasterizeSpheres(p);
        raster.finalize(true);
        std::printf("particles to level set: %.3f s (%zu active voxels, %zu ignored particles)\n",
                    seconds(t), size_t(grid->activeVoxelCount()), raster.getMinCount());

        if (smooth > 0) {
            t = std::chrono::steady_clock::now();
            openvdb::tools::LevelSetFilter<openvdb::FloatGrid> filter(*grid);
            filter.offset(-float(smooth * voxel));
            filter.meanCurvature();
            filter.offset(float(smooth * voxel));
            std::printf("dilate, smooth, erode: %.3f s\n", seconds(t));
        }

        t = std::chrono::steady_clock::now();
        std::vector<openvdb::Vec3s> points;
        std::vector<openvdb::Vec3I> tris;
        std::vector<openvdb::Vec4I> quads;
        openvdb::tools::volumeToMesh(*grid, points, tris, quads, 0.0, 0.0);
        std::printf("volume to mesh: %.3f s (%zu points, %zu triangles, %zu quads)\n", seconds(t),
                    points.size(), tris.size(), quads.size());
        std::printf("total: %.3f s\n", seconds(total));

        if (argc > 6) {
            std::ofstream out(argv[6]);
            for (auto& v : points) out << "v " << v[0] << ' ' << v[1] << ' ' << v[2] << '\n';
            // OpenVDB's faces wind clockwise seen from outside; OBJ wants counter-clockwise.
            for (auto& f : tris) out << "f " << f[2] + 1 << ' ' << f[1] + 1 << ' ' << f[0] + 1 << '\n';
            for (auto& q : quads)
                out << "f " << q[3] + 1 << ' ' << q[2] + 1 << ' ' << q[1] + 1 << ' ' << q[0] + 1 << '\n';
        }
        if (argc > 7) {
            grid->setName("surface");
            openvdb::io::File(argv[7]).write({grid});
        }
        std::printf("total with writing: %.3f s\n", seconds(total));

        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        std::printf("peak resident memory: %.1f MB\n", double(ru.ru_maxrss) / 1024.0);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "surface: %s\n", e.what());
        return 1;
    }
    return 0;
}
