"""The panel's buttons: mark objects, bake, cancel, import.

Bake runs in two ways over the same Pipeline: from the panel (invoke) as a modal
operator that polls the tools from a timer, so Blender stays responsive, shows
progress and can be cancelled with Esc or the Cancel button; from a script or
headless (execute: bpy.ops.snowtools.bake()) blocking until the end.
"""
import bpy

from . import gather, importer, plan, preferences
from .errors import BakeError
from .pipeline import Pipeline, ToolError
from .properties import ROLES


class SNOWTOOLS_OT_mark(bpy.types.Operator):
    """Give the selected mesh objects a role in the simulation"""
    bl_idname = "snowtools.mark"
    bl_label = "Mark"
    bl_options = {"REGISTER", "UNDO"}

    role: bpy.props.EnumProperty(items=ROLES)

    @classmethod
    def poll(cls, context):
        return any(o.type == "MESH" for o in context.selected_objects)

    def execute(self, context):
        meshes = [o for o in context.selected_objects if o.type == "MESH"]
        for o in meshes:
            o.snowtools.role = self.role
        self.report({"INFO"}, "%d object(s) marked %s" % (len(meshes), self.role.lower()))
        return {"FINISHED"}


class SNOWTOOLS_OT_unmark(bpy.types.Operator):
    """Take this object out of the simulation"""
    bl_idname = "snowtools.unmark"
    bl_label = "Unmark"
    bl_options = {"REGISTER", "UNDO"}

    name: bpy.props.StringProperty()

    def execute(self, context):
        obj = context.scene.objects.get(self.name)
        if obj:
            obj.snowtools.role = "NONE"
        return {"FINISHED"}


def _prepare(op, context):
    """Writes the bake's inputs and returns (Pipeline, Bake), or None after reporting
    what the user must fix."""
    try:
        tools = preferences.tool_paths(context)
        bake = gather.gather(context)
    except (preferences.ToolMissing, BakeError) as e:
        op.report({"ERROR"}, str(e))
        return None
    s = context.scene.snowtools
    steps = plan.steps(tools, bake.cache_dir, h=bake.h, fps=bake.fps, scale=bake.scale,
                       start=bake.start, colliders=bake.colliders, outputs=s.outputs)
    return Pipeline(steps), bake


def _import(op, context, folder):
    """Imports the chosen outputs found in the cache folder; reports and returns
    False when there are none."""
    try:
        kinds = importer.import_bake(context, folder, context.scene.snowtools.outputs)
    except importer.NothingToImport as e:
        op.report({"ERROR"}, str(e))
        return False
    if not kinds:
        op.report({"WARNING"}, "%s holds none of the chosen outputs" % folder)
        return False
    op.report({"INFO"}, "Snow imported: %s" % ", ".join(k.lower() for k in kinds))
    return True


class SNOWTOOLS_OT_bake(bpy.types.Operator):
    """Export the snow and colliders, run voxelize, snowsim and export, and import the results"""
    bl_idname = "snowtools.bake"
    bl_label = "Bake"

    _pipeline = None
    _bake = None
    _timer = None

    @classmethod
    def poll(cls, context):
        return not context.window_manager.snowtools_running

    def execute(self, context):
        prepared = _prepare(self, context)
        if not prepared:
            return {"CANCELLED"}
        pipeline, bake = prepared
        try:
            pipeline.run(report=lambda status: print("snowtools:", status, flush=True))
        except ToolError as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        _import(self, context, bake.cache_dir)
        return {"FINISHED"}

    def invoke(self, context, event):
        prepared = _prepare(self, context)
        if not prepared:
            return {"CANCELLED"}
        self._pipeline, self._bake = prepared
        wm = context.window_manager
        wm.snowtools_running, wm.snowtools_cancel = True, False
        wm.snowtools_progress, wm.snowtools_status = 0.0, "starting"
        wm.progress_begin(0, 1000)
        self._timer = wm.event_timer_add(0.2, window=context.window)
        wm.modal_handler_add(self)
        return {"RUNNING_MODAL"}

    def modal(self, context, event):
        wm = context.window_manager
        if event.type == "ESC" or wm.snowtools_cancel:
            self._pipeline.cancel()
            self._finish(context)
            self.report({"WARNING"}, "Bake cancelled; the frames written so far stay in the cache")
            return {"CANCELLED"}
        if event.type != "TIMER":
            return {"PASS_THROUGH"}
        try:
            finished = self._pipeline.poll()
        except ToolError as e:
            self._finish(context)
            wm.snowtools_status = "failed: " + str(e)
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        wm.snowtools_progress = self._pipeline.fraction
        wm.snowtools_status = self._pipeline.status
        wm.progress_update(int(1000 * self._pipeline.fraction))
        _redraw_panels(context)
        if not finished:
            return {"RUNNING_MODAL"}
        self._finish(context)
        wm.snowtools_status = "done"
        _import(self, context, self._bake.cache_dir)
        return {"FINISHED"}

    def cancel(self, context):
        # Blender closing, or the window going away, while the bake runs.
        self._pipeline.cancel()
        self._finish(context)

    def _finish(self, context):
        wm = context.window_manager
        wm.event_timer_remove(self._timer)
        wm.progress_end()
        wm.snowtools_running = False
        if self._pipeline.cancelled:
            wm.snowtools_status = self._pipeline.status
        _redraw_panels(context)


class SNOWTOOLS_OT_cancel(bpy.types.Operator):
    """Stop the running bake; the frames already written stay"""
    bl_idname = "snowtools.cancel"
    bl_label = "Cancel bake"

    @classmethod
    def poll(cls, context):
        return context.window_manager.snowtools_running

    def execute(self, context):
        context.window_manager.snowtools_cancel = True
        return {"FINISHED"}


class SNOWTOOLS_OT_import(bpy.types.Operator):
    """Bring the cache's results into the scene: points, surface and volume that follow the frame"""
    bl_idname = "snowtools.import_results"
    bl_label = "Import"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        try:
            folder = gather.cache_folder(context.scene)
        except BakeError as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        return {"FINISHED"} if _import(self, context, folder) else {"CANCELLED"}


def _redraw_panels(context):
    for window in context.window_manager.windows:
        for area in window.screen.areas:
            if area.type == "VIEW_3D":
                area.tag_redraw()


CLASSES = (SNOWTOOLS_OT_mark, SNOWTOOLS_OT_unmark, SNOWTOOLS_OT_bake, SNOWTOOLS_OT_cancel, SNOWTOOLS_OT_import)
