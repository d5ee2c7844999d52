"""Twenty-one: players take turns adding 1, 2 or 3 to a count; whoever says 21 loses.

A game for the table companion shipped as its own package: everything it has is in this folder, and
it plugs into the platform through the table_companion.games entry point only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated

import msgspec

from companion.gamekit import (
    BLUE,
    GREEN,
    N_,
    ORANGE,
    RED,
    Command,
    Controls,
    Device,
    GameSpec,
    Looks,
    Move,
    Result,
    Turn,
    Views,
    standard_frame,
)

LOSING = 21
KEYS = {"a": 1, "b": 2, "c": 3}


class Options(msgspec.Struct, forbid_unknown_fields=True):
    players: Annotated[int, msgspec.Meta(ge=2, le=4, title=N_("Players"))] = 2


class Add(msgspec.Struct, forbid_unknown_fields=True):
    """Add 1, 2 or 3 to the count."""

    n: Annotated[int, msgspec.Meta(ge=1, le=3)]


class Public(msgspec.Struct):
    players: int
    count: int
    turn: int | None  # None once someone said 21
    loser: int | None


class Private(msgspec.Struct):
    seat: int
    my_turn: bool


@dataclass(frozen=True)
class State:
    players: int
    count: int = 0
    turn: int = 0
    loser: int | None = None


def setup(options: Options, draws, data) -> State:
    return State(options.players, turn=draws.below(options.players))


def _add(state: State, seat: int, args: Add, draws):
    count = min(LOSING, state.count + args.n)
    if count == LOSING:
        return replace(state, count=count, loser=seat), [{"type": "lost", "seat": seat}]
    return replace(state, count=count, turn=(seat + 1) % state.players), [{"type": "added", "n": args.n}]


def may_add(state: State, seat: int | None) -> bool:
    return state.loser is None and seat in (None, state.turn)


def public_view(state: State) -> Public:
    return Public(state.players, state.count, None if state.loser is not None else state.turn, state.loser)


def private_view(state: State, seat: int) -> Private:
    return Private(seat, state.loser is None and state.turn == seat)


def draw(view: dict, canvas, _, table) -> None:
    if view["loser"] is None:
        status = _("{name} to play", name=table.name(view["turn"], COLOURS, _))
    else:
        status = _("{name} said 21", name=table.name(view["loser"], COLOURS, _))
    body = standard_frame(canvas, _("Twenty-one"), status, table)
    canvas.text(body, str(view["count"]), bold=True)


def result(view: dict) -> Result:
    """Everyone but the seat that said 21 wins."""
    return Result(tuple(seat for seat in range(view["players"]) if seat != view["loser"]))


def step(entry, key: str, view: dict):
    return None, Command("add", {"n": KEYS[key]}) if key in KEYS else None


COLOURS = (GREEN, BLUE, RED, ORANGE)

SPEC = GameSpec(
    name="twentyone",
    title=N_("Twenty-one"),
    package=__name__,
    setup=setup,
    moves={"add": Move(Add, _add, line=N_("{who} counted on"), allowed=may_add)},
    turn=Turn(actor=lambda state: state.turn if state.loser is None else None,
              over=lambda state: state.loser is not None),
    views=Views(public_view, private_view, result=result),
    device=Device(draw, Controls(step)),
    looks=Looks(colours=COLOURS),
    seats=(2, 4),
    options=Options,
    hidden=False,
)
