"""The e-ink refresh thread: the latest frame wins, identical frames are skipped, failures back off, the
wear budget paces the glass, and a panel that stops answering is a fault told to the table."""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from companion.devices.display import Display, PanelStuck
from companion.devices.wear import NOTHING as _NOTHING
from companion.devices.wear import RefreshScheduler, WearBudget
from companion.foreground import Foreground, checkpoint
from companion.malloc import give_back_freed

log = logging.getLogger(__name__)


RENDER_NICE = 10  # below the table, web and button threads, which keep the default 0
# How a frame steps aside for players (see Foreground.background): for 2 s it waits for a pause in
# their commands, then only while one is under way, and after 10 s of waiting it goes on regardless (a
# panel takes up to 35 s to refresh: a long burst delays the glass, never starves it).
STEP_ASIDE = (2.0, 10.0)
# Beyond its longest refresh, a panel's refresh gets this long for the SPI transfer and its power on and
# off before it counts as hung.
HANG_GRACE = 15.0


class Refresher:
    """Renders and shows frames on its own thread, so the game thread never waits for the glass.

    - `offer(key)` only records the newest request and returns at once; `render(key)` draws it.
    - A burst costs one render: a frame is drawn once offers have been quiet for `quiet` seconds (or
      `longest` after the first one waiting, so a long burst is not shown late), and only when the
      panel can take it: offers made while the glass refreshes only change which frame comes next.
    - A key equal to the one last drawn is not drawn again, and a frame identical to the one on the
      glass is never sent again.
    - When `show` raises (no panel, SPI busy, busy-wait timeout), the error is logged once and the
      newest frame is retried after `backoff[0]` seconds, doubling up to `backoff[1]`. Offers made
      meanwhile only change which frame the retry shows: they never cut the wait short.
    - While a player waits on something (`foreground`), drawing and sending wait at each checkpoint.
    - With a `budget`, the wear budget paces the glass (companion/devices/wear.py): a frame waits until
      the budget allows it, and the newest state is the one drawn then; an idle glass refreshes daily. A
      frame the table must see waits only for the panel's gap and its rated life's limit.
    - `speed(play)` picks each refresh's speed; each refresh's real duration is measured and logged.
    - A refresh that does not end within `deadline` seconds, or that the driver gave up on (PanelStuck),
      is a fault: nothing more is sent to that panel until the next start, and `watch`ers are told.
    """

    def __init__(self, display: Display, render: Callable[[Any], Image.Image],
                 backoff: tuple[float, float] = (2.0, 300.0), quiet: float = 0.15, longest: float = 1.0,
                 foreground: Foreground | None = None, budget: WearBudget | None = None,
                 speed: Callable[[bool], str | None] | None = None, deadline: float | None = None):
        self.display = display
        self._foreground = foreground or Foreground()
        self._render = render
        self._backoff = backoff
        self._schedule = RefreshScheduler(budget, quiet, longest)
        self._speed = speed or (lambda play: None)
        self._deadline = deadline
        self._delay = backoff[0]
        self._cond = threading.Condition()
        self._busy = False
        self._sending_since: float | None = None  # when the refresh on the glass now began
        self.fault: str | None = None  # why the panel is no longer sent frames (until the next start)
        self._watchers: list[Callable[[str], None]] = []
        self.last_seconds: float | None = None  # how long the last refresh took
        self.last_speed: str | None = None
        self._today = ("", 0)  # (local date, refreshes started that day)
        self._retry_at: float | None = None
        self._stopping = False
        self._last_shown: bytes | None = None
        self.shown = 0  # frames sent to the display
        self.rendered = 0  # frames drawn
        self.skipped = 0  # frames identical to the one already there (drawn or not)
        self.failures = 0  # show() calls that raised
        self._streak = 0  # failures since the last frame that reached the glass
        self.failing = False
        self._thread = threading.Thread(target=self._run, name="eink", daemon=True)

    @property
    def deadline(self) -> float:
        """How long a refresh may last before the panel counts as stuck (the panel found may change)."""
        return self.display.model.longest + HANG_GRACE if self._deadline is None else self._deadline

    @deadline.setter
    def deadline(self, seconds: float) -> None:
        self._deadline = seconds

    def start(self) -> Refresher:
        self._thread.start()
        return self

    def offer(self, key, play: bool = False, must: bool = False) -> None:
        """Ask for a frame of `key` (`play`: a frame of a game being played, which may go at the panel's
        fast speed; `must`: one the table must see, at the next refresh the wear budget allows); an older
        request not yet drawn is dropped. Never blocks on the glass."""
        with self._cond:
            self._schedule.offer(key, time.monotonic(), play, must)
            self._cond.notify_all()

    def watch(self, told: Callable[[str], None]) -> None:
        """Call `told(reason)` when the panel becomes stuck (on the thread that found it)."""
        self._watchers.append(told)

    @property
    def refreshes_today(self) -> int:
        day, count = self._today
        return count if day == time.strftime("%Y-%m-%d") else 0

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until every offered frame is on the glass (or skipped); False on timeout or while failing."""
        with self._cond:
            return self._cond.wait_for(
                lambda: self._schedule.wanted is _NOTHING and not self._busy and self._retry_at is None
                and self.fault is None, timeout)

    def stop(self, timeout: float = 1.0) -> None:
        """Stop the thread. A refresh under way is waited for, up to its deadline, however long that is:
        a panel whose power is cut mid-refresh can latch into a fault. A stuck panel is not waited for."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
            since = self._sending_since if self.fault is None else None
            if self.fault is not None and self._sending_since is not None:
                timeout = 0.0  # its refresh will never end: there is nothing to protect, only power to cut
        if since is not None:
            timeout = max(timeout, since + self.deadline - time.monotonic())
            log.info("waiting up to %.0f s for the e-ink refresh under way to finish", timeout)
        if self._thread.is_alive():
            self._thread.join(timeout)

    # --- the refresh thread -------------------------------------------------------------
    def _next(self):
        """(key, again, play) to draw once due and any backoff has passed; _NOTHING when stopping.

        Sleeps until the next deadline (a frame's quiet time, the budget, a backoff, the daily refresh),
        never polling; a stuck panel sleeps until the next start."""
        with self._cond:
            while not self._stopping:
                now = time.monotonic()
                wait = None if self._retry_at is None else self._retry_at - now
                if self.fault is None and wait is not None and wait > 0:
                    self._cond.wait(wait)
                    continue
                self._retry_at = None  # the backoff is over
                due = None if self.fault is not None else self._schedule.due(now)
                if due is None:
                    self._cond.wait()
                    continue
                if self.failing and self._schedule.budget is None:
                    due = now  # a retry waited out its backoff
                if due > now:
                    self._cond.wait(due - now)  # a burst may still be coming, or the budget is spent
                    continue
                play = self._schedule.fast
                key, again = self._schedule.take(now)
                self._busy = True
                return key, again, play and not again
            return _NOTHING

    def _run(self) -> None:
        _yield_to_players()
        while (item := self._next()) is not _NOTHING:
            with self._foreground.background(*STEP_ASIDE):
                self._frame(*item)

    def _frame(self, key, again: bool = False, play: bool = False) -> None:
        """Draw `key` and send it to the glass, stepping aside at each checkpoint while a player waits.
        `again`: the daily refresh, which sends the frame on the glass once more."""
        if key == self._schedule.drawn and self._last_shown is not None and not again:
            self.skipped += 1  # the same state again: its frame is already on the glass
            self._settle()
            return
        try:
            checkpoint()
            image = self._render(key)
            self.rendered += 1
            checkpoint()
            digest = _digest(image)
        except Exception:
            # A drawing bug: retrying the same key would fail the same way, so drop it.
            log.exception("could not draw the e-ink frame; the panel keeps the previous one")
            self._settle()
            return
        if digest == self._last_shown and not again:
            self._schedule.shown(key, self._schedule.washed)  # the glass is as it was
            self.skipped += 1
            self._settle()
            return
        checkpoint()
        if not self._send(key, image, play):
            return
        self._schedule.shown(key, washed=self.last_speed not in (None, "normal"))
        self._succeeded(digest)
        del image
        checkpoint()
        give_back_freed()

    def _send(self, key, image: Image.Image, play: bool) -> bool:
        """One refresh, timed, watched for a panel that never finishes it; whether it reached the glass."""
        speed = self.display.speed = self._speed(play)
        with self._cond:
            if self._stopping:  # no refresh may begin once the daemon is stopping: its power may go
                self._busy = False
                self._cond.notify_all()
                return False
            started = self._sending_since = time.monotonic()
            self._schedule.started(started)
            day, count = self._today
            today = time.strftime("%Y-%m-%d")
            self._today = (today, count + 1 if day == today else 1)
        hung = threading.Timer(self.deadline, self._stuck, (started, f"no refresh ended within "
                                                                    f"{self.deadline:.0f} s"))
        hung.daemon = True
        hung.start()
        try:
            self.display.show(image)
        except PanelStuck as exc:
            self._stuck(started, str(exc))
            return False
        # gpiodevice reports a busy or missing GPIO line by raising SystemExit, which would
        # silently end this thread: the panel would then never be tried again.
        except (Exception, SystemExit) as exc:
            self._failed(key, exc)
            return False
        finally:
            hung.cancel()
            with self._cond:
                self._sending_since = None
                self._cond.notify_all()
        took = time.monotonic() - started
        self.last_seconds, self.last_speed = took, speed
        # A glass takes seconds, and its journal says how many; the simulator's instant one is not news.
        log.log(logging.INFO if took >= 1.0 else logging.DEBUG, "e-ink refresh took %.1f s%s", took,
                f" at {speed} speed" if speed else "")
        if took >= self.display.model.longest:
            self._stuck(started, f"a refresh took {took:.0f} s, as long as the driver waits for one")
            return False
        return self.fault is None

    def _stuck(self, started: float, reason: str) -> None:
        """The refresh begun at `started` did not end as a refresh should: stop sending, tell the table."""
        with self._cond:
            if self.fault is not None or (self._sending_since not in (None, started)):
                return
            self.fault = reason
            self.failures += 1
            self._busy = False
            self._cond.notify_all()
        log.error("e-ink panel stopped answering (%s): no more frames are sent to it until the next start; "
                  "switch the device off for a minute to clear it", reason)
        for told in self._watchers:
            try:
                told(reason)
            except Exception:  # a listener's bug must not hide the fault from the others
                log.exception("could not tell the table the panel is stuck")

    def _settle(self) -> None:
        with self._cond:
            self._busy = False
            self._cond.notify_all()

    def _failed(self, key, exc: BaseException) -> None:
        with self._cond:
            self.failures += 1
            self._streak += 1
            if not self.failing:
                log.error("e-ink panel failed (%s: %s); the daemon carries on and retries with backoff, "
                          "first in %.1f s", type(exc).__name__, exc, self._delay)
            else:
                log.debug("e-ink panel still failing (%s: %s)", type(exc).__name__, exc)
            self.failing = True
            self._schedule.retry(key)  # retry this frame unless a newer one was offered meanwhile
            self._retry_at = time.monotonic() + self._delay
            self._delay = min(self._delay * 2, self._backoff[1])
            self._busy = False
            self._cond.notify_all()

    def _succeeded(self, digest: bytes) -> None:
        with self._cond:
            if self.failing:
                log.info("e-ink panel works again after %d failed attempts", self._streak)
            self.failing = False
            self._streak = 0
            self._retry_at = None
            self._delay = self._backoff[0]
            self._last_shown = digest
            self.shown += 1
            self._busy = False
            self._cond.notify_all()


def _digest(image: Image.Image, rows: int = 64) -> bytes:
    """A fingerprint of a frame: equal frames give equal digests. Hashed a band of `rows` at a time, so
    a frame's bytes are never all copied at once (5.8 MB on the 13.3" panel)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{image.mode}{image.size}".encode())
    width, height = image.size
    for top in range(0, height, rows):
        h.update(image.crop((0, top, width, min(height, top + rows))).tobytes())
    return h.digest()


def _yield_to_players() -> None:
    """Lower this thread's CPU priority (Linux's per-thread nice): on one slow core a render takes
    hundreds of milliseconds, and a button's or a phone's command must not wait behind it."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), RENDER_NICE)
    except (AttributeError, OSError):  # not Linux, or not allowed: the render competes as before
        pass

