"""The bundled DejaVu fonts (full French accents), loaded once per size."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # loaded at the first text drawn or measured
    from PIL import ImageFont

_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


# A frame draws with 7 to 15 sizes and measures at a few more. Each face kept costs 300 to 600 kB (FreeType's
# tables and hinting state, and its own mapping of the file), and making one again costs 0.2 ms here:
# 12 kept hold what a frame draws, at 4 MB less than 24 and the same render time (tests/bench_fonts.py).
@lru_cache(maxsize=12)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at `size` pixels."""
    from PIL import ImageFont

    path = files("companion.render").joinpath("fonts", _FILES[bold])
    return ImageFont.truetype(str(path), size)
