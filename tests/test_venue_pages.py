"""The dashboard's web side through the real waitress server: live pages capped per address and in all
so page loads and the director keep answering, and no director's link in its logs."""

from __future__ import annotations

import http.client
import json
import logging

import pytest
import venue_parts
from venue_parts import VENUE

from companion.venue import dashboard as dashboard_module

broker, served = venue_parts.broker, venue_parts.served  # this module's fixtures


def call(port: int, method: str, path: str, client: str = "127.0.0.1", body: bytes | None = None,
         timeout: float = 5.0) -> http.client.HTTPResponse:
    """A request from `client` (another loopback address is another client)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(client, 0))
    conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
    return conn.getresponse()


def test_strangers_live_pages_are_capped_and_page_loads_and_the_director_keep_answering(served):
    port = served.server.port
    per, most = dashboard_module.PER_ADDRESS, dashboard_module.MAX_PAGES
    # 16 live pages from each of 3 addresses (48, more than the server's threads), then 5 more addresses
    streams = [call(port, "GET", "/api/venue/events?lang=fr", f"127.0.0.{n}") for n in (2, 3, 4)
               for _ in range(16)]
    assert [r.status for r in streams].count(200) == 3 * per
    refused = next(r for r in streams if r.status == 503)
    said = json.loads(refused.read())["error"]
    assert said.startswith(f"Cet appareil a déjà {per} pages en direct ouvertes") and "rechargez" in said
    streams += [call(port, "GET", "/api/venue/events", f"127.0.0.{n}") for n in range(5, 11)
                for _ in range(per)]
    assert sum(r.status == 200 for r in streams) >= most - per and len(served.pages) <= most
    full = next(r for r in streams[3 * 16:] if r.status == 503)
    assert "live pages" in json.loads(full.read())["error"]
    # Page loads and the director's corrections still answer, at once.
    assert call(port, "GET", "/?lang=en", "127.0.0.20").status == 200
    answer = call(port, "POST", f"/api/director/{served.director}/corrections", "127.0.0.21", b"[]")
    assert answer.status == 400 and "JSON object" in json.loads(answer.read())["error"]
    for response in streams:
        response.close()


def test_a_failing_director_route_logs_its_route_not_the_directors_link(served, monkeypatch, caplog):
    def failing(*_args):
        raise RuntimeError("the store broke")

    monkeypatch.setattr(served.board, "correct", failing)
    body = json.dumps({"result": 1, "player": 0, "field": "score", "value": 1, "who": "Jo", "why": "x"})
    with caplog.at_level(logging.INFO):
        answer = call(served.server.port, "POST", f"/api/director/{served.director}/corrections",
                      body=body.encode())
        assert answer.status == 500 and "log" in json.loads(answer.read())["error"]
    logged = [r.getMessage() + (r.exc_text or "") for r in caplog.records]
    assert any("/api/director/<token>/corrections" in line for line in logged)  # it was logged...
    assert not [line for line in logged if served.director in line]  # ... without the link


def table_message(version: int, over: bool = False, name: str = "Adelheid") -> dict:
    """A dice table's message as publishing.scoreboard_view writes it: in English, whatever the reader."""
    seats = [{"seat": 0, "name": name, "colour": "red", "ink": "#c62828", "label": "Red", "mark": "❶",
              "place": "Seat\u00a01", "in_game": True, "playing": True, "phone": True},
             {"seat": 1, "name": "", "colour": "yellow", "ink": "#f9a825", "label": "Yellow", "mark": "❷",
              "place": "Seat\u00a02", "in_game": True, "playing": True, "phone": False}]
    return {"version": version, "game": "dice", "public": {}, "title": "Free dice", "waiting": [1],
            "seats": seats, "history": [], "deadline": None, "over": over, "undo": False,
            "result": {"winners": [0], "scores": [4, 2], "ranks": None} if over else None, "match": None,
            "ended": None}


@pytest.mark.browser
@pytest.mark.slow  # a broker, a dashboard and five pages
def test_the_pages_speak_the_readers_language_and_the_director_voids_with_a_second_tap(served, browser):
    base = f"http://127.0.0.1:{served.server.port}"
    board = served.board
    board.take("t1", 1, 1, table_message(1))
    board.take("t1", 2, 2, table_message(2, over=True))
    rid = next(r["id"] for r in board.results() if r["table"] == "t1")
    board.correct(rid, 0, "score", 5, "Jo", "miscounted")
    served.changes.bump()

    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{base}/?lang=fr")
    row = phone.locator('#tables li[data-table="t1"]')
    row.wait_for()
    shown = row.inner_text()
    assert "Dés libres" in shown and "Free dice" not in shown
    assert "❶\u00a0Adelheid · Rouge" in shown and "❷\u00a0Jaune" in shown and "Yellow" not in shown
    standings = phone.locator("#standings").inner_text()
    assert "Adelheid\n1 place\n" in standings and "Jaune\n2 places" in standings  # not "1 places"
    board.take("t2", 1, 1, table_message(1, True, "Bo") | {"game": "gewalt", "title": "Crazy Race (Gewalt)"})
    served.changes.bump()
    phone.locator("#results", has_text="Crazy Race (Gewalt)").wait_for()
    results = phone.locator("#results").inner_text()
    assert "t1 · Dés libres" in results and "· dice" not in results and "· gewalt" not in results
    assert "Adelheid\u202f: score de 4 à 5 (par Jo\u202f: miscounted)" in results
    assert " de Adelheid" not in results
    venue_parts.fits_a_phone(phone)

    director = browser.new_page(viewport={"width": 390, "height": 844})
    director.goto(f"{base}/director/{served.director}?lang=en")
    voiding = director.locator("#void")
    voiding.locator('select[name="result"] option').first.wait_for(state="attached")
    voiding.locator('select[name="result"]').select_option(str(rid))
    voiding.locator('input[name="who"]').fill("Jo")
    voiding.locator('input[name="why"]').fill("played with the wrong dice")
    venue_parts.fits_a_phone(director)
    voiding.locator("button").click()
    voiding.locator("button", has_text="Tap again to void it").wait_for()
    assert all(r["voided"] is None for r in board.results())  # one tap voids nothing
    voiding.locator("button").click()
    director.locator("#void-message", has_text="Result voided").wait_for()
    assert next(r for r in board.results() if r["id"] == rid)["voided"]["who"] == "Jo"

    struck = phone.locator(f'#results li[data-result="{rid}"].voided')
    struck.wait_for()
    assert "annulé" in struck.inner_text()
    assert "Annulé par Jo\u202f: played with the wrong dice" in struck.inner_text()
    struck_line = struck.locator(".figures").evaluate("e => getComputedStyle(e).textDecorationLine")
    assert struck_line == "line-through"
    assert "Adelheid" not in phone.locator("#standings").inner_text()  # the standings leave it out

    for lang, words in (("en", ("corrected", "voided", "sum of points", "Free dice")),
                        ("fr", ("corrigé", "annulé", "somme des points", "Dés libres"))):
        projector = browser.new_page(viewport={"width": 1920, "height": 1080})
        projector.goto(f"{base}/board?by=points&lang={lang}")
        projector.locator(f'#results li[data-result="{rid}"].voided').wait_for()
        text = projector.locator("body").inner_text()
        assert all(word in text for word in words), (lang, text)
        assert projector.locator("form, button, input, select").count() == 0
        assert "2 points" in projector.locator("#standings").inner_text()  # t2's yellow seat, by points
        small = browser.new_page(viewport={"width": 390, "height": 844})
        small.goto(f"{base}/board?lang={lang}")
        small.locator("#results li").first.wait_for()
        venue_parts.fits_a_phone(small)
        projector.close()
        small.close()
    phone.close()
    director.close()


def test_a_new_directors_link_refuses_the_old_one_at_once_on_the_running_dashboard(served, tmp_path, capsys):
    from companion.cli import main

    port, old = served.server.port, served.director
    assert call(port, "GET", f"/director/{old}").status == 200
    venue = f'name = "{VENUE}"\nbroker = "127.0.0.1"\nport = 1883\npassword = "x"\n'
    (tmp_path / "venue.toml").write_text(venue)
    assert main(["venue", "director-link", "--dir", str(tmp_path), "--port", str(port)]) == 0
    link = next(word for word in capsys.readouterr().out.split() if "/director/" in word)
    new = link.rsplit("/", 1)[1]
    assert link == f"http://127.0.0.1:{port}/director/{new}" and new != old
    # the running dashboard, never restarted, refuses the old link on its page and its form
    assert call(port, "GET", f"/director/{old}").status == 403
    voided = call(port, "POST", f"/api/director/{old}/voids", body=b'{"result": 1, "who": "A", "why": "B"}')
    assert voided.status == 403 and "not valid" in json.loads(voided.read())["error"]
    assert call(port, "GET", f"/director/{new}").status == 200
    answer = call(port, "POST", f"/api/director/{new}/voids", body=b'{"result": 1, "who": "A", "why": "B"}')
    assert answer.status == 400 and "no such result" in json.loads(answer.read())["error"]


def test_a_new_directors_link_outside_a_venue_folder_is_refused_with_the_fix(tmp_path, capsys):
    from companion.cli import main

    assert main(["venue", "director-link", "--dir", str(tmp_path / "nowhere")]) == 2
    said = capsys.readouterr().err
    assert "no venue here" in said and "companion venue init" in said
    assert not (tmp_path / "nowhere").exists()
