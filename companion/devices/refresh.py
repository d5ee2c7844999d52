"""The e-ink refresh thread: the latest frame wins, identical frames are skipped, failures back off."""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable

from PIL import Image

from companion.devices.display import Display
from companion.foreground import Foreground, checkpoint
from companion.malloc import give_back_freed

log = logging.getLogger(__name__)

_NOTHING = object()  # no frame wanted (keys themselves may be anything, even None)


RENDER_NICE = 10  # below the table, web and button threads, which keep the default 0
# How a frame steps aside for players (see Foreground.background): for 2 s it waits for a pause in
# their commands, then only while one is under way, and after 10 s of waiting it goes on regardless (a
# panel takes up to 35 s to refresh: a long burst delays the glass, never starves it).
STEP_ASIDE = (2.0, 10.0)


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
    """

    def __init__(self, display: Display, render: Callable[[object], Image.Image],
                 backoff: tuple[float, float] = (2.0, 300.0), quiet: float = 0.15, longest: float = 1.0,
                 foreground: Foreground | None = None):
        self.display = display
        self._foreground = foreground or Foreground()
        self._render = render
        self._backoff = backoff
        self.quiet, self.longest = quiet, longest
        self._first_offer = self._last_offer = 0.0
        self._drawn = _NOTHING  # the key of the frame last drawn
        self._delay = backoff[0]
        self._cond = threading.Condition()
        self._wanted = _NOTHING
        self._busy = False
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

    def start(self) -> Refresher:
        self._thread.start()
        return self

    def offer(self, key) -> None:
        """Ask for a frame of `key`; an older request not yet drawn is dropped. Never blocks on the glass."""
        with self._cond:
            now = time.monotonic()
            if self._wanted is _NOTHING:
                self._first_offer = now
            self._wanted, self._last_offer = key, now
            self._cond.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until every offered frame is on the glass (or skipped); False on timeout or while failing."""
        with self._cond:
            return self._cond.wait_for(
                lambda: self._wanted is _NOTHING and not self._busy and self._retry_at is None, timeout)

    def stop(self, timeout: float = 5.0) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout)

    # --- the refresh thread -------------------------------------------------------------
    def _next(self):
        """The key to draw, once one is wanted and any backoff has passed; _NOTHING when stopping."""
        with self._cond:
            while not self._stopping:
                wait = None if self._retry_at is None else self._retry_at - time.monotonic()
                if wait is not None and wait > 0:
                    self._cond.wait(wait)
                    continue
                self._retry_at = None  # the backoff is over
                if self._wanted is _NOTHING:
                    self._cond.wait()
                    continue
                due = min(self._last_offer + self.quiet, self._first_offer + self.longest)
                wait = due - time.monotonic()
                # The first frame goes at once (the glass shows nothing of ours yet); so does a retry,
                # which waited out its backoff.
                if wait > 0 and not self.failing and self._last_shown is not None:
                    self._cond.wait(wait)  # a burst may still be coming: draw its last state only
                    continue
                key, self._wanted = self._wanted, _NOTHING
                self._busy = True
                return key
            return _NOTHING

    def _run(self) -> None:
        _yield_to_players()
        while (key := self._next()) is not _NOTHING:
            with self._foreground.background(*STEP_ASIDE):
                self._frame(key)

    def _frame(self, key) -> None:
        """Draw `key` and send it to the glass, stepping aside at each checkpoint while a player waits."""
        if key == self._drawn and self._last_shown is not None:
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
        if digest == self._last_shown:
            self._drawn = key
            self.skipped += 1
            self._settle()
            return
        try:
            checkpoint()
            self.display.show(image)
        # gpiodevice reports a busy or missing GPIO line by raising SystemExit, which would
        # silently end this thread: the panel would then never be tried again.
        except (Exception, SystemExit) as exc:
            self._failed(key, exc)
            return
        self._drawn = key
        self._succeeded(digest)
        del image
        checkpoint()
        give_back_freed()

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
            if self._wanted is _NOTHING:
                self._wanted = key  # retry this frame unless a newer one was offered meanwhile
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

