"""A client that opens and drops connections in a loop, or sends a burst of requests, leaves the table's
journal one line a minute of each kind, through the real waitress server."""

from __future__ import annotations

import logging
import re

import pytest
from bench_log_floods import BURST, DROPS, burst, drop_streams, waitress_lines
from polling import wait_for
from webfixtures import live_server, running_app

from companion.serving.quiet import KINDS, LogPace, PacedLog


@pytest.mark.slow
def test_a_client_dropping_connections_in_a_loop_leaves_a_line_a_minute(tmp_path, caplog):
    now = [1000.0]
    with running_app(tmp_path) as (runtime, app), live_server(app, threads=4) as server, \
            caplog.at_level(logging.INFO, logger="waitress"):
        server.log_pace.pace.clock = lambda: now[0]
        hub = app.extensions["companion.hub"]
        drop_streams(server.port, hub, DROPS)
        for _ in range(3):
            burst(server.port, BURST)
        wait_for(lambda: server._dispatcher.active_count == 0 and not server._dispatcher.queue)
        lines = waitress_lines(caplog.records)
        assert lines["disconnected"] == 1, lines
        assert max(lines.values()) == 1, lines  # nothing else floods either: a line of each kind
        # A minute on, the next line of the kind says how many were left out.
        now[0] += 60
        caplog.clear()
        drop_streams(server.port, hub, 1)
        wait_for(lambda: waitress_lines(caplog.records)["disconnected"] == 1)
        text = next(r.getMessage() for r in caplog.records if "Client disconnected" in r.getMessage())
        left = re.search(r"\((\d+) more like it left out in the last 60 s\)", text)
        assert left and int(left[1]) >= DROPS - 1, text  # the drops, and the bursts' hang-ups


def test_each_kind_has_its_own_minute_and_the_kinds_kept_are_bounded():
    now = [0.0]
    paced = PacedLog(LogPace(clock=lambda: now[0]))

    def passes(msg, *args) -> bool:
        return paced.filter(logging.LogRecord("waitress", logging.INFO, __file__, 1, msg, args, None))
    assert passes("Client disconnected while serving /api/events")
    assert not passes("Client disconnected while serving /seat/x")
    assert passes("Task queue depth is %d", 3)  # another kind: its own minute
    assert not passes("Task queue depth is %d", 4)
    for n in range(2 * KINDS):
        passes(f"kind {chr(65 + n % 26)}{chr(65 + n // 26)} of line")
    assert len(paced.pace._logged) <= KINDS
