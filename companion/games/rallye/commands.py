"""The command schema of Le rallye hasardeux: each command's args as a closed msgspec Struct."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from companion.games.rallye.deck import PASSAGE_CARDS, PLAIN_CARDS

MAX_POSITION = PLAIN_CARDS + PASSAGE_CARDS  # the start line is 0, the circuit's cards 1 to 46 at most
MAX_SEAT = 5

Position = Annotated[int, msgspec.Meta(ge=0, le=MAX_POSITION,
                                       description="a circuit position: 0 the start line, then 1, 2, ...")]
Seat = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEAT, description="a seat, 0-5")]
Surprise = Literal["passage_access", "protection", "key", "tacks", "oil_roll", "oil_5", "shield_tacks",
                   "shield_oil", "swap", "lock"]
Canceller = Literal["protection", "shield_oil", "shield_tacks"]
Hazard = Literal["tacks", "oil_roll", "oil_5"]


class Args(msgspec.Struct, forbid_unknown_fields=True):
    """Base of every command's args."""


class Roll(Args):
    """The player whose turn it is rolls and moves (or sits out a turn held by tacks)."""


class PlacePassage(Args):
    """Setup: name the route card the next passage card replaces (none: the device names one at random)."""

    card: Position | None = None


class Choose(Args):
    """Name the player an effect strikes: who moves back (one_back) or who swaps with you (swap_any)."""

    seat: Seat


class Exit(Args):
    """Come out of the passage at this open exit."""

    card: Position


class Stay(Args):
    """Next to an entrance with an access card: do not take the passage, stay on this card."""


class Cancel(Args):
    """The player asked discards this card to cancel the threat (a backward move, oil or tacks)."""

    card: Canceller


class Decline(Args):
    """No cancel: the threat strikes. The victim's answer, or the table's once the window is over."""


class Close(Args):
    """The table closes the answer window of several victims: no for every one still asked."""


class Discard(Args):
    """Over 3 surprise cards: discard one (none named: the newest, the table's default)."""

    card: Surprise | None = None


class Key(Args):
    """Lay a key on a locked passage; the last padlock's key opens it."""

    passage: Position


class Lock(Args):
    """Lock an open passage again (at least one exit stays open)."""

    passage: Position


class Access(Args):
    """Lay a passage access card on an open entrance: its neighbours lead into the passage too."""

    passage: Position


class SwapCards(Args):
    """Swap two cards of the circuit (route cards or passages, not the start line); both are turned over."""

    first: Position
    second: Position


class Lay(Args):
    """Lay tacks or oil on a card of the circuit."""

    card: Hazard
    at: Position
