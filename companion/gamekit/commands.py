"""One convention for a game's commands: args checked against their Struct, then one handler per kind."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from companion.gamekit.contract import Command, IllegalMove
from companion.tomlfile import key_of

Handler = Callable[[Any, "int | None", msgspec.Struct, Any], tuple[Any, list[dict]]]


def parse(commands: Mapping[str, type[msgspec.Struct]], kind: str, args: object) -> msgspec.Struct:
    """The args of a `kind` command as its Struct; IllegalMove names the kind or the field that is wrong."""
    schema = commands.get(kind)
    if schema is None:
        raise IllegalMove("Unknown command {kind}: send one of {kinds}.", kind=kind,
                          kinds=", ".join(commands))
    try:
        return msgspec.convert(args, schema)
    except msgspec.ValidationError as exc:
        raise IllegalMove("Command {kind}: argument '{field}' is not valid ({reason}). Fix it and send it "
                          "again.", kind=kind, field=key_of(str(exc)), reason=str(exc).split(" - at ")[0]
                          ) from None


def rules(commands: Mapping[str, type[msgspec.Struct]], handlers: Mapping[str, Handler], *,
          acting: Callable[[Any, Command], int | None] = lambda state, command: command.seat,
          after: Callable[[Any, Any], Any] | None = None) -> Callable[[Any, Command, Any], tuple[Any, list]]:
    """A game's `apply`: parse the args, find who acts, run `handlers[kind](state, who, args, draws)`.

    `acting(state, command)` is the check every command of the game shares (the game is not over, the
    seat may act now) and returns the seat the command acts for. `after(old, new)` finishes every
    accepted command's state (a move counter, say).
    """
    if set(commands) != set(handlers):
        raise ValueError(f"commands {sorted(commands)} and handlers {sorted(handlers)} differ")

    def apply(state, command: Command, draws) -> tuple[Any, list[dict]]:
        args = parse(commands, command.kind, command.args)
        who = acting(state, command)
        new, events = handlers[command.kind](state, who, args, draws)
        return (after(state, new) if after else new), events
    return apply
