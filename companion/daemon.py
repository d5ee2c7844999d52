"""The daemon: wires the store, table, buttons, LED dice, e-ink and web server, then runs."""

from __future__ import annotations

import logging
import signal
import threading
import time
from pathlib import Path

from companion.config import Config, ConfigError
from companion.gamekit.contract import IllegalMove
from companion.store import Store
from companion.table import Table, Update

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

        self.config = config
        self.simulate = simulate
        self.url = config.public_url()
        state = config.state_path
        if state.exists() and not state.is_dir():
            raise ConfigError(f"key 'state_dir': {state} is a file, not a directory. Give the path of a "
                              "directory (it is made if missing) in state_dir.")
        self.store = Store(state / "companion.db")
        self.table = Table(self.store, config.table_setup(), on_long_start=extend_start)
        self._backup_due: float | None = None  # when play since the last backup makes the next one due
        self._over = False  # whether the running game had ended at the last command (set again at start)
        if simulate and pin_factory is None:
            from companion.devices.simulator import simulator_pins

            pin_factory = simulator_pins()
        self.board = Board(load_profile(config.profile), self._on_input, pin_factory=pin_factory,
                           foreground=self.table.foreground)
        self.display = self._display()
        if simulate:
            self.display = PngDisplay(self.display.model, state / "frame.png")
        self.refresher = Refresher(self.display, self._render, foreground=self.table.foreground)
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
        from companion import records

        over = records.is_over(update)
        ended, self._over = over and not self._over, over  # once per game, not at each command after
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
        from companion.storetools import backup

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
        shown = spec.controls.shown(entry, view) if entry is not None else None
        self.refresher.offer((update.game, view, self.table.table_info(self.url, shown), self.language))

    @property
    def language(self) -> str:
        """The e-ink's language: the host's choice from the host page, else the config's."""
        return self.table.roster.language(self.config.language)

    def _render(self, key):
        from companion.frames import render

        game, view, info, lang = key
        return render(game, view, self.model, lang, info).image

    # --- life cycle -------------------------------------------------------------------
    def start(self) -> Companion:
        from companion.webapp import create_app
        from companion.webapp.serve import serve

        self.table.subscribe(self._on_update)
        self.table.on_rolling(self.board.dice.tumble)
        self.refresher.start()
        self._on_update(self.table.latest)  # a resumed game: shown before the table thread runs
        self._keep_unwritten_record()
        self.table.start()
        try:
            self.server = serve(create_app(self), self.config.host, self.config.port)
        except OSError as exc:
            self.stop()
            raise ConfigError(_listen_error(exc, self.config)) from None
        return self

    def _keep_unwritten_record(self) -> None:
        """A game that ended just before a power cut has its record written now."""
        from companion import records

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
        self.stop()

    def stop(self) -> None:
        if self.server is not None:
            self.server.close()
        self.table.stop()
        self.refresher.stop()
        self.board.close()
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


def replay_file(path: Path) -> dict:
    """Rebuild a game from an exported record (GET /api/export, or a kept game record) and return its
    public view. An edited or damaged file is refused by name, never with a traceback."""
    import json

    from companion import tomlfile
    from companion.session import replay
    from companion.store import Record

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
