"""What the venue's chaos tests share: a TCP link the test cuts, and the accounting of what arrived."""

from __future__ import annotations

import socket
import sqlite3
import threading
from pathlib import Path


class Link:
    """A TCP relay between a table and the broker, standing for the venue's Wi-Fi: `cut()` drops every
    connection and refuses new ones until `mend()`."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = True
        self.open: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return
            with self._lock:
                if not self.up:
                    near.close()
                    continue
                try:
                    far = socket.create_connection(("127.0.0.1", self.target_port))
                except OSError:
                    near.close()
                    continue
                self.open += [near, far]
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.close()
            except OSError:
                pass

    def cut(self) -> None:
        with self._lock:
            self.up = False
            for end in self.open:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            self.open = []

    def mend(self) -> None:
        with self._lock:
            self.up = True

    def close(self) -> None:
        self.cut()
        self.listener.close()


def kept_versions(board_db: Path, name: str, store: str | None = None) -> list[int]:
    """The versions a dashboard's board file holds for table `name` (from its store `store`, if given), in
    the order it kept them."""
    if not board_db.exists():
        return []
    db = sqlite3.connect(f"file:{board_db}?mode=ro", uri=True, timeout=10)
    try:
        if store is not None:
            return [v for (v,) in db.execute("SELECT version FROM updates WHERE name = ? AND store = ? "
                                            "ORDER BY seq", (name, store))]
        return [v for (v,) in db.execute("SELECT version FROM updates WHERE name = ? ORDER BY seq", (name,))]
    except sqlite3.OperationalError:
        return []  # not made yet
    finally:
        db.close()


def waiting_in_outbox(table_db: Path) -> int:
    """How many messages a table's outbox still holds (read from its store, as another process)."""
    db = sqlite3.connect(f"file:{table_db}?mode=ro", uri=True, timeout=10)
    try:
        return db.execute("SELECT count(*) FROM venue_outbox").fetchone()[0]
    finally:
        db.close()


def exactly_once_in_order(kept: list[int], acked: list[int]) -> None:
    """Every acknowledged command's update arrived, none twice, in the table's order."""
    assert kept == sorted(set(kept)), "an update was kept twice, or out of order"
    lost = sorted(set(acked) - set(kept))
    assert not lost, f"acknowledged but never on the dashboard: {lost}"


class PlayingTable:
    """A table on its store at `path` (the real table, outbox and sender) that rolls dice on demand."""

    def __init__(self, path: Path, broker, venue: str, name: str, league: str = ""):
        from companion.core.table import Table
        from companion.outputs.venue.outbox import Outbox, writer
        from companion.outputs.venue.publishing import scoreboard_view
        from companion.outputs.venue.sender import Sender
        from companion.storage.store import Store

        self.store = Store(path)
        self.outbox = Outbox(self.store.path)
        self.table = Table(self.store)
        self.table.outbox = writer(scoreboard_view)
        self.sender = Sender(self.outbox, broker, venue, name, league)
        self.table.subscribe(self.sender.wake)
        self.table.start()
        self.sender.start()

    def rolls(self, n: int) -> list[int]:
        """The versions of `n` rolls, each committed (acknowledged to the player)."""
        from companion.gamekit.contract import Command

        out = []
        for _ in range(n):
            result = self.table.call(Command("roll"))
            assert result.ok, result.error
            out.append(result.version)
        return out

    def stop(self) -> None:
        self.table.stop()
        self.sender.stop()
        self.outbox.close()
        self.store.close()
