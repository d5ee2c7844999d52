"""Player-facing names of Crash!: the two colours of the box, the six directions, a car's short label."""

from __future__ import annotations

from companion.gamekit import BLUE, N_, RED

# The box has blue and red cars. North (seat 0) drives the blue ones; the rulebook's example is red's.
COLOURS = (BLUE, RED)
# Where each seat sits at the board: the join page says which place a phone takes.
SEAT_NAMES = (N_("North"), N_("South"))

# board.DIRECTIONS in order, clockwise from north: a name and an arrow for each.
DIRECTION_NAMES = {
    "n": N_("north"),
    "ne": N_("north-east"),
    "se": N_("south-east"),
    "s": N_("south"),
    "sw": N_("south-west"),
    "nw": N_("north-west"),
}
ARROWS = {"n": "\u2191", "ne": "\u2197", "se": "\u2198", "s": "\u2193", "sw": "\u2199", "nw": "\u2196"}


def car_label(seat: int, car: int, _) -> str:
    """"B3": the colour's initial, the same in French and English (Bleu, Rouge), then the number."""
    return f"{_(COLOURS[seat].label)[:1]}{car}"
