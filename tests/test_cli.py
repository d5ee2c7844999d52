"""The `companion` command line, run as a real subprocess where exit codes matter."""

import json
import subprocess
import sys

from companion import __version__
from companion.core.table import Table
from companion.gamekit.contract import Command
from companion.storage.store import Store


def companion(*args, **kw):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True,
                          timeout=60, **kw)


def test_version():
    result = companion("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"companion {__version__}"


def test_check_config_accepts_a_good_file(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text('language = "en"\ndice = 1\n')
    result = companion("check-config", str(path))
    assert result.returncode == 0, result.stderr
    assert "OK" in result.stdout


def test_bad_config_exits_2_naming_file_and_key(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("dice = 9\n")
    for args in (("check-config", str(path)), ("run", "--config", str(path))):
        result = companion(*args)
        assert result.returncode == 2
        assert str(path) in result.stderr and "'options.dice'" in result.stderr
        assert result.stdout == ""  # nothing else started


def test_missing_config_exits_2(tmp_path):
    result = companion("run", "--config", str(tmp_path / "nowhere.toml"))
    assert result.returncode == 2
    assert "file not found" in result.stderr


def test_replay_prints_the_public_view_of_an_exported_record(tmp_path):
    table = Table(Store(tmp_path / "s.db")).start()
    for command in (Command("roll"), Command("set_dice", {"count": 3}), Command("roll")):
        assert table.call(command).ok
    expected = table.latest.public
    table.stop()
    record = tmp_path / "game.json"
    record.write_text(json.dumps(list(table.export())))
    result = companion("replay", str(record))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["game"] == "dice"
    assert out["public"] == expected


def test_replay_refuses_a_corrupt_record(tmp_path):
    record = tmp_path / "game.json"
    record.write_text('[{"kind": "roll"}]')
    result = companion("replay", str(record))
    assert result.returncode == 2
    assert str(record) in result.stderr and "exported game record" in result.stderr
