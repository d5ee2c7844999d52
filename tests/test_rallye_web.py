"""Le rallye hasardeux over HTTP: a whole rally through seat tokens, the pages, the printable track, the data
files, and the answer window closing with "no" on the real table."""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path

import pytest
from PIL import Image
from polling import wait_for
from rallye_play import record
from webfixtures import host_of, live_server, post_json, read_json, running_app

from companion.core.registry import get
from companion.core.session import Setup
from companion.core.table import Table
from companion.gamekit.contract import Command
from companion.games.rallye import printable, rules
from companion.storage.store import Store


def seat_command(mine: dict, public: dict, rng: random.Random, eager: bool = False) -> tuple[str, dict]:
    """What a player sends from their own page: an answer, a choice, a card to play, or the roll."""
    legal, plays = mine["legal"], mine["plays"]
    pending = public["pending"]
    if "cancel" in legal:
        cancels = [p for p in plays if p["command"] == "cancel"]
        if cancels and rng.random() < 0.5:
            return "cancel", {"card": cancels[0]["card"]}
        return "decline", {}
    if "choose" in legal:
        return "choose", {"seat": rng.choice(pending["choices"])}
    if "exit" in legal:
        if "stay" in legal and rng.random() < 0.3:
            return "stay", {}
        return "exit", {"card": pending["choices"][0]}
    if "discard" in legal:
        return "discard", {"card": next(p["card"] for p in plays if p["command"] == "discard")}
    if "place_passage" in legal:
        return "place_passage", {"card": rng.choice([c["position"] for c in public["circuit"]
                                                    if c["kind"] == "route"])}
    played = [p for p in plays if p["command"] in ("lay", "key", "lock", "access")]
    if played and (eager or rng.random() < 0.3):
        play = rng.choice(played)
        where = rng.choice(play["targets"])
        if play["command"] == "lay":
            return "lay", {"card": play["card"], "at": where}
        return play["command"], {"passage": where}
    assert "roll" in legal, mine
    return "roll", {}


@pytest.mark.slow
def test_a_whole_rally_through_seat_tokens(tmp_path):
    rng = random.Random(7)
    options = {"players": 4, "route_cards": 16, "laps": 2}
    with running_app(tmp_path, game="rallye", options=options) as (runtime, app), live_server(app) as server:
        port = server.port
        tokens = [runtime.table.seat_token(seat) for seat in range(4)]
        kinds, played_out_of_turn, accepted = set(), 0, 0
        for _ in range(3000):  # the deck is shuffled by the OS: most rallies end in 120–390 commands
            state = read_json(port, "/api/state")
            public = state["public"]
            if public["phase"] == "over":
                break
            # nothing public holds a hand or a face-down face
            text = json.dumps(public)
            assert '"hand"' not in text
            hidden = [c for c in public["circuit"] if c["kind"] == "route" and not c["face_up"]]
            assert all(c["effect"] is None and c["surprise"] is None for c in hidden)
            mine = {s: read_json(port, f"/api/seat/{tokens[s]}")["private"] for s in range(4)}
            seat = public["actor"]
            out_of_turn = [s for s in range(4) if s != seat and any(
                p["command"] in ("lay", "key", "lock", "access") for p in mine[s]["plays"])]
            eager = bool(out_of_turn) and rng.random() < 0.2
            if eager:
                seat = rng.choice(out_of_turn)
            kind, args = seat_command(mine[seat], public, rng, eager)
            answers = ("decline", "cancel", "choose", "exit", "stay", "discard", "place_passage")
            pending = public["pending"] or {}
            asked = pending.get("asked") or [public["actor"]]  # the victims of one effect answer each
            strangers = [s for s in range(4) if s not in asked and s != public["actor"]]
            if kind in answers and strangers and rng.random() < 0.2:  # no other seat answers for them
                other = rng.choice(strangers)
                status, body = post_json(port, "/api/command", {"kind": kind, "args": args},
                                         {"X-Seat-Token": tokens[other]})
                assert status == 409 and body["error"], body
            status, body = post_json(port, "/api/command", {"kind": kind, "args": args},
                                     {"X-Seat-Token": tokens[seat]})
            assert status == 200, (kind, args, body)
            kinds.add(kind)
            accepted += 1
            played_out_of_turn += eager
        final = read_json(port, "/api/state")["public"]
        assert final["phase"] == "over" and sorted(final["ranking"]) == [0, 1, 2, 3]
        assert {"place_passage", "roll", "lay"} <= kinds and played_out_of_turn and accepted > 40


def test_the_pages_carry_the_games_fragments_and_the_printable_track(tmp_path):
    with running_app(tmp_path, game="rallye", options={"players": 2}) as (runtime, app):
        client = app.test_client()
        token = runtime.table.seat_token(1)
        page = client.get("/?lang=fr").get_data(as_text=True)
        assert 'id="rallye-circuit"' in page and "/games/rallye/scoreboard.js" in page
        assert "/games/rallye/style.css" in page and "Le rallye hasardeux" in page
        seat = client.get(f"/seat/{token}?lang=fr").get_data(as_text=True)
        assert 'id="rallye-hand"' in seat and 'id="rallye-ask"' in seat and "/games/rallye/seat.js" in seat
        for file in ("scoreboard.js", "seat.js", "style.css"):
            assert client.get(f"/games/rallye/{file}").status_code == 200
        track = client.get("/games/rallye/track.pdf")
        assert track.status_code == 200 and track.mimetype == "application/pdf"
        assert track.get_data() == printable.PDF.read_bytes()
        history = json.loads(page.split('id="history-lines">')[1].split("</script>")[0])
        assert history["decline"] == "Le coup a frappé {who}"
        strings = json.loads(page.split('id="rallye-strings">')[1].split("</script>")[0])
        # the turns tacks still hold, by French plural forms (issue 24: "(1 tours)", "(0 tours)")
        assert strings["turns"] == ["repart au prochain tour", "1 tour à passer", "2 tours à passer"]
        english = client.get("/?lang=en").get_data(as_text=True)
        strings = json.loads(english.split('id="rallye-strings">')[1].split("</script>")[0])
        assert strings["turns"] == ["sets off next turn", "1 turn to sit out", "2 turns to sit out"]


@pytest.mark.parametrize(("lang", "swap_help", "swap_line", "held"), [
    ("fr", "Défaussez-la pour permuter deux cartes du circuit, passages compris\u202f; les deux sont "
           "retournées.",
     "{who} a permuté deux cartes du circuit", "immobile jusqu’au retrait des punaises"),
    ("en", "Discard it to swap two cards of the circuit, passages included; both are turned over.",
     "{who} swapped two cards of the circuit", "held by tacks"),
])
def test_the_swap_card_and_the_tacks_read_right_on_the_pages(tmp_path, lang, swap_help, swap_line, held):
    """Issue 31: the rules help and the history said the swap card swaps "two route cards" though passages
    swap too; the French status of a player held by tacks spoke of every player as one man ("retenu")."""
    with running_app(tmp_path, game="rallye", options={"players": 2}) as (runtime, app):
        client = app.test_client()
        page = client.get(f"/?lang={lang}").get_data(as_text=True)
        history = json.loads(page.split('id="history-lines">')[1].split("</script>")[0])
        assert history["swap_cards"] == swap_line
        assert not [line for line in history.values() if re.search(r"\{who\} est \w+", line)], (
            "a history line is said of any player: « {who} a … », never « {who} est sorti »")
        strings = json.loads(page.split('id="rallye-strings">')[1].split("</script>")[0])
        assert strings["statuses"]["caught"] == held
        seat = client.get(f"/seat/{runtime.table.seat_token(1)}?lang={lang}").get_data(as_text=True)
        cards_help = re.findall(r"<dd>(.*?)</dd>", html.unescape(seat), re.S)
        assert swap_help in cards_help, cards_help
        assert not [text for text in cards_help if "route cards" in text or "cartes route" in text]


def page_images(pdf: bytes) -> list[bytes]:
    """Each page's picture as the PDF holds it (the page's pixels, CCITT G4), without the writer's own
    wrapping: a new Pillow may lay the file out otherwise and print the same pages."""
    return re.findall(rb"/Subtype\s*/Image\b.*?stream\r?\n(.*?)\r?\nendstream", pdf, re.S)


def pixels(png: Path) -> tuple:
    with Image.open(png) as image:
        return image.mode, image.size, image.tobytes()


def test_the_printable_track_is_made_by_its_script_and_holds_every_card(tmp_path):
    pdf, preview = tmp_path / "track.pdf", tmp_path / "track.png"
    printable.write(pdf, preview)
    fix = "run python -m companion.games.rallye.printable"
    assert page_images(pdf.read_bytes()) == page_images(printable.PDF.read_bytes()), fix
    assert len(page_images(pdf.read_bytes())) == 3
    assert pixels(preview) == pixels(printable.PREVIEW), fix
    pages = printable.pages()
    assert len(pages) == 3 and all(p.size == printable.A4 for p in pages)  # 47 cards, 16 a page, at A4
    assert pdf.read_bytes().count(b"/Type /Page\n") == 3


@pytest.mark.parametrize(("key", "edit", "field", "said"), [
    ("route", ('effect = "reverse"', 'effect = "teleport"'), "plain[11].effect",
     "effet «\u202fteleport\u202f» inconnu"),
    ("surprises", ("key = 12", "key = 11"), "cards", "46 cartes surprise"),
    ("route", ("padlocks = 3", "padlocks = nine"), "passages", "TOML"),
])
def test_a_bad_data_file_is_refused_by_the_host_naming_it_and_its_field_in_french(tmp_path, key, edit, field,
                                                                                 said):
    with running_app(tmp_path, game="rallye") as (runtime, app), live_server(app) as server:
        text = get("rallye").bundled(key).text.replace(*edit)
        before = read_json(server.port, "/api/state")["version"]
        status, body = post_json(server.port, "/api/command?lang=fr", {"kind": "new_game", "args": {
            "game": "rallye", "data": {key: {"name": "maboite.toml", "text": text}}}}, host_of(runtime))
        assert status == 409 and "maboite.toml" in body["error"] and said in body["error"], body
        if field != "passages":
            assert field in body["error"]
        assert read_json(server.port, "/api/state")["version"] == before


# --- the answer window on the real table ---------------------------------------------------------
def asking(state: rules.State) -> bool:
    return state.pending is not None and state.pending.kind == "cancel"


def recorded_until_a_cancel_window(store: Store, options: dict) -> rules.State:
    return record(store, options, 1, asking)


@pytest.mark.slow
def test_the_answer_window_closes_with_no_sent_by_the_table_itself(tmp_path):
    store = Store(tmp_path / "s.db")
    asked = recorded_until_a_cancel_window(store, {"players": 3, "route_cards": 10, "auto_passages": True,
                                                   "answer_seconds": 2})
    victim = asked.pending.seat
    table = Table(store, Setup("rallye")).start()
    try:
        version = table.version
        assert table.latest.public["pending"]["kind"] == "cancel"
        assert table.latest.public["pending"]["seconds"] == 2
        wait_for(lambda: table.version > version, timeout=15)
        record = store.records_since_last("new_game")[-(table.version - version)]
        assert (record.kind, record.seat, record.args) == ("decline", None, {})  # recorded like any command
        session = table.latest.session
        while session.before is not None and session.before.state != asked:
            session = session.before
        assert session.history[-1] == {"seat": victim, "kind": "decline"}  # "the threat struck <victim>"
        assert Command("decline") == rules.deadline(asked)[1]
    finally:
        table.stop()
        store.close()


def test_an_answer_in_time_leaves_nothing_for_the_table_to_send(tmp_path):
    store = Store(tmp_path / "s.db")
    asked = recorded_until_a_cancel_window(store, {"players": 3, "route_cards": 10, "auto_passages": True,
                                                   "answer_seconds": 30})
    table = Table(store, Setup("rallye")).start()
    try:
        version = table.version
        result = table.call(Command("decline", {}, asked.pending.seat))
        assert result.ok and table.version == version + 1
        assert store.records_since_last("new_game")[-1].seat == asked.pending.seat
    finally:
        table.stop()
        store.close()
