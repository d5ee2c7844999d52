"""The route and surprise decks of Le rallye hasardeux: the data files' schemas, loaders and checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import msgspec

from companion.gamekit import IllegalMove, load_toml

EFFECTS = ("none", "others_back", "all_back", "others_back_me_forward", "ford_4", "ford_5", "one_back",
           "swap_last", "swap_first", "swap_any", "reverse")
SURPRISES = ("passage_access", "protection", "key", "tacks", "oil_roll", "oil_5", "shield_tacks",
             "shield_oil", "swap", "lock")
PASSAGE_KINDS = ("entrance", "exit")
PLAIN_CARDS = 40  # the box's 46 route cards less the 6 passages
PASSAGE_CARDS = 6
PER_KIND = 3  # 3 entrances (red), 3 exits (green)
SURPRISE_CARDS = 47
MAX_PADLOCKS = 3

Count = Annotated[int, msgspec.Meta(ge=0, le=SURPRISE_CARDS)]


class PlainGroup(msgspec.Struct, forbid_unknown_fields=True):
    """`count` plain route cards with the same effect and surprise symbol."""

    effect: str
    surprise: bool = False
    count: Annotated[int, msgspec.Meta(ge=1, le=PLAIN_CARDS)] = 1


class PassageFile(msgspec.Struct, forbid_unknown_fields=True):
    """A secret-passage card: its colour's kind and the padlocks on its locked side."""

    kind: str
    padlocks: int


class StartFile(msgspec.Struct, forbid_unknown_fields=True):
    """The start line card."""

    surprise: bool = False


class RouteFile(msgspec.Struct, forbid_unknown_fields=True):
    """route.toml as written."""

    plain: list[PlainGroup]
    passages: list[PassageFile]
    start: StartFile = msgspec.field(default_factory=StartFile)
    reconstructed: bool = False


class SurpriseCounts(msgspec.Struct, forbid_unknown_fields=True):
    """How many surprise cards of each type."""

    passage_access: Count = 0
    protection: Count = 0
    key: Count = 0
    tacks: Count = 0
    oil_roll: Count = 0
    oil_5: Count = 0
    shield_tacks: Count = 0
    shield_oil: Count = 0
    swap: Count = 0
    lock: Count = 0


class SurpriseFile(msgspec.Struct, forbid_unknown_fields=True):
    """surprises.toml as written."""

    cards: SurpriseCounts
    reconstructed: bool = False


@dataclass(frozen=True)
class Plain:
    """One plain route card's face."""

    effect: str
    surprise: bool


@dataclass(frozen=True)
class Passage:
    """One passage card: entrance or exit, and its padlocks."""

    kind: str
    padlocks: int


@dataclass(frozen=True)
class Route:
    """The route deck: card id i < 40 is plain[i], id 40 + j is passages[j]."""

    plain: tuple[Plain, ...]
    passages: tuple[Passage, ...]
    start_surprise: bool
    reconstructed: bool


@dataclass(frozen=True)
class Surprises:
    """The surprise deck: one type name per card."""

    cards: tuple[str, ...]
    reconstructed: bool


def load_route(text: str, name: str) -> Route:
    """route.toml checked: 40 plain cards with known effects, 3 entrances and 3 exits of 1-3 padlocks."""
    data = load_toml(text, RouteFile, name)
    for i, group in enumerate(data.plain):
        if group.effect not in EFFECTS:
            raise IllegalMove("Data file {name}: key '{key}': unknown effect '{effect}': use one of "
                              "{effects}.", name=name, key=f"plain[{i}].effect", effect=group.effect,
                              effects=", ".join(EFFECTS))
    plain = tuple(Plain(g.effect, g.surprise) for g in data.plain for _ in range(g.count))
    if len(plain) != PLAIN_CARDS:
        raise IllegalMove("Data file {name}: key '{key}': {count} plain cards: the deck has {expected}; make "
                          "the counts add up to it.", name=name, key="plain", count=len(plain),
                          expected=PLAIN_CARDS)
    if len(data.passages) != PASSAGE_CARDS:
        raise IllegalMove("Data file {name}: key '{key}': {count} passage cards: the deck has "
                          "{expected}; list each of them.", name=name, key="passages",
                          count=len(data.passages), expected=PASSAGE_CARDS)
    for i, passage in enumerate(data.passages):
        if passage.kind not in PASSAGE_KINDS:
            raise IllegalMove("Data file {name}: key '{key}': unknown kind '{kind}': use entrance or exit.",
                              name=name, key=f"passages[{i}].kind", kind=passage.kind)
        if not 1 <= passage.padlocks <= MAX_PADLOCKS:
            raise IllegalMove("Data file {name}: key '{key}': {count} padlocks: a passage has 1 to {most}.",
                              name=name, key=f"passages[{i}].padlocks", count=passage.padlocks,
                              most=MAX_PADLOCKS)
    for kind in PASSAGE_KINDS:
        count = sum(p.kind == kind for p in data.passages)
        if count != PER_KIND:
            raise IllegalMove("Data file {name}: key '{key}': {count} cards of kind {kind}: the deck has "
                              "{each} entrances and {each} exits.", name=name, key="passages", count=count,
                              kind=kind, each=PER_KIND)
    passages = tuple(Passage(p.kind, p.padlocks) for p in data.passages)
    return Route(plain, passages, data.start.surprise, data.reconstructed)


def load_surprises(text: str, name: str) -> Surprises:
    """surprises.toml checked: 47 cards of the ten known types."""
    data = load_toml(text, SurpriseFile, name)
    cards = tuple(kind for kind in SURPRISES for _ in range(getattr(data.cards, kind)))
    if len(cards) != SURPRISE_CARDS:
        raise IllegalMove("Data file {name}: key '{key}': {count} surprise cards: the deck has "
                          "{expected}; make the counts add up to it.", name=name, key="cards",
                          count=len(cards), expected=SURPRISE_CARDS)
    return Surprises(cards, data.reconstructed)
