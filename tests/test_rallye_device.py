"""Le rallye hasardeux at the table: buttons as pure steps, the LED die, the deadlines, every e-ink frame."""

from __future__ import annotations

import os
import random
import re
from dataclasses import replace
from functools import cache
from pathlib import Path

import msgspec
import pytest
from device_input import HANDLED, Device
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from polling import wait_for
from rallye_play import new_game, play, play_out
from simulator import running_simulator
from test_panels import assert_fits, assert_qr
from test_rallye_rules import A, B, C, D, at, give, opened, top, track
from webfixtures import post_json

from companion.core import registry
from companion.devices.panels import PANELS, panel
from companion.gamekit import PAWN_MARKS, ScriptedDraws, pawn_mark
from companion.gamekit.contract import Command, TableInfo
from companion.games.rallye import SPEC, controls, rules, screen, views
from companion.games.rallye.names import CARD_NAMES, EFFECT_NAMES, EFFECT_TEXTS, ICONS, effect_text
from companion.games.rallye.screen import STATUS_ICONS
from companion.games.rallye.state import passage_of
from companion.i18n import translator
from companion.outputs.frames import render
from companion.render.layout import PHRASE_ENDS, Canvas, phrase_lines

URL = "http://192.168.1.20:8080/"
NAMES = ("Anna", "", "Chloé", "Dimitri-Alexandre", "Eve", "Fanny-Marguerite")
E, F = 4, 5


def public(state) -> dict:
    return msgspec.to_builtins(views.public_view(state))


def device(state) -> Device:
    return Device(SPEC, public(state))


# --- states the screens and the buttons meet ----------------------------------------------------------
def cancel_window():
    state = give(at(track(". . . . . . . . . ."), 2, 0, 0, hazards=((5, "oil_roll"),)), A, "shield_oil")
    state, _ = play(state, "roll", dice=[4])
    assert state.pending.kind == "cancel" and state.pending.threat == "oil_roll"
    return state


def one_back_of_five():
    state = at(track(". . one_back " + ". " * 9, players=6), 1, 4, 5, 6, 7, 8)
    state, _ = play(state, "roll", dice=[2, 3])
    assert state.pending.kind == "target" and len(state.pending.choices) == 5
    return state


def exit_or_stay():
    state = opened(at(track(". X1 . . ^ford_4 E1 ^ford_5 . X2 . ."), 0, 9, 9), 2, 6, 9)
    state = replace(state, access=tuple(state.route.passages[i].kind == "entrance" for i in range(6)))
    state, _ = play(state, "roll", dice=[5])
    assert state.pending.kind == "exit" and state.pending.optional and len(state.pending.choices) == 2
    return state


def trimming():
    state = top(give(at(track(". . . . . . . . . ."), 0, 9, 9), A, "key", "lock", "tacks"), "oil_5")
    state, _ = play(state, "roll", dice=[6])
    assert rules.trimming(state) == A
    return state


def held_back():
    """Every status a player can be held by, in a 6-player race, every card face up."""
    spec = " ".join(["^."] * 8 + ["^" + e for e in ICONS if e != "none"] + ["E2", "X1", "E3", "X2"]
                    + ["^*", "^swap_any*"] + ["^."] * 6)
    state = opened(track(spec, players=6), 19, 20)
    keys = list(state.keys)
    keys[passage_of(state, 21)] = 2
    state = replace(state, status=("tacks", "caught", "ford_5", "reverse", "ford_4", ""),
                    blocked=(2, 0, 0, 0, 0, 0), hazards=((5, "tacks"), (6, "oil_roll"), (7, "oil_5")),
                    keys=tuple(keys), access=tuple(i == passage_of(state, 19) for i in range(6)))
    return at(state, 5, 5, 12, 14, 0, 0, laps=(3, 3, 2, 1, 0, 0))


def longest():
    """The longest circuit (40 route cards and 6 passages), every card up, six pawns on one card."""
    effects = [e for e in ICONS if e != "none"]
    spec = ["^."] * 16 + ["^*"] * 4 + [f"^{e}" for e in effects] + [f"^{e}*" if e in ("swap_last", "swap_any")
                                                                       else f"^{e}" for e in effects]
    spec[5:5] = ["E1", "X1", "E2", "X2", "E3", "X2"]
    state = track(" ".join(spec), players=6)
    return at(state, *(6,) * 6, hazards=tuple((p, "tacks") for p in range(30, 46, 3)))


def finished_one():
    state = at(track(". . . . . . . . . .", laps_to_win=2), 9, 8, 9, laps=(1, 1, 0))
    state, _ = play(state, "roll", dice=[3])
    return state


def game_over():
    state, _ = play(finished_one(), "roll", dice=[2])
    state, _ = play(state, "roll", dice=[2])
    state, _ = play(state, "roll", dice=[1])
    assert rules.over(state)
    return state


def mid_race(seed: int = 3, moves: int = 60):
    """A random race stopped after `moves` commands: some cards turned, passages placed, hands dealt."""
    rng, draws = random.Random(seed), ScriptedDraws(seed)
    states = [new_game(seed, players=5, route_cards=30)]

    def each(before, after, command, events):
        states.append(after)
        if after.moves >= moves:
            raise StopIteration

    try:
        play_out(states[0], lambda n: rng.randrange(n) if n > 1 else 0, draws, each=each)
    except StopIteration:
        pass
    return states[-1]


@cache
def screens() -> dict[str, tuple[dict, dict | None]]:
    placing = new_game(1, players=6, route_cards=40)
    return {
        "placing": (public(placing), None),
        "placing, card 17 marked": (public(placing), {"flow": "place", "card": 17}),
        "the start": (public(new_game(2, players=3, route_cards=10, auto_passages=True)), None),
        "mid-race": (public(mid_race()), None),
        "cancel window": (public(cancel_window()), None),
        "one back, 5 choices": (public(one_back_of_five()), None),
        "one back, more choices": (public(one_back_of_five()), {"flow": "page", "page": 1}),
        "exit or stay": (public(exit_or_stay()), None),
        "a hand over 3": (public(trimming()), None),
        "held back, every card up": (public(held_back()), None),
        "the longest circuit": (public(longest()), None),
        "one finished": (public(finished_one()), None),
        "over": (public(game_over()), None),
    }


# --- the buttons as pure steps ------------------------------------------------------------------------
def test_placing_moves_a_mark_over_the_route_cards_and_roll_places_the_passage():
    state = new_game(1, players=3, route_cards=20)
    buttons = device(state)
    assert buttons.press("roll") == Command("place_passage", {"card": 1})  # the mark starts on card 1
    assert buttons.press("b") is HANDLED and buttons.shown() == {"flow": "place", "card": 2}
    assert buttons.press_all("c c") is HANDLED and buttons.shown()["card"] == 14
    assert buttons.press_all("d a") is HANDLED and buttons.shown()["card"] == 7
    assert buttons.press("roll") == Command("place_passage", {"card": 7})
    assert buttons.press_all("a a") is HANDLED and buttons.shown()["card"] == 19  # wraps round to the last
    assert buttons.press("a:hold") is None and buttons.leds() is None
    placed, _ = play(state, "place_passage", {"card": 4}, dice=[1])
    buttons = device(placed)
    assert buttons.press_all("b b b") is HANDLED and buttons.shown()["card"] == 5  # 4 is a passage now


def test_roll_rolls_for_the_player_to_act_and_the_letters_do_nothing_then():
    buttons = device(at(track(". . . . . . . . . ."), 0, 0, 0))
    assert buttons.press("roll") == Command("roll")
    for key in ("a", "b", "c", "d", "roll:hold"):
        assert buttons.press(key) is None


def test_a_cancel_question_takes_a_as_no_and_a_hand_over_3_takes_a_as_discard_the_newest():
    buttons = device(cancel_window())
    assert buttons.press("a") == Command("decline")
    assert [buttons.press(k) for k in ("b", "c", "d", "roll")] == [None] * 4
    buttons = device(trimming())
    assert buttons.press("a") == Command("discard")
    assert [buttons.press(k) for k in ("b", "roll")] == [None] * 2


def test_a_d_pick_a_choice_and_roll_shows_the_fifth():
    state = one_back_of_five()
    choices = list(state.pending.choices)
    buttons = device(state)
    assert [buttons.press(k) for k in "abcd"] == [Command("choose", {"seat": s}) for s in choices[:4]]
    assert buttons.press("roll") is HANDLED and buttons.shown() == {"flow": "page", "page": 1}
    assert buttons.press("b") is None  # page 2 holds one choice
    assert buttons.press("roll") is HANDLED and buttons.shown()["page"] == 0  # and wraps round
    assert buttons.press("roll") is HANDLED and buttons.press("a") == Command("choose", {"seat": choices[4]})


def test_the_exit_choice_lists_the_open_exits_then_stay():
    state = exit_or_stay()
    buttons = device(state)
    exits = list(state.pending.choices)
    assert buttons.press("a") == Command("exit", {"card": exits[0]})
    assert buttons.press("b") == Command("exit", {"card": exits[1]})
    assert buttons.press("c") == Command("stay")
    assert buttons.press("d") is None and buttons.press("roll") is None


def test_nothing_to_press_once_the_race_is_over():
    buttons = device(game_over())
    assert [buttons.press(k) for k in ("a", "b", "c", "d", "roll")] == [None] * 5


@pytest.mark.parametrize("label", ["placing", "cancel window", "one back, 5 choices", "exit or stay",
                                   "a hand over 3", "mid-race"])
def test_every_command_the_buttons_make_is_legal_for_the_table(label):
    """A press sends what the rules take from the table (seat None): never a refusal for a good press."""
    view, _entry = screens()[label]
    for key in ("a", "b", "c", "d", "roll"):
        _entry, command = controls.step(None, key, view)
        if command is not None:
            assert command.kind in view["legal"], (label, key, command)


# --- the LED die and the deadlines --------------------------------------------------------------------
def test_the_led_die_holds_the_last_die_whatever_rolled_it():
    state = at(track(". . others_back " + ". " * 8), 1, 6, 8, last_die=None)
    assert controls.dice_shown(public(state)) == []
    state, events = play(state, "roll", dice=[2, 5])
    assert SPEC.rolled(events) and controls.dice_shown(public(state)) == [5]  # the effect's roll
    state, events = play(state, "decline")
    assert not SPEC.rolled(events) and controls.dice_shown(public(state)) == [5]
    state, events = play(cancel_window(), "decline", dice=[3])
    assert SPEC.rolled(events) and public(state)["die"] == {"seat": A, "face": 3, "why": "oil"}
    placing = new_game(1, players=3, route_cards=20)
    placed, events = play(placing, "place_passage", {"card": 3}, dice=[4])
    assert SPEC.rolled(events) and controls.dice_shown(public(placed)) == [4]


def test_the_table_answers_no_and_discards_the_newest_once_a_window_closes():
    asked = cancel_window()
    assert rules.deadline(asked) == (20, Command("decline"))
    trim = trimming()
    assert rules.deadline(trim) == (60, Command("discard"))
    quick = replace(asked, answer_seconds=5, discard_seconds=30)
    assert rules.deadline(quick) == (5, Command("decline"))
    # the same window whether or not the victim holds a card that cancels (a difference would tell)
    assert rules.deadline(replace(asked, hands=((), (), ()))) == rules.deadline(asked)
    # a placer who names no card lets the device name one at random, as the option does for every passage
    assert rules.deadline(new_game(1, players=3)) == (60, Command("place_passage"))
    placed = play(new_game(1, players=3, route_cards=20), "place_passage", dice=[4])[0]
    assert placed.placed == 1 and placed.phase == "placing"
    for state in (game_over(), mid_race(4, 3)):
        if state.pending is None and state.phase != "placing":
            assert rules.deadline(state) is None or rules.trimming(state) is not None
    # a choice waits its window, then the table takes choice A, or stays out of an optional passage
    five = one_back_of_five()
    assert rules.deadline(five) == (60, Command("choose", {"seat": five.pending.choices[0]}))
    assert rules.deadline(exit_or_stay()) == (60, Command("stay"))
    forced = replace(exit_or_stay(), choice_seconds=7)
    forced = replace(forced, pending=replace(forced.pending, optional=False))
    assert rules.deadline(forced) == (7, Command("exit", {"card": forced.pending.choices[0]}))
    assert public(forced)["pending"]["seconds"] == 7
    chosen = play(five, *_as_play(rules.deadline(five)[1]))[0]  # the chosen player may be asked to cancel
    assert chosen.pending.kind == "cancel" and chosen.pending.seat == five.pending.choices[0]
    assert play(forced, *_as_play(rules.deadline(forced)[1]))[0].pending is None
    # the defaults the deadlines send are accepted from the table
    assert play(asked, "decline")[0].pending is None
    assert len(play(trim, "discard")[0].hands[A]) == 3
    options = msgspec.convert({"answer_seconds": 8, "discard_seconds": 45}, rules.RallyeOptions)
    state = rules.setup(options, ScriptedDraws(1), __import__("rallye_play").data())
    assert (state.answer_seconds, state.discard_seconds) == (8, 45)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"answer_seconds": 1}, rules.RallyeOptions)


def _as_play(command: Command) -> tuple[str, dict]:
    return command.kind, dict(command.args)


# --- the e-ink frames ---------------------------------------------------------------------------------
QUICK = ("impression-7.3", "what-red", "phat-red")  # one panel of each layout, for the quick lane


def check_frame(label: str, lang: str, panels: list[str]) -> None:
    view, entry = screens()[label]
    _ = translator(lang, registry.get("rallye"))
    info = TableInfo(URL, "K7QF", NAMES[:view["players"]], entry)
    for name in panels:
        model = PANELS[name]
        canvas = render("rallye", view, model, lang, info)
        where = f"{label} ({lang}) on {name}"
        assert canvas.size == model.size
        assert_fits(canvas, where)
        assert_qr(canvas, f"{URL}j/K7QF", where)
        texts = [e for e in canvas.elements if e.kind == "text"]
        assert _("Le rallye hasardeux") in [e.label for e in texts], where
        # the canvas draws no text under MIN_TEXT: a digit's ink is then at least 5 px high
        tall = min(e.box.height for e in texts if any(ch.isalnum() for ch in e.label))
        assert tall >= Canvas.MIN_TEXT - 3, f"{where}: a text {tall} px high"
        if model.size[1] >= 200:
            cut = [e.label for e in texts if e.shortened]
            assert not cut, f"{where}: shortened {cut}"


@pytest.mark.parametrize("label", list(screens()))
def test_every_frame_fits_the_three_layouts(label):
    check_frame(label, "fr", list(QUICK))


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("label", list(screens()))
def test_every_frame_fits_every_panel_and_keeps_the_join_code(label, lang):
    check_frame(label, lang, list(PANELS))


def _texts(view: dict, lang: str = "en", entry=None, model: str = "impression-7.3") -> list[str]:
    info = TableInfo(URL, "K7QF", NAMES[:view["players"]], entry)
    canvas = render("rallye", view, panel(model), lang, info)
    return [e.label for e in canvas.elements if e.kind == "text"]


def test_the_circuit_shows_every_number_backs_for_face_down_cards_and_icons_for_face_up_ones():
    view, _entry = screens()["mid-race"]
    texts = _texts(view)
    for card in view["circuit"]:
        assert str(card["position"]) + ("\u2605" if card["surprise"] else "") in texts
    shown = [c for c in view["circuit"] if c["kind"] == "route" and c["face_up"]]
    assert shown, "the mid-race frame has face-up cards"
    hidden = [c for c in view["circuit"] if c["kind"] == "route" and not c["face_up"]]
    icons = [t for t in texts if t in ICONS.values()]
    assert len(icons) == len([c for c in shown if c["effect"] != "none" or not c["surprise"]]) and hidden
    assert not any(t in ICONS.values() for t in _texts(screens()["the start"][0]))  # every card a back


def test_the_last_effect_is_in_large_type_with_its_text_in_each_language():
    view, _entry = screens()["mid-race"]
    effect = view["last_effect"]
    for lang in ("fr", "en"):
        _ = translator(lang, registry.get("rallye"))
        canvas = render("rallye", view, panel("impression-7.3"), lang, TableInfo(URL, "K7QF", NAMES[:5]))
        title = next(e for e in canvas.elements if e.label == _(EFFECT_NAMES[effect["effect"]]))
        assert title.box.height >= 20
        said = " ".join(e.label for e in canvas.elements if e.kind == "text")
        who = NAMES[effect["seat"]] or _("Blue")
        player = pawn_mark(effect["seat"]) + " " + who
        assert _("{player}, card {n}:", player=player, n=effect["position"]) in said


def test_the_frames_say_what_to_press_and_who_is_held_back():
    texts = " ".join(_texts(screens()["cancel window"][0]))
    assert "cancel oil (roll) with Protection or Shield against oil?" in texts
    assert "A answers no (20 s)" in texts
    texts = " ".join(_texts(screens()["one back, 5 choices"][0]))
    assert "who moves back 3?" in texts and "ROLL: more" in texts and "D: \u277a Eve" in texts
    texts = " ".join(_texts(screens()["one back, more choices"][0], entry={"flow": "page", "page": 1}))
    assert "A: \u277b Fanny-Marguerite" in texts
    texts = " ".join(_texts(screens()["exit or stay"][0]))
    assert "which exit?" in texts and "C: stay" in texts
    # Six lines of words would be under the panel's readable size: each held-back player gets its sign,
    # and the tacks the turns they still hold.
    view = screens()["held back, every card up"][0]
    texts = _texts(view)
    for seat, pawn in enumerate(view["pawns"]):
        if pawn["status"]:
            line = next(t for t in texts if t.startswith(f"{pawn_mark(seat)} ") and "(" in t)
            sign = STATUS_ICONS[pawn["status"]] + (str(pawn["blocked"]) if pawn["status"] == "tacks" else "")
            assert line.endswith(sign), (line, sign)
    assert any(t.endswith(STATUS_ICONS["tacks"] + "2") for t in texts)
    texts = " ".join(_texts(screens()["over"][0]))
    assert "Ranking: 1. \u2776 Anna, 2. \u2777 Blue, 3. \u2778 Chloé" in texts
    texts = " ".join(_texts(screens()["placing"][0], entry={"flow": "place", "card": 17}))
    assert "Card 17 (A/B: \u22121/+1, C/D: +6/\u22126); ROLL places it." in texts
    assert CARD_NAMES and B and C and D and E and F


# --- a full game through the mock buttons, and surprise cards from the seats' phones -------------------
@pytest.fixture
def table_device(tmp_path, seeded_draws):
    options = {"players": 3, "route_cards": 12, "laps": 1, "answer_seconds": 120, "discard_seconds": 600}
    with running_simulator(tmp_path, url="http://table.local/", game="rallye", options={"rallye": options}) \
            as running:
        yield running


def press(device, key: str) -> None:
    device.board.press(key).join(5)


def phone(device, seat: int, kind: str, args: dict) -> None:
    status, body = post_json(device.config.port, "/api/command", {"kind": kind, "args": args},
                             {"X-Seat-Token": device.table.seat_token(seat)})
    assert status == 200, body


@pytest.mark.slow
def test_a_full_game_through_the_buttons_with_surprise_cards_from_the_phones(table_device):
    device = table_device
    rng = random.Random(4)
    done: dict[str, int] = {}
    for _ in range(800):
        latest = device.table.latest
        view = latest.public
        if view["phase"] == "over":
            break
        version = device.table.version
        pending = view["pending"]
        kind = pending["kind"] if pending else "race"
        privates = {s: latest.private(s) for s in range(3)}
        cancels = [p for p in privates.get(pending and pending["seat"], {}).get("plays", [])
                   if p["command"] == "cancel"] if kind == "cancel" else []
        laid = [(s, p) for s in range(3) for p in privates[s]["plays"] if p["command"] == "lay"]
        if kind == "place":
            press(device, rng.choice("abcd"))  # move the mark, then the device rolls for the passage
            wait_for(lambda: device.table.latest.entry is not None)
            press(device, "roll")
        elif cancels:  # the victim's phone cancels; the device can only answer no
            phone(device, pending["seat"], "cancel", {"card": cancels[0]["card"]})
        elif kind in ("cancel", "trim"):
            press(device, "a")
        elif kind in ("target", "exit"):
            press(device, rng.choice("abc"[:len(controls.choices(view))]))
        elif laid and rng.random() < 0.3:  # a surprise card from a phone, in turn or not
            seat, play = rng.choice(laid)
            phone(device, seat, "lay", {"card": play["card"], "at": rng.choice(play["targets"])})
            kind = "lay"
        else:
            press(device, "roll")
            wait_for(lambda v=version: device.table.version > v)
            wait_for(lambda: device.board.dice.faces[:1] == controls.dice_shown(device.table.latest.public))
        wait_for(lambda v=version: device.table.version > v)
        done[kind] = done.get(kind, 0) + 1
    view = device.table.latest.public
    assert view["phase"] == "over" and sorted(view["ranking"]) == [0, 1, 2]
    assert {"place", "race", "cancel"} <= set(done) and done["race"] >= 6, done
    wait_for(lambda: device.display.png)


# --- the committed frames (docs/frames) ---------------------------------------------------------------
FRAMES = Path(__file__).resolve().parent.parent / "docs" / "frames"
SIZES = {"800x480": "impression-7.3", "400x300": "what-red"}


def test_the_committed_frames_are_the_real_render_path():
    """COMPANION_WRITE_FRAMES=1 redraws them; otherwise each must exist at its panel's size."""
    names = ("Anna", "Bruno", "Chloé", "Dimitri", "Emma")
    shown = {"circuit": public(mid_race(3, 140)), "effect": public(mid_race())}
    for what, view in shown.items():
        for size, model in SIZES.items():
            path = FRAMES / f"rallye-{what}-{size}.png"
            if os.environ.get("COMPANION_WRITE_FRAMES") == "1":
                info = TableInfo(URL, "K7QF", names[:view["players"]])
                render("rallye", view, panel(model), "fr", info).image.save(path)
            with Image.open(path) as image:
                assert f"{image.width}x{image.height}" == size


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("model", ["impression-7.3", "phat-red"])
def test_a_choice_on_the_glass_names_the_player_by_mark_and_name_and_its_button_picks_them(lang, model):
    """Issue 24, problem 3: "A: B Bob" read as "press B". No pawn mark is a button's letter, every
    choice reads "<button>: <mark> <name>", and that button chooses that very player."""
    assert not set(PAWN_MARKS) & set("ABCDabcd")
    state = at(track(". . one_back " + ". " * 9, players=4), 1, 4, 5, 6)
    view = public(play(state, "roll", dice=[2, 3])[0])
    names = ("Anna", "Bob", "Chloé", "David")
    canvas = render("rallye", view, panel(model), lang, TableInfo(URL, "K7QF", names))
    said = " ".join(e.label for e in canvas.elements if e.kind == "text")
    for seat in (B, C, D):
        label = f"{pawn_mark(seat)} {names[seat]}"
        key = next(k for k in "ABCD" if f"{k}\u202f: {label}" in said or f"{k}: {label}" in said)
        assert Device(SPEC, view).press(key.lower()) == Command("choose", {"seat": seat}), (key, label)
    assert f"{pawn_mark(A)} Anna" in said and not any(f"{k} Anna" in said for k in "ABCD")


@pytest.mark.parametrize(("lang", "words"), [
    ("fr", ("2 tours à passer", "1 tour à passer", "repart au prochain tour")),
    ("en", ("2 turns to sit out", "1 turn to sit out", "sets off next turn"))])
def test_the_turns_tacks_still_hold_a_player_take_the_languages_plural_forms(lang, words):
    """Issue 24, problem 10: "(1 tours)" and "(0 tours)" on the glass."""
    state = at(track(". . . . . . . . . .", players=3, status=("tacks", "tacks", "tacks"),
                     blocked=(2, 1, 0), hazards=((3, "tacks"), (5, "tacks"), (7, "tacks"))), 3, 5, 7)
    _ = translator(lang, registry.get("rallye"))
    view, info = public(state), TableInfo(URL, "K7QF", NAMES[:3])
    said = " ".join(screen._player_line(view, s, _, info, True) for s in range(3))  # the full lines
    for seat, text in enumerate(words):
        assert f"({text})" in said, (seat, text, said)
    assert "1 tours" not in said and "0 tour" not in said and "0 turns" not in said
    short = " ".join(_texts(public(state), lang))  # the short lines: the sign, and the turns left if any
    assert "\u27362 " in short and "\u27361 " in short and "\u27360" not in short


PLAYER_LINE = re.compile(r"^(\d+\. )?[\u2776-\u277b] .*(\d/\d|\u2026)|^[\u2776-\u277b] #\d")


def player_sizes(canvas) -> list[tuple[str, int]]:
    return [(e.label, e.size) for e in canvas.elements if e.kind == "text" and PLAYER_LINE.search(e.label)]


@pytest.mark.parametrize("name", [n for n in PANELS if PANELS[n].size[1] >= 200])
def test_the_players_lines_keep_the_tables_type_size_on_every_panel(name):
    """Issue 24, problem 7: player lines 12-15 px high on the 7.3" panel. Every line the table reads from
    its chairs (names, positions, laps, hands) is drawn at least at the panel's table size."""
    model = PANELS[name]
    for label, (view, entry) in screens().items():
        if view["phase"] == "over":
            continue
        info = TableInfo(URL, "K7QF", NAMES[:view["players"]], entry)
        canvas = render("rallye", view, model, "fr", info)
        sizes = player_sizes(canvas)
        assert sizes, f"{label} on {name}: no player line"
        small = [(text, size) for text, size in sizes if size < canvas.table_size]
        assert not small, f"{label} on {name}: under {canvas.table_size} px: {small}"


def _story_lines(canvas, text: str) -> list:
    """The run of text elements that together say `text`: the last effect's lines, or [] if not drawn."""
    texts = [e for e in canvas.elements if e.kind == "text"]
    for start in range(len(texts)):
        for end in range(start + 1, len(texts) + 1):
            said = " ".join(e.label for e in texts[start:end])
            if said == text:
                return texts[start:end]
            if not text.startswith(said):
                break
    return []


def _mid_phrase(lines: list[str]) -> int:
    """How many of the lines' breaks cut a phrase (a line not ending in punctuation)."""
    return sum(line[-1:] not in PHRASE_ENDS for line in lines[:-1])


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_last_effect_breaks_between_phrases_at_the_tables_type_size(lang, monkeypatch):
    """On every panel that shows the last effect's text, its lines break after punctuation more often than
    lines of even length do, and never go under the table's type size where even lines kept it."""
    view = screens()["mid-race"][0]
    _ = translator(lang, registry.get("rallye"))

    def story(model: str, name: str) -> tuple[list, int]:
        effect = {**view["last_effect"], "effect": name, "surprise": False}
        where = _("{player}, card {n}:", player=pawn_mark(effect["seat"]) + " " + NAMES[effect["seat"]],
                  n=effect["position"])
        text = f"{where} {effect_text(name, False, view['ford_exact'], _)}"
        canvas = render("rallye", {**view, "last_effect": effect}, panel(model), lang,
                        TableInfo(URL, "K7QF", NAMES[:5]))
        return _story_lines(canvas, text), canvas.table_size

    cut, evenly_cut, shown = 0, 0, set()
    for model in PANELS:
        for name in EFFECT_TEXTS:
            lines, table_size = story(model, name)
            with monkeypatch.context() as even:
                even.setattr(screen, "phrase_lines", screen._split)  # the lines of even length
                evenly = story(model, name)[0]
            if len(lines) < 2:
                continue
            shown.add(model)
            kept = min(table_size, min(e.size for e in evenly))
            assert min(e.size for e in lines) >= kept, (model, name, [e.label for e in lines])
            mid, evenly_mid = _mid_phrase([e.label for e in lines]), _mid_phrase([e.label for e in evenly])
            assert mid <= evenly_mid, (model, name, [e.label for e in lines], [e.label for e in evenly])
            cut, evenly_cut = cut + mid, evenly_cut + evenly_mid
    assert {"impression-7.3", "impression-5.7"} <= shown
    assert cut < evenly_cut * 0.75, (cut, evenly_cut)  # far fewer phrases cut than even lines cut
    # one read in full: every break after a phrase's end
    lines = story("impression-7.3", "others_back_me_forward")[0]
    assert len(lines) >= 2 and _mid_phrase([e.label for e in lines]) == 0, [e.label for e in lines]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_phrase_lines_keep_every_word_in_order_over_at_most_the_lines_asked(data):
    words = data.draw(st.lists(st.text(alphabet="ab,;:.", min_size=1, max_size=8), min_size=1, max_size=20))
    count = data.draw(st.integers(1, 5))
    text = " ".join(words)
    lines = phrase_lines(text, count)
    assert " ".join(lines) == text and len(lines) == min(count, len(words)) and all(lines)


def test_the_padlocks_and_pawns_on_the_circuit_are_read_from_a_seat():
    """The padlock counts ("↑0/2⚷") and the pawns' marks were about 10 px on the 7.3" glass: a closed
    passage's arrow now sits beside its number, so its count takes the card's width."""
    for view in (public(mid_race(3, 140)), public(mid_race())):
        canvas = render("rallye", view, panel("impression-7.3"), "fr", TableInfo(URL, "K7QF"))
        texts = [e for e in canvas.elements if e.kind == "text"]
        locks = [e for e in texts if e.label.endswith("\u26b7")]
        assert locks and min(e.size for e in locks) >= 15, [(e.label, e.size) for e in locks]
        assert all(re.fullmatch(r"\d/\d\u26b7", e.label) for e in locks)  # the arrow is beside the number
        arrows = [e for e in texts if e.label in ("\u2191", "\u2193")]
        assert len(arrows) >= len(locks)
        lone = [e for e in texts if len(e.label) == 1 and e.label in PAWN_MARKS]
        assert lone and min(e.size for e in lone) >= 16, [(e.label, e.size) for e in lone]
