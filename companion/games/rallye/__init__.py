"""Le rallye hasardeux (Pierre Delvaux): a race round a hidden circuit, secret passages, surprise cards."""

from companion.gamekit import N_, DataFile
from companion.gamekit.flat import flat_spec as GameSpec
from companion.games.rallye.commands import COMMANDS
from companion.games.rallye.controls import CONTROLS, dice_shown, rolled
from companion.games.rallye.deck import load_route, load_surprises
from companion.games.rallye.help import HELP
from companion.games.rallye.names import COLOURS
from companion.games.rallye.rules import (
    NOT_NOW_WORDS,
    RallyeOptions,
    actor,
    apply,
    deadline,
    legal,
    over,
    setup,
    undoable,
    waiting,
)
from companion.games.rallye.screen import draw
from companion.games.rallye.views import PrivateView, PublicView, private_view, public_view, result

SPEC = GameSpec(
    name="rallye",
    title=N_("Le rallye hasardeux"),
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
    deadline=deadline,
    waiting=waiting,
    undoable=undoable,
    over=over,
    not_now=NOT_NOW_WORDS,
    public_moves=frozenset({"roll"}),  # ROLL rolls for whoever must roll, a phone's seat too
    result=result,
    seats=(2, 6),
    options=RallyeOptions,
    colours=COLOURS,
    history_lines={
        "roll": N_("{who} rolled and moved"),
        "place_passage": N_("{who} named a card for a passage"),
        "choose": N_("{who} chose a player"),
        "exit": N_("{who} came out of the passage"),
        "stay": N_("{who} stayed beside the passage"),
        "cancel": N_("{who} cancelled the threat with a surprise card"),
        "decline": N_("The threat struck {who}"),
        "close": N_("Time was up: the threat struck whoever had not answered"),
        "discard": N_("{who} discarded a surprise card"),
        "key": N_("{who} laid a key on a passage"),
        "lock": N_("{who} locked a passage"),
        "access": N_("{who} laid a passage access card"),
        "swap_cards": N_("{who} swapped two route cards"),
        "lay": N_("{who} laid tacks or oil on the route"),
    },
    data=(DataFile("route", "route.toml", N_("Route cards: effects, surprise symbols, passages"), load_route),
          DataFile("surprises", "surprises.toml", N_("Surprise cards: how many of each"), load_surprises)),
    help=HELP,
)
