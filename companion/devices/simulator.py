"""The simulator's pins: gpiozero's mock pins, without the history they keep for tests."""

from __future__ import annotations

from time import monotonic

from gpiozero.pins.mock import MockFactory, MockPin


class SimulatorPin(MockPin):
    """A mock pin that remembers only its last change: gpiozero's keeps every change in `states`, for
    its tests, so a simulator running for days would grow with every LED blink."""

    def _change_state(self, value):
        if self._state != value:
            self._state, self._last_change = value, monotonic()
            return True
        return False


def simulator_pins(pin_class: type[MockPin] = SimulatorPin) -> MockFactory:
    return MockFactory(pin_class=pin_class)
