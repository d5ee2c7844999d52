"""Randomness for the rules: drawn from the OS at command time, recorded, and replayed exactly."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


class DrawsExhausted(Exception):
    """A replayed command asked for more randomness than its record holds."""


class Draws:
    """Every random number a command uses, as a list of `below(n)` results.

    Live, numbers come from the OS (`secrets`). Replaying, they come from the record,
    so a game rebuilt from its log is identical, dice for dice.
    """

    def __init__(self, recorded: list[int] | None = None):
        self._replay = list(recorded) if recorded is not None else None
        self.taken: list[int] = []

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n < 1:
            raise ValueError(f"cannot draw below {n}")
        value = self._draw(n)
        self.taken.append(value)
        return value

    def _draw(self, n: int) -> int:
        if self._replay is None:
            return secrets.randbelow(n)
        if len(self.taken) >= len(self._replay):
            raise DrawsExhausted("the record holds fewer draws than the rules ask for")
        value = self._replay[len(self.taken)]
        if not 0 <= value < n:
            raise DrawsExhausted(f"recorded draw {value} is outside 0..{n - 1}")
        return value

    def die(self, sides: int = 6) -> int:
        """One roll of a die with `sides` faces, 1..sides."""
        return self.below(sides) + 1

    def shuffled(self, items: Iterable[T]) -> list[T]:
        """A new list with the items in a uniformly random order (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


class ScriptedDraws(Draws):
    """Draws for a game's tests: the die faces you choose first, then a seeded generator (or `pick`).

    `dice` are faces 1-6 that the next six-sided draws take in order; after them, `seed` (a number or
    a `random.Random`) gives every draw, unless `pick(n)` chooses each one (a hypothesis draw, say, so
    that a failing game shrinks). Like the table's own draws, `taken` lists what was drawn.
    """

    def __init__(self, seed: int | random.Random = 0, dice: Iterable[int] | None = (),
                 pick: Callable[[int], int] | None = None):
        super().__init__()
        self.random = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.dice = list(dice or ())
        self.pick = pick

    def _draw(self, n: int) -> int:
        if n == 6 and self.dice:
            return self.dice.pop(0) - 1
        value = self.pick(n) if self.pick is not None else self.random.randrange(n)
        if not 0 <= value < n:
            raise ValueError(f"a scripted draw gave {value}, outside 0..{n - 1}")
        return value
