"""A gpiozero button with our own debounce, telling a short press from a hold."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from gpiozero import DigitalInputDevice

from companion.foreground import Foreground

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
        self.edge_level: bool | None = None  # the level read right after the last edge
        self.late: list[str] = []  # events of levels that settled while nobody read the pin in time

    def edge(self, at: float, level: bool | None = None) -> None:
        """An edge at `at`; `level` is the pin read right after it, if it was."""
        if self.settle_at is not None and at >= self.settle_at and self.edge_level is not None:
            # The line was quiet for the debounce before this edge, but the settle thread was too busy
            # to read it in time (a loaded CPU): the level read at the last edge is the one that settled.
            settled = self.settle_at
            event = self._settle(self.last_edge, self.edge_level)
            if self.hold_at is not None and max(self.hold_at, settled) <= at and self.pressed:
                self.hold_at, self.held, event = None, True, "hold"  # and it was held past the hold time
            if event:
                self.late.append(event)
        self.last_edge, self.edge_level = at, level
        self.settle_at = at + self.debounce

    def take_late(self) -> list[str]:
        late, self.late = self.late, []
        return late

    @property
    def idle(self) -> bool:
        """Settled, with nothing of a press still to tell: released, or held past its hold (the release
        that follows a hold says nothing)."""
        return self.settle_at is None and (not self.pressed or self.held)

    def due(self) -> float | None:
        """When `advance` has something to do; None while nothing is pending. While the line
        settles, a due hold waits for it."""
        return self.settle_at if self.settle_at is not None else self.hold_at

    def _settle(self, edge: float, level: bool) -> str | None:
        """The line settled at `level` after the edge at `edge`."""
        self.settle_at = None
        if level == self.pressed:
            return None
        self.pressed = level
        if level:
            self.held = False
            self.hold_at = edge + self.hold
            return None
        self.hold_at = None
        return None if self.held else "press"

    def advance(self, now: float, edge: float, level: bool | None) -> str | None:
        """Apply the pin's `level` read after the edge at `edge` (None: no read), and/or a due hold;
        returns the event to report, if any."""
        if level is not None:
            if self.last_edge != edge:
                return None  # another edge came while the pin was read: keep settling
            event = self._settle(edge, level)
            if event:
                return event
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
    input on. From the first edge until its input is handed on (a press once released, a hold once
    held), the press is work a player waits on (`foreground`): the e-ink render steps aside so that
    the settle thread answers in time. A button held down for ever stops counting at its hold.
    """

    def __init__(self, pin: int, name: str, on_input: OnInput, *, debounce: float = DEBOUNCE,
                 hold: float = 1.0, pin_factory=None, foreground: Foreground | None = None):
        if debounce <= 0 or hold <= debounce:
            raise ValueError(f"button {name!r}: need 0 < debounce ({debounce}) < hold ({hold})")
        self.name = name
        self.pin = pin
        self.debounce = debounce
        self.hold = hold
        self._on_input = on_input
        self._cond = threading.Condition()
        self._timing = Debounce(debounce, hold, time.monotonic())
        self._foreground = foreground or Foreground()
        self._pressing = False  # counted in the foreground since the first edge
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
            self._done_pressing()
            self._cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(2)
        self.button.close()

    # --- called by gpiozero on every edge (its own thread on a Pi, the caller's with mock pins) ---
    def _edge(self) -> None:
        at = time.monotonic()
        level = self.button.is_active
        with self._cond:
            if not self._pressing:
                self._pressing = True
                self._foreground.begin()
            self._timing.edge(at, level)
            self._cond.notify_all()

    def _done_pressing(self) -> None:
        """Under `_cond`: the press (and its input, handed on) is over."""
        if self._pressing:
            self._pressing = False
            self._foreground.end()

    # --- the settle thread --------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                if self._closed:
                    return
                late = self._timing.take_late()
                now, due = time.monotonic(), self._timing.due()
                if not late and self._timing.idle:
                    self._done_pressing()  # after any input was handed on, below
                if not late and (due is None or due > now):
                    self._cond.wait(None if due is None else due - now)
                    continue
                settling, edge = self._timing.settle_at is not None, self._timing.last_edge
            if late:
                for missed in late:
                    self._emit(missed)
                continue  # then the line's own due moment, looked at afresh
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
