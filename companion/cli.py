"""The `companion` command: demo, run, check-config, replay, store, records, bench, new-game, --version."""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

from companion import __version__

DEMO_STATE = Path("~/.local/state/companion-demo")
DEFAULT_CONFIG = "/etc/companion/config.toml"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Table companion for board games.")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser("demo", help="run the simulator: mock pins, a PNG panel, the twin page")
    demo.add_argument("--config", type=Path, help="a TOML config (default: built-in settings)")
    demo.add_argument("--state-dir", help=f"where the game record lives (default {DEMO_STATE})")
    demo.add_argument("--port", type=int, help="web port (default 8080 or $COMPANION_PORT)")
    demo.add_argument("--glass", choices=("instant", "real", "stuck"),
                      help="the simulated panel: instant (the default), real (its own refresh time and the "
                           "wear budget), or stuck (it stops answering in its first refresh)")
    demo.add_argument("--venue", type=Path, help="publish to a venue: the [venue] file `companion venue "
                                                 "add-table` wrote (docs/venue.md)")
    run = sub.add_parser("run", help="run the daemon on a Raspberry Pi")
    run.add_argument("--config", type=Path, required=True,
                     help="the TOML config, e.g. /etc/companion/config.toml")
    check = sub.add_parser("check-config", help="validate a config file and exit")
    check.add_argument("file", type=Path)
    replay = sub.add_parser("replay", help="rebuild a game from an exported record; print its public view")
    replay.add_argument("log", type=Path)
    store = sub.add_parser("store", help="check, repair, back up or set aside the state database")
    store.add_argument("action", choices=["check", "repair", "fresh", "backup"],
                       help="check: report; repair: keep the files and recover what SQLite can read; "
                            "fresh: move the files aside so the next start makes a new table; "
                            "backup: an online backup into the backups folder")
    where = store.add_mutually_exclusive_group(required=True)
    where.add_argument("--state-dir", type=Path, help="the state directory (the config's state_dir)")
    where.add_argument("--config", type=Path, help="read state_dir from this TOML config")
    records = sub.add_parser("records", help="list the finished games kept, or export one")
    records.add_argument("show", nargs="?", choices=["list", "show"], default="list")
    records.add_argument("id", nargs="?", help="the record to export (from the list)")
    records.add_argument("--format", choices=["json", "bgstats"], default="json",
                         help="json: the whole record; bgstats: a file the BG Stats app imports")
    rwhere = records.add_mutually_exclusive_group()
    rwhere.add_argument("--state-dir", type=Path, help="the state directory (the config's state_dir)")
    rwhere.add_argument("--config", type=Path, help="read state_dir from this TOML config")
    bench = sub.add_parser("bench", help="measure the figures of docs/performance.md on this machine")
    bench.add_argument("part", nargs="?", default="speed",
                       choices=("speed", "load", "soak", "panel", "start", "venue", "cold"),
                       help="speed: the figures' table (the default); load: 30 phones while 100 commands a "
                            "second are posted for 60 s; soak: 10,000 commands of every game, memory "
                            "watched; panel: refreshes per hour and the glass's lag in a 2-hour evening of "
                            "each game, without and with the wear budget; start: the daemon started on a "
                            "long log (250,000 rolls; 3,000 rolls undone); venue: 50 tables, a broker and "
                            "a dashboard, and 10,000 messages drained after a broker restart (--tables, "
                            "--hours: a longer day, its hours between the first and the last simulated); "
                            "cold: the daemon's first answers and frame from a fresh start, its idle memory "
                            "and threads with no phone and with 10")
    bench.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    bench.add_argument("--quick", action="store_true", help="fewer samples, a 2 s glass: about a minute")
    bench.add_argument("--pi-zero", action="store_true",
                       help="run it again confined to one core at a tenth of its speed, and compare")
    bench.add_argument("--panel", default="impression-7.3", help="the panel whose refresh the burst waits")
    bench.add_argument("--code", type=Path, help="start, cold: run the daemons from the code in this "
                                                 "folder (a checkout of another version), to compare; venue: "
                                                 "the dashboard and its simulated hours from that code")
    bench.add_argument("--tables", type=int, default=50, help="venue: how many tables (default 50)")
    bench.add_argument("--hours", type=int, default=1,
                       help="venue: the day's hours; past 1, the last hour is measured too, on a board "
                            "holding the hours between (default 1)")
    bench.add_argument("--window", type=float, help="venue: seconds of live play measured as an hour "
                                                    "(default 60, 15 with --quick)")
    bench.add_argument("--drain", type=int, help="venue: moves queued while the broker is down (default "
                                                 "10,000, 2,000 with --quick)")
    net = sub.add_parser("network", help="how phones reach the table: show it, be the network, or join the "
                                         "venue's Wi-Fi (docs/network.md)")
    net.add_argument("action", choices=["status", "hotspot", "client"],
                     help="status: the mode, the Wi-Fi and the address; hotspot: be the network; client: "
                          "join the known Wi-Fi. A failed switch falls back to the previous mode.")
    net.add_argument("--config", type=Path, default=Path(DEFAULT_CONFIG),
                     help=f"the config with the [network] section (default {DEFAULT_CONFIG})")
    venue = sub.add_parser("venue", help="a venue's dashboard: make the broker's files, add a table, serve "
                                         "the dashboard (docs/venue.md)")
    venue.add_argument("action", choices=["init", "add-table", "serve", "broker-conf", "add-venue",
                                          "join-league", "director-link"],
                       help="init: a venue folder with Mosquitto's config, password and ACL files; "
                            "add-table: a table's login and topics, and its [venue] file; serve: the "
                            "dashboard; broker-conf: print the mosquitto.conf this version writes (to "
                            "compare with yours; nothing is written); add-venue: a venue's login at a "
                            "league's broker, and the bridge file for it; join-league: bridge this venue "
                            "to its league with that file; director-link: a new director's link, the old one "
                            "refused at once (a running dashboard too)")
    venue.add_argument("table", nargs="?", help="add-table: the table's name (e.g. t1); add-venue: the "
                                                "venue's name (e.g. club)")
    venue.add_argument("--dir", type=Path, required=True, help="the venue folder (the league's, for "
                                                               "init --league and add-venue)")
    venue.add_argument("--name", help="init: the venue's name (e.g. club), or the league's")
    venue.add_argument("--league", action="store_true", help="init: a league's folder, whose dashboard "
                                                             "shows every venue bridged to its broker")
    venue.add_argument("--file", type=Path, help="join-league: the bridge file add-venue wrote")
    venue.add_argument("--broker", default="127.0.0.1", help="init: the broker's address as tables reach it")
    venue.add_argument("--broker-port", type=int, default=1883, help="init: the broker's port")
    venue.add_argument("--port", type=int, default=8090,
                       help="serve: the dashboard's web port (director-link: the port its link names)")
    venue.add_argument("--host", default="0.0.0.0", help="serve: the address to listen on")
    venue.add_argument("--language", choices=["fr", "en"], default="fr", help="serve: the pages' default")
    new = sub.add_parser("new-game", help="write a new game's package to start from: it installs, plays and "
                                          "passes the table's checks at once")
    new.add_argument("name", help="the game's name: its package, entry point and strings' domain "
                                  "(e.g. guessroll)")
    new.add_argument("--dir", type=Path, default=Path(), help="the folder to write it in (default: here)")
    new.add_argument("--title", help="its title in English (default: from the name)")
    new.add_argument("--title-fr", help="its title in French (default: the English one)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command in ("demo", "run"):
        import os

        from companion.malloc import few_arenas

        few_arenas()
        # numpy's OpenBLAS would start a thread per core for matrix work the daemon never does
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        # Phones are answered "starting" from now, before the seconds of loading a Pi Zero takes
        from companion.serving.early import EarlyAnswer, listen_address

        args.early = EarlyAnswer.listen(listen_address(args.config, getattr(args, "port", None)))
    from companion.config import ConfigError
    from companion.storage.check import StoreError

    try:
        return COMMANDS[args.command](args)
    except ConfigError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    except StoreError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return exc.exit_status
    finally:
        if getattr(args, "early", None) is not None:
            args.early.close()  # the daemon did not take it over: it failed to start


def _check_config(args) -> int:
    from companion.config import load

    config = load(args.file)
    print(f"{args.file}: OK (panel {config.panel}, profile {config.profile}, language {config.language}, "
          f"port {config.port}, game {config.game})")
    return 0


def _replay(args) -> int:
    from companion.core.table.export import replay_file

    print(json.dumps(replay_file(args.log), ensure_ascii=False, indent=2))
    return 0


def _demo(args) -> int:
    from companion.config import load

    state = args.state_dir or str(DEMO_STATE.expanduser())
    venue = None
    if args.venue is not None:
        from companion.venue.settings import read_section

        venue = read_section(args.venue)
    config = load(args.config, port=args.port, state_dir=state if args.state_dir or not args.config else None,
                  simulated_glass=args.glass, venue=venue)
    return _serve(config, args.config, simulate=True, early=_taken(args))


def _run(args) -> int:
    from companion.config import load

    return _serve(load(args.config), args.config, simulate=False, early=_taken(args))


def _taken(args):
    """The early listener, handed on: from here the daemon closes it or serves on it."""
    early, args.early = getattr(args, "early", None), None
    return early


def _serve(config, source: Path | None, *, simulate: bool, early=None) -> int:
    from companion.config import ConfigError
    from companion.wiring import Companion

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    started = time.monotonic()
    local = f"http://127.0.0.1:{config.port}/"

    def serving(companion) -> None:  # the web answers; the devices load next
        print(f"companion {__version__} serving on {local} (phones: {companion.url})", flush=True)
        if simulate:
            _announce_simulator(companion, local)

    try:
        companion = Companion(config, simulate=simulate).start(early, serving=serving)
    except ConfigError as exc:  # a key of the config (state_dir, port, host): named with its file
        raise ConfigError(f"{source or '(defaults)'}: {exc}") from None
    logging.getLogger("companion").info("started in %.2f s", time.monotonic() - started)
    companion.run()
    return 0


def _state_dir(args) -> Path:
    from companion.config import load

    if args.state_dir is not None:
        return args.state_dir.expanduser()
    if args.config is not None:
        return load(args.config).state_path
    return DEMO_STATE.expanduser()


def _store(args) -> int:
    from companion.config import load
    from companion.storage import tools as storetools

    state = _state_dir(args)
    if args.action == "check":
        print(storetools.check(state))
    elif args.action == "repair":
        from companion.core.session import replayable

        print(storetools.repair(state, replayable))
    elif args.action == "fresh":
        print(storetools.fresh(state))
    else:
        keep = load(args.config).backup_keep if args.config else load(None).backup_keep
        print(storetools.backup_now(state, keep))
    return 0


def _records(args) -> int:
    from companion.outputs import records

    state = _state_dir(args)
    if args.show == "list":
        print(records.listing(state))
        return 0
    if not args.id:
        from companion.config import ConfigError

        raise ConfigError("companion records show: give the id of a record (companion records list shows "
                          "them).")
    try:
        record = records.load(state, args.id)
        out = records.bgstats(record) if args.format == "bgstats" else record
    except (records.RecordError, KeyError, TypeError, ValueError) as exc:
        from companion.config import ConfigError

        raise ConfigError(f"records: {exc}") from None
    print(json.dumps(out, ensure_ascii=False, indent=2))
    return 0


def _announce_simulator(companion, local: str) -> None:
    """Print where the simulator is: on a Pi the first phone to claim becomes the host; here the console
    hands out the host link (its first opening claims the host), again after each long press on D."""
    from companion.core.table import REISSUE_HOST

    def host_links() -> None:
        token = companion.table.host_token()
        print(f"  host link: {local}?host={token}", flush=True)
        print(f"  device twin with host rights: {local}device?host={token}", flush=True)

    host_links()
    print(f"  device twin: {local}device (its buttons work from this machine without the link)", flush=True)
    print(f"  e-ink frame (PNG): {companion.frame_path}", flush=True)

    def on_update(update) -> None:
        if update.pressed == REISSUE_HOST and update.rejected is None:
            print("  a long press on D made a new host link and join code:", flush=True)
            host_links()

    companion.table.subscribe(on_update)


def _bench(args) -> int:
    from companion.benchmark.run import main as bench

    day = None
    if args.part == "venue":
        from companion.benchmark.venue import Day

        day = Day(args.tables, args.hours, args.window, args.drain)
    return bench(args.json, args.quick, args.pi_zero, args.panel, args.part, args.code, day)


def _network(args) -> int:
    from companion.config import load
    from companion.network.address import table_url
    from companion.network.manager import Hotspot, NetworkError, NetworkManagerLink
    from companion.network.modes import TableNetwork

    config = load(args.config if args.config.exists() or str(args.config) != DEFAULT_CONFIG else None)
    settings = config.network
    if args.action == "hotspot" and not settings.password:
        from companion.config import ConfigError

        raise ConfigError(f"{args.config}: key 'network.password': the hotspot needs a WPA2 password of 8 to "
                          "63 characters. Set one in [network], or run firmware/install.py to write one.")
    network = TableNetwork("client", Hotspot(settings.ssid, settings.password, settings.mode == "hotspot"),
                           NetworkManagerLink(settings.bus or None), settings.auto_wait)
    try:
        status = network.status() if args.action == "status" else network.switch(args.action)
    except NetworkError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 1
    print(f"mode: {status.mode}\nWi-Fi: {status.network or '-'} ({status.interface})\n"
          f"address: {status.address or '-'}\nphones open: {table_url(config.url, config.port, status)}")
    if status.mode == "hotspot":
        print(f"hotspot password: {settings.password}")
    if args.action != "status":
        # The running service learns of a switch only through its own host page (no thread listens at idle).
        print("While the service runs, switch from the host page instead, so that the panel follows.")
    return 0


def _new_game(args) -> int:
    from companion.scaffold import ScaffoldError, new_game

    try:
        folder = new_game(args.name, args.dir, args.title, args.title_fr)
    except ScaffoldError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    tools = _shown(Path(sys.executable).parent)  # this venv's: the one the table runs from
    print(f"wrote {folder}: a small working game to make your own. Next:\n"
          f"  {tools}/pip install -e '{folder}[test]'    (registers it with the table)\n"
          f"  {tools}/pytest {folder}    (its rules and the table's conformance checks)\n"
          f"  {tools}/companion demo    (restart it if it runs: the table reads its games when it starts;"
          " then open the host link it prints, tap Host and start the game)")
    return 0


def _shown(path: Path) -> str:
    """`path` as a command line reads it best: from here if it is under here, else in full."""
    try:
        return str(path.absolute().relative_to(Path.cwd()))
    except ValueError:
        return str(path.absolute())


def _venue(args) -> int:
    from companion.venue import access

    try:
        if args.action == "init":
            if not args.name:
                raise access.VenueError("init needs --name: the venue's name, e.g. --name club")
            access.init_venue(args.dir, args.name, args.broker, args.broker_port, args.league)
            what, then = ("venue", f"add tables: companion venue add-table t1 --dir {args.dir}")
            if args.league:
                what, then = ("league", f"add venues: companion venue add-venue club --dir {args.dir}")
            print(f"made the {what} {args.name} in {args.dir}. Start its broker:\n"
                  f"  mosquitto -c {args.dir / 'mosquitto.conf'}\nthen {then}")
            return 0
        if args.action == "add-venue":
            if not args.table:
                raise access.VenueError("add-venue needs the venue's name, e.g. companion venue add-venue "
                                        "club --dir LEAGUE_DIR")
            stanza = access.add_venue(args.dir, args.table)
            print(f"venue {args.table} may bridge to the league now (send the league's broker SIGHUP, or "
                  f"restart it, first).\n  its bridge file: {stanza} (it holds the venue's password: give it "
                  f"to the venue's organiser, who runs: companion venue join-league --dir VENUE_DIR --file "
                  f"{stanza.name})")
            return 0
        if args.action == "join-league":
            if args.file is None:
                raise access.VenueError("join-league needs --file: the bridge file companion venue add-venue "
                                        "wrote in the league's folder (venues/NAME.conf)")
            league, rewritten = access.join_league(args.dir, args.file)
            conf = args.dir / "mosquitto.conf"
            how = (f"{conf} now includes it" if rewritten else f"add this line at the end of your "
                   f"mosquitto.conf: include_dir {(args.dir / access.BRIDGES).resolve()}")
            print(f"venue bridged to league {league}: {how}; restart the venue's broker. Each table's "
                  f"[venue] file in {args.dir / 'tables'} now says league = \"{league}\": copy it to the "
                  "tables, which then keep each message until both dashboards have it.")
            return 0
        if args.action == "add-table":
            if not args.table:
                raise access.VenueError("add-table needs the table's name, e.g. companion venue add-table t1")
            section = access.add_table(args.dir, args.table)
            print(f"table {args.table} may publish now (send the broker SIGHUP, or restart it, first).\n"
                  f"  its [venue] section: {section} (add it to the table's config, or: companion demo "
                  f"--venue {section})")
            return 0
        if args.action == "broker-conf":
            print(access.broker_conf(args.dir.resolve(), access.read_venue(args.dir)["port"]), end="")
            return 0
        if args.action == "director-link":
            return _director_link(args)
        return _serve_venue(args, access.read_venue(args.dir))
    except access.VenueError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2


def _director_link(args) -> int:
    """A new director's link, kept in the dashboard's store: the old one is refused from now on."""
    from companion.venue import access
    from companion.venue.dashboard import renew_director

    access.read_venue(args.dir)  # a venue folder, or refused with the fix
    token = renew_director(args.dir / "dashboard")
    print(f"the director's new link: http://127.0.0.1:{args.port}/director/{token}\n"
          "  (from another machine, put the dashboard's address in place of 127.0.0.1); the old link is "
          "refused from now on, a running dashboard included", flush=True)
    return 0


def _serve_venue(args, venue: dict) -> int:
    import signal
    import threading

    from companion.venue import access
    from companion.venue.dashboard import Dashboard
    from companion.venue.link import Broker

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    broker = Broker(venue["broker"], venue["port"], "dashboard", venue["password"])
    try:
        dashboard = Dashboard(args.dir / "dashboard", broker, venue["name"], args.language,
                              league=venue["kind"] == access.LEAGUE_KIND).start(args.host, args.port)
    except OSError as exc:
        print(f"companion: cannot listen on {args.host}:{args.port} ({exc.strerror or exc}); pick another "
              "--port", file=sys.stderr)
        return 2
    assert dashboard.server is not None  # start() serves
    local = f"http://127.0.0.1:{dashboard.server.port}"
    print(f"companion venue {venue['name']} serving on {local}/\n  projector: {local}/board\n"
          f"  director's link: {local}/director/{dashboard.director}", flush=True)
    stopping = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):  # as the daemon does: a service manager stops it cleanly
        signal.signal(sig, lambda *_: stopping.set())
    try:
        stopping.wait()
    finally:
        dashboard.stop()
    return 0


COMMANDS = {"demo": _demo, "run": _run, "check-config": _check_config, "replay": _replay, "bench": _bench,
            "store": _store, "records": _records, "new-game": _new_game, "network": _network,
            "venue": _venue}
