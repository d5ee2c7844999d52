"""The decks of Crazy Race (section, action and bet cards), read from a replaceable TOML data file."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from typing import Annotated

import msgspec

from companion import tomlfile
from companion.games.spec import IllegalMove

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


def _row(players: int):
    return Annotated[list[Annotated[int, msgspec.Meta(ge=1, le=players)]], msgspec.Meta(min_length=3,
                                                                                         max_length=3)]


class BetCard(msgspec.Struct, forbid_unknown_fields=True):
    """One bet card: the target place in stages 1-3, in the row for 3, 4 and 5 players."""

    three: _row(3)
    four: _row(4)
    five: _row(5)


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
    """The cards a game is dealt from: section lengths, action types, bet rows for this player count."""

    sections: tuple[int, ...]
    actions: tuple[str, ...]
    bets: tuple[tuple[int, int, int], ...]
    reconstructed: bool


def _refuse(detail: str) -> IllegalMove:
    return IllegalMove("The data file is not usable: {detail}", detail=detail)


def load(players: int, text: str | None = None, name: str | None = None) -> Decks:
    """The decks for `players`, from `text` (an uploaded file called `name`) or the bundled file."""
    source = name or "uploaded data file"
    if text is None:
        text, source = files(__package__).joinpath(BUNDLED).read_text(encoding="utf-8"), BUNDLED
    data = tomlfile.decode(text, DataFile, source, _refuse)
    sections = tuple(n for n in range(MAX_LENGTH + 1) for _ in range(getattr(data.sections, f"l{n}")))
    actions = tuple(kind for kind in ACTIONS for _ in range(getattr(data.actions, kind)))
    need = MAX_PLAYERS * HAND
    if len(sections) < need:
        raise _refuse(f"{source}: key 'sections': {len(sections)} cards, fewer than the {need} a deal of "
                      f"{HAND} to {MAX_PLAYERS} players needs. Add cards.")
    if len(actions) < need:
        raise _refuse(f"{source}: key 'actions': {len(actions)} cards, fewer than the {need} a deal of "
                      f"{HAND} to {MAX_PLAYERS} players needs. Add cards.")
    if len(data.bets) < MAX_PLAYERS:
        raise _refuse(f"{source}: key 'bets': {len(data.bets)} cards, fewer than one for each of "
                      f"{MAX_PLAYERS} players. Add cards.")
    row = ROWS[players]
    bets = tuple(tuple(getattr(card, row)) for card in data.bets)
    return Decks(sections, actions, bets, data.reconstructed)
