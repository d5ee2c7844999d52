"""Game records: each finished game kept as JSON beside the store, listed, and exported for BG Stats."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.core.table.export import FORMAT, RecordError
from companion.storage.store import write_durably

FOLDER = "records"
__all__ = ["FORMAT", "RecordError", "bgstats", "folder", "listing", "load", "write"]
RECORD_ID = re.compile(r"^[0-9]{8}-[0-9]{6}-[a-z0-9_]+-v[0-9]+$")


def folder(state_dir: Path) -> Path:
    return Path(state_dir) / FOLDER


def write(state_dir: Path, record: dict[str, Any]) -> Path | None:
    """Keep a finished game's record (the table's `exports.finished()`) as JSON in the state dir, once:
    a record is never rewritten."""
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
