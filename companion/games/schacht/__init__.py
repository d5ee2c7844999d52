"""Crazy Race (Michael Schacht, 2002): secret bids beside a stage card, evaluation, locos and points."""

from companion.gamekit import N_, DataFile, Device, GameSpec, Turn, Views
from companion.games.schacht.controls import CONTROLS
from companion.games.schacht.data import BUNDLED, load
from companion.games.schacht.help import LOOKS
from companion.games.schacht.rules import MOVES, SchachtOptions, actor, over, setup
from companion.games.schacht.screen import draw
from companion.games.schacht.views import private_view, public_view, result

SPEC = GameSpec(
    name="schacht",
    title=N_("Crazy Race (Schacht)"),
    package=__name__,
    setup=setup,
    moves=MOVES,
    turn=Turn(actor=actor, over=over),
    views=Views(public_view, private_view, result=result),
    device=Device(draw, CONTROLS),
    looks=LOOKS,
    seats=(3, 4),
    options=SchachtOptions,
    data=(DataFile("stages", BUNDLED, N_("Stage cards, driver cards and points piles"), load),),
)
