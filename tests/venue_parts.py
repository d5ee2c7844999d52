"""Parts shared by the venue tests: a broker per test, a dashboard's board and collector on it."""

from __future__ import annotations

import pytest
from mosquitto import Mosquitto, require_mosquitto

from companion.venue.board import Board
from companion.venue.collector import Collector

VENUE = "club"
TABLES = ["t1", "t2"]


@pytest.fixture
def broker(tmp_path):
    require_mosquitto()
    made = Mosquitto(tmp_path / "broker", VENUE, TABLES).start()
    yield made
    made.stop()


class Dashboard:
    """The dashboard's board and collector; `restart()` is a new process's worth of both, same files."""

    def __init__(self, folder, mosquitto: Mosquitto):
        self.folder, self.mosquitto = folder, mosquitto
        self.start()

    def start(self) -> None:
        self.board = Board(self.folder / "dashboard.db")
        self.collector = Collector(self.board, self.mosquitto.broker("dashboard"), VENUE).start()

    def close(self) -> None:
        self.collector.stop()
        self.board.close()


@pytest.fixture
def served(tmp_path, broker):
    """The whole dashboard (`companion venue serve`'s object) on a free port, in English."""
    from daemon_process import free_port

    from companion.venue.dashboard import Dashboard as Served

    made = Served(tmp_path / "dashboard", broker.broker("dashboard"), VENUE, "en")
    made.start("127.0.0.1", free_port())
    yield made
    made.stop()


@pytest.fixture
def dashboard(tmp_path, broker):
    made = Dashboard(tmp_path, broker)
    yield made
    made.close()


class RawTable:
    """A table's login used by hand (paho alone, no outbox): it publishes exactly what a test gives it,
    poison included, and keeps the acknowledgements the dashboard sends it."""

    def __init__(self, mosquitto: Mosquitto, name: str, store: str = "s1"):
        import json
        import threading

        import paho.mqtt.client as mqtt

        from companion.venue import topics

        self.name, self.store, self.acks = name, store, []
        self._json, self._topics = json, topics
        self._subscribed = threading.Event()
        login = mosquitto.broker(name)
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"raw-{name}")
        self.client.username_pw_set(login.username, login.password)
        self.client.on_message = lambda _c, _u, message: self.acks.append(json.loads(message.payload))
        self.client.on_subscribe = lambda *_: self._subscribed.set()
        self.client.on_connect = lambda *_: self.client.subscribe(topics.table(VENUE, name, "ack"), qos=1)
        self.client.connect(login.host, login.port)
        self.client.loop_start()
        assert self._subscribed.wait(10), "the broker never confirmed the subscription"

    def send(self, seq: int, update, version: int | None = None, first: int | None = None) -> None:
        """Message `seq` of this table's stream, carrying `update` (any JSON value)."""
        body = {"seq": seq, "version": seq if version is None else version, "store": self.store,
                "update": update}
        if first is not None:
            body["first"] = first
        self.raw("update", self._json.dumps(body))

    def raw(self, leaf: str, payload, retain: bool = False) -> None:
        """Any payload on this table's `leaf` topic."""
        self.client.publish(self._topics.table(VENUE, self.name, leaf), payload, qos=1, retain=retain
                            ).wait_for_publish(10)

    def acked(self) -> int:
        """The highest seq the dashboard acknowledged (0: none)."""
        return max((ack["seq"] for ack in self.acks), default=0)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def update(version: int, players=("Ada", "Bo"), over: bool = False, result=None) -> dict:
    """A table's public update as its outbox holds it: `players` in play, over with `result` or not."""
    seats = [{"seat": n, "name": name, "label": "Red", "in_game": True} for n, name in enumerate(players)]
    return {"version": version, "game": "gewalt", "title": "Crazy Race", "public": {}, "seats": seats,
            "waiting": [], "history": [], "deadline": None, "over": over, "result": result}


def fits_a_phone(page) -> None:
    """A dashboard page at a phone's width: no sideways scroll, every visible control 44 px high."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    small = page.evaluate("""[...document.querySelectorAll('button, select, input, a')]
        .filter((e) => e.offsetParent && e.getBoundingClientRect().height < 44).map((e) => e.outerHTML)""")
    assert small == []
