"""The JSON API and pages through Flask's test client: success paths, every error path, and secrets."""

from __future__ import annotations

import html
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webfixtures import FakeBoard, FakeDisplay, install_secret_game, running_app


@pytest.fixture
def web(tmp_path):
    with running_app(tmp_path) as (runtime, app):
        yield runtime, app, app.test_client()


def post(client, body, headers=None, path="/api/command", **kw):
    """POST JSON; without `headers`, as the host (pass {} to send no token at all)."""
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    if headers is None:
        headers = {"X-Host-Token": client.application.extensions["companion"].table.host_token()}
    return client.post(path, data=data, headers=headers, content_type="application/json", **kw)


def host(runtime) -> dict:
    return {"X-Host-Token": runtime.table.host_token()}


# --- state and commands ----------------------------------------------------------------------
def test_state_is_the_public_view_with_its_version(web):
    runtime, _, client = web
    r = client.get("/api/state")
    assert r.status_code == 200
    data = r.get_json()
    assert data["version"] == runtime.table.latest.version >= 1
    assert data["game"] == "dice"
    assert data["title"] == "Dés libres"
    assert data["public"]["count"] == 2 and data["public"]["last"] == []
    assert data["host"] is False
    assert set(data["legal"]) == {"roll", "set_dice"}


def test_roll_bumps_the_version_and_the_state_shows_the_roll(web):
    _, _, client = web
    before = client.get("/api/state").get_json()["version"]
    r = post(client, {"kind": "roll"})
    assert r.status_code == 200
    assert r.get_json() == {"ok": True, "version": before + 1}
    public = client.get("/api/state").get_json()["public"]
    assert len(public["last"]) == 2 and all(1 <= d <= 6 for d in public["last"])
    assert public["total"] == sum(public["last"]) and public["rolls"] == 1


def test_set_dice_then_roll_uses_that_many_dice(web):
    _, _, client = web
    assert post(client, {"kind": "set_dice", "args": {"count": 3}}).status_code == 200
    assert post(client, {"kind": "roll"}).status_code == 200
    assert len(client.get("/api/state").get_json()["public"]["last"]) == 3


def test_a_refused_command_is_409_with_the_translated_reason(web):
    runtime, _, client = web
    r = post(client, {"kind": "undo"})
    assert r.status_code == 409
    assert r.get_json()["error"] == "Rien à annuler."
    assert r.get_json()["msgid"] == "Nothing to undo."
    r = post(client, {"kind": "undo"}, headers={"Accept-Language": "en-GB,en", **host(runtime)})
    assert r.get_json()["error"] == "Nothing to undo."


def test_bad_args_are_409_naming_the_command_and_the_field(web):
    _, _, client = web
    r = post(client, {"kind": "set_dice", "args": {"count": 9}})
    assert r.status_code == 409
    assert r.get_json()["error"].startswith(
        "Commande set_dice\u202f: l’argument «\u202fcount\u202f» n’est pas valable")


def test_an_unknown_command_is_409_naming_it(web):
    _, _, client = web
    r = post(client, {"kind": "fly"})
    assert r.status_code == 409
    assert r.get_json() == {
        "ok": False,
        "error": "Commande inconnue fly\u202f: envoyez l’une de celles-ci\u202f: roll, set_dice.",
        "msgid": "Unknown command {kind}: send one of {kinds}.", "version": r.get_json()["version"]}
    r = post(client.application.test_client(), {"kind": "fly"}, query_string={"lang": "en"})
    assert r.get_json()["error"] == "Unknown command fly: send one of roll, set_dice."


@pytest.mark.parametrize("body, fragment", [
    (b"", "empty"),
    (b"   ", "empty"),
    (b"{", "truncated"),
    (b"{'kind': 'roll'}", "malformed"),
    (b"\xff\xfe", "not UTF-8"),
    (b'{"kind": "roll", "args": {"x": "\xff"}}', "not UTF-8"),
    (b'{"kind": "roll", "args": ' + b'{"a": ' * 40 + b'1' + b'}' * 40 + b'}', "nested more than 16"),
    (b'{"kind": "roll", "args": {"a": ' + b'[' * 3000 + b']' * 3000 + b'}}', "nested more than 16"),
    (b"[1, 2]", "Expected `object`, got `array`"),
    (b'"roll"', "Expected `object`, got `str`"),
    (b"{}", "missing required field `kind`"),
    (b'{"kind": 3}', "Expected `str`, got `int` - at `$.kind`"),
    (b'{"kind": ""}', "$.kind"),
    (b'{"kind": "ROLL!"}', "$.kind"),
    (b'{"kind": "roll", "args": [1]}', "Expected `object`, got `array` - at `$.args`"),
    (b'{"kind": "roll", "args": null}', "$.args"),
    (b'{"kind": "roll", "host_token": 5}', "$.host_token"),
    (b'{"kind": "roll", "seat": 2}', "unknown field `seat`"),
])
def test_a_bad_body_is_400_saying_what_was_wrong_and_what_to_send(web, body, fragment):
    _, _, client = web
    r = post(client, body, headers={"Accept-Language": "en"})
    assert r.status_code == 400
    assert r.is_json
    error = r.get_json()["error"]
    assert fragment in error
    assert '{"kind": "roll"}' in error  # how to fix it


def test_a_bad_body_message_is_translated(web):
    _, _, client = web
    r = post(client, b"{")
    assert r.status_code == 400 and r.get_json()["error"].startswith("Le corps de la requête")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(st.binary(max_size=80),
                      st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                                   lambda inner: st.lists(inner, max_size=3)
                                   | st.dictionaries(st.sampled_from(["kind", "args", "host_token", "x"]),
                                                     inner, max_size=3),
                                   max_leaves=8).map(lambda v: json.dumps(v).encode())))
def test_no_body_whatever_makes_a_500(web, body):
    _, _, client = web
    r = post(client, body)
    assert r.is_json
    assert r.status_code in (200, 400, 403, 409), r.get_json()


def test_a_huge_body_is_413_json(web):
    _, _, client = web
    r = post(client, b'{"kind": "roll", "args": {"x": "' + b"a" * 100_000 + b'"}}')
    assert r.status_code == 413 and r.is_json and "65536 octets" in r.get_json()["error"]


# --- host commands ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["undo", "new_game"])
def test_a_host_command_without_the_token_is_403(web, kind):
    _, _, client = web
    r = post(client, {"kind": kind}, headers={"Accept-Language": "en"})
    assert r.status_code == 403
    answer = r.get_json()
    assert "host link" in answer["error"] and answer["action"] == kind
    # read in a browser's banner: no action key or header name in the words
    assert not any(word in answer["error"] for word in ("(", "X-Host-Token", "phone"))


@pytest.mark.parametrize("token", ["wrong", "x" * 24, "é-not-ascii", ""])
def test_a_host_command_with_a_wrong_token_is_403(web, token):
    runtime, _, client = web
    before = runtime.table.latest.version
    r = post(client, {"kind": "undo"}, headers={"X-Host-Token": token})
    assert r.status_code == 403 and r.is_json
    r = post(client, {"kind": "undo", "host_token": token}, headers={})
    assert r.status_code == 403
    assert runtime.table.latest.version == before


def test_undo_with_the_host_token_takes_the_roll_back(web):
    runtime, _, client = web
    post(client, {"kind": "roll"})
    first = client.get("/api/state").get_json()["public"]
    post(client, {"kind": "roll"})
    r = post(client, {"kind": "undo"}, headers=host(runtime))
    assert r.status_code == 200
    state = client.get("/api/state").get_json()
    assert state["public"] == first
    # the token may also come in the body, for clients that cannot set headers
    r = post(client, {"kind": "undo", "host_token": runtime.table.host_token()})
    assert r.status_code == 200 and client.get("/api/state").get_json()["public"]["rolls"] == 0
    r = post(client, {"kind": "undo"}, headers=host(runtime))
    assert r.status_code == 409 and r.get_json()["error"] == "Rien à annuler."


def test_new_game_with_the_host_token_starts_afresh(web):
    runtime, _, client = web
    post(client, {"kind": "roll"})
    args = {"game": "dice", "options": {"count": 1}}
    r = post(client, {"kind": "new_game", "args": args}, headers=host(runtime))
    assert r.status_code == 200
    public = client.get("/api/state").get_json()["public"]
    assert public["rolls"] == 0 and public["count"] == 1
    r = post(client, {"kind": "new_game", "args": {"game": "chess"}}, headers=host(runtime))
    assert r.status_code == 409 and "chess" in r.get_json()["error"]


def test_state_says_whether_the_host_token_is_right(web):
    runtime, _, client = web
    assert client.get("/api/state", headers=host(runtime)).get_json()["host"] is True
    assert client.get("/api/state", headers={"X-Host-Token": "nope"}).get_json()["host"] is False


def test_export_is_for_the_host_only(web):
    runtime, _, client = web
    post(client, {"kind": "roll"})
    assert client.get("/api/export").status_code == 403
    assert client.get("/api/export", headers={"X-Host-Token": "nope"}).status_code == 403
    r = client.get("/api/export", headers=host(runtime))
    assert r.status_code == 200
    records = r.get_json()["records"]
    assert [rec["kind"] for rec in records] == ["new_game", "roll"]
    assert len(records[1]["draws"]) == 2


def test_a_seat_token_on_a_game_without_seats_is_403(web):
    _, _, client = web
    r = post(client, {"kind": "roll"}, headers={"X-Seat-Token": "abc"})
    assert r.status_code == 403 and r.is_json
    r = post(client, {"kind": "roll"}, headers={"X-Seat-Token": "ünïcode"})
    assert r.status_code == 403


# --- routing errors --------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/api/nope", "/api", "/api/state/extra", "/api/seat"])
def test_an_unknown_api_route_is_404_json(web, path):
    _, _, client = web
    r = client.get(path, headers={"Accept-Language": "en"})
    assert r.status_code == 404 and r.is_json
    assert r.get_json()["ok"] is False
    assert "openapi.json" in r.get_json()["error"]


@pytest.mark.parametrize("method, path, allowed", [
    ("post", "/api/state", "GET"), ("get", "/api/command", "POST"), ("delete", "/api/command", "POST"),
    ("put", "/api/device/press", "POST"), ("post", "/api/events", "GET"),
])
def test_a_wrong_method_is_405_json_naming_the_right_one(web, method, path, allowed):
    _, _, client = web
    r = getattr(client, method)(path, headers={"Accept-Language": "en"})
    assert r.status_code == 405 and r.is_json
    assert f"use {allowed}" in r.get_json()["error"]
    assert allowed in r.headers["Allow"]


def test_an_unknown_page_is_a_readable_404_page(web):
    _, _, client = web
    r = client.get("/nowhere")
    assert r.status_code == 404 and r.mimetype == "text/html"
    assert "Cette page n’existe pas" in html.unescape(r.get_data(as_text=True))


# --- the device twin -------------------------------------------------------------------------
def test_device_without_a_board_or_display(web):
    runtime, _, client = web
    client.environ_base["HTTP_X_HOST_TOKEN"] = runtime.table.host_token()
    data = client.get("/api/device").get_json()
    assert data == {"board": False, "simulated": False, "dice": [], "status": False, "buttons": [],
                    "frame": False, "frame_version": 0, "panel": None}
    r = client.get("/api/device/frame.png")
    assert r.status_code == 404 and r.is_json
    r = post(client, {"button": "roll"}, path="/api/device/press")
    assert r.status_code == 409 and r.is_json


@pytest.fixture
def twin(tmp_path):
    board, display = FakeBoard(), FakeDisplay(b"\x89PNG-frame")
    with running_app(tmp_path, board=board, display=display) as (runtime, app):
        yield board, app.test_client()


def test_device_reports_the_board_and_frame(twin):
    board, client = twin
    board.dice = [3, 5]
    r = client.get("/api/device")
    assert r.headers["Cache-Control"] == "no-store"
    assert r.get_json() | {} == {"board": True, "simulated": True, "dice": [3, 5], "status": True,
                                 "buttons": ["a", "b", "c", "d", "roll"], "frame": True, "frame_version": 0,
                                 "panel": None}
    r = client.get("/api/device/frame.png")
    assert r.status_code == 200 and r.mimetype == "image/png" and r.data == b"\x89PNG-frame"
    assert r.headers["Cache-Control"] == "no-store"


def test_press_drives_the_board(twin):
    board, client = twin
    assert post(client, {"button": "roll"}, path="/api/device/press").status_code == 200
    r = post(client, {"button": "a", "hold": True}, path="/api/device/press")
    assert r.status_code == 200 and r.get_json()["ok"] is True and r.get_json()["dice"] == [None, None]
    assert board.presses == [("roll", False), ("a", True)]


@pytest.mark.parametrize("body, status, fragment", [
    ({"button": "z"}, 400, "a, b, c, d, roll"),
    ({"button": "roll", "hold": "yes"}, 400, "$.hold"),
    ({"hold": True}, 400, "button"),
    (b"nonsense", 400, '{"button": "roll", "hold": false}'),
])
def test_a_bad_press_is_400(twin, body, status, fragment):
    board, client = twin
    token = client.application.extensions["companion"].table.host_token()
    r = post(client, body, path="/api/device/press", headers={"Accept-Language": "en", "X-Host-Token": token})
    assert r.status_code == status and fragment in r.get_json()["error"]
    assert board.presses == []


def test_a_real_boards_buttons_are_read_only(tmp_path):
    board = FakeBoard(simulated=False)
    with running_app(tmp_path, board=board) as (_, app):
        client = app.test_client()
        r = post(client, {"button": "roll"}, path="/api/device/press")
        assert r.status_code == 403 and r.is_json
        assert board.presses == []
        page = client.get("/device?lang=en").get_data(as_text=True)
        assert "Read-only" in page


# --- the OpenAPI document --------------------------------------------------------------------
def test_openapi_describes_every_api_route(web):
    _, app, client = web
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    def openapi_path(rule) -> str:
        return re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(rule))

    routes = {openapi_path(rule) for rule in app.url_map.iter_rules() if str(rule).startswith("/api/")}
    assert routes == set(doc["paths"])
    for rule in app.url_map.iter_rules():
        path = openapi_path(rule)
        if path in doc["paths"]:
            assert {m.lower() for m in rule.methods - {"HEAD", "OPTIONS"}} == set(doc["paths"][path])
    assert {"CommandBody", "PressBody", "Error"} <= set(doc["components"]["schemas"])
    assert doc["components"]["schemas"]["CommandBody"]["required"] == ["kind"]


# --- pages and languages ---------------------------------------------------------------------
def test_pages_are_french_by_default_and_english_on_request(web):
    _, _, client = web
    page = client.get("/").get_data(as_text=True)
    assert '<html lang="fr">' in page and "Lancer" in page and "Historique" in page
    r = client.get("/?lang=en")
    assert '<html lang="en">' in r.get_data(as_text=True) and ">Roll<" in r.get_data(as_text=True)
    assert "lang=en" in r.headers["Set-Cookie"]
    # the cookie keeps the choice on the next page
    assert '<html lang="en">' in client.get("/device").get_data(as_text=True)


def test_accept_language_and_the_runtime_default(tmp_path):
    with running_app(tmp_path, language="en") as (_, app):
        client = app.test_client()
        assert '<html lang="en">' in client.get("/").get_data(as_text=True)
        assert '<html lang="fr">' in client.get("/", headers={"Accept-Language": "fr-CH, en;q=0.8"}).get_data(
            as_text=True)
        assert '<html lang="en">' in client.get("/?lang=xx").get_data(as_text=True)


def test_a_bad_seat_link_is_a_readable_404(web):
    _, _, client = web
    r = client.get("/seat/not-a-seat")
    assert r.status_code == 404 and r.mimetype == "text/html"
    assert "Ce lien de place n’est pas valide" in html.unescape(r.get_data(as_text=True))
    r = client.get("/seat/not-a-seat?lang=en")
    assert "This seat link is not valid" in r.get_data(as_text=True)
    for path in ("/api/seat/not-a-seat", "/api/seat/not-a-seat/events"):
        r = client.get(path)
        assert r.status_code == 404 and r.is_json


def test_no_page_or_public_answer_holds_the_host_token(web):
    runtime, _, client = web
    token = runtime.table.host_token()
    for path in ["/", "/device", "/nowhere", "/api/state", "/api/device", "/api/openapi.json", "/api/nope",
                 f"/?host={token}"]:
        r = client.get(path)
        assert token not in r.get_data(as_text=True), path
    r = post(client, {"kind": "undo", "host_token": token + "x"})
    assert token not in r.get_data(as_text=True)


def test_responses_never_send_a_referer(web):
    _, _, client = web
    assert client.get("/").headers["Referrer-Policy"] == "no-referrer"


# --- a game with secrets: seats, private views, seat commands -----------------------------------
@pytest.fixture
def secret(tmp_path, monkeypatch):
    install_secret_game(monkeypatch)
    with running_app(tmp_path, game="secret") as (runtime, app):
        yield runtime, app.test_client()


def test_a_seat_page_shows_only_that_seats_secret(secret):
    runtime, client = secret
    token = runtime.table.seat_token(1)
    r = client.get(f"/seat/{token}")
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    page = r.get_data(as_text=True)
    assert "SECRET-HAND-ONE" in page and "SECRET-HAND-ZERO" not in page
    assert "Place 2" in page
    assert client.get(f"/api/seat/{token}").get_json()["private"] == {"hand": "SECRET-HAND-ONE"}


def test_public_answers_hold_no_secret_and_no_seat_token(secret):
    runtime, client = secret
    tokens = [runtime.table.seat_token(s) for s in (0, 1)] + [runtime.table.host_token()]
    for path in ["/", "/device", "/api/state", "/api/device"]:
        body = client.get(path).get_data(as_text=True)
        assert "SECRET-HAND" not in body, path
        assert not any(t in body for t in tokens), path
    assert client.get(f"/seat/{tokens[0]}").status_code == 200
    assert tokens[1] not in client.get(f"/seat/{tokens[0]}").get_data(as_text=True)


def test_a_seat_command_is_sent_as_that_seat(secret):
    runtime, client = secret
    r = post(client, {"kind": "say"}, headers={"X-Seat-Token": runtime.table.seat_token(1)})
    assert r.status_code == 200
    assert client.get("/api/state").get_json()["public"]["said"] == [1]
    r = post(client, {"kind": "say"})
    assert r.status_code == 409
    r = post(client, {"kind": "say"}, headers={"X-Seat-Token": "forged"})
    assert r.status_code == 403
