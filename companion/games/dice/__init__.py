"""Free dice ("dés libres"): 1 to 3 six-sided dice for any board game."""

from companion.games.dice.controls import BUTTONS, dice_shown
from companion.games.dice.rules import COMMANDS, DiceOptions, apply, legal, private_view, public_view, setup
from companion.games.dice.screen import draw
from companion.games.spec import ButtonMap, GameSpec
from companion.i18n import N_
from companion.seats import MAX_SEATS

__all__ = ["COMMANDS", "SPEC"]

SPEC = GameSpec(
    name="dice",
    title=N_("Free dice"),
    setup=setup,
    apply=apply,
    legal=legal,
    public_view=public_view,
    private_view=private_view,
    screen=draw,
    controls=lambda: ButtonMap(BUTTONS),
    dice_shown=dice_shown,
    seats=(0, MAX_SEATS),  # any seated phone may roll
    options=DiceOptions,
    history_lines={"roll": N_("{who} rolled the dice"), "set_dice": N_("{who} changed the number of dice")},
)
