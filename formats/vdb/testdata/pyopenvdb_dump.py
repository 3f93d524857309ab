"""Dumps what OpenVDB's own library reads from a .vdb file, for the Go tests.

Usage: /usr/bin/python3 pyopenvdb_dump.py IN.vdb OUTDIR

Writes OUTDIR/grids.json (per grid: name, value type, class, background, voxel
size, translation, active voxel count, vector type, half flag, tiles) and, per grid,
OUTDIR/NAME.voxels: every active leaf voxel, then probes at a lattice over the
active bounding box (16 voxels wider) and a few far-away points, as records of
int32 x, y, z, int32 active, then 1 or 3 float32 values, little endian.
"""
import json
import struct
import sys

import pyopenvdb as vdb

path, outdir = sys.argv[1], sys.argv[2]
grids, file_meta = vdb.readAll(path)
FAR = [(4196, 50, 50), (-5000, 0, 0), (0, 0, 0), (1 << 30, 0, 0), (-(1 << 30), 7, -9)]

info = []
for g in grids:
    is_vec = isinstance(g, vdb.Vec3SGrid)
    fmt = "<iiii" + ("fff" if is_vec else "f")

    def record(c, v, on):
        vals = tuple(v) if is_vec else (v,)
        return struct.pack(fmt, c[0], c[1], c[2], 1 if on else 0, *vals)

    tiles, voxels = [], []
    for it in g.citerOnValues():
        if it.count == 1:
            voxels.append(record(it.min, it.value, True))
        else:
            tiles.append({"min": list(it.min), "max": list(it.max),
                          "value": list(it.value) if is_vec else it.value})
    acc = g.getConstAccessor()
    probes = []
    if g.activeVoxelCount() > 0:
        lo, hi = g.evalActiveVoxelBoundingBox()
        lo = [x - 16 for x in lo]
        hi = [x + 16 for x in hi]
        step = [max(1, (h - l) // 40) for l, h in zip(lo, hi)]
        for x in range(lo[0], hi[0] + 1, step[0]):
            for y in range(lo[1], hi[1] + 1, step[1]):
                for z in range(lo[2], hi[2] + 1, step[2]):
                    probes.append((x, y, z))
    probes += FAR
    for c in probes:
        v, on = acc.probeValue(c)
        voxels.append(record(c, v, on))
    with open(f"{outdir}/{g.name}.voxels", "wb") as f:
        f.write(b"".join(voxels))
    info.append({
        "name": g.name,
        "type": type(g).__name__,
        "class": str(g.gridClass),
        "background": list(g.background) if is_vec else g.background,
        "voxel_size": list(g.transform.voxelSize()),
        "translation": list(g.transform.indexToWorld((0, 0, 0))),
        "active_count": g.activeVoxelCount(),
        "leaf_voxels": len(voxels) - len(probes),
        "vector_type": str(g.vectorType) if is_vec else "",
        "half": bool(g.saveFloatAsHalf),
        "creator": str(g.metadata.get("creator", "")),
        "tiles": tiles,
    })
with open(f"{outdir}/grids.json", "w") as f:
    json.dump({"grids": info, "file_meta": {k: str(v) for k, v in file_meta.items()}}, f)
