"""What the panel edits (per scene) and the role of each object (per object)."""
import bpy

# The scene format's material presets (simcore.PresetNames; "packing" is another name
# for "wet", so it is not offered twice). The Go test checks this list against the
# tools' own.
PRESETS = (
    ("default", "Default", "Table 2 of Stomakhin et al. 2013"),
    ("powder", "Powder", "Dry, powdery snow: breaks into fine pieces"),
    ("wet", "Wet", "Wet, packing snow: deforms further, breaks in chunks"),
    ("icy", "Icy", "Harder and stiffer (shorter time steps)"),
    ("slush", "Slush", "Muddy snow: softer, less hardening"),
    ("snowball", "Snowball", "Table 2 with Poisson's ratio 0.3: the material of the breaking examples, which also set a chunk pattern (chunk_size) that the add-on does not"),
)

ROLES = (
    ("NONE", "None", "Not part of the simulation"),
    ("SNOW", "Snow", "A closed mesh filled with snow at the first frame"),
    ("COLLIDER", "Collider", "A mesh the snow collides with, animated or not"),
)

OUTPUT_KINDS = (
    ("POINTS", "Points", "Particles as a point cloud (export -to ply)"),
    ("SURFACE", "Surface", "A closed surface mesh around the particles (export -to surface)"),
    ("VOLUME", "Volume", "A density volume, VDB (export -to vdb)"),
)


class SnowObjectSettings(bpy.types.PropertyGroup):
    role: bpy.props.EnumProperty(name="Snow role", items=ROLES, default="NONE")


class SnowSceneSettings(bpy.types.PropertyGroup):
    cache_dir: bpy.props.StringProperty(
        name="Cache", subtype="DIR_PATH", default="//snow_cache/",
        description="Where the bake writes its files (\"//\": beside the .blend)")
    h: bpy.props.FloatProperty(
        name="Grid spacing h (m)", default=0.05, min=1e-4, soft_max=0.5, precision=4, step=0.1,
        description="The simulation grid's cell size in metres (the scene's domain.h); "
                    "colliders are voxelized at h/2")
    material: bpy.props.EnumProperty(name="Material", items=PRESETS, default="default")
    use_scene_range: bpy.props.BoolProperty(
        name="Scene frame range", default=True,
        description="Simulate the scene's frame range; off: the range below")
    frame_start: bpy.props.IntProperty(name="Start", default=1, min=0)
    frame_end: bpy.props.IntProperty(name="End", default=48, min=1)
    outputs: bpy.props.EnumProperty(
        name="Outputs", items=OUTPUT_KINDS, options={"ENUM_FLAG"}, default={"POINTS", "SURFACE"})
    domain_object: bpy.props.PointerProperty(
        name="Domain box", type=bpy.types.Object,
        description="Optional: an object whose bounding box is the simulation domain. "
                    "Empty: the bounds of the snow and colliders over the frame range, plus the margin")
    margin: bpy.props.FloatProperty(
        name="Margin (m)", default=0.5, min=0.0, precision=3,
        description="How far the automatic domain reaches beyond the snow and the colliders, in metres")


def frame_range(scene):
    """The bake's first and last frame."""
    s = scene.snowtools
    if s.use_scene_range:
        return scene.frame_start, scene.frame_end
    return s.frame_start, s.frame_end


def marked(scene, role):
    """The scene's mesh objects with that role, by name (the order the scene file
    lists them in, so that the same scene gives the same file)."""
    return sorted((o for o in scene.objects if o.type == "MESH" and o.snowtools.role == role),
                  key=lambda o: o.name)


CLASSES = (SnowObjectSettings, SnowSceneSettings)


def register():
    bpy.types.Object.snowtools = bpy.props.PointerProperty(type=SnowObjectSettings)
    bpy.types.Scene.snowtools = bpy.props.PointerProperty(type=SnowSceneSettings)
    # The running bake's state: not saved with the file.
    wm = bpy.types.WindowManager
    wm.snowtools_status = bpy.props.StringProperty(name="Snow bake status")
    wm.snowtools_progress = bpy.props.FloatProperty(name="Snow bake progress", subtype="FACTOR", min=0, max=1)
    wm.snowtools_running = bpy.props.BoolProperty()
    wm.snowtools_cancel = bpy.props.BoolProperty()


def unregister():
    wm = bpy.types.WindowManager
    for name in ("snowtools_status", "snowtools_progress", "snowtools_running", "snowtools_cancel"):
        delattr(wm, name)
    del bpy.types.Scene.snowtools
    del bpy.types.Object.snowtools
