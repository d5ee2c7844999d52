"""Le rallye hasardeux from the phones in Debian's chromium: passages named, a surprise card out of turn, the
answer window with its countdown; no page scrolls sideways at 390 px and every control is 44 px high."""

from __future__ import annotations

import random

import pytest
from polling import wait_for
from rallye_play import record
from test_browser import open_page
from test_browser_games import seat_pages
from webfixtures import live_server, read_json, running_app, shoot, shown_after

from companion.games.rallye import rules
from companion.games.rallye.state import CANCELS
from companion.storage.store import Store

pytestmark = pytest.mark.browser
LAID = ("tacks", "oil_roll", "oil_5")

LAYOUT = """() => {
  const doc = document.documentElement;
  const controls = [...document.querySelectorAll(".rallye button, .rallye select, .rallye summary, "
                                                 + ".rallye-seat button, .rallye-seat select")];
  const small = controls.filter((e) => {
    const box = e.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && box.height < 44;
  }).map((e) => `${e.outerHTML.slice(0, 80)} ${e.getBoundingClientRect().height}px`);
  return { wide: doc.scrollWidth > doc.clientWidth, small };
}"""


class Nowhere:
    """A store that keeps nothing: to look for a seed before recording it."""

    def append(self, *record) -> None:
        pass


def check_layout(page, where: str) -> None:
    found = page.evaluate(LAYOUT)
    assert not found["wide"], f"{where}: the page scrolls sideways at 390 px"
    assert not found["small"], f"{where}: controls under 44 px: {found['small']}"


def prepared(tmp_path, options: dict, until, limit: int = 200) -> rules.State:
    """The store holds a rally up to the first state `until` accepts, for the first seed that has one."""
    for seed in range(1, 200):
        try:
            record(Nowhere(), options, seed, until, limit)
        except AssertionError:
            continue
        store = Store(tmp_path / "s.db")
        try:
            return record(store, options, seed, until, limit)
        finally:
            store.close()
    raise AssertionError("no seed reaches the state wanted")


def step(pages, srv, rng: random.Random) -> dict:
    """Whoever must act does what their page offers: answer, choose, discard or roll."""
    view = read_json(srv.port, "/api/state")
    public = view["public"]
    page = pages[public["actor"]][1]
    for section in ("#rallye-ask", "#rallye-choose", "#rallye-trim"):
        if page.locator(section).is_visible():
            buttons = page.locator(f"{section} button")
            buttons.nth(rng.randrange(buttons.count())).click()
            return shown_after(page, srv.port, view["version"])
    page.locator("#rallye-roll").click()
    return shown_after(page, srv.port, view["version"])


def test_passages_named_and_a_surprise_card_played_out_of_turn_from_the_seat_pages(browser, tmp_path):
    from playwright.sync_api import expect

    options = {"players": 3, "route_cards": 12, "laps": 1, "answer_seconds": 120, "discard_seconds": 600}
    start = prepared(tmp_path, options, lambda state: any(c in LAID for c in state.hands[1] + state.hands[2]),
                     limit=1)  # the new game itself: the passages are named from the pages
    rng = random.Random(3)
    with (running_app(tmp_path, game="rallye", keepalive=1.0) as (runtime, app), live_server(app) as srv):
        pages = seat_pages(browser, srv, runtime, 3)
        public_ctx, public = open_page(browser, srv.url, locale="en-GB")
        # the two passages: the placer's page names a route card; the device rolls for the passage
        for placer, card in ((0, 5), (1, 9)):
            page = pages[placer][1]
            expect(page.locator("#rallye-place")).to_be_visible()
            expect(pages[1 - placer][1].locator("#rallye-place")).to_be_hidden()
            check_layout(page, "placing")
            page.select_option("#rallye-place-card", str(card))
            before = read_json(srv.port, "/api/state")["version"]
            page.locator("#rallye-place-button").click()
            state = shown_after(page, srv.port, before)
            assert state["public"]["circuit"][card]["kind"] in ("entrance", "exit")
        assert state["public"]["phase"] == "race" and state["public"]["actor"] == 0
        # out of turn: seat 1 or 2 lays tacks or oil while seat 0 is to roll
        seat = next(s for s in (1, 2) if any(c in LAID for c in start.hands[s]))
        card = next(c for c in start.hands[seat] if c in LAID)
        page = pages[seat][1]
        check_layout(page, "a seat page, out of turn")
        expect(page.locator("#rallye-roll")).to_be_hidden()
        page.locator(f'li[data-card="{card}"] select').first.select_option("7")
        before = state["version"]
        page.locator(f'button[data-play="{card}"]').first.click()
        state = shown_after(page, srv.port, before)
        assert state["public"]["circuit"][7]["hazard"] == card and state["public"]["actor"] == 0
        expect(public.locator('#rallye-circuit li[data-position="7"] .hazard')).to_be_visible()
        check_layout(public, "the public page")
        # then the race goes on from the pages, every page checked as it goes
        for _ in range(25):
            if state["public"]["phase"] == "over":
                break
            state = step(pages, srv, rng)
            for number, (_, seen) in enumerate(pages):
                expect(seen.locator("body")).to_have_attribute("data-version", str(state["version"]))
                check_layout(seen, f"seat {number} at version {state['version']}")
        check_layout(public, "the public page")
        for ctx, _ in pages:
            ctx.close()
        public_ctx.close()


def test_the_answer_window_asks_the_victims_together_with_a_countdown_and_a_card_cancels(browser, tmp_path):
    """Issue 24, problem 4: the victims of one effect are asked at once, each on its own page, and the
    window closes as soon as every one has answered."""
    from playwright.sync_api import expect

    options = {"players": 3, "route_cards": 10, "auto_passages": True, "laps": 1, "answer_seconds": 120}

    def victims_and_one_can_cancel(state) -> bool:
        pending = state.pending
        return pending is not None and pending.kind == "cancel" and len(pending.asked()) == 2 and any(
            card in CANCELS[pending.threat] for card in state.hands[pending.seat])

    asked = prepared(tmp_path, options, victims_and_one_can_cancel)
    victim, other_victim = asked.pending.asked()
    with (running_app(tmp_path, game="rallye", keepalive=1.0) as (runtime, app), live_server(app) as srv):
        pages = seat_pages(browser, srv, runtime, 3)
        page = pages[victim][1]
        for seat in range(3):  # both victims at once; the player whose card it was, not
            ask = expect(pages[seat][1].locator("#rallye-ask"))
            ask.to_be_visible() if seat in (victim, other_victim) else ask.to_be_hidden()
        expect(pages[other_victim][1].locator("#rallye-countdown")).to_contain_text("s left")
        countdown = page.locator("#rallye-countdown")
        expect(countdown).to_contain_text("s left, then the answer is no")
        first = countdown.inner_text()
        wait_for(lambda: countdown.inner_text() != first, timeout=5)  # it counts down
        check_layout(page, "the answer window")
        shoot(page, "rallye-seat", tmp_path)
        cancel = page.locator("#rallye-ask-buttons button", has_text="Cancel with")
        expect(cancel.first).to_be_visible()
        before = read_json(srv.port, "/api/state")["version"]
        cancel.first.click()
        state = shown_after(page, srv.port, before)
        assert runtime.table.latest.command.kind == "cancel"
        assert state["public"]["pending"]["asked"] == [other_victim]  # still open for the other victim
        expect(page.locator("#rallye-ask")).to_be_hidden()
        before = state["version"]
        pages[other_victim][1].locator("#rallye-ask-buttons button", has_text="No, let it strike").click()
        state = shown_after(pages[other_victim][1], srv.port, before)
        assert runtime.table.latest.command.kind == "decline"
        pending = state["public"]["pending"]  # the window closed with the last answer
        assert pending is None or pending["kind"] != "cancel" or other_victim not in pending["asked"]
        for ctx, _ in pages:
            ctx.close()


def test_a_choice_counts_down_to_the_tables_default_on_the_choosers_page(browser, tmp_path):
    from playwright.sync_api import expect

    options = {"players": 3, "route_cards": 10, "auto_passages": True, "laps": 1, "choice_seconds": 120}
    asked = prepared(tmp_path, options,
                     lambda state: state.pending is not None and state.pending.kind == "target")
    chooser = asked.pending.seat
    with (running_app(tmp_path, game="rallye", keepalive=1.0) as (runtime, app), live_server(app) as srv):
        pages = seat_pages(browser, srv, runtime, 3)
        page = pages[chooser][1]
        expect(page.locator("#rallye-choose")).to_be_visible()
        countdown = page.locator("#rallye-choose-countdown")
        first = page.locator("#rallye-choose-buttons button").first.inner_text()  # the choice A
        expect(countdown).to_contain_text(f"s left, then the table chooses {first}.")
        said = countdown.inner_text()
        wait_for(lambda: countdown.inner_text() != said, timeout=5)  # it counts down
        check_layout(page, "a choice with its countdown")
        for other in range(3):
            if other != chooser:
                expect(pages[other][1].locator("#rallye-choose")).to_be_hidden()
        for ctx, _ in pages:
            ctx.close()


def test_the_end_screen_flags_only_the_players_who_crossed_the_line(browser, tmp_path):
    """Issue 24, problem 12: a player who did not finish showed the flag and "1/4"."""
    from playwright.sync_api import expect

    options = {"players": 2, "route_cards": 10, "auto_passages": True, "laps": 1}
    over = prepared(tmp_path, options, rules.over, limit=400)
    winner, left = over.ranking
    assert over.laps[winner] >= 1 and over.laps[left] == 0
    with (running_app(tmp_path, game="rallye", keepalive=1.0) as (runtime, app), live_server(app) as srv):
        ctx, page = open_page(browser, f"http://127.0.0.1:{srv.port}/?lang=fr")
        rows = page.locator("#rallye-players tbody tr")
        expect(rows).to_have_count(2)
        first = page.locator(f'#rallye-players tr[data-seat="{winner}"] td')
        expect(first.nth(0)).to_have_text("\u2691")
        expect(first.nth(1)).to_have_text("1/1")
        last = page.locator(f'#rallye-players tr[data-seat="{left}"] td')
        expect(last.nth(0)).to_have_text(str(over.places[left]))
        expect(last.nth(1)).to_have_text("1/1")  # on its first lap of one: not a finished lap
        check_layout(page, "the end screen")
        ctx.close()


def test_the_seat_header_and_its_live_badge_keep_to_one_line_at_390_px(browser, tmp_path):
    """Issue 24, problem 11: "Siège 2 · Le rallye hasardeux" and its badge each wrapped to two lines."""
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="rallye", options={"players": 4}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        ctx, page = open_page(browser, f"{srv.url}seat/{runtime.table.seat_token(1)}")
        expect(page.locator("#live")).to_have_attribute("data-state", "live")
        lines = page.evaluate("""() => ['.bar h1', '#live'].map((selector) => {
            const range = document.createRange();
            range.selectNodeContents(document.querySelector(selector));
            return new Set([...range.getClientRects()].map((r) => Math.round(r.bottom))).size;
        })""")
        assert lines == [1, 1], lines
        assert "Le rallye hasardeux" in page.locator(".bar h1").inner_text()
        check_layout(page, "the seat page's header")
        ctx.close()


def test_the_host_form_gives_the_rallyes_expected_length_and_shorter_settings_for_six(browser, tmp_path):
    """Issue 24, problem 4: the host sees how long the chosen rally lasts, and for 5-6 players a shorter
    setting one tap away (the model shipped as game data: companion/games/rallye/length.toml)."""
    from playwright.sync_api import expect

    from companion.games.rallye import length

    with (running_app(tmp_path, game="crash", keepalive=1.0) as (runtime, app), live_server(app) as srv):
        ctx, page = open_page(browser, f"{srv.url}host?host={runtime.table.host_token()}")
        page.select_option("#game-choice", "rallye")
        page.fill("#opt-players", "4")
        page.locator("#opt-players").dispatch_event("input")
        said = page.locator("#game-length")
        expect(said).to_have_text(f"Durée attendue\u202f: environ {length.expected_minutes(4, 30, 4)} min au "
                                  "rythme d’une table.")
        expect(page.locator("#game-shorter")).to_be_hidden()
        page.fill("#opt-players", "6")
        page.locator("#opt-players").dispatch_event("input")
        expect(said).to_contain_text(f"environ {length.expected_minutes(6, 30, 4)} min")
        cards, laps = length.suggestion(6)
        shorter = page.locator("#game-shorter")
        expect(shorter).to_have_text(f"Réglages plus courts pour cette table\u202f: environ "
                                     f"{length.expected_minutes(6, cards, laps)} min")
        shorter.click()
        expect(page.locator("#opt-route_cards")).to_have_value(str(cards))
        expect(page.locator("#opt-laps")).to_have_value(str(laps))
        expect(said).to_contain_text(f"environ {length.expected_minutes(6, cards, laps)} min")
        expect(shorter).to_be_hidden()
        check_layout(page, "the host's form")
        ctx.close()
