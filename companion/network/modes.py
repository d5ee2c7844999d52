"""The table's network mode: the config's at boot ("auto" falls back to the hotspot), switched on demand."""

from __future__ import annotations

import logging
import threading

from companion.i18n import N_
from companion.network.manager import Hotspot, NetworkError, NetworkManagerLink, Status

log = logging.getLogger(__name__)
MODES = ("client", "hotspot", "auto")


class TableNetwork:
    """One table's Wi-Fi: what it is doing, and the switch between joining and being the network.

    Switches are one at a time; a failed one leaves the previous mode up (the link rolls back)."""

    def __init__(self, mode: str, hotspot: Hotspot, link: NetworkManagerLink, auto_wait: float):
        if mode not in MODES:
            raise ValueError(f"network mode {mode!r} is not one of {', '.join(MODES)}")
        self.mode = mode
        self.hotspot = hotspot
        self.link = link
        self.auto_wait = auto_wait
        self._switching = threading.Lock()

    def boot(self) -> Status:
        """Bring up the config's mode. "client" leaves NetworkManager to join the known Wi-Fi; "auto" waits
        for it a bounded time, then makes the hotspot, so a table with no Wi-Fi is still reachable."""
        if self.mode == "hotspot":
            return self.switch("hotspot")
        if self.mode == "auto":
            joined = self.link.wait_for_client(self.auto_wait)
            if joined is not None:
                return joined
            log.warning("no known Wi-Fi within %.0f s: the table makes its own", self.auto_wait)
            return self.switch("hotspot")
        return self.link.status()

    def switch(self, mode: str) -> Status:
        """Be the network ("hotspot") or join the venue's Wi-Fi ("client"). Raises NetworkError."""
        if not self._switching.acquire(blocking=False):
            raise NetworkError(N_("the network is already switching: wait for it to finish."))
        try:
            if mode == "hotspot":
                status = self.link.start_hotspot(self.hotspot)
            elif mode == "client":
                status = self.link.join_wifi()
            else:
                raise NetworkError(N_("no network mode “{mode}”: choose hotspot or client."), mode=mode)
        finally:
            self._switching.release()
        log.info("network: %s on %s (%s)", status.mode, status.network or "-", status.address or "no address")
        return status

    def status(self) -> Status:
        return self.link.status()
