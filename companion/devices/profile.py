"""Pin profiles: which BCM pin each button, LED and die line uses, read from hardware/profiles/*.toml."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import msgspec

from companion import tomlfile
from companion.devices.panels import PANELS, PanelModel

BUTTONS = ("a", "b", "c", "d", "roll")

# BCM GPIO -> physical pin of the 40-pin header (tests/test_profiles.py checks it against gpiozero).
HEADER = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31, 13: 33,
    19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 1: 28, 12: 32,
    16: 36, 20: 38, 21: 40,
}
# On the header but not ours to use: the firmware reads the HAT ID EEPROM on these at boot.
RESERVED = {0: "ID_SD, the HAT ID EEPROM's data line", 1: "ID_SC, the HAT ID EEPROM's clock line"}


class ProfileError(ValueError):
    """A pin profile that cannot be used. The message names the file, the key and the reason."""


class _Buttons(msgspec.Struct, forbid_unknown_fields=True):
    a: int
    b: int
    c: int
    d: int
    roll: int


class _Die(msgspec.Struct, forbid_unknown_fields=True):
    centre: int
    diagonal: int
    antidiagonal: int
    middle: int


class _ProfileFile(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    name: str
    description: str
    panel: str
    buttons: _Buttons
    status_led: int | None = None
    dice: list[_Die] = []


@dataclass(frozen=True)
class DiePins:
    """The four BCM lines of one LED die."""

    centre: int
    diagonal: int
    antidiagonal: int
    middle: int


@dataclass(frozen=True)
class Profile:
    """One build's wiring. `source` is the file it came from (for error messages)."""

    name: str
    description: str
    panel: str
    buttons: dict[str, int]
    status_led: int | None
    dice: tuple[DiePins, ...]
    source: str

    def pins(self) -> dict[str, int]:
        """Every pin the profile uses, by its key in the file (e.g. "buttons.roll", "dice[1].middle")."""
        used = {f"buttons.{name}": pin for name, pin in self.buttons.items()}
        if self.status_led is not None:
            used["status_led"] = self.status_led
        for i, die in enumerate(self.dice):
            used |= {f"dice[{i}].{line}": getattr(die, line) for line in DiePins.__dataclass_fields__}
        return used

    def check_against_panel(self, model: PanelModel) -> None:
        """Refuse any pin the panel claims (PANEL_PINS and its extra pins)."""
        for key, pin in self.pins().items():
            if pin in model.pins:
                claimed = ", ".join(map(str, sorted(model.pins)))
                raise ProfileError(f"{self.source}: key '{key}': GPIO {pin} is used by the {model.name} "
                                   f"panel (it claims GPIO {claimed}). Move this line to a free pin; "
                                   "see hardware/README.md.")


def profiles() -> list[str]:
    """The names of the bundled profiles."""
    folder = files("companion.hardware").joinpath("profiles")
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def load_profile(name_or_path: str | Path) -> Profile:
    """A bundled profile by name (hardware/profiles/<name>.toml) or a profile file by path, checked."""
    text = str(name_or_path)
    if isinstance(name_or_path, Path) or "/" in text or text.endswith(".toml"):
        path = Path(name_or_path)
        source = str(path)
        data = tomlfile.read(path, ProfileError, "Give the path of a profile TOML, or one of the "
                             f"bundled names: {', '.join(profiles())}.")
    else:
        resource = files("companion.hardware").joinpath("profiles").joinpath(f"{text}.toml")
        source = f"hardware/profiles/{text}.toml"
        if not resource.is_file():
            raise ProfileError(f"{source}: no bundled profile called {text!r}; choose one of "
                               f"{', '.join(profiles())}, or give the path of your own TOML file.")
        data = resource.read_bytes()
    return parse_profile(data, source)


def parse_profile(data: bytes | str, source: str) -> Profile:
    """Decode and check a profile's TOML; `source` names it in errors."""
    raw = tomlfile.decode(data, _ProfileFile, source, ProfileError)
    profile = Profile(
        name=raw.name, description=raw.description, panel=raw.panel,
        buttons={name: getattr(raw.buttons, name) for name in BUTTONS},
        status_led=raw.status_led,
        dice=tuple(DiePins(d.centre, d.diagonal, d.antidiagonal, d.middle) for d in raw.dice),
        source=source,
    )
    if profile.panel not in PANELS:
        raise ProfileError(f"{source}: key 'panel': unknown panel {profile.panel!r}; choose one of "
                           f"{', '.join(PANELS)}.")
    _check_pins(profile)
    profile.check_against_panel(PANELS[profile.panel])
    return profile


def _check_pins(profile: Profile) -> None:
    owner: dict[int, str] = {}
    for key, pin in profile.pins().items():
        where = f"{profile.source}: key '{key}'"
        if pin not in HEADER:
            raise ProfileError(f"{where}: GPIO {pin} is not on the 40-pin header; use a BCM number 2-27.")
        if pin in RESERVED:
            raise ProfileError(f"{where}: GPIO {pin} is {RESERVED[pin]}; use another pin.")
        if pin in owner:
            raise ProfileError(f"{where}: GPIO {pin} is already used by '{owner[pin]}'; "
                               "every line needs its own pin.")
        owner[pin] = key
