"""Button map of free dice: ROLL rolls, A changes how many dice, D undoes."""

from companion.gamekit import Command, button_map
from companion.games.dice.rules import MAX_DICE

CONTROLS = button_map({
    "roll": lambda view: Command("roll"),
    "a": lambda view: Command("set_dice", {"count": view["count"] % MAX_DICE + 1}),
    "d": lambda view: Command("undo"),
})


def dice_shown(view: dict) -> list[int]:
    return list(view["last"])


def rolled(events: list[dict]) -> bool:
    return any(event["type"] == "rolled" for event in events)
