"""Which inky panel is fitted, read from its EEPROM through inky's own reader (never inky.auto)."""

from __future__ import annotations

from companion.devices.panels import PANELS, import_inky

# The EEPROM's display_variant (inky/eeprom.py DISPLAY_VARIANT) -> our model name. This mirrors
# inky/auto.py's auto(), which we must not call: with no EEPROM it parses the daemon's own argv.
# "{colour}" is filled from the EEPROM's colour byte for the red/black/yellow boards.
VARIANTS = {
    1: "phat-{colour}", 4: "phat-{colour}", 5: "phat-{colour}",
    10: "phat-ssd1608-{colour}", 11: "phat-ssd1608-{colour}", 12: "phat-ssd1608-{colour}",
    2: "what-{colour}", 3: "what-{colour}", 6: "what-{colour}", 7: "what-{colour}", 8: "what-{colour}",
    14: "impression-5.7",
    15: "impression-4", 16: "impression-4",
    17: "what-ssd1683-{colour}", 18: "what-ssd1683-{colour}", 19: "what-ssd1683-{colour}",
    20: "impression-7.3",
    21: "spectra-13.3", 27: "spectra-13.3",
    22: "spectra-7.3", 26: "spectra-7.3",
    23: "phat-4colour",
    24: "what-4colour",
    25: "spectra-4",
    28: "what-4colour-ssd2683",
}

FIX = "set panel = '<name>' in the config, where <name> is one of: " + ", ".join(PANELS)


class PanelNotFound(RuntimeError):
    """No usable inky EEPROM: the config must name the panel."""


def panel_for(eeprom) -> str:
    """Our model name for an inky EEPROM record (inky.eeprom.EPDType)."""
    variant = eeprom.display_variant
    pattern = VARIANTS.get(variant)
    if pattern is None:
        raise PanelNotFound(f"the inky EEPROM reports display variant {variant} "
                            f"({eeprom.get_variant() or 'unknown'}), which this version does not know: {FIX}")
    colour = eeprom.get_color()
    if "{colour}" in pattern and colour not in ("black", "red", "yellow"):
        raise PanelNotFound(f"the inky EEPROM reports display variant {variant} with colour {colour!r}, "
                            f"which should be black, red or yellow: {FIX}")
    return pattern.format(colour=colour)


def detect_panel(i2c_bus=None) -> str:
    """The model name of the fitted panel, from its EEPROM on I2C bus 1 (or `i2c_bus`, an SMBus)."""
    eeprom = import_inky("inky.eeprom")
    try:
        found = eeprom.read_eeprom(i2c_bus=i2c_bus)
    except ImportError as exc:
        raise PanelNotFound(f"cannot read the inky EEPROM ({exc}): {FIX}") from None
    if found is None:
        raise PanelNotFound(f"no inky EEPROM found on I2C: {FIX}. If a panel is fitted, check that I2C is "
                            "enabled (dtparam=i2c_arm=on) and that the service user is in the i2c group.")
    return panel_for(found)
