"""How fast a host can fill the disk: new games started in a loop with one data file of their own.

Prints, for each file size, the new games a minute, how much the store grows a minute and a game
(backups copy the whole store, so each kept backup adds its growth again), and the bytes the table
wrote a minute (this process's write() calls: SQLite's WAL frames and checkpoints, reused, not kept).
Run it from the repository:

    .venv/bin/python tests/bench_growth.py [SECONDS]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import companion
from companion.core import registry
from companion.core.session import NEW_GAME, Setup
from companion.core.table import Table
from companion.gamekit.contract import Command
from companion.storage.store import Store

BACKUP_KEEP = 5  # the config's default


def written() -> int:
    """Bytes this process has passed to write() so far (Linux)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise RuntimeError("no /proc/self/io")


def file_of(kb: float) -> str:
    """A valid Schacht data file padded with a comment to `kb` KB."""
    text = registry.get("schacht").bundled("stages").text
    return text + "#" * max(0, int(kb * 1024) - len(text.encode()) - 1) + "\n"


def loop(seconds: float, kb: float) -> dict:
    with tempfile.TemporaryDirectory(dir=Path(__file__).parent) as folder:
        store = Store(Path(folder) / "companion.db")
        table = Table(store, Setup("schacht")).start()
        args = {"game": "schacht", "data": {"stages": {"name": "mine.toml", "text": file_of(kb)}}}
        assert table.call(Command(NEW_GAME, {"game": "schacht"})).ok
        size = store.path.stat().st_size + Path(f"{store.path}-wal").stat().st_size
        start, wrote, games, refused = time.monotonic(), written(), 0, None
        while time.monotonic() - start < seconds:
            result = table.call(Command(NEW_GAME, args))
            if not result.ok:
                refused = result.error.msgid.split(":")[0]
                break
            games += 1
        elapsed, wrote = time.monotonic() - start, written() - wrote
        table.stop()
        store.close()  # the last connection checkpoints the WAL into the file
        grown = store.path.stat().st_size - size
    return {"games_per_minute": games / elapsed * 60, "per_minute": wrote / elapsed * 60,
            "per_game": grown / max(games, 1), "refused": refused}


def main(seconds: float = 20.0) -> None:
    print(f"companion from {Path(companion.__file__).parent}; {seconds:g} s per size")
    print(f"| data file | new games a minute | store growth a minute (with {BACKUP_KEEP} backups) "
          "| growth a game | written a minute (WAL and checkpoints) |")
    print("| --- | --- | --- | --- | --- |")
    for kb in (60, 16, 12):
        r = loop(seconds, kb)
        if r["refused"]:
            print(f"| {kb} KB | refused: {r['refused']} | 0 | 0 | 0 |")
            continue
        per_minute = r["per_game"] * r["games_per_minute"]
        print(f"| {kb} KB | {r['games_per_minute']:.0f} | {per_minute / 2**20:.1f} MB "
              f"({per_minute * (1 + BACKUP_KEEP) / 2**20:.1f} MB) | {r['per_game'] / 1024:.1f} KB | "
              f"{r['per_minute'] / 2**20:.0f} MB |")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 20.0)
