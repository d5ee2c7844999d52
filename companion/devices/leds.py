"""LED dice: four gpiozero LEDs per die (centre, two diagonals, middle pair), rolled and held."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from gpiozero import LED

log = logging.getLogger(__name__)

LINES = ("centre", "diagonal", "antidiagonal", "middle")

# Which LED groups light each face. A die's 7 pips need only 4 lines: the centre pip, one diagonal
# pair (top-left and bottom-right), the other diagonal pair, and the middle pair (left and right).
FACES: dict[int, frozenset[str]] = {
    1: frozenset({"centre"}),
    2: frozenset({"diagonal"}),
    3: frozenset({"centre", "diagonal"}),
    4: frozenset({"diagonal", "antidiagonal"}),
    5: frozenset({"centre", "diagonal", "antidiagonal"}),
    6: frozenset({"diagonal", "antidiagonal", "middle"}),
}
_FACE_OF = {lines: face for face, lines in FACES.items()}

Faces = list[int | None]  # one per die; None is a dark die


class LedDie:
    """One die of 7 LEDs on 4 GPIO lines (BCM numbers), each line driving its LEDs through a resistor."""

    def __init__(self, centre: int, diagonal: int, antidiagonal: int, middle: int, pin_factory=None):
        self.pins = {"centre": centre, "diagonal": diagonal, "antidiagonal": antidiagonal, "middle": middle}
        self.leds: dict[str, LED] = {}
        try:
            for line, pin in self.pins.items():
                self.leds[line] = LED(pin, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def light(self, lines: Iterable[str]) -> None:
        """Light exactly `lines`; every other line goes dark."""
        lit = set(lines)
        for line, led in self.leds.items():
            if line in lit:
                led.on()
            else:
                led.off()

    def set(self, face: int | None) -> None:
        """Show `face` (1-6), or go dark for None."""
        self.light(FACES[face] if face is not None else ())

    @property
    def face(self) -> int | None:
        """The face the LEDs show now, read back from them; None when dark or not a face (a flash)."""
        return _FACE_OF.get(frozenset(line for line, led in self.leds.items() if led.is_lit))

    def close(self) -> None:
        for led in self.leds.values():
            led.close()


class LedDice:
    """The table's LED dice. Every call returns at once; animations run on one thread of their own.

    The newest call wins: a roll, show, number or flash started during an animation stops it.
    """

    FRAME = 0.07  # seconds per animation frame at the start of a roll; later frames slow down

    def __init__(self, dice: Sequence[LedDie]):
        self.dice = list(dice)
        self._cond = threading.Condition()
        self._generation = 0
        self._held: Faces = [None] * len(self.dice)  # what the dice show once any animation ends
        self._closed = False
        self._tumbling: int | None = None  # the generation of a tumble whose faces are still to come
        self._next: tuple[Callable[..., None], tuple[Any, ...]] | None = None  # the animation to run next
        self._running = False  # whether an animation is running now (a superseded one ends at its next step)
        self._animator: threading.Thread | None = None  # the one thread animating, made at the first roll

    def roll(self, values: Sequence[int | None], duration: float = 0.6) -> None:
        """Tumble the dice for `duration` seconds, then hold `values`. If a tumble started by
        `tumble()` is running, it goes on and ends on `values`."""
        faces = self._check(values)
        with self._cond:
            if self._tumbling is not None and self._tumbling == self._generation:
                self._held = faces  # the running tumble ends on these
                return
        generation = self._begin(faces)
        self._animate(self._tumble, generation, faces, duration)

    def tumble(self, duration: float = 0.6) -> None:
        """Start tumbling now, before the values are known: the first frame is lit before this returns,
        the rest runs on a timer; `roll()` then gives the faces the tumble ends on."""
        with self._cond:
            generation = self._begin(self._held)  # if no values come (the command failed), the old stay
            self._tumbling = generation
            now = [die.face for die in self.dice]
            # A roll right after another must visibly start again: never on the frame already lit.
            start = next(k for k in range(6) if _tumble_frame(k, len(self.dice)) != now)
            self._set(_tumble_frame(start, len(self.dice)))
        self._animate(self._tumble, generation, None, duration, start)

    def show(self, values: Sequence[int | None]) -> None:
        """Hold `values` at once (None or a missing value is a dark die)."""
        faces = self._check(values)
        with self._cond:
            self._begin(faces)
            self._set(faces)

    def number(self, n: int) -> None:
        """Show `n` (1-6) on the first die, the others dark: value entry for games that ask for one."""
        if not _is_face(n):
            raise ValueError(f"a die shows 1 to 6, not {n!r}")
        self.show([n])

    @property
    def faces(self) -> Faces:
        """What the dice show now, read from the LEDs (None for a dark die)."""
        with self._cond:
            return [die.face for die in self.dice]

    def flash(self, pattern: Sequence[float] = (0.12, 0.1, 0.12)) -> None:
        """Blink every LED: lit for pattern[0] s, dark for pattern[1] s, lit... then the held faces
        come back. The first step happens before this returns, so the feedback is immediate."""
        if not pattern:
            return
        with self._cond:
            generation = self._begin(self._held)
            self._light_all(True)
        self._animate(self._blink, generation, list(pattern))

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no animation runs any more, so the faces shown are final; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self._next is None and not self._running, timeout)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._next = None
            self._generation += 1
            self._cond.notify_all()
            for die in self.dice:
                die.close()

    # --- internals: every LED write happens under the lock, by the newest generation only -----
    def _animate(self, step, *args) -> None:
        """Run `step(*args)` on the dice's one animation thread: the animation it supersedes ends at its
        next frame. One long-lived thread, not one per roll: on a Pi Zero a thread's start is felt."""
        with self._cond:
            if self._closed:
                return
            self._next = (step, args)
            if self._animator is None:
                self._animator = threading.Thread(target=self._animate_all, name="dice", daemon=True)
                self._animator.start()
            self._cond.notify_all()

    def _animate_all(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._next is not None or self._closed)
                if self._closed:
                    return
                job, self._next = self._next, None
                assert job is not None  # the wait ends on a job or on close
                step, args = job
                self._running = True
            try:
                step(*args)
            except Exception:
                log.exception("an LED animation failed; the dice keep what they show")
            finally:
                with self._cond:
                    self._running = False
                    self._cond.notify_all()

    def _check(self, values: Sequence[int | None]) -> Faces:
        faces = list(values)
        for value in faces:
            if value is not None and not _is_face(value):
                raise ValueError(f"a die shows 1 to 6 (or None for dark), not {value!r}")
        if len(faces) > len(self.dice):
            # A game may use more dice than this build has LED dice: the e-ink shows them all.
            log.debug("showing %d of %d dice on the LEDs", len(self.dice), len(faces))
        return (faces + [None] * len(self.dice))[:len(self.dice)]

    def _begin(self, held: Faces) -> int:
        with self._cond:
            self._generation += 1
            self._held = list(held)
            self._cond.notify_all()
            return self._generation

    def _set(self, faces: Faces) -> None:
        if not self._closed:
            for die, face in zip(self.dice, faces, strict=True):
                die.set(face)

    def _light_all(self, on: bool) -> None:
        if not self._closed:
            for die in self.dice:
                die.light(LINES if on else ())

    def _pause(self, generation: int, seconds: float) -> bool:
        """Wait `seconds` unless a newer call comes; True if this generation may go on."""
        with self._cond:
            self._cond.wait_for(lambda: self._generation != generation, seconds)
            return self._generation == generation

    def _tumble(self, generation: int, faces: Faces | None, duration: float, start: int = 0) -> None:
        steps = _frame_times(duration, self.FRAME)
        for k, pause in enumerate(steps):
            with self._cond:
                if self._generation != generation:
                    return
                self._set(_tumble_frame(start + k, len(self.dice)))
            if not self._pause(generation, pause):
                return
        with self._cond:
            if self._generation == generation:
                self._tumbling = None
                self._set(self._held if faces is None else faces)

    def _blink(self, generation: int, pattern: list[float]) -> None:
        for step, pause in enumerate(pattern):
            if step:
                with self._cond:
                    if self._generation != generation:
                        return
                    self._light_all(step % 2 == 0)
            if not self._pause(generation, pause):
                return
        with self._cond:
            if self._generation == generation:
                self._set(self._held)


def _tumble_frame(k: int, dice: int) -> Faces:
    # Each die runs through the faces from its own start, so they never look in step.
    return [(k + 2 * i) % 6 + 1 for i in range(dice)]


def _is_face(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6


def _frame_times(duration: float, first: float) -> list[float]:
    """Frame lengths that add up to `duration` and grow, like a die slowing down."""
    if duration <= 0:
        return []
    frames = max(1, round(duration / (first * 1.5)))
    weights = [1 + k / frames for k in range(frames)]
    total = sum(weights)
    return [duration * w / total for w in weights]
