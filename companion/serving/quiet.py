"""At most one log line a minute of each kind, saying how many were left out: a flood must not fill the
journal of a small device."""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Hashable

EVERY = 60.0  # seconds between two lines of one kind
KINDS = 64  # kinds remembered: lines of ever new kinds cannot grow memory without bound
# A line's kind is its text up to the first thing that varies (a number, a path, a formatting field).
VARYING = re.compile(r"[%/\d]")
# The loggers of the web server: a client hanging up, a queue of requests waiting for a thread.
WAITRESS = ("waitress", "waitress.queue")


class LogPace:
    """When a line of each kind may be logged, on the monotonic clock; counts those left out since."""

    def __init__(self, every: float = EVERY, clock: Callable[[], float] = time.monotonic):
        self.every = every
        self.clock = clock
        self._lock = threading.Lock()
        self._logged: dict[Hashable, float] = {}  # kind -> when its last line was logged
        self._left: dict[Hashable, dict[Hashable, int]] = {}  # kind -> lines left out, per source

    def allow(self, kind: Hashable, source: Hashable = None) -> tuple[int, int] | None:
        """None if a line of `kind` must be left out now; else how many were left out since the last
        one, and from how many sources."""
        with self._lock:
            now = self.clock()
            last = self._logged.get(kind)
            if last is not None and now - last < self.every:
                left = self._left.setdefault(kind, {})
                left[source] = left.get(source, 0) + 1
                return None
            if last is None and len(self._logged) >= KINDS:  # forget the kind logged longest ago
                oldest = min(self._logged, key=self._logged.__getitem__)
                self._logged.pop(oldest)
                self._left.pop(oldest, None)
            self._logged[kind] = now
            left = self._left.pop(kind, {})
        return sum(left.values()), len(left)


class PacedLog(logging.Filter):
    """A logger's lines of one kind at most once a minute; the next one says how many it left out."""

    def __init__(self, pace: LogPace | None = None):
        super().__init__()
        self.pace = pace or LogPace()

    def filter(self, record: logging.LogRecord) -> bool:
        kind = (record.name, record.levelno, VARYING.split(str(record.msg), 1)[0])
        allowed = self.pace.allow(kind)
        if allowed is None:
            return False
        left, _ = allowed
        if left:
            record.msg = f"{record.getMessage()} ({left} more like it left out in the last "\
                         f"{self.pace.every:.0f} s)"
            record.args = None
        return True


def pace_waitress_logs(pace: LogPace | None = None) -> PacedLog:
    """A fresh filter on waitress's loggers (a new server starts with a clean count); returns it."""
    paced = PacedLog(pace)
    for name in WAITRESS:
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, PacedLog)]:
            logger.removeFilter(old)
        logger.addFilter(paced)
    return paced
