"""Crash! (Don O'Brien, Franjos 1992): bumper cars on a hex board, pushed into junkyards by three dice."""

from companion.gamekit import N_, DataFile, Device, GameSpec, Turn, Views
from companion.games.crash.board import load_board
from companion.games.crash.controls import CONTROLS, dice_shown
from companion.games.crash.help import LOOKS
from companion.games.crash.rules import MOVES, CrashOptions, actor, count_move, over, setup
from companion.games.crash.screen import draw
from companion.games.crash.views import match_game, private_view, public_view, result

SPEC = GameSpec(
    name="crash",
    title=N_("Crash!"),
    package=__name__,
    setup=setup,
    moves=MOVES,
    turn=Turn(actor=actor, over=over, on_move=count_move),
    views=Views(public_view, private_view, result=result, match_game=match_game),
    device=Device(draw, CONTROLS, dice_shown),
    looks=LOOKS,
    seats=(2, 2),
    options=CrashOptions,
    hidden=False,
    data=(DataFile("board", "board.toml", N_("Board: cells, junkyards and garages"), load_board),),
)
