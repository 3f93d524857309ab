#!/usr/bin/env bash
# Times `export -to surface` against OpenVDB's own particles -> level set -> mesh
# (surface.cpp) on the same frame of about a million particles, with the same voxel
# size, band and smoothing, and prints both programs' wall time and peak memory.
#
#   bench/openvdb_surface/run.sh [workdir]     (from the repository's root)
#
# Needs g++ and Debian's libopenvdb-dev, libboost-dev and libtbb-dev; CI does not run it.
set -euo pipefail
work=${1:-/tmp/openvdb_surface}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work" bin
go build -o bin/ ./cmd/snowsim ./cmd/export
g++ -O2 -std=c++17 -o "$work/surface" "$here/surface.cpp" -lopenvdb -ltbb -lImath-3_1 -lpthread

# The frame: a slab and a ball resting on it, 993,529 particles at h = 2 cm.
[ -f "$work/million/snow.0001.prt" ] || bin/snowsim -checkpoint 0 -o "$work/million" "$here/million.toml"
frame="$work/million/snow.0001.prt"

# OpenVDB reads a PLY with each particle's radius: the radius our surface uses,
# (pi/6)^(1/3) (3 m / 4 pi rho)^(1/3), is half the particle spacing, h/4 here.
bin/export -to ply -frames 1 "$frame" "$work/points.ply" 2>/dev/null
voxel=0.01      # h / 2, export's default
smooth=1        # voxels: export's -smooth default (a Gaussian), OpenVDB's mean-curvature pass
echo "== OpenVDB 10: ParticlesToLevelSet, dilate / smooth / erode by 1 voxel, VolumeToMesh"
/usr/bin/time -f "wall %e s, peak memory %M kB" "$work/surface" "$work/points.ply" $voxel 0.5 3 $smooth "$work/openvdb.obj" "$work/openvdb.vdb"
echo "== export -to surface (level set, density cut by it, mesh)"
/usr/bin/time -f "wall %e s, peak memory %M kB" bin/export -to surface -frames 1 "$frame" "$work/ours.vdb" "$work/ours.obj"
echo "== export -to surface, mesh only"
/usr/bin/time -f "wall %e s, peak memory %M kB" bin/export -to surface -frames 1 "$frame" "$work/ours_mesh.obj"
