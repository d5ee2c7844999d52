"""How a conformance check fails: which check, what went wrong, how to fix it, and the game that showed it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NoReturn

from companion.gamekit.contract import Command, GameSpec

SHOWN_COMMANDS = 12  # the last commands a failure lists; hypothesis shrinks a failing game to a short one


@dataclass(frozen=True)
class Step:
    """One accepted command, as the table records it: the command sent and the draws it took."""

    command: Command
    draws: list[int]


@dataclass
class Played:
    """One game played by the checks: what a replay needs (options, draws, commands) and every state."""

    spec: GameSpec
    options: dict[str, Any]
    start_draws: list[int]
    states: list[Any]  # states[0] is the new game, states[i + 1] the state after steps[i]
    steps: list[Step] = field(default_factory=list)

    @property
    def players(self) -> int:
        return self.spec.seats_in_play(self.options)

    def describe(self, upto: int | None = None) -> str:
        """The game so far, for a failure: its options and its last commands."""
        steps = self.steps[:upto]
        shown = [describe(step.command) for step in steps[-SHOWN_COMMANDS:]]
        skipped = f"{len(steps) - len(shown)} commands, then " if len(steps) > len(shown) else ""
        return (f"The game: {self.spec.name} with options {self.options}, {len(steps)} commands played"
                + (f" ({skipped}{'; '.join(shown)})" if shown else "") + ".")


def describe(command: Command) -> str:
    who = "the table" if command.seat is None else f"seat {command.seat}"
    return f"{command.kind} {dict(command.args)} from {who}"


def fail(check: str, problem: str, fix: str, played: Played | None = None, upto: int | None = None
         ) -> NoReturn:
    """Raise the AssertionError a test shows: `check` failed because `problem`; `fix` says what to do."""
    game = f"\n{played.describe(upto)}" if played is not None else ""
    raise AssertionError(f"{check}: {problem}\nTo fix: {fix}{game}")
