"""The daemon's wiring: buttons become commands, refusals are seen, a broken panel is survived."""

from __future__ import annotations

import logging

import pytest
from daemon_process import free_port
from polling import eventually
from simulator import running_simulator

from companion.config import Config
from companion.devices.display import InkyDisplay
from companion.devices.refresh import Refresher
from companion.wiring import Companion


@pytest.fixture
def companion(tmp_path):
    with running_simulator(tmp_path, url="http://table.local/") as running:
        yield running


def press(companion, button: str, hold: bool = False) -> None:
    companion.board.press(button, hold=hold).join(5)


def test_roll_button_rolls_and_the_led_dice_hold_the_roll(companion):
    press(companion, "roll")
    assert eventually(lambda: companion.table.latest.public["rolls"] == 1)
    last = companion.table.latest.public["last"]
    assert eventually(lambda: companion.board.dice.faces[:len(last)] == last, timeout=5)


def test_button_a_changes_the_number_of_dice(companion):
    count = companion.table.latest.public["count"]
    press(companion, "a")
    assert eventually(lambda: companion.table.latest.public["count"] == count % 3 + 1)


def wait_for_status_blink(companion, action) -> bool:
    status = companion.board.status.pin
    assert eventually(lambda: status.state == 1)
    action()
    return bool(eventually(lambda: status.state == 0, timeout=2, every=0.001))


def refusals(companion) -> list:
    """The refused presses the table publishes, as they come."""
    seen: list = []
    companion.table.subscribe(lambda update: update.rejected and update.pressed and seen.append(update))
    return seen


def test_a_button_with_no_meaning_blinks_the_status_led_and_changes_nothing(companion):
    before, seen = companion.table.latest, refusals(companion)
    assert wait_for_status_blink(companion, lambda: press(companion, "b"))
    assert eventually(lambda: seen) and seen[0].pressed == "b"  # the table has answered the press
    assert companion.table.latest is before


def test_a_refused_button_command_blinks_and_changes_nothing(companion):
    before, seen = companion.table.latest, refusals(companion)  # a fresh game: nothing to undo
    assert wait_for_status_blink(companion, lambda: press(companion, "d"))
    assert eventually(lambda: seen) and seen[0].command.kind == "undo"
    assert companion.table.latest is before


def test_a_failing_panel_does_not_stop_the_rest(tmp_path, caplog):
    """inky's real driver, here with no SPI or GPIO chip: show() fails at every try."""
    config = Config(state_dir=str(tmp_path), host="127.0.0.1", port=free_port(), url="http://table.local/")
    running = Companion(config, simulate=True)
    running.display = InkyDisplay(running.model)
    running.refresher = Refresher(running.display, running._render, backoff=(0.05, 0.2))
    with caplog.at_level(logging.INFO):
        running.start()
        try:
            for _ in range(3):
                press(running, "roll")
            assert eventually(lambda: running.table.latest.public["rolls"] == 3)
            last = running.table.latest.public["last"]
            assert eventually(lambda: running.board.dice.faces[:len(last)] == last, timeout=5)
            assert eventually(lambda: running.refresher.failures >= 3, timeout=5), "no retry"
            assert running.display.png == b"" and running.frame_version == 0
        finally:
            running.stop()
    failures = [r for r in caplog.records if "e-ink" in r.getMessage() and r.levelno >= logging.ERROR]
    assert len(failures) == 1, [r.getMessage() for r in failures]


def test_a_long_press_on_d_makes_a_new_host_link_and_join_code(companion):
    roster = companion.table.roster
    roster_before = (companion.table.host_token(), roster.join_code())
    companion.table.seating(lambda r, count: r.claim_host(roster_before[1]))
    assert roster.host_claimed()
    version = companion.table.version
    assert companion.refresher.wait_idle(10)
    frames = companion.refresher.shown
    press(companion, "d", hold=True)
    assert eventually(lambda: companion.table.host_token() != roster_before[0])
    assert roster.join_code() != roster_before[1] and not roster.host_claimed()
    assert companion.table.version == version  # not a game move: nothing to undo
    # only the join code changed, so a new picture on the glass is the new code
    assert eventually(lambda: companion.refresher.shown > frames, timeout=10)


def test_the_simulators_pins_keep_no_history_so_a_long_run_does_not_grow(companion):
    die = companion.board.dice.dice[0]
    pin = die.leds["centre"].pin
    for face in [1, 2] * 500:
        die.set(face)  # the centre pip goes on and off a thousand times
    assert len(pin.states) == 1  # gpiozero's own mock pins would hold a thousand changes
    assert die.leds["centre"].is_lit is False
