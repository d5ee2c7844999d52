"""Game records: each finished game kept as JSON beside the store, listed, and exported for BG Stats."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

from companion.core.session import END_GAME, NEW_GAME, Session, replay
from companion.core.table import Update
from companion.gamekit.colours import SEAT_COLOURS
from companion.gamekit.contract import Result
from companion.storage.store import Store, write_durably

FOLDER = "records"
FORMAT = "companion-record/1"
RECORD_ID = re.compile(r"^[0-9]{8}-[0-9]{6}-[a-z0-9_]+-v[0-9]+$")


class RecordError(Exception):
    """A record that cannot be listed or exported; the message names it and the fix."""


def is_over(update: Update) -> bool:
    session = update.session
    return session is not None and session.spec.over(session.state)


def build(store: Store, update: Update) -> dict[str, Any]:
    """The record of the game `update` ends: its command log with the draws, the players, the final
    public view and the result. Only a game that is over has one (before, its log would tell hands and
    bets), or one the host ended, kept as abandoned while the game between games runs: no winner."""
    if is_over(update):
        rows = [r.to_json() for r in store.records_since_last(NEW_GAME) if r.version <= update.version]
        session = update.session
        return _record(rows, session, update.public, update.seats, abandoned=False)
    ended = ended_game(store, update)
    if ended is None:
        raise RecordError("the game is not over yet: its record is kept once it ends.")
    rows, session = ended
    public = session.spec.public_json(session.state)
    return _record([r.to_json() for r in rows], session, public, update.seats,
                   abandoned=not session.spec.over(session.state))


def ended_game(store: Store, update: Update) -> tuple[list, Session] | None:
    """The game the host ended, while the game between games its end began runs: its records, up to and
    with the end, and its last session; None if the running game does not follow such an end."""
    if update.session is None:
        return None
    rows = store.records_since_last(NEW_GAME)
    cut = next((i for i, row in enumerate(rows) if row.kind == END_GAME and row.version <= update.version),
               None)
    if cut is None:
        return None
    session, _ = replay(rows[:cut])
    return (rows[:cut + 1], session) if session is not None else None


def _record(rows: list[dict], session: Session, public: dict, seats, *, abandoned: bool) -> dict[str, Any]:
    spec = session.spec
    first, last = rows[0], rows[-1]
    started = datetime.fromisoformat(first["at"]) if first["at"] else None
    stamp = started.strftime("%Y%m%d-%H%M%S") if started else "00000000-000000"
    count = spec.seats_in_play(session.options)
    # the seats of the recorded game, coloured as it coloured them (the running game may be another)
    colours = [*spec.colours, *SEAT_COLOURS[len(spec.colours):]]
    players = [{"seat": s["seat"], "name": s["name"], "colour": colours[s["seat"]].key}
               for s in seats if s["seat"] < count]
    result = Result() if abandoned else spec.result(public)
    return {"format": FORMAT, "id": f"{stamp}-{session.game}-v{first['version']}", "game": session.game,
            "started": first["at"], "ended": last["at"], "players": players, "abandoned": abandoned,
            "result": msgspec.to_builtins(result), "final": public, "records": rows}


def folder(state_dir: Path) -> Path:
    return Path(state_dir) / FOLDER


def write(state_dir: Path, store: Store, update: Update) -> Path | None:
    """Keep the finished game's record as JSON in the state dir, once (a record is never rewritten)."""
    record = build(store, update)
    path = folder(state_dir) / f"{record['id']}.json"
    if path.exists():
        return None
    path.parent.mkdir(exist_ok=True)
    write_durably(path, json.dumps(record, ensure_ascii=False, indent=1) + "\n")
    return path


def listing(state_dir: Path) -> str:
    """One line per record kept: its id, game, when it ended, the players and who won."""
    paths = sorted(folder(state_dir).glob("*.json")) if folder(state_dir).is_dir() else []
    if not paths:
        return f"{folder(state_dir)}: no finished game is kept yet."
    lines = []
    for path in paths:
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            names = [p["name"] or f"seat {p['seat'] + 1}" for p in record["players"]]
            won = [names[w] for w in record["result"]["winners"] if 0 <= w < len(names)]
            lines.append(f"{record['id']}  {record['game']:8} ended {record['ended'][:16]}  "
                         f"{', '.join(names)}  won: {', '.join(won) or '-'}")
        except (ValueError, KeyError, TypeError, IndexError, OSError):
            lines.append(f"{path.stem}  (unreadable: {path})")
    return "\n".join(lines)


def load(state_dir: Path, record_id: str) -> dict:
    if not RECORD_ID.match(record_id):
        raise RecordError(f"{record_id!r} is not a record id: companion records list shows them.")
    path = folder(state_dir) / f"{record_id}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecordError(f"{path}: no such record; companion records list shows them.") from None
    except (OSError, ValueError) as exc:
        raise RecordError(f"{path}: cannot read the record ({exc}).") from None


def bgstats(record: dict) -> dict:
    """The record in BG Stats' import format (the JSON its "Import / Export" reads: `games`, `players`,
    `locations` and `plays`, ids cross-referencing them)."""
    from companion.core import registry
    from companion.i18n import translator

    spec = registry.get(record["game"])
    title = translator("en", spec)(spec.title)
    outcome = record["result"]
    names = [p["name"] or f"Seat {p['seat'] + 1}" for p in record["players"]]
    players = [{"id": i + 1, "name": name, "isAnonymous": False, "uuid": f"companion-player-{name}"}
               for i, name in enumerate(names)]
    scores = outcome.get("scores") or [None] * len(names)
    ranks = outcome.get("ranks") or [None] * len(names)
    play_players = [{"playerRefId": i + 1, "score": "" if scores[i] is None else str(scores[i]),
                     "winner": i in outcome["winners"], "rank": ranks[i] or 0, "newPlayer": False,
                     "startPlayer": i == 0, "seatOrder": i + 1}
                    for i in range(len(names))]
    started, ended = _bgstats_time(record["started"]), _bgstats_time(record["ended"])
    return {
        "about": "Exported by the table companion in BG Stats' import format.",
        "games": [{"id": 1, "name": title, "uuid": f"companion-game-{record['game']}", "isBaseGame": 1,
                   "isExpansion": 0, "cooperative": False, "highestWins": True, "noPoints": not any(
                       s is not None for s in scores), "usesTeams": False}],
        "players": players,
        "locations": [{"id": 1, "name": "Table companion", "uuid": "companion-location"}],
        "plays": [{"uuid": f"companion-play-{record['id']}", "gameRefId": 1, "locationRefId": 1,
                   "playDate": started, "entryDate": ended, "durationMin": _minutes(record), "ignored": False,
                   "manualWinner": False, "rounds": 0, "scoringSetting": 0, "board": "",
                   "playerScores": play_players, "comments": f"companion record {record['id']}"}],
        "userInfo": {"meRefId": 1},
    }


def _bgstats_time(at: str) -> str:
    """ "2026-11-23T22:10:00.123+00:00" -> "2026-11-23 22:10:00", as BG Stats writes dates."""
    return at[:19].replace("T", " ") if at else ""


def _minutes(record: dict) -> int:
    try:
        seconds = (datetime.fromisoformat(record["ended"]) - datetime.fromisoformat(record["started"]))
        return max(0, round(seconds.total_seconds() / 60))
    except (ValueError, TypeError):
        return 0
