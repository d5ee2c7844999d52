"""Crazy Race at the table: the button flows, the LED numbers, the e-ink frames, a full game by buttons."""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path

import pytest
from device_input import HANDLED, Device
from gewalt_play import play, play_out, private_view, public_view, random_command, start
from PIL import Image
from polling import wait_for
from simulator import running_simulator
from test_panels import assert_fits

from companion.core import registry
from companion.devices.panels import PANELS, panel
from companion.gamekit import ScriptedDraws, number_faces
from companion.gamekit.colours import SEAT_MARKS
from companion.gamekit.contract import Command, IllegalMove, TableInfo
from companion.games.gewalt import SPEC, rules
from companion.games.gewalt.board import FINISHED
from companion.games.gewalt.names import explain_roll
from companion.i18n import translator
from companion.outputs.frames import render

URL = "http://192.168.1.20:8080/"


def game(players=4, expert=False, seed=3):
    return start({"players": players, "expert": expert}, ScriptedDraws(seed))


def device(state) -> Device:
    return Device(SPEC, public_view(state))


# --- the button flows -----------------------------------------------------------------------
def test_placing_a_card_is_lane_stage_section_length_with_the_number_on_the_leds():
    controls = device(game())
    assert controls.press("a") is HANDLED
    assert controls.leds() == [1]  # lane A, the first
    assert controls.shown() == {"flow": "place", "step": "lane", "values": {"lane": "A"}}
    assert controls.press_all("b b b c") is HANDLED  # lane D
    assert controls.press_all("b c") is HANDLED  # stage 2
    assert controls.press_all("a c") is HANDLED  # section 5 (wraps from 1 down)
    assert controls.shown()["values"] == {"lane": "D", "stage": 2, "section": 5, "length": 4}
    assert controls.press_all("b b b b") is HANDLED
    assert controls.leds() == [6, 2]  # length 8 shows as 6 + 2
    command = controls.press("c")
    assert command == Command("play_section", {"length": 8, "slot": {"lane": 3, "stage": 1, "section": 4}})
    assert controls.entry is None and controls.leds() is None


def test_back_steps_back_then_cancels_and_roll_rolls():
    controls = device(game())
    assert controls.press_all("a c d") is HANDLED and controls.shown()["step"] == "lane"
    assert controls.press("d") is HANDLED and controls.shown() is None
    assert controls.press("roll") == Command("roll")
    assert controls.press("c") is None  # relocate needs the expert game
    assert controls.press("a:hold") is HANDLED
    assert controls.press_all("a a a a c") == Command("discard_section", {"length": 0})
    assert number_faces(0) == [] and number_faces(6) == [6] and number_faces(12) == [6, 6]


def test_expert_flows_make_attack_relocate_and_discard_commands():
    controls = device(game(expert=True))
    assert controls.press_all("b b c") is HANDLED  # card 2 (skip turn), then the target
    assert controls.shown()["values"] == {"card": "skip_turn", "target": "B"}
    assert controls.press_all("b c") == Command("attack", {"card": "skip_turn", "target": 2})
    assert controls.press_all("b:hold a c") == Command("discard_action", {"card": "counter"})
    command = controls.press_all("c b c c b b c b c c b c")
    assert command == Command("relocate", {"source": {"lane": 1, "stage": 0, "section": 2},
                                           "slot": {"lane": 1, "stage": 0, "section": 1}})


def test_the_buttons_step_only_through_the_players_the_rules_let_you_attack():
    # seat 0 attacks with 5 players: seat 1 already holds an attack card, seat 3 has finished
    state = replace(game(players=5, expert=True), actions=(("double",) * 4,) * 5)
    state, _ = play(state, "attack", {"card": "double", "target": 1})
    state, _ = play(state, "allow")
    state = replace(state, pawns=tuple(FINISHED if seat == 3 else p for seat, p in enumerate(state.pawns)))
    controls = device(state)
    assert controls.press_all("b b c") is HANDLED  # card 2, then the target
    seen = []
    for _ in range(3):
        seen.append((controls.shown()["values"]["target"], controls.leds()))
        controls.press("b")
    assert seen == [("C", [3]), ("E", [5]), ("C", [3])]  # B holds a card, D has finished
    assert controls.press("c") == Command("attack", {"card": "skip_turn", "target": 4})


def test_an_attack_waiting_for_an_answer_takes_a_and_b():
    state = replace(game(expert=True), actions=(("double",) * 4,) * 4)
    state, _ = play(state, "attack", {"card": "double", "target": 1})
    controls = device(state)
    assert controls.press("a") == Command("allow")
    assert controls.press("b") == Command("counter")
    assert controls.press("roll") is None


def test_the_dice_shown_are_the_last_roll():
    from companion.games.gewalt.controls import dice_shown

    state, _ = play(game(), "roll", dice=[5, 2])
    assert dice_shown(public_view(state)) == [5, 2]
    assert dice_shown(public_view(game())) == []


@pytest.mark.parametrize(("roll", "text"), [
    ({"dice": [3, 4], "effect": "double", "points": 14}, "double: 2 × 7 = 14"),
    ({"dice": [3, 4], "effect": "minus_4", "points": 3}, "minus 4: 7 − 4 = 3"),
    ({"dice": [1, 2], "effect": "minus_4", "points": 0}, "minus 4: 3 − 4, never below 0 = 0"),
    ({"dice": [3, 4], "effect": "plus_4", "points": 11}, "plus 4: 7 + 4 = 11"),
    ({"dice": [], "effect": "move_10", "points": 10}, "10 instead of rolling"),
    ({"dice": [], "effect": "no_roll", "points": 0}, "no roll: 0"),
    ({"dice": [3, 4], "effect": None, "points": 7}, "3 + 4 = 7"),
])
def test_the_eink_says_how_an_attack_card_changed_the_roll(roll, text):
    assert explain_roll(roll, translator("en")) == text


# --- the e-ink frames -----------------------------------------------------------------------
def frames() -> dict[str, tuple[dict, dict | None]]:
    rng, draws = random.Random(5), ScriptedDraws(5)
    state = start({"players": 5, "expert": True}, draws)
    for _ in range(60):
        try:
            state, _ = SPEC.play(state, random_command(state, rng), draws)
        except IllegalMove:
            pass
    mid = state
    pending = replace(mid, pending=(mid.turn, (mid.turn + 1) % 5, "double"), front=(None,) * 5)
    entry = {"flow": "place", "step": "section", "values": {"lane": "B", "stage": 3, "section": 4}}
    end = play_out(start({"players": 3}, ScriptedDraws(9)), random.Random(9), ScriptedDraws(9))
    return {"mid-race": (public_view(mid), None), "pending": (public_view(pending), None),
            "entry": (public_view(mid), entry), "end": (public_view(end), None)}


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("label", ["mid-race", "pending", "entry", "end"])
def test_every_frame_fits_every_panel(label, lang):
    view, entry = frames()[label]
    _ = translator(lang, registry.get("gewalt"))
    info = TableInfo(URL, "K7QF", ("Anna", "", "Chloé", "Dimitri-Alexandre", ""), entry)
    for name, model in PANELS.items():
        canvas = render("gewalt", view, model, lang, info)
        assert_fits(canvas, f"{label} on {name}")
        texts = [e.label for e in canvas.elements if e.kind == "text"]
        assert _("Crazy Race (Gewalt)") in texts
        if model.size[0] >= 400:  # a long player name may end in an ellipsis; nothing else may
            cut = [e.label for e in canvas.elements if e.kind == "text" and e.shortened]
            # a player as every output names them: mark, lane letter, name ("❹ D Dimi…")
            starts = {f"{mark} {lane} " for mark, lane in zip(SEAT_MARKS, "ABCDE", strict=False)}
            assert all(label[:4] in starts for label in cut), (name, cut)


def test_the_frames_show_the_race_and_the_scores():
    _ = translator("en")
    view, _entry = frames()["mid-race"]
    canvas = render("gewalt", view, panel("impression-7.3"), "en", TableInfo(URL))
    texts = [e.label for e in canvas.elements if e.kind == "text"]
    assert _("Turn: {player}", player=f"{view['letters'][view['turn']]} {_('Red', )}") in texts or any(
        t.startswith("Turn: ") for t in texts)
    for card in view["cards"]:
        assert str(card["length"]) in texts
    for stage, order in enumerate(view["trophies"]):
        assert f"Stage {stage + 1}" in texts and f"{len(order)}/5" in texts
    view, _entry = frames()["end"]
    canvas = render("gewalt", view, panel("what-black"), "en", TableInfo(URL))
    texts = [e.label for e in canvas.elements if e.kind == "text"]
    for row in view["scores"]:
        assert str(row["total"]) in texts
        first = f"{row['targets'][0]}\u2192{row['places'][0]}"
        assert any(t.startswith(first) for t in texts)


# --- a full game through the mock buttons ---------------------------------------------------
@pytest.fixture
def table_device(tmp_path, seeded_draws):
    with running_simulator(tmp_path, url="http://table.local/", game="gewalt") as running:
        yield running


def press(device, keys: str) -> None:
    for key in keys.split():
        hold = key.endswith(":hold")
        device.board.press(key.removesuffix(":hold"), hold=hold).join(5)


@pytest.mark.slow
def test_a_full_game_through_the_buttons(table_device):
    device = table_device
    placed = set()
    for _turn in range(400):
        latest = device.table.latest
        if latest.public["over"]:
            break
        seat = latest.public["turn"]
        version = device.table.version
        if seat not in placed:
            # The player reads their hand on their phone and places their first card in lane 5 (empty
            # with 4 players), stage 3, section seat+1, through A (lane, stage, section, length).
            length = private_view(latest.session.state, seat)["sections"][0]
            steps = ("b " * (length - 4) if length >= 4 else "a " * (4 - length)).strip()
            press(device, "a a c b b c " + "b " * seat + "c")
            wait_for(lambda: getattr(device.table.latest.entry, "step", None) == 3)  # the length
            wait_for(lambda: device.board.dice.faces[:2] == [4, None])
            press(device, f"{steps} c".strip())
            wait_for(lambda v=version: device.table.version > v)
            public = device.table.latest.public
            assert {"lane": 4, "stage": 2, "section": seat, "length": length} in public["cards"]
            placed.add(seat)
            version = device.table.version
        press(device, "roll")
        wait_for(lambda v=version: device.table.version > v)
        last = device.table.latest.public["last_roll"]
        wait_for(lambda d=last["dice"]: device.board.dice.faces[:2] == d)
    public = device.table.latest.public
    assert public["over"] and all(p["finished"] for p in public["pawns"])
    assert [sorted(order) for order in public["trophies"]] == [[0, 1, 2, 3]] * 3
    assert len(public["scores"]) == 4
    wait_for(lambda: device.display.png)


# --- the committed frames (docs/frames) ------------------------------------------------------
def rulebook_example() -> rules.State:
    """The rulebook's scoring example as a finished race: A 0, B 5, C 3, D 4."""
    state = game(players=4)
    return replace(state, bets=((4, 3, 2), (2, 3, 4), (2, 1, 2), (4, 3, 4)), turn=None,
                   trophies=((2, 1, 0, 3), (2, 0, 1, 3), (1, 2, 0, 3)), pawns=(rules.FINISHED,) * 4)


def test_the_scores_frame_is_the_rulebooks_table():
    view = public_view(rulebook_example())
    canvas = render("gewalt", view, panel("impression-7.3"), "en", TableInfo(URL, "", ("", "", "", "")))
    texts = [e.label for e in canvas.elements if e.kind == "text"]
    assert {"2\u21922", "3\u21923", "4\u21924", "+C", "+A +D", "+A", "+B"} <= set(texts)  # the bets under
    assert ["0", "5", "3", "4"] == [t for t in texts if t in {"0", "5", "3", "4"}][-4:]
    assert "Winner: \u2777 B Blue" in texts



FRAMES = Path(__file__).resolve().parent.parent / "docs" / "frames"
SIZES = {"800x480": "impression-7.3", "400x300": "what-red"}


def test_the_committed_frames_are_the_real_render_path():
    """COMPANION_WRITE_FRAMES=1 redraws them; otherwise each must exist at its panel's size."""
    names = ("Anna", "Bruno", "Chloé", "Dimitri", "Emma")
    mid = frames()["mid-race"][0]
    mid["front"][mid["turn"]] = "minus_4"  # played on A by an opponent's last turn
    shown = {"mid-race": mid, "scores": public_view(rulebook_example())}
    for what, view in shown.items():
        for size, model in SIZES.items():
            path = FRAMES / f"gewalt-{what}-{size}.png"
            if os.environ.get("COMPANION_WRITE_FRAMES") == "1":
                info = TableInfo(URL, "K7QF", names[:view["players"]])
                render("gewalt", view, panel(model), "fr", info).image.save(path)
            with Image.open(path) as image:
                assert f"{image.width}x{image.height}" == size


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_each_stage_heading_is_centred_over_its_sections_apart_from_the_next_and_large(lang):
    """The French "Étape 2 : 0/4" ran into the next heading ("0/4 Étape 2") at 22 px: each stage's name
    now sits over its five sections and its trophies' count over its places, a gap apart."""
    view, _entry = frames()["mid-race"]
    canvas = render("gewalt", view, panel("impression-7.3"), lang, TableInfo(URL, "K7QF"))
    stage = "Étape" if lang == "fr" else "Stage"
    heads = sorted((e for e in canvas.elements if e.kind == "text" and e.label.startswith(stage)),
                   key=lambda e: e.box.x0)
    counts = sorted((e for e in canvas.elements if e.kind == "text" and e.label.endswith("/5")),
                    key=lambda e: e.box.x0)
    assert len(heads) == len(counts) == 3
    # the ink across the first lane's row (no card there): each stage's section outlines, then its rule
    y = heads[0].box.y1 + canvas.px(20)
    inked = [x for x in range(canvas.size[0]) if max(canvas.image.getpixel((x, y))) < 80]
    for n, (head, count) in enumerate(zip(heads, counts, strict=True)):
        start = counts[n - 1].box.x1 if n else head.box.x0 - canvas.px(30)
        lines = [x for x in inked if start <= x < count.box.x1]
        runs = [[lines[0]]]
        for x in lines[1:]:
            runs[-1].append(x) if x == runs[-1][-1] + 1 else runs.append([x])
        rule = next(i for i, run in enumerate(runs) if len(run) >= 3)
        assert rule == 2 * 5, runs  # five sections' two sides, then the stage's rule
        middle = (runs[0][0] + runs[rule - 1][-1]) / 2
        assert abs((head.box.x0 + head.box.x1) / 2 - middle) <= 3, (head.label, head.box, middle)
        assert (count.box.x0 + count.box.x1) / 2 > runs[rule][0]  # over the places, past the rule
        assert count.box.x0 - head.box.x1 >= 6  # apart from the stage's name
        assert head.size >= 24 and count.size >= 18, (head.size, count.size)
    for left, right in zip(counts, heads[1:], strict=False):
        assert right.box.x0 - left.box.x1 >= 8  # more than a space: a count never runs into the next name


def test_the_final_table_fills_the_frame_in_large_type():
    """The scores were 17 px type over an empty lower part: each row now takes two lines (the cell, then
    the bets that matched it), so the type takes the height."""
    view = public_view(rulebook_example())
    for lang in ("fr", "en"):
        canvas = render("gewalt", view, panel("impression-7.3"), lang, TableInfo(URL, "K7QF", ("",) * 4))
        texts = [e for e in canvas.elements if e.kind == "text" and ":" not in e.label]  # not the legend
        cells = [e for e in texts if "\u2192" in e.label]
        assert cells and min(e.size for e in cells) >= 21, [(e.label, e.size) for e in cells]
        marks = [e for e in texts if e.label.startswith("+")]
        assert {"+C", "+A +D", "+A", "+B"} <= {e.label for e in marks}
        lowest = max(e.box.y1 for e in cells + marks)
        assert lowest >= canvas.size[1] * 0.75, lowest  # the table reaches down the frame
