"""The kit for game authors: what every game's rules, data and buttons were writing again."""

from companion.gamekit.commands import parse, rules
from companion.gamekit.data import load_toml
from companion.gamekit.entry import Entry, Field, number_faces
from companion.gamekit.state import put, without

__all__ = ["Entry", "Field", "load_toml", "number_faces", "parse", "put", "rules", "without"]
