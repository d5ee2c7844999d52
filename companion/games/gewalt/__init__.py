"""Crazy Race (Michael Gewalt, F.X. Schmid 1994): a dice race over section cards, with secret bets."""

from companion.games.gewalt.commands import COMMANDS
from companion.games.gewalt.controls import RaceControls, dice_shown
from companion.games.gewalt.names import COLOURS
from companion.games.gewalt.rules import GewaltOptions, apply, legal, setup
from companion.games.gewalt.screen import draw
from companion.games.gewalt.views import private_view, public_view
from companion.games.spec import GameSpec
from companion.i18n import N_

__all__ = ["COMMANDS", "SPEC"]

SPEC = GameSpec(
    name="gewalt",
    title=N_("Crazy Race (Gewalt)"),
    setup=setup,
    apply=apply,
    legal=legal,
    public_view=public_view,
    private_view=private_view,
    screen=draw,
    controls=RaceControls,
    dice_shown=dice_shown,
    seats=(3, 5),
    options=GewaltOptions,
    colours=COLOURS,
)
