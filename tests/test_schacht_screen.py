"""Crazy Race (Schacht): the e-ink screen on every panel, from mid-stage to the end."""

from __future__ import annotations

from dataclasses import replace

import pytest
from schacht_play import public_view
from test_panels import assert_fits, assert_qr
from test_schacht_rules import EXAMPLE_BIDS, ORANGE, example, move, play

from companion.core import registry
from companion.devices.panels import PANELS, panel
from companion.gamekit.contract import TableInfo
from companion.gamekit.frame import join_link
from companion.games.schacht.rules import final_result
from companion.i18n import translator
from companion.outputs.frames import render

URL = "http://192.168.1.20:8080/"
TABLE = TableInfo(URL, "K7Q2", ("", "Zoé", "", ""))


def views() -> dict[str, tuple[dict, dict | None]]:
    mid, _ = play(example(), *EXAMPLE_BIDS[:7])
    deciding, _ = play(example(), *EXAMPLE_BIDS)
    post, _ = play(example(), *EXAMPLE_BIDS, move(ORANGE, ("A", 2)))
    over = replace(post, phase="over", final=final_result(post))
    return {
        "mid-stage": (public_view(mid), None),
        "choosing a side": (public_view(mid), {"side": 2}),
        "deciding": (public_view(deciding), {"split": [["A", 2]]}),
        "after evaluation": (public_view(post), None),
        "over": (public_view(over), None),
    }


CASES = list(views().items())


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("label", "case"), CASES, ids=[c[0] for c in CASES])
def test_the_screen_fits_every_panel(label, case, lang):
    view, entry = case
    _ = translator(lang, registry.get("schacht"))
    for name, model in PANELS.items():
        where = f"schacht ({label}, {lang}) on {name}"
        canvas = render("schacht", view, model, lang, replace(TABLE, entry=entry))
        assert_fits(canvas, where)
        assert_qr(canvas, join_link(TABLE), where)
        texts = [e.label for e in canvas.elements if e.kind == "text"]
        assert _("Crazy Race (Schacht)") in texts, where


def texts_of(view, entry=None, size="impression-7.3") -> list[str]:
    canvas = render("schacht", view, panel(size), "en", replace(TABLE, entry=entry))
    return [e.label for e in canvas.elements if e.kind == "text"]


@pytest.mark.parametrize("size", ["impression-7.3", "what-black"])
def test_mid_stage_shows_backs_as_marks_the_round_and_whose_turn(size):
    view, _ = views()["mid-stage"]
    texts = texts_of(view, size=size)
    assert "Stage 1/8, round 3/3" in texts and "\u2778 Green to play" in texts
    # Beside the top side: orange's card then lilac's two, as backs with the seats' marks (❶ lilac, ❷ Zoé,
    # ❸ green, as on the phones), never values.
    assert texts.count("\u2776") == 2 and texts.count("\u2777") == 1 and texts.count("\u2778") == 2
    assert "\u2715" in texts  # the taboo side


def test_after_evaluation_each_side_shows_its_totals_winner_and_move():
    view, _ = views()["after evaluation"]
    texts = texts_of(view)
    assert {"\u27763", "\u27773", "\u27781", "\u27764", "\u27783"} <= set(texts)
    assert "A: \u2777 Zoé 3 \u2192 A+2 (+5)" in texts and "B: \u2778 Green 1 \u2192 A+4 (+6)" in texts
    assert "C: \u2776 Lilac 4 \u2192 B+2 (+5)" in texts
    assert "B\n\u25c0" in texts and "\u2713A" in texts  # B home-bound on 4; green's A has finished


def test_the_side_being_chosen_is_marked_without_any_value():
    view, _ = views()["mid-stage"]
    texts = texts_of(view, {"side": 2})
    assert "C\u25c6" in texts and "\u2778 Green: a card beside C" in texts
