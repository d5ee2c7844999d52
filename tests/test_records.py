"""Game records: a finished game kept as JSON in the state dir, listed, downloaded, exported for BG Stats."""

from __future__ import annotations

import json
import random
import sqlite3

import crash_play
import pytest
from daemon_process import DaemonProcess
from test_chaos import Mirror
from webfixtures import running_app

from companion.benchmark.players import play_game
from companion.cli import main
from companion.core import registry
from companion.core.session import NEW_GAME, replay
from companion.gamekit.contract import Command, Result
from companion.gamekit.draws import Draws
from companion.outputs import records

BGSTATS_KEYS = {"games", "players", "locations", "plays"}


def play_crash_to_the_end(daemon: DaemonProcess, names: list[str]) -> Mirror:
    """A game of Crash! through HTTP: two seats the host names, each phone steering the quick way."""
    host = {"X-Host-Token": daemon.host_token}
    assert daemon.post("/api/command", {"kind": NEW_GAME, "args": {"game": "crash"}}, host)[0] == 200
    phones = {}
    for seat, name in enumerate(names):
        status, answer = daemon.post(f"/api/seats/{seat}/assign", {"name": name}, host)
        assert status == 200, answer
        phones[seat] = {"X-Seat-Token": answer["token"]}
    mirror = Mirror(daemon.state_dir / "companion.db")
    for _ in range(3000):
        mirror.sync()
        state = mirror.session.state
        if mirror.session.spec.over(state):
            return mirror
        command = crash_play.quick_command(state)
        actor = mirror.session.spec.actor(state)
        status, answer = daemon.post("/api/command", {"kind": command.kind, "args": command.args},
                                     phones.get(actor, host))
        assert status == 200, answer
    raise AssertionError("the game did not end")


@pytest.mark.slow
def test_a_finished_game_is_kept_listed_downloaded_and_exported(tmp_path, capsys):
    daemon = DaemonProcess(tmp_path / "state").start()
    try:
        assert daemon.get("/api/state")["game"] == "dice"
        mirror = play_crash_to_the_end(daemon, ["Ada", "Zoé"])
        kept = list((daemon.state_dir / "records").glob("*.json"))
        assert len(kept) == 1, "the record is written when the game ends"
        record = json.loads(kept[0].read_text())
        downloaded = daemon.get("/api/record")
        bgsplay = daemon.get("/api/record?format=bgstats")
    finally:
        daemon.stop()
    assert downloaded == record
    assert record["game"] == "crash" and record["id"] == kept[0].stem
    assert [p["name"] for p in record["players"]] == ["Ada", "Zoé"]
    assert record["final"] == mirror.session.spec.public_json(mirror.session.state)
    winner = record["final"]["match"]["winner"]  # None: a drawn match
    assert record["result"]["winners"] == ([] if winner is None else [winner])
    session, version = replay(records_of(record))
    assert version == mirror.version and session.spec.public_json(session.state) == record["final"]
    assert all("draws" in r for r in record["records"]) and any(r["draws"] for r in record["records"])

    assert main(["records", "list", "--state-dir", str(daemon.state_dir)]) == 0
    listed = capsys.readouterr().out
    assert record["id"] in listed and "Ada, Zoé" in listed
    assert main(["records", "show", record["id"], "--format", "bgstats", "--state-dir",
                 str(daemon.state_dir)]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported == bgsplay
    assert BGSTATS_KEYS <= set(exported)
    (play,) = exported["plays"]
    winners = [p["playerRefId"] for p in play["playerScores"] if p["winner"]]
    assert winners == [seat + 1 for seat in record["result"]["winners"]]
    assert {p["id"]: p["name"] for p in exported["players"]} == {1: "Ada", 2: "Zoé"}
    assert play["gameRefId"] == exported["games"][0]["id"] and exported["games"][0]["name"] == "Crash!"


def records_of(record: dict):
    from companion.storage.store import Record

    return [Record(r["version"], r["kind"], r["seat"], r["args"], r["draws"], r["at"])
            for r in record["records"]]


def test_no_record_before_the_game_is_over(tmp_path):
    """A game that hides hands has no record to download while it runs: its draws would tell them."""
    with running_app(tmp_path, game="schacht", options={"players": 3}) as (runtime, app):
        client = app.test_client()
        answer = client.get("/api/record", headers={"Accept-Language": "fr"})
        assert answer.status_code == 409
        assert "pas terminée\u202f:" in answer.get_json()["error"]
        with pytest.raises(records.RecordError):
            runtime.table.exports.finished()
        page = client.get("/").get_data(as_text=True)
        assert 'id="download-game"' in page and "hidden" in page.split('id="download-game"')[1].split(">")[0]


def test_an_unknown_or_malformed_record_id_is_refused_by_name(tmp_path, capsys):
    assert main(["records", "show", "../../etc/passwd", "--state-dir", str(tmp_path)]) == 2
    assert "not a record id" in capsys.readouterr().err
    assert main(["records", "show", "20261123-220000-crash-v3", "--state-dir", str(tmp_path)]) == 2
    assert "no such record" in capsys.readouterr().err
    assert main(["records", "list", "--state-dir", str(tmp_path)]) == 0
    assert "no finished game" in capsys.readouterr().out


@pytest.mark.parametrize("game, public, expected", [
    ("schacht", {"final": {"scores": [3, 5, 1], "winners": [1], "penalties": [], "early": False}},
     Result((1,), (3, 5, 1))),
    ("gewalt", {"winners": [2], "scores": [{"seat": 1, "total": 1}, {"seat": 0, "total": 1},
                                           {"seat": 2, "total": 4}]}, Result((2,), (1, 1, 4))),
    ("crash", {"match": {"over": True, "games": 2, "winner": None, "wins": [1, 1]},
               "result": {"junkyards": [0, 0]}}, Result((), (1, 1))),
    ("crash", {"match": {"over": True, "games": 3, "winner": 0, "wins": [2, 1]},
               "result": {"junkyards": [3, 0]}}, Result((0,), (2, 1))),
    # a single game scores the cars in each junkyard, as its pages' headline says ("Max wins 3-0")
    ("crash", {"match": {"over": True, "games": 1, "winner": 1, "wins": [0, 1]},
               "result": {"junkyards": [0, 3]}}, Result((1,), (0, 3))),
    ("rallye", {"players": 3, "ranking": [2, 0]}, Result((2,), None, (2, None, 1))),
])
def test_each_game_declares_its_result_from_its_final_view(game, public, expected):
    assert registry.get(game).result(public) == expected


@pytest.mark.parametrize("game", ["crash", "gewalt", "rallye", "schacht"])
def test_a_random_finished_game_has_its_winners_and_a_score_or_place_for_each_seat(game, seeded_draws):
    spec = registry.get(game)
    options, state = spec.start({}, Draws())
    seats = spec.seats_in_play(options)
    states = [state]
    play_game(spec, options, random.Random(11), lambda command: states.append(
        spec.play(states[-1], command, Draws())[0]) or states[-1], state)
    assert spec.over(states[-1])
    outcome = spec.result(spec.public_json(states[-1]))
    assert set(outcome.winners) <= set(range(seats))
    assert outcome.winners or len(set(outcome.scores)) == 1  # no winner only in a tie
    assert (outcome.scores is None) != (outcome.ranks is None)
    assert len(outcome.scores or outcome.ranks) == seats


def test_the_table_s_own_commands_are_unchanged_by_the_record(tmp_path):
    with running_app(tmp_path) as (runtime, app):
        assert runtime.table.call(Command("roll")).ok
        assert app.test_client().get("/api/state").get_json()["version"] == runtime.table.version


def test_the_daemon_keeps_the_record_and_a_backup_when_a_game_ends(tmp_path, seeded_draws):
    from daemon_process import free_port

    from companion.config import Config
    from companion.wiring import Companion

    config = Config(state_dir=str(tmp_path), host="127.0.0.1", port=free_port(), backup_minutes=60,
                    backup_keep=2)
    companion = Companion(config, simulate=True).start()
    try:
        table = companion.table
        assert table.call(Command(NEW_GAME, {"game": "crash"}), host=True).ok
        for _ in range(3000):
            state = table.session.state
            if table.session.spec.over(state):
                break
            assert table.call(crash_play.quick_command(state)).ok
        assert table.session.spec.over(table.session.state)
        kept = list((tmp_path / "records").glob("*.json"))
        backups = list((tmp_path / "backups").glob("companion-*.db"))
        assert len(kept) == 1 and len(backups) == 1  # the game's end: its record and a backup at once
        first = json.loads(kept[0].read_text())
        assert first["final"] == table.latest.public
    finally:
        companion.stop()
    kept[0].unlink()  # as if the power went between the last commit and the record
    again = Companion(config, simulate=True).start()
    again.stop()
    assert json.loads(kept[0].read_text()) == first


def test_the_daemon_keeps_a_game_the_host_ends_as_abandoned(tmp_path):
    """Ended mid-game by the host: kept beside the finished ones, with no winner, and the same record the
    phones download."""
    from daemon_process import free_port

    from companion.config import Config
    from companion.wiring import Companion

    config = Config(state_dir=str(tmp_path), host="127.0.0.1", port=free_port(), backup_minutes=0)
    companion = Companion(config, simulate=True).start()
    try:
        table = companion.table
        assert table.call(Command(NEW_GAME, {"game": "rallye", "options": {"players": 2}}), host=True).ok
        assert table.call(Command("end_game"), host=True).ok
        kept = list((tmp_path / "records").glob("*.json"))
        assert len(kept) == 1
        record = json.loads(kept[0].read_text())
        assert (record["game"], record["abandoned"], record["result"]["winners"]) == ("rallye", True, [])
        assert record == json.loads(json.dumps(table.exports.finished()))
    finally:
        companion.stop()


def test_the_daemon_backs_up_after_enough_play_keeping_the_newest(tmp_path):
    from daemon_process import free_port

    from companion.config import Config
    from companion.wiring import Companion

    config = Config(state_dir=str(tmp_path), host="127.0.0.1", port=free_port(), backup_minutes=1e-7,
                    backup_keep=2)
    companion = Companion(config, simulate=True).start()
    try:
        for _ in range(10):  # every second command finds a backup due (the first starts the count)
            assert companion.table.call(Command("roll")).ok
        version = companion.table.version
    finally:
        companion.stop()
    backups = sorted((tmp_path / "backups").glob("companion-*.db"))
    assert [int(p.name.split("-")[1]) for p in backups] == [4, 5]
    newest = sqlite3.connect(f"file:{backups[-1]}?mode=ro", uri=True)
    try:  # the newest backup was made after the last command but one (the last started a new count)
        assert newest.execute("SELECT max(version) FROM records").fetchone()[0] == version - 1
    finally:
        newest.close()


def test_the_scoreboard_offers_the_download_once_the_game_ends(tmp_path, seeded_draws):
    with running_app(tmp_path, game="crash") as (runtime, app):
        table, client = runtime.table, app.test_client()
        while not table.session.spec.over(table.session.state):
            assert table.call(crash_play.quick_command(table.session.state)).ok
        page = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
        link = page.split('id="download-game"')[1].split(">")[0]
        assert "hidden" not in link and "Télécharger cette partie" in page
        answer = client.get("/api/record")
        assert answer.status_code == 200
        record = answer.get_json()
        assert answer.headers["Content-Disposition"] == f'attachment; filename="{record["id"]}.json"'
        assert record["final"] == table.latest.public
        answer = client.get("/api/record?format=bgstats")
        assert answer.headers["Content-Disposition"].endswith('.bgsplay"')
        assert BGSTATS_KEYS <= set(answer.get_json())


@pytest.mark.browser
def test_the_download_appears_live_on_a_phone_when_the_game_ends(tmp_path, browser, seeded_draws):
    from playwright.sync_api import expect
    from webfixtures import live_server

    with running_app(tmp_path, game="crash", keepalive=1.0) as (runtime, app), live_server(app) as srv:
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True, locale="fr-FR", accept_downloads=True)
        try:
            page = ctx.new_page()
            page.goto(srv.url)
            expect(page.locator("#live")).to_have_attribute("data-state", "live")
            link = page.locator("#download-game")
            expect(link).to_be_hidden()
            table = runtime.table
            while not table.session.spec.over(table.session.state):
                assert table.call(crash_play.quick_command(table.session.state)).ok
            expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
            expect(link).to_be_visible()
            expect(link).to_have_text("Télécharger cette partie")
            assert link.bounding_box()["height"] >= 44
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            with page.expect_download() as download:
                link.click()
            saved = json.loads(open(download.value.path(), encoding="utf-8").read())
            assert saved["final"] == table.latest.public
            assert download.value.suggested_filename == f"{saved['id']}.json"
        finally:
            ctx.close()
