"""Crazy Race (Michael Gewalt, F.X. Schmid 1994): a dice race over section cards, with secret bets."""

from companion.gamekit import N_, DataFile, Device, GameSpec, Turn, Views
from companion.games.gewalt.controls import CONTROLS, dice_shown
from companion.games.gewalt.data import BUNDLED, load
from companion.games.gewalt.help import LOOKS
from companion.games.gewalt.rules import MOVES, GewaltOptions, actor, count_move, over, setup
from companion.games.gewalt.screen import draw
from companion.games.gewalt.views import private_view, public_view, result

SPEC = GameSpec(
    name="gewalt",
    title=N_("Crazy Race (Gewalt)"),
    package=__name__,
    setup=setup,
    moves=MOVES,
    turn=Turn(actor=actor, over=over, on_move=count_move),
    views=Views(public_view, private_view, result=result),
    device=Device(draw, CONTROLS, dice_shown),
    looks=LOOKS,
    seats=(3, 5),
    options=GewaltOptions,
    data=(DataFile("cards", BUNDLED, N_("Section, action and bet cards"), load),),
)
