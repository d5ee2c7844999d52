"""Crash! with the device only: whole games on the simulator's mock buttons, the LED dice at each step."""

from __future__ import annotations

import io

import pytest
from crash_play import keys_for, quick_command
from device_input import Device
from PIL import Image
from polling import wait_for
from simulator import running_simulator

from companion.gamekit.contract import Command
from companion.games.crash import SPEC
from companion.games.crash.controls import dice_shown


@pytest.fixture
def device(tmp_path, seeded_draws):
    with running_simulator(tmp_path, url="http://table.local/", game="crash", language="en") as running:
        yield running


def lit(device, faces: list) -> list:
    """`faces` as this build's LED dice hold them (a missing face is a dark die)."""
    count = len(device.board.dice.faces)
    return (list(faces) + [None] * count)[:count]


def enter(device, command: Command) -> None:
    """Press the keys that make `command`; each press but the last shows its input on the LEDs at once,
    the last makes the table apply the command."""
    table = device.table
    view = table.latest.public
    version = table.version
    local = Device(SPEC, view)
    keys = keys_for(command, view)
    for index, key in enumerate(keys):
        device.board.press(key).join(5)
        answer = local.press(key)
        if index == len(keys) - 1:
            assert answer == command, (command, keys)
            wait_for(lambda: table.version > version, timeout=10)
        else:
            entry, faces = local.entry, lit(device, local.leds())
            wait_for(lambda: table.latest.entry == entry, timeout=10)  # noqa: B023 (awaited here)
            wait_for(lambda: device.board.dice.faces == faces, timeout=5)  # noqa: B023


@pytest.mark.slow
def test_a_whole_game_with_the_buttons_only(device):
    table = device.table
    kinds = []
    for _ in range(300):
        state = table.session.state
        if table.latest.public["phase"] == "over":
            break
        command = quick_command(state)
        enter(device, command)
        kinds.append(command.kind)
        view = table.latest.public
        # The LEDs confirm the command before the e-ink: the dice still to use (a roll tumbles first).
        if command.kind == "roll":
            assert device.board.dice.wait_idle(5)
        wait_for(lambda v=view: device.board.dice.faces == lit(device, dice_shown(v)), timeout=5)
    public = table.latest.public
    assert public["phase"] == "over" and public["result"]["reason"] == "no_cars"
    assert min(p["in_play"] for p in public["players"]) == 0
    assert {"roll", "move", "end"} <= set(kinds) and len(kinds) > 6
    assert table.session.history[-1]["seat"] in (0, 1)  # the device acted for the player to play
    device.refresher.wait_idle(20)
    with Image.open(io.BytesIO(device.display.png)) as frame:
        assert frame.size == device.model.size


@pytest.mark.slow
def test_dice_only_and_the_next_game_of_a_match_with_the_buttons(device):
    """The host starts a 2-game match in dice-only play; the device rolls, marks South's six cars out
    (three into North's junkyard), and ROLL starts the match's second game."""
    table = device.table
    assert table.call(Command("new_game", {"game": "crash", "options": {"dice_only": True, "games": 2}})).ok
    enter(device, Command("roll"))
    assert device.board.dice.wait_idle(5)
    for car in range(1, 7):
        enter(device, Command("mark_out", {"owner": 1, "car": car, "by": 0 if car <= 3 else None}))
    public = table.latest.public
    assert public["result"] == {"winner": 0, "reason": "no_cars", "junkyards": [3, 0]}
    assert public["legal"] == ["next_game"]
    enter(device, Command("next_game"))
    public = table.latest.public
    assert public["match"]["game"] == 2 and public["turn"] == 1 and public["match"]["wins"] == [1, 0]
