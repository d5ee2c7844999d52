"""Tables that say they are online yet send nothing: when each was last heard, and the deadline the
dashboard waits on to tell its live pages that one fell silent (no message arrives to say so)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from companion.venue import topics


class Silence:
    """When each table was last heard (any message, its heartbeat included); one past `after` seconds
    unheard is silent. `watch` starts the one thread that wakes at the next table's deadline."""

    def __init__(self, after: float = topics.SILENT_AFTER):
        self.after = after
        self._heard: dict[str, tuple[float, float]] = {}  # name -> (monotonic, wall clock)
        self._told: set[str] = set()  # tables the watcher already said fell silent
        self._started = (time.monotonic(), time.time())
        self._changed = threading.Condition()
        self._stopped = False
        self._thread: threading.Thread | None = None

    def expect(self, names: Iterable[str]) -> None:
        """Tables the store knows, unheard yet since this start: their bound runs from now."""
        with self._changed:
            for name in names:
                self._heard.setdefault(name, self._started)
            self._changed.notify_all()

    def heard(self, name: str) -> bool:
        """Table `name` just spoke; True if it had been flagged silent (the pages must be told)."""
        with self._changed:
            was = name in self._told
            new = name not in self._heard
            self._heard[name] = (time.monotonic(), time.time())
            self._told.discard(name)
            if was or new:  # its deadline is the latest of all: only a watcher with none needs waking
                self._changed.notify_all()
        return was

    def since(self, name: str) -> str | None:
        """When table `name` was last heard (UTC, ISO) if that is over `after` seconds ago, else None."""
        with self._changed:
            mono, wall = self._heard.get(name, self._started)
        if time.monotonic() - mono < self.after:
            return None
        return datetime.fromtimestamp(wall, UTC).isoformat(timespec="seconds")

    def watch(self, on_silent: Callable[[str], None]) -> None:
        """Call `on_silent(name)` once when a table's bound passes unheard (again after it speaks)."""
        self._thread = threading.Thread(target=self._watch, args=(on_silent,), name="venue-silence",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
        if self._thread is not None:
            self._thread.join(5)

    def _watch(self, on_silent: Callable[[str], None]) -> None:
        with self._changed:
            while not self._stopped:
                now, fallen, next_due = time.monotonic(), [], None
                for name, (mono, _) in self._heard.items():
                    if name not in self._told:
                        due = mono + self.after
                        if due <= now:
                            fallen.append(name)
                        elif next_due is None or due < next_due:
                            next_due = due
                if fallen:
                    self._told.update(fallen)
                    self._changed.release()  # the pages are told outside the lock: heard() never waits
                    try:
                        for name in fallen:
                            on_silent(name)
                    finally:
                        self._changed.acquire()
                    continue
                # Asleep until the next deadline (none: until a table is first heard, or speaks again).
                self._changed.wait(None if next_due is None else next_due - now)
