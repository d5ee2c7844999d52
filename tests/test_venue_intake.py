"""The dashboard's door, through a real Mosquitto, the real collector and the real pages: a table's bad,
odd, huge or unstorable message is set aside at its place in its stream, costs no other table anything,
and takes no page down; a result per table per seq; a void kept with who and why."""

from __future__ import annotations

import json
import logging
import sqlite3
import urllib.error
import urllib.request

import pytest
import venue_parts
from daemon_process import free_port
from polling import wait_for
from venue_parts import VENUE, RawTable, update

from companion.venue.dashboard import Dashboard

broker = venue_parts.broker  # this module's fixture
pytestmark = pytest.mark.slow  # a broker and a dashboard each, and messages through them


@pytest.fixture
def dashboard(tmp_path, broker):
    made = Dashboard(tmp_path / "dashboard", broker.broker("dashboard"), VENUE, "en")
    made.start("127.0.0.1", free_port())
    wait_for(made.collector.connected.is_set)
    yield made
    made.stop()


@pytest.fixture
def tables(broker, dashboard):
    made = {name: RawTable(broker, name) for name in ("t1", "t2")}
    yield made
    for table in made.values():
        table.close()


def retained(mosquitto, name: str, leaf: str) -> bytes:
    """What the broker keeps on table `name`'s `leaf` topic, read with the dashboard's login."""
    import threading

    import paho.mqtt.client as mqtt

    from companion.venue import topics

    got: list[bytes] = []
    arrived = threading.Event()
    login = mosquitto.broker("dashboard")
    reader = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="retained-reader")
    reader.username_pw_set(login.username, login.password)
    reader.on_message = lambda _c, _u, message: (got.append(message.payload), arrived.set())
    reader.on_connect = lambda *_: reader.subscribe(topics.table(VENUE, name, leaf), qos=1)
    reader.connect(login.host, login.port)
    reader.loop_start()
    try:
        assert arrived.wait(10), f"nothing retained on {leaf}"
        return got[0]
    finally:
        reader.disconnect()
        reader.loop_stop()


def get(dashboard, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{dashboard.server.port}{path}", timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def pages_answer(dashboard) -> None:
    """Every page and API of the dashboard answers, both ways of ranking."""
    for path in ("/", "/board", f"/director/{dashboard.director}", "/api/venue", "/api/venue?by=points"):
        status, body = get(dashboard, path)
        assert status == 200, f"{path} answered {status}: {body[:300]!r}"


def finished(version: int, players=("Ada", "Bo"), scores=(3, 5), winners=(1,)) -> dict:
    return update(version, players, True, {"winners": list(winners), "scores": list(scores), "ranks": None})


def test_two_tables_ending_a_game_at_the_same_seq_both_keep_their_result_and_stream(dashboard, tables):
    for name, table in tables.items():
        table.send(1, update(1))
        table.send(2, finished(2, (f"{name}-a", f"{name}-b")))
    wait_for(lambda: all(table.acked() == 2 for table in tables.values()))
    assert sorted(r["table"] for r in dashboard.board.results()) == ["t1", "t2"]
    tables["t2"].send(3, update(3))  # and the stream goes on
    wait_for(lambda: tables["t2"].acked() == 3)
    pages_answer(dashboard)


def test_a_deep_poison_kills_nothing_even_retained_and_after_a_restart(tmp_path, broker, dashboard, tables):
    tables["t1"].raw("status", "[" * 100000, retain=True)  # the broker hands it to every new dashboard
    tables["t1"].raw("update", "[" * 100000)
    tables["t1"].raw("update", json.dumps({"seq": 1, "version": 1, "store": "s1", "update": "[" * 50000}))
    tables["t2"].send(1, update(1))
    wait_for(lambda: tables["t2"].acked() == 1)
    pages_answer(dashboard)
    dashboard.stop()
    again = Dashboard(tmp_path / "dashboard", broker.broker("dashboard"), VENUE, "en").start("127.0.0.1",
                                                                                              free_port())
    try:
        tables["t2"].send(2, update(2))
        wait_for(lambda: tables["t2"].acked() == 2)
        assert again.board.versions("t2") == [1, 2]
        pages_answer(again)
    finally:
        again.stop()


ODD = [
    pytest.param(finished(2, (["a", "list"], "Bo")), id="a seat name that is a list"),
    pytest.param(finished(2, ({"an": "object"}, "Bo")), id="a seat name that is an object"),
    pytest.param(finished(2, (7, "7")), id="an int name tied with a text name"),
    pytest.param(finished(2, scores=("ten", "five")), id="text scores"),
    pytest.param(finished(2, scores=(2**64, 1)), id="a score past 64 bits"),
    pytest.param({**update(2), "seats": "everyone"}, id="seats that are not a list"),
    pytest.param({**update(2), "title": "x" * 5000}, id="a title of 5000 characters"),
    pytest.param(json.loads("[" * 40 + "]" * 40), id="an update that is not an object"),
    pytest.param({**update(2), "public": json.loads('{"a":' * 60 + "1" + "}" * 60)}, id="nested 60 deep"),
]


@pytest.mark.parametrize("odd", ODD)
def test_an_odd_value_is_set_aside_and_every_page_still_answers(dashboard, tables, odd):
    t1, t2 = tables["t1"], tables["t2"]
    t1.send(1, update(1))
    t1.send(2, odd)
    t1.send(3, finished(3))  # its stream goes on past the odd one
    t2.send(1, finished(1, ("Cy", "Di")))
    wait_for(lambda: t1.acked() == 3 and t2.acked() == 1)
    pages_answer(dashboard)
    assert dashboard.board.versions("t1") == [1, 3]
    assert {p for r in dashboard.board.results() for p in r["players"]} == {"Ada", "Bo", "Cy", "Di"}


def test_rows_an_older_version_kept_move_as_they_are_and_odd_ones_take_no_page_down(tmp_path, broker):
    """A venue.db of the first version (one result per seq of the whole venue, odd rows kept whole)."""
    folder = tmp_path / "dashboard"
    folder.mkdir()
    old = sqlite3.connect(folder / "venue.db")
    old.executescript("""
        CREATE TABLE tables (name TEXT PRIMARY KEY, last_seq INTEGER NOT NULL, online INTEGER NOT NULL
            DEFAULT 0, seen_at TEXT NOT NULL);
        CREATE TABLE updates (name TEXT NOT NULL, seq INTEGER NOT NULL, version INTEGER NOT NULL,
            body TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (name, seq));
        CREATE TABLE results (id INTEGER PRIMARY KEY, name TEXT NOT NULL, seq INTEGER NOT NULL UNIQUE,
            game TEXT NOT NULL, players TEXT NOT NULL, scores TEXT, places TEXT NOT NULL, at TEXT NOT NULL);
        CREATE TABLE corrections (id INTEGER PRIMARY KEY, result INTEGER NOT NULL REFERENCES results (id),
            player INTEGER NOT NULL, field TEXT NOT NULL, before INTEGER, after INTEGER NOT NULL,
            who TEXT NOT NULL, why TEXT NOT NULL, at TEXT NOT NULL);
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """)
    deep = json.dumps({**update(4), "public": json.loads("[" * 900 + "]" * 900)})
    old.executemany("INSERT INTO tables VALUES (?, ?, 0, 'then')", [("t1", 4), ("t2", 0)])
    old.executemany("INSERT INTO updates VALUES ('t1', ?, ?, ?, 'then')",
                    [(seq, seq, json.dumps(update(seq))) for seq in (1, 2, 3)] + [(4, 4, deep)])
    old.executemany("INSERT INTO results VALUES (?, 't1', ?, 'gewalt', ?, ?, ?, 'then')", [
        (1, 1, json.dumps([["a", "list"], "Bo"]), json.dumps([3, 5]), json.dumps([2, 1])),
        (2, 2, json.dumps([7, "7"]), json.dumps(["ten", "five"]), json.dumps([1, 2])),
        (3, 3, json.dumps([{"an": "object"}, "Bo"]), None, json.dumps(["first", 2]))])
    old.execute("INSERT INTO corrections VALUES (1, 1, 0, 'score', 3, 4, 'Jo', 'typo', 'then')")
    old.commit()
    old.close()
    made = Dashboard(folder, broker.broker("dashboard"), VENUE, "en").start("127.0.0.1", free_port())
    t1 = RawTable(broker, "t1", store="")  # a table of the first version: no store in its messages
    t2 = RawTable(broker, "t2")
    try:
        assert [r["id"] for r in made.board.results()] == [3, 2, 1]  # every row kept, the correction too
        assert made.board.results()[-1]["corrections"][0]["after"] == 4
        assert made.board.versions("t1") == [1, 2, 3, 4]
        pages_answer(made)
        t1.send(5, finished(5))  # the old stream goes on where it stood
        t2.send(1, update(1))  # a table only marked online by the first version: its first message is kept
        t2.send(2, finished(2))  # ... and its result at seq 2, as t1's old one
        wait_for(lambda: t1.acked() == 5 and t2.acked() == 2)
        assert made.board.versions("t1") == [1, 2, 3, 4, 5] and made.board.versions("t2") == [1, 2]
        assert len(made.board.results()) == 5
        pages_answer(made)
    finally:
        t1.close()
        t2.close()
        made.stop()


def test_one_tables_unstorable_message_costs_another_table_nothing(tmp_path, broker, dashboard, tables):
    t1, t2 = tables["t1"], tables["t2"]
    for seq in range(1, 21):
        t2.send(seq, update(seq))
        if seq in (5, 10, 15):
            t1.send(seq // 5, update(seq), version=2**64)  # passes as a whole number; SQLite cannot keep it
    t1.send(4, update(4))
    wait_for(lambda: t2.acked() == 20 and t1.acked() == 4)
    assert dashboard.board.versions("t2") == list(range(1, 21))
    assert dashboard.board.versions("t1") == [4]


def test_a_message_that_fails_in_the_board_is_set_aside_alone_within_its_burst(tmp_path):
    """Past the door too (a fault the schema did not foresee): one savepoint per message."""
    from companion.venue.board import Arrived, Board

    board = Board(tmp_path / "board.db")
    burst = [Arrived("t2", seq, seq, update(seq), "b") for seq in range(1, 11)]
    burst.insert(5, Arrived("t1", 1, 1, {**update(1), "public": {"x": "\ud800"}}, "a"))  # not UTF-8
    burst.insert(7, Arrived("t1", 2, 2**64, update(2), "a"))  # the version overflows SQLite
    assert board.take_all(burst) == {("t2", "b"): 10, ("t1", "a"): 2}
    assert board.versions("t2") == list(range(1, 11)) and board.versions("t1") == []
    board.close()


def test_a_message_over_the_limit_is_refused_at_the_door_and_served_nowhere(dashboard, tables):
    from companion.venue.topics import MESSAGE_LIMIT

    t1 = tables["t1"]
    t1.send(1, update(1))
    big = {**update(2), "public": {"pad": "x" * MESSAGE_LIMIT}}
    t1.send(2, big)  # dropped unread: nothing of it is kept or served
    t1.send(2, update(2))
    wait_for(lambda: t1.acked() == 2)
    status, body = get(dashboard, "/api/venue")
    assert status == 200 and len(body) < 64 * 1024
    assert dashboard.board.versions("t1") == [1, 2]


def test_a_flood_of_bad_messages_is_logged_once_a_minute_per_table_saying_how_many(dashboard, tables, caplog):
    caplog.set_level(logging.WARNING)
    t1, t2 = tables["t1"], tables["t2"]
    for n in range(300):
        t1.raw("update", ["{", "[" * 3000, "not json", '{"seq": "one"}'][n % 4])
        t1.raw("status", '{"online": "maybe"}')
    t1.send(1, update(1))
    t1.send(2, {"seats": 3})
    t2.send(1, update(1))
    t2.send(2, {"seats": 3})
    t2.send(3, update(3))
    wait_for(lambda: t1.acked() == 2 and t2.acked() == 3)
    about = {name: [r.getMessage() for r in caplog.records if f"table {name}:" in r.getMessage()]
             for name in ("t1", "t2")}
    assert len(about["t1"]) == 1 and len(about["t2"]) == 1, about
    assert len(caplog.records) <= 4 and not any(r.exc_info for r in caplog.records)
    pace = dashboard.board.quiet.pace
    pace.clock = lambda later=pace.clock: later() + pace.every  # a minute later
    t1.send(3, {"seats": 3})
    wait_for(lambda: t1.acked() == 3)
    (line,) = [r.getMessage() for r in caplog.records if "table t1:" in r.getMessage()][1:]
    assert "and 600 more since the last such line" in line


def test_a_table_adds_at_most_its_hourly_bound_of_results(dashboard, tables, caplog):
    from companion.venue.board import RESULTS_PER_HOUR

    t1, t2 = tables["t1"], tables["t2"]
    for game in range(RESULTS_PER_HOUR + 5):
        t1.send(2 * game + 1, update(2 * game + 1))
        t1.send(2 * game + 2, finished(2 * game + 2))
    t2.send(1, finished(1))
    last = 2 * (RESULTS_PER_HOUR + 5)
    wait_for(lambda: t1.acked() == last and t2.acked() == 1, timeout=60)
    kept = [r["table"] for r in dashboard.board.results()]
    assert kept.count("t1") == RESULTS_PER_HOUR and kept.count("t2") == 1
    assert len(dashboard.board.versions("t1")) == last  # the updates are kept: only the results are not
    assert any(f"over the {RESULTS_PER_HOUR} results" in r.getMessage() for r in caplog.records)


def test_a_tables_update_over_the_limit_goes_as_a_stand_in_set_aside_and_its_stream_goes_on(tmp_path, broker,
                                                                                           dashboard):
    from venue_chaos_parts import PlayingTable

    from companion.venue.topics import MESSAGE_LIMIT

    table = PlayingTable(tmp_path / "t1.db", broker.broker("t1"), VENUE, "t1")
    try:
        table.rolls(2)
        wait_for(lambda: table.sender.waiting() == 0)
        # A public view past the limit (a game's own view gone wrong), written as a command writes it.
        big = json.dumps({**update(90), "public": {"pad": "x" * MESSAGE_LIMIT}})
        db = sqlite3.connect(table.store.path)
        db.execute("INSERT INTO venue_outbox (version, body) VALUES (90, ?)", (big,))
        db.commit()
        db.close()
        table.sender.wake()
        wait_for(lambda: table.sender.waiting() == 0)  # set aside, and acknowledged
        assert retained(broker, "t1", "snapshot") == b"null"  # the newest, too big for the broker: none
        after = table.rolls(2)
        wait_for(lambda: table.sender.waiting() == 0)
        kept = dashboard.board.versions("t1")
        assert 90 not in kept and kept[-2:] == after
        status, body = get(dashboard, "/api/venue")
        assert status == 200 and len(body) < 64 * 1024
    finally:
        table.stop()


def test_the_director_voids_a_result_kept_with_who_and_why_and_the_standings_skip_it(dashboard, tables):
    t1 = tables["t1"]
    t1.send(1, finished(1, ("Ada", "Bo"), (3, 5)))
    t1.send(2, update(2))
    t1.send(3, finished(3, ("Ada", "Bo"), (9, 1)))
    wait_for(lambda: t1.acked() == 3)
    newest, oldest = (r["id"] for r in dashboard.board.results())
    url = f"http://127.0.0.1:{dashboard.server.port}/api/director/{{}}/voids"

    def post(token: str, body, lang: str = "en") -> tuple[int, dict]:
        headers = {"Content-Type": "application/json", "Accept-Language": lang}
        request = urllib.request.Request(url.format(token), data=json.dumps(body).encode(), method="POST",
                                         headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    good = {"result": newest, "who": "Jo (director)", "why": "played with the wrong deck"}
    assert post("guess", good)[0] == 403
    for body, says in [({**good, "result": 99}, "no such result"), ({**good, "who": ["Jo"]}, "in words"),
                       ({**good, "why": {"a": 1}}, "in words"), ({**good, "why": " "}, "who corrects"),
                       (["not", "an", "object"], "JSON object")]:
        status, answer = post(dashboard.director, body)
        assert status == 400 and says in answer["error"], (body, answer)
    assert all(r["voided"] is None for r in dashboard.board.results())
    status, voided = post(dashboard.director, good)
    assert status == 200 and voided["id"] == newest
    assert voided["voided"] == {"who": "Jo (director)", "why": "played with the wrong deck",
                                "at": voided["voided"]["at"]}
    status, again = post(dashboard.director, good, "fr")
    assert status == 400
    assert again["error"] == "Ce résultat est déjà annulé\u202f: il n’y a rien de plus à faire."
    assert [r["id"] for r in dashboard.board.results()] == [newest, oldest]  # still listed
    assert dashboard.board.standings("points") == [{"player": "Bo", "total": 5, "games": 1},
                                                   {"player": "Ada", "total": 3, "games": 1}]
    status, body = get(dashboard, "/api/venue?by=points")
    assert status == 200 and json.loads(body)["results"][0]["voided"]["who"] == "Jo (director)"


def test_a_correction_whose_who_or_why_is_not_words_is_refused_and_changes_nothing(dashboard, tables):
    from companion.venue.web import create_app

    tables["t1"].send(1, finished(1))
    wait_for(lambda: tables["t1"].acked() == 1)
    before = dashboard.board.results()
    client = create_app(dashboard).test_client()
    good = {"result": before[0]["id"], "player": 0, "field": "score", "value": 8, "who": "Jo", "why": "typo"}
    for wrong in ({"who": ["Jo"]}, {"who": 7}, {"why": {"a": "b"}}, {"why": None}):
        answer = client.post(f"/api/director/{dashboard.director}/corrections", json={**good, **wrong})
        assert answer.status_code == 400 and "in words" in answer.get_json()["error"]
    assert dashboard.board.results() == before
