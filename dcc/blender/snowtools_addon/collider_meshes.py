"""The colliders of a bake as an OBJ sequence of their evaluated meshes.

Blender's OBJ exporter writes, for every frame of the range, the selected objects'
evaluated meshes as they show in the viewport, whatever moves them: object keys,
parents and constraints, armatures, shape keys and any modifier (Displace, Lattice,
Cloth, Geometry Nodes). Its files are named by Blender's frame (col1001.obj,
col1002.obj, ...: cache.COLLIDER_MESHES), in its default axes, Y up and -Z forward,
which are the tools' (axes.py), and in Blender units, which voxelize -scale turns into
metres. voxelize keeps the files' numbers and puts file n at n/fps s with the fps the
add-on gives it (render.fps / fps_base), the time Blender shows frame n at, so the
tools' frame n is Blender's frame n at any rate, 29.97 fps included.

voxelize needs the same vertices and faces in every frame (a vertex's velocity is its
motion from one frame to the next) and stops with an error naming the two frames
where they change. sweep() makes the same check first, object by object, so that the
user hears which collider's Remesh or Geometry Nodes changes its topology.
"""
import os

import bpy
import numpy as np
from mathutils import Vector

from . import cache, visibility
from .errors import BakeError


def sweep(context, colliders, start, end):
    """Steps through frames start to end and returns the world-space box (lo, hi, in
    Blender units) that the colliders' evaluated bounding boxes span over them.
    Raises BakeError naming a collider whose topology changes, and the frames."""
    scene = context.scene
    lo, hi = Vector((np.inf,) * 3), Vector((-np.inf,) * 3)
    before = {}  # object name: its topology at the previous frame
    for frame in range(start, end + 1):
        scene.frame_set(frame)
        depsgraph = context.evaluated_depsgraph_get()
        for obj in colliders:
            ev = obj.evaluated_get(depsgraph)
            corners = [ev.matrix_world @ Vector(c) for c in ev.bound_box]
            lo = Vector(map(min, lo, *corners))
            hi = Vector(map(max, hi, *corners))
            now = _topology(ev)
            if obj.name in before and not _same(before[obj.name], now):
                raise BakeError(
                    "The collider %s changes its topology between frames %d and %d (%s): "
                    "voxelize needs the same vertices and faces in every frame. Apply or "
                    "disable the modifier that rebuilds its mesh (Remesh, Geometry Nodes...)"
                    % (obj.name, frame - 1, frame, _change(before[obj.name], now)))
            before[obj.name] = now
    return lo, hi


def _topology(evaluated):
    """What voxelize compares from frame to frame: the vertex count and the faces'
    vertex lists (loop_start, loop_total and the loops' vertices)."""
    mesh = evaluated.to_mesh()
    try:
        loops = np.empty(len(mesh.loops), dtype=np.int32)
        mesh.loops.foreach_get("vertex_index", loops)
        starts = np.empty(len(mesh.polygons), dtype=np.int32)
        mesh.polygons.foreach_get("loop_start", starts)
        sizes = np.empty(len(mesh.polygons), dtype=np.int32)
        mesh.polygons.foreach_get("loop_total", sizes)
        return len(mesh.vertices), loops, starts, sizes
    finally:
        evaluated.to_mesh_clear()


def _same(a, b):
    return a[0] == b[0] and all(np.array_equal(x, y) for x, y in zip(a[1:], b[1:]))


def _change(a, b):
    """How topology a became b, in words."""
    if a[0] != b[0]:
        return "%d vertices become %d" % (a[0], b[0])
    if len(a[3]) != len(b[3]):
        return "%d faces become %d" % (len(a[3]), len(b[3]))
    return "the faces join other vertices"


def export(context, colliders, start, end, pattern):
    """Writes the colliders' evaluated meshes at frames start to end, all of them in
    one file per frame, as the files of `pattern` (absolute, one "#": Blender's
    exporter pads no frame numbers). The objects must be selectable
    (visibility.shown)."""
    os.makedirs(os.path.dirname(pattern), exist_ok=True)
    cache.remove_frames(pattern)  # a longer earlier bake's frames would join the sequence
    visibility.select_only(context, colliders)
    bpy.ops.wm.obj_export(
        filepath=cache.unnumbered(pattern), export_selected_objects=True,
        export_animation=True, start_frame=start, end_frame=end,
        apply_modifiers=True, export_eval_mode="DAG_EVAL_VIEWPORT",
        forward_axis="NEGATIVE_Z", up_axis="Y", global_scale=1.0,
        export_uv=False, export_normals=False, export_materials=False)
    # The exporter reports a file it cannot write on the console only.
    written = cache.frames_on_disk(pattern)
    if written != list(range(start, end + 1)):
        raise BakeError("Blender's OBJ exporter wrote %d of the %d frames %d-%d into %s (see the console)"
                        % (len(written), end - start + 1, start, end, os.path.dirname(pattern)))
