"""Every fault a store can meet at start-up, told apart, each refused with the files kept byte for byte."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from companion.cli import main
from companion.core.session import NEW_GAME, replayable
from companion.core.table import Table
from companion.gamekit.contract import Command
from companion.storage import tools as storetools
from companion.storage.check import DAMAGED, EXIT_STATUS, FOREIGN, FULL, READ_ONLY, UNREADABLE, StoreError
from companion.storage.signing import key_file_of
from companion.storage.store import Store

DB, WAL, ID = "companion.db", "companion.db-wal", "companion.table-id"


def killed(folder: Path, rolls: int = 120) -> Path:
    """A state dir as kill -9 leaves it: the main file small, the game in its WAL (a dice game)."""
    live = folder.parent / f"{folder.name}-live"
    table = Table(Store(live / DB)).start()
    for _ in range(rolls):
        assert table.call(Command("roll")).ok
    table.stop()
    folder.mkdir(parents=True)
    for name in (DB, WAL, ID):
        shutil.copy2(live / name, folder / name)  # the connection is still open: nothing checkpointed
    table.store.close()
    return folder / DB


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under `folder` with the hash of its bytes: what "nothing changed" means."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.endswith("-shm")}


def refused(path: Path, kind: str) -> str:
    """Open the store at `path`, expecting a fault of `kind`; the files are unchanged. The message."""
    before = fingerprint(path.parent)
    with pytest.raises(StoreError) as info:
        Store(path).close()
    assert info.value.kind == kind, str(info.value)
    assert fingerprint(path.parent) == before, "a refused store changed a file"
    message = str(info.value)
    if kind in (DAMAGED, FOREIGN, UNREADABLE):
        assert str(path) in message and "were kept" in message
        assert f"companion store fresh --state-dir {path.parent}" in message
    return message


def test_a_game_in_the_wal_after_kill_9_is_read_whole(tmp_path):
    path = killed(tmp_path / "state")
    assert (tmp_path / "state" / WAL).stat().st_size > 10 * (tmp_path / "state" / DB).stat().st_size
    store = Store(path)
    try:
        assert store.last_version() == 121
        assert len(store.records_since_last(NEW_GAME)) == 121
    finally:
        store.close()


def test_the_main_file_moved_aside_alone_is_refused_and_its_wal_kept(tmp_path):
    path = killed(tmp_path / "state")
    path.rename(tmp_path / "aside.db")
    message = refused(path, DAMAGED)
    assert "missing" in message and str(path.with_name(WAL)) in message


def test_an_empty_main_file_beside_a_wal_is_refused(tmp_path):
    path = killed(tmp_path / "state")
    path.write_bytes(b"")
    assert "the file is empty, and its WAL" in refused(path, DAMAGED)


def test_an_empty_main_file_alone_is_refused(tmp_path):
    path = killed(tmp_path / "state")
    path.with_name(WAL).unlink()
    path.write_bytes(b"")
    refused(path, DAMAGED)
    path.with_name(ID).unlink()
    refused(path, DAMAGED)  # even without the id: an empty file is never a store we wrote


def test_a_garbage_wal_is_refused(tmp_path):
    path = killed(tmp_path / "state")
    path.with_name(WAL).write_bytes(random.Random(93).randbytes(50_000))  # the same garbage every run
    assert "not a write-ahead log" in refused(path, DAMAGED)


def test_a_wal_from_another_table_is_refused_naming_the_wal(tmp_path):
    ours, theirs = killed(tmp_path / "ours", 5), killed(tmp_path / "theirs", 30)
    shutil.copy2(theirs.with_name(WAL), ours.with_name(WAL))
    message = refused(ours, FOREIGN)
    assert f"its WAL {ours.with_name(WAL)} holds table" in message


def test_a_database_from_another_table_is_refused(tmp_path):
    ours, theirs = killed(tmp_path / "ours", 5), killed(tmp_path / "theirs", 30)
    for name in (DB, WAL):
        shutil.copy2(theirs.with_name(name), ours.with_name(name))
    assert f"while {ours.with_name(ID)} says table" in refused(ours, FOREIGN)


def test_another_program_s_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "state" / DB
    path.parent.mkdir()
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (name TEXT)")
    db.commit()
    db.close()
    assert "not a table companion's state" in refused(path, FOREIGN)


def checkpointed(folder: Path, rolls: int = 400) -> Path:
    """A cleanly stopped store: every record in the main file."""
    table = Table(Store(folder / DB)).start()
    for _ in range(rolls):
        assert table.call(Command("roll")).ok
    table.stop()
    table.store.close()
    assert not (folder / WAL).exists()
    return folder / DB


def damage_page(path: Path, page_number: int) -> None:
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    start = (page_number - 1) * size
    # Its header kept, so the page looks like a page; the same bytes every run, so the test never flakes.
    data[start + 8:start + size] = random.Random(page_number).randbytes(size - 8)
    path.write_bytes(bytes(data))


def test_a_damaged_page_in_the_middle_is_found_at_start_up(tmp_path):
    path = checkpointed(tmp_path / "state")
    pages = path.stat().st_size // 4096
    damage_page(path, pages // 2)
    message = refused(path, DAMAGED)
    # quick_check lists what it found, or, on a damaged interior page, SQLite stops at it
    assert "SQLite's check found" in message or "database disk image is malformed" in message


def test_repair_keeps_the_files_and_recovers_the_records_it_can_read(tmp_path, capsys):
    path = checkpointed(tmp_path / "state")
    pages = path.stat().st_size // 4096
    damage_page(path, pages * 3 // 4)
    before = fingerprint(path.parent)
    assert main(["store", "repair", "--state-dir", str(path.parent)]) == 0
    out = capsys.readouterr().out
    kept = [p for p in path.parent.iterdir() if p.name.startswith("kept-")]
    assert len(kept) == 1 and f"Kept the damaged files in {kept[0]}" in out
    key = key_file_of(path).name  # the device's snapshot key is no part of the database: it stays
    assert fingerprint(kept[0]) == {name: digest for name, digest in before.items() if name != key}, \
        "the kept copy differs"
    assert fingerprint(path.parent)[key] == before[key]
    store = Store(path)  # the repaired store opens and passes every check
    try:
        count = store.count()
        assert f"Recovered {count} records" in out
        assert 300 < count < 401, out  # the damaged page's records are lost, the others kept
        table = Table(store)  # and its game replays
        assert table.latest.game == "dice"
    finally:
        store.close()


def backed_up(folder: Path, before: int = 300, after: int = 100) -> Path:
    """A cleanly stopped store with a backup taken after `before` rolls, and `after` rolls since."""
    table = Table(Store(folder / DB)).start()
    for _ in range(before):
        assert table.call(Command("roll")).ok
    storetools.backup(table.store, folder, 5)
    for _ in range(after):
        assert table.call(Command("roll")).ok
    table.stop()
    table.store.close()
    return folder / DB


def records_leaf(path: Path, which: str = "min") -> int:
    """The first (or last) page holding rows of the records table (SQLite's dbstat)."""
    db = sqlite3.connect(path)
    try:
        return db.execute(f"SELECT {which}(pageno) FROM dbstat WHERE name = 'records' AND pagetype = 'leaf'"
                          ).fetchone()[0]
    finally:
        db.close()


def test_repair_takes_what_the_damage_lost_from_the_newest_backup(tmp_path, capsys):
    path = backed_up(tmp_path / "state")
    damage_page(path, records_leaf(path))
    backups = fingerprint(path.parent / "backups")
    assert main(["store", "repair", "--state-dir", str(path.parent)]) == 0
    out = capsys.readouterr().out
    assert "more from the backup backups/companion-000001-" in out, out
    assert fingerprint(path.parent / "backups") == backups  # read, never written
    store = Store(path)
    try:
        assert store.count() == 401 and "Recovered 401 records" in out  # the opening game and 400 rolls
        assert Table(store).latest.version == 401
    finally:
        store.close()


def test_repair_of_files_with_nothing_readable_restores_the_newest_backup(tmp_path, capsys):
    path = backed_up(tmp_path / "state")
    path.write_bytes(b"")  # emptied, and no WAL to rebuild it from
    assert main(["store", "repair", "--state-dir", str(path.parent)]) == 0
    out = capsys.readouterr().out
    assert "Recovered 301 records (nothing could be read; 301 more from the backup backups/" in out, out
    store = Store(path)
    try:
        assert store.count() == 301 and Table(store).latest.version == 301
    finally:
        store.close()


def test_repair_never_takes_a_backup_of_another_table(tmp_path, capsys):
    path = backed_up(tmp_path / "state")
    other = backed_up(tmp_path / "other", 5, 0)
    for backup in (path.parent / "backups").iterdir():
        shutil.copy2(next((other.parent / "backups").iterdir()), backup)  # another table's, in its place
    damage_page(path, records_leaf(path, "max"))
    assert main(["store", "repair", "--state-dir", str(path.parent)]) == 0
    out = capsys.readouterr().out
    assert "backup" not in out and "Recovered 4" not in out, out
    store = Store(path)
    try:
        assert 300 < store.count() < 401  # what the damaged files still held, nothing of the other table
    finally:
        store.close()


def fake_sqlite3(folder: Path, stdout: str, stderr: str = "", status: int = 0) -> None:
    """A `sqlite3` program on PATH that answers every call with `stdout`, as `.recover` would."""
    import sys

    folder.mkdir()
    (folder / "answer.sql").write_text(stdout)
    program = folder / "sqlite3"
    answer = str(folder / "answer.sql")
    program.write_text(f"#!{sys.executable}\nimport sys\nsys.stdout.write(open({answer!r}).read())\n"
                       f"sys.stderr.write({stderr!r})\nsys.exit({status})\n")
    program.chmod(0o755)


def recover_script(path: Path) -> str:
    """What a working `sqlite3 FILE .recover` prints for the sound store at `path` (its rows, as SQL)."""
    db = sqlite3.connect(path)
    try:
        return "BEGIN;\n" + ";\n".join(db.iterdump()) + ";\nCOMMIT;\n"
    finally:
        db.close()


def test_repair_uses_sqlites_own_recover_where_row_by_row_reads_nothing(tmp_path, capsys, monkeypatch):
    path = checkpointed(tmp_path / "state", 50)
    fake_sqlite3(tmp_path / "bin", recover_script(path))
    damage_page(path, 2)  # the records table's root: no row can be found from it
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    assert main(["store", "repair", "--state-dir", str(path.parent)]) == 0
    assert "Recovered 51 records (sqlite3 .recover)" in capsys.readouterr().out
    store = Store(path)
    try:
        assert Table(store).latest.version == 51
    finally:
        store.close()


def test_a_sqlite3_whose_recover_fails_leaves_repair_to_say_what_it_could_not_read(tmp_path, capsys,
                                                                                 monkeypatch):
    path = checkpointed(tmp_path / "state", 50)
    # Debian's sqlite3 3.40 is built without the page reader `.recover` needs: it fails on any file.
    failing = ("BEGIN;\nPRAGMA writable_schema = on;\n", "sql error: SQL logic error (1)\n", 1)
    fake_sqlite3(tmp_path / "bin", *failing)
    damage_page(path, 2)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    assert main(["store", "repair", "--state-dir", str(path.parent)]) == 0
    assert "Recovered 0 records (nothing could be read)" in capsys.readouterr().out
    store = Store(path)
    try:
        assert store.count() == 0  # a fresh table of the same id; the damaged files stay in the kept folder
    finally:
        store.close()


def test_bad_bytes_in_the_schema_are_refused_without_a_traceback(tmp_path):
    path = checkpointed(tmp_path / "state", 5)
    data = path.read_bytes()
    at = data.index(b"CREATE TABLE records")
    path.write_bytes(data[:at + 13] + b"\xff\xfe\xfd\xfc\xfb\xfa\xf9" + data[at + 20:])
    refused(path, DAMAGED)


def test_a_garbage_header_is_unreadable(tmp_path):
    path = tmp_path / "state" / DB
    path.parent.mkdir()
    path.write_bytes(b"not a database at all\x00\xff" * 300)
    assert "not an SQLite database" in refused(path, UNREADABLE)


def test_a_directory_in_place_of_the_file_is_unreadable(tmp_path):
    path = tmp_path / "state" / DB
    path.mkdir(parents=True)
    refused(path, UNREADABLE)


def test_a_state_dir_that_is_a_file_is_unreadable(tmp_path):
    (tmp_path / "state").write_text("oops")
    with pytest.raises(StoreError) as info:
        Store(tmp_path / "state" / DB)
    assert info.value.kind == UNREADABLE and "is a file, not a directory" in str(info.value)


@pytest.mark.parametrize("kind", [DAMAGED, FOREIGN, UNREADABLE, FULL, READ_ONLY])
def test_each_fault_kind_has_its_own_exit_status(kind):
    assert EXIT_STATUS[kind] not in (0, 1, 2)
    assert len(set(EXIT_STATUS.values())) == len(EXIT_STATUS)


def test_store_check_exits_with_the_fault_s_status(tmp_path, capsys):
    path = killed(tmp_path / "state")
    assert main(["store", "check", "--state-dir", str(path.parent)]) == 0
    assert "OK: table" in capsys.readouterr().out
    path.with_name(WAL).write_bytes(b"garbage" * 100)
    assert main(["store", "check", "--state-dir", str(path.parent)]) == EXIT_STATUS[DAMAGED]
    err = capsys.readouterr().err
    assert "damaged" in err and "Traceback" not in err


def test_fresh_moves_the_three_files_aside_together(tmp_path, capsys):
    path = killed(tmp_path / "state")
    before = fingerprint(path.parent)
    assert main(["store", "fresh", "--state-dir", str(path.parent)]) == 0
    (kept,) = [p for p in path.parent.iterdir() if p.name.startswith("kept-")]
    assert {p.name for p in kept.iterdir()} >= {DB, WAL, ID}
    assert fingerprint(kept) == before
    store = Store(path)  # a new table
    try:
        assert store.last_version() == 0
    finally:
        store.close()
    # the files set aside still hold the whole game (opened from a copy)
    copy = tmp_path / "copy"
    shutil.copytree(kept, copy)
    store = Store(copy / DB)
    try:
        assert store.last_version() == 121
    finally:
        store.close()


def test_backup_keeps_the_newest_few_and_never_touches_other_files(tmp_path, capsys):
    path = checkpointed(tmp_path / "state", 20)
    backups = path.parent / "backups"
    backups.mkdir()
    (backups / "my-own-copy.db").write_bytes(b"mine")
    for _ in range(4):
        assert main(["store", "backup", "--state-dir", str(path.parent)]) == 0
    store = Store(path)
    try:
        made = [storetools.backup(store, path.parent, keep=2) for _ in range(2)]
    finally:
        store.close()
    ours = sorted(p.name for p in backups.iterdir() if p.name.startswith("companion-"))
    assert ours == sorted(p.name for p in made)
    assert (backups / "my-own-copy.db").read_bytes() == b"mine"
    copy = Store(made[-1])
    try:
        assert copy.last_version() == 21
    finally:
        copy.close()


def test_a_backup_cut_short_leaves_the_previous_one_intact(tmp_path, monkeypatch):
    path = checkpointed(tmp_path / "state", 50)
    store = Store(path)
    try:
        first = storetools.backup(store, path.parent, keep=5)
        digest = hashlib.sha256(first.read_bytes()).hexdigest()

        def cut(*args, **kw):
            raise OSError(5, "power cut")
        monkeypatch.setattr(os, "replace", cut)  # the copy was written; the rename never happens
        with pytest.raises(OSError):
            storetools.backup(store, path.parent, keep=1)
        monkeypatch.undo()
        assert hashlib.sha256(first.read_bytes()).hexdigest() == digest
        assert [p.name for p in (path.parent / "backups").glob("*.db")] == [first.name]
        second = storetools.backup(store, path.parent, keep=5)  # the leftover .part is ours: replaced
        assert second != first and first.exists()
    finally:
        store.close()


@pytest.fixture
def tmpfs(tmp_path):
    """A small tmpfs of our own, where root may mount one (else the test is skipped, saying why)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (id -u is not 0)")
    where = tmp_path / "disk"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)


def fill(folder: Path) -> Path:
    """Fill the disk holding `folder` to the last byte."""
    filler = folder / "filler"
    # Unbuffered: a buffered file would fail again at its close, flushing what did not fit.
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 65536)
    except OSError:
        pass
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_is_told_apart_and_the_files_are_fine(tmpfs):
    path = checkpointed(tmpfs / "state", 30)
    filler = fill(tmpfs)
    message = refused(path, FULL)
    assert "the disk is full" in message and "Your files are fine" in message and "move" not in message
    assert main(["store", "check", "--state-dir", str(path.parent)]) == EXIT_STATUS[FULL]
    filler.unlink()
    store = Store(path)
    try:
        assert store.last_version() == 31
    finally:
        store.close()


def test_a_disk_filling_up_mid_game_refuses_commands_and_loses_none(tmpfs):
    table = Table(Store(tmpfs / "state" / DB)).start()
    for _ in range(10):
        assert table.call(Command("roll")).ok
    filler = fill(tmpfs)
    refusals = [table.call(Command("roll", {"pad": "x" * 2000})) for _ in range(40)]
    assert not all(r.ok for r in refusals)
    acked = table.version
    filler.unlink()
    assert table.call(Command("roll")).ok
    table.stop()
    table.store.close()
    store = Store(tmpfs / "state" / DB)
    try:
        assert store.last_version() == acked + 1
    finally:
        store.close()


def test_a_read_only_state_dir_is_told_apart_and_the_files_are_fine(tmpfs):
    path = checkpointed(tmpfs / "state", 30)
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    try:
        message = refused(path, READ_ONLY)
        assert "read-only" in message and "Your files are fine" in message and "move" not in message
        assert main(["store", "check", "--state-dir", str(path.parent)]) == EXIT_STATUS[READ_ONLY]
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(tmpfs)], check=True)
    store = Store(path)
    try:
        assert store.last_version() == 31
    finally:
        store.close()


@pytest.mark.parametrize("fault", [DAMAGED, FOREIGN])
def test_the_daemon_stops_at_start_up_with_the_fault_s_status(tmp_path, fault):
    import sys

    from daemon_process import free_port

    path = killed(tmp_path / "state", 20)
    if fault == DAMAGED:
        path.write_bytes(b"")
    else:
        theirs = killed(tmp_path / "theirs", 20)
        shutil.copy2(theirs.with_name(WAL), path.with_name(WAL))
    before = fingerprint(path.parent)
    config = tmp_path / "c.toml"
    config.write_text(f'host = "127.0.0.1"\nport = {free_port()}\nstate_dir = "{path.parent}"\n')
    done = subprocess.run([sys.executable, "-m", "companion", "demo", "--config", str(config)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == EXIT_STATUS[fault], done.stderr
    assert done.stderr.startswith("companion: ") and "Traceback" not in done.stderr
    assert f"companion store fresh --state-dir {path.parent}" in done.stderr
    assert "serving" not in done.stdout
    assert fingerprint(path.parent) == before


@pytest.mark.parametrize("harm", ["emptied", "moved"])
def test_repair_rebuilds_the_game_from_its_wal_when_the_main_file_is_gone(tmp_path, capsys, harm):
    path = killed(tmp_path / "state")
    table_id = path.with_name(ID).read_text().strip()
    if harm == "emptied":
        path.write_bytes(b"")
    else:
        path.rename(tmp_path / "elsewhere.db")
    wal = hashlib.sha256(path.with_name(WAL).read_bytes()).hexdigest()
    assert main(["store", "repair", "--state-dir", str(path.parent)]) == 0
    assert "Recovered 121 records" in capsys.readouterr().out
    (kept,) = [p for p in path.parent.iterdir() if p.name.startswith("kept-")]
    assert hashlib.sha256((kept / WAL).read_bytes()).hexdigest() == wal
    store = Store(path)
    try:
        assert store.table_id == table_id and store.last_version() == 121
        assert Table(store).latest.game == "dice"
    finally:
        store.close()


@pytest.mark.parametrize("action", ["fresh", "repair"])
def test_fresh_and_repair_refuse_while_the_table_runs(tmp_path, capsys, action):
    import sys

    # Another process holds the store open, as the running daemon does (locks are per process).
    script = ("import sys; from companion.storage.store import Store; s = Store(sys.argv[1]); "
              "s.append('roll', None, {}, [1]); print('open', flush=True); sys.stdin.readline(); "
              "print(s.append('roll', None, {}, [2]).version); s.close()")
    holder = subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "state" / DB)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "open"
        before = fingerprint(tmp_path / "state")
        assert main(["store", action, "--state-dir", str(tmp_path / "state")]) == 1
        assert "the table is running" in capsys.readouterr().err
        assert fingerprint(tmp_path / "state") == before
        out, _ = holder.communicate("go\n", timeout=30)
        assert out.strip() == "2"  # the running table was not disturbed
    finally:
        holder.kill()
    assert main(["store", action, "--state-dir", str(tmp_path / "state")]) == 0  # once it stopped


def test_a_store_from_before_table_ids_is_adopted(tmp_path):
    path = tmp_path / "state" / DB
    path.parent.mkdir()
    old = sqlite3.connect(path)
    old.executescript("PRAGMA journal_mode=WAL;"
                      "CREATE TABLE records (version INTEGER PRIMARY KEY, kind TEXT NOT NULL, seat INTEGER, "
                      "args TEXT NOT NULL, draws TEXT NOT NULL, at TEXT NOT NULL);"
                      "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                      "INSERT INTO records VALUES (1, 'new_game', NULL, '{\"game\": \"dice\"}', '[]', '');"
                      "INSERT INTO meta VALUES ('host_token', 'abc');")
    old.close()
    store = Store(path)
    try:
        assert store.last_version() == 1 and store.get_meta("host_token") == "abc"
        table_id = store.table_id
    finally:
        store.close()
    assert path.with_name(ID).read_text().strip() == table_id
    again = Store(path)  # and from then on it is checked like any other
    try:
        assert again.table_id == table_id
    finally:
        again.close()


def test_repair_keeps_a_long_game_up_to_its_last_record_that_replays_undos_included(tmp_path):
    state = tmp_path / "state"
    store = Store(state / DB)
    store.append(NEW_GAME, None, {"game": "dice", "options": {"count": 1}, "data": {}}, [])
    for face in range(40):
        store.append("roll", None, {}, [face % 6])
    for _ in range(20):  # reaching past the sessions undo keeps in memory: rebuilt from the records
        store.append("undo", None, {}, [])
    store.append("roll", None, {}, [])  # a roll without its die: nothing from here on replays
    for face in range(3):
        store.append("roll", None, {}, [face])
    store.close()
    said = storetools.repair(state, replayable)
    assert "Recovered 61 records" in said
    assert "4 records after the last one that replays were left out" in said
    store = Store(state / DB)
    try:
        assert store.last_version() == 61
        assert Table(store).latest.public["rolls"] == 20
    finally:
        store.close()
