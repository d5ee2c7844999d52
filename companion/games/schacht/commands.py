"""The commands of Crazy Race and their arguments, as the rules check them and the API documents them."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Loco = Literal["A", "B", "C"]


class Place(msgspec.Struct, forbid_unknown_fields=True):
    """Place one driver card face down beside a side (0 top, 1 right, 2 bottom, 3 left)."""

    side: Annotated[int, msgspec.Meta(ge=0, le=3)]
    value: Annotated[int, msgspec.Meta(ge=1, le=6)]


class Nothing(msgspec.Struct, forbid_unknown_fields=True):
    """No arguments (pass, recall, next)."""


class Step(msgspec.Struct, forbid_unknown_fields=True):
    """One loco of the side's winner and how many spaces it moves."""

    loco: Loco
    steps: Annotated[int, msgspec.Meta(ge=1, le=24)]


class Move(msgspec.Struct, forbid_unknown_fields=True):
    """The winner of a free or "?" side: which locos move, in this order, by how much."""

    moves: Annotated[list[Step], msgspec.Meta(min_length=1, max_length=3)]


class TakeBack(msgspec.Struct, forbid_unknown_fields=True):
    """A player who moved no loco this stage takes back one card they played in it (null: none)."""

    value: Annotated[int, msgspec.Meta(ge=1, le=6)] | None = None
