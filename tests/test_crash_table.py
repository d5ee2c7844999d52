"""Crash! on the table: the board is recorded with each game, the config's own board is checked."""

from __future__ import annotations

import pytest
from crash_play import BOARD_TEXT

from companion.config import ConfigError, load
from companion.core import registry
from companion.core.session import NEW_GAME, Setup
from companion.core.table import Table
from companion.gamekit.contract import Command, DataText
from companion.games.crash import SPEC
from companion.storage.store import Store

CLOSE = BOARD_TEXT.replace("cell = [0, 2]", "cell = [0, 1]").replace("cell = [0, -2]", "cell = [0, -1]")


def test_the_spec_is_registered_with_its_board_as_a_data_file():
    assert registry.get("crash") is SPEC and SPEC.seats == (2, 2) and SPEC.data[0].key == "board"
    assert SPEC.bundled("board").text == BOARD_TEXT
    assert [c.key for c in SPEC.colours] == ["blue", "red"]
    assert set(SPEC.history_lines) == set(SPEC.commands)
    assert all("{who}" in line for kind, line in SPEC.history_lines.items() if kind != "next_game")


def test_the_board_is_recorded_with_the_game_and_a_replay_ignores_a_later_edit(tmp_path, monkeypatch):
    path = tmp_path / "table.db"
    store = Store(path)
    table = Table(store, Setup("crash")).start()
    try:
        assert table.call(Command(NEW_GAME, {"game": "crash", "options": {"games": 2}})).ok
        record = table.store.records_since_last(NEW_GAME)[0]
        assert record.args["data"] == {"board": {"name": "board.toml", "text": BOARD_TEXT}}
        assert record.args["options"] == {"first": 0, "sixty": False, "games": 2, "dice_only": False,
                                          "stall_turns": 30}
        assert table.call(Command("roll")).ok
        state = table.session.state
    finally:
        table.stop()
        store.close()
    monkeypatch.setattr(type(SPEC), "bundled", lambda self, key: DataText("board.toml", CLOSE))
    store = Store(path)
    again = Table(store, Setup("crash")).start()
    try:  # the upgrade moved the bundled junkyards: the running game keeps its own
        assert again.session.state == state and state.board.junkyards == ((0, 2), (0, -2))
        assert again.call(Command(NEW_GAME, {"game": "crash"})).ok
        assert again.session.state.board.junkyards == ((0, 1), (0, -1))
    finally:
        again.stop()
        store.close()


def test_the_configs_own_board_is_checked_when_the_config_is_read(tmp_path):
    mine = tmp_path / "my-board.toml"
    mine.write_text(CLOSE, encoding="utf-8")
    config = tmp_path / "companion.toml"
    config.write_text(f'game = "crash"\n[data.crash]\nboard = "{mine}"\n', encoding="utf-8")
    setup = load(config).table_setup()
    assert setup.data["crash"]["board"] == DataText("my-board.toml", CLOSE)
    assert SPEC.start({}, None, setup.data["crash"])[1].board.junkyards == ((0, 1), (0, -1))
    mine.write_text(CLOSE.replace('facing = "n"', 'facing = "up"', 1), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"garages\[6\]\.facing.*'up' is not a direction"):
        load(config)
