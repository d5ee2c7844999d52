"""The race board: 5 lanes x 3 stages x 5 sections of 4 squares, section cards, and pawn movement."""

from __future__ import annotations

from companion.games.gewalt.commands import LANES, SECTIONS, STAGES

SQUARES = 4  # a section's length when no card lies on it
NO_CARD = -1
FINISHED = (STAGES, 0, 0)  # a pawn past the last line of the last stage
START = (0, 0, 0)

Position = tuple[int, int, int]  # (stage, section, square)


def slot_index(lane: int, stage: int, section: int) -> int:
    """Where a section's card is kept in the flat tuple of every slot."""
    return (lane * STAGES + stage) * SECTIONS + section


def empty_cards() -> tuple[int, ...]:
    return (NO_CARD,) * (LANES * STAGES * SECTIONS)


def length(cards: tuple[int, ...], lane: int, stage: int, section: int) -> int:
    """How many squares a section has: its card's, else the board's 4."""
    card = cards[slot_index(lane, stage, section)]
    return SQUARES if card == NO_CARD else card


def has_pawn(pawns: tuple[Position, ...], lane: int, stage: int, section: int) -> bool:
    """Whether a racing pawn stands on that section (pawn i runs in lane i; lanes beyond are empty)."""
    return lane < len(pawns) and pawns[lane] != FINISHED and pawns[lane][:2] == (stage, section)


def is_free(cards, pawns, lane: int, stage: int, section: int) -> bool:
    """A section a card may go on: no pawn and no card on it."""
    return cards[slot_index(lane, stage, section)] == NO_CARD and not has_pawn(pawns, lane, stage, section)


def step(cards, lane: int, position: Position) -> tuple[Position, list[int]]:
    """One point of movement: the next square, and the stages whose finish line it crossed.

    A section of length 0 has no square, so the step goes through it (and through a stage line
    behind it) at no cost.
    """
    stage, section, square = position
    if square + 1 < length(cards, lane, stage, section):
        return (stage, section, square + 1), []
    crossed = []
    while True:
        section += 1
        if section == SECTIONS:
            crossed.append(stage)
            stage, section = stage + 1, 0
            if stage == STAGES:
                return FINISHED, crossed
        if length(cards, lane, stage, section) > 0:
            return (stage, section, 0), crossed


def move(cards, lane: int, position: Position, points: int) -> tuple[Position, list[int]]:
    """`points` steps forward (fewer if the pawn finishes first), with every stage line crossed."""
    crossed: list[int] = []
    for _ in range(points):
        if position == FINISHED:
            break
        position, lines = step(cards, lane, position)
        crossed += lines
    return position, crossed
