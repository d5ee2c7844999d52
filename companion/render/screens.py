"""Draw a game's e-ink screen for one panel: the single entry point every display path uses."""

from __future__ import annotations

from companion import games
from companion.devices.panels import PanelModel
from companion.i18n import translator
from companion.render.layout import Canvas
from companion.render.palette import Palette


def render(game: str, view: dict, model: PanelModel, lang: str, url: str) -> Canvas:
    """The frame of `game` showing public `view` on panel `model`, in `lang`."""
    canvas = Canvas(model.size, Palette(model.inks))
    games.get(game).screen(view, canvas, translator(lang), url)
    return canvas
