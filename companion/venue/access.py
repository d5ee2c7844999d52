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
        return {"name": str(data["name"]), "broker": str(data["broker"]), "port": int(data["port"]),
                "password": str(data["password"]), "tables": [str(t) for t in data.get("tables", [])]}
    except (tomllib.TOMLDecodeError, KeyError, ValueError, TypeError) as exc:
        raise VenueError(f"{path}: cannot be read ({exc}); make the venue again with companion venue "
                         "init") from exc


def _write_venue(folder: Path, venue: dict) -> None:
    tables = ", ".join(json.dumps(t) for t in venue["tables"])
    write_durably(venue_file(folder),
                  f'name = {json.dumps(venue["name"])}\nbroker = {json.dumps(venue["broker"])}\n'
                  f'port = {venue["port"]}\npassword = {json.dumps(venue["password"])}\n'
                  f'tables = [{tables}]\n', mode=SECRET)
    write_durably(folder / "acl", acl(venue["name"], venue["tables"]))


def init_venue(folder: Path, name: str, broker: str = "127.0.0.1", port: int = 1883) -> dict:
    """A new venue folder: venue.toml, Mosquitto's password and ACL files, a mosquitto.conf using them."""
    if not topics.NAME.match(name):
        raise VenueError(f"--name: {name!r} is not a venue name: 1 to 32 lower-case letters, digits, - "
                         "or _.")
    if venue_file(folder).exists():
        raise VenueError(f"{venue_file(folder)}: this folder already holds a venue; add tables to it with "
                         "companion venue add-table, or pick another --dir")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "broker-data").mkdir(exist_ok=True)
    venue = {"name": name, "broker": broker, "port": port, "tables": [],
             "password": add_user(folder / "passwd", DASHBOARD)}
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
            "max_queued_messages 100000\n")


def add_table(folder: Path, name: str) -> Path:
    """Give table `name` its broker login and topics; returns the [venue] file its config uses. The broker
    reads the new files at its next start, or at once on SIGHUP."""
    venue = read_venue(folder)
    if not topics.NAME.match(name) or name == DASHBOARD:
        raise VenueError(f"table name {name!r}: use 1 to 32 lower-case letters, digits, - or _ "
                         f"(not {DASHBOARD!r}).")
    password = add_user(folder / "passwd", name)
    venue["tables"] = sorted({*venue["tables"], name})
    _write_venue(folder, venue)
    (folder / "tables").mkdir(exist_ok=True)
    section = folder / "tables" / f"{name}.toml"
    write_durably(section, f'[venue]\nname = {json.dumps(venue["name"])}\ntable = {json.dumps(name)}\n'
                  f'broker = {json.dumps(venue["broker"])}\nport = {venue["port"]}\n'
                  f'password = {json.dumps(password)}\n', mode=SECRET)
    return section
