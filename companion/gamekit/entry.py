"""Step-by-step number input at the device: each field's value chosen on the LED dice, then confirmed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DIE_MAX = 6


def number_faces(n: int) -> list[int | None]:
    """A number on the LED dice: 1-6 on the first die, then 6s and the rest (7 = 6+1, 12 = 6+6); 0 is dark."""
    faces: list[int | None] = []
    while n > 0:
        faces.append(min(n, DIE_MAX))
        n -= DIE_MAX
    return faces


@dataclass(frozen=True)
class Field:
    """One value of an input: its name, how many choices (a number, or a function of the view), and
    the number the first choice shows."""

    name: str
    choices: int | Callable[[dict[str, Any]], int]
    first: int = 1

    def count(self, view: dict[str, Any]) -> int:
        return self.choices(view) if callable(self.choices) else self.choices


@dataclass(frozen=True)
class Entry:
    """An input in progress: which flow, its fields, the field being chosen and each field's choice."""

    flow: str
    fields: tuple[Field, ...]
    values: tuple[int, ...]
    step: int = 0

    @property
    def field(self) -> Field:
        return self.fields[self.step]

    @property
    def shown(self) -> int:
        """The number the field being chosen shows (on the LED dice, say)."""
        return self.values[self.step] + self.field.first

    def moved(self, delta: int, view: dict[str, Any]) -> Entry:
        """The field being chosen moved `delta` choices along, wrapping round."""
        count = max(1, self.field.count(view))
        values = list(self.values)
        values[self.step] = (values[self.step] + delta) % count
        return Entry(self.flow, self.fields, tuple(values), self.step)

    def forward(self) -> Entry | None:
        """The next field, or None once the last one is confirmed (the input is complete)."""
        return Entry(self.flow, self.fields, self.values, self.step + 1) if self.step + 1 < len(self.fields) \
            else None

    def back(self) -> Entry | None:
        """The previous field, or None when backing out of the first (the input is dropped)."""
        return Entry(self.flow, self.fields, self.values, self.step - 1) if self.step else None

    def chosen(self) -> dict[str, int]:
        """Each field's choice by name, as an index from 0."""
        return dict(zip((f.name for f in self.fields), self.values, strict=True))
