"""Crash! for the tests: boards, arranged positions, chosen dice, and a random legal player."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from companion.draws import Draws
from companion.games.crash import rules
from companion.games.crash.board import CARS, DIRECTIONS, Board, car_index, load_board
from companion.games.spec import Command, IllegalMove

BOARD_TEXT = (Path(__file__).resolve().parent.parent / "companion/games/crash/board.toml").read_text()
NORTH, SOUTH = 0, 1
Pick = Callable[[Sequence], object]  # chooses one of a list: rng.choice, or a hypothesis draw


def board(text: str = BOARD_TEXT, name: str = "board.toml") -> Board:
    return load_board(text, name)


def game(data: Board | None = None, **options) -> rules.State:
    """A new game on `data` (the bundled board if None); the first player's automatic phase has run."""
    return rules.setup(rules.CrashOptions(**options), Draws([]), {"board": data or board()})


def dice(*values: int) -> Draws:
    """Draws that replay these die faces, in the order the rules roll them."""
    return Draws([v - 1 for v in values])


def play(state, kind: str, args: dict | None = None, rolls: Sequence[int] = (), seat=None):
    """One command with chosen dice; (state, events)."""
    return rules.apply(state, Command(kind, args or {}, seat), dice(*rolls))


def arranged(state: rules.State, cars: dict[tuple[int, int], tuple[tuple[int, int], str]],
             junk: Sequence[Sequence[tuple[int, int]]] = ((), ()), turn: int = NORTH,
             phase: str = rules.ROLL, **changes) -> rules.State:
    """`state` with only `cars` ({(seat, number): (cell, facing)}) in play; the other cars are in the
    junkyards as `junk` says ([seat] -> cars) or else out."""
    tracked: list[rules.Car | None] = [None] * (2 * CARS)
    for (seat, number), (cell, facing) in cars.items():
        tracked[car_index(seat, number)] = rules.Car(cell, DIRECTIONS.index(facing))
    junks = tuple(tuple(car_index(*c) for c in row) for row in junk)
    taken = {i for row in junks for i in row}
    out = tuple(i for i, car in enumerate(tracked) if car is None and i not in taken)
    return replace(state, cars=tuple(tracked), junk=junks, out=out, turn=turn, phase=phase, dice=(), moved=(),
                   **changes)


def steering(state: rules.State, *values: int) -> rules.State:
    """`state` in its steering phase with these dice free (no roll)."""
    return replace(state, phase=rules.STEER, dice=tuple(rules.Die(v) for v in values))


def cell_of(state, seat: int, number: int):
    car = state.cars[car_index(seat, number)]
    return None if car is None else car.cell


def facing_of(state, seat: int, number: int) -> str:
    return DIRECTIONS[state.cars[car_index(seat, number)].facing]


class PickedDraws(Draws):
    """Draws whose every value `pick` chooses (a hypothesis draw, so a failure shrinks)."""

    def __init__(self, pick: Pick):
        super().__init__()
        self.pick = pick

    def below(self, n: int) -> int:
        value = self.pick(range(n))
        self.taken.append(value)
        return value


def random_command(state: rules.State, pick: Pick) -> Command:
    """A legal command for whoever must act (or for anyone once a game of the match is over)."""
    kind = pick(rules.legal(state, None))
    seat = pick([None, rules.actor(state)])
    if kind in ("turn", "move"):
        car = pick(rules.steerable(state))
        if kind == "move":
            return Command(kind, {"car": car}, seat)
        return Command(kind, {"car": car, "facing": pick(rules.facings(state, car))}, seat)
    if kind == "mark_out":
        playing = [i for i, car in enumerate(state.cars) if car is not None]
        owner, car = divmod(pick(playing), CARS)
        return Command(kind, {"owner": owner, "car": car + 1, "by": pick([None, 0, 1])}, seat)
    return Command(kind, {}, seat)


def play_out(state: rules.State, pick: Pick, draws: Draws, limit: int, each=None) -> rules.State:
    """Random legal play until the game is over (never past `limit` commands); `each(old, new)` sees
    every step. A refused command fails: random_command sends legal ones only."""
    for _ in range(limit):
        if state.phase == rules.OVER:
            return state
        try:
            new, _events = rules.apply(state, random_command(state, pick), draws)
        except IllegalMove as exc:
            raise AssertionError(f"a legal command was refused: {exc}") from None
        if each is not None:
            each(state, new)
        state = new
    return state
