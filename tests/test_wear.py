"""The refresh scheduler on a fake clock: the wear budget, the minimum gap, the newest state, one a day."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.benchmark.panel import lags, play_out
from companion.devices.wear import DAY, RefreshScheduler, WearBudget, WearPolicy

POLICY = WearPolicy(per_hour=20, burst=4, gap=45.0)


def arrivals_from(gaps: list[float], start: float = 0.0) -> list[tuple[float, int]]:
    out, now = [], start
    for version, gap in enumerate(gaps, 1):
        now += gap
        out.append((now, version))
    return out


policies = st.integers(2, 40).flatmap(lambda per_hour: st.builds(
    WearPolicy, per_hour=st.just(per_hour), burst=st.integers(1, per_hour - 1),
    gap=st.sampled_from([8.0, 17.0, 45.0, 60.0])))
# A table's arrivals: bursts of quick commands, pauses of minutes, and long idle stretches.
gaps = st.lists(st.one_of(st.floats(0.0, 2.0), st.floats(2.0, 120.0), st.floats(120.0, 5000.0)),
                min_size=1, max_size=120)


@settings(max_examples=150, deadline=None)
@given(policy=policies, gaps=gaps, glass=st.sampled_from([7.0, 13.0, 35.0]))
def test_never_more_than_the_budget_never_under_the_gap_and_the_newest_state_is_drawn(policy, gaps, glass):
    if glass > policy.gap:
        policy = WearPolicy(policy.per_hour, policy.burst, glass + 5.0)
    arrivals = arrivals_from(gaps)
    last = arrivals[-1][0]
    refreshes = play_out(RefreshScheduler(WearBudget(policy)), arrivals, glass, last + 3 * policy.window)
    starts = [r.start for r in refreshes]
    for a, b in zip(starts, starts[1:], strict=False):
        assert b - a >= policy.gap - 1e-6, (a, b)
    for i, s in enumerate(starts):
        # in any rolling window: never more than per_hour
        assert sum(1 for t in starts[i:] if t < s + policy.window) <= policy.per_hour
        # and in any stretch: at most a burst plus the refill
        for t in starts[i:]:
            assert starts.index(t) - i + 1 <= policy.burst + (t - s) / policy.pace + 1e-6
    # the newest state reaches the glass, and the glass is never left behind a state for long
    assert refreshes[-1].key == arrivals[-1][1]
    assert max(lags(arrivals, refreshes)) <= policy.window + policy.gap + glass + 2


@settings(max_examples=40, deadline=None)
@given(policy=policies, gaps=st.lists(st.floats(0.0, 3 * DAY), min_size=1, max_size=6))
def test_the_glass_refreshes_at_least_once_a_day_even_when_idle(policy, gaps):
    arrivals = arrivals_from(gaps)
    until = arrivals[-1][0] + 4 * DAY
    refreshes = play_out(RefreshScheduler(WearBudget(policy)), arrivals, 13.0, until)
    starts = [r.start for r in refreshes]
    assert starts[0] == arrivals[0][0]  # the first frame goes at once
    for a, b in zip(starts, starts[1:], strict=False):
        assert b - a <= DAY + 1e-6
    assert until - starts[-1] <= DAY
    assert [r.key for r in refreshes if r.start > arrivals[-1][0] + policy.window][-1] == arrivals[-1][1]


def test_a_burst_goes_at_the_gap_then_the_budget_paces_it():
    arrivals = [(t * 10.0, t + 1) for t in range(60)]  # a command every 10 s for 10 minutes
    refreshes = play_out(RefreshScheduler(WearBudget(POLICY)), arrivals, 35.0, 1200.0)
    starts = [round(r.start, 1) for r in refreshes]
    assert starts[:4] == [0.0, 45.0, 90.0, 135.0]  # the burst: at the minimum gap
    # 4 - 4 spent + 135 s of refill at one per 225 s leaves 0.6: the fifth waits for the rest
    assert starts[4] == pytest.approx(135.0 + 0.4 * POLICY.pace, abs=0.1)
    assert all(b - a >= 45.0 for a, b in zip(starts, starts[1:], strict=False))
    assert len(refreshes) <= POLICY.burst + 1200.0 / POLICY.pace


def test_without_a_budget_the_glass_takes_frames_as_fast_as_it_refreshes():
    """Before the budget: a frame whenever the panel is free, after the quiet time."""
    arrivals = [(t * 10.0, t + 1) for t in range(60)]
    refreshes = play_out(RefreshScheduler(None), arrivals, 35.0, 700.0)
    starts = [r.start for r in refreshes]
    assert all(b - a < 37.0 for a, b in zip(starts, starts[1:], strict=False))
    assert refreshes[-1].key == 60


def test_the_same_state_again_spends_nothing():
    scheduler = RefreshScheduler(WearBudget(POLICY))
    refreshes = play_out(scheduler, [(0.0, "a"), (100.0, "a"), (200.0, "a")], 35.0, 1000.0)
    assert [r.key for r in refreshes] == ["a"]
    assert len(scheduler.budget.starts) == 1


def test_a_policy_whose_burst_is_the_whole_budget_is_refused():
    with pytest.raises(ValueError, match="burst"):
        WearPolicy(per_hour=4, burst=4)


def test_the_evening_bench_keeps_every_game_within_the_budget_and_was_over_it_before():
    from companion.benchmark import panel

    figures = {f.name: f for f in panel.measure("impression-7.3")}
    hourly = {name: f.p50 for name, f in figures.items() if "refreshes per hour" in name}
    assert len(hourly) == 2 * 5
    for name, value in hourly.items():
        assert value <= POLICY.per_hour if name.endswith("after") else value > POLICY.per_hour, (name, value)
    assert figures["3 idle days after one state: refreshes (one a day keeps the glass alive)"].p50 == 4


def test_a_fast_frame_is_drawn_again_at_normal_speed_once_the_table_is_quiet():
    scheduler = RefreshScheduler(WearBudget(POLICY), settle=600.0)
    scheduler.offer("move 1", 0.0, fast=True)
    assert scheduler.due(0.0) == 0.0
    key, again = scheduler.take(0.0)
    scheduler.started(0.0)
    scheduler.shown(key, washed=True)
    assert scheduler.due(40.0) == 600.0  # ten quiet minutes after the last state offered
    assert scheduler.take(600.0) == ("move 1", True)  # the same state, at normal speed
    scheduler.started(600.0)
    scheduler.shown("move 1", washed=False)
    assert scheduler.due(700.0) == 600.0 + DAY  # then only the daily refresh
    unwashed = RefreshScheduler(WearBudget(POLICY))
    unwashed.offer("a", 0.0)
    unwashed.take(0.0)
    unwashed.started(0.0)
    unwashed.shown("a")
    assert unwashed.due(40.0) == DAY  # a frame at normal speed (or a panel without speeds) stays
