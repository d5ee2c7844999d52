"""`companion venue`'s dashboard: results, the director's corrections with their audit, standings, and the
pages in chromium (live tables, the director's correction on the public page, the projector's board)."""

from __future__ import annotations

import pytest
import venue_parts
from daemon_process import free_port
from simulator import running_simulator
from venue_parts import VENUE

from companion.gamekit.contract import Command
from companion.venue.dashboard import Dashboard
from companion.venue.settings import VenueConfig
from companion.venue.web import create_app

broker = venue_parts.broker  # this module's fixture


def finished(players: list[str], scores: list[int] | None, winners: list[int]) -> dict:
    """The last message of a finished game, as a table's outbox holds it."""
    seats = [{"seat": n, "name": name, "label": name, "in_game": True} for n, name in enumerate(players)]
    return {"version": 9, "game": "gewalt", "title": "Crazy Race", "public": {}, "seats": seats,
            "waiting": [], "history": [], "deadline": None, "over": True,
            "result": {"winners": winners, "scores": scores, "ranks": None}}


@pytest.fixture
def dashboard(tmp_path, broker):
    made = Dashboard(tmp_path / "dashboard", broker.broker("dashboard"), VENUE, "en")
    yield made
    made.stop()


def test_a_finished_game_gives_one_result_and_places_from_its_scores(dashboard):
    board = dashboard.board
    board.take("t1", 1, 8, {**finished(["Ada", "Bo", "Cy"], None, []), "over": False})
    board.take("t1", 2, 9, finished(["Ada", "Bo", "Cy"], [10, 30, 10], [1]))
    board.take("t1", 3, 10, finished(["Ada", "Bo", "Cy"], [10, 30, 10], [1]))  # still over: no new result
    (result,) = board.results()
    assert result["places"] == [2, 1, 2] and result["scores"] == [10, 30, 10]
    assert [r["player"] for r in board.standings("points")] == ["Bo", "Ada", "Cy"]


@pytest.mark.parametrize("body, says", [
    ({"result": 99, "player": 0, "field": "score", "value": 5, "who": "Jo", "why": "typo"}, "no such result"),
    ({"result": 1, "player": 7, "field": "score", "value": 5, "who": "Jo", "why": "typo"}, "no such player"),
    ({"result": 1, "player": 0, "field": "hue", "value": 5, "who": "Jo", "why": "typo"}, "score or a place"),
    ({"result": 1, "player": 0, "field": "place", "value": 0, "who": "Jo", "why": "typo"}, "whole number"),
    ({"result": 1, "player": 0, "field": "score", "value": "5", "who": "Jo", "why": "typo"}, "whole number"),
    ({"result": 1, "player": 0, "field": "score", "value": 5, "who": "", "why": "typo"}, "who corrects"),
    ({"result": 1, "player": 0, "field": "score", "value": 5, "who": "Jo", "why": " "}, "who corrects"),
    (["not", "an", "object"], "JSON object"),
])
def test_a_wrong_correction_is_refused_saying_what_was_wrong_and_changes_nothing(dashboard, body, says):
    dashboard.board.take("t1", 1, 9, finished(["Ada", "Bo"], [3, 5], [1]))
    before = dashboard.board.results()
    client = create_app(dashboard).test_client()
    answer = client.post(f"/api/director/{dashboard.director}/corrections", json=body)
    assert answer.status_code == 400 and says in answer.get_json()["error"]
    assert dashboard.board.results() == before


def test_only_the_directors_link_corrects_and_every_correction_is_kept_with_who_and_why(dashboard):
    dashboard.board.take("t1", 1, 9, finished(["Ada", "Bo"], [3, 5], [1]))
    client = create_app(dashboard).test_client()
    good = {"result": 1, "player": 0, "field": "score", "value": 8, "who": "Jo", "why": "a miscount"}
    assert client.post("/api/director/guess/corrections", json=good).status_code == 403
    assert client.get("/director/guess").status_code == 403
    assert dashboard.board.results()[0]["corrections"] == []
    answer = client.post(f"/api/director/{dashboard.director}/corrections", json=good)
    assert answer.status_code == 200
    (result,) = client.get("/api/venue?by=points").get_json()["results"]
    assert result["scores"] == [8, 5]
    assert result["corrections"] == [{**{k: good[k] for k in ("player", "field", "who", "why")}, "before": 3,
                                      "after": 8, "at": result["corrections"][0]["at"]}]
    standings = client.get("/api/venue?by=points").get_json()["standings"]
    assert standings[0] == {"player": "Ada", "total": 8, "games": 1}
    french = client.post(f"/api/director/{dashboard.director}/corrections", json={**good, "value": "x"},
                         headers={"Accept-Language": "fr"})
    assert "\u202f:" in french.get_json()["error"]  # the refusal in French, with its typography


@pytest.mark.browser
@pytest.mark.slow  # a broker, a dashboard, a table and four pages
def test_the_pages_show_tables_live_the_directors_correction_and_the_projectors_board(tmp_path, broker,
                                                                                     browser):
    dashboard = Dashboard(tmp_path / "dashboard", broker.broker("dashboard"), VENUE, "en")
    dashboard.start("127.0.0.1", free_port())
    base = f"http://127.0.0.1:{dashboard.server.port}"
    venue = VenueConfig(name=VENUE, table="t1", broker="127.0.0.1", port=broker.port,
                        password=broker.users["t1"])
    try:
        with running_simulator(tmp_path / "t1", venue=venue) as running:
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            phone.goto(f"{base}/?lang=fr")
            row = phone.locator('#tables li[data-table="t1"]')
            row.wait_for()
            assert "en ligne" in row.inner_text()
            for _ in range(3):
                version = running.table.call(Command("roll")).version
                phone.wait_for_function(f"document.querySelector('#tables li[data-table=t1]').textContent"
                                        f".includes('coup {version}')", timeout=10000)
            assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            assert phone.locator("#by").bounding_box()["height"] >= 44
            # A finished game (sent as table t1 over the broker) and the director's correction of it.
            dashboard.board.take("t1", dashboard.board.tables()[0]["seq"] + 1, 99,
                                 finished(["Ada", "Bo"], [3, 5], [1]))
            dashboard.changes.bump()
            director = browser.new_page(viewport={"width": 390, "height": 844})
            director.goto(f"{base}/director/{dashboard.director}?lang=en")
            director.locator('#correct select[name="result"] option').first.wait_for(state="attached")
            form = director.locator("#correct")
            form.locator('input[name="value"]').fill("7")
            form.locator('input[name="who"]').fill("Jo (director)")
            form.locator('input[name="why"]').fill("the bet was misread")
            for control in ("select", "input", "button"):
                assert min(b.bounding_box()["height"] for b in form.locator(control).all()) >= 44
            form.locator("button").click()
            director.locator("#correct-message", has_text="Correction saved.").wait_for()
            assert director.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            audit = phone.locator("#results .audit")
            audit.wait_for()
            line = audit.inner_text()
            assert "Jo (director)" in line and "de 3 à 7" in line and "the bet was misread" in line
            results = phone.locator("#results").inner_text()
            assert "corrigé" in results and "Ada 7" in results
            projector = browser.new_page(viewport={"width": 1920, "height": 1080})
            projector.goto(f"{base}/board?lang=en")
            projector.locator('#tables li[data-table="t1"]').wait_for()
            assert projector.locator("form, button, input, select").count() == 0  # no controls
            assert float(projector.evaluate("getComputedStyle(document.body).fontSize")[:-2]) >= 24
            assert projector.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            assert "Ada" in projector.locator("#standings").inner_text()
            # The table's host page says the venue is reachable, and how much waits.
            host = browser.new_page(viewport={"width": 390, "height": 844})
            host.goto(f"http://127.0.0.1:{running.config.port}/host?host={running.table.roster.host_token()}"
                      "&lang=en")
            host.locator("#venue-link-now", has_text="Sending to the venue club as table t1").wait_for()
            for page in (phone, director, projector, host):
                page.close()
    finally:
        dashboard.stop()
