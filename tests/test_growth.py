"""Bounded growth wherever a client can write (docs/security.md, docs/reliability.md): data files are
bounded in size and items, the same file is stored once, and the store stops short of its limit with a
message that says what the owner can do."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from webfixtures import host_of, live_server, post_json, read_json, running_app

from companion.config import ConfigError, load
from companion.core import registry
from companion.core.session import NEW_GAME, Setup, replayable
from companion.core.table import Table
from companion.gamekit.contract import Command, DataText, IllegalMove
from companion.gamekit.data import check_bounds
from companion.storage import tools as storetools
from companion.storage.store import Store

STAGES = registry.get("schacht").bundled("stages").text


def stages(pad_kb: float = 0, turntable: int | None = None) -> str:
    """A valid Schacht file: the bundled one, with a longer turntable pile and a comment to pad it."""
    text = STAGES
    if turntable is not None:
        pile = "turntable = [" + ",".join(["5"] * turntable) + "]"
        text = text.replace("turntable = [5, 5, 5, 5, 4, 4, 4, 4]", pile)
    return text + "#" * int(pad_kb * 1024) + "\n"


def new_schacht(port: int, runtime, text: str, lang: str = "en") -> tuple[int, dict]:
    body = {"kind": "new_game", "args": {"game": "schacht",
                                         "data": {"stages": {"name": "mine.toml", "text": text}}}}
    return post_json(port, f"/api/command?lang={lang}", body, host_of(runtime))


@pytest.fixture
def table(tmp_path):
    with running_app(tmp_path, game="schacht") as (runtime, app), live_server(app) as server:
        yield runtime, server


# --- data files: bounded at the seam -----------------------------------------------------------------
def test_a_60_kb_data_file_is_refused_naming_the_limit_and_nothing_is_written(table):
    runtime, server = table
    before, count = read_json(server.port, "/api/state")["version"], runtime.table.store.count()
    status, answer = new_schacht(server.port, runtime, stages(pad_kb=60))
    assert status == 409
    assert answer["error"] == ("Data file mine.toml is 63 KB: a stages file of this game is at most 16 KB. "
                               "Shorten it (fewer cards or comments).")
    assert read_json(server.port, "/api/state")["version"] == before and runtime.table.store.count() == count


def test_the_schacht_file_with_a_29001_card_pile_is_refused_naming_the_limit(table):
    runtime, server = table
    status, answer = new_schacht(server.port, runtime, stages(turntable=29_001))
    assert status == 409 and "at most 16 KB" in answer["error"], answer


def test_a_pile_that_fits_in_16_kb_but_lists_5000_cards_is_refused_in_french(table):
    runtime, server = table
    text = stages(turntable=5000)
    assert len(text.encode()) < 16 * 1024
    status, answer = new_schacht(server.port, runtime, text, lang="fr")
    assert status == 409
    assert answer["error"] == ("Fichier de données mine.toml\u202f: il compte 5054 éléments (cartes, "
                               "cases, valeurs)\u202f; un fichier stages de ce jeu en compte au plus 1000. "
                               "Retirez-en.")
    assert new_schacht(server.port, runtime, stages(pad_kb=12))[0] == 200  # under both bounds: played


def test_a_games_spec_declares_its_own_bounds():
    file = replace(registry.get("schacht").data_file("stages"), max_items=100, max_kb=4)
    check_bounds(file, DataText("mine.toml", stages()))
    with pytest.raises(IllegalMove) as caught:
        check_bounds(file, DataText("mine.toml", stages(turntable=60)))
    assert caught.value.params["limit"] == 100
    with pytest.raises(IllegalMove) as caught:
        check_bounds(file, DataText("mine.toml", stages(pad_kb=3)))
    assert caught.value.params["limit"] == 4


def test_a_config_naming_a_data_file_over_the_bound_is_refused(tmp_path):
    mine = tmp_path / "big.toml"
    mine.write_text(stages(pad_kb=60), encoding="utf-8")
    config = tmp_path / "c.toml"
    config.write_text(f'[data.schacht]\nstages = "{mine}"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(config)
    assert "key 'data.schacht.stages'" in str(caught.value) and "at most 16 KB" in str(caught.value)


# --- the same data file stored once ------------------------------------------------------------------
def test_fifty_new_games_with_one_12_kb_file_store_it_once(table, tmp_path):
    runtime, server = table
    text = stages(pad_kb=12)
    for _ in range(50):
        assert new_schacht(server.port, runtime, text)[0] == 200
    db = sqlite3.connect(runtime.table.store.path)
    try:
        kept = db.execute("SELECT count(*), sum(length(text)) FROM data_files").fetchone()
        args = db.execute("SELECT max(length(args)) FROM records WHERE kind = 'new_game'").fetchone()[0]
    finally:
        db.close()
    assert kept[0] == 2 and kept[1] < len(text) + len(STAGES) + 1  # the bundled file, and this one
    assert args < 1000  # each new game names the file; 50 copies would be 600 KB
    recorded = runtime.table.store.records_since_last(NEW_GAME)[0].args["data"]["stages"]
    assert recorded == {"name": "mine.toml", "text": text}


def played_new_game(path, text: str) -> None:
    """A store at `path` whose running game is Schacht set up with `text`, as the table records it."""
    store = Store(path)
    table = Table(store, Setup("schacht")).start()
    try:
        args = {"game": "schacht", "data": {"stages": {"name": "mine.toml", "text": text}}}
        assert table.submit(Command(NEW_GAME, args)).result(10).ok
    finally:
        table.stop()
        store.close()


def test_a_store_written_before_keeps_its_inline_files_and_replays(tmp_path):
    text = stages(pad_kb=1)
    played_new_game(tmp_path / "s.db", text)
    # As the table wrote a new game before data files were kept apart: the text inside the record.
    db = sqlite3.connect(tmp_path / "s.db", isolation_level=None)
    version, args = db.execute("SELECT version, args FROM records WHERE kind = 'new_game' "
                               "ORDER BY version DESC").fetchone()
    args = json.loads(args)
    args["data"]["stages"] = {"name": "mine.toml", "text": text}
    db.execute("UPDATE records SET args = ? WHERE version = ?", (json.dumps(args, sort_keys=True), version))
    db.execute("DELETE FROM data_files")
    db.close()
    store = Store(tmp_path / "s.db")
    try:
        assert Table(store).latest.game == "schacht"
        assert store.records_since_last(NEW_GAME)[0].args["data"]["stages"]["text"] == text
    finally:
        store.close()


def test_a_repair_puts_the_files_text_back_into_the_records(tmp_path):
    state = tmp_path / "state"
    text = stages(pad_kb=2)
    played_new_game(state / "companion.db", text)
    assert "Recovered" in storetools.repair(state, replayable)
    store = Store(state / "companion.db")
    try:
        assert Table(store).latest.game == "schacht"
        assert store.records_since_last(NEW_GAME)[0].args["data"]["stages"]["text"] == text
    finally:
        store.close()


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_every_record_reads_back_its_own_files_and_each_text_is_kept_once(tmp_path_factory, data):
    store = Store(tmp_path_factory.mktemp("files") / "s.db")
    try:
        texts = data.draw(st.lists(st.text(max_size=30), min_size=1, max_size=4, unique=True), label="texts")
        written = []
        for _ in range(data.draw(st.integers(1, 10), label="games")):
            files = {key: {"name": f"{key}.toml", "text": data.draw(st.sampled_from(texts), label=key)}
                     for key in data.draw(st.sets(st.sampled_from(["a", "b"]), min_size=1), label="keys")}
            kind = data.draw(st.sampled_from([NEW_GAME, "roll"]), label="kind")
            args = {"game": "x", "data": files}
            written.append((kind, args))
            store.append(kind, None, args, [])
        read = [(r.kind, r.args) for r in store.records_since_last("none-such")]
        assert read == written
        made = store._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'data_files'").fetchone()
        kept = store._db.execute("SELECT text FROM data_files").fetchall() if made else []
        once = {f["text"] for kind, args in written if kind == NEW_GAME for f in args["data"].values()}
        assert sorted(t for (t,) in kept) == sorted(once)
    finally:
        store.close()


# --- the store's bound, backups included ---------------------------------------------------------------
def test_the_store_stops_short_of_its_limit_and_tells_the_host_what_to_do(table, tmp_path):
    runtime, server = table
    store = runtime.table.store
    store.limit_mb = 1
    backups = store.path.parent / "backups"
    backups.mkdir()
    old = backups / "companion-000001-20261101T000000Z.db"
    old.write_bytes(b"\0" * 2**20)  # one backup fills the bound by itself: backups count
    before, count = read_json(server.port, "/api/state")["version"], store.count()
    status, answer = new_schacht(server.port, runtime, stages())
    assert status == 409 and answer["error"].startswith("The table's storage is full (")
    assert "its limit is 1 MB" in answer["error"] and "companion store fresh" in answer["error"]
    assert "backup_keep" in answer["error"] and "store_limit_mb" in answer["error"]
    status, answer = new_schacht(server.port, runtime, stages(), lang="fr")
    assert status == 409 and answer["error"].startswith("Le stockage de la table est plein (")
    assert read_json(server.port, "/api/state")["version"] == before and store.count() == count
    old.unlink()  # the owner removed an old backup: play goes on
    assert new_schacht(server.port, runtime, stages())[0] == 200
