"""A fifth game plugs in with no platform file changed: tests/tinygame is Twenty-one, its own distribution.

It is installed beside the project's wheel in a clean venv and registers through the
table_companion.games entry point only. The real daemon then serves it everywhere a game plugs in:
its commands (HTTP, the OpenAPI document), its pages, scripts and styles, its French strings, its
e-ink frame and its buttons on the twin.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from daemon_process import venv_daemon
from installed import copy_source, expected_frames, pip_run
from polling import wait_for
from webfixtures import request

GAME = Path(__file__).resolve().parent / "tinygame"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def venv(installed, tmp_path_factory) -> Path:
    """The clean venv with the project's wheel, and Twenty-one installed beside it."""
    source = copy_source(GAME, tmp_path_factory.mktemp("twentyone") / "source")
    pip_run([str(installed / "bin" / "pip"), "install", "--no-deps", "--no-build-isolation", "--no-cache-dir",
             str(source)])
    return installed


@pytest.fixture(scope="module")
def daemon(venv, tmp_path_factory):
    with venv_daemon(venv, tmp_path_factory) as running:
        yield running


def get(daemon, path: str, lang: str = "fr") -> tuple[int, bytes]:
    sep = "&" if "?" in path else "?"
    status, body, _ = request(daemon.port, "GET", f"{path}{sep}lang={lang}")
    return status, body



def test_the_fifth_game_is_offered_with_its_title_and_options_in_french(daemon):
    games = {g["name"]: g for g in json.loads(get(daemon, "/api/games")[1])["games"]}
    assert {"dice", "schacht", "gewalt", "twentyone"} <= set(games)
    assert games["twentyone"]["title"] == "Le vingt et un" and games["twentyone"]["seats"] == [2, 4]
    assert games["twentyone"]["options"]["$defs"]["Options"]["properties"]["players"]["title"] == "Joueurs"


def test_its_commands_and_views_are_in_the_openapi_document(daemon):
    document = daemon.get("/api/openapi.json")
    command = document["paths"]["/api/command"]["post"]["x-commands"]["twentyone"]
    assert command == {"add": {"$ref": "#/components/schemas/twentyone_Add"}}
    assert document["components"]["schemas"]["twentyone_Add"]["properties"]["n"] == {
        "type": "integer", "minimum": 1, "maximum": 3}
    views = document["paths"]["/api/state"]["get"]["x-views"]["twentyone"]
    assert views["public"] == {"$ref": "#/components/schemas/twentyone_Public"}
    assert "count" in document["components"]["schemas"]["twentyone_Public"]["properties"]


def test_a_game_of_twenty_one_through_seats_pages_the_twin_and_the_e_ink(daemon, venv):
    host = daemon.get_host("/api/host")
    code = host["join_code"]
    tokens = [daemon.post("/api/join", {"code": code, "seat": seat, "name": name}, headers={})[1]["token"]
              for seat, name in ((0, "Ada"), (1, "Bob"))]
    frames = daemon.get("/api/device")["frame_version"]
    status, answer = daemon.post("/api/command", {"kind": "new_game", "args": {"game": "twentyone"}})
    assert status == 200, answer
    state = daemon.get("/api/state")
    assert (state["game"], state["public"]["count"], state["legal"]) == ("twentyone", 0, ["add"])

    # Its rules through POST /api/command; out of turn, the table refuses before its rules see it.
    turn = state["public"]["turn"]
    status, answer = daemon.post("/api/command", {"kind": "add", "args": {"n": 2}},
                                 headers={"X-Seat-Token": tokens[1 - turn]})
    assert status == 409
    assert answer["error"] == f"C’est à {['Ada', 'Bob'][turn]} d’agir, pas à vous\u202f: attendez."
    status, answer = daemon.post("/api/command", {"kind": "add", "args": {"n": 2}},
                                 headers={"X-Seat-Token": tokens[turn]})
    assert status == 200
    assert daemon.get("/api/state")["public"]["count"] == 2

    # Its scoreboard fragment, its seat page, its script and style, from its own folder.
    page = get(daemon, "/")[1].decode()
    assert 'id="twentyone-count"' in page and "/games/twentyone/scoreboard.js" in page
    assert "/games/twentyone/style.css" in page and "Le vingt et un" in page
    seat_page = get(daemon, f"/seat/{tokens[0]}")[1].decode()
    assert 'id="twentyone-add"' in seat_page and 'aria-label="Compter"' in seat_page
    assert "/games/twentyone/seat.js" in seat_page
    assert get(daemon, "/games/twentyone/seat.js")[0] == 200
    history = json.loads(page.split('id="history-lines">')[1].split("</script>")[0])
    assert history["add"] == "{who} a compté"

    # Its buttons on the twin: C adds 3 for whoever is to play.
    pressed = time.time()
    status, _ = daemon.post("/api/device/press", {"button": "c"})
    assert status == 200
    wait_for(lambda: daemon.get("/api/state")["public"]["count"] == 5)

    # Its e-ink frame: the daemon's is the one its screen draws, through the same panel conversion.
    wait_for(lambda: daemon.get("/api/device")["frame_version"] > frames)
    view = daemon.get("/api/state")["public"]
    expected = expected_frames(venv, "twentyone", view, daemon.base, host, ("Ada", "Bob"), pressed)
    wait_for(lambda: get(daemon, "/api/device/frame.png")[1] in expected)

    # Its result in the game's record, as its own folder declares it: whoever says 21 loses.
    while (public := daemon.get("/api/state")["public"])["loser"] is None:
        assert daemon.post("/api/command", {"kind": "add", "args": {"n": 3}},
                           headers={"X-Seat-Token": tokens[public["turn"]]})[0] == 200
    loser = daemon.get("/api/state")["public"]["loser"]
    status, record = get(daemon, "/api/record")
    assert status == 200
    assert json.loads(record)["result"] == {"winners": [1 - loser], "scores": None, "ranks": None}

