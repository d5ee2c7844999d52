"""Both Crazy Races on 390 px phones in Debian's chromium: whole games through the table, the seat pages
checked at every step (no sideways scroll, controls a thumb high, nothing cut off, the seat the rules wait
on told to act), the end screens, Gewalt's counter and its tappable placement pickers."""

from __future__ import annotations

import random

import pytest
import schacht_play
from gewalt_play import random_command as gewalt_command
from polling import wait_for
from test_browser import open_page
from webfixtures import live_server, running_app

from companion.gamekit.colours import SEAT_MARKS
from companion.gamekit.contract import Command
from companion.games.gewalt import SPEC as GEWALT
from companion.games.gewalt import data as gewalt_data
from companion.games.gewalt import rules as gewalt_rules
from companion.games.schacht import rules as schacht_rules

pytestmark = pytest.mark.browser

WIDTH = 390  # the phone's viewport; a mobile page that overflows widens innerWidth, so compare to this
MARGIN = 16  # the page's own margin: a table must not touch the screen's edge
LONG = "François-Hélène Ødegård"  # 23 characters, as at the table
NAMES = (LONG, "Zoé", "Maximilien")
WAITING = "Attendez votre tour"

# Every visible control inside `root`: its name, height, whether its text overflows it, its right edge.
CONTROLS = """(root) => [...document.querySelector(root).querySelectorAll('button, a, select, input')]
  .filter((c) => c.getClientRects().length && !c.closest('[hidden]'))
  .map((c) => [c.id || c.textContent.trim().slice(0, 30), c.getBoundingClientRect().height,
               c.scrollWidth > c.clientWidth + 1, c.getBoundingClientRect().right])"""


def check_layout(page, root: str, where: str) -> None:
    """No sideways scroll at 390 px; every control of the game's part at least 44 px high and whole."""
    assert not page.errors, f"{where}: {page.errors}"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDTH, f"{where}: the page is {width} px wide"
    for name, height, cut, right in page.evaluate(CONTROLS, root):
        assert height >= 44, f"{where}: {name!r} is {height:.0f} px high"
        assert not cut and right <= WIDTH, f"{where}: {name!r} is cut off (right edge {right:.0f} px)"


def synced(page, version: int) -> None:
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-version", str(version))


def name_seats(runtime, players: int) -> None:
    for seat in range(players):
        runtime.table.seating(lambda roster, count, seat=seat: roster.claim(seat, NAMES[seat], count))


def phone(browser, url: str):
    """A page in French at 390x844 that keeps the script errors it meets."""
    ctx, page = open_page(browser, url)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return ctx, page


def phones(browser, srv, runtime, players: int) -> list:
    """Each seat's own page, then the scoreboard last."""
    opened = [phone(browser, f"{srv.url}seat/{runtime.table.seat_token(seat)}") for seat in range(players)]
    return [*opened, phone(browser, srv.url)]


# --- Schacht ----------------------------------------------------------------------------------------
def check_schacht_seat(page, state, seat: int, where: str) -> None:
    """The seat's status names what the rules wait for; its discards read as labelled cards."""
    assert not page.errors, f"{where}: {page.errors}"
    status = page.locator("#schacht-turn")
    legal = schacht_rules.legal(state, seat)
    waited_on = any(kind in legal for kind in ("place", "pass", "move", "take_back"))
    text = status.inner_text()
    assert WAITING not in page.locator("#seat-game").inner_text(), where
    assert status.get_attribute("data-acting") == str(waited_on).lower(), (where, text)
    assert text.startswith("À vous") == waited_on, (where, text)
    chips = page.locator("#schacht-discards .schacht-chip").all_inner_texts()
    assert chips == [str(v) for v in state.discards[seat]], where
    if state.phase != "over":
        assert page.locator("#schacht-discards-title").inner_text() == "Défausse"


def test_a_whole_schacht_game_on_three_phones_at_390_px(browser, tmp_path, seeded_draws):
    from playwright.sync_api import expect

    rng = random.Random(11)
    with (running_app(tmp_path, game="schacht", options={"players": 3}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        name_seats(runtime, 3)
        *seats, public = phones(browser, srv, runtime, 3)
        phases = set()
        for step in range(500):
            state, version = runtime.table.session.state, runtime.table.version
            phases.add(state.phase)
            for seat, (_, page) in enumerate(seats):
                synced(page, version)
                where = f"step {step}, {state.phase}, seat {seat}"
                check_schacht_seat(page, state, seat, where)
                check_layout(page, "#seat-game", where)
            synced(public[1], version)
            check_layout(public[1], "#game", f"step {step}, scoreboard")
            if state.phase == "over":
                break
            runtime.table.call(schacht_play.random_command(state, rng))
        else:
            pytest.fail("the game did not end in 500 commands")
        assert {"bid", "decide", "takeback", "review", "over"} <= phases
        assert any(loco > 0 for lane in state.lanes for loco in lane)  # locos moved: the lanes were checked
        # The end: a ranking with every seat's points, the winners marked; no bidding controls any more.
        final = state.final
        for _, page in [*seats, public]:
            ranking = page.locator("#schacht-ranking li")
            expect(ranking).to_have_count(3)
            for line in ranking.all():
                seat = int(line.get_attribute("data-seat"))
                assert f"{NAMES[seat]}\u202f: {final.scores[seat]} points" in line.inner_text()
                assert ("winner" in (line.get_attribute("class") or "")) == (seat in final.winners)
            assert line.evaluate("(li) => li.getBoundingClientRect().right") <= WIDTH
        for _, page in seats:
            expect(page.locator("#schacht-bidding")).to_be_hidden()
            expect(page.locator("#schacht-turn")).to_have_text("Partie terminée\u202f: voici le classement.")
        for ctx, _ in [*seats, public]:
            ctx.close()


# --- Gewalt -----------------------------------------------------------------------------------------
def actions_file(**counts) -> str:
    """The bundled data file with its action cards replaced by `counts`."""
    lines = [line for line in GEWALT.bundled("cards").text.splitlines()
             if line.split("=")[0].strip() not in gewalt_data.ACTIONS]
    return "\n".join([*lines, *(f"{kind} = {count}" for kind, count in counts.items())]) + "\n"


def new_gewalt(runtime, text: str) -> None:
    args = {"game": "gewalt", "options": {"players": 3, "expert": True},
            "data": {"cards": {"name": "box.toml", "text": text}}}
    result = runtime.table.call(Command("new_game", args), host=True)
    assert result.ok, result


def attack(runtime, attacker: int, target: int) -> str:
    """`attacker` lays one of its attack cards in front of `target`; returns the card."""
    card = next(c for c in runtime.table.session.state.actions[attacker] if c in gewalt_data.ATTACKS)
    assert runtime.table.call(Command("attack", {"card": card, "target": target}, attacker)).ok
    return card


def test_a_gewalt_seat_with_no_counter_card_is_offered_only_to_let_the_attack_stand(browser, tmp_path,
                                                                                  seeded_draws):
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="gewalt", options={"players": 3}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        name_seats(runtime, 3)
        new_gewalt(runtime, actions_file(extra_turn=5, no_roll=5, plus_4=5, double=5))
        attack(runtime, 0, 1)
        ctx, page = phone(browser, f"{srv.url}seat/{runtime.table.seat_token(1)}")
        synced(page, runtime.table.version)
        expect(page.locator("#gewalt-answer")).to_be_visible()
        expect(page.locator("#gewalt-counter")).to_be_hidden()
        expect(page.locator("#gewalt-no-counter")).to_be_visible()
        expect(page.locator("#gewalt-allow")).to_have_class("primary")
        check_layout(page, "#seat-game", "answering an attack")
        page.locator("#gewalt-allow").click()
        wait_for(lambda: runtime.table.session.state.pending is None, timeout=10)
        assert runtime.table.session.state.front[1] is not None  # the attack stands
        synced(page, runtime.table.version)
        expect(page.locator("#gewalt-answer")).to_be_hidden()
        ctx.close()


def test_a_gewalt_attack_list_offers_only_the_players_the_rules_let_you_attack(browser, tmp_path,
                                                                               seeded_draws):
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="gewalt", options={"players": 3}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        name_seats(runtime, 3)
        new_gewalt(runtime, actions_file(no_roll=5, double=5, move_4=5, minus_4=5))  # attack cards only
        attack(runtime, 0, 2)
        table = runtime.table
        assert table.call(Command("allow", {}, 2)).ok and table.call(Command("roll", {}, 0)).ok
        state = table.session.state
        assert state.turn == 1 and state.front[2] is not None  # seat 2 already has an attack card in front
        ctx, page = phone(browser, f"{srv.url}seat/{table.seat_token(1)}")
        try:
            synced(page, table.version)
            page.locator("#gewalt-action-hand button").first.click()
            targets = page.locator("#gewalt-target button")
            expect(targets).to_have_count(1)  # seat 0 only: seat 2 may not be attacked, nor seat 1 itself
            expect(targets.first).to_have_attribute("data-value", "0")
            expect(page.locator("#gewalt-no-target")).to_be_hidden()
            page.locator("#gewalt-play-action").click()
            wait_for(lambda: table.session.state.pending is not None, timeout=10)
            assert table.session.state.pending[:2] == (1, 0)
            assert not page.locator("#message").inner_text().strip()  # Play was not refused
            check_layout(page, "#seat-game", "the attack list")
        finally:
            ctx.close()


def holds_all_four(state) -> int | None:
    """Seat 1 or 2 holding one of each of the four action cards, while seat 0 (to play) holds an attack."""
    if not any(card in gewalt_data.ATTACKS for card in state.actions[0]):
        return None
    return next((seat for seat in (1, 2) if len(set(state.actions[seat])) == 4), None)


def test_a_whole_expert_gewalt_game_on_three_phones_at_390_px(browser, tmp_path, seeded_draws):
    from playwright.sync_api import expect

    text = actions_file(counter=5, extra_turn=5, no_roll=5, plus_4=5)
    with (running_app(tmp_path, game="gewalt", options={"players": 3}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        name_seats(runtime, 3)
        for _ in range(100):  # the seeded draws make this the same deal every run
            new_gewalt(runtime, text)
            holder = holds_all_four(runtime.table.session.state)
            if holder is not None:
                break
        else:
            pytest.fail("no deal gave a seat the four action cards")
        *seats, public = phones(browser, srv, runtime, 3)
        page = seats[holder][1]
        synced(page, runtime.table.version)
        # "contre | tour supplémentaire | pas de dés | plus 4": all four whole on the phone.
        hand = page.locator("#gewalt-action-hand button")
        assert sorted(hand.all_inner_texts()) == ["contre", "pas de dés", "plus 4", "tour supplémentaire"]
        check_layout(page, "#seat-game", "the four action cards")

        # A counter: offered first to the seat that holds one; the attacker and the history are told who.
        card = attack(runtime, 0, holder)
        synced(page, runtime.table.version)
        expect(page.locator("#gewalt-counter")).to_be_visible()
        expect(page.locator("#gewalt-counter")).to_have_class("primary")
        expect(page.locator("#gewalt-allow")).not_to_have_class("primary")
        page.locator("#gewalt-counter").click()
        attacker = seats[0][1]
        expect(attacker.locator("#gewalt-countered-mine")).to_be_visible()
        assert runtime.table.session.state.countered == (0, holder, card)
        told = attacker.locator("#gewalt-countered-mine").inner_text()
        assert NAMES[holder] in told and "contrée" in told, told
        synced(public[1], runtime.table.version)
        assert public[1].locator("#table-history li").first.inner_text() == (
            f"{SEAT_MARKS[holder]}\u00a0{NAMES[holder]} a contré la carte d’attaque")
        expect(public[1].locator("#gewalt-countered")).to_contain_text(f"{NAMES[holder]} a contré")

        # The placement pickers: tappable buttons for lane, stage and section.
        before = runtime.table.version
        attacker.locator("#gewalt-section-hand button").first.click()
        length = int(attacker.locator("#gewalt-section-hand button[aria-pressed=true]").inner_text())
        for row, value in (("#gewalt-lane", 2), ("#gewalt-stage", 2), ("#gewalt-section", 4)):
            button = attacker.locator(f'{row} button[data-value="{value}"]')
            button.click()
            expect(button).to_have_attribute("aria-pressed", "true")
        check_layout(attacker, "#seat-game", "placing a section card")
        attacker.locator("#gewalt-place").click()
        synced(attacker, before + 1)
        assert runtime.table.session.state.cards[gewalt_rules.board.slot_index(2, 2, 4)] == length

        # The rest of the race, every page checked at every step, to the final scores.
        rng = random.Random(5)
        answers = 0
        for step in range(3000):
            state, version = runtime.table.session.state, runtime.table.version
            for seat, (_, seat_page) in enumerate(seats):
                synced(seat_page, version)
                assert WAITING not in seat_page.locator("#seat-game").inner_text()
                legal = gewalt_rules.legal(state, seat)
                if "roll" in legal:
                    expect(seat_page.locator("#gewalt-roll-button")).to_be_enabled()
                answer = seat_page.locator("#gewalt-answer")
                expect(answer).to_be_visible() if "counter" in legal else expect(answer).to_be_hidden()
                answers += "counter" in legal
                if step % 10 == 0 or gewalt_rules.over(state):
                    check_layout(seat_page, "#seat-game", f"step {step}, seat {seat}")
            if gewalt_rules.over(state):
                break
            runtime.table.call(gewalt_command(state, rng))  # a refused one changes nothing: try another
        else:
            pytest.fail("the race did not end")
        assert answers, "no attack card was answered on a phone"
        synced(public[1], runtime.table.version)
        for _, seen in [*seats, public]:
            expect(seen.locator("#gewalt-scores")).to_be_visible()
            box = seen.locator("#gewalt-score-table").bounding_box()
            assert box["x"] >= MARGIN and box["x"] + box["width"] <= WIDTH - MARGIN, box
            check_layout(seen, "#seat-game" if seen is not public[1] else "#game", "the final scores")
        for _, seen in seats:  # no card or roll control after the end
            for control in ("#gewalt-sections", "#gewalt-actions", "#gewalt-roll-button"):
                expect(seen.locator(control)).to_be_hidden()
        for ctx, _ in [*seats, public]:
            ctx.close()


def play_schacht_until(runtime, rng: random.Random, wanted, steps: int = 600):
    """Random play without recalls (a place rather than a pass) until `wanted(state)`; the state then."""
    table = runtime.table
    for _ in range(steps):
        state = table.session.state
        if wanted(state):
            return state
        who = schacht_rules.actor(state)
        kinds = schacht_rules.legal(state, who)
        if "place" in kinds:
            command = Command("place", {"side": rng.choice(schacht_rules.open_sides(state)),
                                        "value": rng.choice(state.hands[who])}, who)
        else:
            command = schacht_play.random_command(state, rng)
            if command.kind == "recall":
                continue
        assert table.call(command).ok
    pytest.fail("random play never reached the moment wanted")


def test_a_schacht_seat_with_an_empty_hand_is_told_to_recall_or_pass(browser, tmp_path, seeded_draws):
    """Its turn comes with no card in hand: the page says so and offers Pass and Recall, not a card to
    choose; in English too."""
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="schacht", options={"players": 3}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        name_seats(runtime, 3)
        state = play_schacht_until(runtime, random.Random(5), lambda s: s.phase == "bid"
                                   and not s.hands[schacht_rules.actor(s)])
        seat = schacht_rules.actor(state)
        legal = schacht_rules.legal(state, seat)
        assert "recall" in legal and "place" not in legal
        said = {"fr-FR": "À vous\u202f: votre main est vide\u202f; reprenez vos cartes défaussées, "
                         "ou passez.",
                "en-GB": "Your turn: your hand is empty; recall your discards, or pass."}
        for locale, text in said.items():
            ctx, page = open_page(browser, f"{srv.url}seat/{runtime.table.seat_token(seat)}", locale=locale)
            synced(page, runtime.table.version)
            expect(page.locator("#schacht-turn")).to_have_text(text)
            expect(page.locator("#schacht-pass")).to_be_visible()
            expect(page.locator("#schacht-recall")).to_be_visible()
            ctx.close()


def test_schacht_recall_takes_a_second_tap_and_stands_apart_from_next_stage_card(browser, tmp_path,
                                                                                 seeded_draws):
    """Recall cannot be taken back: the first tap only asks again (nothing is sent); the second recalls.
    It stands well apart from Next stage card, with the discards it takes back."""
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="schacht", options={"players": 3}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        name_seats(runtime, 3)
        state = play_schacht_until(runtime, random.Random(7), lambda s: s.phase == "review"
                                   and "recall" in schacht_rules.legal(s, 0))
        ctx, page = phone(browser, f"{srv.url}seat/{runtime.table.seat_token(0)}")
        version = runtime.table.version
        synced(page, version)
        recall, following = page.locator("#schacht-recall"), page.locator("#schacht-next")
        expect(following).to_be_visible()
        gap = page.evaluate("""() => {
          const a = document.getElementById("schacht-recall").getBoundingClientRect();
          const b = document.getElementById("schacht-next").getBoundingClientRect();
          return Math.max(a.top - b.bottom, b.top - a.bottom);
        }""")
        assert gap >= 88, f"Recall is {gap:.0f} px from Next stage card"
        recall.click()
        expect(recall).to_have_text("Touchez encore pour reprendre vos cartes défaussées\u202f: "
                                    "une fois par partie")
        # the first tap's handler has run (it says so) and sent nothing
        assert runtime.table.version == version and not runtime.table.session.state.recalled[0]
        recall.click()
        wait_for(lambda: runtime.table.session.state.recalled[0])
        synced(page, runtime.table.version)
        assert state.discards[0] and runtime.table.session.state.hands[0]
        assert not page.errors, page.errors
        ctx.close()
