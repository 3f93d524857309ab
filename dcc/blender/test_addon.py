"""Headless test of the snowtools add-on, run by cmd/internal/blendertest/addon_test.go:

    BLENDER_USER_SCRIPTS=TMP blender -b --factory-startup --python-exit-code 3 \
        --python dcc/blender/test_addon.py -- --tools BIN --work DIR [--scale 0.01] [--scene rates]

It installs the add-on from this folder as a user would (a zip through
Preferences > Add-ons > Install), builds a small scene in code, bakes it through the
add-on's operators, and prints what it finds on "SNOWTOOLS " lines for the Go test to
judge. The slab scene (the default): a 20 cm snow cube thrown sideways onto a slab
that an armature's bone raises 10 cm over frames 1-7; the lines give the imported
points against snowsim's PRT particles, the surface's and the volume's bounds against
the points, the volume's frame, the snow above the slab. It also cancels a running
simulation and reads a tool's error through the operator. The rates scene
(build_rates_scene): 30 / 1.001 fps from frame 1001, hidden colliders moved by object
keys and by a Displace modifier over a shape key, a cache folder named with "#" and
"%d"; the lines give the colliders' poses in Blender at every frame, for the Go test
to find in voxelize's files, and the errors of a collider whose topology changes and
of one in an excluded collection.
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import zlib

import addon_utils
import bpy
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FPS, START, END = 24, 1, 7
H = 0.05        # grid spacing, m
CUBE = 0.2      # snow cube side, m
CUBE_Z = 0.45   # its centre, m above the origin
SLAB_TOP = (0.2, 0.3)  # the slab's top at frames START and END, m
THROW = 0.48    # the cube's speed along Blender's +Y at the first frame, m/s


def say(*words):
    print("SNOWTOOLS", *words, flush=True)


def parse():
    p = argparse.ArgumentParser(prog="test_addon.py")
    p.add_argument("--tools", required=True, help="the folder of voxelize, snowsim and export")
    p.add_argument("--work", required=True, help="an empty folder for the .blend and its cache")
    p.add_argument("--scene", choices=("slab", "rates"), default="slab",
                   help="the slab scene (module doc) or the rates scene (build_rates_scene)")
    p.add_argument("--scale", type=float, default=1.0, help="the scene's unit scale (metres per Blender unit)")
    return p.parse_args(sys.argv[sys.argv.index("--") + 1:])


def install(work):
    """Zips the add-on and installs it through Blender's own operator, into the user
    scripts folder that BLENDER_USER_SCRIPTS names (never the real user's)."""
    if not os.environ.get("BLENDER_USER_SCRIPTS", "").startswith(os.path.abspath(work)):
        raise SystemExit("set BLENDER_USER_SCRIPTS to a folder inside --work: the test installs an add-on there")
    zipped = shutil.make_archive(os.path.join(work, "snowtools_addon"), "zip", HERE, "snowtools_addon")
    bpy.ops.preferences.addon_install(filepath=zipped, overwrite=True)
    addon_utils.enable("snowtools_addon", default_set=True, handle_error=_raise)
    mod = sys.modules["snowtools_addon"]
    if not os.path.abspath(mod.__file__).startswith(os.path.abspath(os.environ["BLENDER_USER_SCRIPTS"])):
        raise SystemExit("the add-on was loaded from %s, not from the installed copy" % mod.__file__)


def _raise(e):
    raise e


def build_scene(work, scale):
    """The test scene, in Blender units of `scale` metres: the cube and the slab, marked
    through the add-on's operators (the slab is selected and active when marked),
    and the panel's settings."""
    bpy.ops.object.select_all(action="SELECT")
    bpy.ops.object.delete()
    scene = bpy.context.scene
    scene.unit_settings.scale_length = scale
    scene.render.fps, scene.render.fps_base = FPS, 1.0
    scene.frame_start, scene.frame_end = START, END

    # The slab rises on a bone, as a character's mesh moves: the add-on must export
    # the armature with it, or the slab stays down.
    bpy.ops.object.armature_add(location=(0, 0, 0))
    rig = bpy.context.object
    rig.name = "rig"
    bone = rig.pose.bones[0]  # its Y axis is the world's Z
    bone.keyframe_insert("location", frame=START)
    bone.location.y = (SLAB_TOP[1] - SLAB_TOP[0]) / scale
    bone.keyframe_insert("location", frame=END)
    for fc in rig.animation_data.action.fcurves:
        for k in fc.keyframe_points:
            k.interpolation = "LINEAR"
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0, 0, (SLAB_TOP[0] - 0.05) / scale))
    slab = bpy.context.object
    slab.name = "slab"
    slab.scale = (1.0 / scale, 1.0 / scale, 0.1 / scale)  # 1 m x 1 m x 10 cm
    group = slab.vertex_groups.new(name=bone.name)
    group.add(range(len(slab.data.vertices)), 1.0, "REPLACE")
    slab.modifiers.new("rig", "ARMATURE").object = rig
    slab.parent = rig
    bpy.ops.snowtools.mark(role="COLLIDER")

    # The cube is thrown along Blender's +Y at THROW m/s: keys at the first two frames.
    bpy.ops.mesh.primitive_cube_add(size=CUBE / scale, location=(0, 0, CUBE_Z / scale))
    cube = bpy.context.object
    cube.name = "snow"
    cube.keyframe_insert("location", frame=START)
    cube.location.y = THROW / FPS / scale
    cube.keyframe_insert("location", frame=START + 1)
    for fc in cube.animation_data.action.fcurves:
        for k in fc.keyframe_points:
            k.interpolation = "LINEAR"
    bpy.ops.snowtools.mark(role="SNOW")

    s = scene.snowtools
    s.h = H
    s.margin = 0.2
    s.outputs = {"POINTS", "SURFACE", "VOLUME"}
    bpy.ops.wm.save_as_mainfile(filepath=os.path.join(work, "snow.blend"))
    return scene, slab


def read_prt(path):
    """A PRT file's particles (/work/shared/specs/prt.md): {channel: array} and the
    file metadata {name: value}."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\xc0PRT\r\n\x1a\n", path
    header_len, = struct.unpack_from("<i", data, 8)
    count, = struct.unpack_from("<q", data, 48)
    types = {0: "<i2", 1: "<i4", 2: "<i8", 3: "<f2", 4: "<f4", 5: "<f8", 6: "<u2", 7: "<u4", 8: "<u8", 9: "i1", 10: "u1"}
    meta, at = {}, 56
    while at < header_len:
        kind, length = data[at:at + 4], struct.unpack_from("<i", data, at + 4)[0]
        body = data[at + 8:at + 8 + length]
        at += 8 + length
        if kind == b"Stop":
            break
        chan, name, rest = body.split(b"\0", 2)
        vtype, value = struct.unpack_from("<i", rest)[0], rest[4:]
        if chan == b"" and vtype != -1:
            meta[name.decode()] = np.frombuffer(value, dtype=types[vtype])
    _, nchan, entry = struct.unpack_from("<3i", data, header_len)
    fields, at = [], header_len + 12
    for _ in range(nchan):
        name = data[at:at + 32].split(b"\0")[0].decode()
        dtype, arity, offset = struct.unpack_from("<3i", data, at + 32)
        fields.append((name, types[dtype], arity, offset))
        at += entry
    size = max(off + arity * np.dtype(t).itemsize for _, t, arity, off in fields)
    rows = np.frombuffer(zlib.decompress(data[at:]), dtype=np.uint8).reshape(count, size)
    channels = {}
    for name, t, arity, off in fields:
        width = arity * np.dtype(t).itemsize
        channels[name] = rows[:, off:off + width].copy().view(t).reshape(count, arity)
    return channels, meta


def world_vertices(obj):
    co = np.empty(3 * len(obj.data.vertices), dtype=np.float64)
    obj.data.vertices.foreach_get("co", co)
    m = np.array(obj.matrix_world)
    co = co.reshape(-1, 3)
    return co @ m[:3, :3].T + m[:3, 3]


def world_bounds(obj, depsgraph):
    """The evaluated object's world bounding box (Blender units)."""
    ev = obj.evaluated_get(depsgraph)
    m = np.array(ev.matrix_world)
    c = np.array([tuple(v) for v in ev.bound_box]) @ m[:3, :3].T + m[:3, 3]
    return c.min(axis=0), c.max(axis=0)


def volume_probe(scene, volume):
    """A mesh object whose Geometry Nodes mesh the Volume object's density where it
    reaches half of snow's 400 kg/m^3, in world space: Blender's bounds of a volume
    are those of its 8^3-voxel leaves, too coarse to judge where the snow is."""
    from snowtools_addon.importer import _group_socket
    group = bpy.data.node_groups.new("volume probe", "GeometryNodeTree")
    _group_socket(group, "OUTPUT")
    info = group.nodes.new("GeometryNodeObjectInfo")
    info.transform_space = "RELATIVE"
    info.inputs["Object"].default_value = volume
    to_mesh = group.nodes.new("GeometryNodeVolumeToMesh")
    to_mesh.inputs["Threshold"].default_value = 200.0
    out = group.nodes.new("NodeGroupOutput")
    group.links.new(info.outputs["Geometry"], to_mesh.inputs["Volume"])
    group.links.new(to_mesh.outputs["Mesh"], out.inputs[0])
    probe = bpy.data.objects.new("volume probe", bpy.data.meshes.new("volume probe"))
    scene.collection.objects.link(probe)
    probe.modifiers.new("probe", "NODES").node_group = group
    return probe


def tools_axes(p, scale):
    """Blender points (BU, Z up) in the tools' axes and metres: (x, z, -y) * scale,
    written out here rather than taken from the add-on, so that the test judges it."""
    return np.column_stack([p[:, 0], p[:, 2], -p[:, 1]]) * scale


def check_frames(scene, slab, cache_dir, scale):
    objs = {o.get("snowtools_kind"): o for o in scene.objects if o.get("snowtools_kind")}
    say("objects", " ".join(sorted(objs)))
    say("files", "prt", *frames(os.path.join(cache_dir, "sim"), ".prt"))
    say("files", "colliders", *frames(os.path.join(cache_dir, "colliders"), ".vdb"))
    say("files", "collider_meshes", *frames(os.path.join(cache_dir, "colliders", "obj"), ".obj"))
    points, surface, volume = objs["points"], objs["surface"], objs["volume"]
    probe = volume_probe(scene, volume)
    for n in range(START, END + 1):
        scene.frame_set(n)
        dg = bpy.context.evaluated_depsgraph_get()
        chans, meta = read_prt(os.path.join(cache_dir, "sim", "snow.%04d.prt" % n))
        prt = chans["Position"].astype(np.float64)
        bl = world_vertices(points)
        err = np.abs(tools_axes(bl, scale) - prt).max() if len(bl) == len(prt) else float("inf")
        ids = np.empty(len(points.data.vertices), dtype=np.int32)
        points.data.attributes["id"].data.foreach_get("value", ids)
        same_ids = bool(np.array_equal(ids, chans["ID"].ravel()))
        say("points", n, len(bl), len(prt), "%.3g" % err, "ids", same_ids, "time", "%.9g" % meta["Time"][0])
        # Bounds in metres, Blender's axes: the points', the surface's, the volume's.
        plo, phi = bl.min(axis=0) * scale, bl.max(axis=0) * scale
        slo, shi = (b * scale for b in world_bounds(surface, dg))
        vev = volume.evaluated_get(dg).data
        vlo, vhi = (b * scale for b in world_bounds(probe, dg))
        say("surface", n, len(surface.data.vertices), "%.4g" % np.abs(np.concatenate([slo - plo, shi - phi])).max())
        say("volume", n, vev.grids.frame, os.path.basename(vev.grids.frame_filepath) or "none",
            "%.4g" % np.abs(np.concatenate([vlo - plo, vhi - phi])).max(), len(vev.grids),
            len(probe.evaluated_get(dg).data.vertices))
        slab_top = world_bounds(slab, dg)[1][2] * scale
        say("above", n, "%.4g" % (plo[2] - slab_top), "%.4g" % (phi[2] - slab_top))
    # At the first frame the particles fill the cube where Blender shows it.
    scene.frame_set(START)
    bl = world_vertices(points) * scale
    c = np.array([0, 0, CUBE_Z])
    say("cube", "%.4g" % np.abs(bl - c).max(axis=0).max(), "%.4g" % np.abs(bl.mean(axis=0) - c).max())
    # Thrown along +Y, the snow has moved that way by the last frame.
    scene.frame_set(END)
    say("thrown", "%.4g" % (world_vertices(points)[:, 1].mean() * scale - bl[:, 1].mean()))


RENDER_PROBE = """
import bpy
def report(scene, *_):
    pts = [o for o in scene.objects if o.get("snowtools_kind") == "points"][0]
    v = pts.matrix_world @ pts.data.vertices[0].co
    print("SNOWTOOLS rendered", scene.frame_current, len(pts.data.vertices), v.x, v.y, v.z, flush=True)
bpy.app.handlers.render_post.append(report)
scene = bpy.context.scene
scene.render.engine = "CYCLES"
scene.cycles.samples = 1
scene.cycles.use_denoising = False  # Debian builds Blender without OpenImageDenoise
scene.render.resolution_x = scene.render.resolution_y = 16
scene.render.filepath = "//render/f"
camera = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
scene.collection.objects.link(camera)
camera.location = (0, -3 / scene.unit_settings.scale_length, 0.5 / scene.unit_settings.scale_length)
camera.rotation_euler = (1.5708, 0, 0)
scene.camera = camera
"""


def check_render(work, cache_dir, scale, frame=5):
    """Renders one frame of the saved .blend in a new headless Blender, as a render
    farm would (the add-on enabled with --addons), and reports the first point the
    render saw against the PRT's first particle of that frame."""
    blend = os.path.join(work, "baked.blend")
    bpy.ops.wm.save_as_mainfile(filepath=blend)
    out = subprocess.run(
        [bpy.app.binary_path, "-b", "--factory-startup", blend, "--addons", "snowtools_addon",
         "--python-exit-code", "3", "--python-expr", RENDER_PROBE, "-f", str(frame)],
        capture_output=True, text=True, timeout=120)
    seen = [l.split()[2:] for l in out.stdout.splitlines() if l.startswith("SNOWTOOLS rendered")]
    if out.returncode != 0 or len(seen) != 1:
        raise SystemExit("headless render failed (exit %d):\n%s%s" % (out.returncode, out.stdout[-2000:], out.stderr[-2000:]))
    n, count, *v = seen[0]
    prt = read_prt(os.path.join(cache_dir, "sim", "snow.%04d.prt" % frame))[0]["Position"]
    got = tools_axes(np.array([[float(x) for x in v]]), scale)[0]
    say("render", n, count, len(prt), "%.3g" % np.abs(got - prt[0]).max())


def frames(folder, ext):
    """The frame numbers of the files in folder with that extension: the digits that
    end each name's stem (snow.0007.prt and Blender's col7.obj are both frame 7)."""
    if not os.path.isdir(folder):
        return []
    stems = (n[:-len(ext)] for n in os.listdir(folder) if n.endswith(ext))
    return sorted(int(m.group()) for m in (re.search(r"\d+$", s) for s in stems) if m)


def check_cancel(cache_dir, tools):
    """Cancels a long simulation after its third frame: the frames written stay whole
    (each reads back), no temporaries are left, and the process is gone."""
    from snowtools_addon import pipeline
    out = os.path.join(cache_dir, "cancel")
    pattern = os.path.join(out, "snow.####.prt")
    step = pipeline.Step("snowsim", [os.path.join(tools, "snowsim"), "-frames", "500", "-o", out,
                                     os.path.join(cache_dir, "scene.toml")], cache_dir, clears=[pattern])
    run = pipeline.Pipeline([step])
    t0 = time.time()
    while not os.path.exists(os.path.join(out, "snow.0004.prt")):
        if run.poll() or time.time() - t0 > 60:
            raise SystemExit("the long simulation ended or took more than a minute to write frame 4")
        time.sleep(0.02)
    proc = run.running.proc
    run.cancel()
    written = frames(out, ".prt")
    whole = all(len(read_prt(os.path.join(out, "snow.%04d.prt" % f))[0]["Position"]) > 0 for f in written)
    hidden = [n for n in os.listdir(out) if n.startswith(".")]
    say("cancel", len(written), "whole", whole, "hidden", len(hidden), "exit", proc.returncode,
        "done", run.done, "status", run.status.replace(" ", "_"))


def check_error(scene):
    """A bake whose snow lies outside a user domain box: snowsim refuses the scene, and
    the operator's error carries snowsim's own message."""
    bpy.ops.mesh.primitive_cube_add(size=0.5 / scene.unit_settings.scale_length, location=(5 / scene.unit_settings.scale_length, 0, 0))
    box = bpy.context.object
    scene.snowtools.domain_object = box
    try:
        bpy.ops.snowtools.bake()
        say("error none")
    except RuntimeError as e:
        msg = str(e).replace("\n", " ")
        say("error", msg)
    finally:
        scene.snowtools.domain_object = None
        bpy.data.objects.remove(box)


def check_helpers():
    """The add-on's pure helpers on cases the bake does not reach: progress lines
    counted from a first frame, float32 settings, and the scene writer's strings
    (read back with Python's own TOML reader)."""
    import tomllib
    from snowtools_addon import axes, pipeline, scene_file
    bad = []
    for line, origin, want in (("frame 1005/1048  t = 41.875 s", 1001, 4 / 47),
                               ("voxelize [####......] 3/10 frame 7: x.vdb, 0.5 s/frame", 0, 0.3),
                               ("frame 12  3/12  512 particles", 0, 0.25),
                               ("snowsim: 512 particles, h = 0.05 m", 0, None)):
        got = pipeline.progress_fraction(line, origin)
        if (got is None) != (want is None) or (want is not None and abs(got - want) > 1e-12):
            bad.append("progress %r: %r, want %r" % (line, got, want))
    for typed in (0.05, 0.01, 1.0, 0.3048, 1e-3):
        single = struct.unpack("<f", struct.pack("<f", typed))[0]
        if axes.decimal(single) != typed:
            bad.append("decimal(%r) = %r" % (single, axes.decimal(single)))
    odd = 'snow/01_a "b" \\c é.obj'
    text = scene_file.toml_text(scene_file.Scene(
        domain_min=(-1, 0, -1), domain_max=(1, 2, 1), h=0.05, fps=30 / 1.001, start=1001, frames=47,
        snow=[scene_file.SnowSource(path=odd, material="wet", velocity=(0.5, 0, 0), name="a\nb")],
        colliders="colliders/col.####.vdb", comment="two\nlines"))
    d = tomllib.loads(text)
    if (d["snow"][0]["path"] != odd or d["time"]["fps"] != 30 / 1.001 or d["time"]["start"] != 1001
            or d["snow"][0]["velocity"] != [0.5, 0.0, 0.0] or d["collider"][0]["shape"] != "vdb"):
        bad.append("scene file read back as %r" % d)
    say("helpers", "; ".join(bad).replace("\n", " ") or "ok")


# The rates scene (--scene rates): NTSC's 30 / 1.001 fps, frames from 1001, colliders
# that only the evaluated mesh moves, hidden ones, and a cache folder whose name holds
# the tools' frame placeholders.
RATE_FPS, RATE_BASE, RATE_START, RATE_END = 30, 1.001, 1001, 1004
RATE_CACHE = "shot#12 %d"
LIFT = 0.05     # m per frame: the "lift" box's object keys raise it
WAVE = 0.03     # m per frame: the "wave" box's Displace modifier raises it
WAVE_KEY = 0.02  # m: its shape key "up" raises its top face, keyed 0 -> 1 over the range


def _linear_keys(owner, path, values, frames):
    """Keys owner.path (a float or a vector's z) to values at frames, linearly."""
    for value, frame in zip(values, frames):
        if path == "location":
            owner.location.z = value
        else:
            setattr(owner, path, value)
        owner.keyframe_insert(path, frame=frame)
    for fc in owner.id_data.animation_data.action.fcurves:
        for k in fc.keyframe_points:
            k.interpolation = "LINEAR"


def _box(name, x, scale):
    """A 20 cm cube standing on the ground at x metres along Blender's X."""
    bpy.ops.mesh.primitive_cube_add(size=0.2 / scale, location=(x / scale, 0, 0.1 / scale))
    obj = bpy.context.object
    obj.name = name
    return obj


def build_rates_scene(work, scale):
    """Two boxes as colliders, both hidden after they are marked: "lift", raised by
    its object keys and hidden with the eye; "wave", raised by a keyed Displace
    modifier over a keyed shape key (glTF's export kept it still, or failed) and
    disabled in viewports. A 10 cm snow cube falls between them."""
    bpy.ops.object.select_all(action="SELECT")
    bpy.ops.object.delete()
    scene = bpy.context.scene
    scene.unit_settings.scale_length = scale
    scene.render.fps, scene.render.fps_base = RATE_FPS, RATE_BASE
    scene.frame_start, scene.frame_end = RATE_START, RATE_END
    span = (RATE_START, RATE_END)
    steps = RATE_END - RATE_START

    lift = _box("lift", -0.4, scale)
    _linear_keys(lift, "location", [0.1 / scale, (0.1 + LIFT * steps) / scale], span)
    wave = _box("wave", 0.4, scale)
    wave.shape_key_add(name="Basis")
    up = wave.shape_key_add(name="up")
    for v in up.data:
        if v.co.z > 0:
            v.co.z += WAVE_KEY / scale
    _linear_keys(up, "value", [0.0, 1.0], span)
    displace = wave.modifiers.new("wave", "DISPLACE")
    displace.direction, displace.mid_level = "Z", 0.0  # no texture: every vertex moves by the strength
    _linear_keys(displace, "strength", [0.0, WAVE * steps / scale], span)
    for o in bpy.context.view_layer.objects:
        o.select_set(o in (lift, wave))
    bpy.ops.snowtools.mark(role="COLLIDER")

    bpy.ops.mesh.primitive_cube_add(size=0.1 / scale, location=(0, 0, 0.5 / scale))
    bpy.context.object.name = "snow"
    bpy.ops.snowtools.mark(role="SNOW")
    lift.hide_set(True)
    wave.hide_viewport = True

    s = scene.snowtools
    s.h = H
    s.margin = 0.2
    s.cache_dir = "//%s/" % RATE_CACHE
    s.outputs = {"POINTS", "VOLUME"}
    bpy.ops.wm.save_as_mainfile(filepath=os.path.join(work, "rates.blend"))
    return scene, lift, wave


def check_rates(scene, cache_dir, scale, lift, wave):
    """What the rates bake wrote and imported: the hidden colliders hidden again, the
    files numbered as Blender's frames, each collider's pose at every frame (the top
    centre of Blender's evaluated bounding box, tools' axes, metres, for the Go test
    to look up in that frame's VDB), and the points of each frame loaded from the
    cache folder whose name holds "#" and "%d"."""
    say("hidden", lift.hide_get(), wave.hide_viewport)
    say("files", "prt", *frames(os.path.join(cache_dir, "sim"), ".prt"))
    say("files", "colliders", *frames(os.path.join(cache_dir, "colliders"), ".vdb"))
    say("files", "collider_meshes", *frames(os.path.join(cache_dir, "colliders", "obj"), ".obj"))
    lift.hide_set(False)  # shown as in the bake: an object disabled in viewports is not evaluated
    wave.hide_viewport = False
    imported = {o.get("snowtools_kind"): o for o in scene.objects if o.get("snowtools_kind")}
    for n in range(RATE_START, RATE_END + 1):
        scene.frame_set(n)
        dg = bpy.context.evaluated_depsgraph_get()
        for obj in (lift, wave):
            lo, hi = world_bounds(obj, dg)
            top = tools_axes(np.array([[(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, hi[2]]]), scale)[0]
            say("pose", n, obj.name, *("%.9g" % v for v in top))
        prt = read_prt(os.path.join(cache_dir, "sim", "snow.%04d.prt" % n))[0]["Position"]
        say("loaded", n, len(imported["points"].data.vertices) if "points" in imported else -1, len(prt))
        grids = imported["volume"].evaluated_get(dg).data.grids if "volume" in imported else None
        say("volume", n, grids.frame if grids else -1, os.path.basename(grids.frame_filepath) if grids else "none",
            len(grids) if grids else 0)



def say_bake_error(label):
    """Bakes, expecting a refusal: says label and the error, or "none" if it baked."""
    try:
        bpy.ops.snowtools.bake()
        say(label, "none")
    except RuntimeError as e:
        say(label, str(e).replace("\n", " "))

def check_topology_error(scene, scale):
    """A collider whose Subdivision level goes from 1 to 2 at frame 1003: voxelize needs
    the same vertices in every frame, and the bake must say which object changes."""
    bpy.ops.mesh.primitive_cube_add(size=0.2 / scale, location=(0, 0.5 / scale, 0.1 / scale))
    obj = bpy.context.object
    obj.name = "remeshed"
    sub = obj.modifiers.new("subdivide", "SUBSURF")
    for level, frame in ((1, RATE_START), (2, RATE_START + 2)):
        sub.levels = level
        sub.keyframe_insert("levels", frame=frame)
    for k in obj.animation_data.action.fcurves[0].keyframe_points:
        k.interpolation = "CONSTANT"
    bpy.ops.snowtools.mark(role="COLLIDER")
    try:
        say_bake_error("topology")
    finally:
        bpy.data.objects.remove(obj)


def check_excluded(scene, scale):
    """A collider in a collection excluded from the view layer cannot be exported:
    the bake must name it and say why."""
    bpy.ops.mesh.primitive_cube_add(size=0.2 / scale, location=(0, -0.5 / scale, 0.1 / scale))
    obj = bpy.context.object
    obj.name = "shelved"
    bpy.ops.snowtools.mark(role="COLLIDER")
    coll = bpy.data.collections.new("shelf")
    scene.collection.children.link(coll)
    for c in obj.users_collection:
        c.objects.unlink(obj)
    coll.objects.link(obj)
    bpy.context.view_layer.layer_collection.children["shelf"].exclude = True
    try:
        say_bake_error("excluded")
    finally:
        bpy.data.objects.remove(obj)
        bpy.data.collections.remove(coll)


def main_rates(a, work):
    scene, lift, wave = build_rates_scene(work, a.scale)
    try:
        say("bake", *sorted(bpy.ops.snowtools.bake()))
    except RuntimeError as e:
        say("bake", "FAILED", str(e).replace("\n", " "))
        return
    cache_dir = os.path.join(work, RATE_CACHE)
    with open(os.path.join(cache_dir, "scene.toml")) as f:
        for line in f:
            if line.startswith(("start =", "frames =", "fps =")):
                say("toml", line.strip().replace(" ", ""))
    check_rates(scene, cache_dir, a.scale, lift, wave)
    check_topology_error(scene, a.scale)
    check_excluded(scene, a.scale)


def main():
    a = parse()
    work = os.path.abspath(a.work)
    install(work)
    prefs = bpy.context.preferences.addons["snowtools_addon"].preferences
    prefs.tools_dir = os.path.abspath(a.tools)
    from snowtools_addon import properties
    say("presets", *[p[0] for p in properties.PRESETS])
    check_helpers()
    if a.scene == "rates":
        main_rates(a, work)
        return

    scene, slab = build_scene(work, a.scale)
    t0 = time.time()
    result = bpy.ops.snowtools.bake()
    say("bake", *sorted(result), "%.1f" % (time.time() - t0))
    cache_dir = os.path.join(work, "snow_cache")
    with open(os.path.join(cache_dir, "scene.toml")) as f:
        for line in f:
            if line.startswith(("start =", "frames =", "fps =", "h =", "velocity =")):
                say("toml", line.strip().replace(" ", ""))
    check_frames(scene, slab, cache_dir, a.scale)
    check_render(work, cache_dir, a.scale)
    check_cancel(cache_dir, a.tools)
    check_error(scene)


main()
