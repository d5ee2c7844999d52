"""The network part: the table's own Wi-Fi, set up in the background, switched on the host's word."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from companion.config import Config

log = logging.getLogger(__name__)


class NetworkPart:
    """NetworkManager's on the system bus, or in the simulator a stand-in on a private bus (never the
    machine's own). `changed(url, wifi)` is told the address phones use and the hotspot's Wi-Fi code after
    each switch."""

    def __init__(self, config: Config, simulate: bool, changed: Callable[[str, str], None]):
        self.config, self.simulate, self.changed = config, simulate, changed
        self.network: Any = None  # the TableNetwork, once started (None: the table does not manage it)
        self.problem: Any = None  # the NetworkError of the last switch (None if it did not fail)
        self._switching: threading.Thread | None = None
        self._standin: Any = None

    def start(self) -> None:
        self.network = self._network()
        if self.network is not None and self.network.mode != "client":
            # Off the main thread: "auto" may wait for the known Wi-Fi, and the web must answer meanwhile.
            threading.Thread(target=self._boot, name="network", daemon=True).start()

    def stop(self) -> None:
        if self._standin is not None:
            self._standin.stop()

    def _network(self) -> Any:
        """Started only when the config's mode needs it."""
        from companion.network.manager import Hotspot, NetworkError, NetworkManagerLink
        from companion.network.modes import TableNetwork

        settings = self.config.network
        bus = settings.bus
        if self.simulate and not bus:
            if settings.mode == "client":
                return None
            from companion.network.standin import StandIn

            try:
                self._standin = StandIn(self.config.state_path / "network",
                                        secrets=(settings.password,)).start()
            except NetworkError as exc:
                log.error("no simulated network: %s", exc)
                return None
            bus = self._standin.address
        link = NetworkManagerLink(bus or None)
        hotspot = Hotspot(settings.ssid, settings.password, settings.mode == "hotspot")
        return TableNetwork(settings.mode, hotspot, link, settings.auto_wait)

    def _boot(self) -> None:
        from companion.network.manager import NetworkError

        try:
            self._tell(self.network.boot())
        except NetworkError as exc:
            log.error("network: %s", exc)
            self.problem = exc  # the host's card says why the config's mode did not come up

    def switch(self, mode: str) -> None:
        """Start a switch to `mode` on its own thread and return: the host's phone may lose the table as it
        happens, so its answer goes out first. A failure leaves the previous mode up (`problem`)."""
        from companion.i18n import N_
        from companion.network.manager import NetworkError

        if self.network is None:
            raise NetworkError(N_("this table does not manage its network"))
        if self.switching:
            raise NetworkError(N_("the network is already switching: wait for it to finish."))

        def switch() -> None:
            try:
                self._tell(self.network.switch(mode))
                self.problem = None
            except NetworkError as exc:
                log.error("network: %s", exc)
                self.problem = exc

        self._switching = threading.Thread(target=switch, name="network", daemon=True)
        self._switching.start()

    @property
    def switching(self) -> bool:
        return self._switching is not None and self._switching.is_alive()

    def _tell(self, status: Any) -> None:
        """After a switch: the address phones use, and the Wi-Fi code while the table is the hotspot."""
        from companion.network.address import table_url
        from companion.render.qr import wifi_payload

        settings = self.config.network
        wifi = wifi_payload(settings.ssid, settings.password) if status.mode == "hotspot" else ""
        self.changed(table_url(self.config.url, self.config.port, status), wifi)
