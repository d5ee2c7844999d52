"""Crazy Race (Schacht): a whole 4-player game driven only through seat tokens over HTTP."""

from __future__ import annotations

import json
import random

from webfixtures import live_server, post_json, read_json, running_app

from companion.games.schacht.rules import actor


def choose(view: dict, mine: dict, rng: random.Random) -> tuple[str, dict] | None:
    """What a player does from their own private page: the legal choices it lists, at random."""
    legal = mine["legal"]
    if "place" in legal and rng.random() < 0.85:
        return "place", {"side": rng.choice(mine["placements"]), "value": rng.choice(mine["hand"])}
    if "recall" in legal and not mine["hand"]:
        return "recall", {}
    if "pass" in legal:
        return "pass", {}
    if "move" in legal:
        decide = mine["decide"]
        loco = rng.choice(decide["locos"])
        return "move", {"moves": [{"loco": loco, "steps": decide["steps"]}]}
    if "take_back" in legal:
        return "take_back", {"value": rng.choice([None, *mine["take_back"]])}
    if "next" in legal:
        return "next", {}
    return None


def test_a_whole_four_player_game_through_seat_tokens(tmp_path):
    rng = random.Random(11)
    with (running_app(tmp_path, game="schacht", options={"players": 4}) as (runtime, app),
          live_server(app) as server):
        port = server.port
        table = runtime.table
        tokens = [table.seat_token(seat) for seat in range(4)]
        moves = 0
        for _ in range(500):
            state = read_json(port, "/api/state")
            view = state["public"]
            if view["phase"] == "over":
                break
            seat = view["turn"] if view["turn"] is not None else rng.randrange(4)
            assert seat == (actor(table.session.state) if view["turn"] is not None else seat)
            mine = read_json(port, f"/api/seat/{tokens[seat]}")["private"]
            # Another seat's token may not act now: refused with a 409 and nothing changes.
            if view["phase"] in ("bid", "decide", "takeback"):
                other = (seat + 1) % 4
                status, body = post_json(port, "/api/command", {"kind": "pass", "args": {}},
                                         headers={"X-Seat-Token": tokens[other]})
                assert status == 409 and read_json(port, "/api/state")["version"] == state["version"]
            kind, args = choose(view, mine, rng)
            status, body = post_json(port, "/api/command", {"kind": kind, "args": args},
                                     headers={"X-Seat-Token": tokens[seat]})
            assert status == 200, body
            moves += 1
            public_text = json.dumps(read_json(port, "/api/state"))
            assert "hand" not in public_text and "discards" not in public_text
        final = read_json(port, "/api/state")["public"]
        assert final["phase"] == "over" and final["players"] == 4 and moves > 40
        assert final["final"]["winners"] and len(final["points"]) == 4
        assert runtime.table.session.state.phase == "over"


def test_a_seat_page_shows_only_that_seats_hand(tmp_path):
    with (running_app(tmp_path, game="schacht", options={"players": 3}) as (runtime, app),
          live_server(app) as server):
        token = runtime.table.seat_token(2)
        mine = read_json(server.port, f"/api/seat/{token}")["private"]
        assert mine["seat"] == 2 and mine["hand"] == [1, 1, 2, 2, 3, 3, 4, 6]
        assert "hand" not in json.dumps(read_json(server.port, "/api/state")["public"])
        client = app.test_client()
        for path, marker in (("/", 'id="schacht-lanes"'), (f"/seat/{token}", 'id="schacht-hand"')):
            page = client.get(f"{path}?lang=en")
            assert page.status_code == 200 and marker in page.get_data(as_text=True), path
        assert client.get("/games/schacht/seat.js").status_code == 200
        assert client.get("/games/schacht/style.css").status_code == 200
