"""A table online by its status yet silent (its sender frozen, its MQTT session alive, so no Last Will):
the dashboard flags it on every live page within the bound, by a deadline of its own, and clears the flag
when the table speaks again; a healthy table's heartbeats keep it unflagged at idle."""

from __future__ import annotations

import json
import math
import re
import threading
import time

import pytest
import venue_parts
from daemon_process import free_port
from polling import wait_for
from venue_parts import VENUE
from webfixtures import PHONE, SSEClient

from companion.outputs.venue.outbox import Outbox
from companion.outputs.venue.sender import Sender
from companion.storage.store import Store
from companion.venue import topics
from companion.venue.dashboard import Dashboard

broker = venue_parts.broker  # this module's fixture
BEAT = 0.3  # the table's heartbeat in these tests (topics.HEARTBEAT in play)
SILENT = topics.MISSED_HEARTBEATS * BEAT  # the dashboard's bound, as topics.SILENT_AFTER is made


@pytest.fixture
def served(tmp_path, broker):
    made = Dashboard(tmp_path / "dashboard", broker.broker("dashboard"), VENUE, "en", silent_after=SILENT)
    made.start("127.0.0.1", free_port())
    yield made
    made.stop()


@pytest.fixture
def sender(tmp_path, broker):
    store = Store(tmp_path / "t1.db")
    outbox = Outbox(store.path)
    made = Sender(outbox, broker.broker("t1"), VENUE, "t1", heartbeat=BEAT).start()
    yield made
    made.stop()
    outbox.close()
    store.close()


def table_row(tables: list[dict], name: str = "t1") -> dict | None:
    return next((row for row in tables if row["name"] == name), None)


def api_row(port: int) -> dict | None:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/api/venue")
    return table_row(json.loads(conn.getresponse().read())["tables"])


def next_t1(live: SSEClient, until) -> dict:
    """t1's row in the first live message (pushed by the dashboard, unasked) for which `until(row)`."""
    while True:
        row = table_row(live.next_event()["data"].get("tables", []))
        if row is not None and until(row):
            return row


@pytest.mark.slow  # three bounds of heartbeats, then a freeze and a thaw
def test_a_frozen_tables_flag_reaches_the_live_pages_within_the_bound_and_clears_when_it_speaks(
        served, sender, monkeypatch):
    port = served.server.port
    heard: list[float] = []
    hear = served.board.silence.heard
    monkeypatch.setattr(served.board.silence, "heard",
                        lambda name: heard.append(time.monotonic()) or hear(name))
    # online, and the pages told so (the one change its status makes)
    wait_for(lambda: (row := api_row(port)) is not None and row["online"] and served.changes.version >= 1)
    # At idle, its heartbeats keep it unflagged: through three bounds' worth of them no page is told
    # anything (never silent, and a heartbeat alone redraws no page).
    start, version = len(heard), served.changes.version
    wait_for(lambda: len(heard) >= start + math.ceil(3 * SILENT / BEAT), timeout=30)
    assert api_row(port)["silent_since"] is None and served.changes.version == version
    assert heard[-1] - heard[start] >= 2 * SILENT  # they were heartbeats over time, not one burst

    live = SSEClient(port, "/api/venue/events", timeout=30)
    try:
        assert table_row(live.next_event()["data"]["tables"])["silent_since"] is None
        thaw, read = threading.Event(), sender.outbox.after
        sender.outbox.after = lambda *args: thaw.wait(60) and read(*args)  # its thread hangs, paho pings on
        sender.wake()
        frozen = time.monotonic()
        flagged = next_t1(live, lambda row: row["silent_since"] is not None)
        took = time.monotonic() - frozen
        assert took <= SILENT + 1.5, took  # the dashboard's own deadline, no message arrived
        assert flagged["online"]  # no Last Will fired: the session is alive, the table is silent
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", flagged["silent_since"])
        assert api_row(port)["silent_since"] == flagged["silent_since"]
        thaw.set()  # it speaks again: its heartbeat clears the flag on the live page
        cleared = next_t1(live, lambda row: row["silent_since"] is None)
        assert cleared["online"]
    finally:
        live.close()


@pytest.mark.browser
@pytest.mark.slow  # a broker, a dashboard and three pages
def test_every_dashboard_page_says_which_table_is_silent_and_since_when_in_both_languages(served, browser):
    base = f"http://127.0.0.1:{served.server.port}"
    served.board.mark("t1", True)  # online by its status, and never heard again
    served.board.mark("t2", True)
    served.board.silence.heard("t1")
    wait_for(lambda: served.board.silence.since("t1"), timeout=10)
    keep_t2 = threading.Event()

    def talking():  # t2 keeps speaking: it must never be flagged
        while not keep_t2.wait(BEAT / 2):
            served.board.silence.heard("t2")

    speaker = threading.Thread(target=talking, daemon=True)
    speaker.start()
    try:
        pages = [("/?lang=fr", "Muette depuis", PHONE), ("/board?lang=en", "Silent since", {"width": 1920,
                                                                                            "height": 1080}),
                 (f"/director/{served.director}?lang=fr", "Muette depuis", PHONE),
                 ("/?lang=en", "Silent since", PHONE)]
        for path, words, viewport in pages:
            page = browser.new_page(viewport=viewport)
            page.goto(base + path)
            row = page.locator('#tables li[data-table="t1"].silent')
            row.wait_for()
            said = row.locator(".silence").inner_text()
            assert re.fullmatch(rf"{words} \d\d:\d\d\u202f?: \S.*", said), (path, said)
            assert ("\u202f:" in said) == ("fr" in path)  # French typography
            assert page.locator('#tables li[data-table="t2"]').get_attribute("class") == "online"
            if viewport is PHONE:
                assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            page.close()
    finally:
        keep_t2.set()
        speaker.join(5)
