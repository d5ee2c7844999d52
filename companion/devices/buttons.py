"""A gpiozero button with our own debounce, telling a short press from a hold."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from gpiozero import Button

log = logging.getLogger(__name__)

OnInput = Callable[[str, str], None]  # (button name, "press" or "hold")


class DebouncedButton:
    """One push button to ground on a BCM pin, with the Pi's pull-up.

    gpiozero's `bounce_time` is not used: its mock pins ignore it, so it could not be tested, and
    it drops edges rather than waiting for the line to settle. Instead every edge restarts a settle
    timer, and only a level stable for `debounce` seconds counts:

    - settled press, then settled release before `hold` seconds: `on_input(name, "press")`;
    - still pressed `hold` seconds after the press settled: `on_input(name, "hold")`, and the
      release that follows says nothing.

    `on_input` runs on this button's own thread; it should only hand the input on.
    """

    def __init__(self, pin: int, name: str, on_input: OnInput, *, debounce: float = 0.03,
                 hold: float = 1.0, pin_factory=None):
        if debounce <= 0 or hold <= debounce:
            raise ValueError(f"button {name!r}: need 0 < debounce ({debounce}) < hold ({hold})")
        self.name = name
        self.pin = pin
        self.debounce = debounce
        self.hold = hold
        self._on_input = on_input
        self._cond = threading.Condition()
        self._settle_at: float | None = None  # when the line will have been quiet for `debounce`
        self._last_edge = time.monotonic()
        self._hold_at: float | None = None  # when a settled press becomes a hold
        self._pressed = False  # the settled level
        self._held = False
        self._closed = False
        self.button = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
        self.button.when_pressed = self._edge
        self.button.when_released = self._edge
        self._thread = threading.Thread(target=self._run, name=f"button-{name}", daemon=True)
        self._thread.start()

    @property
    def is_pressed(self) -> bool:
        """The debounced level (not the raw pin)."""
        with self._cond:
            return self._pressed

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(2)
        self.button.close()

    # --- called by gpiozero on every edge (its own thread on a Pi, the caller's with mock pins) ---
    def _edge(self) -> None:
        with self._cond:
            self._last_edge = time.monotonic()
            self._settle_at = self._last_edge + self.debounce
            self._cond.notify_all()

    # --- the settle thread --------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                if self._closed:
                    return
                now = time.monotonic()
                # While the line settles, a due hold waits for it (see _advance).
                due = self._settle_at if self._settle_at is not None else self._hold_at
                if due is None:
                    self._cond.wait()
                    continue
                if due > now:
                    self._cond.wait(due - now)
                    continue
                settling = self._settle_at is not None
                edge = self._last_edge
            # Read the pin outside our lock: gpiozero may be calling _edge from its thread.
            level = self.button.is_pressed if settling else None
            event = self._advance(now, edge, level)
            if event is not None:
                self._emit(event)

    def _advance(self, now: float, edge: float, level: bool | None) -> str | None:
        """Apply a settled level and/or a due hold; the event to report, if any."""
        with self._cond:
            if level is not None:
                if self._last_edge != edge:
                    return None  # another edge came while we read the pin: keep settling
                self._settle_at = None
                if level != self._pressed:
                    self._pressed = level
                    if level:
                        self._held = False
                        self._hold_at = edge + self.hold
                    else:
                        self._hold_at = None
                        if not self._held:
                            return "press"
            # A hold only counts while the line is quiet: a release bouncing across the hold
            # moment must not turn a long press into a hold it never was.
            if self._hold_at is not None and self._hold_at <= now and self._settle_at is None:
                self._hold_at = None
                if self._pressed:
                    self._held = True
                    return "hold"
            return None

    def _emit(self, event: str) -> None:
        try:
            self._on_input(self.name, event)
        except Exception:
            log.exception("button %s: the %s handler failed", self.name, event)
