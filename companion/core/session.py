"""The session: one game in progress as pure data, and how a recorded command advances or replays it."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import msgspec

from companion.core import registry
from companion.gamekit.contract import Command, DataText, GameSpec, IllegalMove
from companion.gamekit.data import check_bounds
from companion.gamekit.draws import Draws
from companion.storage.store import NEW_GAME

if TYPE_CHECKING:
    from companion.storage.store import Record

UNDO = "undo"
END_GAME = "end_game"
HOST_COMMANDS = frozenset({NEW_GAME, UNDO, END_GAME})
HISTORY_LENGTH = 12  # public history entries a session keeps: what a phone's scoreboard lists
UNDO_IN_MEMORY = 16  # earlier sessions kept for undo; older ones are rebuilt from the record on demand
GAME_STARTS = frozenset({NEW_GAME, END_GAME})  # the records that begin a game: its sessions count from them
LEGACY_IDLE = "dice"  # what an end_game recorded before the idle game was a setting went back to


@dataclass(frozen=True)
class Session:
    """One game in progress. `before` is the session the last command was applied to (for undo).

    `history` is the public history, newest last: who acted (a seat, or None) and the command's
    kind, never its args. It lives in the session so an undo takes the undone line away with it.
    """

    game: str
    options: Mapping[str, Any]
    state: Any
    before: Session | Evicted | None = field(default=None, compare=False, repr=False)
    history: tuple[dict, ...] = ()
    undoable: bool = True  # whether the command that made this session may be undone
    started: Mapping[str, Any] = field(default_factory=dict)  # the new_game args, as recorded ("play again")
    # This session's number in its game: each record adds one, an undo too, so replaying the game's
    # records until a session numbered `count` comes rebuilds this one exactly.
    count: int = field(default=1, compare=False)

    @property
    def spec(self) -> GameSpec:
        return registry.get(self.game)

    def remembered(self) -> int:
        """How many earlier sessions undo holds in memory behind this one."""
        depth, node = 0, self.before
        while isinstance(node, Session):
            depth, node = depth + 1, node.before
        return depth


@dataclass(frozen=True)
class Evicted:
    """An earlier session dropped from memory: `rebuild(count)` replays the game's records to it."""

    count: int
    rebuild: Callable[[int], Session] = field(compare=False, repr=False)


def bounded(session: Session, rebuild: Callable[[int], Session], keep: int = UNDO_IN_MEMORY) -> Session:
    """The session with at most 2 × `keep` earlier ones in memory: past that, only the newest `keep`
    stay and the rest become one Evicted marker (trimmed in batches, so a command copies nothing)."""
    chain: list[Session] = []
    node: Session | Evicted | None = session
    while isinstance(node, Session) and len(chain) <= 2 * keep:
        chain.append(node)
        node = node.before
    if not isinstance(node, Session):
        return session
    kept = chain[:keep + 1]
    oldest = kept[-1].before  # a Session: the chain went on past it
    assert oldest is not None
    older: Session | Evicted = Evicted(oldest.count, rebuild)
    newest = session
    for kept_one in reversed(kept):
        newest = replace(kept_one, before=older)
        older = newest
    return newest


@dataclass(frozen=True)
class Setup:
    """What a new game gets from the table's settings: the game between games, default options, files.

    `data[game][key]` is the text of the user's own copy of a data file (the config names its path).
    """

    idle: str = "dice"
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    data: Mapping[str, Mapping[str, DataText]] = field(default_factory=dict)

    def new_game(self, args: Mapping[str, Any]) -> dict:
        """The new_game args as they are recorded: the options with their defaults, and the text of
        every data file the game is set up with (uploaded, the config's copy, or the bundled one), so
        the record replays the same after an upgrade edits a bundled file."""
        name = args.get("game")
        spec = _spec(name)
        options = args.get("options")
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise IllegalMove("Invalid game options: send them as a JSON object.")
        given = args.get("data") or {}
        if not isinstance(given, dict):
            raise IllegalMove("Data files are sent as an object: for each file, its name and its text.")
        data = {}
        for file in spec.data:
            uploaded = _data_text(given.get(file.key), file.key)
            if uploaded is not None:
                check_bounds(file, uploaded)
            text = uploaded or self.data.get(spec.name, {}).get(file.key) or spec.bundled(file.key)
            data[file.key] = {"name": text.name, "text": text.text}
        unknown = sorted(set(given) - set(data))
        if unknown:
            spec.data_file(unknown[0])  # refuses, naming the files the game has
        options = spec.convert_options({**self.options.get(spec.name, {}), **options})
        # Recorded with every default filled: a replay must not depend on this version's defaults.
        return {"game": spec.name, "options": msgspec.to_builtins(options) or {}, "data": data}


def _spec(name: object) -> GameSpec:
    try:
        return registry.get(str(name))
    except ValueError as exc:
        raise IllegalMove("Unknown game {game}.", game=str(name)) from exc


def _data_text(given: object, key: str) -> DataText | None:
    if given is None:
        return None
    if not isinstance(given, dict) or not isinstance(given.get("text"), str):
        raise IllegalMove("Data file {key}: send its name and its text.", key=key)
    return DataText(str(given.get("name") or key), given["text"])


def _legacy_data(spec: GameSpec, options: dict) -> tuple[dict, dict[str, DataText]]:
    """Records made before data files were pinned kept an uploaded file's text in the options."""
    text, name = options.pop("data", None), options.pop("data_name", None)
    if text is None or not spec.data:
        return options, {}
    return options, {spec.data[0].key: DataText(name or spec.data[0].bundled, text)}


def undo_refused(session: Session | None) -> IllegalMove | None:
    """Why an undo would be refused now, or None if it would take back the last move: the one rule the
    undo itself and the host's page (which says so before the tap) read."""
    if session is None or session.before is None:
        return IllegalMove("Nothing to undo.")
    if not session.undoable:
        return IllegalMove("The last move cannot be undone: a card was drawn or turned up, or dice rolled, "
                           "and nobody may choose again knowing it.")
    return None


def advance(session: Session | None, kind: str, seat: int | None, args: Mapping[str, Any],
            draws: Draws, phones: Collection[int] = (), device: bool = False) -> tuple[Session, list[dict]]:
    """Apply one recorded command to a session. Pure but for `draws`; raises IllegalMove.

    `phones` and `device` are the spec's seat policy for a command of the table (`GameSpec.check`); a
    replay passes none, as its records were accepted when they were made."""
    if kind == END_GAME:
        if session is None or session.game == args.get("game", LEGACY_IDLE):
            raise IllegalMove("No game is running: start one first.")
        ended_game = session.game
        session, _ = advance(None, NEW_GAME, None, {"game": LEGACY_IDLE, **args}, draws)
        count = session.count + 1
        # The line names the game ended, so every phone is told which (and its record is kept).
        ended = {"seat": None, "kind": END_GAME, "game": ended_game}
        return (replace(session, history=(ended,), count=count),
                [{"type": "game_ended"}])
    if kind == NEW_GAME:
        spec = _spec(args.get("game"))
        options, texts = _legacy_data(spec, dict(args.get("options") or {}))
        texts |= {key: DataText(file["name"], file["text"]) for key, file in (args.get("data") or {}).items()}
        options, state = spec.start(options, draws, texts)
        return (Session(spec.name, options, state, history=({"seat": None, "kind": NEW_GAME},),
                        started=dict(args)),
                [{"type": "new_game", "game": spec.name}])
    if session is None:
        raise IllegalMove("No game is running: start one first.")
    if kind == UNDO:
        refused = undo_refused(session)
        if refused is not None:
            raise refused
        # The history keeps a line saying what was taken back (the undone line itself goes).
        undone = next((line for line in reversed(session.history) if line["kind"] != UNDO), None)
        said = {"seat": undone["seat"], "kind": UNDO, "undone": undone["kind"]} if undone else \
            {"seat": None, "kind": UNDO, "undone": None}
        before = session.before
        assert before is not None  # undo_refused said there is one
        restored = before.rebuild(before.count) if isinstance(before, Evicted) else before
        history = (*restored.history, said)[-HISTORY_LENGTH:]
        return (replace(restored, history=history, count=session.count + 1),
                [{"type": "undone", "kind": said["undone"], "seat": said["seat"]}])
    spec = session.spec
    if seat is not None and not 0 <= seat < spec.seats_in_play(session.options):
        raise IllegalMove("Your seat is not playing in this game: ask the host to start one with "
                          "more players.")
    state, events = spec.play(session.state, Command(kind, args, seat), draws, phones, device)
    line = {"seat": seat if seat is not None else spec.actor(session.state), "kind": kind}
    count = session.count + 1
    return Session(session.game, session.options, state, session, (*session.history, line)[-HISTORY_LENGTH:],
                   spec.undoable(events), session.started, count), events


def replay(records: Iterable[Record]) -> tuple[Session | None, int]:
    """Rebuild a session from its records (from a new_game on), with the draws they recorded.
    Returns (session, version). Undo's older sessions are rebuilt from these same records."""
    records = list(records)
    session, version, _ = walk(None, records, rebuilder(records))
    return session, version


def rebuilder(records: list[Record]) -> Callable[[int | None], Callable[[int], Session]]:
    """How `walk` rebuilds an older session of the game begun at record `since`, from `records` (a list
    that holds that game from its new_game on)."""
    def rebuild_for(since: int | None) -> Callable[[int], Session]:
        def rebuild(count: int) -> Session:
            assert since is not None  # an older session is of a game that began at a record
            first = max((i for i, r in enumerate(records) if r.kind == NEW_GAME and r.version <= since),
                        default=0)
            rebuilt = walk(None, records[first:], rebuild_for, until=(since, count))[0]
            assert rebuilt is not None  # the records begin with its game's new_game
            return rebuilt
        return rebuild
    return rebuild_for


def walk(session: Session | None, records: Iterable[Record],
         rebuild_for: Callable[[int | None], Callable[[int], Session]], since: int | None = None,
         until: tuple[int | None, int] | None = None,
         each: Callable[[Session, Record, int | None], None] | None = None
         ) -> tuple[Session | None, int, int | None]:
    """Apply `records` in turn to `session` (None: they begin with a new_game), with the draws they
    recorded, each session's undo bounded: `rebuild_for(since)` rebuilds an older session of the game
    begun at record `since`. Stops at the session numbered `until[1]` of the game begun at `until[0]`.
    `each(session, record, since)` is told every session made. Returns (session, version, since)."""
    version = 0
    for rec in records:
        if rec.kind in GAME_STARTS:
            since = rec.version
        session, _ = advance(session, rec.kind, rec.seat, rec.args, Draws(rec.draws))
        session = bounded(session, rebuild_for(since))
        version = rec.version
        if each is not None:
            each(session, rec, since)
        if until == (since, session.count):
            break
    return session, version, since


def replayable(records: list[Record]) -> int:
    """How many of `records` (a game's, from its new_game on) replay in order: a repair keeps those."""
    replayed: list[int] = []
    try:
        # Undo's chain bounded as a start bounds it: a long game is not held session by session.
        walk(None, records, rebuilder(records), each=lambda session, record, since: replayed.append(1))
    except Exception:  # noqa: BLE001 - any failure means this record and later ones cannot be replayed
        return len(replayed)
    return len(records)
