"""What the table knows after each command, press or seat change, and the one Moment it makes of it."""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import cached_property

import msgspec

from companion.core.moment import Moment, Moved, SeatFacts, SeatSecrets, TableStatus
from companion.core.session import END_GAME, Session, undo_refused
from companion.gamekit.colours import SEAT_MARKS, table_colours
from companion.gamekit.contract import MAX_SEATS, Command, Entry, GameSpec, IllegalMove

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Update:
    """One moment of the table as the table itself holds it, with the session: never handed to an output,
    which gets `moment` (public) and, for a seat, the secrets the moment carries.

    `rejected` is the IllegalMove of a refused command or press, with nothing else changed.
    `entry` is the device's button input in progress (the game's Controls read it), and `pressed`
    the button this update answers, if a button led to it.
    """

    version: int
    game: str | None
    public: dict
    events: list[dict] = field(default_factory=list)
    command: Command | None = None
    rejected: IllegalMove | None = None
    session: Session | None = field(default=None, repr=False)
    seats: tuple[SeatFacts, ...] = ()
    entry: Entry = None
    pressed: str | None = None
    due: float | None = None  # when the game's deadline passes (the monotonic clock), if it has one
    seating: int = 0  # seat and status changes since the table started: they keep the version, bump this
    status: TableStatus = TableStatus()

    @property
    def spec(self) -> GameSpec | None:
        return self.session.spec if self.session is not None else None

    def private(self, seat: int) -> dict:
        session = self.session
        if session is None or not 0 <= seat < session.spec.seats_in_play(session.options):
            return {}
        return session.spec.private_json(session.state, seat)

    @cached_property
    def acting(self) -> int | None:
        """The seat the device's buttons stand for now."""
        session = self.session
        return session.spec.actor(session.state) if session is not None else None

    @cached_property
    def moment(self) -> Moment:
        """The public Moment of this update: built once, on the table thread, before any output reads it."""
        return moment_of(self)


def seat_facts(session: Session | None, names: dict[int, str],
               phones: Collection[int]) -> tuple[SeatFacts, ...]:
    """Every seat as every output shows it: its number, chosen name, colour, mark and place (the game's name
    for the seat, a msgid, or ""), whether `session` has it (`in_game`), whether it plays now (`playing`:
    in the game, and taken if seats are optional) and whether it plays from a phone (`phone`)."""
    spec = session.spec if session else None
    colours = table_colours(spec.colours if spec else ())
    count = spec.seats_in_play(session.options) if spec and session else 0
    # A game whose seats are all optional (free dice) plays only the seats someone took.
    optional = spec is None or spec.seats[0] == 0
    out = []
    for seat in range(MAX_SEATS):
        # A seat the game leaves out, or a game with no colours of its own, takes the palette's.
        colour = colours[seat]
        name = names.get(seat, "")
        place = spec.seat_names[seat] if spec and seat < len(spec.seat_names) else ""
        out.append(SeatFacts(seat=seat, name=name, colour=colour.key, ink=colour.ink, label=colour.label,
                             mark=SEAT_MARKS[seat], place=place, in_game=seat < count,
                             playing=seat < count and (bool(name) or not optional), phone=seat in phones))
    return tuple(out)


def moment_of(update: Update) -> Moment:
    """The Moment of `update`: what every output may know of it, computed once for all of them."""
    session = update.session
    command = None if update.command is None else Moved(update.command.kind, update.command.seat)
    base = Moment(update.version, update.game, update.public, update.seats, command=command,
                  rejected=update.rejected, pressed=update.pressed, seating=update.seating,
                  status=update.status, secrets=SeatSecrets(update.private))
    if session is None:
        return base
    spec, state = session.spec, session.state
    in_play = spec.seats_in_play(session.options)
    over = spec.over(state)
    dice, rolled, entry = _device(update, spec)
    entering = update.entry is not None
    must_see = update.command is not None and update.rejected is None and spec.must_see(state, update.events)
    return Moment(
        update.version, update.game, update.public, update.seats, title=spec.title,
        waiting=tuple(spec.waiting_on(state)), acting=update.acting,
        legal=tuple(tuple(spec.legal(state, seat)) if seat < in_play else () for seat in range(MAX_SEATS)),
        table_legal=tuple(spec.legal(state, None)),
        due=update.due, history=tuple(session.history), over=over, undo=undo_refused(session) is None,
        result=_result(update, spec) if over else None, match=_match(update, spec), ended=_ended(session),
        options=msgspec.to_builtins(session.options) or {},
        dice=dice, rolled=rolled, must_see=must_see, entering=entering, entry=entry, command=command,
        rejected=update.rejected,
        pressed=update.pressed, seating=update.seating, status=update.status, secrets=base.secrets)


def _device(update: Update, spec: GameSpec) -> tuple[tuple[int | None, ...], bool, dict | None]:
    """The LED dice's faces, whether they roll first, and the public part of a button input in progress
    (its own faces show while a value is entered)."""
    view = update.public
    try:
        entering = spec.controls.leds(update.entry, view) if update.entry is not None else None
        shown = spec.controls.shown(update.entry, view) if update.entry is not None else None
        if entering is not None:
            return tuple(entering), False, _plain(shown)
        rolled = update.rejected is None and spec.rolled(update.events)
        return tuple(spec.dice_shown(view)), rolled, _plain(shown)
    except Exception as exc:  # a bug in a game's controls costs the dice, not the update
        log.error("the device view of %s failed: %s", update.game, type(exc).__name__)
        return (), False, None


def _plain(shown) -> dict | None:
    return None if shown is None else dict(shown)


def _result(update: Update, spec: GameSpec) -> dict | None:
    """How a finished game ended (the game's `Result`, read from its public view, so public too)."""
    try:
        return msgspec.to_builtins(spec.result(update.public))
    except Exception as exc:  # a game's bug: its pages still show the end, without the places
        log.error("the result of %s failed: %s", update.game, type(exc).__name__)
        return None


def _match(update: Update, spec: GameSpec) -> dict | None:
    """Which game of a match the table is at (`GameSpec.match_game`), for the end box and the scoreboard."""
    try:
        found = spec.match_game(update.public)
    except Exception as exc:  # a bug in a game's view reader costs the line, not the page
        log.error("the match game of %s failed: %s", update.game, type(exc).__name__)
        return None
    return None if found is None else {"game": found.game, "games": found.games, "ended": found.ended}


def _ended(session: Session) -> str | None:
    """The game the host ended, while the game between games its end began is young (its history still
    opens with the end): every page says so, so no phone switches without a word."""
    history = session.history
    if not history or history[0].get("kind") != END_GAME or "game" not in history[0]:
        return None
    return str(history[0]["game"])


@dataclass(frozen=True)
class Result:
    """The answer to one submitted command."""

    ok: bool
    version: int
    error: IllegalMove | None = None
