"""Rules of free dice: roll 1-3 d6, change how many, keep the history."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated

import msgspec

from companion.games.spec import Command, IllegalMove
from companion.i18n import N_

MIN_DICE, MAX_DICE = 1, 3
SHOWN_HISTORY = 10


class DiceOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Setup options: how many dice are on the table."""

    count: Annotated[int, msgspec.Meta(ge=MIN_DICE, le=MAX_DICE, title=N_("Number of dice"))] = 2


class Roll(msgspec.Struct, forbid_unknown_fields=True):
    """Roll the dice on the table."""


class SetDice(msgspec.Struct, forbid_unknown_fields=True):
    """How many dice the next rolls use."""

    count: Annotated[int, msgspec.Meta(ge=MIN_DICE, le=MAX_DICE)]


COMMANDS = {"roll": Roll, "set_dice": SetDice}


@dataclass(frozen=True)
class DiceState:
    """`rolls` keeps only the rolls a view shows; `earlier` counts those dropped before them.

    Undo keeps every earlier state alive, so a state must stay small: a full roll list
    copied at each roll would grow with the square of the game's length.
    """

    count: int
    rolls: tuple[tuple[int, ...], ...] = ()
    earlier: int = 0


def setup(options, draws) -> DiceState:
    return DiceState(count=int(options.get("count", 2)))


def apply(state: DiceState, command: Command, draws) -> tuple[DiceState, list[dict]]:
    if command.kind == "roll":
        faces = tuple(draws.die(6) for _ in range(state.count))
        rolls = (*state.rolls, faces)
        dropped = max(0, len(rolls) - SHOWN_HISTORY)
        new = replace(state, rolls=rolls[dropped:], earlier=state.earlier + dropped)
        return new, [{"type": "rolled", "dice": list(faces)}]
    if command.kind == "set_dice":
        count = command.args.get("count")
        if not isinstance(count, int) or isinstance(count, bool) or not MIN_DICE <= count <= MAX_DICE:
            raise IllegalMove("Choose between {low} and {high} dice.", low=MIN_DICE, high=MAX_DICE)
        return replace(state, count=count), [{"type": "dice_count", "count": count}]
    raise IllegalMove("Unknown command {kind}.", kind=command.kind)


def legal(state: DiceState, seat: int | None) -> list[str]:
    return ["roll", "set_dice"]


def public_view(state: DiceState) -> dict:
    last = list(state.rolls[-1]) if state.rolls else []
    recent = state.rolls[-SHOWN_HISTORY:]
    made = state.earlier + len(state.rolls)
    first = made - len(recent) + 1
    return {
        "count": state.count,
        "last": last,
        "total": sum(last),
        "rolls": made,
        "history": [{"n": first + i, "dice": list(r), "total": sum(r)} for i, r in enumerate(recent)][::-1],
    }


def private_view(state: DiceState, seat: int) -> dict:
    return {}  # free dice hides nothing
