"""LED dice on real gpiozero LEDs over mock pins: faces, rolls, flashes, read-back."""

from __future__ import annotations

import threading
import time

import pytest
from polling import eventually

from companion.devices.leds import FACES, LedDice, LedDie

# BCM pins of three dice: centre, diagonal, antidiagonal, middle.
WIRING = [(12, 13, 19, 26), (18, 20, 21, 23), (7, 9, 14, 15)]
LINES = ("centre", "diagonal", "antidiagonal", "middle")

EXPECTED = {  # the lines each face lights, written out independently of FACES
    1: {"centre"},
    2: {"diagonal"},
    3: {"centre", "diagonal"},
    4: {"diagonal", "antidiagonal"},
    5: {"centre", "diagonal", "antidiagonal"},
    6: {"diagonal", "antidiagonal", "middle"},
}


@pytest.fixture
def dice(factory):
    dice = LedDice([LedDie(*pins, pin_factory=factory) for pins in WIRING])
    yield dice
    dice.close()


def lit_lines(factory, die: int) -> set[str]:
    """Which lines of die `die` are high, read straight from the mock pins."""
    return {line for line, pin in zip(LINES, WIRING[die], strict=True) if factory.pin(pin).state}


@pytest.mark.parametrize("face", range(1, 7))
def test_every_face_lights_exactly_its_lines(factory, dice, face):
    dice.show([face, face, face])
    for die in range(3):
        assert lit_lines(factory, die) == EXPECTED[face]
    assert dice.faces == [face] * 3


def test_the_face_table_has_seven_pips_worth_of_lines():
    pips = {"centre": 1, "diagonal": 2, "antidiagonal": 2, "middle": 2}
    assert {face: sum(pips[line] for line in lines) for face, lines in FACES.items()} == {
        f: f for f in range(1, 7)}


def test_missing_values_are_dark_dice_and_read_back_as_none(factory, dice):
    dice.show([5])
    assert dice.faces == [5, None, None]
    assert lit_lines(factory, 1) == set() and lit_lines(factory, 2) == set()


def test_extra_values_beyond_the_led_dice_are_left_to_the_e_ink(factory):
    two = LedDice([LedDie(*pins, pin_factory=factory) for pins in WIRING[:2]])
    try:
        two.show([1, 2, 3])
        assert two.faces == [1, 2]
    finally:
        two.close()


@pytest.mark.parametrize("bad", [0, 7, "3", True, 2.0])
def test_a_value_that_is_not_a_face_is_refused(dice, bad):
    with pytest.raises(ValueError, match="1 to 6"):
        dice.show([bad])
    with pytest.raises(ValueError, match="1 to 6"):
        dice.roll([bad])


def test_roll_returns_at_once_then_holds_the_final_faces(factory, dice):
    dice.roll([6, 6, 6], duration=30)
    # Animation frames never show three equal faces, so this is still the tumble, 30 s to go.
    assert dice.faces != [6, 6, 6]
    dice.roll([3, 5, 1], duration=0.3)
    assert dice.wait_idle(5)  # both animations are over: what is shown now stays
    assert dice.faces == [3, 5, 1]
    assert [lit_lines(factory, d) for d in range(3)] == [EXPECTED[3], EXPECTED[5], EXPECTED[1]]


def test_the_dice_tumble_through_several_faces(dice):
    dice.roll([2, 2, 2], duration=1.0)
    seen = set()
    deadline = time.monotonic() + 0.8
    while time.monotonic() < deadline:
        seen.add(tuple(dice.faces))
        time.sleep(0.01)
    assert len(seen) >= 3
    assert eventually(lambda: dice.faces == [2, 2, 2])


def test_a_new_roll_during_an_animation_wins(dice):
    dice.roll([1, 1, 1], duration=0.5)
    dice.roll([6, 5, 4], duration=0.1)
    assert dice.wait_idle(5)  # the first roll's thread has ended too: it cannot come back
    assert dice.faces == [6, 5, 4]


def test_every_animation_runs_on_one_thread_not_one_per_roll(dice):
    before = {t.ident for t in threading.enumerate()}
    for k in range(5):
        dice.tumble(duration=0.3)
        dice.roll([k % 6 + 1] * 3)
        dice.flash((0.01, 0.01, 0.01))
    started = [t for t in threading.enumerate() if t.ident not in before]
    assert len(started) == 1 and started[0].name == "dice"
    assert dice.wait_idle(5)
    assert dice.faces == [5, 5, 5]  # the flash ended on the faces last held


def test_show_during_an_animation_wins(dice):
    dice.roll([1, 1, 1], duration=0.4)
    dice.show([2, 3, 4])
    assert dice.faces == [2, 3, 4]
    assert dice.wait_idle(5)
    assert dice.faces == [2, 3, 4]


def test_number_shows_a_value_on_the_first_die_only(factory, dice):
    dice.show([6, 6, 6])
    dice.number(4)
    assert dice.faces == [4, None, None]
    with pytest.raises(ValueError):
        dice.number(9)


def test_flash_lights_everything_at_once_then_restores_the_faces(factory, dice):
    dice.show([2, 4, 6])
    dice.flash((0.1, 0.05, 0.1))
    assert all(lit_lines(factory, d) == set(LINES) for d in range(3))  # before flash() returned
    assert eventually(lambda: dice.faces == [2, 4, 6])


def test_a_roll_during_a_flash_wins(dice):
    dice.show([1, 1, 1])
    dice.flash((0.3, 0.3, 0.3))
    dice.show([5, 5, 5])
    assert dice.faces == [5, 5, 5]
    assert dice.wait_idle(5)
    assert dice.faces == [5, 5, 5]


def test_close_releases_the_pins(factory):
    dice = LedDice([LedDie(*WIRING[0], pin_factory=factory)])
    dice.close()
    again = LedDie(*WIRING[0], pin_factory=factory)
    again.close()


# --- rejection feedback on the board ------------------------------------------------------
def make_board(factory, profile_text: str | None = None):
    from companion.devices.board import Board
    from companion.devices.profile import load_profile, parse_profile

    profile = parse_profile(profile_text, "test") if profile_text else load_profile("impression-7in3")
    return Board(profile, lambda name, kind: None, pin_factory=factory)


def changes_within(pin, before: int, seconds: float) -> float | None:
    """How long after now `pin` leaves `before`, or None if it does not within `seconds`."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if pin.state != before:
            return time.monotonic() - start
    return None


def test_reject_blinks_the_status_led_within_50_ms_then_it_is_lit_again(factory):
    board = make_board(factory)
    try:
        status = factory.pin(4)
        board.dice.show([3, 4, 5])
        assert status.state == 1 and board.snapshot()["status"] is True
        start = time.monotonic()
        board.reject()
        latency = changes_within(status, 1, 0.5)
        assert latency is not None and time.monotonic() - start < 0.05, latency
        assert eventually(lambda: status.state == 1 and board.snapshot()["status"])
        assert board.dice.faces == [3, 4, 5]  # feedback only: nothing else changed
    finally:
        board.close()


def test_reject_without_a_status_led_flashes_the_dice_within_50_ms(factory):
    original = load_text("what-buttons")
    text = original.replace("status_led = 4\n", "")
    assert text != original
    board = make_board(factory, text)
    try:
        board.dice.show([1, 6])
        start = time.monotonic()
        board.reject()
        latency = changes_within(factory.pin(13), 0, 0.5)  # die 1's diagonal: dark on a 1
        assert latency is not None and time.monotonic() - start < 0.05, latency
        assert eventually(lambda: board.dice.faces == [1, 6])
        assert board.snapshot() == {"dice": [1, 6], "status": False, "buttons": ["a", "b", "c", "d", "roll"]}
    finally:
        board.close()


def test_a_roll_after_a_reject_is_not_undone_by_the_blink(factory):
    board = make_board(factory)
    try:
        board.reject()
        board.dice.roll([2, 2, 2], duration=0.1)
        assert eventually(lambda: board.dice.faces == [2, 2, 2])
        assert eventually(lambda: factory.pin(4).state == 1)
    finally:
        board.close()


def load_text(name: str) -> str:
    from importlib.resources import files

    return files("companion.hardware").joinpath("profiles").joinpath(f"{name}.toml").read_text("utf-8")


def test_a_tumble_lights_at_once_and_the_roll_that_follows_gives_its_faces(dice):
    dice.show([1, 2, 3])
    dice.tumble(duration=0.3)
    assert dice.faces != [1, 2, 3]  # the first frame is lit before tumble() returns
    dice.roll([6, 5, 4])  # the values, once durable: the running tumble ends on them
    assert dice.wait_idle(5)
    assert dice.faces == [6, 5, 4]


def test_a_tumble_whose_values_never_come_ends_on_the_faces_it_started_from(dice):
    dice.show([1, 2, 3])
    dice.tumble(duration=0.2)  # the command failed to save: no roll() follows
    assert dice.wait_idle(5)
    assert dice.faces == [1, 2, 3]


def test_a_roll_right_after_another_visibly_starts_again(dice):
    dice.tumble(duration=5)
    shown = dice.faces
    dice.tumble(duration=5)  # within the same animation frame
    assert dice.faces != shown
