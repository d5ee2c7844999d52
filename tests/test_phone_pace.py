"""A seated phone sending as fast as it can is held to a human pace (docs/security.md): it writes at most
a burst and then a few records a second, while another seat plays on and a quick player is never refused."""

from __future__ import annotations

import threading
import time

import pytest
from bench_phone_pace import flood
from webfixtures import live_server, post_json, running_app

from companion.core.session import NEW_GAME
from companion.outputs.webapp.pace import BURST, RATE, REMEMBERED, Pace

FLOOD_SECONDS = 3.0
NAMES = ("Flood", "Ada")


@pytest.mark.slow
def test_a_flooding_phone_writes_at_most_its_pace_while_another_seat_plays_on(tmp_path):
    with running_app(tmp_path, game="dice", paced=True) as (runtime, app), live_server(app) as server:
        table = runtime.table
        flooder, player = (table.seating(lambda roster, count, seat=seat: roster.claim(seat, NAMES[seat],
                                                                                         count))
                           for seat in (0, 1))
        result: list = []
        thread = threading.Thread(target=lambda: result.append(
            flood(server.port, {"X-Seat-Token": flooder}, FLOOD_SECONDS)))
        thread.start()
        answers = []
        began = time.monotonic()
        for tap in range(30):  # a quick player: ten taps in a row, then one every 0.1 s, through the flood
            answers.append(post_json(server.port, "/api/command", {"kind": "roll"}, {"X-Seat-Token": player}))
            if tap >= 10:
                time.sleep(0.1)
        assert time.monotonic() - began < FLOOD_SECONDS  # the other seat played while the flood went on
        thread.join()
        statuses, took = result[0]
        assert [status for status, _ in answers] == [200] * 30, answers
        by_seat = [r.seat for r in table.store.records_since_last(NEW_GAME)]
        # Every 200 wrote one record, every 429 none; and no more than the pace allows.
        assert by_seat.count(0) == statuses.get(200, 0) <= BURST + RATE * took + 1, (statuses, took)
        assert by_seat.count(1) == 30
        assert statuses.get(429, 0) > 0 and set(statuses) == {200, 429}
        print(f"\nflooding for {took:.1f} s: {statuses}; {by_seat.count(0) / took * 60:.0f} records a minute")


@pytest.mark.parametrize(("language", "said"), [
    ("en", "This phone sent too much too fast: wait 1 s, then try again. Nothing was changed."),
    ("fr", "Ce téléphone a envoyé trop de choses trop vite\u202f: attendez 1\u00a0s, puis réessayez. Rien "
           "n’a été changé."),
])
def test_a_send_past_the_pace_is_refused_in_the_readers_language_and_changes_nothing(tmp_path, language,
                                                                                       said):
    with running_app(tmp_path, game="dice", paced=True) as (runtime, app), live_server(app) as server:
        table = runtime.table
        token = table.seating(lambda roster, count: roster.claim(0, "Ada", count))
        headers = {"X-Seat-Token": token, "Accept-Language": language}
        answers = [post_json(server.port, "/api/command", {"kind": "roll"}, headers)
                   for _ in range(BURST + 5)]
        refused = [answer for status, answer in answers if status == 429]
        assert refused, "the burst never ran out"
        assert refused[0] == {"ok": False, "error": said, "retry_after": 1}
        written = [r for r in table.store.records_since_last(NEW_GAME) if r.seat == 0]
        assert len(written) == sum(1 for status, _ in answers if status == 200)
        # A host's change is paced by its own bucket: a seat's flood takes nothing from it.
        status, _ = post_json(server.port, "/api/command", {"kind": "roll"},
                              {"X-Host-Token": table.host_token()})
        assert status == 200


def test_the_buckets_are_bounded_and_refill_at_the_pace():
    now = [0.0]
    pace = Pace(clock=lambda: now[0])
    for n in range(REMEMBERED * 3):
        assert pace.take(f"address 10.0.{n // 256}.{n % 256}") == 0.0
    assert len(pace) == REMEMBERED
    for _ in range(BURST):
        assert pace.take("seat 0") == 0.0
    assert pace.take("seat 0") == pytest.approx(1 / RATE)  # nothing taken: the wait stays what it was
    assert pace.take("seat 0") == pytest.approx(1 / RATE)
    now[0] += 1 / RATE
    assert pace.take("seat 0") == 0.0 and pace.take("seat 0") > 0  # one more a fifth of a second
    now[0] += BURST / RATE
    assert all(pace.take("seat 0") == 0.0 for _ in range(BURST))  # a whole burst again, never more
    assert pace.take("seat 0") > 0 and len(pace) == REMEMBERED
