"""QR codes with segno: the table's address on the e-ink at whole-module scale, links on phones."""

from __future__ import annotations

import io
from functools import lru_cache

import segno
from PIL import Image


def wifi_payload(ssid: str, password: str) -> str:
    """What a Wi-Fi QR code holds (WIFI:T:WPA;S:...;P:...;;), with the characters the format escapes
    escaped: every phone camera offers to join it."""
    from segno import helpers

    return helpers.make_wifi_data(ssid, password, "WPA")


def qr_svg(text: str) -> bytes:
    """An SVG QR code of `text`, for a phone to show another phone (a seat's link)."""
    buf = io.BytesIO()
    segno.make(text, error="m", micro=False).save(buf, kind="svg", scale=8, border=2, xmldecl=False)
    return buf.getvalue()


@lru_cache(maxsize=8)
def qr_image(url: str, max_side: int) -> Image.Image:
    """A 1-bit QR image of `url`, the largest whole-module scale that fits `max_side` pixels.

    Kept (never changed by its users): every frame shows the same code until the join code changes.
    """
    code = segno.make(url, error="m", micro=False)
    modules = code.symbol_size(scale=1, border=2)[0]
    scale = max(1, max_side // modules)
    buf = io.BytesIO()
    code.save(buf, kind="png", scale=scale, border=2)
    buf.seek(0)
    return Image.open(buf).convert("1")
