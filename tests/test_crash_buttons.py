"""Crash! at the device: every command the rules allow can be entered with A-D and ROLL; the LED dice."""

from __future__ import annotations

import msgspec
import pytest
from crash_play import (
    NORTH,
    SOUTH,
    arranged,
    game,
    keys_for,
    legal_commands,
    play,
    random_command,
    showcase,
    steering,
)
from device_input import HANDLED, Device
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.gamekit import ScriptedDraws
from companion.gamekit.contract import Command
from companion.games.crash import SPEC, rules
from companion.games.crash.controls import Ending, Steer, dice_shown

SHOWCASE = showcase()


def view_of(state) -> dict:
    return SPEC.public_json(state)


def enter(view: dict, keys: list[str]):
    """Press `keys` from no input; every press but the last must only move the input along."""
    device = Device(SPEC, view)
    for key in keys[:-1]:
        assert device.press(key) is HANDLED, (keys, key)
    return device.press(keys[-1])


def check_every_command_is_enterable(state) -> None:
    view = view_of(state)
    for command in legal_commands(state):
        assert enter(view, keys_for(command, view)) == command, command
    # and nothing the rules would refuse: no key starts a manoeuvre for a die that cannot steer
    for i, die in enumerate(view["dice"]):
        if view["mode"] == "board" and not die["usable"]:
            assert Device(SPEC, view).press("abc"[i]) is None


@pytest.mark.parametrize("label", list(SHOWCASE))
def test_every_command_of_each_moment_can_be_entered(label):
    check_every_command_is_enterable(SHOWCASE[label])


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.data_too_large])
@given(data=st.data())
def test_every_command_of_random_play_can_be_entered(data):
    """Random legal games (each choice a hypothesis draw): at every step, every legal command, each turn to
    each facing and each move of each free die, is reachable from the buttons."""
    options = data.draw(st.fixed_dictionaries({"sixty": st.booleans(), "dice_only": st.sampled_from(
        [False, False, True]), "games": st.sampled_from([1, 2]), "stall_turns": st.integers(1, 6)}))

    def pick(items):
        return data.draw(st.sampled_from(list(items)))

    draws = ScriptedDraws(pick=lambda n: pick(range(n)))
    state = game(**options)
    for _ in range(60):
        check_every_command_is_enterable(state)
        if state.phase == rules.OVER and state.match.over:
            break
        state, _events = SPEC.play(state, random_command(state, pick), draws)


def test_a_die_is_taken_then_turned_left_right_or_moved_and_d_confirms():
    view = view_of(SHOWCASE["steering"])  # North's dice: 1, 1 (rolled again from 5), 4 lost
    device = Device(SPEC, view)
    assert device.press("c") is None  # the lost die
    assert device.press("b") is HANDLED and device.entry == Steer(1, 1)
    assert device.leds() == [1]  # die 1 the car; nothing chosen yet
    assert device.press("d") is None  # nothing to confirm
    # Car 1 faces south-west: one edge clockwise is north-west (the 6th direction from north).
    assert device.press("b") is HANDLED and device.leds() == [1, 6]
    assert device.shown() == {"steer": {"die": 1, "car": 1, "facing": "nw", "move": False}}
    assert device.press_all("a a") is HANDLED and device.leds() == [1, 4]  # two edges back: south
    assert device.press("c") is HANDLED and device.leds() == [1, 1, 1]  # a move: the car on all three
    assert device.shown()["steer"] == {"die": 1, "car": 1, "facing": None, "move": True}
    assert device.press("roll") is HANDLED and device.entry is None  # ROLL drops the die
    assert device.press_all("a a d") == Command("turn", {"car": 1, "facing": "s"})  # die 1, one edge left


def test_sixty_degree_turns_take_one_edge_per_die():
    state = steering(arranged(game(sixty=True), {(NORTH, 2): ((-2, -1), "s"), (SOUTH, 6): ((-3, 3), "n")}), 2)
    device = Device(SPEC, view_of(state))
    assert device.press_all("a b") is HANDLED
    assert device.press("b") is None  # a second edge the same way is refused
    assert device.press("d") == Command("turn", {"car": 2, "facing": "sw"})
    assert device.press_all("a a") is HANDLED and device.press("a") is None
    assert device.press("d") == Command("turn", {"car": 2, "facing": "se"})


def test_d_ends_the_turn_at_once_only_when_no_die_is_left():
    steer = view_of(SHOWCASE["steering"])
    device = Device(SPEC, steer)
    assert device.press("d") is HANDLED and device.entry == Ending() and device.leds() == []
    assert device.shown() == {"ending": True}
    assert device.press("roll") is HANDLED and device.entry is None  # keep playing
    assert device.press_all("d a") is HANDLED and device.entry == Steer(0, 1)  # a die taken instead
    assert Device(SPEC, view_of(SHOWCASE["push chain"])).press("d") == Command("end")  # both used, one lost


def test_roll_rolls_and_buttons_without_a_meaning_blink():
    view = view_of(game())
    device = Device(SPEC, view)
    for key in ("a", "b", "c", "d", "a:hold", "d:hold", "roll:hold"):
        assert device.press(key) is None, key
    assert device.press("roll") == Command("roll")
    assert Device(SPEC, view_of(SHOWCASE["steering"])).press("roll") is None


def test_game_over_roll_starts_the_next_game_of_a_match_only():
    assert Device(SPEC, view_of(SHOWCASE["match, game 1 over"])).press("roll") == Command("next_game")
    for label in ("match over", "won"):
        device = Device(SPEC, view_of(SHOWCASE[label]))
        assert [device.press(key) for key in ("roll", "a", "d")] == [None] * 3


def test_dice_only_marks_a_car_out_seat_car_place_on_the_leds():
    view = view_of(SHOWCASE["dice only"])
    device = Device(SPEC, view)
    assert device.press("a") is HANDLED and device.leds() == [1]
    assert device.press_all("b d") is HANDLED and device.leds() == [2, 1]  # South, car 1
    assert device.press_all("a a d") is HANDLED and device.leds() == [2, 5, 1]  # car 5, off the board
    assert device.shown() == {"mark_out": {"seat": 1, "car": 4, "where": 0}, "step": "where"}
    assert device.press("roll") is HANDLED and device.leds() == [2, 5]  # ROLL steps back
    assert device.press_all("d b b d") == Command("mark_out", {"owner": 1, "car": 5, "by": 1})
    assert device.press_all("a roll") is HANDLED and device.entry is None
    assert device.press("roll") == Command("roll")
    assert Device(SPEC, view_of(SHOWCASE["dice only, steering"])).press("d") == Command("end")


def test_the_led_dice_hold_the_dice_still_to_use():
    assert dice_shown(view_of(game())) == []
    assert dice_shown(view_of(SHOWCASE["steering"])) == [1, 1, None]  # the reroll shown, the lost die dark
    assert dice_shown(view_of(SHOWCASE["turned"])) == [None, 1, None]  # each manoeuvre darkens its die
    assert dice_shown(view_of(SHOWCASE["dice only, steering"])) == [2, 3, 6]
    # a free die whose car was pushed out of play cannot steer: dark
    state = arranged(game(), {(NORTH, 1): ((3, -1), "s"), (NORTH, 2): ((3, 0), "s"),
                              (SOUTH, 1): ((-3, 3), "n")})
    state, _ = play(steering(state, 1, 2), "move", {"car": 1})
    assert dice_shown(view_of(state)) == [None, None]
    assert SPEC.rolled([{"type": "rolled"}]) and not SPEC.rolled([{"type": "turned"}])


def test_controls_read_only_the_public_view_as_json():
    view = msgspec.json.decode(msgspec.json.encode(view_of(SHOWCASE["steering"])))
    assert enter(view, ["a", "c", "d"]) == Command("move", {"car": 1})


def test_no_long_press_means_anything_even_with_an_input_in_progress():
    for start in ("", "a", "a b", "d"):
        device = Device(SPEC, view_of(SHOWCASE["steering"]))
        for key in start.split():
            device.press(key)
        before = device.entry
        for key in ("a:hold", "b:hold", "c:hold", "d:hold", "roll:hold"):
            assert device.press(key) is None and device.entry == before, (start, key)
