"""The project built as a real wheel and installed into a clean venv, as a user (or a Pi) gets it.

The wheel is built from a clean copy of the source: setuptools packs whatever is in `build/lib`,
so an in-tree build could ship stale files and let a broken package list pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from companion.gamekit.frame import JOIN_KEY_MARK

ROOT = Path(__file__).resolve().parent.parent
MAPPED = {"companion.web": "web", "companion.hardware": "hardware"}  # top-level folders read at run time
NOT_SOURCE = shutil.ignore_patterns(".*", "__pycache__", "*.pyc", "*.egg-info")
NOT_SOURCE_AT_TOP = {"build", "dist", "state", "tests", "venv"}  # build output, run state, not shipped


def clean_env() -> dict:
    """No PYTHONPATH or venv leaking in: the installed wheel alone must do."""
    return {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}


def copy_source(source: Path, target: Path, top_level_skips: set[str] = frozenset()) -> Path:
    """A copy of `source` without caches and build output, so a build never writes into the tree."""
    def skip(directory: str, names: list[str]) -> set[str]:
        skipped = set(NOT_SOURCE(directory, names))
        if Path(directory) == source:
            skipped |= top_level_skips & set(names)
        return skipped

    shutil.copytree(source, target, ignore=skip)
    return target


def build_wheel(tmp: Path) -> Path:
    source = copy_source(ROOT, tmp / "source", NOT_SOURCE_AT_TOP)
    out = tmp / "dist"
    # No build isolation: the build takes this venv's setuptools, the lock's, as every install does.
    pip_run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-cache-dir",
             "-w", str(out), str(source)])
    (built,) = out.glob("table_companion-*.whl")
    return built


def locked(out: Path, *options: str) -> Path:
    """The lock's versions with their hashes, as pip reads them (`uv export` of uv.lock): the package's own
    dependencies and the `bootstrap` group (pip, setuptools, uv), plus what `options` add."""
    uv = Path(sys.executable).parent / "uv"
    subprocess.run([str(uv), "export", "--frozen", "--quiet", "--no-emit-project", "--format",
                    "requirements-txt", "--output-file", str(out), *options], cwd=ROOT, check=True,
                   timeout=120)
    return out


def make_venv(venv: Path, wheel: Path) -> Path:
    """A clean venv holding the wheel and exactly the lock's versions of what it needs, as a Pi gets them."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    requirements = locked(venv.parent / "locked.txt")
    pip_run([str(venv / "bin" / "pip"), "install", "--require-hashes", "-r", str(requirements)])
    pip_run([str(venv / "bin" / "pip"), "install", "--no-deps", "--no-cache-dir", str(wheel)])
    return venv


def pip_run(command: list[str]) -> None:
    proc = subprocess.run(command, capture_output=True, text=True, timeout=1800, env=clean_env())
    assert proc.returncode == 0, f"{' '.join(command)} failed:\n{proc.stdout}\n{proc.stderr}"


def expected_frames(venv: Path, game: str, view: dict, url: str, host: dict,
                    names: tuple[str, ...], since: float) -> set[bytes]:
    """The PNG frames `game`'s screen draws for public `view` on the default panel in French, rendered in
    the venv as its daemon renders it (for the table at `url` whose host page answered `host`: its join code
    and the key its join link carries; seats named `names`): one
    for each minute from `since` (time.time(), before the command shown) to a minute from now, since a
    frame states when the table reached its state."""
    join_key = host["join_link"].rsplit(JOIN_KEY_MARK, 1)[1]
    moments = range(int(since), int(time.time()) + 61, 30)
    minutes = sorted({time.strftime("%H:%M", time.localtime(t)) for t in moments})
    script = textwrap.dedent(f"""
        import sys, tempfile, pathlib
        from companion.devices.display import PngDisplay
        from companion.devices.panels import DEFAULT_PANEL, panel
        from companion.gamekit import TableInfo
        from companion.outputs.frames import render

        model = panel(DEFAULT_PANEL)
        names = {names!r}
        for at in {minutes!r}:
            info = TableInfo({url.rstrip("/") + "/"!r}, {host["join_code"]!r},
                             names + ("",) * (6 - len(names)), at=at, join_key={join_key!r})
            out = pathlib.Path(tempfile.mkdtemp()) / "frame.png"
            PngDisplay(model, out).show(render({game!r}, {view!r}, model, "fr", info).image)
            sys.stdout.buffer.write(out.read_bytes().hex().encode() + b"\\n")
    """)
    proc = subprocess.run([str(venv / "bin" / "python"), "-c", script], capture_output=True, timeout=120,
                          env=clean_env())
    assert proc.returncode == 0, proc.stderr.decode()
    return {bytes.fromhex(line) for line in proc.stdout.decode().split()}
