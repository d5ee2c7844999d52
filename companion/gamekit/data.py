"""Reading a game's data file (a deck, a board) with errors that name the file, the key and the reason."""

from __future__ import annotations

from typing import TypeVar

import msgspec

from companion.gamekit.contract import DataFile, DataText, IllegalMove
from companion.tomlfile import key_of

T = TypeVar("T")


def load_toml(text: str, schema: type[T], name: str) -> T:
    """`text` decoded into `schema` (a msgspec Struct); IllegalMove names `name`, the key and why."""
    try:
        return msgspec.toml.decode(text, type=schema)
    except msgspec.ValidationError as exc:
        raise refuse(name, key_of(str(exc)), str(exc).split(" - at ")[0]) from None
    except msgspec.DecodeError as exc:
        raise IllegalMove("Data file {name} is not valid TOML ({reason}).", name=name,
                          reason=str(exc)) from None
    except RecursionError:
        raise IllegalMove("Data file {name}: its arrays or tables are nested too deeply to read: flatten "
                          "them.", name=name) from None


def refuse(name: str, key: str, reason: str) -> IllegalMove:
    """The refusal of a data file: which file, which key, what is wrong with it."""
    return IllegalMove("Data file {name}: key '{key}': {reason}. Fix or remove that key.", name=name,
                       key=key, reason=reason)


def check_bounds(file: DataFile, given: DataText) -> None:
    """Refuse a user's copy of `file` that is larger, or lists more items, than the game allows: it
    is recorded with every new game, and its cards travel in every update of the game."""
    size = len(given.text.encode("utf-8"))
    if size > file.max_kb * 1024:
        raise IllegalMove("Data file {name} is {size} KB: a {key} file of this game is at most {limit} KB. "
                          "Shorten it (fewer cards or comments).", name=given.name, size=-(-size // 1024),
                          key=file.key, limit=file.max_kb)
    try:
        parsed = msgspec.toml.decode(given.text)
    except (msgspec.DecodeError, RecursionError):
        return  # the game's own load names what is wrong with it
    items = _items(parsed)
    if items > file.max_items:
        raise IllegalMove("Data file {name} lists {count} items (cards, cells, values): a {key} file of this "
                          "game lists at most {limit}. Remove some.", name=given.name, count=items,
                          key=file.key, limit=file.max_items)


def _items(value: object) -> int:
    """How many items the lists in a decoded TOML value hold, nested ones included."""
    if isinstance(value, list):
        return len(value) + sum(_items(item) for item in value)
    if isinstance(value, dict):
        return sum(_items(item) for item in value.values())
    return 0
