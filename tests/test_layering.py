"""The tree's layering: a layer table for the whole package, no import running back up it and no
circle, games on top of the SDK with nothing importing from them, and a README whose map names every
part."""

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


# The whole package, from the bottom up: a module may import from its own layer and from the layers
# below it, never from one above (an import inside a function counts too). The games sit apart:
# only the SDK below them, and nothing imports them (the registry finds them by entry point).
LAYERS = (
    ("companion", "companion.i18n", "companion.locale", "companion.tomlfile", "companion.malloc",
     "companion.foreground"),  # plain helpers every part may use
    ("companion.render",),  # fonts, palette, measured layout, QR codes
    ("companion.network",),  # the table's own Wi-Fi
    ("companion.devices",),  # buttons, LED dice, panels and their refresh
    ("companion.gamekit",),  # the SDK: the contract, the kit, the drawing API, the checks
    ("companion.games",),  # one package per game, on the SDK alone
    ("companion.storage",),  # the store, its checks, files, limit and tools
    ("companion.core",),  # the session, the registry, seats, snapshots, the table
    ("companion.serving",),  # the web stack both servers share
    ("companion.venue",),  # the dashboard process, its store, the broker's files and the MQTT link
    ("companion.outputs",),  # the Moment's readers: web app, frames, records, the venue's publisher
    ("companion.config",),
    ("companion.scaffold",),
    ("companion.wiring",),  # the daemon: its parts set up and torn down in order
    ("companion.benchmark",),
    ("companion.cli",),
    ("companion.__main__",),
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> tuple[int, str]:
    """The layer of `module` and the part of the table it belongs to (the longest that names it)."""
    found = [(len(part), rank, part) for rank, parts in enumerate(LAYERS) for part in parts
             if module == part or module.startswith(part + ".")]
    assert found, f"{module} is in no layer of LAYERS: add its part"
    _, rank, part = max(found)
    return rank, part


def package_modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", package_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_import_runs_back_up_the_layers(path):
    rank, part = layer_of(module_name(path))
    known = {module_name(p) for p in package_modules()}
    above = set()
    for name in imported(path):
        if not name.startswith("companion"):
            continue
        while name not in known and "." in name:  # `from pkg import name`: the module that holds it
            name = name.rpartition(".")[0]
        theirs, their_part = layer_of(name)
        if theirs > rank:
            above.add(f"{name} ({their_part})")
    assert not above, f"{path.relative_to(ROOT)} ({part}) imports from above it: {sorted(above)}"


def test_no_module_imports_the_web_app_but_the_wiring():
    """The venue, the config and the core reach the web through nothing: the web app is an output the
    wiring starts, and nothing else imports it."""
    for path in package_modules():
        name = module_name(path)
        if name.startswith(("companion.outputs.webapp", "companion.wiring", "companion.benchmark")):
            continue
        found = {n for n in imported(path) if n.startswith("companion.outputs.webapp")}
        assert not found, f"{path.relative_to(ROOT)} imports the web app: {sorted(found)}"


def platform_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if GAMES not in p.parents and p != GAMES / "__init__.py")


@pytest.mark.parametrize("path", platform_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_below_the_games_imports_from_them(path):
    found = {name for name in imported(path) if name.split(".")[:2] == ["companion", "games"]}
    assert not found, f"{path.relative_to(ROOT)} imports {sorted(found)}: use companion.core.registry"


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
