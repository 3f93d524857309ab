"""Marked objects that the user has hidden still take part in a bake.

Blender's exporters write the selected objects, and a hidden object cannot be
selected: hidden with the eye (Object.hide_get, per view layer), disabled in
viewports (hide_viewport, the monitor icon, which also keeps it out of the viewport's
evaluation) or made unselectable (hide_select). shown() clears these three flags for
the exports and puts them back afterwards. An object that stays unselectable even so,
because a collection it is in is excluded from the view layer or disabled in
viewports, is a BakeError naming it: showing that collection would show everything
else in it too. (A collection hidden with its eye only is no obstacle: its objects
can be selected, and are evaluated, as the exporters need.)
"""
import contextlib

from .errors import BakeError


@contextlib.contextmanager
def shown(context, objs):
    """Within the block, objs are visible and selectable in the view layer; their
    hide flags are restored when it ends, whether or not it raised."""
    view_layer = context.view_layer
    saved = [(o, o.hide_get(), o.hide_viewport, o.hide_select)
             for o in objs if o.name in view_layer.objects]
    try:
        for o, *_ in saved:
            o.hide_viewport = False
            o.hide_select = False
            o.hide_set(False)
        stuck = [o.name for o in objs if not _selectable(o, view_layer)]
        if stuck:
            raise BakeError(
                "%s cannot be selected for the export: a collection holding %s is excluded "
                "from the view layer or disabled in viewports; enable it for the bake"
                % (", ".join(stuck), "it" if len(stuck) == 1 else "them"))
        yield
    finally:
        for o, eye, monitor, unselectable in saved:
            o.hide_viewport = monitor
            o.hide_select = unselectable
            o.hide_set(eye)


def _selectable(obj, view_layer):
    """Whether obj can be selected now (selecting it on the way: the exports change
    the selection anyway, and the bake restores the user's afterwards)."""
    if obj.name not in view_layer.objects:
        return False
    obj.select_set(True)
    return obj.select_get()


def select_only(context, objs, active=None):
    """Selects objs alone (the exporters write the selection) and makes active (or
    the first of objs) the active object."""
    for o in context.view_layer.objects:
        o.select_set(False)
    for o in objs:
        o.select_set(True)
    context.view_layer.objects.active = active or (objs[0] if objs else None)
