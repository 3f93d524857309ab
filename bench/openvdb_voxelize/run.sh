#!/usr/bin/env bash
# Times `voxelize` against OpenVDB's meshToVolume (voxelize.cpp beside this script),
# end to end: read a two-frame OBJ sequence, build the surface, velocity and normal
# grids of the first frame, write them compressed. Both run on spot (closed) and on
# spot without every 50th triangle (open: 117 holes), at 128 and 256 voxels across
# the longest side, band 3, on 1 and 2 threads, each program REPS times in turn
# (alternating programs and thread counts, so that all meet the same load), and it
# prints the medians of CPU time, wall time and peak memory (/usr/bin/time), their
# ratios to ours, each program's wall-time speed-up from 1 to 2 threads, and the
# load average. On a shared machine, run it when it is otherwise quiet.
#
#   bench/openvdb_voxelize/run.sh [workdir]     (from the repository's root)
#
# REPS (default 3) sets the runs of each; BLOSC=1 also times OpenVDB writing its
# default blosc compression instead of zip. Needs g++ and Debian's libopenvdb-dev,
# libboost-dev and libtbb-dev; CI does not run it.
set -euo pipefail
work=${1:-/tmp/openvdb_voxelize}
reps=${REPS:-3}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work/out" bin
go build -o bin/ ./cmd/voxelize
g++ -O2 -std=c++17 -o "$work/openvdb_voxelize" "$here/voxelize.cpp" -lopenvdb -ltbb -lImath-3_1 -lpthread

# The meshes: spot, and spot turned by 0.02 radians about y and moved 5 mm (the
# second frame, for velocities); the open one drops every 50th face of both.
spot=$(cd "$here/../../.." && pwd)/shared/assets/spot_triangulated.obj
cp "$spot" "$work/closed.0001.obj"
awk '/^v /{c = cos(0.02); s = sin(0.02); printf "v %.9g %.9g %.9g\n", $2*c + $4*s + 0.005, $3, -$2*s + $4*c; next} {print}' \
    "$spot" >"$work/closed.0002.obj"
for f in 0001 0002; do
    awk '/^f /{if (++n % 50 == 0) next} {print}' "$work/closed.$f.obj" >"$work/open.$f.obj"
done
span=$(awk '/^v /{for (k = 2; k <= 4; k++) {if (!(k in lo) || $k < lo[k]) lo[k] = $k; if (!(k in hi) || $k > hi[k]) hi[k] = $k}}
    END {s = 0; for (k = 2; k <= 4; k++) if (hi[k] - lo[k] > s) s = hi[k] - lo[k]; printf "%.17g", s}' "$spot")

# timed NAME COMMAND...: runs the command under /usr/bin/time and appends
# "cpu wall rss_mb" to $work/NAME.
timed() {
    local name=$1
    shift
    /usr/bin/time -f "%U %S %e %M" -o "$work/time.txt" "$@" >/dev/null 2>&1
    awk '{printf "%.3f %.3f %.1f\n", $1 + $2, $3, $4 / 1024}' "$work/time.txt" >>"$work/$name"
}

# median FILE COLUMN
median() { sort -g -k"$2","$2" "$1" | awk -v c="$2" '{v[NR] = $c} END {print v[int((NR + 1) / 2)]}'; }

programs="ours openvdb"
[ "${BLOSC:-0}" = 1 ] && programs="ours openvdb openvdb_blosc"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "mesh   res thr | program: cpu s, wall s, MB | its ratio to ours: cpu, wall, MB"
for mesh in closed open; do
    for res in 128 256; do
        h=$(awk -v s="$span" -v r="$res" 'BEGIN {printf "%.17g", s / r}')
        for p in $programs; do rm -f "$work/$p.1" "$work/$p.2"; done
        # 1 and 2 threads in turn within each round, so that the speed-up of each
        # program meets the same load.
        for _ in $(seq "$reps"); do
            for threads in 1 2; do
                for p in $programs; do
                    case $p in
                    ours) timed ours.$threads env GOMAXPROCS="$threads" bin/voxelize -voxel "$h" -band 3 -frames 1-1 \
                        -threads "$threads" -o "$work/out/ours.vdb" "$work/$mesh.0001.obj" ;;
                    openvdb) timed openvdb.$threads "$work/openvdb_voxelize" "$work/$mesh.0001.obj" "$work/$mesh.0002.obj" \
                        24 "$h" 3 "$threads" "$work/out/openvdb.vdb" zip ;;
                    openvdb_blosc) timed openvdb_blosc.$threads "$work/openvdb_voxelize" "$work/$mesh.0001.obj" \
                        "$work/$mesh.0002.obj" 24 "$h" 3 "$threads" "$work/out/openvdb_blosc.vdb" blosc ;;
                    esac
                done
            done
        done
        for threads in 1 2; do
            for p in $programs; do
                read -r c w m <<<"$(median "$work/$p.$threads" 1) $(median "$work/$p.$threads" 2) $(median "$work/$p.$threads" 3)"
                read -r oc ow om <<<"$(median "$work/ours.$threads" 1) $(median "$work/ours.$threads" 2) $(median "$work/ours.$threads" 3)"
                printf "%-6s %3s %3s | %-13s %6s %6s %6s | %.2f %.2f %.2f\n" "$mesh" "$res" "$threads" "$p" "$c" "$w" "$m" \
                    "$(awk -v a="$c" -v b="$oc" 'BEGIN {print a / b}')" "$(awk -v a="$w" -v b="$ow" 'BEGIN {print a / b}')" \
                    "$(awk -v a="$m" -v b="$om" 'BEGIN {print a / b}')"
            done
        done
        for p in $programs; do
            printf "%-6s %3s     | %-13s wall speed-up from 1 to 2 threads: %.2f\n" "$mesh" "$res" "$p" \
                "$(awk -v a="$(median "$work/$p.1" 2)" -v b="$(median "$work/$p.2" 2)" 'BEGIN {print a / b}')"
        done
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
