"""The inky panels we support: name, size, inks, and how to build their driver class."""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass, field
from typing import Any

SEVEN = {0: "black", 1: "white", 2: "green", 3: "blue", 4: "red", 5: "yellow", 6: "orange"}
SPECTRA = {0: "black", 1: "white", 2: "yellow", 3: "red", 5: "blue", 6: "green"}
FOUR = {0: "black", 1: "white", 2: "yellow", 3: "red"}


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
    refresh: float = 15.0  # seconds a full refresh takes, about (the makers' figures): the bench's glass

    @property
    def inks(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.native.values()))

    @property
    def pins(self) -> frozenset[int]:
        """Every GPIO this panel claims; gpiozero must never touch them."""
        return PANEL_PINS | frozenset(self.extra_pins)

    def driver(self):
        """A new instance of inky's own driver class (constructs off the Pi; show() needs it)."""
        module = import_inky(self.module)
        return getattr(module, self.cls)(*self.args, **self.kwargs)


def import_inky(module: str):
    """An inky module, imported without pkg_resources.

    inky's __init__ declares its namespace with pkg_resources whenever setuptools is installed, as it is
    in any Python 3.11 venv (Raspberry Pi OS Bookworm's): that import alone costs 150 ms and 6 MB here,
    far more on a Pi Zero. With pkg_resources unimportable, inky takes its own pkgutil fallback.
    """
    if "inky" not in sys.modules and "pkg_resources" not in sys.modules:
        sys.modules["pkg_resources"] = None  # makes `from pkg_resources import ...` raise ImportError
        try:
            importlib.import_module("inky")
        finally:
            del sys.modules["pkg_resources"]
    return importlib.import_module(module)


def _catalogue() -> dict[str, PanelModel]:
    models = []
    for colour in ("black", "red", "yellow"):
        seconds = 4.0 if colour == "black" else 15.0  # a third ink takes many more passes
        models += [
            PanelModel(f"phat-{colour}", (212, 104), "inky.phat", "InkyPHAT", _two(colour), (colour,),
                       refresh=seconds),
            PanelModel(f"phat-ssd1608-{colour}", (250, 122), "inky.phat", "InkyPHAT_SSD1608",
                       _two(colour), (colour,), refresh=seconds),
            PanelModel(f"what-{colour}", (400, 300), "inky.what", "InkyWHAT", _two(colour), (colour,),
                       refresh=seconds),
            PanelModel(f"what-ssd1683-{colour}", (400, 300), "inky.inky_ssd1683", "Inky", _two(colour),
                       ((400, 300), colour), refresh=seconds),
        ]
    models += [
        PanelModel("phat-4colour", (250, 122), "inky.inky_jd79661", "Inky", FOUR, refresh=12.0),
        PanelModel("what-4colour", (400, 300), "inky.inky_jd79668", "Inky", FOUR, refresh=12.0),
        PanelModel("what-4colour-ssd2683", (400, 300), "inky.inky_ssd2683", "Inky", FOUR, refresh=12.0),
        PanelModel("impression-4", (640, 400), "inky.inky_uc8159", "Inky", SEVEN, ((640, 400),),
                   refresh=30.0),
        PanelModel("impression-5.7", (600, 448), "inky.inky_uc8159", "Inky", SEVEN, ((600, 448),),
                   refresh=30.0),
        PanelModel("impression-7.3", (800, 480), "inky.inky_ac073tc1a", "Inky", SEVEN, ((800, 480),),
                   refresh=35.0),
        PanelModel("spectra-4", (600, 400), "inky.inky_e640", "Inky", SPECTRA, ((600, 400),), refresh=12.0),
        PanelModel("spectra-7.3", (800, 480), "inky.inky_e673", "Inky", SPECTRA, ((800, 480),), refresh=15.0),
        PanelModel("spectra-13.3", (1600, 1200), "inky.inky_el133uf1", "Inky", SPECTRA, ((1600, 1200),),
                   extra_pins=(26, 16), refresh=20.0),
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
