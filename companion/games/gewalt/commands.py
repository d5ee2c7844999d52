"""The command schema of Crazy Race: each command's args as a msgspec Struct (the OpenAPI shows them)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from companion.games.gewalt.data import MAX_LENGTH

LANES, STAGES, SECTIONS = 5, 3, 5

Lane = Annotated[int, msgspec.Meta(ge=0, le=LANES - 1,
                                   description="lane 0-4, lettered A-E on the board (seat i runs in lane i)")]
Stage = Annotated[int, msgspec.Meta(ge=0, le=STAGES - 1, description="stage 0-2 (lilac, blue, red)")]
Section = Annotated[int, msgspec.Meta(ge=0, le=SECTIONS - 1, description="section 0-4 within the stage")]
Length = Annotated[int, msgspec.Meta(ge=0, le=MAX_LENGTH, description="a section card's length, 0-8")]
AttackCard = Literal["extra_turn", "skip_turn", "no_roll", "double", "no_cards", "move_4", "move_10",
                     "minus_4", "plus_4"]
ActionCard = Literal["extra_turn", "skip_turn", "no_roll", "double", "no_cards", "move_4", "move_10",
                     "minus_4", "plus_4", "relocate", "counter"]


class Args(msgspec.Struct, forbid_unknown_fields=True):
    """Base of every command's args."""


class Slot(Args):
    """One section of the board."""

    lane: Lane
    stage: Stage
    section: Section


class Roll(Args):
    """Roll the dice (or apply the attack card in front of you) and move; ends the turn."""


class PlaySection(Args):
    """Place a section card from your hand on a free section (no pawn, no card)."""

    length: Length
    slot: Slot


class DiscardSection(Args):
    """Discard a section card from your hand (instead of placing one)."""

    length: Length


class Attack(Args):
    """Expert: place an attack card from your hand in front of an opponent."""

    card: AttackCard
    target: Annotated[int, msgspec.Meta(ge=0, le=LANES - 1, description="the opponent's seat")]


class Relocate(Args):
    """Expert: play a relocate card: move a placed section card to another free section."""

    source: Slot
    slot: Slot


class DiscardAction(Args):
    """Expert: discard an action card from your hand (instead of playing one)."""

    card: ActionCard


class Counter(Args):
    """Expert: the target of an attack just played cancels it with a counter card."""


class Allow(Args):
    """Expert: the target of an attack just played lets it stand."""
