"""Each game's rules help (its spec's `help`) on its seat pages, folded, in French and English."""

from __future__ import annotations

import html
from dataclasses import replace

import pytest
from webfixtures import plug_game, running_app

from companion.core import registry
from companion.gamekit import BLUE, RED, Looks
from companion.i18n import translator

WITH_HELP = [name for name in registry.names() if registry.get(name).help is not None]


def test_the_bundled_games_ship_their_help():
    assert {"dice", "crash", "rallye"} <= set(WITH_HELP)


@pytest.mark.parametrize("name", WITH_HELP)
def test_a_games_help_names_only_cards_it_explains_and_is_in_french(name):
    found = registry.get(name).help
    assert found.how and set(found.names) <= set(found.cards)
    french = translator("fr", registry.get(name))
    for msgid in [found.how, *found.cards.values()]:  # names may read the same ("Protection")
        assert french(msgid) != msgid, f"{name}: no French for {msgid[:40]!r}"


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("name", WITH_HELP)
def test_the_seat_page_shows_the_games_help_folded(tmp_path, name, lang):
    with running_app(tmp_path, game=name) as (runtime, app):
        table = runtime.table
        table.seating(lambda roster, count: roster.claim(0, "Anna", count))
        page = app.test_client().get(f"/seat/{table.seat_token(0)}?lang={lang}").get_data(as_text=True)
        text = html.unescape(page)
        tr = translator(lang, registry.get(name))
        found = registry.get(name).help
        assert '<details class="card rules-help" id="rules-help">' in page  # folded until asked for
        assert tr("How to play") in text
        for paragraph in tr(found.how).split("\n\n"):
            assert f"<p>{paragraph}</p>" in text
        for card, msgid in found.cards.items():
            assert tr(msgid) in text
            if card in found.names:
                assert f"<dt>{tr(found.names[card])}</dt>" in text


def test_a_game_without_help_shows_none(tmp_path, monkeypatch):
    plug_game(monkeypatch, replace(registry.get("crash"), looks=Looks(colours=(BLUE, RED))))
    with running_app(tmp_path, game="crash") as (runtime, app):
        runtime.table.seating(lambda roster, count: roster.claim(0, "Anna", count))
        page = app.test_client().get(f"/seat/{runtime.table.seat_token(0)}").get_data(as_text=True)
        assert "rules-help" not in page
