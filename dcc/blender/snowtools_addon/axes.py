"""Blender's axes and units against the tools'.

Blender is Z up and measures in Blender units (BU); one BU is
``scene.unit_settings.scale_length`` metres. The tools are Y up in metres
(right-handed, as glTF). A Blender point (x, y, z) in BU is, in the tools,

    (x, z, -y) * scale_length

which is a rotation of -90 degrees about X followed by the scale: the same
mapping Blender's OBJ exporter applies with its defaults (Y up, -Z forward), and the
inverse of ``export -up z -scale scale_length``. This module needs no bpy, so the
mapping can be read and checked on its own.
"""
import struct


def to_tools(point, scale):
    """A Blender point (BU, Z up) as the tools' point (metres, Y up)."""
    x, y, z = point
    return (x * scale, z * scale, -y * scale)


def to_blender(point, scale):
    """The tools' point (metres, Y up) as a Blender point (BU, Z up)."""
    x, y, z = point
    return (x / scale, -z / scale, y / scale)


def box_to_tools(lo, hi, scale):
    """A Blender axis-aligned box (corners lo, hi in BU) as the tools' box (min, max in
    metres). The axis swap maps boxes onto boxes; only Blender's y flips sign, so it
    swaps which corner is the minimum along the tools' z."""
    a, b = to_tools(lo, scale), to_tools(hi, scale)
    return tuple(map(min, a, b)), tuple(map(max, a, b))


def fps(render):
    """Frames per second of a scene's render settings: fps / fps_base, 29.97 being
    30 / 1.001. fps_base is float32 (1.00100004673 where the field says 1.001): the
    value typed is the one meant."""
    return render.fps / decimal(render.fps_base)


def decimal(x):
    """The shortest decimal that reads back as the float32 x. Blender's float
    properties are float32: the 0.05 typed into a field holds 0.0500000007, and the
    scene file should say 0.05."""
    single = struct.unpack("<f", struct.pack("<f", x))[0]
    for digits in range(1, 10):
        d = float("%.*g" % (digits, x))
        if struct.unpack("<f", struct.pack("<f", d))[0] == single:
            return d
    return x
