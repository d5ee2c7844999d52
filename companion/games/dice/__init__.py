"""Free dice ("dés libres"): 1 to 3 six-sided dice for any board game."""

from companion.gamekit import MAX_SEATS, N_, Device, GameSpec, Views
from companion.games.dice.controls import CONTROLS, dice_shown
from companion.games.dice.help import LOOKS
from companion.games.dice.rules import MOVES, DiceOptions, setup
from companion.games.dice.screen import draw
from companion.games.dice.views import private_view, public_view

SPEC = GameSpec(
    name="dice",
    title=N_("Free dice"),
    package=__name__,
    setup=setup,
    moves=MOVES,
    views=Views(public_view, private_view),
    device=Device(draw, CONTROLS, dice_shown),
    looks=LOOKS,
    seats=(0, MAX_SEATS),  # any seated phone may roll
    hidden=False,
    options=DiceOptions,
)
