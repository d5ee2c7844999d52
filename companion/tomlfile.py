"""Reading TOML files (configs, pin profiles, game data) with errors that name the file, key and fix."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

MAX_BYTES = 1024 * 1024  # no config, profile, data file or record is near this; /dev/zero is endless


class ConfigError(Exception):
    """A config that cannot be used. The message names the file, the key and the fix."""


def read(path: Path | str, error: type[Exception], missing_hint: str) -> bytes:
    """The bytes of `path`; `error` names the file, with `missing_hint` when it does not exist."""
    try:
        return read_bounded(Path(path))
    except FileNotFoundError:
        raise error(f"{path}: file not found. {missing_hint}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read it ({exc.strerror or exc}).") from None


def read_bounded(path: Path) -> bytes:
    """A regular file's bytes, at most MAX_BYTES: a device, a pipe or a huge file is refused, not read
    for ever. Raises OSError with a reader's reason."""
    import os
    import stat

    # Non-blocking: opening a named pipe would otherwise wait for a writer for ever.
    with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as f:
        mode = os.fstat(f.fileno()).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file (a device or a pipe)"
            raise OSError(0, f"it is {kind}: give the path of a text file")
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise OSError(0, f"it is larger than {MAX_BYTES // 1024} KB, too large for this kind of file")
    return data


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
