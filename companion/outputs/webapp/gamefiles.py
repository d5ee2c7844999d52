"""A game's own pages, scripts and styles, read from its package folder (templates/ and static/)."""

from __future__ import annotations

import logging
from functools import cache

from flask import Blueprint, abort, send_file
from jinja2 import BaseLoader, TemplateNotFound

from companion.core import registry

log = logging.getLogger(__name__)
bp = Blueprint("gamefiles", __name__)
PREFIX = "game/"  # template names: game/<name>/<file>
PAGES = ("scoreboard", "seat")  # a game's page fragments: templates/<page>.html, static/<page>.js


class GameTemplates(BaseLoader):
    """Jinja templates named game/<name>/<file> come from that game's templates/ folder."""

    def get_source(self, environment, template: str):
        if not template.startswith(PREFIX) or template.count("/") != 2:
            raise TemplateNotFound(template)
        _, name, file = template.split("/")
        path = _folder(name, "templates", file)
        if path is None:
            raise TemplateNotFound(template)
        source = path.read_text(encoding="utf-8")
        return source, str(path), lambda: True  # installed files do not change while the table runs


def _folder(name: str, kind: str, file: str):
    """`file` in game `name`'s `kind` folder, if the game and the file exist."""
    if name not in registry.names() or not file or file.startswith(".") or "/" in file or "\\" in file:
        return None
    try:
        path = registry.get(name).folder.joinpath(kind, file)
    except ValueError:
        return None
    return path if path.is_file() else None


@cache
def assets(name: str) -> dict:
    """What a game's pages include: its fragment templates, scripts and style. A page the game has no
    fragment for is generated (`<page>_generated`: the generic fragment and web/static/generated.js),
    and the game's own script, if it has one, still renders into it."""
    out: dict[str, str | bool | None] = {}
    for page in PAGES:
        own = _folder(name, "templates", f"{page}.html") is not None
        out[page] = f"{PREFIX}{name}/{page}.html" if own else f"games/generic-{page}.html"
        out[f"{page}_generated"] = not own
        out[f"{page}_script"] = f"{page}.js" if _folder(name, "static", f"{page}.js") else None
    out["style"] = "style.css" if _folder(name, "static", "style.css") else None
    return out


def translated_help(name: str | None, tr) -> dict | None:
    """The rules help of game `name` (its spec's `help`) through translator `tr`: how to play, then each
    card's name and text."""
    spec = registry.find(name)
    found = spec.help if spec is not None else None
    if found is None:
        return None
    names = found.names
    cards = [(tr(names[card]) if card in names else "", tr(text)) for card, text in found.cards.items()]
    return {"how": tr(found.how) if found.how else "", "cards": cards}


@bp.get("/games/<name>/<file>")
def static(name: str, file: str):
    """A game's static file (script, style, picture)."""
    path = _folder(name, "static", file)
    if path is None:
        abort(404)
    return send_file(str(path), conditional=True)  # revalidated, as Flask serves its own static files
