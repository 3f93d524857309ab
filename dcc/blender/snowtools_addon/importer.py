"""Brings a bake's results into the scene, and keeps them on the current frame.

Points and surface: a mesh object per kind whose custom property "snowtools_files" is
the #### pattern of its PLY files (blend-relative). A persistent frame_change_pre
handler loads frame N's file into its mesh, so the object follows the frame in the
viewport and in renders, headless ones included (the add-on must be enabled there:
`blender -b file.blend --addons snowtools_addon -a`). The files are in Blender's axes
(export -up z) and the bake's Blender units (export -scale); the object's scale only
makes up for a unit scale changed since the bake.

Volume: a Volume object on the VDB sequence, which Blender itself loads per frame:
file N at frame N. Our VDBs are Y up in metres, and a VDB's transform holds no
rotation, so the object turns +90 degrees about X (the tools' y becomes Blender's z)
and scales by 1 / unit scale.
"""
import json
import math
import os

import bpy
import numpy as np
from bpy.app.handlers import persistent

from . import cache, ply

FILES = "snowtools_files"      # object property: the #### pattern of its frames
KIND = "snowtools_kind"        # "points", "surface" or "volume"
LOADED = "snowtools_loaded"    # mesh property: the file (and its time) it holds

_NAMES = {"POINTS": "Snow points", "SURFACE": "Snow surface", "VOLUME": "Snow volume"}


class NothingToImport(Exception):
    pass


def import_bake(context, cache_dir, kinds):
    """Creates or updates the objects of the output kinds found in the cache folder;
    returns the kinds imported."""
    info_path = os.path.join(cache_dir, cache.BAKE_INFO)
    try:
        with open(info_path, encoding="utf-8") as f:
            info = json.load(f)
    except FileNotFoundError:
        raise NothingToImport("%s: no bake there (no %s)" % (cache_dir, cache.BAKE_INFO))
    scene = context.scene
    # Frame handlers change meshes: rendering must not read them meanwhile.
    scene.render.use_lock_interface = True
    done = []
    for kind in ("POINTS", "SURFACE", "VOLUME"):
        pattern = os.path.join(cache_dir, cache.OUTPUTS[kind][1])
        frames = cache.frames_on_disk(pattern)
        if kind not in kinds or not frames:
            continue
        obj = _object(scene, kind, _stored(pattern))
        if kind == "VOLUME":
            _volume_sequence(obj, pattern, frames, info["scale"])
            obj.scale = (1 / scene.unit_settings.scale_length,) * 3
        else:
            obj.scale = (_unit_ratio(scene, info["scale"]),) * 3
            if kind == "POINTS":
                _point_spheres(obj, particle_radius(info["h"]) / info["scale"])
            load_frame(obj, scene.frame_current)
        done.append(kind)
    return done


def _stored(path):
    """A path as the .blend keeps it: relative to the .blend ("//...") once it is saved,
    so that the project folder can move."""
    return bpy.path.relpath(path) if bpy.data.filepath else path


def particle_radius(h, per_cell=8):
    """The radius (m) of a sphere of a particle's share of a cell, h^3 / per_cell: half
    the spacing of snowsim's particles, so neighbours touch."""
    return (h ** 3 / per_cell) ** (1 / 3) / 2


def _unit_ratio(scene, baked_scale):
    """Blender units of now per Blender unit of the bake."""
    return baked_scale / scene.unit_settings.scale_length


def _object(scene, kind, stored_pattern):
    """The object showing these files: the one imported before, or a new one in the
    scene's "Snow" collection."""
    for obj in scene.objects:
        if obj.get(FILES) == stored_pattern:
            return obj
    name = _NAMES[kind]
    data = bpy.data.volumes.new(name) if kind == "VOLUME" else bpy.data.meshes.new(name)
    obj = bpy.data.objects.new(name, data)
    obj[FILES] = stored_pattern
    obj[KIND] = kind.lower()
    coll = bpy.data.collections.get("Snow")
    if coll is None:
        coll = bpy.data.collections.new("Snow")
    if coll.name not in scene.collection.children:
        scene.collection.children.link(coll)
    coll.objects.link(obj)
    return obj


def _volume_sequence(obj, pattern, frames, scale):
    """Points the Volume at the VDB sequence so that file N shows at frame N. Blender
    shows file (frame - frame_start + 1 + frame_offset) for frames frame_start to
    frame_start + frame_duration - 1 (sequence mode Clip: nothing outside)."""
    first, last = frames[0], frames[-1]
    vol = obj.data
    vol.filepath = _stored(cache.frame_path(pattern, first))
    vol.is_sequence = True
    vol.sequence_mode = "CLIP"
    vol.frame_start = first
    vol.frame_offset = first - 1
    vol.frame_duration = last - first + 1
    obj.rotation_mode = "XYZ"
    obj.rotation_euler = (math.radians(90), 0, 0)
    if not vol.materials:
        vol.materials.append(_snow_volume_material(scale))


def _snow_volume_material(scale):
    """A starting look: white scattering whose extinction is 200 per metre in snow of
    400 kg/m^3 (the grid "density" is kg/m^3; Blender's density is per Blender unit)."""
    m = bpy.data.materials.new("Snow volume")
    m.use_nodes = True
    nodes = m.node_tree.nodes
    for n in list(nodes):
        nodes.remove(n)
    vol = nodes.new("ShaderNodeVolumePrincipled")
    vol.inputs["Color"].default_value = (0.95, 0.97, 1.0, 1.0)
    vol.inputs["Density"].default_value = 200.0 / 400.0 * scale
    vol.inputs["Density Attribute"].default_value = "density"
    out = nodes.new("ShaderNodeOutputMaterial")
    m.node_tree.links.new(vol.outputs["Volume"], out.inputs["Volume"])
    return m


def _point_spheres(obj, radius):
    """Gives the point cloud a Geometry Nodes modifier that turns its vertices into
    points of the particles' radius, which Cycles renders as spheres."""
    name = "Snow points (%s)" % obj.name
    group = bpy.data.node_groups.get(name)
    if group is None:
        group = bpy.data.node_groups.new(name, "GeometryNodeTree")
        _group_socket(group, "INPUT")
        _group_socket(group, "OUTPUT")
        nodes = group.nodes
        gin, gout = nodes.new("NodeGroupInput"), nodes.new("NodeGroupOutput")
        to_points = nodes.new("GeometryNodeMeshToPoints")
        group.links.new(gin.outputs[0], to_points.inputs["Mesh"])
        group.links.new(to_points.outputs["Points"], gout.inputs[0])
    group.nodes["Mesh to Points"].inputs["Radius"].default_value = radius
    mod = obj.modifiers.get("Snow points") or obj.modifiers.new("Snow points", "NODES")
    mod.node_group = group


def _group_socket(group, in_out):
    """A Geometry socket on a node group: group.inputs/outputs in Blender 3.x,
    group.interface from 4.0."""
    if hasattr(group, "interface"):
        group.interface.new_socket("Geometry", in_out=in_out, socket_type="NodeSocketGeometry")
    else:
        (group.inputs if in_out == "INPUT" else group.outputs).new("NodeSocketGeometry", "Geometry")


def load_frame(obj, frame):
    """Puts frame `frame`'s file into the object's mesh (empty when there is none), unless
    the mesh already holds that file as it is on disk."""
    pattern = bpy.path.abspath(obj[FILES])
    path = cache.frame_path(pattern, frame)
    try:
        stamp = "%s@%d" % (path, os.stat(path).st_mtime_ns)
    except FileNotFoundError:
        path, stamp = None, "none"
    mesh = obj.data
    if mesh.get(LOADED) == stamp:
        return
    mesh.clear_geometry()
    if path:
        _fill(mesh, ply.read(path))
    mesh[LOADED] = stamp


def _fill(mesh, m):
    """Writes a PLY frame's vertices, triangles and particle IDs into an empty mesh."""
    pos = m.positions()
    mesh.vertices.add(len(pos))
    mesh.vertices.foreach_set("co", pos.ravel())
    if m.faces is not None and len(m.faces):
        tris = len(m.faces)
        mesh.loops.add(3 * tris)
        mesh.loops.foreach_set("vertex_index", m.faces.ravel())
        mesh.polygons.add(tris)
        mesh.polygons.foreach_set("loop_start", np.arange(0, 3 * tris, 3, dtype=np.int32))
        if not bpy.types.MeshPolygon.bl_rna.properties["loop_total"].is_readonly:  # Blender 3.x
            mesh.polygons.foreach_set("loop_total", np.full(tris, 3, dtype=np.int32))
    if "id" in m.vertex:
        # Blender's own name for stable point IDs (Geometry Nodes' random values use it).
        attr = mesh.attributes.get("id") or mesh.attributes.new("id", "INT", "POINT")
        attr.data.foreach_set("value", m.vertex["id"].astype(np.int32))
    mesh.update()


@persistent
def on_frame_change(scene, depsgraph=None):
    """Loads the current frame's file into every imported points and surface object."""
    for obj in scene.objects:
        if obj.type == "MESH" and FILES in obj:
            try:
                load_frame(obj, scene.frame_current)
            except (OSError, ply.PLYError) as e:
                print("snowtools: %s, frame %d: %s" % (obj.name, scene.frame_current, e))


@persistent
def on_load(_):
    for scene in bpy.data.scenes:
        on_frame_change(scene)


_HANDLERS = ((bpy.app.handlers.frame_change_pre, on_frame_change), (bpy.app.handlers.load_post, on_load))


def register():
    unregister()
    for handlers, fn in _HANDLERS:
        handlers.append(fn)


def unregister():
    """Removes our handlers, those of an earlier load of the add-on too (matched by
    module and name, since a reload makes new function objects)."""
    for handlers, fn in _HANDLERS:
        for h in [h for h in handlers if (h.__module__, h.__name__) == (fn.__module__, fn.__name__)]:
            handlers.remove(h)
