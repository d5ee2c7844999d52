"""Live updates over SSE on a real waitress server: snapshot first, updates to all, keepalives, limits."""

from __future__ import annotations

import http.client
import json
import logging
import queue
import threading
import time

import pytest
from webfixtures import (
    SECRET,
    SSEClient,
    changed,
    host_of,
    install_secret_game,
    live_server,
    plug_game,
    post_json,
    running_app,
)

from companion.gamekit.contract import Command
from companion.outputs.webapp.events import Hub
from companion.serving.serve import REQUEST_THREADS, RedactSeatLinks, threads_for


@pytest.fixture
def server(tmp_path):
    with running_app(tmp_path, keepalive=0.3, max_streams=10) as (runtime, app), live_server(app) as srv:
        yield runtime, srv


def test_the_first_message_is_a_snapshot_with_the_version(server):
    runtime, srv = server
    client = SSEClient(srv.port)
    try:
        assert client.status == 200
        assert client.headers["Content-Type"].startswith("text/event-stream")
        assert client.headers["Cache-Control"] == "no-cache"
        assert client.headers["X-Accel-Buffering"] == "no"
        msg = client.next_event()
        assert msg["event"] == "snapshot"
        assert msg["data"]["version"] == runtime.table.latest.version == int(msg["id"])
        assert msg["data"]["game"] == "dice" and msg["data"]["public"]["count"] == 2
    finally:
        client.close()


def test_two_streams_both_receive_a_roll(server):
    runtime, srv = server
    a, b = SSEClient(srv.port), SSEClient(srv.port)
    try:
        start = a.next_event()["data"]["version"]
        b.next_event()
        status, answer = post_json(srv.port, "/api/command", {"kind": "roll"}, host_of(runtime))
        assert status == 200 and answer["version"] == start + 1
        for client in (a, b):
            msg = client.next_event()
            assert msg["event"] == "update"
            assert msg["data"]["version"] == start + 1
            assert len(msg["data"]["public"]["last"]) == 2
            # no args, no events
            assert set(msg["data"]) == {"version", "game", "title", "public", "seats", "history", "waiting",
                                         "deadline", "over", "undo", "result", "match", "ended"}
            assert msg["data"]["over"] is False
            assert msg["data"]["history"][-1] == {"seat": None, "kind": "roll"}  # who and what, no values
    finally:
        a.close()
        b.close()


def test_a_keepalive_comment_arrives(server):
    _, srv = server
    client = SSEClient(srv.port)
    try:
        client.next_event()
        started = time.monotonic()
        msg = client.next()
        assert msg["comment"] == "keepalive" and msg["data"] is None
        assert time.monotonic() - started < 2
    finally:
        client.close()


def test_a_device_refusal_is_told_to_the_table_pages_in_their_language_and_a_phones_is_not(server):
    runtime, srv = server
    client = SSEClient(srv.port, "/api/events?lang=en")
    try:
        client.next_event()
        status, answer = post_json(srv.port, "/api/command", {"kind": "undo"}, host_of(runtime))
        assert status == 409  # the host's phone reads its refusal in its own answer...
        runtime.table.press("d").result(5)  # ...while the device's D (undo) is refused in everyone's view
        msg = client.next_event()
        assert msg["event"] == "rejected" and msg["data"]["error"] == "Nothing to undo."
        runtime.table.call(Command("roll"))
        assert client.next_event()["event"] == "update"  # the phone's refusal never came
    finally:
        client.close()


def test_six_phones_at_once_all_get_updates(tmp_path):
    """waitress defaults to 4 threads: a fifth open stream would hang without serve()'s sizing."""
    with running_app(tmp_path, keepalive=0.5, max_streams=8) as (runtime, app), live_server(app) as srv:
        assert srv.threads == 8 + 6 * 2 + REQUEST_THREADS == threads_for(app)  # public, seats, requests
        clients = [SSEClient(srv.port) for _ in range(7)]
        try:
            versions = [c.next_event()["data"]["version"] for c in clients]
            assert len(set(versions)) == 1
            # pages and API calls still get a thread while every stream holds one
            conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
            conn.request("GET", "/")
            assert conn.getresponse().status == 200
            conn.close()
            status, _ = post_json(srv.port, "/api/command", {"kind": "roll"}, host_of(runtime))
            assert status == 200
            for client in clients:
                assert client.next_event()["data"]["version"] == versions[0] + 1
        finally:
            for client in clients:
                client.close()


def test_beyond_max_streams_is_503_json_and_a_closed_stream_frees_its_slot(tmp_path):
    with running_app(tmp_path, keepalive=0.2, max_streams=2) as (_, app), live_server(app) as srv:
        hub: Hub = app.extensions["companion.hub"]
        first, second = SSEClient(srv.port), SSEClient(srv.port)
        first.next_event()
        second.next_event()
        third = SSEClient(srv.port, headers={"Accept-Language": "en"})
        assert third.status == 503
        assert third.headers["Content-Type"] == "application/json"
        assert "Too many live pages are open (2)" in json.loads(third.response.read())["error"]
        third.close()
        first.close()
        # waitress notices the hang-up at the next keepalive write, then frees the slot
        deadline = time.monotonic() + 5
        while hub.open_streams > 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hub.open_streams == 1
        again = SSEClient(srv.port)
        assert again.status == 200 and again.next_event()["event"] == "snapshot"
        again.close()
        second.close()


def test_closing_the_server_ends_open_streams(tmp_path):
    with running_app(tmp_path, keepalive=5) as (_, app):
        srv = live_server(app)
        server = srv.__enter__()
        client = SSEClient(server.port)
        client.next_event()
        started = time.monotonic()
        srv.__exit__(None, None, None)
        with pytest.raises((ConnectionError, OSError, http.client.HTTPException)):
            while True:
                client.next()
        assert time.monotonic() - started < 4
        client.close()


# --- the hub itself, without a server ----------------------------------------------------------
def test_a_slow_page_is_resynced_and_never_blocks_the_table(tmp_path):
    with running_app(tmp_path) as (runtime, app):
        hub = Hub(runtime.table, keepalive=0.2, queue_size=2).start()
        try:
            stream = hub.open("en")
            assert next(stream).startswith(b"retry:")  # with the first snapshot
            started = time.monotonic()
            for _ in range(10):  # nobody reads: the queue overflows
                assert runtime.table.call(Command("roll")).ok
            assert time.monotonic() - started < 5
            assert stream.resync
            msg = next(stream).decode()
            assert msg.startswith("event: snapshot")
            assert json.loads(msg.split("data: ", 1)[1])["version"] == runtime.table.latest.version
            assert next(stream) == b": keepalive\n\n"  # nothing stale follows the fresh snapshot
        finally:
            hub.close()


def test_updates_already_in_the_snapshot_are_not_sent_twice(tmp_path):
    with running_app(tmp_path) as (runtime, app):
        hub = Hub(runtime.table, keepalive=0.2).start()
        try:
            stream = hub.open("en")
            runtime.table.call(Command("roll"))  # queued before the snapshot is read
            first = next(stream).decode()
            assert f'"version":{runtime.table.latest.version}' in first
            assert next(stream) == b": keepalive\n\n"
        finally:
            hub.close()


def test_an_update_is_encoded_once_for_every_public_page_in_one_language(tmp_path, monkeypatch):
    import companion.outputs.webapp.events as events

    encoded = []
    real = events.public_payload
    monkeypatch.setattr(events, "public_payload",
                        lambda update, lang: encoded.append(lang) or real(update, lang))
    with running_app(tmp_path) as (runtime, app):
        hub = Hub(runtime.table, keepalive=0.2).start()
        try:
            pages = [hub.open(lang, client=str(i)) for i, lang in enumerate(["en"] * 5 + ["fr"] * 2)]
            for page in pages:
                assert next(page).startswith(b"retry:")  # each page's own snapshot
            encoded.clear()
            assert runtime.table.call(Command("roll")).ok
            messages = [next(page) for page in pages]
            assert sorted(encoded) == ["en", "fr"]  # not 7 times
            assert len(set(messages[:5])) == 1 and len(set(messages[5:])) == 1 and messages[0] != messages[5]
            assert json.loads(messages[0].split(b"data: ", 1)[1])["version"] == runtime.table.latest.version
        finally:
            hub.close()


def test_a_stream_closed_before_it_started_frees_its_slot(tmp_path):
    with running_app(tmp_path) as (runtime, app):
        hub = Hub(runtime.table, max_streams=1).start()
        try:
            hub.open("en").close()
            assert hub.open_streams == 0
            hub.open("en")
        finally:
            hub.close()


def test_the_table_thread_only_hands_off(tmp_path):
    """A subscriber that blocked would stall every command; the hub's returns at once."""
    with running_app(tmp_path) as (runtime, app):
        hub = Hub(runtime.table, queue_size=1).start()
        try:
            streams = [hub.open("en") for _ in range(5)]
            done = queue.Queue()
            worker = threading.Thread(target=lambda: done.put([runtime.table.call(Command("roll")).ok
                                                                for _ in range(20)]))
            worker.start()
            assert all(done.get(timeout=10))
            assert all(s.resync for s in streams)
        finally:
            hub.close()


# --- a seat's private stream ---------------------------------------------------------------------
@pytest.fixture
def secret_server(tmp_path, monkeypatch):
    install_secret_game(monkeypatch)
    with running_app(tmp_path, game="secret", keepalive=0.2) as (runtime, app), live_server(app) as srv:
        yield runtime, srv


def test_a_seat_stream_carries_that_seats_private_view_and_the_public_one_none(secret_server):
    runtime, srv = secret_server
    token = runtime.table.seat_token(1)
    seat, public = SSEClient(srv.port, f"/api/seat/{token}/events"), SSEClient(srv.port)
    try:
        first = seat.next_event()
        assert first["event"] == "snapshot"
        assert first["data"]["private"] == {"hand": "SECRET-HAND-ONE"} and first["data"]["seat"] == 1
        assert "SECRET" not in json.dumps(public.next_event()["data"])
        status, _ = post_json(srv.port, "/api/command", {"kind": "say"}, {"X-Seat-Token": token})
        assert status == 200
        assert seat.next_event()["data"]["public"]["said"] == [1]
        update = public.next_event()
        assert update["data"]["public"]["said"] == [1] and "SECRET" not in json.dumps(update["data"])
    finally:
        seat.close()
        public.close()


def test_a_seats_refusal_goes_to_that_seat_only(secret_server):
    runtime, srv = secret_server
    token = runtime.table.seat_token(0)
    seat, public = SSEClient(srv.port, f"/api/seat/{token}/events"), SSEClient(srv.port)
    try:
        seat.next_event()
        public.next_event()
        status, _ = post_json(srv.port, "/api/command", {"kind": "shout"}, {"X-Seat-Token": token})
        assert status == 409
        assert seat.next_event()["event"] == "rejected"
        assert public.next()["comment"] == "keepalive"  # and no refusal
    finally:
        seat.close()
        public.close()


def test_no_log_line_holds_a_seat_link(secret_server, caplog):
    runtime, srv = secret_server
    token = runtime.table.seat_token(1)
    with caplog.at_level(logging.DEBUG):
        seat = SSEClient(srv.port, f"/api/seat/{token}/events")
        seat.next_event()
        seat.close()  # waitress logs the hang-up with the request's path
        deadline = time.monotonic() + 5
        hub = srv.app.extensions["companion.hub"]
        while hub.open_streams and time.monotonic() < deadline:
            time.sleep(0.05)
        conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
        conn.request("GET", f"/seat/{token}")
        assert conn.getresponse().status == 200
        conn.close()
    assert any("/seat/…" in r.getMessage() for r in caplog.records)  # the hang-up was logged...
    assert not any(token in r.getMessage() for r in caplog.records)  # ...without the link


def test_the_redaction_filter_keeps_the_rest_of_the_line():
    record = logging.LogRecord("waitress", logging.INFO, __file__, 1, "lost %s and /seat/abc/events",
                               ("/seat/x",), None)
    RedactSeatLinks().filter(record)
    assert record.getMessage() == "lost /seat/… and /seat/…/events"
    record = logging.LogRecord("waitress", logging.INFO, __file__, 1, "lost %s", ("/api/director/tok/voids",),
                               None)
    RedactSeatLinks().filter(record)
    assert record.getMessage() == "lost /api/director/…/voids"


def test_a_failing_private_view_sends_the_public_one_and_logs_no_secret(tmp_path, monkeypatch, caplog):
    def failing(state, seat):
        raise IndexError(f"{state.hands[seat]} is not there")  # the message quotes a secret

    install_secret_game(monkeypatch)
    broken = changed(SECRET, private=failing)
    plug_game(monkeypatch, broken)
    with running_app(tmp_path, game="secret") as (runtime, app):
        hub = Hub(runtime.table, keepalive=0.2).start()
        try:
            stream = hub.open("en", seat=1)
            data = json.loads(next(stream).decode().split("data: ", 1)[1])
            assert data["private"] == {} and data["public"]["players"] == 2
            assert "IndexError" in caplog.text and "SECRET" not in caplog.text
        finally:
            hub.close()


def _within(client: SSEClient, seconds: float = 5.0) -> dict:
    """The next message with data, or a failure once `seconds` pass with only keepalives."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        msg = client.next()
        if msg["data"] is not None:
            return msg
    raise AssertionError(f"no event within {seconds} s")


def test_seat_changes_reach_an_open_public_stream_with_public_facts_only(server):
    """A join, a give, a name change and a free each reach a page already open, as the seats it shows."""
    runtime, srv = server
    client = SSEClient(srv.port)
    code = runtime.table.roster.join_code()
    try:
        client.next_event()
        status, joined = post_json(srv.port, "/api/join", {"code": code, "seat": 0, "name": "Anna"})
        assert status == 200
        msg = _within(client)
        assert msg["event"] == "update" and msg["data"]["seats"][0]["name"] == "Anna"
        assert msg["data"]["seats"][2]["place"] == "Place\u00a03"  # never split at the end of a line
        status, given = post_json(srv.port, "/api/seats/1/assign", {"name": "Bob"}, host_of(runtime))
        assert status == 200
        assert _within(client)["data"]["seats"][1]["name"] == "Bob"
        status, _ = post_json(srv.port, "/api/seats/1/assign", {"name": "Bobby"}, host_of(runtime))
        assert status == 200
        assert _within(client)["data"]["seats"][1]["name"] == "Bobby"
        status, _ = post_json(srv.port, "/api/seats/0/free", {}, host_of(runtime))
        assert status == 200
        last = _within(client)
        assert last["data"]["seats"][0]["name"] == ""
        told = json.dumps(last["data"])
        for secret in (joined["token"], given["token"], code, runtime.table.host_token()):
            assert secret not in told
    finally:
        client.close()
