"""Renders one frame of snow surfaces with Cycles, headless: the mesh that
`export -to surface` writes (OBJ or PLY), optionally with the colliders' meshes that
snowsim writes with `[output] colliders`, on a ground plane under a sun and a sky.

    blender -b --factory-startup --python dcc/blender/render_surface.py -- \
        --mesh surface/snow.0012.obj [--colliders sim/colliders.0012.obj] \
        --out snow.png [--samples 64] [--size 960x540] [--azimuth 35] [--elevation 25]

Our files are Y up in metres; Blender's OBJ importer turns them Z up, and the PLY
importer is given the same rotation here, so both land the right way up.
"""
import argparse
import math
import sys

import bpy
from mathutils import Matrix, Vector


def parse():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    p = argparse.ArgumentParser(prog="render_surface.py")
    p.add_argument("--mesh", required=True, help="the snow's surface mesh (.obj or .ply)")
    p.add_argument("--colliders", help="the colliders' mesh (.obj or .ply)")
    p.add_argument("--out", required=True, help="the PNG to write")
    p.add_argument("--samples", type=int, default=64)
    p.add_argument("--size", default="960x540")
    p.add_argument("--azimuth", type=float, default=35, help="degrees about the up axis")
    p.add_argument("--elevation", type=float, default=25, help="degrees above the horizon")
    return p.parse_args(argv)


def load(path):
    """Imports a Y-up mesh file as one object standing Z up in Blender."""
    before = set(bpy.data.objects)
    if path.lower().endswith(".obj"):
        bpy.ops.wm.obj_import(filepath=path)  # Y up -> Z up, as the OBJ convention says
    elif path.lower().endswith(".ply"):
        bpy.ops.import_mesh.ply(filepath=path)
    else:
        raise SystemExit(f"{path}: give an .obj or a .ply")
    new = set(bpy.data.objects) - before
    if len(new) != 1:
        raise SystemExit(f"{path}: expected one mesh object, the importer made {len(new)} (an empty mesh?)")
    (obj,) = new
    if path.lower().endswith(".ply"):
        obj.matrix_world = Matrix.Rotation(math.radians(90), 4, "X") @ obj.matrix_world
    return obj


def material(name, color, roughness, subsurface=0.0):
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    bsdf = m.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*color, 1)
    bsdf.inputs["Roughness"].default_value = roughness
    if subsurface:
        # Snow scatters light a few millimetres deep: a soft, bright look.
        bsdf.inputs["Subsurface"].default_value = subsurface
        bsdf.inputs["Subsurface Radius"].default_value = (0.9, 0.95, 1.0)
        bsdf.inputs["Subsurface Color"].default_value = (0.9, 0.95, 1.0, 1)
    return m


def bounds(objs):
    lo = Vector((math.inf,) * 3)
    hi = -lo
    for o in objs:
        for c in o.bound_box:
            w = o.matrix_world @ Vector(c)
            lo = Vector(map(min, lo, w))
            hi = Vector(map(max, hi, w))
    return lo, hi


def main():
    a = parse()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    snow = load(a.mesh)
    snow.data.materials.append(material("snow", (0.92, 0.94, 0.97), 0.5, subsurface=0.2))
    for p in snow.data.polygons:
        p.use_smooth = True
    shown = [snow]
    if a.colliders:
        col = load(a.colliders)
        col.data.materials.append(material("collider", (0.45, 0.28, 0.2), 0.6))
        shown.append(col)

    lo, hi = bounds([snow])
    centre = (lo + hi) / 2
    radius = max((hi - lo).length / 2, 0.05)
    ground_z = min(bounds(shown)[0].z, lo.z)
    bpy.ops.mesh.primitive_plane_add(size=200 * radius, location=(centre.x, centre.y, ground_z))
    bpy.context.object.data.materials.append(material("ground", (0.35, 0.36, 0.38), 0.8))

    cam_data = bpy.data.cameras.new("camera")
    cam_data.lens = 50
    cam = bpy.data.objects.new("camera", cam_data)
    scene.collection.objects.link(cam)
    az, el = math.radians(a.azimuth), math.radians(a.elevation)
    # Our azimuth turns from +Z towards +X about Y (export's preview); in Blender's Z-up
    # frame our +Z is -Y.
    direction = Vector((math.sin(az) * math.cos(el), -math.cos(az) * math.cos(el), math.sin(el)))
    fov = 2 * math.atan(36 / 2 / cam_data.lens)
    cam.location = centre + direction * (radius / math.sin(fov / 2) * 1.1)
    cam.rotation_euler = (-direction).to_track_quat("-Z", "Y").to_euler()
    scene.camera = cam

    sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
    sun.data.energy = 4
    sun.data.angle = math.radians(3)
    sun.rotation_euler = (math.radians(40), math.radians(15), math.radians(30))
    scene.collection.objects.link(sun)
    world = bpy.data.worlds.new("sky")
    world.use_nodes = True
    world.node_tree.nodes["Background"].inputs["Color"].default_value = (0.55, 0.65, 0.8, 1)
    world.node_tree.nodes["Background"].inputs["Strength"].default_value = 0.8
    scene.world = world

    w, h = (int(v) for v in a.size.split("x"))
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = a.samples
    scene.cycles.use_denoising = False  # Debian's Blender is built without OpenImageDenoise
    scene.render.resolution_x, scene.render.resolution_y = w, h
    scene.render.resolution_percentage = 100
    scene.view_settings.view_transform = "Filmic"
    scene.render.filepath = a.out
    bpy.ops.render.render(write_still=True)
    print("SNOWTOOLS rendered", a.out, len(snow.data.vertices), "vertices")


main()
