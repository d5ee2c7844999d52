"""The table: the single writer that applies commands in order, records them, then tells outputs."""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any

import msgspec

from companion import games
from companion.draws import Draws, DrawsExhausted
from companion.games.spec import Command, GameSpec, IllegalMove, TableInfo
from companion.seats import MAX_SEATS, TABLE_COLOURS, Roster
from companion.store import Record, Store, StoreError

log = logging.getLogger(__name__)

NEW_GAME = "new_game"
UNDO = "undo"
END_GAME = "end_game"
HOST_COMMANDS = frozenset({NEW_GAME, UNDO, END_GAME})
IDLE_GAME = "dice"  # what the table offers between games
HISTORY_LENGTH = 12  # public history entries a session keeps: what a phone's scoreboard lists


@dataclass(frozen=True)
class Session:
    """One game in progress. `before` is the session the last command was applied to (for undo).

    `history` is the public history, newest last: who acted (a seat, or None) and the command's
    kind, never its args. It lives in the session so an undo takes the undone line away with it.
    """

    game: str
    options: Mapping[str, Any]
    state: Any
    before: Session | None = None
    history: tuple[dict, ...] = ()

    @property
    def spec(self) -> GameSpec:
        return games.get(self.game)


def advance(session: Session | None, kind: str, seat: int | None, args: Mapping[str, Any],
            draws: Draws) -> tuple[Session, list[dict]]:
    """Apply one command to a session. Pure but for `draws`; raises IllegalMove."""
    if kind == END_GAME:
        if session is None or session.game == IDLE_GAME:
            raise IllegalMove("No game is running: start one first.")
        session, _ = advance(None, NEW_GAME, None, {"game": IDLE_GAME}, draws)
        return replace(session, history=({"seat": None, "kind": END_GAME},)), [{"type": "game_ended"}]
    if kind == NEW_GAME:
        name = args.get("game")
        try:
            spec = games.get(str(name))
        except ValueError as exc:
            raise IllegalMove("Unknown game {game}.", game=str(name)) from exc
        options = dict(args.get("options") or {})
        if spec.options is not None:
            try:
                options = msgspec.to_builtins(msgspec.convert(options, spec.options))
            except msgspec.ValidationError as exc:
                raise IllegalMove("Invalid game options: {detail}.", detail=str(exc)) from exc
        state = spec.setup(options, draws)
        return (Session(spec.name, options, state, history=({"seat": None, "kind": NEW_GAME},)),
                [{"type": "new_game", "game": spec.name}])
    if session is None:
        raise IllegalMove("No game is running: start one first.")
    if kind == UNDO:
        if session.before is None:
            raise IllegalMove("Nothing to undo.")
        return session.before, [{"type": "undone"}]
    if seat is not None and not 0 <= seat < session.spec.seats_in_play(session.options):
        raise IllegalMove("Your seat is not playing in this game: ask the host to start one with "
                          "more players.")
    state, events = session.spec.apply(session.state, Command(kind, args, seat), draws)
    line = {"seat": seat if seat is not None else _turn(session), "kind": kind}
    return Session(session.game, session.options, state, session,
                   (*session.history, line)[-HISTORY_LENGTH:]), events


def _turn(session: Session) -> int | None:
    """Whose turn the public view says it is: a device button acts for them."""
    turn = session.spec.public_view(session.state).get("turn")
    return turn if type(turn) is int else None


def replay(records: Iterable[Record]) -> tuple[Session | None, int]:
    """Rebuild a session from its records, with the draws they recorded. Returns (session, version)."""
    session, version = None, 0
    for rec in records:
        session, _ = advance(session, rec.kind, rec.seat, rec.args, Draws(rec.draws))
        version = rec.version
    return session, version


@dataclass(frozen=True)
class Update:
    """What outputs are told after each accepted or rejected command.

    `public` is safe for every output. `private(seat)` is for that seat's phone only.
    `rejected` is the IllegalMove of a refused command, with nothing else changed.
    `seats` is the public seating: each seat's number, chosen name and colour.
    """

    version: int
    game: str | None
    public: dict
    events: list[dict] = field(default_factory=list)
    command: Command | None = None
    rejected: IllegalMove | None = None
    session: Session | None = field(default=None, repr=False)
    seats: tuple[dict, ...] = ()

    def private(self, seat: int) -> dict:
        session = self.session
        if session is None or not 0 <= seat < session.spec.seats_in_play(session.options):
            return {}
        return session.spec.private_view(session.state, seat)


@dataclass(frozen=True)
class Result:
    """The answer to one submitted command."""

    ok: bool
    version: int
    error: IllegalMove | None = None


Subscriber = Callable[[Update], None]


class Table:
    """Owns the running game. Only its thread changes state; everyone else submits commands.

    Subscribers run on the table thread after the record is committed, so they must only
    hand work off (set a latest frame, put on a queue, start an LED timer).
    """

    def __init__(self, store: Store, default_game: str = "dice", default_options: Mapping | None = None):
        self.store = store
        self.roster = Roster(store)
        self._queue: queue.Queue = queue.Queue()
        self._subscribers: list[Subscriber] = []
        self._thread: threading.Thread | None = None
        try:
            self.session, self.version = replay(store.records_since_last(NEW_GAME))
        except (IllegalMove, DrawsExhausted) as exc:
            raise StoreError(f"{store.path}: the running game no longer replays ({exc}); the rules may "
                             "have changed. Export it with an older version, or move the file aside."
                             ) from exc
        self._stopped = False
        self._latest = self._update([], None, None)
        self._default = (default_game, dict(default_options or {}))

    # --- submitting -------------------------------------------------------------------
    def submit(self, command: Command) -> Future:
        """Queue a command; the future resolves to a Result once it is durable (or refused)."""
        fut: Future = Future()
        if self._stopped:
            fut.set_result(Result(False, self.version, IllegalMove("The table is shutting down.")))
            return fut
        self._queue.put((command, fut))
        return fut

    def call(self, command: Command, timeout: float = 10.0) -> Result:
        """Submit and wait for the Result."""
        return self.submit(command).result(timeout)

    # --- reading ----------------------------------------------------------------------
    @property
    def latest(self) -> Update:
        """The newest accepted update (never a rejection)."""
        return self._latest

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call `subscriber(update)` after every command; returns a function that unsubscribes."""
        self._subscribers = [*self._subscribers, subscriber]

        def unsubscribe():
            self._subscribers = [s for s in self._subscribers if s is not subscriber]
        return unsubscribe

    def export(self) -> list[dict]:
        """The running game's record, as JSON-ready dicts (what `companion replay` reads)."""
        return [r.to_json() for r in self.store.records_since_last(NEW_GAME)]

    # --- seats ------------------------------------------------------------------------
    @property
    def seat_count(self) -> int:
        session = self.session
        return session.spec.seats_in_play(session.options) if session else 0

    def seats(self) -> list[dict]:
        """Every seat as every phone may see it: number, name, colour, whether the game has it
        (`in_game`) and whether it plays now (`playing`: in the game, and taken if seats are optional)."""
        session = self.session
        colours = session.spec.colours if session else ()
        count = self.seat_count
        # A game whose seats are all optional (free dice) plays only the seats someone took.
        optional = session is None or session.spec.seats[0] == 0
        out = []
        for seat in range(MAX_SEATS):
            colour = colours[seat] if seat < len(colours) else TABLE_COLOURS[seat]
            name = self.roster.name(seat)
            out.append({"seat": seat, "name": name, "colour": colour.key, "ink": colour.ink,
                        "label": colour.label, "in_game": seat < count,
                        "playing": seat < count and (bool(name) or not optional)})
        return out

    def table_info(self, url: str, entry=None) -> TableInfo:
        """What the e-ink shows besides the game: the join code and the seats' names."""
        names = tuple(s["name"] for s in self.seats() if s["playing"])
        return TableInfo(url, self.roster.join_code(), names, entry)

    def host_token(self) -> str:
        """The capability that allows host actions; made once and kept across restarts."""
        return self.roster.host_token()

    def seat_token(self, seat: int) -> str:
        """The private link token of a seat; a rejoin with it keeps the seat."""
        return self.roster.token(seat)

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
        self._queue.put((change, fut))
        outcome = fut.result(timeout)
        if isinstance(outcome, IllegalMove):
            raise outcome
        return outcome

    def reissue_host(self) -> None:
        """A new host link and join code (a long press on the device); returns at once."""
        if not self._stopped:
            self._queue.put((lambda roster, count: roster.reissue_host(), Future()))

    # --- the writer thread ------------------------------------------------------------
    def start(self) -> Table:
        if self.session is None:
            self.submit(Command(NEW_GAME, {"game": self._default[0], "options": self._default[1]}))
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

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            command, fut = item
            if not isinstance(command, Command):
                fut.set_result(self._change_seats(command))
                continue
            try:
                result = self._apply(command)
            except Exception as exc:  # a bug must not kill the only writer
                log.exception("command %s failed", command.kind)
                result = Result(False, self.version, IllegalMove("Internal error: {detail}.",
                                                                   detail=type(exc).__name__))
            fut.set_result(result)

    def _apply(self, command: Command) -> Result:
        draws = Draws()
        try:
            if command.seat is not None and type(command.seat) is not int:
                raise TypeError(f"seat {command.seat!r} is not a seat number")
            # The rules get the args exactly as the record will hold them (tuples as lists, keys as
            # text, no NaN), so a replay of the record sees the same args and rebuilds the same state.
            args = json.loads(json.dumps(dict(command.args), sort_keys=True, allow_nan=False))
            session, events = advance(self.session, command.kind, command.seat, args, draws)
        except (IllegalMove, TypeError, ValueError) as exc:
            error = exc if isinstance(exc, IllegalMove) else IllegalMove("Malformed command: {detail}.",
                                                                          detail=str(exc))
            self._publish(self._update([], command, error))
            return Result(False, self.version, error)
        try:
            record = self.store.append(command.kind, command.seat, args, draws.taken)
        except (StoreError, OSError, Exception) as exc:
            log.error("could not record %s: %s", command.kind, exc)
            error = IllegalMove("Could not save the move: {detail}.", detail=str(exc))
            # Published like any refusal: a button press waits on no future, so outputs must say it failed.
            self._publish(self._update([], command, error))
            return Result(False, self.version, error)
        self.session, self.version = session, record.version
        self._latest = self._update(events, command, None)
        self._publish(self._latest)
        return Result(True, self.version)

    def _change_seats(self, change) -> Any:
        try:
            outcome = change(self.roster, MAX_SEATS)
        except IllegalMove as exc:
            return exc
        except Exception as exc:  # a bug, or the store failing: the writer carries on
            log.exception("seat change failed")
            return IllegalMove("Could not save the seats: {detail}.", detail=type(exc).__name__)
        self._latest = self._update([], None, None)
        self._publish(self._latest)
        return outcome

    def _update(self, events: list[dict], command: Command | None, rejected: IllegalMove | None) -> Update:
        session = self.session
        public = session.spec.public_view(session.state) if session else {}
        return Update(self.version, session.game if session else None, public, events, command,
                      rejected, session, tuple(self.seats()))

    def _publish(self, update: Update) -> None:
        for subscriber in self._subscribers:
            try:
                subscriber(update)
            except Exception:
                log.exception("subscriber %r failed", subscriber)
