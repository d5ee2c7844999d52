"""Draw a game's e-ink screen for one panel: the single entry point every display path uses."""

from __future__ import annotations

from companion import registry
from companion.devices.panels import PanelModel
from companion.gamekit.contract import GameSpec, TableInfo
from companion.i18n import translator
from companion.render.layout import Canvas
from companion.render.palette import Palette


def render(game: str, view: dict, model: PanelModel, lang: str, table: TableInfo | str) -> Canvas:
    """The frame of `game` showing public `view` on panel `model`, in `lang`.

    `table` is what the frame shows besides the game (address, join code, names); a bare address
    stands for a table with nothing else to show.
    """
    return draw(registry.get(game), view, model, lang, table)


def draw(spec: GameSpec, view: dict, model: PanelModel, lang: str, table: TableInfo | str) -> Canvas:
    """The frame of the game `spec` (installed or not), as `render` draws it."""
    canvas = Canvas(model.size, Palette(model.inks))
    info = table if isinstance(table, TableInfo) else TableInfo(table)
    spec.screen(view, canvas, translator(lang, spec), info)
    return canvas
