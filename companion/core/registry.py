"""The registry of games: every installed game registers its GameSpec in one entry-point group.

The bundled games register through the same group as a game shipped as its own pip package
(setup.py adds one entry point per folder under companion/games/), so the platform knows no game
by name.
"""

from __future__ import annotations

import logging
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from companion.gamekit.contract import GameSpec

GROUP = "table_companion.games"
log = logging.getLogger(__name__)


@cache
def _registered() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def names() -> list[str]:
    """Every installed game, by name."""
    return sorted(_registered())


def entry_point(name: str) -> EntryPoint | None:
    """The entry point game `name` is registered by (None: it is not installed)."""
    return _registered().get(name)


@cache
def get(name: str) -> GameSpec:
    """The spec of game `name`; ValueError names the known games, or says why the game cannot load."""
    found = _registered().get(name)
    if found is None:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(names())}")
    try:
        spec = found.load()
    except Exception as exc:
        log.exception("game %s (%s) does not load", name, found.value)
        raise ValueError(f"game {name!r} is installed but does not load ({type(exc).__name__}): "
                         "reinstall it") from None
    if not isinstance(spec, GameSpec) or spec.name != name:
        raise ValueError(f"entry point {name!r} = {found.value!r} is not the GameSpec of a game named "
                         f"{name!r}")
    return spec


def find(name: str | None) -> GameSpec | None:
    """The spec of game `name`, or None for no game or one that is not installed or does not load."""
    if name is None:
        return None
    try:
        return get(name)
    except ValueError:
        return None
