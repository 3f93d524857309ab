"""BakeError: what the user must fix before a bake can run. Raised while the bake's
inputs are gathered from the scene (gather, colliders, visibility), before any tool
starts; the Bake button reports its message. No bpy."""


class BakeError(Exception):
    """Something the user must fix before a bake can run."""
