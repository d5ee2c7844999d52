"""Crazy Race (Michael Schacht, 2002): secret bids beside a stage card, evaluation, locos and points."""

from companion.games.schacht.commands import COMMANDS
from companion.games.schacht.controls import SchachtControls, dice_shown
from companion.games.schacht.rules import SchachtOptions, apply, legal, setup
from companion.games.schacht.screen import COLOURS, draw
from companion.games.schacht.views import private_view, public_view
from companion.games.spec import GameSpec
from companion.i18n import N_

SPEC = GameSpec(
    name="schacht",
    title=N_("Crazy Race (Schacht)"),
    setup=setup,
    apply=apply,
    legal=legal,
    public_view=public_view,
    private_view=private_view,
    screen=draw,
    controls=SchachtControls,
    dice_shown=dice_shown,
    seats=(3, 4),
    options=SchachtOptions,
    history_lines={
        "place": N_("{who} placed a card face down"),
        "pass": N_("{who} passed"),
        "move": N_("{who} moved locomotives"),
        "take_back": N_("{who} settled their take-back"),
        "recall": N_("{who} recalled their discards"),
        "next": N_("The next stage is revealed"),
    },
    colours=COLOURS,
)

__all__ = ["COMMANDS", "SPEC"]
