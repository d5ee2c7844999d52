"""Store figures for docs/reliability.md: start-up checks, backups, a repair (python tests/bench_store.py)."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_store_faults import checkpointed, damage_page  # noqa: E402

from companion.core.session import replayable
from companion.storage import tools as storetools  # noqa: E402
from companion.storage.store import Store  # noqa: E402


def timed(what, n=5):
    best = float("inf")
    for _ in range(n):
        started = time.perf_counter()
        out = what()
        best = min(best, time.perf_counter() - started)
    return best * 1000, out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for rolls in (1000, 10000):
            path = checkpointed(tmp / f"s{rolls}", rolls)
            ms, _ = timed(lambda p=path: Store(p).close())
            print(f"open with every start-up check, {rolls} records ({path.stat().st_size // 1024} KB): "
                  f"{ms:.1f} ms")
            store = Store(path)
            ms, target = timed(lambda s=store, d=path.parent: storetools.backup(s, d, keep=5))
            store.close()
            print(f"online backup of {rolls} records: {ms:.1f} ms ({target.stat().st_size // 1024} KB)")
        path = checkpointed(tmp / "damaged", 1000)
        pages = path.stat().st_size // 4096
        damage_page(path, pages * 3 // 4)
        started = time.perf_counter()
        report = storetools.repair(path.parent, replayable)
        ms = (time.perf_counter() - started) * 1000
        print(f"repair of 1001 records with one page damaged ({ms:.0f} ms): {report.split('. ')[1]}")


if __name__ == "__main__":
    main()
