"""A page of another site cannot drive the table through a browser at the table (docs/security.md).

The simulator's twin opens its buttons to its own machine, and a phone's browser holds its links: a
page elsewhere, on another port of the same machine included, must get neither. Through the real
server, then through `companion demo` and chromium with the attacker's page on a port of its own.
"""

from __future__ import annotations

import http.client
import http.server
import json
import threading
from contextlib import contextmanager

import pytest
from daemon_process import DaemonProcess, free_port
from polling import wait_for
from webfixtures import FakeBoard, SSEClient, host_of, live_server, request, running_app

ELSEWHERE = "http://127.0.0.1:9"  # a page on another port of this machine: another origin, the same site

CHANGES = [
    ("/api/device/press", {"button": "d", "hold": True}),
    ("/api/command", {"kind": "roll"}),
    ("/api/join", {"code": "ABCD", "seat": 0, "name": "Eve"}),
    ("/api/host/claim", {"code": "ABCD"}),
    ("/api/seats/0/free", {}),
]


@pytest.fixture
def twin(tmp_path):
    """A simulated table whose twin records every press it is given."""
    with running_app(tmp_path, board=FakeBoard(simulated=True)) as (runtime, app), live_server(app) as server:
        yield runtime, server


def send(port: int, path: str, body: dict, headers: dict) -> tuple[int, dict]:
    """A POST of `body` as JSON text with exactly `headers` (no Content-Type of its own)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", path, body=json.dumps(body), headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


@pytest.mark.parametrize(("path", "body"), CHANGES)
@pytest.mark.parametrize(("headers", "refused"), [
    # what a no-cors fetch or a form from another origin sends
    ({"Content-Type": "text/plain;charset=UTF-8", "Origin": ELSEWHERE, "Sec-Fetch-Site": "same-site"}, 403),
    ({"Content-Type": "application/x-www-form-urlencoded", "Origin": "null"}, 403),
    # JSON from elsewhere (a browser would ask first; the table's answer does not allow it anyway)
    ({"Content-Type": "application/json", "Origin": ELSEWHERE}, 403),
    ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403),
    # a simple request from no page at all
    ({"Content-Type": "text/plain"}, 415),
])
def test_a_change_from_another_sites_page_or_not_as_json_changes_nothing(twin, path, body, headers, refused):
    runtime, server = twin
    table = runtime.table
    before = (table.version, table.host_token(), table.roster.join_code(), table.latest.seats)
    with_host = {**headers, **({"X-Host-Token": table.host_token()} if path == "/api/seats/0/free" else {})}
    status, answer = send(server.port, path + "?lang=en", body, with_host)
    assert status == refused and answer["ok"] is False
    assert ("another site" in answer["error"]) if refused == 403 else ("Content-Type header set to "
                                                                      "application/json" in answer["error"])
    assert runtime.board.presses == []
    assert (table.version, table.host_token(), table.roster.join_code(), table.latest.seats) == before


def test_the_tables_own_pages_and_programs_still_change_things(twin):
    runtime, server = twin
    own = f"http://127.0.0.1:{server.port}"
    status, _ = send(server.port, "/api/device/press", {"button": "roll"},
                     {"Content-Type": "application/json", "Origin": own, "Sec-Fetch-Site": "same-origin"})
    assert status == 200 and runtime.board.presses == [("roll", False)]
    status, _ = send(server.port, "/api/command", {"kind": "roll"},
                     {"Content-Type": "application/json; charset=utf-8", **host_of(runtime)})  # a script
    assert status == 200


@pytest.mark.parametrize("path", ["/", "/join", "/host", "/device", "/seat/nobody", "/api/state",
                                  "/static/companion.js"])
def test_no_page_may_be_framed(twin, path):
    _, server = twin
    _, _, headers = request(server.port, "GET", path)
    assert headers["Content-Security-Policy"] == "frame-ancestors 'none'"
    assert headers["X-Frame-Options"] == "DENY"


# --- the same, from a real browser ------------------------------------------------------------------
ATTACK = """<!doctype html><title>elsewhere</title>
<iframe id="twin" src="{base}/device" onload="window.framed = true"></iframe>
<script>
window.attack = () => fetch("{base}/api/device/press", {{method: "POST", mode: "no-cors",
  headers: {{"Content-Type": "text/plain"}}, body: JSON.stringify({{button: "d", hold: true}})}})
  .then(() => "answered", () => "failed");
</script>"""


@contextmanager
def page_elsewhere(html: str):
    """A web server on another port of this machine serving one page: another site's."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the standard library's name)
            data = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_another_sites_page_cannot_long_press_d_nor_frame_the_twin(tmp_path, browser):
    demo = DaemonProcess(tmp_path / "state").start()
    ctx = browser.new_context()
    try:
        with page_elsewhere(ATTACK.format(base=demo.base)) as url:
            page = ctx.new_page()
            page.goto(url)
            assert page.evaluate("() => window.attack()") == "answered"  # the server has answered it
            # The framed twin is refused by the browser: once loaded, the frame holds an error page.
            page.wait_for_function("() => window.framed === true")
            framed = page.frames[1]
            assert not framed.url.startswith(demo.base) and framed.locator("button.hw").count() == 0
            # The twin's own long press on D, on the same button after the attacker's: the buttons take
            # presses in order, so had the attacker's counted, its link would be printed first.
            twin = ctx.new_page()
            twin.goto(f"{demo.base}/device")
            twin.evaluate("() => Companion.request('POST', '/api/device/press', {button: 'd', hold: true})")
            wait_for(lambda: len(demo.printed("host link")) >= 2)
            assert len(demo.printed("host link")) == 2
    finally:
        ctx.close()
        demo.stop()


@pytest.mark.parametrize("headers", [{"Sec-Fetch-Site": "cross-site"}, {"Origin": ELSEWHERE},
                                     {"Origin": ELSEWHERE, "Sec-Fetch-Site": "same-site"}])
def test_another_sites_page_cannot_take_a_live_page(twin, headers):
    runtime, server = twin
    for path in ("/api/events", f"/api/seat/{runtime.table.seat_token(0)}/events"):
        status, body, _ = request(server.port, "GET", path + "?lang=en", headers)
        assert status == 403 and "another site" in json.loads(body)["error"], path
    page = SSEClient(server.port, headers={"Sec-Fetch-Site": "same-origin"})
    try:
        assert page.status == 200 and page.next_event()["event"] == "snapshot"
    finally:
        page.close()
