"""A whole table on one computer, set up as the README says: `companion demo`, the host link on 127.0.0.1
and six phones on 127.0.0.2 to 127.0.0.7, each its own browser, play a Crazy Race (Gewalt) to the end."""

from __future__ import annotations

import random

import pytest
from gewalt_play import choose
from polling import wait_for

from companion.benchmark.process import Daemon

pytestmark = [pytest.mark.slow, pytest.mark.browser]
PHONE = {"width": 390, "height": 844}
NAMES = ["Anna", "Bruno", "Chloé", "Driss", "Eva", "Farid"]  # the sixth sits out a five-player race
PLAYERS = 5
# Counts every time a page's Live badge leaves "live": a page that never lost its stream keeps 0.
WATCH_LIVE = """() => {
  window.lostLive = 0;
  const badge = document.getElementById("live");
  new MutationObserver(() => { if (badge.dataset.state !== "live") window.lostLive += 1; })
    .observe(badge, { attributes: true, attributeFilter: ["data-state"] });
}"""
# What a phone knows before its move, asked from its own page with its own seat link.
LOOK = """async (token) => {
  const get = async (url) => (await fetch(url, { headers: { Accept: "application/json" } })).json();
  return [await get("/api/state"), await get(`/api/seat/${encodeURIComponent(token)}`)];
}"""


def phone(browser):
    """A browser of its own (its own storage and connections), sized like a phone."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    return ctx, ctx.new_page()


def synced(page, version: int) -> None:
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-version", str(version), timeout=20_000)


def test_six_phones_on_their_own_loopback_addresses_play_a_gewalt_race_to_the_end(browser, tmp_path):
    from playwright.sync_api import expect

    daemon = Daemon(tmp_path / "state")  # `companion demo --state-dir …`, its port from $COMPANION_PORT
    contexts = []
    try:
        daemon.wait_serving()
        address = f"http://127.0.0.{{}}:{daemon.port}".format

        # The host link, opened at 127.0.0.1 as the simulator prints it; the host page shows the join code.
        ctx, host = phone(browser)
        contexts.append(ctx)
        host.goto(f"{address(1)}/?host={daemon.host_token()}")
        host.goto(f"{address(1)}/host")
        expect(host.locator("#host-controls")).to_be_visible()
        code = wait_for(lambda: (text := host.locator("#join-code").inner_text()) != "····" and text)

        # One phone per address, each joining as a player would: the join page, the code, a name, a seat.
        seats = []
        for seat, name in enumerate(NAMES):
            ctx, page = phone(browser)
            contexts.append(ctx)
            page.goto(f"{address(seat + 2)}/join")
            page.locator("#code").fill(code)
            page.locator("#name").fill(name)
            page.locator(f'.seat-choice[data-seat="{seat}"]').click()
            page.locator("#take-seat").click()
            page.wait_for_url("**/seat/**")
            expect(page.locator("#live")).to_have_attribute("data-state", "live")
            seats.append(page)

        # The host starts the race for five from the host page: every seat page turns to it by itself.
        host.select_option("#game-choice", "gewalt")
        host.locator("#opt-players").fill(str(PLAYERS))
        host.locator("#start-game").click()
        host.locator("#start-game").click()  # two taps: the running game ends
        for page in seats:
            expect(page.locator("#seat-game")).to_have_attribute("data-game", "gewalt", timeout=20_000)
            expect(page.locator("#live")).to_have_attribute("data-state", "live")
            page.evaluate(WATCH_LIVE)
        tokens = [page.evaluate("() => Companion.seatToken()") for page in seats]
        expect(seats[PLAYERS].locator("#not-playing")).to_be_visible()

        # Each move is sent by the phone of the seat the race waits on, from its open seat page.
        rng = random.Random(7)
        actor = 0
        for _ in range(3000):
            state, mine = seats[actor].evaluate(LOOK, tokens[actor])
            if state["public"]["over"]:
                break
            if state["public"]["actor"] != actor:  # the turn is another seat's: its phone plays next
                actor = state["public"]["actor"]
                continue
            kind, args = choose(state["public"], mine["private"], mine["legal"], rng)
            seats[actor].evaluate("([kind, args]) => Companion.command(kind, args)", [kind, args])
        else:
            pytest.fail("the race did not end")

        # Every phone saw the end on the page it held all along, without losing its live stream.
        version = state["version"]
        for seat, page in enumerate(seats):
            synced(page, version)
            expect(page.locator("#game-end")).to_be_visible()
            expect(page.locator("#my-place")).not_to_be_empty()
            expect(page.locator("#live")).to_have_attribute("data-state", "live")
            assert page.evaluate("() => window.lostLive") == 0, f"{NAMES[seat]}'s page lost its stream"
        synced(host, version)
    finally:
        for ctx in contexts:
            ctx.close()
        daemon.stop()
