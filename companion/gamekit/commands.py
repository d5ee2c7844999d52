"""One convention for a game's commands: args checked against their Struct, then one handler per kind."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from companion.gamekit.contract import Command, parse

Handler = Callable[[Any, "int | None", msgspec.Struct, Any], tuple[Any, list[dict]]]


def rules(commands: Mapping[str, type[msgspec.Struct]], handlers: Mapping[str, Handler], *,
          after: Callable[[Any, Any], Any] | None = None) -> Callable[[Any, Command, Any], tuple[Any, list]]:
    """A game's `apply`: parse the args, then run `handlers[kind](state, seat, args, draws)`.

    The table has checked the command against the spec first (`GameSpec.check`: the game is not over,
    the kind is legal, the seat may act), so `seat` is the seat it acts for: the sender's, or the actor
    for a command of the table. `after(old, new)` finishes every accepted command's state (a move
    counter, say).
    """
    if set(commands) != set(handlers):
        raise ValueError(f"commands {sorted(commands)} and handlers {sorted(handlers)} differ")

    def apply(state, command: Command, draws) -> tuple[Any, list[dict]]:
        args = parse(commands, command.kind, command.args)
        new, events = handlers[command.kind](state, command.seat, args, draws)
        return (after(state, new) if after else new), events
    return apply
