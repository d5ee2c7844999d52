"""Work a player is waiting on, counted, so that the e-ink render steps aside for it at its safe points."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# Seconds without any such work before background work goes on: commands sent back to back leave
# gaps of a few milliseconds, too short for a piece of a render to fit without delaying the next one.
QUIET = 0.05
# The current thread's way of stepping aside, while it does background work (see Foreground.background).
_STEP_ASIDE: ContextVar[Callable[[], None] | None] = ContextVar("step_aside", default=None)


def checkpoint() -> None:
    """A safe point of background work: while a player waits on something, wait here.

    Outside `Foreground.background` (a test drawing a frame, say) it returns at once.
    """
    step_aside = _STEP_ASIDE.get()
    if step_aside is not None:
        step_aside()


class Foreground:
    """Counts the work players wait on: a button being pressed, a command on its way to the LEDs and
    the phones, a request being answered.

    On one slow core (a Pi Zero 2 W) an e-ink render takes hundreds of milliseconds, and a lower
    thread priority cannot put a press first: the interpreter lock, not the scheduler, decides which
    thread runs Python, so the render and the press would take turns. So the render itself waits, at
    each `checkpoint()`, until no such work is left.
    """

    def __init__(self, quiet: float = QUIET):
        self.quiet = quiet
        self._cond = threading.Condition(threading.Lock())
        self._working = 0
        self._ended = 0.0  # when the last piece of work ended (monotonic)
        self.stepped_aside = 0.0  # seconds background work has waited in all
        self.waiting = 0  # threads stepping aside now

    def begin(self, count: int = 1) -> None:
        with self._cond:
            self._working += count

    def end(self, count: int = 1) -> None:
        with self._cond:
            self._working = max(0, self._working - count)
            if not self._working:
                self._ended = time.monotonic()
                self._cond.notify_all()

    @contextmanager
    def working(self) -> Iterator[None]:
        self.begin()
        try:
            yield
        finally:
            self.end()

    @property
    def busy(self) -> bool:
        return self._working > 0

    @contextmanager
    def background(self, patience: float, budget: float) -> Iterator[None]:
        """Background work on this thread: each `checkpoint()` in it waits while a player waits.

        For the first `patience` seconds of waiting it also waits until `quiet` seconds have passed
        without any such work, so that a burst of commands is not slowed by pieces of a render fitted
        between them; past that, it waits only while work is under way. Past `budget` seconds of
        waiting in all, the work runs to its end: a long burst delays the glass, never starves it.
        """
        waited_in_all = 0.0

        def step_aside() -> None:
            nonlocal waited_in_all
            if waited_in_all >= budget:
                return
            quiet = self.quiet if waited_in_all < patience else 0.0
            if not self._working and time.monotonic() - self._ended >= quiet:
                return  # the common case costs no lock
            started = time.monotonic()
            deadline = started + budget - waited_in_all
            with self._cond:
                self.waiting += 1
                try:
                    while (now := time.monotonic()) < deadline:
                        if quiet and now - started + waited_in_all >= patience:
                            quiet = 0.0  # out of patience: from now on, only while work is under way
                        if self._working:
                            self._cond.wait(deadline - now)
                        elif now - self._ended < quiet:
                            out_of_patience = started + patience - waited_in_all
                            self._cond.wait(min(deadline, self._ended + quiet, out_of_patience) - now)
                        else:
                            break
                finally:
                    self.waiting -= 1
            waited = time.monotonic() - started
            waited_in_all += waited
            self.stepped_aside += waited

        token = _STEP_ASIDE.set(step_aside)
        try:
            yield
        finally:
            _STEP_ASIDE.reset(token)
