"""Le rallye hasardeux (Pierre Delvaux): a race round a hidden circuit, secret passages, surprise cards."""

from companion.gamekit import N_, DataFile, Device, GameSpec, Turn, Views
from companion.games.rallye.controls import CONTROLS, dice_shown
from companion.games.rallye.deck import load_route, load_surprises
from companion.games.rallye.help import LOOKS
from companion.games.rallye.rules import (
    MOVES,
    RallyeOptions,
    actor,
    count_move,
    deadline,
    over,
    setup,
    waiting,
)
from companion.games.rallye.screen import draw
from companion.games.rallye.views import private_view, public_view, result

SPEC = GameSpec(
    name="rallye",
    title=N_("Le rallye hasardeux"),
    package=__name__,
    setup=setup,
    moves=MOVES,
    turn=Turn(actor=actor, waiting=waiting, over=over, deadline=deadline, on_move=count_move),
    views=Views(public_view, private_view, result=result),
    device=Device(draw, CONTROLS, dice_shown),
    looks=LOOKS,
    seats=(2, 6),
    options=RallyeOptions,
    data=(DataFile("route", "route.toml", N_("Route cards: effects, surprise symbols, passages"), load_route),
          DataFile("surprises", "surprises.toml", N_("Surprise cards: how many of each"), load_surprises)),
)
