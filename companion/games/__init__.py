"""The registry of games: each sub-folder is one game and exposes SPEC."""

from __future__ import annotations

import importlib
import pkgutil

from companion.games.spec import GameSpec


def names() -> list[str]:
    """Every installed game, by folder name."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def get(name: str) -> GameSpec:
    """The spec of the game in folder `name`; ValueError names the known games."""
    if name not in names():
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(names())}")
    return importlib.import_module(f"companion.games.{name}").SPEC
