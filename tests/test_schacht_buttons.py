"""Crazy Race (Schacht): a whole 3-player game played with the panel buttons only (mock pins)."""

from __future__ import annotations

import random

import pytest
from daemon_process import free_port
from polling import eventually, wait_for

from companion.config import Config
from companion.daemon import Companion
from companion.games.schacht.controls import SchachtControls, number_faces
from companion.games.schacht.rules import actor
from companion.games.spec import HANDLED, Command

SIDE_KEYS = "abcd"


@pytest.fixture
def device(tmp_path):
    config = Config(state_dir=str(tmp_path), host="127.0.0.1", port=free_port(), url="http://table.local/",
                    game="schacht")
    running = Companion(config, simulate=True).start()
    wait_for(lambda: running.table.latest.game == "schacht")
    yield running
    running.stop()


def press(device, key: str, hold: bool = False) -> None:
    device.board.press(key, hold=hold).join(5)


def command_press(device, key: str, hold: bool = False) -> None:
    """A press that must make the table apply a command."""
    before = device.table.version
    press(device, key, hold)
    wait_for(lambda: device.table.version > before, timeout=10)


def test_a_whole_three_player_game_with_the_buttons_only(device):
    rng = random.Random(7)
    table = device.table
    passes = placed = 0
    for _ in range(400):
        view = table.latest.public
        state = table.session.state  # the test peeks at the hands only to pick cards the player holds
        phase = view["phase"]
        if phase == "over":
            break
        if phase == "bid":
            who = actor(state)
            hand = state.hands[who]
            if not hand or rng.random() < 0.05:
                if not hand and "recall" in view and not view["recalled"][who] and state.discards[who]:
                    command_press(device, "b", hold=True)  # a long B recalls the discards
                    continue
                command_press(device, "roll", hold=True)  # a long ROLL passes
                passes += 1
                continue
            side = rng.choice(view["open"])
            value = rng.choice(hand)
            press(device, SIDE_KEYS[side])
            lowest = view["values"][0]
            assert eventually(lambda lowest=lowest: device.board.dice.faces[0] == lowest, timeout=2)
            for _step in range(view["values"].index(value)):
                press(device, "roll")
            assert device.board.dice.faces[:len(number_faces(value))] == number_faces(value)
            command_press(device, SIDE_KEYS[side])
            placed += 1
            # Once confirmed, the value leaves the LEDs (and never reaches the e-ink).
            dark = [None] * len(device.board.dice.faces)
            assert eventually(lambda dark=dark: device.board.dice.faces == dark), device.board.dice.faces
        elif phase == "decide":
            deciding = view["deciding"]
            locos = deciding["locos"]
            if deciding["split"]:
                for _step in range(deciding["steps"]):
                    press(device, "abc"["ABC".index(rng.choice(locos))])
            else:
                press(device, "abc"["ABC".index(rng.choice(locos))])
            command_press(device, "roll")
        elif phase == "takeback":
            if rng.random() < 0.5:
                command_press(device, "roll", hold=True)  # keeps nothing back
            else:
                press(device, "roll")
                command_press(device, "a")
        elif phase == "review":
            command_press(device, "roll")
    final = table.latest.public
    assert final["phase"] == "over", final["phase"]
    assert placed > 20 and passes > 0
    assert final["final"]["winners"] and sum(final["points"]) > 0
    assert eventually(lambda: device.frame_version >= 1, timeout=10)


def test_the_controller_resets_an_input_made_stale_by_another_command():
    controls = SchachtControls()
    view = {"phase": "bid", "stage": 1, "round": 1, "turn": 0, "revealed": [], "bids": [[], [], [], []],
            "open": [0, 1, 2, 3], "values": [1, 2, 3, 4, 6]}
    assert controls.press("b", view) is HANDLED and controls.press("roll", view) is HANDLED
    assert controls.leds(view) == [2] and controls.entry(view) == {"side": 1}
    moved_on = {**view, "turn": 1, "bids": [[0], [], [], []]}
    assert controls.leds(moved_on) is None and controls.entry(moved_on) is None
    assert controls.press("b", moved_on) is HANDLED
    assert controls.press("b", moved_on) == Command("place", {"side": 1, "value": 1})


def test_numbers_above_six_use_a_second_die():
    assert number_faces(4) == [4] and number_faces(7) == [6, 1] and number_faces(12) == [6, 6]
    assert number_faces(0) == []


def test_a_split_is_entered_one_space_per_press_and_confirmed_with_roll():
    controls = SchachtControls()
    view = {"phase": "decide", "stage": 1, "round": 3, "turn": 0, "revealed": [{}], "bids": [[0, 1, 2]],
            "deciding": {"seat": 0, "side": 0, "steps": 3, "split": True, "locos": ["A", "C"]}, "values": [1]}
    assert controls.press("b", view) is None  # B has finished
    for key in ("c", "a", "c"):
        assert controls.press(key, view) is HANDLED
    assert controls.press("a", view) is None  # all 3 spaces are shared out
    assert controls.entry(view) == {"split": [["C", 2], ["A", 1]]} and controls.leds(view) == []
    assert controls.press("roll", view) == Command("move", {"moves": [{"loco": "C", "steps": 2},
                                                                      {"loco": "A", "steps": 1}]})
