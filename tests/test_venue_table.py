"""A table that names a venue: it publishes its scoreboard's view and nothing else; one that names none
imports nothing of MQTT; the broker keeps each table to its own topics."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
import venue_parts
from polling import wait_for
from simulator import glass_offers, running_simulator
from venue_parts import VENUE

from companion.config import ConfigError, load
from companion.gamekit.contract import Command
from companion.venue import topics
from companion.venue.settings import VenueConfig

TESTS = Path(__file__).resolve().parent
broker, dashboard = venue_parts.broker, venue_parts.dashboard  # this module's fixtures


def test_a_table_without_a_venue_imports_nothing_of_mqtt_and_starts_no_thread_for_it(tmp_path):
    code = (f"import sys, threading\nfrom simulator import running_simulator\n"
            f"with running_simulator({str(tmp_path)!r}) as running:\n"
            "    assert running.table.call(__import__('companion.gamekit.contract', fromlist=['x'])"
            ".Command('roll')).ok\n"
            "    print(sorted(m for m in sys.modules if m.startswith(('paho', 'companion.venue'))))\n"
            "    print(sorted(t.name for t in threading.enumerate()))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=TESTS, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    modules, threads = out.stdout.splitlines()[-2:]
    # The config's [venue] struct and topic names are all that is read: no client, no outbox, no sender.
    assert eval(modules) == ["companion.venue", "companion.venue.settings", "companion.venue.topics"]
    assert "venue-sender" not in threads and "paho" not in threads


@pytest.mark.parametrize("section, key", [
    ('name = "Club!"\ntable = "t1"', "venue.name"),
    ('name = "club"\ntable = "a/b"', "venue.table"),
    ('name = "club"\ntable = "t1"\nbroker = " "', "venue.broker"),
    ('name = "club"\ntable = "t1"\nport = 0', "venue.port"),
    ('table = "t1"', "name"),
])
def test_a_wrong_venue_section_is_refused_naming_the_key_and_the_fix(tmp_path, section, key):
    path = tmp_path / "companion.toml"
    path.write_text(f"[venue]\n{section}\n")
    with pytest.raises(ConfigError) as refused:
        load(path)
    assert str(path) in str(refused.value) and key in str(refused.value)


def test_a_table_publishes_every_command_and_never_a_token_or_the_join_code(tmp_path, broker, dashboard):
    venue = VenueConfig(name=VENUE, table="t1", broker="127.0.0.1", port=broker.port,
                        password=broker.users["t1"])
    with running_simulator(tmp_path / "table", venue=venue) as running:
        table = running.table
        host = table.roster.host_token()
        seat = table.seating(lambda roster, count: roster.claim(0, "Ada", count))  # a seat's link exists
        versions = [table.call(Command("roll")).version for _ in range(8)]
        wait_for(lambda: running.venue.sender.waiting() == 0)
        kept = dashboard.board.versions("t1")
        assert kept == sorted(set(kept)) and set(versions) <= set(kept)
        secrets = [host, table.roster.join_code(), *filter(None, (table.roster.token(s) for s in range(8)))]
        with dashboard.board._lock:
            bodies = [body for (body,) in dashboard.board._db.execute("SELECT body FROM updates")]
        assert seat in secrets and bodies and not [s for s in secrets for body in bodies if s in body]
        assert any("Ada" in body for body in bodies)  # the public seating does leave: the check can fail
    # its goodbye: a table that stops says so
    wait_for(lambda: [row["online"] for row in dashboard.board.tables()] == [False])


def test_the_broker_refuses_a_table_writing_outside_its_own_topics(broker, dashboard):
    wait_for(dashboard.collector.connected.is_set)
    answers: dict[int, object] = {}
    done = threading.Event()
    forger = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="forger", protocol=mqtt.MQTTv5)
    forger.username_pw_set("t1", broker.users["t1"])

    def published(_client, _userdata, mid, reason, _properties):
        answers[mid] = reason
        done.set()

    forger.on_publish = published
    forger.connect("127.0.0.1", broker.port)
    forger.loop_start()
    try:
        forged = {  # another table's update, the director's acknowledgement, a topic of no table
            "t2 update": (topics.table(VENUE, "t2", "update"), {"seq": 1, "version": 1, "update": {}}),
            "ack": (topics.table(VENUE, "t1", "ack"), {"seq": 10**6}),
            "outside": (f"{topics.ROOT}/{VENUE}/director", {"correct": 1}),
        }
        mids = {what: forger.publish(topic, json.dumps(body), qos=1).mid
                for what, (topic, body) in forged.items()}
        own = forger.publish(topics.table(VENUE, "t1", "update"),
                             json.dumps({"seq": 1, "version": 1, "update": {"game": "dice"}}), qos=1).mid
        wait_for(lambda: len(answers) == 4)
        for what, mid in mids.items():
            assert answers[mid].value == 0x87, f"{what}: {answers[mid]}"  # Not authorized
        assert answers[own].value in (0, 0x10)  # its own topic: accepted
        wait_for(lambda: dashboard.board.versions("t1") == [1])  # the own message arrives...
        assert dashboard.board.versions("t2") == []  # ... and the forged one, published before it, never did
    finally:
        forger.disconnect()
        forger.loop_stop()


@pytest.mark.parametrize("text, says", [
    ("", "key 'venue'"),
    ('[venue]\nname = "Club"\ntable = "t1"\nbroker = "10.0.0.2"\n', "key 'venue.name'"),
    ('[venue]\nname = "club"\ntable = "t1"\n', "key 'venue.broker': missing"),
    ('[venue]\nname = "club"\ntable = "t1"\nsecret = 1\n', "secret"),
])
def test_a_wrong_venue_file_given_to_the_simulator_is_refused_naming_the_file(tmp_path, text, says):
    path = tmp_path / "t1.toml"
    path.write_text(text)
    out = subprocess.run([sys.executable, "-m", "companion", "demo", "--venue", str(path), "--state-dir",
                          str(tmp_path / "state")], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and str(path) in out.stderr and says in out.stderr
    assert "Traceback" not in out.stderr and not (tmp_path / "state").exists()


def test_the_host_sees_whether_the_venue_is_reachable_and_how_much_waits(tmp_path, broker, dashboard):
    from companion.outputs.webapp import create_app

    venue = VenueConfig(name=VENUE, table="t1", broker="127.0.0.1", port=broker.port,
                        password=broker.users["t1"])
    with running_simulator(tmp_path / "table", venue=venue) as running:
        client = create_app(running).test_client()
        host = {"X-Host-Token": running.table.roster.host_token()}
        assert client.get("/api/venue").status_code == 403  # a stranger is told nothing
        wait_for(lambda: client.get("/api/venue", headers=host).get_json()["reachable"])
        broker.kill()
        for _ in range(5):
            assert running.table.call(Command("roll")).ok
        seen = wait_for(lambda: (answer := client.get("/api/venue", headers=host).get_json())["reachable"]
                        is False and answer)
        assert seen["waiting"] >= 5 and seen["table"] == "t1"
        broker.start()
        wait_for(lambda: client.get("/api/venue", headers=host).get_json()["waiting"] == 0, timeout=30)


@pytest.mark.slow  # a broker killed and started again under a running table
def test_the_glass_says_the_venue_is_unreachable_on_a_frame_a_move_draws_and_never_on_its_own(
        tmp_path, broker, dashboard):
    from companion.outputs.frames import render

    venue = VenueConfig(name=VENUE, table="t1", broker="127.0.0.1", port=broker.port,
                        password=broker.users["t1"])
    with running_simulator(tmp_path / "table", venue=venue, language="en") as running:
        sender = running.venue.sender
        wait_for(lambda: sender.connected)
        assert running.table.call(Command("roll")).ok
        wait_for(lambda: sender.waiting() == 0)
        offers = glass_offers(running)  # a command's outputs have run when its call returns
        broker.kill()
        wait_for(sender.unreachable, timeout=30)
        assert offers == []  # the venue out of reach offers the glass nothing of its own (its wear)
        for _ in range(3):
            assert running.table.call(Command("roll")).ok
        game, public, info, language = offers[-1][0]
        assert info.notice == "Venue unreachable: 3 moves waiting" and language == "en"
        drawn = render(game, public, running.model, language, info)
        assert info.notice in [e.label for e in drawn.elements if e.kind == "text"]  # drawn whole, one line
        assert running.venue.notice("fr") == "Lieu injoignable\u202f: 3 coups en attente"
        shown = len(offers)
        broker.start()
        wait_for(lambda: sender.waiting() == 0, timeout=30)
        assert len(offers) == shown  # back in reach: no frame of its own either
        assert running.table.call(Command("roll")).ok
        wait_for(lambda: len(offers) > shown and offers[-1][0][2].notice == "")


def test_the_host_of_a_table_without_a_venue_is_told_so(tmp_path):
    from companion.outputs.webapp import create_app

    with running_simulator(tmp_path / "table") as running:
        host = {"X-Host-Token": running.table.roster.host_token()}
        assert create_app(running).test_client().get("/api/venue", headers=host).get_json() == {
            "ok": True, "venue": None}


def test_the_venue_commands_keep_every_broker_password_to_the_venues_owner(tmp_path, capsys):
    from companion.cli import main

    folder = tmp_path / "club"
    assert main(["venue", "init", "--dir", str(folder), "--name", "club"]) == 0
    assert main(["venue", "add-table", "t1", "--dir", str(folder)]) == 0
    assert main(["venue", "add-table", "t2", "--dir", str(folder)]) == 0
    for secret in (folder / "venue.toml", folder / "tables" / "t1.toml", folder / "tables" / "t2.toml"):
        assert secret.stat().st_mode & 0o777 == 0o600, secret
        assert "password = " in secret.read_text()
    assert folder.joinpath("passwd").stat().st_mode & 0o077 in (0, 0o040)  # the broker's group may read it
    acl = folder.joinpath("acl").read_text()
    assert "user t1" in acl and "user t2" in acl
    assert not list(folder.rglob("*.part"))
