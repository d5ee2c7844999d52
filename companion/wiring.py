"""The daemon: wires the store, table, buttons, LED dice, e-ink and web server, then runs."""

from __future__ import annotations

import logging
import signal
import threading
import time
from dataclasses import replace
from pathlib import Path

from companion.config import Config, ConfigError
from companion.core.session import END_GAME, NEW_GAME
from companion.core.table import Table, Update
from companion.gamekit.contract import IllegalMove
from companion.storage.store import Store

log = logging.getLogger(__name__)

WATCHDOG_EVERY = 10.0  # seconds; the unit's WatchdogSec is 30
# A start replaying a long log (after an upgrade, say) asks systemd for this much more time, again every
# few seconds while it goes on: past the unit's start timeout, a slow start would be killed and retried.
EXTEND_START = 30.0


class Companion:
    """One table companion: real pins and an inky panel, or mock pins and a PNG panel (simulate).

    `pin_factory` replaces the simulator's mock pins (the benchmark's pins time their changes)."""

    def __init__(self, config: Config, *, simulate: bool, pin_factory=None):
        from companion.devices.board import Board
        from companion.devices.display import PngDisplay
        from companion.devices.profile import load_profile
        from companion.devices.refresh import Refresher
        from companion.network.address import table_url

        self.config = config
        self.simulate = simulate
        self.url = table_url(config.url, config.port)
        self.wifi = ""  # the hotspot's WIFI: QR payload while the table is the network
        self.network = None  # the TableNetwork, once start() has one
        self.network_problem = None  # the NetworkError of the last switch (None if it did not fail)
        self._switching: threading.Thread | None = None
        self._standin = None
        state = config.state_path
        if state.exists() and not state.is_dir():
            raise ConfigError(f"key 'state_dir': {state} is a file, not a directory. Give the path of a "
                              "directory (it is made if missing) in state_dir.")
        self.store = Store(state / "companion.db", config.store_limit_mb)
        self.table = Table(self.store, config.table_setup(), on_long_start=extend_start)
        self.venue = None  # without [venue], nothing of MQTT is imported and no thread starts for it
        if config.venue is not None:
            from companion.outputs.venue.publishing import Publishing

            self.venue = Publishing(self.store, self.table, config.venue)
        self._backup_due: float | None = None  # when play since the last backup makes the next one due
        self._over = False  # whether the running game had ended at the last command (set again at start)
        self._state_at = ""  # when the table reached the state the e-ink shows ("21:04")
        self._state_version = -1  # ... and its version
        if simulate and pin_factory is None:
            from companion.devices.simulator import simulator_pins

            pin_factory = simulator_pins()
        self.board = Board(load_profile(config.profile), self._on_input, pin_factory=pin_factory,
                           foreground=self.table.foreground)
        self.display = self._display()
        if simulate:
            self.display = PngDisplay(self.display.model, state / "frame.png", config.simulated_glass)
        self.refresher = Refresher(self.display, self._render, foreground=self.table.foreground,
                                   budget=self._wear_budget(), speed=self._speed)
        self.server = None
        self._stopping = threading.Event()

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

    def _wear_budget(self):
        """The panel's wear budget; none for the simulator's instant glass, which wears nothing."""
        from companion.devices.wear import WearBudget, WearPolicy, gap_for

        if self.simulate and self.config.simulated_glass == "instant":
            return None
        return WearBudget(WearPolicy(self.config.refreshes_per_hour, self.config.refresh_burst,
                                     gap_for(self.model.refresh)))

    def _speed(self, play: bool) -> str | None:
        from companion.devices.panels import speed_for

        return speed_for(self.model, play, self.config.panel_speed)

    @property
    def model(self):
        """The panel frames are drawn for (it may change once an "auto" panel is found)."""
        return self.display.model

    @property
    def frame_version(self) -> int:
        return self.refresher.shown

    # --- inputs and outputs -------------------------------------------------------------
    def _on_input(self, button: str, kind: str) -> None:
        """A debounced button, on its own thread: only queued; the table thread steps it."""
        self.table.press(button if kind == "press" else f"{button}:hold")

    def _on_update(self, update: Update) -> None:
        """On the table thread, after each durable command, press or seat change: LEDs at once, the
        e-ink on its own thread; a refused press blinks."""
        if update.session is None:
            return
        if update.rejected is not None:
            if update.pressed is not None:
                self._show(update)
                self.board.reject()
            return
        self._show(update)
        if update.command is not None:
            self._keep(update)

    def _keep(self, update: Update) -> None:
        """After a durable command: the finished game's record, and a backup once enough play is due.

        On the table thread, between commands: no timer wakes the daemon while nobody plays."""
        from companion.outputs import records

        over = records.is_over(update)
        ended, self._over = over and not self._over, over  # once per game, not at each command after
        # the host ended a game that was not over: it is kept too, as abandoned
        ended = ended or update.command.kind == END_GAME
        try:
            if ended:
                records.write(self.config.state_path, self.store, update)
            minutes = self.config.backup_minutes
            if minutes <= 0:
                return
            now = time.monotonic()
            if ended or (self._backup_due is not None and now >= self._backup_due):
                self.backup()
            elif self._backup_due is None:  # the first command since the last backup starts the count
                self._backup_due = now + minutes * 60
        except Exception:  # a full disk, say: the game goes on, and the log says why
            log.exception("could not keep a record or a backup")

    def backup(self):
        """An online backup into the state dir's backups folder, keeping the newest `backup_keep`."""
        from companion.storage.tools import backup

        started = time.monotonic()
        self._backup_due = None
        target = backup(self.store, self.config.state_path, self.config.backup_keep)
        log.info("backed up to %s in %.0f ms", target, (time.monotonic() - started) * 1000)
        return target

    def _show(self, update: Update) -> None:
        """The LED dice and the e-ink for `update`, with the button input in progress if any."""
        spec, view, entry = update.spec, update.public, update.entry
        entering = spec.controls.leds(entry, view) if entry is not None else None
        if entering is not None:
            self.board.dice.show(entering)
        elif update.rejected is None and spec.rolled(update.events):
            self.board.dice.roll(spec.dice_shown(view))
        else:
            self.board.dice.show(spec.dice_shown(view))
        self._frame(update)

    def _frame(self, update: Update) -> None:
        """Offer the e-ink the frame of `update` (the refresher's own thread draws it)."""
        spec, view, entry = update.spec, update.public, update.entry
        shown = spec.controls.shown(entry, view) if entry is not None else None
        # A move or a button input in a game under way may go at the panel's fast speed; a new game's
        # join screen, an ended game and a seat change go at its normal one.
        moved = update.command is not None and update.command.kind != NEW_GAME
        play = (moved or entry is not None) and not spec.over(update.session.state)
        if update.version != self._state_version or not self._state_at:
            # the frame states when the game reached this state: a seat change, or the same state drawn
            # again for a new address, does not move it
            self._state_at, self._state_version = time.strftime("%H:%M"), update.version
        info = replace(self.table.table_info(self.url, shown, self._state_at), wifi=self.wifi)
        self.refresher.offer((update.game, view, info, self.language), play)

    @property
    def language(self) -> str:
        """The e-ink's language: the host's choice from the host page, else the config's."""
        return self.table.roster.language(self.config.language)

    def _render(self, key):
        from companion.outputs.frames import render

        game, view, info, lang = key
        return render(game, view, self.model, lang, info).image

    # --- life cycle -------------------------------------------------------------------
    def start(self) -> Companion:
        from companion.outputs.webapp import create_app
        from companion.serving.serve import serve

        self.table.subscribe(self._on_update)
        self.table.on_rolling(self.board.dice.tumble)
        self.refresher.start()
        self._on_update(self.table.latest)  # a resumed game: shown before the table thread runs
        self._keep_unwritten_record()
        self.table.start()
        if self.venue is not None:
            self.venue.start()
        try:
            app = create_app(self, per_client=self.config.live_pages_per_address)
            self.server = serve(app, self.config.host, self.config.port,
                                per_client=self.config.connections_per_address, passed=self._port_80())
        except OSError as exc:
            self.stop()
            raise ConfigError(_listen_error(exc, self.config)) from None
        self.network = self._network()
        if self.network is not None and self.network.mode != "client":
            # Off the main thread: "auto" may wait for the known Wi-Fi, and the web must answer meanwhile.
            threading.Thread(target=self._boot_network, name="network", daemon=True).start()
        return self

    def _port_80(self) -> tuple:
        """The port-80 socket systemd bound for us (companion-http.socket), served by the probe app."""
        from companion.outputs.webapp.activation import passed_sockets
        from companion.outputs.webapp.probes import create_probe_app

        return tuple((create_probe_app(lambda: self.url), sock) for sock in passed_sockets().values())

    def _network(self):
        """The table's network: NetworkManager's on the system bus, or in the simulator a stand-in (never
        the machine's own), started only when the config's mode needs it."""
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

    def _boot_network(self) -> None:
        from companion.network.manager import NetworkError

        try:
            self.network_changed(self.network.boot())
        except NetworkError as exc:
            log.error("network: %s", exc)
            self.network_problem = exc  # the host's card says why the config's mode did not come up

    def switch_network(self, mode: str) -> None:
        """Start a switch to `mode` on its own thread and return: the host's phone may lose the table as it
        happens, so its answer goes out first. A failure leaves the previous mode up (network_problem)."""
        from companion.i18n import N_
        from companion.network.manager import NetworkError

        if self.network is None:
            raise NetworkError(N_("this table does not manage its network"))
        if self._switching is not None and self._switching.is_alive():
            raise NetworkError(N_("the network is already switching: wait for it to finish."))

        def switch() -> None:
            try:
                self.network_changed(self.network.switch(mode))
                self.network_problem = None
            except NetworkError as exc:
                log.error("network: %s", exc)
                self.network_problem = exc

        self._switching = threading.Thread(target=switch, name="network", daemon=True)
        self._switching.start()

    @property
    def network_switching(self) -> bool:
        return self._switching is not None and self._switching.is_alive()

    def network_changed(self, status) -> None:
        """After a switch: the address phones use, the Wi-Fi code while hotspot, and a new frame."""
        from companion.network.address import table_url
        from companion.render.qr import wifi_payload

        settings = self.config.network
        self.url = table_url(self.config.url, self.config.port, status)
        self.wifi = wifi_payload(settings.ssid, settings.password) if status.mode == "hotspot" else ""
        if self.table.latest.session is not None:
            self._frame(self.table.latest)

    def _keep_unwritten_record(self) -> None:
        """A game that ended just before a power cut has its record written now."""
        from companion.outputs import records

        latest = self.table.latest
        self._over = records.is_over(latest)
        if self._over:
            try:
                records.write(self.config.state_path, self.store, latest)
            except OSError:
                log.exception("could not keep the finished game's record")

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
        """Stop everything. A panel refresh under way is let finish first (up to the panel's longest):
        a panel whose power goes mid-refresh can latch into a fault only removing power clears."""
        if self.server is not None:
            self.server.close()
        self.table.stop()
        if self.venue is not None:
            self.venue.stop()
        self.refresher.stop()
        self.board.close()
        self.store.close()
        if self._standin is not None:
            self._standin.stop()


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


def replay_file(path: Path) -> dict:
    """Rebuild a game from an exported record (GET /api/export, or a kept game record) and return its
    public view. An edited or damaged file is refused by name, never with a traceback."""
    import json

    from companion import tomlfile
    from companion.core.session import replay
    from companion.storage.store import Record

    fix = "Export the game again (GET /api/export, or companion records show ID)."
    try:
        data = json.loads(tomlfile.read_bounded(Path(path)).decode("utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: file not found.") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it ({exc.strerror or exc}).") from None
    except (ValueError, RecursionError) as exc:
        raise ConfigError(f"{path}: not a JSON game record ({type(exc).__name__}). {fix}") from None
    try:
        rows = data["records"] if isinstance(data, dict) else data
        records = [Record(int(r["version"]), str(r["kind"]), _seat(r.get("seat")), dict(r.get("args") or {}),
                          [int(d) for d in r.get("draws") or []]) for r in rows]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ConfigError(f"{path}: not an exported game record ({type(exc).__name__}: {exc}). {fix}"
                          ) from None
    try:
        session, version = replay(records)
    except IllegalMove as exc:
        raise ConfigError(f"{path}: the record does not replay: {exc}. It may have been edited. {fix}"
                          ) from None
    except Exception as exc:  # noqa: BLE001 - an edited record can trip the rules anywhere
        raise ConfigError(f"{path}: the record does not replay; it may have been edited "
                          f"({type(exc).__name__}: {exc}). {fix}") from None
    if session is None:
        raise ConfigError(f"{path}: the record holds no game.")
    return {"version": version, "game": session.game, "public": session.spec.public_json(session.state)}


def _seat(seat) -> int | None:
    if seat is None or type(seat) is int:
        return seat
    raise TypeError(f"seat {seat!r} is not a seat number")
