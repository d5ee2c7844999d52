"""Waiting for something another thread does, with a deadline instead of a fixed sleep."""

from __future__ import annotations

import time


def eventually(predicate, timeout: float = 10.0, every: float = 0.01):
    """The first truthy value of `predicate()` within `timeout` seconds, else its last value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    return predicate()


def wait_for(predicate, timeout: float = 20.0, every: float = 0.05):
    """Like `eventually`, but a timeout fails the test, naming what was awaited."""
    value = eventually(predicate, timeout, every)
    if not value:
        raise AssertionError(f"timed out after {timeout} s waiting for {predicate}")
    return value
