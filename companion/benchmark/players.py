"""Random legal play of any game, through its spec: commands the rules accept, found by trying them."""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec
import msgspec.inspect as mi

from companion.gamekit.contract import Command, GameSpec, IllegalMove
from companion.gamekit.draws import Draws


def random_value(info, rng: random.Random):
    """A value of the msgspec type `info`, drawn within its bounds: a command's args, legal now or not."""
    if isinstance(info, mi.Metadata):
        return random_value(info.type, rng)
    if isinstance(info, mi.StructType):
        return {f.encode_name: random_value(f.type, rng) for f in info.fields
                if f.required or rng.random() < 0.5}
    if isinstance(info, mi.IntType):
        low = info.ge if info.ge is not None else (info.gt + 1 if info.gt is not None else 0)
        high = info.le if info.le is not None else (info.lt - 1 if info.lt is not None else low + 9)
        return rng.randint(low, max(low, high))
    if isinstance(info, mi.BoolType):
        return rng.random() < 0.5
    if isinstance(info, mi.LiteralType):
        return rng.choice(info.values)
    if isinstance(info, mi.StrType):
        return "x"
    if isinstance(info, mi.TupleType):
        return [random_value(item, rng) for item in info.item_types]
    if isinstance(info, (mi.ListType, mi.VarTupleType)):
        size = rng.randint(info.min_length or 0, min(info.max_length or 3, 3))
        return [random_value(info.item_type, rng) for _ in range(size)]
    if isinstance(info, mi.UnionType):
        return random_value(rng.choice(info.types), rng)
    if isinstance(info, mi.NoneType):
        return None
    return None


def legal_command(spec: GameSpec, state, seats: int, rng: random.Random, tries: int = 300,
                  draws: Callable[[], Draws] = Draws) -> Command | None:
    """A command some seat (or the table) may send now that the rules accept, or None if none was found.
    Each try is played with `draws()` (the OS's randomness by default; seeded draws make it repeatable)."""
    senders = [(seat, kind) for seat in (None, *range(seats)) for kind in spec.legal(state, seat)]
    if not senders:
        return None
    schemas = {kind: mi.type_info(struct) for kind, struct in spec.commands.items()}
    for _ in range(tries):
        seat, kind = rng.choice(senders)
        if kind not in schemas:
            continue  # a table command (undo, end) the game lists: not for random play
        command = Command(kind, random_value(schemas[kind], rng), seat)
        try:
            spec.play(state, command, draws())
        except IllegalMove:
            continue
        except (msgspec.ValidationError, TypeError, ValueError):
            continue
        return command
    return None


def play_game(spec: GameSpec, options: dict, rng: random.Random, apply, state, limit: int = 5000) -> int:
    """Random legal commands through `apply(command) -> state` until the game is over (or stuck, or
    `limit`); returns how many were applied."""
    seats = spec.seats_in_play(options)
    for done in range(limit):
        if spec.over(state):
            return done
        command = legal_command(spec, state, seats, rng)
        if command is None:
            return done
        state = apply(command)
    return limit
