"""Randomness for the rules: drawn from the OS at command time, recorded, and replayed exactly."""

from __future__ import annotations

import secrets


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
        if self._replay is None:
            value = secrets.randbelow(n)
        else:
            if len(self.taken) >= len(self._replay):
                raise DrawsExhausted("the record holds fewer draws than the rules ask for")
            value = self._replay[len(self.taken)]
            if not 0 <= value < n:
                raise DrawsExhausted(f"recorded draw {value} is outside 0..{n - 1}")
        self.taken.append(value)
        return value

    def die(self, sides: int = 6) -> int:
        """One roll of a die with `sides` faces, 1..sides."""
        return self.below(sides) + 1

    def shuffled(self, items) -> list:
        """A new list with the items in a uniformly random order (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
