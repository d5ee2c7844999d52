"""The move on screen: on a 390x844 phone, the seat the rules wait on sees the control of its move without
scrolling, in every game (the bundled ones, and tests/duel on the generated pages).

Each game is driven by seeded random legal play through the HTTP API (as tests/test_phone_pages.py does);
at each new kind of moment, the page of every seat the rules wait on is opened at the top, and the
controls that make that seat's move (ROLL, the bid, the answer, Send...) must be on screen: each visible,
enabled one inside the 390x844 viewport, not covered by anything, and at least 44 px high; at least one
is offered; the page does not scroll sideways.
"""

from __future__ import annotations

import random

import duel
import pytest
from test_phone_pages import PHONE, STEPS, next_command, phase_of
from webfixtures import live_server, plug_game, post_json, running_app

from companion.core import registry

pytestmark = [pytest.mark.browser, pytest.mark.slow]
# Each game with its default options, and Gewalt's expert game too (an attack waits on its target's answer).
GAMES = [*((game, None) for game in registry.names()), ("duel", None),
         ("gewalt", {"players": 4, "expert": True})]
PHASES_PER_GAME = 8

# The controls that make a seat's move in each game: what it must tap when the rules wait on it.
MOVE_CONTROLS = {
    "dice": "#roll",
    "gewalt": "#gewalt-roll-button, #gewalt-counter, #gewalt-allow",
    "schacht": "#schacht-sides button, #schacht-pass, #schacht-move, #schacht-locos button, "
               "#schacht-takeback-cards button, #schacht-next",
    "crash": "#crash-roll, #crash-next, #crash-end, #crash-mark-cars button",
    "rallye": "#rallye-roll, #rallye-ask-buttons button, #rallye-choose-buttons button, "
              "#rallye-trim-buttons button, #rallye-place-button",
    "duel": "#command-forms button.send",
}

ON_SCREEN = """([selector, width, height]) => {
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const found = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!visible(el) || el.disabled) continue;
    const box = el.getBoundingClientRect();
    const x = Math.min(Math.max(box.left + box.width / 2, 0), width - 1);
    const y = Math.min(Math.max(box.top + box.height / 2, 0), height - 1);
    const top = document.elementFromPoint(x, y);
    found.push({
      what: `${el.id || el.textContent.trim().slice(0, 20)}`,
      top: Math.round(box.top), bottom: Math.round(box.bottom), height: Math.round(box.height),
      inside: box.top >= 0 && box.bottom <= height && box.left >= 0 && box.right <= width,
      uncovered: Boolean(top) && (top === el || el.contains(top)),
    });
  }
  return { found, wide: document.documentElement.scrollWidth, scrolled: window.scrollY };
}"""


def check_move(page, srv, table, game: str, label: str, problems: list[str]) -> None:
    """Open, at the top, the page of each seat the rules wait on and check its move is on screen."""
    latest = table.latest
    for seat in latest.spec.waiting_on(latest.session.state):
        page.goto(f"{srv.url}seat/{table.seat_token(seat)}")
        page.wait_for_function(f"() => document.body.dataset.version === '{table.version}'")
        page.evaluate("() => window.scrollTo(0, 0)")
        got = page.evaluate(ON_SCREEN, [MOVE_CONTROLS[game], PHONE["width"], PHONE["height"]])
        where = f"{game} ({label}) seat {seat + 1}"
        if not got["found"]:
            problems.append(f"{where}: no control of the move is offered")
        for control in got["found"]:
            if not control["inside"] or not control["uncovered"] or control["height"] < 44:
                problems.append(f"{where}: {control}")
        if got["wide"] > PHONE["width"]:
            problems.append(f"{where}: {got['wide']} px wide, scrolls sideways")


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[f"{g}-expert" if o else g for g, o in GAMES])
def test_the_seat_to_act_sees_its_move_without_scrolling(game, options, browser, tmp_path, seeded_draws,
                                                         monkeypatch):
    if game == "duel":
        plug_game(monkeypatch, duel.SPEC)
    rng = random.Random(29)
    problems: list[str] = []
    with (running_app(tmp_path, game=game, options=options, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        table = runtime.table
        spec = table.latest.spec
        for seat in range(spec.seats_in_play(table.latest.session.options)):
            name = f"Marie-Christine n°{seat + 1}"
            table.seating(lambda roster, count, seat=seat, name=name: roster.claim(seat, name, count))
        ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                                  locale="fr-FR")
        page = ctx.new_page()
        seen: list[str] = []
        try:
            for _ in range(STEPS[game]):
                latest = table.latest
                if spec.over(latest.session.state):
                    break
                phase = phase_of(latest.public)
                if phase not in seen and len(seen) < PHASES_PER_GAME:
                    seen.append(phase)
                    check_move(page, srv, table, game, phase, problems)
                command = next_command(game, latest.session.state, rng)
                if command is None:
                    break
                seat = command.seat if command.seat is not None else spec.actor(latest.session.state)
                headers = {"X-Seat-Token": table.seat_token(seat)} if seat is not None else {
                    "X-Host-Token": table.host_token()}
                body = {"kind": command.kind, "args": dict(command.args)}
                post_json(srv.port, "/api/command", body, headers)
        finally:
            ctx.close()
    print(f"{game}: moments checked {seen}")
    assert not problems, "\n".join(problems)
