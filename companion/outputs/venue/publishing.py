"""A table's side of a venue: the outbox hook the table writes in its commits, and the sender thread."""

from __future__ import annotations

from companion.core.moment import Moment
from companion.core.table import Table
from companion.i18n import plural_translator
from companion.outputs.public import public_payload
from companion.outputs.venue.outbox import Outbox, writer
from companion.outputs.venue.sender import Sender
from companion.storage.store import Store
from companion.venue.settings import VenueConfig

# The language of the title in a message: the dashboard names games in each reader's language itself.
MESSAGE_LANGUAGE = "en"


def scoreboard_view(moment: Moment) -> dict:
    """Exactly what the public scoreboard is sent for `moment`, a finished game's result with it (the game's
    own `result`, read from the public view, as its record keeps it): nothing else leaves the table."""
    return public_payload(moment, MESSAGE_LANGUAGE)


class Publishing:
    """Made before the table, which is given `hook`: its first command already writes to the outbox."""

    def __init__(self, store: Store, venue: VenueConfig):
        self.outbox = Outbox(store.path)
        self.hook = writer(scoreboard_view, venue.outbox_limit, league=bool(venue.league))
        self.sender = Sender(self.outbox, venue.broker_login(), venue.name, venue.table, venue.league)

    def follow(self, table: Table) -> None:
        """Wake the sender after each of `table`'s commits."""
        table.subscribe(self.sender.wake)

    def notice(self, language: str) -> str:
        """The glass's line while the venue's broker is unreachable, in `language`; "" while it is reached."""
        if not self.sender.unreachable():
            return ""
        ngettext = plural_translator(language)
        return ngettext("Venue unreachable: {n} move waiting", "Venue unreachable: {n} moves waiting",
                        self.sender.waiting())

    def start(self) -> Publishing:
        self.sender.start()
        return self

    def stop(self) -> None:
        self.sender.stop()
        self.outbox.close()
