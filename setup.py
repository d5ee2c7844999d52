"""Packaging beyond pyproject.toml: discover the packages, and register each bundled game.

web/ and hardware/ are mapped into the package (pyproject.toml's package-dir), so the package list
is found here rather than listed by hand. Each folder under companion/games/ with an __init__.py
is a game: it gets an entry point in the table_companion.games group, the same group a game
shipped as its own pip package uses. Adding a game is adding its folder (then reinstall).
"""

from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).resolve().parent
GAMES = ROOT / "companion" / "games"

setup(
    packages=[*find_packages(include=["companion", "companion.*"]), "companion.web", "companion.hardware"],
    entry_points={
        "console_scripts": ["companion = companion.cli:main"],
        "table_companion.games": sorted(f"{game.parent.name} = companion.games.{game.parent.name}:SPEC"
                                        for game in GAMES.glob("*/__init__.py")),
    },
)
