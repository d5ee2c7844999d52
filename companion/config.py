"""The daemon's TOML config: read, validated, and refused with the file, key and reason."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import msgspec

from companion import tomlfile
from companion.i18n import LANGUAGES

DEFAULT_PORT = 8080


class ConfigError(Exception):
    """A config that cannot be used. The message names the file, the key and the fix."""


class Config(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Every setting a table has. Defaults suit the Inky Impression 7.3" build."""

    panel: str = "impression-7.3"  # a model name from devices/panels.py, or "auto" (EEPROM)
    profile: str = "impression-7in3"  # a pin profile in hardware/profiles, or a path to one
    language: str = "fr"
    state_dir: str = "/var/lib/companion"
    host: str = "0.0.0.0"
    port: Annotated[int, msgspec.Meta(ge=1, le=65535)] = DEFAULT_PORT
    dice: Annotated[int, msgspec.Meta(ge=1, le=3)] = 2
    game: str = "dice"
    url: str = ""  # the address phones use (QR code); default http://<hostname>.local:<port>/

    @property
    def state_path(self) -> Path:
        return Path(self.state_dir).expanduser()

    def public_url(self) -> str:
        import socket

        return self.url or f"http://{socket.gethostname()}.local:{self.port}/"


def load(path: Path | str | None, **overrides) -> Config:
    """Read and check a config file (None: the defaults), then apply `overrides` and $COMPANION_PORT."""
    name = str(path) if path is not None else "(defaults)"
    data = b""
    if path is not None:
        data = tomlfile.read(path, ConfigError, "Create it (see firmware/README.md) or pass the right "
                             "path with --config.")
    config = tomlfile.decode(data, Config, name, ConfigError)
    overrides = {k: v for k, v in overrides.items() if v is not None}
    env_port = os.environ.get("COMPANION_PORT")
    if env_port:
        if not env_port.isdigit() or not 1 <= int(env_port) <= 65535:
            raise ConfigError(f"$COMPANION_PORT: {env_port!r} is not a port number 1-65535.")
        overrides.setdefault("port", int(env_port))
    config = msgspec.structs.replace(config, **overrides)
    check(config, name)
    return config


def check(config: Config, name: str) -> None:
    """Cross-field checks: language, game, panel, and the profile's pins against the panel's."""
    from companion import games
    from companion.devices.panels import PANELS, panel
    from companion.devices.profile import ProfileError, load_profile

    if config.language not in LANGUAGES:
        raise ConfigError(f"{name}: key 'language': {config.language!r} is not one of "
                          f"{', '.join(LANGUAGES)}.")
    if config.game not in games.names():
        raise ConfigError(f"{name}: key 'game': unknown game {config.game!r}; "
                          f"choose one of {', '.join(games.names())}.")
    if config.panel != "auto" and config.panel not in PANELS:
        raise ConfigError(f"{name}: key 'panel': unknown panel {config.panel!r}; "
                          f"choose auto or one of {', '.join(PANELS)}.")
    try:
        profile = load_profile(config.profile)
        if config.panel != "auto":
            profile.check_against_panel(panel(config.panel))
    except ProfileError as exc:
        raise ConfigError(f"{name}: key 'profile': {exc}") from None
