"""Every e-ink frame of every game with 24-letter accented names, on every panel: names stay readable.

One long name must not shrink a table: names give way with an ellipsis, and every drawn name keeps at
least the panel's readable height (the cap height of `Canvas.min_size`, the 800x480 panel's 14 px
scaled to the panel).
"""

from __future__ import annotations

import re

import pytest
from test_crash_screen import SHOWCASE as CRASH_FRAMES
from test_gewalt_device import frames as gewalt_frames
from test_panels import assert_fits, dice_views
from test_rallye_device import screens as rallye_frames
from test_schacht_screen import views as schacht_frames

from companion.core import registry
from companion.devices.panels import PANELS
from companion.gamekit.colours import SEAT_MARKS
from companion.gamekit.contract import TableInfo
from companion.i18n import translator
from companion.locale.update import domains, load
from companion.outputs.frames import render
from companion.render.layout import ELLIPSIS, NAME_TAIL, seat_initials, short_name, text_box
from companion.render.palette import INKS, Palette

URL = "http://192.168.1.20:8080/"
LONG = "François-Hélène Ødegård"  # 23 letters; each seat adds its own 24th
NAMES = tuple(f"{LONG}{letter}" for letter in "ABCDEF")
assert all(len(name) == 24 for name in NAMES)


def all_frames() -> dict[str, dict[str, tuple[dict, dict | None]]]:
    return {
        "schacht": schacht_frames(),
        "gewalt": gewalt_frames(),
        "crash": {label: (view, None) for label, view in CRASH_FRAMES.items()},
        "rallye": rallye_frames(),
        "dice": {label: (view, None) for label, view in dice_views().items()},
    }


FRAMES = all_frames()
CASES = [(game, label) for game, frames in FRAMES.items() for label in frames]


def cap_height(size: int) -> int:
    left, top, right, bottom = text_box("F", size, True)
    return bottom - top


def name_texts(canvas) -> list:
    """The drawn texts that show a long name, whole or cut ("Françoi…")."""
    return [e for e in canvas.elements if e.kind == "text" and LONG[:4] in e.label]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("game", "label"), CASES, ids=[f"{g}-{v}" for g, v in CASES])
def test_long_names_keep_a_readable_height_on_every_panel(game, label, lang):
    view, entry = FRAMES[game][label]
    for panel_name, model in PANELS.items():
        canvas = render(game, view, model, lang, TableInfo(URL, "K7QF", NAMES, entry))
        where = f"{game} ({label}, {lang}) on {panel_name}"
        assert_fits(canvas, where)
        least = cap_height(canvas.min_size)
        for element in name_texts(canvas):
            high = element.box.height
            assert high >= least, f"{where}: {element.label!r} is {high} px high, under {least} px"
            if element.shortened:  # cut at the end, or (a name alone) before its last letters
                assert element.label.endswith(ELLIPSIS) or ELLIPSIS in element.label[-NAME_TAIL - 1:], where


# --- seats' colours on the glass ---------------------------------------------------------------
@pytest.mark.parametrize("panel_name", PANELS)
def test_a_seat_is_drawn_in_the_panel_ink_nearest_its_hue_never_a_misleading_one(panel_name):
    palette = Palette(PANELS[panel_name].inks)
    lilac = registry.get("schacht").colours[0]
    assert lilac.key == "lilac"
    drawn = palette.seat(lilac.ink)
    assert drawn != INKS["red"], f"{panel_name}: the lilac seat is drawn red"
    assert drawn == (INKS["blue"] if "blue" in palette.inks else INKS["black"])
    for game in ("schacht", "gewalt", "crash", "rallye"):
        for colour in registry.get(game).colours:
            ink = palette.seat(colour.ink)
            assert ink != INKS["white"], f"{game} {colour.key} drawn in paper white on {panel_name}"
            if colour.key in palette.inks and colour.key in ("red", "green", "blue"):  # its own ink
                assert ink == INKS[colour.key], (game, colour.key, panel_name)


def test_schacht_card_backs_carry_the_seats_mark_besides_its_colour():
    view, entry = schacht_frames()["mid-stage"]
    canvas = render("schacht", view, PANELS["what-black"], "en", TableInfo(URL, "K7QF", NAMES, entry))
    texts = {e.label for e in canvas.elements if e.kind == "text"}
    backs = {seat for side in view["bids"] for seat in side}
    # every long name starts with F: the seat's mark (as on the phones) tells them apart on black-only glass
    assert {SEAT_MARKS[seat] for seat in backs} <= texts
    assert seat_initials(["Zoé", "anna", "", "Bob"]) == ["Z", "A", "3", "B"]
    assert seat_initials(["Fanny", "Félix", "Zoé"]) == ["F1", "F2", "Z"]


# --- the button's name --------------------------------------------------------------------------
def test_the_french_glass_names_the_roll_button_as_the_twin_does():
    twin = translator("fr")("Roll").upper()
    assert twin == "LANCER"
    for domain in domains():
        for message in load("fr", domain):
            text = message.string if isinstance(message.string, str) else " ".join(message.string or ())
            assert not re.search(r"\bROLL\b", text or ""), f"{domain.name}: {text!r} says ROLL, not {twin}"


# --- one long name does not shrink the others (issue 13, defect 3) ------------------------------
def sizes(game: str, frame: str, names: tuple[str, ...], labels: set[str]) -> dict[str, int]:
    view, entry = FRAMES[game][frame]
    canvas = render(game, view, PANELS["impression-7.3"], "fr", TableInfo(URL, "K7QF", names, entry))
    return {e.label: e.size for e in canvas.elements if e.kind == "text" and e.label in labels}


def test_a_long_name_leaves_schachts_lanes_and_gewalts_scores_at_their_size():
    short, long = ("Anna", "Zoé", "Chloé", "Dana", "Eve"), (NAMES[0], "Zoé", "Chloé", "Dana", "Eve")
    # A long name keeps its first letters ("Fran…") at about the size the others set: a few points less
    # at most, where its first letters are wider than the short names (it drew at 8 px before).
    alone = sizes("schacht", "mid-stage", short[:4], {"\u2777 Zoé★", "\u2778 Chloé"})
    beside = sizes("schacht", "mid-stage", long[:4], {"\u2777 Zoé★", "\u2778 Chloé"})
    assert alone.keys() == beside.keys() and len(set(beside.values())) == 1  # one size for the lanes' names
    assert all(beside[k] >= 0.85 * alone[k] and beside[k] >= 14 for k in alone), (alone, beside)
    table = {"Joueur", "Total", "\u2777 B Zoé", "\u2778 C Chloé"}
    scores = sizes("gewalt", "end", short, table)
    assert scores == sizes("gewalt", "end", long, table) and len(scores) == 4
    assert min(scores.values()) >= 14  # the whole table dropped to 8 px type before


# --- two names that differ only at the end (issue "Venues and trust, third pass", 11) ------------
@pytest.mark.slow
def test_two_names_that_differ_at_the_end_never_look_the_same_on_any_frame():
    """Every frame of every game, on every panel: swapping "Christopher Robinson" and "Christopher
    Robinsons" changes the frame wherever either is shown (both read "Christop…" before)."""
    from bench_name_swaps import alike

    same, counted = alike()
    assert counted > 500 and same == []


def test_a_cut_name_keeps_its_end_beside_a_name_that_begins_alike():
    assert short_name("Christopher Robinson") == "Chris…son" and short_name("Christophe") == "Chris…phe"
    names = ("Christopher Robinson", "Christopher Robinsons", "Christine")
    assert [TableInfo(URL, "K7QF", names).name(seat) for seat in range(3)] == \
        ["Chris…son", "Chris…ons", "Christine"]
    assert TableInfo(URL, "K7QF", ("Christopher Robinson", "Ada")).name(0) == "Christopher Robinson"
