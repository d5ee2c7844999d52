"""The e-ink screen draws on every supported panel, in French and English, with long accented names."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from companion.devices.panels import PANELS, PanelModel
from companion.gamekit.contract import GameSpec, TableInfo
from companion.gamekit.frame import draw
from companion.gamekit.testing.report import Played, fail
from companion.i18n import LANGUAGES

URL = "http://192.168.1.20:8080/"
# Long names with accents, ligatures and letters beyond Latin-1 ("" is a seat without a name: its colour).
NAMES = ("Léocadie-Éléonore de Saint-Ébrard", "Zoë Ærøskøbing-Müller", "", "Ōtomo Çağlayan-Þórsdóttir",
         "Åsa Ñúñez-Œuvrard", "Ægir Łukasiewicz")


def panels() -> list[PanelModel]:
    """One model of each size and set of inks: others of the same draw the same frame."""
    return list({(model.size, model.inks): model for model in PANELS.values()}.values())


def check_screens(spec: GameSpec, views: Iterable[dict[str, Any]], players: int, *,
                  models: Sequence[PanelModel] | None = None, languages: Sequence[str] = LANGUAGES,
                  played: Played | None = None, names: Sequence[str] = NAMES) -> None:
    """Draw each public view on each panel model (default: every supported size and inks) in each
    language, with `players` long accented names: it must draw something, inside the panel, and not fail."""
    info = TableInfo(URL, "K7QF", tuple(names[:players]))
    for view in views:
        for model in models or panels():
            for lang in languages:
                where = f"on panel {model.name} ({model.size[0]}x{model.size[1]}) in {lang}"
                try:
                    canvas = draw(spec, view, model, lang, info)
                except Exception as exc:
                    fail("e-ink screen", f"spec.screen raised {type(exc).__name__}: {exc} {where}, with the "
                         f"names {info.names}", "draw every view on every panel size: shorten or shrink long "
                         "names (Canvas.text fits a text to its box)", played)
                low, high = canvas.image.convert("L").getextrema()
                if not canvas.elements or low == high:
                    fail("e-ink screen", f"spec.screen drew nothing {where}",
                         "draw the game's state with the Canvas given (standard_frame, text, ...)", played)
                outside = [e.label for e in canvas.elements if not e.box.within(canvas.bounds)]
                if outside:
                    fail("e-ink screen", f"spec.screen drew {outside} outside the panel {where}",
                         "lay out in boxes from canvas.bounds (Box.rows, Box.cols)", played)
