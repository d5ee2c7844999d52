"""The venue's generated broker config, run by a real Mosquitto: a login is its client id, a packet has a
size bound, and retained snapshots outlive a broker crash."""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest
import venue_parts
from mosquitto import Mosquitto, require_mosquitto
from polling import wait_for
from venue_parts import TABLES, VENUE

from companion.venue import access, topics
from companion.venue.link import client

broker = venue_parts.broker  # this module's fixtures
dashboard = venue_parts.dashboard


class Watched:
    """A connected client of the venue that records its disconnections."""

    def __init__(self, mosquitto: Mosquitto, user: str, client_id: str, will: bool = False):
        self.dropped: list[object] = []
        self.up = threading.Event()
        self.client = client(mosquitto.broker(user), client_id)
        self.client.on_connect = lambda *_: self.up.set()
        self.client.on_disconnect = self._dropped
        if will:
            self.client.will_set(topics.table(VENUE, user, "status"), json.dumps({"online": False}), 1, True)
        self.client.connect("127.0.0.1", mosquitto.port)
        self.client.loop_start()
        wait_for(self.up.is_set)

    def _dropped(self, _client, _userdata, _flags, reason, _properties) -> None:
        self.up.clear()
        self.dropped.append(reason)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.mark.parametrize("victim, victim_id", [("t1", f"table-{VENUE}-t1"), (access.DASHBOARD,
                                                                              f"dashboard-{VENUE}")])
def test_a_table_using_another_clients_id_does_not_take_its_session(broker, victim, victim_id):
    """The sender's and the collector's own client ids (sender.py, collector.py), taken by t2's login."""
    heard: list[dict] = []
    observer = None
    if victim == "t1":  # the dashboard's login watches t1's status, where its Last Will would land
        observer = Watched(broker, access.DASHBOARD, access.DASHBOARD)
        observer.client.on_message = lambda _c, _u, message: heard.append(json.loads(message.payload))
        observer.client.subscribe(topics.table(VENUE, "t1", "status"), 1)
    real = Watched(broker, victim, victim_id, will=victim == "t1")
    intruder = Watched(broker, "t2", victim_id)  # t2's own login, the victim's client id
    try:
        # The broker takes over a session before it answers the newcomer: a real client kicked off is
        # dropped by now, and this publish is answered on the same connection only if it was not.
        mine = topics.table(VENUE, "t1", "status" if victim == "t1" else "ack")  # a topic it may write
        real.client.publish(mine, json.dumps({"online": True}), qos=1).wait_for_publish(10)
        assert real.dropped == [], f"{victim_id} was kicked off by t2's login: {real.dropped}"
        assert real.up.is_set() and intruder.up.is_set()
        if observer is not None:  # its Last Will would have come before its own status
            wait_for(lambda: {"online": True} in heard)
            assert heard == [{"online": True}]
    finally:
        for made in (intruder, real, observer):
            if made is not None:
                made.close()


def test_a_message_over_the_limit_disconnects_its_sender_and_reaches_no_one(broker, dashboard):
    wait_for(dashboard.collector.connected.is_set)
    table = Watched(broker, "t1", "t1")
    update = topics.table(VENUE, "t1", "update")

    def sized(seq: int, version: int, size: int) -> bytes:
        body = json.dumps({"seq": seq, "version": version, "update": {"game": "dice", "pad": ""}})
        return body.replace('"pad": ""', '"pad": "' + "x" * (size - len(body)) + '"').encode()

    try:
        assert len(sized(1, 1, topics.MESSAGE_LIMIT)) == topics.MESSAGE_LIMIT
        table.client.publish(update, sized(1, 1, topics.MESSAGE_LIMIT), qos=1).wait_for_publish(10)
        wait_for(lambda: dashboard.board.versions("t1") == [1])  # a message at the limit goes through
        table.client.publish(update, sized(2, 99, access.PACKET_LIMIT + 1), qos=0)
        wait_for(lambda: table.dropped)  # the broker hung up on it...
        wait_for(table.up.is_set)  # ... it came back, and its next message is the one kept
        table.client.publish(update, sized(2, 2, 100), qos=1).wait_for_publish(10)
        wait_for(lambda: len(dashboard.board.versions("t1")) == 2)
        assert dashboard.board.versions("t1") == [1, 2]
    finally:
        table.close()


@pytest.mark.slow  # waits for the broker's first save, up to access.AUTOSAVE seconds
def test_a_retained_snapshot_outlives_a_broker_killed_dead(tmp_path):
    require_mosquitto()
    mosquitto = Mosquitto(tmp_path / "broker", VENUE, TABLES, autosave=None).start()  # the venue's own
    try:
        table = Watched(mosquitto, "t1", "t1")
        snapshot = json.dumps({"version": 7, "marker": "kept-through-a-crash"})
        table.client.publish(topics.table(VENUE, "t1", "snapshot"), snapshot, qos=1, retain=True
                             ).wait_for_publish(10)
        table.close()
        saved = tmp_path / "broker" / "broker-data" / "mosquitto.db"
        wait_for(lambda: saved.is_file() and b"kept-through-a-crash" in saved.read_bytes(),
                 timeout=access.AUTOSAVE + 10)
        mosquitto.kill()
        mosquitto.start()
        got: list[bytes] = []
        reader = Watched(mosquitto, access.DASHBOARD, access.DASHBOARD)
        reader.client.on_message = lambda _c, _u, message: got.append(message.payload)
        reader.client.subscribe(topics.table(VENUE, "t1", "snapshot"), 1)
        wait_for(lambda: got)
        assert got == [snapshot.encode()]
        reader.close()
    finally:
        mosquitto.stop()


def test_the_generated_config_names_each_bound():
    text = access.broker_conf(access.Path("/v"), 1883)
    assert "use_username_as_clientid true\n" in text and f"max_packet_size {access.PACKET_LIMIT}\n" in text
    assert f"autosave_interval {access.AUTOSAVE}\n" in text and "message_size_limit" not in text


def test_broker_conf_prints_the_new_config_and_leaves_the_venues_own_untouched(tmp_path):
    require_mosquitto()  # init writes the password file with mosquitto_passwd
    folder = tmp_path / "club"
    access.init_venue(folder, "club")
    mine = folder / "mosquitto.conf"
    mine.write_text("# my own edits\nlistener 1883\n")
    out = subprocess.run([sys.executable, "-m", "companion", "venue", "broker-conf", "--dir", str(folder)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "use_username_as_clientid true\n" in out.stdout
    assert out.stdout == access.broker_conf(folder.resolve(), 1883)
    assert mine.read_text() == "# my own edits\nlistener 1883\n"
