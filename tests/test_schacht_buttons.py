"""Crazy Race (Schacht): whole 3- and 4-player games played with the panel buttons only (mock pins)."""

from __future__ import annotations

import random

import pytest
from device_input import HANDLED, Device
from polling import eventually, wait_for
from simulator import glass_offers, running_simulator

from companion.gamekit import number_faces
from companion.gamekit.contract import Command
from companion.games.schacht import SPEC
from companion.games.schacht.rules import actor

SIDE_KEYS = "abcd"


@pytest.fixture(params=[3], ids=lambda n: f"{n} players")
def device(request, tmp_path, seeded_draws):
    options = {"schacht": {"players": request.param}}
    with running_simulator(tmp_path, url="http://table.local/", game="schacht", options=options) as running:
        yield running


def press(device, key: str, hold: bool = False) -> None:
    device.board.press(key, hold=hold).join(5)


def command_press(device, key: str, hold: bool = False) -> None:
    """A press that must make the table apply a command."""
    before = device.table.version
    press(device, key, hold)
    wait_for(lambda: device.table.version > before, timeout=10)


@pytest.mark.slow
@pytest.mark.parametrize("device", [3, 4], ids=["3 players", "4 players"], indirect=True)
def test_a_whole_game_with_the_buttons_only(device, request):
    rng = random.Random(7)
    table = device.table
    assert table.latest.public["players"] == request.node.callspec.params["device"]
    offers = glass_offers(device)
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
    # no phone holds a seat: the glass is the only display, so every frame goes at its next refresh
    assert offers and all(must for _, must in offers), [must for _, must in offers].count(False)


BID = {"phase": "bid", "stage": 1, "round": 1, "turn": 0, "revealed": [], "bids": [[], [], [], []],
       "open": [0, 1, 2, 3], "values": [1, 2, 3, 4, 6], "takeback": [], "deciding": None}


def test_a_bid_is_a_side_then_a_value_stepped_with_roll_then_the_side_again():
    controls = Device(SPEC, BID)
    assert controls.press("b") is HANDLED and controls.press("roll") is HANDLED
    assert controls.leds() == [2] and controls.shown() == {"side": 1}  # the side is public, the value not
    assert controls.press("a") is HANDLED and controls.leds() == [1]  # another side starts again
    assert controls.press("a:hold") is HANDLED and controls.entry is None  # a long A cancels
    assert controls.press("a:hold") is None  # nothing to cancel: refused
    assert controls.press("c") is HANDLED
    assert controls.press("c") == Command("place", {"side": 2, "value": 1})
    assert controls.press("roll:hold") == Command("pass") and controls.press("b:hold") == Command("recall")


def test_a_taboo_side_refuses_its_button():
    controls = Device(SPEC, {**BID, "open": [0, 1, 2]})
    assert controls.press("d") is None and controls.entry is None


def test_numbers_above_six_use_a_second_die():
    assert number_faces(4) == [4] and number_faces(7) == [6, 1] and number_faces(12) == [6, 6]
    assert number_faces(0) == []


def test_a_split_is_entered_one_space_per_press_and_confirmed_with_roll():
    view = {**BID, "phase": "decide", "round": 3, "revealed": [{}], "bids": [[0, 1, 2]],
            "deciding": {"seat": 0, "side": 0, "steps": 3, "split": True, "locos": ["A", "C"]}}
    controls = Device(SPEC, view)
    assert controls.press("b") is None  # B has finished
    for key in ("c", "a", "c"):
        assert controls.press(key) is HANDLED
    assert controls.press("a") is None  # all 3 spaces are shared out
    assert controls.shown() == {"split": [["C", 2], ["A", 1]]} and controls.leds() == []
    assert controls.press("roll") == Command("move", {"moves": [{"loco": "C", "steps": 2},
                                                                {"loco": "A", "steps": 1}]})
    assert controls.press_all("a d") is HANDLED and controls.entry is None  # D clears a split


def test_a_take_back_shows_the_cards_one_by_one():
    view = {**BID, "phase": "takeback", "takeback": [{"seat": 0, "cards": [2, 6]}]}
    controls = Device(SPEC, view)
    assert controls.press("a") is None  # nothing shown yet
    assert controls.press("roll") is HANDLED and controls.leds() == [2]
    assert controls.press("roll") is HANDLED and controls.leds() == [6]
    assert controls.shown() is None  # a take-back card is chosen in the open, but the e-ink needs nothing
    assert controls.press("a") == Command("take_back", {"value": 6})
    assert controls.press("roll:hold") == Command("take_back", {"value": None})
