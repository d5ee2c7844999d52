"""Crash! on phones in Debian's chromium: a whole match played from the two seat pages, taps on the board."""

from __future__ import annotations

import pytest
from crash_play import BOARD_TEXT, quick_command
from polling import wait_for
from test_browser import open_page
from test_browser_games import click_and_wait, seat_pages
from webfixtures import host_of, live_server, post_json, read_json, running_app, shoot

from companion.gamekit.contract import Command

pytestmark = pytest.mark.browser

# Every visible button of the page, or a tappable car, and its height; hidden ones are left out.
BUTTONS = """() => [...document.querySelectorAll('button, [role=button]')]
  .filter((b) => !b.closest('[hidden]') && getComputedStyle(b).visibility !== 'hidden')
  .map((b) => [b.textContent.trim().slice(0, 30) || b.getAttribute('aria-label'),
               b.getBoundingClientRect().height])"""


def check_layout(page, where: str) -> None:
    """No sideways scrolling at 390 px, and every control at least 44 px high (a thumb)."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), where
    small = [(text, height) for text, height in page.evaluate(BUTTONS) if height < 44]
    assert not small, (where, small)


def play(page, command, srv) -> dict:
    """What a player does on their page for `command`: tap a car on the board, then a direction or Forward;
    or the roll, end and next-game buttons. Only what the page offers can be tapped."""
    from playwright.sync_api import expect

    if command.kind in ("turn", "move"):
        car = page.locator(f'#crash-board g.car.steerable[data-car="{command.args["car"]}"]')
        car.click()
        expect(page.locator("#crash-steer")).to_be_visible()
        if command.kind == "move":
            return click_and_wait(page, page.locator("#crash-forward"), srv)
        target = page.locator(f'#crash-dirs button[data-facing="{command.args["facing"]}"]')
        expect(target).to_be_visible()
        current = page.locator('#crash-board g.selected').get_attribute("data-facing")
        expect(page.locator(f'#crash-dirs button[data-facing="{current}"]')).to_be_hidden()
        return click_and_wait(page, target, srv)
    button = {"roll": "#crash-roll", "end": "#crash-end", "next_game": "#crash-next"}[command.kind]
    return click_and_wait(page, page.locator(button), srv)


def test_a_two_game_match_from_the_seat_pages(browser, tmp_path):
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="crash", options={"games": 2}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        pages = [page for _, page in seat_pages(browser, srv, runtime, 2)]
        public_ctx, public = open_page(browser, srv.url, locale="en-GB")
        phases, shot = set(), False
        for _ in range(300):
            state = read_json(srv.port, "/api/state")
            view = state["public"]
            if view["match"]["over"]:
                break
            command = quick_command(runtime.table.session.state)
            seat = view["actor"] if view["actor"] is not None else view["turn"]
            page, other = pages[seat], pages[1 - seat]
            expect(page.locator("body")).to_have_attribute("data-version", str(state["version"]))
            expect(other.locator("#crash-roll")).to_be_hidden()  # nothing to do out of turn
            expect(other.locator("#crash-end")).to_be_hidden()
            phase = view["phase"] if view["result"] is None else "over"
            if phase not in phases:
                phases.add(phase)
                check_layout(page, f"{phase}, seat {seat}")
                check_layout(other, f"{phase}, the other seat")
            state = play(page, command, srv)
            if command.kind in ("turn", "move") and not shot and state["public"]["phase"] == "steer":
                page.locator("#crash-board g.car.steerable").first.click()
                expect(page.locator("#crash-steer")).to_be_visible()
                check_layout(page, "a car chosen")
                shoot(page, "crash-seat", tmp_path)
                page.locator("#crash-cancel").click()
                expect(page.locator("#crash-steer")).to_be_hidden()
                shot = True
        else:
            pytest.fail("the match did not end in 300 commands")
        assert shot and phases == {"roll", "steer", "over"}
        final = read_json(srv.port, "/api/state")
        expect(public.locator("body")).to_have_attribute("data-version", str(final["version"]))
        counts = [p["captured"] for p in final["public"]["players"]]
        rows = public.locator("#crash-players tbody tr")
        for seat, count in enumerate(counts):
            expect(rows.nth(seat).locator("td").nth(1)).to_have_text(str(count))
        expect(public.locator("#crash-status")).to_contain_text("in games won")  # the match's one score
        check_layout(public, "the public page")
        for page in pages:
            page.context.close()
        public_ctx.close()


def test_dice_only_play_marks_a_car_out_from_the_seat_page(browser, tmp_path):
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="crash", options={"dice_only": True}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        page = seat_pages(browser, srv, runtime, 1)[0][1]
        expect(page.locator("#crash-board")).to_be_hidden()
        state = click_and_wait(page, page.locator("#crash-roll"), srv)
        assert len(state["public"]["dice"]) == 3
        page.locator("#crash-mark-cars button", has_text="R4").click()
        expect(page.locator("#crash-mark-text")).to_contain_text("R4")
        check_layout(page, "dice only, marking a car out")
        state = click_and_wait(page, page.locator("#crash-mark-places button").nth(1), srv)  # Blue's junkyard
        players = state["public"]["players"]
        assert players[0]["captured"] == 1 and players[1]["in_play"] == 5
        expect(page.locator("#crash-mark-cars button", has_text="R4")).to_have_count(0)
        status, _ = post_json(srv.port, "/api/command", {"kind": "end", "args": {}}, host_of(runtime))
        assert status == 200
        wait_for(lambda: read_json(srv.port, "/api/state")["public"]["turn"] == 1)
        expect(page.locator("#crash-mark")).to_be_hidden()  # South's turn: North's page offers nothing
        page.context.close()


def test_the_host_page_starts_a_match_and_refuses_a_bad_board_naming_it(browser, tmp_path):
    """From the host's form: a bad board file is refused in French with its name, key and reason and
    nothing changes; then a two-game match with the bundled board starts."""
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="crash", keepalive=1.0) as (runtime, app), live_server(app) as srv):
        ctx, page = open_page(browser, f"{srv.url}host?host={runtime.table.host_token()}")
        page.select_option("#game-choice", "crash")
        page.select_option("#opt-games", "2")
        expect(page.locator("label[for=data-board]")).to_contain_text("Plateau\u202f: cases, casses")
        bad = BOARD_TEXT.replace('facing = "s"', 'facing = "down"', 1).encode()
        page.set_input_files("#data-board", files=[{"name": "ma-boite.toml", "mimeType": "text/plain",
                                                    "buffer": bad}])
        version = runtime.table.version
        page.locator("#start-game").click()
        page.locator("#start-game").click()  # two taps: the running game ends
        said = "ma-boite.toml\u202f: clé «\u202fgarages[0].facing\u202f»\u202f: «\u202fdown\u202f» n’est pas"
        expect(page.locator("#message")).to_contain_text(said)
        assert runtime.table.version == version
        page.set_input_files("#data-board", files=[])
        page.locator("#start-game").click()
        page.locator("#start-game").click()
        wait_for(lambda: runtime.table.version > version)
        public = runtime.table.latest.public
        assert runtime.table.latest.game == "crash" and public["match"]["games"] == 2
        ctx.close()


def test_the_junkyard_buttons_keep_a_long_name_on_few_lines(browser, tmp_path):
    """Issue 24, problem 11: "Into Grand-mère Josette's junkyard" wrapped to 7 lines."""
    from playwright.sync_api import expect

    names = ("Grand-mère Josette", "Maximilien-Alexandre")
    with (running_app(tmp_path, game="crash", options={"dice_only": True}, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        for seat, name in enumerate(names):
            runtime.table.seating(lambda roster, count, seat=seat, name=name: roster.claim(seat, name, count))
        pages = seat_pages(browser, srv, runtime, 2)
        page = pages[0][1]
        page.locator("#crash-mark-cars button").first.click()
        places = page.locator("#crash-mark-places button")
        expect(places).to_have_count(3)
        lines = page.evaluate("""() => [...document.querySelectorAll('#crash-mark-places button')]
          .map((b) => {
            const range = document.createRange();
            range.selectNodeContents(b);
            const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            return [b.textContent, tops.size, b.clientHeight];
        })""")
        for text, count, height in lines:
            assert count <= 2 and height >= 44, (text, count, height)
        assert any("Grand-mère Josette" in text for text, _, _ in lines)
        check_layout(page, "the junkyard buttons")
        for ctx, _ in pages:
            ctx.close()


STOPPED = {("en-GB", 1): "Stopped: 1 turn without a car out.",
           ("en-GB", 2): "Stopped: 2 turns without a car out.",
           ("fr-FR", 1): "Arrêt\u202f: 1 tour sans voiture sortie.",
           ("fr-FR", 2): "Arrêt\u202f: 2 tours sans voiture sortie."}
QUIET = {"en-GB": "1 of 2 turns without a car out: at 2 the game stops.",
         "fr-FR": "1 sur 2 tours sans voiture sortie\u202f: à 2, la partie s’arrête."}


@pytest.mark.parametrize(("locale", "n"), sorted(STOPPED))
def test_the_stall_stop_counts_its_turns_in_the_readers_plural(browser, tmp_path, locale, n):
    """The seat page says the stall stop's turns with the language's plural form: one turn, two turns."""
    from playwright.sync_api import expect

    with (running_app(tmp_path, game="crash", options={"dice_only": True, "stall_turns": n}, keepalive=1.0)
          as (runtime, app), live_server(app) as srv):
        table = runtime.table
        ctx, page = open_page(browser, f"{srv.url}seat/{table.seat_token(0)}", locale=locale)
        expect(page.locator("#live")).to_have_attribute("data-state", "live")
        for turn in range(n):  # every turn ends with no car out
            seat = table.session.state.turn
            assert table.call(Command("roll", {}, seat)).ok and table.call(Command("end", {}, seat)).ok
            if turn == 0 and n == 2:
                expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
                expect(page.locator("#crash-doing")).to_contain_text(QUIET[locale])
        assert table.session.state.result is not None
        expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
        expect(page.locator("#crash-doing")).to_have_text(STOPPED[locale, n])
        check_layout(page, "the stall stop")
        ctx.close()


MATCH_LINES = {
    "en-GB": ("Game 1 of 2. Next: game 2 of the match, when someone starts it.",
              "Game 2 of 2: the match goes to \u2776 Blue."),
    "fr-FR": ("Partie 1 sur 2. Ensuite\u202f: la partie 2 du match, quand quelqu’un la lance.",
              "Partie 2 sur 2\u202f: le match revient à \u2776 Bleu."),
}


@pytest.mark.parametrize("locale", sorted(MATCH_LINES))
def test_each_game_of_a_match_ends_saying_which_game_and_what_comes_next(browser, tmp_path, locale):
    """The seat page's end box and the scoreboard say "Game 1 of 2" and the next game, then the match's
    winner after the last game, at 390 px."""
    from playwright.sync_api import expect

    between, last = MATCH_LINES[locale]
    options = {"games": 2, "dice_only": True, "stall_turns": 1}
    with (running_app(tmp_path, game="crash", options=options, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        table = runtime.table
        seat_ctx, seat_page = open_page(browser, f"{srv.url}seat/{table.seat_token(0)}", locale=locale)
        board_ctx, board = open_page(browser, srv.url, locale=locale)
        pages = (seat_page, board)

        def shown(version: int) -> None:
            for page in pages:
                expect(page.locator("body")).to_have_attribute("data-version", str(version))

        def quiet_turn() -> None:  # a turn with no car out: with stall_turns 1 the game stops
            seat = table.session.state.turn
            assert table.call(Command("roll", {}, seat)).ok and table.call(Command("end", {}, seat)).ok

        shown(table.version)
        expect(seat_page.locator("#game-end")).to_be_hidden()
        expect(board.locator("#match-game")).to_be_hidden()
        quiet_turn()
        shown(table.version)
        expect(seat_page.locator("#game-end")).to_be_visible()
        expect(seat_page.locator("#match-game")).to_have_text(between)
        expect(seat_page.locator("#next-game")).to_be_hidden()  # not the platform's "next game": the match's
        expect(board.locator("#match-game")).to_have_text(between)
        for page in pages:
            check_layout(page, "between two games of a match")
        assert table.call(Command("next_game", {}, 0)).ok
        shown(table.version)
        expect(seat_page.locator("#game-end")).to_be_hidden()
        expect(board.locator("#match-game")).to_be_hidden()
        seat = table.session.state.turn  # the second game: a car of South's goes to North's junkyard
        assert table.call(Command("roll", {}, seat)).ok
        assert table.call(Command("mark_out", {"owner": 1, "car": 4, "by": 0}, seat)).ok
        assert table.call(Command("end", {}, seat)).ok  # South's turn passes with no car out: it stops
        assert table.session.state.match.over
        shown(table.version)
        expect(seat_page.locator("#game-end")).to_be_visible()
        expect(seat_page.locator("#match-game")).to_have_text(last)
        expect(seat_page.locator("#next-game")).to_be_visible()
        expect(board.locator("#match-game")).to_have_text(last)
        for page in pages:
            check_layout(page, "the match's end")
        seat_ctx.close()
        board_ctx.close()


MATCH_SCORES = {
    "en-GB": ("\u2776 Blue wins the match: 1–0 in games won.", "You win! Your score: 1", "Your score: 0"),
    "fr-FR": ("\u2776 Bleu gagne le match\u202f: 1–0 en parties gagnées.",
              "Vous avez gagné\u202f! Votre score\u202f: 1", "Votre score\u202f: 0"),
}


@pytest.mark.parametrize("locale", sorted(MATCH_SCORES))
def test_a_match_ends_with_one_score_its_games_won(browser, tmp_path, locale):
    """At a match's end the seat pages give one score, the games won: the headline says it winner first,
    each seat's own score is its games won, and no other "a–b" (the last game's cars) stands beside it."""
    import re

    from playwright.sync_api import expect

    headline, winner_place, loser_score = MATCH_SCORES[locale]
    options = {"games": 2, "dice_only": True, "stall_turns": 1}
    with (running_app(tmp_path, game="crash", options=options, keepalive=1.0) as (runtime, app),
          live_server(app) as srv):
        table = runtime.table
        opened = [open_page(browser, f"{srv.url}seat/{table.seat_token(seat)}", locale=locale)
                  for seat in (0, 1)]
        seat = table.session.state.turn  # the first game: a quiet turn, a draw
        assert table.call(Command("roll", {}, seat)).ok and table.call(Command("end", {}, seat)).ok
        assert table.call(Command("next_game", {}, 0)).ok
        seat = table.session.state.turn  # the second game: two of South's cars go to North's junkyard
        assert table.call(Command("roll", {}, seat)).ok
        for car in (3, 4):
            assert table.call(Command("mark_out", {"owner": 1, "car": car, "by": 0}, seat)).ok
        assert table.call(Command("end", {}, seat)).ok
        assert table.session.state.match.over and table.session.state.match.wins == (1, 0)
        for (ctx, page), mine in zip(opened, (winner_place, loser_score), strict=True):
            expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
            expect(page.locator("#crash-status")).to_contain_text(headline)
            expect(page.locator("#my-place")).to_contain_text(mine)
            said = " ".join(page.locator(where).inner_text()
                            for where in ("#game-end", "#crash-status", "#crash-match"))
            assert re.findall(r"\d+–\d+", said) == ["1–0"], said
            check_layout(page, "the match's end")
            ctx.close()
