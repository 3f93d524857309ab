"""Judge a collider written by voxelize with OpenVDB 10 (Debian's python3-openvdb).

Usage: openvdb_compare.py collider.vdb mesh.obj voxel_size half_width

Reads the file with pyopenvdb, builds OpenVDB's own level set of the same OBJ
(createLevelSetFromPolygons, i.e. meshToVolume) on the same transform and band, and
prints as JSON what OpenVDB read and how the two level sets compare.
"""
import json
import sys

import numpy as np
import pyopenvdb as vdb

path, obj, h, half_width = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
grids, file_meta = vdb.readAll(path)
by_name = {g.name: g for g in grids}

points, triangles = [], []
with open(obj) as f:
    for line in f:
        words = line.split()
        if words and words[0] == "v":
            points.append([float(x) for x in words[1:4]])
        elif words and words[0] == "f":
            triangles.append([int(x.split("/")[0]) - 1 for x in words[1:4]])
reference = vdb.FloatGrid.createLevelSetFromPolygons(
    np.array(points, dtype=np.float32),
    triangles=np.array(triangles, dtype=np.int32),
    transform=vdb.createLinearTransform(voxelSize=h),
    halfWidth=half_width,
)
ref = reference.getConstAccessor()

surface = by_name["surface"]
both = 0
max_diff = 0.0
sum_sq = 0.0
sign_disagree = 0
ours_only = 0
disagreements = []  # (difference in voxels, ijk, ours, OpenVDB's)
for item in surface.iterOnValues():
    if item["min"] != item["max"]:
        continue  # an active tile: voxelize writes none
    ijk = item["min"]
    value, active = ref.probeValue(ijk)
    if not active:
        ours_only += 1
        continue
    both += 1
    d = abs(item["value"] - value) / h
    max_diff = max(max_diff, d)
    sum_sq += d * d
    if abs(item["value"]) > 0.5 * h and (item["value"] < 0) != (value < 0):
        sign_disagree += 1
    if d > 0.25:
        disagreements.append((d, list(ijk), item["value"], value))
disagreements.sort(reverse=True)

# The inside tiles: OpenVDB must agree that they are inside.
inside_tiles, tiles_outside_for_openvdb = 0, 0
for item in surface.iterOffValues():
    if item["min"] != item["max"] and item["value"] < 0:
        inside_tiles += 1
        centre = tuple((a + b) // 2 for a, b in zip(item["min"], item["max"]))
        if ref.getValue(centre) >= 0:
            tiles_outside_for_openvdb += 1

print(json.dumps({
    "grids": {g.name: {"class": g.gridClass, "type": g.valueTypeName,
                       "vector_type": g.metadata.get("vector_type", ""),
                       "active": g.activeVoxelCount(),
                       "background": g.background if g.valueTypeName == "float" else None,
                       "voxel_size": list(g.transform.voxelSize())} for g in grids},
    "file_meta": {k: (v if isinstance(v, (int, float, str)) else str(v)) for k, v in file_meta.items()},
    "openvdb_active": reference.activeVoxelCount(),
    "both_active": both, "ours_only": ours_only,
    "max_diff": max_diff, "rms_diff": (sum_sq / max(both, 1)) ** 0.5,
    "sign_disagree": sign_disagree,
    "worst": [{"ijk": ijk, "ours": ours, "openvdb": theirs} for _, ijk, ours, theirs in disagreements[:20]],
    "inside_tiles": inside_tiles, "tiles_outside_for_openvdb": tiles_outside_for_openvdb,
}))
