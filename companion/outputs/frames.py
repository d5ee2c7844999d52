"""Draw the running game's e-ink screen for one panel: the single entry point every display path uses."""

from __future__ import annotations

from companion.core import registry
from companion.core.moment import Moment
from companion.devices.panels import PanelModel
from companion.gamekit.contract import TableInfo
from companion.gamekit.frame import draw
from companion.render.layout import Canvas


def render(game: str, view: dict, model: PanelModel, lang: str, table: TableInfo | str) -> Canvas:
    """The frame of `game` showing public `view` on panel `model`, in `lang`.

    `table` is what the frame shows besides the game (address, join code, names); a bare address
    stands for a table with nothing else to show.
    """
    return draw(registry.get(game), view, model, lang, table)


def table_info(moment: Moment, url: str, *, wifi: str = "", at: str = "", notice: str = "") -> TableInfo:
    """What the frame of `moment` shows besides the game: the address, the join code, each seat's chosen
    name, the public part of a button input in progress, the hotspot's Wi-Fi code, `at`, when the table
    reached this state, the seats played from phones, and the table's `notice` line."""
    return TableInfo(url, moment.status.join_code, tuple(seat["name"] for seat in moment.seats), moment.entry,
                     wifi=wifi, at=at, join_key=moment.status.join_key,
                     phones=frozenset(seat["seat"] for seat in moment.seats if seat["phone"]), notice=notice)
