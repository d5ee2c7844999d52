"""The refresh scheduler on a fake clock: the wear budget, the minimum gap, the newest state, one a day."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.benchmark.panel import lags, play_out
from companion.devices.panels import panel
from companion.devices.wear import DAY, LIFE, Life, RefreshScheduler, WearBudget, WearPolicy, policy_for

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


@pytest.mark.slow
def test_the_evening_bench_keeps_every_game_within_the_budget_and_was_over_it_before():
    from companion.benchmark import panel as bench

    model = panel("impression-7.3")
    policy = policy_for(model)
    figures = {f.name: f for f in bench.measure(model.name)}
    hourly = {name: f.p50 for name, f in figures.items() if "refreshes per hour" in name}
    assert len(hourly) == 3 * 5
    for name, value in hourly.items():
        assert value > POLICY.per_hour if name.endswith("before") else value <= policy.limit, (name, value)
    # a frame the table must see, and every frame of a table without phones, goes at the next refresh the
    # panel can make: at worst one refresh under way and the gap after it
    prompt = [f for name, f in figures.items() if "lag" in name and f.samples
              and ("must-see, with phones" in name or name.endswith("no phones"))]
    assert len(prompt) == 4 + 2 * 5 - 1  # free dice reveals nothing the glass must show at once
    for figure in prompt:
        assert figure.worst <= policy.gap + model.refresh + 1.0, figure
    # the others keep the makers' pace: minutes behind a busy table, as before
    assert figures["gewalt: the glass's lag, the rest, with phones"].p50 > 60.0
    assert figures["3 idle days after one state: refreshes (one a day keeps the glass alive)"].p50 == 4


def test_the_budget_comes_from_the_panel_s_rated_life():
    assert LIFE.per_playing_hour == pytest.approx((1e6 - 3652.5) / 5200)  # a refresh a day is set aside
    impression, spectra = policy_for(panel("impression-7.3")), policy_for(panel("spectra-7.3"))
    assert (impression.gap, impression.limit) == (45.0, 80)  # its gap allows fewer than its life would
    assert (spectra.gap, spectra.limit) == (23.0, 156)
    fragile = policy_for(panel("spectra-7.3"), life=Life(refreshes=300_000))
    assert fragile.limit == 56  # (300,000 - 3,652.5) / 5,200 hours of play, rounded down
    assert (fragile.per_hour, fragile.burst) == (20, 4)  # the ordinary frames' pace is the makers'


def test_a_must_see_frame_goes_at_the_next_refresh_the_panel_can_make_with_the_burst_spent():
    policy = policy_for(panel("impression-7.3"))
    arrivals = [(t * 10.0, t + 1) for t in range(90)] + [(900.0, 100)]  # a busy table spent the burst
    refreshes = play_out(RefreshScheduler(WearBudget(policy)), arrivals, 35.0, 2000.0,
                         must=lambda key: key == 100)
    before = [r for r in refreshes if r.start < 900.0]
    shown = next(r for r in refreshes if r.key == 100)
    assert 900.0 <= shown.start <= max(900.15, before[-1].start + policy.gap)
    ordinary = play_out(RefreshScheduler(WearBudget(policy)), arrivals, 35.0, 2000.0)
    assert next(r for r in ordinary if r.key == 100).start > shown.start + 100.0  # without it: the pace


def test_a_must_see_state_the_table_moved_past_still_goes_at_once_as_the_newest():
    scheduler = RefreshScheduler(WearBudget(POLICY))
    for t in range(5):  # the burst is spent
        scheduler.offer(t, t * 50.0)
        scheduler.take(t * 50.0)
        scheduler.started(t * 50.0)
        scheduler.shown(t)
    scheduler.offer("card turned up", 300.0, must=True)
    scheduler.offer("the next player's roll", 300.1)
    assert scheduler.due(300.1) == pytest.approx(300.25)
    assert scheduler.take(300.25) == ("the next player's roll", False)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_a_long_evening_never_wears_the_glass_past_its_rated_life(data):
    model = panel(data.draw(st.sampled_from(["impression-7.3", "spectra-7.3", "phat-black"]), label="panel"))
    policy = policy_for(model)
    phones = data.draw(st.booleans(), label="phones")
    hours = 5.0
    gaps = data.draw(st.lists(st.floats(0.0, 90.0), min_size=50, max_size=400), label="gaps")
    arrivals = [a for a in arrivals_from(gaps) if a[0] < hours * 3600]
    must = {version for _, version in arrivals if not phones or data.draw(st.booleans(), label="must")}
    refreshes = play_out(RefreshScheduler(WearBudget(policy)), arrivals, model.refresh, hours * 3600,
                         must=must.__contains__)
    starts = [r.start for r in refreshes]
    assert all(b - a >= policy.gap - 1e-6 for a, b in zip(starts, starts[1:], strict=False))
    for i, s in enumerate(starts):
        assert sum(1 for t in starts[i:] if t < s + policy.window) <= policy.limit
    assert len(starts) <= LIFE.per_playing_hour * hours
    assert refreshes[-1].key == arrivals[-1][1] or arrivals[-1][0] > hours * 3600 - policy.window


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
