"""Mosquitto's password and ACL files for a venue: each table writes under its own topics only."""

from __future__ import annotations

import secrets
import subprocess
from pathlib import Path

from companion.venue import topics

DASHBOARD = "dashboard"


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
    subprocess.run(["mosquitto_passwd", *create, "-b", str(password_file), user, password], check=True,
                   capture_output=True)
    return password
