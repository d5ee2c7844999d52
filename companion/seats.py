"""Who sits where: seat names, seat and host tokens, the join code and the table's language.

Kept in the store's meta table.

Not part of the game record: an undo must not unseat a player, and a new game keeps the table's
players. Only the table's writer thread changes it (see Table.seating).
"""

from __future__ import annotations

import secrets

from companion.games.spec import Colour, IllegalMove
from companion.i18n import LANGUAGES, N_
from companion.store import Store

JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread on the e-ink
JOIN_LENGTH = 4
NAME_LENGTH = 24
MAX_SEATS = 6  # the most any game seats; phones join the table, and each game plays its first seats

# A seat's colour while the running game has none of its own (free dice, or a seat the game leaves out).
TABLE_COLOURS = (
    Colour("red", N_("Red"), "#c62828"),
    Colour("blue", N_("Blue"), "#1565c0"),
    Colour("green", N_("Green"), "#2e7d32"),
    Colour("yellow", N_("Yellow"), "#f9a825"),
    Colour("purple", N_("Purple"), "#6a1b9a"),
    Colour("orange", N_("Orange"), "#ef6c00"),
)


def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_LENGTH))


def clean_name(name: object) -> str:
    """A seat name as shown everywhere: one line, trimmed, at most NAME_LENGTH characters."""
    if not isinstance(name, str):
        raise IllegalMove("Give a name for the seat.")
    text = " ".join(name.split())
    if not text:
        raise IllegalMove("Give a name for the seat.")
    if len(text) > NAME_LENGTH:
        raise IllegalMove("A name has at most {n} characters.", n=NAME_LENGTH)
    return text


class Roster:
    """Seat names and capability tokens, the host token and the join code."""

    def __init__(self, store: Store):
        self.store = store
        # Names are read at every update; only the writer thread changes them, through _set_name.
        self._names = {seat: store.get_meta(f"seat_name:{seat}") or "" for seat in range(MAX_SEATS)}

    # --- reading (any thread) ---------------------------------------------------------------
    def name(self, seat: int) -> str:
        return self._names.get(seat, "")

    def _set_name(self, seat: int, name: str) -> None:
        self.store.set_meta(f"seat_name:{seat}", name)
        self._names = {**self._names, seat: name}

    def token(self, seat: int) -> str:
        """The private link token of a seat; a rejoin with it keeps the seat."""
        return self._kept(f"seat_token:{seat}", new_token)

    def seat_for_token(self, token: str, count: int) -> int | None:
        given = token.encode("utf-8", "replace")
        for seat in range(count):
            if secrets.compare_digest(self.token(seat).encode(), given):
                return seat
        return None

    def host_token(self) -> str:
        return self._kept("host_token", new_token)

    def host_claimed(self) -> bool:
        return self.store.get_meta("host_claimed") == "1"

    def join_code(self) -> str:
        return self._kept("join_code", new_join_code)

    def language(self, default: str) -> str:
        """The e-ink's language: the host's choice, else the config's."""
        chosen = self.store.get_meta("language")
        return chosen if chosen in LANGUAGES else default

    def check_code(self, code: object) -> None:
        given = str(code or "").strip().upper().encode()
        if not secrets.compare_digest(given, self.join_code().encode()):
            raise IllegalMove("This join code is not the table's: read the code under the QR code on the "
                              "device's screen.")

    # --- changing (the table's writer thread only) -------------------------------------------
    def claim(self, seat: int, name: object, count: int) -> str:
        """A phone takes a free seat; returns its token."""
        self._check_seat(seat, count)
        if self.name(seat):
            raise IllegalMove("Seat {n} is taken: choose a free seat, or ask the host to free it.",
                              n=seat + 1)
        self._set_name(seat, clean_name(name))
        return self.token(seat)

    def assign(self, seat: int, name: object, count: int) -> str:
        """The host gives a seat to a player: a new token, so any older link to the seat stops working."""
        self._check_seat(seat, count)
        self._set_name(seat, clean_name(name))
        return self.reissue(seat, count)

    def free(self, seat: int, count: int) -> None:
        self._check_seat(seat, count)
        self._set_name(seat, "")
        self.reissue(seat, count)

    def reissue(self, seat: int, count: int) -> str:
        """A new token for a seat: its old link stops working."""
        self._check_seat(seat, count)
        token = new_token()
        self.store.set_meta(f"seat_token:{seat}", token)
        return token

    def claim_host(self, code: object) -> str:
        """The first phone to ask (with the join code) becomes the host."""
        self.check_code(code)
        if self.host_claimed():
            raise IllegalMove("The table already has a host. A long press on D on the device makes a new "
                              "host link.")
        self.store.set_meta("host_claimed", "1")
        return self.host_token()

    def reissue_host(self) -> None:
        """A long press on the device: the old host link and join code stop working; the next phone
        to claim becomes the host."""
        self.store.set_meta("host_token", new_token())
        self.store.set_meta("host_claimed", "0")
        self.store.set_meta("join_code", new_join_code())

    def set_language(self, lang: object) -> None:
        if lang not in LANGUAGES:
            raise IllegalMove("Choose a language among {languages}.", languages=", ".join(LANGUAGES))
        self.store.set_meta("language", str(lang))

    def _check_seat(self, seat: object, count: int) -> None:
        if type(seat) is not int or not 0 <= seat < count:
            raise IllegalMove("The table has seats 1 to {count}: choose one of them.", count=count)

    def _kept(self, key: str, make) -> str:
        # Web threads ask at once on first start: a get-then-set would hand out a token that a
        # second caller then overwrites, so the first link would stop working.
        return self.store.get_meta(key) or self.store.meta_default(key, make())
