"""Player-facing names of Crazy Race: seat colours, action cards, and how a roll was changed."""

from __future__ import annotations

from companion.gamekit import N_, SEAT_COLOURS

COLOURS = SEAT_COLOURS[:5]  # the box's five pawn colours

CARD_NAMES = {
    "extra_turn": N_("extra turn"),
    "skip_turn": N_("skip turn"),
    "no_roll": N_("no roll"),
    "double": N_("double"),
    "no_cards": N_("no cards"),
    "move_4": N_("move 4"),
    "move_10": N_("move 10"),
    "minus_4": N_("minus 4"),
    "plus_4": N_("plus 4"),
    "relocate": N_("relocate"),
    "counter": N_("counter"),
}


def explain_roll(roll: dict, _) -> str:
    """The dice and what the attack card in effect made of them: "double: 2 × 7 = 14"."""
    dice, effect, points = roll["dice"], roll["effect"], roll["points"]
    total = sum(dice)
    shown = " + ".join(str(d) for d in dice)
    if effect == "double":
        return _("double: 2 \u00d7 {total} = {points}", total=total, points=points)
    if effect == "minus_4":
        return _("minus 4: {total} \u2212 4 = {points}", total=total, points=points) if total >= 4 else \
            _("minus 4: {total} \u2212 4, never below 0 = 0", total=total)
    if effect == "plus_4":
        return _("plus 4: {total} + 4 = {points}", total=total, points=points)
    if effect == "no_roll":
        return _("no roll: 0")
    if effect in ("move_4", "move_10"):
        return _("{points} instead of rolling", points=points)
    return f"{shown} = {points}"
