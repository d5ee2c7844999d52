"""Free dice ("dés libres"): 1 to 3 six-sided dice for any board game."""

from companion.gamekit import MAX_SEATS, N_, GameSpec
from companion.games.dice.controls import CONTROLS, dice_shown, rolled
from companion.games.dice.help import HELP
from companion.games.dice.rules import COMMANDS, DiceOptions, actor, apply, legal, setup
from companion.games.dice.screen import draw
from companion.games.dice.views import DicePrivate, DicePublic, private_view, public_view

SPEC = GameSpec(
    name="dice",
    title=N_("Free dice"),
    package=__name__,
    commands=COMMANDS,
    setup=setup,
    apply=apply,
    legal=legal,
    actor=actor,
    public_view=public_view,
    private_view=private_view,
    public=DicePublic,
    private=DicePrivate,
    screen=draw,
    controls=CONTROLS,
    dice_shown=dice_shown,
    rolled=rolled,
    seats=(0, MAX_SEATS),  # any seated phone may roll
    hidden=False,
    options=DiceOptions,
    history_lines={"roll": N_("{who} rolled the dice"), "set_dice": N_("{who} changed the number of dice")},
    help=HELP,
)
