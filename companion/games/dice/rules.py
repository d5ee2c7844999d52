"""Rules of free dice: roll 1-3 d6, change how many, keep the history."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated

import msgspec

from companion.gamekit import N_, Move

MIN_DICE, MAX_DICE = 1, 3
SHOWN_HISTORY = 10
Count = Annotated[int, msgspec.Meta(ge=MIN_DICE, le=MAX_DICE, title=N_("Number of dice"))]


class DiceOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Setup options: how many dice are on the table."""

    count: Count = 2


class Roll(msgspec.Struct, forbid_unknown_fields=True):
    """Roll the dice on the table."""


class SetDice(msgspec.Struct, forbid_unknown_fields=True):
    """How many dice the next rolls use."""

    count: Count


@dataclass(frozen=True)
class DiceState:
    """`rolls` keeps only the rolls a view shows; `earlier` counts those dropped before them.

    Undo keeps every earlier state alive, so a state must stay small: a full roll list
    copied at each roll would grow with the square of the game's length.
    """

    count: int
    rolls: tuple[tuple[int, ...], ...] = ()
    earlier: int = 0


def setup(options: DiceOptions, draws, data) -> DiceState:
    return DiceState(count=options.count)


def _roll(state: DiceState, seat, args: Roll, draws) -> tuple[DiceState, list[dict]]:
    faces = tuple(draws.die(6) for _ in range(state.count))
    recent = (*state.rolls, faces)
    dropped = max(0, len(recent) - SHOWN_HISTORY)
    new = replace(state, rolls=recent[dropped:], earlier=state.earlier + dropped)
    return new, [{"type": "rolled", "dice": list(faces)}]


def _set_dice(state: DiceState, seat, args: SetDice, draws) -> tuple[DiceState, list[dict]]:
    return replace(state, count=args.count), [{"type": "dice_count", "count": args.count}]


# Anyone may roll or change the dice at any time: nobody's turn, nothing refused, every roll undoable.
MOVES = {
    "roll": Move(Roll, _roll, line=N_("{who} rolled the dice"), rolls={"rolled"}),
    "set_dice": Move(SetDice, _set_dice, line=N_("{who} changed the number of dice")),
}
