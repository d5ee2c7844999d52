"""Duel: a test game that ships no pages, so phones play it on the pages the platform generates.

Each round both seats choose in secret a hand (rock, paper or scissors) and a stake; then either one
reveals. The hand that wins scores its stake (twice if it went all in, which needs a stake of 3); on a
draw each seat wins its points on a draw, which otherwise it loses; a seat that named the round's
winner scores one more. After the last round the higher score wins. Its views and commands use every
kind of field the generated pages build: choices, small and large numbers, a switch, text, seats and
per-seat lists, nested objects and lists of them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from companion.gamekit import (
    BLUE,
    GREEN,
    N_,
    Device,
    GameSpec,
    IllegalMove,
    Looks,
    Move,
    PerSeat,
    Result,
    Seat,
    Turn,
    Views,
    put,
    standard_frame,
)

Hand = Literal["rock", "paper", "scissors"]
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
HANDS = (N_("Rock"), N_("Paper"), N_("Scissors"))  # how the pages name each hand (its value, readable)


class Options(msgspec.Struct, forbid_unknown_fields=True):
    rounds: Annotated[int, Meta(ge=1, le=5, title=N_("Rounds"))] = 2


class Choose(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A seat's secret choice for the round."""

    hand: Annotated[Hand, Meta(title=N_("Your hand"))]
    stake: Annotated[int, Meta(ge=1, le=3, title=N_("Stake"))]
    draw_bet: Annotated[int, Meta(ge=0, le=10, title=N_("Points on a draw"),
                                  description=N_("Won if the round is a draw, lost otherwise."))] = 0
    all_in: Annotated[bool, Meta(title=N_("All in: the stake counts twice"))] = False
    shout: Annotated[str, Meta(max_length=24, title=N_("What you shout at the reveal"))] = ""
    guess: Annotated[Seat | None, Meta(title=N_("Who wins the round?"),
                                       description=N_("One more point if you are right."))] = None


class Reveal(msgspec.Struct, forbid_unknown_fields=True):
    """Turn both hands up, once both seats have chosen."""


class RoundView(msgspec.Struct):
    hands: Annotated[PerSeat[Hand], Meta(title=N_("Hands"))]
    shouts: Annotated[PerSeat[str], Meta(title=N_("Shouts"))]
    winner: Annotated[Seat | None, Meta(title=N_("Round won by"))]
    points: Annotated[PerSeat[int], Meta(title=N_("Points won"))]


class Public(msgspec.Struct):
    round: Annotated[int, Meta(title=N_("Round"))]
    rounds: Annotated[int, Meta(title=N_("Rounds"))]
    chosen: Annotated[PerSeat[bool], Meta(title=N_("Has chosen"))]
    scores: Annotated[PerSeat[int], Meta(title=N_("Scores"))]
    played: Annotated[list[RoundView], Meta(title=N_("Rounds played"))]
    winner: Annotated[Seat | None, Meta(title=N_("Winner"))]  # once over; None in a draw


class Private(msgspec.Struct):
    hand: Annotated[Hand | None, Meta(title=N_("Your hand"))]
    stake: Annotated[int | None, Meta(title=N_("Stake"))]
    draw_bet: Annotated[int | None, Meta(title=N_("Points on a draw"))]
    all_in: Annotated[bool | None, Meta(title=N_("All in: the stake counts twice"))]
    shout: Annotated[str | None, Meta(title=N_("What you shout at the reveal"))]
    guess: Annotated[Seat | None, Meta(title=N_("Who wins the round?"))]


@dataclass(frozen=True)
class State:
    rounds: int
    round: int = 1
    choices: tuple[Choose | None, ...] = (None, None)
    scores: tuple[int, ...] = (0, 0)
    played: tuple[tuple[Choose, Choose], ...] = ()  # each round's choices, turned up


def setup(options: Options, draws, data) -> State:
    return State(options.rounds)


def _choose(state: State, seat: int, args: Choose, draws):
    if args.all_in and args.stake < 3:
        raise IllegalMove("All in needs a stake of 3: raise the stake, or leave all in off.")
    return replace(state, choices=put(state.choices, seat, args)), [{"type": "chosen", "seat": seat}]


def _points(mine: Choose, theirs: Choose, winner: int | None) -> int:
    guessed = 1 if winner is not None and mine.guess == winner else 0
    if mine.hand == theirs.hand:
        return mine.draw_bet + guessed
    won = BEATS[mine.hand] == theirs.hand
    return (mine.stake * (2 if mine.all_in else 1) if won else 0) - mine.draw_bet + guessed


def _reveal(state: State, seat: int, args: Reveal, draws):
    scores = tuple(score + gained for score, gained in zip(state.scores, _round(*state.choices).points,
                                                           strict=True))
    new = State(state.rounds, state.round + 1, (None, None), scores, (*state.played, state.choices))
    return new, [{"type": "revealed"}]


def _round(first: Choose, second: Choose) -> RoundView:
    winner = 0 if BEATS[first.hand] == second.hand else 1 if BEATS[second.hand] == first.hand else None
    return RoundView([first.hand, second.hand], [first.shout, second.shout], winner,
                     [_points(first, second, winner), _points(second, first, winner)])


def may_choose(state: State, seat: int | None) -> bool:
    return not over(state) and seat in (0, 1) and state.choices[seat] is None


def may_reveal(state: State, seat: int | None) -> bool:
    return not over(state) and seat in (0, 1) and None not in state.choices


def waiting(state: State) -> list[int]:
    return [seat for seat in (0, 1) if may_choose(state, seat) or may_reveal(state, seat)]


def over(state: State) -> bool:
    return state.round > state.rounds


def public_view(state: State) -> Public:
    ahead = None
    if over(state) and state.scores[0] != state.scores[1]:
        ahead = 0 if state.scores[0] > state.scores[1] else 1
    return Public(min(state.round, state.rounds), state.rounds, [c is not None for c in state.choices],
                  list(state.scores), [_round(*choices) for choices in state.played], ahead)


def private_view(state: State, seat: int) -> Private:
    mine = state.choices[seat]
    if mine is None:
        return Private(None, None, None, None, None, None)
    return Private(mine.hand, mine.stake, mine.draw_bet, mine.all_in, mine.shout, mine.guess)


def screen(view: dict, canvas, _, table) -> None:
    status = _("Round {round} of {rounds}", round=view["round"], rounds=view["rounds"])
    body = standard_frame(canvas, _("Duel"), status, table)
    canvas.text(body, " – ".join(str(score) for score in view["scores"]), bold=True)


def result(view: dict) -> Result:
    return Result(() if view["winner"] is None else (view["winner"],), tuple(view["scores"]))


SPEC = GameSpec(
    name="duel",
    title=N_("Duel"),
    package=__name__,
    setup=setup,
    moves={
        "choose": Move(Choose, _choose, line=N_("{who} chose in secret"), label=N_("Choose"),
                       allowed=may_choose),
        "reveal": Move(Reveal, _reveal, line=N_("{who} turned the hands up"), label=N_("Reveal"),
                       allowed=may_reveal, reveals={"revealed"}),
    },
    turn=Turn(waiting=waiting, over=over),
    views=Views(public_view, private_view, result=result),
    device=Device(screen),
    looks=Looks(colours=(GREEN, BLUE)),
    seats=(2, 2),
    options=Options,
)
