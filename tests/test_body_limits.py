"""A request too big is refused before it is stored: nothing a client sends reaches the disk.

Through the real waitress server: a body over the limit is refused on its Content-Length before a byte
of it is read, a chunked one as soon as it gets there, and no temporary file is ever made; the largest
body a player needs (a new game with the host's own data files) still goes through.
"""

from __future__ import annotations

import http.client
import json
import socket
import tempfile

import pytest
from webfixtures import host_of, live_server, post_json, running_app

from companion.core import registry
from companion.outputs.webapp import MAX_BODY
from companion.serving.serve import HEAD_LIMIT


@pytest.fixture
def server(tmp_path):
    with running_app(tmp_path) as (runtime, app), live_server(app) as srv:
        yield runtime, srv


@pytest.fixture
def temporary_files(monkeypatch) -> list:
    """Every temporary file made in this process while the test runs (waitress spools to them)."""
    made = []
    real = tempfile.TemporaryFile

    def counted(*args, **kwargs):
        made.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(tempfile, "TemporaryFile", counted)
    return made


def answer_of(sock: socket.socket) -> tuple[int, dict]:
    """The status and JSON body of the answer on `sock` (read until the server closes it)."""
    response = http.client.HTTPResponse(sock)
    response.begin()
    return response.status, json.loads(response.read())


def test_a_body_over_the_limit_is_refused_on_its_length_before_it_is_sent(server, temporary_files):
    runtime, srv = server
    version = runtime.table.version
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as sock:
        sock.sendall(b"POST /api/command?lang=en HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 209715200\r\n\r\n")  # 200 MB
        status, answer = answer_of(sock)
    assert status == 413 and answer["error"] == f"The request body is too big: send at most {MAX_BODY} bytes."
    assert temporary_files == [] and runtime.table.version == version


def test_a_chunked_body_is_cut_off_at_the_limit_and_never_stored(server, temporary_files):
    runtime, srv = server
    version = runtime.table.version
    chunk = b"x" * 8192
    sent = 0
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as sock:
        sock.sendall(b"POST /api/command HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Accept-Language: fr\r\nTransfer-Encoding: chunked\r\n\r\n")
        try:
            while sent < 4 * 1024 * 1024:  # a client that would go on for ever
                sock.sendall(b"2000\r\n" + chunk + b"\r\n")
                sent += len(chunk)
        except OSError:
            pass  # the server answered and closed: what is left is never read
        status, answer = answer_of(sock)
    assert status == 413 and f"{MAX_BODY}" in answer["error"] and "trop" in answer["error"]
    assert temporary_files == [] and runtime.table.version == version


def test_headers_over_their_limit_are_refused(server):
    _, srv = server
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    try:
        conn.request("GET", "/api/state", headers={"Accept-Language": "en", "X-Junk": "x" * (HEAD_LIMIT + 1)})
        response = conn.getresponse()
        answer = json.loads(response.read())
    finally:
        conn.close()
    # waitress drops a head too big whole, its Accept-Language too: the answer is in the table's default
    assert response.status == 431 and f"au plus {HEAD_LIMIT} octets" in answer["error"]


@pytest.mark.parametrize("game", [name for name in registry.names() if registry.get(name).data])
def test_a_new_game_with_the_hosts_own_data_files_fits_with_room_to_spare(server, game):
    runtime, srv = server
    spec = registry.get(game)
    data = {file.key: {"name": file.bundled, "text": spec.bundled(file.key).text} for file in spec.data}
    body = {"kind": "new_game", "args": {"game": game, "data": data}}
    # A copy of its own four times as long as the bundled files still fits under the limit.
    assert 4 * len(json.dumps(body).encode()) <= MAX_BODY
    status, answer = post_json(srv.port, "/api/command", body, host_of(runtime))
    assert status == 200, answer
    assert runtime.table.latest.game == game
