"""A gpiozero button with our own debounce, telling a short press from a hold."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from gpiozero import DigitalInputDevice

log = logging.getLogger(__name__)

OnInput = Callable[[str, str], None]  # (button name, "press" or "hold")
# Seconds a level must hold to count: tactile switches bounce for under 5 ms, and every millisecond here
# is a millisecond before the LEDs and the phones answer a press.
DEBOUNCE = 0.02


class Debounce:
    """The debounce and hold timing of one button: a pure state machine over the times it is given.

    Every edge restarts a settle timer, and only a level stable for `debounce` seconds counts:
    - settled press, then settled release before `hold` seconds: "press";
    - still pressed `hold` seconds after the press settled: "hold", and the release that follows
      says nothing.
    """

    def __init__(self, debounce: float, hold: float, now: float = 0.0):
        self.debounce, self.hold = debounce, hold
        self.settle_at: float | None = None  # when the line will have been quiet for `debounce`
        self.last_edge = now
        self.hold_at: float | None = None  # when a settled press becomes a hold
        self.pressed = False  # the settled level
        self.held = False

    def edge(self, at: float) -> None:
        self.last_edge = at
        self.settle_at = at + self.debounce

    def due(self) -> float | None:
        """When `advance` has something to do; None while nothing is pending. While the line
        settles, a due hold waits for it."""
        return self.settle_at if self.settle_at is not None else self.hold_at

    def advance(self, now: float, edge: float, level: bool | None) -> str | None:
        """Apply the pin's `level` read after the edge at `edge` (None: no read), and/or a due hold;
        returns the event to report, if any."""
        if level is not None:
            if self.last_edge != edge:
                return None  # another edge came while the pin was read: keep settling
            self.settle_at = None
            if level != self.pressed:
                self.pressed = level
                if level:
                    self.held = False
                    self.hold_at = edge + self.hold
                else:
                    self.hold_at = None
                    if not self.held:
                        return "press"
        # A hold only counts while the line is quiet: a release bouncing across the hold
        # moment must not turn a long press into a hold it never was.
        if self.hold_at is not None and self.hold_at <= now and self.settle_at is None:
            self.hold_at = None
            if self.pressed:
                self.held = True
                return "hold"
        return None


class DebouncedButton:
    """One push button to ground on a BCM pin, with the Pi's pull-up, debounced by `Debounce`.

    gpiozero's `bounce_time` is not used: its mock pins ignore it, so it could not be tested, and
    it drops edges rather than waiting for the line to settle. gpiozero's own hold timing is not
    used either: its HoldThread polls ten times a second for ever, and `Debounce` times holds itself.

    `on_input(name, "press" | "hold")` runs on this button's own thread; it should only hand the
    input on.
    """

    def __init__(self, pin: int, name: str, on_input: OnInput, *, debounce: float = DEBOUNCE,
                 hold: float = 1.0, pin_factory=None):
        if debounce <= 0 or hold <= debounce:
            raise ValueError(f"button {name!r}: need 0 < debounce ({debounce}) < hold ({hold})")
        self.name = name
        self.pin = pin
        self.debounce = debounce
        self.hold = hold
        self._on_input = on_input
        self._cond = threading.Condition()
        self._timing = Debounce(debounce, hold, time.monotonic())
        self._closed = False
        self.button = DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
        self.button.when_activated = self._edge
        self.button.when_deactivated = self._edge
        self._thread = threading.Thread(target=self._run, name=f"button-{name}", daemon=True)
        self._thread.start()

    @property
    def is_pressed(self) -> bool:
        """The debounced level (not the raw pin)."""
        with self._cond:
            return self._timing.pressed

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
            self._timing.edge(time.monotonic())
            self._cond.notify_all()

    # --- the settle thread --------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                if self._closed:
                    return
                now = time.monotonic()
                due = self._timing.due()
                if due is None:
                    self._cond.wait()
                    continue
                if due > now:
                    self._cond.wait(due - now)
                    continue
                settling = self._timing.settle_at is not None
                edge = self._timing.last_edge
            # Read the pin outside our lock: gpiozero may be calling _edge from its thread.
            level = self.button.is_active if settling else None
            with self._cond:
                event = self._timing.advance(now, edge, level)
            if event is not None:
                self._emit(event)

    def _emit(self, event: str) -> None:
        try:
            self._on_input(self.name, event)
        except Exception:
            log.exception("button %s: the %s handler failed", self.name, event)
