"""Packaging: packages are found, games registered, and a real wheel carries and finds its data files."""

from __future__ import annotations

import subprocess
import textwrap
import tomllib
import zipfile
from fnmatch import fnmatch
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from installed import MAPPED, ROOT, clean_env

import companion
from companion.core.registry import GROUP


def setuptools_config() -> dict:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["tool"]["setuptools"]


def game_names() -> list[str]:
    return sorted(p.parent.name for p in (ROOT / "companion" / "games").glob("*/__init__.py"))


def test_no_package_is_listed_by_hand():
    assert "packages" not in setuptools_config(), "setup.py finds the packages: a game needs no line here"


def test_every_bundled_game_is_registered_in_the_entry_point_group():
    registered = {ep.name: ep.value for ep in entry_points(group=GROUP)}
    assert {name: registered.get(name) for name in game_names()} == {
        name: f"companion.games.{name}:SPEC" for name in game_names()}, \
        "a game folder is not registered: reinstall the project " \
        "(.venv/bin/uv sync --locked --reinstall-package table-companion)"


def test_web_and_hardware_are_mapped_into_the_package():
    assert setuptools_config()["package-dir"] == MAPPED
    for folder in MAPPED.values():
        assert (ROOT / folder / "__init__.py").exists(), f"{folder}/ needs an __init__.py to be packaged"


# --- a real wheel (built by the `wheel` fixture in conftest.py) ----------------------------
@pytest.fixture(scope="module")
def wheel_files(wheel) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        return z.namelist()


def source_files() -> dict[str, str]:
    """Wheel path -> source path of every file the package should carry."""
    expected = {}
    for top, inside in [("companion", "companion"), *((folder, pkg.replace(".", "/"))
                                                       for pkg, folder in MAPPED.items())]:
        for path in (ROOT / top).rglob("*"):
            rel = path.relative_to(ROOT / top)
            if path.is_file() and not any(p == "__pycache__" or p.startswith(".") for p in rel.parts) \
                    and path.suffix != ".pyc":
                expected[f"{inside}/{rel.as_posix()}"] = str(path.relative_to(ROOT))
    return expected


@pytest.mark.parametrize("pattern", [
    "companion/web/templates/*.html",
    "companion/web/static/*",
    "companion/hardware/profiles/*.toml",
    "companion/render/fonts/DejaVuSans.ttf",
    "companion/locale/fr/LC_MESSAGES/messages.mo",
])
def test_the_wheel_carries_the_run_time_files(wheel_files, pattern):
    assert any(fnmatch(name, pattern) for name in wheel_files), f"the wheel has no {pattern}"


@pytest.mark.parametrize("game", game_names())
def test_the_wheel_carries_every_game_with_its_pages_and_strings(wheel_files, game):
    assert f"companion/games/{game}/__init__.py" in wheel_files
    assert f"companion/games/{game}/rules.py" in wheel_files, f"game {game} has no rules in the wheel"
    assert f"companion/games/{game}/locale/fr/LC_MESSAGES/{game}.mo" in wheel_files
    assert any(n.startswith(f"companion/games/{game}/templates/") for n in wheel_files)
    assert any(n.startswith(f"companion/games/{game}/static/") for n in wheel_files)


def test_the_wheel_carries_every_source_file(wheel_files):
    missing = sorted(src for name, src in source_files().items() if name not in wheel_files)
    assert not missing, f"the wheel leaves out {missing}: check [tool.setuptools] in pyproject.toml"


def test_the_wheel_carries_no_caches_or_tests(wheel_files):
    junk = [n for n in wheel_files if "__pycache__" in n or n.endswith(".pyc") or n.startswith("tests/")]
    assert not junk


def test_the_wheel_declares_the_companion_command_and_every_game(wheel):
    with zipfile.ZipFile(wheel) as z:
        declared = next(n for n in z.namelist() if n.endswith(".dist-info/entry_points.txt"))
        text = z.read(declared).decode()
    assert "companion = companion.cli:main" in text
    assert f"[{GROUP}]" in text
    for game in game_names():
        assert f"{game} = companion.games.{game}:SPEC" in text


# --- installed into a clean venv ---------------------------------------------------------
INSTALLED_CHECK = textwrap.dedent("""
    import json
    from importlib.resources import files

    import companion
    import companion.games.dice
    from companion.core import registry
    from companion.i18n import translator

    templates = files("companion.web") / "templates"
    profiles = files("companion.hardware") / "profiles"
    print(json.dumps({
        "file": companion.__file__,
        "game": companion.games.dice.SPEC.name,
        "templates": sorted(p.name for p in templates.iterdir() if p.name.endswith(".html")),
        "profiles": sorted(p.name for p in profiles.iterdir() if p.name.endswith(".toml"))
                    if profiles.is_dir() else [],
        "font": (files("companion.render") / "fonts" / "DejaVuSans.ttf").is_file(),
        "french": translator("fr", registry.get("dice"))("Free dice"),
    }))
""")


@pytest.mark.slow
def test_the_installed_command_reports_its_version(installed, tmp_path):
    proc = subprocess.run([str(installed / "bin" / "companion"), "--version"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, env=clean_env())
    assert proc.returncode == 0, proc.stderr
    assert companion.__version__ in proc.stdout + proc.stderr


@pytest.mark.slow
def test_the_installed_package_finds_its_data_files(installed, tmp_path):
    import json

    proc = subprocess.run([str(installed / "bin" / "python"), "-c", INSTALLED_CHECK], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, env=clean_env())
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    assert Path(found["file"]).is_relative_to(installed), f"imported the source tree, not the wheel: {found}"
    assert found["game"] == "dice"
    assert "base.html" in found["templates"]
    assert found["profiles"], "no pin profile found under companion.hardware/profiles"
    assert found["font"]
    assert found["french"] == "Dés libres"


@pytest.mark.slow
def test_the_installed_simulator_serves_and_rolls(installed, tmp_path):
    """The wheel alone runs the whole product: pages, twin, a ROLL press, LEDs, then the e-ink frame."""
    import time
    import urllib.request

    from daemon_process import DaemonProcess

    daemon = DaemonProcess(tmp_path / "state", python=str(installed / "bin" / "python"), env=clean_env(),
                           cwd=tmp_path).start()
    try:
        for page in ("/", "/device"):
            with urllib.request.urlopen(daemon.base + page, timeout=10) as response:
                assert response.status == 200 and b"<html" in response.read()
        before = daemon.get("/api/device")
        status, answer = daemon.post("/api/device/press", {"button": "roll"})
        assert status in (200, 202), answer
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            after = daemon.get("/api/device")
            rolled = daemon.get("/api/state")["public"]["rolls"]
            if rolled and after["frame_version"] > before["frame_version"]:
                break
            time.sleep(0.1)
        state = daemon.get("/api/state")["public"]
        assert state["rolls"] == 1, "the ROLL press did not roll"
        assert after["frame_version"] > before["frame_version"], "no new e-ink frame after the roll"
        time.sleep(1.5)  # the LED animation holds the final faces after it ends
        shown = daemon.get("/api/device")["dice"]
        assert shown[:len(state["last"])] == state["last"]
        assert all(face is None for face in shown[len(state["last"]):]), "a die not in play is lit"
    finally:
        daemon.stop()
