"""Guessing the join code from many addresses gains little: the table has a budget of its own; and a
phone that scans the QR code never meets it.

Through the real waitress server, each guess from another loopback address (127.0.x.y), as a guesser
with a whole network of addresses would send them.
"""

from __future__ import annotations

import json
import logging
from urllib.parse import urlsplit

import pytest
import zxingcpp
from webfixtures import live_server, request, running_app

from companion.devices.panels import panel
from companion.outputs.frames import render, table_info
from companion.outputs.webapp import trust
from companion.outputs.webapp.trust import (
    FIRST_WAIT,
    FREE_TRIES,
    LOG_EVERY,
    LONGEST_WAIT,
    REMEMBERED,
    TABLE_BURST,
    TABLE_REFILL,
    CodeAttempts,
)
from companion.serving.serve import RedactSeatLinks

ADDRESSES = [f"127.0.{n // 250}.{n % 250 + 2}" for n in range(1030)]  # more than the per-address memory


@pytest.fixture
def table(tmp_path):
    """A table whose join-code limiter runs on a clock the test moves."""
    now = [1000.0]
    with running_app(tmp_path) as (runtime, app), live_server(app) as server:
        app.extensions["companion.codes"] = CodeAttempts(clock=lambda: now[0])
        yield runtime, server, now


def guess(port: int, code: str, address: str, key: str = "", path: str = "/api/join",
          seat: int = 0) -> tuple[int, dict]:
    body = {"code": code, "seat": seat, "name": f"Eve{seat or ''}"} if path == "/api/join" else {"code": code}
    if key:
        body["key"] = key
    status, answer, _ = request(port, "POST", f"{path}?lang=en", body=body, client=address)
    return status, json.loads(answer)


def flood(port: int, wrong: str, addresses) -> list[int]:
    return [guess(port, wrong, address)[0] for address in addresses]


def wrong_code(runtime) -> str:
    return "ZZZZ" if runtime.table.roster.join_code() != "ZZZZ" else "YYYY"


def test_a_scanning_phone_joins_at_once_whatever_strangers_type(table):
    """1,030 addresses typing wrong codes, and polling on: the QR code's key joins, and claims the host."""
    runtime, server, now = table
    roster = runtime.table.roster
    statuses = flood(server.port, wrong_code(runtime), ADDRESSES)
    statuses += flood(server.port, wrong_code(runtime), ADDRESSES)  # and again, while told to wait
    assert statuses[-1] == 429
    key = roster.join_key()
    assert guess(server.port, "", "127.9.9.9", key, "/api/host/claim")[0] == 200
    status, answer = guess(server.port, roster.join_code(), "127.9.9.10", key)
    assert status == 200 and roster.name(0) == "Eve"
    # A key no one gave is refused, and costs nothing: it cannot be guessed.
    status, answer = guess(server.port, "", "127.9.9.11", key[:-2] + ("AA" if key[-2:] != "AA" else "BB"))
    assert status == 409 and "no longer the table's" in answer["error"]
    # A long press on D makes a new code and key: the old QR code stops working.
    old = key
    runtime.table.seating(lambda r, count: r.reissue_host())
    assert roster.join_key() != old
    status, answer = guess(server.port, "", "127.9.9.12", old, "/api/host/claim")
    assert status == 409 and "no longer the table's" in answer["error"]


def test_strangers_get_one_check_each_beyond_the_budget_and_a_right_typed_code_gets_in(table):
    """Past the table's 30, an address that never typed a wrong code is still checked once, while the
    table remembers fewer than REMEMBERED addresses: 1,000 strangers never keep a phone that types the
    right code out; more than that spend the spare checks too, and then typed codes wait."""
    runtime, server, now = table
    right, wrong = runtime.table.roster.join_code(), wrong_code(runtime)
    statuses = flood(server.port, wrong, ADDRESSES[:1000])
    assert statuses.count(409) == 1000  # each one checked once: 30 from the budget, 970 spared
    assert guess(server.port, right, "127.9.9.9")[0] == 200
    statuses = flood(server.port, wrong, ADDRESSES[1000:])
    assert statuses.count(409) == REMEMBERED - 1000 and statuses[-1] == 429
    status, answer = guess(server.port, right, "127.9.9.10")
    assert status == 429 and "scan the QR code" in answer["error"] and answer["retry_after"] > 0
    # The budget comes back with time, a wrong code a minute; a right code gives its try back.
    now[0] += TABLE_REFILL
    assert guess(server.port, right, "127.9.9.11", seat=1)[0] == 200
    assert guess(server.port, wrong, "127.9.9.12")[0] == 409
    assert guess(server.port, wrong, "127.9.9.13")[0] == 429
    assert runtime.table.roster.name(0) == "Eve"


def test_polling_while_told_to_wait_costs_the_poller_and_never_the_table():
    now = [0.0]
    attempts = CodeAttempts(clock=lambda: now[0])
    for _ in range(FREE_TRIES):
        assert attempts.admit("a") == (0.0, False)
        attempts.failed("a")
    first = attempts.wait("a")
    assert first == FIRST_WAIT
    waits = [attempts.admit("a")[0] for _ in range(3)]  # polling at once, three times
    assert waits == [2 * FIRST_WAIT, 4 * FIRST_WAIT, 8 * FIRST_WAIT]
    assert attempts.wait("a") == 8 * FIRST_WAIT  # from the last poll
    assert max(attempts.admit("a")[0] for _ in range(2000)) == LONGEST_WAIT  # a poller at full speed
    # The table's budget paid for the 5 wrong codes only.
    assert [attempts.admit(f"b{n}")[0] for n in range(TABLE_BURST - FREE_TRIES)] == [0.0] * 25
    assert attempts.admit("c") == (0.0, False)  # spared: "c" never typed a wrong code


def test_an_ipv6_network_is_one_address():
    attempts = CodeAttempts(clock=lambda: 0.0)
    for n in range(FREE_TRIES):
        attempts.failed(f"2001:db8:1:2::{n + 1:x}")
    assert attempts.wait("2001:db8:1:2:abcd::1") == FIRST_WAIT  # another address of the same /64
    assert attempts.wait("2001:db8:1:3::1") == 0.0  # another network
    assert trust.group_of("::ffff:192.0.2.7") == "192.0.2.7" and trust.group_of("192.0.2.7") == "192.0.2.7"
    assert trust.group_of("fe80::1%eth0") == "fe80::/64"


def test_the_table_budget_holds_for_a_few_addresses_too(table):
    runtime, server, now = table
    right = runtime.table.roster.join_code()
    wrong = "ZZZZ" if right != "ZZZZ" else "YYYY"
    few = ADDRESSES[:TABLE_BURST // FREE_TRIES]  # 6 addresses, each within its free tries
    statuses = [guess(server.port, wrong, address)[0] for _ in range(FREE_TRIES) for address in few]
    assert statuses == [409] * TABLE_BURST
    assert [guess(server.port, wrong, address)[0] for address in few] == [429] * len(few)


def test_the_limiters_log_says_a_flood_in_one_line_a_minute(caplog):
    now = [0.0]
    attempts = CodeAttempts(clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger=trust.__name__):
        for address in ADDRESSES[:200]:
            for _ in range(FREE_TRIES + 1):
                if not attempts.admit(address)[0]:
                    attempts.failed(address)
        assert len(caplog.records) == 1  # the first wait earned, 127.0.0.2's
        now[0] += LOG_EVERY  # the table earns back one try meanwhile
        assert attempts.admit("127.9.9.9") == (0.0, False)
        attempts.failed("127.9.9.9")
        assert attempts.admit("127.9.9.9")[1] is True  # no spare check: it typed a wrong code
        assert len(caplog.records) == 3
    assert "more waits for 199 addresses" in caplog.records[1].getMessage()
    assert "typed codes wait 60 s (a scanned QR code joins at once)" in caplog.records[2].getMessage()


def test_the_glass_and_the_host_page_give_the_link_with_its_key_and_no_log_holds_it(table, caplog):
    """The QR code on the glass (the table's own frame) and on the host page holds the key; the join
    page it opens sends it; the web server's log lines show the link redacted."""
    runtime, server, now = table
    roster = runtime.table.roster
    code, key = roster.join_code(), roster.join_key()
    info = table_info(runtime.table.moment, "http://192.168.1.20:8080/")
    image = render("dice", runtime.table.moment.public, panel("impression-7.3"), "fr", info).image
    [scanned] = [found.text for found in zxingcpp.read_barcodes(image)]
    assert scanned == f"http://192.168.1.20:8080/j/{code}.{key}"
    status, page, _ = request(server.port, "GET", urlsplit(scanned).path)
    assert status == 200 and f'value="{code}"'.encode() in page and f'data-key="{key}"'.encode() in page
    status, answer, _ = request(server.port, "GET", "/api/host", {"X-Host-Token": roster.host_token()})
    assert status == 200 and json.loads(answer)["join_link"].endswith(f"/j/{code}.{key}")
    record = logging.LogRecord("waitress", logging.INFO, __file__, 1,
                               f"Client disconnected while serving /j/{code}.{key}", (), None)
    RedactSeatLinks().filter(record)
    assert record.getMessage() == "Client disconnected while serving /j/…"
