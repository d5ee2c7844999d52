"""Rules of Crazy Race (Schacht): secret bids beside a stage card's sides, evaluation, locos, points."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated

import msgspec

from companion.gamekit import N_, IllegalMove, Move, allowed_moves, put
from companion.games.schacht import commands
from companion.games.schacht.data import MODELS, Deck
from companion.games.schacht.track import FINISH, Travel, travel

ROUNDS = 3
VARIANTS = ("shuffled_piles", "end_penalty", "steal_second_home", "next_lower_wins", "fewer_points")


class SchachtOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Setup options: players, the rulebook's variants (all off by default), and a replacement data file."""

    players: Annotated[int, msgspec.Meta(ge=3, le=4, title=N_("Players"))] = 3
    shuffled_piles: Annotated[bool, msgspec.Meta(
        title=N_("Variant: shuffled points piles, only the top card shown"))] = False
    end_penalty: Annotated[bool, msgspec.Meta(
        title=N_("Variant: the rearmost locomotives' players lose points cards at the end"))] = False
    steal_second_home: Annotated[bool, msgspec.Meta(
        title=N_("Variant: a 2nd locomotive home takes a random points card from another player"))] = False
    next_lower_wins: Annotated[bool, msgspec.Meta(
        title=N_("Variant: a tie for most points goes to the next-lower score"))] = False
    fewer_points: Annotated[bool, msgspec.Meta(
        title=N_("Variant: the lowest points cards are left out of each pile"))] = False


@dataclass(frozen=True)
class Placement:
    """One face-down driver card beside a side, in the order placed."""

    seat: int
    value: int


@dataclass(frozen=True)
class Points:
    """A points card a seat got: from the turntable or finish pile, or taken from another seat."""

    seat: int
    pile: str  # "turntable", "finish" or "stolen"
    value: int | None  # None: the pile was empty
    source: int | None = None  # the seat robbed, for "stolen"


@dataclass(frozen=True)
class Outcome:
    """One evaluated side: every seat's revealed cards, the winner and what moved."""

    side: int
    cards: tuple[tuple[int, ...], ...]
    winner: int | None = None
    steps: int = 0
    travels: tuple[Travel, ...] = ()
    points: tuple[Points, ...] = ()
    lost: bool = False
    pending: bool = False  # the winner still chooses the loco (free side) or the split ("?")


@dataclass(frozen=True)
class Final:
    """The end: each seat's points, the penalty cards discarded (variant), and the winners."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    penalties: tuple[tuple[int, int], ...] = ()  # (seat, points card discarded)
    early: bool = False


@dataclass(frozen=True)
class State:
    players: int
    variants: frozenset[str]
    deck: Deck
    order: tuple[int, ...]  # the stage cards in the order the shuffle dealt them
    first: int
    hands: tuple[tuple[int, ...], ...]
    lanes: tuple[tuple[int, ...], ...]  # per seat, the progress of locos A, B, C (see track.py)
    turntable: tuple[int, ...]
    finish: tuple[int, ...]
    stage: int = 0
    phase: str = "bid"  # bid, decide, takeback, review, over
    round: int = 1
    turn: int = 0  # how many seats have had their turn this round
    bids: tuple[tuple[Placement, ...], ...] = ((), (), (), ())
    discards: tuple[tuple[int, ...], ...] = ()
    recalled: tuple[bool, ...] = ()
    points: tuple[tuple[int, ...], ...] = ()
    outcomes: tuple[Outcome, ...] = ()
    moved: frozenset[int] = frozenset()
    takeback: tuple[int, ...] = ()
    final: Final | None = None

    @property
    def card(self):
        return self.deck.stages[self.order[self.stage]]


def setup(opts: SchachtOptions, draws, data) -> State:
    deck = data["stages"]
    variants = frozenset(v for v in VARIANTS if getattr(opts, v))
    turntable, finish = deck.turntable, deck.finish
    if "fewer_points" in variants:
        keep = lambda pile: pile[:max(0, len(pile) - deck.fewer_points_drop)]  # noqa: E731
        turntable, finish = keep(turntable), keep(finish)
    if "shuffled_piles" in variants:
        turntable, finish = tuple(draws.shuffled(turntable)), tuple(draws.shuffled(finish))
    n = opts.players
    order = tuple(draws.shuffled(range(len(deck.stages))))
    state = State(
        players=n, variants=variants, deck=deck, order=order, first=draws.below(n),
        hands=(deck.drivers,) * n, lanes=((0, 0, 0),) * n, turntable=turntable, finish=finish,
        discards=((),) * n, recalled=(False,) * n, points=((),) * n,
    )
    return _settle(state)


# --- who acts ----------------------------------------------------------------------------------------
def actor(state: State) -> int | None:
    """The seat that must act now, for whom a command from the table (seat None) is made."""
    if state.phase == "bid":
        return (state.first + state.turn) % state.players
    if state.phase == "decide":
        return state.outcomes[-1].winner
    if state.phase == "takeback":
        return state.takeback[0]
    return None


def open_sides(state: State) -> list[int]:
    """Sides a card may go beside now. With 3 players, once 3 sides hold cards the 4th is taboo."""
    used = [side for side in range(4) if state.bids[side]]
    if state.players == 3 and len(used) >= 3:
        return used
    return list(range(4))


def taboo(state: State) -> int | None:
    """The side that takes no cards this stage (3 players, once the other three hold cards)."""
    if state.players != 3:
        return None
    free = [side for side in range(4) if not state.bids[side]]
    return free[0] if len(free) == 1 else None


def can_recall(state: State, seat: int) -> bool:
    return state.phase != "over" and not state.recalled[seat] and bool(state.discards[seat])


def acting(state: State) -> int:
    """The seat that must act, in a phase where one must (bidding, deciding, taking back)."""
    seat = actor(state)
    if seat is None:
        raise ValueError(f"nobody acts in phase {state.phase}")
    return seat


def won_by(outcome: Outcome) -> int:
    """The winner of a side that someone won: only such a side moves locos."""
    if outcome.winner is None:
        raise ValueError(f"side {outcome.side} has no winner")
    return outcome.winner


def has_nothing_to_do(state: State, seat: int) -> bool:
    """A seat with no card in hand and no recall left can only pass: its turn passes by itself."""
    return not state.hands[seat] and not can_recall(state, seat)


def legal(state: State, seat: int | None) -> list[str]:
    """The command kinds `seat` (None: the table) may send now."""
    return allowed_moves(MOVES, state, seat, over)


def over(state: State) -> bool:
    return state.phase == "over"


# When each move is allowed, and what its sender is told when it is not: from public facts only.
def _acts(state: State, seat: int | None, phase: str) -> bool:
    """Whether it is `phase` and `seat` (None: the table, for it) is the seat that must act."""
    return state.phase == phase and (seat is None or seat == actor(state))


def _seated(state: State, seat: int | None) -> bool:
    return seat is None or 0 <= seat < state.players


def _may_place(state: State, seat: int | None):
    if _seated(state, seat) and _acts(state, seat, "bid") and state.hands[acting(state)]:
        return True
    if state.phase == "bid":  # a hand played out, but for the recall
        return N_("You have no driver card of that value in hand: choose one you hold.")
    return N_("Driver cards are placed only while bidding: wait for the next stage card.")


def _may_pass(state: State, seat: int | None):
    return _seated(state, seat) and _acts(state, seat, "bid") or N_(
        "Driver cards are placed only while bidding: wait for the next stage card.")


def _may_move(state: State, seat: int | None):
    return _seated(state, seat) and _acts(state, seat, "decide") or N_(
        "No side is waiting for its winner to choose a move now.")


def _may_take_back(state: State, seat: int | None):
    return _seated(state, seat) and _acts(state, seat, "takeback") or N_(
        "No card can be taken back now: only after a stage, by a player who moved no loco.")


def _may_turn_up(state: State, seat: int | None):
    return _seated(state, seat) and state.phase == "review" or N_(
        "The stage is not over yet: finish it before turning the next stage card.")


def _may_recall(state: State, seat: int | None):
    """Once a game, any seat takes its discards back (the table, for the seat that must act)."""
    if not _seated(state, seat):
        return False
    who = actor(state) if seat is None else seat
    if who is None:
        return N_("Nobody is to play now: recall from your own phone.")
    if can_recall(state, who):
        return True
    if state.recalled[who]:
        return N_("You have already taken your discards back once: that is allowed once per game.")
    return N_("You have no discarded cards yet: recall them later, once you have some.")


# --- apply -------------------------------------------------------------------------------------------
def _place_command(state: State, seat: int, args, draws):
    return _place(state, seat, args.side, args.value, draws)


def _pass(state: State, seat: int, args, draws):
    state, events = _next_turn(state, draws)
    return state, [{"type": "passed", "seat": seat}, *events]


def _move_command(state: State, seat: int, args, draws):
    return _decide(state, seat, args.moves, draws)


def _take_back_command(state: State, seat: int, args, draws):
    return _take_back(state, seat, args.value)


def _recall_command(state: State, seat: int, args, draws):
    return _recall(state, seat)


def _next(state: State, seat: int | None, args, draws):
    return _next_stage(state, draws)


def _place(state: State, who: int, side: int, value: int, draws) -> tuple[State, list[dict]]:
    if value not in state.hands[who]:
        # No value in the message: a refusal from the device reaches the public pages.
        raise IllegalMove("You have no driver card of that value in hand: choose one you hold.")
    if side not in open_sides(state):
        raise IllegalMove("That side is taboo with 3 players: cards already lie beside three other sides. "
                          "Place yours beside one of those.")
    hand = list(state.hands[who])
    hand.remove(value)
    bids = put(state.bids, side, (*state.bids[side], Placement(who, value)))
    state = replace(state, bids=bids, hands=put(state.hands, who, tuple(hand)))
    state, events = _next_turn(state, draws)
    return state, [{"type": "placed", "seat": who, "side": side}, *events]


def _next_turn(state: State, draws) -> tuple[State, list[dict]]:
    turn, rnd = state.turn + 1, state.round
    if turn == state.players:
        turn, rnd = 0, rnd + 1
    state = replace(state, turn=turn, round=rnd)
    if rnd > ROUNDS:
        return _evaluate(replace(state, round=ROUNDS, turn=0, phase="decide"), draws)
    state = _settle(state)
    if state.round > ROUNDS:
        return _evaluate(replace(state, round=ROUNDS, turn=0, phase="decide"), draws)
    return state, []


def _settle(state: State) -> State:
    """Pass the turn of every seat that can do nothing, up to the first that can (or past round 3)."""
    while state.round <= ROUNDS and has_nothing_to_do(state, acting(state)):
        turn, rnd = state.turn + 1, state.round
        if turn == state.players:
            turn, rnd = 0, rnd + 1
        state = replace(state, turn=turn, round=rnd)
    return state


def _recall(state: State, who: int) -> tuple[State, list[dict]]:
    hand = tuple(sorted(state.hands[who] + state.discards[who]))
    state = replace(state, hands=put(state.hands, who, hand),
                    discards=put(state.discards, who, ()), recalled=put(state.recalled, who, True),
                    takeback=tuple(s for s in state.takeback if s != who))
    if state.phase == "takeback" and not state.takeback:
        state = _after_stage(state)
    return state, [{"type": "recalled", "seat": who}]


# --- evaluation --------------------------------------------------------------------------------------
def _evaluate(state: State, draws) -> tuple[State, list[dict]]:
    """Evaluate the sides from the arrow's, clockwise, until one needs its winner's choice or all are done."""
    events: list[dict] = []
    card = state.card
    while len(state.outcomes) < 4:
        side = card.order()[len(state.outcomes)]
        placed = state.bids[side]
        cards = tuple(tuple(p.value for p in placed if p.seat == s) for s in range(state.players))
        if not placed:
            state = replace(state, outcomes=(*state.outcomes, Outcome(side, cards)))
            continue
        firsts: dict[int, int] = {}
        for i, p in enumerate(placed):
            firsts.setdefault(p.seat, i)
        # Highest total wins; on a tie, whoever placed the first card on this side.
        winner = max(firsts, key=lambda s: (sum(cards[s]), -firsts[s]))
        shown = card.sides[side]
        steps = shown.distance if shown.distance is not None else len(placed)
        outcome = Outcome(side, cards, winner, steps)
        lane = state.lanes[winner]
        if shown.loco:
            loco = MODELS.index(shown.loco)
            if lane[loco] == FINISH:
                state = replace(state, outcomes=(*state.outcomes, replace(outcome, lost=True)))
                events.append({"type": "lost", "seat": winner, "side": side})
                continue
            state, outcome = _move(state, outcome, [(loco, steps)], draws)
        else:
            running = [i for i, p in enumerate(lane) if p != FINISH]
            if not running:
                state = replace(state, outcomes=(*state.outcomes, replace(outcome, lost=True)))
                events.append({"type": "lost", "seat": winner, "side": side})
                continue
            if len(running) > 1:
                pending = replace(outcome, pending=True)
                return replace(state, phase="decide", outcomes=(*state.outcomes, pending)), [
                    *events, {"type": "choose", "seat": winner, "side": side}]
            state, outcome = _move(state, outcome, [(running[0], steps)], draws)
        state = replace(state, outcomes=(*state.outcomes, outcome))
        events.append({"type": "moved", "seat": winner, "side": side})
    return _end_stage(state), events


def _decide(state: State, who: int, moves, draws) -> tuple[State, list[dict]]:
    outcome = state.outcomes[-1]
    lane = state.lanes[who]
    locos = [MODELS.index(m.loco) for m in moves]
    if len(set(locos)) != len(locos):
        raise IllegalMove("Name each loco at most once in a move.")
    if any(lane[i] == FINISH for i in locos):
        raise IllegalMove("That loco has already finished: choose one still on the track.")
    total = sum(m.steps for m in moves)
    if state.card.sides[outcome.side].distance is not None:
        if len(moves) != 1 or total != outcome.steps:
            raise IllegalMove("Move one loco of your choice by {steps} spaces.", steps=outcome.steps)
    elif total != outcome.steps:
        raise IllegalMove("Share exactly {steps} spaces among your locos (you gave {given}).",
                          steps=outcome.steps, given=total)
    state, outcome = _move(state, replace(outcome, pending=False), [(i, m.steps) for i, m in zip(locos, moves,
                                                                                         strict=True)], draws)
    state = replace(state, phase="decide", outcomes=(*state.outcomes[:-1], outcome))
    state, events = _evaluate(state, draws)
    return state, [{"type": "moved", "seat": who, "side": outcome.side}, *events]


def _move(state: State, outcome: Outcome, moves: list[tuple[int, int]], draws) -> tuple[State, Outcome]:
    """Move the winner's locos in turn, taking the points cards they reach."""
    seat = won_by(outcome)
    travels, points = [], []
    for loco, steps in moves:
        trip = travel(state.lanes[seat], loco, steps)
        state = replace(state, lanes=put(state.lanes, seat, put(state.lanes[seat], loco, trip.end)))
        travels.append(trip)
        if trip.turned:
            state, got = _take(state, seat, "turntable")
            points.append(got)
        if trip.finished:
            state, got = _finish_card(state, seat, draws)
            points.append(got)
    if travels:
        state = replace(state, moved=state.moved | {seat})
    return state, replace(outcome, travels=(*outcome.travels, *travels), points=(*outcome.points, *points))


def _take(state: State, seat: int, pile: str) -> tuple[State, Points]:
    """The top card of a points pile (the highest, unless the piles are shuffled); nothing if it is empty."""
    cards = getattr(state, pile)
    if not cards:
        return state, Points(seat, pile, None)
    won = (*state.points[seat], cards[0])
    state = replace(state, **{pile: cards[1:]}, points=put(state.points, seat, won))
    return state, Points(seat, pile, cards[0])


def _finish_card(state: State, seat: int, draws) -> tuple[State, Points]:
    home = sum(1 for p in state.lanes[seat] if p == FINISH)
    owned = [(s, i) for s in range(state.players) if s != seat for i in range(len(state.points[s]))]
    if "steal_second_home" not in state.variants or home != 2 or not owned:
        return _take(state, seat, "finish")
    robbed, index = owned[draws.below(len(owned))]
    value = state.points[robbed][index]
    rest = state.points[robbed][:index] + state.points[robbed][index + 1:]
    points = put(put(state.points, robbed, rest), seat, (*state.points[seat], value))
    return replace(state, points=points), Points(seat, "stolen", value, robbed)


# --- after the stage ---------------------------------------------------------------------------------
def played(state: State, seat: int) -> tuple[int, ...]:
    return tuple(p.value for side in state.bids for p in side if p.seat == seat)


def _end_stage(state: State) -> State:
    """Played cards go to the discards; who moved no loco may first take one of them back."""
    order = [(state.first + k) % state.players for k in range(state.players)]
    discards = tuple(tuple(sorted(state.discards[s] + played(state, s))) for s in range(state.players))
    state = replace(state, discards=discards)
    if played_out(state):  # the rulebook: the stage in progress is still evaluated, then the game ends
        return _after_stage(state)
    waiting = tuple(s for s in order if played(state, s) and s not in state.moved)
    state = replace(state, takeback=waiting, phase="takeback")
    return state if waiting else _after_stage(state)


def played_out(state: State) -> bool:
    """Every seat has recalled its discards once and played its whole hand out again: the early end."""
    return all(state.recalled) and not any(state.hands)


def _take_back(state: State, who: int, value: int | None) -> tuple[State, list[dict]]:
    if value is not None:
        if value not in played(state, who):
            raise IllegalMove("You did not play a {value} this stage: take back one of the cards you played.",
                              value=value)
        discard = list(state.discards[who])
        discard.remove(value)
        state = replace(state, discards=put(state.discards, who, tuple(discard)),
                        hands=put(state.hands, who, tuple(sorted((*state.hands[who], value)))))
    state = replace(state, takeback=state.takeback[1:])
    if not state.takeback:
        state = _after_stage(state)
    return state, [{"type": "took_back" if value is not None else "kept_none", "seat": who}]


def _after_stage(state: State) -> State:
    last = state.stage + 1 >= len(state.order)
    early = played_out(state)
    if last or early:
        return replace(state, phase="over", takeback=(), final=final_result(state, early and not last))
    return replace(state, phase="review", takeback=())


def _next_stage(state: State, draws) -> tuple[State, list[dict]]:
    state = replace(state, stage=state.stage + 1, first=(state.first + 1) % state.players, phase="bid",
                    round=1, turn=0, bids=((),) * 4, outcomes=(), moved=frozenset())
    events = [{"type": "stage", "stage": state.stage + 1}]
    state = _settle(state)
    if state.round > ROUNDS:  # nobody can play a card this stage: it is evaluated (empty) at once
        state, more = _evaluate(replace(state, round=ROUNDS, turn=0, phase="decide"), draws)
        events += more
    return state, events


def rearmost(state: State, seat: int) -> int:
    """How far a seat's rearmost loco has come (its route's progress; 12 when all are home)."""
    return min(state.lanes[seat])


def final_result(state: State, early: bool = False) -> Final:
    points = [list(p) for p in state.points]
    penalties = []
    if "end_penalty" in state.variants:
        # Seats ranked by their rearmost loco still on the track; everyone tied shares a rank's penalty.
        racing = [s for s in range(state.players) if rearmost(state, s) < FINISH]
        ranks = sorted({rearmost(state, s) for s in racing})
        for rank, pick in zip(ranks[:2], (max, min), strict=False):
            for s in racing:
                if rearmost(state, s) == rank and points[s]:
                    card = pick(points[s])
                    points[s].remove(card)
                    penalties.append((s, card))
    scores = tuple(sum(p) for p in points)
    top = max(scores)
    best = [s for s in range(state.players) if scores[s] == top]
    if "next_lower_wins" in state.variants and len(best) > 1:
        lower = [v for v in scores if v < top]
        if lower:
            best = [s for s in range(state.players) if scores[s] == max(lower)]
    if len(best) > 1:
        far = max(rearmost(state, s) for s in best)
        best = [s for s in best if rearmost(state, s) == far]
    return Final(scores, tuple(best), tuple(penalties), early)


# A side's cards turned up, a stage card shown: undoing one would let a player bid, move or take back
# again knowing what it showed.
TURNED_UP = frozenset({"moved", "lost", "choose"})  # the bidding's last card or pass starts the evaluation
MOVES = {
    "place": Move(commands.Place, _place_command, line=N_("{who} placed a card face down"),
                  allowed=_may_place, reveals=TURNED_UP),
    "pass": Move(commands.Nothing, _pass, line=N_("{who} passed"), allowed=_may_pass, reveals=TURNED_UP),
    "move": Move(commands.Move, _move_command, line=N_("{who} moved locomotives"), allowed=_may_move,
                 reveals=TURNED_UP),
    "take_back": Move(commands.TakeBack, _take_back_command, line=N_("{who} settled their take-back"),
                      allowed=_may_take_back),
    "next": Move(commands.Nothing, _next, line=N_("The next stage is revealed"), allowed=_may_turn_up,
                 reveals=TURNED_UP | {"stage"}),
    "recall": Move(commands.Nothing, _recall_command, line=N_("{who} recalled their discards"),
                   allowed=_may_recall),
}
