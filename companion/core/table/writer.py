"""The writer: one thread applies commands and presses in order, records them, then tells outputs."""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Collection, Hashable
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import Any

from companion.core.moment import Moment, TableStatus
from companion.core.seats import MAX_SEATS, Roster
from companion.core.session import GAME_STARTS, NEW_GAME, Session, Setup, advance, bounded
from companion.core.snapshots import Snapshots, due
from companion.core.table import platform
from companion.core.table.export import Export
from companion.core.table.links import HOST_LINK_GONE, Links
from companion.core.table.updates import Result, Update, seat_facts
from companion.foreground import Foreground
from companion.gamekit.contract import PHONE_SEAT, Command, Entry, IllegalMove
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
class _Press:
    key: str


@dataclass(frozen=True)
class _FromHost:
    command: Command
    token: str | None = None  # the host link it came with: still the host's when it applies


@dataclass(frozen=True)
class _Status:
    changes: dict


@dataclass(frozen=True)
class _FromSeat:
    """A command sent with a seat's link: it applies only if the link is still the seat's when its turn
    comes (the host may have freed the seat, or given it to another, since the link was checked)."""

    command: Command
    token: str


Subscriber = Callable[[Moment], None]  # an output: it reads the Moment, never the session
# A transaction hook (the venue's outbox): writes its rows for a command's Moment in the command's own
# transaction, so they exist if and only if the command does.
TransactionHook = Callable[[Any, Moment], None]


class Table:
    """Owns the running game. Only its thread changes state; everyone else submits commands or presses.

    `latest` is the one immutable snapshot of now: version, session, views and the input in progress
    are read from it together; it is the core's, and `moment` is its public part, the one outputs read.
    Subscribers get each Moment on the table thread after the record is committed, so they must only
    hand work off (set a latest frame, put on a queue, start an LED timer).

    `foreground` counts each queued item as work a player waits on until it is published.
    `on_long_start()` is called while a start replays a long log (the daemon tells systemd).
    `outbox(db, moment)`, if given, writes its rows in each command's transaction (a venue's outbox).
    `status` is the table's own state beside the game (its address, its panel, its network).
    """

    def __init__(self, store: Store, setup: Setup | None = None, foreground: Foreground | None = None,
                 on_long_start: Callable[[], None] | None = None, outbox: TransactionHook | None = None,
                 status: TableStatus | None = None):
        self.store = store
        self.outbox = outbox
        self._status = status or TableStatus()
        self.snapshots = Snapshots(store, on_long_start)
        self.foreground = foreground or Foreground()
        self.roster = Roster(store)
        self.roster.unnamed = self._colour_names
        self.links = Links(self.roster)
        self.exports = Export(store, lambda: self._latest)
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
    def moment(self) -> Moment:
        """The newest accepted update's Moment: what every output may see of now."""
        return self._latest.moment

    @property
    def version(self) -> int:
        return self._latest.version

    @property
    def session(self) -> Session | None:
        return self._latest.session

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call `subscriber(moment)` after every command, press, seat or status change; returns a function
        that unsubscribes."""
        self._subscribers = [*self._subscribers, subscriber]

        def unsubscribe():
            self._subscribers = [s for s in self._subscribers if s is not subscriber]
        return unsubscribe

    def on_rolling(self, callback: Callable[[], None]) -> None:
        """Call `callback()` on the table thread when a command that rolls dice has been applied and is
        about to be committed: dice may start tumbling at once, since a tumble shows no value (the
        value comes with the update, once the command is durable)."""
        self._rolling = [*self._rolling, callback]

    def export(self, upto: int | None = None):
        """The running game's record up to version `upto` (see `Export.log`)."""
        return self.exports.log(upto)

    @property
    def record_is_open(self) -> bool:
        """Whether the running game's export is whole: it hides nothing, or it is over."""
        return self.exports.is_open

    # --- seats ------------------------------------------------------------------------
    def _colour_names(self, seat: int) -> tuple[str, ...]:
        """What the screens show for a seat that plays with no chosen name: its colour, in each language
        (a phone named after it would read the same as the buttons' seat)."""
        latest = self._latest
        shown = latest.seats[seat] if seat < len(latest.seats) else None
        if shown is None or not shown["playing"]:
            return ()
        return tuple(translator(lang, latest.spec)(shown["label"]) for lang in LANGUAGES)

    def host_token(self) -> str:
        """The capability that allows host actions; made once and kept across restarts."""
        return self.roster.host_token()

    def seat_token(self, seat: int) -> str:
        """The private link token of a seat, made now (on the writer thread) if it has none yet."""
        return self.roster.token(seat) or self.seating(lambda roster, count: roster.token(seat) or
                                                        roster.reissue(seat, count))

    def seat_for_token(self, token: str) -> int | None:
        return self.links.seat_of(token)

    def tell(self, *, told: float | None = None, **status: Any) -> None:
        """A change of the table's own state (`TableStatus`'s fields: its address, Wi-Fi code, panel fault,
        network, venue), ordered with commands and told to every output like a seat change. Returns at
        once (the panel's thread and the network's may call it), or with `told` (seconds at most) once
        every output has been told."""
        if not self._stopped:
            fut: Future = Future()
            self._enqueue(_Status(status), fut)
            if told is not None:
                fut.result(told)

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
            outcome: Result | Update | Any
            try:
                if isinstance(what, Command):
                    outcome = self._apply(what)
                elif isinstance(what, _FromHost):
                    outcome = self._apply_for_host(what.command) if self.links.host_holds(what.token) else \
                        Result(False, self.version, IllegalMove(HOST_LINK_GONE))
                elif isinstance(what, _FromSeat):
                    outcome = self._apply_for_seat(what.command, what.token)
                elif isinstance(what, _Press):
                    outcome = self._press(what.key)
                elif isinstance(what, _Status):
                    self._change_status(what.changes)
                    outcome = None
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
            args = platform.recorded_args(command, latest.session, self.setup, self.version)
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
        snapshot = (self.snapshots.encode(session, None if begins else self._since)
                    if due(session, command.kind) else None)
        try:
            built: list[Update] = []  # the update the outbox wrote from, if any: it is the one published
            record = self.store.append(command.kind, command.seat, args, draws.taken, snapshot,
                                       self._outbox_rows(session, events, command, pressed, built))
        except IllegalMove as error:  # the venue's outbox is full (outputs/venue/outbox.py): nothing kept
            return self._refuse(command, error, pressed, entry)
        except Exception as exc:
            log.error("could not record %s: %s", command.kind, exc)  # the detail (a path) stays in the log
            # Published like any refusal: a button press waits on no future, so outputs must say it failed.
            return self._refuse(command, IllegalMove(SAVE_FAILED), pressed, entry)
        if begins:
            self._since = record.version
            self._game_began()  # the seats phones hold now: the update is made after it
            built.clear()
        self._latest = built[0] if built else self._update(session, record.version, events, command, pressed)
        self._schedule()
        self._publish(self._latest)
        return Result(True, record.version)

    def _outbox_rows(self, session: Session, events: list[dict], command: Command, pressed: str | None,
                     built: list[Update]):
        """What the venue's outbox writes with this command, from the Moment it makes (kept in `built`, so
        the update is made once); None: no venue."""
        outbox = self.outbox
        if outbox is None:
            return None

        def write(db, version: int) -> None:
            update = self._update(session, version, events, command, pressed)
            built[:] = [update]
            outbox(db, update.moment)
        return write

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

    def _apply_for_seat(self, command: Command, token: str) -> Result:
        refused = self.links.seat_refused(command.seat, token)
        return Result(False, self.version, refused) if refused is not None else self._apply(command)

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
        session = latest.session
        if session is None or not session.spec.hidden:
            return None
        return session.spec.phone_seat(session.state, self.roster.phones())

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
        seats, status = self._seats(latest.session), self._status_now()
        # Only a change every page shows (a name, a seat taken or freed) is news to the live pages, and a new
        # join code (a long press on D): the host page asks for it then, and learns its link is gone.
        seating = latest.seating + (seats != latest.seats or status.join_code != latest.status.join_code)
        self._latest = replace(latest, seats=seats, events=[], command=None, pressed=pressed, entry=entry,
                               seating=seating, status=status)
        self._publish(self._latest)
        return outcome

    def _change_status(self, changes: dict) -> None:
        self._status = replace(self._status, **changes)
        latest = self._latest
        self._latest = replace(latest, status=self._status_now(), events=[], command=None, pressed=None,
                               seating=latest.seating + 1)
        self._publish(self._latest)

    def _status_now(self) -> TableStatus:
        return replace(self._status, join_code=self.roster.join_code(), join_key=self.roster.join_key())

    def _seats(self, session: Session | None) -> tuple:
        return seat_facts(session, {seat: self.roster.name(seat) for seat in range(MAX_SEATS)},
                          self.roster.phones())

    def _update(self, session: Session | None, version: int, events: list[dict], command: Command | None,
                pressed: str | None = None) -> Update:
        public = session.spec.public_json(session.state) if session else {}
        return Update(version, session.game if session else None, public, events, command, None, session,
                      self._seats(session), None, pressed,
                      seating=self._latest.seating if hasattr(self, "_latest") else 0,
                      status=self._status_now())

    def _publish(self, update: Update) -> None:
        self._published = update  # what a press is answered with
        moment = update.moment  # built here, once, before any output reads it
        for subscriber in self._subscribers:
            try:
                subscriber(moment)
            except Exception:
                log.exception("subscriber %r failed", subscriber)
