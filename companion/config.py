"""The daemon's TOML config: read, validated, and refused with the file, key and reason."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import Annotated, Any

import msgspec

from companion import tomlfile
from companion.i18n import LANGUAGES
from companion.storage import limit as storelimit
from companion.tomlfile import ConfigError
from companion.venue.settings import VenueConfig, venue_problem

log = logging.getLogger(__name__)
DEFAULT_PORT = 8080
# Keys that moved, with where they live now: configs written by older installers keep working.
MOVED = {"dice": ("options", "dice", "count")}


class NetworkConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """[network]: how phones reach the table (docs/network.md). "client": the venue's Wi-Fi, left to
    NetworkManager; "hotspot": the table's own; "auto": the known Wi-Fi if it comes up, else the hotspot."""

    mode: str = "client"
    ssid: str = "Table"
    password: str = ""  # WPA2: 8 to 63 printable ASCII characters; the installer makes a random one
    auto_wait: Annotated[float, msgspec.Meta(ge=0, le=600)] = 45  # seconds "auto" waits for the known Wi-Fi
    # The D-Bus address of the NetworkManager to drive (empty: the system's); the simulator sets its own.
    bus: str = ""


class Config(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Every setting a table has. Defaults suit the Inky Impression 7.3" build."""

    panel: str = "impression-7.3"  # a model name from devices/panels.py, or "auto" (EEPROM)
    profile: str = "impression-7in3"  # a pin profile in hardware/profiles, or a path to one
    language: str = "fr"
    state_dir: str = "/var/lib/companion"
    host: str = "0.0.0.0"
    port: Annotated[int, msgspec.Meta(ge=1, le=65535)] = DEFAULT_PORT
    game: str = "dice"  # the game the table offers between games (and on its first start)
    url: str = ""  # the address phones use (QR code); default http://<IP address>:<port>/
    # What one client address may hold at once (docs/security.md): connections (a phone's browser opens
    # up to 6) and live pages. A loopback address counts as its own client (webapp/connections.py).
    connections_per_address: int = 16
    live_pages_per_address: int = 6
    # What a phone may send that changes something (docs/security.md): a burst, then this many a second,
    # per seat, for the host, and per other address (0: no pace, for load benchmarks only).
    send_burst: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 20
    sends_per_second: Annotated[float, msgspec.Meta(ge=0, le=1000)] = 5
    # An online backup of the store after this many minutes of play (0: none), keeping the newest few.
    backup_minutes: Annotated[float, msgspec.Meta(ge=0)] = 10
    backup_keep: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 5
    # The most the store may take on disk, in MB, its backups included: past it, moves are refused.
    store_limit_mb: Annotated[int, msgspec.Meta(ge=1)] = storelimit.DEFAULT_MB
    # The e-ink's wear budget (docs/panels.md): refreshes started in any rolling hour, and how many of
    # them may follow each other at the panel's minimum gap while a game is played.
    refreshes_per_hour: Annotated[int, msgspec.Meta(ge=2, le=120)] = 20
    refresh_burst: Annotated[int, msgspec.Meta(ge=1, le=119)] = 4
    panel_speed: str = "auto"  # a panel with speeds (Spectra 6): auto (fast in play), normal, medium, fast
    simulated_glass: str = "instant"  # the simulator's panel: instant, real (its own timing) or stuck
    # [options.<game>]: default options of a game's new games, e.g. [options.dice] count = 3
    options: dict[str, dict[str, Any]] = msgspec.field(default_factory=dict)
    # [data.<game>]: the user's own copy of a data file, e.g. [data.schacht] stages = "/etc/my.toml"
    data: dict[str, dict[str, str]] = msgspec.field(default_factory=dict)
    network: NetworkConfig = msgspec.field(default_factory=NetworkConfig)
    venue: VenueConfig | None = None  # [venue]: publish to a venue's dashboard (docs/venue.md)

    @property
    def state_path(self) -> Path:
        return Path(self.state_dir).expanduser()

    def table_setup(self):
        """What the table's new games get from this config (a session.Setup); the data files are read now."""
        from companion.core.session import Setup
        from companion.gamekit.contract import DataText

        data = {game: {key: DataText(Path(path).name, _read_text(path, f"data.{game}.{key}", "config"))
                       for key, path in files.items()} for game, files in self.data.items()}
        return Setup(self.game, self.options, data)


def load(path: Path | str | None, **overrides) -> Config:
    """Read and check a config file (None: the defaults), then apply `overrides` and $COMPANION_PORT."""
    name = str(path) if path is not None else "(defaults)"
    data = b""
    if path is not None:
        data = tomlfile.read(path, ConfigError, "Create it (see firmware/README.md) or pass the right "
                             "path with --config.")
    raw = tomlfile.decode(data, dict, name, ConfigError)
    config = tomlfile.convert(_moved(raw, name), Config, name, ConfigError)
    overrides = {k: v for k, v in overrides.items() if v is not None}
    env_port = os.environ.get("COMPANION_PORT")
    if env_port:
        if not env_port.isdigit() or not 1 <= int(env_port) <= 65535:
            raise ConfigError(f"$COMPANION_PORT: {env_port!r} is not a port number 1-65535.")
        overrides.setdefault("port", int(env_port))
    config = msgspec.structs.replace(config, **overrides)
    check(config, name)
    return config


def _moved(raw: dict, name: str) -> dict:
    """`raw` with each moved key put where it lives now (a value already there wins)."""
    for old, path in MOVED.items():
        if old in raw:
            value = raw.pop(old)
            log.warning("%s: key '%s' is now [%s] %s = ...; it is read from there", name, old,
                        ".".join(path[:-1]), path[-1])
            where = raw
            for key in path[:-1]:
                where = where.setdefault(key, {})
                if not isinstance(where, dict):
                    raise ConfigError(f"{name}: key '{'.'.join(path[:-1])}': a table is expected.")
            where.setdefault(path[-1], value)
    return raw


def check(config: Config, name: str) -> None:
    """Cross-field checks: language, game, panel, and the profile's pins against the panel's."""
    from companion.core import registry
    from companion.devices.panels import PANELS, panel
    from companion.devices.profile import ProfileError, load_profile

    if not _is_host(config.host):
        raise ConfigError(f"{name}: key 'host': {config.host!r} is not an address to listen on. Give an IP "
                          "address of this machine, a host name, or 0.0.0.0 for every network.")
    if config.language not in LANGUAGES:
        raise ConfigError(f"{name}: key 'language': {config.language!r} is not one of "
                          f"{', '.join(LANGUAGES)}.")
    for key, game in [("game", config.game), *((f"options.{g}", g) for g in config.options),
                      *((f"data.{g}", g) for g in config.data)]:
        if game not in registry.names():
            raise ConfigError(f"{name}: key '{key}': unknown game {game!r}; "
                              f"choose one of {', '.join(registry.names())}.")
    _check_games(config, name)
    _check_limits(config, name)
    _check_network(config.network, name)
    if config.venue is not None and (wrong := venue_problem(config.venue)) is not None:
        raise ConfigError(f"{name}: {wrong}")
    if config.panel != "auto" and config.panel not in PANELS:
        raise ConfigError(f"{name}: key 'panel': unknown panel {config.panel!r}; "
                          f"choose auto or one of {', '.join(PANELS)}.")
    _check_panel_care(config, name)
    try:
        profile = load_profile(config.profile)
        if config.panel != "auto":
            profile.check_against_panel(panel(config.panel))
    except ProfileError as exc:
        raise ConfigError(f"{name}: key 'profile': {exc}") from None


def _check_panel_care(config: Config, name: str) -> None:
    """The panel's speed, its wear budget and the simulator's glass."""
    from companion.devices.panels import GLASS, PANELS, SPEEDS

    if config.panel_speed not in ("auto", *SPEEDS):
        raise ConfigError(f"{name}: key 'panel_speed': {config.panel_speed!r} is not a refresh speed; "
                          "choose auto (fast while a game is played, normal otherwise) or one of "
                          f"{', '.join(SPEEDS)}.")
    model = PANELS.get(config.panel)
    if config.panel_speed != "auto" and model is not None and not model.speeds:
        raise ConfigError(f"{name}: key 'panel_speed': the {config.panel} panel has no refresh speed to "
                          "choose (only Spectra 6 panels have one): remove the key, or set it to auto.")
    if config.refresh_burst >= config.refreshes_per_hour:
        raise ConfigError(f"{name}: key 'refresh_burst': {config.refresh_burst} must be less than "
                          f"refreshes_per_hour ({config.refreshes_per_hour}), or the hour's budget is all "
                          "burst: lower it (the default is 4).")
    if config.simulated_glass not in GLASS:
        raise ConfigError(f"{name}: key 'simulated_glass': {config.simulated_glass!r} is not a simulated "
                          f"panel; choose one of {', '.join(GLASS)}.")


def _check_limits(config: Config, name: str) -> None:
    """What one client address may hold: enough for a phone's browser, no more than the server has."""
    from companion.serving.serve import CONNECTIONS

    connections, pages = config.connections_per_address, config.live_pages_per_address
    if not 6 <= connections <= CONNECTIONS:
        raise ConfigError(f"{name}: key 'connections_per_address': {connections} is not 6 to {CONNECTIONS}: "
                          "a phone's browser opens up to 6 connections at once, and the table serves "
                          f"{CONNECTIONS} in all (the default is 16).")
    if not 1 <= pages < connections:
        raise ConfigError(f"{name}: key 'live_pages_per_address': {pages} is not 1 to {connections - 1}: "
                          "each live page holds one of its address's connections while it is open, and the "
                          "page needs another to load and send moves, so give less than "
                          f"connections_per_address ({connections}; the default is 6).")


LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOST_NAME = re.compile(rf"^(?=.{{1,253}}$){LABEL}(\.{LABEL})*\.?$")


def _is_host(host: str) -> bool:
    """An IP address or a well-formed host name (not looked up: a name may resolve only later)."""
    import ipaddress

    try:
        ipaddress.ip_address(host.strip("[]"))
        return True
    except ValueError:
        return bool(HOST_NAME.match(host))


def _check_network(network: NetworkConfig, name: str) -> None:
    """The mode, and a hotspot name and password that WPA2 and a phone's camera both take."""
    from companion.network.modes import MODES

    if network.mode not in MODES:
        raise ConfigError(f"{name}: key 'network.mode': {network.mode!r} is not one of {', '.join(MODES)}.")
    if not 1 <= len(network.ssid.encode()) <= 32:
        raise ConfigError(f"{name}: key 'network.ssid': a Wi-Fi name is 1 to 32 bytes long; "
                          f"{network.ssid!r} is {len(network.ssid.encode())}.")
    if network.mode == "client" and not network.password:
        return  # never needed: the table joins a Wi-Fi someone else runs
    if not (8 <= len(network.password) <= 63 and all(" " <= c <= "~" for c in network.password)):
        raise ConfigError(f"{name}: key 'network.password': a WPA2 password is 8 to 63 printable ASCII "
                          "characters (letters, digits, punctuation, spaces). Set one, or run "
                          "firmware/install.py to write a random one.")


def _check_games(config: Config, name: str) -> None:
    """Each game's default options and data files, checked by the game itself."""
    from companion.core import registry
    from companion.gamekit.contract import DataText, IllegalMove
    from companion.gamekit.data import check_bounds
    from companion.i18n import translator

    en = translator("en")
    for game, options in config.options.items():
        try:
            registry.get(game).convert_options(options)
        except IllegalMove as exc:
            raise ConfigError(f"{name}: key 'options.{game}': {en(exc.msgid, **exc.params)}") from None
    for game, files in config.data.items():
        spec = registry.get(game)
        for key, path in files.items():
            where = f"data.{game}.{key}"
            try:
                file, text = spec.data_file(key), DataText(str(path), _read_text(path, where, name))
                check_bounds(file, text)
                file.load(text.text, text.name)
            except IllegalMove as exc:
                raise ConfigError(f"{name}: key '{where}': {en(exc.msgid, **exc.params)}") from None


def _read_text(path: str, key: str, config: str) -> str:
    try:
        return tomlfile.read_bounded(Path(path).expanduser()).decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{config}: key '{key}': {path}: file not found. Give the path of your own copy "
                          "of the data file, or remove the key to use the bundled one.") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{config}: key '{key}': {path}: not UTF-8 text (a bad byte at position "
                          f"{exc.start}): save the file as UTF-8.") from None
    except IsADirectoryError:
        raise ConfigError(f"{config}: key '{key}': {path}: it is a directory: give the path of a text file."
                          ) from None
    except OSError as exc:
        raise ConfigError(f"{config}: key '{key}': {path}: cannot read it ({exc.strerror or exc}).") from None
