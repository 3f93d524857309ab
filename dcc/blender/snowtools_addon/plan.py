"""The command lines of a bake, in order. What each panel setting becomes:

    voxelize -voxel h/2 -fps FPS -scale S -o colliders/col.####.vdb colliders.glb
    snowsim -o sim scene.toml
    export -to ply     -up z -scale S sim/snow.####.prt points/snow.####.ply
    export -to surface -up z -scale S sim/snow.####.prt surface/snow.####.ply
    export -to vdb                    sim/snow.####.prt volume/snow.####.vdb

S is the scene's unit scale (metres per Blender unit): the glTF exporter writes
Blender units, which voxelize -scale turns into metres, and export -scale writes the
PLY files back in Blender units (-up z: Blender's axes). A VDB keeps the tools' axes
and metres; the imported Volume object turns and scales it. No bpy.
"""
import os

from . import cache
from .pipeline import Step

# Shares of the progress bar: the simulation takes most of a bake.
_WEIGHTS = {"voxelize": 1.0, "snowsim": 6.0, "export": 1.0}


def steps(tools, cache_dir, *, h, fps, scale, start, colliders, outputs):
    """The Steps of a bake. tools: {name: full path}; start: the first frame;
    outputs: a subset of cache.OUTPUTS' keys, run in that table's order."""
    def path(rel):
        return os.path.join(cache_dir, rel)

    particles = path(cache.PARTICLES)
    plan = []
    if colliders:
        vdbs = path(cache.COLLIDERS)
        plan.append(Step("voxelize", [tools["voxelize"], "-voxel", repr(h / 2), "-fps", repr(fps),
                                      "-scale", repr(scale), "-o", vdbs, path(cache.COLLIDER_GLTF)],
                         cache_dir, _WEIGHTS["voxelize"], clears=[vdbs]))
    plan.append(Step("snowsim", [tools["snowsim"], "-o", os.path.dirname(particles), path(cache.SCENE)],
                     cache_dir, _WEIGHTS["snowsim"], clears=[particles], origin=start))
    for kind, (to, rel) in cache.OUTPUTS.items():
        if kind not in outputs:
            continue
        argv = [tools["export"], "-to", to]
        if to in ("ply", "surface"):
            argv += ["-up", "z", "-scale", repr(scale)]
        plan.append(Step("export " + kind.lower(), argv + [particles, path(rel)],
                         cache_dir, _WEIGHTS["export"], clears=[path(rel)]))
    return plan
