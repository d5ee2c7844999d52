"""A table's outbox through a real Mosquitto to the dashboard's board: every command once, in order."""

from __future__ import annotations

import random

import pytest
import venue_parts
from polling import wait_for
from venue_parts import VENUE, Dashboard

from companion.core.table import Table
from companion.gamekit.contract import Command
from companion.outputs.venue.outbox import Outbox, writer
from companion.outputs.venue.publishing import scoreboard_view
from companion.outputs.venue.sender import Sender
from companion.storage.store import Store

broker = venue_parts.broker  # this module's fixture


class Venue(Dashboard):
    """A dashboard, and tables made on demand (a table, its store, outbox and sender), all on `broker`."""

    def __init__(self, folder, broker):
        super().__init__(folder, broker)
        self.running = []

    def table(self, name: str):
        store = Store(self.folder / f"{name}.db")
        outbox = Outbox(store.path)
        table = Table(store)
        table.outbox = writer(scoreboard_view)
        sender = Sender(outbox, self.mosquitto.broker(name), VENUE, name)
        table.subscribe(sender.wake)
        self.running.append((table, sender, outbox, store))
        return table.start(), sender.start()

    def close(self):
        for table, sender, outbox, store in self.running:
            table.stop()
            sender.stop()
            outbox.close()
            store.close()
        super().close()


@pytest.fixture
def venue(tmp_path, broker):
    made = Venue(tmp_path, broker)
    yield made
    made.close()


def committed(table, commands) -> list[int]:
    versions = []
    for command in commands:
        result = table.call(command)
        assert result.ok, result.error
        versions.append(result.version)
    return versions


def test_every_committed_command_reaches_the_dashboard_once_in_order(venue):
    table, sender = venue.table("t1")
    versions = committed(table, [Command("roll")] * 20)
    wait_for(lambda: venue.board.versions("t1")[-1:] == versions[-1:])
    kept = venue.board.versions("t1")
    assert kept == sorted(set(kept)) and set(versions) <= set(kept)
    wait_for(lambda: sender.waiting() == 0)
    (row,) = venue.board.tables()
    assert row["online"] and row["update"]["version"] == versions[-1] and row["update"]["game"] == "dice"


def test_a_broker_killed_and_restarted_mid_game_loses_and_doubles_nothing(venue, broker):
    rng = random.Random(22)
    table, sender = venue.table("t1")
    versions = committed(table, [Command("roll")] * 5)
    for _ in range(3):
        versions += committed(table, [Command("roll")] * rng.randrange(1, 15))
        broker.kill()  # at a seeded moment: some messages in flight, some not yet sent
        versions += committed(table, [Command("roll")] * rng.randrange(1, 15))  # the table plays on
        assert sender.waiting() > 0
        broker.start()
    wait_for(lambda: sender.waiting() == 0, timeout=30)
    kept = venue.board.versions("t1")
    assert kept == sorted(set(kept)), "a message was kept twice or out of order"
    assert set(versions) <= set(kept), f"lost: {sorted(set(versions) - set(kept))}"


def test_the_board_keeps_each_seq_once_and_a_message_after_a_gap_waits_for_the_resend(tmp_path):
    from companion.venue.board import Board

    board = Board(tmp_path / "board.db")
    assert board.take("t1", 5, 50, {}) == 5  # a table first seen starts where it stands
    assert board.take("t1", 5, 50, {}) == 5  # the same message again: dropped, acknowledged again
    assert board.take("t1", 7, 70, {}) == 5  # after a gap: not kept; the ack makes the table resend 6
    assert board.take("t1", 6, 60, {}) == 6
    assert board.take("t1", 7, 70, {}) == 7
    assert board.versions("t1") == [50, 60, 70]
    board.close()


@pytest.mark.parametrize("league", [False, True])
def test_a_full_outbox_refuses_the_move_saying_why_and_keeps_every_earlier_one(tmp_path, league):
    store = Store(tmp_path / "t1.db")
    outbox = Outbox(store.path)  # no sender: the venue is never reached
    table = Table(store)
    table.outbox = writer(scoreboard_view, limit=5, league=league)
    table.start()
    try:
        kept = [table.call(Command("roll")) for _ in range(4)]  # the new game's message is the fifth
        assert all(result.ok for result in kept) and outbox.waiting() == 5
        refused = table.call(Command("roll"))
        said = str(refused.error)
        assert not refused.ok and "5 moves wait" in said and "Nothing was changed" in said
        # In a league, the league may be what is away: the refusal names it and its bridge.
        assert ("its league" in said and "bridge to the league" in said) == league
        assert table.version == kept[-1].version and store.last_version() == kept[-1].version
        assert [m.version for m in outbox.after(0, 10)][-4:] == [r.version for r in kept]
        outbox.acknowledged(outbox.after(0, 10)[-1].seq)  # the venue is back and has them all
        assert table.call(Command("roll")).ok
    finally:
        table.stop()
        outbox.close()
        store.close()
