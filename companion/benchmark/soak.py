"""Soak: thousands of commands of random legal play of every game, through HTTP; memory must stay flat.

Run by the benchmark as `python -m companion.benchmark.soak STATE_DIR COMMANDS PAGES`: it serves like
`companion demo`, gives every seat to a phone, prints their tokens, plays once the benchmark has
opened its phones' pages, and prints one "result {json}" line.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from companion.benchmark.load import post
from companion.benchmark.process import Daemon, open_pages
from companion.benchmark.stats import Figure, count
from companion.core.session import UNDO_IN_MEMORY

ROUND = 400  # commands at most per game before the next one starts (free dice never end)
UNDOS = 0.05  # the share of commands that are the host's undo


def resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main(state_dir: str, commands: int, pages: int) -> None:
    from companion.benchmark.players import legal_command
    from companion.benchmark.target import serve_watched
    from companion.core import registry

    device, tokens = serve_watched(state_dir, pages)
    table, port = device.table, int(os.environ["COMPANION_PORT"])
    host = {"X-Host-Token": table.host_token()}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    rng, names = random.Random(7), registry.names()
    done = refused = deepest = 0
    failures: list[str] = []
    warm = None  # (commands, MB) once every game has been played once
    trace: list[float] = []

    def send(body: dict, headers: dict) -> None:
        nonlocal done, refused
        status, answer = post(conn, "/api/command", body, headers)
        if status == 200:
            done += 1
        elif status == 409:
            refused += 1
        else:
            failures.append(f"{body['kind']}: {status} {answer}")

    rounds = 0
    while done < commands and len(failures) < 10:
        name = names[rounds % len(names)]
        send({"kind": "new_game", "args": {"game": name}}, host)
        spec = registry.get(name)
        seats = spec.seats_in_play(table.session.options)
        for _ in range(ROUND):
            state = table.session.state
            if done >= commands or spec.over(state):
                break
            if rng.random() < UNDOS:
                send({"kind": "undo"}, host)
            else:
                command = legal_command(spec, state, seats, rng)
                if command is None:
                    break
                send({"kind": command.kind, "args": command.args},
                     {"X-Seat-Token": tokens[command.seat]} if command.seat is not None else host)
            deepest = max(deepest, table.session.remembered())
            if done >= len(trace) * 1000:
                trace.append(round(resident_mb(), 1))  # the memory every 1,000 commands
        rounds += 1
        if warm is None and (rounds == len(names) or done >= commands * 0.3):
            warm = (done, resident_mb())
    print("result " + json.dumps({
        "commands": done, "refused": refused, "failures": failures, "games": rounds, "deepest": deepest,
        "warm": warm, "final": (done, resident_mb()), "version": table.version, "trace": trace}),
          flush=True)
    time.sleep(3600)  # the benchmark stops this process once it has read the result


def measure(commands: int = 10_000, pages: int = 10, prefix: tuple[str, ...] = ()) -> list[Figure]:
    """Random legal play of every game in turn for `commands` commands, `pages` phones watching."""
    with tempfile.TemporaryDirectory() as tmp:
        daemon = Daemon(Path(tmp), prefix, module="companion.benchmark.soak",
                        args=(tmp, str(commands), str(pages)))
        live = []
        try:
            daemon.wait_serving()
            live = open_pages(daemon.port, pages, json.loads(daemon.wait_line("tokens ")))
            result = json.loads(daemon.wait_line("result ", timeout=max(600.0, commands * 0.5)))
            missed = sum(page.wait(result["version"], timeout=30) is None for page in live)
            gaps = sum(page.gaps() for page in live)
        finally:
            for page in live:
                page.close()
            daemon.stop()
    (warm_at, warm_mb), (_, final_mb) = result["warm"], result["final"]
    growth = 100 * (final_mb - warm_mb) / warm_mb
    print(f"soak: memory every 1,000 commands (MB): {' '.join(map(str, result['trace']))}", file=sys.stderr)
    return [
        count(f"soak: commands applied, {result['games']} games in turn", result["commands"], "", commands,
              most=False),
        count("soak: failed commands (not a refusal)", len(result["failures"]), "", 0),
        count("soak: pages that missed the last command", missed, "", 0),
        count("soak: versions skipped without a snapshot", gaps, "", 0),
        count(f"soak: memory after warm-up ({warm_at} commands)", round(warm_mb, 1), "MB"),
        count("soak: memory at the end", round(final_mb, 1), "MB"),
        count("soak: memory growth after warm-up", round(growth, 1), "%", 5),
        count("soak: earlier states undo holds, at most", result["deepest"], "", 2 * UNDO_IN_MEMORY),
    ]


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
