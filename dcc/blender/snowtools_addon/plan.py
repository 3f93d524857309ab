"""The command lines of a bake, in order. What each panel setting becomes:

    voxelize -voxel h/2 -fps FPS -scale S -o colliders/col.####.vdb colliders/obj/col1.obj
    snowsim -o sim scene.toml
    export -to ply     -up z -scale S sim/snow.####.prt points/snow.####.ply
    export -to surface -up z -scale S sim/snow.####.prt surface/snow.####.ply
    export -to vdb                    sim/snow.####.prt volume/snow.####.vdb

FPS is render.fps / fps_base. voxelize finds the whole OBJ sequence of the colliders
(col1.obj, col2.obj, ...: Blender's frame numbers) from its first file, and keeps the
numbers. S is the scene's unit scale (metres per Blender unit): the OBJ exporter
writes Blender units, which voxelize -scale turns into metres, and export -scale
writes the PLY files back in Blender units (-up z: Blender's axes). A VDB keeps the
tools' axes and metres; the imported Volume object turns and scales it.

The tools run in the cache folder and are given paths relative to it: a "#" or "%d"
in the folder's own name (shot#12/) would read as a frame number in a path. No bpy.
"""
import os

from . import cache
from .pipeline import Step

# Shares of the progress bar: the simulation takes most of a bake.
_WEIGHTS = {"voxelize": 1.0, "snowsim": 6.0, "export": 1.0}


def steps(tools, cache_dir, *, h, fps, scale, start, colliders, outputs):
    """The Steps of a bake. tools: {name: full path}; start: the first frame;
    outputs: a subset of cache.OUTPUTS' keys, run in that table's order."""
    def step(label, argv, output, **kw):
        # The pipeline empties the output's old frames itself, so by absolute path.
        return Step(label, argv, cache_dir, _WEIGHTS[label.split()[0]],
                    clears=[os.path.join(cache_dir, output)], **kw)

    plan = []
    if colliders:
        plan.append(step("voxelize", [tools["voxelize"], "-voxel", repr(h / 2), "-fps", repr(fps),
                                      "-scale", repr(scale), "-o", cache.COLLIDERS,
                                      cache.frame_path(cache.COLLIDER_MESHES, start)],
                         cache.COLLIDERS))
    plan.append(step("snowsim", [tools["snowsim"], "-o", os.path.dirname(cache.PARTICLES), cache.SCENE],
                     cache.PARTICLES, origin=start))
    for kind, (to, rel) in cache.OUTPUTS.items():
        if kind not in outputs:
            continue
        argv = [tools["export"], "-to", to]
        if to in ("ply", "surface"):
            argv += ["-up", "z", "-scale", repr(scale)]
        plan.append(step("export " + kind.lower(), argv + [cache.PARTICLES, rel], rel))
    return plan
