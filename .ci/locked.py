"""The lock (uv.lock) as the project's own scripts read it: its uv, the versions it pins, what moved."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "uv.lock"
BOOTSTRAP = ROOT / "uv-bootstrap.txt"
BOOTSTRAP_HEADER = """\
# The lock's own uv, pip and setuptools (the `bootstrap` group of uv.lock), with their hashes: pip reads
# this file to install the uv that then installs everything from uv.lock. Written by `.ci/lock` from
# uv.lock; never edit it by hand.
"""
NO_UV = ("no uv found: run the README's second command first (it installs the lock's uv into .venv), "
         "then run this again")


def uv() -> str:
    """The uv beside the running Python, else the one in .venv, else the one on PATH."""
    for candidate in (Path(sys.executable).parent / "uv", ROOT / ".venv" / "bin" / "uv"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which("uv")
    if found is None:
        raise SystemExit(NO_UV)
    return found


def run(*argv: str, check: bool = True, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=ROOT, check=check, **kwargs)


def bootstrap_text(uv_path: str) -> str:
    """uv-bootstrap.txt as uv.lock says it must read."""
    exported = run(uv_path, "export", "--frozen", "--quiet", "--only-group", "bootstrap", "--no-emit-project",
                   "--format", "requirements-txt", "--no-header", "--no-annotate", capture_output=True,
                   text=True).stdout
    return BOOTSTRAP_HEADER + exported


def pinned(lock_text: str) -> dict[str, set[str]]:
    """Each locked package's name and versions (one package may be locked at two, per Python version)."""
    versions: dict[str, set[str]] = {}
    for package in tomllib.loads(lock_text).get("package", []):
        if "version" in package and package.get("source", {}).get("editable") is None:
            versions.setdefault(package["name"], set()).add(package["version"])
    return versions


def moved(before: dict[str, set[str]], after: dict[str, set[str]]) -> list[str]:
    """One line per package whose versions differ: `name old → new`, `+ name new` or `- name old`."""
    lines = []
    for name in sorted(before.keys() | after.keys()):
        old, new = before.get(name, set()), after.get(name, set())
        if old == new:
            continue
        if not old:
            lines.append(f"+ {name} {', '.join(sorted(new))}")
        elif not new:
            lines.append(f"- {name} {', '.join(sorted(old))}")
        else:
            lines.append(f"  {name} {', '.join(sorted(old - new))} → {', '.join(sorted(new - old))}")
    return lines
