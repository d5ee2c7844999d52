"""Crazy Race (Michael Gewalt, F.X. Schmid 1994): a dice race over section cards, with secret bets."""

from companion.gamekit import N_, DataFile
from companion.gamekit.flat import flat_spec as GameSpec
from companion.games.gewalt.commands import COMMANDS
from companion.games.gewalt.controls import CONTROLS, dice_shown, rolled
from companion.games.gewalt.data import BUNDLED, load
from companion.games.gewalt.help import HELP
from companion.games.gewalt.names import COLOURS
from companion.games.gewalt.rules import (
    NOT_NOW_WORDS,
    GewaltOptions,
    actor,
    apply,
    legal,
    over,
    setup,
    undoable,
)
from companion.games.gewalt.screen import draw
from companion.games.gewalt.views import GewaltPrivate, GewaltPublic, private_view, public_view, result

SPEC = GameSpec(
    name="gewalt",
    title=N_("Crazy Race (Gewalt)"),
    package=__name__,
    commands=COMMANDS,
    setup=setup,
    apply=apply,
    legal=legal,
    actor=actor,
    public_view=public_view,
    private_view=private_view,
    public=GewaltPublic,
    private=GewaltPrivate,
    screen=draw,
    controls=CONTROLS,
    dice_shown=dice_shown,
    rolled=rolled,
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
        "counter": N_("{who} countered the attack card"),
        "allow": N_("{who} let the attack card stand"),
    },
    data=(DataFile("cards", BUNDLED, N_("Section, action and bet cards"), load),),
    undoable=undoable,
    over=over,
    not_now=NOT_NOW_WORDS,
    public_moves=frozenset({"roll"}),  # ROLL rolls for whoever must roll, a phone's seat too
    result=result,
    help=HELP,
)
