"""What Crash! shows: the whole public table (Crash! has no secrets) and each seat's own choices."""

from __future__ import annotations

from typing import Literal

import msgspec

from companion.gamekit import MatchGame, Result
from companion.games.crash.board import CARS, DIRECTIONS, PLAYERS, car_index, car_of
from companion.games.crash.rules import (
    OVER,
    State,
    actor,
    facings,
    in_play,
    legal,
    match_winner,
    steerable,
    usable,
    waiting,
)


class CarRef(msgspec.Struct):
    seat: int
    car: int


class CarOnCell(msgspec.Struct):
    seat: int
    car: int
    facing: str


class CellView(msgspec.Struct):
    """A board cell: a junkyard's owner if it is one, and the car standing on it."""

    q: int
    r: int
    junkyard: int | None
    car: CarOnCell | None


class JunkyardView(msgspec.Struct):
    q: int
    r: int
    owner: int
    count: int
    cars: list[CarRef]  # in the order taken


class GarageView(msgspec.Struct):
    q: int
    r: int
    owner: int
    car: int
    facing: str
    waiting: bool  # its car has not left it yet


class CarView(msgspec.Struct):
    """One of the 12 cars. `q`, `r` and `facing` are None when the car is gone or the board untracked."""

    seat: int
    car: int
    status: Literal["waiting", "board", "captured", "out"]
    q: int | None
    r: int | None
    facing: str | None
    by: int | None  # the junkyard's owner, when captured
    moved: bool  # the last command moved or pushed it


class PlayerView(msgspec.Struct):
    """A seat's cars: in play, captured in its junkyard (and their colours), its own cars lost."""

    seat: int
    in_play: int
    captured: int
    captured_colours: list[int]  # captured_colours[c]: cars of seat c in this seat's junkyard
    out: int  # own cars off the board, captured by nobody
    taken: int  # own cars in either junkyard


class DieView(msgspec.Struct):
    value: int
    first: int | None  # what it showed before it was rolled again
    rerolled: bool
    state: Literal["free", "used", "lost"]
    usable: bool  # free, and its car is still in play


class ResultView(msgspec.Struct):
    winner: int | None  # None: a draw
    reason: Literal["no_cars", "stalled"]
    junkyards: list[int]  # cars in each seat's junkyard


class MatchView(msgspec.Struct):
    games: int
    game: int  # the number of the game being played (or just finished), from 1
    played: int  # games finished
    wins: list[int]
    draws: int
    captured: list[int]  # cars each seat captured over the finished games
    captured_colours: list[list[int]]
    over: bool
    winner: int | None  # once over: more wins, then more cars captured; None for a draw


class PublicView(msgspec.Struct):
    mode: Literal["board", "dice"]
    sixty: bool
    stall_turns: int
    quiet: int  # turns ended since a car last left play
    side: int
    reconstructed: list[str]
    cells: list[CellView]
    junkyards: list[JunkyardView]
    garages: list[GarageView]
    cars: list[CarView]
    players: list[PlayerView]
    phase: Literal["roll", "steer", "over"]
    turn: int
    actor: int | None
    first: int
    turns: int
    moves: int
    dice: list[DieView]
    moved: list[CarRef]
    result: ResultView | None
    match: MatchView
    legal: list[str]


class PrivateView(msgspec.Struct):
    seat: int
    my_turn: bool
    legal: list[str]
    steerable: list[int]  # own car numbers a free die can steer now
    facings: dict[str, list[str]]  # for each of those cars, the directions it may turn to


def _car(state: State, index: int) -> CarView:
    seat, number = car_of(index)
    car = state.cars[index]
    moved = index in state.moved
    if car is None:
        by = next((s for s in range(PLAYERS) if index in state.junk[s]), None)
        return CarView(seat, number, "out" if by is None else "captured", None, None, None, by, moved)
    status: Literal["waiting", "board"] = "waiting" if waiting(state, index) else "board"
    if car.cell is None:
        return CarView(seat, number, status, None, None, None, None, moved)
    return CarView(seat, number, status, car.cell[0], car.cell[1], DIRECTIONS[car.facing], None, moved)


def _player(state: State, seat: int) -> PlayerView:
    colours = [sum(car_of(i)[0] == c for i in state.junk[seat]) for c in range(PLAYERS)]
    taken = sum(car_of(i)[0] == seat for junk in state.junk for i in junk)
    return PlayerView(seat, in_play(state, seat), len(state.junk[seat]), colours,
                      sum(car_of(i)[0] == seat for i in state.out), taken)


def _match(state: State) -> MatchView:
    m = state.match
    return MatchView(m.games, min(m.played + (state.phase != OVER), m.games), m.played, list(m.wins), m.draws,
                     [sum(row) for row in m.captured], [list(row) for row in m.captured], m.over,
                     match_winner(m) if m.over else None)


def public_view(state: State) -> PublicView:
    board = state.board
    on_cell = {car.cell: (i, car) for i, car in enumerate(state.cars) if car is not None}
    cells = []
    for cell in sorted(board.cells):
        hit = on_cell.get(cell)
        car = None if hit is None else CarOnCell(*car_of(hit[0]), DIRECTIONS[hit[1].facing])
        cells.append(CellView(cell[0], cell[1], board.owner_of(cell), car))
    junkyards = [JunkyardView(cell[0], cell[1], seat, len(state.junk[seat]),
                              [CarRef(*car_of(i)) for i in state.junk[seat]])
                 for seat, cell in enumerate(board.junkyards)]
    garages = [GarageView(g.cell[0], g.cell[1], g.owner, g.car, DIRECTIONS[g.facing],
                          waiting(state, car_index(g.owner, g.car))) for g in board.garages]
    dice = [DieView(d.value, d.first, d.first is not None, "used" if d.used else "lost" if d.lost else "free",
                    usable(state, d)) for d in state.dice]
    result = None if state.result is None else ResultView(state.result.winner, state.result.reason,
                                                          [len(j) for j in state.junk])
    return PublicView(
        mode="dice" if state.dice_only else "board", sixty=state.sixty, stall_turns=state.stall_turns,
        quiet=state.quiet, side=board.side, reconstructed=list(board.reconstructed), cells=cells,
        junkyards=junkyards, garages=garages, cars=[_car(state, i) for i in range(PLAYERS * CARS)],
        players=[_player(state, s) for s in range(PLAYERS)], phase=state.phase, turn=state.turn,
        actor=actor(state), first=state.first, turns=state.turns, moves=state.moves, dice=dice,
        moved=[CarRef(*car_of(i)) for i in state.moved], result=result, match=_match(state),
        legal=legal(state, None))


def private_view(state: State, seat: int) -> PrivateView:
    """A seat's own choices; Crash! hides nothing, so this only saves a phone some work."""
    mine = actor(state) == seat
    cars = steerable(state) if mine else []
    return PrivateView(seat, mine, legal(state, seat) if 0 <= seat < PLAYERS else [], cars,
                       {str(n): facings(state, n) for n in cars})


def match_game(view: dict) -> MatchGame | None:
    """Which game of a match of several the view shows, and whether it has ended."""
    match = view["match"]
    if match["games"] < 2:
        return None
    return MatchGame(match["game"], match["games"], view["result"] is not None)


def result(view: dict) -> Result:
    """The match's winner (none for a drawn match) and each seat's score: its games won in a match of
    several, the cars in its junkyard in a single game (the numbers the pages' headline shows)."""
    match = view["match"]
    single = match["games"] == 1 and view["result"] is not None
    scores = view["result"]["junkyards"] if single else match["wins"]
    return Result(() if match["winner"] is None else (match["winner"],), tuple(scores))
