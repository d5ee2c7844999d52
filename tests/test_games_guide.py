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


def start_section() -> str:
    return GUIDE[GUIDE.index("## Start from a working game"):GUIDE.index("## The package")]


def test_the_guide_starts_a_new_game_with_the_venvs_tools_and_tells_how_to_reach_it():
    """Issue 31: the guide used bare pip, pytest and companion where the README uses .venv/bin/; it did not
    say a running simulator must restart to offer the game, nor how to be the host, nor --title-fr."""
    section = start_section()
    shell = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in shell.splitlines() if line.strip()]
    assert commands and all(command.startswith(".venv/bin/") for command in commands), commands
    assert {command.split()[0] for command in commands} == {".venv/bin/companion", ".venv/bin/pip",
                                                            ".venv/bin/pytest"}
    assert "--title-fr" in commands[0]
    prose = " ".join(section.split())
    assert "start it again" in prose and "running does not offer the new game" in prose
    assert "host link" in prose and "?host=TOKEN" in prose and "tap **Host**" in prose
    bare = [line for block in re.findall(r"```sh\n(.*?)```", GUIDE, re.S) for line in block.splitlines()
            if re.match(r"(pip|pytest|python3?|companion) ", line)]
    assert not bare, f"every shell line of the guide runs the venv's own tool: {bare}"


def test_new_game_tells_the_next_steps_with_this_venvs_tools(tmp_path, monkeypatch, capsys):
    from companion.cli import main

    venv = Path(sys.executable).parent.parent
    monkeypatch.chdir(venv.parent)
    assert main(["new-game", "guessnext", "--dir", str(tmp_path), "--title-fr", "Devine"]) == 0
    steps = capsys.readouterr().out.splitlines()[1:]
    tools = [line.split()[0] for line in steps]
    assert tools == [f"{venv.name}/bin/pip", f"{venv.name}/bin/pytest", f"{venv.name}/bin/companion"]
    assert "restart it if it runs" in steps[2] and "host link" in steps[2]
