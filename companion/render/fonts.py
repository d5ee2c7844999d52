"""The bundled DejaVu fonts (full French accents), loaded once per size."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

from PIL import ImageFont

_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


# A screen uses a handful of sizes; each cached face costs about 100 kB.
@lru_cache(maxsize=24)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at `size` pixels."""
    path = files("companion.render").joinpath("fonts", _FILES[bold])
    return ImageFont.truetype(str(path), size)
