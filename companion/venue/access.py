"""Mosquitto's password and ACL files for a venue: each table writes under its own topics only."""

from __future__ import annotations

import json
import secrets
import subprocess
import tomllib
from pathlib import Path

from companion.storage.store import write_durably
from companion.venue import topics

DASHBOARD = "dashboard"
LEAGUE_KIND = "league"  # venue.toml's `kind` of a league's folder (a venue's is "venue")
BRIDGES = "bridges"  # a venue folder's bridge to its league (join-league), read by its mosquitto.conf


SECRET = 0o600  # the files that hold a broker password: the venue's owner alone reads them
# A whole MQTT packet: one message, its topic (under 80 bytes) and its headers, with room to spare.
PACKET_LIMIT = topics.MESSAGE_LIMIT + 4 * 1024
AUTOSAVE = 10  # seconds between two saves of the broker's retained snapshots and queues to disk


def acl(venue: str, tables: list[str]) -> str:
    """The ACL file's text: the dashboard reads the venue and writes acknowledgements; a table writes its
    status, snapshot and updates, and reads its acknowledgements, nothing else."""
    lines = [f"user {DASHBOARD}", f"topic read {topics.ROOT}/{venue}/#",
             f"topic write {topics.table(venue, '+', 'ack')}", ""]
    for name in tables:
        lines += [f"user {name}", *(f"topic write {topics.table(venue, name, leaf)}"
                                    for leaf in ("status", "snapshot", "update")),
                  f"topic read {topics.table(venue, name, 'ack')}", ""]
    return "\n".join(lines)


def league_acl(venues: list[str]) -> str:
    """The league broker's ACL: its dashboard reads every venue's tables and acknowledges them; a venue's
    bridge writes its own tables' status, snapshots and updates, and reads their acknowledgements."""
    lines = [f"user {DASHBOARD}",
             *(f"topic read {topics.table('+', '+', leaf)}" for leaf in ("status", "update")),
             f"topic write {topics.table('+', '+', 'ack')}", ""]
    for venue in venues:
        lines += [f"user {venue}", *(f"topic write {topics.table(venue, '+', leaf)}"
                                     for leaf in ("status", "snapshot", "update")),
                  f"topic read {topics.table(venue, '+', 'ack')}", ""]
    return "\n".join(lines)


def bridge(league: dict, venue: str, password: str) -> str:
    """The bridge stanza for venue `venue`'s mosquitto.conf: its tables' messages go out to the league,
    the league dashboard's acknowledgements come back in; the league's session is kept while away."""
    return (f"# The bridge of venue {venue} to league {league['name']}: companion venue join-league --dir "
            f"VENUE_DIR --file THIS_FILE\n"
            f"connection {league['name']}\naddress {league['broker']}:{league['port']}\n"
            f"remote_username {venue}\nremote_password {password}\nremote_clientid {venue}\n"
            # Kept while the link is down, both sides: queued messages and the acknowledgements' subscription.
            "cleansession false\nrestart_timeout 2 20\nnotifications_local_only true\n"
            "# With TLS at the league (port 8883), add: bridge_cafile /etc/ssl/certs/ca-certificates.crt\n"
            + "".join(f"topic {topics.table(venue, '+', leaf)} out 1\n"
                      for leaf in ("status", "snapshot", "update"))
            + f"topic {topics.table(venue, '+', 'ack')} in 1\n")


def add_user(password_file: Path, user: str, password: str | None = None) -> str:
    """Add (or replace) `user` in Mosquitto's password file with mosquitto_passwd; returns the password."""
    password = password or secrets.token_urlsafe(18)
    create = [] if password_file.exists() else ["-c"]
    try:
        subprocess.run(["mosquitto_passwd", *create, "-b", str(password_file), user, password], check=True,
                       capture_output=True)
    except FileNotFoundError:
        raise VenueError("mosquitto_passwd is missing: install Mosquitto (Debian: apt install mosquitto)"
                         ) from None
    except subprocess.CalledProcessError as exc:
        why = exc.stderr.decode().strip()
        raise VenueError(f"{password_file}: mosquitto_passwd failed ({why})") from None
    password_file.chmod(0o640)
    return password


class VenueError(Exception):
    """A venue folder that cannot be used: the message names the file or name and the fix."""


def venue_file(folder: Path) -> Path:
    return folder / "venue.toml"


def read_venue(folder: Path) -> dict:
    """The venue folder's settings (venue.toml), refused with the file and the fix."""
    path = venue_file(folder)
    if not path.is_file():
        raise VenueError(f"{path}: no venue here. Make one first: companion venue init --name NAME "
                         f"--dir {folder}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        kind = str(data.get("kind", "venue"))
        if kind not in ("venue", LEAGUE_KIND):
            raise ValueError(f"kind {kind!r} is neither 'venue' nor {LEAGUE_KIND!r}")
        return {"name": str(data["name"]), "broker": str(data["broker"]), "port": int(data["port"]),
                "password": str(data["password"]), "tables": [str(t) for t in data.get("tables", [])],
                "kind": kind, "venues": [str(v) for v in data.get("venues", [])],
                "league": str(data.get("league", ""))}
    except (tomllib.TOMLDecodeError, KeyError, ValueError, TypeError) as exc:
        raise VenueError(f"{path}: cannot be read ({exc}); make the venue again with companion venue "
                         "init") from exc


def _write_venue(folder: Path, venue: dict) -> None:
    tables = ", ".join(json.dumps(t) for t in venue["tables"])
    more = ""
    if venue.get("kind", "venue") == LEAGUE_KIND:
        more = f'kind = "{LEAGUE_KIND}"\nvenues = [{", ".join(json.dumps(v) for v in venue["venues"])}]\n'
    elif venue.get("league"):
        more = f'league = {json.dumps(venue["league"])}\n'
    write_durably(venue_file(folder),
                  f'name = {json.dumps(venue["name"])}\nbroker = {json.dumps(venue["broker"])}\n'
                  f'port = {venue["port"]}\npassword = {json.dumps(venue["password"])}\n'
                  f'tables = [{tables}]\n{more}', mode=SECRET)
    write_durably(folder / "acl", league_acl(venue["venues"]) if venue.get("kind") == LEAGUE_KIND
                  else acl(venue["name"], venue["tables"]))


def init_venue(folder: Path, name: str, broker: str = "127.0.0.1", port: int = 1883, league: bool = False
               ) -> dict:
    """A new venue folder (or, `league`, a league's: its venues' bridges log in to its broker): venue.toml,
    Mosquitto's password and ACL files, a mosquitto.conf using them."""
    if not topics.NAME.match(name):
        raise VenueError(f"--name: {name!r} is not a venue name: 1 to 32 lower-case letters, digits, - "
                         "or _.")
    if venue_file(folder).exists():
        raise VenueError(f"{venue_file(folder)}: this folder already holds a venue; add tables to it with "
                         "companion venue add-table, or pick another --dir")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "broker-data").mkdir(exist_ok=True)
    venue = {"name": name, "broker": broker, "port": port, "tables": [], "venues": [],
             "kind": LEAGUE_KIND if league else "venue", "password": add_user(folder / "passwd", DASHBOARD)}
    _write_venue(folder, venue)
    write_durably(folder / "mosquitto.conf", broker_conf(folder, port))
    return venue


def broker_conf(folder: Path, port: int, listen: str = "") -> str:
    """The venue's mosquitto.conf, on the folder's password, ACL and persistence files."""
    return (f"# The venue's broker: mosquitto -c {folder / 'mosquitto.conf'}\n"
            f"listener {port}{' ' + listen if listen else ''}\nallow_anonymous false\n"
            f"password_file {folder / 'passwd'}\nacl_file {folder / 'acl'}\n"
            # A login is its client id: no table takes over another's (or the dashboard's) session.
            "use_username_as_clientid true\n"
            # A bigger packet disconnects its sender before anyone gets it.
            f"max_packet_size {PACKET_LIMIT}\n"
            f"persistence true\npersistence_location {folder / 'broker-data'}/\n"
            # Saved every AUTOSAVE seconds, not only at a clean exit: a crash keeps the tables' snapshots.
            f"autosave_interval {AUTOSAVE}\nautosave_on_changes false\n"
            "max_queued_messages 100000\n"
            # Last: a bridge's lines in it belong to its `connection`.
            + (f"include_dir {folder / BRIDGES}\n" if (folder / BRIDGES).is_dir() else ""))


def add_table(folder: Path, name: str) -> Path:
    """Give table `name` its broker login and topics; returns the [venue] file its config uses. The broker
    reads the new files at its next start, or at once on SIGHUP."""
    venue = read_venue(folder)
    if venue["kind"] == LEAGUE_KIND:
        raise VenueError(f"{venue_file(folder)}: this folder holds a league: tables belong to a venue. Add "
                         "the venue to the league (companion venue add-venue NAME), the table to the venue.")
    _check_name("table name", name)
    password = add_user(folder / "passwd", name)
    venue["tables"] = sorted({*venue["tables"], name})
    _write_venue(folder, venue)
    (folder / "tables").mkdir(exist_ok=True)
    section = folder / "tables" / f"{name}.toml"
    league = f'league = {json.dumps(venue["league"])}\n' if venue["league"] else ""
    write_durably(section, f'[venue]\nname = {json.dumps(venue["name"])}\ntable = {json.dumps(name)}\n'
                  f'broker = {json.dumps(venue["broker"])}\nport = {venue["port"]}\n'
                  f'password = {json.dumps(password)}\n{league}', mode=SECRET)
    return section


def _check_name(what: str, name: str) -> None:
    if not topics.NAME.match(name) or name == DASHBOARD:
        raise VenueError(f"{what} {name!r}: use 1 to 32 lower-case letters, digits, - or _ "
                         f"(not {DASHBOARD!r}).")


def add_venue(folder: Path, name: str) -> Path:
    """Give venue `name` its login at the league's broker (it writes its own tables' topics only, and reads
    their acknowledgements); returns the bridge file for the venue's mosquitto.conf (join-league)."""
    if not venue_file(folder).is_file():
        raise VenueError(f"{venue_file(folder)}: no league here. Make one first: companion venue init "
                         f"--name NAME --league --dir {folder}")
    league = read_venue(folder)
    if league["kind"] != LEAGUE_KIND:
        raise VenueError(f"{venue_file(folder)}: this folder holds a venue, not a league. Make the league's "
                         "folder with companion venue init --name NAME --league --dir LEAGUE_DIR")
    _check_name("venue name", name)
    password = add_user(folder / "passwd", name)
    league["venues"] = sorted({*league["venues"], name})
    _write_venue(folder, league)
    (folder / "venues").mkdir(exist_ok=True)
    stanza = folder / "venues" / f"{name}.conf"
    write_durably(stanza, bridge(league, name, password), mode=SECRET)
    return stanza


def join_league(folder: Path, stanza: Path) -> tuple[str, bool]:
    """Bridge venue `folder` to the league whose add-venue wrote `stanza`: the stanza is kept in the folder's
    bridges/, venue.toml and every table's [venue] file name the league (its tables then wait for the
    league's acknowledgements too). Returns (the league's name, whether mosquitto.conf was rewritten: only
    one this version wrote and nobody edited)."""
    venue = read_venue(folder)
    if venue["kind"] == LEAGUE_KIND:
        raise VenueError(f"{venue_file(folder)}: this folder holds a league; join-league is for a venue's")
    try:
        text = stanza.read_text(encoding="utf-8")
    except OSError as exc:
        raise VenueError(f"{stanza}: cannot be read ({exc.strerror or exc}); give the file companion venue "
                         "add-venue wrote in the league's folder (venues/NAME.conf)") from None
    settings = dict(line.split(" ", 1) for line in text.splitlines() if " " in line and line[0] != "#")
    league, user = settings.get("connection", "").strip(), settings.get("remote_username", "").strip()
    if not topics.NAME.match(league) or not user:
        raise VenueError(f"{stanza}: not a bridge file companion venue add-venue wrote (no connection or "
                         "remote_username); give the league's venues/NAME.conf")
    if user != venue["name"]:
        raise VenueError(f"{stanza}: this bridge is venue {user!r}'s, and this folder is venue "
                         f"{venue['name']!r}'s. Ask the league for venue {venue['name']!r}'s file (companion "
                         f"venue add-venue {venue['name']} --dir LEAGUE_DIR)")
    conf = folder / "mosquitto.conf"
    untouched = conf.is_file() and conf.read_text() in {broker_conf(folder, venue["port"]),
                                                        broker_conf(folder.resolve(), venue["port"])}
    (folder / BRIDGES).mkdir(exist_ok=True)
    write_durably(folder / BRIDGES / "league.conf", text, mode=SECRET)
    venue["league"] = league
    _write_venue(folder, venue)
    for section in sorted((folder / "tables").glob("*.toml")):
        lines = [line for line in section.read_text().splitlines() if not line.startswith("league =")]
        write_durably(section, "\n".join([*lines, f"league = {json.dumps(league)}"]) + "\n", mode=SECRET)
    if untouched:
        write_durably(conf, broker_conf(folder, venue["port"]))
    return league, untouched
