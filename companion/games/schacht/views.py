"""What Crazy Race shows: the public view (e-ink, LEDs, every phone) and each seat's private view."""

from __future__ import annotations

import msgspec

from companion.gamekit import Result
from companion.games.schacht.data import ANY, MODELS
from companion.games.schacht.rules import (
    ROUNDS,
    State,
    actor,
    can_recall,
    legal,
    open_sides,
    played,
    taboo,
    won_by,
)
from companion.games.schacht.track import FINISH, facing_home, space


class CardSide(msgspec.Struct):
    loco: str  # "A", "B", "C", or "" for the free side
    distance: int | str  # 1-4, or "?" (as many spaces as cards lie beside it)


class StageCard(msgspec.Struct):
    arrow: int  # the side evaluated first (0 top, clockwise)
    order: list[int]  # the sides in evaluation order
    sides: list[CardSide]


class LocoMove(msgspec.Struct):
    loco: str
    steps: int
    start: int = msgspec.field(name="from")
    end: int = msgspec.field(name="to")
    turned: bool
    finished: bool


class PointsTaken(msgspec.Struct):
    seat: int
    pile: str  # turntable, finish or stolen
    value: int | None  # None: the pile was empty
    source: int | None = msgspec.field(name="from")  # the seat robbed, for "stolen"


class Revealed(msgspec.Struct):
    """One evaluated side: every seat's revealed cards, the winner and what moved."""

    side: int
    cards: list[list[int]]
    totals: list[int]
    winner: int | None
    steps: int
    lost: bool
    pending: bool
    moves: list[LocoMove]
    points: list[PointsTaken]


class Deciding(msgspec.Struct):
    """A side whose winner still chooses which loco moves, or how to share a "?"."""

    seat: int
    side: int
    steps: int
    split: bool
    locos: list[str]


class TakeBackOffer(msgspec.Struct):
    seat: int
    cards: list[int]


class Loco(msgspec.Struct):
    loco: str
    progress: int  # 0 start zone, 1-11 on the route, 12 home (see track.py)
    space: int | None
    home: bool  # facing home
    finished: bool


class Pile(msgspec.Struct):
    top: int | None
    left: int
    cards: list[int]  # empty when the piles are shuffled (only the top is shown)


class Piles(msgspec.Struct):
    turntable: Pile
    finish: Pile


class FinalScores(msgspec.Struct):
    scores: list[int]
    winners: list[int]
    penalties: list[list[int]]  # [seat, points card discarded]
    early: bool


class SchachtPublic(msgspec.Struct):
    """Everything the table sees. Face-down cards appear as their owners only, never their values,
    until their side is evaluated; hand sizes stay hidden (a seat only says when it has none)."""

    players: int
    phase: str  # bid, decide, takeback, review, over
    stage: int
    stages: int
    round: int
    rounds: int
    turn: int | None
    first: int
    card: StageCard
    bids: list[list[int]]  # per side, the seats of its face-down cards in the order placed
    open: list[int]
    taboo: int | None
    revealed: list[Revealed]
    deciding: Deciding | None
    takeback: list[TakeBackOffer]
    lanes: list[list[Loco]]
    points: list[int]
    points_cards: list[list[int]]
    piles: Piles
    out: list[bool]
    recalled: list[bool]
    values: list[int]  # the driver values a hand may hold
    variants: list[str]
    reconstructed: list[str]
    final: FinalScores | None


class Decide(msgspec.Struct):
    side: int
    steps: int
    split: bool
    locos: list[str]


class SchachtPrivate(msgspec.Struct):
    """One seat's own secrets and choices."""

    seat: int
    hand: list[int]
    discards: list[int]
    recalled: bool
    can_recall: bool
    sides: list[list[int]]  # this seat's own cards beside each side this stage
    placements: list[int]
    my_turn: bool
    decide: Decide | None
    take_back: list[int]
    legal: list[str]


def public_view(state: State) -> SchachtPublic:
    card = state.card
    pending = next((o for o in state.outcomes if o.pending), None)
    return SchachtPublic(
        players=state.players,
        phase=state.phase,
        stage=state.stage + 1,
        stages=len(state.order),
        round=state.round,
        rounds=ROUNDS,
        turn=actor(state),
        first=state.first,
        card=StageCard(card.arrow, list(card.order()),
                       [CardSide(s.loco, ANY if s.distance is None else s.distance) for s in card.sides]),
        bids=[[p.seat for p in side] for side in state.bids],
        open=open_sides(state) if state.phase == "bid" else [],
        taboo=taboo(state),
        revealed=[_outcome(o) for o in state.outcomes],
        deciding=None if pending is None else Deciding(
            won_by(pending), pending.side, pending.steps, card.sides[pending.side].distance is None,
            [MODELS[i] for i, p in enumerate(state.lanes[won_by(pending)]) if p != FINISH]),
        takeback=[TakeBackOffer(s, sorted(set(played(state, s)))) for s in state.takeback],
        lanes=[[_loco(MODELS[i], p) for i, p in enumerate(lane)] for lane in state.lanes],
        points=[sum(p) for p in state.points],
        points_cards=[list(p) for p in state.points],
        piles=Piles(*(Pile(pile[0] if pile else None, len(pile),
                           [] if "shuffled_piles" in state.variants else list(pile))
                      for pile in (state.turntable, state.finish))),
        out=[not hand for hand in state.hands],
        recalled=list(state.recalled),
        values=sorted(set(state.deck.drivers)),
        variants=sorted(state.variants),
        reconstructed=list(state.deck.reconstructed),
        final=None if state.final is None else FinalScores(
            list(state.final.scores), list(state.final.winners), [list(p) for p in state.final.penalties],
            state.final.early),
    )


def private_view(state: State, seat: int) -> SchachtPrivate:
    pending = next((o for o in state.outcomes if o.pending), None)
    mine = actor(state) == seat
    return SchachtPrivate(
        seat=seat,
        hand=list(state.hands[seat]),
        discards=list(state.discards[seat]),
        recalled=state.recalled[seat],
        can_recall=can_recall(state, seat),
        sides=[[p.value for p in side if p.seat == seat] for side in state.bids],
        placements=open_sides(state) if state.phase == "bid" and mine and state.hands[seat] else [],
        my_turn=mine,
        decide=None if pending is None or pending.winner != seat else Decide(
            pending.side, pending.steps, state.card.sides[pending.side].distance is None,
            [MODELS[i] for i, p in enumerate(state.lanes[seat]) if p != FINISH]),
        take_back=sorted(set(played(state, seat))) if state.phase == "takeback" and mine else [],
        legal=legal(state, seat),
    )


def _loco(model: str, progress: int) -> Loco:
    return Loco(model, progress, space(progress), facing_home(progress), progress == FINISH)


def _outcome(o) -> Revealed:
    return Revealed(
        o.side, [list(c) for c in o.cards], [sum(c) for c in o.cards], o.winner, o.steps, o.lost, o.pending,
        [LocoMove(MODELS[t.loco], t.steps, t.start, t.end, t.turned, t.finished) for t in o.travels],
        [PointsTaken(p.seat, p.pile, p.value, p.source) for p in o.points],
    )


def result(view: dict) -> Result:
    """The winners and each seat's points, from the final scoring."""
    final = view["final"] or {"winners": [], "scores": None}
    return Result(tuple(final["winners"]), None if final["scores"] is None else tuple(final["scores"]))
