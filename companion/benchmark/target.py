"""The daemon the memory figure watches: the simulator, with a player that plays a full game of each game.

Run by the benchmark as `python -m companion.benchmark.target STATE_DIR PHONES`: it serves like `companion
demo`, prints its seat tokens, waits until PHONES live pages are open, plays, then prints "played". With
PHONES 0 it then exits, so `/usr/bin/time -v` can report its peak.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time

from companion.benchmark.players import play_game
from companion.config import Config
from companion.core import registry
from companion.core.seats import MAX_SEATS
from companion.gamekit.contract import Command
from companion.wiring import Companion


def serve_watched(state_dir: str, phones: int):
    """The simulator serving on $COMPANION_PORT with every seat given to a phone, once `phones` live
    pages are open (the benchmark opens them when it reads the printed tokens)."""
    from companion.malloc import few_arenas

    few_arenas()  # as `companion demo` and `companion run` do
    port = int(os.environ["COMPANION_PORT"])
    # No pace (docs/security.md): the benchmark's phones send at the rate it measures, faster than hands.
    device = Companion(Config(state_dir=state_dir, host="127.0.0.1", port=port, sends_per_second=0,
                              url=f"http://127.0.0.1:{port}/"), simulate=True).start()
    table = device.table

    def claimed(seat: int) -> str:
        return table.seating(lambda roster, count: roster.claim(seat, f"Player {seat + 1}", count))
    tokens = [claimed(seat) for seat in range(MAX_SEATS)]
    print("tokens " + json.dumps(tokens), flush=True)
    assert device.server is not None  # start() serves
    hub = device.server.app.extensions["companion.hub"]
    deadline = time.monotonic() + 60
    while hub.open_streams < phones:
        if time.monotonic() > deadline:
            raise SystemExit(f"only {hub.open_streams} of {phones} live pages opened within 60 s")
        time.sleep(0.05)
    return device, tokens


def main(state_dir: str, phones: int) -> None:
    device, _ = serve_watched(state_dir, phones)
    table = device.table
    rng = random.Random(7)
    for name in registry.names():
        if not table.call(Command("new_game", {"game": name})).ok:
            raise SystemExit(f"could not start {name}")
        spec = registry.get(name)

        def apply(command):
            table.call(command)
            return table.session.state

        played = play_game(spec, table.session.options, rng, apply, table.session.state,
                           limit=300 if not spec.hidden and name == "dice" else 3000)
        print(f"game {name}: {played} commands", flush=True)
    print("played", flush=True)
    print(f"version {table.version}", flush=True)
    if phones == 0:  # nobody reads this process from /proc: its peak is its own to report (time -v)
        device.stop()
        return
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
