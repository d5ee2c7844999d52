"""The views are plain JSON of the Structs the spec declares, and a finished game's result reads from one."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import msgspec

from companion.gamekit.contract import Result, View
from companion.gamekit.testing.report import Played, fail


def check_views(played: Played, index: int) -> None:
    """State `index`'s public view and every private view convert back to their Structs."""
    spec, state = played.spec, played.states[index]
    shown: list[tuple[str, type[msgspec.Struct], Callable[[], View]]] = [
        ("public", spec.public, partial(spec.public_json, state))]
    shown += [(f"seat {seat}'s private", spec.private, partial(spec.private_json, state, seat))
              for seat in range(played.players)]
    for what, schema, view in shown:
        try:
            msgspec.convert(view(), schema)
        except (msgspec.ValidationError, TypeError) as exc:
            fail("views", f"the {what} view is not a {schema.__name__} in plain JSON: {exc}",
                 f"return a {schema.__name__} of plain values from the view function", played, index)


def check_result(played: Played) -> None:
    """A game that is over has a result naming only seats in play."""
    spec, players = played.spec, played.players
    if not spec.over(played.states[-1]):
        return
    try:
        result = spec.result(spec.public_json(played.states[-1]))
    except Exception as exc:
        fail("result", f"result() raised {type(exc).__name__}: {exc} on the final public view",
             "read the result from the public view as it is at the end", played)
    counts = [len(values) for values in (result.scores, result.ranks) if values is not None]
    if not isinstance(result, Result) or not set(result.winners) <= set(range(players)) or \
            any(count != players for count in counts):
        fail("result", f"result() gave {result!r} for {players} players",
             "return a Result: winners among the seats in play, a score or rank for each seat", played)
