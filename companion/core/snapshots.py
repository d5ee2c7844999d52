"""Snapshots of the running game, kept beside its log, signed, and checked before use: a start or an undo
replays only the records after the nearest one, so neither grows with the log."""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import hmac
import io
import logging
import pickle
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

import msgspec

from companion.core import registry
from companion.core.session import END_GAME, NEW_GAME, Evicted, Session, walk
from companion.storage.signing import snapshot_key
from companion.storage.store import Record, SnapshotRow, Store

log = logging.getLogger(__name__)

EVERY = 100  # a snapshot every this many sessions of a game: a start replays fewer records than this
FORMAT = 2  # how a snapshot's row is laid out (2: signed with the table's key); another is replayed past
MAX_BODY = 1 << 20  # bytes: a larger snapshot is not kept, and one read back is refused before it is decoded
LONG_START = 5_000  # a start that must replay more records than this tells the service manager it is slow
EXTEND_EVERY = 5.0  # seconds of replay between two such notices
PACKAGE = Path(__file__).resolve().parent.parent
# What a snapshot's session depends on besides its game's own code: the session and the game kit.
CORE = sorted([PACKAGE / "core" / "session.py", *(PACKAGE / "gamekit").rglob("*.py")])
# The only builtins a body may name: the rest have their own opcodes, and a call such as bytearray(10**9)
# or list(range(10**9)) would allocate without bound from a few bytes.
PLAIN = {"builtins": frozenset({"complex", "range", "slice"})}


def due(session: Session, kind: str) -> bool:
    """Whether the session a record made is kept as a snapshot: a game's first (an end_game's game
    replays only from the game before it) and every EVERY-th."""
    return kind == END_GAME or session.count % EVERY == 0


def encode(session: Session, since: int | None,
           key: bytes | None) -> Callable[[int], SnapshotRow] | None:
    """The snapshot of `session` signed with `key`, as a row once its record's version is known (None: no
    key, a body over MAX_BODY, or a game whose code cannot be told apart from another version's)."""
    code = code_of(session.game)
    if code is None or key is None:
        return None
    before = session.before
    body = pickle.dumps((session.game, session.options, session.state, session.history, session.undoable,
                         dict(session.started), session.count, None if before is None else before.count),
                        protocol=5)
    if len(body) > MAX_BODY:
        return None

    def row(version: int) -> SnapshotRow:
        begun = version if since is None else since
        return SnapshotRow(version, begun, session.count, FORMAT, code,
                           body, digest(key, version, begun, session.count, FORMAT, code, body))
    return row


def digest(key: bytes, version: int, since: int, count: int, format: int, code: str, body: bytes) -> str:
    """A keyed hash of the whole row: a damaged byte anywhere in it shows, and only the holder of the
    table's key (a file outside the store, companion/storage/signing.py) can make one that matches."""
    return hashlib.blake2b(f"{version} {since} {count} {format} {code}\n".encode() + body, key=key,
                           digest_size=16).hexdigest()


def decode(row: SnapshotRow, rebuild: Callable[[int], Session], key: bytes | None) -> Session | None:
    """The session of a snapshot, or None (with one log line saying why) if it is not to be trusted: of
    another format, too large, not signed with `key` (damaged, forged, or from another device), written by
    other code than this game's now, or not a session of its game once read."""
    where = f"the snapshot after record {row.version}"
    assert row.version is not None and row.since is not None  # a row read back from the store has both
    if row.format != FORMAT:
        log.warning("%s has format %s, not %s: replaying from an earlier one", where, row.format, FORMAT)
        return None
    if key is None:
        return None  # said once, where the key could not be had
    body = bytes(row.body)
    if len(body) > MAX_BODY:
        log.warning("%s is refused: %d bytes, over %d: replaying from an earlier one", where, len(body),
                    MAX_BODY)
        return None
    if not hmac.compare_digest(digest(key, row.version, row.since, row.count, row.format, row.code, body),
                               str(row.digest)):
        log.warning("%s is refused: it is not signed with this table's key (damaged, forged, or from "
                    "another device): replaying from an earlier one", where)
        return None
    game = row.code.split(":", 1)[0]
    if code_of(game) != row.code:
        log.warning("%s was written by another version of %s: replaying from an earlier one", where, game)
        return None
    try:
        return _session(game, row, body, rebuild)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - MemoryError, SystemExit...: the records still replay
        log.warning("%s is refused: it does not read back as a session of %s (%s: %s): replaying from an "
                    "earlier one", where, game, type(exc).__name__, str(exc)[:200])
        return None


def _session(game: str, row: SnapshotRow, body: bytes, rebuild: Callable[[int], Session]) -> Session:
    """The session a signed body holds, checked to be one of `game` at `row`'s count; ValueError if not."""
    values = _Values(game, body).load()
    if not isinstance(values, tuple) or len(values) != 8:
        raise ValueError("not a session's eight values")
    name, options, state, history, undoable, started, count, before = values
    if name != game or count != row.count or not isinstance(options, dict) or not isinstance(started, dict) \
            or not isinstance(history, tuple) or not isinstance(undoable, bool) \
            or not (before is None or isinstance(before, int)):
        raise ValueError("its values do not fit its row")
    session = Session(game, options, state, None if before is None else Evicted(before, rebuild),
                      history, undoable, started, count)
    # What every start computes first: a state of another shape fails here, not in the running table.
    session.spec.public_json(state)
    session.spec.over(state)
    return session


@cache
def code_of(game: str) -> str | None:
    """`game:fingerprint` of the code a snapshot of `game` depends on: the game's own package, the session
    and the game kit. None for a game whose code is not in files."""
    try:
        spec = registry.get(game)
    except ValueError:
        return None
    files = _files(home_of(spec.name, spec))
    if not files:
        return None
    h = hashlib.blake2b(f"{FORMAT} {sys.version_info[:2]}\n".encode(), digest_size=12)
    for path in [*CORE, *files]:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return f"{game}:{h.hexdigest()}"


def home_of(game: str, spec) -> str:
    """The module that holds a game's code: the one its entry point names, else its setup's."""
    found = registry.entry_point(game)
    return found.module if found is not None else spec.setup.__module__


def _files(module: str) -> list[Path]:
    loaded = sys.modules.get(module)
    path = getattr(loaded, "__file__", None)
    if not path or not path.endswith(".py"):
        return []
    path = Path(path)
    return sorted(path.parent.rglob("*.py")) if path.name == "__init__.py" else [path]


class _Values(pickle.Unpickler):
    """Reads back only values: plain builtins, and dataclasses, msgspec Structs, enums and named tuples of
    the platform or the game's own code; never a function, nor any other class."""

    def __init__(self, game: str, body: bytes):
        super().__init__(io.BytesIO(body))
        spec = registry.get(game)
        self.homes = ("companion.", home_of(game, spec).split(".")[0] + ".")

    def find_class(self, module: str, name: str):
        # Never an import (naming a module would run it): only a name of a module already loaded.
        loaded = sys.modules.get(module) if name.isidentifier() else None
        found = getattr(loaded, name, None)
        if found is not None and name in PLAIN.get(module, ()):
            return found
        if found is not None and f"{module}.".startswith(self.homes) and isinstance(found, type) and (
                dataclasses.is_dataclass(found) or issubclass(found, (msgspec.Struct, enum.Enum))
                or (issubclass(found, tuple) and hasattr(found, "_fields"))):  # a named tuple's fields
            return found
        raise pickle.UnpicklingError(f"{module}.{name} is not a value a snapshot may hold")


class Snapshots:
    """The snapshots of one store: read back at a start and for undo, kept as replays pass where one is due.

    `on_long_start()` is called when a start has many records to replay, and every few seconds while it
    does (the daemon then tells systemd the start is slow, not hung).
    """

    def __init__(self, store: Store, on_long_start: Callable[[], None] | None = None):
        self.store = store
        self.on_long_start = on_long_start
        self.key = snapshot_key(store.path)

    def encode(self, session: Session, since: int | None) -> Callable[[int], SnapshotRow] | None:
        """The snapshot of `session`, signed with this table's key (see encode)."""
        return encode(session, since, self.key)

    def decode(self, row: SnapshotRow, rebuild: Callable[[int], Session]) -> Session | None:
        """The session of a snapshot of this table, or None (see decode)."""
        return decode(row, rebuild, self.key)

    def resume(self) -> tuple[Session | None, int, int | None]:
        """The running game as the log leaves it: (session, version, version of the record its game began
        at), from the newest sound snapshot and the records after it."""
        first = self.store.last_of(NEW_GAME)
        session, start, since, version = None, first, None, 0
        for row in self.store.snapshots(first):
            session = self.decode(row, self.rebuild_for(row.since))
            if session is not None and row.version is not None:
                start, since, version = row.version + 1, row.since, row.version
                break
        tail = self.store.last_version() - start + 1
        began, told = time.monotonic(), [time.monotonic()]
        if tail > LONG_START:
            log.info("replaying %d records (no sound snapshot after record %d)", tail, start - 1)
            self._tell()

        def each(session: Session, record: Record, since: int | None) -> None:
            self._keep(session, record, since)
            if self.on_long_start is not None and time.monotonic() - told[0] >= EXTEND_EVERY:
                told[0] = time.monotonic()
                self._tell()

        session, last, since = walk(session, self.store.records_from(start), self.rebuild_for, since,
                                    each=each)
        if tail > LONG_START:
            log.info("replayed %d records in %.1f s", tail, time.monotonic() - began)
        return session, max(last, version), since

    def rebuild_for(self, since: int | None) -> Callable[[int], Session]:
        """How undo rebuilds an older session of the game begun at record `since`: from the nearest sound
        snapshot at or before it, else from the game's start."""
        def rebuild(count: int) -> Session:
            assert since is not None  # an older session is of a game that began at a record
            session, start = None, self.store.last_of(NEW_GAME, since)
            for row in self.store.snapshots(since, since, count):
                session = self.decode(row, self.rebuild_for(since))
                if session is not None:
                    if session.count == count:
                        return session
                    start = (row.version or 0) + 1
                    break
            session, _, reached = walk(session, self.store.records_from(start), self.rebuild_for, since,
                                       until=(since, count), each=self._keep)
            if session is None or (reached, session.count) != (since, count):
                raise ValueError(f"the records no longer rebuild session {count} of the game begun at "
                                 f"record {since}")
            return session
        return rebuild

    def _keep(self, session: Session, record: Record, since: int | None) -> None:
        """A replay passing where a snapshot is due keeps it (it was missing, damaged or out of date)."""
        if due(session, record.kind):
            row = self.encode(session, since)
            if row is not None:
                self.store.keep_snapshot(row(record.version))

    def _tell(self) -> None:
        if self.on_long_start is not None:
            try:
                self.on_long_start()
            except Exception:  # noqa: BLE001 - a notice that cannot be sent must not stop the start
                log.exception("could not tell the service manager the start is slow")


__all__ = ["EVERY", "FORMAT", "Snapshots", "decode", "due", "encode"]
