"""What the rally shows: the public table (face-down cards as backs) and each seat's own hand."""

from __future__ import annotations

import msgspec

from companion.gamekit import Result
from companion.games.rallye import surprises
from companion.games.rallye.layout import placer
from companion.games.rallye.rules import actor, legal, may_play_cards
from companion.games.rallye.state import (
    CANCELS,
    State,
    hazard_at,
    kind_at,
    passage_at,
    trimming,
)


class CardView(msgspec.Struct):
    """One position of the circuit: a route card's face only once it is face up."""

    position: int
    kind: str  # start, route, entrance, exit
    face_up: bool
    effect: str | None = None
    surprise: bool | None = None
    padlocks: int = 0
    keys: int = 0
    open: bool = False
    access: bool = False
    hazard: str | None = None  # tacks, oil_roll, oil_5


class PassageView(msgspec.Struct):
    """A passage card waiting in the row beside the circuit."""

    kind: str
    padlocks: int


class PawnView(msgspec.Struct):
    """A player's pawn and lap counter; `cards` is only how many surprise cards it holds."""

    seat: int
    position: int
    lap: int
    finished: bool
    status: str  # "", ford_4, ford_5, reverse, tacks (blocked), caught (held by tacks)
    blocked: int  # turns still sat out on tacks
    cards: int  # how many surprise cards in hand


class PendingView(msgspec.Struct):
    """What the game waits for besides a roll. A cancel question shows which cards would cancel the threat,
    never whether the victim holds one."""

    kind: str  # place, trim, cancel, target, exit
    seat: int
    threat: str = ""
    amount: int = 0
    choices: list[int] = []
    cards: list[str] = []
    optional: bool = False
    seconds: int = 0  # the window before the table answers itself (cancel: no; trim: the newest card;
    # a choice: rules.default_choice)
    asked: list[int] = []  # cancel: every seat the window asks (the victims of one effect together)


class RollView(msgspec.Struct):
    """The last turn's roll (the LED die holds it)."""

    seat: int
    die: int


class DieView(msgspec.Struct):
    """The last die rolled, whatever rolled it (turn, effect, oil, placement): the LED die holds it."""

    seat: int
    face: int
    why: str


class EffectView(msgspec.Struct):
    """The last route effect applied: whose arrival, which card, what it did."""

    seat: int
    position: int
    effect: str
    surprise: bool


class PublicView(msgspec.Struct):
    """Everything the table shows: safe for the e-ink, the LEDs and every phone."""

    phase: str  # placing, race, over
    players: int
    laps: int
    turn: int
    actor: int | None
    circuit: list[CardView]
    row: list[PassageView]
    pawns: list[PawnView]
    pending: PendingView | None
    last_roll: RollView | None
    die: DieView | None
    last_effect: EffectView | None
    ranking: list[int]
    pile: int
    discard: int
    legal: list[str]
    ford_exact: bool
    backward_stop: bool
    reconstructed: bool
    moves: int


class PlayView(msgspec.Struct):
    """A card the seat may play now with `command`, and where (positions; empty: no target needed)."""

    command: str
    card: str
    targets: list[int] = []


class PrivateView(msgspec.Struct):
    """One seat's phone: its hand (oldest first), what it may send, and where each card may go."""

    seat: int
    hand: list[str] = []
    legal: list[str] = []
    plays: list[PlayView] = []


def _card(state: State, position: int) -> CardView:
    kind = kind_at(state, position)
    hazard = hazard_at(state, position) if position else None
    if kind == "route":
        if not state.face_up[position]:
            return CardView(position, kind, False, hazard=hazard)
        face = state.route.plain[state.circuit[position]]
        return CardView(position, kind, True, face.effect, face.surprise, hazard=hazard)
    if kind == "start":
        return CardView(position, kind, True)
    passage = passage_at(state, position)
    return CardView(position, kind, True, padlocks=state.route.passages[passage].padlocks,
                    keys=state.keys[passage], open=state.opened[passage], access=state.access[passage],
                    hazard=hazard)


def _pending(state: State) -> PendingView | None:
    if state.phase == "placing":
        return PendingView("place", placer(state), seconds=state.choice_seconds)
    trim = trimming(state)
    if trim is not None:
        return PendingView("trim", trim, seconds=state.discard_seconds)
    p = state.pending
    if p is None:
        return None
    cards = list(CANCELS[p.threat]) if p.kind == "cancel" else []
    seconds = state.answer_seconds if p.kind == "cancel" else state.choice_seconds if p.kind in (
        "target", "exit") else 0
    asked = list(p.asked()) if p.kind == "cancel" else []
    return PendingView(p.kind, p.seat, p.threat, p.amount, list(p.choices), cards, p.optional, seconds,
                       asked)


def public_view(state: State) -> PublicView:
    pawns = [PawnView(s, state.places[s], state.laps[s], s in state.ranking, state.status[s],
                      state.blocked[s], len(state.hands[s])) for s in range(state.players)]
    return PublicView(
        phase=state.phase, players=state.players, laps=state.laps_to_win, turn=state.turn, actor=actor(state),
        circuit=[_card(state, p) for p in range(len(state.circuit))],
        row=[PassageView(state.route.passages[i].kind, state.route.passages[i].padlocks) for i in state.row],
        pawns=pawns, pending=_pending(state),
        last_roll=RollView(*state.last_roll) if state.last_roll else None,
        die=DieView(*state.last_die) if state.last_die else None,
        last_effect=EffectView(*state.last_effect) if state.last_effect else None,
        ranking=list(state.ranking), pile=len(state.pile), discard=len(state.discard),
        legal=legal(state, None), ford_exact=state.ford_exact, backward_stop=state.backward_stop,
        reconstructed=state.route.reconstructed, moves=state.moves)


def plays(state: State, seat: int) -> list[PlayView]:
    """What `seat` may play from its hand now, with the places each card may go."""
    hand = state.hands[seat]
    out = []
    pending = state.pending
    asked = pending is not None and pending.kind == "cancel" and seat in pending.asked()
    if pending is not None and asked and trimming(state) is None:
        out += [PlayView("cancel", card) for card in CANCELS[pending.threat] if card in hand]
    if trimming(state) == seat:
        out += [PlayView("discard", card) for card in sorted(set(hand))]
    if may_play_cards(state, seat):
        where = {"key": ("key", surprises.key_targets), "lock": ("lock", surprises.lock_targets),
                 "passage_access": ("access", surprises.access_targets),
                 "swap": ("swap_cards", surprises.swap_targets), "tacks": ("lay", surprises.lay_targets),
                 "oil_roll": ("lay", surprises.lay_targets), "oil_5": ("lay", surprises.lay_targets)}
        for card in sorted(set(hand) & set(where)):
            command, targets = where[card]
            found = targets(state)
            if found:
                out.append(PlayView(command, card, found))
    return out


def private_view(state: State, seat: int) -> PrivateView:
    """`seat`'s own hand and plays: for that seat's phone only."""
    if not 0 <= seat < state.players:
        return PrivateView(seat)
    return PrivateView(seat, list(state.hands[seat]), legal(state, seat), plays(state, seat))


def result(view: dict) -> Result:
    """The first to finish wins; each seat's place in the finishing order (None: still on the road)."""
    ranking = view["ranking"]
    return Result(tuple(ranking[:1]), None,
                  tuple(ranking.index(s) + 1 if s in ranking else None for s in range(view["players"])))
