"""Crash! for the tests: boards, arranged positions, chosen dice, and a random legal player."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from companion.gamekit.contract import Command, IllegalMove
from companion.gamekit.draws import Draws
from companion.games.crash import SPEC, rules
from companion.games.crash.board import CARS, DIRECTIONS, Board, car_index, load_board, step

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
    """One command with chosen dice, checked as the table checks it; (state, events)."""
    return SPEC.play(state, Command(kind, args or {}, seat), dice(*rolls))


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
            new, _events = SPEC.play(state, random_command(state, pick), draws)
        except IllegalMove as exc:
            raise AssertionError(f"a legal command was refused: {exc}") from None
        if each is not None:
            each(state, new)
        state = new
    return state


# --- quick games: the tests that play whole games through the device or a browser steer with this -----------
def to_edge(state: rules.State, cell, facing: int) -> int:
    """How many cells a car on `cell` drives towards `facing` before it leaves the board (or a junkyard)."""
    board, steps = state.board, 0
    while board.is_road(cell):
        cell, steps = step(cell, facing), steps + 1
    return steps


def quick_command(state: rules.State) -> Command:
    """A legal command that ends the game soon: each die drives its car towards the nearest edge (turning it
    first if it faces elsewhere). Every game ends in a few turns (test_crash_rules checks it)."""
    legal = rules.legal(state, None)
    if "next_game" in legal or "roll" in legal:
        return Command(legal[-1] if "next_game" in legal else "roll")
    cars = rules.steerable(state)
    if not cars:
        return Command("end")
    number = cars[0]
    index = car_index(state.turn, number)
    car = state.cars[index]
    if rules.waiting(state, index):
        return Command("move", {"car": number})
    best = min(range(6), key=lambda f: (to_edge(state, car.cell, f), f != car.facing))
    if best == car.facing or DIRECTIONS[best] not in rules.facings(state, number):
        return Command("move", {"car": number})
    return Command("turn", {"car": number, "facing": DIRECTIONS[best]})


# --- positions every output is checked with -----------------------------------------------------------
def showcase() -> dict[str, rules.State]:
    """Named moments of a game: a new game, the automatic phase to copy, steering with a die rolled again and
    one lost, a push chain of three into a junkyard, the ends (win, draw, stall), a match, dice only."""
    before = arranged(game(games=2), {
        (NORTH, 1): ((1, -2), "sw"), (NORTH, 2): ((-2, -1), "s"), (NORTH, 3): ((-1, -1), "s"),
        (NORTH, 6): ((3, -2), "sw"), (SOUTH, 1): ((2, 0), "n"), (SOUTH, 2): ((0, 0), "ne"),
        (SOUTH, 3): ((1, 1), "nw"), (SOUTH, 4): ((-2, 2), "ne"), (SOUTH, 5): ((0, 1), "nw"),
        (SOUTH, 6): ((-3, 3), "n")}, junk=[[], [(NORTH, 4)]], turn=SOUTH, phase=rules.STEER, turns=7)
    copy, _ = play(before, "end")  # North's automatic phase
    steer, _ = play(copy, "roll", rolls=[1, 5, 4, 1, 4])  # the 5 rolled again shows 1; the 4 twice: lost
    turned, _ = play(steer, "turn", {"car": 1, "facing": "s"})
    chained, _ = play(turned, "move", {"car": 1})  # car 1 pushes South's 2 and 5: the 5 into North's junkyard
    first = near_match_end(game(games=2))
    second = near_match_end(play(first, "next_game")[0])
    draw = arranged(game(), {(NORTH, 1): ((3, -1), "s"), (SOUTH, 1): ((3, 0), "n"),
                             (NORTH, 6): ((-3, 0), "s")},
                    junk=[[(SOUTH, 2)], [(NORTH, 3)]])
    dice_only, _ = play(game(dice_only=True), "mark_out", {"owner": SOUTH, "car": 2, "by": NORTH})
    return {
        "new game": game(), "automatic phase": copy, "steering": steer, "turned": turned,
        "push chain": chained,
        "won": near_match_end(game()), "draw": play(steering(draw, 1), "move", {"car": 1})[0],
        "stalled": play(steering(game(stall_turns=1), 2), "end")[0],
        "match, game 1 over": first, "match over": second, "sixty": steering(game(sixty=True), 1, 2, 3),
        "dice only": dice_only, "dice only, steering": play(dice_only, "roll", rolls=[2, 3, 6])[0]}


def near_match_end(state: rules.State) -> rules.State:
    """`state`'s game just won by North, 3-1: its car 1 pushed South's last car off the board."""
    end = arranged(state, {(NORTH, 1): ((3, -1), "s"), (SOUTH, 2): ((3, 0), "n"), (NORTH, 6): ((-3, 0), "s")},
                   junk=[[(SOUTH, 1), (SOUTH, 3)], [(NORTH, 2)]])
    return play(steering(end, 1), "move", {"car": 1})[0]


# --- the device's buttons ------------------------------------------------------------------------------
def legal_commands(state: rules.State) -> list[Command]:
    """Every command the table may send now, each manoeuvre of each free die spelt out (mark_out: every car
    in play to each place)."""
    commands = []
    for kind in rules.legal(state, None):
        if kind == "turn":
            commands += [Command("turn", {"car": car, "facing": f}) for car in rules.steerable(state)
                         for f in rules.facings(state, car)]
        elif kind == "move":
            commands += [Command("move", {"car": car}) for car in rules.steerable(state)]
        elif kind == "mark_out":
            commands += [Command("mark_out", {"owner": i // CARS, "car": i % CARS + 1, "by": by})
                         for i, car in enumerate(state.cars) if car is not None for by in (None, 0, 1)]
        else:
            commands.append(Command(kind))
    return commands


def keys_for(command: Command, view: dict) -> list[str]:
    """The presses that make `command` at the device, from no input in progress (docs/games/crash.md)."""
    kind, args = command.kind, command.args
    if kind in ("roll", "next_game"):
        return ["roll"]
    if kind == "end":
        left = view["mode"] == "board" and any(d["usable"] for d in view["dice"])
        return ["d", "d"] if left else ["d"]
    if kind == "mark_out":
        where = 0 if args["by"] is None else args["by"] + 1
        return ["a", *["b"] * args["owner"], "d", *["b"] * (args["car"] - 1), "d", *["b"] * where, "d"]
    die = next(i for i, d in enumerate(view["dice"]) if d["usable"] and d["value"] == args["car"])
    keys = ["abc"[die]]
    if kind == "move":
        return [*keys, "c", "d"]
    car = next(c for c in view["cars"] if c["seat"] == view["turn"] and c["car"] == args["car"])
    turn = (DIRECTIONS.index(args["facing"]) - DIRECTIONS.index(car["facing"])) % 6
    return [*keys, *(["b"] * turn if turn <= 3 else ["a"] * (6 - turn)), "d"]
