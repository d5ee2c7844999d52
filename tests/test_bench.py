"""`companion bench`: the load and soak hold their promises at a small size, and the quick table runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.benchmark import load, soak, start
from companion.core.session import UNDO_IN_MEMORY

pytestmark = pytest.mark.slow


def by_name(figures) -> dict:
    return {f.name.split(",")[0].split(" (")[0]: f.p50 for f in figures}


def test_every_phone_keeps_up_with_a_steady_stream_of_commands():
    figures = by_name(load.measure(phones=8, rate=20.0, seconds=3.0))
    assert figures["load: commands answered"] == 60
    assert figures["load: failed commands"] == 0
    assert figures["load: pages that missed the last command"] == 0
    assert figures["load: versions skipped without a snapshot"] == 0


def test_random_play_of_every_game_through_http_fails_nothing_and_bounds_undo():
    figures = by_name(soak.measure(commands=400, pages=3))
    assert figures["soak: commands applied"] >= 400
    assert figures["soak: failed commands"] == 0
    assert figures["soak: pages that missed the last command"] == 0
    assert figures["soak: versions skipped without a snapshot"] == 0
    assert 0 < figures["soak: earlier states undo holds"] <= 2 * UNDO_IN_MEMORY


def test_the_quick_bench_prints_its_table_and_writes_every_figure(tmp_path):
    out = tmp_path / "bench.json"
    run = subprocess.run([sys.executable, "-m", "companion", "bench", "--quick", "--json", str(out)],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    figures = {f["name"]: f for f in json.loads(out.read_text())["figures"]}
    for name in ("release → phone hears the roll (SSE)", "debounced → first LED change",
                 "cold start: process → web answering", "idle wake-ups, no phone"):
        assert name in figures and name in run.stdout
    assert all(f["samples"] >= 1 and f["p50"] == f["p50"] for f in figures.values())  # no NaN
    assert any(name.startswith("render") for name in figures)
    # The memory figure's 30 phones stayed connected through every game and heard its last command.
    assert figures["pages of the 30 that missed the last command"]["p50"] == 0


def test_the_start_bench_starts_on_both_long_logs_and_exports_them():
    figures = {f.name: f for f in start.measure(quick=True)}
    assert len(figures) == 12
    assert all(f.p50 < start.LIMIT_S for f in figures.values() if f.unit == "s")  # every start answered
    assert all(f.p50 > 0 for f in figures.values() if f.unit == "MB")  # each peak was read


def test_the_cold_bench_sees_the_starting_answer_first_and_a_thread_per_live_page():
    from companion.benchmark.run import collect

    figures = {f.name: f.p50 for f in collect(quick=True, part="cold")}
    starting = figures["cold start: process → first answer (starting)"]
    assert 0 < starting <= figures["cold start: process → web answering"]
    assert figures["cold start: process → first e-ink frame written"] > 0
    assert figures["threads, 10 phones"] >= figures["threads, no phone"] + 10
    assert figures["idle memory (resident), no phone"] > 0
