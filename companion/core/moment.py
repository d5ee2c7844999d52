"""The Moment: one language-neutral public view of the table per update, the one thing outputs read.

The table builds it once for each update (a committed command, a press, a seat change, a new status),
on its own thread. Every output (the live pages, the LED dice, the e-ink frames, the venue, the records)
reads the Moment and translates at its own edge; a seat's phone also gets that seat's private view
through `SeatSecrets`. Neither holds the session or a game's state: an output cannot reach a secret it
was not handed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from companion.gamekit.contract import IllegalMove


class SeatFacts(TypedDict):
    """A seat as every output shows it: the same name, colour and mark on the glass and on every phone."""

    seat: int  # from 0; pages say "Seat {seat + 1}"
    name: str  # the name a phone chose, or ""
    colour: str  # the colour's key, for code and CSS
    ink: str  # its sRGB hex, for pages
    label: str  # its name, a msgid ("Red")
    mark: str  # its mark, ❶ to ❻: a seat is never told apart by colour alone
    place: str  # the game's name for the seat, a msgid ("North"), or ""
    in_game: bool  # the running game has this seat
    playing: bool  # ... and it plays now (taken, where seats are optional)
    phone: bool  # a phone holds it now: its moves and secrets are that phone's alone


@dataclass(frozen=True)
class Moved:
    """The command an update records: its kind and the seat that sent it (None: the table). Never its
    arguments, which may hold a secret (a bid, a bet)."""

    kind: str
    seat: int | None


@dataclass(frozen=True)
class TableStatus:
    """The table's own state, beside the game: what the glass shows besides the game, and its faults."""

    url: str = ""  # the address phones open
    join_code: str = ""  # the four letters under the QR code
    join_key: str = ""  # the QR code's secret beside them: a scan joins without the typed codes' budget
    wifi: str = ""  # the hotspot's WIFI: QR payload while the table is the network ("" otherwise)
    panel_fault: str | None = None  # why the e-ink panel stopped answering, if it did
    network: str | None = None  # the table's network mode while it manages one: client, hotspot
    venue: str | None = None  # the venue the table publishes to, if any


class SeatSecrets:
    """One version's private views, handed to a seat's page only after its link was checked.

    It holds the means to make a seat's view, never the session itself: an output that has it can ask
    for a seat's view and for nothing else."""

    __slots__ = ("_view",)

    def __init__(self, view: Callable[[int], dict]):
        self._view = view

    def view(self, seat: int) -> dict:
        """The private view of `seat` (plain JSON), or {} for a seat the running game does not have."""
        return self._view(seat)


NO_SECRETS = SeatSecrets(lambda seat: {})


@dataclass(frozen=True)
class Moment:
    """The table at one version, as every output may see it. Every field is public and plain."""

    version: int
    game: str | None  # the running game's key
    public: Mapping[str, Any]  # the game's public view, plain JSON
    seats: tuple[SeatFacts, ...] = ()
    title: str | None = None  # the game's title, a msgid
    waiting: tuple[int, ...] = ()  # the seats the rules wait on ("Your turn")
    acting: int | None = None  # the seat the device's buttons stand for now
    legal: tuple[tuple[str, ...], ...] = ()  # by seat: the command kinds it may send now
    table_legal: tuple[str, ...] = ()  # the kinds the table itself (the host, the buttons) may send now
    due: float | None = None  # when the game's default move applies (the monotonic clock), if ever
    history: tuple[Mapping[str, Any], ...] = ()  # who did what, newest last; never how
    over: bool = False
    undo: bool = False  # whether the host's Undo would take a move back
    result: Mapping[str, Any] | None = None  # a finished game's winners, scores and ranks
    match: Mapping[str, Any] | None = None  # which game of a match the table is at
    ended: str | None = None  # the game the host ended, while the game between games its end began is young
    options: Mapping[str, Any] = field(default_factory=dict)  # the running game's setup options, plain JSON
    dice: tuple[int | None, ...] = ()  # the faces the LED dice hold (a button input's own, while entering)
    rolled: bool = False  # this update rolled dice: the LED dice tumble first
    must_see: bool = False  # this update showed what the table must see at once (GameSpec.must_see)
    entering: bool = False  # a button input is in progress (its faces show on the LED dice)
    entry: Mapping[str, Any] | None = None  # the public part of that input, for the glass
    command: Moved | None = None  # the command this update records
    rejected: IllegalMove | None = None  # a refused command or press: nothing else changed
    pressed: str | None = None  # the button this update answers, if a button led to it
    seating: int = 0  # seat and status changes since the table started: each is news to every page
    status: TableStatus = TableStatus()
    secrets: SeatSecrets = field(default=NO_SECRETS, repr=False, compare=False)

    def seat_legal(self, seat: int) -> tuple[str, ...]:
        """The command kinds `seat` may send now: none when it does not play the running game."""
        return self.legal[seat] if 0 <= seat < len(self.legal) else ()
