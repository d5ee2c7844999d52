"""Widths of the Crazy Race pages on a 390x844 phone in Debian's chromium, for before/after notes.

Run from the worktree: `.venv/bin/python tests/bench_crazy_race_widths.py`. It prints, in px, the page's
scrollWidth and the right edge of the Schacht lanes table (seat page and scoreboard, stage 4 of a 4-player
game), of a Gewalt seat page holding counter, extra turn, no roll and plus 4, and of its final scores table.
A page that fits has every figure at most 390.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from gewalt_play import random_command as gewalt_command  # noqa: E402
from schacht_play import random_command as schacht_command  # noqa: E402
from webfixtures import CHROMIUM_ARGS, live_server, running_app  # noqa: E402

from companion.gamekit.contract import Command  # noqa: E402
from companion.games.gewalt import SPEC as GEWALT  # noqa: E402
from companion.games.gewalt import data as gewalt_data  # noqa: E402

NAMES = ("François-Hélène Ødegård", "Zoé", "Maximilien", "Anne-Sophie")
EDGES = """(selector) => { const table = document.querySelector(selector);
  return {page: document.documentElement.scrollWidth,
          table: table ? Math.round(table.getBoundingClientRect().right) : null}; }"""


def name_seats(runtime, players: int) -> None:
    for seat in range(players):
        runtime.table.seating(lambda roster, count, seat=seat: roster.claim(seat, NAMES[seat], count))


def measure(browser, url: str, version: int, selector: str) -> dict:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                              locale="fr-FR")
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector(f"body[data-version='{version}']")
    edges = page.evaluate(EDGES, selector)
    ctx.close()
    return edges


def main() -> None:
    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        with (running_app(Path(tmp) / "s", game="schacht", options={"players": 4}) as (runtime, app),
              live_server(app) as srv):
            name_seats(runtime, 4)
            rng = random.Random(7)
            while runtime.table.session.state.stage < 3:
                runtime.table.call(schacht_command(runtime.table.session.state, rng))
            version = runtime.table.version
            seat_url = f"{srv.url}seat/{runtime.table.seat_token(0)}"
            out["schacht seat page"] = measure(browser, seat_url, version, "#schacht-lanes")
            out["schacht scoreboard"] = measure(browser, srv.url, version, "#schacht-lanes")
        lines = [line for line in GEWALT.bundled("cards").text.splitlines()
                 if line.split("=")[0].strip() not in gewalt_data.ACTIONS]
        text = "\n".join([*lines, "counter = 5", "extra_turn = 5", "no_roll = 5", "plus_4 = 5"]) + "\n"
        args = {"game": "gewalt", "options": {"players": 3, "expert": True},
                "data": {"cards": {"name": "four.toml", "text": text}}}
        with (running_app(Path(tmp) / "g", game="gewalt", options={"players": 3}) as (runtime, app),
              live_server(app) as srv):
            name_seats(runtime, 3)
            for _ in range(100):
                runtime.table.call(Command("new_game", args), host=True)
                hands = runtime.table.session.state.actions
                holders = [seat for seat, hand in enumerate(hands) if len(set(hand)) == 4]
                if holders:
                    break
            url = f"{srv.url}seat/{runtime.table.seat_token(holders[0])}"
            out["gewalt seat, four action cards"] = measure(browser, url, runtime.table.version,
                                                            "#gewalt-action-hand")
            rng = random.Random(3)
            while runtime.table.session.state.turn is not None:
                runtime.table.call(gewalt_command(runtime.table.session.state, rng))
            version = runtime.table.version
            out["gewalt seat, final scores"] = measure(browser, url, version, "#gewalt-score-table")
        browser.close()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
