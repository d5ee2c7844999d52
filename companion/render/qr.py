"""QR codes with segno: the table's address on the e-ink at whole-module scale, links on phones."""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # both loaded at their first code: a game's screen is imported before anything is drawn
    from PIL import Image

# ZXing's WIFI: format escapes these with a backslash in a name or a password. segno's helper leaves the
# comma bare, which a reader that splits on it would cut the value at.
WIFI_SPECIAL = '\\;,:"'


def _wifi_escaped(text: str) -> str:
    return "".join("\\" + char if char in WIFI_SPECIAL else char for char in text)


def wifi_payload(ssid: str, password: str) -> str:
    """What a Wi-Fi QR code holds (WIFI:T:WPA;S:...;P:...;;), with `\\ ; , : "` escaped as the format
    says: every phone camera offers to join it."""
    return f"WIFI:T:WPA;S:{_wifi_escaped(ssid)};P:{_wifi_escaped(password)};;"


def qr_svg(text: str) -> bytes:
    """An SVG QR code of `text`, for a phone to show another phone (a seat's link)."""
    import segno

    buf = io.BytesIO()
    segno.make(text, error="m", micro=False).save(buf, kind="svg", scale=8, border=2, xmldecl=False)
    return buf.getvalue()


@lru_cache(maxsize=8)
def qr_image(url: str, max_side: int) -> Image.Image:
    """A 1-bit QR image of `url`, the largest whole-module scale that fits `max_side` pixels.

    Kept (never changed by its users): every frame shows the same code until the join code changes.
    """
    import segno
    from PIL import Image

    code = segno.make(url, error="m", micro=False)
    modules = code.symbol_size(scale=1, border=2)[0]
    scale = max(1, max_side // modules)
    buf = io.BytesIO()
    code.save(buf, kind="png", scale=scale, border=2)
    buf.seek(0)
    return Image.open(buf).convert("1")
