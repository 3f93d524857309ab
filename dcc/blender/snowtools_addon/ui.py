"""The "Snow" tab of the 3D View's sidebar."""
import bpy

from . import properties


class SNOWTOOLS_PT_panel(bpy.types.Panel):
    bl_label = "Snow simulation"
    bl_idname = "SNOWTOOLS_PT_panel"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "Snow"

    def draw(self, context):
        layout = self.layout
        scene = context.scene
        s = scene.snowtools
        wm = context.window_manager

        layout.label(text="Mark the selected meshes as:")
        row = layout.row(align=True)
        row.operator("snowtools.mark", text="Snow", icon="FREEZE").role = "SNOW"
        row.operator("snowtools.mark", text="Collider", icon="MOD_PHYSICS").role = "COLLIDER"
        box = layout.box()
        listed = False
        for role, icon in (("SNOW", "FREEZE"), ("COLLIDER", "MOD_PHYSICS")):
            for obj in properties.marked(scene, role):
                row = box.row(align=True)
                row.label(text=obj.name, icon=icon)
                row.operator("snowtools.unmark", text="", icon="X", emboss=False).name = obj.name
                listed = True
        if not listed:
            box.label(text="Nothing marked yet")

        col = layout.column()
        col.use_property_split = True
        col.use_property_decorate = False
        col.prop(s, "cache_dir")
        col.prop(s, "h", text="h (m)")
        col.prop(s, "material")
        col.prop(s, "use_scene_range", text="Scene range")
        if not s.use_scene_range:
            col.prop(s, "frame_start")
            col.prop(s, "frame_end")
        col.prop(s, "domain_object", text="Domain")
        if not s.domain_object:
            col.prop(s, "margin")
        layout.label(text="Outputs:")
        layout.row().prop(s, "outputs")

        row = layout.row(align=True)
        row.scale_y = 1.4
        if wm.snowtools_running:
            row.operator("snowtools.cancel", icon="CANCEL")
        else:
            row.operator("snowtools.bake", icon="PLAY")
        row.operator("snowtools.import_results", icon="IMPORT")
        if wm.snowtools_running:
            layout.prop(wm, "snowtools_progress", text="Progress", slider=True)
        if wm.snowtools_status:
            layout.label(text=wm.snowtools_status)


CLASSES = (SNOWTOOLS_PT_panel,)
