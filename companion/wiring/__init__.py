"""The wiring: the daemon's parts (store, table, devices, outputs, web, network, venue), each set up in
order and torn down in the reverse order, then the service loop."""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.config import Config, ConfigError
from companion.core.moment import TableStatus
from companion.core.table import Table
from companion.outputs.device import DeviceOutput
from companion.outputs.keeper import Keeper
from companion.storage.store import Store
from companion.wiring.network import NetworkPart

log = logging.getLogger(__name__)

WATCHDOG_EVERY = 10.0  # seconds; the unit's WatchdogSec is 30
# A start replaying a long log (after an upgrade, say) asks systemd for this much more time, again every
# few seconds while it goes on: past the unit's start timeout, a slow start would be killed and retried.
EXTEND_START = 30.0


class Companion:
    """One table companion: real pins and an inky panel, or mock pins and a PNG panel (simulate).

    Its parts, in the order they are set up (phones first: see start()):
    - the store (`store`), then the venue's publisher (`venue`, only with [venue]: its outbox hook is handed
      to the table, so the table's first command already writes to it);
    - the table (`table`), the single writer, told the table's own status (its address), and the keeper
      (records, backups) that follows it;
    - the web (`server`), handed this object as its runtime (`companion.outputs.webapp.Runtime`);
    - the network (`network`, only when the config's mode needs one);
    - the devices, made at their first use: the buttons and LED dice (`board`), the e-ink (`display`,
      drawn by `refresher`), and the device's output of each Moment (LEDs and frames).
    They are torn down network and web first, then the table, the venue, the devices and the store.

    `pin_factory` replaces the simulator's mock pins (the benchmark's pins time their changes)."""

    def __init__(self, config: Config, *, simulate: bool, pin_factory: Any = None):
        from companion.network.address import table_url

        self.config = config
        self.simulate = simulate
        state = config.state_path
        if state.exists() and not state.is_dir():
            raise ConfigError(f"key 'state_dir': {state} is a file, not a directory. Give the path of a "
                              "directory (it is made if missing) in state_dir.")
        # --- storage, and the venue's outbox that writes in its transactions
        self.store = Store(state / "companion.db", config.store_limit_mb)
        self.venue: Any = None  # without [venue], nothing of MQTT is imported and no thread starts for it
        if config.venue is not None:
            from companion.outputs.venue.publishing import Publishing

            self.venue = Publishing(self.store, config.venue)
        # --- the table
        status = TableStatus(url=table_url(config.url, config.port),
                             venue=config.venue.name if config.venue is not None else None)
        self.table = Table(self.store, config.table_setup(), on_long_start=extend_start,
                           outbox=self.venue.hook if self.venue is not None else None, status=status)
        # --- the devices, made at their first use: start() serves phones before it loads their libraries
        # (gpiozero, numpy, Pillow, inky), which take seconds on a Pi Zero's core
        self._pin_factory = pin_factory
        self._devices_made = threading.Lock()
        self._board: Any = None
        self._display_: Any = None
        self._refresher: Any = None
        # --- the outputs that read each Moment
        self.device = DeviceOutput(lambda: self.board, lambda: self.refresher, lambda: self.language,
                                   self.venue.notice if self.venue is not None else lambda _language: "")
        self.keeper = Keeper(state, self.table.exports.finished, self._backup, config.backup_minutes)
        # --- the web and the network, set up by start()
        self.server: Any = None
        self.networking = NetworkPart(config, simulate, self._network_changed)
        self._stopping = threading.Event()

    def _make_devices(self) -> None:
        """The buttons and LED dice, the e-ink and its refresh thread (not started), made once, by
        whichever thread needs them first (a request for the device twin may come before start() gets
        there: it waits for them)."""
        with self._devices_made:
            if self._refresher is not None:
                return
            from companion.devices.board import Board
            from companion.devices.display import PngDisplay
            from companion.devices.profile import load_profile
            from companion.devices.refresh import Refresher

            pin_factory = self._pin_factory
            if self.simulate and pin_factory is None:
                from companion.devices.simulator import simulator_pins

                pin_factory = simulator_pins()
            self._board = Board(load_profile(self.config.profile), self._on_input, pin_factory=pin_factory,
                                foreground=self.table.foreground)
            display = self._display()
            if self.simulate:
                display = PngDisplay(display.model, self.frame_path, self.config.simulated_glass)
            self._display_ = display
            self._refresher = Refresher(display, self._render, foreground=self.table.foreground,
                                        budget=self._wear_budget(display.model), speed=self._speed)

    @property
    def board(self) -> Any:
        """The buttons and LED dice (devices.board.Board)."""
        self._make_devices()
        return self._board

    @property
    def display(self) -> Any:
        """The e-ink (devices.display); a test may put another in before start()."""
        self._make_devices()
        return self._display_

    @display.setter
    def display(self, display: Any) -> None:
        self._make_devices()
        self._display_ = display

    @property
    def refresher(self) -> Any:
        """The e-ink's refresh thread (devices.refresh.Refresher); a test may put another in first."""
        self._make_devices()
        return self._refresher

    @refresher.setter
    def refresher(self, refresher: Any) -> None:
        self._make_devices()
        self._refresher = refresher

    def _display(self):
        """The inky panel named in the config, or found from its EEPROM.

        A panel that cannot be found does not stop the daemon: the web and LEDs work meanwhile,
        and the display keeps looking for it with the refresher's backoff.
        """
        from companion.devices.detect import PanelNotFound, detect_panel
        from companion.devices.display import AutoInkyDisplay, InkyDisplay
        from companion.devices.panels import DEFAULT_PANEL, panel

        if self.config.panel != "auto":
            return InkyDisplay(panel(self.config.panel))
        try:
            return InkyDisplay(panel(detect_panel()))
        except PanelNotFound as exc:
            if not self.simulate:
                log.error("e-ink panel not found, drawing for %s until it is: %s", DEFAULT_PANEL, exc)
            return AutoInkyDisplay(panel(DEFAULT_PANEL), detect_panel)

    def _wear_budget(self, model: Any):
        """The panel's wear budget; none for the simulator's instant glass, which wears nothing."""
        from companion.devices.wear import WearBudget, policy_for

        if self.simulate and self.config.simulated_glass == "instant":
            return None
        return WearBudget(policy_for(model, self.config.refreshes_per_hour, self.config.refresh_burst))

    def _speed(self, play: bool) -> str | None:
        from companion.devices.panels import speed_for

        return speed_for(self.model, play, self.config.panel_speed)

    @property
    def model(self) -> Any:
        """The panel frames are drawn for (it may change once an "auto" panel is found)."""
        return self.display.model

    @property
    def frame_path(self) -> Path:
        """Where the simulator writes each frame (a PNG)."""
        return self.config.state_path / "frame.png"

    @property
    def frame_version(self) -> int:
        return self._refresher.shown if self._refresher is not None else 0

    @property
    def language(self) -> str:
        """The e-ink's language: the host's choice from the host page, else the config's."""
        return self.table.roster.language(self.config.language)

    @property
    def url(self) -> str:
        """The address phones use (it changes when the table becomes the network, or stops being it)."""
        return self.table.moment.status.url

    @property
    def wifi(self) -> str:
        """The hotspot's WIFI: QR payload while the table is the network, else ""."""
        return self.table.moment.status.wifi

    def _network_changed(self, url: str, wifi: str) -> None:
        """After a switch: every output is told the address phones use and the Wi-Fi code (a new frame)."""
        self.table.tell(url=url, wifi=wifi, network=self.networking.network.mode)

    # --- inputs -------------------------------------------------------------------------
    def _on_input(self, button: str, kind: str) -> None:
        """A debounced button, on its own thread: only queued; the table thread steps it."""
        self.table.press(button if kind == "press" else f"{button}:hold")

    def _render(self, key: tuple) -> Any:
        from companion.outputs.frames import render

        game, view, info, lang = key
        return render(game, view, self.model, lang, info).image

    def backup(self) -> Path:
        """An online backup into the state dir's backups folder, keeping the newest `backup_keep`."""
        return self.keeper.backup()

    def _backup(self) -> Path:
        from companion.storage.tools import backup

        started = time.monotonic()
        target = backup(self.store, self.config.state_path, self.config.backup_keep)
        log.info("backed up to %s in %.0f ms", target, (time.monotonic() - started) * 1000)
        return target

    # --- life cycle -------------------------------------------------------------------
    def start(self, early: Any = None, serving: Callable[[Companion], None] | None = None) -> Companion:
        """Set the parts up in order, phones first: the table and the web answer before the devices'
        libraries load (seconds on a Pi Zero's core); then the network (its "auto" mode may wait for the
        known Wi-Fi, on a thread of its own); then the buttons, the LED dice and the e-ink follow the
        table, and the glass draws its first frame. `early` (serving.early.EarlyAnswer) has answered
        "starting" on the table's port since the process began: the web takes its socket over (it is
        closed, whatever happens). `serving(self)` is called as soon as the web answers."""
        try:
            return self._start(early, serving)
        finally:
            if early is not None:
                early.close()  # closes the socket if the web did not take it; else nothing is left to close

    def _start(self, early: Any, serving: Callable[[Companion], None] | None) -> Companion:
        from companion.outputs.webapp import create_app
        from companion.outputs.webapp.pace import Pace
        from companion.serving.serve import serve

        self.table.subscribe(self.keeper)
        self.keeper.resume(self.table.moment)
        self.table.start()
        if self.venue is not None:
            self.venue.follow(self.table)
            self.venue.start()
        try:
            app = create_app(self, per_client=self.config.live_pages_per_address,
                             paced=Pace(self.config.send_burst, self.config.sends_per_second))
            listening = None
            if early is not None and early.address == (self.config.host, self.config.port):
                listening = early.hand_over()
                if serving is not None:  # the port is ours already: said before the first real answer
                    serving(self)
            self.server = serve(app, self.config.host, self.config.port, listening=listening,
                                per_client=self.config.connections_per_address, passed=self._port_80())
        except OSError as exc:
            self.stop()
            raise ConfigError(_listen_error(exc, self.config)) from None
        if serving is not None and listening is None:
            serving(self)
        self.networking.start()
        self._start_devices()
        return self

    def _start_devices(self) -> None:
        """The devices follow the table from now on; the table tells them where it is (on its own thread,
        ordered with the commands that came meanwhile), so the LEDs and the glass show it at once."""
        self.table.on_rolling(self.board.dice.tumble)
        self.refresher.watch(lambda reason: self.table.tell(panel_fault=reason))
        self.refresher.start()
        self.table.subscribe(self.device)
        self.table.tell(panel_fault=self.refresher.fault, told=10.0)  # started once the devices show it

    def _port_80(self) -> tuple:
        """The port-80 socket systemd bound for us (companion-http.socket), served by the probe app."""
        from companion.outputs.webapp.activation import passed_sockets
        from companion.outputs.webapp.probes import create_probe_app

        return tuple((create_probe_app(lambda: self.url), sock) for sock in passed_sockets().values())

    def run(self) -> None:
        """Serve until SIGTERM or SIGINT, telling systemd READY and feeding its watchdog."""
        import sdnotify

        notifier = sdnotify.SystemdNotifier()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: self._stopping.set())
        notifier.notify("READY=1")
        while not self._stopping.wait(WATCHDOG_EVERY):
            if self.table.alive:
                notifier.notify("WATCHDOG=1")
            else:
                log.error("the table thread died; letting the watchdog restart the service")
        notifier.notify("STOPPING=1")
        # The stop may wait up to a minute for a panel refresh under way: the watchdog is fed meanwhile.
        stopping = threading.Thread(target=self.stop, name="stop")
        stopping.start()
        stopping.join(WATCHDOG_EVERY)
        while stopping.is_alive():
            notifier.notify("WATCHDOG=1")
            stopping.join(WATCHDOG_EVERY)

    def stop(self) -> None:
        """Tear the parts down in the reverse order. A panel refresh under way is let finish first (up to
        the panel's longest): a panel whose power goes mid-refresh can latch into a fault only removing
        power clears."""
        self.networking.stop()
        if self.server is not None:
            self.server.close()
        self.table.stop()
        if self.venue is not None:
            self.venue.stop()
        if self._refresher is not None:
            self._refresher.stop()
        if self._board is not None:
            self._board.close()
        self.store.close()


def extend_start() -> None:
    """Tell systemd the start goes on (EXTEND_TIMEOUT_USEC): it is replaying, not hung."""
    import sdnotify

    sdnotify.SystemdNotifier().notify(f"EXTEND_TIMEOUT_USEC={int(EXTEND_START * 1_000_000)}")


def _listen_error(exc: OSError, config: Config) -> str:
    """Why the web server could not listen, naming the key to change."""
    import errno

    if exc.errno == errno.EADDRINUSE:
        return (f"key 'port': port {config.port} is already in use by another program. Stop that program, "
                "or choose another port (port = ... in the config, or --port).")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (f"key 'port': port {config.port} may not be used by this user (ports below 1024 need "
                "privileges). Choose a port from 1024 up.")
    return (f"key 'host': cannot listen on {config.host}:{config.port} ({exc.strerror or exc}). Give an "
            "address of this machine, or 0.0.0.0 for all of them.")
