"""The glass asks the buttons only for what they may do: a seat played from a phone chooses on its phone,
and a press the rules refuse blinks the status LED."""

from __future__ import annotations

import re

import pytest
from polling import wait_for
from simulator import glass_offers, running_simulator
from webfixtures import host_of, post_json

from companion.core import registry
from companion.devices.panels import PANELS
from companion.gamekit.contract import TableInfo
from companion.games.rallye.screen import prompt
from companion.i18n import translator
from companion.outputs.frames import render

URL = "http://192.168.1.20:8080/"



def texts(companion, key) -> list[str]:
    game, view, info, lang = key
    return [e.label for e in render(game, view, companion.model, lang, info).elements if e.kind == "text"]


def test_gewalt_asks_a_phone_s_seat_to_place_its_cards_on_its_phone_and_a_refused_press_blinks(tmp_path):
    with running_simulator(tmp_path / "state", game="gewalt", language="en") as companion:
        port, table = companion.server.port, companion.table
        offers = glass_offers(companion)
        turn = table.latest.public["turn"]
        status, _ = post_json(port, "/api/command", {"kind": "new_game", "args": {"game": "gewalt"}},
                              host_of(companion))
        assert status == 200
        wait_for(lambda: offers)
        # the buttons' seat
        assert "Press ROLL, or A to place a section card." in texts(companion, offers[-1][0])
        status, _ = post_json(port, "/api/join", {"code": table.roster.join_code(), "seat": turn,
                                                  "name": "Anna"})
        assert status == 200
        wait_for(lambda: turn in offers[-1][0][2].phones)
        shown = texts(companion, offers[-1][0])
        assert "Press ROLL, or place a section card from the phone." in shown
        assert not any("A to place" in text for text in shown)
        blinks: list[bool] = []
        reject = companion.board.reject
        companion.board.reject = lambda: (blinks.append(True), reject())
        for button in ("a", "b", "c", "d"):  # a card placed by the buttons for Anna's seat
            post_json(port, "/api/device/press", {"button": button}, host_of(companion))
        wait_for(lambda: blinks)  # refused: the status LED blinks at once
        assert table.latest.public["turn"] == turn and not table.latest.public["cards"]


ASKED = ["placing", "a hand over 3", "one back, 5 choices", "exit or stay", "cancel window"]
BUTTONS = re.compile(r"\b(A|B|C|D|ROLL|LANCER)\b(?! s\b)")


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("label", ASKED)
def test_the_rallye_asks_a_phone_s_seat_to_choose_on_its_phone_and_names_no_button(label, lang):
    from test_panels import assert_fits
    from test_rallye_device import NAMES, screens

    view, entry = screens()[label]
    actor = view["actor"]
    phones = TableInfo(URL, "K7QF", NAMES[:view["players"]], entry, phones=frozenset({actor}))
    buttons = TableInfo(URL, "K7QF", NAMES[:view["players"]], entry)
    asked = prompt(view, translator(lang, registry.get("rallye")), phones)
    assert not BUTTONS.search(asked), asked
    assert ("phone" if lang == "en" else "téléphone") in asked
    assert BUTTONS.search(prompt(view, translator(lang, registry.get("rallye")), buttons))
    for name in ("impression-7.3", "spectra-7.3", "what-black", "phat-black"):
        assert_fits(render("rallye", view, PANELS[name], lang, phones), f"{label} ({lang}) on {name}")
