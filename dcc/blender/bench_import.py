"""Times what the add-on's frame handler does per frame: read a PLY frame and fill a
mesh with it, for a point cloud of a million particles and a surface of a million
triangles (synthetic files in the layout `export` writes; the best of three loads).

    blender -b --factory-startup --python dcc/blender/bench_import.py
"""
import os
import sys
import tempfile
import time

import bpy
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from snowtools_addon import importer  # noqa: E402


def write_points(path, n):
    rng = np.random.default_rng(1)
    rows = np.zeros(n, dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("id", "<i4")])
    rows["x"], rows["y"], rows["z"] = rng.random((3, n))
    rows["id"] = np.arange(n)
    header = ("ply\nformat binary_little_endian 1.0\nelement vertex %d\nproperty float x\n"
              "property float y\nproperty float z\nproperty int id\nend_header\n" % n)
    with open(path, "wb") as f:
        f.write(header.encode() + rows.tobytes())


def write_grid(path, k):
    """A k x k vertex sheet of 2 (k-1)^2 triangles: a surface's topology."""
    i, j = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
    verts = (np.column_stack([i.ravel(), j.ravel(), np.zeros(k * k)]) / k).astype("<f4")
    a = (i[:-1, :-1] * k + j[:-1, :-1]).ravel()
    tris = np.concatenate([np.column_stack([a, a + k, a + 1]), np.column_stack([a + 1, a + k, a + k + 1])])
    faces = np.zeros(len(tris), dtype=[("n", "u1"), ("i", "<i4", 3)])
    faces["n"], faces["i"] = 3, tris
    header = ("ply\nformat binary_little_endian 1.0\nelement vertex %d\nproperty float x\n"
              "property float y\nproperty float z\nelement face %d\n"
              "property list uchar int vertex_indices\nend_header\n" % (len(verts), len(tris)))
    with open(path, "wb") as f:
        f.write(header.encode() + verts.tobytes() + faces.tobytes())


def best_load(pattern):
    obj = bpy.data.objects.new("bench", bpy.data.meshes.new("bench"))
    bpy.context.scene.collection.objects.link(obj)
    obj[importer.FILES] = pattern
    best = float("inf")
    for _ in range(3):
        obj.data[importer.LOADED] = "stale"
        t = time.perf_counter()
        importer.load_frame(obj, 1)
        best = min(best, time.perf_counter() - t)
    return len(obj.data.vertices), len(obj.data.polygons), best


with tempfile.TemporaryDirectory() as tmp:
    write_points(os.path.join(tmp, "points.0001.ply"), 1_000_000)
    write_grid(os.path.join(tmp, "surface.0001.ply"), 708)
    for name in ("points", "surface"):
        v, f, s = best_load(os.path.join(tmp, name + ".####.ply"))
        print("SNOWTOOLS bench %s: %d vertices, %d triangles, %.3f s per frame" % (name, v, f, s))
