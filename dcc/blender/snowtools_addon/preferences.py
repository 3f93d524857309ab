"""The add-on's preferences: where the three tools are."""
import os
import shutil

import bpy

TOOLS = ("voxelize", "snowsim", "export")


class ToolMissing(Exception):
    pass


def find_tool(folder, name):
    """The full path of a tool: in `folder` when one is given (Blender's "//" paths
    allowed), else on PATH. The path is always absolute, since `export` is also a
    shell builtin and must be called by its path."""
    exe = name + (".exe" if os.name == "nt" else "")
    if folder:
        path = os.path.join(bpy.path.abspath(folder), exe)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.abspath(path)
        raise ToolMissing("%s: no executable %s there (build the tools with: go build -o bin/ ./cmd/...)" % (folder, exe))
    path = shutil.which(exe)
    if not path:
        raise ToolMissing("%s is not on PATH: set the tools folder in the add-on's preferences" % exe)
    return os.path.abspath(path)


def tool_paths(context):
    """{name: full path} of the three tools, or ToolMissing naming the first missing."""
    folder = context.preferences.addons[__package__].preferences.tools_dir
    return {name: find_tool(folder, name) for name in TOOLS}


class SnowtoolsPreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    tools_dir: bpy.props.StringProperty(
        name="Tools folder",
        subtype="DIR_PATH",
        description="The folder holding voxelize, snowsim and export: the repository's bin/ "
                    "after `go build -o bin/ ./cmd/...`. Empty: look them up on PATH",
    )

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "tools_dir")
        for name in TOOLS:
            try:
                layout.label(text="%s: %s" % (name, find_tool(self.tools_dir, name)), icon="CHECKMARK")
            except ToolMissing as e:
                layout.label(text=str(e), icon="ERROR")
