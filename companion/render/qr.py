"""QR codes of the table's address, drawn with segno at whole-module scale."""

from __future__ import annotations

import io

import segno
from PIL import Image


def qr_image(url: str, max_side: int) -> Image.Image:
    """A 1-bit QR image of `url`, the largest whole-module scale that fits `max_side` pixels."""
    code = segno.make(url, error="m", micro=False)
    modules = code.symbol_size(scale=1, border=2)[0]
    scale = max(1, max_side // modules)
    buf = io.BytesIO()
    code.save(buf, kind="png", scale=scale, border=2)
    buf.seek(0)
    return Image.open(buf).convert("1")
