"""The table: the single writer that applies commands and presses in order, records, then tells outputs."""

from __future__ import annotations

import json
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable, Collection, Hashable, Iterator, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from companion.core.seats import MAX_SEATS, Roster
from companion.core.session import (
    END_GAME,
    GAME_STARTS,
    NEW_GAME,
    UNDO,
    Session,
    Setup,
    advance,
    bounded,
)
from companion.core.snapshots import Snapshots, due, encode
from companion.foreground import Foreground
from companion.gamekit.colours import SEAT_COLOURS
from companion.gamekit.contract import PHONE_SEAT, Command, Entry, GameSpec, IllegalMove, TableInfo
from companion.gamekit.draws import Draws, DrawsExhausted
from companion.i18n import LANGUAGES, N_, translator
from companion.storage.check import DAMAGED
from companion.storage.limit import STORE_FULL
from companion.storage.store import Store, StoreError

log = logging.getLogger(__name__)

REISSUE_HOST = "d:hold"  # a long press on D, whatever the game: a new host link and join code

INTERNAL_ERROR = N_("The table could not apply this command because of an internal error, now in the "
                    "device's log. Nothing was changed.")
BUTTON_REFUSED = N_("That button does nothing now.")
SAVE_FAILED = N_("The device could not save this (its log says why): nothing was changed. Check that its "
                 "storage is not full.")


@dataclass(frozen=True)
class Update:
    """One moment of the table, as outputs are told it after each command, press or seat change.

    `public` is safe for every output. `private(seat)` is for that seat's phone only.
    `rejected` is the IllegalMove of a refused command or press, with nothing else changed.
    `seats` is the public seating: each seat's number, chosen name and colour.
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
    seats: tuple[dict, ...] = ()
    entry: Entry = None
    pressed: str | None = None
    due: float | None = None  # when the game's deadline passes (the monotonic clock), if it has one
    seating: int = 0  # seat changes since the table started: a seat change keeps the version, bumps this

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
        return self.spec.actor(self.session.state) if self.session is not None else None


@dataclass(frozen=True)
class Result:
    """The answer to one submitted command."""

    ok: bool
    version: int
    error: IllegalMove | None = None


@dataclass(frozen=True)
class _Press:
    key: str


@dataclass(frozen=True)
class _FromHost:
    command: Command
    token: str | None = None  # the host link it came with: still the host's when it applies


@dataclass(frozen=True)
class _FromSeat:
    """A command sent with a seat's link: it applies only if the link is still the seat's when its turn
    comes (the host may have freed the seat, or given it to another, since the link was checked)."""

    command: Command
    token: str


Subscriber = Callable[[Update], None]


class Table:
    """Owns the running game. Only its thread changes state; everyone else submits commands or presses.

    `latest` is the one immutable snapshot of now: version, session, views and the input in progress
    are read from it together. Subscribers run on the table thread after the record is committed, so
    they must only hand work off (set a latest frame, put on a queue, start an LED timer).

    `foreground` counts each queued item as work a player waits on until it is published.
    `on_long_start()` is called while a start replays a long log (the daemon tells systemd).
    """

    def __init__(self, store: Store, setup: Setup | None = None, foreground: Foreground | None = None,
                 on_long_start: Callable[[], None] | None = None):
        self.store = store
        self.snapshots = Snapshots(store, on_long_start)
        self.foreground = foreground or Foreground()
        self.roster = Roster(store)
        self.roster.unnamed = self._colour_names
        self.setup = setup or Setup()
        self._queue: queue.Queue = queue.Queue()
        self._subscribers: list[Subscriber] = []
        self._rolling: list[Callable[[], None]] = []
        self._thread: threading.Thread | None = None
        try:
            # From the newest sound snapshot: only the records after it are replayed.
            session, version, self._since = self.snapshots.resume()
        except (IllegalMove, DrawsExhausted, ValueError, KeyError, TypeError) as exc:
            raise StoreError(f"{store.path}: the running game no longer replays ({exc}); the rules may "
                             "have changed. Nothing was changed: the files were kept as they are. Export "
                             "the game with the older version, or start a fresh table (the files are moved "
                             f"aside, never deleted): companion store fresh --state-dir {store.path.parent}",
                             DAMAGED) from exc
        self._stopped = False
        self._latest = self._published = self._update(session, version, [], None)
        self._due: tuple[float, int, Command, Hashable] | None = None  # (time, version, command, window)
        # A venue's outbox (outputs/venue/outbox.py): writes an update's public rows in its command's
        # transaction. None without a venue: nothing of it is imported.
        self.outbox: Callable[[Any, Update], None] | None = None

    # --- submitting -------------------------------------------------------------------
    def submit(self, command: Command, host: bool = False, token: str | None = None) -> Future:
        """Queue a command; the future resolves to a Result once it is durable (or refused).

        `host`: the command comes from the host's phone, a player like any other: beyond the
        table's own commands (new game, undo, end) it may act only for a seat no phone has held in this
        game.
        `token`: the seat's or the host's link the command came with; it must still be theirs when the
        command applies.
        """
        fut: Future = Future()
        if self._stopped:
            fut.set_result(Result(False, self.version, IllegalMove("The table is shutting down.")))
            return fut
        self._enqueue(_FromHost(command, token) if host else _FromSeat(command, token) if token else command,
                      fut)
        return fut

    def call(self, command: Command, timeout: float = 10.0, host: bool = False,
             token: str | None = None) -> Result:
        """Submit and wait for the Result."""
        return self.submit(command, host, token).result(timeout)

    def press(self, key: str) -> Future:
        """A debounced button ("a".."d", "roll", with ":hold" for a long press); returns at once.

        The press is stepped through the game's controls on the table thread, in order with every
        command. The future resolves to the Update that answered it.
        """
        fut: Future = Future()
        if self._stopped:
            fut.set_result(self._latest)
        else:
            self._enqueue(_Press(key), fut)
        return fut

    # --- reading ----------------------------------------------------------------------
    @property
    def latest(self) -> Update:
        """The newest accepted update (never a rejection)."""
        return self._latest

    @property
    def version(self) -> int:
        return self._latest.version

    @property
    def session(self) -> Session | None:
        return self._latest.session

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call `subscriber(update)` after every command; returns a function that unsubscribes."""
        self._subscribers = [*self._subscribers, subscriber]

        def unsubscribe():
            self._subscribers = [s for s in self._subscribers if s is not subscriber]
        return unsubscribe

    def on_rolling(self, callback: Callable[[], None]) -> None:
        """Call `callback()` on the table thread when a command that rolls dice has been applied and is
        about to be committed: dice may start tumbling at once, since a tumble shows no value (the
        value comes with the update, once the command is durable)."""
        self._rolling = [*self._rolling, callback]

    def export(self, upto: int | None = None) -> Iterator[dict]:
        """The running game's record up to version `upto` (default: now), as JSON-ready dicts (what
        `companion replay` reads), read a batch at a time: a long game is never held whole in memory.

        While a game with secrets runs, the record shows who did what and when, never how: each
        move's args and the randomness it drew (which rebuilds hands and bets) open once it is over.
        """
        is_open = self.record_is_open
        upto = self.version if upto is None else upto
        records = (r.to_json() for r in self.store.records_from(self.store.last_of(NEW_GAME, upto), upto))
        if is_open:
            return records
        return ({**r, "args": r["args"] if r["kind"] == NEW_GAME else {}, "draws": []} for r in records)

    @property
    def record_is_open(self) -> bool:
        """Whether the running game's export is whole: it hides nothing, or it is over."""
        session = self.session
        return session is None or not session.spec.hidden or session.spec.over(session.state)

    # --- seats ------------------------------------------------------------------------
    def _seats(self, session: Session | None) -> list[dict]:
        """Every seat as every phone may see it: number, name, colour, place (the game's name for the
        seat, a msgid, or ""), whether `session` has it
        (`in_game`) and whether it plays now (`playing`: in the game, and taken if seats are optional)."""
        spec = session.spec if session else None
        colours = spec.colours if spec else ()
        count = spec.seats_in_play(session.options) if spec else 0
        # A game whose seats are all optional (free dice) plays only the seats someone took.
        optional = spec is None or spec.seats[0] == 0
        out = []
        for seat in range(MAX_SEATS):
            # A seat the game leaves out, or a game with no colours of its own, takes the palette.s.
            colour = colours[seat] if seat < len(colours) else SEAT_COLOURS[seat]
            name = self.roster.name(seat)
            place = spec.seat_names[seat] if spec and seat < len(spec.seat_names) else ""
            out.append({"seat": seat, "name": name, "colour": colour.key, "ink": colour.ink,
                        "label": colour.label, "place": place, "in_game": seat < count,
                        "playing": seat < count and (bool(name) or not optional)})
        return out

    def _colour_names(self, seat: int) -> tuple[str, ...]:
        """What the screens show for a seat that plays with no chosen name: its colour, in each language
        (a phone named after it would read the same as the buttons' seat)."""
        latest = self._latest
        shown = latest.seats[seat] if seat < len(latest.seats) else None
        if shown is None or not shown["playing"]:
            return ()
        return tuple(translator(lang, latest.spec)(shown["label"]) for lang in LANGUAGES)

    def table_info(self, url: str, entry=None, at: str = "") -> TableInfo:
        """What the e-ink shows besides the game: the join code, each seat's chosen name, and `at`, when
        the table reached this state."""
        names = tuple(s["name"] for s in self.latest.seats)
        return TableInfo(url, self.roster.join_code(), names, entry, at=at)

    def host_token(self) -> str:
        """The capability that allows host actions; made once and kept across restarts."""
        return self.roster.host_token()

    def seat_token(self, seat: int) -> str:
        """The private link token of a seat, made now (on the writer thread) if it has none yet."""
        return self.roster.token(seat) or self.seating(lambda roster, count: roster.token(seat) or
                                                        roster.reissue(seat, count))

    def seat_for_token(self, token: str) -> int | None:
        return self.roster.seat_for_token(token, MAX_SEATS)

    def seating(self, change: Callable[[Roster, int], Any], timeout: float = 10.0) -> Any:
        """Run `change(roster, MAX_SEATS)` on the writer thread, then tell every output.

        Seat changes are ordered with commands, so a page never sees a name before the game it
        belongs to. Raises IllegalMove as the change does; returns what it returns.
        """
        fut: Future = Future()
        if self._stopped:
            raise IllegalMove("The table is shutting down.")
        self._enqueue(change, fut)
        outcome = fut.result(timeout)
        if isinstance(outcome, IllegalMove):
            raise outcome
        return outcome

    def _enqueue(self, what, fut: Future) -> None:
        """Queue an item for the writer thread; a player waits on it until it is published."""
        self.foreground.begin()
        self._queue.put((what, fut))

    # --- the writer thread ------------------------------------------------------------
    def start(self) -> Table:
        if self.session is None:
            self.submit(Command(NEW_GAME, {"game": self.setup.idle}))
        self._thread = threading.Thread(target=self._run, name="table", daemon=True)
        self._thread.start()
        return self

    @property
    def alive(self) -> bool:
        """Whether the writer thread is running (the watchdog only feeds a live table)."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the commands already queued, then refuse any that come later."""
        self._queue.put(None)
        if self._thread:
            self._thread.join(timeout)
        self._stopped = True
        while not self._queue.empty():
            item = self._queue.get_nowait()
            if item is not None:
                item[1].set_result(Result(False, self.version, IllegalMove("The table is shutting down.")))
                self.foreground.end()

    def _run(self) -> None:
        self._schedule()
        while (item := self._next()) is not None:
            what, fut = item
            try:
                if isinstance(what, Command):
                    outcome = self._apply(what)
                elif isinstance(what, _FromHost):
                    outcome = self._apply_for_host(what.command) if self._host_holds(what.token) else \
                        Result(False, self.version, IllegalMove(
                            "This host link is no longer valid: a long press on D on the device made a new "
                            "one. Open the new host link, or ask the host."))
                elif isinstance(what, _FromSeat):
                    outcome = self._apply_for_seat(what.command, what.token)
                elif isinstance(what, _Press):
                    outcome = self._press(what.key)
                else:
                    outcome = self._change_seats(what)
            except Exception:  # a bug must not kill the only writer
                log.exception("the table failed on %r", what)
                outcome = Result(False, self.version, IllegalMove(INTERNAL_ERROR))
            fut.set_result(outcome)
            self.foreground.end()  # after the publish: the outputs have their work queued by now

    def _next(self):
        """The next queued item; a game's deadline that passes first becomes a command of the table.

        The wait is the queue's own timeout on the monotonic clock: no timer thread, and no wake-up
        at all while no deadline is due.
        """
        while True:
            if self._due is None:
                return self._queue.get()
            wait = self._due[0] - time.monotonic()
            try:
                return self._queue.get(timeout=max(0.0, wait))
            except queue.Empty:
                _, version, command, _ = self._due
                self._due = None
                if version == self.version:  # nothing happened since: the default applies
                    with self.foreground.working():
                        self._apply(command)

    def _schedule(self) -> None:
        """Note the running game's deadline, if its state has one; `latest` tells when it passes."""
        session = self._latest.session
        deadline = session.spec.deadline(session.state) if session is not None else None
        if deadline is None:
            self._due = None
        else:
            seconds, command, *named = deadline
            # A window the game names keeps its clock while it stays open (in this game: `_since`), so an
            # answer inside it gives those still asked no fresh time; any other deadline starts anew.
            window = (self._since, named[0]) if named and named[0] is not None else None
            if window is not None and self._due is not None and self._due[3] == window:
                at = self._due[0]
            else:
                at = time.monotonic() + seconds
            self._due = (at, self._latest.version, command, window)
        self._latest = replace(self._latest, due=self._due[0] if self._due else None)

    def _apply(self, command: Command, pressed: str | None = None, entry: Entry = None,
               phones: Collection[int] = (), device: bool = False) -> Result:
        """Apply, record and publish one command. `phones` and `device`: the seat policy of a command of
        the host or of the buttons (`GameSpec.check`); the table's own defaults pass none."""
        draws = Draws()
        latest = self._latest
        try:
            args = self._recorded_args(command)
            session, events = advance(latest.session, command.kind, command.seat, args, draws, phones, device)
        except IllegalMove as error:
            return self._refuse(command, error, pressed, entry)
        except Exception:
            # A bug in the rules, not a refusal: logged in full, told to players without detail.
            log.exception("the rules of %s failed on a %s command", latest.game, command.kind)
            return self._refuse(command, IllegalMove(INTERNAL_ERROR), pressed, entry)
        session = bounded(session, self.snapshots.rebuild_for(self._since))
        if self._rolling and session.spec.rolled(events):
            for callback in self._rolling:
                try:
                    callback()
                except Exception:
                    log.exception("a rolling callback failed")
        room = self.store.room()
        if room.full:  # before the disk fills: the host is told why, and what the owner can do
            log.warning("refused %s: the store takes %d bytes of its %d, %d bytes free on the disk",
                        command.kind, room.used, room.limit, room.free)
            return self._refuse(command, IllegalMove(STORE_FULL, **room.said()), pressed, entry)
        begins = command.kind in GAME_STARTS
        snapshot = encode(session, None if begins else self._since) if due(session, command.kind) else None
        try:
            record = self.store.append(command.kind, command.seat, args, draws.taken, snapshot,
                                       self._outbox_rows(session, events, command))
        except IllegalMove as error:  # the venue's outbox is full (outputs/venue/outbox.py): nothing kept
            return self._refuse(command, error, pressed, entry)
        except Exception as exc:
            log.error("could not record %s: %s", command.kind, exc)  # the detail (a path) stays in the log
            # Published like any refusal: a button press waits on no future, so outputs must say it failed.
            return self._refuse(command, IllegalMove(SAVE_FAILED), pressed, entry)
        if begins:
            self._since = record.version
            self._game_began()
        self._latest = self._update(session, record.version, events, command, pressed=pressed)
        self._schedule()
        self._publish(self._latest)
        return Result(True, record.version)

    def _outbox_rows(self, session: Session, events: list[dict], command: Command):
        """What the venue's outbox writes with this command, from the update it makes; None: no venue."""
        outbox = self.outbox
        if outbox is None:
            return None
        return lambda db, version: outbox(db, self._update(session, version, events, command))

    def _game_began(self) -> None:
        """A new game is recorded: the seats phones hold now are the ones it plays from phones."""
        try:
            self.roster.game_began()
        except Exception:  # a full disk: the last game's seats stay phone-only, more of them, never fewer
            log.exception("could not note the seats phones hold")

    def _apply_for_host(self, command: Command) -> Result:
        """The host's own command; a move for a seat a phone holds, or held earlier in this game, is that
        phone's alone to make, so the host cannot play it, nor probe its secrets by playing and undoing
        (freeing the seat first changes nothing)."""
        return self._apply(command, phones=self.roster.phones())

    def _host_holds(self, token: str | None) -> bool:
        """Whether a host command's link is still the host's (a long press on D may have come first)."""
        return token is None or secrets.compare_digest(token.encode("utf-8", "replace"),
                                                       self.roster.host_token().encode())

    def _apply_for_seat(self, command: Command, token: str) -> Result:
        known = self.roster.token(command.seat) if type(command.seat) is int else None
        if known is None or not secrets.compare_digest(known.encode(), token.encode("utf-8", "replace")):
            return Result(False, self.version, IllegalMove(
                "This seat link is no longer valid: the host has just freed the seat or given it a new "
                "link. Ask the host for your seat's link."))
        return self._apply(command)

    def _recorded_args(self, command: Command) -> dict:
        """The args exactly as the record will hold them (tuples as lists, keys as text, no NaN), so
        a replay sees the same args; a new game's are completed from the table's settings."""
        if command.seat is not None and type(command.seat) is not int:
            raise IllegalMove("Malformed command: the seat must be a seat number.")
        if not isinstance(command.args, Mapping):
            raise IllegalMove("Malformed command: its arguments must be a JSON object.")
        try:
            args = json.loads(json.dumps(dict(command.args), sort_keys=True, allow_nan=False))
        except (TypeError, ValueError):
            raise IllegalMove("Malformed command: its arguments must be a JSON object.") from None
        if command.kind == NEW_GAME and args == {"again": True}:
            # Play again: the running game's own setup (game, options, data files), recorded in full;
            # the seats and their links are the roster's and stay as they are.
            session = self._latest.session
            if session is None or not session.started:
                raise IllegalMove("No game to play again: start one first.")
            return self.setup.new_game(dict(session.started))
        if command.kind == NEW_GAME:
            return self.setup.new_game(args)
        if command.kind == UNDO and set(args) == {"expect"} and type(args["expect"]) is int:
            # The host confirmed taking back what the table showed at that version: not a later move.
            if args["expect"] != self.version:
                raise IllegalMove("The table moved on since you confirmed: check what Undo would take back "
                                  "now, and confirm again.")
            return args
        if command.kind in (UNDO, END_GAME) and args:
            raise IllegalMove("{kind} takes no arguments: send it with none.", kind=command.kind)
        if command.kind == END_GAME:
            return self.setup.new_game({"game": self.setup.idle})
        return args

    def _refuse(self, command: Command | None, error: IllegalMove, pressed: str | None,
                entry: Entry = None) -> Result:
        """Tell outputs a command or press was refused; the game is unchanged. A press's input moves
        on as the controls said (a confirmed input is dropped even if the rules refuse it)."""
        if pressed is not None and entry != self._latest.entry:
            self._latest = replace(self._latest, entry=entry, events=[], command=None, pressed=pressed)
        self._publish(replace(self._latest, events=[], command=command, rejected=error, pressed=pressed))
        return Result(False, self.version, error)

    def _press(self, key: str) -> Update:
        latest = self._latest
        if key == REISSUE_HOST:
            self._change_seats(lambda roster, count: roster.reissue_host(), pressed=key)
            return self._published
        spec = latest.spec
        try:
            entry, command = spec.controls.step(latest.entry, key, latest.public) if spec else (None, None)
        except Exception:
            log.exception("the controls of %s failed on %s", latest.game, key)
            entry, command = latest.entry, None
        if command is not None:
            self._apply(command, pressed=key, entry=entry, phones=self.roster.phones(), device=True)
        elif entry is not None and entry != latest.entry and (held := self._phone_input(latest)) is not None:
            # A value entered for a seat that plays from a phone would show on the LED dice: none starts.
            self._refuse(None, IllegalMove(PHONE_SEAT, n=held + 1), key, None)
        elif entry == latest.entry:
            self._refuse(None, IllegalMove(BUTTON_REFUSED), key, entry)
        else:
            self._latest = replace(latest, entry=entry, events=[], command=None, pressed=key)
            self._publish(self._latest)
        return self._published

    def _phone_input(self, latest: Update) -> int | None:
        """The seat the buttons would enter values for now, if it plays from a phone in a game that hides
        something: the buttons enter nothing for it."""
        spec = latest.spec
        if spec is None or not spec.hidden:
            return None
        return spec.phone_seat(latest.session.state, self.roster.phones())

    def _change_seats(self, change, pressed: str | None = None) -> Any:
        try:
            outcome = change(self.roster, MAX_SEATS)
        except IllegalMove as exc:
            return exc
        except Exception:  # a bug, or the store failing: the writer carries on
            log.exception("seat change failed")
            return IllegalMove(SAVE_FAILED)
        latest = self._latest
        # A phone took the seat the buttons were entering a value for: the value leaves the LED dice.
        entry = None if self._phone_input(latest) is not None else latest.entry
        seats = tuple(self._seats(latest.session))
        # Only a change every page shows (a name, a seat taken or freed) is news to the live pages.
        seating = latest.seating + (seats != latest.seats)
        self._latest = replace(latest, seats=seats, events=[], command=None, pressed=pressed, entry=entry,
                               seating=seating)
        self._publish(self._latest)
        return outcome

    def _update(self, session: Session | None, version: int, events: list[dict], command: Command | None,
                pressed: str | None = None) -> Update:
        public = session.spec.public_json(session.state) if session else {}
        return Update(version, session.game if session else None, public, events, command, None, session,
                      tuple(self._seats(session)), None, pressed,
                      seating=self._latest.seating if hasattr(self, "_latest") else 0)

    def _publish(self, update: Update) -> None:
        self._published = update  # what a press is answered with
        for subscriber in self._subscribers:
            try:
                subscriber(update)
            except Exception:
                log.exception("subscriber %r failed", subscriber)
