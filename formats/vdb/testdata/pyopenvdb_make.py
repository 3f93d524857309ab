"""Writes grids with OpenVDB's own library, for the Go reader's tests.

Usage: /usr/bin/python3 pyopenvdb_make.py OUT.vdb

A level-set sphere (createLevelSetSphere: leaves, and internal tiles of -background
inside), a fog volume (random voxels, active tiles of a leaf's and a lower node's
size, an inactive root tile of another value) and a vec3s grid with a vector type.
"""
import sys

import numpy as np
import pyopenvdb as vdb

out = sys.argv[1]

sphere = vdb.createLevelSetSphere(radius=2.0, center=(0.1, 0.2, 0.3), voxelSize=0.05, halfWidth=3.0)
sphere.name = "sphere"

fog = vdb.FloatGrid(0.0)
fog.name = "density"
fog.gridClass = vdb.GridClass.FOG_VOLUME
dense = np.random.default_rng(1).random((20, 20, 20)).astype(np.float32)
dense[dense < 0.5] = 0
fog.copyFromArray(dense, ijk=(-5, 3, -300))
fog.fill((128, 0, 0), (255, 127, 127), 0.25, True)      # a lower-node-sized active tile
fog.fill((-64, -64, -64), (-57, -57, -57), 0.75, True)  # a leaf-sized active tile
fog.fill((4096, 0, 0), (8191, 4095, 4095), 0.5, False)  # an inactive root tile
fog.transform = vdb.createLinearTransform(voxelSize=0.2)
fog.transform.translate((1.0, -2.0, 0.5))

vel = vdb.Vec3SGrid()
vel.name = "velocity"
vel.copyFromArray(np.random.default_rng(2).random((10, 10, 10, 3)).astype(np.float32), ijk=(-3, -3, -3))
vel.vectorType = vdb.VectorType.CONTRAVARIANT_RELATIVE

vdb.write(out, grids=[sphere, fog, vel], metadata={"creator": "pyopenvdb_make.py"})
