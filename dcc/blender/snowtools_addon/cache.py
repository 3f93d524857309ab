"""Where a bake puts its files, inside the cache folder.

    cache/
      scene.toml                 the snowsim scene the bake wrote
      bake.json                  its frame range, unit scale, fps and h, for Import
      colliders/obj/col#.obj     the colliders' evaluated meshes, one OBJ per frame,
                                 from Blender's OBJ exporter (Y up, Blender units)
      colliders/col.####.vdb     voxelize's level sets (the scene's "vdb" collider)
      snow/NAME.obj              each snow object at the first frame (Y up, metres)
      sim/snow.####.prt          snowsim's particles (and its .snowstate checkpoints)
      points/snow.####.ply       export -to ply      (Z up, Blender units)
      surface/snow.####.ply      export -to surface  (Z up, Blender units)
      volume/snow.####.vdb       export -to vdb      (Y up, metres: the object turns it)

A run of N "#" in a file name is the frame number padded to N digits, more when the
number needs them, as the tools read and write it: "####" is 0007 for frame 7, and "#"
no padding (Blender's OBJ exporter writes col7.obj, col1001.obj). Only the file name
holds one: a "#" in a folder name is an ordinary character. The paths here are
relative to the cache folder, which the tools run in. No bpy: these are names and
file look-ups only.
"""
import os
import re

SCENE = "scene.toml"
BAKE_INFO = "bake.json"  # the range, unit scale and h of the last bake, for Import
COLLIDER_MESHES = os.path.join("colliders", "obj", "col#.obj")
COLLIDERS = os.path.join("colliders", "col.####.vdb")
SNOW_DIR = "snow"
PARTICLES = os.path.join("sim", "snow.####.prt")

# The output kinds the panel offers: the export command's -to, and where it writes.
OUTPUTS = {
    "POINTS": ("ply", os.path.join("points", "snow.####.ply")),
    "SURFACE": ("surface", os.path.join("surface", "snow.####.ply")),
    "VOLUME": ("vdb", os.path.join("volume", "snow.####.vdb")),
}


def _split(pattern):
    """A pattern's folder, the text of its file name before and after the run of
    "#", and the run's length (the padding)."""
    folder, name = os.path.split(pattern)
    m = re.search("#+", name)
    return folder, name[:m.start()], name[m.end():], m.end() - m.start()


def frame_path(pattern, frame):
    """The file of frame number `frame` in a pattern."""
    folder, head, tail, width = _split(pattern)
    return os.path.join(folder, "%s%0*d%s" % (head, width, frame, tail))


def unnumbered(pattern):
    """The pattern's path without its frame number ("col#.obj": "col.obj"), the name
    to give Blender's OBJ exporter, which adds the frame before the extension."""
    folder, head, tail, _ = _split(pattern)
    return os.path.join(folder, head + tail)


def frames_on_disk(pattern):
    """The frame numbers whose files exist for a pattern, sorted."""
    folder, head, tail, width = _split(pattern)
    match = re.compile(re.escape(head) + r"(\d{%d,})" % width + re.escape(tail) + "$").match
    try:
        names = os.listdir(folder or ".")
    except FileNotFoundError:
        return []
    return sorted(int(m.group(1)) for m in map(match, names) if m)


def remove_frames(pattern):
    """Deletes the files of a pattern, so that a new bake's sequence does not mix
    with the frames an earlier, longer one left. Returns how many."""
    frames = frames_on_disk(pattern)
    for f in frames:
        os.remove(frame_path(pattern, f))
    return len(frames)


def snow_mesh_path(index, object_name):
    """The OBJ file of the index-th snow object (from 1), relative to the cache: the
    index keeps two names that differ only in unsafe characters apart."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", object_name)
    return os.path.join(SNOW_DIR, "%02d_%s.obj" % (index, safe))
