"""The host's form and seats say what the table holds: the running game's options after a reload, the first
player offered by seat name counted from 1 (stored as before, 0 the first seat), seats out of the game
said so, and a full table said full. Chromium and HTTP against the real waitress server."""

from __future__ import annotations

import pytest
from polling import wait_for
from webfixtures import host_of, live_server, phone_page, post_json, running_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]



def test_after_a_reload_the_host_form_shows_the_running_games_options(browser, tmp_path):
    from playwright.sync_api import expect

    with running_app(tmp_path, game="gewalt", options={"expert": True, "players": 4}) as (runtime, app), \
            live_server(app) as srv:
        ctx, host = phone_page(browser, f"{srv.url}host?host={runtime.table.host_token()}")
        try:
            expect(host.locator("#opt-expert")).to_be_checked()
            expect(host.locator("#opt-players")).to_have_value("4")
            host.reload()
            expect(host.locator("#opt-expert")).to_be_checked()
        finally:
            ctx.close()


@pytest.mark.parametrize(("game", "locale", "labels"), [
    ("crash", "en-US", ["\u2776\u00a0North · Blue", "\u2777\u00a0South · Red"]),
    ("crash", "fr-FR", ["\u2776\u00a0Nord · Bleu", "\u2777\u00a0Sud · Rouge"]),
    ("rallye", "en-US", [f"{mark}\u00a0Seat\u00a0{n}" for n, mark in enumerate("❶❷❸❹❺❻", 1)]),
])
def test_the_first_player_is_offered_by_seat_counted_from_one_and_kept_as_before(browser, tmp_path, game,
                                                                                locale, labels):
    from playwright.sync_api import expect

    with running_app(tmp_path, game=game) as (runtime, app), live_server(app) as srv:
        table = runtime.table
        ctx, host = phone_page(browser, f"{srv.url}host?host={table.host_token()}", locale)
        try:
            first = host.locator("#opt-first")
            expect(first.locator("option")).to_have_count(len(labels))
            shown = first.locator("option").all_inner_texts()
            assert all(text.startswith(label) for text, label in zip(shown, labels, strict=True)), shown
            assert "0" not in host.locator("label[for='opt-first']").inner_text()
            first.select_option(index=1)
            start = host.locator("#start-game")
            start.click()
            start.click()
            # Stored as every record so far: 0 the first seat, so old games still load and replay.
            wait_for(lambda: table.moment.options.get("first") == 1)
        finally:
            ctx.close()


def test_a_first_player_outside_the_game_is_refused_counting_seats_from_one(tmp_path):
    with running_app(tmp_path, game="rallye") as (runtime, app), live_server(app) as srv:
        for lang, told in (("en", "choose one of seats 1 to 4."),
                           ("fr", "choisissez l’une des places 1 à 4.")):
            status, answer = post_json(srv.port, f"/api/command?lang={lang}",
                                       {"kind": "new_game", "args": {"game": "rallye",
                                                                     "options": {"players": 4, "first": 5}}},
                                       host_of(runtime))
            assert status == 409 and told in answer["error"], answer


def test_the_host_sees_which_seats_the_running_game_leaves_out(browser, tmp_path):
    from playwright.sync_api import expect

    with running_app(tmp_path, game="crash") as (runtime, app), live_server(app) as srv:
        ctx, host = phone_page(browser, f"{srv.url}host?host={runtime.table.host_token()}")
        try:
            expect(host.locator("#seat-admin li[data-seat='0']")).to_have_attribute("data-in-game", "true")
            expect(host.locator("#seat-admin li[data-seat='0']")).not_to_contain_text("not in this game")
            for seat in range(2, 6):
                row = host.locator(f"#seat-admin li[data-seat='{seat}']")
                expect(row).to_have_attribute("data-in-game", "false")
                expect(row.locator("strong")).to_contain_text("(not in this game)")
        finally:
            ctx.close()


def test_a_phone_joining_a_full_table_is_told_the_table_is_full(browser, tmp_path):
    from playwright.sync_api import expect

    with running_app(tmp_path) as (runtime, app), live_server(app) as srv:
        code = runtime.table.roster.join_code()
        for seat, name in enumerate(("Ada", "Bob", "Cy", "Dee", "Eve", "Flo")):
            assert post_json(srv.port, "/api/join", {"code": code, "seat": seat, "name": name})[0] == 200
        ctx, phone = phone_page(browser, f"{srv.url}join", "fr-FR")
        try:
            expect(phone.locator(".seat-choice")).to_have_count(6)
            phone.fill("#code", code)
            phone.fill("#name", "Gus")
            phone.locator("#take-seat").click()
            full = "La table est complète\u202f: toutes les places"
            expect(phone.locator("#message")).to_contain_text(full)
            expect(phone.locator("#message")).not_to_contain_text("est prise")
        finally:
            ctx.close()
