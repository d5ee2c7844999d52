"""A game made by `companion new-game`, as an outside author gets it, plugs in at once.

The package is written into a temporary folder and installed into a fresh venv beside the project's
wheel. There it passes its own tests (the conformance checks) and lints clean; the daemon of that venv
offers it in French, two phones in chromium play it to its end on the pages the table generates for
it, its e-ink frame is the one its screen draws, and its record names the winners.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from daemon_process import venv_daemon
from installed import clean_env, expected_frames, locked, make_venv, pip_run
from polling import wait_for
from test_phone_pages import CHECK, PHONE
from webfixtures import read_json, request

GAME, TITLE, TITLE_FR = "guessroll", "Guess the roll", "Devine le dé"
pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """The package `companion new-game` writes."""
    parent = tmp_path_factory.mktemp("author")
    command = ["new-game", GAME, "--dir", str(parent), "--title", TITLE, "--title-fr", TITLE_FR]
    proc = subprocess.run([sys.executable, "-m", "companion", *command], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert f"pip install -e '{parent / GAME}[test]'" in proc.stdout
    return parent / GAME


@pytest.fixture(scope="module")
def venv(made, wheel, tmp_path_factory) -> Path:
    """A fresh venv with the project's wheel, and the new game installed beside it with its test extra."""
    venv = make_venv(tmp_path_factory.mktemp("venv") / "env", wheel)
    # Its test extra (pytest, hypothesis) at the lock's versions, as the table's own tests run them.
    pins = locked(venv.parent / "pins.txt", "--extra=test", "--no-hashes")
    pip_run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-cache-dir", "-c", str(pins),
             f"{made}[test]"])
    return venv


@pytest.fixture(scope="module")
def daemon(venv, tmp_path_factory):
    with venv_daemon(venv, tmp_path_factory) as running:
        yield running


def test_writing_it_again_is_refused_and_changes_nothing(made):
    before = sorted((p.relative_to(made), p.read_bytes()) for p in made.rglob("*") if p.is_file())
    proc = subprocess.run([sys.executable, "-m", "companion", "new-game", GAME, "--dir", str(made.parent)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "already exists: nothing was written" in proc.stderr
    assert sorted((p.relative_to(made), p.read_bytes()) for p in made.rglob("*") if p.is_file()) == before


def test_it_passes_its_own_tests_and_lints_clean(made, venv):
    proc = subprocess.run([str(venv / "bin" / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                          cwd=made, capture_output=True, text=True, timeout=900, env=clean_env())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 passed" in proc.stdout
    lint = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=made,
                          capture_output=True, text=True, timeout=120)
    assert lint.returncode == 0, lint.stdout


def test_the_table_offers_it_in_french(daemon):
    games = {game["name"]: game for game in read_json(daemon.port, "/api/games?lang=fr")["games"]}
    assert games[GAME]["title"] == TITLE_FR and games[GAME]["seats"] == [2, 4]
    properties = games[GAME]["options"]["$defs"]["Options"]["properties"]
    titles = (properties["players"]["title"], properties["target"]["title"])
    assert titles == ("Joueurs", "Points pour gagner")


def test_two_phones_play_it_to_the_end_on_the_generated_pages(daemon, venv, browser):
    from playwright.sync_api import expect

    started = time.time()  # the frame states the time of the state it shows
    host = daemon.get_host("/api/host")
    code = host["join_code"]
    names = ("Léa", "Zoé")
    tokens = [daemon.post("/api/join", {"code": code, "seat": seat, "name": name}, headers={})[1]["token"]
              for seat, name in enumerate(names)]
    status, answer = daemon.post("/api/command", {"kind": "new_game", "args": {
        "game": GAME, "options": {"players": 2, "target": 2}}})
    assert status == 200, answer
    phones = []
    for token in tokens:
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
        page = context.new_page()
        page.goto(f"{daemon.base}/seat/{token}?lang=fr")
        phones.append(page)

    def settled() -> dict:
        """The table's state, once both phones show it, fit 390 px and have no control under 44 px."""
        state = daemon.get("/api/state")
        for page in phones:
            expect(page.locator("body")).to_have_attribute("data-version", str(state["version"]))
            found = page.evaluate(CHECK, [])
            assert found["wide"] <= PHONE["width"] and not found["small"], (page.url, found)
        return state

    guesses = (1, 6)  # far apart: most rolls decide the round
    for _ in range(12):  # each round, at least one player scores: two or three rounds reach 2 points
        state = settled()
        if state["public"]["over"]:
            break
        for seat, page in enumerate(phones):
            form = page.locator("#command-guess")
            if not state["public"]["guessed"][seat]:
                expect(form.locator("button.send")).to_have_text("Pronostiquer")
                form.locator("#command-guess-value").get_by_role("button", name=str(guesses[seat]),
                                                                 exact=True).click()
                form.locator("button.send").click()
                expect(form).to_be_hidden()
        state = settled()
        roller = phones[state["public"]["roller"]].locator("#command-roll button.send")
        expect(roller).to_have_text("Lancer le dé")
        roller.click()
        before = state["version"]
        wait_for(lambda before=before: daemon.get("/api/state")["version"] > before)
    state = settled()
    view = state["public"]
    assert view["over"] and view["winners"] and max(view["scores"]) == 2
    for page in phones:
        expect(page.locator("#command-forms form:visible")).to_have_count(0)
        expect(page.locator("body")).to_contain_text(TITLE_FR)

    # The glass shows the end, as the game's own screen draws it in French.
    expected = expected_frames(venv, GAME, view, daemon.base, host, names, started)
    wait_for(lambda: request(daemon.port, "GET", "/api/device/frame.png")[1] in expected, timeout=60)
    # And its record says who won, as its own views declare it.
    result = read_json(daemon.port, "/api/record")["result"]
    assert result == {"winners": view["winners"], "scores": view["scores"], "ranks": None}
