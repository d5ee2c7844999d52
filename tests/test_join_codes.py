"""Guessing the join code from many addresses gains nothing: the table has a budget of its own.

Through the real waitress server, each guess from another loopback address (127.0.x.y), as a guesser
with a whole network of addresses would send them.
"""

from __future__ import annotations

import json
import logging

import pytest
from webfixtures import live_server, request, running_app

from companion.outputs.webapp import trust
from companion.outputs.webapp.trust import FREE_TRIES, LOG_EVERY, TABLE_BURST, TABLE_REFILL, CodeAttempts

ADDRESSES = [f"127.0.{n // 250}.{n % 250 + 2}" for n in range(1030)]  # more than the per-address memory


@pytest.fixture
def table(tmp_path):
    """A table whose join-code limiter runs on a clock the test moves."""
    now = [1000.0]
    with running_app(tmp_path) as (runtime, app), live_server(app) as server:
        app.extensions["companion.codes"] = CodeAttempts(clock=lambda: now[0])
        yield runtime, server, now


def guess(port: int, code: str, address: str) -> tuple[int, dict]:
    body = {"code": code, "seat": 0, "name": "Eve"}
    status, answer, _ = request(port, "POST", "/api/join?lang=en", body=body, client=address)
    return status, json.loads(answer)


def test_a_thousand_addresses_get_no_more_guesses_than_the_tables_budget(table):
    runtime, server, now = table
    right = runtime.table.roster.join_code()
    wrong = "ZZZZ" if right != "ZZZZ" else "YYYY"
    answers = [guess(server.port, wrong, address) for address in ADDRESSES]
    checked = [status for status, _ in answers if status == 409]
    assert len(checked) == TABLE_BURST  # each address tried once: no address's own limit came into play
    status, answer = answers[-1]
    assert status == 429 and "at this table" in answer["error"] and answer["retry_after"] > 0
    # The right code is not checked either while the budget is spent: checking it would tell a guesser.
    assert guess(server.port, right, "127.9.9.9")[0] == 429
    assert runtime.table.roster.name(0) == ""
    # The budget comes back with time, a wrong code a minute; a right code gives its try back.
    now[0] += TABLE_REFILL
    assert guess(server.port, right, "127.9.9.9")[0] == 200
    assert guess(server.port, wrong, "127.9.9.10")[0] == 409
    assert guess(server.port, wrong, "127.9.9.11")[0] == 429


def test_the_table_budget_holds_for_a_few_addresses_too(table):
    runtime, server, now = table
    right = runtime.table.roster.join_code()
    wrong = "ZZZZ" if right != "ZZZZ" else "YYYY"
    statuses = [guess(server.port, wrong, ADDRESSES[n])[0] for n in range(TABLE_BURST + 3)]
    assert statuses == [409] * TABLE_BURST + [429] * 3


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
        assert attempts.admit("127.9.9.9")[1] is True
        assert len(caplog.records) == 3
    assert "more waits for 199 addresses" in caplog.records[1].getMessage()
    assert "every phone waits" in caplog.records[2].getMessage()
