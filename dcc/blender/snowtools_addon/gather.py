"""What a bake takes from the Blender scene: the snow objects as OBJ files, the
colliders as an OBJ sequence of their evaluated meshes (collider_meshes.py), and the
scene file for snowsim, in the tools' axes (axes.py). Runs in Blender's main thread,
before the tools start. Hidden marked objects take part too (visibility.py).
"""
import json
import os

import bpy
from mathutils import Vector

from . import axes, cache, collider_meshes, properties, scene_file, visibility
from .errors import BakeError


class Bake:
    """What gather() found and wrote: the cache folder, the frame range, whether
    there are colliders to voxelize, the unit scale, the frame rate and h."""

    def __init__(self, cache_dir, start, end, colliders, scale, fps, h):
        self.cache_dir, self.start, self.end = cache_dir, start, end
        self.colliders, self.scale, self.fps, self.h = colliders, scale, fps, h

    def path(self, rel):
        return os.path.join(self.cache_dir, rel)


def cache_folder(scene):
    """The absolute cache folder; a "//" path needs the .blend to be saved."""
    folder = scene.snowtools.cache_dir
    if folder.startswith("//") and not bpy.data.filepath:
        raise BakeError("Save the .blend first: the cache folder %s is relative to it" % folder)
    return os.path.abspath(bpy.path.abspath(folder))


def gather(context):
    """Writes the tools' inputs into the cache folder and returns the Bake."""
    scene = context.scene
    s = scene.snowtools
    start, end = properties.frame_range(scene)
    if end <= start:
        raise BakeError("The frame range %d-%d is empty: the end must come after the start" % (start, end))
    snow = properties.marked(scene, "SNOW")
    colliders = properties.marked(scene, "COLLIDER")
    if not snow:
        raise BakeError("No snow: select mesh objects and press Mark as snow")
    scale = axes.decimal(scene.unit_settings.scale_length)
    fps = axes.fps(scene.render)
    folder = cache_folder(scene)
    os.makedirs(os.path.join(folder, cache.SNOW_DIR), exist_ok=True)
    bake = Bake(folder, start, end, bool(colliders), scale, fps, axes.decimal(s.h))

    frame_before = scene.frame_current
    selected = [o for o in context.view_layer.objects if o.select_get()]
    active = context.view_layer.objects.active
    try:
        with visibility.shown(context, snow + colliders):
            scene.frame_set(start + 1)
            ahead = {o.name: _centre(o) for o in snow}
            scene.frame_set(start)
            sources = [_snow_source(context, bake, i + 1, o, ahead[o.name]) for i, o in enumerate(snow)]
            box = _bounds(snow)
            fixed = _bounds([s.domain_object]) if s.domain_object else None
            if colliders:
                reach = collider_meshes.sweep(context, colliders, start, end)
                box = (Vector(map(min, box[0], reach[0])), Vector(map(max, box[1], reach[1])))
                collider_meshes.export(context, colliders, start, end, bake.path(cache.COLLIDER_MESHES))
    finally:
        scene.frame_set(frame_before)
        visibility.select_only(context, selected, active)
    lo, hi = _domain(s, bake, box, fixed)

    sim = scene_file.Scene(
        domain_min=lo, domain_max=hi, h=bake.h, fps=fps, start=start, frames=end - start,
        snow=sources, colliders=cache.COLLIDERS.replace(os.sep, "/") if colliders else "",
        comment="Written by the snowtools Blender add-on from %s, frames %d-%d.\n"
                "Tools' axes: Y up, metres (Blender's x, z, -y times the unit scale %r)."
                % (bpy.path.basename(bpy.data.filepath) or "an unsaved file", start, end, scale))
    with open(bake.path(cache.SCENE), "w", encoding="utf-8") as f:
        f.write(scene_file.toml_text(sim))
    with open(bake.path(cache.BAKE_INFO), "w", encoding="utf-8") as f:
        json.dump({"start": start, "end": end, "scale": scale, "fps": fps, "h": bake.h}, f)
    return bake


def _centre(obj):
    """The world-space centre of an object's bounding box, in Blender units."""
    corners = [obj.matrix_world @ Vector(c) for c in obj.bound_box]
    return sum(corners, Vector()) / 8


def _snow_source(context, bake, index, obj, centre_next_frame):
    """Writes a snow object at the current (first) frame as a Y-up OBJ in metres; its
    velocity is its bounding box centre's motion to the next frame."""
    rel = cache.snow_mesh_path(index, obj.name)
    visibility.select_only(context, [obj])
    bpy.ops.wm.obj_export(
        filepath=bake.path(rel), export_selected_objects=True, apply_modifiers=True,
        export_animation=False, forward_axis="NEGATIVE_Z", up_axis="Y", global_scale=bake.scale,
        export_uv=False, export_normals=False, export_materials=False)
    moved = (centre_next_frame - _centre(obj)) * bake.fps
    # Micrometres per second; + 0.0 turns -0.0 into 0.0.
    velocity = tuple(round(v, 6) + 0.0 for v in axes.to_tools(moved, bake.scale))
    return scene_file.SnowSource(
        path=rel.replace(os.sep, "/"), material=context.scene.snowtools.material,
        velocity=velocity, name=obj.name)


def _domain(settings, bake, box, fixed):
    """The simulation box in the tools' axes: `fixed`, the domain object's bounds when
    there is one, or `box`, the snow's at the first frame and the colliders' over
    every frame, grown by the margin. Both boxes are in Blender units."""
    if fixed:
        lo, hi = axes.box_to_tools(*fixed, bake.scale)
        return tuple(round(v, 6) for v in lo), tuple(round(v, 6) for v in hi)
    tlo, thi = axes.box_to_tools(*box, bake.scale)
    # Micrometres: mathutils' float32 leaves 4.7499998938 where the box says 4.75.
    m = axes.decimal(settings.margin)
    return tuple(round(v - m, 6) for v in tlo), tuple(round(v + m, 6) for v in thi)


def _bounds(objs):
    """The world-space bounding box of objects, in Blender units."""
    corners = [o.matrix_world @ Vector(c) for o in objs for c in o.bound_box]
    return (Vector(min(c[i] for c in corners) for i in range(3)),
            Vector(max(c[i] for c in corners) for i in range(3)))
