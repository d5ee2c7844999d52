"""The venue's MQTT topics: each table writes under its own name only, the dashboard answers under it."""

from __future__ import annotations

import re

ROOT = "companion"
MESSAGE_LIMIT = 256 * 1024  # bytes of one message a table sends: a snapshot of the busiest game fits
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")  # no MQTT wildcard or level separator can hide in it
# The largest message a table sends and the dashboard takes (the broker's limit too): a public update is a
# few kB; a table sends a bigger one as a stand-in the dashboard sets aside, so its stream goes on.
MESSAGE_LIMIT = 256 * 1024
# A table says it is alive at idle: its retained status again every HEARTBEAT seconds (its sender's own
# thread), and the dashboard flags a table online yet unheard for MISSED_HEARTBEATS of them as silent.
HEARTBEAT = 60.0
MISSED_HEARTBEATS = 3
SILENT_AFTER = MISSED_HEARTBEATS * HEARTBEAT
LEAGUE = "league"  # an acknowledgement's "by" from a league's dashboard (a venue's has none)


def table(venue: str, name: str, leaf: str) -> str:
    """A table's topic: status (retained, its Last Will), snapshot (retained), update, ack."""
    return f"{ROOT}/{venue}/{name}/{leaf}"


def parse(topic: str) -> tuple[str, str, str] | None:
    """(venue, table, leaf) of a table's topic, or None for any other topic."""
    parts = topic.split("/")
    if len(parts) != 4 or parts[0] != ROOT or not NAME.match(parts[1]) or not NAME.match(parts[2]):
        return None
    return parts[1], parts[2], parts[3]
