"""A link the host takes back ends everything opened with it: its live pages, their slots, its requests.

Through the real waitress server, for every installed game: a seat's old holder keeps two live pages
open while the host frees the seat, makes it a new link or gives it; the new holder opens its own two at
once, a new game deals it a new hand, and the old pages, read to their end, never carry any of it.
"""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager

import pytest
from polling import wait_for
from webfixtures import (
    SSEClient,
    get_json,
    host_of,
    install_secret_game,
    live_server,
    post_json,
    request,
    running_app,
)

from companion.core import registry
from companion.core.table import REISSUE_HOST

GAMES = registry.names()


def revoke_by_freeing(port: int, host: dict, code: str) -> str:
    assert post_json(port, "/api/seats/0/free", {}, host)[0] == 200
    status, answer = post_json(port, "/api/join", {"code": code, "seat": 0, "name": "Bea"})
    assert status == 200
    return answer["token"]


def revoke_by_a_new_link(port: int, host: dict, code: str) -> str:
    status, answer = post_json(port, "/api/seats/0/reissue", {}, host)
    assert status == 200
    return answer["token"]


def revoke_by_giving(port: int, host: dict, code: str) -> str:
    status, answer = post_json(port, "/api/seats/0/assign", {"name": "Bea"}, host)
    assert status == 200
    return answer["token"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("revoke", [revoke_by_freeing, revoke_by_a_new_link, revoke_by_giving])
def test_a_revoked_seat_link_ends_its_live_pages_and_never_sees_the_new_holders_secrets(tmp_path, game,
                                                                                     revoke):
    with running_app(tmp_path, game=game, keepalive=600) as (runtime, app), live_server(app) as server:
        port, host = server.port, host_of(runtime)
        code = runtime.table.roster.join_code()
        status, answer = post_json(port, "/api/join", {"code": code, "seat": 0, "name": "Ada"})
        assert status == 200
        old = answer["token"]
        old_pages = [SSEClient(port, f"/api/seat/{old}/events") for _ in range(2)]
        seen = max(int(page.next_event()["id"]) for page in old_pages)

        new = revoke(port, host, code)
        # The new holder's phone gets both of its live pages at once: the old ones hold no slot.
        new_pages = [SSEClient(port, f"/api/seat/{new}/events") for _ in range(2)]
        try:
            assert [page.status for page in new_pages] == [200, 200]
            # A new game deals the new holder a new hand (and bets, bids, cards) of its own.
            status, _ = post_json(port, "/api/command", {"kind": "new_game", "args": {"game": game}}, host)
            assert status == 200
            status, view = get_json(port, f"/api/seat/{new}")
            assert status == 200 and view["version"] > seen
            secret = compact(view["private"])

            for page in old_pages:
                told = read_to_the_end(page)
                assert all(int(msg["id"]) <= seen for msg in told if msg["id"] is not None), game
                if view["private"]:
                    assert not any(secret in compact(msg["data"]) for msg in told)
            assert request(port, "GET", f"/api/seat/{old}")[0] == 404
            assert request(port, "GET", f"/api/seat/{old}/events")[0] == 404
            status, _ = post_json(port, "/api/command", {"kind": "undo"}, {"X-Seat-Token": old})
            assert status == 403
            # The new holder's pages go on: after their snapshot, the new game reached them.
            new_pages[0].next_event()
            assert new_pages[0].next_event()["data"]["private"] == view["private"]
        finally:
            for page in [*old_pages, *new_pages]:
                page.close()


def compact(data) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def read_to_the_end(page: SSEClient) -> list[dict]:
    """Every message a live page still gets until the server ends it (a page that never ends times out)."""
    told = []
    while True:
        try:
            msg = page.next()
        except ConnectionError:
            return told
        if msg["data"] is not None:
            told.append(msg)


@pytest.mark.parametrize("game", GAMES)
def test_a_new_game_keeps_the_pages_whose_link_still_holds(tmp_path, game):
    with running_app(tmp_path, game=game, keepalive=600) as (runtime, app), live_server(app) as server:
        port, host = server.port, host_of(runtime)
        code = runtime.table.roster.join_code()
        token = post_json(port, "/api/join", {"code": code, "seat": 0, "name": "Ada"})[1]["token"]
        page = SSEClient(port, f"/api/seat/{token}/events")
        try:
            seen = int(page.next_event()["id"])
            new_game = {"kind": "new_game", "args": {"game": game}}
            assert post_json(port, "/api/command", new_game, host)[0] == 200
            msg = page.next_event()
            status, view = get_json(port, f"/api/seat/{token}")
            assert int(msg["id"]) > seen and msg["data"]["private"] == view["private"]
        finally:
            page.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_long_press_on_d_ends_every_request_of_the_old_host_link(tmp_path, game):
    with running_app(tmp_path, game=game, keepalive=600) as (runtime, app), live_server(app) as server:
        port, old = server.port, host_of(runtime)
        assert request(port, "GET", "/api/host", old)[0] == 200
        token = post_json(port, "/api/seats/0/assign", {"name": "Ada"}, old)[1]["token"]
        public, seat = SSEClient(port), SSEClient(port, f"/api/seat/{token}/events")
        try:
            public.next_event()
            seat.next_event()
            update = runtime.table.press(REISSUE_HOST).result(5)
            assert update.rejected is None
            # Every live page is told a long press came (the host page then asks what changed), and none
            # is told the new code or link.
            for page in (public, seat):
                told = page.next_event()
                assert told["event"] == "update"
                for secret in (runtime.table.roster.join_code(), runtime.table.roster.join_key(),
                               runtime.table.host_token()):
                    assert secret not in json.dumps(told["data"])
            for method, path, body in (("GET", "/api/host", None), ("GET", "/api/export", None),
                                       ("POST", "/api/command", {"kind": "undo"}),
                                       ("POST", "/api/command", {"kind": "new_game", "args": {"game": game}}),
                                       ("POST", "/api/seats/0/reissue", {}),
                                       ("POST", "/api/qr", {"text": "x"})):
                status, answer, headers = request(port, method, path, old, body)
                assert status == 403 and headers.get("X-Host-Token-Stale") == "1", path
                assert runtime.table.roster.join_code().encode() not in answer
            assert request(port, "GET", "/api/host", host_of(runtime))[0] == 200
            # The pages that hold no host link carry on: the scoreboards, and the seat's (its link holds).
            new_game = {"kind": "new_game", "args": {"game": game}}
            assert post_json(port, "/api/command", new_game, host_of(runtime))[0] == 200
            assert public.next_event()["event"] == "update"
            assert seat.next_event()["data"]["private"] == get_json(port, f"/api/seat/{token}")[1]["private"]
        finally:
            public.close()
            seat.close()


@contextmanager
def writer_held(table):
    """The table's writer held inside a seat change until the block ends; yields a function that waits
    until `n` more items are queued behind it (each request is checked, then waits for its turn)."""
    gate = threading.Event()
    queued = table._queue  # the writer's queue: what waits for its turn
    holding = threading.Thread(target=table.seating, args=(lambda roster, count: gate.wait(10),))
    holding.start()
    wait_for(lambda: queued.qsize() == 0)  # the writer has taken it: it is held inside
    try:
        yield lambda n: wait_for(lambda: queued.qsize() == n)
    finally:
        gate.set()
        holding.join(10)


def in_background(answers: list, *args) -> threading.Thread:
    """post_json(*args) on its own thread, its answer appended to `answers`."""
    thread = threading.Thread(target=lambda: answers.append(post_json(*args)))
    thread.start()
    return thread


def test_a_command_whose_link_is_taken_back_before_its_turn_is_refused(tmp_path, monkeypatch):
    install_secret_game(monkeypatch)
    with running_app(tmp_path, game="secret") as (runtime, app), live_server(app) as server:
        table = runtime.table
        old, answers = table.seat_token(0), []
        with writer_held(table) as queued:
            taking_back = threading.Thread(target=table.seating,
                                           args=(lambda roster, count: roster.reissue(0, count),))
            taking_back.start()
            queued(1)
            # The link is checked now (the seat's link still); the command waits behind the new link.
            sending = in_background(answers, server.port, "/api/command?lang=en",
                                    {"kind": "say", "args": {"word": "hi"}}, {"X-Seat-Token": old})
            queued(2)
        for thread in (taking_back, sending):
            thread.join(10)
        [(status, answer)] = answers
        assert status == 409 and "no longer valid" in answer["error"]
        assert table.latest.public["said"] == []


@pytest.mark.parametrize(("path", "body"), [("/api/command", {"kind": "roll"}), ("/api/seats/1/reissue", {}),
                                            ("/api/seats/1/assign", {"name": "Eve"})])
def test_a_host_request_whose_link_a_long_press_on_d_replaces_before_its_turn_is_refused(tmp_path, path,
                                                                                          body):
    with running_app(tmp_path) as (runtime, app), live_server(app) as server:
        table = runtime.table
        old, answers = host_of(runtime), []
        before = (table.version, table.roster.token(1), table.roster.name(1))
        with writer_held(table) as queued:
            pressed = table.press(REISSUE_HOST)
            # The link is checked now (the host's still); the request waits behind the long press.
            sending = in_background(answers, server.port, f"{path}?lang=en", body, old)
            queued(2)
        sending.join(10)
        assert pressed.result(5).rejected is None and host_of(runtime) != old
        [(status, answer)] = answers
        assert status == 409 and "host link is no longer valid" in answer["error"]
        assert (table.version, table.roster.token(1), table.roster.name(1)) == before


@pytest.mark.browser
def test_a_seat_page_whose_link_is_taken_back_says_so_and_forgets_it(browser, tmp_path, monkeypatch):
    from playwright.sync_api import expect

    install_secret_game(monkeypatch)
    with running_app(tmp_path, game="secret", keepalive=600) as (runtime, app), live_server(app) as srv:
        token = runtime.table.seating(lambda roster, count: roster.claim(0, "Ada", count))
        ctx = browser.new_context(locale="en-US")
        try:
            page = ctx.new_page()
            page.goto(f"{srv.url}seat/{token}")
            expect(page.locator("#live")).to_have_attribute("data-state", "live")
            assert page.evaluate("() => localStorage.getItem('companion.seat')") == token
            assert post_json(srv.port, "/api/seats/0/assign", {"name": "Bea"}, host_of(runtime))[0] == 200
            expect(page.locator("body")).to_have_attribute("data-seat-gone", "true")
            expect(page.locator("#seat-gone-why")).to_contain_text("The host gave your seat a new link")
            assert page.evaluate("() => localStorage.getItem('companion.seat')") is None
        finally:
            ctx.close()
