"""The display seam: a frame goes to the glass through inky, or to a PNG file off the Pi."""

from __future__ import annotations

import io
import os
import threading
from abc import ABC, abstractmethod
from pathlib import Path

from PIL import Image

from companion.devices.panels import PanelModel
from companion.render.palette import INKS


class Display(ABC):
    """Something that shows a whole frame. `show` may take seconds and may raise."""

    def __init__(self, model: PanelModel):
        self.model = model
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
        palette = [0, 0, 0] * 256
        for value, ink in self.model.native.items():
            palette[value * 3: value * 3 + 3] = INKS[ink]
        # Unused slots repeat the first ink, so quantize never picks them.
        first = INKS[self.model.native[min(self.model.native)]]
        for value in range(256):
            if value not in self.model.native:
                palette[value * 3: value * 3 + 3] = first
        key = Image.new("P", (1, 1))
        key.putpalette(palette)
        return image.convert("RGB").quantize(palette=key, dither=Image.Dither.NONE)

    @property
    def png(self) -> bytes:
        """The last frame shown, as the glass shows it, in PNG (for the twin page)."""
        with self._lock:
            return self._png

    def _keep(self, driver) -> Image.Image:
        """Turn the driver's quantized buffer back into pixels, so we see what the glass gets."""
        import numpy

        w, h = self.model.size
        buf = numpy.asarray(driver.buf, dtype=numpy.uint8)
        if buf.shape != (h, w):
            buf = buf.reshape(-1)[: w * h].reshape(h, w)
        lut = numpy.zeros((256, 3), dtype=numpy.uint8)
        for value, ink in self.model.native.items():
            lut[value] = INKS[ink]
        shown = Image.fromarray(lut[buf], "RGB")
        out = io.BytesIO()
        shown.save(out, "PNG", optimize=False)
        with self._lock:
            self._png = out.getvalue()
        return shown


class PngDisplay(Display):
    """Off the Pi: inky's driver quantizes the frame to its palette, and we write it as a PNG."""

    def __init__(self, model: PanelModel, path: Path | str):
        super().__init__(model)
        self.path = Path(path)
        self._driver = model.driver()

    def show(self, image: Image.Image) -> None:
        self._driver.set_image(self.native(image))
        self._keep(self._driver)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_bytes(self.png)
        os.replace(tmp, self.path)


class InkyDisplay(Display):
    """On the Pi: inky's driver sends the frame to the glass."""

    def __init__(self, model: PanelModel, driver=None):
        super().__init__(model)
        self._driver = driver if driver is not None else model.driver()

    def show(self, image: Image.Image) -> None:
        self._driver.set_image(self.native(image))
        self._keep(self._driver)
        self._driver.show()
