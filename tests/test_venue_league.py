"""A league across venues, run for real: two venue brokers bridged to a league broker by Mosquitto's own
bridge, set up with `companion venue` as docs/venue.md says; through the league broker killed dead
mid-evening, a venue broker killed dead meanwhile (its bridge and what it queued for the league with it)
and a bridge cut, every result is on the league's dashboard once and on its venue's once, and the
standings across venues are what the results say."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
import venue_parts
from daemon_process import free_port
from mosquitto import Mosquitto, require_mosquitto
from polling import wait_for
from venue_chaos_parts import Link, PlayingTable, exactly_once_in_order, kept_versions
from venue_parts import VENUE

from companion.cli import main
from companion.core.table import Table
from companion.gamekit.contract import Command
from companion.outputs.venue.publishing import Publishing, scoreboard_view
from companion.storage.store import Store
from companion.venue import access, topics
from companion.venue.board import Board, places_of
from companion.venue.collector import Collector
from companion.venue.link import Broker
from companion.venue.settings import read_section

broker = venue_parts.broker  # this module's fixture
VENUES = {"club": ["t1", "t2"], "pub": ["t1", "t2"]}  # two venues' `t1` are two tables of the league


class FolderBroker(Mosquitto):
    """Mosquitto on the config `companion venue` wrote in `folder`, on loopback, its log on stderr."""

    def __init__(self, folder: Path, port: int):
        self.folder, self.port, self.process = folder, port, None
        conf = folder / "mosquitto.conf"
        text = conf.read_text().replace(f"listener {port}\n", f"listener {port} 127.0.0.1\n")
        # Run as root, mosquitto would become user "mosquitto", who cannot read this folder.
        conf.write_text(text + "log_dest stderr\n" + ("user root\n" if os.geteuid() == 0 else ""))


class CrashTable:
    """A real table (store, outbox, sender) on the [venue] file add-table wrote, playing Crash! games to
    their end; it notes each acknowledged command's version and each finished game's result."""

    def __init__(self, path: Path, section: Path, seed: int):
        self.venue = read_section(section)
        self.store = Store(path)
        self.publishing = Publishing(self.store, self.venue)
        self.table = Table(self.store)
        self.table.outbox = self.publishing.hook
        self.publishing.follow(self.table)
        self.table.start()
        self.publishing.start()
        self.rng = random.Random(seed)
        self.acked: list[int] = []
        self.finished: dict[int, dict] = {}  # the version that ended a game: its public view

    def play(self, n: int) -> None:
        import crash_play

        for _ in range(n):
            session = self.table.session
            if session is None or session.game != "crash" or session.spec.over(session.state):
                command = Command("new_game", {"game": "crash"})
            else:
                drawn = crash_play.random_command(session.state, self.rng.choice)
                command = Command(drawn.kind, json.loads(json.dumps(drawn.args)), None)
            result = self.table.call(command, host=True)
            if not result.ok:
                continue
            self.acked.append(result.version)
            session = self.table.session
            if session.spec.over(session.state) and command.kind != "new_game":
                self.finished[result.version] = scoreboard_view(self.table.moment)

    def stop(self) -> None:
        self.table.stop()
        self.publishing.stop()
        self.store.close()


def result_versions(board_db: Path, name: str) -> list[int]:
    """The versions whose messages left a result on a dashboard's board, for table `name`."""
    db = sqlite3.connect(f"file:{board_db}?mode=ro", uri=True, timeout=10)
    try:
        return [v for (v,) in db.execute("SELECT u.version FROM results r JOIN updates u ON u.name = r.name "
                                         "AND u.store = r.store AND u.seq = r.seq WHERE r.name = ? "
                                         "ORDER BY r.seq", (name,))]
    finally:
        db.close()


def expected_standings(views: list[dict]) -> list[dict]:
    """The sum of places of each player over these finished games, as the results say."""
    totals: dict[str, dict] = {}
    for view in views:
        players = [seat.get("name") or seat.get("label") for seat in view["seats"]
                   if seat.get("in_game", True)]
        for player, place in zip(players, places_of(view["result"], len(players)), strict=True):
            row = totals.setdefault(player, {"player": player, "total": 0, "games": 0})
            row["total"] += place
            row["games"] += 1
    return sorted(totals.values(), key=lambda row: (row["total"], row["player"]))


def companion(*argv: str) -> None:
    assert main(list(argv)) == 0, argv


@pytest.mark.slow  # brokers killed and started again, a bridge cut, a dozen Crash! games per table
@pytest.mark.parametrize("seed", [11])
def test_a_league_keeps_every_result_once_through_a_killed_bridge_and_a_killed_league_broker(tmp_path, seed):
    require_mosquitto()
    rng = random.Random(seed)
    ports = {name: free_port() for name in ("league", *VENUES)}
    league_dir = tmp_path / "league"
    companion("venue", "init", "--name", "league", "--league", "--dir", str(league_dir),
              "--broker-port", str(ports["league"]))
    cut_here = Link(ports["league"])  # pub's bridge reaches the league through a link the test cuts
    folders = {}
    for venue, tables in VENUES.items():
        folders[venue] = folder = tmp_path / venue
        companion("venue", "init", "--name", venue, "--dir", str(folder), "--broker-port", str(ports[venue]))
        companion("venue", "add-venue", venue, "--dir", str(league_dir))
        bridge = league_dir / "venues" / f"{venue}.conf"
        if venue == "pub":
            bridge.write_text(bridge.read_text().replace(f":{ports['league']}\n", f":{cut_here.port}\n"))
        companion("venue", "join-league", "--dir", str(folder), "--file", str(bridge))
        for name in tables:
            companion("venue", "add-table", name, "--dir", str(folder))
    brokers = {"league": FolderBroker(league_dir, ports["league"]).start()}
    brokers |= {venue: FolderBroker(folders[venue], ports[venue]).start() for venue in VENUES}

    venue_boards = {}
    collectors = []
    for venue in VENUES:
        settings = access.read_venue(folders[venue])
        venue_boards[venue] = board = Board(tmp_path / f"{venue}-board.db")
        login = Broker("127.0.0.1", ports[venue], access.DASHBOARD, settings["password"])
        collectors.append(Collector(board, login, venue).start())
    league_db = league_dir / "dashboard" / "venue.db"
    web_port = free_port()
    serving = subprocess.Popen([sys.executable, "-m", "companion", "venue", "serve", "--dir", str(league_dir),
                                "--host", "127.0.0.1", "--port", str(web_port), "--language", "en"],
                               stdout=subprocess.DEVNULL, stderr=open(tmp_path / "league.log", "ab"))
    tables = {(venue, name): CrashTable(tmp_path / f"{venue}-{name}.db",
                                        folders[venue] / "tables" / f"{name}.toml", rng.randrange(10**6))
              for venue, names in VENUES.items() for name in names}

    def evening(n: int) -> None:
        for table in tables.values():
            table.play(rng.randrange(n, 2 * n))

    def venue_has_all(venue: str) -> bool:
        """The venue's own dashboard has every table's newest update."""
        return all(kept_versions(venue_boards[venue].path, name)[-1:] == tables[(venue, name)].acked[-1:]
                   for name in VENUES[venue])

    def league_shows() -> dict:
        try:
            url = f"http://127.0.0.1:{web_port}/api/venue?lang=en"
            with urllib.request.urlopen(url, timeout=10) as answer:
                return json.load(answer)
        except OSError:
            return {}  # not serving yet

    try:
        assert all(t.venue.league == "league" for t in tables.values())
        # Every table's retained status has crossed its venue's bridge: the league's dashboard listens.
        wait_for(lambda: len(league_shows().get("tables", ())) == len(tables), timeout=60)
        evening(60)
        brokers["league"].kill()  # the league's broker dies dead, whatever it saved at its last autosave
        evening(60)  # the venues' brokers queue it all for their bridges, the venues' dashboards have it
        wait_for(lambda: venue_has_all("club"), timeout=60)
        brokers["club"].kill()  # club's broker dies dead too, its bridge's queue with it; its tables play on
        evening(60)
        brokers["club"].start()
        evening(60)
        brokers["league"].start()
        evening(60)
        cut_here.cut()  # pub's bridge loses the league; pub's own dashboard goes on
        evening(60)
        wait_for(lambda: venue_has_all("pub"), timeout=60)
        cut_here.mend()
        evening(60)
        wait_for(lambda: all(t.publishing.sender.waiting() == 0 for t in tables.values()), timeout=180)

        assert sum(len(t.finished) for t in tables.values()) >= 8, "too few games ended to count"
        for (venue, name), table in tables.items():
            at_venue, at_league = kept_versions(venue_boards[venue].path, name), kept_versions(league_db,
                                                                                               f"{venue}/{name}")
            exactly_once_in_order(at_venue, table.acked)
            assert at_league == at_venue, f"{venue}/{name}: the league's board is not the venue's"
            for board_db, as_named in ((venue_boards[venue].path, name), (league_db, f"{venue}/{name}")):
                assert result_versions(board_db, as_named) == sorted(table.finished), (board_db, as_named)
        shown = league_shows()
        assert sorted(t["name"] for t in shown["tables"]) == sorted(f"{v}/{n}" for v, n in tables)
        everyone = [view for t in tables.values() for view in t.finished.values()]
        assert len(shown["results"]) == len(everyone)
        assert [(r["player"], r["total"], r["games"]) for r in shown["standings"]] == [
            (r["player"], r["total"], r["games"]) for r in expected_standings(everyone)]
        # The league's director voids pub/t1's first result: the league's standings leave it out, pub's not.
        pub_t1 = tables[("pub", "t1")].finished
        voided = min((r for r in shown["results"] if r["table"] == "pub/t1"), key=lambda r: r["seq"])
        db = sqlite3.connect(f"file:{league_db}?mode=ro", uri=True)
        (director,) = db.execute("SELECT value FROM meta WHERE key = 'director'").fetchone()
        db.close()
        request = urllib.request.Request(f"http://127.0.0.1:{web_port}/api/director/{director}/voids",
                                         json.dumps({"result": voided["id"], "who": "Jo", "why": "misplayed"}
                                                    ).encode(), {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert json.load(answer)["voided"]["who"] == "Jo"
        kept = [view for view in everyone if view is not pub_t1[min(pub_t1)]]
        assert [(r["player"], r["total"]) for r in league_shows()["standings"]] == [
            (r["player"], r["total"]) for r in expected_standings(kept)]
        for venue, board in venue_boards.items():
            own = [view for (v, _), t in tables.items() if v == venue for view in t.finished.values()]
            assert [(r["player"], r["total"]) for r in board.standings()] == [
                (r["player"], r["total"]) for r in expected_standings(own)]
    finally:
        for table in tables.values():
            table.stop()
        serving.terminate()
        serving.wait(10)
        for collector in collectors:
            collector.stop()
        for board in venue_boards.values():
            board.close()
        for broker in brokers.values():
            broker.stop()
        cut_here.close()


def test_add_venue_and_join_league_refuse_wrong_input_naming_it_and_the_fix(tmp_path, capsys):
    require_mosquitto()  # init writes the password file with mosquitto_passwd
    league, club = tmp_path / "league", tmp_path / "club"
    assert main(["venue", "add-venue", "club", "--dir", str(league)]) == 2
    assert "no league here" in capsys.readouterr().err
    companion("venue", "init", "--name", "league", "--league", "--dir", str(league))
    for wrong in ("Club!", "a/b", "dashboard"):
        assert main(["venue", "add-venue", wrong, "--dir", str(league)]) == 2
        assert f"{wrong!r}" in capsys.readouterr().err
    companion("venue", "init", "--name", "club", "--dir", str(club))
    assert main(["venue", "add-table", "t1", "--dir", str(league)]) == 2
    assert "league" in capsys.readouterr().err
    assert main(["venue", "join-league", "--dir", str(club), "--file", str(tmp_path / "none.conf")]) == 2
    assert "none.conf" in capsys.readouterr().err
    companion("venue", "add-venue", "pub", "--dir", str(league))
    capsys.readouterr()
    # pub's bridge file given to club: its login at the league is pub's, not club's
    pub_bridge = league / "venues" / "pub.conf"
    assert main(["venue", "join-league", "--dir", str(club), "--file", str(pub_bridge)]) == 2
    assert "pub" in capsys.readouterr().err
    assert not (club / "bridges").exists() and access.read_venue(club)["league"] == ""


def test_joining_a_league_includes_the_bridge_in_the_venues_broker_and_names_the_league_for_each_table(
        tmp_path, capsys):
    require_mosquitto()  # init writes the password file with mosquitto_passwd
    league, club = tmp_path / "league", tmp_path / "club"
    companion("venue", "init", "--name", "league", "--league", "--dir", str(league))
    companion("venue", "init", "--name", "club", "--dir", str(club))
    companion("venue", "add-table", "t0", "--dir", str(club))  # added before the venue joined
    companion("venue", "add-venue", "club", "--dir", str(league))
    assert "join-league" in capsys.readouterr().out
    companion("venue", "join-league", "--dir", str(club), "--file", str(league / "venues" / "club.conf"))
    companion("venue", "add-table", "t1", "--dir", str(club))
    assert [read_section(club / "tables" / f"{t}.toml").league for t in ("t0", "t1")] == ["league", "league"]
    capsys.readouterr()
    companion("venue", "broker-conf", "--dir", str(club))
    assert capsys.readouterr().out.endswith(f"include_dir {(club / access.BRIDGES).resolve()}\n")
    assert f"include_dir {club / access.BRIDGES}\n" in (club / "mosquitto.conf").read_text()
    bridge = (club / access.BRIDGES / "league.conf").read_text()
    assert "remote_username club\n" in bridge and "cleansession false\n" in bridge
    assert "topic companion/club/+/ack in 1\n" in bridge and "topic companion/club/+/update out 1\n" in bridge
    # The league's broker: the venue writes its own tables' topics only, and reads their acknowledgements.
    acl = (league / "acl").read_text()
    assert "user club\ntopic write companion/club/+/status\n" in acl
    assert "topic read companion/club/+/ack\n" in acl and "companion/#" not in acl


class Acknowledger:
    """The dashboard's login used by hand: it acknowledges whatever a test says, as the venue's dashboard
    (no `by`) or as the league's (its acknowledgements come back through the bridge with `by`)."""

    def __init__(self, mosquitto: Mosquitto):
        import paho.mqtt.client as mqtt

        login = mosquitto.broker(access.DASHBOARD)
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=access.DASHBOARD)
        self.client.username_pw_set(login.username, login.password)
        self.client.connect(login.host, login.port)
        self.client.loop_start()

    def ack(self, seq: int, store: str, **more) -> None:
        body = json.dumps({"seq": seq, "store": store, **more})
        self.client.publish(topics.table(VENUE, "t1", "ack"), body, qos=1).wait_for_publish(10)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_a_league_table_forgets_a_message_once_both_dashboards_have_it_and_another_never_for_a_league(
        tmp_path, broker):
    dashboard = Acknowledger(broker)
    in_league = PlayingTable(tmp_path / "league.db", broker.broker("t1"), VENUE, "t1", league="league")
    try:
        in_league.rolls(10)
        wait_for(lambda: in_league.sender.connected)
        store, first, held = in_league.outbox.stream, in_league.outbox.first(), in_league.sender.waiting()
        assert held >= 10
        dashboard.ack(first + held - 1, store)  # the venue has them all
        dashboard.ack(first + 3, store, by="league")  # the league, the first four
        wait_for(lambda: in_league.sender.waiting() == held - 4)
        dashboard.ack(first + held - 1, store, by="league")
        wait_for(lambda: in_league.sender.waiting() == 0)
    finally:
        in_league.stop()
    alone = PlayingTable(tmp_path / "alone.db", broker.broker("t1"), VENUE, "t1")
    try:
        alone.rolls(10)
        wait_for(lambda: alone.sender.connected)
        store, first, held = alone.outbox.stream, alone.outbox.first(), alone.sender.waiting()
        dashboard.ack(first + held - 1, store, by="league")  # not in a league: it must keep them all
        dashboard.ack(first, store)  # the venue's, after it on the same topic: once taken, so was the other
        wait_for(lambda: alone.sender.waiting() < held)
        assert alone.sender.waiting() == held - 1
    finally:
        alone.stop()
        dashboard.close()


def test_a_league_that_never_answers_is_sent_its_first_messages_again_less_and_less_often():
    from companion.outputs.venue.league import RESEND_MAX, LeagueAcks

    league = LeagueAcks(now=0.0, wait=3.0, window=200)
    league.published(500)  # the stream went out; the league's link is down
    resent_at, now = [], 0.0
    while now < 400:
        now += 0.5
        again = league.due(500, now)
        if again is not None:
            assert again == (0, 200)  # from its first unacknowledged, a window's worth
            league.published(200)
            resent_at.append(now)
    gaps = [later - earlier for earlier, later in zip(resent_at, resent_at[1:], strict=False)]
    assert gaps == sorted(gaps) and gaps[-1] <= RESEND_MAX + 0.5 and gaps[0] < 10
    assert league.acknowledged(150, now) and league.due(500, now) == (200, 150)  # then at the league's pace
    league.published(350)
    assert league.acknowledged(500, now + 1) and league.due(500, now + 100) is None
