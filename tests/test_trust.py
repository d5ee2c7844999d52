"""Trust at the table: strangers on the Wi-Fi, a host who also plays, hostile clients (docs/security.md).

Each finding of the adversarial run is checked here through the real waitress server; other clients
are other loopback addresses (127.0.0.2, ...), which Linux answers like any address.
"""

from __future__ import annotations

import io
import json
import logging
import random
import socket
import sqlite3

import pytest
import zxingcpp
from PIL import Image
from schacht_play import random_command
from webfixtures import FakeBoard, FakeDisplay, live_server, post_json, request, running_app

from companion.core.session import NEW_GAME
from companion.devices.panels import panel
from companion.gamekit import ScriptedDraws
from companion.gamekit.contract import PHONE_SEAT, Command, TableInfo
from companion.gamekit.frame import join_link
from companion.outputs.frames import render
from companion.outputs.webapp.trust import FIRST_WAIT, FREE_TRIES, LONGEST_WAIT, CodeAttempts, allowed_host

URL = "http://192.168.1.20:8080/"




def codes_in(png: bytes) -> list[str]:
    """The text of every QR code in an image."""
    return [found.text for found in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


def frame_png(code: str, key: str) -> bytes:
    canvas = render("dice", {"count": 2, "last": [], "total": 0, "rolls": 0, "history": []},
                    panel("impression-7.3"), "fr", TableInfo(URL, code, join_key=key))
    out = io.BytesIO()
    canvas.image.save(out, "PNG")
    return out.getvalue()


# --- 1. presence is the credential -----------------------------------------------------------------
@pytest.fixture
def pi(tmp_path):
    """A table as on a Pi: real buttons (not the simulator's), a panel that keeps its last frame."""
    with running_app(tmp_path, url=URL, board=FakeBoard(simulated=False)) as (runtime, app):
        runtime.display = FakeDisplay(frame_png(runtime.table.roster.join_code(),
                                                runtime.table.roster.join_key()))
        with live_server(app) as server:
            yield runtime, server


def test_nothing_served_without_a_token_shows_the_join_code(pi):
    runtime, server = pi
    code, key = runtime.table.roster.join_code(), runtime.table.roster.join_key()
    host = {"X-Host-Token": runtime.table.host_token()}
    status, png, _ = request(server.port, "GET", "/api/device/frame.png", host)
    link = join_link(TableInfo(URL, code, join_key=key))
    assert status == 200 and codes_in(png) == [link]  # the decoder does read it
    assert link.endswith(f"/j/{code}.{key}")
    for path in ("/", "/join", "/host", "/device", "/api/state", "/api/device", "/api/device/frame.png",
                 "/api/seats", "/api/games", "/api/openapi.json", "/static/example-frame.png"):
        status, body, headers = request(server.port, "GET", path, client="127.0.0.2")
        assert code.encode() not in body and key.encode() not in body, path
        if headers.get("Content-Type", "").startswith("image/"):
            assert not any(code in text or key in text for text in codes_in(body)), path
    assert request(server.port, "GET", "/api/device/frame.png")[0] == 403
    assert request(server.port, "GET", "/api/device")[0] == 403
    assert request(server.port, "POST", "/api/device/press", body={"button": "roll"})[0] == 403


def test_the_simulators_twin_is_open_on_its_own_machine_only(tmp_path):
    with running_app(tmp_path, url=URL, board=FakeBoard(simulated=True)) as (runtime, app):
        runtime.display = FakeDisplay(frame_png(runtime.table.roster.join_code(),
                                                runtime.table.roster.join_key()))
        with live_server(app) as server:  # the simulator's own keyboard: loopback
            assert request(server.port, "GET", "/api/device/frame.png")[0] == 200
            assert request(server.port, "POST", "/api/device/press", body={"button": "roll"})[0] == 200
        phone = app.test_client()
        phone.environ_base["REMOTE_ADDR"] = "192.168.1.50"  # a phone on the Wi-Fi
        assert phone.get("/api/device/frame.png").status_code == 403
        assert phone.get("/api/device").status_code == 403
        assert phone.post("/api/device/press", json={"button": "roll"}).status_code == 403
        assert b"device-state\">null" in phone.get("/device").data


def test_wrong_codes_slow_an_address_down_and_the_log_says_so(tmp_path, caplog):
    with running_app(tmp_path) as (runtime, app), live_server(app) as server:
        right = runtime.table.roster.join_code()
        wrong = "ZZZZ" if right != "ZZZZ" else "YYYY"
        with caplog.at_level(logging.WARNING):
            guess = {"code": wrong, "seat": 2, "name": "Eve"}
            answers = [request(server.port, "POST", "/api/join", body=guess, client="127.0.0.2")[0]
                       for _ in range(FREE_TRIES + 1)]
        assert answers == [409] * FREE_TRIES + [429]
        status, body, headers = request(server.port, "POST", "/api/join",
                                        body={"code": right, "seat": 2, "name": "Eve"}, client="127.0.0.2")
        assert status == 429 and json.loads(body)["retry_after"] > 0  # even the right code must wait
        assert "wrong codes from 127.0.0.2" in caplog.text
        status, body, _ = request(server.port, "POST", "/api/join",
                                  body={"code": right, "seat": 2, "name": "Ann"}, client="127.0.0.3")
        assert status == 200  # another player at the table is not held up


def test_the_wait_doubles_up_to_an_hour_and_is_forgotten_after_a_day():
    now = [0.0]
    attempts = CodeAttempts(clock=lambda: now[0])
    waits = [attempts.failed("a") for _ in range(FREE_TRIES + 10)]
    assert waits[:FREE_TRIES - 1] == [0.0] * (FREE_TRIES - 1)
    assert waits[FREE_TRIES - 1:FREE_TRIES + 2] == [FIRST_WAIT, 2 * FIRST_WAIT, 4 * FIRST_WAIT]
    assert waits[-1] == LONGEST_WAIT and attempts.wait("a") == LONGEST_WAIT
    now[0] += LONGEST_WAIT
    assert attempts.wait("a") == 0.0 and attempts.wait("b") == 0.0
    now[0] += 24 * 3600 + 1
    assert attempts.failed("a") == 0.0  # a day later the address starts afresh


@pytest.mark.parametrize(("host", "allowed"), [
    ("192.168.1.20:8080", True), ("127.0.0.1", True), ("[::1]:8080", True), ("localhost:8080", True),
    (f"{socket.gethostname()}.local:8080", True), ("table.local", True),
    ("evil.example", False), ("evil.example:8080", False), ("192.168.1.20.evil.example", False), ("", False),
])
def test_only_the_tables_own_names_are_answered(tmp_path, host, allowed):
    names = frozenset({"localhost", socket.gethostname(), f"{socket.gethostname()}.local", "table.local"})
    assert allowed_host(host, names) is allowed


def test_a_request_naming_another_host_is_refused(tmp_path):
    with running_app(tmp_path, url=URL) as (_, app), live_server(app) as server:
        status, body, _ = request(server.port, "GET", "/api/state", {"Host": "evil.example"})
        assert status == 400 and URL in json.loads(body)["error"]
        assert request(server.port, "GET", "/", {"Host": "evil.example"})[0] == 400
        assert request(server.port, "GET", "/api/state", {"Host": "192.168.1.20:8080"})[0] == 200


# --- 2. the host is a player ------------------------------------------------------------------------
@pytest.fixture
def schacht(tmp_path):
    with running_app(tmp_path, game="schacht", options={"players": 3}) as (runtime, app), \
            live_server(app) as server:
        for seat, name in enumerate(("Ada", "Bob", "Cy")):
            runtime.table.seating(lambda roster, count, seat=seat, name=name: roster.claim(seat, name, count))
        yield runtime, server


def test_the_host_cannot_move_for_a_seat_a_phone_holds(schacht):
    runtime, server = schacht
    host = {"X-Host-Token": runtime.table.host_token()}
    actor = runtime.table.latest.acting
    version = runtime.table.version
    for value in range(1, 7):  # placing each value would tell which the seat holds
        place = {"kind": "place", "args": {"side": 0, "value": value}}
        status, answer = post_json(server.port, "/api/command", place, host)
        assert status == 409 and "plays from its own phone" in answer["msgid"]
    assert runtime.table.version == version
    assert post_json(server.port, "/api/command", {"kind": "pass"}, host)[0] == 409
    # The device's buttons may not act for it either (anyone can press them); the seat's own phone plays.
    refused = runtime.table.press("roll:hold").result(5)
    assert refused.rejected is not None and refused.rejected.msgid == PHONE_SEAT
    assert runtime.table.version == version
    token = {"X-Seat-Token": runtime.table.seat_token(actor)}
    assert post_json(server.port, "/api/command", {"kind": "pass"}, token)[0] == 200


def test_the_host_may_play_for_a_seat_no_phone_held_in_this_game(schacht):
    runtime, server = schacht
    actor = runtime.table.latest.acting
    runtime.table.seating(lambda roster, count: roster.free(actor, count))
    host = {"X-Host-Token": runtime.table.host_token()}
    assert post_json(server.port, "/api/command", {"kind": "pass"}, host)[0] == 409  # freed, not unheld
    for seat in range(3):
        runtime.table.seating(lambda roster, count, seat=seat: roster.free(seat, count))
    # The next game starts with no phone seated: the host and the buttons play every seat.
    again = {"kind": "new_game", "args": {"again": True}}
    assert post_json(server.port, "/api/command", again, host)[0] == 200
    status, _ = post_json(server.port, "/api/command", {"kind": "pass"}, host)
    assert status == 200


def play_until(table, rng, draws, done) -> None:
    """Random legal moves from the seats' own phones until `done(session)`."""
    for _ in range(2000):
        if done(table.session):
            return
        command = random_command(table.session.state, rng)
        seat = command.seat if command.seat is not None else table.latest.acting
        table.call(Command(command.kind, command.args, seat))
    raise AssertionError("never reached")


def test_no_undo_across_a_reveal(schacht):
    runtime, server = schacht
    play_until(runtime.table, random.Random(3), ScriptedDraws(random.Random(3)),
               lambda session: session.state.outcomes)  # a side's cards are turned up
    status, answer = post_json(server.port, "/api/command", {"kind": "undo"},
                               {"X-Host-Token": runtime.table.host_token()})
    assert status == 409 and "cannot be undone" in answer["msgid"]


def test_the_export_hides_every_move_and_draw_until_the_game_is_over(schacht):
    runtime, server = schacht
    table, host = runtime.table, {"X-Host-Token": runtime.table.host_token()}
    rng = random.Random(5)
    play_until(table, rng, ScriptedDraws(rng), lambda session: len(session.history) > 8)

    def export() -> dict:
        status, body, _ = request(server.port, "GET", "/api/export", host)
        assert status == 200
        return json.loads(body)

    running = export()
    assert running["complete"] is False
    for record in running["records"]:
        assert record["draws"] == [] and (record["kind"] == NEW_GAME or record["args"] == {})
    kinds = [r.kind for r in table.store.records_since_last(NEW_GAME)]
    assert [r["kind"] for r in running["records"]] == kinds  # who did what and when stays
    play_until(table, rng, ScriptedDraws(rng), lambda session: session.state.phase == "over")
    finished = export()
    assert finished["complete"] is True
    assert any(r["kind"] == "place" and "value" in r["args"] for r in finished["records"])
    assert any(r["draws"] for r in finished["records"])


def test_the_hosts_refused_probes_never_reach_the_public_pages(schacht):
    runtime, server = schacht
    from webfixtures import SSEClient

    public = SSEClient(server.port)
    try:
        public.next_event()
        post_json(server.port, "/api/command", {"kind": "place", "args": {"side": 0, "value": 6}},
                  {"X-Host-Token": runtime.table.host_token()})
        seat = runtime.table.latest.acting
        post_json(server.port, "/api/command", {"kind": "pass"},
                  {"X-Seat-Token": runtime.table.seat_token(seat)})
        assert public.next_event()["event"] == "update"  # the next thing it hears is the pass, no refusal
    finally:
        public.close()


# --- 5, 6. bodies and args --------------------------------------------------------------------------
def test_junk_args_are_refused_and_never_recorded(tmp_path):
    with running_app(tmp_path) as (runtime, app), live_server(app) as server:
        host = {"X-Host-Token": runtime.table.host_token()}
        records = runtime.table.store.last_version()
        for body in ({"kind": "roll", "args": {"junk": "x" * 60000}},
                     {"kind": "set_dice", "args": {"count": 2, "junk": [1] * 9000}},
                     {"kind": "undo", "args": {"junk": 1}}, {"kind": "end_game", "args": {"junk": 1}}):
            status, _ = post_json(server.port, "/api/command", body, host)
            assert status in (409, 413), body["kind"]
        assert runtime.table.store.last_version() == records


# --- 7. a full disk ---------------------------------------------------------------------------------
def test_a_full_disk_never_makes_a_seat_lookup_fail_and_no_message_names_a_path(tmp_path):
    with running_app(tmp_path) as (runtime, app), live_server(app) as server:
        token = runtime.table.seat_token(0)
        db = runtime.table.store.path
        con = sqlite3.connect(db)
        for table in ("meta", "records"):
            con.execute(f"CREATE TRIGGER full_{table} BEFORE INSERT ON {table} BEGIN SELECT RAISE(ABORT, "
                        f"'database or disk is full'); END")
        con.commit()
        try:
            assert request(server.port, "GET", "/api/seat/not-a-token")[0] == 404
            assert request(server.port, "GET", "/seat/not-a-token")[0] == 404
            assert request(server.port, "GET", f"/api/seat/{token}")[0] == 200
            status, answer = post_json(server.port, "/api/command", {"kind": "roll"},
                                       {"X-Seat-Token": token})
            assert status == 409 and str(db) not in answer["error"] and str(tmp_path) not in answer["error"]
        finally:
            con.close()


# --- 9. names ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["Bob\u202eevil", "A\x00da", "Z\u200boé", "\ufeffAda", "Ada\u2066",
                                  "Eve\x1b[31m"])
def test_names_that_could_pass_for_another_are_refused(tmp_path, name):
    with running_app(tmp_path) as (runtime, app), live_server(app) as server:
        code = runtime.table.roster.join_code()
        status, answer = post_json(server.port, "/api/join", {"code": code, "seat": 0, "name": name})
        assert status == 409 and "U+" in answer["error"] and runtime.table.roster.name(0) == ""


@pytest.mark.parametrize(("name", "kept"), [
    ("Zoé", "Zoé"), ("Zoe\u0301", "Zoé"), ("François-Hélène Ødegård", "François-Hélène Ødegård"),
    ("Ada 🎲", "Ada 🎲"), ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"), ("Ωμέγα", "Ωμέγα"),
])
def test_accents_and_emoji_are_kept_in_nfc(tmp_path, name, kept):
    with running_app(tmp_path) as (runtime, app), live_server(app) as server:
        code = runtime.table.roster.join_code()
        status, _ = post_json(server.port, "/api/join", {"code": code, "seat": 0, "name": name})
        assert status == 200 and runtime.table.roster.name(0) == kept
