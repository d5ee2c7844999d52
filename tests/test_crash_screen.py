"""Crash! on the e-ink: every moment on every panel in French and English, the marks, the committed frames."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from crash_play import showcase
from PIL import Image, ImageChops
from test_panels import assert_fits, assert_qr

from companion.core import registry
from companion.devices.panels import PANELS, panel
from companion.gamekit.colours import SEAT_MARKS
from companion.gamekit.contract import TableInfo
from companion.gamekit.frame import QR_MIN_HEIGHT, join_link
from companion.games.crash import SPEC
from companion.games.crash.names import COLOURS
from companion.i18n import translator
from companion.outputs.frames import render

URL = "http://192.168.1.20:8080/"
JOIN = join_link(TableInfo(URL, "K7QF"))  # what the QR code holds
SHOWCASE = {label: SPEC.public_json(state) for label, state in showcase().items()}
ENTRIES = {
    "no input": None,
    "die taken": {"steer": {"die": 1, "car": 1, "facing": None, "move": False}},
    "turning": {"steer": {"die": 1, "car": 1, "facing": "nw", "move": False}},
    "moving": {"steer": {"die": 0, "car": 1, "facing": None, "move": True}},
    "ending": {"ending": True},
    "marking out": {"mark_out": {"seat": 1, "car": 4, "where": 2}, "step": "where"},
}
# One panel of each size: the inks change no layout.
SIZES_ONCE = {model.size: name for name, model in reversed(PANELS.items())}
ONE_OF_EACH_SIZE = {name: PANELS[name] for name in SIZES_ONCE.values()}
NAMES = {"no names": ("", ""), "long names": ("Dimitri-Alexandre", "Marie-Bérénice")}


def frame(view: dict, model, lang: str, entry=None, names=("Anna", "")):
    return render("crash", view, model, lang, TableInfo(URL, "K7QF", names, entry))


def texts(canvas) -> list[str]:
    return [e.label for e in canvas.elements if e.kind == "text"]


def check_fits(label: str, lang: str, names_label: str, models) -> None:
    view = SHOWCASE[label]
    _ = translator(lang, registry.get("crash"))
    for name, model in models.items():
        where = f"{label} ({lang}, {names_label}) on {name}"
        canvas = frame(view, model, lang, names=NAMES[names_label])
        assert canvas.size == model.size
        assert_fits(canvas, where)
        assert_qr(canvas, JOIN, where)
        assert _("Crash!") in texts(canvas), where
        cut = [e.label for e in canvas.elements if e.kind == "text" and e.shortened]
        # Only a long chosen name may end in an ellipsis (in the players' table), nothing else.
        assert all(text[:4] in ("Dimi", "Mari") for text in cut), (where, cut)




@pytest.mark.parametrize("index", range(len(SHOWCASE)), ids=list(SHOWCASE))
def test_every_moment_fits_a_panel_of_each_size(index):
    check_fits(list(SHOWCASE)[index], ("fr", "en")[index % 2], list(NAMES)[index // 2 % 2], ONE_OF_EACH_SIZE)


@pytest.mark.slow
@pytest.mark.parametrize("names_label", list(NAMES))
@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("label", list(SHOWCASE))
def test_every_moment_fits_every_panel_in_both_languages(label, lang, names_label):
    check_fits(label, lang, names_label, PANELS)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("entry", list(ENTRIES))
def test_every_input_in_progress_fits_and_is_said(entry, lang):
    view = SHOWCASE["dice only" if entry == "marking out" else "steering"]
    _ = translator(lang, registry.get("crash"))
    for name, model in ONE_OF_EACH_SIZE.items():
        canvas = frame(view, model, lang, ENTRIES[entry])
        assert_fits(canvas, f"{entry} ({lang}) on {name}")
        words = " ".join(texts(canvas))
        if model.size[1] >= QR_MIN_HEIGHT and entry != "no input":
            expected = {"die taken": "B1", "turning": _("north-west"), "moving": "B1", "ending": "D",
                        "marking out": "R5"}[entry]
            assert expected in words, (name, words)


@pytest.mark.parametrize("label", ["steering", "push chain", "automatic phase"])
def test_the_board_shows_each_car_with_its_facing_and_the_junkyards_with_their_counts(label):
    view = SHOWCASE[label]
    for name, model in ONE_OF_EACH_SIZE.items():
        canvas = frame(view, model, "en")
        arrows = sorted(e.label for e in canvas.elements if e.kind == "arrow")
        on_board = sorted(f"{c['seat']}:{c['car']}:{c['facing']}" for c in view["cars"] if c["q"] is not None)
        if model.size[1] < QR_MIN_HEIGHT:
            assert arrows == [], name  # the pHATs draw a summary, not the board
            continue
        assert arrows == on_board, name
        shown = texts(canvas)
        for junkyard in view["junkyards"]:  # each with its owner's mark: the colour alone does not say whose
            assert f"{SEAT_MARKS[junkyard['owner']]}{junkyard['count']}" in shown, name
        for car in view["cars"]:
            if car["q"] is not None:
                assert str(car["car"]) in shown


def test_the_dice_show_which_were_rolled_again_used_and_lost():
    canvas = frame(SHOWCASE["push chain"], panel("impression-7.3"), "en")
    dice = [e.label for e in canvas.elements if e.kind == "die"]
    assert dice == ["1", "1", "4"]
    assert {"used", "\u21bb5 used", "\u21bb4 lost"} <= set(texts(canvas))
    narrow = texts(frame(SHOWCASE["push chain"], panel("what-red"), "en"))
    assert "\u21bb5" in narrow or "\u21bb5 used" in narrow


def test_the_cars_moved_by_the_last_command_are_marked():
    """Against the same frame without marks, the pixels change at each moved car's cell (its border runs
    past the arrow's tip) and nowhere near a car that did not move; the info column names them."""
    model = panel("impression-7.3")
    for label, named in (("automatic phase", "B1, B2, B3, B6"), ("push chain", "R5 into junkyard Blue")):
        view = SHOWCASE[label]
        marked = frame(view, model, "en")
        diff = ImageChops.difference(marked.image, frame(dict(view, moved=[]), model, "en").image)
        moved = {f"{m['seat']}:{m['car']}:" for m in view["moved"]}
        for arrow in (e for e in marked.elements if e.kind == "arrow"):
            margin = 3 if arrow.label[:4] in moved else 1
            box = (arrow.box.x0 - margin, arrow.box.y0 - margin, arrow.box.x1 + margin, arrow.box.y1 + margin)
            assert bool(diff.crop(box).getbbox()) == (arrow.label[:4] in moved), (label, arrow.label)
        assert named in " ".join(texts(marked)), label


def test_the_small_panels_summarise_turn_phase_dice_junkyards_and_cars_left():
    _ = translator("fr", registry.get("crash"))
    view = SHOWCASE["push chain"]
    for name in ("phat-red", "phat-ssd1608-black", "phat-4colour"):
        canvas = frame(view, panel(name), "fr", names=("Anna", ""))
        shown = texts(canvas)
        assert _("Game {game}/{games}, turn {turn}", game=1, games=2, turn=8) in shown
        assert _("{name} steers", name="Anna") in shown
        assert [e.label for e in canvas.elements if e.kind == "die"] == ["1", "1", "4"]
        assert _("{name}: {cars} cars, junkyard {junkyard}", name="❶ Anna", cars=4, junkyard=1) in shown
        red = "❷ " + _("Red")
        assert _("{name}: {cars} cars, junkyard {junkyard}", name=red, cars=5, junkyard=1) in shown


def test_the_end_says_who_won_and_the_match_what_is_next():
    _ = translator("en", registry.get("crash"))
    shown = " ".join(texts(frame(SHOWCASE["match, game 1 over"], panel("impression-7.3"), "en")))
    assert "Anna wins 2\u20131!" in shown and "Games won: 1\u20130." in shown and "ROLL: next game." in shown
    match = SHOWCASE["match over"]["match"]
    assert match["over"] and match["wins"] == [2, 0]
    shown = " ".join(texts(frame(SHOWCASE["match over"], panel("impression-7.3"), "en")))
    # one score at a match's end, its games won, as the phones say it: not the last game's junkyards too
    assert "Anna wins 2\u20130!" in shown and "Anna wins the match." in shown and "Games won" not in shown
    shown = " ".join(texts(frame(SHOWCASE["stalled"], panel("impression-7.3"), "en")))
    assert "Draw, 0\u20130" in shown and "Stopped: 1 turn without a car out." in shown  # a plural form
    french = " ".join(texts(frame(SHOWCASE["stalled"], panel("impression-7.3"), "fr")))
    assert "1 tour" in french and "1 tours" not in french
    assert "Draw, 1\u20131" in " ".join(texts(frame(SHOWCASE["draw"], panel("what-red"), "en")))


# --- the committed frames (docs/frames) ----------------------------------------------------------------
FRAMES = Path(__file__).resolve().parent.parent / "docs" / "frames"
SIZES = {"800x480": "impression-7.3", "400x300": "what-red"}
COMMITTED = {
    # North has taken die 2 (a 5 rolled again: 1) and is turning car 1 to face south
    "mid-game": ("steering", {"steer": {"die": 1, "car": 1, "facing": "s", "move": False}}),
    "push-chain": ("push chain", None),  # car 1 drove south: South's 2 pushed, South's 5 into the junkyard
}


def test_the_committed_frames_are_the_real_render_path():
    """COMPANION_WRITE_FRAMES=1 redraws them; otherwise each must exist at its panel's size."""
    for what, (label, entry) in COMMITTED.items():
        for size, model in SIZES.items():
            path = FRAMES / f"crash-{what}-{size}.png"
            if os.environ.get("COMPANION_WRITE_FRAMES") == "1":
                frame(SHOWCASE[label], panel(model), "fr", entry, ("Anna", "Bruno")).image.save(path)
            with Image.open(path) as image:
                assert f"{image.width}x{image.height}" == size


def test_a_view_from_an_old_state_without_moves_still_draws():
    view = replace(showcase()["new game"], moved=())
    assert frame(SPEC.public_json(view), panel("what-black"), "en").elements


@pytest.mark.parametrize("name", [n for n in PANELS if PANELS[n].size[1] >= 200])
def test_the_dice_only_summary_keeps_the_tables_type_size(name):
    """Issue 24, problem 7: Crash!'s dice-only summary in 12 px lines with half the panel empty."""
    for label in ("dice only", "dice only, steering"):
        canvas = frame(SHOWCASE[label], PANELS[name], "fr", names=("Grand-mère Josette", "Anna"))
        lines = [e for e in canvas.elements if e.kind == "text"
                 and any(word in e.label for word in ("Grand-mère", "Anna", "casse"))]
        assert len(lines) >= 2, (label, name)
        small = [(e.label, e.size) for e in lines if e.size < canvas.table_size]
        assert not small, f"{label} on {name}: under {canvas.table_size} px: {small}"


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_columns_names_beside_the_players_are_read_on_the_7_inch_glass(lang):
    """Issue 31, problem 12: "cars / junkyard" were 14 px (about 12 px of ink) beside 30 px names."""
    words = {"fr": ("voitures", "casse"), "en": ("cars", "junkyard")}[lang]
    for name in ("impression-7.3", "spectra-7.3"):
        canvas = frame(SHOWCASE["steering"], panel(name), lang, names=("Anna", "Bruno"))
        heads = [e for e in canvas.elements if e.kind == "text" and e.label in words]
        assert len(heads) == 2 and min(e.size for e in heads) >= 17, [(e.label, e.size) for e in heads]
        names = [e for e in canvas.elements if e.kind == "text" and e.label in ("Anna", "Bruno")]
        assert min(e.size for e in names) >= canvas.table_size


def test_each_player_in_the_glass_table_carries_its_mark_in_its_ink_beside_its_name():
    """Issue 31: colour never alone. Two players' rows: ❶ and ❷ in each seat's ink, before the name, and
    a long name's cut never takes the mark."""
    for name in ("impression-7.3", "spectra-7.3", "phat-black"):
        model = panel(name)
        canvas = frame(SHOWCASE["steering"], model, "en", names=("Dimitri-Alexandre", "Marie-Bérénice"))
        marks = {e.label: e for e in canvas.elements if e.kind == "text" and e.label in SEAT_MARKS[:2]}
        if model.size[0] < 400:  # the pHATs' summary lines start with the mark
            lines = [e.label for e in canvas.elements if e.kind == "text" and e.label[:1] in SEAT_MARKS]
            assert [line[:1] for line in lines] == list(SEAT_MARKS[:2]), (name, lines)
            continue
        assert set(marks) == set(SEAT_MARKS[:2]), name
        inks = canvas.palette.seats([colour.ink for colour in COLOURS])
        for seat, mark in enumerate(SEAT_MARKS[:2]):
            box = marks[mark].box
            seen = {canvas.image.convert("RGB").getpixel((x, y)) for x in range(box.x0, box.x1)
                    for y in range(box.y0, box.y1)}
            assert tuple(inks[seat]) in seen, (name, mark, inks[seat])
            row = [e for e in canvas.elements if e.kind == "text" and e.box.y0 < box.y1 and e.box.y1 > box.y0
                   and e.box.x0 >= box.x1 and e.label.startswith(("Dimi", "Mari"))]
            assert row, (name, mark)
