"""Config and data files as a user breaks them: an error naming the file and the key, exit 2, no traceback."""

from __future__ import annotations

import contextlib
import io
import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from daemon_process import free_port
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.core import registry

ROOT = Path(__file__).resolve().parent.parent
PROFILE = ROOT / "hardware/profiles/impression-7in3.toml"
CONFIG = ('panel = "impression-7.3"\nprofile = "impression-7in3"\nlanguage = "en"\nstate_dir = "/tmp/x"\n'
          'host = "127.0.0.1"\nport = 8080\ngame = "dice"\nbackup_minutes = 10\nbackup_keep = 5\n'
          '[options.dice]\ncount = 2\n')


def run(*args: str) -> tuple[int, str, str]:
    """`companion ARGS` in this process: (exit status, stdout, stderr). Any exception fails the test."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def assert_clear(status: int, err: str, *names: str) -> None:
    assert status == 2, err
    assert err.startswith("companion: ") and "Traceback" not in err
    for name in names:
        assert name in err, f"{name!r} not named in: {err}"


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def test_latin_1_in_a_config_comment(tmp_path):
    path = write(tmp_path, "c.toml", "# réglages du café\nlanguage = \"en\"\n".encode("latin-1"))
    assert_clear(*run("check-config", str(path))[::2], str(path), "not UTF-8", "save the file as UTF-8")


def test_latin_1_in_a_profile_comment(tmp_path):
    profile = write(tmp_path, "p.toml", b"# c\xe2blage maison\n" + PROFILE.read_bytes())
    path = write(tmp_path, "c.toml", f'profile = "{profile}"\n')
    assert_clear(*run("check-config", str(path))[::2], str(path), "'profile'", str(profile), "UTF-8")


def test_latin_1_in_a_data_file(tmp_path):
    stages = registry.get("schacht").bundled("stages").text.encode()
    data = write(tmp_path, "stages.toml", b"# \xe9tapes\n" + stages)
    path = write(tmp_path, "c.toml", f'[data.schacht]\nstages = "{data}"\n')
    assert_clear(*run("check-config", str(path))[::2], str(path), "'data.schacht.stages'", "UTF-8")


@pytest.mark.parametrize("nested", ["a = " + "[" * 50_000 + "]" * 50_000,
                                    "a = " + "{b = " * 5_000 + "1" + "}" * 5_000,
                                    "[a]\n" + "".join(f"[{'a.' * i}a]\n" for i in range(1, 300))])
def test_deep_nesting(tmp_path, nested):
    path = write(tmp_path, "c.toml", nested)
    status, _, err = run("check-config", str(path))
    assert_clear(status, err, str(path))


def test_not_a_host_fails_check_config_and_the_daemon(tmp_path):
    path = write(tmp_path, "c.toml", f'host = "not a host"\nstate_dir = "{tmp_path}/s"\n')
    assert_clear(*run("check-config", str(path))[::2], str(path), "'host'", "not an address")
    done = subprocess.run([sys.executable, "-m", "companion", "run", "--config", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert_clear(done.returncode, done.stderr, str(path), "'host'")
    assert not (tmp_path / "s").exists()  # refused before anything started


@pytest.mark.parametrize("name", ["/dev/zero", "/dev/urandom", "/proc/self", "{tmp}/fifo", "{tmp}/huge.toml"])
def test_a_profile_that_is_not_a_regular_text_file_never_hangs(tmp_path, name):
    import os

    os.mkfifo(tmp_path / "fifo")
    with (tmp_path / "huge.toml").open("wb") as f:
        f.truncate(50 * 1024 * 1024)  # a sparse 50 MB file
    target = name.format(tmp=tmp_path)
    for config in (f'profile = "{target}"\n', f'[data.schacht]\nstages = "{target}"\n'):
        path = write(tmp_path, "c.toml", config)
        status, _, err = run("check-config", str(path))
        assert_clear(status, err, str(path), target)
    status, _, err = run("check-config", target)  # the config itself
    assert_clear(status, err, target)


def exported(tmp_path: Path) -> list[dict]:
    from companion.core.table import Table
    from companion.gamekit.contract import Command
    from companion.storage.store import Store

    table = Table(Store(tmp_path / "s.db")).start()
    for command in (Command("roll"), Command("set_dice", {"count": 3}), Command("roll")):
        assert table.call(command).ok
    table.stop()
    records = list(table.export())
    table.store.close()
    return records


@pytest.mark.parametrize("edit", ["drop draws", "bad draw", "args list", "seat text", "kind number",
                                  "no version", "records text", "not json"])
def test_replay_of_an_edited_export(tmp_path, edit):
    records = exported(tmp_path)
    roll = records[1]
    if edit == "drop draws":
        roll["draws"] = []
    elif edit == "bad draw":
        roll["draws"] = [99, "x"]
    elif edit == "args list":
        records[2]["args"] = [1, 2]
    elif edit == "seat text":
        roll["seat"] = "one"
    elif edit == "kind number":
        roll["kind"] = 7
    elif edit == "no version":
        del roll["version"]
    text = json.dumps({"records": "lots"} if edit == "records text" else records)
    path = write(tmp_path, "game.json", "{not json" if edit == "not json" else text)
    status, _, err = run("replay", str(path))
    assert_clear(status, err, str(path))


def test_a_port_in_use_names_the_key(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        path = write(tmp_path, "c.toml", f'host = "127.0.0.1"\nport = {port}\nstate_dir = "{tmp_path}/s"\n')
        done = subprocess.run([sys.executable, "-m", "companion", "demo", "--config", str(path)],
                              capture_output=True, text=True, timeout=60)
    assert_clear(done.returncode, done.stderr, str(path), "'port'", f"port {port} is already in use")


def test_a_state_dir_that_is_a_file_names_the_key(tmp_path):
    state = write(tmp_path, "state", "not a directory")
    path = write(tmp_path, "c.toml", f'host = "127.0.0.1"\nport = {free_port()}\nstate_dir = "{state}"\n')
    done = subprocess.run([sys.executable, "-m", "companion", "demo", "--config", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert_clear(done.returncode, done.stderr, str(path), "'state_dir'", "is a file, not a directory")
    assert state.read_text() == "not a directory"


# --- every file the project reads, broken at random ------------------------------------------------
VALUES = st.one_of(
    st.sampled_from(['"x"', "0", "-1", "1.5", "nan", "-inf", "true", "[]", '[1, "a"]', "{}", "{a = 1}",
                     '"é"', '"/dev/zero"', '"/nowhere"', '""', "[[1]]", "99999999999999999999",
                     "1979-05-27T07:32:00Z", "'''\nx'''"]),
    st.integers().map(str),
    st.text(max_size=20).map(lambda t: json.dumps(t)),
)
KEY_LINE = re.compile(rb"^(\s*[A-Za-z0-9_\"'.-]+\s*=\s*)(.*)$", re.M)


@st.composite
def broken(draw, text: bytes) -> bytes:
    """`text` with a few mutations: a value replaced by one of another type, a line removed or repeated,
    random bytes put in, the file cut short."""
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["value", "drop", "repeat", "bytes", "cut"]))
        lines = text.split(b"\n")
        if how == "value" and KEY_LINE.search(text):
            matches = list(KEY_LINE.finditer(text))
            m = matches[draw(st.integers(0, len(matches) - 1))]
            text = text[:m.start(2)] + draw(VALUES).encode("utf-8", "surrogatepass") + text[m.end(2):]
        elif how == "drop":
            del lines[draw(st.integers(0, len(lines) - 1))]
            text = b"\n".join(lines)
        elif how == "repeat":
            i = draw(st.integers(0, len(lines) - 1))
            text = b"\n".join([*lines[:i + 1], lines[i], *lines[i + 1:]])
        elif how == "bytes":
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.binary(min_size=1, max_size=8)) + text[at:]
        else:
            text = text[:draw(st.integers(0, len(text)))]
    return text


def _data_files() -> list[tuple[str, str, bytes]]:
    return [(name, f.key, registry.get(name).bundled(f.key).text.encode())
            for name in registry.names() for f in registry.get(name).data]


FILES = ["config", "profile"] + [f"data.{game}.{key}" for game, key, _ in _data_files()]


@pytest.mark.parametrize("which", FILES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_broken_file_gives_a_clear_error_or_works(tmp_path_factory, which, data):
    folder = tmp_path_factory.mktemp("broken")
    if which == "config":
        original, key = CONFIG.encode(), None
    elif which == "profile":
        original, key = PROFILE.read_bytes(), "profile"
    else:
        _, game, name = which.split(".")
        original, key = registry.get(game).bundled(name).text.encode(), which
    mutated = folder / "broken.toml"
    mutated.write_bytes(data.draw(broken(original), label="file"))
    if which == "config":
        config = mutated
    elif which == "profile":
        config = write(folder, "c.toml", f'profile = "{mutated}"\npanel = "auto"\n')
    else:
        _, game, name = which.split(".")
        config = write(folder, "c.toml", f'[data.{game}]\n{name} = "{mutated}"\n')
    status, out, err = run("check-config", str(config))
    if status == 0:
        assert "OK" in out
        return
    assert_clear(status, err, str(config))
    if key is not None:
        assert f"'{key}'" in err, err
