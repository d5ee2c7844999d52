"""Pages that cannot load a part of themselves (a script, a style sheet, their live stream, a part asked for
by request) say so in the reader's language and build themselves by themselves, in chromium."""

from __future__ import annotations

import re

import pytest
from webfixtures import FakeBoard, live_server, running_app

from companion.i18n import translator

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PHONE = {"width": 390, "height": 844}
LOCALES = {"fr": "fr-FR", "en": "en-US"}
RETRY = "Part of this page did not load: trying again…"
OFFLINE = ("The table does not answer: check that this phone is on the table's Wi-Fi. This page tries again "
           "by itself.")
LOST = "Connection lost: reconnecting…"
LIVE = "document.getElementById('live').dataset.state === 'live'"
SHOWN = "document.querySelectorAll('{}').length > 0"
# Each page, and what shows it built: its scripts ran, its parts came, its live stream is on.
PAGES = {
    "/": ("", f"document.body.dataset.version !== undefined && {LIVE}"),
    "/join": ("join", f"{SHOWN.format('#seat-picker button')} && {LIVE}"),
    "/seat": ("seat/{seat}", f"{SHOWN.format('#gewalt-section-hand button')} && {LIVE}"),
    "/host": ("host?host={host}", "!document.getElementById('host-controls').hidden"
              f" && {SHOWN.format('#game-choice option')} && {LIVE}"),
    "/device": ("device?host={host}", f"{SHOWN.format('#led-dice .led-die')} && {LIVE}"),
    "/network-help": ("network-help", "typeof Companion === 'object' && document.readyState === 'complete'"),
}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A Crazy Race (Gewalt) table on a real server: its seat pages show a hand."""
    with (running_app(tmp_path_factory.mktemp("table"), game="gewalt", keepalive=1.0, board=FakeBoard())
          as (runtime, app), live_server(app) as server):
        yield runtime, server


class Phone:
    """A page in its own browser, in `lang`, whose first request matching `pattern` fails (`answer`: the
    connection is cut, or the table refuses it); every uncaught error and console error is noted with the
    document it came from."""

    def __init__(self, browser, lang: str, pattern, answer: str = "abort"):
        self.context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                           locale=LOCALES[lang])
        self.page = self.context.new_page()
        self.lang, self.errors, self.failed, self.documents = lang, [], [], 0
        self.page.on("framenavigated", self._navigated)
        self.page.on("pageerror", lambda error: self.errors.append((self.documents, f"uncaught: {error}")))
        # The failed request itself is logged by the browser ("Failed to load resource"): nothing else may be.
        self.page.on("console", lambda message: message.type == "error"
                     and not message.text.startswith("Failed to load resource")
                     and self.errors.append((self.documents, message.text)))
        self.page.route(pattern, lambda route: self._once(route, answer))

    def _navigated(self, frame) -> None:
        if frame == self.page.main_frame:
            self.documents += 1

    def _once(self, route, answer: str) -> None:
        if self.failed:
            route.continue_()
        elif answer == "abort":
            self.failed.append(route.request.url)
            route.abort("connectionreset")
        else:
            self.failed.append(route.request.url)
            route.fulfill(status=503, content_type="application/json", body='{"ok": false}')

    def said(self, msgid: str) -> str:
        return translator(self.lang)(msgid)

    def open(self, table, path: str) -> None:
        runtime, server = table
        url = server.url + path.format(seat=runtime.table.seat_token(0), host=runtime.table.host_token())
        self.page.goto(url, wait_until="commit")  # a page that stops loading never fires its load event

    def tells(self, msgid: str) -> None:
        """The page says `msgid` in its language, at a phone's width, without scrolling sideways."""
        box = self.page.locator("#load-failed")
        box.wait_for(state="visible")
        assert box.text_content() == self.said(msgid)
        width = self.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{width} px wide with the message"

    def built(self, check: str) -> None:
        """The page built itself, without the test reloading it, and nothing was left failing."""
        # Until then the page may have stopped short of its body: a check that cannot run yet is not met.
        said = "document.getElementById('load-failed')"
        self.page.wait_for_function(f"() => {{ try {{ return {check} && (!{said} || {said}.hidden); }} "
                                    "catch (e) { return false; } }", timeout=30_000)
        assert self.failed, "the request the test cut was never made"
        # The document that missed a script may have failed in its other scripts; the one built may not.
        left = [text for document, text in self.errors if document == self.documents]
        assert not left, left

    def close(self) -> None:
        self.context.close()


def missing_part_recovers(browser, table, name: str, lang: str, part: str) -> None:
    """The page `name` in `lang`, its first request for `part` failing: it says so, then builds itself."""
    path, check = PAGES[name]
    phone = Phone(browser, lang, part)
    try:
        phone.open(table, path)
        phone.tells(RETRY)
        phone.built(check)
    finally:
        phone.close()


@pytest.mark.parametrize("name, lang", [*((name, "fr") for name in PAGES), ("/seat", "en"), ("/join", "en")])
def test_a_page_without_its_shared_script_says_so_and_loads_itself_again(browser, table, name, lang):
    missing_part_recovers(browser, table, name, lang, "**/static/companion.js")


@pytest.mark.parametrize("part, lang", [("seat.js", "fr"), ("seat.js", "en"), ("scoreboard.js", "fr"),
                                        ("style.css", "en")])
def test_a_seat_page_without_a_part_of_its_game_says_so_and_loads_itself_again(browser, table, part, lang):
    missing_part_recovers(browser, table, "/seat", lang, f"**/games/gewalt/{part}")


@pytest.mark.parametrize("answer", ["abort", "refused"])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_seat_page_whose_live_stream_fails_says_so_and_goes_live_by_itself(browser, table, answer, lang):
    """A cut connection, or an answer that is no stream (the table refusing one more live page): the Live
    badge says the page is reconnecting, and it does."""
    path, check = PAGES["/seat"]
    phone = Phone(browser, lang, "**/api/seat/*/events*", answer)
    try:
        phone.open(table, path)
        phone.page.wait_for_function("() => document.getElementById('live')?.dataset.state === 'lost'")
        assert phone.page.locator("#live").text_content() == phone.said(LOST)
        phone.built(check)
    finally:
        phone.close()


@pytest.mark.parametrize("name, pattern, lang", [
    ("/join", r"/api/seats\?", "fr"), ("/join", r"/api/seats\?", "en"), ("/host", r"/api/host\?", "fr")])
def test_a_part_asked_for_by_request_is_asked_again_until_it_comes(browser, table, name, pattern, lang):
    """The join page's seats, the host's controls: the page says the table does not answer, then builds
    itself; the host keeps its host link through it."""
    path, check = PAGES[name]
    phone = Phone(browser, lang, re.compile(pattern))
    try:
        phone.open(table, path)
        phone.tells(OFFLINE)
        phone.built(check)
        if name == "/host":
            assert phone.page.evaluate("() => Companion.hostToken()") == table[0].table.host_token()
    finally:
        phone.close()
