"""The commands of Crash!: each command's args as a closed msgspec Struct (the OpenAPI shows them)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

CarNumber = Annotated[int, msgspec.Meta(ge=1, le=6, description="a car's number, 1-6")]
Seat = Annotated[int, msgspec.Meta(ge=0, le=1, description="a seat: 0 (north) or 1 (south)")]
Direction = Literal["n", "ne", "se", "s", "sw", "nw"]  # board.DIRECTIONS, clockwise from north


class Args(msgspec.Struct, forbid_unknown_fields=True):
    """Base of every command's args."""


class Roll(Args):
    """Roll the three steering dice (a die naming a car out of play is rolled once more)."""


class Turn(Args):
    """Spend a free die showing `car` to turn that car to face `facing`."""

    car: CarNumber
    facing: Annotated[Direction, msgspec.Meta(description="n, ne, se, s, sw or nw")]


class Move(Args):
    """Spend a free die showing `car` to move that car one cell forward, pushing the cars ahead."""

    car: CarNumber


class End(Args):
    """End your steering phase; the other player's automatic phase runs at once."""


class MarkOut(Args):
    """Dice only: car `car` of seat `owner` left play, into `by`'s junkyard (null: off the board)."""

    owner: Seat
    car: CarNumber
    by: Seat | None = None


class NextGame(Args):
    """Start the next game of the match on the same board; the other player begins."""
