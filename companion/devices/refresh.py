"""The e-ink refresh thread: the latest frame wins, identical frames are skipped, failures back off."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from PIL import Image

from companion.devices.display import Display

log = logging.getLogger(__name__)


class Refresher:
    """Renders and shows frames on its own thread, so the game thread never waits for the glass.

    `offer(key)` only records the newest request; `render(key)` turns it into an image.
    """

    def __init__(self, display: Display, render: Callable[[object], Image.Image],
                 backoff: tuple[float, float] = (2.0, 300.0)):
        self.display = display
        self._render = render
        self._wanted = None
        self._wake = threading.Condition()
        self._stopping = False
        self._last_shown: bytes | None = None
        self._backoff = backoff
        self.shown = 0  # frames sent to the display
        self.skipped = 0  # frames identical to the one already there
        self.failing = False
        self._thread = threading.Thread(target=self._run, name="eink", daemon=True)

    def start(self) -> Refresher:
        self._thread.start()
        return self

    def offer(self, key) -> None:
        """Ask for a frame of `key`; an older request not yet drawn is dropped."""
        with self._wake:
            self._wanted = key
            self._wake.notify()

    def stop(self, timeout: float = 5.0) -> None:
        with self._wake:
            self._stopping = True
            self._wake.notify()
        self._thread.join(timeout)

    def _take(self, timeout: float | None):
        with self._wake:
            if self._wanted is None and not self._stopping:
                self._wake.wait(timeout)
            key, self._wanted = self._wanted, None
            return key

    def _run(self) -> None:
        delay, pending = self._backoff[0], None
        while not self._stopping:
            key = self._take(delay if pending is not None else None)
            if key is None:
                key = pending
            if key is None or self._stopping:
                continue
            try:
                image = self._render(key)
                data = image.tobytes()
                if data == self._last_shown:
                    self.skipped += 1
                    pending = None
                    continue
                self.display.show(image)
            except Exception as exc:
                if not self.failing:
                    log.error("e-ink panel failed, will retry with backoff: %s", exc)
                self.failing, pending = True, key
                time.sleep(0)  # let offer() in before the wait
                delay = min(delay * 2, self._backoff[1])
                continue
            if self.failing:
                log.info("e-ink panel works again")
            self.failing, pending, delay = False, None, self._backoff[0]
            self._last_shown = data
            self.shown += 1
