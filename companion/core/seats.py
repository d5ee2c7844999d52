"""Who sits where: seat names and tokens, the host token, the join code, the language, phones' seats.

The seats phones have held in the running game play from phones only until it ends (Roster.phones).

Kept in the store's meta table.

Not part of the game record: an undo must not unseat a player, and a new game keeps the table's
players. Only the table's writer thread changes it (see Table.seating).
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Callable

from companion.core import lookalike
from companion.gamekit.contract import MAX_SEATS, IllegalMove
from companion.i18n import LANGUAGES, N_
from companion.storage.store import Store

JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread on the e-ink
JOIN_LENGTH = 4
NAME_LENGTH = 24


# Refusals naming a seat by its index (`seat`): the pages say it as they show it (its place, its colour).
SEAT_TAKEN = N_("{seat} is taken: choose a free seat, or ask the host to free it.")
NAME_LIKE_ANOTHER = N_("This name looks like {name}'s ({seat}): choose another one.")
NAME_SHORT_LIKE_ANOTHER = N_("Shortened on the table's screen, this name reads {short}, as {name}'s ({seat}) "
                             "does: choose one that differs in its first or last letters.")
TABLE_FULL = N_("The table is full: every seat is taken. Ask the host to free one for you.")
SEAT_NAMED = frozenset({SEAT_TAKEN, NAME_LIKE_ANOTHER, NAME_SHORT_LIKE_ANOTHER})
JOIN_KEY_OLD = N_("This QR code is no longer the table's (a long press on D made a new one): scan the one on "
                  "the device's screen, or type the code under it.")


def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_LENGTH))


def new_join_key() -> str:
    """The join QR code's secret: 128 bits, so a scan never needs the guessing budget typed codes have."""
    return secrets.token_urlsafe(16)


FREED, RELINKED = "freed", "relinked"  # how the host took a seat's link back: the seat freed, or a new link
RETIRED_KEPT = 64  # retired links remembered: a few per seat, so a phone asleep meanwhile is still told why

PHONE_SEATS = "phone_seats"  # meta key: the seats phones have held in the running game, "0,2"


def _seat_set(text: str | None) -> frozenset[int]:
    return frozenset(int(seat) for seat in (text or "").split(",") if seat.isdigit())


def clean_name(name: object) -> str:
    """A seat name as shown everywhere: NFC, one line, trimmed, at most NAME_LENGTH characters.

    Characters drawn as nothing or as a blank are refused (a right-to-left override, a zero-width
    space, a Hangul filler, a variation selector after a letter, a braille blank), and so are those
    nothing draws (U+FFFC, private use, unassigned): "Ada" followed by one would read "Ada", and a name
    of them reads as nothing. So are more than MAX_MARKS combining
    marks on one letter, which smear over the next line. Accents and emoji stay.
    """
    if not isinstance(name, str):
        raise IllegalMove("Give a name for the seat.")
    text = " ".join(unicodedata.normalize("NFC", name).split())
    if not text:
        raise IllegalMove("Give a name for the seat.")
    for i, char in enumerate(text):
        if lookalike.undrawable(char):
            raise IllegalMove("A name cannot hold characters the table's screen does not draw (here "
                              "U+{code}): type it again without them.", code=f"{ord(char):04X}")
        if lookalike.invisible(text, i):
            raise IllegalMove("A name cannot hold invisible, blank or control characters (here U+{code}): "
                              "type it again without them.", code=f"{ord(char):04X}")
    if lookalike.most_marks(text) > lookalike.MAX_MARKS:
        raise IllegalMove("A name has at most {n} accents or marks on one letter: type it again with "
                          "fewer.", n=lookalike.MAX_MARKS)
    if len(text) > NAME_LENGTH:
        raise IllegalMove("A name has at most {n} characters.", n=NAME_LENGTH)
    return text


class Roster:
    """Seat names and capability tokens, the host token and the join code."""

    def __init__(self, store: Store):
        self.store = store
        # Names are read at every update; only the writer thread changes them, through _set_name.
        self._names = {seat: store.get_meta(f"seat_name:{seat}") or "" for seat in range(MAX_SEATS)}
        # Read at every request and every seat page's update (is the link still the seat's?): kept here,
        # changed only through reissue, like the names.
        self._tokens = {seat: store.get_meta(f"seat_token:{seat}") for seat in range(MAX_SEATS)}
        # What a seat no one named shows instead (its colour, in each language); the table sets it.
        self.unnamed: Callable[[int], tuple[str, ...]] = lambda seat: ()
        self._held = _seat_set(store.get_meta(PHONE_SEATS))
        # The links the host took back since the table started, and how (FREED or RELINKED): a page still
        # open with one is told why it lost its seat. Kept in memory only: after a restart it is not known.
        self._retired: dict[str, str] = {}
        # Made before any thread runs, so no read ever has to write (a full disk fails here, at start).
        self._kept("host_token", new_token)
        # Read at every update (the glass and the host page show it): kept here, changed only through
        # reissue_host, on the writer thread, which may be inside a store transaction when it reads it.
        self._join_code = self._kept("join_code", new_join_code)
        self._join_key = self._kept("join_key", new_join_key)  # changes with the code, read as often

    # --- reading (any thread) ---------------------------------------------------------------
    def name(self, seat: int) -> str:
        return self._names.get(seat, "")

    def phones(self) -> frozenset[int]:
        """The seats that play from phones in the running game: held by a phone now, or at any time since
        the game began. Freeing a seat hands its secrets to nobody: the host and the buttons stay off it
        until the game ends."""
        return self._held | {seat for seat, name in self._names.items() if name}

    def _set_name(self, seat: int, name: str) -> None:
        if name:
            self._check_unlike_others(seat, name)
        if name and seat not in self._held:  # kept first: a seat is never named without being kept
            self._keep_phones(self._held | {seat})
        self.store.set_meta(f"seat_name:{seat}", name)
        self._names = {**self._names, seat: name}

    def game_began(self) -> None:
        """A new game: only the seats phones hold now play from phones (a seat freed before is free).

        Called once the new game is recorded: a crash in between keeps the last game's seats, more of
        them, never fewer."""
        self._keep_phones(frozenset(seat for seat, name in self._names.items() if name))

    def _keep_phones(self, seats: frozenset[int]) -> None:
        self.store.set_meta(PHONE_SEATS, ",".join(str(seat) for seat in sorted(seats)))
        self._held = frozenset(seats)

    def token(self, seat: int) -> str | None:
        """The private link token of a seat, once the seat has been taken or given; None before."""
        return self._tokens.get(seat)

    def seat_for_token(self, token: str, count: int) -> int | None:
        given = token.encode("utf-8", "replace")
        found = None
        for seat in range(count):  # every seat compared, found or not: the time tells nothing
            known = self.token(seat)
            if known is not None and secrets.compare_digest(known.encode(), given):
                found = seat
        return found

    def retired(self, token: str) -> str | None:
        """How the host took `token` back (FREED or RELINKED), if it was a seat's link since the start."""
        return self._retired.get(token)

    def host_token(self) -> str:
        return self.store.get_meta("host_token") or ""

    def host_claimed(self) -> bool:
        return self.store.get_meta("host_claimed") == "1"

    def join_code(self) -> str:
        return self._join_code

    def join_key(self) -> str:
        """The secret the join QR code carries beside the code; as secret as the code (glass, host)."""
        return self._join_key

    def language(self, default: str) -> str:
        """The e-ink's language: the host's choice, else the config's."""
        chosen = self.store.get_meta("language")
        return chosen if chosen in LANGUAGES else default

    def check_code(self, code: object, key: object = "") -> None:
        """A typed code, or a scanned QR code's key (which then stands for the code), else IllegalMove."""
        if key:
            given = str(key).encode("utf-8", "replace")
            if not secrets.compare_digest(given, self.join_key().encode()):
                raise IllegalMove(JOIN_KEY_OLD)
            return
        given = str(code or "").strip().upper().encode("utf-8", "replace")
        if not secrets.compare_digest(given, self.join_code().encode()):
            raise IllegalMove("This join code is not the table's: read the code under the QR code on the "
                              "device's screen.")

    # --- changing (the table's writer thread only) -------------------------------------------
    def claim(self, seat: int, name: object, count: int) -> str:
        """A phone takes a free seat; returns its token."""
        self._check_seat(seat, count)
        if all(self.name(other) for other in range(count)):
            raise IllegalMove(TABLE_FULL)  # not "this seat is taken": no other seat is free either
        if self.name(seat):
            raise IllegalMove(SEAT_TAKEN, seat=seat)
        self._set_name(seat, clean_name(name))
        return self.token(seat) or self.reissue(seat, count)

    def assign(self, seat: int, name: object, count: int) -> str:
        """The host gives a seat to a player: a new token, so any older link to the seat stops working."""
        self._check_seat(seat, count)
        self._set_name(seat, clean_name(name))
        return self.reissue(seat, count)

    def free(self, seat: int, count: int) -> None:
        self._check_seat(seat, count)
        self._set_name(seat, "")
        self.reissue(seat, count, FREED)

    def reissue(self, seat: int, count: int, why: str = RELINKED) -> str:
        """A new token for a seat: its old link stops working (`why` is what its page is told)."""
        self._check_seat(seat, count)
        old = self._tokens.get(seat)
        if old is not None:
            retired = {**self._retired, old: why}
            self._retired = dict(list(retired.items())[-RETIRED_KEPT:])
        token = new_token()
        self.store.set_meta(f"seat_token:{seat}", token)
        self._tokens = {**self._tokens, seat: token}
        return token

    def claim_host(self, code: object, key: object = "") -> str:
        """The first phone to ask (with the join code, or the QR code's key) becomes the host."""
        self.check_code(code, key)
        if self.host_claimed():
            raise IllegalMove("The table already has a host. A long press on D on the device makes a new "
                              "host link.")
        self.store.set_meta("host_claimed", "1")
        return self.host_token()

    def host_used(self, token: str) -> None:
        """The host link was opened: the table has its host, so no phone can claim a second one."""
        if token and token == self.host_token():  # not a link a long press on D has just replaced
            self.store.set_meta("host_claimed", "1")

    def reissue_host(self) -> None:
        """A long press on the device: the old host link and join code stop working; the next phone
        to claim becomes the host."""
        self.store.set_meta("host_token", new_token())
        self.store.set_meta("host_claimed", "0")
        code, key = new_join_code(), new_join_key()
        self.store.set_meta("join_code", code)
        self.store.set_meta("join_key", key)
        self._join_code, self._join_key = code, key

    def set_language(self, lang: object) -> None:
        if lang not in LANGUAGES:
            raise IllegalMove("Choose a language among {languages}.", languages=", ".join(LANGUAGES))
        self.store.set_meta("language", str(lang))

    def _check_unlike_others(self, seat: int, name: str) -> None:
        """Refuse a name that looks like another seat's: the e-ink and the phones would show two alike.
        So is one that the glass, cutting long names to their first and last letters, would show as it
        shows another seat's ("Christopher Robinson" and "Christophor Robinson" both read "Chris…son")."""
        from companion.render.layout import short_name  # the glass's own cut (PIL: not at import)

        mine, cut = lookalike.key(name), short_name(name)
        mine_short = lookalike.key(cut)
        for other in range(MAX_SEATS):
            if other == seat:
                continue
            taken = self._names.get(other, "")
            for shown in (taken,) if taken else self.unnamed(other):
                if lookalike.key(shown) == mine:
                    raise IllegalMove(NAME_LIKE_ANOTHER, name=shown, seat=other)
                if lookalike.key(short_name(shown)) == mine_short:
                    raise IllegalMove(NAME_SHORT_LIKE_ANOTHER, short=cut, name=shown, seat=other)

    def _check_seat(self, seat: object, count: int) -> None:
        if type(seat) is not int or not 0 <= seat < count:
            raise IllegalMove("The table has seats 1 to {count}: choose one of them.", count=count)

    def _kept(self, key: str, make) -> str:
        # Two processes may open one store at once (a restart overlapping the old one): one value wins.
        return self.store.get_meta(key) or self.store.meta_default(key, make())
