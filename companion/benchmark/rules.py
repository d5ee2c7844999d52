"""Rules throughput: random legal full games per second, per game, on the pure rules."""

from __future__ import annotations

import random
import time

from companion.benchmark.players import legal_command
from companion.benchmark.stats import Figure, count
from companion.core import registry
from companion.gamekit.draws import Draws


def throughput(seconds: float = 3.0) -> list[Figure]:
    figures = []
    for name in registry.names():
        spec = registry.get(name)
        rng = random.Random(1)
        commands = finished = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            options, state = spec.start({}, Draws())
            seats = spec.seats_in_play(options)
            for _ in range(3000):
                if spec.over(state):
                    finished += 1
                    break
                command = legal_command(spec, state, seats, rng)
                if command is None:
                    break
                state, _ = spec.play(state, command, Draws())
                commands += 1
            else:
                break  # a game that never ends (free dice): commands per second only
        elapsed = time.perf_counter() - start
        if finished:
            figures.append(count(f"rules: {name}, random full games", round(finished / elapsed, 2),
                                 "games/s"))
        figures.append(count(f"rules: {name}, random legal commands", round(commands / elapsed), "cmd/s"))
    return figures
