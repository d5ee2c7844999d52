"""Every page of every game, in every phase random legal play reaches, on a 390x844 phone in chromium:
the bundled games' own pages, and the generated ones of tests/duel, which ships none.

Each page must not scroll sideways, every control must be at least 44 px high, and a seat the rules wait
on (`GameSpec.waiting_on`) must never be told to wait for its turn. Games are driven through the HTTP API
by seeded random legal play (the tests' *_play helpers), each seat acting with its own phone's token.
"""

from __future__ import annotations

import json
import random

import duel
import pytest
from webfixtures import live_server, plug_game, post_json, running_app, shoot

from companion.core import registry

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PHONE = {"width": 390, "height": 844}
STEPS = {"dice": 3, "schacht": 400, "gewalt": 400, "crash": 250, "rallye": 600, "duel": 12}
GAMES = [*registry.names(), "duel"]  # tests/duel ships no pages: its phones get the generated ones
PHASES_PER_GAME = 7  # the first moments of each kind a game reaches (each costs a round of pages)

CHECK = """(waiting) => {
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const small = [];
  const controls = "button, a[href], input, select, textarea, summary, [role=button], label";
  for (const el of document.querySelectorAll(controls)) {
    if (!visible(el) || el.type === "hidden") continue;
    // a label is tapped as its check box is; a link is a control unless it sits in a line of text
    if (el.tagName === "LABEL" && !(el.control && ["checkbox", "radio"].includes(el.control.type))) continue;
    const alone = el.parentElement && el.parentElement.textContent.trim() === el.textContent.trim();
    if (el.tagName === "A" && !el.matches("a.button, nav a") && !alone) continue;
    const height = el.getBoundingClientRect().height;
    const words = (el.textContent || el.value || "").trim().slice(0, 25);
    if (height < 44) small.push(`${el.tagName}#${el.id}.${el.className} "${words}" ${height.toFixed(0)}px`);
  }
  const text = document.body.innerText;
  return {
    wide: document.documentElement.scrollWidth,
    small,
    waitTold: /attendez votre tour|attendez le vôtre|wait for your turn|wait for yours/i.test(text),
  };
}"""


def next_command(game: str, state, rng: random.Random):
    """One random legal command (by the tests' own players of each game), or None when none is left."""
    from companion.gamekit.contract import Command
    if game == "dice":
        return Command("roll", {}, 0)
    if game == "duel":
        seat = rng.choice(duel.SPEC.waiting_on(state))
        (kind,) = duel.SPEC.legal(state, seat)
        args = {"hand": rng.choice(["rock", "paper", "scissors"]), "stake": rng.randint(1, 3)}
        return Command(kind, args if kind == "choose" else {}, seat)
    if game == "schacht":
        from schacht_play import random_command
        return random_command(state, rng)
    if game == "gewalt":
        from gewalt_play import random_command
        return random_command(state, rng)
    if game == "crash":
        from crash_play import random_command
        return random_command(state, lambda options: rng.choice(list(options)))
    from rallye_play import groups
    options = groups(state)
    if not options:
        return None
    return rng.choice(rng.choice(options))


def phase_of(public: dict) -> str:
    pending = public.get("pending")
    kind = pending.get("kind") if isinstance(pending, dict) else bool(pending)
    return json.dumps([public.get("phase"), kind, public.get("over"), bool(public.get("revealed")),
                       public.get("chosen")])


def check_pages(page, srv, table, game: str, label: str, problems: list[str], tmp_path=None) -> None:
    """Check every page now; with `tmp_path`, also photograph the seat page in light and dark (the docs'
    screenshots: $COMPANION_SCREENSHOTS=docs/screenshots)."""
    latest = table.latest
    waiting = latest.spec.waiting_on(latest.session.state)
    seats = latest.spec.seats_in_play(latest.session.options)
    urls = {"/": "", "/join": "join", "/host": f"host?host={table.host_token()}", "/device": "device",
            "/network-help": "network-help"}
    urls |= {f"/seat {seat}": f"seat/{table.seat_token(seat)}" for seat in range(seats)}
    for name, path in urls.items():
        page.goto(f"{srv.url}{path}")
        if name in ("/", "/host") or name.startswith("/seat"):
            page.wait_for_function(f"() => document.body.dataset.version === '{table.version}'")
        found = page.evaluate(CHECK, waiting)
        where = f"{game} ({label}) {name}"
        if found["wide"] > PHONE["width"]:
            problems.append(f"{where}: {found['wide']} px wide, scrolls sideways")
        if found["small"]:
            problems.append(f"{where}: controls under 44 px: {found['small'][:4]}")
        if name.startswith("/seat") and int(name.split()[1]) in waiting and found["waitTold"]:
            problems.append(f"{where}: the rules wait on this seat, and its page says to wait")
        if tmp_path is not None and name == f"/seat {waiting[0] if waiting else 0}":
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                shoot(page, f"{game}-seat-{scheme}", tmp_path)
            page.emulate_media(color_scheme="light")


@pytest.mark.parametrize("game", GAMES)
def test_every_page_fits_a_phone_in_every_phase(game, browser, tmp_path, seeded_draws, monkeypatch):
    if game == "duel":
        plug_game(monkeypatch, duel.SPEC)
    rng = random.Random(13)
    problems: list[str] = []
    with running_app(tmp_path, game=game, keepalive=1.0) as (runtime, app), live_server(app) as srv:
        table = runtime.table
        spec = table.latest.spec
        for seat in range(spec.seats_in_play(table.latest.session.options)):
            name = f"Joueur·se n°{seat + 1}"
            table.seating(lambda roster, count, seat=seat, name=name: roster.claim(seat, name, count))
        ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                                  locale="fr-FR")
        page = ctx.new_page()
        seen: list[str] = []
        try:
            for _ in range(STEPS[game]):
                latest = table.latest
                phase = phase_of(latest.public)
                if phase not in seen and len(seen) < PHASES_PER_GAME:
                    seen.append(phase)
                    # the docs' screenshot: a moment into the game (its second kind of moment)
                    photo = tmp_path if len(seen) == min(2, PHASES_PER_GAME) or game == "dice" else None
                    check_pages(page, srv, table, game, phase, problems, photo)
                if spec.over(latest.session.state):
                    break
                command = next_command(game, latest.session.state, rng)
                if command is None:
                    break
                seat = command.seat if command.seat is not None else spec.actor(latest.session.state)
                headers = {"X-Seat-Token": table.seat_token(seat)} if seat is not None else {
                    "X-Host-Token": table.host_token()}
                body = {"kind": command.kind, "args": dict(command.args)}
                post_json(srv.port, "/api/command", body, headers)
            if phase_of(table.latest.public) not in seen:  # the end, whatever came before
                check_pages(page, srv, table, game, "last", problems)
        finally:
            ctx.close()
    print(f"{game}: phases checked {seen}")
    assert not problems, "\n".join(problems)


def test_the_host_form_of_every_game_and_a_given_seat_link_fit_a_phone(browser, tmp_path):
    """The host's new-game form, with each game's options, and the link of a seat the host gives: every
    control a thumb can hit, and the link at the address phones reach (not the simulator's 127.0.0.1)."""
    problems: list[str] = []
    with running_app(tmp_path, keepalive=1.0) as (runtime, app), live_server(app) as srv:
        table = runtime.table
        ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                                  locale="fr-FR")
        page = ctx.new_page()
        try:
            page.goto(f"{srv.url}host?host={table.host_token()}")
            page.wait_for_function(f"() => document.body.dataset.version === '{table.version}'")
            for game in registry.names():
                page.select_option("#game-choice", game)
                found = page.evaluate(CHECK, [])
                if found["small"]:
                    problems.append(f"/host, {game}'s options: controls under 44 px: {found['small'][:4]}")
                if found["wide"] > PHONE["width"]:
                    problems.append(f"/host, {game}'s options: {found['wide']} px wide")
            page.locator("#seat-admin li[data-seat='1'] input").fill("Bob")
            page.locator("#seat-admin li[data-seat='1'] button").click()
            link = page.locator("#seat-link-url")
            link.wait_for()
            assert link.inner_text().startswith(runtime.url + "seat/")
            said = page.locator("#seat-link-for").inner_text()
            assert said.startswith("Lien de la place de \u2777\u00a0Bob"), said
            found = page.evaluate(CHECK, [])
            if found["small"] or found["wide"] > PHONE["width"]:
                problems.append(f"/host with a seat's link: {found}")
        finally:
            ctx.close()
    assert not problems, "\n".join(problems)
