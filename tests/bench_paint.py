"""Benchmark: a phone's first paint after a command, in a real browser, with the daemon as fast as a Pi's.

Run: .venv/bin/python tests/bench_paint.py [--commands 100] [--pi-zero]

The scoreboard is open in Debian's chromium at 390×844. Each round the page itself posts a roll (the
host's) and times, on its own clock, from the send to the first animation frame after the page changed.
With --pi-zero only the daemon is confined to a tenth of one core (as `companion bench --pi-zero` does);
the browser stands for a phone, which is not the Pi. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

from webfixtures import CHROMIUM, CHROMIUM_ARGS

from companion.benchmark.confine import Confinement
from companion.benchmark.process import Daemon
from companion.benchmark.stats import table, timed

ROUND = """async (host) => {
  const changed = new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      seen.disconnect();
      requestAnimationFrame(() => resolve(performance.now()));
    });
    seen.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
  });
  const sent = performance.now();
  const answer = await fetch("/api/command", {method: "POST", body: JSON.stringify({kind: "roll"}),
    headers: {"Content-Type": "application/json", "X-Host-Token": host}});
  if (!answer.ok) throw new Error("roll refused: " + answer.status);
  return (await changed) - sent;
}"""


def measure(commands: int, launch, gap: float = 0.0) -> list[float]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        daemon = Daemon(Path(tmp), launch=launch)
        try:
            daemon.wait_serving()
            host = daemon.host_token()
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 390, "height": 844})
                page.goto(f"http://127.0.0.1:{daemon.port}/")
                page.wait_for_load_state("networkidle")
                for _ in range(3):  # the page's first updates (fonts, the first event) are not the figure
                    page.evaluate(ROUND, host)
                delays = []
                for _ in range(commands):
                    delays.append(page.evaluate(ROUND, host) / 1000)
                    page.wait_for_timeout(gap * 1000)
                browser.close()
        finally:
            daemon.stop()
    return delays


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=100)
    parser.add_argument("--gap", type=float, default=1.0,
                        help="seconds between commands (a table's pace; 0 for back-to-back commands)")
    parser.add_argument("--pi-zero", action="store_true", help="the daemon confined as on a Pi Zero 2 W")
    args = parser.parse_args()
    here = measure(args.commands, subprocess.Popen, args.gap)
    figures = [timed("command sent → first paint of the change", here, 100)]
    title = "This machine"
    if args.pi_zero:
        limit = Confinement()
        try:
            figures.append(timed(f"the same, daemon confined ({limit.how})",
                                 measure(args.commands, limit.popen, args.gap), 100))
        finally:
            limit.close()
        title += " and the Pi Zero 2 W stand-in"
    print(table(figures, title))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
