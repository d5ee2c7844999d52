"""The decks of Crazy Race (section, action and bet cards), read from a replaceable TOML data file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import msgspec

from companion.gamekit import IllegalMove, load_toml

BUNDLED = "data.toml"
MAX_LENGTH = 8  # the longest section card
ATTACKS = ("extra_turn", "skip_turn", "no_roll", "double", "no_cards", "move_4", "move_10", "minus_4",
           "plus_4")
SELF_CARDS = ("relocate", "counter")
ACTIONS = ATTACKS + SELF_CARDS
ROWS = {3: "three", 4: "four", 5: "five"}
HAND = 4
MAX_PLAYERS = 5

Count = Annotated[int, msgspec.Meta(ge=0, le=99)]


ROW = msgspec.Meta(min_length=3, max_length=3)  # a bet card's row: the target place in stages 1-3


class BetCard(msgspec.Struct, forbid_unknown_fields=True):
    """One bet card: the target place in stages 1-3, in the row for 3, 4 and 5 players."""

    three: Annotated[list[Annotated[int, msgspec.Meta(ge=1, le=3)]], ROW]
    four: Annotated[list[Annotated[int, msgspec.Meta(ge=1, le=4)]], ROW]
    five: Annotated[list[Annotated[int, msgspec.Meta(ge=1, le=5)]], ROW]


class SectionCounts(msgspec.Struct, forbid_unknown_fields=True,
                    rename={f"l{n}": str(n) for n in range(MAX_LENGTH + 1)}):
    """How many section cards show each length."""

    l0: Count = 0
    l1: Count = 0
    l2: Count = 0
    l3: Count = 0
    l4: Count = 0
    l5: Count = 0
    l6: Count = 0
    l7: Count = 0
    l8: Count = 0


class ActionCounts(msgspec.Struct, forbid_unknown_fields=True):
    """How many action cards of each type (expert game)."""

    extra_turn: Count = 0
    skip_turn: Count = 0
    no_roll: Count = 0
    double: Count = 0
    no_cards: Count = 0
    move_4: Count = 0
    move_10: Count = 0
    minus_4: Count = 0
    plus_4: Count = 0
    relocate: Count = 0
    counter: Count = 0


class DataFile(msgspec.Struct, forbid_unknown_fields=True):
    """The whole file."""

    bets: list[BetCard]
    sections: SectionCounts
    actions: ActionCounts
    reconstructed: bool = False


@dataclass(frozen=True)
class Decks:
    """The cards a game is dealt from: section lengths, action types, and each bet card's rows."""

    sections: tuple[int, ...]
    actions: tuple[str, ...]
    bets: tuple[BetCard, ...]
    reconstructed: bool

    def bet_rows(self, players: int) -> tuple[tuple[int, int, int], ...]:
        """Each bet card's target places for `players` players."""
        return tuple(tuple(getattr(card, ROWS[players])) for card in self.bets)


def load(text: str, name: str) -> Decks:
    """The decks in `text`; IllegalMove names the file `name`, the key and why."""
    data = load_toml(text, DataFile, name)
    sections = tuple(n for n in range(MAX_LENGTH + 1) for _ in range(getattr(data.sections, f"l{n}")))
    actions = tuple(kind for kind in ACTIONS for _ in range(getattr(data.actions, kind)))
    need = MAX_PLAYERS * HAND
    for key, cards in (("sections", sections), ("actions", actions)):
        if len(cards) < need:
            raise IllegalMove("Data file {name}: key '{key}': {count} cards, fewer than the {need} a deal of "
                              "{hand} to {players} players needs. Add cards.", name=name, key=key,
                              count=len(cards), need=need, hand=HAND, players=MAX_PLAYERS)
    if len(data.bets) < MAX_PLAYERS:
        raise IllegalMove("Data file {name}: key 'bets': {count} cards, fewer than one for each of {players} "
                          "players. Add cards.", name=name, count=len(data.bets), players=MAX_PLAYERS)
    return Decks(sections, actions, tuple(data.bets), data.reconstructed)
