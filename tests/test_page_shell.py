"""The page shell every game shares, in chromium: "Your turn" (line, tab title, buzz, screen kept awake),
dark mode with readable contrast, and the twin's frame at its real size on a desktop."""

from __future__ import annotations

import re

import duel
import pytest
from polling import wait_for
from webfixtures import live_server, plug_game, post_json, running_app

from companion.core import registry

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}

# Records what the page asks of the phone: buzzes and screen wake locks (headless chromium has neither).
PHONE_STUBS = """
window.__buzz = [];
window.__locks = [];
Object.defineProperty(navigator, "vibrate", {
  value: (pattern) => { window.__buzz.push(pattern); return true; } });
Object.defineProperty(navigator, "wakeLock", { value: { request: async (kind) => {
  const sentinel = new EventTarget();
  sentinel.release = async () => sentinel.dispatchEvent(new Event("release"));
  window.__locks.push(sentinel);
  return sentinel;
} } });
"""


@pytest.fixture
def crash_table(tmp_path):
    with running_app(tmp_path, game="crash", keepalive=1.0) as (runtime, app), live_server(app) as srv:
        table = runtime.table
        for seat, name in enumerate(("Anna", "Zoé")):
            table.seating(lambda roster, count, seat=seat, name=name: roster.claim(seat, name, count))
        yield runtime, srv


def seat_page(browser, srv, token: str, **context):
    ctx = browser.new_context(viewport=PHONE, locale="fr-FR", **context)
    ctx.add_init_script(PHONE_STUBS)
    page = ctx.new_page()
    page.goto(f"{srv.url}seat/{token}")
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    return ctx, page


def test_your_turn_shows_titles_buzzes_once_and_keeps_the_screen_awake(browser, crash_table):
    from playwright.sync_api import expect

    runtime, srv = crash_table
    table = runtime.table
    assert table.latest.public["turn"] == 0 and runtime.table.latest.session.spec.waiting_on(
        table.latest.session.state) == [0]
    first_ctx, first = seat_page(browser, srv, table.seat_token(0))
    second_ctx, second = seat_page(browser, srv, table.seat_token(1))
    try:
        expect(first.locator("#your-turn")).to_have_text("À vous")
        expect(first.locator("#your-turn")).to_be_visible()
        expect(first).to_have_title(re.compile("^À vous · "))
        expect(second.locator("#your-turn")).to_be_hidden()
        assert not first.title().startswith("À vous · À vous")
        assert first.evaluate("window.__buzz") == []  # opened on its turn: no buzz
        wait_for(lambda: first.evaluate("window.__locks.length") == 1)  # a game runs: the screen stays on
        for kind in ("roll", "end"):
            status, answer = post_json(srv.port, "/api/command", {"kind": kind},
                                       {"X-Seat-Token": table.seat_token(0)})
            assert status == 200, answer
        expect(second.locator("#your-turn")).to_be_visible()
        expect(second).to_have_title(re.compile("^À vous · "))
        expect(first.locator("#your-turn")).to_be_hidden()
        expect(first).not_to_have_title(re.compile("À vous"))
        assert second.evaluate("window.__buzz") == [[200, 100, 200]]
        assert first.evaluate("window.__buzz") == []
        # The browser drops the lock when the page hides; it is asked again when the page shows.
        second.evaluate("window.__locks[0].release()")
        second.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        wait_for(lambda: second.evaluate("window.__locks.length") == 2)
    finally:
        first_ctx.close()
        second_ctx.close()


# --- dark mode and contrast ---------------------------------------------------------------------
CONTRAST = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const background = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const c = rgb(getComputedStyle(node).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
    }
    return rgb(getComputedStyle(document.documentElement).backgroundColor).slice(0, 3);
  };
  const low = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    const style = getComputedStyle(el);
    if (parseFloat(style.opacity) < 1 || el.closest("button:disabled, .leds, .panel")) continue;
    const a = lum(rgb(style.color).slice(0, 3)), b = lum(background(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && style.fontWeight >= 700);  // WCAG's large text: 3:1
    const text = el.textContent.trim().slice(0, 30);
    if (ratio < (large ? 3 : 4.5)) low.push(`${el.tagName}.${el.className} "${text}" ${ratio.toFixed(2)}`);
  }
  return low;
}"""


@pytest.mark.parametrize("game", [*registry.names(), "duel"])  # duel: the generated pages
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_reads_at_wcag_contrast_in_light_and_dark(browser, tmp_path, game, scheme, monkeypatch):
    if game == "duel":
        plug_game(monkeypatch, duel.SPEC)
    with running_app(tmp_path, game=game, keepalive=1.0) as (runtime, app), live_server(app) as srv:
        runtime.table.seating(lambda roster, count: roster.claim(0, "Anna", count))
        check_contrast(browser, runtime, srv, scheme)


def check_contrast(browser, runtime, srv, scheme: str) -> None:
    table = runtime.table
    host = table.host_token()
    ctx = browser.new_context(viewport=PHONE, locale="fr-FR", color_scheme=scheme)
    try:
        page = ctx.new_page()
        paper = {}
        for path in ("", "join", f"host?host={host}", "device", f"seat/{table.seat_token(0)}"):
            page.goto(f"{srv.url}{path}")
            page.wait_for_load_state("load")
            page.wait_for_timeout(0)
            low = page.evaluate(CONTRAST)
            assert not low, f"{scheme} /{path.split('?')[0]}: text under WCAG AA contrast: {low}"
            paper[path] = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        dark = all(sum(map(int, re.findall(r"\d+", colour)[:3])) < 200 for colour in paper.values())
        assert dark == (scheme == "dark"), paper
    finally:
        ctx.close()


# --- the twin on a desktop ----------------------------------------------------------------------
def test_the_twin_shows_the_frame_at_real_size_on_a_desktop_and_fits_a_phone(browser, tmp_path):
    from webfixtures import FakeBoard

    from companion.devices.display import PngDisplay
    from companion.devices.panels import panel
    from companion.outputs.frames import render

    model = panel("impression-7.3")
    display = PngDisplay(model, tmp_path / "frame.png")
    with running_app(tmp_path, board=FakeBoard(), display=display) as (runtime, app), live_server(app) as srv:
        display.show(render("dice", runtime.table.latest.public, model, "fr", srv.url).image)
        for viewport, least in (({"width": 1280, "height": 900}, 800), (PHONE, 250)):
            ctx = browser.new_context(viewport=viewport)
            try:
                page = ctx.new_page()
                page.goto(f"{srv.url}device?host={runtime.table.host_token()}")
                page.wait_for_function("() => document.getElementById('frame').naturalWidth > 0")
                width = page.evaluate("document.getElementById('frame').getBoundingClientRect().width")
                assert width >= least, (viewport, width)
                assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            finally:
                ctx.close()
