"""Link authority: whether a seat's or the host's link still holds, compared in constant time."""

from __future__ import annotations

import secrets

from companion.core.seats import FREED, MAX_SEATS, RELINKED, Roster
from companion.gamekit.contract import IllegalMove
from companion.i18n import N_

HOST_LINK_GONE = N_("This host link is no longer valid: a long press on D on the device made a new one. "
                     "Open the new host link, or ask the host.")
SEAT_LINK_GONE = N_("This seat link is no longer valid: the host has just freed the seat or given it a new "
                     "link. Ask the host for your seat's link.")

# What a seat's page says when the host took its link back, by how (Roster.retired); the last when unknown.
SEAT_GONE = {
    FREED: N_("The host freed your seat. Join the table again to take a free seat."),
    RELINKED: N_("The host gave your seat a new link: ask them for it."),
    None: N_("No seat has this link: ask the host for your seat's link, or scan the QR code on the table."),
}


def same(known: str | None, given: str) -> bool:
    """Whether `given` is the link `known` (None: there is none), in time that tells nothing."""
    return known is not None and secrets.compare_digest(known.encode(), given.encode("utf-8", "replace"))


class Links:
    """Reads the roster's links: every check of a seat's or the host's link goes through here."""

    def __init__(self, roster: Roster):
        self.roster = roster

    def host_holds(self, token: str | None) -> bool:
        """Whether a host command's link is still the host's (a long press on D may have come first); None
        is the table's own command line."""
        return token is None or same(self.roster.host_token(), token)

    def seat_holds(self, seat: int | None, token: str) -> bool:
        """Whether `token` is still `seat`'s link."""
        return type(seat) is int and same(self.roster.token(seat), token)

    def seat_refused(self, seat: int | None, token: str) -> IllegalMove | None:
        """Why a command sent with `token` for `seat` may not apply, or None if the link still holds."""
        return None if self.seat_holds(seat, token) else IllegalMove(SEAT_LINK_GONE)

    def seat_gone(self, token: str) -> str | None:
        """How the host took back `token`, a seat's link once (FREED, RELINKED), or None if not known."""
        return self.roster.retired(token)

    def seat_of(self, token: str) -> int | None:
        """The seat whose link `token` is, if any."""
        return self.roster.seat_for_token(token, MAX_SEATS)
