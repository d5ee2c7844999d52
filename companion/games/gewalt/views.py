"""What Crazy Race shows: the public race (no bet, no hand before the end) and each seat's secrets."""

from __future__ import annotations

import msgspec

from companion.gamekit import Result
from companion.games.gewalt import board
from companion.games.gewalt.commands import LANES, SECTIONS, STAGES
from companion.games.gewalt.rules import LETTERS, State, actor, final_scores, legal, over, targets
from companion.games.gewalt.scoring import winners


class Pawn(msgspec.Struct):
    finished: bool
    stage: int | None
    section: int | None
    square: int | None


class PlacedCard(msgspec.Struct):
    lane: int
    stage: int
    section: int
    length: int


class Pending(msgspec.Struct):
    """An attack card just played, waiting for its target to counter it or let it stand."""

    attacker: int
    target: int
    card: str


class HandSizes(msgspec.Struct):
    sections: int
    actions: int


class DeckSizes(msgspec.Struct):
    sections: int
    sections_discard: int
    actions: int
    actions_discard: int


class Used(msgspec.Struct):
    section: bool
    action: bool


class LastRoll(msgspec.Struct):
    seat: int
    dice: list[int]
    effect: str | None  # the attack card that changed it
    points: int


class ScoreRow(msgspec.Struct):
    seat: int
    targets: list[int]
    places: list[int]
    kept: list[bool]
    marks: list[list[int]]
    total: int


class GewaltPublic(msgspec.Struct):
    players: int
    letters: str  # each player's letter, that of their lane
    lanes: str  # every lane's letter, A to E, as the board prints them (a card goes on any lane)
    expert: bool
    reconstructed: bool
    moves: int
    over: bool
    turn: int | None
    actor: int | None  # who must act now: the target of a pending attack, else the turn's player
    extra: bool
    pawns: list[Pawn]
    lengths: list[list[list[int]]]  # [lane][stage][section] squares
    cards: list[PlacedCard]
    trophies: list[list[int]]  # per stage, the seats in crossing order
    front: list[str | None]  # the attack card in front of each seat
    pending: Pending | None
    countered: Pending | None  # the attack card countered this turn: its attacker, target and card
    counters: list[list[int]]
    hands: list[HandSizes]
    decks: DeckSizes
    used: Used
    legal: list[str]
    last_roll: LastRoll | None
    scores: list[ScoreRow] | None  # the bets are revealed only at the end
    winners: list[int]


class GewaltPrivate(msgspec.Struct):
    seat: int
    letter: str
    bet: list[int]
    sections: list[int]
    actions: list[str]
    owed: int
    legal: list[str]
    targets: list[int] = []  # the players this seat may attack now, as the rules' `attack` reads them


def _pawn(position: board.Position) -> Pawn:
    if position == board.FINISHED:
        return Pawn(True, None, None, None)
    return Pawn(False, *position)


def public_view(state: State) -> GewaltPublic:
    rows = final_scores(state) if over(state) else None
    roll = state.last_roll
    return GewaltPublic(
        players=state.players,
        letters=LETTERS[:state.players],
        lanes=LETTERS[:LANES],
        expert=state.expert,
        reconstructed=state.reconstructed,
        moves=state.moves,
        over=over(state),
        turn=state.turn,
        actor=actor(state),
        extra=state.extra,
        pawns=[_pawn(p) for p in state.pawns],
        lengths=[[[board.length(state.cards, lane, stage, section) for section in range(SECTIONS)]
                  for stage in range(STAGES)] for lane in range(LANES)],
        cards=[PlacedCard(lane, stage, section, state.cards[board.slot_index(lane, stage, section)])
               for lane in range(LANES) for stage in range(STAGES) for section in range(SECTIONS)
               if state.cards[board.slot_index(lane, stage, section)] != board.NO_CARD],
        trophies=[list(order) for order in state.trophies],
        front=list(state.front),
        pending=None if state.pending is None else Pending(*state.pending),
        countered=None if state.countered is None else Pending(*state.countered),
        counters=[list(row) for row in state.counters],
        hands=[HandSizes(len(s), len(a)) for s, a in zip(state.sections, state.actions, strict=True)],
        decks=DeckSizes(len(state.section_deck.pile), len(state.section_deck.discard),
                        len(state.action_deck.pile), len(state.action_deck.discard)),
        used=Used(state.used_section, state.used_action),
        legal=legal(state, None),
        last_roll=None if roll is None else LastRoll(roll[0], list(roll[1]), roll[2], roll[3]),
        scores=None if rows is None else [msgspec.convert(row, ScoreRow) for row in rows],
        winners=winners(rows) if rows is not None else [],
    )


def private_view(state: State, seat: int) -> GewaltPrivate:
    return GewaltPrivate(seat, LETTERS[seat], list(state.bets[seat]), sorted(state.sections[seat]),
                         sorted(state.actions[seat]), state.owed[seat], legal(state, seat),
                         [] if over(state) else targets(state, seat))


def result(view: dict) -> Result:
    """The winners and each seat's total, from the score sheets revealed at the end."""
    totals = {row["seat"]: row["total"] for row in view["scores"] or ()}
    return Result(tuple(view["winners"]), tuple(totals[s] for s in sorted(totals)) or None)
