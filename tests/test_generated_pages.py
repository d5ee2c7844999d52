"""The pages of a game that ships none: its commands as forms and its views as labelled lists, built from
its Structs, in French and English, played to the end from two phones, never showing a seat another's
secret. tests/duel is such a game."""

from __future__ import annotations

import json
import re
from typing import Annotated, Literal

import duel
import msgspec
import pytest
from test_phone_pages import CHECK, PHONE
from webfixtures import game_spec, live_server, plug_game, running_app

from companion.gamekit import N_, Move, PerSeat, Seat, Views
from companion.i18n import translator
from companion.outputs.webapp.schemas import generated_pages

ANNA, ZOE = "ANNA-SECRET-SHOUT", "ZOE-SECRET-SHOUT"


def generated(page: str) -> dict:
    """The shapes a page carries for its generated parts."""
    found = re.search(r'<script type="application/json" id="generated">(.*?)</script>', page, re.S)
    assert found, "the page carries no generated shapes"
    return json.loads(found.group(1))


def snapshot(page: str) -> dict:
    return json.loads(re.search(r'id="snapshot">(.*?)</script>', page).group(1))


def fields(shape: dict) -> dict[str, dict]:
    return {field["key"]: field for field in shape["fields"]}


# --- the shapes, from the Structs ---------------------------------------------------------------------
WORDS = {
    "fr": {"choose": "Choisir", "reveal": "Révéler", "hand": "Votre main",
           "hands": ["Pierre", "Papier", "Ciseaux"], "all_in": "Tapis\u202f: la mise compte double",
           "hint": "Gagnés si la manche finit à égalité, perdus sinon.", "winner": "Vainqueur",
           "scores": "Scores", "nothing": "Rien à faire pour vous pour l’instant.",
           "missing": "Votre main\u202f: choisissez d’abord une valeur.",
           "range": "Points sur une égalité\u202f: choisissez un nombre de 0 à 10.",
           "refused": "Le tapis demande une mise de 3\u202f: montez la mise, ou renoncez au tapis."},
    "en": {"choose": "Choose", "reveal": "Reveal", "hand": "Your hand",
           "hands": ["Rock", "Paper", "Scissors"], "all_in": "All in: the stake counts twice",
           "hint": "Won if the round is a draw, lost otherwise.", "winner": "Winner", "scores": "Scores",
           "nothing": "Nothing for you to do right now.", "missing": "Your hand: choose a value first.",
           "range": "Points on a draw: choose a number from 0 to 10.",
           "refused": "All in needs a stake of 3: raise the stake, or leave all in off."},
}


@pytest.mark.parametrize("lang", WORDS)
def test_commands_become_forms_labelled_in_the_readers_language(lang):
    words = WORDS[lang]
    pages = generated_pages(duel.SPEC, translator(lang, duel.SPEC))
    commands = {command["kind"]: command for command in pages["commands"]}
    assert list(commands) == ["choose", "reveal"]  # the order the spec lists them
    assert (commands["choose"]["label"], commands["reveal"]["label"]) == (words["choose"], words["reveal"])
    assert commands["reveal"]["form"] == {"kind": "object", "fields": []}  # a single button
    form = fields(commands["choose"]["form"])
    hand = form["hand"]
    assert (hand["label"], hand["required"]) == (words["hand"], True)
    # the values in the order the game declares them (JSON Schema sorts them), each with its label
    hands = zip(("rock", "paper", "scissors"), words["hands"], strict=True)
    assert hand["shape"] == {"kind": "choice", "options": [{"value": v, "label": text} for v, text in hands]}
    assert form["stake"]["shape"] == {"kind": "integer", "min": 1, "max": 3}
    assert form["draw_bet"]["shape"] == {"kind": "integer", "min": 0, "max": 10, "default": 0}
    assert (form["draw_bet"]["required"], form["draw_bet"]["hint"]) == (False, words["hint"])
    assert form["all_in"] == {"key": "all_in", "label": words["all_in"], "required": False,
                              "shape": {"kind": "boolean", "default": False}}
    assert form["shout"]["shape"] == {"kind": "string", "max_length": 24, "default": ""}
    assert form["guess"]["shape"] == {"kind": "seat", "nullable": True, "default": None}
    assert form["guess"]["label"] == {"fr": "Qui gagne la manche\u202f?", "en": "Who wins the round?"}[lang]


def test_views_say_which_values_are_seats_and_which_lists_hold_one_item_per_seat():
    pages = generated_pages(duel.SPEC, translator("fr", duel.SPEC))
    public = fields(pages["public"])
    assert public["winner"]["label"] == "Vainqueur"
    assert public["winner"]["shape"] == {"kind": "seat", "nullable": True}
    assert public["scores"]["shape"] == {"kind": "array", "items": {"kind": "integer"}, "per_seat": True}
    played = public["played"]["shape"]
    assert (played["kind"], played["per_seat"]) == ("array", False)
    rounds = fields(played["items"])  # a list of nested objects, each field labelled
    assert rounds["winner"]["label"] == "Manche gagnée par" and rounds["winner"]["shape"]["kind"] == "seat"
    assert rounds["hands"]["shape"]["items"]["options"][0] == {"value": "rock", "label": "Pierre"}
    private = fields(pages["private"])
    assert private["hand"]["shape"]["nullable"] and private["hand"]["label"] == "Votre main"


class Roll(msgspec.Struct):
    how_many: Annotated[int, msgspec.Meta(gt=0, lt=4)]
    target: Seat
    targets: list[Seat] = []
    speed: Literal["slow", "fast", ""] = "slow"


class Corner(msgspec.Struct):
    at: tuple[int, int]
    notes: dict[str, int]
    inner: Corner | None = None  # a Struct that holds itself


class Board(msgspec.Struct):
    corner: Annotated[Corner, msgspec.Meta(title=N_("Players"))]
    owners: PerSeat[Seat | None]
    turn: Seat | None = None


def test_a_game_that_declares_no_labels_still_reads_and_every_schema_shape_is_read():
    def public(state) -> Board:
        return None

    def private(state, seat: int) -> Board:
        return None

    spec = game_spec(name="plain", moves={"roll": Move(Roll, lambda *a: None, line="")},
                     views=Views(public, private))
    pages = generated_pages(spec, translator("fr", spec))
    (roll,) = pages["commands"]
    # no label declared: the kind made readable, then looked up (the platform's catalog has "Roll")
    assert roll["label"] == "Lancer"
    form = fields(roll["form"])
    assert form["how_many"]["label"] == "How many"  # no title, and no catalog has it: still readable
    assert form["how_many"]["shape"] == {"kind": "integer", "min": 1, "max": 3}  # exclusive bounds, inclusive
    assert form["target"]["shape"] == {"kind": "seat"}
    assert form["targets"]["shape"] == {"kind": "array", "items": {"kind": "seat"}, "per_seat": False,
                                        "default": []}
    # declared order; an empty value stays empty (as a msgid, "" would read as the catalog's header)
    options = form["speed"]["shape"]["options"]
    assert options == [{"value": "slow", "label": "Slow"}, {"value": "fast", "label": "Fast"},
                       {"value": "", "label": ""}]
    board = fields(pages["public"])
    assert board["corner"]["label"] == "Joueurs"  # its field's title, not the nested Struct's own
    corner = fields(board["corner"]["shape"])
    assert corner["at"]["shape"] == {"kind": "array", "items": {"kind": "integer"}, "per_seat": False,
                                     "min_items": 2, "max_items": 2}
    assert corner["notes"]["shape"] == {"kind": "map", "values": {"kind": "integer"}}
    assert fields(corner["inner"]["shape"])["inner"]["shape"]["nullable"]
    deep = json.dumps(corner)
    assert '"any"' in deep  # a Struct that holds itself ends as plain values, not an endless shape
    assert board["owners"]["shape"] == {"kind": "array", "items": {"kind": "seat", "nullable": True},
                                        "per_seat": True}
    assert board["turn"]["shape"] == {"kind": "seat", "nullable": True, "default": None}


# --- the pages, through the app -----------------------------------------------------------------------
@pytest.fixture
def duel_table(tmp_path, monkeypatch):
    plug_game(monkeypatch, duel.SPEC)
    with running_app(tmp_path, game="duel", keepalive=1.0) as (runtime, app):
        for seat, name in enumerate(("Anna", "Zoé")):
            runtime.table.seating(lambda roster, count, seat=seat, name=name: roster.claim(seat, name, count))
        yield runtime, app


def test_a_game_without_pages_gets_the_generated_ones_and_only_its_own_seat_sees_its_choice(duel_table):
    runtime, app = duel_table
    table, client = runtime.table, app.test_client()
    choice = {"hand": "rock", "stake": 2, "shout": ANNA}
    answer = client.post("/api/command", json={"kind": "choose", "args": choice},
                         headers={"X-Seat-Token": table.seat_token(0)})
    assert answer.status_code == 200, answer.get_json()
    for lang, label in (("fr", "Choisir"), ("en", "Choose")):
        mine = client.get(f"/seat/{table.seat_token(0)}?lang={lang}").get_data(as_text=True)
        assert generated(mine)["commands"][0]["label"] == label
        assert "/static/generated.js" in mine and 'id="command-forms"' in mine and 'id="public-view"' in mine
        assert ANNA in mine  # its own choice, in its own page's snapshot
        theirs = client.get(f"/seat/{table.seat_token(1)}?lang={lang}").get_data(as_text=True)
        board = client.get(f"/?lang={lang}").get_data(as_text=True)
        assert "/static/generated.js" in board and "public" in generated(board)
        for page in (theirs, board):
            assert ANNA not in page and "rock" not in json.dumps(snapshot(page))
        # each seat's page knows what that seat may send now
        assert (snapshot(mine)["legal"], snapshot(theirs)["legal"]) == ([], ["choose"])
        assert snapshot(mine)["private"]["hand"] == "rock" and snapshot(theirs)["private"]["hand"] is None


def test_a_game_with_pages_of_its_own_keeps_them(tmp_path):
    with running_app(tmp_path, game="dice") as (runtime, app):
        token = runtime.table.seating(lambda roster, count: roster.claim(0, "Ada", count))
        client = app.test_client()
        for path in (f"/seat/{token}", "/"):
            page = client.get(path).get_data(as_text=True)
            assert "/games/dice/" in page
            assert "generated.js" not in page and 'id="generated"' not in page


# --- two phones and the scoreboard in chromium ---------------------------------------------------------
def open_phone(browser, url: str, lang: str):
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                              locale="fr-FR" if lang == "fr" else "en-US")
    page = ctx.new_page()
    page.goto(f"{url}?lang={lang}")
    return ctx, page


def choose(page, hand: int, stake: str, *, more: int = 0, bet: str | None = None, all_in: bool = False,
           shout: str = "", guess: re.Pattern | None = None) -> None:
    """Fill the choose form as a player does: tap a hand and a stake, step or type the points on a draw,
    tap a seat by its name."""
    form = page.locator("#command-choose")
    form.locator("#command-choose-hand button").nth(hand).click()
    form.locator("#command-choose-stake").get_by_role("button", name=stake, exact=True).click()
    if guess is not None:
        form.locator("#command-choose-guess").get_by_role("button", name=guess, exact=True).click()
    for _ in range(more):
        form.get_by_role("button", name=re.compile("^(One more|Un de plus)$")).click()
    if bet is not None:
        form.locator("#command-choose-draw_bet").fill(bet)
    form.locator("#command-choose-all_in").set_checked(all_in)
    form.locator("#command-choose-shout").fill(shout)
    form.locator("button.send").click()


@pytest.mark.browser
@pytest.mark.parametrize("lang", WORDS)
def test_two_phones_play_a_game_without_pages_to_its_end_on_the_generated_ones(browser, duel_table, lang):
    from playwright.sync_api import expect

    words = WORDS[lang]
    runtime, app = duel_table
    table = runtime.table
    state = lambda: table.latest.session.state  # noqa: E731
    with live_server(app) as srv:
        opened = [open_phone(browser, f"{srv.url}seat/{table.seat_token(0)}", lang),
                  open_phone(browser, f"{srv.url}seat/{table.seat_token(1)}", lang),
                  open_phone(browser, srv.url, lang)]
        (_, anna), (_, zoe), (_, board) = opened
        sent = []  # the commands Zoé's page sends
        zoe.on("request", lambda request: sent.append(request) if "/api/command" in request.url else None)

        def settled_and_fitting() -> None:
            """Every page shows the table's version, fits 390 px and has no control under 44 px."""
            for page in (anna, zoe, board):
                expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
                found = page.evaluate(CHECK, [])
                assert found["wide"] <= PHONE["width"], (page.url, found["wide"])
                assert not found["small"], (page.url, found["small"])

        def kept(secret: str, *pages) -> None:
            for page in pages:
                assert secret not in page.content()

        try:
            settled_and_fitting()
            expect(anna.locator("#command-choose button.send")).to_have_text(words["choose"])
            expect(anna.locator("#command-reveal")).to_be_hidden()
            # Refusals, in words: a field left empty, a number out of range (both from the page itself),
            # and the rules' own; none changes anything.
            zoe.locator("#command-choose button.send").click()
            expect(zoe.locator("#message")).to_have_text(words["missing"])
            assert not sent
            # by mark and name, as every output names a seat
            expect(anna.locator("#command-choose-guess button")).to_have_text(["\u2776 Anna", "\u2777 Zoé"])
            choose(anna, 0, "2", more=2, all_in=True, shout=ANNA, guess=re.compile(r"\bAnna$"))
            expect(anna.locator("#message")).to_have_text(words["refused"])
            assert state().choices == (None, None)
            # What she chose stays in the form: a bigger stake, and it goes.
            anna.locator("#command-choose-stake").get_by_role("button", name="3", exact=True).click()
            anna.locator("#command-choose button.send").click()
            expect(anna.locator("#command-choose")).to_be_hidden()
            expect(anna.locator("#nothing-to-do")).to_have_text(words["nothing"])
            expect(anna.locator("#private-view")).to_contain_text(ANNA)
            expect(anna.locator("#private-view")).to_contain_text(words["hands"][0])
            assert state().choices[0] == duel.Choose("rock", 3, 2, True, ANNA, guess=0)
            settled_and_fitting()
            kept(ANNA, zoe, board)

            choose(zoe, 2, "1", bet="99", shout=ZOE)
            expect(zoe.locator("#message")).to_have_text(words["range"])
            assert not sent and state().choices[1] is None
            choose(zoe, 2, "1", bet="1", shout=ZOE)
            for page in (anna, zoe):
                expect(page.locator("#command-reveal button.send")).to_be_visible()
                expect(page.locator("#command-reveal button.send")).to_have_text(words["reveal"])
            settled_and_fitting()
            kept(ANNA, zoe, board)
            kept(ZOE, anna, board)

            zoe.locator("#command-reveal button.send").click()
            # rock beats scissors: 3 twice, less 2, and 1 for naming the winner; 0 less 1
            scores = board.locator('#public-view > dd[data-key="scores"]')
            expect(scores.locator("dd")).to_have_text(["5", "-1"])
            expect(scores.locator("dt")).to_have_text(["\u2776 Anna", "\u2777 Zoé"])
            settled_and_fitting()
            assert table.latest.public["scores"] == [5, -1]
            expect(board.locator('#public-view > dd[data-key="played"]')).to_contain_text(ZOE)  # turned up
            # Each form starts afresh for the next round.
            expect(anna.locator("#command-choose-draw_bet")).to_have_value("0")
            expect(anna.locator("#command-choose-all_in")).not_to_be_checked()

            choose(anna, 1, "1")
            choose(zoe, 1, "2")
            anna.locator("#command-reveal button.send").click()
            for page in (anna, zoe, board):
                winner = page.locator('#public-view > dd[data-key="winner"]')
                expect(winner).to_have_text("\u2776 Anna")
                expect(page.locator('#public-view > dt').nth(5)).to_have_text(words["winner"])
            for page in (anna, zoe):
                expect(page.locator("#command-forms form:visible")).to_have_count(0)
                expect(page.locator("#nothing-to-do")).to_be_hidden()
            settled_and_fitting()
            assert duel.SPEC.over(state()) and table.latest.public["winner"] == 0
        finally:
            for ctx, _ in opened:
                ctx.close()
