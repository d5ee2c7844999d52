"""Crazy Race (Michael Schacht, 2002): secret bids beside a stage card, evaluation, locos and points."""

from companion.gamekit import N_, DataFile
from companion.gamekit.flat import flat_spec as GameSpec
from companion.games.schacht.colours import COLOURS
from companion.games.schacht.commands import COMMANDS
from companion.games.schacht.controls import CONTROLS
from companion.games.schacht.data import BUNDLED, load
from companion.games.schacht.help import HELP
from companion.games.schacht.rules import NOT_NOW_WORDS, SchachtOptions, actor, apply, legal, setup, undoable
from companion.games.schacht.screen import draw
from companion.games.schacht.views import SchachtPrivate, SchachtPublic, private_view, public_view, result

SPEC = GameSpec(
    name="schacht",
    title=N_("Crazy Race (Schacht)"),
    package=__name__,
    commands=COMMANDS,
    setup=setup,
    apply=apply,
    legal=legal,
    actor=actor,
    public_view=public_view,
    private_view=private_view,
    public=SchachtPublic,
    private=SchachtPrivate,
    screen=draw,
    controls=CONTROLS,
    seats=(3, 4),
    options=SchachtOptions,
    colours=COLOURS,
    history_lines={
        "place": N_("{who} placed a card face down"),
        "pass": N_("{who} passed"),
        "move": N_("{who} moved locomotives"),
        "take_back": N_("{who} settled their take-back"),
        "recall": N_("{who} recalled their discards"),
        "next": N_("The next stage is revealed"),
    },
    data=(DataFile("stages", BUNDLED, N_("Stage cards, driver cards and points piles"), load),),
    undoable=undoable,
    over=lambda state: state.phase == "over",
    not_now=NOT_NOW_WORDS,
    result=result,
    help=HELP,
)
