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
    history_lines={
        "roll": N_("{who} rolled and moved"),
        "play_section": N_("{who} placed a section card"),
        "discard_section": N_("{who} discarded a section card"),
        "attack": N_("{who} played an attack card"),
        "relocate": N_("{who} moved a section card"),
        "discard_action": N_("{who} discarded an action card"),
        "counter": N_("The attack was countered"),
        "allow": N_("The attack stands"),
    },
)
