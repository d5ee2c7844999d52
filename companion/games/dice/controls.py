"""Button map of free dice: ROLL rolls, A changes how many dice, D undoes."""

from companion.gamekit import Command, button_map
from companion.games.dice.rules import MAX_DICE

CONTROLS = button_map({
    "roll": "roll",
    "a": lambda view: Command("set_dice", {"count": view["count"] % MAX_DICE + 1}),
    "d": "undo",
})


def dice_shown(view: dict) -> list[int]:
    return list(view["last"])

