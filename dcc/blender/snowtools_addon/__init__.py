"""snowtools: snow simulation for Blender scenes.

Marks mesh objects as snow or colliders, bakes them through the snowtools command-line
tools (voxelize, snowsim, export; Stomakhin et al. 2013's material point method) and
brings the snow back as points, a surface mesh and a volume that follow the frame.

Modules: properties (settings and roles), preferences (where the tools are), ui (the
panel), operators (its buttons), gather (the scene -> the tools' inputs), with
collider_meshes (the colliders' OBJ sequence) and visibility (hidden marked objects),
plan (the command lines), pipeline (running them in the background), importer (the
results -> objects, and the frame handler), ply (reading frames), axes, cache,
scene_file, errors.
"""

bl_info = {
    "name": "snowtools",
    "author": "snowtools",
    "version": (1, 0, 0),
    "blender": (3, 4, 0),
    "location": "3D View > Sidebar > Snow",
    "description": "MPM snow (voxelize, snowsim, export) baked from and back into the scene",
    "category": "Physics",
}

import bpy

from . import importer, operators, preferences, properties, ui

_CLASSES = (preferences.SnowtoolsPreferences,) + properties.CLASSES + operators.CLASSES + ui.CLASSES


def register():
    for cls in _CLASSES:
        bpy.utils.register_class(cls)
    properties.register()
    importer.register()


def unregister():
    importer.unregister()
    properties.unregister()
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)
