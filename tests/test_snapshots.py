"""Snapshots: a start and an undo from the nearest one give exactly what a replay of the whole log gives,
and a snapshot that is damaged, of another format or written by other code is replayed past, never read."""

from __future__ import annotations

import logging
import pickle
import random
import sqlite3
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import companion.gamekit.draws
from companion.benchmark.players import legal_command
from companion.core import registry, snapshots
from companion.core.session import END_GAME, NEW_GAME, UNDO, advance, replay
from companion.core.table import Table
from companion.gamekit.contract import Command, IllegalMove
from companion.gamekit.draws import Draws
from companion.storage.signing import key_file_of, snapshot_key
from companion.storage.store import Store

DB = "companion.db"


def seeded(mp: pytest.MonkeyPatch, seed: int) -> None:
    """The rules' randomness from `seed`: a failing example repeats."""
    generator = random.Random(seed)
    mp.setattr(companion.gamekit.draws, "secrets", type("Seeded", (), {
        "randbelow": staticmethod(generator.randrange)}))


def same(a, b) -> None:
    """Two sessions are the same: what they show and hold, and their number in the game."""
    assert (a is None) == (b is None)
    if a is not None:
        assert a == b and a.count == b.count and (a.before is None) == (b.before is None)


def undo_all(a, b, at_most: int = 200) -> int:
    """Undo both sessions step by step, comparing each pair, until undo is refused (the same way)."""
    for step in range(at_most):
        try:
            a, _ = advance(a, UNDO, None, {}, Draws([]))
        except IllegalMove as refused:
            with pytest.raises(IllegalMove) as too:
                advance(b, UNDO, None, {}, Draws([]))
            assert too.value.msgid == refused.msgid
            return step
        b, _ = advance(b, UNDO, None, {}, Draws([]))
        same(a, b)
    return at_most


def whole_replay(store: Store):
    """The running game replayed from its new_game, with no snapshot at all."""
    return replay(store.records_since_last(NEW_GAME))


def play(table: Table, game: str, data, steps: int) -> None:
    """Random legal play of `game` with undos and, in some games, an end at a drawn step (free dice, the
    game between games, follow it)."""
    assert table.call(Command(NEW_GAME, {"game": game})).ok
    end = data.draw(st.one_of(st.none(), st.integers(0, steps - 1)), label="end at")
    for step in range(steps):
        what = "end" if step == end else data.draw(st.sampled_from(["move"] * 3 + ["undo"]), label="what")
        session = table.session
        if what == "move":
            rng = random.Random(data.draw(st.integers(0, 2 ** 16), label="seed"))
            command = legal_command(session.spec, session.state, session.spec.seats_in_play(session.options),
                                    rng)
            if command is None or session.spec.over(session.state):
                command = Command(UNDO)
        else:
            command = Command(UNDO if what == "undo" else END_GAME)
        table.call(command)  # an undo with nothing to undo is refused and recorded nowhere


@pytest.mark.slow
@pytest.mark.parametrize("game", registry.names())
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_a_start_from_snapshots_is_the_whole_replay_also_after_every_undo(tmp_path_factory, game, data):
    path = tmp_path_factory.mktemp(game) / DB
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(snapshots, "EVERY", data.draw(st.integers(2, 7), label="every"))
        seeded(mp, data.draw(st.integers(0, 2 ** 32), label="draws"))
        table = Table(Store(path)).start()
        play(table, game, data, data.draw(st.integers(10, 70), label="steps"))
        live = table.session
        table.stop()
        table.store.close()
        store = Store(path)
        try:
            replayed, version = whole_replay(store)
            same(live, replayed)
            resumed = Table(store)
            assert resumed.version == version
            same(resumed.session, replayed)
            undo_all(resumed.session, replayed)
            for row in list(store.snapshots(0)):  # every snapshot kept, and undo from each
                kept = resumed.snapshots.decode(row, resumed.snapshots.rebuild_for(row.since))
                upto = list(store.records_from(store.last_of(NEW_GAME, row.version), row.version))
                expected, _ = replay(upto)
                same(kept, expected)
                undo_all(kept, expected)
        finally:
            store.close()


def rolls(path, count: int, every: int, mp: pytest.MonkeyPatch) -> list[dict]:
    """A game of free dice with `count` rolls, a snapshot every `every`; the public view after each."""
    mp.setattr(snapshots, "EVERY", every)
    table = Table(Store(path)).start()
    assert table.call(Command(NEW_GAME, {"game": "dice", "options": {"count": 3}})).ok
    views = [table.latest.public]
    for _ in range(count):
        assert table.call(Command("roll")).ok
        views.append(table.latest.public)
    table.stop()
    table.store.close()
    return views


class Reads:
    """Counts the records a store hands out to replays."""

    def __init__(self, store: Store, mp: pytest.MonkeyPatch):
        self.n, real = 0, store.records_from

        def counted(*args, **kwargs):
            for record in real(*args, **kwargs):
                self.n += 1
                yield record
        mp.setattr(store, "records_from", counted)


def test_undo_reaches_back_across_snapshots_replaying_only_from_the_nearest(tmp_path):
    path = tmp_path / DB
    with pytest.MonkeyPatch.context() as mp:
        views = rolls(path, 120, 10, mp)
        store = Store(path)
        reads = Reads(store, mp)
        table = Table(store).start()
        assert reads.n < 10  # the start read only the tail after the newest snapshot
        assert table.latest.public == views[-1]
        for back in range(1, 121):
            before = reads.n
            assert table.call(Command(UNDO)).ok
            assert table.latest.public == views[-1 - back], f"undo {back}"
            assert reads.n - before <= 10 + 1  # never more than one snapshot's tail
        assert not table.call(Command(UNDO)).ok  # back at the new game: nothing more to undo
        table.stop()
        store.close()


# What a body signed with the table's key may still not do: the key is the first guard, not the only one.
SIGNED = {
    "a forged body": lambda body: pickle.dumps(Forged()),
    "a body asking 300 MB": lambda body: b"cbuiltins\nbytearray\n(J\x00\xa3\xe1\x11tR.",
    "a body naming companion.__main__": lambda body: b"ccompanion.__main__\nmain\n.",
    "a body of the wrong type": lambda body: pickle.dumps((*pickle.loads(body)[:2], 42,
                                                           *pickle.loads(body)[3:])),
}


@pytest.mark.parametrize("damage", ["a flipped byte", "other code", "another format", *SIGNED])
def test_a_bad_snapshot_is_replayed_past_with_a_log_line_and_kept_again(tmp_path, caplog, damage):
    path = tmp_path / DB
    with pytest.MonkeyPatch.context() as mp:
        views = rolls(path, 35, 10, mp)  # snapshots after the 9th, 19th and 29th rolls (sessions 10, 20, 30)
        db = sqlite3.connect(path)
        newest, body, code = db.execute("SELECT version, body, code FROM snapshots ORDER BY version DESC"
                                        ).fetchone()
        if damage == "a flipped byte":
            db.execute("UPDATE snapshots SET body = ? WHERE version = ?",
                       (body[:20] + bytes([body[20] ^ 1]) + body[21:], newest))
        elif damage == "other code":
            db.execute("UPDATE snapshots SET code = ? WHERE version = ?", ("dice:0123456789abcdef", newest))
        elif damage == "another format":
            db.execute("UPDATE snapshots SET format = 99 WHERE version = ?", (newest,))
        else:  # a body that would run a command, allocate, import or not fit, signed with the key
            forged = SIGNED[damage](body)
            row = db.execute("SELECT since, count, format FROM snapshots WHERE version = ?",
                             (newest,)).fetchone()
            key = snapshot_key(path)
            assert key is not None
            db.execute("UPDATE snapshots SET body = ?, digest = ? WHERE version = ?",
                       (forged, snapshots.digest(key, newest, *row, code, forged), newest))
        db.commit()
        db.close()
        store = Store(path)
        reads = Reads(store, mp)
        with caplog.at_level(logging.WARNING, "companion.core.snapshots"):
            table = Table(store)
        assert 10 < reads.n <= 20  # from the snapshot before it, not from the new game
        assert table.latest.public == views[-1]
        same(table.session, whole_replay(store)[0])
        assert f"the snapshot after record {newest}" in caplog.text
        assert "replaying from an earlier one" in caplog.text
        assert not FORGED_RAN and "companion.__main__" not in sys.modules
        assert caplog.text.count("the snapshot after record") == 1
        # The start that replayed past it kept a sound one in its place: the next start reads it.
        store.close()
        caplog.clear()
        store = Store(path)
        with caplog.at_level(logging.WARNING, "companion.core.snapshots"):
            assert Table(store).latest.public == views[-1]
        assert "snapshot" not in caplog.text
        store.close()


FORGED_RAN: list = []


class Forged:
    def __reduce__(self):
        return (FORGED_RAN.append, ("ran",))


def test_a_store_written_before_snapshots_opens_and_gets_them_going_forward(tmp_path):
    path = tmp_path / DB
    store = Store(path)
    store.append(NEW_GAME, None, {"game": "dice", "options": {"count": 1}, "data": {}}, [])
    for face in range(250):
        store.append("roll", None, {}, [face % 6])
    for _ in range(40):
        store.append(UNDO, None, {}, [])
    store.close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE snapshots")  # the store as the code before snapshots left it
    db.commit()
    db.close()
    store = Store(path)
    try:
        table = Table(store)
        same(table.session, whole_replay(store)[0])
        kept = [row.count for row in store.snapshots(0)]
        assert kept and all(count % snapshots.EVERY == 0 for count in kept)
        assert max(kept) == 200  # the first start kept the snapshots a live table would have
    finally:
        store.close()


def test_a_game_ended_long_ago_rebuilds_its_undo_from_its_own_records(tmp_path):
    """After an end, the game between games counts from the end: an undo past memory rebuilds that game,
    not the one that ended (before snapshots, it replayed the ended game's first records)."""
    path = tmp_path / DB
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(snapshots, "EVERY", 1000)  # no snapshot but the end's own: undo rebuilds from there
        table = Table(Store(path)).start()
        assert table.call(Command(NEW_GAME, {"game": "dice", "options": {"count": 1}})).ok
        for _ in range(30):
            assert table.call(Command("roll")).ok
        assert table.call(Command(NEW_GAME, {"game": "gewalt"})).ok
        assert table.call(Command(END_GAME)).ok
        views = [table.latest.public]
        for _ in range(50):
            assert table.call(Command("roll")).ok
            views.append(table.latest.public)
        for back in range(1, 51):
            assert table.call(Command(UNDO)).ok
            assert (table.latest.game, table.latest.public) == ("dice", views[-1 - back])
        table.stop()
        table.store.close()


def test_a_snapshot_holds_the_secrets_and_no_answer_to_the_host_shows_them(tmp_path, monkeypatch):
    from webfixtures import install_secret_game, running_app

    install_secret_game(monkeypatch)
    monkeypatch.setattr(snapshots, "EVERY", 1)  # every session kept
    with running_app(tmp_path, game="secret") as (runtime, app):
        table = runtime.table
        for seat, name in ((0, "Alice"), (1, "Bob")):
            table.seating(lambda roster, count, seat=seat, name=name: roster.claim(seat, name, count))
        assert table.call(Command("say", {"word": "SECRET-HAND-ONE"}, 1)).ok
        assert table.call(Command("say", {}, 0)).ok
        assert any(b"SECRET-HAND-ONE" in row.body for row in table.store.snapshots(0))  # what is guarded
        client, host = app.test_client(), {"X-Host-Token": table.host_token()}
        routes = [rule.rule for rule in app.url_map.iter_rules() if "GET" in rule.methods
                  and not rule.arguments and not rule.rule.endswith("/events")]  # a live stream never ends
        assert "/api/export" in routes and "/api/state" in routes
        for route in routes:
            answer = client.get(route, headers=host)
            assert b"SECRET-HAND-ONE" not in answer.get_data(), route


def test_the_key_is_made_once_and_a_store_copied_to_another_device_replays_past_its_snapshots(tmp_path,
                                                                                           caplog):
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        views = rolls(here / DB, 35, 10, mp)
    key = key_file_of(here / DB)
    assert key.stat().st_mode & 0o777 == 0o600
    made = key.read_bytes()
    store = Store(here / DB)
    assert Table(store).latest.public == views[-1] and key.read_bytes() == made  # read, never made again
    store.close()
    for name in (DB, "companion.table-id"):  # a backup restored on another device: no key of its own yet
        (there / name).write_bytes((here / name).read_bytes())
    store = Store(there / DB)
    with caplog.at_level(logging.WARNING, "companion.core.snapshots"):
        assert Table(store).latest.public == views[-1]
    store.close()
    assert key_file_of(there / DB).read_bytes() != made
    assert caplog.text.count("not signed with this table's key") == 3  # the three, then replayed whole


def test_a_key_file_the_table_did_not_make_is_left_as_it_is_and_the_game_replays(tmp_path, caplog):
    key = key_file_of(tmp_path / DB)
    key.write_text("someone's notes\n")
    with pytest.MonkeyPatch.context() as mp, caplog.at_level(logging.WARNING, "companion.storage.signing"):
        views = rolls(tmp_path / DB, 25, 10, mp)
        store = Store(tmp_path / DB)
        assert Table(store).latest.public == views[-1]
    assert not list(store.snapshots(0))  # none kept without a key
    store.close()
    assert key.read_text() == "someone's notes\n"
    assert caplog.text.count("is not one this table made") == 2  # once a start
