"""Reads an export -to vdb file with OpenVDB's own library and reports, as JSON, what
OpenVDB sees: each grid's class, value type, voxel size and active voxel count, the
integral of the density (sum of density x voxel volume) and the momentum
(sum of density x velocity x voxel volume).

usage: /usr/bin/python3 density_check.py file.vdb [velocity-grid-name]

The velocity grid is "velocity" unless named (export -for houdini calls it "vel").
"""
import json
import sys

import pyopenvdb as vdb

path = sys.argv[1]
grids, file_meta = vdb.readAll(path)
report = {"grids": {}, "file_meta": {k: v for k, v in file_meta.items() if isinstance(v, (int, float, str))}}
by_name = {}
for g in grids:
    by_name[g.name] = g
    report["grids"][g.name] = {
        "class": g.gridClass,
        "type": g.valueTypeName,
        "voxel_size": list(g.transform.voxelSize()),
        "active": g.activeVoxelCount(),
        "half": bool(g.saveFloatAsHalf),
        "vector_type": g.vectorType if hasattr(g, "vectorType") else None,
    }

density = by_name["density"]
dx = density.transform.voxelSize()[0]
cell = dx * dx * dx
mass = 0.0
momentum = [0.0, 0.0, 0.0]
velocity = by_name.get(sys.argv[2] if len(sys.argv) > 2 else "velocity")
vacc = velocity.getConstAccessor() if velocity is not None else None
for item in density.citerOnValues():
    if not item.active:
        continue
    m = item.value * cell * item.count
    mass += m
    if vacc is not None:
        v = vacc.getValue(item.min)
        for a in range(3):
            momentum[a] += m * v[a]
report["mass"] = mass
report["momentum"] = momentum
print(json.dumps(report))
