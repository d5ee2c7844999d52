"""The dashboard's web side through the real waitress server: live pages capped per address and in all
so page loads and the director keep answering, and no director's link in its logs."""

from __future__ import annotations

import http.client
import json
import logging

import pytest
import venue_parts
from daemon_process import free_port
from venue_parts import VENUE

from companion.venue import dashboard as dashboard_module
from companion.venue.dashboard import Dashboard

broker = venue_parts.broker  # this module's fixture


@pytest.fixture
def served(tmp_path, broker):
    made = Dashboard(tmp_path / "dashboard", broker.broker("dashboard"), VENUE, "en")
    made.start("127.0.0.1", free_port())
    yield made
    made.stop()


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
    streams += [call(port, "GET", "/api/venue/events", f"127.0.0.{n}") for n in range(5, 11) for _ in range(per)]
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
