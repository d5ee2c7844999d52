"""The dashboard's door: what a table may send it, one declared schema with bounds; what fails is refused."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Annotated, Any

import msgspec

from companion.serving.quiet import LogPace
from companion.venue.topics import MESSAGE_LIMIT

MAX_DEPTH = 24  # nesting of a table's public view: a game's own view nests a few levels, never dozens
WHOLE = 2**63 - 1  # what SQLite keeps as an integer
SEATS = 64
SCORE = 10**9  # a score beyond a billion is a typo or a forgery, never a game

Seq = Annotated[int, msgspec.Meta(ge=1, le=WHOLE)]
Seat = Annotated[int, msgspec.Meta(ge=0, lt=SEATS)]
Score = Annotated[int, msgspec.Meta(ge=-SCORE, le=SCORE)]
Name = Annotated[str, msgspec.Meta(max_length=80)]


class Refused(ValueError):
    """A message the dashboard does not keep: why, in a log's words."""


class Envelope(msgspec.Struct, frozen=True):
    """One message of a table's stream: its place (`store`, the table's store identity, and `seq`), the
    oldest seq the table still holds (`first`: where a dashboard that never saw the stream starts) and
    its update, read on its own so that a bad update is set aside at its place in the stream."""

    seq: Seq
    version: Annotated[int, msgspec.Meta(ge=0, le=WHOLE)]
    update: msgspec.Raw  # null: the table's own stand-in for an update too big to send
    store: Annotated[str, msgspec.Meta(max_length=64)] = ""  # "": a table of an older version
    first: Seq | None = None


class SeatView(msgspec.Struct):
    """What the pages read of a seat; its other public facts pass as they are."""

    seat: Seat
    name: Name | None = None
    label: Name = ""
    in_game: bool = True


class ResultView(msgspec.Struct):
    winners: Annotated[list[Seat], msgspec.Meta(max_length=SEATS)] = []
    scores: Annotated[list[Score], msgspec.Meta(max_length=SEATS)] | None = None
    ranks: Annotated[list[Annotated[int, msgspec.Meta(ge=1, le=SEATS)] | None],
                     msgspec.Meta(max_length=SEATS)] | None = None


class UpdateView(msgspec.Struct):
    """What the dashboard's pages and results read of a table's public update."""

    version: Annotated[int, msgspec.Meta(ge=0, le=WHOLE)] | None = None
    game: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    title: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    over: bool = False
    waiting: Annotated[list[Seat], msgspec.Meta(max_length=SEATS)] = []
    seats: Annotated[list[SeatView], msgspec.Meta(max_length=SEATS)] = []
    result: ResultView | None = None


class Status(msgspec.Struct):
    online: bool


def envelope(payload: bytes) -> Envelope:
    """A table's message read at the door, its update left unread; Refused if it is not one."""
    if len(payload) > MESSAGE_LIMIT:
        raise Refused(f"{len(payload)} bytes, over the {MESSAGE_LIMIT} a message may have")
    return _decoded(payload, Envelope)


def status(payload: bytes) -> bool:
    """A table's retained status: online or not; Refused if it is not one."""
    if len(payload) > MESSAGE_LIMIT:
        raise Refused(f"{len(payload)} bytes, over the {MESSAGE_LIMIT} a message may have")
    return _decoded(payload, Status).online


def update(raw: msgspec.Raw) -> Any:
    """An envelope's update, decoded (the board checks it: `checked`); Refused if it cannot be read."""
    found = _decoded(bytes(raw), Any)
    if found is None:
        raise Refused("the table sent a stand-in: its update was over the size a message may have")
    return found


def checked(found: Any) -> dict:
    """`found`, a decoded update, if it keeps the schema and its bounds; Refused otherwise."""
    if not isinstance(found, dict):
        raise Refused("an update is a JSON object")
    if depth(found) > MAX_DEPTH:
        raise Refused(f"nested deeper than {MAX_DEPTH} levels")
    try:
        msgspec.convert(found, UpdateView)
    except msgspec.ValidationError as exc:
        raise Refused(str(exc)) from None
    return found


def depth(value: Any) -> int:
    """How deep lists and objects nest in `value`, walked without recursion (a poison is deep)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:  # past the bound the answer is known: no need to walk it all
                inner = item.values() if isinstance(item, dict) else item
                todo.extend((each, level + 1) for each in inner)
    return deepest


def _decoded(payload: bytes, kind: Any) -> Any:
    try:
        return msgspec.json.decode(payload, type=kind)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise Refused(str(exc)) from None
    except RecursionError:  # msgspec's own guard against a deep poison ("[[[[…")
        raise Refused("nested too deep to read") from None


class Quiet:
    """What the door set aside, logged at most once a minute per table with how many it left out: a
    flood of bad messages costs a line a minute, not a disk of tracebacks (no timer: told at the next)."""

    def __init__(self, log: logging.Logger, clock: Callable[[], float] = time.monotonic) -> None:
        self._log, self.pace = log, LogPace(clock=clock)

    def set_aside(self, name: str, what: str, why: str) -> None:
        allowed = self.pace.allow(name)
        if allowed is not None:
            self._log.warning("set aside %s from table %s: %s (and %d more since the last such line)",
                              what, name, why[:300], allowed[0])
