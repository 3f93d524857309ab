"""Reads an export -to surface file with OpenVDB's own library and reports, as JSON,
what OpenVDB sees of the "surface" grid: its class, background and voxel size, the
sign it gives at given points (inside the snow, outside it), and the area and volume
of the mesh OpenVDB's own mesher (convertToPolygons, adaptivity 0) makes of it.

usage: /usr/bin/python3 surface_check.py file.vdb x,y,z...
"""
import json
import sys

import numpy as np
import pyopenvdb as vdb

path = sys.argv[1]
grid = vdb.read(path, "surface")
acc = grid.getConstAccessor()
dx = grid.transform.voxelSize()[0]
report = {
    "class": grid.gridClass,
    "background": grid.background,
    "voxel_size": dx,
    "active": grid.activeVoxelCount(),
    "values": [],
}
for text in sys.argv[2:]:
    world = [float(v) for v in text.split(",")]
    ijk = grid.transform.worldToIndexCellCentered(world)
    report["values"].append(acc.getValue(ijk))

points, triangles, quads = grid.convertToPolygons(0.0, 0.0)
faces = [t for t in triangles] + [(q[0], q[1], q[2]) for q in quads] + [(q[0], q[2], q[3]) for q in quads]
area = 0.0
volume = 0.0
p = np.asarray(points, dtype=np.float64)
if len(faces):
    f = np.asarray(faces, dtype=np.int64)
    a, b, c = p[f[:, 0]], p[f[:, 1]], p[f[:, 2]]
    cross = np.cross(b - a, c - a)
    area = float(np.linalg.norm(cross, axis=1).sum() / 2)
    volume = float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6)
report["mesh_area"] = area
# OpenVDB winds its faces clockwise seen from outside: the volume comes out negative.
report["mesh_volume"] = abs(volume)
report["mesh_points"] = len(points)
print(json.dumps(report))
