"""The table's record, handed out: the running game's log (whole only once it hides nothing), and a
finished game's record with its result, built from the log and the game's last session."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from companion.core.session import END_GAME, NEW_GAME, Session, replay
from companion.gamekit.colours import table_colours
from companion.gamekit.contract import IllegalMove, Result
from companion.storage.store import Record, Store
from companion.tomlfile import ConfigError

if TYPE_CHECKING:
    from companion.core.table.updates import Update

FORMAT = "companion-record/1"


class RecordError(Exception):
    """A record that cannot be listed or exported; the message names it and the fix."""


class Export:
    """Reads the store and the table's newest update (`latest()`); writes nothing."""

    def __init__(self, store: Store, latest: Callable[[], Update]):
        self.store = store
        self.latest = latest

    def log(self, upto: int | None = None) -> Iterator[dict]:
        """The running game's record up to version `upto` (default: now), as JSON-ready dicts (what
        `companion replay` reads), read a batch at a time: a long game is never held whole in memory.

        While a game with secrets runs, the record shows who did what and when, never how: each
        move's args and the randomness it drew (which rebuilds hands and bets) open once it is over.
        """
        is_open = self.is_open
        upto = self.latest().version if upto is None else upto
        records = (r.to_json() for r in self.store.records_from(self.store.last_of(NEW_GAME, upto), upto))
        if is_open:
            return records
        return ({**r, "args": r["args"] if r["kind"] == NEW_GAME else {}, "draws": []} for r in records)

    @property
    def is_open(self) -> bool:
        """Whether the running game's export is whole: it hides nothing, or it is over."""
        session = self.latest().session
        return session is None or not session.spec.hidden or session.spec.over(session.state)

    def finished(self, update: Update | None = None) -> dict[str, Any]:
        """The record of the game `update` (default: the newest) ends: its command log with the draws, the
        players, the final public view and the result. Only a game that is over has one (before, its log
        would tell hands and bets), or one the host ended, kept as abandoned while the game between games
        runs: no winner."""
        update = update or self.latest()
        if update.session is not None and is_over(update):
            rows = [r.to_json() for r in self.store.records_since_last(NEW_GAME)
                    if r.version <= update.version]
            return _record(rows, update.session, update.public, update.seats, abandoned=False)
        ended = self._ended_game(update)
        if ended is None:
            raise RecordError("the game is not over yet: its record is kept once it ends.")
        records, session = ended
        public = session.spec.public_json(session.state)
        return _record([r.to_json() for r in records], session, public, update.seats,
                       abandoned=not session.spec.over(session.state))

    def _ended_game(self, update: Update) -> tuple[list[Record], Session] | None:
        """The game the host ended, while the game between games its end began runs: its records, up to
        and with the end, and its last session; None if the running game does not follow such an end."""
        if update.session is None:
            return None
        rows = self.store.records_since_last(NEW_GAME)
        cut = next((i for i, row in enumerate(rows)
                    if row.kind == END_GAME and row.version <= update.version), None)
        if cut is None:
            return None
        session, _ = replay(rows[:cut])
        return (rows[:cut + 1], session) if session is not None else None


def is_over(update: Update) -> bool:
    session = update.session
    return session is not None and session.spec.over(session.state)


def _record(rows: list[dict], session: Session, public: dict, seats, *, abandoned: bool) -> dict[str, Any]:
    spec = session.spec
    first, last = rows[0], rows[-1]
    started = datetime.fromisoformat(first["at"]) if first["at"] else None
    stamp = started.strftime("%Y%m%d-%H%M%S") if started else "00000000-000000"
    count = spec.seats_in_play(session.options)
    # the seats of the recorded game, coloured as it coloured them (the running game may be another)
    colours = table_colours(spec.colours)
    players = [{"seat": s["seat"], "name": s["name"], "colour": colours[s["seat"]].key}
               for s in seats if s["seat"] < count]
    result = Result() if abandoned else spec.result(public)
    return {"format": FORMAT, "id": f"{stamp}-{session.game}-v{first['version']}", "game": session.game,
            "started": first["at"], "ended": last["at"], "players": players, "abandoned": abandoned,
            "result": msgspec.to_builtins(result), "final": public, "records": rows}


def replay_file(path: Path) -> dict:
    """Rebuild a game from an exported record (GET /api/export, or a kept game record) and return its
    public view. An edited or damaged file is refused by name, never with a traceback."""
    import json

    from companion import tomlfile

    fix = "Export the game again (GET /api/export, or companion records show ID)."
    try:
        data = json.loads(tomlfile.read_bounded(Path(path)).decode("utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: file not found.") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it ({exc.strerror or exc}).") from None
    except (ValueError, RecursionError) as exc:
        raise ConfigError(f"{path}: not a JSON game record ({type(exc).__name__}). {fix}") from None
    try:
        rows = data["records"] if isinstance(data, dict) else data
        records = [Record(int(r["version"]), str(r["kind"]), _seat(r.get("seat")), dict(r.get("args") or {}),
                          [int(d) for d in r.get("draws") or []]) for r in rows]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ConfigError(f"{path}: not an exported game record ({type(exc).__name__}: {exc}). {fix}"
                          ) from None
    try:
        session, version = replay(records)
    except IllegalMove as exc:
        raise ConfigError(f"{path}: the record does not replay: {exc}. It may have been edited. {fix}"
                          ) from None
    except Exception as exc:  # noqa: BLE001 - an edited record can trip the rules anywhere
        raise ConfigError(f"{path}: the record does not replay; it may have been edited "
                          f"({type(exc).__name__}: {exc}). {fix}") from None
    if session is None:
        raise ConfigError(f"{path}: the record holds no game.")
    return {"version": version, "game": session.game, "public": session.spec.public_json(session.state)}


def _seat(seat) -> int | None:
    if seat is None or type(seat) is int:
        return seat
    raise TypeError(f"seat {seat!r} is not a seat number")
