"""The pages a game made by `companion new-game` gets, as a phone shows them: each label once, and the
words the other games use ("Partie terminée"), in French and English."""

from __future__ import annotations

import importlib
import sys

import pytest
from test_generated_pages import open_phone
from webfixtures import live_server, plug_game, running_app

from companion.scaffold import new_game

GAME = "guesspage"
WORDS = {"fr": {"guess": "Votre pronostic", "over": "Partie terminée"},
         "en": {"guess": "Your guess", "over": "Game over"}}


@pytest.fixture
def scaffolded_table(tmp_path, monkeypatch):
    """The new game, written as an author gets it, plugged into a running table with two seats taken."""
    made = new_game(GAME, tmp_path, title="Guess the roll", title_fr="Devine le dé")
    monkeypatch.syspath_prepend(str(made))  # the project folder holds the package, as pip installs it
    spec = importlib.import_module(GAME).SPEC
    plug_game(monkeypatch, spec)
    with running_app(tmp_path / "table", game=GAME) as (runtime, app):
        for seat, name in enumerate(("Anna", "Zoé")):
            runtime.table.seating(lambda roster, count, seat=seat, name=name: roster.claim(seat, name, count))
        yield runtime, app
    for module in [m for m in sys.modules if m == GAME or m.startswith(f"{GAME}.")]:
        del sys.modules[module]  # gone for good: the next test writes the game afresh


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("lang", WORDS)
def test_a_new_games_seat_page_names_each_thing_once_in_the_tables_words(browser, scaffolded_table, lang):
    """Issue 31: the generated seat page showed "Votre pronostic" twice (the guess form's field and the
    private view), and the new game said "Partie finie" where every other game says "Partie terminée"."""
    from playwright.sync_api import expect

    runtime, app = scaffolded_table
    words = WORDS[lang]
    with live_server(app) as srv:
        ctx, page = open_phone(browser, f"{srv.url}seat/{runtime.table.seat_token(0)}", lang)
        try:
            expect(page.locator("body")).to_have_attribute("data-version", str(runtime.table.version))
            expect(page.locator("#command-guess")).to_be_visible()
            shown = page.get_by_text(words["guess"], exact=True)
            expect(shown).to_have_count(1)
            expect(page.locator("#public-view")).to_contain_text(words["over"])
        finally:
            ctx.close()
