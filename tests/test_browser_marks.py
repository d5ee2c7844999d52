"""The outputs agree, on 390 px phones in Debian's chromium against a real waitress server: every page names
a seat with its mark (❶ to ❻, from the payload, as the glass draws it), Le rallye hasardeux's pawns are
those marks, and Crazy Race (Gewalt)'s lanes are the board's letters A to E, refusals included."""

from __future__ import annotations

import pytest
from test_browser import open_page
from webfixtures import host_of, live_server, post_json, read_json, running_app

from companion.gamekit.colours import SEAT_MARKS

pytestmark = pytest.mark.browser
NAMES = ("Max", "Marie-Christine", "Zoé")  # Max and Marie-Christine share an initial, never a mark


def seated(srv, runtime) -> None:
    for seat, name in enumerate(NAMES):
        status, _ = post_json(srv.port, f"/api/seats/{seat}/assign", {"name": name}, host_of(runtime))
        assert status == 200


def live(page) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#live")).to_have_attribute("data-state", "live")


def test_the_payload_carries_each_seats_mark_and_every_page_shows_it_with_the_name(browser, tmp_path):
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="rallye", options={"players": 3}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        seated(srv, runtime)
        seats = read_json(srv.port, "/api/seats")["seats"]
        assert [(s["mark"], s["name"]) for s in seats[:3]] == list(zip(SEAT_MARKS, NAMES, strict=False))
        pages = [open_page(browser, srv.url, locale="en-GB"),
                 open_page(browser, f"{srv.url}seat/{runtime.table.seat_token(1)}", locale="en-GB"),
                 open_page(browser, f"{srv.url}host?host={runtime.table.host_token()}", locale="en-GB")]
        try:
            board, seat, host = (page for _, page in pages)
            for page in (board, seat):
                live(page)
                for n, name in enumerate(NAMES):
                    chip = page.locator(f"#seats-bar [data-seat='{n}']")
                    expect(chip).to_have_text(f"{SEAT_MARKS[n]} {name}")
                    # the game's own players table names each seat the same way
                    expect(page.locator(f"#rallye-players tr[data-seat='{n}'] th")).to_contain_text(
                        f"{SEAT_MARKS[n]} {name}")
            expect(seat.locator("#seat-name")).to_have_text(f"{SEAT_MARKS[1]} Marie-Christine")
            for n in range(3):  # the host's seat list: mark, place and colour
                expect(host.locator(f"#seat-admin li[data-seat='{n}'] strong")).to_contain_text(SEAT_MARKS[n])
            for page in (board, seat, host):
                assert page.evaluate("document.documentElement.scrollWidth") <= 390
        finally:
            for ctx, _ in pages:
                ctx.close()


def test_rallye_pawns_on_the_phone_are_the_seats_marks_not_initials(browser, tmp_path):
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="rallye", options={"players": 3}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        seated(srv, runtime)
        ctx, page = open_page(browser, f"{srv.url}seat/{runtime.table.seat_token(0)}", locale="en-GB")
        try:
            live(page)
            pawns = page.locator("#rallye-circuit .pawn")
            expect(pawns).to_have_count(3)
            shown = {pawns.nth(i).inner_text(): pawns.nth(i).get_attribute("title") for i in range(3)}
            marks = zip(SEAT_MARKS, NAMES, strict=False)
            assert shown == {mark: f"{mark}\u00a0{name}" for mark, name in marks}  # title: mark and name
            assert "M" not in shown  # Max and Marie-Christine were both "M"
        finally:
            ctx.close()


@pytest.mark.parametrize(("locale", "lane", "refused"), [
    ("en-GB", "Lane",
     "A pawn stands on lane B, stage 1, section 1: choose a section with no card and no pawn."),
    ("fr-FR", "Voie",
     "Un pion se trouve sur la voie B, étape 1, section 1\u202f: choisissez une section sans carte ni pion."),
])
def test_gewalt_lanes_on_the_phone_are_the_boards_letters_and_a_refusal_says_them(browser, tmp_path, locale,
                                                                                   lane, refused):
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="gewalt", options={"players": 3}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        turn = read_json(srv.port, "/api/state")["public"]["turn"]
        ctx, page = open_page(browser, f"{srv.url}seat/{runtime.table.seat_token(turn)}", locale=locale)
        try:
            live(page)
            lanes = page.locator("#gewalt-lane button")
            expect(lanes).to_have_text(list("ABCDE"))
            expect(lanes.nth(3)).to_have_attribute("aria-label", f"{lane} D")
            # the scoreboard part names the lanes nobody races in by their letter too
            rows = page.locator("#gewalt-race th.lane")  # the header's corner, then lanes A to E
            expect(rows.nth(4)).to_have_text("D")
            expect(rows.nth(5)).to_have_text("E")
            expect(rows.nth(2)).to_contain_text(f"{SEAT_MARKS[1]} B ")
            # lane B's first section holds seat 1's pawn at the start: placing a card there is refused
            page.locator("#gewalt-section-hand button").first.click()
            lanes.nth(1).click()
            page.locator('#gewalt-stage button[data-value="0"]').click()
            page.locator('#gewalt-section button[data-value="0"]').click()
            page.locator("#gewalt-place").click()
            expect(page.locator("#message")).to_have_text(refused)
            for button in (lanes.nth(0), page.locator("#gewalt-place")):
                assert button.bounding_box()["height"] >= 44
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        finally:
            ctx.close()


def test_schacht_card_backs_and_revealed_totals_on_the_phone_carry_the_seats_mark(browser, tmp_path):
    """Four players, three of them "M": each face-down card and each revealed total names its seat by its
    mark, never by its colour alone."""
    import random

    import schacht_play
    from playwright.sync_api import expect

    names = ("Max", "Marie-Christine", "Mia", "Zoé")
    rng = random.Random(5)
    with (running_app(tmp_path, game="schacht", options={"players": 4}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        for seat, name in enumerate(names):
            status, _ = post_json(srv.port, f"/api/seats/{seat}/assign", {"name": name}, host_of(runtime))
            assert status == 200
        ctx, page = open_page(browser, f"{srv.url}seat/{runtime.table.seat_token(2)}", locale="en-GB")
        try:
            live(page)
            seen_bids = seen_totals = False
            for _step in range(400):
                public = read_json(srv.port, "/api/state")["public"]
                expect(page.locator("body")).to_have_attribute("data-version", str(runtime.table.version))
                for side in range(4):
                    backs = page.locator(f".schacht-side[data-side='{side}'] .backs .back")
                    revealed = next((r for r in public["revealed"] if r["side"] == side), None)
                    if revealed is not None and revealed["winner"] is not None:
                        shown = [s for s in range(4) if revealed["cards"][s]]
                        expect(backs).to_have_count(len(shown))
                        for i, seat in enumerate(shown):
                            expect(backs.nth(i)).to_have_text(
                                f"{SEAT_MARKS[seat]}\u00a0{'+'.join(map(str, revealed['cards'][seat]))}"
                                f" = {revealed['totals'][seat]}")
                        seen_totals = True
                    elif public["taboo"] != side:
                        expect(backs).to_have_text([SEAT_MARKS[seat] for seat in public["bids"][side]])
                        seen_bids |= bool(public["bids"][side])
                assert page.evaluate("document.documentElement.scrollWidth") <= 390
                if seen_bids and seen_totals:
                    break
                runtime.table.call(schacht_play.random_command(runtime.table.session.state, rng))
            else:
                pytest.fail("no side was revealed in 400 commands")
        finally:
            ctx.close()


def test_crash_junkyards_on_the_phone_carry_their_owners_mark(browser, tmp_path):
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="crash", keepalive=1.0) as (runtime, app), live_server(app) as srv):
        ctx, page = open_page(browser, f"{srv.url}seat/{runtime.table.seat_token(1)}", locale="en-GB")
        try:
            live(page)
            junkyards = read_json(srv.port, "/api/state")["public"]["junkyards"]
            assert [j["owner"] for j in junkyards] == [0, 1]
            for junkyard in junkyards:
                count = page.locator(f".crash-board .junkyard[data-owner='{junkyard['owner']}'] text.count")
                expect(count).to_have_text(f"{SEAT_MARKS[junkyard['owner']]}{junkyard['count']}")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        finally:
            ctx.close()
