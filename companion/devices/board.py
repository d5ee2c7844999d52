"""The device's buttons, LED dice and status LED, built from a pin profile on real or mock pins."""

from __future__ import annotations

import threading
import time

from gpiozero import LED
from gpiozero.exc import GPIOZeroError
from gpiozero.pins.mock import MockFactory

from companion.devices.buttons import DEBOUNCE, DebouncedButton, OnInput
from companion.devices.leds import LedDice, LedDie
from companion.devices.profile import Profile
from companion.foreground import Foreground

# Rejection feedback on the status LED (normally lit): dark, lit, dark, each this long, then lit.
REJECT_BLINK = (0.12, 0.1, 0.12)


class BoardError(RuntimeError):
    """A pin of the profile could not be claimed; the message names the profile's file and key."""


class Board:
    """Everything on the GPIO header: `buttons` by name, `dice`, and the optional `status` LED.

    `on_input(name, "press" | "hold")` comes from the buttons' own threads. With a
    `gpiozero.pins.mock.MockFactory` as `pin_factory` the board is simulated, and `press()`
    works the mock pins for the device twin page.
    """

    def __init__(self, profile: Profile, on_input: OnInput, pin_factory=None, debounce: float = DEBOUNCE,
                 hold: float = 1.0, foreground: Foreground | None = None):
        self.profile = profile
        self.buttons: dict[str, DebouncedButton] = {}
        self.dice = LedDice([])
        self.status: LED | None = None
        self._status_cond = threading.Condition()
        self._status_generation = 0
        self._press_locks: dict[str, threading.Lock] = {}
        self._closed = False
        key = ""
        try:
            for name, pin in profile.buttons.items():
                key = f"buttons.{name}"
                self.buttons[name] = DebouncedButton(pin, name, on_input, debounce=debounce, hold=hold,
                                                     pin_factory=pin_factory, foreground=foreground)
                self._press_locks[name] = threading.Lock()
            dice = []
            for i, die in enumerate(profile.dice):
                key = f"dice[{i}]"
                dice.append(LedDie(die.centre, die.diagonal, die.antidiagonal, die.middle,
                                   pin_factory=pin_factory))
            self.dice = LedDice(dice)
            if profile.status_led is not None:
                key = "status_led"
                self.status = LED(profile.status_led, pin_factory=pin_factory)
                self.status.on()  # lit while the companion runs
        except (GPIOZeroError, OSError) as exc:
            self.close()
            raise BoardError(f"{profile.source}: key '{key}': cannot claim the pin ({type(exc).__name__}: "
                             f"{exc}). Off a Raspberry Pi, run `companion demo`; on one, check that no other "
                             "program uses the pin and that the service user is in the gpio group.") from exc
        except Exception:
            self.close()
            raise

    @property
    def simulated(self) -> bool:
        """True on gpiozero's mock pins (the simulator), where press() may drive the buttons."""
        return any(isinstance(b.button.pin_factory, MockFactory) for b in self.buttons.values())

    def reject(self) -> None:
        """Visible feedback that an input was refused, at once; changes no state.

        Blinks the status LED, or flashes the LED dice when the profile has none. The first change
        happens before this returns; the rest of the pattern runs on a timer thread.
        """
        if self.status is None:
            self.dice.flash()
            return
        with self._status_cond:
            self._status_generation += 1
            generation = self._status_generation
            self._status_cond.notify_all()
            if not self._closed:
                self.status.off()
        threading.Thread(target=self._blink, args=(self.status, generation), name="status-blink",
                         daemon=True).start()

    def press(self, name: str, hold: bool = False) -> threading.Thread:
        """Press a simulated button: drive its mock pin low, wait, then high, so our real debounce and
        button map run. Returns at once (an HTTP request must not wait out a 1 s hold); the returned
        thread ends once the button is released and settled. Presses of one button queue up."""
        if name not in self.buttons:
            raise ValueError(f"unknown button {name!r}; this board has {', '.join(self.buttons)}")
        button = self.buttons[name]
        factory = button.button.pin_factory
        if not isinstance(factory, MockFactory):
            raise RuntimeError(f"button {name!r} is on real GPIO ({type(factory).__name__}): press() only "
                               "drives the simulator's mock pins; press the real button instead")
        # Long enough to settle through the debounce; a hold outlasts the hold time by the same margin.
        settle = max(3 * button.debounce, 0.05)
        low = button.hold + settle if hold else min(settle, (button.hold + button.debounce) / 2)
        thread = threading.Thread(target=self._drive, args=(name, low, settle), name=f"twin-press-{name}",
                                  daemon=True)
        thread.start()
        return thread

    def snapshot(self) -> dict:
        """The board for the twin page, JSON-ready: the dice faces (None for dark), the status LED
        and the button names."""
        return {
            "dice": self.dice.faces,
            "status": bool(self.status is not None and self.status.is_lit),
            "buttons": list(self.buttons),
        }

    def close(self) -> None:
        with self._status_cond:
            self._closed = True
            self._status_generation += 1
            self._status_cond.notify_all()
        for button in self.buttons.values():
            button.close()
        self.dice.close()
        if self.status is not None:
            self.status.off()
            self.status.close()

    def _drive(self, name: str, low: float, settle: float) -> None:
        pin = self.buttons[name].button.pin
        with self._press_locks[name]:
            if self._closed:
                return
            pin.drive_low()
            time.sleep(low)
            pin.drive_high()
            time.sleep(settle)  # the next queued press starts only once this release has settled

    def _blink(self, status: LED, generation: int) -> None:
        lit = False
        for step, pause in enumerate(REJECT_BLINK):
            with self._status_cond:
                if step:
                    lit = not lit
                    if self._status_generation != generation or self._closed:
                        return
                    status.value = lit
                if self._status_cond.wait_for(lambda: self._status_generation != generation, pause):
                    return
        with self._status_cond:
            if self._status_generation == generation and not self._closed:
                status.on()
