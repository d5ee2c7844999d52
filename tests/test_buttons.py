"""Our debounce on real gpiozero Buttons over mock pins: chatter, press, hold."""

from __future__ import annotations

import threading
import time

import pytest

from companion.devices.buttons import DebouncedButton

PIN = 5


class Inputs:
    """Collects on_input calls and lets a test wait for them."""

    def __init__(self):
        self.events: list[tuple[str, str]] = []
        self._cond = threading.Condition()

    def __call__(self, name: str, kind: str) -> None:
        with self._cond:
            self.events.append((name, kind))
            self._cond.notify_all()

    def wait_for(self, count: int, timeout: float = 5.0) -> list[tuple[str, str]]:
        with self._cond:
            self._cond.wait_for(lambda: len(self.events) >= count, timeout)
            return list(self.events)


@pytest.fixture
def make_button(factory):
    made = []

    def make(debounce=0.03, hold=1.0):
        inputs = Inputs()
        button = DebouncedButton(PIN, "roll", inputs, debounce=debounce, hold=hold, pin_factory=factory)
        made.append(button)
        return button, inputs, factory.pin(PIN)
    yield make
    for button in made:
        button.close()


def quiet(debounce: float) -> None:
    """Let the line settle, with margin for a loaded machine."""
    time.sleep(debounce * 4)


def test_the_pin_is_pulled_up_and_idle(make_button):
    button, inputs, pin = make_button()
    assert pin.state == 1 and not button.is_pressed
    quiet(button.debounce)
    assert inputs.events == []


def test_a_chatter_storm_then_a_clean_press_gives_exactly_one_press(make_button):
    button, inputs, pin = make_button(debounce=0.2, hold=3.0)
    for _ in range(25):  # 50 edges in well under the 0.2 s window
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    quiet(button.debounce)
    assert button.is_pressed and inputs.events == []
    for _ in range(10):  # the release bounces too
        pin.drive_high()
        pin.drive_low()
    pin.drive_high()
    assert inputs.wait_for(1) == [("roll", "press")]
    quiet(button.debounce)
    assert inputs.events == [("roll", "press")]


def test_chatter_that_ends_released_is_no_press(make_button):
    button, inputs, pin = make_button(debounce=0.2)
    for _ in range(25):
        pin.drive_low()
        pin.drive_high()
    quiet(button.debounce)
    assert inputs.events == [] and not button.is_pressed


def test_a_hold_gives_one_hold_and_no_press(make_button):
    button, inputs, pin = make_button(debounce=0.02, hold=0.2)
    pin.drive_low()
    assert inputs.wait_for(1) == [("roll", "hold")]
    assert button.is_pressed
    pin.drive_high()
    quiet(button.debounce)
    time.sleep(button.hold)
    assert inputs.events == [("roll", "hold")]


def test_two_separate_presses_give_two_presses(make_button):
    button, inputs, pin = make_button(debounce=0.02, hold=1.0)
    for _ in range(2):
        pin.drive_low()
        quiet(button.debounce)
        pin.drive_high()
        quiet(button.debounce)
    assert inputs.wait_for(2) == [("roll", "press"), ("roll", "press")]


def test_a_press_shorter_than_the_debounce_is_ignored(make_button):
    button, inputs, pin = make_button(debounce=0.2, hold=1.0)
    pin.drive_low()
    pin.drive_high()
    quiet(button.debounce)
    assert inputs.events == []


def test_a_failing_handler_does_not_kill_the_button(factory):
    calls = []

    def handler(name, kind):
        calls.append(kind)
        raise RuntimeError("handler bug")

    button = DebouncedButton(PIN, "a", handler, debounce=0.02, hold=1.0, pin_factory=factory)
    try:
        pin = factory.pin(PIN)
        for _ in range(2):
            pin.drive_low()
            quiet(0.02)
            pin.drive_high()
            quiet(0.02)
        deadline = time.monotonic() + 5
        while len(calls) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert calls == ["press", "press"]
    finally:
        button.close()


def test_close_releases_the_pin_for_reuse(factory):
    button = DebouncedButton(PIN, "a", Inputs(), pin_factory=factory)
    button.close()
    again = DebouncedButton(PIN, "a", Inputs(), pin_factory=factory)
    again.close()


def test_a_hold_shorter_than_the_debounce_is_refused(factory):
    with pytest.raises(ValueError, match="debounce"):
        DebouncedButton(PIN, "a", Inputs(), debounce=0.5, hold=0.1, pin_factory=factory)


# --- the board's buttons: built from a profile, pressed by the twin page ------------------
@pytest.fixture
def board(factory):
    from companion.devices.board import Board
    from companion.devices.profile import load_profile

    inputs = Inputs()
    board = Board(load_profile("impression-7in3"), inputs, pin_factory=factory, debounce=0.02, hold=0.3)
    board.inputs = inputs
    yield board
    board.close()


def test_the_board_makes_a_button_per_profile_entry(board, factory):
    assert list(board.buttons) == ["a", "b", "c", "d", "roll"]
    assert board.simulated
    assert board.snapshot()["buttons"] == ["a", "b", "c", "d", "roll"]
    factory.pin(25).drive_low()  # ROLL is GPIO 25 in this profile
    quiet(0.02)
    factory.pin(25).drive_high()
    assert board.inputs.wait_for(1) == [("roll", "press")]


def test_press_returns_at_once_and_runs_the_real_debounce(board, factory):
    done = board.press("a")
    assert board.inputs.events == []  # the pin is still low: nothing has settled yet
    done.join(5)
    assert board.inputs.wait_for(1) == [("a", "press")]
    assert factory.pin(5).state == 1


def test_press_with_hold_gives_a_hold(board):
    board.press("d", hold=True).join(5)
    assert board.inputs.wait_for(1) == [("d", "hold")]


def test_quick_presses_of_one_button_queue_up_and_all_count(board):
    threads = [board.press("b") for _ in range(3)]
    for thread in threads:
        thread.join(5)
    assert board.inputs.wait_for(3) == [("b", "press")] * 3


def test_press_of_an_unknown_button_names_the_real_ones(board):
    with pytest.raises(ValueError, match="a, b, c, d, roll"):
        board.press("e")
