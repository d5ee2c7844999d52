"""A table's [venue] settings: which venue, which broker, under which name and login (no MQTT import)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from companion.venue.topics import NAME


class VenueConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """[venue]: the venue this table publishes to (docs/venue.md). Without it, nothing leaves the table."""

    name: str  # the venue: lower-case letters, digits, - and _
    table: str  # this table's name at the venue (and its login at the broker)
    broker: str = ""  # the broker's host name or address: required (no guess is right at a venue)
    port: Annotated[int, msgspec.Meta(ge=1, le=65535)] = 1883
    password: str = ""  # the table's broker password (companion venue add-table prints it)
    tls: bool = False  # the broker offers TLS (usually port 8883)
    ca_file: str = ""  # the broker's CA certificate, if the system does not trust it already
    # The most messages kept for the venue while it is unreachable; past it, moves are refused.
    outbox_limit: Annotated[int, msgspec.Meta(ge=100)] = 20_000
    # The league the venue is bridged to (companion venue join-league): a message is kept until both the
    # venue's dashboard and the league's have acknowledged it. Empty: no league.
    league: str = ""

    def broker_login(self):
        from companion.venue.link import Broker

        return Broker(self.broker, self.port, self.table, self.password, self.tls, self.ca_file)


def venue_problem(venue: VenueConfig) -> str | None:
    """What is wrong with `venue`, as "key 'venue.x': reason and fix", or None."""
    for key in ("name", "table"):
        value = getattr(venue, key)
        if not NAME.match(value):
            return (f"key 'venue.{key}': {value!r} is not a name the venue can use: 1 to 32 lower-case "
                    "letters, digits, - or _, starting with a letter or digit.")
    if venue.league and not NAME.match(venue.league):
        return (f"key 'venue.league': {venue.league!r} is not a league's name: 1 to 32 lower-case letters, "
                "digits, - or _ (companion venue add-table writes it once the venue joined a league).")
    if not venue.broker.strip():
        return ("key 'venue.broker': missing or empty. Give the broker's host name or address as this table "
                "reaches it, e.g. broker = \"192.168.1.10\" (companion venue add-table writes it).")
    return None


class _Section(msgspec.Struct, forbid_unknown_fields=True):
    venue: VenueConfig


def read_section(path) -> VenueConfig:
    """The [venue] of a file `companion venue add-table` wrote (`companion demo --venue FILE`)."""
    from companion import tomlfile
    from companion.tomlfile import ConfigError

    data = tomlfile.read(path, ConfigError, "Write it with: companion venue add-table NAME --dir VENUE_DIR")
    venue = tomlfile.decode(data, _Section, str(path), ConfigError).venue
    if (wrong := venue_problem(venue)) is not None:
        raise ConfigError(f"{path}: {wrong}")
    return venue
