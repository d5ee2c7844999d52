"""Seats live everywhere: a join, a give, a name change and a free reach every open page at once, in
chromium against a real waitress server (host, scoreboard, a seat's bar, the join page's list)."""

from __future__ import annotations

import duel
import pytest
from webfixtures import get_json, host_of, live_server, phone_page, plug_game, post_json, running_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]



def test_the_join_page_names_each_seat_by_its_place_and_colour_in_words(browser, tmp_path):
    """No raw key ("colour_blue") on the first screen every player sees; Crash! names North and South."""
    from playwright.sync_api import expect

    with running_app(tmp_path, game="crash", keepalive=1.0) as (_, app), live_server(app) as srv:
        for lang, first, second in (("fr", "Nord · Bleu", "Sud · Rouge"),
                                    ("en", "North · Blue", "South · Red")):
            ctx, page = phone_page(browser, f"{srv.url}join?lang={lang}", "fr-FR")
            try:
                expect(page.locator(".seat-choice[data-seat='0']")).to_contain_text(first)
                expect(page.locator(".seat-choice[data-seat='1']")).to_contain_text(second)
                assert "colour_" not in page.locator("#seat-picker").inner_text()
            finally:
                ctx.close()


def test_a_join_a_give_a_rename_and_a_free_reach_every_open_page(browser, tmp_path):
    from playwright.sync_api import expect

    with running_app(tmp_path, game="crash", keepalive=1.0) as (runtime, app), live_server(app) as srv:
        table = runtime.table
        code = table.roster.join_code()
        status, anna = post_json(srv.port, "/api/join", {"code": code, "seat": 0, "name": "Anna"})
        assert status == 200
        pages = []
        try:
            for url in (f"host?host={table.host_token()}", "", f"seat/{anna['token']}", "join"):
                pages.append(phone_page(browser, f"{srv.url}{url}", "fr-FR"))
            host, board, seat, join = (page for _, page in pages)
            expect(host.locator("#seat-admin li[data-seat='0']")).to_have_attribute("data-taken", "true")
            for page in (board, seat, host, join):
                expect(page.locator("#live")).to_have_attribute("data-state", "live")

            def everywhere(name: str, taken: bool) -> None:
                """Seat 1 (South) reads its mark and `name` on every open page, without a reload."""
                shown = f"\u2777 {name or 'Rouge'}"
                expect(board.locator("#seats-bar [data-seat='1']")).to_have_text(shown)
                expect(seat.locator("#seats-bar [data-seat='1']")).to_have_text(shown)
                expect(host.locator("#seat-admin li[data-seat='1']")).to_have_attribute(
                    "data-taken", str(taken).lower())
                expect(join.locator(".seat-choice[data-seat='1']")).to_have_attribute(
                    "data-taken", str(taken).lower())
                if name:
                    expect(join.locator(".seat-choice[data-seat='1']")).to_contain_text(name)
                # the host's count, in French's own plural form
                count = "2 places prises" if taken else "1 place prise"
                expect(host.locator("#seats-taken")).to_have_text(count)

            status, _ = post_json(srv.port, "/api/join", {"code": code, "seat": 1, "name": "Bob"})
            assert status == 200
            everywhere("Bob", True)
            # the join page moved its choice off the seat just taken: no second phone picks it
            expect(join.locator(".seat-choice[data-seat='1']")).to_be_disabled()
            free = host.locator("#seat-admin li[data-seat='1'] button[data-action='free']")
            free.click()  # the first tap asks again
            free.click()
            everywhere("", False)
            status, _ = post_json(srv.port, "/api/seats/1/assign", {"name": "Chloé"}, host_of(runtime))
            assert status == 200
            everywhere("Chloé", True)
            status, _ = post_json(srv.port, "/api/seats/1/assign", {"name": "Chloé B."}, host_of(runtime))
            assert status == 200
            everywhere("Chloé B.", True)
        finally:
            for ctx, _ in pages:
                ctx.close()


@pytest.mark.parametrize("game, can", [("dice", True), ("crash", False)])
def test_the_host_page_tells_before_the_tap_whether_undo_can_take_the_last_move_back(browser, tmp_path,
                                                                                     game, can):
    """A roll of Crash! shows the table its dice, so it cannot be undone: Undo says so before it is
    tapped, by the rule that refuses it; free dice's roll can be, and Undo takes it back."""
    from playwright.sync_api import expect

    with running_app(tmp_path, game=game, keepalive=1.0) as (runtime, app), live_server(app) as srv:
        table = runtime.table
        ctx, host = phone_page(browser, f"{srv.url}host?host={table.host_token()}", "fr-FR")
        try:
            expect(host.locator("#undo")).to_be_disabled()  # a new game: nothing to undo
            expect(host.locator("#undo-what")).to_have_text("Rien à annuler.")
            status, answer = post_json(srv.port, "/api/command", {"kind": "roll"}, host_of(runtime))
            assert status == 200, answer
            host.wait_for_function(f"() => document.body.dataset.version === '{answer['version']}'")
            if can:
                expect(host.locator("#undo")).to_be_enabled()
                expect(host.locator("#undo-what")).to_be_hidden()
                host.locator("#undo").click()
                host.locator("#undo").click()
                host.wait_for_function(f"() => document.body.dataset.version === '{answer['version'] + 1}'")
            else:
                expect(host.locator("#undo")).to_be_disabled()
                expect(host.locator("#undo-what")).to_contain_text("ne peut pas être annulé")
                status, refused = post_json(srv.port, "/api/command", {"kind": "undo"}, host_of(runtime))
                assert status == 409  # the same rule refuses it
        finally:
            ctx.close()


def test_at_the_end_each_seat_reads_its_own_place_and_that_the_host_starts_the_next_game(browser, tmp_path,
                                                                                         monkeypatch):
    """The shared seat page's end: from the game's Result, the winner reads that they won, the other who
    won and its own score, and both that the host starts the next game with their seats."""
    from playwright.sync_api import expect

    plug_game(monkeypatch, duel.SPEC)
    with running_app(tmp_path, game="duel", options={"rounds": 1}, keepalive=1.0) as (runtime, app), \
            live_server(app) as srv:
        code = runtime.table.roster.join_code()
        tokens = [post_json(srv.port, "/api/join", {"code": code, "seat": seat, "name": name})[1]["token"]
                  for seat, name in ((0, "Anna"), (1, "Bob"))]
        pages = [phone_page(browser, f"{srv.url}seat/{token}", "fr-FR") for token in tokens]
        try:
            for (_, page) in pages:
                expect(page.locator("#live")).to_have_attribute("data-state", "live")
                expect(page.locator("#game-end")).to_be_hidden()
            for token, hand, stake in ((tokens[0], "rock", 3), (tokens[1], "scissors", 1)):
                status, answer = post_json(srv.port, "/api/command", {"kind": "choose", "args": {
                    "hand": hand, "stake": stake}}, {"X-Seat-Token": token})
                assert status == 200, answer
            status, answer = post_json(srv.port, "/api/command", {"kind": "reveal"},
                                       {"X-Seat-Token": tokens[0]})
            assert status == 200, answer
            anna, bob = (page for _, page in pages)
            expect(anna.locator("#my-place")).to_have_text("Vous avez gagné\u202f! Votre score\u202f: 3")
            expect(bob.locator("#my-place")).to_have_text(
                "La partie revient à \u2776 Anna. Votre score\u202f: 0")
            for page in (anna, bob):
                expect(page.locator("#next-game")).to_contain_text("L’hôte lance la prochaine partie")
        finally:
            for ctx, _ in pages:
                ctx.close()


def test_a_game_the_host_ends_is_announced_to_every_phone_and_kept_as_abandoned(browser, tmp_path):
    """The host ends a Rallye mid-game: the seat's page and the scoreboard say which game ended, and the
    game's record is kept, abandoned, the same log as the host's export shows (no 409 for good)."""
    from playwright.sync_api import expect

    with running_app(tmp_path, keepalive=1.0) as (runtime, app), live_server(app) as srv:
        status, answer = post_json(srv.port, "/api/command", {"kind": "new_game", "args": {
            "game": "rallye", "options": {"players": 2}}}, host_of(runtime))
        assert status == 200, answer
        code = runtime.table.roster.join_code()
        anna = post_json(srv.port, "/api/join", {"code": code, "seat": 0, "name": "Anna"})[1]["token"]
        status, _ = post_json(srv.port, "/api/join", {"code": code, "seat": 1, "name": "Bob"})
        assert status == 200
        pages = [phone_page(browser, f"{srv.url}seat/{anna}", "fr-FR"), phone_page(browser, srv.url, "fr-FR")]
        try:
            for _, page in pages:
                expect(page.locator("#live")).to_have_attribute("data-state", "live")
                expect(page.locator("#game-ended")).to_be_hidden()
            status, answer = post_json(srv.port, "/api/command", {"kind": "end_game"}, host_of(runtime))
            assert status == 200, answer
            for _, page in pages:
                expect(page.locator("#game-ended")).to_contain_text("L’hôte a arrêté Le rallye hasardeux")
        finally:
            for ctx, _ in pages:
                ctx.close()
        status, record = get_json(srv.port, "/api/record")
        assert status == 200, record
        assert record["game"] == "rallye" and record["abandoned"] is True
        assert record["result"]["winners"] == []
        assert [p["name"] for p in record["players"]] == ["Anna", "Bob"]
        status, export = get_json(srv.port, "/api/export", host_of(runtime))
        assert status == 200 and export["complete"] is True
        assert [r["version"] for r in export["records"]] == [r["version"] for r in record["records"]]
