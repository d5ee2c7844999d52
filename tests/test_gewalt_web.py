"""Crazy Race over HTTP: a full game played through seat tokens on a real waitress server, and the pages."""

from __future__ import annotations

import json
import random

from gewalt_play import choose
from webfixtures import get_json, get_text, live_server, post_json, running_app


def test_a_full_expert_game_through_seat_tokens(tmp_path):
    rng = random.Random(11)
    with running_app(tmp_path, game="gewalt", options={"players": 3, "expert": True}) as (runtime, app), \
            live_server(app) as server:
        port = server.port
        tokens = [runtime.table.seat_token(seat) for seat in range(3)]
        privates = {}
        for seat, token in enumerate(tokens):
            status, body = get_json(port, f"/api/seat/{token}")
            assert status == 200 and body["seat"] == seat
            privates[seat] = body["private"]
        bets = [privates[s]["bet"] for s in range(3)]
        accepted = refused = 0
        for _step in range(3000):
            status, state = get_json(port, "/api/state")
            public = state["public"]
            if public["over"]:
                break
            # Before the end no bet and no hand is public.
            assert public["scores"] is None and "bet" not in json.dumps(public)
            actor = public["actor"]
            status, mine = get_json(port, f"/api/seat/{tokens[actor]}")
            assert mine["private"]["bet"] == bets[actor]
            kind, args = choose(public, mine["private"], mine["private"]["legal"], rng)
            other = (actor + 1) % 3
            if _step % 25 == 0:  # a seat out of turn is refused, and nothing changes
                status, refusal = post_json(port, "/api/command", {"kind": kind, "args": args},
                                            {"X-Seat-Token": tokens[other]})
                assert status == 409 and refusal["version"] == state["version"]
            status, answer = post_json(port, "/api/command", {"kind": kind, "args": args},
                                       {"X-Seat-Token": tokens[actor]})
            if status == 200:
                accepted += 1
            else:
                assert status == 409 and answer["error"], answer
                refused += 1
        status, state = get_json(port, "/api/state")
        public = state["public"]
        assert public["over"] and all(p["finished"] for p in public["pawns"])
        assert [row["targets"] for row in public["scores"]] == bets  # revealed at the end
        assert all(0 <= row["total"] <= 9 for row in public["scores"])
        assert accepted > 30
        # the seat pages and the scoreboard carry the game's fragments
        status, page = get_text(port, f"/seat/{tokens[0]}")
        assert status == 200 and 'id="gewalt-bet"' in page and 'id="gewalt-race"' in page
        status, page = get_text(port, "/")
        assert status == 200 and 'id="gewalt-race"' in page and "/games/gewalt/scoreboard.js" in page


def test_a_bad_data_file_is_refused_by_the_host_with_its_name_and_field(tmp_path):
    with running_app(tmp_path, game="gewalt") as (runtime, app), live_server(app) as server:
        text = "bets = []\n[sections]\n9 = 3\n[actions]\n"
        status, body = post_json(server.port, "/api/command",
                                 {"kind": "new_game", "args": {"game": "gewalt", "options": {
                                     "players": 4}, "data": {"cards": {"name": "mybox.toml", "text": text}}}},
                                 {"X-Host-Token": runtime.table.host_token()})
        assert status == 409 and "mybox.toml" in body["error"] and "sections.9" in body["error"]
        status, state = get_json(server.port, "/api/state")
        assert state["game"] == "gewalt" and state["public"]["players"] == 4
