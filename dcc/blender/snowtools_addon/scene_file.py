"""The snowsim scene (TOML) a bake writes: what the panel and the marked objects say,
in the scene format's keys (README.md, "Scene files"). No bpy: the values arrive
already in the tools' axes and metres (axes.py).
"""
import json
import math
from dataclasses import dataclass, field


@dataclass
class SnowSource:
    """One [[snow]] table: a closed mesh filled with snow."""
    path: str                       # the OBJ, relative to the scene's folder, "/" separated
    material: str                   # a preset name (simcore.PresetNames)
    velocity: tuple = (0.0, 0.0, 0.0)  # m/s, the object's motion at the first frame
    name: str = ""                  # the Blender object, for a comment


@dataclass
class Scene:
    domain_min: tuple   # metres, Y up
    domain_max: tuple
    h: float            # grid spacing, metres
    fps: float
    start: int          # the first frame: the snow's initial state, at start / fps s
    frames: int         # frames simulated after the first
    snow: list = field(default_factory=list)   # SnowSource
    colliders: str = ""  # the voxelize sequence ("colliders/col.####.vdb"), or "" for none
    comment: str = ""


def toml_text(scene):
    """The scene as TOML text. Every number is written so that it reads back as the
    same float64 (repr), and strings as TOML basic strings (JSON's escapes are
    TOML's)."""
    lines = []
    for c in scene.comment.splitlines():
        lines.append("# " + c)
    lines += [
        "[domain]",
        "min = " + _vec(scene.domain_min),
        "max = " + _vec(scene.domain_max),
        "h = " + _num(scene.h),
        "",
        "[time]",
        "fps = " + _num(scene.fps),
        "start = %d" % scene.start,
        "frames = %d" % scene.frames,
    ]
    for s in scene.snow:
        lines += ["", "[[snow]]"]
        if s.name:
            lines[-1] += "  # " + s.name.replace("\n", " ")
        lines += [
            'shape = "mesh"',
            "path = " + _str(s.path),
            "material = " + _str(s.material),
        ]
        if any(s.velocity):
            lines.append("velocity = " + _vec(s.velocity))
    if scene.colliders:
        lines += ["", "[[collider]]", 'shape = "vdb"', "path = " + _str(scene.colliders)]
    return "\n".join(lines) + "\n"


def _num(x):
    x = float(x)
    if not math.isfinite(x):
        raise ValueError("a scene value is %r: not a finite number" % x)
    return repr(x)


def _vec(v):
    return "[" + ", ".join(map(_num, v)) + "]"


def _str(s):
    return json.dumps(s, ensure_ascii=False)
