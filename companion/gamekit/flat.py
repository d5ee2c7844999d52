"""The flat spec of earlier games, as a GameSpec: kept while games move to moves, turn and views."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.gamekit.contract import (
    NOT_NOW,
    Device,
    GameSpec,
    Looks,
    Move,
    Result,
    Turn,
    Views,
    _never,
    _no_deadline,
    _no_dice,
    _no_match,
)


@dataclass(frozen=True)
class FlatSpec(GameSpec):
    """A GameSpec whose rules still come as one `apply`, one `legal` and event tests."""

    flat: Any = None

    def apply(self, state, command, draws):
        return self.flat["apply"](state, command, draws)

    def legal(self, state, seat):
        return self.flat["legal"](state, seat)

    def rolled(self, events):
        return self.flat["rolled"](events)

    def undoable(self, events):
        return self.flat["undoable"](events)

    @property
    def public(self):
        return self.flat["public"]

    @property
    def private(self):
        return self.flat["private"]


def flat_spec(*, name, title, package, commands, setup, apply, legal, actor, public_view, private_view,
              public, private, screen, controls, dice_shown=_no_dice, rolled=lambda events: False,
              deadline=_no_deadline, undoable=lambda events: True, waiting=None, over=_never,
              result=lambda view: Result(), hidden=True, seats=(0, 0), options=None, colours=(),
              history_lines=None, data=(), help=None, not_now=None, public_moves=frozenset(),
              command_labels=None, seat_names=(), match_game=_no_match) -> FlatSpec:
    not_now, history_lines, command_labels = not_now or {}, history_lines or {}, command_labels or {}

    def allowed(kind):
        words = not_now.get(kind, NOT_NOW)
        return lambda state, seat: (kind in legal(state, seat)
                                    or (words(state, seat) if callable(words) else words))

    moves = {kind: Move(args, None, history_lines.get(kind, ""), command_labels.get(kind, ""), allowed(kind),
                        kind in public_moves) for kind, args in commands.items()}
    return FlatSpec(
        name=name, title=title, package=package, setup=setup, moves=moves,
        views=Views(public_view, private_view, result, match_game),
        device=Device(screen, controls, dice_shown),
        turn=Turn(actor, waiting, over, deadline),
        looks=Looks(colours, seat_names, *((help.how, help.cards, help.names) if help else ())),
        hidden=hidden, seats=seats, options=options, data=data,
        flat=dict(apply=apply, legal=legal, rolled=rolled, undoable=undoable, public=public, private=private))
