"""When the glass may refresh next: a quiet time per burst, a wear budget, a minimum gap, one a day, and
the frames the table must see at the next refresh the panel's rated life allows."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.devices.panels import PanelModel

NOTHING = object()  # no frame wanted (keys themselves may be anything, even None)
DAY = 24 * 3600.0


@dataclass(frozen=True)
class WearPolicy:
    """The panel makers' limits as numbers (docs/panels.md says why these defaults).

    - At most `per_hour` refreshes start in any rolling `window` (an hour): on average one per 3 minutes.
    - Bursts: `burst` refreshes may follow each other at the minimum gap while a game is played; the
      budget then refills at `per_hour - burst` per `window`. A full burst plus an hour's refill is
      `per_hour`, so the rolling limit holds by itself: the glass is paced, never frozen for the rest
      of an hour because a burst spent it.
    - Two refreshes start at least `gap` seconds apart: the panel's refresh time plus a rest.
    - The glass refreshes at least once every `daily` seconds, even with nothing new to show.
    - A frame the table must see (a card turned up, a winner, or any frame of a table without phones)
      skips the burst and its pace: it waits only for the gap, and for fewer than `limit` refreshes of
      any kind in the rolling window; `limit` comes from the panel's rated life (`policy_for`). The
      pace of the other frames is unchanged by them.
    """

    per_hour: int = 20
    burst: int = 4
    gap: float = 45.0
    daily: float = DAY
    window: float = 3600.0
    limit: int = 0  # the most refreshes of any kind in a window; 0: per_hour (no must-see allowance)

    def __post_init__(self):
        if not 0 < self.burst < self.per_hour:
            raise ValueError(f"burst {self.burst} must be at least 1 and less than per_hour {self.per_hour}")
        if self.limit and self.limit < self.per_hour:
            raise ValueError(f"limit {self.limit} must be at least per_hour {self.per_hour}")

    @property
    def most(self) -> int:
        """The most refreshes of any kind in any rolling window."""
        return self.limit or self.per_hour

    @property
    def pace(self) -> float:
        """Seconds per refresh once a burst is spent."""
        return self.window / (self.per_hour - self.burst)


def gap_for(refresh: float, margin: float = 10.0) -> float:
    """The minimum gap between two refreshes of a panel that takes `refresh` seconds."""
    return refresh + margin


@dataclass(frozen=True)
class Life:
    """What a panel's wear budget is derived from (docs/panels.md): its rated life in refreshes, and how
    much a table plays. Assumed: the makers publish no figure for these panels, and a million refreshes
    is the common rating of e-paper; ten hours of play a week for ten years is a keen club's table."""

    refreshes: float = 1_000_000  # a panel's own rating is `PanelModel.rated`
    hours_a_week: float = 10.0
    years: float = 10.0

    @property
    def per_playing_hour(self) -> float:
        """Refreshes an hour of play may spend: the rated life, less a refresh a day (the idle glass's),
        spread over every playing hour. 1e6 less 3,652 daily ones over 5,200 hours: about 191.6."""
        days = self.years * 365.25
        return (self.refreshes - days) / (self.hours_a_week * 52 * self.years)


LIFE = Life()


def policy_for(model: PanelModel, per_hour: int = 20, burst: int = 4, life: Life | None = None) -> WearPolicy:
    """The wear policy of panel `model`: its gap, the makers' pace for ordinary frames (`per_hour`,
    `burst`), and the limit its rated life (`model.rated` refreshes, at `life`'s play) sets on all
    frames, must-see ones included, never more than its gap lets it make anyway."""
    life = life or Life(model.rated)
    gap = gap_for(model.refresh)
    limit = max(per_hour, min(math.floor(life.per_playing_hour), math.floor(3600.0 / gap)))
    return WearPolicy(per_hour, burst, gap, limit=limit)


class WearBudget:
    """The refreshes started so far, and the earliest time the next one may start. Pure: times are given."""

    def __init__(self, policy: WearPolicy):
        self.policy = policy
        self.starts: deque[float] = deque()  # starts within the last window, oldest first
        self.ordinary: deque[float] = deque()  # ... of frames that were not must-see
        self._tokens = float(policy.burst)
        self._tokens_at: float | None = None  # when _tokens was last brought up to date
        self.last: float | None = None  # the last start

    def _tokens_now(self, now: float) -> float:
        if self._tokens_at is None:
            return self._tokens
        refill = (now - self._tokens_at) / self.policy.pace
        return min(float(self.policy.burst), self._tokens + refill)

    def allowed(self, now: float, must: bool = False) -> float:
        """The earliest time at or after `now` a refresh may start (every limit met); `must`: a frame the
        table must see, held only by the gap and the rated life's limit."""
        p = self.policy
        at = now
        if self.last is not None:
            at = max(at, self.last + p.gap)
        at = max(at, _room(self.starts, now, p.window, p.most))
        if not must:
            at = max(at, _room(self.ordinary, now, p.window, p.per_hour))
            tokens = self._tokens_now(now)
            if tokens < 1.0:
                at = max(at, now + (1.0 - tokens) * p.pace)
        # Rounding of the refill may leave a hair under one token at `at`: never answer a time that is
        # still refused, so a caller waiting until it never spins.
        while not self._may(at, must):
            at = math.nextafter(at + 1e-6, math.inf)
        return at

    def _may(self, at: float, must: bool = False) -> bool:
        p = self.policy
        if self.last is not None and at < self.last + p.gap:
            return False
        if sum(1 for s in self.starts if s > at - p.window) >= p.most:
            return False
        if must:
            return True
        if sum(1 for s in self.ordinary if s > at - p.window) >= p.per_hour:
            return False
        return self._tokens_now(at) >= 1.0 - 1e-9

    def spend(self, now: float, must: bool = False) -> None:
        """A refresh starts at `now` (which `allowed` gave, or later); `must`: a must-see frame, which
        spends none of the ordinary frames' burst."""
        p = self.policy
        if not must:
            self._tokens = max(0.0, self._tokens_now(now) - 1.0)
            self._tokens_at = now
            self.ordinary.append(now)
        self.last = now
        self.starts.append(now)
        for starts in (self.starts, self.ordinary):
            while starts and starts[0] <= now - p.window:
                starts.popleft()

    def daily_due(self) -> float | None:
        """When the glass must refresh even with nothing new (None before the first refresh)."""
        return None if self.last is None else self.last + self.policy.daily


def _room(starts: deque[float], now: float, window: float, most: int) -> float:
    """When `starts` leave room for one more in the rolling `window` (its oldest leaves it), or `now`."""
    recent = [s for s in starts if s > now - window]
    return recent[len(recent) - most] + window if len(recent) >= most else now


class RefreshScheduler:
    """Which frame to draw next and when. Pure: the refresh thread and the benchmark give it the time.

    - `offer(key, now)` records the newest state wanted; an older one not yet drawn is dropped.
    - A burst costs one frame: a frame is due once offers have been quiet for `quiet` seconds, or
      `longest` after the first one waiting; the first frame after start is due at once.
    - With a `budget`, a frame is also held until the wear budget allows it; then the newest state
      is the one drawn. With nothing new for a day, the state on the glass is drawn again.
    - A frame shown at a fast speed (washed-out blues and greens) is drawn again at normal speed once
      the table has been quiet for `settle` seconds: an idle glass shows true colours.
    - A state equal to the one last drawn is not drawn again (except for those two).
    - A state offered as `must` (the table must see it) is held only by the budget's gap and limit: it
      goes at the next refresh the panel can make. A newer state offered before it is drawn inherits
      that: the glass then shows the newest state, which includes what had to be seen or follows it.
    """

    def __init__(self, budget: WearBudget | None = None, quiet: float = 0.15, longest: float = 1.0,
                 settle: float = 600.0):
        self.budget = budget
        self.quiet, self.longest, self.settle = quiet, longest, settle
        self.wanted = NOTHING
        self.fast = False  # whether the frame wanted is a play frame (the panel's fast speed, if it has one)
        self.must = False  # whether the frame wanted is one the table must see
        self._going_must = False  # whether the frame last taken was
        self.drawn = NOTHING  # the key of the frame last on the glass
        self.washed = False  # whether that frame went at a fast speed
        self._first_offer = self._last_offer = 0.0

    def offer(self, key, now: float, fast: bool = False, must: bool = False) -> None:
        if self.wanted is NOTHING:
            self._first_offer, self.must = now, False
        self.wanted, self._last_offer, self.fast = key, now, fast
        self.must = self.must or must

    def due(self, now: float) -> float | None:
        """When the next frame should be drawn (maybe in the past); None: nothing to do until an offer."""
        if self.wanted is NOTHING:
            if self.budget is None or self.drawn is NOTHING:
                return None
            daily = self.budget.daily_due()
            if daily is None:
                return None
            if self.washed:
                daily = min(daily, self._last_offer + self.settle)
            return self.budget.allowed(max(daily, now) if self.washed else daily)
        if self.drawn is NOTHING:
            at = now  # the glass shows nothing of ours yet
        else:
            at = min(self._last_offer + self.quiet, self._first_offer + self.longest)
        if self.budget is not None and self.wanted != self.drawn:
            at = self.budget.allowed(max(at, now), self.must)
        return at

    def take(self, now: float):
        """The key to draw now, and whether it is the same state again (the daily refresh, or true colours
        after a fast one), at normal speed; call once due."""
        if self.wanted is NOTHING:
            self._going_must = False
            return self.drawn, True
        key, self.wanted, self._going_must, self.must = self.wanted, NOTHING, self.must, False
        return key, False

    def retry(self, key) -> None:
        """A frame that failed: it is wanted again unless a newer one was offered meanwhile."""
        if self.wanted is NOTHING:
            self.wanted = key
        self.must = self.must or self._going_must

    def started(self, now: float) -> None:
        """A frame goes to the glass at `now`: it spends the budget."""
        if self.budget is not None:
            self.budget.spend(now, self._going_must)

    def shown(self, key, washed: bool = False) -> None:
        """`key` is on the glass; `washed`: at a fast speed, to be drawn again at normal speed when quiet."""
        self.drawn, self.washed = key, washed
