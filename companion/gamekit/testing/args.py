"""Random command args and game options, drawn from their msgspec Structs within the bounds they declare."""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping
from functools import cache
from typing import Any, cast

import msgspec
import msgspec.inspect as mi

# What a field without bounds is drawn from: small numbers and short texts, as a player would send.
LOW, HIGH = -2, 12
TEXTS = ("", "a", "Zoë", "Ærøskøbing", "x" * 40)
MAX_ITEMS = 4


def random_args(schema: type[msgspec.Struct], rng: random.Random) -> dict[str, Any]:
    """Plain-JSON args for a command (or options) of Struct `schema`: valid for the schema, legal or not."""
    args: dict[str, Any] = random_value(type_info(schema), rng)
    return args


@cache
def type_info(schema: type[msgspec.Struct]) -> mi.StructType:
    """msgspec's description of `schema`, read once: reading it walks every annotation."""
    # msgspec's stub returns any of its type descriptions: a Struct's is always a StructType.
    return cast(mi.StructType, mi.type_info(schema))


def random_value(info: mi.Type, rng: random.Random) -> Any:
    """A plain-JSON value of the msgspec type `info`, drawn within its bounds."""
    if isinstance(info, mi.Metadata):
        return random_value(info.type, rng)
    if isinstance(info, mi.StructType | mi.DataclassType | mi.TypedDictType):
        return {f.encode_name: random_value(f.type, rng) for f in info.fields
                if f.required or rng.random() < 0.7}  # an optional field left out takes its default
    if isinstance(info, mi.BoolType):
        return rng.random() < 0.5
    if isinstance(info, mi.IntType):
        return rng.randint(*_bounds(info))
    if isinstance(info, mi.FloatType):
        low, high = _bounds(info)
        return rng.uniform(low, high)
    if isinstance(info, mi.LiteralType):
        return rng.choice(info.values)
    if isinstance(info, mi.EnumType):
        return rng.choice([m.value for m in info.cls if isinstance(m, enum.Enum)])
    if isinstance(info, mi.StrType):
        text = rng.choice(TEXTS)[:info.max_length]
        return text.ljust(info.min_length or 0, "a")
    if isinstance(info, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        low = info.min_length or 0
        high = max(low, min(info.max_length if info.max_length is not None else MAX_ITEMS, low + MAX_ITEMS))
        return [random_value(info.item_type, rng) for _ in range(rng.randint(low, high))]
    if isinstance(info, mi.TupleType):
        return [random_value(item, rng) for item in info.item_types]
    if isinstance(info, mi.UnionType):
        return random_value(rng.choice(info.types), rng)
    if isinstance(info, mi.NoneType):
        return None
    if isinstance(info, mi.AnyType):
        return rng.choice([None, 0, "a"])
    raise TypeError(f"check_game cannot draw a value of type {info}: give check_game a `moves` function "
                    "that makes this game's commands")


def _bounds(info: mi.IntType | mi.FloatType) -> tuple[int, int]:
    low = info.ge if info.ge is not None else (info.gt + 1 if info.gt is not None else None)
    high = info.le if info.le is not None else (info.lt - 1 if info.lt is not None else None)
    low = low if low is not None else min(LOW, high if high is not None else LOW)
    high = high if high is not None else max(HIGH, low)
    return int(low), int(high)


def random_options(schema: type[msgspec.Struct] | None, fixed: Mapping[str, Any],
                   rng: random.Random) -> dict[str, Any]:
    """Options for a game: `fixed` as given, every other field drawn (or left to its default)."""
    if schema is None:
        return dict(fixed)
    drawn = {f.encode_name: random_value(f.type, rng) for f in type_info(schema).fields
             if f.encode_name not in fixed and (f.required or rng.random() < 0.8)}
    return drawn | dict(fixed)
