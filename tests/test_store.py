"""The store: a durable SQLite log in WAL mode with FULL sync; a damaged file is refused by name."""

from __future__ import annotations

import sqlite3

import pytest

from companion.storage.store import Record, Store, StoreError


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "state" / "table.db")
    yield s
    s.close()


def test_opens_in_wal_mode_with_full_sync(store):
    # Ask the store's own connection: synchronous is per connection, journal_mode is per file.
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # 2 == FULL


def test_wal_mode_is_persisted_in_the_file(store):
    store.append("roll", None, {}, [1])
    fresh = sqlite3.connect(store.path)
    try:
        assert fresh.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        fresh.close()


def test_creates_the_state_directory(tmp_path):
    path = tmp_path / "deep" / "er" / "table.db"
    s = Store(path)
    try:
        assert path.exists()
    finally:
        s.close()


def test_append_is_visible_to_another_connection_when_it_returns(store):
    rec = store.append("roll", 2, {"b": 1, "a": [1, 2]}, [3, 4])
    fresh = sqlite3.connect(store.path)
    try:
        row = fresh.execute("SELECT version, kind, seat, args, draws FROM records").fetchall()
    finally:
        fresh.close()
    assert row == [(rec.version, "roll", 2, '{"a": [1, 2], "b": 1}', "[3, 4]")]


def test_versions_count_up_from_one(store):
    versions = [store.append("roll", None, {}, []).version for _ in range(5)]
    assert versions == [1, 2, 3, 4, 5]
    assert store.last_version() == 5


def test_last_version_of_an_empty_store_is_zero(store):
    assert store.last_version() == 0
    assert store.records_since_last("new_game") == []


def test_records_since_last_starts_at_the_newest_record_of_that_kind(store):
    store.append("new_game", None, {"game": "dice"}, [])
    store.append("roll", None, {}, [0, 1])
    store.append("new_game", None, {"game": "dice", "options": {"count": 1}}, [])
    store.append("roll", None, {}, [5])
    store.append("set_dice", 0, {"count": 3}, [])
    records = store.records_since_last("new_game")
    assert [(r.version, r.kind) for r in records] == [(3, "new_game"), (4, "roll"), (5, "set_dice")]
    assert records[0].args == {"game": "dice", "options": {"count": 1}}
    assert records[1].draws == [5]
    assert records[2].seat == 0


def test_records_since_last_without_that_kind_returns_everything(store):
    store.append("roll", None, {}, [1])
    store.append("roll", None, {}, [2])
    assert [r.draws for r in store.records_since_last("new_game")] == [[1], [2]]


def test_records_round_trip_through_json(store):
    rec = store.append("roll", None, {"name": "Zoé", "n": [1, None, True]}, [0, 5])
    (back,) = store.records_since_last("roll")
    assert back == rec
    assert Record(**back.to_json()) == back
    assert back.at  # a timestamp is kept for the humans reading an export


def test_records_survive_reopening(tmp_path):
    path = tmp_path / "table.db"
    s = Store(path)
    s.append("new_game", None, {"game": "dice"}, [])
    s.append("roll", None, {}, [2, 3])
    s.set_meta("host_token", "abc")
    s.close()
    again = Store(path)
    try:
        assert [(r.version, r.kind, r.draws) for r in again.records_since_last("new_game")] == [
            (1, "new_game", []), (2, "roll", [2, 3])]
        assert again.get_meta("host_token") == "abc"
        assert again.append("roll", None, {}, []).version == 3
    finally:
        again.close()


def test_meta_set_get_and_replace(store):
    assert store.get_meta("k") is None
    store.set_meta("k", "one")
    store.set_meta("k", "two")
    assert store.get_meta("k") == "two"


def test_meta_default_keeps_the_first_value(store):
    assert store.meta_default("k", "first") == "first"
    assert store.meta_default("k", "second") == "first"
    assert store.get_meta("k") == "first"


def test_meta_default_keeps_a_value_set_by_another_process(store):
    other = Store(store.path)
    try:
        other.set_meta("k", "theirs")
    finally:
        other.close()
    assert store.meta_default("k", "mine") == "theirs"


def _assert_names_path_and_fix(exc: StoreError, path) -> None:
    message = str(exc)
    assert str(path) in message
    assert "were kept" in message and f"companion store fresh --state-dir {path.parent}" in message, message


def test_garbage_file_is_refused_with_its_path_and_the_fix(tmp_path):
    path = tmp_path / "table.db"
    path.write_bytes(b"this is not a database\x00\xff" * 200)
    with pytest.raises(StoreError) as info:
        Store(path)
    _assert_names_path_and_fix(info.value, path)


def test_damaged_pages_are_refused_with_its_path_and_the_fix(tmp_path):
    # A valid header and schema but garbage where the records live: the file opens, the read fails.
    path = tmp_path / "table.db"
    s = Store(path)
    for _ in range(200):
        s.append("roll", None, {"pad": "x" * 200}, [1, 2, 3])
    s.close()
    assert not (tmp_path / "table.db-wal").exists() or (tmp_path / "table.db-wal").stat().st_size == 0
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    assert len(data) > 4 * page
    data[2 * page:] = b"\xab" * (len(data) - 2 * page)
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError) as info:
        s = Store(path)
        try:
            s.records_since_last("new_game")
        finally:
            s.close()
    _assert_names_path_and_fix(info.value, path)


def test_unreadable_record_is_refused_with_its_path(store):
    store.append("roll", None, {}, [1])
    fresh = sqlite3.connect(store.path)
    with fresh:
        fresh.execute("UPDATE records SET args = '{not json' WHERE version = 1")
    fresh.close()
    with pytest.raises(StoreError) as info:
        store.records_since_last("roll")
    assert str(store.path) in str(info.value)
    assert "record 1" in str(info.value)


def test_a_directory_in_the_way_is_refused_with_its_path(tmp_path):
    path = tmp_path / "table.db"
    path.mkdir()
    with pytest.raises(StoreError) as info:
        Store(path)
    assert str(path) in str(info.value)


FAIL_INSERTS = "CREATE TRIGGER full BEFORE INSERT ON records BEGIN SELECT RAISE(ABORT, 'disk full'); END"


def test_a_failing_write_raises_store_error_naming_the_path(store):
    fresh = sqlite3.connect(store.path)
    with fresh:
        fresh.execute(FAIL_INSERTS)
    fresh.close()
    with pytest.raises(StoreError) as info:
        store.append("roll", None, {}, [1])
    assert str(store.path) in str(info.value)
    assert "disk full" in str(info.value)
    assert store.last_version() == 0


def test_a_closed_store_raises_store_error(tmp_path):
    s = Store(tmp_path / "table.db")
    s.close()
    with pytest.raises(StoreError):
        s.append("roll", None, {}, [])
    with pytest.raises(StoreError):
        s.records_since_last("new_game")
