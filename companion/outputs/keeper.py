"""What play leaves behind: a finished game's record, and a backup once enough play is due."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.core.moment import Moment
from companion.core.session import END_GAME
from companion.outputs import records

log = logging.getLogger(__name__)


class Keeper:
    """On the table thread, between commands: no timer wakes the daemon while nobody plays.

    `finished()` is the table's record of the game that just ended (`Export.finished`); `backup()` makes an
    online backup of the store; `minutes` of play make a backup due (0: never)."""

    def __init__(self, state_dir: Path, finished: Callable[[], dict[str, Any]], backup: Callable[[], Path],
                 minutes: float):
        self.state_dir, self.finished, self._backup, self.minutes = state_dir, finished, backup, minutes
        self._due: float | None = None  # when play since the last backup makes the next one due
        self._over = False  # whether the running game had ended at the last command

    def resume(self, moment: Moment) -> None:
        """At start: a game that ended just before a power cut has its record written now."""
        self._over = moment.over
        if self._over:
            try:
                records.write(self.state_dir, self.finished())
            except OSError:
                log.exception("could not keep the finished game's record")

    def __call__(self, moment: Moment) -> None:
        if moment.command is None or moment.rejected is not None:
            return
        ended, self._over = moment.over and not self._over, moment.over  # once per game, not at each after
        # the host ended a game that was not over: it is kept too, as abandoned
        ended = ended or moment.command.kind == END_GAME
        try:
            if ended:
                records.write(self.state_dir, self.finished())
            if self.minutes <= 0:
                return
            now = time.monotonic()
            if ended or (self._due is not None and now >= self._due):
                self.backup()
            elif self._due is None:  # the first command since the last backup starts the count
                self._due = now + self.minutes * 60
        except Exception:  # a full disk, say: the game goes on, and the log says why
            log.exception("could not keep a record or a backup")

    def backup(self) -> Path:
        """An online backup now; the count towards the next one starts again."""
        self._due = None
        return self._backup()
