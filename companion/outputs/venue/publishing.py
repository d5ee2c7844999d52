"""A table's side of a venue: the outbox hooked into the table's commits, and its sender thread."""

from __future__ import annotations

import msgspec

from companion.core.table import Table
from companion.outputs.public import public_payload
from companion.outputs.venue.outbox import Outbox, writer
from companion.outputs.venue.sender import Sender
from companion.storage.store import Store
from companion.venue.settings import VenueConfig

# The language of the title in a message: the dashboard names games in each reader's language itself.
MESSAGE_LANGUAGE = "en"


def scoreboard_view(update) -> dict:
    """Exactly what the public scoreboard is sent for `update`, and a finished game's result read from that
    same public view (the game's own `result`, as its record keeps it): nothing else leaves the table."""
    view = public_payload(update, MESSAGE_LANGUAGE)
    if view["over"]:
        view["result"] = msgspec.to_builtins(update.spec.result(update.public))
    return view


class Publishing:
    """Made before the table starts, so its first command already writes to the outbox."""

    def __init__(self, store: Store, table: Table, venue: VenueConfig):
        self.outbox = Outbox(store.path)
        table.outbox = writer(scoreboard_view, venue.outbox_limit)
        self.sender = Sender(self.outbox, venue.broker_login(), venue.name, venue.table)
        table.subscribe(self.sender.wake)

    def start(self) -> Publishing:
        self.sender.start()
        return self

    def stop(self) -> None:
        self.sender.stop()
        self.outbox.close()
