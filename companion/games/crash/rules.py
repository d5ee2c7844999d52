"""Rules of Crash!: cars roll on by themselves, push each other, and three dice steer a few of them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Any, Final, Literal

import msgspec

from companion.gamekit import N_, IllegalMove, Move, Seat, allowed_moves, put
from companion.games.crash import commands
from companion.games.crash.board import CARS, DIRECTIONS, PLAYERS, Board, car_index, car_of, step

ROLL: Final = "roll"
STEER: Final = "steer"
OVER: Final = "over"
Phase = Literal["roll", "steer", "over"]
Reason = Literal["no_cars", "stalled"]  # the rulebook's end, or our stall stop
DICE = 3


class CrashOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Setup options: who starts, the 60-degree turns, the match length, dice-only play, the stall stop."""

    # A seat (0 is North), as recorded since the first match: the host's form offers North and South by name.
    first: Annotated[Seat, msgspec.Meta(le=1, title=N_("First player"))] = 0
    sixty: Annotated[bool, msgspec.Meta(title=N_("A die turns a car by 60 degrees only"))] = False
    # The type is spelt out: msgspec gives an enum of numbers none, and the host's form reads an option
    # without a type as text.
    games: Annotated[Literal[1, 2, 4, 6, 8, 10], msgspec.Meta(
        title=N_("Games in the match (1, or an even number)"), extra_json_schema={"type": "integer"})] = 1
    dice_only: Annotated[bool, msgspec.Meta(
        title=N_("Dice only: roll the steering dice, do not track the board"))] = False
    # Our ruling, not the rulebook's: two cars meeting head-on can push each other back and forth
    # for ever (see tests), so a game stops after this many turns in a row with no car leaving play.
    stall_turns: Annotated[int, msgspec.Meta(
        ge=0, le=200, title=N_("End the game after this many turns with no car out (0: never)"))] = 30


@dataclass(frozen=True)
class Car:
    """A car in play: its cell (a garage before its first move; None when the board is not tracked)."""

    cell: tuple[int, int] | None
    facing: int


@dataclass(frozen=True)
class Die:
    """A steering die: its value, what it showed first if it was rolled again, and its use."""

    value: int
    first: int | None = None
    used: bool = False
    lost: bool = False


@dataclass(frozen=True)
class Match:
    """The running totals of a match; `captured[seat][colour]` counts cars in seat's junkyards."""

    games: int
    first: int  # the seat that began game 1
    played: int = 0
    wins: tuple[int, ...] = (0, 0)
    draws: int = 0
    captured: tuple[tuple[int, ...], ...] = ((0, 0), (0, 0))

    @property
    def over(self) -> bool:
        return self.played >= self.games


@dataclass(frozen=True)
class Result:
    winner: int | None  # None: a draw
    reason: Reason


@dataclass(frozen=True)
class State:
    """One game of the match. Tuples everywhere: undo keeps every earlier state alive."""

    board: Board
    sixty: bool
    dice_only: bool
    stall_turns: int
    match: Match
    first: int
    turn: int
    cars: tuple[Car | None, ...]  # by car index (board.car_index); None: no longer in play
    junk: tuple[tuple[int, ...], ...] = ((), ())  # junk[seat]: car indices in seat's junkyard, in order
    out: tuple[int, ...] = ()  # car indices out of the game, captured by nobody
    phase: Phase = ROLL
    dice: tuple[Die, ...] = ()
    moved: tuple[int, ...] = ()  # cars the last command moved or pushed
    quiet: int = 0  # turns ended since a car last left play
    turns: int = 0  # the number of the turn being played, from 1
    result: Result | None = None
    moves: int = 0  # commands accepted this game


def in_play(state: State, seat: int) -> int:
    return sum(car is not None for car in state.cars[seat * CARS:(seat + 1) * CARS])


def waiting(state: State, index: int) -> bool:
    """A car still in its garage: off the board but in play, until its first move."""
    car = state.cars[index]
    return car is not None and car.cell is not None and car.cell == state.board.garages[index].cell


def usable(state: State, die: Die) -> bool:
    """A die that can still steer its car."""
    return (state.phase == STEER and not state.dice_only and not die.used and not die.lost
            and state.cars[car_index(state.turn, die.value)] is not None)


def steerable(state: State) -> list[int]:
    """The active player's car numbers a free die can steer now."""
    return sorted({d.value for d in state.dice if usable(state, d)})


def car_at(cars: tuple[Car | None, ...], index: int) -> Car:
    """Car `index`, which the rules know to be in play: a move names no other."""
    car = cars[index]
    if car is None:
        raise ValueError(f"car {index} is out of play")
    return car


def cell_of(car: Car) -> tuple[int, int]:
    """Where `car` stands: only a game on the board drives cars, and it tracks every cell."""
    if car.cell is None:
        raise ValueError("a game with dice alone tracks no cell")
    return car.cell


def facings(state: State, number: int) -> list[str]:
    """The directions car `number` of the active player may turn to."""
    facing = car_at(state.cars, car_index(state.turn, number)).facing
    if state.sixty:
        return [DIRECTIONS[(facing - 1) % 6], DIRECTIONS[(facing + 1) % 6]]
    return [d for i, d in enumerate(DIRECTIONS) if i != facing]


# --- setting up a game -----------------------------------------------------------------------------
def setup(options: CrashOptions | None, draws, data: Mapping[str, Any]) -> State:
    """Game 1 of a match; the first player's automatic phase has already run (no randomness needed)."""
    options = options or CrashOptions()
    state = State(board=data["board"], sixty=options.sixty, dice_only=options.dice_only,
                  stall_turns=options.stall_turns, match=Match(options.games, options.first),
                  first=options.first, turn=options.first, cars=())
    return _new_game(state, [])


def _new_game(state: State, events: list[dict]) -> State:
    """A fresh game on `state`'s board: every car in its garage, then the first player's turn."""
    first = state.match.first if state.match.played % 2 == 0 else 1 - state.match.first
    cars = tuple(Car(None if state.dice_only else g.cell, g.facing) for g in state.board.garages)
    state = replace(state, first=first, cars=cars, junk=((), ()), out=(), dice=(), moved=(), quiet=0,
                    turns=0, result=None, moves=0, phase=ROLL)
    return _start_turn(state, first, events)


def _start_turn(state: State, seat: int, events: list[dict]) -> State:
    """`seat`'s turn begins: its automatic phase runs at once, unless the board is not tracked."""
    state = replace(state, turn=seat, phase=ROLL, dice=(), moved=(), turns=state.turns + 1)
    events.append({"type": "turn", "seat": seat, "turn": state.turns})
    if state.dice_only:
        return state
    moved: list[int] = []
    for number in range(1, CARS + 1):  # in increasing number order, whatever a push did to them
        index = car_index(seat, number)
        car = state.cars[index]
        if car is None:
            continue
        state, chain = _drive(state, index, car.facing, "auto", events)
        moved += chain
        # (ruling) The game ends "dès qu'un joueur n'a plus de voitures": at once. A push is one motion,
        # so the line that pushed the last car out has moved in full, but no later car moves.
        if state.phase == OVER:
            break
    return replace(state, moved=tuple(dict.fromkeys(moved)))


# --- moving and pushing ------------------------------------------------------------------------------
def _drive(state: State, index: int, facing: int, how: str, events: list[dict]) -> tuple[State, list[int]]:
    """Car `index` moves one cell towards `facing`, pushing the line of cars ahead; returns the line.

    Every car of the line moves one cell at once and keeps its facing. Only the last can leave play:
    each other one moves into a cell a car stood on, which is neither a junkyard nor off the board.
    """
    board = state.board
    ahead = {car.cell: i for i, car in enumerate(state.cars) if car is not None and car.cell in board.cells}
    chain = [index]
    cell = step(cell_of(car_at(state.cars, index)), facing)
    while cell in ahead:
        chain.append(ahead[cell])
        cell = step(cell, facing)
    cars = state.cars
    moves = []
    for i in chain:
        car = car_at(cars, i)
        to = step(cell_of(car), facing)
        stays = board.is_road(to)
        cars = put(cars, i, Car(to, car.facing) if stays else None)
        moves.append({"seat": car_of(i)[0], "car": car_of(i)[1], "from": list(cell_of(car)),
                      "to": list(to) if stays else None})
    seat, number = car_of(index)
    events.append({"type": how, "seat": seat, "car": number, "facing": DIRECTIONS[facing], "cars": moves})
    state = replace(state, cars=cars)
    last = chain[-1]
    if cars[last] is None:
        state = _leave(state, last, board.owner_of(cell), events)
    return state, chain


def _leave(state: State, index: int, by: int | None, events: list[dict]) -> State:
    """Car `index` has left play: into `by`'s junkyard, or out (by None). The game may end here."""
    seat, number = car_of(index)
    state = replace(state, cars=put(state.cars, index, None), quiet=0)
    if by is None:
        state = replace(state, out=state.out + (index,))
        events.append({"type": "out", "seat": seat, "car": number})
    else:
        state = replace(state, junk=put(state.junk, by, state.junk[by] + (index,)))
        events.append({"type": "captured", "seat": seat, "car": number, "by": by})
    if in_play(state, seat) == 0:
        return _finish(state, "no_cars", events)
    return state


def _finish(state: State, reason: Reason, events: list[dict]) -> State:
    """The game is over: the fuller junkyard wins, equal is a draw; the match totals take it in."""
    counts = [len(j) for j in state.junk]
    winner = None if counts[0] == counts[1] else counts.index(max(counts))
    match = state.match
    captured = tuple(tuple(match.captured[s][c] + sum(car_of(i)[0] == c for i in state.junk[s])
                           for c in range(PLAYERS)) for s in range(PLAYERS))
    match = replace(match, played=match.played + 1, captured=captured, draws=match.draws + (winner is None),
                    wins=match.wins if winner is None else put(match.wins, winner, match.wins[winner] + 1))
    events.append({"type": "game_over", "winner": winner, "reason": reason, "junkyards": counts})
    if match.over:
        events.append({"type": "match_over", "winner": match_winner(match), "wins": list(match.wins)})
    return replace(state, phase=OVER, dice=(), result=Result(winner, reason), match=match)


def match_winner(match: Match) -> int | None:
    """More games won; equal, more cars captured in all (the rulebook's tournament hint); else None."""
    for score in (match.wins, tuple(sum(row) for row in match.captured)):
        if score[0] != score[1]:
            return 0 if score[0] > score[1] else 1
    return None


# --- who may act -----------------------------------------------------------------------------------
def over(state: State) -> bool:
    """Whether the match has ended: between two of its games, only next_game is left to send."""
    return state.phase == OVER and state.match.over


def actor(state: State) -> int | None:
    """The seat that must act now: the player whose turn it is, nobody once the game is over."""
    return None if state.phase == OVER else state.turn


def legal(state: State, seat: int | None) -> list[str]:
    """The command kinds `seat` (None: the table) may send now."""
    return allowed_moves(MOVES, state, seat, over)


# When each move is allowed, and what its sender is told when it is not: from public facts only.
# Another seat than the player to move is told to wait for them (by the table) before these words.
GAME_ENDED = N_("This game is over: send next_game to start the next game of the match.")


def _may_roll(state: State, seat: int | None):
    if state.phase == OVER:
        return GAME_ENDED
    return state.phase == ROLL and seat in (None, state.turn) or N_(
        "You have rolled already: use your dice, then end your turn.")


def _may_steer(state: State, seat: int | None):
    """Turning or moving a car: with a free die naming it, on a tracked board."""
    if state.phase == OVER:
        return GAME_ENDED
    if state.dice_only:
        return N_("The board is not tracked in this game (dice only): steer the cars by hand.")
    if state.phase == ROLL:
        return N_("Roll the steering dice first.")
    return bool(steerable(state)) and seat in (None, state.turn) or N_(
        "No free die can steer a car now: end your turn.")


def _may_end(state: State, seat: int | None):
    if state.phase == OVER:
        return GAME_ENDED
    if state.phase == ROLL:
        return N_("Roll the steering dice first.")
    return seat in (None, state.turn) or N_("No free die can steer a car now: end your turn.")


def _may_mark_out(state: State, seat: int | None):
    if state.phase == OVER:
        return GAME_ENDED
    return state.dice_only and seat in (None, state.turn) or N_(
        "The board is tracked in this game: cars leave play by moving, not by mark_out.")


def _may_start_next(state: State, seat: int | None):
    return state.phase == OVER and not state.match.over or N_(
        "This game is not over yet: next_game starts the next game of the match.")


# --- commands --------------------------------------------------------------------------------------
def _roll(state: State, seat: int, args, draws):
    first = [draws.die(6) for _ in range(DICE)]
    dice = []
    for value in first:  # all three are rolled, then the misses are rolled again, in die order
        if state.cars[car_index(seat, value)] is not None:
            dice.append(Die(value))
        else:
            again = draws.die(6)
            dice.append(Die(again, first=value, lost=state.cars[car_index(seat, again)] is None))
    state = replace(state, phase=STEER, dice=tuple(dice), moved=())
    return state, [{"type": "rolled", "seat": seat, "dice": [d.value for d in dice],
                    "first": [d.first for d in dice], "lost": [d.lost for d in dice]}]


def _spend(state: State, seat: int, number: int) -> tuple[int, State]:
    """The active car `number` and the state with the first free die showing it used."""
    index = car_index(seat, number)
    if state.cars[index] is None:
        raise IllegalMove("Your car {car} is out of play: steer a car still in play.", car=number)
    for i, die in enumerate(state.dice):
        if die.value == number and usable(state, die):
            return index, replace(state, dice=put(state.dice, i, replace(die, used=True)))
    raise IllegalMove("No free die shows {car}: steer a car a free die shows.", car=number)


def _turn(state: State, seat: int, args, draws):
    index, spent = _spend(state, seat, args.car)
    car = car_at(state.cars, index)
    if args.facing not in facings(state, args.car):
        if args.facing == DIRECTIONS[car.facing]:
            raise IllegalMove("Car {car} already faces {facing}: choose another direction.", car=args.car,
                              facing=args.facing)
        raise IllegalMove("A die turns a car by 60 degrees in this game: car {car} can face {left} or "
                          "{right}.", car=args.car, left=facings(state, args.car)[0],
                          right=facings(state, args.car)[1])
    facing = DIRECTIONS.index(args.facing)
    spent = replace(spent, cars=put(spent.cars, index, Car(car.cell, facing)), moved=())
    return spent, [{"type": "turned", "seat": seat, "car": args.car, "facing": args.facing}]


def _move(state: State, seat: int, args, draws):
    index, spent = _spend(state, seat, args.car)
    events: list[dict] = []
    moved, chain = _drive(spent, index, car_at(spent.cars, index).facing, "move", events)
    return replace(moved, moved=tuple(chain)), events


def _end(state: State, seat: int, args, draws):
    events: list[dict] = [{"type": "ended", "seat": seat}]
    state = replace(state, quiet=state.quiet + 1)
    if state.stall_turns and state.quiet >= state.stall_turns:
        return replace(_finish(state, "stalled", events), moved=()), events
    return _start_turn(state, 1 - seat, events), events


def _mark_out(state: State, seat: int, args, draws):
    index = car_index(args.owner, args.car)
    if state.cars[index] is None:
        raise IllegalMove("That car is already out of play: mark a car still in play.")
    events: list[dict] = []
    return replace(_leave(state, index, args.by, events), moved=(index,)), events


def _next_game(state: State, seat, args, draws):
    events: list[dict] = [{"type": "next_game", "game": state.match.played + 1}]
    return _new_game(state, events), events


# In the order the pages offer them: steering, then marking a car out by hand, then ending the turn.
MOVES = {
    "roll": Move(commands.Roll, _roll, line=N_("{who} rolled the steering dice"), allowed=_may_roll,
                 rolls={"rolled"}, reveals={"rolled"}),  # nobody rolls again for better dice
    "turn": Move(commands.Turn, _turn, line=N_("{who} turned a car"), allowed=_may_steer),
    "move": Move(commands.Move, _move, line=N_("{who} moved a car forward"), allowed=_may_steer),
    "mark_out": Move(commands.MarkOut, _mark_out, line=N_("{who} marked a car out"), allowed=_may_mark_out),
    "end": Move(commands.End, _end, line=N_("{who} ended their turn"), allowed=_may_end),
    "next_game": Move(commands.NextGame, _next_game, line=N_("The next game of the match began"),
                      allowed=_may_start_next),
}


def count_move(old: State, new: State) -> State:
    """Every accepted command counts one move."""
    return replace(new, moves=new.moves + 1)
