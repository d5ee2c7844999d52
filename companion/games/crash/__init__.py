"""Crash! (Don O'Brien, Franjos 1992): bumper cars on a hex board, pushed into junkyards by three dice."""

from companion.gamekit import N_, DataFile
from companion.gamekit.flat import flat_spec as GameSpec
from companion.games.crash.board import load_board
from companion.games.crash.commands import COMMANDS
from companion.games.crash.controls import CONTROLS, dice_shown, rolled
from companion.games.crash.help import HELP
from companion.games.crash.names import COLOURS, SEAT_NAMES
from companion.games.crash.rules import NOT_NOW_WORDS, CrashOptions, actor, apply, legal, over, setup
from companion.games.crash.screen import draw
from companion.games.crash.views import PrivateView, PublicView, match_game, private_view, public_view, result

SPEC = GameSpec(
    name="crash",
    title=N_("Crash!"),
    package=__name__,
    commands=COMMANDS,
    setup=setup,
    apply=apply,
    legal=legal,
    actor=actor,
    public_view=public_view,
    private_view=private_view,
    public=PublicView,
    private=PrivateView,
    screen=draw,
    controls=CONTROLS,
    dice_shown=dice_shown,
    rolled=rolled,
    seats=(2, 2),
    options=CrashOptions,
    colours=COLOURS,
    seat_names=SEAT_NAMES,
    match_game=match_game,
    history_lines={
        "roll": N_("{who} rolled the steering dice"),
        "turn": N_("{who} turned a car"),
        "move": N_("{who} moved a car forward"),
        "end": N_("{who} ended their turn"),
        "mark_out": N_("{who} marked a car out"),
        "next_game": N_("The next game of the match began"),
    },
    data=(DataFile("board", "board.toml", N_("Board: cells, junkyards and garages"), load_board),),
    undoable=lambda events: not rolled(events),  # nobody rolls again for better dice
    over=over,
    not_now=NOT_NOW_WORDS,
    result=result,
    hidden=False,
    help=HELP,
)
