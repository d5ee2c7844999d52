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


def test_undo_never_shows_the_card_a_placed_card_drew(tmp_path):
    """Place a section card and see the one drawn to replace it: Undo is refused, saying why in the table's
    languages, and the drawn card stays in the hand, so nobody places again knowing the next card."""
    with running_app(tmp_path, game="gewalt", options={"players": 3}) as (runtime, app), \
            live_server(app) as server:
        port, token = server.port, runtime.table.seat_token(0)
        host = {"X-Host-Token": runtime.table.host_token()}
        status, before = get_json(port, f"/api/seat/{token}")
        hand = before["private"]["sections"]
        slots = [{"lane": lane, "stage": stage, "section": section}
                 for stage in range(3) for lane in range(3) for section in range(5)]
        for slot in slots:  # the first free section of the board takes the card
            status, answer = post_json(port, "/api/command", {"kind": "play_section",
                                                              "args": {"length": hand[0], "slot": slot}},
                                       {"X-Seat-Token": token})
            if status == 200:
                break
        assert status == 200, answer
        status, placed = get_json(port, f"/api/seat/{token}")
        drawn = sorted(placed["private"]["sections"])
        assert len(drawn) == len(hand)  # a card came to replace the one placed
        for language, said in (("en", "a card was drawn"), ("fr", "une carte a été piochée")):
            status, refusal = post_json(port, "/api/command", {"kind": "undo"},
                                        {**host, "Accept-Language": language})
            assert status == 409 and said in refusal["error"], refusal
            assert refusal["version"] == placed["version"]
        status, after = get_json(port, f"/api/seat/{token}")
        assert sorted(after["private"]["sections"]) == drawn and after["version"] == placed["version"]
