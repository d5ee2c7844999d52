"""Replay from the record: the same options, draws and commands rebuild the same states."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec

from companion.gamekit.contract import IllegalMove
from companion.gamekit.draws import Draws, DrawsExhausted
from companion.gamekit.testing.report import Played, describe, fail

FIX = ("take every random number from the `draws` argument (draws.below, die, shuffled), never from "
       "`random`, the clock or any state outside the arguments: the table replays a game from its record")


def check_replay(played: Played) -> None:
    """Start `played`'s game again from its options and recorded draws, send each recorded command with
    the draws it took, and compare every state with the one played."""
    spec = played.spec
    draws = Draws(played.start_draws)
    try:
        _, state = spec.start(played.options, draws)
    except DrawsExhausted as exc:
        fail("replay", f"setting up again asked for more draws than the first time ({exc})", FIX, played, 0)
    _same(played, 0, state, draws, played.start_draws)
    for index, step in enumerate(played.steps, start=1):
        draws = Draws(step.draws)
        try:
            state, _ = spec.play(state, step.command, draws)
        except DrawsExhausted as exc:
            fail("replay", f"{describe(step.command)} asked for more draws than when it was played ({exc})",
                 FIX, played, index)
        except IllegalMove as refusal:
            fail("replay", f"{describe(step.command)}, accepted when played, was refused: {refusal}", FIX,
                 played, index)
        _same(played, index, state, draws, step.draws)
    if spec.public_json(state) != spec.public_json(played.states[-1]):
        fail("replay", "the replayed game's public view differs from the one played", FIX, played)


def _same(played: Played, index: int, state: Any, draws: Draws, recorded: list[int]) -> None:
    what = "the new game" if index == 0 else f"command {index} ({describe(played.steps[index - 1].command)})"
    if draws.taken != recorded:
        fail("replay", f"{what} took {len(draws.taken)} of its {len(recorded)} recorded draws", FIX, played,
             index)
    if state != played.states[index]:
        fields = differing(state, played.states[index])
        fail("replay", f"the state after {what} differs from the one played"
             + (f" in {', '.join(fields)}" if fields else ""), FIX, played, index)


def differing(a: object, b: object) -> list[str]:
    """The fields in which two states (dataclasses or msgspec Structs) differ, where they have fields."""
    if dataclasses.is_dataclass(a) and type(a) is type(b):
        names = [f.name for f in dataclasses.fields(a)]
    elif isinstance(a, msgspec.Struct) and type(a) is type(b):
        names = list(a.__struct_fields__)
    else:
        return []
    return [name for name in names if getattr(a, name) != getattr(b, name)]
