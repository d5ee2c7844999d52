"""The dashboard through a convention's day: a live page's messages after the first carry only what
changed, a page's first load is bounded and pages through the rest exactly once, and the standings kept
as results come, are corrected and voided always equal the standings recomputed from every result."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

import pytest
import venue_parts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from venue_parts import update
from webfixtures import SSEClient, get_json, post_json

from companion.venue.board import Arrived, Board, CorrectionError

broker, served = venue_parts.broker, venue_parts.served  # this module's fixtures
BY = ("places", "points")
WINDOW = 50  # the results, and standings rows, a page gets at first and at each "older"


def recomputed(results: list[dict], by: str = "places", game: str | None = None) -> list[dict]:
    """The standings as the dashboard computed them before it kept them: every result read again (the
    oracle the kept standings must equal)."""
    totals: dict[str, dict] = {}
    for result in results:
        if result["voided"] is not None or (game is not None and result["game"] != game):
            continue
        figures = result["places"] if by == "places" else (result["scores"] or [])
        for player, figure in zip(result["players"], figures, strict=False):
            if type(figure) is not int:
                continue
            row = totals.setdefault(player, {"player": player, "total": 0, "games": 0})
            row["total"] += figure
            row["games"] += 1
    return sorted(totals.values(), key=lambda row: (row["total"] if by == "places" else -row["total"],
                                                    row["player"]))


def finished(version: int, players=("Ada", "Bo"), scores=(4, 2), game: str = "gewalt") -> dict:
    """A table's update at the end of a game."""
    result = {"winners": [0], "scores": list(scores) if scores is not None else None, "ranks": None}
    return {**update(version, players, over=True, result=result), "game": game}


def a_day(board: Board, tables: int, games: int, players=lambda n: ("Ada", "Bo")) -> None:
    """`games` games played at each of `tables` tables: a move, then the game's end, each time."""
    burst = []
    for game in range(games):
        for table in range(tables):
            n = game * tables + table
            burst += [Arrived(f"t{table:03}", 2 * game + 1, 2 * game + 1, update(2 * game + 1, players(n))),
                      Arrived(f"t{table:03}", 2 * game + 2, 2 * game + 2,
                              finished(2 * game + 2, players(n), (n % 7, 3)))]
    board.take_all(burst)


def test_a_live_pages_later_messages_carry_only_the_tables_results_and_standings_that_changed(served):
    board, port = served.board, served.server.port
    a_day(board, 3, 4)
    stream = SSEClient(port, "/api/venue/events?by=points")
    try:
        first = stream.next_event()["data"]
        assert [t["name"] for t in first["tables"]] == ["t000", "t001", "t002"]
        assert len(first["results"]) == 12 and first["standings"]
        board.take("t001", 9, 9, update(9))  # one table moves
        served.changes.bump()
        moved = stream.next_event()["data"]
        assert [t["name"] for t in moved["tables"]] == ["t001"] and moved["results"] == []
        assert moved["tables"][0]["update"]["version"] == 9 and moved["tables"][0]["seq"] == 9
        assert "standings" not in moved  # no standings row changed
        board.take_all([Arrived("t002", 9, 9, update(9)),  # another plays a game to its end
                        Arrived("t002", 10, 10, finished(10, ("Cy", "Bo"), (10, 1)))])
        served.changes.bump()
        ended = stream.next_event()["data"]
        assert [t["name"] for t in ended["tables"]] == ["t002"]
        (result,) = ended["results"]
        assert result["players"] == ["Cy", "Bo"] and "Cy" in [r["player"] for r in ended["standings"]]
        correction = {"result": 1, "player": 0, "field": "score", "value": 50, "who": "Jo", "why": "typo"}
        assert post_json(port, f"/api/director/{served.director}/corrections", correction)[0] == 200
        corrected = stream.next_event()["data"]
        assert corrected["tables"] == [] and [r["id"] for r in corrected["results"]] == [1]
        assert corrected["results"][0]["scores"][0] == 50 and corrected["standings"][0]["player"] == "Ada"
        void = {"result": 1, "who": "Jo", "why": "wrong dice"}
        assert post_json(port, f"/api/director/{served.director}/voids", void)[0] == 200
        voided = stream.next_event()["data"]
        assert [r["id"] for r in voided["results"]] == [1] and voided["results"][0]["voided"]["who"] == "Jo"
        assert voided["standings"] == recomputed(board.results(), "points")
    finally:
        stream.close()


def test_a_first_load_after_300_results_holds_the_window_and_older_pages_through_the_rest_once(served):
    board, port = served.board, served.server.port
    a_day(board, 10, 30, players=lambda n: (f"P{n % 80:02}", f"P{(n + 1) % 80:02}"))
    status, first = get_json(port, "/api/venue?by=points")
    assert status == 200 and len(first["tables"]) == 10
    assert len(first["results"]) == WINDOW and first["older"] is True
    seen = [r["id"] for r in first["results"]]
    while True:
        status, page = get_json(port, f"/api/venue/results?before={seen[-1]}")
        assert status == 200 and len(page["results"]) <= WINDOW
        seen += [r["id"] for r in page["results"]]
        if not page["older"]:
            break
    assert seen == sorted(range(1, 301), reverse=True)  # each result once, newest first
    # The standings too: the top of the window, then the rest.
    assert len(first["standings"]) == WINDOW and first["more"] is True
    _, rest = get_json(port, f"/api/venue/standings?by=points&offset={WINDOW}")
    assert first["standings"] + rest["standings"] == recomputed(board.results(), "points")
    assert rest["more"] is False
    # A page that has the snapshot asks for what changed since.
    assert get_json(port, f"/api/venue?since={first['version']}")[1]["tables"] == []


@pytest.mark.parametrize("path, says", [
    ("/api/venue/results?before=abc", "before: give a whole number from 1"),
    ("/api/venue/results?before=5&limit=5000", "limit: give a whole number from 1 to 200"),
    ("/api/venue/standings?offset=-1", "offset: give a whole number from 0"),
    ("/api/venue?since=yesterday", "since: give a whole number from 0"),
])
def test_a_wrong_window_is_refused_saying_which_parameter_and_its_bounds(served, path, says):
    status, answer = get_json(served.server.port, path)
    assert status == 400 and says in answer["error"]
    status, french = get_json(served.server.port, path, {"Accept-Language": "fr"})
    assert status == 400 and "nombre entier" in french["error"]


def test_the_delta_after_one_move_on_a_board_of_5000_results_holds_one_table_and_no_result(tmp_path):
    board = Board(tmp_path / "venue.db")
    try:
        a_day(board, 100, 50)
        snapshot = board.since(None, "points")
        assert len(snapshot["tables"]) == 100 and len(snapshot["results"]) == WINDOW
        board.take("t042", 101, 101, update(101))
        delta = board.since(snapshot["version"], "points")
        assert [t["name"] for t in delta["tables"]] == ["t042"] and delta["results"] == []
        assert "standings" not in delta
        # A body is kept for each stream's newest message only; every message's seq and version stay.
        assert board.versions("t042") == list(range(1, 102))
        with sqlite3.connect(tmp_path / "venue.db") as db:
            assert db.execute("SELECT count(*) FROM updates WHERE body != ''").fetchone() == (100,)
    finally:
        board.close()


PLAYERS = ("Ada", "Bo", "Cy", "Red")
GAMES = ("gewalt", "dice")


def step(board: Board, data, made: list[int]) -> None:
    """One thing that happens to the board, drawn: a game's result, a correction or a void."""
    kind = data.draw(st.sampled_from(["result", "result", "correct", "void"] if made else ["result"]))
    if kind == "result":
        players = data.draw(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=4))
        scores = data.draw(st.none() | st.lists(st.integers(-5, 20), min_size=len(players),
                                                max_size=len(players)))
        table = f"t{len(made)}"
        board.take(table, 1, 1, finished(1, players, scores, data.draw(st.sampled_from(GAMES))))
        made.append(len(made) + 1)
        return
    result = data.draw(st.sampled_from(made))
    try:
        if kind == "correct":
            field = data.draw(st.sampled_from(["score", "place"]))
            board.correct(result, data.draw(st.integers(0, 4)), field, data.draw(st.integers(1, 30)), "Jo",
                          "a miscount")
        else:
            board.void(result, "Jo", "played wrong")
    except CorrectionError:
        pass  # refused: nothing changed, as the oracle will see


@pytest.mark.slow  # sixty short days, each checked at every step
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_kept_standings_always_equal_the_standings_recomputed_from_every_result(data):
    with tempfile.TemporaryDirectory() as folder:
        board = Board(Path(folder) / "venue.db")
        try:
            made: list[int] = []
            for _ in range(data.draw(st.integers(1, 12))):
                step(board, data, made)
                results = board.results()
                for by in BY:
                    for game in (None, *GAMES):
                        assert board.standings(by, game) == recomputed(results, by, game)
        finally:
            board.close()


OLD_SCHEMA = """
CREATE TABLE tables (name TEXT PRIMARY KEY, last_seq INTEGER NOT NULL, online INTEGER NOT NULL DEFAULT 0,
    seen_at TEXT NOT NULL, store TEXT NOT NULL DEFAULT '');
CREATE TABLE streams (name TEXT NOT NULL, store TEXT NOT NULL, last_seq INTEGER NOT NULL,
    PRIMARY KEY (name, store));
CREATE TABLE updates (name TEXT NOT NULL, store TEXT NOT NULL DEFAULT '', seq INTEGER NOT NULL,
    version INTEGER NOT NULL, body TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (name, store, seq));
CREATE TABLE results (id INTEGER PRIMARY KEY, name TEXT NOT NULL, store TEXT NOT NULL DEFAULT '',
    seq INTEGER NOT NULL, game TEXT NOT NULL, players TEXT NOT NULL, scores TEXT, places TEXT NOT NULL,
    at TEXT NOT NULL, UNIQUE (name, store, seq));
CREATE TABLE corrections (id INTEGER PRIMARY KEY, result INTEGER NOT NULL REFERENCES results (id),
    player INTEGER NOT NULL, field TEXT NOT NULL, before INTEGER, after INTEGER NOT NULL, who TEXT NOT NULL,
    why TEXT NOT NULL, at TEXT NOT NULL);
CREATE TABLE voids (result INTEGER PRIMARY KEY REFERENCES results (id), who TEXT NOT NULL,
    why TEXT NOT NULL, at TEXT NOT NULL);
CREATE TABLE set_aside (name TEXT NOT NULL, store TEXT NOT NULL, seq INTEGER NOT NULL, why TEXT NOT NULL,
    at TEXT NOT NULL, PRIMARY KEY (name, store, seq));
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def test_a_board_of_the_version_before_opens_with_the_same_standings_and_goes_on_keeping_them(tmp_path):
    old = sqlite3.connect(tmp_path / "venue.db")
    old.executescript(OLD_SCHEMA)
    old.execute("INSERT INTO tables VALUES ('t1', 3, 1, 'then', 's')")
    old.executemany("INSERT INTO results VALUES (?, 't1', 's', ?, ?, ?, ?, ?, 'then')", [
        (1, 1, "gewalt", json.dumps(["Ada", "Bo"]), json.dumps([3, 5]), json.dumps([2, 1])),
        (2, 2, "dice", json.dumps(["Bo", "Cy"]), None, json.dumps([1, 2])),
        (3, 3, "dice", json.dumps([{"an": "object"}, "Ada"]), json.dumps(["ten", 4]), json.dumps(["x", 1]))])
    old.execute("INSERT INTO corrections VALUES (1, 1, 0, 'score', 3, 9, 'Jo', 'typo', 'then')")
    old.execute("INSERT INTO voids VALUES (2, 'Jo', 'wrong', 'then')")
    old.commit()
    old.close()
    board = Board(tmp_path / "venue.db")
    try:
        results = board.results()
        for by in BY:
            for game in (None, *GAMES):
                assert board.standings(by, game) == recomputed(results, by, game)
        assert board.standings("points")[0] == {"player": "Ada", "total": 13, "games": 2}
        board.take("t1", 4, 4, finished(4, ("Cy", "Ada"), (7, 1)), store="s")
        board.void(1, "Jo", "played wrong")
        assert board.standings("points") == recomputed(board.results(), "points")
    finally:
        board.close()
    again = Board(tmp_path / "venue.db")  # built once: opening again changes nothing
    try:
        assert again.standings("places") == recomputed(again.results(), "places")
    finally:
        again.close()


@pytest.mark.browser
@pytest.mark.slow  # a broker, a dashboard and three pages
def test_a_page_shows_the_newest_results_brings_older_ones_and_merges_each_change_live(served, browser):
    from playwright.sync_api import expect

    board, base = served.board, f"http://127.0.0.1:{served.server.port}"
    a_day(board, 2, 30, players=lambda n: (f"P{n % 80:02}", f"P{(n + 1) % 80:02}"))  # 60 results, 61 players
    served.changes.bump()
    for lang, older, more in (("en", "Older results", "More players"),
                              ("fr", "Résultats plus anciens", "Plus de joueurs")):
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"{base}/director/{served.director}?lang={lang}")
        expect(page.locator("#results li")).to_have_count(WINDOW)
        expect(page.locator("#standings li")).to_have_count(WINDOW)
        expect(page.locator("#older")).to_have_text(older)
        expect(page.locator("#more-standings")).to_have_text(more)
        venue_parts.fits_a_phone(page)  # both buttons at least 44 px high, no sideways scroll
        page.locator("#older").click()
        expect(page.locator("#results li")).to_have_count(60)
        expect(page.locator("#older")).to_be_hidden()
        shown = page.locator("#results li").evaluate_all("(l) => l.map((li) => Number(li.dataset.result))")
        assert shown == list(range(60, 0, -1))  # every result once, newest first
        page.locator("#more-standings").click()
        expect(page.locator("#standings li")).to_have_count(61)
        expect(page.locator("#more-standings")).to_be_hidden()
        if lang == "en":
            page.close()
    # Live: one table's move, a correction of the oldest result (brought by "older"), a new result.
    board.take("t000", 61, 61, update(61))
    board.correct(1, 0, "score", 40, "Jo", "miscounted")
    served.changes.bump()
    expect(page.locator('#tables li[data-table="t000"]')).to_contain_text("coup 61")
    expect(page.locator('#results li[data-result="1"]')).to_contain_text("corrigé")
    board.take_all([Arrived("t001", 61, 61, update(61)),
                    Arrived("t001", 62, 62, finished(62, ("Zoé", "P01")))])
    served.changes.bump()
    expect(page.locator("#results li").first).to_have_attribute("data-result", "61")
    # The page keeps its size: the oldest result leaves it, and "older" can bring it back.
    expect(page.locator("#results li")).to_have_count(60)
    expect(page.locator("#results li").last).to_have_attribute("data-result", "2")
    expect(page.locator("#older")).to_be_visible()
    expect(page.locator("#tables li")).to_have_count(2)
    projector = browser.new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(f"{base}/board?lang=en")
    expect(projector.locator("#results li")).to_have_count(WINDOW)
    assert projector.locator("form, button, input, select").count() == 0  # no controls, not even "older"
    projector.close()
    page.close()
