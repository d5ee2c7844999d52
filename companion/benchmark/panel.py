"""The glass over an evening: refreshes per hour and the glass's lag, on a fake clock through the real
scheduler, without and with the wear budget, for the frames the table must see apart from the rest, at a
table with phones and at one with none (`companion bench panel`)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from companion.benchmark.players import legal_command
from companion.benchmark.stats import Figure, count, percentile
from companion.core import registry
from companion.devices.panels import panel, speed_for
from companion.devices.wear import RefreshScheduler, WearBudget, WearPolicy, policy_for
from companion.gamekit.draws import ScriptedDraws

# Seconds between two commands at a table, on average (a roll, a bid, a move): each game's own pace.
PACE = {"dice": 20.0, "crash": 25.0, "gewalt": 30.0, "schacht": 35.0, "rallye": 12.0}
EVENING = 2 * 3600.0

Key = TypeVar("Key")


@dataclass(frozen=True)
class Refresh(Generic[Key]):
    start: float
    end: float
    key: Key


def play_out(scheduler: RefreshScheduler, arrivals: Sequence[tuple[float, Key]], glass: float,
             until: float, must: Callable[[Key], bool] = lambda key: False) -> list[Refresh[Key]]:
    """Run `scheduler` on a fake clock from 0 to `until`: each (time, key) of `arrivals` (in time order)
    is offered (as one the table must see if `must(key)`), and each frame it gives takes `glass` seconds
    on the glass. Returns the refreshes."""
    refreshes: list[Refresh[Key]] = []
    now, i = 0.0, 0
    busy: Refresh[Key] | None = None  # the refresh on the glass now
    while True:
        arrival = arrivals[i][0] if i < len(arrivals) else math.inf
        due = scheduler.due(now) if busy is None else None
        events = [arrival, busy.end if busy is not None else math.inf, due if due is not None else math.inf]
        at = max(now, min(events))
        if at > until:
            return refreshes
        now = at
        if busy is not None and now >= busy.end:
            scheduler.shown(busy.key)
            busy = None
        elif i < len(arrivals) and arrivals[i][0] <= now:
            scheduler.offer(arrivals[i][1], now, must=must(arrivals[i][1]))
            i += 1
        elif due is not None and due <= now:
            key, again = scheduler.take(now)
            if key == scheduler.drawn and not again:
                continue  # the same state as on the glass: not drawn
            scheduler.started(now)
            busy = Refresh(now, now + glass, key)
            refreshes.append(busy)


def lags(arrivals: list[tuple[float, int]], refreshes: list[Refresh[int]]) -> list[float]:
    """For each state (keys are increasing versions): seconds until the glass showed it or a newer one."""
    out, r = [], 0
    for at, version in arrivals:
        while r < len(refreshes) and refreshes[r].key < version:
            r += 1
        if r < len(refreshes):
            out.append(refreshes[r].end - at)
    return out


def evening(game: str, seed: int, hours: float = EVENING / 3600) -> tuple[list[tuple[float, int]], set[int]]:
    """Seeded random legal play of `game` at its table's pace: (time, version) of each command that
    changed what the glass shows, and the versions the table must see at once (`GameSpec.must_see`). A
    game that ends starts again, as a table does."""
    spec = registry.get(game)
    rng = random.Random(seed)
    draws = ScriptedDraws(rng)
    options, state = spec.start({}, draws)
    seats = spec.seats_in_play(options)
    arrivals: list[tuple[float, int]] = []
    must: set[int] = set()
    now, version = 0.0, 0
    while True:
        now += rng.expovariate(1.0 / PACE.get(game, 20.0))
        if now >= hours * 3600:
            return arrivals, must
        command = legal_command(spec, state, seats, rng,
                                draws=lambda: ScriptedDraws(random.Random(rng.random())))
        seen = False
        if command is None or spec.over(state):
            options, state = spec.start({}, draws)
        else:
            before = spec.public_json(state)
            state, events = spec.play(state, command, draws)
            if spec.public_json(state) == before:
                continue
            seen = spec.must_see(state, events)
        version += 1
        arrivals.append((now, version))
        if seen:
            must.add(version)


def measure(panel_name: str = "impression-7.3", seed: int = 1,
            policy: WearPolicy | None = None) -> list[Figure]:
    """Refreshes per hour and the glass's lag (p50/p99) in a 2-hour evening of each game: before (a frame
    whenever the panel is free), and with the wear budget at a table with phones (only the frames the
    rules say the table must see skip the pace) and with none (every frame does). The lag of the frames
    the table must see is given apart from the rest's."""
    model = panel(panel_name)
    policy = policy or policy_for(model)
    figures = []
    for game in registry.names():
        arrivals, must = evening(game, seed)
        everything = {version for _, version in arrivals}
        # before: every frame at the panel's one speed; after: play frames at its fast one, if it has one
        fast = model.seconds(speed_for(model, True))
        for label, budget, glass, urgent in (("before", None, model.refresh, must),
                                             ("with phones", WearBudget(policy), fast, must),
                                             ("no phones", WearBudget(policy), fast, everything)):
            refreshes = play_out(RefreshScheduler(budget), arrivals, glass, EVENING + 3600,
                                 must=urgent.__contains__)
            during = [r for r in refreshes if r.start < EVENING]
            states = f"{len(arrivals)} states, {len(must)} must-see"
            figures.append(count(f"{game} ({states}): refreshes per hour, {label}",
                                 round(len(during) / (EVENING / 3600), 1), "/h"))
            for part, versions in (("must-see", must), ("the rest", everything - must)):
                name = f"{game}: the glass's lag, {part}, {label}"
                figures.append(_lag(name, arrivals, versions, refreshes))
    figures.append(count("3 idle days after one state: refreshes (one a day keeps the glass alive)",
                         idle_day(panel_name), "frames"))
    return figures


def _lag(name: str, arrivals: list[tuple[float, int]], versions: Collection[int],
         refreshes: list[Refresh[int]]) -> Figure:
    waits = sorted(lags([a for a in arrivals if a[1] in versions], refreshes))
    if not waits:
        return Figure(name, "s", math.nan, samples=0)
    return Figure(name, "s", round(percentile(waits, 50), 1), round(percentile(waits, 99), 1),
                  round(waits[-1], 1), len(waits))


def idle_day(panel_name: str = "impression-7.3") -> int:
    """Refreshes in three days with one state offered at start: the daily refresh keeps the glass alive."""
    model = panel(panel_name)
    scheduler = RefreshScheduler(WearBudget(policy_for(model)))
    return len(play_out(scheduler, [(0.0, 1)], model.refresh, 3 * 86400.0))
