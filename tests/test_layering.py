"""The tree's layering: games on top of the SDK, nothing below the games importing from them, and a
README whose map names every part."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"
GAMES = PACKAGE / "games"


def imported(path: Path) -> set[str]:
    """Every module `path` imports, at its top or inside a function."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return out


def platform_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if GAMES not in p.parents and p != GAMES / "__init__.py")


@pytest.mark.parametrize("path", platform_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_below_the_games_imports_from_them(path):
    found = {name for name in imported(path) if name.split(".")[:2] == ["companion", "games"]}
    assert not found, f"{path.relative_to(ROOT)} imports {sorted(found)}: use companion.registry"


def test_the_games_folder_holds_games_only():
    assert (GAMES / "__init__.py").read_text().count("\n") <= 2  # a docstring, no registry or contract
    for entry in GAMES.iterdir():
        if entry.name in ("__init__.py", "__pycache__"):
            continue
        assert entry.is_dir() and (entry / "__init__.py").is_file(), f"{entry} is not a game's package"
        assert "SPEC = GameSpec(" in (entry / "__init__.py").read_text(), f"{entry} registers no GameSpec"


@pytest.mark.parametrize("game", sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").is_file()))
def test_a_game_needs_nothing_of_the_platform_but_the_sdk(game):
    for path in (GAMES / game).rglob("*.py"):
        outside = {name for name in imported(path) if name.startswith("companion")
                   and not name.startswith(("companion.gamekit", f"companion.games.{game}"))}
        assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}: use companion.gamekit"


def test_the_readme_map_names_every_module_and_package():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    mapped = set(re.findall(r"`(companion/[\w./<>]+)`", readme))
    for entry in sorted(PACKAGE.iterdir()):
        if entry.name.startswith(("_", ".")) and entry.name != "__main__.py":
            continue
        if entry.is_dir() and not (entry / "__init__.py").is_file():
            continue
        name = f"companion/{entry.name}" + ("/" if entry.is_dir() else "")
        assert any(m == name or m.startswith(name) for m in mapped), f"README's map does not name {name}"
