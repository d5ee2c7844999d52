"""The phone pages in Debian's chromium (Playwright) against a real waitress server."""

from __future__ import annotations

import re
import time
from contextlib import ExitStack

import pytest
from webfixtures import (
    FakeBoard,
    host_of,
    install_secret_game,
    live_server,
    post_json,
    running_app,
)

from companion.core import registry
from companion.devices.display import PngDisplay
from companion.devices.panels import panel
from companion.devices.refresh import Refresher
from companion.outputs.frames import render

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def server(tmp_path):
    with running_app(tmp_path, keepalive=1.0) as (runtime, app), live_server(app) as srv:
        yield runtime, srv


def open_page(browser, url: str, **context):
    context.setdefault("locale", "fr-FR")
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                              **context)
    page = ctx.new_page()
    page.goto(url)
    return ctx, page


@pytest.fixture
def phone(browser, server):
    """The scoreboard on a phone, connected to the live stream."""
    from playwright.sync_api import expect

    runtime, srv = server
    ctx, page = open_page(browser, f"{srv.url}?host={runtime.table.host_token()}")  # the host may roll
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    yield runtime, srv, page
    ctx.close()


def test_the_scoreboard_updates_live_when_another_phone_rolls(phone):
    from playwright.sync_api import expect

    runtime, srv, page = phone
    expect(page.locator("#dice-empty")).to_be_visible()
    status, answer = post_json(srv.port, "/api/command", {"kind": "roll"}, host_of(runtime))
    assert status == 200
    expect(page.locator("body")).to_have_attribute("data-version", str(answer["version"]))
    last = runtime.table.latest.public["last"]
    faces = page.locator("#dice-faces .die")
    expect(faces).to_have_count(2)
    assert [int(v) for v in faces.evaluate_all("els => els.map(e => e.dataset.value)")] == last
    expect(page.locator("#dice-total")).to_have_text(str(sum(last)))
    expect(page.locator("#dice-history li")).to_have_count(1)
    expect(page.locator("#dice-empty")).to_be_hidden()


def test_clicking_roll_rolls(phone):
    from playwright.sync_api import expect

    runtime, _, page = phone
    page.locator("#roll").click()
    expect(page.locator("#dice-faces .die")).to_have_count(2)
    assert runtime.table.latest.public["rolls"] == 1
    page.locator("#roll").click()
    expect(page.locator("#dice-history li")).to_have_count(2)
    expect(page.locator("#dice-history li").first).to_contain_text("Lancer n° 2")


def test_the_dice_count_chooser_sets_how_many_dice_roll(phone):
    from playwright.sync_api import expect

    runtime, _, page = phone
    expect(page.locator('#dice-count [data-count="2"]')).to_have_attribute("aria-pressed", "true")
    page.locator('#dice-count [data-count="3"]').click()
    expect(page.locator('#dice-count [data-count="3"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#dice-count [data-count="2"]')).to_have_attribute("aria-pressed", "false")
    page.locator("#roll").click()
    expect(page.locator("#dice-faces .die")).to_have_count(3)
    assert runtime.table.latest.public["count"] == 3


def test_french_by_default_and_english_with_lang(browser, server):
    from playwright.sync_api import expect

    _, srv = server
    ctx, page = open_page(browser, srv.url, locale="de-DE")  # neither language asked for: the table's
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#roll")).to_have_text("Lancer")
    expect(page.locator("h1")).to_have_text("Dés libres")
    page.goto(srv.url + "?lang=en")
    expect(page.locator("#roll")).to_have_text("Roll")
    expect(page.locator("h1")).to_have_text("Free dice")
    page.goto(srv.url + "device")  # the choice sticks (cookie)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    ctx.close()
    ctx, page = open_page(browser, srv.url, locale="en-US")  # Accept-Language
    expect(page.locator("#roll")).to_have_text("Roll")
    ctx.close()


def test_only_the_host_sees_the_host_link_and_undo_works_from_the_host_page(browser, server):
    from playwright.sync_api import expect

    runtime, srv = server
    guest_ctx, guest = open_page(browser, srv.url)
    token = runtime.table.host_token()
    ctx, page = open_page(browser, f"{srv.url}?host={token}")
    expect(page.locator("#host-link")).to_be_visible()
    assert token not in page.url  # taken out of the address bar
    expect(guest.locator("#host-link")).to_be_hidden()
    expect(guest.locator("#roll")).to_be_hidden()  # watching only: no seat, no host
    page.locator("#roll").click()
    expect(page.locator("#dice-history li")).to_have_count(1)
    page.locator("#roll").click()
    expect(page.locator("#dice-history li")).to_have_count(2)
    page.locator("#host-link").click()
    expect(page.locator("#host-controls")).to_be_visible()
    page.locator("#undo").click()
    page.locator("#undo").click()  # the second tap confirms
    expect(guest.locator("#dice-history li")).to_have_count(1)
    page.reload()  # the token was kept on this phone
    expect(page.locator("#host-controls")).to_be_visible()
    guest_ctx.close()
    ctx.close()


def test_host_undo_names_the_move_asks_again_then_says_what_it_took_back(browser, server):
    """Issue 13, defect 7: two taps used to take back two moves without a word. Now the first tap names
    the move, the second takes back that one only, the page says so, and the history keeps a line."""
    from playwright.sync_api import expect

    runtime, srv = server
    table = runtime.table
    table.seating(lambda roster, count: roster.claim(1, "Zoé", count))
    ctx, page = open_page(browser, f"{srv.url}host?host={table.host_token()}")
    board_ctx, board = open_page(browser, srv.url)
    try:
        expect(page.locator("#host-controls")).to_be_visible()
        undo = page.locator("#undo")
        expect(undo).to_have_text("Revenir en arrière")  # not "Annuler", which reads as Cancel
        post_json(srv.port, "/api/command", {"kind": "roll"}, host_of(runtime))
        seat_token = table.seat_token(1)
        post_json(srv.port, "/api/command", {"kind": "set_dice", "args": {"count": 3}},
                  {"X-Seat-Token": seat_token})
        expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
        moves = table.version
        undo.click()
        expect(undo).to_have_text(
            "Touchez encore pour revenir sur\u202f: \u2777 Zoé a changé le nombre de dés")
        assert table.version == moves  # nothing taken back on the first tap
        undo.click()
        expect(page.locator("#message")).to_have_text("Annulé\u202f: \u2777 Zoé a changé le nombre de dés")
        assert table.version == moves + 1 and table.latest.public["count"] != 3
        expect(undo).to_have_text("Revenir en arrière")  # disarmed: a third tap asks again
        undo.click()
        expect(undo).to_have_text(re.compile("revenir sur.*a lancé les dés"))
        assert table.version == moves + 1
        expect(board.locator("#table-history li").first).to_have_text(
            "Annulé\u202f: \u2777 Zoé a changé le nombre de dés")
    finally:
        ctx.close()
        board_ctx.close()


def test_the_host_page_title_follows_the_running_game(browser, server):
    """Issue 13, defect 8: it kept "Hôte · Dés libres" after Schacht started."""
    from playwright.sync_api import expect

    runtime, srv = server
    ctx, page = open_page(browser, f"{srv.url}host?host={runtime.table.host_token()}")
    try:
        expect(page.locator("h1")).to_have_text("Hôte · Dés libres")
        expect(page).to_have_title(re.compile("^Hôte · Dés libres"))
        assert post_json(srv.port, "/api/command", {"kind": "new_game", "args": {"game": "schacht"}},
                         host_of(runtime))[0] == 200
        expect(page.locator("h1")).to_have_text("Hôte · Crazy Race (Schacht)")
        expect(page).to_have_title(re.compile("^Hôte · Crazy Race \\(Schacht\\)"))
    finally:
        ctx.close()


def test_play_again_from_the_host_page_keeps_the_seats(browser, server):
    from playwright.sync_api import expect

    runtime, srv = server
    table = runtime.table
    table.seating(lambda roster, count: roster.claim(1, "Zoé", count))
    token = table.seat_token(1)
    assert post_json(srv.port, "/api/command", {"kind": "new_game", "args": {"game": "dice",
                                                "options": {"count": 3}}}, host_of(runtime))[0] == 200
    post_json(srv.port, "/api/command", {"kind": "roll"}, host_of(runtime))
    ctx, page = open_page(browser, f"{srv.url}host?host={table.host_token()}")
    try:
        again = page.locator("#play-again")
        again.click()
        expect(again).to_have_text("Touchez encore\u202f: nouvelle partie, mêmes places")
        played = table.version
        again.click()
        expect(page.locator("body")).to_have_attribute("data-version", str(played + 1))
        assert table.latest.public["rolls"] == 0 and table.latest.public["count"] == 3
        assert table.seat_token(1) == token and table.roster.name(1) == "Zoé"
    finally:
        ctx.close()


def test_a_refused_command_shows_the_readable_reason(browser, server):
    from playwright.sync_api import expect

    runtime, srv = server
    ctx, page = open_page(browser, f"{srv.url}host?host={runtime.table.host_token()}")
    expect(page.locator("#host-controls")).to_be_visible()
    # Undo says so before it is tapped (it is off); a command sent all the same is refused in words.
    expect(page.locator("#undo")).to_be_disabled()
    expect(page.locator("#undo-what")).to_have_text("Rien à annuler.")
    page.evaluate("Companion.command('undo')")
    expect(page.locator("#message")).to_have_text("Rien à annuler.")
    ctx.close()


def test_a_wrong_host_link_shows_no_host_controls(browser, server):
    from playwright.sync_api import expect

    _, srv = server
    ctx, page = open_page(browser, f"{srv.url}host?host=forged")
    expect(page.locator("#not-host")).to_be_visible()
    page.wait_for_function("() => localStorage.getItem('companion.host') === null")
    expect(page.locator("#host-controls")).to_be_hidden()
    ctx.close()


def test_new_game_takes_two_taps(browser, server):
    from playwright.sync_api import expect

    runtime, srv = server
    post_json(srv.port, "/api/command", {"kind": "roll"}, host_of(runtime))
    ctx, page = open_page(browser, f"{srv.url}host?host={runtime.table.host_token()}")
    expect(page.locator("#game-choice")).to_have_value("dice")
    page.locator("#start-game").click()
    expect(page.locator("#start-game")).to_have_text(
        "Touchez encore pour commencer\u202f: la partie en cours se termine")
    assert runtime.table.latest.public["rolls"] == 1
    page.locator("#start-game").click()
    expect(page.locator("body")).not_to_have_attribute("data-version", "2")
    assert runtime.table.latest.public["rolls"] == 0
    ctx.close()


# --- the device twin ---------------------------------------------------------------------------
class TwinBoard(FakeBoard):
    """Presses go through the game's button map to the table; the LED dice follow the table."""

    def __init__(self, table):
        super().__init__(simulated=True)
        self.table = table
        self.dice = [None, None]
        table.subscribe(self._follow)

    def press(self, name: str, hold: bool = False) -> None:
        super().press(name, hold)
        self.table.press(f"{name}:hold" if hold else name)

    def _follow(self, update) -> None:
        if update.rejected is None and update.game:
            self.dice = list(registry.get(update.game).dice_shown(update.public)) or [None, None]


@pytest.fixture
def twin(tmp_path, browser):
    model = panel("impression-7.3")
    with ExitStack() as stack:
        runtime, app = stack.enter_context(running_app(tmp_path, keepalive=1.0))
        display = PngDisplay(model, tmp_path / "frame.png")
        refresher = Refresher(display, lambda key: render(key[0], key[1], model, "fr", runtime.url).image)
        stack.callback(refresher.stop)
        refresher.start()
        runtime.table.subscribe(lambda u: u.rejected is None and refresher.offer((u.game, u.public)))
        refresher.offer((runtime.table.latest.game, runtime.table.latest.public))
        runtime.board, runtime.display, runtime.frame_source = TwinBoard(runtime.table), display, refresher
        srv = stack.enter_context(live_server(app))
        deadline = time.monotonic() + 20
        while not display.png and time.monotonic() < deadline:
            time.sleep(0.05)
        ctx, page = open_page(browser, f"{srv.url}device?host={runtime.table.host_token()}")
        stack.callback(ctx.close)
        yield runtime, page


def test_the_twin_shows_the_frame_and_roll_lights_the_dice_then_redraws_the_frame(twin):
    from playwright.sync_api import expect

    runtime, page = twin
    frame = page.locator("#frame")
    expect(frame).to_be_visible()
    page.wait_for_function("() => document.getElementById('frame').naturalWidth === 800")
    before = page.evaluate("() => document.body.dataset.frameVersion")
    expect(page.locator("#led-dice .led-die")).to_have_count(2)
    expect(page.locator("#led-dice")).to_have_attribute("data-faces", "0,0")
    expect(page.locator("#status-led")).to_have_attribute("data-on", "true")
    page.locator("button.hw.roll").click()
    expect(page.locator("#led-dice")).not_to_have_attribute("data-faces", "0,0")
    faces = runtime.table.latest.public["last"]
    expect(page.locator("#led-dice")).to_have_attribute("data-faces", ",".join(map(str, faces)))
    lit = page.locator("#led-dice .led-die").first.locator('.led[data-on="true"]')
    expect(lit).to_have_count(faces[0])
    expect(page.locator("body")).not_to_have_attribute("data-frame-version", before, timeout=20_000)
    expect(frame).to_have_attribute("src", re.compile(r"^blob:"))  # fetched with the host's token
    page.wait_for_function("() => document.getElementById('frame').complete && "
                           "document.getElementById('frame').naturalWidth === 800")
    assert runtime.board.presses == [("roll", False)]


def test_the_twin_buttons_of_a_real_device_are_read_only(tmp_path, browser):
    from playwright.sync_api import expect

    with running_app(tmp_path, board=FakeBoard(simulated=False)) as (runtime, app), live_server(app) as srv:
        ctx, page = open_page(browser, srv.url + "device?lang=en")
        # A real device's view is the host's: its screen holds the join code.
        expect(page.locator("#not-yours")).to_be_visible()
        expect(page.locator("#twin")).to_be_hidden()
        page.goto(f"{srv.url}device?lang=en&host={runtime.table.host_token()}")
        expect(page.locator("#twin")).to_be_visible()
        expect(page.locator("button.hw.roll")).to_be_disabled()
        expect(page.locator('button.hw[data-button="a"]')).to_be_disabled()
        expect(page.locator("#hint-real")).to_be_visible()
        expect(page.locator("#no-frame")).to_be_visible()
        ctx.close()


def test_a_seat_page_shows_its_private_view_live_and_never_another_seats(browser, tmp_path, monkeypatch):
    from playwright.sync_api import expect

    install_secret_game(monkeypatch)
    with running_app(tmp_path, game="secret", keepalive=1.0) as (runtime, app), live_server(app) as srv:
        token = runtime.table.seating(lambda roster, count: roster.claim(0, "Ada", count))
        ctx, page = open_page(browser, f"{srv.url}seat/{token}")
        expect(page.locator("h1")).to_contain_text("Ada")
        expect(page.locator("#private-view")).to_contain_text("SECRET-HAND-ZERO")
        expect(page.locator("#live")).to_have_attribute("data-state", "live")
        before = page.evaluate("() => document.body.dataset.version")
        post_json(srv.port, "/api/command", {"kind": "say"}, {"X-Seat-Token": token})
        expect(page.locator("body")).not_to_have_attribute("data-version", before)
        other_ctx, other = open_page(browser, f"{srv.url}seat/{runtime.table.seat_token(1)}")
        expect(other.locator("#private-view")).to_contain_text("SECRET-HAND-ONE")
        post_json(srv.port, "/api/command", {"kind": "say"}, {"X-Seat-Token": runtime.table.seat_token(1)})
        expect(page.locator("body")).to_have_attribute("data-version", str(runtime.table.version))
        public_ctx, public = open_page(browser, srv.url)
        expect(public.locator("#public-view")).to_contain_text("Said")  # its field name, made readable
        for seen, foreign in ((page, "SECRET-HAND-ONE"), (other, "SECRET-HAND-ZERO"), (public, "SECRET")):
            assert foreign not in seen.content()
            assert foreign not in seen.evaluate("() => JSON.stringify(localStorage)")
        public_ctx.close()
        other_ctx.close()
        ctx.close()
