"""What a bake takes from the Blender scene: the snow objects as OBJ files, the
colliders as one glTF file, and the scene file for snowsim, all in the tools' axes
and metres (axes.py). Runs in Blender's main thread, before the tools start.
"""
import json
import os

import bpy
from mathutils import Vector

from . import axes, cache, properties, scene_file


class BakeError(Exception):
    """Something the user must fix before a bake can run."""


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
        scene.frame_set(start + 1)
        ahead = {o.name: _centre(o) for o in snow}
        scene.frame_set(start)
        sources = [_snow_source(context, bake, i + 1, o, ahead[o.name]) for i, o in enumerate(snow)]
        if colliders:
            _export_colliders(context, bake, colliders)
        lo, hi = _domain(scene, bake, snow, colliders)
    finally:
        scene.frame_set(frame_before)
        _select_only(context, selected, active)

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
    _select_only(context, [obj])
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


def _export_colliders(context, bake, colliders):
    """Writes the colliders with their animation sampled at every frame of the range
    (glTF: Y up; Blender units, which voxelize -scale turns into metres). Frame N's
    pose is at time N/fps in the file. Object keys, parents, armatures and shape keys
    all move them."""
    scene = context.scene
    # A character's mesh moves by its armature: the exporter writes the skin only
    # when the armature is exported too (else the mesh stays in its rest pose).
    rigs = {o.find_armature() for o in colliders} - {None}
    _select_only(context, colliders + sorted(rigs, key=lambda o: o.name))
    saved = scene.frame_start, scene.frame_end
    scene.frame_start, scene.frame_end = bake.start, bake.end
    try:
        bpy.ops.export_scene.gltf(
            filepath=bake.path(cache.COLLIDER_GLTF), export_format="GLB", use_selection=True,
            export_yup=True, export_apply=True, export_animations=True,
            export_force_sampling=True, export_frame_range=True, export_frame_step=1,
            # Keep every sampled key: dropping constant ones would end the clip where
            # the motion stops, and the voxelized frames with it.
            export_optimize_animation_size=False,
            export_materials="NONE", export_texcoords=False, export_normals=False,
            export_cameras=False, export_lights=False)
    finally:
        scene.frame_start, scene.frame_end = saved


def _domain(scene, bake, snow, colliders):
    """The simulation box in the tools' axes: the domain object's bounds, or the
    bounds of the snow at the first frame and of the colliders over every frame,
    grown by the margin."""
    s = scene.snowtools
    if s.domain_object:
        lo, hi = axes.box_to_tools(*_bounds([s.domain_object]), bake.scale)
        return tuple(round(v, 6) for v in lo), tuple(round(v, 6) for v in hi)
    lo, hi = _bounds(snow)
    for f in range(bake.start, bake.end + 1) if colliders else ():
        scene.frame_set(f)
        clo, chi = _bounds(colliders)
        lo, hi = Vector(map(min, lo, clo)), Vector(map(max, hi, chi))
    tlo, thi = axes.box_to_tools(lo, hi, bake.scale)
    # Micrometres: mathutils' float32 leaves 4.7499998938 where the box says 4.75.
    m = axes.decimal(s.margin)
    return tuple(round(v - m, 6) for v in tlo), tuple(round(v + m, 6) for v in thi)


def _bounds(objs):
    """The world-space bounding box of objects, in Blender units."""
    corners = [o.matrix_world @ Vector(c) for o in objs for c in o.bound_box]
    return (Vector(min(c[i] for c in corners) for i in range(3)),
            Vector(max(c[i] for c in corners) for i in range(3)))


def _select_only(context, objs, active=None):
    """Selects objs alone (the exporters write the selection) and makes active (or
    the first of objs) the active object."""
    for o in context.view_layer.objects:
        o.select_set(False)
    for o in objs:
        o.select_set(True)
    context.view_layer.objects.active = active or (objs[0] if objs else None)
