"""A human pace for what phones send: a token bucket per seat, one for the host, one per other address."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

BURST = 20  # sends in a row: a few quick taps, a whole turn, never refused (config: send_burst)
RATE = 5.0  # sends a second after that, faster than any hand (config: sends_per_second)
REMEMBERED = 1024  # buckets kept: a flood of addresses cannot grow memory without bound


class Pace:
    """Token buckets on the monotonic clock, the REMEMBERED most recent senders' only: the least recent
    goes first, and it has long refilled (a sender pushed out starts again with a full bucket)."""

    def __init__(self, burst: int = BURST, rate: float = RATE, clock=time.monotonic):
        self.burst, self.rate = float(burst), rate
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, when)

    def take(self, key: str) -> float:
        """0 with one send of `key`'s taken, or the seconds it must wait first (then nothing is taken)."""
        with self._lock:
            now = self._clock()
            tokens, at = self._buckets.pop(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - at) * self.rate)
            wait = 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate
            if not wait:
                tokens -= 1.0
            self._buckets[key] = (tokens, now)
            while len(self._buckets) > REMEMBERED:
                self._buckets.popitem(last=False)
            return wait

    def __len__(self) -> int:
        return len(self._buckets)


__all__ = ["BURST", "RATE", "REMEMBERED", "Pace"]
