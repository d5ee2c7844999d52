"""Reading TOML files (configs, pin profiles, game data) with errors that name the file, key and fix."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec


def read(path: Path | str, error: type[Exception], missing_hint: str) -> bytes:
    """The bytes of `path`; `error` names the file, with `missing_hint` when it does not exist."""
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise error(f"{path}: file not found. {missing_hint}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read it ({exc.strerror}).") from None


def decode(data: bytes | str, schema: type, source: str, error: type[Exception]):
    """`data` decoded into `schema` (a msgspec Struct); `error` names `source`, the key and the reason."""
    try:
        return msgspec.toml.decode(data, type=schema)
    except msgspec.ValidationError as exc:
        raise error(f"{source}: key '{key_of(str(exc))}': {exc}. Fix or remove that key.") from None
    except msgspec.DecodeError as exc:
        raise error(f"{source}: not valid TOML ({exc}).") from None
    except RecursionError:
        raise error(f"{source}: arrays or tables are nested too deeply to read: flatten them.") from None
    except UnicodeDecodeError as exc:
        raise error(f"{source}: not UTF-8 text (a bad byte at position {exc.start}): save the file as "
                    "UTF-8.") from None


def convert(obj, schema: type, source: str, error: type[Exception]):
    """Decoded TOML `obj` converted into `schema`, refused as `decode` refuses it."""
    try:
        return msgspec.convert(obj, schema)
    except msgspec.ValidationError as exc:
        raise error(f"{source}: key '{key_of(str(exc))}': {exc}. Fix or remove that key.") from None


def key_of(message: str) -> str:
    """The key a msgspec error points at, in TOML terms: "... - at `$.dice[1]`" -> "dice[1]"."""
    at = re.search(r"at `\$\.?([^`]*)`", message)
    path = at.group(1) if at else ""
    field = re.search(r"(?:unknown|missing required) field `([^`]*)`", message)
    if field:
        path = f"{path}.{field.group(1)}" if path else field.group(1)
    return path or "(top level)"
