"""Button map of free dice: ROLL rolls, A changes how many dice, D undoes."""

from companion.games.dice.rules import MAX_DICE
from companion.games.spec import Command


def _next_count(view: dict) -> Command:
    return Command("set_dice", {"count": view.get("count", 1) % MAX_DICE + 1})


BUTTONS = {
    "roll": lambda view: Command("roll"),
    "a": _next_count,
    "d": lambda view: Command("undo"),
}


def dice_shown(view: dict) -> list[int]:
    return list(view.get("last") or [])
