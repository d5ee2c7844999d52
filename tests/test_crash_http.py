"""Crash! over HTTP on the real waitress server: a whole match through seat tokens, the pages, bad boards."""

from __future__ import annotations

from crash_play import BOARD_TEXT, quick_command
from webfixtures import get_text, host_of, live_server, post_json, read_json, running_app

from companion.gamekit.contract import NOT_YOU


def test_a_two_game_match_through_seat_tokens(tmp_path):
    """Each seat reads its own page's view and sends what its phone offers; out of turn is refused."""
    with (running_app(tmp_path, game="crash", options={"games": 2}) as (runtime, app),
          live_server(app) as server):
        port, table = server.port, runtime.table
        tokens = [table.seat_token(seat) for seat in range(2)]
        kinds = set()
        for _ in range(400):
            state = read_json(port, "/api/state")
            view = state["public"]
            if view["match"]["over"]:
                break
            command = quick_command(table.session.state)  # the test's player looks at the board
            seat = view["actor"] if view["actor"] is not None else 1
            mine = read_json(port, f"/api/seat/{tokens[seat]}")
            assert command.kind in mine["legal"] and mine["private"]["my_turn"] == (view["actor"] == seat)
            if command.kind in ("turn", "move"):
                assert command.args["car"] in mine["private"]["steerable"]
            if view["actor"] is not None and command.kind == "roll":
                status, refused = post_json(port, "/api/command?lang=en", {"kind": "roll", "args": {}},
                                            {"X-Seat-Token": tokens[1 - seat]})
                assert status == 409 and refused["version"] == state["version"]
                assert refused["msgid"] == NOT_YOU and refused["error"] == (
                    f"{['Blue', 'Red'][seat]} must act now, not you: wait for them.")  # the seat's name
            body = {"kind": command.kind, "args": dict(command.args)}
            status, answer = post_json(port, "/api/command", body, {"X-Seat-Token": tokens[seat]})
            assert status == 200, answer
            kinds.add(command.kind)
        final = read_json(port, "/api/state")["public"]
        assert final["match"]["over"] and final["match"]["played"] == 2 and final["legal"] == []
        assert {"roll", "move", "end", "next_game"} <= kinds


def test_the_pages_carry_the_board_and_the_seat_controls_in_both_languages(tmp_path):
    with running_app(tmp_path, game="crash") as (runtime, app), live_server(app) as server:
        port, token = server.port, runtime.table.seat_token(0)
        status, page = get_text(port, "/?lang=fr")
        assert status == 200 and 'id="crash-board"' in page and "/games/crash/scoreboard.js" in page
        assert "Dés de manœuvre" in page and "/games/crash/style.css" in page
        status, page = get_text(port, f"/seat/{token}?lang=en")
        assert status == 200 and 'id="crash-dirs"' in page and 'id="crash-board"' in page
        assert "Roll the steering dice" in page and "/games/crash/seat.js" in page
        status, page = get_text(port, f"/seat/{token}?lang=fr")
        assert "Lancer les dés de manœuvre" in page and "Tourner vers le nord-ouest" in page
        for file in ("scoreboard.js", "seat.js", "style.css"):
            assert get_text(port, f"/games/crash/{file}")[0] == 200
        public = read_json(port, "/api/state")
        assert public["game"] == "crash" and public["title"] == "Crash\u202f!" and public["legal"] == ["roll"]
        mine = read_json(port, f"/api/seat/{token}")
        assert mine["private"] == {"seat": 0, "my_turn": True, "legal": ["roll"], "steerable": [],
                                   "facings": {}}
        assert read_json(port, f"/api/seat/{runtime.table.seat_token(1)}")["legal"] == []


def test_a_bad_board_file_is_refused_with_its_name_key_and_reason_in_the_players_language(tmp_path):
    bad = BOARD_TEXT.replace("cell = [0, 2]", "cell = [0, 7]")
    with running_app(tmp_path, game="crash") as (runtime, app), live_server(app) as server:
        before = read_json(server.port, "/api/state")
        body = {"kind": "new_game", "args": {"game": "crash", "data": {"board": {"name": "my-box.toml",
                                                                                 "text": bad}}}}
        status, answer = post_json(server.port, "/api/command?lang=fr", body, host_of(runtime))
        assert status == 409
        assert answer["error"] == ("Fichier de données my-box.toml\u202f: clé «\u202fjunkyards[0].cell"
                                   "\u202f»\u202f: la case [0, 7] est hors du plateau (un hexagone de côté "
                                   "4)\u202f: choisissez une case du plateau.")
        assert read_json(server.port, "/api/state")["version"] == before["version"]
        status, answer = post_json(server.port, "/api/command?lang=en", body | {"args": body["args"] | {
            "data": {"board": {"name": "x.toml", "text": "side = ["}}}}, host_of(runtime))
        assert status == 409 and answer["error"].startswith("Data file x.toml is not valid TOML")
        good = BOARD_TEXT.replace("cell = [0, 2]", "cell = [0, 1]").replace("cell = [0, -2]",
                                                                           "cell = [0, -1]")
        body["args"]["data"]["board"]["text"] = good
        status, answer = post_json(server.port, "/api/command", body, host_of(runtime))
        assert status == 200
        view = read_json(server.port, "/api/state")["public"]
        assert [(j["q"], j["r"]) for j in view["junkyards"]] == [(0, 1), (0, -1)]


def test_a_bad_board_is_refused_in_french_while_another_game_runs(tmp_path):
    bad = BOARD_TEXT.replace("cell = [0, 2]", "cell = [0, 7]")
    with running_app(tmp_path, game="dice") as (runtime, app), live_server(app) as server:
        data = {"board": {"name": "b.toml", "text": bad}}
        body = {"kind": "new_game", "args": {"game": "crash", "data": data}}
        status, answer = post_json(server.port, "/api/command?lang=fr", body, host_of(runtime))
        assert status == 409 and answer["error"].startswith("Fichier de données b.toml")
