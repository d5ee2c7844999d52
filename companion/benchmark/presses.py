"""Button to LED and to phone: ROLL pressed on mock pins, through the daemon, to a live page on waitress."""

from __future__ import annotations

import socket
import tempfile
import threading
import time
from functools import partial
from pathlib import Path

from companion.benchmark.process import LivePage
from companion.benchmark.stats import Figure, timed
from companion.config import Config
from companion.devices.simulator import SimulatorPin, simulator_pins
from companion.gamekit.contract import Command

HELD = 0.04  # seconds a finger holds ROLL down: past the settle, as a quick press is


class TimedPin(SimulatorPin):
    """A mock pin that notes when its state last changed (the LED dice are mock LEDs)."""

    changes: list[tuple[float, object]] = []  # (monotonic time, the pin), shared by every pin

    def _change_state(self, value):
        if super()._change_state(value):
            TimedPin.changes.append((self._last_change, self))
            return True
        return False


def measure(presses: int = 1000) -> list[Figure]:
    """Press ROLL `presses` times on free dice; each press waits for the phone to hear the last one."""
    from companion.wiring import Companion

    with tempfile.TemporaryDirectory() as tmp:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        config = Config(state_dir=tmp, host="127.0.0.1", port=port, url=f"http://127.0.0.1:{port}/")
        factory = simulator_pins(TimedPin)
        device = Companion(config, simulate=True, pin_factory=factory).start()
        device.table.call(Command("settle"))  # queued behind the opening game: it is in place after this
        try:
            return _press(device, factory, port, presses, Path(tmp))
        finally:
            device.stop()
            factory.reset()


def _press(device, factory, port: int, presses: int, tmp: Path) -> list[Figure]:
    debounced: list[float] = []
    committed: dict[int, float] = {}
    table = device.table
    real_press = table.press

    def press(key: str):
        debounced.append(time.monotonic())
        return real_press(key)

    table.press = press  # the button's thread calls this: when the debounce let the press through
    noted = threading.Condition()

    def note(update) -> None:
        if not update.rejected:
            with noted:
                committed.setdefault(update.version, time.monotonic())
                noted.notify_all()

    # The last of the table's outputs: a phone may hear a version before this is told it.
    table.subscribe(note)
    leds = {led.pin for die in device.board.dice.dice for led in die.leds.values()}
    phone = LivePage(port)
    phone.wait(table.version)
    roll = factory.pin(device.board.profile.buttons["roll"])
    rows = []
    for _ in range(presses):
        version = table.version
        roll.drive_low()
        time.sleep(HELD)
        released = time.monotonic()
        roll.drive_high()
        heard = phone.wait(version + 1)
        if heard is None:
            raise RuntimeError("a press reached no phone within 10 s")
        press_at = debounced[-1]
        led = next(t for t, pin in TimedPin.changes if t >= press_at and pin in leds)
        with noted:
            if not noted.wait_for(partial(dict.__contains__, committed, version + 1), 10):
                raise RuntimeError("a press the phone heard was never told to the table's outputs")
        rows.append((released, press_at, led, committed[version + 1], heard))
        time.sleep(0.005)
    phone.close()
    return [
        timed("release → phone hears the roll (SSE)", [h - r for r, _, _, _, h in rows], 40),
        timed("release → debounced (the settle)", [p - r for r, p, _, _, _ in rows], 30),
        timed("debounced → first LED change", [led - p for _, p, led, _, _ in rows], 5),
        timed("debounced → value durable (commit)", [c - p for _, p, _, c, _ in rows]),
        timed("debounced → phone hears it (SSE)", [h - p for _, p, _, _, h in rows]),
    ]
