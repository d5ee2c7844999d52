"""A seat the host takes back (freed, or given a new link) is told at once on its phone: the page drops the
seat's controls, says how in the reader's language and leads back to the join page; it stops reconnecting.
Freeing a seat and making it a new link take a second tap on the host page, as Start and End the game do.

Chromium against the real waitress server.
"""

from __future__ import annotations

import pytest
from webfixtures import get_json, host_of, live_server, phone_page, post_json, request, running_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PHONE = {"width": 390, "height": 844}



@pytest.mark.parametrize(("action", "locale", "told", "why"), [
    ("free", "en-US", "The host freed your seat.", "freed"),
    ("new-link", "en-US", "The host gave your seat a new link: ask them for it.", "relinked"),
    ("free", "fr-FR", "L’hôte a libéré votre place.", "freed"),
    ("new-link", "fr-FR", "L’hôte a donné un nouveau lien à votre place\u202f: demandez-le-lui.", "relinked"),
])
def test_a_seat_the_host_takes_back_is_told_at_once_and_led_to_the_join_page(browser, tmp_path, action,
                                                                           locale, told, why):
    from playwright.sync_api import expect

    with running_app(tmp_path, keepalive=600) as (runtime, app), live_server(app) as srv:
        table = runtime.table
        token = table.seating(lambda roster, count: roster.claim(0, "Ada", count))
        seat_ctx, seat = phone_page(browser, f"{srv.url}seat/{token}", locale)
        host_ctx, host = phone_page(browser, f"{srv.url}host?host={table.host_token()}", locale)
        try:
            expect(seat.locator("#live")).to_have_attribute("data-state", "live")
            expect(seat.locator("#seat-game")).to_be_visible()
            button = host.locator(f"#seat-admin li[data-seat='0'] button[data-action='{action}']")
            button.click()
            # The first tap only asks again: the seat is still Ada's, on her phone too.
            expect(button).to_have_class("secondary armed")
            assert host.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
            assert table.roster.token(0) == token
            expect(seat.locator("#seat-gone")).to_be_hidden()
            button.click()

            expect(seat.locator("#seat-gone")).to_be_visible()
            expect(seat.locator("#seat-gone-why")).to_contain_text(told)
            expect(seat.locator("body")).to_have_attribute("data-gone-why", why)
            for part in ("#seat-game", "#seats-bar", "#your-turn"):
                expect(seat.locator(part)).to_be_hidden()
            assert "Ada" not in seat.locator("#seat-name").inner_text()
            # Not "reconnecting" to a link that opens nothing: the page has stopped trying.
            expect(seat.locator("#live")).to_have_attribute("data-state", "gone")
            expect(seat.locator("#live")).to_have_text("")
            back = seat.locator("#seat-gone a")
            assert back.get_attribute("href").endswith("/join")
            assert back.bounding_box()["height"] >= 44
            assert seat.evaluate("() => localStorage.getItem('companion.seat')") is None
        finally:
            seat_ctx.close()
            host_ctx.close()


def test_a_page_asleep_while_its_seat_was_taken_back_learns_how_when_it_asks(tmp_path):
    with running_app(tmp_path) as (runtime, app), live_server(app) as srv:
        code = runtime.table.roster.join_code()
        tokens = [post_json(srv.port, "/api/join", {"code": code, "seat": seat, "name": name})[1]["token"]
                  for seat, name in ((0, "Ada"), (1, "Bob"))]
        assert post_json(srv.port, "/api/seats/0/free", {}, host_of(runtime))[0] == 200
        assert post_json(srv.port, "/api/seats/1/reissue", {}, host_of(runtime))[0] == 200
        for token, why in zip(tokens, ("freed", "relinked"), strict=True):
            status, answer = get_json(srv.port, f"/api/seat/{token}?lang=en")
            assert status == 404 and answer["gone"] == why
        status, answer = get_json(srv.port, "/api/seat/never-a-link?lang=en")
        assert status == 404 and answer["gone"] is None and "No seat has this link" in answer["error"]


def test_a_seat_page_reopened_after_its_seat_was_freed_says_how(tmp_path):
    with running_app(tmp_path) as (runtime, app), live_server(app) as srv:
        code = runtime.table.roster.join_code()
        token = post_json(srv.port, "/api/join", {"code": code, "seat": 0, "name": "Ada"})[1]["token"]
        assert post_json(srv.port, "/api/seats/0/free", {}, host_of(runtime))[0] == 200
        status, body, _ = request(srv.port, "GET", f"/seat/{token}?lang=en")
        assert status == 404 and "The host freed your seat." in body.decode()
