"""Who sits where: seat names, seat and host tokens, and the join code, kept in the store's meta table.

Not part of the game record: an undo must not unseat a player, and a new game keeps the table's
players. Only the table's writer thread changes it (see Table.seating).
"""

from __future__ import annotations

import secrets

from companion.games.spec import IllegalMove
from companion.store import Store

JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread on the e-ink
JOIN_LENGTH = 4
NAME_LENGTH = 24


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

    # --- reading (any thread) ---------------------------------------------------------------
    def name(self, seat: int) -> str:
        return self.store.get_meta(f"seat_name:{seat}") or ""

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
        self.store.set_meta(f"seat_name:{seat}", clean_name(name))
        return self.token(seat)

    def assign(self, seat: int, name: object, count: int) -> str:
        """The host gives a seat to a player: a new token, so any older link to the seat stops working."""
        self._check_seat(seat, count)
        self.store.set_meta(f"seat_name:{seat}", clean_name(name))
        return self.reissue(seat)

    def free(self, seat: int, count: int) -> None:
        self._check_seat(seat, count)
        self.store.set_meta(f"seat_name:{seat}", "")
        self.reissue(seat)

    def reissue(self, seat: int) -> str:
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

    def _check_seat(self, seat: object, count: int) -> None:
        if type(seat) is not int or not 0 <= seat < count:
            raise IllegalMove("This game has seats 1 to {count}: choose one of them.", count=count)

    def _kept(self, key: str, make) -> str:
        # Web threads ask at once on first start: a get-then-set would hand out a token that a
        # second caller then overwrites, so the first link would stop working.
        return self.store.get_meta(key) or self.store.meta_default(key, make())
