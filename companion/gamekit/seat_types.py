"""Types that say a value is a seat, so the generated pages show it by the seat's name."""

from __future__ import annotations

from typing import Annotated, TypeVar

import msgspec

SEAT = "x-seat"  # JSON Schema mark of an int that is a seat number (0 is the first seat)
PER_SEAT = "x-per-seat"  # JSON Schema mark of a list holding one item per seat, in seat order

T = TypeVar("T")

Seat = Annotated[int, msgspec.Meta(ge=0, extra_json_schema={SEAT: True})]
"""A seat number in a view or a command: pages show it as the seat's name, and a command's form offers the
seats in play as buttons. `Seat | None` is a seat or nobody."""

PerSeat = Annotated[list[T], msgspec.Meta(extra_json_schema={PER_SEAT: True})]
"""A list with one item per seat, in seat order (`PerSeat[int]`: each seat's score): pages put each item
beside its seat's name."""
