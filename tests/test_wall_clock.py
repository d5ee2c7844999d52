"""The wall clock jumps a day forward or back mid-game (NTP at boot, a dead RTC): nothing but the records'
timestamps notice. Deadlines run on the monotonic clock, versions order the log, backups are numbered."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from rallye_play import record
from test_rallye_web import asking

from companion.core.session import NEW_GAME, Setup, replay
from companion.core.table import Table
from companion.gamekit.contract import Command
from companion.outputs.public import public_payload
from companion.storage import tools as storetools
from companion.storage.store import Store


class Clock:
    """datetime with `now` shifted by `offset`: injected where the project reads the wall clock."""

    offset = timedelta(0)

    class datetime(datetime):  # noqa: N801 - stands in for the datetime class itself
        @classmethod
        def now(cls, tz=None):
            return datetime.now(tz) + Clock.offset


@pytest.fixture
def clock(monkeypatch):
    import companion.storage.store

    Clock.offset = timedelta(0)
    monkeypatch.setattr(companion.storage.store, "datetime", Clock.datetime)
    monkeypatch.setattr(storetools, "datetime", Clock.datetime)
    return Clock


@pytest.mark.parametrize("jump", [timedelta(days=1), timedelta(days=-1)])
def test_a_day_s_jump_mid_game_changes_nothing_but_the_timestamps(tmp_path, clock, jump):
    store = Store(tmp_path / "s.db")
    asked = record(store, {"players": 3, "route_cards": 10, "auto_passages": True, "answer_seconds": 30},
                   1, asking)
    storetools.backup(store, tmp_path, keep=2)
    clock.offset = jump  # the clock jumps while the answer window is open
    table = Table(store, Setup("rallye")).start()
    try:
        left = public_payload(table.latest, "en")["deadline"]
        assert 25 < left <= 30, left  # the window still has its 30 s, not 30 s +/- a day
        assert 25 < table.latest.due - time.monotonic() <= 30
        before = store.records_since_last(NEW_GAME)[-1]
        assert table.call(Command("decline", {}, asked.pending.seat)).ok
        after = store.records_since_last(NEW_GAME)[-1]
        assert after.version == before.version + 1
        stamped = datetime.fromisoformat(after.at) - datetime.fromisoformat(before.at)
        assert abs(stamped - jump) < timedelta(minutes=5), "the injected clock was not read"
        clock.offset = timedelta(0)  # and jumps back
        for _ in range(5):
            table.call(Command("roll"))
        newest = storetools.backup(store, tmp_path, keep=2)
        clock.offset = -jump
        newer = storetools.backup(store, tmp_path, keep=2)
        kept = sorted(p.name for p in (tmp_path / "backups").iterdir())
        assert kept == [newest.name, newer.name], "a clock set back pruned the newest backup"
        latest = table.latest
    finally:
        table.stop()
    session, version = replay(store.records_since_last(NEW_GAME))
    assert version == latest.version
    assert session.spec.public_json(session.state) == latest.public
    again = Table(store, Setup("rallye"))
    assert again.latest.public == latest.public
    store.close()


def test_records_stay_ordered_by_version_whatever_the_clock(tmp_path, clock):
    store = Store(tmp_path / "s.db")
    try:
        for offset in (0, 1, -1, 0):
            clock.offset = timedelta(days=offset)
            store.append("roll", None, {}, [1])
        assert [r.version for r in store.records_since_last(NEW_GAME)] == [1, 2, 3, 4]
        stamps = [datetime.fromisoformat(r.at) for r in store.records_since_last(NEW_GAME)]
        assert stamps[1] - stamps[0] > timedelta(hours=23) and stamps[2] < stamps[0]
        assert all(s.tzinfo == UTC for s in stamps)
    finally:
        store.close()
