"""The inky panels we support: name, size, inks, and how to build their driver class."""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass, field
from typing import Any

SEVEN = {0: "black", 1: "white", 2: "green", 3: "blue", 4: "red", 5: "yellow", 6: "orange"}
SPECTRA = {0: "black", 1: "white", 2: "yellow", 3: "red", 5: "blue", 6: "green"}
FOUR = {0: "black", 1: "white", 2: "yellow", 3: "red"}
SPEEDS = ("normal", "medium", "fast")
GLASS = ("instant", "real", "stuck")  # how the simulator's panel behaves (the config's simulated_glass)

# The colours each family of glass shows for its inks: inky's drivers' SATURATED_PALETTE, Pimoroni's
# measurements of the panel (tests/test_seat_palettes.py checks they still match). The seats' inks are
# chosen by these, not by the pure inks the frame is drawn in. The 2-, 3- and 4-colour drivers give none
# (the 4-colour drivers' "saturated" table is no colour the glass shows: its white is grey 71): their
# inks count as pure.
Glass = tuple[tuple[str, tuple[int, int, int]], ...]
GLASS_UC8159: Glass = (("black", (57, 48, 57)), ("white", (255, 255, 255)), ("green", (58, 91, 70)),
                       ("blue", (61, 59, 94)), ("red", (156, 72, 75)), ("yellow", (208, 190, 71)),
                       ("orange", (177, 106, 73)))
GLASS_AC073TC1A: Glass = (("black", (0, 0, 0)), ("white", (217, 242, 255)), ("green", (3, 124, 76)),
                          ("blue", (27, 46, 198)), ("red", (245, 80, 34)), ("yellow", (255, 255, 68)),
                          ("orange", (239, 121, 44)))
GLASS_SPECTRA: Glass = (("black", (0, 0, 0)), ("white", (161, 164, 165)), ("yellow", (208, 190, 71)),
                        ("red", (156, 72, 75)), ("blue", (61, 59, 94)), ("green", (58, 91, 70)))


def _two(colour: str) -> dict[int, str]:
    return {0: "white", 1: "black"} | ({2: colour} if colour != "black" else {})


@dataclass(frozen=True)
class PanelModel:
    """One inky model. `native` maps the driver's buffer values to ink names."""

    name: str
    size: tuple[int, int]
    module: str
    cls: str
    native: dict[int, str]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    extra_pins: tuple[int, ...] = ()  # GPIOs beyond PANEL_PINS (the 13.3" has two chip selects)
    refresh: float = 15.0  # seconds a full refresh takes at normal speed, about (the makers' figures)
    # The most a refresh may take: inky's own busy wait for the refresh gives up there. A refresh that
    # lasts this long (or hangs) means the panel stopped answering.
    longest: float = 45.0
    speeds: tuple[str, ...] = ()  # the driver's refresh speeds (inky >= 2.6's Spectra 6), normal first
    # Refreshes the panel is rated to last: its wear budget comes from it (wear.policy_for). No maker
    # publishes one for these panels; a million is e-paper's common rating (docs/panels.md).
    rated: int = 1_000_000
    glass: Glass = ()  # the colours the glass shows for its inks, where measured (GLASS_*)

    @property
    def inks(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.native.values()))

    @property
    def pins(self) -> frozenset[int]:
        """Every GPIO this panel claims; gpiozero must never touch them."""
        return PANEL_PINS | frozenset(self.extra_pins)

    def driver(self):
        """A new instance of inky's own driver class (constructs off the Pi; show() needs it).

        A class with refresh speeds is built with its normal one: inky.auto() passes none, and the
        driver checks the value it is built with."""
        cls = getattr(import_inky(self.module), self.cls)
        kwargs = dict(self.kwargs)
        if has_speeds(cls):
            kwargs.setdefault("speed", cls.NORMAL)
        return cls(*self.args, **kwargs)

    def seconds(self, speed: str | None) -> float:
        """About how long a refresh takes at `speed` (the Spectra 6's: 13, 10 and 7 s)."""
        return self.refresh * SPEED_SHARE.get(speed or "normal", 1.0)


# A Spectra 6 refresh at each speed, as a share of its normal time (inky 2.6: about 13, 10 and 7 s).
SPEED_SHARE = {"normal": 1.0, "medium": 10 / 13, "fast": 7 / 13}


def has_speeds(cls) -> bool:
    """Whether an inky driver class takes a refresh speed (inky >= 2.6's Spectra 6 drivers)."""
    return all(hasattr(cls, name.upper()) for name in SPEED_SHARE)


def speed_for(model: PanelModel, play: bool, setting: str = "auto") -> str | None:
    """The speed of a refresh: None on a panel without speeds; with "auto", play frames go fast and
    the rest (the join QR code, the idle and daily frames) at normal speed, whose colours are truest."""
    if not model.speeds:
        return None
    if setting != "auto":
        return setting
    return "fast" if play else "normal"


def import_inky(module: str):
    """An inky module, imported without pkg_resources.

    inky's __init__ declares its namespace with pkg_resources whenever setuptools is installed, as it is
    in any Python 3.11 venv (Raspberry Pi OS Bookworm's): that import alone costs 150 ms and 6 MB here,
    far more on a Pi Zero. With pkg_resources unimportable, inky takes its own pkgutil fallback.
    """
    if "inky" not in sys.modules and "pkg_resources" not in sys.modules:
        # None makes `from pkg_resources import ...` raise ImportError, as the import system documents;
        # typeshed has sys.modules hold modules only.
        sys.modules["pkg_resources"] = None  # type: ignore[assignment]
        try:
            importlib.import_module("inky")
        finally:
            del sys.modules["pkg_resources"]
    return importlib.import_module(module)


def _catalogue() -> dict[str, PanelModel]:
    models = []
    # inky's busy wait for a refresh: 30 s on the pHAT and wHAT drivers (inky.py, ssd1683), 40 s on the
    # 4-colour ones; the SSD1608 pHAT gives up after 5 s, before its slower inks finish: 30 s is ours.
    for colour in ("black", "red", "yellow"):
        seconds = 4.0 if colour == "black" else 15.0  # a third ink takes many more passes
        models += [
            PanelModel(f"phat-{colour}", (212, 104), "inky.phat", "InkyPHAT", _two(colour), (colour,),
                       refresh=seconds, longest=30.0),
            PanelModel(f"phat-ssd1608-{colour}", (250, 122), "inky.phat", "InkyPHAT_SSD1608",
                       _two(colour), (colour,), refresh=seconds, longest=30.0),
            PanelModel(f"what-{colour}", (400, 300), "inky.what", "InkyWHAT", _two(colour), (colour,),
                       refresh=seconds, longest=30.0),
            PanelModel(f"what-ssd1683-{colour}", (400, 300), "inky.inky_ssd1683", "Inky", _two(colour),
                       ((400, 300), colour), refresh=seconds, longest=30.0),
        ]
    models += [
        PanelModel("phat-4colour", (250, 122), "inky.inky_jd79661", "Inky", FOUR, refresh=12.0, longest=40.0),
        PanelModel("what-4colour", (400, 300), "inky.inky_jd79668", "Inky", FOUR, refresh=12.0, longest=40.0),
        PanelModel("what-4colour-ssd2683", (400, 300), "inky.inky_ssd2683", "Inky", FOUR, refresh=12.0,
                   longest=40.0),
        PanelModel("impression-4", (640, 400), "inky.inky_uc8159", "Inky", SEVEN, ((640, 400),),
                   refresh=30.0, longest=32.0, glass=GLASS_UC8159),
        PanelModel("impression-5.7", (600, 448), "inky.inky_uc8159", "Inky", SEVEN, ((600, 448),),
                   refresh=30.0, longest=32.0, glass=GLASS_UC8159),
        # The 7-colour Impression 7.3" has no speed: about 35 s here, and its driver waits up to 45 s.
        PanelModel("impression-7.3", (800, 480), "inky.inky_ac073tc1a", "Inky", SEVEN, ((800, 480),),
                   refresh=35.0, longest=45.0, glass=GLASS_AC073TC1A),
        # Spectra 6 panels: 13 s at normal speed; inky 2.6 adds medium and fast (10 and 7 s).
        PanelModel("spectra-4", (600, 400), "inky.inky_e640", "Inky", SPECTRA, ((600, 400),), refresh=13.0,
                   longest=40.0, speeds=SPEEDS, glass=GLASS_SPECTRA),
        PanelModel("spectra-7.3", (800, 480), "inky.inky_e673", "Inky", SPECTRA, ((800, 480),), refresh=13.0,
                   longest=32.0, speeds=SPEEDS, glass=GLASS_SPECTRA),
        # inky 2.6 fixed this driver's busy wait, which returned about 19 s early: it now waits up to 65 s.
        PanelModel("spectra-13.3", (1600, 1200), "inky.inky_el133uf1", "Inky", SPECTRA, ((1600, 1200),),
                   extra_pins=(26, 16), refresh=20.0, longest=65.0, speeds=SPEEDS, glass=GLASS_SPECTRA),
    ]
    return {m.name: m for m in models}


PANELS = _catalogue()
DEFAULT_PANEL = "impression-7.3"
# GPIOs every inky board claims: busy 17, reset 27, data/command 22, chip select 8 (inky drives it as a
# plain GPIO), SPI0 MOSI 10 and SCLK 11, and I2C1 2/3 (the panel's EEPROM). This holds with the boot
# config line `dtoverlay=spi0-0cs,no_miso`: spi0-0cs claims no chip select, so CE1 (7) stays free, and
# no_miso leaves MISO (9) unclaimed, which inky never reads. firmware/install.py writes that line;
# hardware/README.md explains the budget.
PANEL_PINS = frozenset({17, 27, 22, 8, 10, 11, 2, 3})


def panel(name: str) -> PanelModel:
    """The model called `name`; ValueError lists the valid names."""
    try:
        return PANELS[name]
    except KeyError:
        raise ValueError(f"unknown panel {name!r}; choose one of: auto, {', '.join(PANELS)}") from None
