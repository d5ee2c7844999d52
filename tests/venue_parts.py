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
def dashboard(tmp_path, broker):
    made = Dashboard(tmp_path, broker)
    yield made
    made.close()
