"""A game reads on one page: the guide's whole game plays; it and the new game need ten names of the kit."""

from __future__ import annotations

import ast
import re
import sys
import types
from pathlib import Path

from companion.gamekit.testing import check_play
from companion.scaffold import new_game

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "games" / "README.md").read_text(encoding="utf-8")
MOST_NAMES, MOST_LINES = 10, 150


def kit_names(source: str) -> set[str]:
    """The names `source` imports from companion.gamekit."""
    imports = [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)]
    return {alias.name for node in imports if node.module == "companion.gamekit" for alias in node.names}


def guide_game() -> str:
    return re.search(r"## A whole game on one page.*?```python\n(.*?)```", GUIDE, re.S).group(1)


def test_the_guides_whole_game_plays_to_its_end(monkeypatch):
    module = types.ModuleType("twentyone_of_the_guide")
    monkeypatch.setitem(sys.modules, module.__name__, module)  # its dataclass reads its own module
    exec(compile(guide_game(), "docs/games/README.md", "exec"), module.__dict__)  # noqa: S102
    played = check_play(module.SPEC, {"players": 3}, seed=1)
    view = module.SPEC.public_json(played.states[-1])
    assert view["count"] == 21 and len(view["winners"]) == 2
    assert module.SPEC.result(view).winners == tuple(view["winners"])


def tabled(names: set[str]) -> bool:
    """Whether the guide's table of the names a game needs has each of `names`."""
    table = GUIDE[GUIDE.index("The ten names"):GUIDE.index("## Start from a working game")]
    return all(f"`{name}" in table for name in names)


def test_the_guides_game_needs_ten_names_of_the_kit_and_the_guide_tables_them():
    names = kit_names(guide_game())
    assert len(names) <= MOST_NAMES and tabled(names), names


def test_the_new_game_reads_in_150_lines_and_ten_names_of_the_kit(tmp_path):
    game = new_game("guessroll", tmp_path, "Guess the roll") / "guessroll"
    sources = [path.read_text(encoding="utf-8") for path in sorted(game.glob("*.py"))]
    assert sum(source.count("\n") for source in sources) <= MOST_LINES
    names = set().union(*map(kit_names, sources))
    assert len(names) <= MOST_NAMES and tabled(names), names
