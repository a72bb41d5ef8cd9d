"""Collider: a handle on one collider of a cloth."""

import ctypes

from . import _buffers
from ._lib import check, lib

__all__ = ["Collider"]


class Collider:
    """A collider of one cloth, by id. Valid until :meth:`remove`."""

    __slots__ = ("cloth", "id")

    def __init__(self, cloth, collider_id):
        self.cloth = cloth
        self.id = collider_id

    def __index__(self):
        return self.id

    def __int__(self):
        return self.id

    def __eq__(self, other):
        return isinstance(other, Collider) and other.cloth is self.cloth and other.id == self.id

    def __hash__(self):
        return hash((id(self.cloth), self.id))

    def __repr__(self):
        return "<clothsim.Collider id=%d>" % self.id

    def set_friction(self, mu):
        """Coulomb friction coefficient (>= 0). Default 0."""
        check(lib().cloth_set_collider_friction(self.cloth._live(), self.id, mu), "cloth_set_collider_friction")

    def set_thickness(self, offset):
        """Distance (m, >= 0) particles are kept outside the surface. Default 0."""
        check(
            lib().cloth_set_collider_thickness(self.cloth._live(), self.id, offset), "cloth_set_collider_thickness"
        )

    def set_transform(self, position=None, rotation=None):
        """Move the reference point to `position` and turn to the unit quaternion
        `rotation` (x, y, z, w) by the end of the next step; None keeps either."""
        pos = None if position is None else _buffers.vec3(position, "position")
        rot = None if rotation is None else _buffers.floats(rotation, 4, "rotation")
        check(
            lib().cloth_set_collider_transform(self.cloth._live(), self.id, pos, rot),
            "cloth_set_collider_transform",
        )

    def transform(self):
        """The pose it is heading for: ((x, y, z), (qx, qy, qz, qw))."""
        pos = (ctypes.c_float * 3)()
        rot = (ctypes.c_float * 4)()
        check(
            lib().cloth_get_collider_transform(self.cloth._live(), self.id, pos, rot),
            "cloth_get_collider_transform",
        )
        return tuple(pos), tuple(rot)

    def remove(self):
        """Remove the collider; its id is then refused (ClothError OUT_OF_RANGE)."""
        check(lib().cloth_remove_collider(self.cloth._live(), self.id), "cloth_remove_collider")
