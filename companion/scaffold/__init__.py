"""`companion new-game NAME`: a new game's package that installs, plays and passes the checks at once."""

from __future__ import annotations

import io
import keyword
import re
from importlib.resources import files
from importlib.util import find_spec
from pathlib import Path
from string import Template

NAME = re.compile(r"[a-z][a-z0-9_]{1,31}")
TITLE = re.compile(r"[^\"\\\n\r\t]{1,40}")
TEMPLATE = "template"


class ScaffoldError(Exception):
    """What is wrong with the name, title or folder asked for, and how to fix it."""


def check_name(name: str) -> None:
    """A game's name is its package, its entry point and its gettext domain: a free Python module name."""
    if not NAME.fullmatch(name) or keyword.iskeyword(name):
        raise ScaffoldError(f"{name!r} cannot name a game: use 2 to 32 lower-case letters, digits and _, "
                            "starting with a letter (e.g. guessroll)")
    from companion.core import registry

    if name in registry.names():
        raise ScaffoldError(f"a game named {name!r} is already installed: choose another name")
    if find_spec(name) is not None:
        raise ScaffoldError(f"{name!r} is already a Python module here: choose another name")


def new_game(name: str, parent: Path, title: str | None = None, title_fr: str | None = None) -> Path:
    """Write the package of game `name` into `parent`/`name`, which must not exist; returns that folder.

    The game is a small complete one (secret guesses on the phones, a public roll on the device) for
    the author to change step by step: its rules, views, screen, French strings, packaging
    and a test file that runs the table's conformance checks.
    """
    check_name(name)
    title = title or name.replace("_", " ").capitalize()
    for text in (title, title_fr or title):
        if not TITLE.fullmatch(text):
            raise ScaffoldError(f"{text!r} cannot be a title: at most 40 characters, without quotes, "
                                "backslashes or line breaks")
    target = Path(parent) / name
    if target.exists():
        raise ScaffoldError(f"{target} already exists: nothing was written. Choose another folder with "
                            "--dir, or another name")
    values = {"name": name, "title": title, "title_fr": title_fr or title}
    written = {}
    for path, source in _templates(files(__package__).joinpath(TEMPLATE), Path()):
        written[_renamed(path, name)] = Template(source).substitute(values)
    target.mkdir(parents=True)
    for path, text in written.items():
        (target / path).parent.mkdir(parents=True, exist_ok=True)
        (target / path).write_text(text, encoding="utf-8")
        if path.suffix == ".po":
            (target / path.with_suffix(".mo")).write_bytes(_compiled(text))
    return target


def _templates(folder, here: Path):
    """(path in the new package, template text) for every template file under `folder`."""
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            yield from _templates(entry, here / entry.name)
        elif entry.name.endswith(".tmpl"):
            yield here / entry.name.removesuffix(".tmpl"), entry.read_text(encoding="utf-8")


def _renamed(path: Path, name: str) -> Path:
    """A template's path in the new package: "game" (the folder, game.po, test_game.py) becomes `name`."""
    *folders, file = [name if part == "game" else part for part in path.parts]
    stem, dot, rest = file.partition(".")
    return Path(*folders, stem.replace("game", name) + dot + rest)


def _compiled(po_text: str) -> bytes:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    out = io.BytesIO()
    write_mo(out, read_po(io.StringIO(po_text)))
    return out.getvalue()
