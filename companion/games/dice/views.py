"""What free dice shows: the last roll, its total and the recent rolls; nothing is secret."""

from __future__ import annotations

import msgspec

from companion.games.dice.rules import SHOWN_HISTORY, DiceState


class PastRoll(msgspec.Struct):
    n: int  # the roll's number since the game started, from 1
    dice: list[int]
    total: int


class DicePublic(msgspec.Struct):
    count: int  # dice the next roll uses
    last: list[int]  # the last roll's faces, empty before the first
    total: int
    rolls: int  # rolls made since the game started
    history: list[PastRoll]  # newest first


class DicePrivate(msgspec.Struct):
    """Free dice hides nothing."""


def public_view(state: DiceState) -> DicePublic:
    last = list(state.rolls[-1]) if state.rolls else []
    recent = state.rolls[-SHOWN_HISTORY:]
    made = state.earlier + len(state.rolls)
    first = made - len(recent) + 1
    return DicePublic(count=state.count, last=last, total=sum(last), rolls=made,
                      history=[PastRoll(first + i, list(r), sum(r)) for i, r in enumerate(recent)][::-1])


def private_view(state: DiceState, seat: int) -> DicePrivate:
    return DicePrivate()
