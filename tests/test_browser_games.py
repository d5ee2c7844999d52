"""Both Crazy Races played from the seat pages in Debian's chromium, against a real waitress server."""

from __future__ import annotations

import json
import random

import pytest
from test_browser import open_page
from webfixtures import live_server, read_json, running_app, shoot, shown_after

pytestmark = pytest.mark.browser


def seat_pages(browser, srv, runtime, players: int) -> list:
    """Each seat's own page, opened from its link, live on its stream."""
    from playwright.sync_api import expect

    pages = []
    for seat in range(players):
        ctx, page = open_page(browser, f"{srv.url}seat/{runtime.table.seat_token(seat)}", locale="en-GB")
        expect(page.locator("#live")).to_have_attribute("data-state", "live")
        pages.append((ctx, page))
    return pages


def click_and_wait(page, locator, srv) -> dict:
    """Click, then wait until the table moved on and this page shows the new version."""
    before = read_json(srv.port, "/api/state")["version"]
    locator.click()
    return shown_after(page, srv.port, before)


def schacht_step(page, view: dict, rng: random.Random, srv) -> dict:
    """The seat to act does what its page offers: a card beside a side or a pass, the loco choice or
    the split, the take-back, or the next stage card."""
    phase = view["phase"]
    if phase == "bid":
        sides = page.locator("#schacht-sides button:enabled")
        if sides.count() and rng.random() < 0.8:
            hand = page.locator("#schacht-hand button")
            hand.nth(rng.randrange(hand.count())).click()
            return click_and_wait(page, sides.nth(rng.randrange(sides.count())), srv)
        return click_and_wait(page, page.locator("#schacht-pass"), srv)
    if phase == "decide":
        if page.locator("#schacht-move").is_visible():  # a "?" side: share the spaces with +
            while page.locator("#schacht-move").is_disabled():
                plus = page.locator("#schacht-locos button:enabled", has_text="+")
                plus.nth(rng.randrange(plus.count())).click()
            return click_and_wait(page, page.locator("#schacht-move"), srv)
        locos = page.locator("#schacht-locos button")
        return click_and_wait(page, locos.nth(rng.randrange(locos.count())), srv)
    if phase == "takeback":
        choices = page.locator("#schacht-takeback-cards button")
        return click_and_wait(page, choices.nth(rng.randrange(choices.count())), srv)
    return click_and_wait(page, page.locator("#schacht-next"), srv)


def test_two_stages_of_schacht_from_three_seat_pages(browser, tmp_path):
    from playwright.sync_api import expect

    rng = random.Random(5)
    with (running_app(tmp_path, game="schacht", options={"players": 3}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        pages = seat_pages(browser, srv, runtime, 3)
        public_ctx, public = open_page(browser, srv.url, locale="en-GB")
        state = read_json(srv.port, "/api/state")
        shot = False
        for _ in range(120):
            view = state["public"]
            if view["stage"] == 3:
                break
            seat = view["turn"] if view["turn"] is not None else rng.randrange(3)
            state = schacht_step(pages[seat][1], view, rng, srv)
            if not shot and state["public"]["phase"] == "bid" and state["public"]["round"] == 2:
                bidder = pages[state["public"]["turn"]][1]
                shoot(bidder, "schacht-seat", tmp_path)
                shot = True
            # Each page shows its own cards beside the sides, and only those.
            for own, (_, page) in enumerate(pages):
                mine = read_json(srv.port, f"/api/seat/{runtime.table.seat_token(own)}")["private"]
                expect(page.locator("body")).to_have_attribute("data-version", str(state["version"]))
                for side, cards in enumerate(mine["sides"]):
                    text = page.locator("#schacht-sides button").nth(side).inner_text()
                    assert ("yours here" in text) == bool(cards), (own, side, text)
                    if cards:
                        assert text.endswith(f"yours here: {'+'.join(map(str, cards))})"), (own, text)
        else:
            pytest.fail("two stages were not played in 120 clicks")
        assert shot and state["public"]["stage"] == 3
        expect(public.locator("body")).to_have_attribute("data-version", str(state["version"]))
        expect(public.locator("#schacht-status")).to_contain_text("Stage 3/8")
        shoot(public, "schacht-scoreboard", tmp_path)
        for ctx, _ in pages:
            ctx.close()
        public_ctx.close()


def test_gewalt_turns_from_the_seat_pages_place_a_card_and_roll(browser, tmp_path):
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="gewalt", options={"players": 3, "expert": True}, keepalive=1.0)
          as (runtime, app), live_server(app) as srv):
        pages = seat_pages(browser, srv, runtime, 3)
        for seat, (_, page) in enumerate(pages):
            mine = read_json(srv.port, f"/api/seat/{runtime.table.seat_token(seat)}")["private"]
            expect(page.locator("#gewalt-bet")).to_have_text(" · ".join(map(str, mine["bet"])))
        for turn in range(3):
            state = read_json(srv.port, "/api/state")
            view = state["public"]
            seat = view["turn"]
            page = pages[seat][1]
            before = json.dumps(view["pawns"])
            # A card on the last section of the last stage of this turn's own lane: nobody is there yet.
            hand = page.locator("#gewalt-section-hand button")
            hand.nth(turn % hand.count()).click()
            length = int(hand.nth(turn % hand.count()).inner_text())
            page.locator(f'#gewalt-lane button[data-value="{seat}"]').click()
            page.locator('#gewalt-stage button[data-value="2"]').click()
            page.locator(f'#gewalt-section button[data-value="{4 - turn}"]').click()
            state = click_and_wait(page, page.locator("#gewalt-place"), srv)
            placed = {"lane": seat, "stage": 2, "section": 4 - turn, "length": length}
            assert placed in state["public"]["cards"]
            expect(page.locator("#gewalt-place")).to_be_disabled()  # one section card a turn
            if turn == 0:
                shoot(page, "gewalt-seat", tmp_path)
            state = click_and_wait(page, page.locator("#gewalt-roll-button"), srv)
            assert json.dumps(state["public"]["pawns"]) != before
            assert state["public"]["turn"] != seat or state["public"].get("extra")
        for ctx, _ in pages:
            ctx.close()
