"""The SDK for game authors: the contract, the kit, the drawing API, strings, palette and test tools.

A game imports everything it needs from here, and this package imports from no game:

    from companion.gamekit import N_, GameSpec, Move, Turn, Views, Device, standard_frame

The drawing API (`Canvas`, `Box`, `standard_frame`) is loaded on first use, so the platform's
commands that draw nothing do not pay for Pillow and the fonts.
"""

from typing import TYPE_CHECKING, Any

from companion.foreground import checkpoint
from companion.gamekit.colours import BLUE, GREEN, ORANGE, PURPLE, RED, SEAT_COLOURS, YELLOW, Colour
from companion.gamekit.contract import (
    MAX_SEATS,
    NOT_NOW,
    Command,
    Controls,
    DataFile,
    DataText,
    Device,
    GameSpec,
    Help,
    IllegalMove,
    Looks,
    MatchGame,
    Move,
    Result,
    TableInfo,
    Turn,
    Views,
    allowed_moves,
    button_map,
    parse,
)
from companion.gamekit.data import load_toml
from companion.gamekit.draws import Draws, ScriptedDraws
from companion.gamekit.entry import Entry, Field, number_faces
from companion.gamekit.seat_types import PerSeat, Seat
from companion.gamekit.state import put, without
from companion.i18n import N_

if TYPE_CHECKING:  # what the checker and an author's editor read; at run time, __getattr__ loads them
    from companion.gamekit.frame import PAWN_MARKS, QR_MIN_HEIGHT, marked_name, pawn_mark, standard_frame
    from companion.render.dice import die_face
    from companion.render.fonts import font
    from companion.render.layout import Box, Canvas, phrase_lines, seat_initials, short_name

_DRAWING = {"Canvas": "companion.render.layout", "Box": "companion.render.layout",
            "seat_initials": "companion.render.layout", "short_name": "companion.render.layout",
            "phrase_lines": "companion.render.layout",
            "die_face": "companion.render.dice",
            "font": "companion.render.fonts", "standard_frame": "companion.gamekit.frame",
            "QR_MIN_HEIGHT": "companion.gamekit.frame", "PAWN_MARKS": "companion.gamekit.frame",
            "pawn_mark": "companion.gamekit.frame", "marked_name": "companion.gamekit.frame"}


def __getattr__(name: str) -> Any:
    if name in _DRAWING:
        import importlib

        return getattr(importlib.import_module(_DRAWING[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BLUE", "Box", "Canvas", "Colour", "Command", "Controls", "DataFile", "DataText", "Device",
           "Draws", "Entry", "Field", "GREEN", "GameSpec", "Help", "IllegalMove", "Looks", "MAX_SEATS",
           "MatchGame", "Move", "NOT_NOW", "N_", "ORANGE", "PAWN_MARKS", "PURPLE", "PerSeat", "QR_MIN_HEIGHT",
           "RED", "Result",
           "SEAT_COLOURS", "ScriptedDraws", "Seat", "TableInfo", "Turn", "Views", "YELLOW", "allowed_moves",
           "button_map",
           "checkpoint",
           "die_face", "font", "load_toml", "marked_name", "number_faces", "pawn_mark", "parse",
           "phrase_lines", "put", "seat_initials", "short_name", "standard_frame", "without"]
