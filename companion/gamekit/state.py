"""Changing immutable game states: states are tuples, because undo keeps every earlier one alive."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """`items` with `items[index]` replaced by `value`."""
    return (*items[:index], value, *items[index + 1:])


def without(items: tuple[T, ...], item: T) -> tuple[T, ...]:
    """`items` with the first `item` taken out; ValueError if there is none."""
    i = items.index(item)
    return items[:i] + items[i + 1:]
