"""The type checker, mypy (set up in pyproject.toml), finds no error in the checked parts of the package."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The whole package is held to zero errors (the kit game authors use, strictly: pyproject.toml).
CHECKED = ["companion"]
ERROR = re.compile(r"^(?P<path>[^:\s]+\.py):\d+: error: ")


def _checked(path: str) -> bool:
    return any(path == part or path.startswith(part + "/") for part in CHECKED)


@pytest.mark.slow  # a cold run reads the whole package and its dependencies: about 20 s here
def test_the_type_checker_finds_nothing(request, tmp_path):
    # The whole package, as pyproject.toml's `files` says: an error shows in the module it is in, whichever
    # module imported it, so the run is the same as the one CI makes and only the report is narrowed.
    # pytest's own cache keeps the checker's between runs; without it (-p no:cacheprovider), a fresh one
    cache = request.config.cache.mkdir("mypy") if hasattr(request.config, "cache") else tmp_path
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--no-color-output", "--no-error-summary"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    # 0: no error anywhere; 1: errors (judged below); 2: the checker itself could not run.
    assert proc.returncode in (0, 1), f"mypy did not run:\n{proc.stdout}\n{proc.stderr}"
    assert not proc.stderr, f"mypy warns about its settings:\n{proc.stderr}"
    errors = [line for line in proc.stdout.splitlines()
              if (found := ERROR.match(line)) is not None and _checked(found["path"])]
    assert not errors, f"{len(errors)} type errors in {', '.join(CHECKED)}:\n" + "\n".join(errors)
