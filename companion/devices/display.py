"""The display seam: a frame goes to the glass through inky, or to a PNG file off the Pi."""

from __future__ import annotations

import io
import os
import re
import threading
import time
import warnings
from abc import ABC, abstractmethod
from functools import cache
from pathlib import Path

import numpy
from PIL import Image

from companion.devices.panels import PanelModel, has_speeds
from companion.foreground import checkpoint
from companion.render.palette import INKS


class PanelStuck(RuntimeError):
    """The panel did not finish a refresh within its longest: only removing power clears it."""


class Display(ABC):
    """Something that shows a whole frame. `show` may take seconds and may raise.

    `speed` is the refresh speed of the next `show` (one of the model's speeds, or None for a panel
    without any); the refresher sets it for each frame."""

    def __init__(self, model: PanelModel):
        self.model = model
        self.speed: str | None = None
        self._png = b""
        self._lock = threading.Lock()

    @abstractmethod
    def show(self, image: Image.Image) -> None:
        """Put `image` (RGB, the panel's size) on the glass."""

    def native(self, image: Image.Image) -> Image.Image:
        """The frame as a "P" image whose indices are the driver's own ink values.

        Frames are drawn in pure inks, so this is exact (no dithering), and every inky
        driver takes a "P" image as it is: the same buffer goes to the glass and to the PNG.
        """
        if image.size != self.model.size:
            raise ValueError(f"frame is {image.size[0]}x{image.size[1]} but panel {self.model.name} is "
                             f"{self.model.size[0]}x{self.model.size[1]}: render it for this panel")
        rgb = image if image.mode == "RGB" else image.convert("RGB")  # convert() would copy an RGB frame too
        return rgb.quantize(palette=_palette_key(self.model), dither=Image.Dither.NONE)

    @property
    def png(self) -> bytes:
        """The last frame shown, as the glass shows it, in PNG (for the twin page)."""
        with self._lock:
            return self._png

    def _glass(self, driver) -> Image.Image:
        """The driver's quantized buffer as a palette image of the inks' colours: what the glass gets.

        A palette image, not RGB: a third of the bytes to compress, and the same pixels once decoded."""
        shown = Image.fromarray(glass_values(driver, self.model.size))
        shown.putpalette(_lut(self.model).tobytes())
        return shown

    def _remember(self, shown: Image.Image) -> None:
        out = io.BytesIO()
        # The fastest compression: on a Pi Zero the default level costs tens of milliseconds a frame
        # (next to the table's work), for a file of 10 to 30 kB either way.
        shown.save(out, "PNG", compress_level=1)
        with self._lock:
            self._png = out.getvalue()


def glass_values(driver, size: tuple[int, int]) -> numpy.ndarray:
    """The driver's buffer as a (height, width) array of native ink values, laid out as on the glass.

    inky's drivers keep the frame in one of three layouts:
    - (height, width): the Impression, Spectra, 4-colour and SSD1683 drivers;
    - the image's row-major data reshaped to (cols, rows): inky.inky.Inky keeps the 400x300 wHAT as a
      (400, 300) array and the 212x104 pHAT as (104, 212), rotating only when sending;
    - controller RAM larger than the glass with the image pasted at (offset_x, offset_y): inky_ssd1608
      keeps the 250x122 pHAT in a (136, 250) array whose image starts at row 6.
    """
    w, h = size
    buf = numpy.asarray(driver.buf)
    if buf.shape == (h, w):
        values = buf
    elif buf.size == w * h:
        values = buf.reshape(h, w)
    else:
        x, y = int(getattr(driver, "offset_x", 0)), int(getattr(driver, "offset_y", 0))
        if buf.ndim != 2 or buf.shape[0] < y + h or buf.shape[1] < x + w:
            raise ValueError(f"{type(driver).__module__}.{type(driver).__name__}: cannot read a {w}x{h} "
                             f"frame from a buffer of shape {buf.shape} at offset ({x}, {y})")
        values = buf[y:y + h, x:x + w]
    return values.astype(numpy.uint8, copy=False)


def _palette_key(model: PanelModel) -> Image.Image:
    """A palette image mapping each native value to its ink; unused slots repeat the first ink."""
    return _palette_key_of(model.name, tuple(model.native.items()))


@cache
def _palette_key_of(name: str, native: tuple[tuple[int, str], ...]) -> Image.Image:
    inks = dict(native)
    first = INKS[inks[min(inks)]]
    palette: list[int] = []
    for value in range(256):
        palette += INKS[inks[value]] if value in inks else first
    key = Image.new("P", (1, 1))
    key.putpalette(palette)
    return key


def _lut(model: PanelModel) -> numpy.ndarray:
    return _lut_of(model.name, tuple(model.native.items()))


@cache
def _lut_of(name: str, native: tuple[tuple[int, str], ...]) -> numpy.ndarray:
    lut = numpy.zeros((256, 3), dtype=numpy.uint8)
    for value, ink in native:
        lut[value] = INKS[ink]
    return lut




class PngDisplay(Display):
    """Off the Pi: inky's driver quantizes the frame to its palette, and we write it as a PNG.

    `glass` is how long a refresh takes: "instant"; "real", the panel's own time at the frame's speed
    (the frame appears when the refresh ends, as on the glass); or "stuck", a panel that stops
    answering in its first refresh and never finishes it.
    """

    def __init__(self, model: PanelModel, path: Path | str, glass: str = "instant"):
        super().__init__(model)
        self.path = Path(path)
        self.glass = glass
        self._driver = model.driver()
        self._never = threading.Event()  # what a stuck panel's refresh waits for

    def show(self, image: Image.Image) -> None:
        self._driver.set_image(self.native(image))
        checkpoint()
        shown = self._glass(self._driver)
        if self.glass == "stuck":
            self._never.wait()
        elif self.glass == "real":
            time.sleep(self.model.seconds(self.speed))  # the refresh thread's own time: nothing else waits
        self._remember(shown)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_bytes(self.png)
        os.replace(tmp, self.path)


class InkyDisplay(Display):
    """On the Pi: inky's driver sends the frame to the glass.

    The driver is built at the first show, not here: a panel that is missing or busy then fails
    inside the refresh thread, which retries with backoff, instead of stopping the daemon at start.
    """

    def __init__(self, model: PanelModel, driver=None):
        super().__init__(model)
        self._driver = driver

    def show(self, image: Image.Image) -> None:
        if self._driver is None:
            self._driver = self.model.driver()
        self._driver.set_image(self.native(image))
        shown = self._glass(self._driver)
        if self.speed is not None and has_speeds(type(self._driver)):
            # setup() sends the driver's speed at every refresh: one driver (one claim of the GPIO
            # lines) serves every speed.
            self._driver.speed = getattr(self._driver, self.speed.upper())
        checkpoint()
        # inky's busy wait does not raise when the panel never signals the end of a refresh: it warns
        # "Timed out" and returns. Only this thread sends to the panel, so its warnings are the driver's.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self._driver.show()
        gave_up = [str(w.message) for w in caught if _refresh_timed_out(str(w.message))]
        if gave_up:
            raise PanelStuck(f"the panel did not finish its refresh ({gave_up[0]})")
        checkpoint()
        # Only a frame that reached the glass becomes the twin page's frame.
        self._remember(shown)


def _refresh_timed_out(warning: str) -> bool:
    """Whether inky's warning says its wait for a refresh gave up ("Busy Wait: Timed out after 45.00s"),
    or that the busy line never moved ("Held high. Waiting for 45.00s"). The short waits around a
    refresh (0.3 to 1 s, for power on and off) may time out harmlessly."""
    found = re.search(r"(?:timed out|held high).*?([0-9]+\.?[0-9]*)\s*s\b", warning, re.IGNORECASE)
    return found is not None and float(found.group(1)) >= 5.0


class PanelChanged(RuntimeError):
    """The panel found is not the one the frame was drawn for; the refresher draws it again."""


class AutoInkyDisplay(InkyDisplay):
    """panel = "auto" when the EEPROM could not be read at start: read it again at each show.

    Frames are drawn for `model` until the panel is found; then `model` becomes the real one, and
    the frame at the wrong size fails once, so the refresher draws it again at the right size.
    """

    def __init__(self, model: PanelModel, detect):
        super().__init__(model)
        self._detect = detect
        self.found = False

    def show(self, image: Image.Image) -> None:
        if not self.found:
            from companion.devices.panels import panel

            self.model, self.found, self._driver = panel(self._detect()), True, None
        if image.size != self.model.size:
            raise PanelChanged(f"the panel found is {self.model.name} ({self.model.size[0]}x"
                               f"{self.model.size[1]}); drawing the frame again for it")
        super().show(image)
