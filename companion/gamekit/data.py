"""Reading a game's data file (a deck, a board) with errors that name the file, the key and the reason."""

from __future__ import annotations

from typing import TypeVar

import msgspec

from companion.gamekit.contract import IllegalMove
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
