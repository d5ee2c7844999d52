"""Our debounce on real gpiozero Buttons over mock pins: chatter, press, hold."""

from __future__ import annotations

import threading
import time

import pytest

from companion.devices.buttons import Debounce, DebouncedButton

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
    """Keep the line still long enough to settle (how long a finger rests), with margin for a loaded
    machine."""
    time.sleep(debounce * 4)


# --- the debounce itself: a pure state machine, driven here over chosen times -------------------
def run(edges: list[tuple[float, bool]], debounce: float = 0.03, hold: float = 1.0,
        until: float = 60.0) -> list[tuple[float, str]]:
    """The events a button reports for pin `edges` (time, pressed after it), as its thread would
    find them: each due moment is handled before the next edge, the pin read at that moment."""
    timing = Debounce(debounce, hold)
    level, events, pending = False, [], list(edges)
    while True:
        due = timing.due()
        if due is not None and due <= until and (not pending or due < pending[0][0]):
            settling = timing.settle_at is not None
            event = timing.advance(due, timing.last_edge, level if settling else None)
            if event:
                events.append((round(due, 3), event))
            continue
        if not pending:
            return events
        at, level = pending.pop(0)
        timing.edge(at)


def chatter(start: float, edges: int, end_pressed: bool, every: float = 0.001) -> list[tuple[float, bool]]:
    """`edges` bounces from `start`, one every `every` seconds, the last leaving the line `end_pressed`."""
    return [(start + i * every, end_pressed if (edges - i) % 2 == 1 else not end_pressed)
            for i in range(edges)]


def test_a_chatter_storm_then_a_clean_press_gives_exactly_one_press():
    edges = chatter(0.0, 51, True) + chatter(1.0, 21, False)  # pressed for a second, bouncing both ways
    assert run(edges, debounce=0.2, hold=3.0) == [(1.22, "press")]


def test_chatter_that_ends_released_is_no_press():
    assert run(chatter(0.0, 50, False), debounce=0.2) == []


def test_a_press_shorter_than_the_debounce_is_ignored():
    assert run([(0.0, True), (0.1, False)], debounce=0.2) == []


def test_a_hold_gives_one_hold_and_the_release_after_it_says_nothing():
    assert run([(0.0, True), (1.0, False)], debounce=0.02, hold=0.2) == [(0.2, "hold")]


def test_a_release_bouncing_across_the_hold_moment_is_a_press_not_a_hold():
    edges = [(0.0, True), *chatter(0.49, 5, False, every=0.005)]  # bounces from 0.49 to 0.51
    assert run(edges, debounce=0.02, hold=0.5) == [(0.53, "press")]


def test_two_separate_presses_give_two_presses():
    edges = [(0.0, True), (0.1, False), (0.5, True), (0.6, False)]
    assert run(edges, debounce=0.02) == [(0.12, "press"), (0.62, "press")]


def test_an_edge_while_the_pin_is_read_keeps_the_line_settling():
    timing = Debounce(0.02, 1.0)
    timing.edge(0.0)
    read_after = timing.last_edge
    timing.edge(0.015)  # the line moved again while the settle thread read the pin
    assert timing.advance(0.02, read_after, True) is None and not timing.pressed
    assert timing.due() == pytest.approx(0.035)


def test_a_press_that_settled_while_the_settle_thread_was_busy_still_counts():
    timing = Debounce(0.02, 1.0)
    timing.edge(0.0, True)  # nobody reads the pin until after the release (a loaded CPU)
    timing.edge(0.04, False)
    assert timing.take_late() == [] and timing.pressed  # the press that settled unread is kept...
    assert timing.advance(0.07, 0.04, False) == "press" and not timing.pressed  # ...so its release counts


def test_a_hold_that_settled_while_the_settle_thread_was_busy_is_a_hold():
    timing = Debounce(0.02, 0.5)
    timing.edge(0.0, True)
    timing.edge(0.8, False)
    assert timing.take_late() == ["hold"]
    assert timing.advance(0.82, 0.8, False) is None  # the release after a hold says nothing


def test_a_bounce_the_busy_thread_missed_is_still_no_press():
    timing = Debounce(0.02, 1.0)
    timing.edge(0.0, True)
    timing.edge(0.005, False)  # back up before the debounce: a bounce, not a press
    assert timing.take_late() == [] and timing.advance(0.03, 0.005, False) is None


# --- on gpiozero's mock pins, with the settle thread ---------------------------------------------
def test_the_pin_is_pulled_up_and_idle(make_button):
    button, inputs, pin = make_button()
    assert pin.state == 1 and not button.is_pressed


def test_a_real_press_and_a_real_hold_reach_the_handler(make_button):
    button, inputs, pin = make_button(debounce=0.02, hold=0.2)
    pin.drive_low()
    quiet(button.debounce)
    pin.drive_high()
    assert inputs.wait_for(1) == [("roll", "press")]
    pin.drive_low()
    assert inputs.wait_for(2) == [("roll", "press"), ("roll", "hold")]
    assert button.is_pressed
    pin.drive_high()


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
