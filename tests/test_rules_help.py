"""Each game's rules help (its `help` module) on its seat pages, folded, in French and English."""

from __future__ import annotations

import html

import pytest
from webfixtures import running_app

from companion import games
from companion.i18n import translator
from companion.webapp.gamefiles import rules_help

WITH_HELP = [name for name in games.names() if rules_help(name)]


def test_the_bundled_games_ship_their_help():
    assert {"dice", "crash", "rallye"} <= set(WITH_HELP)


@pytest.mark.parametrize("name", WITH_HELP)
def test_a_help_module_has_the_shape_the_seat_page_reads(name):
    found = rules_help(name)
    assert set(found) <= {"how", "cards", "names"} and found["how"]
    assert set(found.get("names", {})) <= set(found.get("cards", {}))
    french = translator("fr", name)
    for msgid in [found["how"], *found.get("cards", {}).values()]:  # names may read the same ("Protection")
        assert french(msgid) != msgid, f"{name}: no French for {msgid[:40]!r}"


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("name", WITH_HELP)
def test_the_seat_page_shows_the_games_help_folded(tmp_path, name, lang):
    with running_app(tmp_path, game=name) as (runtime, app):
        table = runtime.table
        table.seating(lambda roster, count: roster.claim(0, "Anna", count))
        page = app.test_client().get(f"/seat/{table.seat_token(0)}?lang={lang}").get_data(as_text=True)
        text = html.unescape(page)
        tr = translator(lang, name)
        found = rules_help(name)
        assert '<details class="card rules-help" id="rules-help">' in page  # folded until asked for
        assert tr("How to play") in text
        for paragraph in tr(found["how"]).split("\n\n"):
            assert f"<p>{paragraph}</p>" in text
        for card, msgid in found.get("cards", {}).items():
            assert tr(msgid) in text
            if card in found.get("names", {}):
                assert f"<dt>{tr(found['names'][card])}</dt>" in text


def test_a_game_without_help_shows_none(tmp_path, monkeypatch):
    monkeypatch.setattr("companion.webapp.gamefiles.rules_help", lambda name: {})
    with running_app(tmp_path, game="crash") as (runtime, app):
        runtime.table.seating(lambda roster, count: roster.claim(0, "Anna", count))
        page = app.test_client().get(f"/seat/{runtime.table.seat_token(0)}").get_data(as_text=True)
        assert "rules-help" not in page
